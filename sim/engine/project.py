"""A play's state, and the services the engine's parts use to read and change it.

:class:`Project` holds everything one play of a scenario under one seed knows, declared
in its ``__init__``: the world's draws, the plan, the teams, the ledger and the records.
The phases (:mod:`sim.engine.phases`), the training run (:mod:`sim.engine.training`) and
injects (:mod:`sim.engine.injects`) read it and change it through its public methods;
:class:`~sim.engine.model.ProjectModel` adds the processes that play it forward.
docs/model.md, "Phases and workstreams".
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Generator
from functools import partial
from typing import Any

import numpy as np
import simpy

from sim.engine.clock import PlayEnvironment
from sim.engine.compute import (
    adapting,
    planned_run,
    post_training_round_gpu_hours,
    round_compute_usd,
)
from sim.engine.decisions import (
    AD_HOC_DELIBERATION_DAYS,
    Decider,
    DecisionPoint,
    Outlook,
    make_decider,
)
from sim.engine.draws import Draws
from sim.engine.facts import scenario_facts
from sim.engine.incidents import Defect, DefectBook
from sim.engine.novelty import exploration_multiplier
from sim.engine.politics import (
    INTEGRATION_DEFECT,
    ContributionBook,
    draw_findings,
    stakeholders,
    variant_loss_error,
)
from sim.engine.quality import (
    PRODUCT_TRANSFER_LATE,
    EvalResult,
    QualityState,
    chinchilla_loss,
    data_multiplier,
    loss_sigma,
    measure,
)
from sim.engine.records import (
    DecisionRecord,
    Ledger,
    PhaseSpan,
    PlanState,
    ScopeCut,
    TraceEvent,
)
from sim.engine.review import REVIEW_CO_DESIGN
from sim.engine.rng import Streams, standard_exponential
from sim.engine.safety import SafetyBook
from sim.engine.signals import entity_stream
from sim.engine.teams import (
    NOTICE_DAYS,
    RAMP_DAYS,
    TeamState,
    output_on,
    seniority_factor,
    watching,
    work_item,
)
from sim.engine.training import RunFacts, Steps, TrainingRun
from sim.scenario.spec import (
    DECISION_OPTIONS,
    PHASES,
    ROLE_CO_DESIGN,
    Objective,
    Scenario,
    Workstream,
)
from sim.scenario.vocabulary import option_words, review_words, sentence, words, work_words
from sim.units import HOURS_PER_DAY, Days, PersonDays, TeamId

#: Longest step of a workstream before its team's pace is read again while newcomers ramp up
#: (or while the team has nobody).
WORK_STEP_DAYS = 2.0
#: Share of the upstream effort redone on rework (and of a work item's own, on noise rework).
REWORK_SHARE = 0.15
#: Person-days of people on a team's work without a task of their own ("doing stuff") per
#: uncoordinated change that forces rework, on average.
NOISE_PERSON_DAYS = 150.0
#: Phases whose work the post-training team leads (it is then the critical core team).
POST_TRAINING_LED = frozenset(PHASES[PHASES.index("post_training") :])
#: Below this many person-days a day a team is treated as empty in forecasts.
MIN_FORECAST_RATE = 1e-6
#: Post-training jobs run on this share of the cluster (assumption, docs/model.md).
POST_TRAINING_CLUSTER_SHARE = 0.25


#: The play's environment was called this before it settled stretches of the run.
CountingEnvironment = PlayEnvironment


#: Less of a round than this is no round (a plan's rounds are real numbers: a last round of
#: 0.4 is 0.4 of a round's work, compute and annotation).
ROUND_EPS = 1e-6


class Project(ABC):
    """One play of a scenario under one seed: its state and the services its parts use."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int = 0,
        replication: int = 0,
        decider: Decider | str = "playbook",
        observed: bool = True,
    ) -> None:
        self.scenario = s = scenario
        #: Whether someone will look at this play (a batch replication is not looked at:
        #: it skips what only a person reads, the loss curve). Never changes a number.
        self.observed = observed
        self.env = PlayEnvironment()
        self.streams = Streams.for_replication(seed, replication)
        self.facts = facts = scenario_facts(s)
        self.org = facts.org
        lev = s.levers
        if isinstance(decider, str):
            decider = make_decider(decider, lev.playbook, self.decision_stream)
        self.decider = decider
        budget = s.objective.budget
        self.ledger = Ledger(
            budget.total_usd, lev.reserve_fraction * budget.total_usd, keep_entries=observed
        )
        # Co-design teams split their people over the variants; the flagship gets 1 / v.
        attention = 1.0 / lev.parallel_variants
        # In the order of their ids, so every sum over teams (salaries, effort) is the same
        # whatever the order of the scenario's list (common random numbers by identity).
        self.teams = {
            t.id: TeamState(
                t,
                attention=attention if t.id in facts.org.core else 1.0,
                watching=watching(len(facts.org.risks_owned_by(t.id))),
            )
            for t in sorted(s.org.teams, key=lambda t: t.id)
        }
        #: Forecast days of work at today's pace, for the moment ``_work_days_at``.
        self._work_days: dict[tuple[TeamId, int, float, float], Days] = {}
        self._work_days_at: Days = -1.0
        #: The same for teams without newcomers, whose pace holds while their version does.
        self._steady_work_days: dict[tuple[TeamId, int, float, float], Days] = {}
        #: Expected target scores of plans (a plan's quality state gives its scores).
        self.planned_scores: dict[QualityState, dict[str, float]] = {}
        #: The processes whose work waits on each team's pace (woken when the team changes).
        self._paced: dict[TeamId, list[simpy.Process]] = {tid: [] for tid in self.teams}
        for tid, team in self.teams.items():
            team.on_change = self._waker(tid)
        self.defects = DefectBook.draw(s, self.streams)
        self.draws = Draws.draw(s, self.streams)
        #: Contributions proposed for the model, and the bugs forced ones bring past the gate.
        self.contributions = ContributionBook.draw(s, self.streams)
        self._add_forced_bugs()
        #: Latent safety, legal and privacy issues, and the fixes under way.
        self.safety = SafetyBook.draw(s, self.streams)
        self.safety_work: list[simpy.Process] = []
        #: Work redone for a changed objective, under way (sim/engine/objectives.py), and
        #: post-training rounds whose gains it lost and that are still to run again.
        self.objective_work: list[simpy.Process] = []
        self.rounds_to_redo = 0.0
        #: Evergreen research results, in order of arrival.
        self.findings = draw_findings(s, self.org, self.streams)
        sigma = loss_sigma(s.model.novelty, lev.ablation_fraction) if s.incidents.variability else 0
        #: Error of the loss forecast for the variant that ships (the best of the variants).
        self.loss_error = variant_loss_error(s, self.streams, self.draws.loss_error, sigma)
        # --- what is recorded ---
        self.trace: list[TraceEvent] = []
        self.decisions: list[DecisionRecord] = []
        self.incidents: Counter[str] = Counter()
        self.phase = "setup"
        self.phase_spans: list[PhaseSpan] = []
        #: Day the current phase began.
        self.phase_start: Days = 0.0
        #: Day up to which salaries are in the ledger.
        self.people_charged_to: Days = 0.0
        self.pending: DecisionPoint | None = None
        #: Budget responses under way (the budget owner's weekly look waits for them).
        self.budget_open = 0
        self._pending_event: simpy.Event | None = None
        self.finished = False
        self.finish_day: Days | None = None
        self.finished_at: dict[str, float] = {}
        self.critical_teams: set[TeamId] = set()
        self.critical_handoffs: set[tuple[TeamId, TeamId]] = set()
        #: Calendar days each gate's review took, beside its phase's work.
        self.review_days: dict[str, Days] = {}
        #: Pieces of work each team has started (names the noise draw of unnamed work).
        self._work_count: dict[TeamId, int] = {}
        # --- the plan: the run's size, rounds and rates (changed by decisions) ---
        self.ablation_fraction = lev.ablation_fraction
        self.rounds_planned: float = float(s.model.post_training_rounds)
        #: Rounds done, a last shorter round as its share (a plan of 3.4 rounds ends with a
        #: round of 0.4 of the work, compute and annotation: docs/model.md, "Budget as a plan").
        self.rounds_done = 0.0
        self.extra_rounds = 0
        #: The plan once fitted to the budget at set-up (what the outcome calls planned).
        self.set_up_plan: PlanState | None = None
        self.product_transfer = 1.0 if lev.product_evals_early else PRODUCT_TRANSFER_LATE
        self.reserve_left = self.ledger.reserve_usd
        self.run_params, self.tokens_plan = planned_run(s)
        #: What the scenario planned, before any scope cut.
        self.tokens_scenario = self.tokens_plan
        #: Share of the evaluation workstreams' effort and of the evals' items kept.
        self.eval_scope = 1.0
        #: GPUs the plan holds (a smaller cluster for longer is a scope option).
        self.cluster_gpus = s.cluster.gpus
        #: People still to join the core through ``levers.add_core_staff``.
        self.hires_planned = lev.add_core_staff
        #: The planned run's rates, before it starts (they size the plan and feed forecasts).
        self.run_facts: RunFacts = facts.run(self.run_params)
        self.run_usd_per_token = self.run_facts.usd_per_day / self.run_facts.rate
        #: GPU-hours and on-demand price of one post-training round.
        self.round_gpu_hours = post_training_round_gpu_hours(
            self.run_params, s.model.post_training, s.cluster.gpu, s.cluster.mfu
        )
        self.round_compute_usd = round_compute_usd(s, self.run_params)
        #: Research effort over documented work (docs/model.md, "Novelty").
        self.exploration = exploration_multiplier(s.model.novelty)
        #: Every scope cut made to fit the budget, priced (docs/model.md, "Budget as a plan").
        self.scope_cuts: list[ScopeCut] = []
        #: Effective tokens are never above a clean run's of the same plan (late fixes).
        self.tokens_cap: float | None = None
        # --- a reserved cluster: paid every day from its start to its end ---
        self.reserved = s.cluster.billing == "reserved"
        self.reservation_start: Days | None = None
        self.reservation_paid_to: Days = 0.0
        self.reservation_ended = False
        self.data_multiplier = data_multiplier(
            s.model.data_quality, lev.data_investment_usd, self.tokens_plan
        )
        self.run: TrainingRun | None = None
        self.run_finished = False
        #: Bumped whenever the model being trained changes; evals are re-measured after.
        self.version = 0
        self._measured_version = -1
        self.latest_evals: dict[str, EvalResult] = {}

    def _add_forced_bugs(self) -> None:
        """Bugs from folding in untested contributions: defects the ablation gate never sees.

        Each gate's chance to see a bug is the bug's own draw keyed by the gate's id (as a
        defect source's), so reordering, adding or removing a gate moves no other draw.
        """
        uniform = self.streams.entity_uniform
        for c in self.contributions.forced_bugs():  # in the order of the contributions' ids
            key = f"{c.spec.id}_bug"
            draws = {
                g.id: 1.0 if g.after == "ablations" else uniform("detection", f"{key}@{g.id}")
                for g in self.scenario.plan.gates
            }
            monitor = standard_exponential(uniform("politics", f"{c.spec.id}/bug"))
            source = INTEGRATION_DEFECT.model_copy(update={"id": key})
            self.defects.defects.append(
                Defect(len(self.defects.defects), source, True, draws, monitor)
            )

    # --- responses the processes provide (ProjectModel) ------------------------------------

    @abstractmethod
    def respond_to_found_defects(self, run: TrainingRun) -> Steps:
        """Handle the defects the run's monitoring has just found."""

    @abstractmethod
    def apply_inject(self, kind: str, params: dict[str, Any], scripted: bool = False) -> None:
        """Make an incident of ``kind`` happen now."""

    @abstractmethod
    def outlook(self, kind: str, options: tuple[str, ...], context: dict[str, Any]) -> Outlook:
        """The model's forecast of each option of a decision, for a person deciding now."""

    def decision_stream(self, key: str) -> np.random.Generator:
        """The random stream of the decision ``key`` (``kind#n``): a person's reading of it."""
        return entity_stream(self.streams, "judgement", key)

    # --- records ------------------------------------------------------------------------------

    def trace_event(
        self, kind: str, summary: str, team: str | None = None, data: dict[str, Any] | None = None
    ) -> None:
        self.trace.append(TraceEvent(self.env.now, kind, summary, team, data or {}))

    def count_incident(self, kind: str) -> None:
        self.incidents[kind] += 1

    # --- the plan -----------------------------------------------------------------------------

    @property
    def trimmed_share(self) -> float:
        """Share of the scenario's tokens the plan no longer trains (scope cuts)."""
        return max(0.0, 1.0 - self.tokens_plan / self.tokens_scenario)

    def plan_ablations(self, fraction: float) -> None:
        self.ablation_fraction = fraction

    def plan_eval_scope(self, share: float) -> None:
        self.eval_scope = share

    def plan_hires(self, people: int) -> None:
        self.hires_planned = people

    def plan_cluster(self, gpus: int) -> None:
        """Hold ``gpus`` GPUs for the run (before it starts): its rates follow."""
        self.cluster_gpus = gpus
        self.run_facts = self.facts.run(self.run_params, gpus)
        self.run_usd_per_token = self.run_facts.usd_per_day / self.run_facts.rate

    def record_scope_cut(self, cut: ScopeCut) -> None:
        """A scope cut made to fit the budget: kept, traced and priced, never silent."""
        self.scope_cuts.append(cut)
        self.count_incident("scope_cut")
        self.trace_event("scope_cut", cut.summary(), "budget", cut.as_dict())

    def cap_effective_tokens(self, tokens: float) -> None:
        """From now on the model can be no better than a clean run of ``tokens``.

        ``tokens`` counts what the recipe changes so far already cost (the clean run's own
        effective tokens, before data quality).
        """
        self.tokens_cap = tokens

    def planned_effort(self, w: Workstream) -> PersonDays:
        """A workstream's effort before its draw: research costs more at the frontier."""
        effort = w.effort_person_days
        if w.owner in self.facts.org.core:
            effort *= self.exploration
        if self.facts.phase_of[w.id] == "evaluation":
            effort *= self.eval_scope
        return effort

    # --- the cluster's bill -------------------------------------------------------------------

    def on_reservation(self) -> bool:
        """Whether a reservation pays for the cluster now (jobs then cost nothing more)."""
        return self.reservation_start is not None and not self.reservation_ended

    def start_reservation(self) -> None:
        if self.reserved and self.reservation_start is None:
            self.reservation_start = self.reservation_paid_to = self.env.now
            self.trace_event(
                "reservation", f"Cluster reserved: {self.cluster_gpus:,} GPUs, paid every day"
            )

    def pay_reservation(self) -> None:
        """Charge the reserved cluster up to now, idle days included."""
        if not self.on_reservation():
            return
        days = self.env.now - self.reservation_paid_to
        self.ledger.charge(
            self.env.now,
            "compute",
            days * self.run_facts.usd_per_day,
            "reserved cluster",
            "reserved_cluster",
        )
        self.reservation_paid_to = self.env.now

    def end_reservation(self) -> None:
        if self.on_reservation():
            self.pay_reservation()
            self.reservation_ended = True
            self.trace_event("reservation", "Cluster reservation ends")

    def charge_compute(self, usd: float, note: str, line: str) -> None:
        """An on-demand compute job's bill; nothing more while a reservation pays."""
        if not self.on_reservation():
            self.ledger.charge(self.env.now, "compute", usd, note, line)

    def plan_tokens(self, tokens: float) -> None:
        """Set the run's token target (the running run's too)."""
        if self.run is not None:
            self.run.target_tokens = tokens
        self.tokens_plan = tokens

    def plan_rounds(self, rounds: float) -> None:
        self.rounds_planned = float(rounds)

    def cut_ablations(self) -> None:
        self.ablation_fraction = 0.0

    def use_reserve(self, usd: float) -> None:
        self.reserve_left = max(0.0, self.reserve_left - usd)

    def start_run(self, label: str) -> TrainingRun:
        """The main (or adaptation) run of the plan, ready to start."""
        self.run = TrainingRun(
            self, self.run_facts, self.tokens_plan, label, billed=not self.on_reservation()
        )
        return self.run

    def end_run(self) -> None:
        """The run's phase is over: the model has changed."""
        self.run_finished = True
        self.version += 1

    def model_changed(self) -> None:
        """A fix or a retrain changed the model: evals must be measured again."""
        self.version += 1

    def round_done(self, share: float = 1.0) -> None:
        self.rounds_done += share
        self.version += 1

    def redo_rounds(self) -> None:
        """A retrain from scratch: post-training starts over."""
        self.rounds_done = 0.0

    def change_objective(self, objective: Objective) -> None:
        """The objective changes now (an inject): a target, the deadline or the product use.

        Everything that reads the objective (the ship call, the schedule check, the outcome)
        reads the new one from here on (sim/engine/objectives.py).
        """
        self.scenario = self.scenario.model_copy(update={"objective": objective})

    def lose_rounds(self, rounds: float, redo: bool, transfer: float | None = None) -> None:
        """``rounds`` of post-training no longer count for the objective; ``redo``: run them again.

        Kept instead, the plan gives them up, and post-training is steered from now on with
        a product ``transfer`` (evals built for the old objective).
        """
        self.rounds_done = max(0.0, self.rounds_done - rounds)
        if redo:
            self.rounds_to_redo += rounds
        else:
            self.rounds_planned = max(self.rounds_done, self.rounds_planned - rounds)
        if transfer is not None:
            self.product_transfer = transfer
        self.version += 1

    def take_rounds_to_redo(self) -> float:
        """Rounds still to run again after an objective change (at most what the plan lacks)."""
        owed = min(self.rounds_to_redo, self.rounds_planned - self.rounds_done)
        self.rounds_to_redo = 0.0
        return owed

    def extra_round_planned(self) -> None:
        self.extra_rounds += 1

    def post_training_data_fixed(self) -> None:
        """Post-training data fixed for the product: product evals gain in full."""
        self.product_transfer = 1.0

    def round_effort_multiplier(self) -> float:
        """Effort multiplier of the next post-training round (extra rounds included).

        Its draw, times the research multiplier of frontier work.
        """
        rounds = self.draws.round_multipliers
        return rounds[(int(self.rounds_done) + self.extra_rounds) % len(rounds)] * self.exploration

    # --- quality ------------------------------------------------------------------------------

    def current_loss(self, tokens: float) -> float:
        """Pretraining loss after ``tokens`` raw tokens (or the base model's, when adapting).

        Effective tokens count data quality, defects and recipe changes, and never exceed a
        clean run's of the plan once a late fix has capped them.
        """
        s = self.scenario
        run = self.run
        factor = self.defects.token_factor(tokens) * (run.recipe_token_factor if run else 1.0)
        dm = self.data_multiplier
        cap = self.tokens_cap
        base = s.model.base_model
        if adapting(s) and base is not None:
            adapted = tokens * dm * factor
            if cap is not None:
                adapted = min(adapted, cap * dm)
            effective = base.tokens_b * 1e9 + adapted
            loss = chinchilla_loss(base.params_b * 1e9, effective)
        else:
            effective = max(1e6, tokens) * dm * factor
            if cap is not None:
                effective = min(effective, max(1e6, cap) * dm)
            loss = chinchilla_loss(self.run_params, effective)
        return loss + self.loss_error + self.contributions.loss_shift()

    @property
    def focus_capability(self) -> str | None:
        """The capability a single-benchmark eval focus tunes for (None: no such focus)."""
        s = self.scenario
        if s.levers.eval_focus != "single":
            return None
        public = [e for e in s.objective.evals if e.kind == "public_benchmark"]
        return public[0].capability if public else None

    def quality_state(self) -> QualityState:
        s = self.scenario
        tokens = self.run.tokens if self.run is not None else 0.0
        return QualityState(
            loss=self.current_loss(tokens),
            rounds=float(self.rounds_done),
            product_transfer=self.product_transfer,
            adapted=s.levers.strategy == "adapt",
            focus_capability=self.focus_capability,
            decontaminate=s.levers.decontaminate,
            contamination_defect=self.defects.contamination_active(),
            capabilities=len(s.objective.capabilities),
        )

    def measure_quality(self) -> dict[str, EvalResult]:
        s = self.scenario
        errors = self.draws.eval_set_errors if s.incidents.variability else None
        self.latest_evals = measure(
            s.objective.capabilities,
            s.objective.evals,
            self.quality_state(),
            errors,
            items_share=self.eval_scope,
        )
        self._measured_version = self.version
        return self.latest_evals

    def measured_current_model(self) -> bool:
        """Whether the latest evals measured the model as it is now."""
        return self._measured_version == self.version and bool(self.latest_evals)

    def missed_targets(self) -> list[str]:
        return [
            t.eval
            for t in self.scenario.objective.targets
            if t.eval in self.latest_evals and self.latest_evals[t.eval].score < t.threshold
        ]

    # --- decisions ----------------------------------------------------------------------------

    def decision_latency(
        self, kind: str, detected_by: TeamId, options: tuple[str, ...] | None = None
    ) -> Days:
        """Days before the holder of ``kind`` answers a signal from ``detected_by``.

        The signal's trip along the org graph; the holder's next look (half its watch
        interval); without an agreed playbook entry on offer (``options``, default all of
        the kind's), deliberation plus a round of politics; and a round of politics for
        every group pushing its own agenda (territorial teams, extra variants), agreed or not.
        """
        org, s = self.org, self.scenario
        holder = org.decider(kind)
        latency = org.signal_latency(detected_by, holder)
        latency += org.teams[holder].watch_hours / HOURS_PER_DAY / 2.0
        agreed = s.levers.playbook.get(kind)  # type: ignore[call-overload]
        if not agreed or not set(agreed) & set(options or DECISION_OPTIONS[kind]):
            latency += AD_HOC_DELIBERATION_DAYS + s.org.politics_days
        return latency + s.org.politics_days * stakeholders(s)

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
        latency = self.decision_latency(kind, detected_by, options)
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
            outlook=partial(self.outlook, kind, options, dict(context or {})),
            hops=self.org.signal_path(detected_by, self.org.decider(kind)).hops,
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
        self.trace_event(
            "decision",
            f"{sentence(words(point.owner))} chose {option_words(str(choice))}: {summary}",
            point.owner,
        )
        return str(choice)

    def answer(self, choice: str) -> None:
        """Answer the pending decision (the game's human decider)."""
        if self.pending is None or self._pending_event is None:
            raise RuntimeError("no decision is waiting")
        if choice not in self.pending.options:
            raise ValueError(f"{choice!r} is not an option: {', '.join(self.pending.options)}")
        self._pending_event.succeed(choice)

    # --- work ---------------------------------------------------------------------------------

    def work(
        self,
        team_id: TeamId,
        effort: PersonDays,
        co_design: float = ROLE_CO_DESIGN["general"],
        key: str | None = None,
    ) -> Generator[simpy.Event, Any, None]:
        """Do ``effort`` person-days of work needing ``co_design`` with ``team_id``'s people.

        The team shares its people over the work it has on hand (sim/engine/teams.py). The
        pace holds until the team changes (work taken or finished, a join, a departure),
        which wakes the work to read it again; while a newcomer ramps up it is read every
        ``WORK_STEP_DAYS`` at most (at the start of each step, as before). People
        without a task of their own meanwhile make uncoordinated changes: when the work is
        done, the chance that one forces rework is ``1 - exp(-surplus person-days /
        NOISE_PERSON_DAYS)``, drawn from the work's own stream (``key``: its id).
        """
        team = self.teams[team_id]
        env = self.env
        rate_of, timeout, paced = team.rate, env.timeout, self._paced[team_id]
        item = work_item(effort, co_design)
        team.take(item, env.now)
        surplus_at_start = team.surplus_person_days(env.now)
        remaining, reworked = effort, False
        me = env.active_process
        if me is None:
            raise RuntimeError("work runs inside a SimPy process")
        try:
            while remaining > 1e-9:
                start = env.now
                rate = rate_of(item, start)
                if rate <= 0:
                    dt = WORK_STEP_DAYS  # nobody to do it: look again later
                elif team.ramping(start):
                    dt = min(WORK_STEP_DAYS, remaining / rate)  # the pace grows day by day
                else:
                    dt = remaining / rate  # a steady pace until the team changes
                paced.append(me)
                try:
                    yield timeout(dt)
                    done = rate * dt
                except simpy.Interrupt:  # the team changed: the pace so far, then again
                    done = rate * (env.now - start)
                finally:
                    if me in paced:
                        paced.remove(me)
                remaining = remaining - done if done < remaining - 1e-9 else 0.0
                if remaining <= 0.0 and not reworked:
                    reworked = True
                    noise = team.surplus_person_days(env.now) - surplus_at_start
                    if noise > 0 and self._noise_reworks(team_id, key, noise):
                        remaining += REWORK_SHARE * effort
        finally:
            team.drop(item, env.now)

    def _waker(self, tid: TeamId) -> Callable[[], None]:
        """What ``tid`` calls when it changes: its waiting work reads its pace again."""
        paced = self._paced[tid]

        def wake() -> None:
            me = self.env.active_process
            for proc in [p for p in paced if p is not me]:
                paced.remove(proc)
                if proc.is_alive:
                    proc.interrupt("the team changed")

        return wake

    def _noise_reworks(self, team_id: TeamId, key: str | None, noise: PersonDays) -> bool:
        """Whether ``noise`` person-days of people without a task forced rework on the work.

        A draw, so never without variability (as handoff rework).
        """
        if not self.scenario.incidents.variability:
            return False
        n = self._work_count[team_id] = self._work_count.get(team_id, 0) + 1
        u = self.streams.entity_uniform("noise", key or f"{team_id}#{n}")
        if u >= 1.0 - math.exp(-noise / NOISE_PERSON_DAYS):
            return False
        self.count_incident("noise_rework")
        self.trace_event(
            "rework",
            f"{sentence(work_words(key or team_id))}: uncoordinated changes by people without "
            "a task forced rework",
            team_id,
        )
        return True

    def work_days(self, team_id: TeamId, effort: PersonDays, co_design: float) -> Days:
        """Rough days for ``team_id`` to do ``effort`` of work alone at today's pace (forecasts)."""
        team = self.teams[team_id]
        now = self.env.now
        # Forecasts price many plans at one moment: the same question, the same answer. A
        # team without newcomers keeps its pace until its people change (its version), so
        # the answer holds across moments; while one ramps up, only for the moment.
        key = (team_id, team.version, effort, co_design)
        if team.newcomers:
            if self._work_days_at != now:
                self._work_days.clear()
                self._work_days_at = now
            memo = self._work_days
        else:
            memo = self._steady_work_days
        known = memo.get(key)
        if known is not None:
            return known
        days = memo[key] = self._solo_work_days(team, effort, co_design, now)
        return days

    def _solo_work_days(
        self, team: TeamState, effort: PersonDays, co_design: float, now: Days
    ) -> Days:
        item = work_item(effort, co_design)
        rate = team.solo_rate(item, now)
        if rate > MIN_FORECAST_RATE:
            if not team.ramping(now):
                return effort / rate
            # Today's pace of a team whose newcomers are still ramping understates it: a
            # newcomer on day one does almost nothing, and effort / rate forecast rounds of
            # a thousand days. Take the sooner of today's pace and waiting for the ramp-ups
            # to finish, then the settled pace.
            settle = max(d + RAMP_DAYS for d in team.newcomers) - now
            settled = team.solo_rate(item, now + settle)
            return min(effort / rate, settle + effort / max(settled, MIN_FORECAST_RATE))
        # Nobody on the team now (a departure not yet replaced): the work waits for the
        # replacement, then goes at one settled person's pace.
        one = output_on(1.0, item, seniority_factor(team.spec.seniority))
        wait = self.scenario.incidents.departures.replacement_days
        return wait + effort / max(one, MIN_FORECAST_RATE)

    def round_share(self) -> float:
        """The size of the next planned round: 1, or the share left of a shorter last round."""
        return max(0.0, min(1.0, self.rounds_planned - self.rounds_done))

    def round_days(self) -> Days:
        """Rough days of one post-training round (forecasts).

        The longest of its people's work at today's pace, its GPU-hours on the
        post-training share of the cluster, and ``round_days_min``.
        """
        s = self.scenario
        effort = s.model.round_person_days * self.exploration
        days = self.work_days(self.post_training_team, effort, s.plan.post_training_co_design)
        return max(s.model.round_days_min, days, self.round_compute_days())

    def round_compute_days(self) -> Days:
        """Days one round's GPU-hours take on the post-training share of the cluster."""
        gpus = max(1.0, POST_TRAINING_CLUSTER_SHARE * self.cluster_gpus)
        return self.round_gpu_hours / gpus / HOURS_PER_DAY

    def _workstream(
        self, w: Workstream, done: dict[str, simpy.Event]
    ) -> Generator[simpy.Event, Any, None]:
        waits = [done[d] for d in self.facts.active_deps[w.id] if d in done]
        if waits:
            yield simpy.AllOf(self.env, waits)
        effort = self.planned_effort(w) * self.draws.effort_multiplier[w.id]
        handoff = 0.0
        for h in self.facts.handoffs[w.id]:
            handoff = max(handoff, h.latency_days)
            if self.draws.rework[(w.id, h.upstream)] < h.rework_chance:
                effort += REWORK_SHARE * h.upstream_effort
                self.count_incident("handoff_rework")
                self.trace_event(
                    "rework",
                    f"{sentence(words(w.id))}: the handoff from {words(h.upstream)} needed rework",
                    w.owner,
                )
        if handoff > 0:
            yield self.env.timeout(handoff)
        yield from self.work(w.owner, effort, w.co_design_need, key=w.id)
        self.finished_at[w.id] = self.env.now
        done[w.id].succeed()

    def phase_of(self, w: Workstream) -> str:
        """The phase a workstream runs in, once its lever moves (product evals, safety)."""
        return self.facts.phase_of[w.id]

    def run_workstreams(
        self, phase: str, *extra: tuple[str, TeamId, simpy.Process]
    ) -> Generator[simpy.Event, Any, None]:
        """Run a phase's workstreams beside its built-in activities (``extra``).

        Afterwards, note which chain of work set the phase's end (criticality index).
        """
        ws = list(self.facts.in_phase[phase])
        by_id = self.facts.by_id
        done = {w.id: self.env.event() for w in ws}
        procs = [self.env.process(self._workstream(w, done)) for w in ws]
        extra = (*extra, *self._reviews(phase))
        ended: dict[str, float] = {}
        for label, _, proc in extra:
            proc.callbacks.append(self._stamp(ended, label))
        yield simpy.AllOf(self.env, procs + [p for _, _, p in extra])
        self._note_critical_chain(phase, ws, by_id, ended, {lb: t for lb, t, _ in extra})

    def _reviews(self, phase: str) -> list[tuple[str, TeamId, simpy.Process]]:
        """The reviews of the gates after ``phase``, run beside its work (docs/model.md, "Gates").

        Each reviewing team reads the phase's output as it comes (samples of the pipeline's
        shards, the ablations' curves, the evals' results), sharing its people with its
        other work; the gate's verdict falls when the phase's work and its reviews are done.
        """
        return [
            (
                f"{review_words(gate.id)} ({words(team)})",
                team,
                self.env.process(self._review(gate.id, team, days)),
            )
            for gate, effort in self.facts.gate_reviews[phase]
            for team, days in effort.items()
        ]

    def _review(self, gate: str, team: TeamId, days: PersonDays) -> Steps:
        start = self.env.now
        yield from self.work(team, days, REVIEW_CO_DESIGN, f"gate:{gate}/{team}")
        self.review_days[gate] = max(self.review_days.get(gate, 0.0), self.env.now - start)

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
            self.trace_event("critical", f"{sentence(words(phase))}: the {last_extra} set the pace")
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

    # --- phases and salaries ------------------------------------------------------------------

    def enter_phase(self, phase: str) -> None:
        """Close the current phase's span, bring salaries up to date, and begin ``phase``."""
        if self.phase in PHASES:
            self.phase_spans.append(PhaseSpan(self.phase, self.phase_start, self.env.now))
        self.charge_people()
        self.pay_reservation()
        self.phase, self.phase_start = phase, self.env.now
        self.trace_event("phase", f"{sentence(words(phase))} begins")

    def charge_people(self) -> None:
        now = self.env.now
        notes = self.facts.salary_notes
        charge = self.ledger.charge
        for tid, team in self.teams.items():
            charge(now, "people", team.cost_usd(team.accrue_person_days(now)), notes[tid])
        self.people_charged_to = now

    # --- staffing -----------------------------------------------------------------------------

    def depart(self, tid: TeamId) -> Generator[simpy.Event, Any, None]:
        """Someone leaves ``tid`` now; a replacement joins after the hiring delay."""
        dep = self.scenario.incidents.departures
        team = self.teams[tid]
        if team.headcount <= 0:
            return
        team.leave(self.env.now)
        self.count_incident("key_person_departure")
        self.trace_event("departure", f"Someone on the {words(tid)} team left", tid)
        if self.org.owner("staffing"):
            # The owner hears of it at the notice: the search starts then, and the leaver
            # hands their work over before going.
            wait = max(0.0, dep.replacement_days - NOTICE_DAYS)
        else:
            # Nobody owns staffing: the search starts late and takes long, and nobody
            # arranged a handover, so a colleague learns the leaver's work from scratch.
            wait = 2.0 * dep.replacement_days
            team.take_over(self.env.now)
            self.trace_event(
                "departure", "No handover: a colleague takes over the work unprepared", tid
            )
        yield self.env.timeout(wait)
        if not self.finished:
            team.join(self.env.now)
            self.trace_event(
                "hire", f"A replacement joined the {words(tid)} team and starts ramping up", tid
            )

    def add_core_staff(self, people: int, why: str) -> None:
        """New people join the core team on the critical path now (Brooks's law applies)."""
        team = self.critical_core_team()
        self.teams[team].join(self.env.now, people)
        self.count_incident("core_staff_added")
        self.trace_event("hire", f"{people} people join {team} ({why})", team)

    def critical_core_team(self) -> TeamId:
        if self.phase in POST_TRAINING_LED:
            return self.post_training_team
        return self.org.training_team

    @property
    def post_training_team(self) -> TeamId:
        return self.facts.post_training_team
