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
