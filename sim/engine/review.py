"""Gate reviews: how much work a gate's strength takes (docs/model.md, "Gate reviews").

A gate is a review done by people. Its strength, the chance it catches a defect it looks
for, follows the detection law of search theory and software inspection: each defect kind
it looks for takes ``effort`` person-days with

    strength = 1 - exp(-effort / REVIEW_SCALE_PERSON_DAYS)
    effort   = -REVIEW_SCALE_PERSON_DAYS * ln(1 - strength)

so each further step of thoroughness costs more than the last. No finite review is
certain: a strength above :data:`MAX_DETECTION` (1.0 included) is read as
:data:`MAX_DETECTION`, for its chance and its effort alike.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from sim.engine.org import OrgGraph
from sim.scenario.spec import ROLE_CO_DESIGN, Gate, Scenario
from sim.units import WORK_HOURS_PER_PERSON_DAY, PersonDays, TeamId

#: Gates after these phases are late: they look whether or not anyone owns the risk.
LATE_PHASES = frozenset({"evaluation", "release"})

#: A formal (Fagan) inspection at the recommended 150 lines an hour: about 50 person-hours
#: for four people on 1,000 lines (Weller), finding about 60% of the defects present
#: (Capers Jones's removal efficiency of formal inspections; Gilb and Graham give 60-80%).
INSPECTION_PERSON_HOURS = 50.0
INSPECTION_DETECTION = 0.6
#: Person-days of review per defect kind for one e-fold of missed defects, from the above.
REVIEW_SCALE_PERSON_DAYS = (
    INSPECTION_PERSON_HOURS / WORK_HOURS_PER_PERSON_DAY / -math.log1p(-INSPECTION_DETECTION)
)
#: The most any review can catch; a gate's strength above it is read as it.
MAX_DETECTION = 0.99
#: Co-design a review needs: checks split over people, with the findings put together.
REVIEW_CO_DESIGN = ROLE_CO_DESIGN["safety_review"]


def review_strength(strength: float) -> float:
    """The chance a gate of ``strength`` catches a defect it looks for (at most MAX_DETECTION)."""
    return min(max(strength, 0.0), MAX_DETECTION)


def review_person_days(strength: float) -> PersonDays:
    """Person-days of review for one defect kind at ``strength`` (the inverse detection law)."""
    return -REVIEW_SCALE_PERSON_DAYS * math.log1p(-review_strength(strength))


def detection(effort: PersonDays) -> float:
    """The chance ``effort`` person-days of review on one defect kind catch a defect of it."""
    return 1.0 - math.exp(-max(effort, 0.0) / REVIEW_SCALE_PERSON_DAYS)


def review_effort(strength: float, reviewers: Iterable[TeamId]) -> dict[TeamId, PersonDays]:
    """Person-days each team reviews: one kind's effort for every kind it looks at.

    ``reviewers`` names the reviewing team once per defect kind the gate looks for.
    """
    per_kind = review_person_days(strength)
    out: dict[TeamId, PersonDays] = {}
    for team in reviewers:
        out[team] = out.get(team, 0.0) + per_kind
    return {t: e for t, e in out.items() if e > 0}


def looks_for(gate: Gate, kind: str, org: OrgGraph, legal_engaged: bool) -> bool:
    """Whether ``gate`` looks for defects of ``kind`` at all (and so spends review effort on it).

    An early gate (not after evaluation or release) looks only for risks someone owns, and
    for licensing only when legal is engaged; a late gate looks for every kind it catches.
    """
    if kind not in gate.catches:
        return False
    if gate.after in LATE_PHASES:
        return True
    if org.owner(kind) is None:
        return False
    return kind != "licensing" or legal_engaged


def legal_engaged(scenario: Scenario, org: OrgGraph) -> bool:
    """Legal engaged from the start: the lever on and someone owning the licensing risk."""
    return scenario.levers.safety_from_start and org.owner("licensing") is not None


def reviewers(gate: Gate, org: OrgGraph, legal: bool) -> list[TeamId]:
    """The team reviewing each defect kind the gate looks for, once per kind.

    The gate's ``owner`` when it names one; otherwise each kind's risk owner, else the
    holder of ``data_fix`` (a late gate looks for unowned kinds too).
    """
    return [
        gate.owner or org.owner(kind) or org.decider("data_fix")
        for kind in dict.fromkeys(gate.catches)
        if looks_for(gate, kind, org, legal)
    ]
