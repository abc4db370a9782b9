"""The project model: a :class:`~sim.engine.project.Project` played forward by SimPy processes.

One :class:`ProjectModel` is one play of a scenario under one seed. Its phases run
in order (:data:`~sim.scenario.spec.PHASES`, each one's steps in
:mod:`sim.engine.phases`); beside them run the background incidents: departures, a
budget cut, planned hires and the scenario's timed injects. docs/model.md describes
every mechanic.
"""

from __future__ import annotations

import heapq
from collections.abc import Generator
from itertools import accumulate, repeat
from operator import truediv
from typing import Any, SupportsIndex

import simpy

from sim.engine import budget, phases
from sim.engine.decisions import Decider, Outlook
from sim.engine.injects import InjectError
from sim.engine.injects import apply_inject as _apply_inject
from sim.engine.judgement import forecast_options, people_usd_per_day, usd_per_score
from sim.engine.project import Project
from sim.engine.training import Steps, TrainingRun
from sim.scenario.spec import PHASES, Scenario


class ProjectModel(Project):
    """A training project played forward under one seed."""

    def __init__(
        self,
        scenario: Scenario,
        seed: SupportsIndex = 0,
        replication: SupportsIndex = 0,
        decider: Decider | str = "playbook",
        observed: bool = True,
        fit_budget: bool = True,
    ) -> None:
        """One play's state; its processes start when its environment runs.

        ``fit_budget=False`` leaves the plan as the scenario sets it, before the set-up fits
        it to the budget (what the fit starts from; tests of the fit read it).
        """
        super().__init__(scenario, seed, replication, decider, observed)
        if fit_budget:
            budget.fit_plan_to_budget(self)
        self.main: simpy.Process = self.env.process(self._project())
        self.env.process(self._departures())
        self.env.process(self._budget_cut())
        self.env.process(self._scheduled_staffing())
        self.env.process(self._scripted())
        #: The budget owner's weekly look, ended when the project is.
        self._budget_look = self.env.process(budget.owner_watch(self))

    def projected_spend(self) -> float:
        """Spent so far plus what the current plan still needs."""
        return budget.projected_spend(self)

    # --- what the parts ask of the model ----------------------------------------------------

    def respond_to_found_defects(self, run: TrainingRun) -> Steps:
        yield from phases.defect_found_during_run(self, run)

    def apply_inject(self, kind: str, params: dict[str, Any], scripted: bool = False) -> None:
        _apply_inject(self, kind, params, scripted)

    def outlook(self, kind: str, options: tuple[str, ...], context: dict[str, Any]) -> Outlook:
        return Outlook(
            forecast_options(self, kind, options, context),
            people_usd_per_day(self),
            usd_per_score(self),
        )

    # --- the phases ---------------------------------------------------------------------------

    def _project(self) -> Generator[simpy.Event, Any, None]:
        for phase in PHASES:
            self.enter_phase(phase)
            if phase != "prepare":
                yield from budget.budget_watch(self)
            yield from phases.STEPS[phase](self)
            yield from phases.gates_after(self, phase)
            if phase in phases.CLOSES:
                yield from phases.CLOSES[phase](self)
        self._finish()

    def _finish(self) -> None:
        if self._budget_look.is_alive:
            self._budget_look.interrupt()
        self.enter_phase("done")
        if not self.measured_current_model():
            self.measure_quality()
        self.finished = True
        self.finish_day = self.env.now
        self.recording.trace_event("release", "Model released")

    # --- background incident processes ------------------------------------------------------

    def _departures(self) -> Generator[simpy.Event, Any, None]:
        dep = self.scenario.incidents.departures
        if not dep.enabled or dep.per_person_year <= 0:
            return
        # Merge each team's departure times, scaled by its starting headcount.
        # Merged lazily: a play usually ends long before the last of them.
        per_team = []
        for tid, gaps in self.draws.departure_gaps.items():
            rate = dep.per_person_year / 365.0 * self.staff.teams[tid].spec.headcount
            per_team.append(zip(accumulate(map(truediv, gaps, repeat(rate))), repeat(tid)))
        for day, tid in heapq.merge(*per_team):
            if day > self.env.now:
                yield self.env.timeout(day - self.env.now)
            if self.finished:
                return
            self.env.process(self.depart(tid))

    def _scheduled_staffing(self) -> Generator[simpy.Event, Any, None]:
        lev = self.scenario.levers
        if lev.add_core_staff <= 0:
            return
        yield self.env.timeout(lev.add_core_staff_day)
        # The plan may have cut the hires to fit the budget.
        if not self.finished and self.plan.hires > 0:
            self.add_core_staff(self.plan.hires, "planned (levers.add_core_staff)")
            self.plan.set_hires(0)

    def _scripted(self) -> Generator[simpy.Event, Any, None]:
        """The scenario's timed injects (run-progress ones are the run's business)."""
        timed = sorted(
            (i for i in self.scenario.incidents.scripted if i.day is not None),
            key=lambda i: i.day or 0.0,
        )
        for inc in timed:
            yield self.env.timeout(max(0.0, (inc.day or 0.0) - self.env.now))
            if self.finished:
                return
            try:
                self.apply_inject(inc.kind, inc.params(), scripted=True)
            except InjectError as exc:
                self.recording.trace_event("inject", f"Scripted {inc.kind} did not apply: {exc}")

    def _budget_cut(self) -> Generator[simpy.Event, Any, None]:
        cut = self.draws.cut
        if not cut.happens:
            return
        yield self.env.timeout(cut.day)
        if self.finished:
            return
        yield from budget.budget_cut(self)
