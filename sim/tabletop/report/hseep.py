"""The exercise's objectives and the capabilities each tests, in HSEEP's terms.

HSEEP (the US Homeland Security Exercise and Evaluation Program) organises an
after-action report by objective, and under each objective by the capabilities it
tests; each capability gets strengths, areas for improvement with their root causes,
and a rating. Here the objectives are the scenario's own (the deadline, the budget, the
target evals), and each capability is a part of running a training project that a kind
of decision or inject exercises. One registry, read by the report, the pages and the
improvement plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.tabletop.authoring import InjectSpec

#: HSEEP's five mission areas (the National Preparedness Goal), in its order.
MISSION_AREAS = ("Prevention", "Protection", "Mitigation", "Response", "Recovery")

#: HSEEP's capability elements (POETE) for an improvement-plan row, by the kind of gap:
#: a plan or a pre-agreed lever missing, who holds what, tools and capacity, people's
#: practice, and exercising itself.
ELEMENTS = ("Planning", "Organization", "Equipment", "Training", "Exercises")


@dataclass(frozen=True)
class Capability:
    id: str
    name: str
    description: str
    objective: str
    mission_area: str
    kinds: tuple[str, ...] = ()
    incidents: tuple[str, ...] = ()
    metrics: tuple[str, ...] = ()


CAPABILITIES: dict[str, Capability] = {
    c.id: c
    for c in (
        Capability("incident_response", "Training-run incident response",
                   "See a loss spike or a failure, get it to whoever owns the call, and answer "
                   "it in proportion: roll back when a rollback cures it.",
                   "deadline", "Response", ("rollback",), ("loss_spike", "hardware_failure")),
        Capability("reliability", "Cluster reliability",
                   "Keep the run training: checkpoint interval, restarts, spare capacity.",
                   "deadline", "Protection", (), (),
                   ("effective_training_time", "run_progress")),
        Capability("schedule", "Schedule and staffing",
                   "Re-forecast the finish, and cover departures without adding people late.",
                   "deadline", "Recovery", ("schedule",), ("departure",)),
        Capability("financial", "Financial management",
                   "Close a budget gap with the levers agreed in advance; track the burn.",
                   "budget", "Mitigation", ("budget",), ("budget_cut",), ("spend_share",)),
        Capability("data_quality", "Data quality management",
                   "Find and fix data defects early, weighing a fix against a restart.",
                   "quality", "Prevention", ("data_fix",), ("data_defect",)),
        Capability("release", "Release readiness",
                   "Ship only against the product evals agreed in advance, or fund the fix.",
                   "quality", "Protection", ("ship",)),
    )
}  # fmt: skip

#: The exercise objectives, in the report's order: id → (name, what meeting it means).
OBJECTIVES: dict[str, tuple[str, str]] = {
    "deadline": ("Finish by the deadline", "the project ends on or before its deadline"),
    "budget": ("Stay within the budget", "spending stays within the budget, reserve included"),
    "quality": ("Meet the quality targets", "every target eval reaches its threshold"),
}
#: The outcome column that says whether an objective was met.
OBJECTIVE_COLUMN = {"deadline": "on_time", "budget": "on_budget", "quality": "quality_met"}

#: HSEEP's performance ratings of a capability or an expected action.
RATINGS: dict[str, str] = {
    "P": "Performed without challenges",
    "S": "Performed with some challenges",
    "M": "Performed with major challenges",
    "U": "Unable to be performed",
}


def capabilities_of(objective: str) -> list[Capability]:
    return [c for c in CAPABILITIES.values() if c.objective == objective]


def capability_of_kind(kind: str) -> Capability:
    return next(c for c in CAPABILITIES.values() if kind in c.kinds)


def capability_of_inject(spec: InjectSpec) -> Capability:
    """The capability an inject exercises: by its decision, its incident, or its trigger."""
    if spec.decision_kind:
        return capability_of_kind(spec.decision_kind)
    incident = spec.engine or spec.scripted
    for c in CAPABILITIES.values():
        if incident and incident in c.incidents:
            return c
    metric = spec.trigger.metric
    return next(
        (c for c in CAPABILITIES.values() if metric and metric in c.metrics),
        CAPABILITIES["incident_response"],
    )


def worst_rating(ratings: list[str]) -> str | None:
    """The lowest of several ratings (U is worst), or None when nothing was rated."""
    order = list(RATINGS)
    return max(ratings, key=order.index) if ratings else None


def element_of(source: str) -> str:
    """The capability element (:data:`ELEMENTS`) a finding's gap belongs to, by its source.

    A call slow to reach its holder, or that nobody held, is Organization; calls of a
    kind clearly worse than the playbook's over many worlds, or an expected action rated
    below P, is Training; an
    inject left unanswered or an objective missed is Planning (no pre-agreed answer);
    the hot wash's own items say nothing of it and count as Planning.
    """
    head = source.split(" ", 1)[0]
    if head in ("slow", "unstaffed"):
        return "Organization"
    if head in ("calls", "decision", "action"):
        return "Training"
    return "Planning"
