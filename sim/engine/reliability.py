"""Reliability of a training run: interruptions, checkpoints, effective training time.

The model (docs/model.md, "Reliability of the run"):

* Interruptions arrive as two independent Poisson processes in wall-clock time.
  Unexpected ones (hardware, software) come at ``failure_rate`` per 1,000
  node-days times the node count; planned ones (maintenance, upgrades) at
  ``planned_per_day``.
* While it trains, the job stops for ``checkpoint_write_minutes`` after every
  ``checkpoint_minutes`` of training to write a checkpoint.
* An unexpected interruption loses the training done since the last completed
  checkpoint. A planned one checkpoints first and loses nothing. Either way the
  job is down for ``restart_minutes``; an interruption during a restart starts
  the restart again.

Calibration (Llama 3, §3.3.4): 16,384 H100 GPUs (2,048 nodes) over 54 days saw 419
unexpected and 47 planned interruptions with over 90% effective training time.
``failure_rate=3.8`` and ``planned_per_day=0.87`` reproduce the counts (420 and 47
expected); with a 0.5-minute checkpoint write, a 4-minute restart and the best
checkpoint interval (13.3 minutes; Young/Daly gives 13.6) the model gives an
effective training time of 0.906, just above the published 90%, so those
defaults need no tuning.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
import simpy

from sim.engine.rng import Streams
from sim.scenario.spec import ClusterSpec
from sim.units import MINUTES_PER_DAY, Days, Hours, Minutes

#: Search range of :func:`best_checkpoint_minutes`, minutes of training.
CHECKPOINT_SEARCH_MINUTES: tuple[Minutes, Minutes] = (0.1, 7.0 * MINUTES_PER_DAY)

# --- scale-dependent operations (docs/model.md, "Operations at scale") ----------------------

#: Bytes of a checkpoint per parameter: BF16 weights (2), FP32 master weights (4) and
#: Adam's two FP32 moments (8). Llama 3 405B: 5.7 TB, 346 MB per GPU on 16,384 GPUs, inside
#: the paper's "1 MB to 4 GB per GPU".
CHECKPOINT_BYTES_PER_PARAM = 14.0
#: Fixed cost of a checkpoint while training waits: barrier, metadata, serialisation.
CHECKPOINT_FIXED_SECONDS = 10.0
#: What one node can push to (or pull from) checkpoint storage, GB/s.
NODE_STORAGE_GB_PER_SECOND = 4.0
#: Restart: reschedule and start the processes, then initialise collectives and check health
#: (grows with the job's nodes), then read the checkpoint back.
RESTART_FIXED_MINUTES = 2.0
RESTART_MINUTES_PER_1000_NODES = 0.9

# --- restarts that need people (docs/model.md, "Operations at scale") -------------------------

#: Hands-on minutes of an engineer on an interruption automation cannot recover: run the
#: diagnostics, find and cordon the bad hosts, bring in a replacement, relaunch. Fitted to
#: OPT-175B (`sim calibrate`): with its ~105 restarts in 56 days, 35 of them manual (Zhang
#: et al. 2022, §2.5; "replacement through the cloud interface can take hours for a single
#: machine", the logbook's notes of 3 December 2021) and its recipe changes, 56 days of wall
#: clock for 33 days of compute.
MANUAL_FIX_MINUTES = 540.0
#: Before anyone looks at an interruption automation did not recover: half the look interval
#: of an owner who watches the hardware every hour (a team's default ``watch_hours``).
ON_CALL_WAIT_MINUTES = 30.0


def restart_with_people(automated: Minutes, share: float, wait: Minutes, fix: Minutes) -> Minutes:
    """Mean downtime of an interruption: the automated restart, plus the manual share's case.

    A share ``share`` of interruptions waits ``wait`` minutes for a person, who then takes
    ``fix`` minutes; the rest restart on their own in ``automated`` minutes (which a manual
    case also takes, to relaunch).
    """
    return automated + share * (wait + fix)


@dataclass(frozen=True)
class Operations:
    """A job's planned-maintenance rate, checkpoint write time and restart time."""

    planned_per_day: float
    checkpoint_write_minutes: Minutes
    restart_minutes: Minutes


def checkpoint_gb(params: float) -> float:
    """Size of a checkpoint of ``params`` parameters (weights and optimiser state), GB."""
    return params * CHECKPOINT_BYTES_PER_PARAM / 1e9


def storage_gb_per_second(nodes: int, storage: float) -> float:
    """Checkpoint bandwidth of a job: the storage's, or its nodes' share of it if less."""
    return min(storage, nodes * NODE_STORAGE_GB_PER_SECOND)


def operations(cluster: ClusterSpec, params: float, gpus: int) -> Operations:
    """Scale-dependent operations of a job of ``gpus`` GPUs training ``params`` parameters.

    Explicit ``planned_per_day``, ``checkpoint_write_minutes`` and ``restart_minutes`` on
    the cluster win; otherwise planned maintenance is per node (Llama 3), a checkpoint
    write moves the model's weights and optimiser state at the job's storage bandwidth,
    and a restart grows with the job's nodes and reads the checkpoint back (Kokolis et
    al. 2024: restart overheads grow with job size).
    """
    nodes = math.ceil(gpus / cluster.gpus_per_node)
    transfer_minutes = (
        checkpoint_gb(params) / storage_gb_per_second(nodes, cluster.storage_gb_per_second) / 60.0
    )
    planned = cluster.planned_per_day
    write = cluster.checkpoint_write_minutes
    restart = cluster.restart_minutes
    return Operations(
        planned_per_day=cluster.planned_rate / 1_000.0 * nodes if planned is None else planned,
        checkpoint_write_minutes=(
            CHECKPOINT_FIXED_SECONDS / 60.0 + transfer_minutes if write is None else write
        ),
        restart_minutes=(
            RESTART_FIXED_MINUTES
            + RESTART_MINUTES_PER_1000_NODES * nodes / 1_000.0
            + transfer_minutes
            if restart is None
            else restart
        ),
    )


@dataclass(frozen=True)
class ReliabilitySpec:
    """A cluster's failure process and its checkpoint/restart practice."""

    gpus: int
    gpus_per_node: int = 8
    failure_rate: float = 3.8
    """Unexpected interruptions per 1,000 node-days (Llama 3)."""
    planned_per_day: float = 0.87
    checkpoint_minutes: Minutes = 15.0
    """Training time between checkpoints."""
    checkpoint_write_minutes: Minutes = 0.5
    restart_minutes: Minutes = 4.0

    def __post_init__(self) -> None:
        _require(self.gpus >= 1, f"gpus must be at least 1, got {self.gpus}")
        _require(
            self.gpus_per_node >= 1, f"gpus_per_node must be at least 1, got {self.gpus_per_node}"
        )
        _require_non_negative("failure_rate", self.failure_rate)
        _require_non_negative("planned_per_day", self.planned_per_day)
        _require(
            math.isfinite(self.checkpoint_minutes) and self.checkpoint_minutes > 0,
            f"checkpoint_minutes must be positive, got {self.checkpoint_minutes}",
        )
        _require_non_negative("checkpoint_write_minutes", self.checkpoint_write_minutes)
        _require_non_negative("restart_minutes", self.restart_minutes)

    @property
    def nodes(self) -> int:
        """Nodes in the cluster; a part-filled node counts as a node."""
        return math.ceil(self.gpus / self.gpus_per_node)

    @property
    def unexpected_per_day(self) -> float:
        return self.failure_rate / 1_000.0 * self.nodes

    @property
    def interruptions_per_day(self) -> float:
        return self.unexpected_per_day + self.planned_per_day

    @property
    def mean_hours_between_interruptions(self) -> Hours:
        """Mean time between interruptions of any kind; infinite when there are none."""
        per_day = self.interruptions_per_day
        return 24.0 / per_day if per_day > 0 else math.inf


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _require_non_negative(name: str, value: float) -> None:
    _require(math.isfinite(value) and value >= 0, f"{name} must be zero or more, got {value}")


def progress_since_restart(
    elapsed_minutes: Minutes, spec: ReliabilitySpec
) -> tuple[Minutes, Minutes]:
    """Training done in ``elapsed_minutes`` of running since a (re)start.

    Returns ``(saved, unsaved)`` minutes of productive training: ``saved`` is
    covered by a completed checkpoint, ``unsaved`` is not (a checkpoint being
    written does not count until it completes). The rest of the elapsed time was
    spent writing checkpoints. Arithmetic only, so a run needs no event per
    checkpoint.
    """
    if elapsed_minutes <= 0:
        return 0.0, 0.0
    interval = spec.checkpoint_minutes
    cycle = interval + spec.checkpoint_write_minutes
    completed = math.floor(elapsed_minutes / cycle)
    remainder = elapsed_minutes - completed * cycle
    return completed * interval, min(remainder, interval)


def analytic_effective_training_time(spec: ReliabilitySpec) -> float:
    """Long-run share of wall time spent on training that is kept (renewal-reward).

    Interruptions (rate ``lam`` per minute) renew the process. A gap ``G`` is
    exponential; after a restart of ``R`` minutes the job runs for ``X = G - R``,
    which, given ``G > R`` (probability ``exp(-lam R)``), is again exponential.
    With cycle ``c = tau + w`` and ``a = exp(-lam c)``::

        E[saved(X)]   = tau a / (1 - a)
        E[unsaved(X)] = ((1 - exp(-lam tau)) / lam - tau a) / (1 - a)

    Planned interruptions (share ``1 - q``) keep the unsaved part, so::

        effective = lam exp(-lam R) (E[saved] + (1 - q) E[unsaved])
    """
    tau, write = spec.checkpoint_minutes, spec.checkpoint_write_minutes
    lam = spec.interruptions_per_day / MINUTES_PER_DAY
    if lam == 0:
        return tau / (tau + write)
    one_minus_a = -math.expm1(-lam * (tau + write))
    a = 1.0 - one_minus_a
    saved = tau * a / one_minus_a
    unsaved = (-math.expm1(-lam * tau) / lam - tau * a) / one_minus_a
    planned_share = spec.planned_per_day / spec.interruptions_per_day
    effective = lam * math.exp(-lam * spec.restart_minutes) * (saved + planned_share * unsaved)
    return min(effective, 1.0)  # only rounding can push it past 1


def young_daly_minutes(spec: ReliabilitySpec) -> Minutes:
    """Young/Daly first-order optimal checkpoint interval, ``sqrt(2 MTBF write)``.

    MTBF here is the mean time between *unexpected* interruptions, the only ones
    that lose work. Infinite when nothing fails unexpectedly.
    """
    if spec.unexpected_per_day == 0:
        return math.inf
    mtbf_minutes = MINUTES_PER_DAY / spec.unexpected_per_day
    return math.sqrt(2.0 * mtbf_minutes * spec.checkpoint_write_minutes)


def best_checkpoint_minutes(spec: ReliabilitySpec) -> Minutes:
    """Checkpoint interval that maximises :func:`analytic_effective_training_time`.

    A log-spaced grid over :data:`CHECKPOINT_SEARCH_MINUTES` brackets the
    maximum, then golden-section search refines it. Ignores
    ``spec.checkpoint_minutes``.
    """

    def effective(log_minutes: float) -> float:
        probe = ReliabilitySpec(**{**asdict(spec), "checkpoint_minutes": math.exp(log_minutes)})
        return analytic_effective_training_time(probe)

    low, high = (math.log(m) for m in CHECKPOINT_SEARCH_MINUTES)
    grid = np.linspace(low, high, 121)
    best = int(np.argmax([effective(x) for x in grid]))
    left, right = grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)]
    return math.exp(_golden_section_max(effective, float(left), float(right)))


def spec_at_scale(
    cluster: ClusterSpec, params: float, checkpoint_minutes: Minutes | None = None
) -> ReliabilitySpec:
    """The reliability of a job on all of ``cluster`` training ``params`` parameters.

    Its operations at scale (:func:`operations`: explicit settings on the cluster win),
    its manual restarts (the cluster's share, an hourly on-call beside the training team:
    as a play's run with such an owner), and the best checkpoint interval unless
    ``checkpoint_minutes`` is given. ``sim
    calibrate``'s Llama 3 rows and ``sim cluster --params`` both build their windows here,
    so the two commands give the same figures for the same run, seed and replications.
    """
    ops = operations(cluster, params, cluster.gpus)
    spec = ReliabilitySpec(
        gpus=cluster.gpus,
        gpus_per_node=cluster.gpus_per_node,
        failure_rate=cluster.failure_rate,
        planned_per_day=ops.planned_per_day,
        checkpoint_write_minutes=ops.checkpoint_write_minutes,
        restart_minutes=restart_with_people(
            ops.restart_minutes,
            cluster.manual_restart_share,
            ON_CALL_WAIT_MINUTES,
            MANUAL_FIX_MINUTES,
        ),
    )
    best = best_checkpoint_minutes(spec) if checkpoint_minutes is None else checkpoint_minutes
    return replace(spec, checkpoint_minutes=best)


def _golden_section_max(f: Callable[[float], float], left: float, right: float) -> float:
    """Argmax of a unimodal ``f`` on ``[left, right]``."""
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(60):
        inner_left = right - ratio * (right - left)
        inner_right = left + ratio * (right - left)
        if f(inner_left) >= f(inner_right):
            right = inner_right
        else:
            left = inner_left
    return (left + right) / 2.0


# --- discrete-event simulation -------------------------------------------------------------


@dataclass(frozen=True)
class ClusterRun:
    """What one simulated window of a run did.

    ``lost_gpu_hours`` is every GPU-hour not spent on training that is kept:
    work lost to unexpected interruptions, restart downtime and checkpoint
    writes, times the GPU count. It equals ``(1 - effective_training_time)``
    times the window's GPU-hours. Training since the last checkpoint when the
    window closes counts as productive (the run goes on).
    ``mean_hours_between_interruptions`` is the window's length divided by the
    interruption count, or the window's length (a lower bound) when there was none.
    """

    interruptions: int
    unexpected: int
    planned: int
    effective_training_time: float
    lost_gpu_hours: Hours
    mean_hours_between_interruptions: Hours
    wall_minutes: Minutes
    productive_minutes: Minutes
    lost_work_minutes: Minutes
    downtime_minutes: Minutes
    writing_minutes: Minutes

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _RunLedger:
    """Accounts the run's time between interruptions, without an event per checkpoint."""

    def __init__(self, spec: ReliabilitySpec) -> None:
        self.spec = spec
        self.last_minute: Minutes = 0.0
        self.restart_due: Minutes = 0.0  # the run starts training at time zero
        self.unexpected = 0
        self.planned = 0
        self.productive = self.lost_work = self.downtime = self.writing = 0.0

    def interrupt(self, now: Minutes, planned: bool) -> None:
        """Close the segment that ``now``'s interruption ends, then start a restart."""
        self._close_segment(now, keep_unsaved=planned)
        if planned:
            self.planned += 1
        else:
            self.unexpected += 1
        self.restart_due = self.spec.restart_minutes

    def _close_segment(self, now: Minutes, keep_unsaved: bool) -> None:
        gap = now - self.last_minute
        down = min(gap, self.restart_due)
        running = gap - down
        saved, unsaved = progress_since_restart(running, self.spec)
        self.productive += saved + (unsaved if keep_unsaved else 0.0)
        self.lost_work += 0.0 if keep_unsaved else unsaved
        self.downtime += down
        self.writing += running - saved - unsaved
        self.last_minute = now

    def result(self, horizon: Minutes) -> ClusterRun:
        """Close the window at ``horizon`` and summarise it."""
        self._close_segment(horizon, keep_unsaved=True)
        count = self.unexpected + self.planned
        hours = horizon / 60.0
        wasted = self.lost_work + self.downtime + self.writing
        return ClusterRun(
            interruptions=count,
            unexpected=self.unexpected,
            planned=self.planned,
            effective_training_time=min(self.productive / horizon, 1.0),  # rounding
            lost_gpu_hours=wasted * self.spec.gpus / 60.0,
            mean_hours_between_interruptions=hours / count if count else hours,
            wall_minutes=horizon,
            productive_minutes=self.productive,
            lost_work_minutes=self.lost_work,
            downtime_minutes=self.downtime,
            writing_minutes=self.writing,
        )


def _interruption_source(
    env: simpy.Environment,
    ledger: _RunLedger,
    per_day: float,
    rng: np.random.Generator,
    planned: bool,
) -> Generator[simpy.Event, Any, None]:
    """Poisson arrivals: standard exponentials scaled by the rate (common random numbers)."""
    minutes_per_event = MINUTES_PER_DAY / per_day
    while True:
        yield env.timeout(rng.standard_exponential() * minutes_per_event)
        ledger.interrupt(env.now, planned)


def simulate_cluster(spec: ReliabilitySpec, days: Days, streams: Streams) -> ClusterRun:
    """Simulate ``days`` of a run; SimPy events scale with interruptions only.

    Unexpected gaps come from ``streams["hardware"]`` and planned ones from
    ``streams["planned_maintenance"]``, so the same seed gives the same run, and
    a bigger cluster sees the same failures sooner (common random numbers).
    """
    _require(math.isfinite(days) and days > 0, f"days must be positive, got {days}")
    env = simpy.Environment()
    ledger = _RunLedger(spec)
    sources = (
        (spec.unexpected_per_day, streams["hardware"], False),
        (spec.planned_per_day, streams["planned_maintenance"], True),
    )
    for per_day, rng, planned in sources:
        if per_day > 0:
            env.process(_interruption_source(env, ledger, per_day, rng, planned))
    horizon = days * MINUTES_PER_DAY
    env.run(until=horizon)
    return ledger.result(horizon)
