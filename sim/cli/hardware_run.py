"""What ``cluster`` runs: seeded windows of the reliability model, summarised and shown.

Imported in the commands' bodies (:mod:`sim.cli.hardware`), so their ``--help`` does not
load the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sim.cli.common import progress_bar, stdout, table
from sim.cli.tables import number, percent
from sim.engine.reliability import (
    ClusterRun,
    ReliabilitySpec,
    analytic_effective_training_time,
    simulate_cluster,
    young_daly_minutes,
)
from sim.engine.rng import Streams
from sim.stats import summarize

#: Above this many replications, show a progress bar on stderr (tables only).
_PROGRESS_REPS = 50

#: Each statistic of ``cluster``: JSON key, ClusterRun field, label and how to write it.
_STATISTICS: tuple[tuple[str, str, str, Callable[[float], str]], ...] = (
    ("interruptions", "interruptions", "Interruptions", number),
    ("unexpected_interruptions", "unexpected", "  unexpected", number),
    ("planned_interruptions", "planned", "  planned", number),
    ("effective_training_time", "effective_training_time", "Effective training time", percent),
    (
        "mean_hours_between_interruptions",
        "mean_hours_between_interruptions",
        "Hours between interruptions",
        number,
    ),
    ("lost_gpu_hours", "lost_gpu_hours", "Lost GPU-hours", number),
)


def say(lines: list[str]) -> None:
    """The assumptions a command used, printed above its result."""
    for line in lines:
        stdout.print(line, markup=False, highlight=False, overflow="fold")


def replicate(
    spec: ReliabilitySpec, days: float, reps: int, seed: int, *, show_progress: bool
) -> list[ClusterRun]:
    """Run ``reps`` seeded replications, with a progress bar on stderr when asked and long."""
    runs: list[ClusterRun] = []
    with progress_bar(show_progress and reps > _PROGRESS_REPS) as bar:
        task = None if bar is None else bar.add_task("replications", total=reps)
        for k in range(reps):
            runs.append(simulate_cluster(spec, days, Streams.for_replication(seed, k)))
            if bar is not None and task is not None:
                bar.advance(task)
    return runs


def cluster_summary(spec: ReliabilitySpec, runs: list[ClusterRun], best: float) -> dict[str, Any]:
    """Each statistic over the windows, with the checkpoint intervals and the analytic value."""
    summary: dict[str, Any] = {
        key: summarize([getattr(run, field) for run in runs]) for key, field, _, _ in _STATISTICS
    }
    summary["checkpoint_minutes"] = spec.checkpoint_minutes
    summary["best_checkpoint_minutes"] = best
    summary["young_daly_minutes"] = young_daly_minutes(spec)
    summary["analytic_effective_training_time"] = analytic_effective_training_time(spec)
    return summary


def show_cluster(summary: Mapping[str, Any], spec: ReliabilitySpec, days: float, reps: int) -> None:
    """The assumptions, the reliability table and the checkpoint intervals of ``cluster``."""
    say(
        [
            f"Assumed {spec.gpus:,} GPUs in nodes of {spec.gpus_per_node} for {days:g} days; "
            f"{spec.failure_rate:g} unexpected interruptions per 1,000 node-days, "
            f"{spec.planned_per_day:.3g} planned per day; {spec.restart_minutes:.3g} min per "
            f"restart, {spec.checkpoint_write_minutes:.3g} min per checkpoint write, a checkpoint "
            f"every {spec.checkpoint_minutes:.3g} min. {reps:,} simulated windows."
        ]
    )
    rows = (
        (label, *(write(summary[key][q]) for q in ("mean", "p10", "p50", "p90")))
        for key, _, label, write in _STATISTICS
    )
    table("Run reliability", rows, ("quantity", "mean", "P10", "P50", "P90"))
    table(
        "Checkpoint interval and the analytic expectation",
        [
            ("Checkpoint every (as run)", f"{summary['checkpoint_minutes']:.3g} min"),
            (
                "Best interval (most effective time)",
                f"{summary['best_checkpoint_minutes']:.3g} min",
            ),
            ("Young/Daly interval", f"{summary['young_daly_minutes']:.3g} min"),
            (
                "Effective training time, analytic",
                percent(summary["analytic_effective_training_time"]),
            ),
        ],
        ("quantity", "value"),
    )
