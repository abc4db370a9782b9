"""What a lesson check compares: one arm's measures on one world, and paired intervals.

A :class:`Measure` is read from an outcome row: the objective's own measures (schedule,
cost, the mean measured score of the target evals and whether every target is met) and
the arm's scope (tokens trained, post-training rounds, the scope the engine cut to fit the
budget). :func:`paired_interval` is the noise check's statistic over neighbouring worlds.
docs/model.md, "Debrief".
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.intervals import paired_mean, paired_proportion
from sim.scenario.spec import Scenario

#: Confidence of the paired intervals over the neighbouring worlds (Student t; Tango's score
#: interval for whether the quality targets are met), and one minus the error rate the Holm
#: adjustment holds over all of a report's tests.
CONFIDENCE = 0.95
#: Metrics compared, in the order a line states them.
METRICS = ("schedule_days", "cost_usd", "quality", "quality_met")
#: Tokens trained that differ by more than this share, or any difference in post-training
#: rounds, make the two arms differ in scope.
SCOPE_TOKENS_SHARE = 0.005
#: Scope cuts whose engine-priced savings differ by this share of the budget (or whose
#: responses differ) make the two arms differ in what they gave up to fit the budget.
SCOPE_CUT_SHARE = 0.005


@dataclass(frozen=True)
class Measure:
    """What a line compares in one arm on one world (the objective's own measures)."""

    schedule_days: float
    cost_usd: float
    quality: float
    """Mean measured score of the target evals (what ``quality_met`` judges)."""
    quality_met: bool
    loss: float
    tokens_b: float
    post_training_rounds: int
    scores: tuple[tuple[str, float], ...]
    """Measured score of each target eval."""
    injects_missed: int = 0
    """The play's injects that found nothing to strike in this arm (see ``Arm.play``)."""
    scope_cuts: tuple[str, ...] = ()
    """Budget responses that gave up scope to fit the budget (the row's ``scope:RESPONSE``)."""
    scope_cut_usd: float = 0.0
    """What those cuts saved, by the engine's pricing."""
    research_findings: int = 0
    failed_runs: int = 0
    recipe_changes: int = 0
    incidents: tuple[tuple[str, int], ...] = ()
    """How many of each incident kind struck (the row's ``incident:KIND``), nonzero only."""

    def value(self, metric: str) -> float:
        return float(getattr(self, metric))

    def as_dict(self) -> dict[str, Any]:
        return {
            "schedule_days": self.schedule_days,
            "cost_usd": self.cost_usd,
            "quality": self.quality,
            "quality_met": self.quality_met,
            "loss": self.loss,
            "tokens_b": self.tokens_b,
            "post_training_rounds": self.post_training_rounds,
            "scores": dict(self.scores),
            "injects_missed": self.injects_missed,
            "scope_cuts": list(self.scope_cuts),
            "scope_cut_usd": self.scope_cut_usd,
            "research_findings": self.research_findings,
            "failed_runs": self.failed_runs,
            "recipe_changes": self.recipe_changes,
        }


def measure(row: Mapping[str, Any], scenario: Scenario) -> Measure:
    """The :class:`Measure` of an outcome row; quality over the scenario's targets."""
    scores = tuple(
        (t.eval, float(row.get(f"score:{t.eval}", 0.0))) for t in scenario.objective.targets
    )
    return Measure(
        schedule_days=float(row["schedule_days"]),
        cost_usd=float(row["cost_usd"]),
        quality=sum(v for _, v in scores) / len(scores) if scores else 0.0,
        quality_met=bool(row["quality_met"]),
        loss=float(row["loss"]),
        tokens_b=float(row["tokens_b"]),
        post_training_rounds=int(row["post_training_rounds"]),
        scores=scores,
        injects_missed=int(row.get("injects_missed", 0)),
        scope_cuts=tuple(
            k.removeprefix("scope:") for k, v in row.items() if k.startswith("scope:") and v
        ),
        scope_cut_usd=float(row.get("scope_cut_usd", 0.0)),
        research_findings=int(row.get("research_findings", 0)),
        failed_runs=int(row.get("run_failed_runs", 0)),
        recipe_changes=int(row.get("run_recipe_changes", 0)),
        incidents=tuple(
            (k.removeprefix("incident:"), int(v))
            for k, v in row.items()
            if k.startswith("incident:") and isinstance(v, int | float) and v
        ),
    )


# --- scope -------------------------------------------------------------------------------------


def tokens_differ(base: Measure, alt: Measure) -> bool:
    return abs(alt.tokens_b - base.tokens_b) > SCOPE_TOKENS_SHARE * max(base.tokens_b, 1e-9)


def scope_cut_differs(base: Measure, alt: Measure, budget_usd: float) -> bool:
    """Whether the arms gave up different scope to fit their budgets (responses or dollars)."""
    return (
        set(base.scope_cuts) != set(alt.scope_cuts)
        or abs(alt.scope_cut_usd - base.scope_cut_usd) >= SCOPE_CUT_SHARE * budget_usd
    )


def same_scope(base: Measure, alt: Measure, budget_usd: float) -> bool:
    """Equal scope: the same tokens, rounds and scope cuts."""
    return not (
        tokens_differ(base, alt)
        or alt.post_training_rounds != base.post_training_rounds
        or scope_cut_differs(base, alt, budget_usd)
    )


@dataclass(frozen=True)
class NeighbourScope:
    """Both arms' mean scope over the neighbouring worlds (equal scope, said in figures)."""

    play_tokens_b: float
    intervention_tokens_b: float
    play_rounds: float
    intervention_rounds: float
    play_scope_cut_usd: float
    intervention_scope_cut_usd: float
    scope_cut_differs: float
    """Share of the neighbouring worlds where the arms' scope cuts differ."""

    @classmethod
    def of(
        cls, base: Sequence[Measure], alt: Sequence[Measure], budget_usd: float
    ) -> NeighbourScope:
        def mean(values: list[float]) -> float:
            return float(np.mean(values)) if values else math.nan

        return cls(
            mean([x.tokens_b for x in base]),
            mean([x.tokens_b for x in alt]),
            mean([x.post_training_rounds for x in base]),
            mean([x.post_training_rounds for x in alt]),
            mean([x.scope_cut_usd for x in base]),
            mean([x.scope_cut_usd for x in alt]),
            mean([scope_cut_differs(b, a, budget_usd) for b, a in zip(base, alt, strict=True)]),
        )


# --- the paired statistic ------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """Paired difference (intervention minus play) over the neighbouring worlds."""

    mean: float
    low: float
    high: float
    n: int
    p_value: float = math.nan
    """Two-sided test of no difference (paired t, or exact McNemar for a yes/no measure)."""

    def excludes_zero_towards(self, sign: float) -> bool:
        """Whether the whole interval lies on ``sign``'s side of zero (never for sign 0)."""
        if sign == 0 or math.isnan(self.low):
            return False
        return (self.low > 0) if sign > 0 else (self.high < 0)


def paired_interval(
    base: Sequence[float],
    alt: Sequence[float],
    level: float = CONFIDENCE,
    binary: bool = False,
) -> Interval:
    """The paired ``level`` interval of ``alt - base`` over the same worlds.

    Student t on the differences (:func:`sim.intervals.paired_mean`: an exact bound when
    every world gives the same difference); for a yes/no measure (``binary``) Tango's score
    interval on the discordant worlds (:func:`sim.intervals.paired_proportion`).
    """
    n = min(len(base), len(alt))
    if n < 2:
        mean = float(np.mean(np.subtract(alt, base))) if n else math.nan
        return Interval(mean, math.nan, math.nan, n)
    rule = paired_proportion if binary else paired_mean
    d = rule(base, alt, level=level)
    return Interval(
        float(d["mean"]), float(d["low"]), float(d["high"]), int(d["n"]), float(d["p_value"])
    )
