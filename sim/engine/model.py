"""The project model: SimPy processes for workstreams, the run, post-training and release.

One :class:`ProjectModel` is one play of a scenario under one seed. Its phases run
in order (prepare, ablations, training, post_training, evaluation, release);
inside each, workstreams are processes over their owners' capacity, handoffs
travel the org graph, gates may catch hidden defects, and decisions go to the
holder of the right. docs/model.md describes every mechanic.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Generator
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import truediv
from typing import Any

import simpy
from simpy.core import BoundClass

from sim.engine.decisions import AD_HOC_DELIBERATION_DAYS, Decider, DecisionPoint, make_decider
from sim.engine.incidents import DefectBook, draw_budget_cut, draw_departure_gaps
from sim.engine.org import OrgGraph
from sim.engine.quality import (
    PRODUCT_TRANSFER_LATE,
    EvalResult,
    QualityState,
    chinchilla_loss,
    data_multiplier,
    loss_sigma,
    measure,
)
from sim.engine.records import DecisionRecord, Ledger, PhaseSpan, TraceEvent
from sim.engine.rng import Streams
from sim.engine.teams import VARIANT_ATTENTION, TeamState
from sim.engine.training import RunFacts, TrainingRun
from sim.scenario.spec import DECISION_OPTIONS, Scenario, Workstream
from sim.units import Days, PersonDays, TeamId

PHASES = ("prepare", "ablations", "training", "post_training", "evaluation", "release")
#: Longest step of a workstream before its team's capacity is read again.
WORK_STEP_DAYS = 2.0
#: Chance a cross-team handoff needs rework, per day of latency on the path (plus a base).
HANDOFF_REWORK_BASE = 0.05
HANDOFF_REWORK_PER_DAY = 0.08
#: Share of the upstream effort redone on rework.
REWORK_SHARE = 0.15
#: Effort spread: lognormal sigma = base + novelty * extra (frontier work is less predictable).
EFFORT_SIGMA_BASE = 0.10
EFFORT_SIGMA_NOVELTY = 0.50
#: Post-training compute per round, as a share of the main run's compute.
ROUND_COMPUTE_SHARE = 0.005
#: Ablations happen on the cluster; their calendar time at this share of it.
ABLATION_CLUSTER_SHARE = 0.5
#: Caps on repeated responses to an eval gap.
MAX_EXTRA_ROUNDS = 3
#: After a run, continuing on fixed data costs this share of the run again.
CONTINUE_AFTER_FIX_SHARE = 0.25
#: Sizing never plans fewer than this share of the scenario's tokens.
MIN_PLANNED_TOKEN_SHARE = 0.6
#: Extra time per day of political latency for each parallel model variant.
VARIANT_POLITICS_DAYS = 0.5


class CountingEnvironment(simpy.Environment):
    """A SimPy environment that counts processed events (for ``sim bench``)."""

    def __init__(self) -> None:
        super().__init__()
        # SimPy binds env.timeout, env.process, ... to the instance, but only those its
        # own class defines, which a subclass's are not: bind the inherited ones too.
        for name, attr in vars(simpy.Environment).items():
            if isinstance(attr, BoundClass):
                setattr(self, name, getattr(self, name))
        self.events_processed = 0

    def step(self) -> None:
        self.events_processed += 1
        super().step()


@dataclass(frozen=True)
class Handoff:
    """An upstream workstream of another team that a workstream waits on."""

    upstream: str
    upstream_effort: PersonDays
    latency_days: Days
    rework_chance: float


class ScenarioFacts:
    """What every replication of a scenario reads but never changes, worked out once.

    The org graph and its signal paths, which workstreams run in which phase, and the
    handoffs between them depend on the scenario and its levers only, never on a draw.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.org = org = OrgGraph(scenario)
        lev = scenario.levers
        workstreams = scenario.plan.workstreams
        self.by_id: dict[str, Workstream] = {w.id: w for w in workstreams}
        self.active: frozenset[str] = frozenset(
            w.id for w in workstreams if w.strategy in ("both", lev.strategy)
        )
        late_safety = not (lev.safety_from_start and org.owner("safety"))
        self.phase_of: dict[str, str] = {}
        for w in workstreams:
            phase = w.phase
            if w.role == "product_evals" and not lev.product_evals_early:
                phase = "evaluation"
            elif w.role == "safety_review" and late_safety:
                phase = "release"
            self.phase_of[w.id] = phase
        self.in_phase: dict[str, tuple[Workstream, ...]] = {
            phase: tuple(
                w for w in workstreams if self.phase_of[w.id] == phase and w.id in self.active
            )
            for phase in PHASES
        }
        self.active_deps: dict[str, tuple[str, ...]] = {
            w.id: tuple(d for d in w.depends_on if d in self.active) for w in workstreams
        }
        self.handoffs: dict[str, tuple[Handoff, ...]] = {}
        for w in workstreams:
            handoffs = []
            for d in self.active_deps[w.id]:
                upstream = self.by_id[d]
                if upstream.owner == w.owner:
                    continue
                latency = org.signal_latency(upstream.owner, w.owner)
                chance = HANDOFF_REWORK_BASE + HANDOFF_REWORK_PER_DAY * latency
                handoffs.append(Handoff(d, upstream.effort_person_days, latency, chance))
            self.handoffs[w.id] = tuple(handoffs)
        self._runs: dict[float, RunFacts] = {}
        #: Each team's capacity by headcount once nobody is ramping up (it depends on
        #: nothing else), shared by the replications' team states.
        self.settled_capacity: dict[TeamId, dict[int, PersonDays]] = {
            t.id: {} for t in scenario.org.teams
        }
        self.salary_notes = {t.id: f"{t.id} salaries" for t in scenario.org.teams}
        self.post_training_team: TeamId = scenario.plan.post_training_team or org.decider(
            "rollback"
        )

    def run(self, active_params: float) -> RunFacts:
        """Rates and reliability of a run of ``active_params`` on this scenario's cluster."""
        facts = self._runs.get(active_params)
        if facts is None:
            facts = self._runs[active_params] = RunFacts.build(
                self.org.scenario, self.org, active_params
            )
        return facts


#: Recently used scenarios' facts, by object identity. The facts hold their scenario (so an
#: id is never reused while its entry lives); the cache is bounded, so a long-running app
#: that plays many variants (sweeps, edited designs) keeps only the most recent.
_FACTS: OrderedDict[int, tuple[Scenario, ScenarioFacts]] = OrderedDict()
FACTS_CACHED = 64
_FACTS_LOCK = threading.Lock()  # the app plays in several threads at once


def scenario_facts(scenario: Scenario) -> ScenarioFacts:
    """The scenario's :class:`ScenarioFacts`, shared by its replications in this process."""
    key = id(scenario)
    with _FACTS_LOCK:
        hit = _FACTS.get(key)
        if hit is not None and hit[0] is scenario:
            _FACTS.move_to_end(key)
            return hit[1]
    facts = ScenarioFacts(scenario)
    with _FACTS_LOCK:
        _FACTS[key] = (scenario, facts)
        while len(_FACTS) > FACTS_CACHED:
            _FACTS.popitem(last=False)
    return facts


class ProjectModel:
    """A training project played forward under one seed."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int = 0,
        replication: int = 0,
        decider: Decider | str = "playbook",
    ) -> None:
        self.scenario = s = scenario
        self.env = CountingEnvironment()
        self.streams = Streams.for_replication(seed, replication)
        self.facts = facts = scenario_facts(s)
        self.org = facts.org
        lev = s.levers
        if isinstance(decider, str):
            decider = make_decider(decider, lev.playbook, self.streams.lazy("decisions"))
        self.decider = decider
        budget = s.objective.budget
        self.ledger = Ledger(budget.total_usd, lev.reserve_fraction * budget.total_usd)
        attention = 1.0 / (1.0 + VARIANT_ATTENTION * (lev.parallel_variants - 1))
        self.teams = {
            t.id: TeamState(
                t, attention=attention if t.core else 1.0, _settled=facts.settled_capacity[t.id]
            )
            for t in s.org.teams
        }
        self.defects = DefectBook.draw(s, self.streams["defects"], self.streams["detection"])
        self.trace: list[TraceEvent] = []
        self.decisions: list[DecisionRecord] = []
        self.incidents: Counter[str] = Counter()
        self.phase = "setup"
        self.phase_spans: list[PhaseSpan] = []
        self._phase_start = 0.0
        self._people_charged_to = 0.0
        self.pending: DecisionPoint | None = None
        self._pending_event: simpy.Event | None = None
        self.finished = False
        self.finish_day: Days | None = None
        self._draw_uncertainties()
        self._size_plan()
        self.run: TrainingRun | None = None
        self.run_finished = False
        self._fit_plan_to_budget()
        self.version = 0
        self._measured_version = -1
        self.latest_evals: dict[str, EvalResult] = {}
        self.finished_at: dict[str, float] = {}
        self.critical_teams: set[TeamId] = set()
        self.critical_handoffs: set[tuple[TeamId, TeamId]] = set()
        self.main = self.env.process(self._project())
        self.env.process(self._departures())
        self.env.process(self._budget_cut())
        self.env.process(self._scheduled_staffing())
        self.env.process(self._scripted())

    # --- set-up -------------------------------------------------------------------------------

    def _draw_uncertainties(self) -> None:
        s = self.scenario
        vary = s.incidents.variability
        sigma = (EFFORT_SIGMA_BASE + EFFORT_SIGMA_NOVELTY * s.model.novelty) if vary else 0.0
        workstreams = s.plan.workstreams
        # Mean-one lognormal multipliers, drawn in a fixed order for common random numbers:
        # one per workstream, then 40 for post-training rounds (one draw of them all).
        z = self.streams["effort"].standard_normal(len(workstreams) + 40).tolist()
        multipliers = [math.exp(sigma * x - sigma**2 / 2) for x in z]
        self.effort_multiplier = {w.id: m for w, m in zip(workstreams, multipliers, strict=False)}
        self.round_multipliers = multipliers[len(workstreams) :]
        handoffs = self.streams["handoffs"]
        pairs = [(w.id, d) for w in workstreams for d in w.depends_on]
        rework = handoffs.random(len(pairs)).tolist() if vary else [1.0] * len(pairs)
        self.rework_draws = dict(zip(pairs, rework, strict=True))
        error = self.streams["quality"].standard_normal()
        sigma_loss = loss_sigma(s.model.novelty, s.levers.ablation_fraction) if vary else 0.0
        self.loss_error = float(error * sigma_loss)
        self.cut = draw_budget_cut(s, self.streams["budget"])
        self.departure_gaps = draw_departure_gaps(s, self.streams["staffing"])
        self.safety_draw = float(self.streams["safety"].random())
        noise = self.streams["eval_noise"]
        evals = s.objective.evals
        self.eval_set_errors = dict(
            zip((e.id for e in evals), noise.standard_normal(len(evals)).tolist(), strict=True)
        )
        self.active_workstreams = self.facts.active

    def _size_plan(self) -> None:
        """The run's size, rounds and rates before any budget fitting."""
        s, lev = self.scenario, self.scenario.levers
        self.ablation_fraction = lev.ablation_fraction
        self.rounds_planned = s.model.post_training_rounds
        self.rounds_done = 0
        self.extra_rounds = 0
        self.product_transfer = 1.0 if lev.product_evals_early else PRODUCT_TRANSFER_LATE
        self.reserve_left = self.ledger.reserve_usd
        if lev.strategy == "adapt" and s.model.base_model is not None:
            self.run_params = s.model.base_model.params_b * 1e9
            self.tokens_plan = s.model.adapt_tokens_b * 1e9 / lev.parallel_variants
        else:
            self.run_params = s.model.active_b * 1e9
            self.tokens_plan = s.model.tokens_b * 1e9 / lev.parallel_variants
        # A run that never starts: its rates size the plan and feed forecasts.
        self.probe = probe = TrainingRun(self, self.run_params, self.tokens_plan, "probe")
        self.run_usd_per_token = probe.usd_per_day / probe.rate
        self.trimmed_share = 0.0
        self.data_multiplier = data_multiplier(
            s.model.data_quality, lev.data_investment_usd, s.objective.budget.compute_usd
        )

    def _fit_plan_to_budget(self) -> None:
        """Size the run so the forecast spend fits the budget less the reserve."""
        from sim.engine.phases import projected_spend

        budget = self.scenario.objective.budget.total_usd
        excess = projected_spend(self) - budget * (1.0 - self.scenario.levers.reserve_fraction)
        if excess <= 0:
            return
        floor = MIN_PLANNED_TOKEN_SHARE * self.tokens_plan
        cut = min(self.tokens_plan - floor, excess / self.run_usd_per_token)
        self.trimmed_share = cut / self.tokens_plan
        self.tokens_plan -= cut
        self.trace_event(
            "plan", f"Run trimmed by {self.trimmed_share:.0%} of its tokens to keep the reserve"
        )

    def planned_compute_usd(self) -> float:
        run = self.tokens_plan * self.run_usd_per_token
        return run * (1.0 + self.ablation_fraction + ROUND_COMPUTE_SHARE * self.rounds_planned)

    # --- small services the components use ---------------------------------------------------

    def trace_event(
        self, kind: str, summary: str, team: str | None = None, data: dict[str, Any] | None = None
    ) -> None:
        self.trace.append(TraceEvent(self.env.now, kind, summary, team, data or {}))

    def count_incident(self, kind: str) -> None:
        self.incidents[kind] += 1

    def current_loss(self, tokens: float) -> float:
        """Pretraining loss after ``tokens`` raw tokens (or the base model's, when adapting)."""
        s = self.scenario
        if s.levers.strategy == "adapt" and s.model.base_model is not None:
            base = s.model.base_model
            adapted = tokens * self.data_multiplier * self.defects.token_factor(tokens)
            effective = base.tokens_b * 1e9 + adapted
            return chinchilla_loss(base.params_b * 1e9, effective) + self.loss_error
        effective = max(1e6, tokens) * self.data_multiplier * self.defects.token_factor(tokens)
        return chinchilla_loss(self.run_params, effective) + self.loss_error

    def quality_state(self) -> QualityState:
        s = self.scenario
        tokens = self.run.tokens if self.run is not None else 0.0
        focus = None
        if s.levers.eval_focus == "single":
            public = [e for e in s.objective.evals if e.kind == "public_benchmark"]
            focus = public[0].capability if public else None
        return QualityState(
            loss=self.current_loss(tokens),
            rounds=float(self.rounds_done),
            product_transfer=self.product_transfer,
            adapted=s.levers.strategy == "adapt",
            focus_capability=focus,
            decontaminate=s.levers.decontaminate,
            contamination_defect=self.defects.contamination_active(),
        )

    def measure_quality(self) -> dict[str, EvalResult]:
        s = self.scenario
        errors = self.eval_set_errors if s.incidents.variability else None
        self.latest_evals = measure(
            s.objective.capabilities, s.objective.evals, self.quality_state(), errors
        )
        self._measured_version = self.version
        return self.latest_evals

    def missed_targets(self) -> list[str]:
        return [
            t.eval
            for t in self.scenario.objective.targets
            if t.eval in self.latest_evals and self.latest_evals[t.eval].score < t.threshold
        ]

    # --- decisions ----------------------------------------------------------------------------

    def decision_latency(self, kind: str, detected_by: TeamId) -> Days:
        org, s = self.org, self.scenario
        latency = org.signal_latency(detected_by, org.decider(kind))
        if kind not in s.levers.playbook:
            latency += AD_HOC_DELIBERATION_DAYS + s.org.politics_days
        latency += (
            VARIANT_POLITICS_DAYS * (s.levers.parallel_variants - 1) * (s.org.politics_days > 0)
        )
        return latency

    def decide(
        self,
        kind: str,
        detected_by: TeamId,
        summary: str,
        context: dict[str, Any] | None = None,
        options: tuple[str, ...] | None = None,
    ) -> Generator[simpy.Event, Any, str]:
        """Raise a decision point, wait for it to reach the owner, and get an answer."""
        options = options or DECISION_OPTIONS[kind]
        raised = self.env.now
        latency = self.decision_latency(kind, detected_by)
        yield self.env.timeout(latency)
        n_kind = sum(1 for d in self.decisions if d.kind == kind)
        point = DecisionPoint(
            index=len(self.decisions),
            key=f"{kind}#{n_kind}",
            kind=kind,
            day=self.env.now,
            options=options,
            owner=self.org.decider(kind),
            detected_by=detected_by,
            latency_days=latency,
            summary=summary,
            context=dict(context or {}),
        )
        choice = self.decider.decide(point)
        by = self.decider.name
        # Automatic and human answers both arrive through an event, so a replayed play
        # processes events in exactly the order the live one did.
        answer = self.env.event()
        if choice is None:
            self.pending, self._pending_event, by = point, answer, "player"
        else:
            answer.succeed(choice)
        choice = yield answer
        self.pending, self._pending_event = None, None
        if choice not in options:
            raise ValueError(f"{choice!r} is not an option of {point.key}: {', '.join(options)}")
        self.decisions.append(
            DecisionRecord(
                point.index,
                point.key,
                kind,
                self.env.now,
                raised,
                point.owner,
                detected_by,
                latency,
                options,
                str(choice),
                by,
                point.context,
            )
        )
        self.trace_event("decision", f"{point.owner} chose {choice}: {summary}", point.owner)
        return str(choice)

    def answer(self, choice: str) -> None:
        """Answer the pending decision (the game's human decider)."""
        if self.pending is None or self._pending_event is None:
            raise RuntimeError("no decision is waiting")
        if choice not in self.pending.options:
            raise ValueError(f"{choice!r} is not an option: {', '.join(self.pending.options)}")
        self._pending_event.succeed(choice)

    # --- work ---------------------------------------------------------------------------------

    def work(self, team_id: TeamId, effort: PersonDays) -> Generator[simpy.Event, Any, None]:
        """Spend ``effort`` person-days of ``team_id``'s capacity, shared with its other work."""
        team = self.teams[team_id]
        env = self.env
        capacity, timeout = team.capacity, env.timeout  # bound once: read every step
        team.active += 1
        remaining = effort
        try:
            while remaining > 1e-9:
                rate = capacity(env.now) / team.active
                dt = remaining / rate
                if not dt < WORK_STEP_DAYS:  # min(WORK_STEP_DAYS, dt), as min picks
                    dt = WORK_STEP_DAYS
                yield timeout(dt)
                remaining -= rate * dt
        finally:
            team.active -= 1

    def _workstream(
        self, w: Workstream, done: dict[str, simpy.Event]
    ) -> Generator[simpy.Event, Any, None]:
        waits = [done[d] for d in self.facts.active_deps[w.id] if d in done]
        if waits:
            yield simpy.AllOf(self.env, waits)
        effort = w.effort_person_days * self.effort_multiplier[w.id]
        handoff = 0.0
        for h in self.facts.handoffs[w.id]:
            handoff = max(handoff, h.latency_days)
            if self.rework_draws[(w.id, h.upstream)] < h.rework_chance:
                effort += REWORK_SHARE * h.upstream_effort
                self.count_incident("handoff_rework")
                self.trace_event(
                    "rework", f"{w.id}: handoff from {h.upstream} needed rework", w.owner
                )
        if handoff > 0:
            yield self.env.timeout(handoff)
        yield from self.work(w.owner, effort)
        self.finished_at[w.id] = self.env.now
        done[w.id].succeed()

    def phase_of(self, w: Workstream) -> str:
        """The phase a workstream runs in, once its lever moves (product evals, safety)."""
        return self.facts.phase_of[w.id]

    def _run_workstreams(
        self, phase: str, *extra: tuple[str, TeamId, simpy.Process]
    ) -> Generator[simpy.Event, Any, None]:
        """Run a phase's workstreams beside its built-in activities (``extra``).

        Afterwards, note which chain of work set the phase's end (criticality index).
        """
        ws = list(self.facts.in_phase[phase])
        by_id = self.facts.by_id
        done = {w.id: self.env.event() for w in ws}
        procs = [self.env.process(self._workstream(w, done)) for w in ws]
        ended: dict[str, float] = {}
        for label, _, proc in extra:
            proc.callbacks.append(self._stamp(ended, label))
        yield simpy.AllOf(self.env, procs + [p for _, _, p in extra])
        self._note_critical_chain(phase, ws, by_id, ended, {lb: t for lb, t, _ in extra})

    def _stamp(self, ended: dict[str, float], label: str) -> Callable[[simpy.Event], None]:
        def stamp(_event: simpy.Event) -> None:
            ended[label] = self.env.now

        return stamp

    def _note_critical_chain(
        self,
        phase: str,
        ws: list[Workstream],
        by_id: dict[str, Workstream],
        ended: dict[str, float],
        extra_teams: dict[str, TeamId],
    ) -> None:
        last_ws = max(ws, key=lambda w: self.finished_at[w.id], default=None)
        last_extra = max(ended, key=lambda k: ended[k], default=None)
        ws_end = self.finished_at[last_ws.id] if last_ws else -1.0
        if last_extra is not None and ended[last_extra] >= ws_end:
            self.critical_teams.add(extra_teams[last_extra])
            self.trace_event("critical", f"{phase}: {last_extra} set the pace")
            return
        w = last_ws
        in_phase = {x.id for x in ws}
        while w is not None:
            self.critical_teams.add(w.owner)
            deps = [by_id[d] for d in w.depends_on if d in in_phase and d in self.finished_at]
            up = max(deps, key=lambda d: self.finished_at[d.id], default=None)
            if up is not None and up.owner != w.owner:
                self.critical_handoffs.add((up.owner, w.owner))
            w = up

    # --- phases -------------------------------------------------------------------------------

    def _enter(self, phase: str) -> None:
        if self.phase in PHASES:
            self.phase_spans.append(PhaseSpan(self.phase, self._phase_start, self.env.now))
        self.charge_people()
        self.phase, self._phase_start = phase, self.env.now
        self.trace_event("phase", f"{phase.replace('_', ' ').capitalize()} begins")

    def charge_people(self) -> None:
        now = self.env.now
        notes = self.facts.salary_notes
        charge = self.ledger.charge
        for tid, team in self.teams.items():
            charge(now, "people", team.cost_usd(team.accrue_person_days(now)), notes[tid])
        self._people_charged_to = now

    def _project(self) -> Generator[simpy.Event, Any, None]:
        from sim.engine import phases

        for phase in PHASES:
            self._enter(phase)
            if phase != "prepare":
                yield from phases.budget_watch(self)
            yield from getattr(phases, phase)(self)
            yield from phases.gates_after(self, phase)
        self._finish()

    def _finish(self) -> None:
        self._enter("done")
        if self._measured_version != self.version or not self.latest_evals:
            self.measure_quality()
        self.finished = True
        self.finish_day = self.env.now
        self.trace_event("release", "Model released")

    # --- background incident processes ------------------------------------------------------

    def _departures(self) -> Generator[simpy.Event, Any, None]:
        dep = self.scenario.incidents.departures
        if not dep.enabled or dep.per_person_year <= 0:
            return
        # Merge each team's departure times, scaled by its starting headcount.
        # Merged lazily: a play usually ends long before the last of them.
        per_team = []
        for tid, gaps in self.departure_gaps.items():
            rate = dep.per_person_year / 365.0 * self.teams[tid].spec.headcount
            per_team.append(zip(accumulate(map(truediv, gaps, repeat(rate))), repeat(tid)))
        for day, tid in heapq.merge(*per_team):
            if day > self.env.now:
                yield self.env.timeout(day - self.env.now)
            if self.finished:
                return
            self.env.process(self._one_departure(tid))

    def _one_departure(self, tid: TeamId) -> Generator[simpy.Event, Any, None]:
        dep = self.scenario.incidents.departures
        team = self.teams[tid]
        if team.headcount <= 0:
            return
        team.leave(self.env.now)
        self.count_incident("key_person_departure")
        self.trace_event("departure", f"A {tid} team member left", tid)
        wait = dep.replacement_days * (1.0 if self.org.owner("staffing") else 2.0)
        yield self.env.timeout(wait)
        if not self.finished:
            team.join(self.env.now)
            self.trace_event("hire", f"A replacement joined {tid} and starts ramping up", tid)

    def _scheduled_staffing(self) -> Generator[simpy.Event, Any, None]:
        lev = self.scenario.levers
        if lev.add_core_staff <= 0:
            return
        yield self.env.timeout(lev.add_core_staff_day)
        if not self.finished:
            self.add_core_staff(lev.add_core_staff, "planned (levers.add_core_staff)")

    def add_core_staff(self, people: int, why: str) -> None:
        """New people join the core team on the critical path now (Brooks's law applies)."""
        team = self.critical_core_team()
        self.teams[team].join(self.env.now, people)
        self.count_incident("core_staff_added")
        self.trace_event("hire", f"{people} people join {team} ({why})", team)

    def critical_core_team(self) -> TeamId:
        if self.phase in ("post_training", "evaluation", "release"):
            return self.post_training_team
        return self.org.training_team

    @property
    def post_training_team(self) -> TeamId:
        return self.facts.post_training_team

    def _scripted(self) -> Generator[simpy.Event, Any, None]:
        """The scenario's timed injects (run-progress ones are the run's business)."""
        from sim.engine.injects import InjectError, apply_inject

        timed = sorted(
            (i for i in self.scenario.incidents.scripted if i.day is not None),
            key=lambda i: i.day or 0.0,
        )
        for inc in timed:
            yield self.env.timeout(max(0.0, (inc.day or 0.0) - self.env.now))
            if self.finished:
                return
            try:
                apply_inject(self, inc.kind, inc.params(), scripted=True)
            except InjectError as exc:
                self.trace_event("inject", f"Scripted {inc.kind} did not apply: {exc}")

    def _budget_cut(self) -> Generator[simpy.Event, Any, None]:
        if not self.cut.happens:
            return
        yield self.env.timeout(self.cut.day)
        if self.finished:
            return
        from sim.engine import phases

        yield from phases.budget_cut(self)
