"""The outcome registry: every column of an outcome row, with its label, unit and direction.

:func:`sim.engine.outcome.outcome_row` writes these columns (a test checks that it writes
no other); the CLI, the app and the reports read labels, units and the words of their
sentences from here, so a number is called the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sim.engine.records import COST_CATEGORIES
from sim.scenario.vocabulary import words


@dataclass(frozen=True)
class Metric:
    """One outcome column and how to speak of it."""

    key: str
    label: str
    unit: str
    better: Literal["lower", "higher"]
    kind: Literal["quantity", "probability"] = "quantity"
    #: A comparison's sentence: "B {verb} 3 days {more|less} than A".
    verb: str = ""
    more: str = "more"
    less: str = "less"
    #: An objective's short name ("All quality targets") and, when missed, its words.
    objective: str = ""
    missed: str = ""


HEADLINE: tuple[Metric, ...] = (
    Metric("schedule_days", "Schedule", "days", "lower", verb="finishes", more="later",
           less="sooner"),
    Metric("cost_usd", "Cost", "USD", "lower", verb="costs"),
    Metric("effort_person_days", "Effort", "person-days", "lower", verb="takes"),
    Metric("on_time", "On time", "probability", "higher", "probability", verb="is on time",
           more="more often", less="less often", objective="On time", missed="the deadline"),
    Metric("on_budget", "On budget", "probability", "higher", "probability",
           verb="is on budget", more="more often", less="less often", objective="On budget",
           missed="the budget"),
    Metric("quality_met", "Quality targets met", "probability", "higher", "probability",
           verb="meets all quality targets", more="more often", less="less often",
           objective="All quality targets", missed="the quality targets"),
    Metric("success", "All objectives met", "probability", "higher", "probability",
           verb="meets all objectives", more="more often", less="less often",
           objective="All objectives", missed="every objective"),
)  # fmt: skip
#: The headline quantities (not probabilities), in order.
QUANTITIES: tuple[Metric, ...] = tuple(m for m in HEADLINE if m.kind == "quantity")
#: The objectives met or missed in each replication, in order.
OBJECTIVES: tuple[Metric, ...] = tuple(m for m in HEADLINE if m.kind == "probability")

RUN: tuple[Metric, ...] = (
    Metric("run_interruptions", "Interruptions", "count", "lower"),
    Metric("run_effective_training_time", "Effective training time", "share", "higher"),
    Metric("run_lost_gpu_hours", "Lost GPU-hours", "GPU-hours", "lower"),
    Metric("run_wall_days", "Run wall time", "days", "lower"),
    Metric("run_spikes", "Loss spikes", "count", "lower"),
    Metric("run_recipe_changes", "Recipe changes", "count", "lower"),
    Metric("run_failed_runs", "Failed runs", "count", "lower"),
)

#: The row's other columns: budget, scope, quality and the play's own counts.
DETAIL: tuple[Metric, ...] = (
    Metric("budget_usd", "Budget after cuts", "USD", "higher"),
    Metric("reserve_used_usd", "Reserve used", "USD", "lower"),
    Metric("tokens_planned_b", "Tokens planned after the budget fit", "billion tokens", "higher"),
    Metric("tokens_b", "Tokens trained", "billion tokens", "higher"),
    Metric("loss", "Pretraining loss", "nats per token", "lower"),
    Metric(
        "post_training_rounds_planned", "Rounds planned after the budget fit", "rounds", "higher"
    ),
    Metric("post_training_rounds", "Post-training rounds", "rounds", "higher"),
    Metric("scope_cuts", "Scope cuts", "count", "lower"),
    Metric("scope_cut_usd", "Saved by scope cuts", "USD", "lower"),
    Metric("scope_cut_loss", "Loss added by scope cuts", "nats per token", "lower"),
    Metric("scope_cut_score", "Score lost to scope cuts", "points", "lower"),
    Metric("exploration_multiplier", "Frontier exploration multiplier", "x", "lower"),
    Metric("research_findings", "Evergreen research findings", "count", "higher"),
    Metric("contributions_kept", "Contributions kept", "count", "higher"),
    Metric("contribution_loss", "Loss from contributions", "nats per token", "lower"),
    Metric("safety_issues_shipped", "Safety issues shipped", "count", "lower"),
    Metric("decisions", "Decisions", "count", "lower"),
    Metric("decision_latency_days", "Decision latency", "days", "lower"),
    Metric("events", "Simulation events", "count", "lower"),
    *(
        Metric(f"cost_{c}_usd", f"Cost: {c.replace('_', ' ')}", "USD", "lower")
        for c in COST_CATEGORIES
    ),
)

#: Column families: one column per eval, target, incident kind, team or handoff.
FAMILIES: dict[str, str] = {
    "score:": "measured score of each eval",
    "true:": "true (noise-free) score of each eval",
    "release:": "score of each eval on fresh items after release (no leaked items)",
    "met:": "whether each target was met",
    "incident:": "count of each incident kind",
    "critical:": "whether each team set the finish date",
    "scope:": "whether each scope option was cut to fit the budget",
    "critical_handoff:": "whether each handoff lay on the chain that set the finish date",
}

BY_KEY: dict[str, Metric] = {m.key: m for m in HEADLINE + RUN + DETAIL}

#: JSON names of the probabilities (DESIGN.md's interface).
PROBABILITY_KEYS: dict[str, str] = {m.key: f"p_{m.key}" for m in OBJECTIVES}


def is_outcome_column(column: str) -> bool:
    """Whether ``column`` is one the registry describes (a metric or a family member)."""
    return column in BY_KEY or column.startswith(tuple(FAMILIES))


def chance(m: Metric) -> str:
    """A probability's name in words: ``Chance all objectives met`` (never ``p_success``)."""
    return f"Chance {m.label[0].lower()}{m.label[1:]}"


def summary_label(m: Metric, statistic: str | None = None) -> str:
    """A table heading: ``Chance on time`` for a probability, ``Schedule, P90 (days)`` else."""
    if m.kind == "probability":
        return chance(m)
    return f"{m.label}, {statistic} ({m.unit})" if statistic else f"{m.label} ({m.unit})"


#: Every column a table may label (the registry's metrics by key).
LABELS: dict[str, Metric] = BY_KEY


def label(key: str, *, unit: bool = True) -> str:
    """A column's label (``Schedule (days)``), or the column with words for its underscores."""
    m = LABELS.get(key.removeprefix("p_"))
    if m is None and key.startswith("score:"):
        return f"{words(key.removeprefix('score:'))} score"
    if m is None:
        return key.replace("_", " ")
    if m.kind == "probability":
        return chance(m) if key.startswith("p_") else m.label
    plain = m.unit in ("count", "share") or m.unit.split()[-1].lower() in m.label.lower()
    return m.label if plain or not unit else f"{m.label} ({m.unit})"
