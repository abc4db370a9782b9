"""Incidents injected from outside at the current time of a play (a facilitator's injects).

One function per inject kind of :data:`~sim.scenario.spec.INJECTS`; the engine's own
mechanics take it from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.engine import budget, objectives, phases
from sim.engine.incidents import Defect
from sim.engine.project import Project
from sim.engine.training import TrainingRun
from sim.scenario.spec import DefectSource


class InjectError(ValueError):
    """An inject that does not fit the play's current state."""


def _running(m: Project) -> TrainingRun:
    run = m.run
    if m.recording.phase != "training" or run is None or run.tokens >= run.target_tokens:
        raise InjectError("no training run is in progress")
    return run


def _loss_spike(m: Project, params: dict[str, Any]) -> None:
    _running(m).spike_now()


def _hardware_failure(m: Project, params: dict[str, Any]) -> None:
    _running(m).fail_now()


def _budget_cut(m: Project, params: dict[str, Any]) -> None:
    fraction = float(params.get("fraction", m.scenario.incidents.budget_cut.fraction))
    if not 0.0 < fraction <= 1.0:
        raise InjectError("fraction must be in (0, 1]")
    m.env.process(budget.budget_cut(m, fraction))


def _departure(m: Project, params: dict[str, Any]) -> None:
    team = str(params.get("team", m.org.training_team))
    if team not in m.staff.teams:
        raise InjectError(f"unknown team {team!r}")
    m.env.process(m.depart(team))


def _data_defect(m: Project, params: dict[str, Any]) -> None:
    defect_kind = str(params.get("kind", "data_quality"))
    known: dict[str, DefectSource] = {d.kind: d for d in m.scenario.incidents.defects}
    source = known.get(defect_kind)
    if source is None:
        source = DefectSource.model_validate({"kind": defect_kind, "probability": 1.0})
    # The inject is the discovery: the team finds the defect now.
    defect = Defect(len(m.defects.defects), source, True, {}, 0.0)
    m.defects.defects.append(defect)
    if m.run is not None and not m.run_finished:
        defect.monitor_day = m.env.now  # the run loop raises it at its next check
    else:
        m.defects.mark_found(defect, m.env.now, "discovery")
        m.env.process(phases.handle_defect(m, defect))


def _objective_change(m: Project, params: dict[str, Any]) -> None:
    if m.finished:
        raise InjectError("the project has finished")
    try:
        objectives.new_objective(m.scenario.objective, params)
    except objectives.ObjectiveChangeError as exc:
        raise InjectError(str(exc)) from None
    m.env.process(objectives.change_objective(m, params))


#: What each inject kind does (the kinds of :data:`~sim.scenario.spec.INJECTS`, a test checks).
APPLY: dict[str, Callable[[Project, dict[str, Any]], None]] = {
    "loss_spike": _loss_spike,
    "hardware_failure": _hardware_failure,
    "budget_cut": _budget_cut,
    "departure": _departure,
    "data_defect": _data_defect,
    "objective_change": _objective_change,
}


def apply_inject(m: Project, kind: str, params: dict[str, Any], scripted: bool = False) -> None:
    """Make ``kind`` happen now; the engine's own mechanics take it from there."""
    apply = APPLY.get(kind)
    if apply is None:
        raise InjectError(f"unknown inject {kind!r}")
    apply(m, params)
    if scripted:
        m.recording.trace_event(
            "inject", f"Scripted incident: {kind.replace('_', ' ')}", data=dict(params)
        )
    else:
        m.recording.count_incident(f"injected_{kind}")
        m.recording.trace_event(
            "inject", f"Facilitator injected {kind.replace('_', ' ')}", data=dict(params)
        )
