"""A play's state, and the services the engine's parts use to read and change it.

:class:`Project` holds everything one play of a scenario under one seed knows, declared
in its ``__init__``: the world's draws, the decider, the ledger, the model being trained,
and four named parts: the live plan (:class:`~sim.engine.plan.Plan`), the cluster's bill
(:class:`~sim.engine.reservation.Reservation`), the record
(:class:`~sim.engine.recording.Recording`) and the teams at work
(:class:`~sim.engine.staff.Staff`). The phases (:mod:`sim.engine.phases`), the budget
plan, the training run (:mod:`sim.engine.training`) and injects (:mod:`sim.engine.injects`)
read them and change them through their public methods;
:class:`~sim.engine.model.ProjectModel` adds the processes that play it forward.
docs/model.md, "One play" and "Phases and workstreams".
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, SupportsIndex

import numpy as np
import simpy

from sim.engine.clock import PlayEnvironment
from sim.engine.compute import adapting
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
from sim.engine.novelty import effective_ablation_fraction, exploration_multiplier
from sim.engine.plan import Plan
from sim.engine.politics import (
    INTEGRATION_DEFECT,
    ContributionBook,
    draw_findings,
    stakeholders,
    variant_loss_error,
)
from sim.engine.quality import (
    EvalResult,
    QualityState,
    chinchilla_loss,
    domain_gaps,
    loss_sigma,
    measure,
    recipe_excess,
)
from sim.engine.recording import Recording
from sim.engine.records import DecisionRecord, Ledger, PlanState, ScopeCut
from sim.engine.reservation import Reservation
from sim.engine.review import REVIEW_CO_DESIGN
from sim.engine.rng import Streams, standard_exponential
from sim.engine.safety import SafetyBook
from sim.engine.signals import entity_stream
from sim.engine.staff import REWORK_SHARE, Staff
from sim.engine.steering import steered_shares
from sim.engine.teams import NOTICE_DAYS
from sim.engine.training import Steps, TrainingRun
from sim.scenario.spec import DECISION_OPTIONS, PHASES, Objective, Scenario, Workstream
from sim.scenario.vocabulary import option_words, review_words, sentence, words
from sim.units import HOURS_PER_DAY, Days, PersonDays, TeamId

#: Phases whose work the post-training team leads (it is then the critical core team).
POST_TRAINING_LED = frozenset(PHASES[PHASES.index("post_training") :])


#: The play's environment was called this before it settled stretches of the run.
CountingEnvironment = PlayEnvironment


class Project(ABC):
    """One play of a scenario under one seed: its state and the services its parts use.

    Its named parts: :attr:`plan` (the live plan), :attr:`reservation` (the cluster's
    bill), :attr:`recording` (trace, decisions, incidents, phases) and :attr:`staff` (the
    teams, their work and salaries).
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: SupportsIndex = 0,
        replication: SupportsIndex = 0,
        decider: Decider | str = "playbook",
        observed: bool = True,
    ) -> None:
        # Any whole number a caller has (a NumPy integer too), as a Python int.
        seed, replication = operator.index(seed), operator.index(replication)
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
        self.pending: DecisionPoint | None = None
        self._pending_event: simpy.Event | None = None
        #: Budget responses under way (the budget owner's weekly look waits for them).
        self.budget_open = 0
        total = s.objective.budget.total_usd
        self.ledger = Ledger(total, lev.reserve_fraction * total, keep_entries=observed)
        self.recording = Recording(self.env)
        self.plan = Plan(s, facts, self.ledger.reserve_usd)
        self.reservation = Reservation(
            s.cluster.billing == "reserved", self.env, self.ledger, self.plan, self.recording
        )
        self.staff = Staff(s, facts, self.env, self.streams, self.ledger, self.recording)
        self.defects = DefectBook.draw(s, self.streams)
        self.draws = Draws.draw(s, self.streams)
        #: Contributions proposed for the model, and the bugs forced ones bring past the gate.
        self.contributions = ContributionBook.draw(s, self.streams)
        self._add_forced_bugs()
        #: Latent safety, legal and privacy issues, and the fixes under way.
        self.safety = SafetyBook.draw(s, self.streams)
        self.safety_work: list[simpy.Process] = []
        #: Work redone for a changed objective, under way (sim/engine/objectives.py).
        self.objective_work: list[simpy.Process] = []
        #: Evergreen research results, in order of arrival.
        self.findings = draw_findings(s, self.org, self.streams)
        sigma = loss_sigma(s.model.novelty, lev.ablation_fraction) if s.incidents.variability else 0
        #: Error of the loss forecast for the variant that ships (the best of the variants).
        self.loss_error = variant_loss_error(s, self.streams, self.draws.loss_error, sigma)
        #: Research effort over documented work (docs/model.md, "Novelty").
        self.exploration = exploration_multiplier(s.model.novelty)
        self.run: TrainingRun | None = None
        self.run_finished = False
        #: Bumped whenever the model being trained changes; evals are re-measured after.
        self.version = 0
        self._measured_version = -1
        self.latest_evals: dict[str, EvalResult] = {}
        self.finished = False
        self.finish_day: Days | None = None

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

    # --- the plan -----------------------------------------------------------------------------

    def plan_tokens(self, tokens: float) -> None:
        """Set the run's token target (the running run's too)."""
        if self.run is not None:
            self.run.target_tokens = tokens
        self.plan.tokens = tokens

    def restore_plan(self, state: PlanState) -> None:
        """Put the plan's scope back to ``state`` (the running run's target too)."""
        self.plan_tokens(state.tokens)
        self.plan.restore(state)

    def record_scope_cut(self, cut: ScopeCut) -> None:
        """A scope cut made to fit the budget: kept, traced and priced, never silent."""
        self.plan.scope_cuts.append(cut)
        self.recording.count_incident("scope_cut")
        self.recording.trace_event("scope_cut", cut.summary(), "budget", cut.as_dict())

    def planned_effort(self, w: Workstream) -> PersonDays:
        """A workstream's effort before its draw: research costs more at the frontier."""
        effort = w.effort_person_days
        if w.owner in self.facts.org.core:
            effort *= self.exploration
        if self.facts.phase_of[w.id] == "evaluation":
            effort *= self.plan.eval_scope
        return effort

    def start_run(self, label: str) -> TrainingRun:
        """The main (or adaptation) run of the plan, ready to start."""
        plan = self.plan
        self.run = TrainingRun(
            self, plan.run_facts, plan.tokens, label, billed=not self.reservation.active()
        )
        return self.run

    def end_run(self) -> None:
        """The run's phase is over: the model has changed."""
        self.run_finished = True
        self.version += 1

    def model_changed(self) -> None:
        """A fix or a retrain changed the model: evals must be measured again."""
        self.version += 1

    def round_done(self, share: float = 1.0, spoiled: float = 0.0) -> None:
        self.plan.add_round_done(share, dict(self.steered_now()), spoiled)
        self.version += 1

    def steered_now(self) -> tuple[tuple[str, float], ...]:
        """How much of a round's gain on each capability is real if it ran now (steering.py)."""
        s = self.scenario
        return steered_shares(
            s.objective.capabilities,
            s.objective.evals,
            s.objective.targets,
            s.levers.decontaminate,
            self.defects.contamination_active(),
            self.plan.product_transfer,
        )

    @property
    def rounds_train_on_project_data(self) -> bool:
        """Whether post-training rounds train on the project's own data set.

        An adaptation's rounds train on the data team's fine-tuning set, so its defects
        spoil them; a pretraining project's rounds train on the post-training team's own
        set, not on the corpus (docs/model.md, "The fine-tuning set").
        """
        return adapting(self.scenario)

    def change_objective(self, objective: Objective) -> None:
        """The objective changes now (an inject): a target, the deadline or the product use.

        Everything that reads the objective (the ship call, the schedule check, the outcome)
        reads the new one from here on (sim/engine/objectives.py).
        """
        self.scenario = self.scenario.model_copy(update={"objective": objective})

    def lose_rounds(self, rounds: float, redo: bool, transfer: float | None = None) -> None:
        """``rounds`` of post-training no longer count for the objective: the model changed.

        :meth:`~sim.engine.plan.Plan.lose_rounds` says what the plan does about them.
        """
        self.plan.lose_rounds(rounds, redo, transfer)
        self.version += 1

    def round_effort_multiplier(self) -> float:
        """Effort multiplier of the next post-training round (extra rounds included).

        Its draw, times the research multiplier of frontier work.
        """
        rounds = self.draws.round_multipliers
        return rounds[self.plan.round_index() % len(rounds)] * self.exploration

    # --- quality ------------------------------------------------------------------------------

    def current_loss(self, tokens: float) -> float:
        """Pretraining loss after ``tokens`` raw tokens (or the base model's, when adapting).

        Effective tokens count data quality, defects and recipe changes, and never exceed a
        clean run's of the plan once a late fix has capped them.
        """
        s, plan = self.scenario, self.plan
        run = self.run
        factor = self.defects.token_factor(tokens) * (run.recipe_token_factor if run else 1.0)
        dm = plan.data_multiplier
        cap = plan.tokens_cap
        base = s.model.base_model
        if adapting(s) and base is not None:
            effective = base.tokens_b * 1e9 + self.adapted_tokens(tokens)
            loss = chinchilla_loss(base.params_b * 1e9, effective)
        else:
            effective = max(1e6, tokens) * dm * factor
            if cap is not None:
                effective = min(effective, max(1e6, cap) * dm)
            loss = chinchilla_loss(plan.params, effective)
        tuned = recipe_excess(effective_ablation_fraction(plan.ablations, s.model.novelty))
        return loss * (1.0 + tuned) + self.loss_error + self.contributions.loss_shift()

    def adapted_tokens(self, tokens: float) -> float:
        """Effective tokens of an adaptation run after ``tokens`` raw tokens (not the base's)."""
        run = self.run
        factor = self.defects.token_factor(tokens) * (run.recipe_token_factor if run else 1.0)
        dm = self.plan.data_multiplier
        adapted = tokens * dm * factor
        cap = self.plan.tokens_cap
        return adapted if cap is None else min(adapted, cap * dm)

    def domain_gaps(self, tokens: float) -> tuple[tuple[str, float], ...]:
        """An adapted base model's extra loss on each capability's own text (none if pretrained)."""
        s = self.scenario
        base = s.model.base_model
        if not adapting(s) or base is None:
            return ()
        return domain_gaps(
            s.objective.capabilities, base.tokens_b * 1e9, self.adapted_tokens(tokens)
        )

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
            rounds=float(self.plan.rounds_done),
            product_transfer=self.plan.product_transfer,
            focus_capability=self.focus_capability,
            decontaminate=s.levers.decontaminate,
            contamination_defect=self.defects.contamination_active(),
            capabilities=len(s.objective.capabilities),
            domain_gaps=self.domain_gaps(tokens),
            # The rounds done as they were steered; before any, as one would be now.
            steered=(
                tuple(sorted(self.plan.steered.items()))
                if self.plan.rounds_done > 0
                else self.steered_now()
            ),
            post_training_worth=self.plan.post_training_worth * self.plan.rounds_data_quality,
        )

    def measure_quality(self) -> dict[str, EvalResult]:
        s = self.scenario
        errors = self.draws.eval_set_errors if s.incidents.variability else None
        self.latest_evals = measure(
            s.objective.capabilities,
            s.objective.evals,
            self.quality_state(),
            errors,
            items_share=self.plan.eval_scope,
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
        decisions = self.recording.decisions
        n_kind = self.recording.decided(kind)
        point = DecisionPoint(
            index=len(decisions),
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
        self.recording.add_decision(
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
        self.recording.trace_event(
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

    def round_days(self) -> Days:
        """Rough days of one post-training round (forecasts).

        The longest of its people's work at today's pace, its GPU-hours on the
        post-training share of the cluster, and ``round_days_min``.
        """
        s = self.scenario
        effort = s.model.round_person_days * self.exploration
        days = self.staff.work_days(self.post_training_team, effort, s.plan.post_training_co_design)
        return max(s.model.round_days_min, days, self.plan.round_compute_days())

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
                self.recording.count_incident("handoff_rework")
                self.recording.trace_event(
                    "rework",
                    f"{sentence(words(w.id))}: the handoff from {words(h.upstream)} needed rework",
                    w.owner,
                )
        if handoff > 0:
            yield self.env.timeout(handoff)
        yield from self.staff.work(w.owner, effort, w.co_design_need, key=w.id)
        self.recording.work_finished(w.id)
        done[w.id].succeed()

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
        self.recording.note_critical_chain(phase, ws, by_id, ended, {lb: t for lb, t, _ in extra})

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
        yield from self.staff.work(team, days, REVIEW_CO_DESIGN, f"gate:{gate}/{team}")
        done = self.recording.review_days
        done[gate] = max(done.get(gate, 0.0), self.env.now - start)

    def _stamp(self, ended: dict[str, float], label: str) -> Callable[[simpy.Event], None]:
        def stamp(_event: simpy.Event) -> None:
            ended[label] = self.env.now

        return stamp

    # --- phases and salaries ------------------------------------------------------------------

    def enter_phase(self, phase: str) -> None:
        """Bring salaries and the reservation up to date, close the phase, and begin ``phase``."""
        self.staff.charge_salaries()
        self.reservation.pay()
        self.recording.enter_phase(phase)

    # --- staffing -----------------------------------------------------------------------------

    @contextmanager
    def budget_response(self) -> Iterator[None]:
        """A budget response under way (the budget owner's weekly look waits for it)."""
        self.budget_open += 1
        try:
            yield
        finally:
            self.budget_open -= 1

    def depart(self, tid: TeamId) -> Generator[simpy.Event, Any, None]:
        """Someone leaves ``tid`` now; a replacement joins after the hiring delay."""
        dep = self.scenario.incidents.departures
        team = self.staff.teams[tid]
        if team.headcount <= 0:
            return
        team.leave(self.env.now)
        self.recording.count_incident("key_person_departure")
        self.recording.trace_event("departure", f"Someone on the {words(tid)} team left", tid)
        if self.org.owner("staffing"):
            # The owner hears of it at the notice: the search starts then, and the leaver
            # hands their work over before going.
            wait = max(0.0, dep.replacement_days - NOTICE_DAYS)
        else:
            # Nobody owns staffing: the search starts late and takes long, and nobody
            # arranged a handover, so a colleague learns the leaver's work from scratch.
            wait = 2.0 * dep.replacement_days
            team.take_over(self.env.now)
            self.recording.trace_event(
                "departure", "No handover: a colleague takes over the work unprepared", tid
            )
        yield self.env.timeout(wait)
        if not self.finished:
            team.join(self.env.now)
            self.recording.trace_event(
                "hire", f"A replacement joined the {words(tid)} team and starts ramping up", tid
            )

    def add_core_staff(self, people: int, why: str) -> None:
        """New people join the core team on the critical path now (Brooks's law applies)."""
        team = self.critical_core_team()
        self.staff.teams[team].join(self.env.now, people)
        self.recording.count_incident("core_staff_added")
        self.recording.trace_event("hire", f"{people} people join {team} ({why})", team)

    def critical_core_team(self) -> TeamId:
        if self.recording.phase in POST_TRAINING_LED:
            return self.post_training_team
        return self.org.training_team

    @property
    def post_training_team(self) -> TeamId:
        return self.facts.post_training_team
