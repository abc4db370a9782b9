"""Incidents injected from outside at the current time of a play (a facilitator's injects)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sim.engine.incidents import Defect
from sim.scenario.spec import DefectSource

if TYPE_CHECKING:
    from sim.engine.model import ProjectModel


class InjectError(ValueError):
    """An inject that does not fit the play's current state."""


def _running(m: ProjectModel) -> Any:
    run = m.run
    if m.phase != "training" or run is None or run.tokens >= run.target_tokens:
        raise InjectError("no training run is in progress")
    return run


def apply_inject(
    m: ProjectModel, kind: str, params: dict[str, Any], scripted: bool = False
) -> None:
    """Make ``kind`` happen now; the engine's own mechanics take it from there."""
    from sim.engine import phases

    if kind == "loss_spike":
        run = _running(m)
        run.next_spike = run.tokens
    elif kind == "hardware_failure":
        _running(m).next_unexpected = m.env.now
    elif kind == "budget_cut":
        fraction = float(params.get("fraction", m.scenario.incidents.budget_cut.fraction))
        if not 0.0 < fraction <= 1.0:
            raise InjectError("fraction must be in (0, 1]")
        m.env.process(phases.budget_cut(m, fraction))
    elif kind == "departure":
        team = str(params.get("team", m.org.training_team))
        if team not in m.teams:
            raise InjectError(f"unknown team {team!r}")
        m.env.process(m._one_departure(team))
    elif kind == "data_defect":
        defect_kind = str(params.get("kind", "data_quality"))
        known: dict[str, DefectSource] = {d.kind: d for d in m.scenario.incidents.defects}
        source = known.get(defect_kind)
        if source is None:
            source = DefectSource.model_validate({"kind": defect_kind, "probability": 1.0})
        # The inject is the discovery: the team finds the defect now.
        defect = Defect(len(m.defects.defects), source, True, {}, 0.0)
        m.defects.defects.append(defect)
        run = m.run
        if run is not None and not m.run_finished:
            defect.monitor_day = m.env.now  # the run loop raises it at its next check
        else:
            m.defects.mark_found(defect, m.env.now, "discovery")
            m.env.process(phases.handle_defect(m, defect))
    else:
        raise InjectError(f"unknown inject {kind!r}")
    if scripted:
        m.trace_event("inject", f"Scripted incident: {kind.replace('_', ' ')}", data=dict(params))
    else:
        m.count_incident(f"injected_{kind}")
        m.trace_event("inject", f"Facilitator injected {kind.replace('_', ' ')}", data=dict(params))
