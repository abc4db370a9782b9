"""The main training run as a SimPy process: throughput, interruptions, loss spikes.

Progress is tracked in tokens. Between events the run advances at the ideal rate
times the checkpoint duty cycle; an unexpected interruption loses the tokens
since the last checkpoint; a loss spike wastes compute until someone notices and
the holder of the rollback right decides. A spike of a recipe-bound kind comes back
after rollbacks until the recipe changes; recipe changes that fail in a row abandon
the run, which restarts from scratch (a failed run). On demand, the cluster is billed
for every hour the run holds it, idle or not. docs/model.md, "The training run".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Protocol

import simpy

from sim.engine.clock import Stretch
from sim.engine.compute import gpu_model, tokens_per_day, total_params
from sim.engine.incidents import Defect, DefectBook
from sim.engine.org import OrgGraph
from sim.engine.records import Ledger, LossPoint
from sim.engine.reliability import ReliabilitySpec, analytic_effective_training_time, operations
from sim.engine.rng import Streams
from sim.engine.signals import (
    misplaced_rollback_chance,
    notice_days,
    restart_minutes,
    run_mfu,
)
from sim.scenario.spec import Scenario, ScriptedIncident
from sim.units import HOURS_PER_DAY, MINUTES_PER_DAY, Days, TeamId

Steps = Generator[simpy.Event, Any, None]

#: Longest step of the run between re-reads of targets and rates, for runs of up to
#: ``SEGMENTS_PER_RUN`` days; a longer run reads them ``SEGMENTS_PER_RUN`` times over its
#: expected length, so its cost follows its events, not its calendar (docs/model.md).
SEGMENT_DAYS = 1.0
SEGMENTS_PER_RUN = 500
#: Steps rolled back on a loss spike, and tokens per step (PaLM: ~100 steps).
ROLLBACK_STEPS = 100
BATCH_TOKENS = 4.0e6
#: Outcomes of the options other than rollback.
SELF_RECOVERY_WASTE_DAYS = 0.25
DIVERGENCE_NOTICE_DAYS = 1.0
INVESTIGATE_DAYS = 1.5
#: Share of spikes of a recipe-bound kind added by novelty (on top of ``recipe_bound``).
RECIPE_BOUND_NOVELTY = 0.15
#: Chance a recipe-bound instability comes back right after a rollback (OPT-175B's logbook:
#: divergences recurred until the learning rate or clipping changed).
RECIPE_RECURRENCE = 0.8
#: Rollbacks into the same instability before the team must change the recipe.
RECIPE_ROLLBACKS_BEFORE_CHANGE = 3
#: A recipe change (the ``overreact`` answer): days between a divergence's call and the run
#: restarting on a new LR, clipping or optimiser with the cluster held (fitted to OPT-175B's
#: logbook: the divergence of late November 2021 took a week for two rollbacks and three
#: changes, notes of 3 December), the steps it goes back, its chance of curing a recipe-bound
#: instability, what it costs in effective tokens (a lower LR learns a little less per
#: token), and the spike rate of the more conservative recipe.
RECIPE_CHANGE_DAYS = 2.0
RECIPE_CHANGE_STEPS = 1_000
RECIPE_CHANGE_CURES = 0.8
RECIPE_CHANGE_TOKEN_FACTOR = 0.99
OVERREACT_SPIKE_RATE = 0.7
#: Failed recipe changes in a row before the run is abandoned and restarted from scratch.
#: Fitted to OPT-175B: its final lineage survived two failed changes in a row (SGD-like Adam,
#: then plain SGD) and the third (a lower LR) worked; its first lineage was abandoned after
#: more (notes of 17 November and 3 December 2021).
RECIPE_CHANGES_BEFORE_RESTART = 3
#: Days to re-plan before a failed run restarts from scratch.
ABANDON_REPLAN_DAYS = 5.0
#: Reference size for the spike rate's scale dependence (docs/model.md).
SPIKE_REFERENCE_PARAMS = 7e9
EPS = 1e-9


@dataclass
class RunStats:
    """What the run did, for the outcome and the decision card."""

    wall_days: Days = 0.0
    interruptions: int = 0
    unexpected: int = 0
    planned: int = 0
    spikes: int = 0
    rollbacks: int = 0
    restarts_from_scratch: int = 0
    recipe_changes: int = 0
    failed_runs: int = 0
    lost_tokens: float = 0.0
    curve: list[LossPoint] = field(default_factory=list)


@dataclass(frozen=True)
class RunFacts:
    """A run's rates and reliability: fixed by the scenario and the parameter count."""

    gpus: int
    mfu: float
    reliability: ReliabilitySpec
    ideal_tokens_per_day: float
    duty: float
    checkpoint_tokens: float
    usd_per_day: float
    spike_rate_per_token: float
    effective_training_time: float
    """Long-run effective training time of ``reliability`` (for forecasts)."""
    recipe_bound_share: float
    """Chance a new spike is of a recipe-bound kind."""

    @classmethod
    def build(
        cls,
        s: Scenario,
        org: OrgGraph,
        active_params: float,
        tokens: float,
        cluster_gpus: int | None = None,
    ) -> RunFacts:
        """The rates of a run of ``tokens`` on ``active_params`` (its planned size).

        ``cluster_gpus``: the GPUs the plan holds (default: the scenario's cluster).
        """
        c = s.cluster
        cluster_gpus = c.gpus if cluster_gpus is None else cluster_gpus
        gpus = max(1, cluster_gpus // s.levers.parallel_variants)
        ops = operations(c, total_params(s), gpus)
        # Throughput tuning and manual restarts travel between training and infrastructure.
        mfu = run_mfu(s, org, active_params, tokens, gpus)
        restart = restart_minutes(s, org, ops.restart_minutes)
        reliability = ReliabilitySpec(
            gpus=gpus,
            gpus_per_node=c.gpus_per_node,
            failure_rate=c.failure_rate if s.incidents.hardware else 0.0,
            planned_per_day=ops.planned_per_day if s.incidents.hardware else 0.0,
            checkpoint_minutes=s.levers.checkpoint_minutes,
            checkpoint_write_minutes=ops.checkpoint_write_minutes,
            restart_minutes=restart,
        )
        ideal = tokens_per_day(active_params, gpus, c.gpu, mfu)
        interval = s.levers.checkpoint_minutes
        spikes = s.incidents.loss_spikes
        scale = (active_params / SPIKE_REFERENCE_PARAMS) ** spikes.scale_exponent
        novelty = 1.0 + s.model.novelty
        return cls(
            gpus=gpus,
            mfu=mfu,
            reliability=reliability,
            ideal_tokens_per_day=ideal,
            duty=interval / (interval + ops.checkpoint_write_minutes),
            checkpoint_tokens=ideal * interval / MINUTES_PER_DAY,
            # The whole cluster is held for the run, whatever share the flagship gets.
            usd_per_day=(
                cluster_gpus
                * HOURS_PER_DAY
                * (c.usd_per_gpu_hour or gpu_model(c.gpu).usd_per_gpu_hour)
            ),
            spike_rate_per_token=(
                spikes.per_trillion_tokens * scale * novelty / 1e12 if spikes.enabled else 0.0
            ),
            effective_training_time=analytic_effective_training_time(reliability),
            recipe_bound_share=min(
                1.0, spikes.recipe_bound + RECIPE_BOUND_NOVELTY * s.model.novelty
            ),
        )

    @property
    def rate(self) -> float:
        """Tokens per wall day while training (checkpoint writes included)."""
        return self.ideal_tokens_per_day * self.duty

    def expected_days(self, tokens: float) -> Days:
        """Expected wall days to train ``tokens`` more (for schedule forecasts)."""
        return tokens / self.ideal_tokens_per_day / max(0.05, self.effective_training_time)


class RunRecording(Protocol):
    """What a run records through its project (:class:`~sim.engine.recording.Recording`)."""

    @property
    def incidents(self) -> Counter[str]: ...

    def trace_event(
        self, kind: str, summary: str, team: str | None = None, data: dict[str, Any] | None = None
    ) -> None: ...

    def count_incident(self, kind: str) -> None: ...


class RunHost(Protocol):
    """What a run needs of the project it belongs to (:class:`~sim.engine.project.Project`)."""

    @property
    def env(self) -> simpy.Environment: ...

    @property
    def scenario(self) -> Scenario: ...

    @property
    def streams(self) -> Streams: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def defects(self) -> DefectBook: ...

    @property
    def org(self) -> OrgGraph: ...

    @property
    def recording(self) -> RunRecording: ...

    @property
    def observed(self) -> bool:
        """Whether someone will look at the play (its loss curve is recorded only then)."""
        ...

    def current_loss(self, tokens: float) -> float: ...

    def decide(
        self,
        kind: str,
        detected_by: TeamId,
        summary: str,
        context: dict[str, Any] | None = None,
        options: tuple[str, ...] | None = None,
    ) -> Generator[simpy.Event, Any, str]: ...

    def respond_to_found_defects(self, run: TrainingRun) -> Steps:
        """Handle the defects the run's monitoring has just found."""
        ...

    def apply_inject(self, kind: str, params: dict[str, Any], scripted: bool = False) -> None:
        """Make an incident of ``kind`` happen now."""
        ...


class TrainingRun:
    """One run of ``target_tokens`` at the rates of ``facts`` (pretraining or adaptation).

    ``billed``: whether the run pays for the days it holds the cluster (on demand), or a
    reservation already pays for them.
    """

    def __init__(
        self,
        project: RunHost,
        facts: RunFacts,
        target_tokens: float,
        label: str,
        billed: bool = True,
    ) -> None:
        self.p = project
        self.env: simpy.Environment = project.env
        self.label = label
        self.target_tokens = target_tokens
        self.tokens = 0.0
        self.stats = RunStats()
        self.next_unexpected = math.inf
        self.next_spike = math.inf
        # Scripted incidents strike once, at their share of the first pass through the run.
        scripted = [i for i in project.scenario.incidents.scripted if i.run_progress is not None]
        self.scripted: list[ScriptedIncident] = sorted(
            scripted, key=lambda i: i.run_progress or 0.0
        )
        self.gpus = facts.gpus
        self.mfu = facts.mfu
        self.reliability = facts.reliability
        self.facts = facts
        self.ideal_tokens_per_day = facts.ideal_tokens_per_day
        self.duty = facts.duty
        #: Tokens per wall day while training (checkpoint writes included).
        self.rate = facts.rate
        self.checkpoint_tokens = facts.checkpoint_tokens
        self.usd_per_day = facts.usd_per_day if billed else 0.0
        self.spike_rate_per_token = facts.spike_rate_per_token
        #: The run's longest step: a day, or a 500th of a run expected to last longer.
        self.segment_days = max(SEGMENT_DAYS, facts.expected_days(target_tokens) / SEGMENTS_PER_RUN)
        self._training = f"{label}: training"  # the ledger note of every training step
        # Read every step: the gaps between interruptions (the streams' standard
        # exponentials, drawn in blocks) and the cluster's bill for a step and a restart.
        self._hw = project.streams.exponentials("hardware")
        self._planned = project.streams.exponentials("planned_maintenance")
        self._charge_step = project.ledger.charger("compute", self._training)
        self._charge_restart = project.ledger.charger("compute", f"{label}: restart")
        #: The loss curve is for people looking at a play; a batch replication skips it.
        self.observed = project.observed
        #: A recipe-bound instability is active: spikes come back until the recipe changes.
        self.unstable = False
        self.rollbacks_into_instability = 0
        self.failed_changes = 0

    # --- derived quantities ---------------------------------------------------------------

    @property
    def useful_days(self) -> Days:
        return self.tokens / self.ideal_tokens_per_day

    @property
    def effective_training_time(self) -> float:
        if self.stats.wall_days <= 0:
            return 1.0
        return min(1.0, self.useful_days / self.stats.wall_days)

    @property
    def lost_gpu_hours(self) -> float:
        return max(0.0, self.stats.wall_days - self.useful_days) * self.gpus * HOURS_PER_DAY

    @property
    def recipe_token_factor(self) -> float:
        """Share of effective tokens kept after the recipe changes so far (lower LR)."""
        return float(RECIPE_CHANGE_TOKEN_FACTOR**self.stats.recipe_changes)

    def loss_now(self) -> float:
        return self.p.current_loss(self.tokens)

    def expected_days(self) -> Days:
        """Expected wall days for the remaining tokens (for schedule forecasts)."""
        return self.facts.expected_days(max(0.0, self.target_tokens - self.tokens))

    # --- holding the cluster ----------------------------------------------------------------

    def hold(self, days: Days, note: str) -> Generator[simpy.Event, Any, None]:
        """Keep the cluster (billing it) for ``days`` without progress."""
        if days <= 0:
            return
        yield self.env.timeout(days)
        self.bill(days, note)

    def bill(self, days: Days, note: str) -> None:
        self.stats.wall_days += days
        self.p.ledger.charge(
            self.env.now, "compute", days * self.usd_per_day, f"{self.label}: {note}"
        )

    def _record(self, spike: bool = False) -> None:
        if not self.observed:
            return
        curve = self.stats.curve
        now = self.env.now
        if spike or not curve or now - curve[-1].day >= 0.5 or self.tokens >= self.target_tokens:
            loss = self.loss_now() + (0.35 if spike else 0.0)
            curve.append(LossPoint(now, self.tokens / 1e9, loss, spike))

    # --- the process ------------------------------------------------------------------------

    def process(self) -> Generator[simpy.Event, Any, None]:
        """The run, step by step; stretches nobody else can see are settled without events.

        A step or a restart that ends before any other process's next event (and before
        a driver's limit: :meth:`~sim.engine.clock.PlayEnvironment.settle_window`) is
        settled on the run's own clock ``now``, with the same arithmetic on the same clock
        values as its SimPy event, and counted as an event. The clock is brought level
        with ``now`` (the last settled step taken as a SimPy event) before anything that
        reads it: a spike, a scripted incident, a found defect, the run's end.
        """
        env = self.env
        hw, planned = self._hw, self._planned
        rel = self.reliability
        unexpected_rate = rel.failure_rate / 1000.0 * rel.nodes
        self.next_unexpected = env.now + _gap(hw(), unexpected_rate)
        next_planned = env.now + _gap(planned(), rel.planned_per_day)
        self.next_spike = self.tokens + self._spike_gap()
        self._record()
        self.p.recording.trace_event(
            "run_start",
            f"{self.label} starts: {self.target_tokens / 1e9:,.0f}B tokens on {self.gpus:,} GPUs",
        )
        defects = self.p.defects
        # Bound once: these run every step. The step's progress and its loss point
        # (``_record``) are inlined below, the hottest lines of a play.
        next_detection, spoiling = defects.next_detection, defects.spoiling
        charge_step, charge_restart = self._charge_step, self._charge_restart
        stats, curve, observed = self.stats, self.stats.curve, self.observed
        restart_days = self.reliability.restart_minutes / MINUTES_PER_DAY
        stretch = Stretch(env)
        now = env.now
        # Only a SimPy event (another process, or a branch below) changes these two: they
        # are read again after each one. ``spoiled``: the defects that spoil new tokens.
        detection, spoiled = next_detection(now), spoiling()
        while self.tokens < self.target_tokens - EPS:
            if stretch.budget > 1 and not self.scripted:  # the common case, on locals
                now, next_planned = self._settle_plain_steps(
                    stretch, now, next_planned, detection, spoiled
                )
                if self.tokens >= self.target_tokens - EPS:
                    break
            rate = self.rate
            # The step runs to the nearest of the next interruption, spike, detection,
            # scripted incident or the run's end (terms that can only be infinite are skipped).
            dt = min(
                self.next_unexpected - now,
                next_planned - now,
                (self.target_tokens - self.tokens) / rate,
                max(0.0, self.next_spike - self.tokens) / rate,
                self.segment_days,
            )
            if detection < math.inf:
                dt = min(dt, detection - now)
            if self.scripted:
                dt = min(dt, max(0.0, self._next_scripted_tokens() - self.tokens) / rate)
            dt = max(0.0, dt)
            t = now + dt
            if t < stretch.horizon and stretch.budget > 0:
                stretch.budget -= 1  # settled: nothing else can happen before ``t``
            else:
                yield from stretch.wait(now, dt)
                detection, spoiled = next_detection(t), spoiling()
            now = t
            # Progress: tokens, tokens on bad data, wall time and the cluster's bill.
            tokens = self.rate * dt
            self.tokens += tokens
            for defect in spoiled:
                defect.affected_tokens += tokens
            stats.wall_days += dt
            charge_step(now, dt * self.usd_per_day)
            # A loss point every half day at most, and at the run's end (as _record).
            if observed and (
                not curve or now - curve[-1].day >= 0.5 or self.tokens >= self.target_tokens
            ):
                curve.append(LossPoint(now, self.tokens / 1e9, self.loss_now() + 0.0, False))
            if self.scripted and self.tokens >= self._next_scripted_tokens() - EPS:
                yield from stretch.level(now)
                yield from self._fire_scripted()
            elif now >= self.next_unexpected - EPS or now >= next_planned - EPS:
                unexpected = now >= self.next_unexpected - EPS
                if unexpected:
                    self.next_unexpected = now + _gap(hw(), unexpected_rate)
                else:
                    next_planned = now + _gap(planned(), rel.planned_per_day)
                self._interrupt(unexpected)
                if restart_days > 0:  # the restart holds the cluster, billed (as ``hold``)
                    t = now + restart_days
                    if t < stretch.horizon and stretch.budget > 0:
                        stretch.budget -= 1
                    else:
                        yield from stretch.wait(now, restart_days)
                        detection, spoiled = next_detection(t), spoiling()
                    now = t
                    stats.wall_days += restart_days
                    charge_restart(now, restart_days * self.usd_per_day)
                continue
            elif self.tokens >= self.next_spike - EPS and self.tokens < self.target_tokens - EPS:
                yield from stretch.level(now)
                yield from self._spike()
            elif detection <= now + EPS:
                yield from stretch.level(now)
                yield from self.p.respond_to_found_defects(self)
            else:
                continue
            # After a branch that read and moved the clock: the run is level with it again.
            now = env.now
            stretch.level_again()
            detection, spoiled = next_detection(now), spoiling()
        yield from stretch.level(now)
        self._record()
        self.p.recording.trace_event(
            "run_end",
            f"{self.label} done: {self.stats.wall_days:.1f} days, "
            f"{self.effective_training_time:.0%} effective training time",
        )

    def _settle_plain_steps(
        self,
        stretch: Stretch,
        now: Days,
        next_planned: Days,
        detection: Days,
        spoiled: list[Defect],
    ) -> tuple[Days, Days]:
        """Settle plain steps in a row: the loop of :meth:`process` for its common case.

        A plain step ends at an interruption (whose restart settles too) or a segment's
        end, with no spike, defect, scripted incident or run end due. The arithmetic is
        the loop's own, on locals, so the numbers are the same; the first step that is
        not plain, or not settled, is left to the loop. Returns the run's clock and the
        next planned interruption.
        """
        hw, planned, rel = self._hw, self._planned, self.reliability
        unexpected_rate = rel.failure_rate / 1000.0 * rel.nodes
        rate, target, next_spike = self.rate, self.target_tokens, self.next_spike
        restart = rel.restart_minutes / MINUTES_PER_DAY
        usd_per_day, checkpoint, segment = (
            self.usd_per_day,
            self.checkpoint_tokens,
            self.segment_days,
        )
        training_note, restart_note = self._training, f"{self.label}: restart"
        horizon, budget = stretch.horizon, stretch.budget
        stats, curve, observed = self.stats, self.stats.curve, self.observed
        incidents = self.p.recording.incidents
        # What _interrupt, the ledger and count_incident would do step by step, kept in
        # locals and handed over at the end in the same order (the same sums, one by one).
        ledger = self.p.ledger
        line, spent, spent_line, keep = ledger.open_line("compute")
        if usd_per_day < 0:  # a step or restart would be a negative charge (steps take dt >= 0)
            raise ValueError(f"negative charge per day {usd_per_day} for {training_note}")
        charged = False
        wall, lost_total = stats.wall_days, stats.lost_tokens
        n_unexpected = n_planned = 0
        tokens = self.tokens
        next_unexpected = self.next_unexpected
        finite_detection = detection < math.inf
        # The loop's thresholds, each worked out when its term changes (the same floats).
        target_due, spike_due = target - EPS, next_spike - EPS
        unexpected_due, planned_due = next_unexpected - EPS, next_planned - EPS
        while tokens < target_due and budget > 1 and restart > 0:
            # The loop's ``min`` of the same terms in the same order, and ``max(0.0, ...)``,
            # written out (each keeps the first of equals, as the builtins do).
            dt = next_unexpected - now
            x = next_planned - now
            if x < dt:
                dt = x
            x = (target - tokens) / rate
            if x < dt:
                dt = x
            x = next_spike - tokens
            x = (x if x > 0.0 else 0.0) / rate
            if x < dt:
                dt = x
            if segment < dt:
                dt = segment
            if finite_detection:
                x = detection - now
                if x < dt:
                    dt = x
            if not dt > 0.0:
                dt = 0.0
            t = now + dt
            if not t < horizon:
                break
            after = tokens + rate * dt
            interrupted = t >= unexpected_due or t >= planned_due
            if interrupted:
                if not t + restart < horizon:
                    break
            elif (after >= spike_due and after < target_due) or detection <= t + EPS:
                break
            # The step, as the loop makes it.
            budget -= 1
            now = t
            tokens = after
            for defect in spoiled:
                defect.affected_tokens += rate * dt
            wall += dt
            if usd := dt * usd_per_day:  # as Ledger.charge: a zero charge is skipped
                if keep is not None:
                    keep((now, "compute", usd, training_note, line))
                spent, spent_line, charged = spent + usd, spent_line + usd, True
            if observed and (not curve or now - curve[-1].day >= 0.5 or tokens >= target):
                self.tokens = tokens
                curve.append(LossPoint(now, tokens / 1e9, self.loss_now() + 0.0, False))
            if not interrupted:
                continue
            # The interruption (as _interrupt) and its restart, which holds the cluster.
            if t >= unexpected_due:
                e = hw()
                next_unexpected = now + _gap(e, unexpected_rate)
                unexpected_due = next_unexpected - EPS
                if not n_unexpected and "hardware_interruption" not in incidents:
                    incidents["hardware_interruption"] = 0  # first counted here: keep the order
                n_unexpected += 1
                lost = math.fmod(tokens, checkpoint) if checkpoint > 0 else 0
                tokens -= lost
                lost_total += lost
            else:
                e = planned()
                next_planned = now + (
                    e / rel.planned_per_day if rel.planned_per_day > 0 else math.inf
                )
                planned_due = next_planned - EPS
                if not n_planned and "planned_maintenance" not in incidents:
                    incidents["planned_maintenance"] = 0
                n_planned += 1
            budget -= 1
            now = now + restart
            wall += restart
            if usd := restart * usd_per_day:
                if keep is not None:
                    keep((now, "compute", usd, restart_note, line))
                spent, spent_line, charged = spent + usd, spent_line + usd, True
        self.tokens, self.next_unexpected = tokens, next_unexpected
        stats.wall_days, stats.lost_tokens = wall, lost_total
        stats.interruptions += n_unexpected + n_planned
        stats.unexpected += n_unexpected
        stats.planned += n_planned
        if n_unexpected:
            incidents["hardware_interruption"] += n_unexpected
        if n_planned:
            incidents["planned_maintenance"] += n_planned
        if charged:
            ledger.close_line("compute", line, spent, spent_line)
        stretch.budget = budget
        return now, next_planned

    def _next_scripted_tokens(self) -> float:
        if not self.scripted:
            return math.inf
        return (self.scripted[0].run_progress or 0.0) * self.target_tokens

    def _fire_scripted(self) -> Generator[simpy.Event, Any, None]:
        inc = self.scripted.pop(0)
        if inc.kind != "data_defect":
            self.p.recording.trace_event(
                "inject", f"Scripted incident: {inc.kind.replace('_', ' ')}"
            )
        if inc.kind == "loss_spike":
            yield from self._spike()
        elif inc.kind == "hardware_failure":
            yield from self._interruption(unexpected=True)
        else:
            self.p.apply_inject(inc.kind, inc.params(), scripted=True)

    def _spike_gap(self) -> float:
        rate = self.spike_rate_per_token
        return _gap(self.p.streams["loss_spikes"].standard_exponential(), rate)

    def _interruption(self, unexpected: bool) -> Generator[simpy.Event, Any, None]:
        self._interrupt(unexpected)
        yield from self.hold(self.reliability.restart_minutes / MINUTES_PER_DAY, "restart")

    def _interrupt(self, unexpected: bool) -> None:
        """An interruption strikes: count it; an unexpected one loses the unsaved tokens."""
        self.stats.interruptions += 1
        if unexpected:
            self.stats.unexpected += 1
            lost = (
                math.fmod(self.tokens, self.checkpoint_tokens) if self.checkpoint_tokens > 0 else 0
            )
            self.tokens -= lost
            self.stats.lost_tokens += lost
        else:
            self.stats.planned += 1
        self.p.recording.count_incident(
            "hardware_interruption" if unexpected else "planned_maintenance"
        )

    def spike_now(self) -> None:
        """A loss spike strikes at the run's next step (an inject)."""
        self.next_spike = self.tokens

    def fail_now(self) -> None:
        """An unexpected interruption strikes at the run's next step (an inject)."""
        self.next_unexpected = self.env.now

    def rollback(self, steps: int = ROLLBACK_STEPS) -> None:
        """Restore the checkpoint about ``steps`` steps back and skip the offending batches."""
        back = steps * BATCH_TOKENS
        lost = min(self.tokens, back + math.fmod(self.tokens, max(self.checkpoint_tokens, 1.0)))
        self.tokens -= lost
        self.stats.lost_tokens += lost
        self.stats.rollbacks += 1

    def restart_from(self, share_kept: float) -> None:
        lost = self.tokens * (1.0 - share_kept)
        self.tokens -= lost
        self.stats.lost_tokens += lost
        if share_kept == 0.0:
            self.stats.restarts_from_scratch += 1

    def _spike(self) -> Generator[simpy.Event, Any, None]:
        p = self.p
        self.stats.spikes += 1
        p.recording.count_incident("loss_spike")
        self._record(spike=True)
        p.recording.trace_event(
            "loss_spike",
            f"Loss spike at {self.tokens / 1e9:,.0f}B tokens",
            team=p.org.owner("loss_spike"),
            data={"tokens_b": self.tokens / 1e9, "recurrence": self.unstable},
        )
        owner = p.org.owner("loss_spike")
        u = p.streams.entity_uniform("signals", f"spike{self.stats.spikes}")
        detect = notice_days(p.org, "loss_spike", u)
        yield from self.hold(detect, "diverged training before anyone noticed")
        draws = p.streams["spike_outcomes"]
        kind_u, outcome_u, recur_u, cure_u = (float(x) for x in draws.random(4))
        if not self.unstable:
            self.unstable = kind_u < self.facts.recipe_bound_share
        again = self.rollbacks_into_instability
        # After repeated rollbacks into the same instability only a recipe change is left.
        forced = self.unstable and again >= RECIPE_ROLLBACKS_BEFORE_CHANGE
        t0 = self.env.now
        summary = (
            f"Loss spiked at {self.tokens / 1e9:,.0f}B of {self.target_tokens / 1e9:,.0f}B tokens"
        )
        if again:
            summary += f", the same instability again after {again} rollback(s)"
        detected_by = owner or p.org.decider("rollback")
        choice = yield from p.decide(
            "rollback",
            detected_by=detected_by,
            summary=summary,
            context={
                "tokens_b": self.tokens / 1e9,
                "progress": self.tokens / self.target_tokens,
                "rollbacks_into_instability": again,
            },
            options=("overreact",) if forced else None,
        )
        self.bill(self.env.now - t0, "idle while the rollback decision travelled")
        spikes = p.scenario.incidents.loss_spikes
        # Where the spike started is read from the loss curve by the holder of the right,
        # as far from the curve as it sits (docs/model.md, "Decisions close to the work").
        hops = p.org.signal_path(detected_by, p.org.decider("rollback")).hops
        recurrence = (
            RECIPE_RECURRENCE
            if self.unstable
            else misplaced_rollback_chance(spikes.recurrence, hops)
        )
        if choice == "continue":
            if not self.unstable and outcome_u < spikes.self_recovery:
                yield from self.hold(SELF_RECOVERY_WASTE_DAYS, "waiting for the loss to recover")
                self.next_spike = self.tokens + self._spike_gap()
                return
            yield from self.hold(DIVERGENCE_NOTICE_DAYS, "training on after divergence")
            p.recording.trace_event("divergence", "The loss did not recover; forced rollback")
        elif choice == "pause_investigate":
            yield from self.hold(INVESTIGATE_DAYS, "cluster paused for investigation")
            recurrence /= 2.0
        elif choice == "overreact":
            yield from self._change_recipe(cure_u, recur_u)
            return
        self.rollback()
        yield from self.hold(
            self.reliability.restart_minutes / MINUTES_PER_DAY, "restart after rollback"
        )
        if self.unstable:
            self.rollbacks_into_instability += 1
        if recur_u < recurrence:
            self.next_spike = self.tokens + 2 * ROLLBACK_STEPS * BATCH_TOKENS
        else:
            # The model moved past it: a recipe-bound instability that does not come back
            # right away has passed.
            self._stable_again()
            self.next_spike = self.tokens + self._spike_gap()

    def _stable_again(self) -> None:
        self.unstable = False
        self.rollbacks_into_instability = 0
        self.failed_changes = 0

    def _change_recipe(self, cure_u: float, recur_u: float) -> Generator[simpy.Event, Any, None]:
        """Lower the LR, tighten clipping, lengthen warmup; restart from further back.

        Cures a recipe-bound instability with ``RECIPE_CHANGE_CURES``; on a spike that a
        rollback would have cured, it only costs (the seeds' "do not overreact").
        """
        p = self.p
        self.stats.recipe_changes += 1
        p.recording.count_incident("recipe_change")
        p.recording.trace_event(
            "recipe_change",
            f"Recipe changed (learning rate, clipping, warmup); restarting {RECIPE_CHANGE_STEPS:,} "
            "steps back",
            team=p.org.owner("loss_spike"),
        )
        yield from self.hold(RECIPE_CHANGE_DAYS, "re-planning the recipe")
        self.rollback(RECIPE_CHANGE_STEPS)
        yield from self.hold(
            self.reliability.restart_minutes / MINUTES_PER_DAY, "restart on the changed recipe"
        )
        self.spike_rate_per_token *= OVERREACT_SPIKE_RATE
        if not self.unstable or cure_u < RECIPE_CHANGE_CURES:
            self._stable_again()
            self.next_spike = self.tokens + self._spike_gap()
            return
        self.failed_changes += 1
        if self.failed_changes >= RECIPE_CHANGES_BEFORE_RESTART:
            yield from self._abandon()
            return
        # The change did not cure it: the instability comes back soon.
        self.next_spike = self.tokens + 2 * ROLLBACK_STEPS * BATCH_TOKENS * (1.0 + recur_u)

    def _abandon(self) -> Generator[simpy.Event, Any, None]:
        """A failed run: no recipe change cured it; restart from scratch with a new recipe."""
        p = self.p
        self.stats.failed_runs += 1
        p.recording.count_incident("failed_run")
        p.recording.trace_event(
            "failed_run",
            f"Run abandoned at {self.tokens / 1e9:,.0f}B tokens after {self.failed_changes} failed "
            "recipe changes; restarting from scratch",
            team=p.org.owner("loss_spike"),
        )
        yield from self.hold(ABANDON_REPLAN_DAYS, "re-planning after a failed run")
        self.restart_from(0.0)
        p.defects.reset_tokens()
        self._stable_again()
        self.next_spike = self.tokens + self._spike_gap()


def _gap(standard_exponential: float, rate_per_unit: float) -> float:
    """Gap to the next event of a Poisson process, from one standard exponential draw."""
    return standard_exponential / rate_per_unit if rate_per_unit > 0 else math.inf
