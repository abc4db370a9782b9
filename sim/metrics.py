"""The KPI registry: every headline metric's column, label, unit and good direction.

The CLI, the app and the docs read labels and units from here, so a number is
called the same thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    unit: str
    better: Literal["lower", "higher"]
    kind: Literal["quantity", "probability"] = "quantity"


HEADLINE: tuple[Metric, ...] = (
    Metric("schedule_days", "Schedule", "days", "lower"),
    Metric("cost_usd", "Cost", "USD", "lower"),
    Metric("effort_person_days", "Effort", "person-days", "lower"),
    Metric("on_time", "On time", "probability", "higher", "probability"),
    Metric("on_budget", "On budget", "probability", "higher", "probability"),
    Metric("quality_met", "Quality targets met", "probability", "higher", "probability"),
    Metric("success", "All objectives met", "probability", "higher", "probability"),
)

RUN: tuple[Metric, ...] = (
    Metric("run_interruptions", "Interruptions", "count", "lower"),
    Metric("run_effective_training_time", "Effective training time", "share", "higher"),
    Metric("run_lost_gpu_hours", "Lost GPU-hours", "GPU-hours", "lower"),
)

BY_KEY: dict[str, Metric] = {m.key: m for m in HEADLINE + RUN}

#: JSON names of the probabilities (DESIGN.md's interface).
PROBABILITY_KEYS: dict[str, str] = {
    "on_time": "p_on_time",
    "on_budget": "p_on_budget",
    "quality_met": "p_quality_met",
    "success": "p_success",
}

# --- labels for every column a table shows ----------------------------------------------------

#: Results columns that tables show beside the headline ones (not objectives in themselves).
DETAIL: tuple[Metric, ...] = (
    Metric("tokens_b", "Tokens trained", "billion tokens", "higher"),
    Metric("post_training_rounds", "Post-training rounds", "rounds", "higher"),
    Metric("reserve_used_usd", "Reserve used", "USD", "lower"),
    Metric("decision_latency_days", "Decision latency", "days", "lower"),
)

LABELS: dict[str, Metric] = {m.key: m for m in HEADLINE + RUN + DETAIL}


def label(key: str, *, unit: bool = True) -> str:
    """A column's label (``Schedule (days)``), or the column with words for its underscores."""
    m = LABELS.get(key.removeprefix("p_"))
    if m is None and key.startswith("score:"):
        return f"{key.removeprefix('score:')} score"
    if m is None:
        return key.replace("_", " ")
    if m.kind == "probability":
        return f"P({m.label.lower()})" if key.startswith("p_") else m.label
    plain = m.unit in ("count", "share") or m.unit.split()[-1] in m.label.lower()
    return m.label if plain or not unit else f"{m.label} ({m.unit})"
