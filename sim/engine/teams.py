"""Team capacity over time: headcount, coordination overhead, newcomers ramping up.

Output per day = (veterans + newcomers' ramped share - mentoring they take)
x (1 - overhead(n)) x seniority factor / attention split. docs/model.md, "Teams".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.engine.org import coordination_overhead
from sim.scenario.spec import Team
from sim.units import Days, PersonDays, TeamId, Usd

#: Days for a newcomer to reach full productivity on an LLM team.
RAMP_DAYS = 60.0
#: Share of a person a newcomer takes from veterans while fully new (mentoring, questions).
MENTOR_SHARE = 0.5
#: Attention lost per extra parallel model variant on a core team.
VARIANT_ATTENTION = 0.25


def seniority_factor(seniority: float) -> float:
    """Productivity multiplier from seniority in [0, 1]: 0.5 for juniors, 1.3 for seniors."""
    return 0.5 + 0.8 * seniority


@dataclass
class TeamState:
    """A team during a play. Headcount changes through joins and departures."""

    spec: Team
    attention: float = 1.0
    veterans: int = 0
    newcomers: list[Days] = field(default_factory=list)
    active: int = 0
    _person_days: PersonDays = 0.0
    _since: Days = 0.0
    _charged: PersonDays = 0.0
    _settled: dict[int, PersonDays] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.veterans = self.spec.headcount

    @property
    def id(self) -> TeamId:
        return self.spec.id

    @property
    def core(self) -> bool:
        return self.spec.core

    @property
    def headcount(self) -> int:
        return self.veterans + len(self.newcomers)

    def capacity(self, now: Days) -> PersonDays:
        """Person-days of output per calendar day at ``now``."""
        if not self.newcomers:
            cached = self._settled.get(self.veterans)
            if cached is None:
                cached = self._settled[self.veterans] = self._capacity(now)
            return cached
        return self._capacity(now)

    def _capacity(self, now: Days) -> PersonDays:
        ramped = [min(1.0, max(0.0, (now - d) / RAMP_DAYS)) for d in self.newcomers]
        raw = self.veterans + sum(ramped) - MENTOR_SHARE * sum(1.0 - r for r in ramped)
        n = self.headcount
        out = raw * (1.0 - coordination_overhead(n, self.core))
        out *= seniority_factor(self.spec.seniority) * self.attention
        return max(0.05 * max(n, 1), out)

    # --- headcount changes, keeping the person-day integral exact ---------------------------

    def _accrue(self, now: Days) -> None:
        self._person_days += self.headcount * (now - self._since)
        self._since = now

    def join(self, now: Days, people: int = 1) -> None:
        self._accrue(now)
        self.newcomers.extend([now] * people)
        self.promote(now)

    def leave(self, now: Days) -> None:
        """One person leaves; veterans first (key people are the experienced ones)."""
        self._accrue(now)
        if self.veterans > 0:
            self.veterans -= 1
        elif self.newcomers:
            self.newcomers.pop()

    def promote(self, now: Days) -> None:
        """Newcomers who finished ramping become veterans."""
        done = [d for d in self.newcomers if now - d >= RAMP_DAYS]
        if done:
            self.newcomers = [d for d in self.newcomers if now - d < RAMP_DAYS]
            self.veterans += len(done)

    def person_days(self, now: Days) -> PersonDays:
        self._accrue(now)
        return self._person_days

    def accrue_person_days(self, now: Days) -> PersonDays:
        """The person-days worked up to ``now`` and not yet charged, now marked charged.

        Joins and departures bring the integral up to date on their own; what they added
        is still uncharged until this is called, so no salary day goes missing.
        """
        self._person_days += (self.veterans + len(self.newcomers)) * (now - self._since)
        self._since = now
        due = self._person_days - self._charged
        self._charged = self._person_days
        return due

    def cost_usd(self, person_days: PersonDays) -> Usd:
        return person_days * self.spec.usd_per_person_day
