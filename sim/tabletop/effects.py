"""What a room's calls did: each decision's alternatives, the objectives, expected actions.

Plain records shared by the findings (:mod:`sim.tabletop.report.findings`) and the report
(:mod:`sim.tabletop.report.report`), kept apart so neither imports the other for its types.
"""

from __future__ import annotations

from dataclasses import dataclass

#: An alternative must beat the choice by this much (debrief impact units) to count.
MARGIN = 0.02


@dataclass(frozen=True)
class Alternative:
    option: str
    delta_schedule_days: float
    delta_cost_usd: float
    delta_quality: float
    impact: float


@dataclass(frozen=True)
class DecisionEffect:
    key: str
    kind: str
    day: float
    role: str
    by: str
    choice: str
    rationale: str
    summary: str
    latency_days: float
    alternatives: tuple[Alternative, ...]

    @property
    def best(self) -> Alternative | None:
        better = [a for a in self.alternatives if a.impact > MARGIN]
        return max(better, key=lambda a: a.impact, default=None)


@dataclass(frozen=True)
class Objective:
    """One objective's result in the room's own play."""

    name: str
    target: str
    result: str
    met: bool
    owner: str
    objective: str = "quality"


@dataclass(frozen=True)
class ExpectedAction:
    """An expected action (or choice) of a delivered inject, and how the room did."""

    inject_id: str
    inject: str
    capability: str
    owner: str
    action: str
    #: The expected options when this is the inject's expected choice (checked, not rated).
    choice: tuple[str, ...]
    rating: str | None
    note: str
    incident_day: float | None
    #: The decision that answered the inject (matched by the incident's day), and its choice.
    answered_by: str | None
    answered_choice: str | None
