"""Politics by mechanism: contributions and mandates, territorial teams, variants, research.

- A **contribution** (``org.contributions``, and one for every territorial team) is a change
  to the recipe with a true effect on the loss that nobody knows in advance. A tested one
  goes through the ablations: it is kept only when the experiments measure it helping. An
  untested one (a mandate from above, a contribution forced in for a person or a team) is
  kept whatever it does, and the bugs of its integration skip the ablation gate.
- A **territorial team** forces a contribution of its own and is one more stakeholder to
  satisfy in every decision.
- **Variants** split the cluster, the tokens and the co-design teams' people; what they buy
  is a choice: the release is the best of them, a hedge against the loss forecast's error.
- An **evergreen** research team, kept apart, turns its time into findings: the ones that
  reach the training team before the run catch hidden defects, all of them count for the
  next model.

docs/model.md, "Politics".
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim.engine.org import OrgGraph
from sim.engine.rng import Streams, standard_normal
from sim.engine.signals import entity_stream
from sim.engine.teams import output_on, seniority_factor, work_item
from sim.scenario.spec import ROLE_CO_DESIGN, Contribution, DefectSource, Scenario
from sim.units import Days

#: Spread of a contribution's true effect on the loss (nats): a recipe tweak moves it by about
#: a hundredth either way.
CONTRIBUTION_SIGMA = 0.01
#: Its mean, set so that one idea in three helps (P(effect < 0) = 1/3): Kohavi et al. found
#: that about a third of ideas tested at Microsoft improved the metric they aimed at.
CONTRIBUTION_MEAN = 0.4307 * CONTRIBUTION_SIGMA
#: Error of the ablations' measurement of an effect, before ablation compute narrows it
#: (divided by sqrt(1 + ablation_fraction / 0.02), as the loss forecast's).
CONTRIBUTION_MEASURE_SIGMA = 0.01
#: Chance that folding a contribution into the recipe brings a bug of its own.
INTEGRATION_DEFECT_CHANCE = 0.25
#: The bug, as a defect source: it spoils tokens like a config defect until fixed.
INTEGRATION_DEFECT = DefectSource(
    kind="tokenizer_config", probability=1.0, quality_penalty=0.1, fix_person_days=5.0
)
#: Findings per researcher-year of an evergreen team at seniority 0.625 (factor 1), before
#: its co-design cost: ideas worth a later model, better diagnostics, cleaner tooling.
FINDINGS_PER_PERSON_YEAR = 1.5
#: Co-design of long-term research work (small groups exploring ideas together).
RESEARCH_CO_DESIGN = ROLE_CO_DESIGN["general"]
#: Chance that one finding that reached the training team catches a given hidden defect.
FINDING_CATCH = 0.3
#: How far ahead findings are drawn (days).
RESEARCH_HORIZON_DAYS = 2_000.0


def proposals(s: Scenario) -> list[Contribution]:
    """The contributions proposed: the scenario's own, and one per territorial team."""
    out = list(s.org.contributions)
    have = {c.id for c in out}
    for t in s.org.teams:
        cid = f"{t.id}_contribution"
        if t.territorial and cid not in have:
            out.append(Contribution(id=cid, team=t.id, tested=False))
    return out


def stakeholders(s: Scenario) -> int:
    """Groups that push their own agenda in every decision: territorial teams, extra variants."""
    return sum(1 for t in s.org.teams if t.territorial) + s.levers.parallel_variants - 1


@dataclass
class ContributionState:
    """One proposed contribution during a play."""

    spec: Contribution
    effect: float
    """Its true effect on the loss (negative helps)."""
    measured_error: float
    """Standard normal error of the ablations' measurement of it."""
    buggy: bool
    kept: bool | None = None
    """None until judged; untested ones are kept from the start."""


@dataclass
class ContributionBook:
    """The contributions of a play, their draws, and which made it into the model."""

    items: list[ContributionState] = field(default_factory=list)

    @classmethod
    def draw(cls, s: Scenario, streams: Streams) -> ContributionBook:
        book = cls()
        # In the order of their ids: the list's order is no part of the world.
        for c in sorted(proposals(s), key=lambda c: c.id):
            rng = entity_stream(streams, "politics", c.id)
            effect = CONTRIBUTION_MEAN + CONTRIBUTION_SIGMA * float(rng.standard_normal())
            error = float(rng.standard_normal())
            buggy = float(rng.random()) < INTEGRATION_DEFECT_CHANCE
            kept = None if c.tested else True
            book.items.append(ContributionState(c, effect, error, buggy, kept))
        return book

    def judge(self, ablation_fraction: float) -> list[ContributionState]:
        """The ablations measure each tested contribution; those measured to help are kept."""
        sigma = CONTRIBUTION_MEASURE_SIGMA / math.sqrt(1.0 + ablation_fraction / 0.02)
        judged = []
        for c in self.items:
            if c.kept is None:
                c.kept = c.effect + sigma * c.measured_error < 0.0
                judged.append(c)
        return judged

    def loss_shift(self) -> float:
        """What the contributions kept so far do to the loss."""
        return math.fsum(c.effect for c in self.items if c.kept)

    def forced_bugs(self) -> list[ContributionState]:
        """Untested contributions whose integration brought a bug (it skips the ablation gate)."""
        return [c for c in self.items if not c.spec.tested and c.buggy]

    @property
    def integration_person_days(self) -> float:
        return sum(c.spec.integration_person_days for c in self.items)


def variant_loss_error(s: Scenario, streams: Streams, flagship_error: float, sigma: float) -> float:
    """The loss-forecast error of the variant that ships: the best of ``parallel_variants``.

    The flagship's error is the play's own draw; every other variant (``variant1``, ...)
    draws its own from its stream. Each trains on the same share of tokens and GPUs, so the
    release is the variant whose recipe turned out best.
    """
    errors = [flagship_error]
    for k in range(1, s.levers.parallel_variants):
        z = standard_normal(streams.entity_uniform("variants", f"variant{k}"))
        errors.append(sigma * z)
    return min(errors)


# --- evergreen research ------------------------------------------------------------------------


def findings_per_day(s: Scenario, team_id: str) -> float:
    """An evergreen team's findings per day: its research output times the finding rate."""
    t = next(t for t in s.org.teams if t.id == team_id)
    item = work_item(math.inf, RESEARCH_CO_DESIGN)
    people = output_on(float(t.headcount), item, seniority_factor(t.seniority))
    return FINDINGS_PER_PERSON_YEAR / 365.0 * people


@dataclass(frozen=True)
class Finding:
    """A result of evergreen research: when it came, and when the training team heard of it."""

    team: str
    day: Days
    delivered_day: Days


def draw_findings(s: Scenario, org: OrgGraph, streams: Streams) -> list[Finding]:
    """Every evergreen team's findings up to the horizon, in order of arrival."""
    out: list[Finding] = []
    for t in s.org.teams:
        if not t.evergreen:
            continue
        rate = findings_per_day(s, t.id)
        if rate <= 0:
            continue
        rng = entity_stream(streams, "research", t.id)
        latency = org.signal_latency(t.id, org.training_team)
        day = 0.0
        while True:
            day += float(rng.standard_exponential()) / rate
            if day > RESEARCH_HORIZON_DAYS:
                break
            out.append(Finding(t.id, day, day + latency))
    return sorted(out, key=lambda f: f.day)
