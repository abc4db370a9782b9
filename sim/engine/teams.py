"""Team output from communication and coordination: Brooks's pairs, ramp-up, saturation.

A team's people are shared out over the pieces of work it has on hand. On one piece, the
people who work on it coordinate in pairs, as much as the work needs co-design, so each
unit of work costs ``1 + CO_DESIGN_COST * co_design * (people - 1)`` units of effort; a
piece splits into at most ``effort / TASK_PERSON_DAYS`` tasks, so people beyond that have
nothing of their own to do on it ("doing stuff") and add noise instead. Newcomers ramp up
and take veterans' time. docs/model.md, "Teams".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sim.scenario.spec import Team
from sim.units import WORK_HOURS_PER_PERSON_DAY, Days, PersonDays, TeamId, Usd

#: Effort per unit of work added by each extra person on fully co-designed work. Calibrated
#: to QSM's 2005 study: on projects of the same size, a team 5.1 times larger (29 against 5.7
#: people on average) finished 6% sooner (6.6 against 7 months) at 4.8 times the effort.
CO_DESIGN_COST = 0.68
#: The smallest task a piece of work splits into, in person-days: work of ``E`` person-days
#: keeps at most ``E / TASK_PERSON_DAYS`` people busy.
TASK_PERSON_DAYS = 1.5
#: Days for a newcomer to reach full productivity on an LLM team.
RAMP_DAYS = 60.0
#: Share of a person a newcomer takes from veterans while fully new (mentoring, questions).
MENTOR_SHARE = 0.5
#: Hours a day an owner spends watching one risk it owns: a look at its dashboards and
#: alerts the length of a daily stand-up (the Scrum Guide's 15-minute time-box).
WATCH_HOURS_PER_RISK_DAY = 0.25


#: Days a ramping team keeps its output per head for (the moments a play reads it at).
SHARES_KEPT = 8

#: Days between a resignation and the leaver's last day: the two weeks' notice customary in
#: the United States. An owner of the staffing risk starts the search and the handover then.
NOTICE_DAYS = 14.0


def watching(risks: int) -> float:
    """People's worth of a team's day spent watching ``risks`` risks it owns."""
    return risks * WATCH_HOURS_PER_RISK_DAY / WORK_HOURS_PER_PERSON_DAY


def seniority_factor(seniority: float) -> float:
    """Productivity multiplier from seniority in [0, 1]: 0.5 for juniors, 1.3 for seniors."""
    return 0.5 + 0.8 * seniority


@dataclass(frozen=True, slots=True)
class WorkItem:
    """What a piece of work asks of the team doing it."""

    co_design: float
    """How much its people must design together, 0 to 1 (docs/model.md, "Teams")."""
    tasks: float
    """The most people it keeps busy: its effort over :data:`TASK_PERSON_DAYS`, at least 1."""


def work_item(effort: PersonDays, co_design: float) -> WorkItem:
    """The work item of ``effort`` person-days needing ``co_design``."""
    return WorkItem(co_design, max(1.0, effort / TASK_PERSON_DAYS))


def coordination_factor(people: float, co_design: float) -> float:
    """Effort per unit of work when ``people`` share it: ``1 + c d (people - 1)``.

    Summed over the team, each of the ``n(n - 1)/2`` pairs spends ``c d`` of one member's
    share of the work keeping their parts consistent (Brooks's communication paths).
    """
    return 1.0 + CO_DESIGN_COST * co_design * max(0.0, people - 1.0)


def output_on(people: float, item: WorkItem, productive_share: float = 1.0) -> float:
    """Work done per day (person-days) by ``people`` on ``item``, before seniority.

    Only as many as the item has tasks work on it (and coordinate); ``productive_share`` is
    the team's output per head after ramp-up and mentoring.
    """
    on_it = min(people, item.tasks)
    return on_it * productive_share / coordination_factor(on_it, item.co_design)


def share_out(people: float, items: list[WorkItem]) -> list[float]:
    """People on each item: an equal share, no item more than its tasks, the rest re-shared.

    Water-filling: items that cannot use their share give the remainder to the others.
    People left once every item is full have no task (see :meth:`TeamState.surplus`).
    """
    order = sorted(range(len(items)), key=lambda i: items[i].tasks)
    out = [0.0] * len(items)
    left, k = people, len(items)
    for i in order:
        given = min(items[i].tasks, left / k)
        out[i] = given
        left -= given
        k -= 1
    return out


@dataclass
class TeamState:
    """A team during a play. Headcount changes through joins and departures."""

    spec: Team
    attention: float = 1.0
    """Share of the team's time on this project's flagship (the rest goes to other variants)."""
    watching: float = 0.0
    """People's worth of the team's time spent watching the risks it owns (see
    :data:`WATCH_HOURS_PER_RISK_DAY`); it is not on the work."""
    veterans: int = 0
    newcomers: list[Days] = field(default_factory=list)
    items: list[WorkItem] = field(default_factory=list)
    """The pieces of work the team has on hand now."""
    _person_days: PersonDays = 0.0
    _since: Days = 0.0
    _charged: PersonDays = 0.0
    _surplus_days: PersonDays = 0.0
    _surplus_since: Days = 0.0
    _surplus_now: float = 0.0
    version: int = 0
    """Counts changes of the people (joins, departures, ramp-ups done): a forecast at the
    same moment and version reads the same pace."""
    on_change: Callable[[], None] | None = None
    """Called after every change of the people or the work on hand (the project wakes the
    team's work then, to read its pace again)."""
    on_people: Callable[[], None] | None = None
    """Called after every change of the people (joins, departures, take-overs, ramp-ups
    done): what is read off them may be kept until then."""

    _people: float = 0.0
    """``headcount * attention``, kept up to date by every change of the people."""
    _steady_share: float | None = None
    """:meth:`productive_share` while the team has no newcomer (it then holds)."""
    _shares_on: dict[Days, float] = field(default_factory=dict)
    """:meth:`productive_share` by the day asked while someone ramps up (the work and the
    forecasts read at one moment ask for it there and where the ramp-ups end), kept until
    the people change."""
    _shares: list[float] | None = None
    """:func:`share_out` of the people over the items on hand, kept until either changes
    (the work woken by a change reads it, each for its own item)."""

    def __post_init__(self) -> None:
        self.veterans = self.spec.headcount
        self._people_changed()

    def _people_changed(self) -> None:
        heads = (self.veterans + len(self.newcomers)) * self.attention
        self._people = max(0.0, heads - self.watching) if heads > 0 else 0.0
        self._steady_share = None
        self._shares_on.clear()
        self._shares = None
        if self.on_people is not None:
            self.on_people()

    @property
    def id(self) -> TeamId:
        return self.spec.id

    @property
    def headcount(self) -> int:
        return self.veterans + len(self.newcomers)

    @property
    def active(self) -> int:
        """How many pieces of work the team has on hand."""
        return len(self.items)

    # --- output --------------------------------------------------------------------------------

    def productive_share(self, now: Days) -> float:
        """Output per head after ramp-up and mentoring, times seniority.

        ``veterans + sum(ramp_i) - mentoring``, where mentoring takes ``MENTOR_SHARE`` of a
        veteran per fully new newcomer and never more veterans than there are.
        """
        newcomers = self.newcomers
        if not newcomers and self._steady_share is not None:
            return self._steady_share  # no one ramping: it holds until the people change
        n = self.headcount
        if n <= 0:
            return 0.0
        raw: float = float(self.veterans)  # exact: a headcount is a small integer
        if newcomers:
            kept = self._shares_on
            known = kept.get(now)
            if known is not None:
                return known
            ramped = [min(1.0, max(0.0, (now - d) / RAMP_DAYS)) for d in newcomers]
            mentoring = min(float(self.veterans), MENTOR_SHARE * sum(1.0 - r for r in ramped))
            raw += sum(ramped) - mentoring
            if len(kept) >= SHARES_KEPT:
                kept.clear()
            share = kept[now] = raw / n * seniority_factor(self.spec.seniority)
            return share
        share = self._steady_share = raw / n * seniority_factor(self.spec.seniority)
        return share

    def people(self) -> float:
        """Heads on the flagship's work (attention shares the team with other variants)."""
        return self._people

    def rate(self, item: WorkItem, now: Days) -> PersonDays:
        """Work done per day on ``item``, one of the team's items on hand."""
        if len(self.items) == 1:
            return output_on(self.people(), item, self.productive_share(now))
        shares = self._shares_now()
        return output_on(shares[self.items.index(item)], item, self.productive_share(now))

    def _shares_now(self) -> list[float]:
        """:func:`share_out` of the people over the items on hand (kept while both hold)."""
        shares = self._shares
        if shares is None:
            shares = self._shares = share_out(self._people, self.items)
        return shares

    def ramping(self, now: Days) -> bool:
        """Whether a newcomer is still ramping up (the team's pace then grows day by day).

        The newest newcomer is the last to finish: ``now - d`` is smallest for the largest
        ``d`` (subtraction rounds monotonically), so this is ``any(now - d < RAMP_DAYS)``.
        """
        newcomers = self.newcomers
        return bool(newcomers) and now - max(newcomers) < RAMP_DAYS

    def solo_rate(self, item: WorkItem, now: Days) -> PersonDays:
        """Work done per day on ``item`` if it were the team's only work (for forecasts)."""
        return output_on(self.people(), item, self.productive_share(now))

    # --- work on hand and the people without a task ----------------------------------------

    def take(self, item: WorkItem, now: Days) -> None:
        """Start ``item``."""
        self._accrue_surplus(now)
        self.items.append(item)
        self._shares = None
        self._surplus_now = self._surplus()
        self._changed()

    def drop(self, item: WorkItem, now: Days) -> None:
        """``item`` is done (or abandoned)."""
        self._accrue_surplus(now)
        self.items.remove(item)
        self._shares = None
        self._surplus_now = self._surplus()
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _surplus(self) -> float:
        if not self.items:
            return 0.0
        return max(0.0, self._people - sum(self._shares_now()))

    def _accrue_surplus(self, now: Days) -> None:
        self._surplus_days += self._surplus_now * (now - self._surplus_since)
        self._surplus_since = now

    def surplus_person_days(self, now: Days) -> PersonDays:
        """Person-days so far of people on the team's work without a task of their own.

        Counted only while the team has work on hand (idle time between pieces is not
        noise: nobody is changing anything).
        """
        self._accrue_surplus(now)
        return self._surplus_days

    # --- headcount changes, keeping the person-day integral exact ---------------------------

    def _accrue(self, now: Days) -> None:
        self._person_days += self.headcount * (now - self._since)
        self._since = now

    def join(self, now: Days, people: int = 1) -> None:
        self.version += 1
        self._accrue(now)
        self._accrue_surplus(now)
        self.newcomers.extend([now] * people)
        self.promote(now)
        self._people_changed()
        self._surplus_now = self._surplus()
        self._changed()

    def leave(self, now: Days) -> None:
        """One person leaves; veterans first (key people are the experienced ones)."""
        self.version += 1
        self._accrue(now)
        self._accrue_surplus(now)
        if self.veterans > 0:
            self.veterans -= 1
        elif self.newcomers:
            self.newcomers.pop()
        self._people_changed()
        self._surplus_now = self._surplus()
        self._changed()

    def take_over(self, now: Days) -> None:
        """A veteran takes over a leaver's work with no handover and learns it as a newcomer.

        Their output ramps up again from nothing and they take veterans' time meanwhile
        (the same ramp-up and mentoring as a new hire's: about 45 person-days of output).
        """
        if self.veterans <= 0:
            return
        self.version += 1
        self._accrue_surplus(now)
        self.veterans -= 1
        self.newcomers.append(now)
        self._people_changed()
        self._surplus_now = self._surplus()
        self._changed()

    def promote(self, now: Days) -> None:
        """Newcomers who finished ramping become veterans."""
        done = [d for d in self.newcomers if now - d >= RAMP_DAYS]
        if done:
            self.version += 1
            self.newcomers = [d for d in self.newcomers if now - d < RAMP_DAYS]
            self.veterans += len(done)
            self._people_changed()

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
