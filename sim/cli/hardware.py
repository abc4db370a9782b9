"""The ``compute`` and ``cluster`` commands: cost of a run, and its reliability alone."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, replace
from typing import Any

import typer
from rich.progress import Progress

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stderr, table
from sim.engine.compute import GPUS, estimate, gpu_model
from sim.engine.reliability import (
    ClusterRun,
    ReliabilitySpec,
    analytic_effective_training_time,
    best_checkpoint_minutes,
    simulate_cluster,
    young_daly_minutes,
)
from sim.engine.rng import Streams
from sim.stats import summarize

_SUFFIXES = {"": 1.0, "k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}
_COUNT = re.compile(r"^\s*([0-9.eE+-]+)\s*([kKmMbBtT]?)\s*$")
#: Above this many replications, show a progress bar on stderr (tables only).
_PROGRESS_REPS = 50

_STATISTICS = (
    ("interruptions", "interruptions", "interruptions"),
    ("unexpected_interruptions", "unexpected", "unexpected interruptions"),
    ("planned_interruptions", "planned", "planned interruptions"),
    ("effective_training_time", "effective_training_time", "effective training time"),
    (
        "mean_hours_between_interruptions",
        "mean_hours_between_interruptions",
        "hours between interruptions",
    ),
    ("lost_gpu_hours", "lost_gpu_hours", "lost GPU-hours"),
)


def parse_count(text: str, name: str) -> float:
    """A positive count such as ``7e9``, ``14.8e12``, ``7B``, ``14.8T`` or ``500M``."""
    match = _COUNT.match(text)
    try:
        value = float(match.group(1)) * _SUFFIXES[match.group(2).lower()] if match else math.nan
    except ValueError:
        value = math.nan
    if math.isnan(value):
        raise UserError(f"--{name}: cannot read {text!r} as a number (try 7e9 or 7B)")
    if not (math.isfinite(value) and value > 0):
        raise UserError(f"--{name}: must be a positive number, got {text!r}")
    return value


@contextmanager
def _as_user_errors() -> Iterator[None]:
    """Report the library's input checks (``ValueError``) as user errors."""
    try:
        yield
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _show_scalars(title: str, values: Mapping[str, Any]) -> None:
    table(title, ((k.replace("_", " "), v) for k, v in values.items()), ("quantity", "value"))


@guarded
def compute(
    params: str = typer.Option(..., "--params", help="Total parameters: 7e9, 7B, 671B."),
    active_params: str | None = typer.Option(
        None, "--active-params", help="Active parameters per token (mixture of experts)."
    ),
    tokens: str = typer.Option(..., "--tokens", help="Training tokens: 2e12, 14.8T."),
    gpus: int = typer.Option(..., "--gpus", help="GPU count."),
    gpu: str = typer.Option("h100", "--gpu", help=f"GPU type: {'|'.join(GPUS)}."),
    mfu: float = typer.Option(0.4, "--mfu", help="Model FLOPs utilisation, (0, 1]."),
    usd_per_gpu_hour: float | None = typer.Option(
        None, "--usd-per-gpu-hour", help="Price; default from the GPU catalogue."
    ),
    failure_rate: float = typer.Option(
        3.8, "--failure-rate", help="Unexpected interruptions per 1,000 node-days."
    ),
    checkpoint_minutes: float | None = typer.Option(
        None, "--checkpoint-minutes", help="Training between checkpoints; default: the best."
    ),
    restart_minutes: float = typer.Option(4.0, "--restart-minutes", help="Downtime per restart."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Training FLOPs, wall time, GPU-hours and cost of a run, with interruptions."""
    inputs: dict[str, Any] = {
        "params": parse_count(params, "params"),
        "active_params": parse_count(active_params, "active-params") if active_params else None,
        "tokens": parse_count(tokens, "tokens"),
        "gpus": gpus,
        "gpu": gpu,
        "mfu": mfu,
        "failure_rate": failure_rate,
        "restart_minutes": restart_minutes,
    }
    with _as_user_errors():
        default_price = gpu_model(gpu).usd_per_gpu_hour
        inputs["usd_per_gpu_hour"] = default_price if usd_per_gpu_hour is None else usd_per_gpu_hour
        if checkpoint_minutes is None:
            reliability = ReliabilitySpec(
                gpus, failure_rate=failure_rate, restart_minutes=restart_minutes
            )
            checkpoint_minutes = best_checkpoint_minutes(reliability)
        inputs["checkpoint_minutes"] = checkpoint_minutes
        result = estimate(**inputs).as_dict()
    if json_output:
        emit_json({**result, "inputs": inputs})
    else:
        _show_scalars("Training run estimate", result)


@guarded
def cluster(
    gpus: int = typer.Option(..., "--gpus", help="GPU count."),
    days: float = typer.Option(..., "--days", help="Length of the simulated window, days."),
    gpus_per_node: int = typer.Option(8, "--gpus-per-node", help="GPUs per node."),
    failure_rate: float = typer.Option(
        3.8, "--failure-rate", help="Unexpected interruptions per 1,000 node-days."
    ),
    planned_per_day: float = typer.Option(
        0.87, "--planned-per-day", help="Planned interruptions per day."
    ),
    checkpoint_minutes: float | None = typer.Option(
        None, "--checkpoint-minutes", help="Training between checkpoints; default: the best."
    ),
    checkpoint_write_minutes: float = typer.Option(
        0.5, "--checkpoint-write-minutes", help="Time one checkpoint blocks training."
    ),
    restart_minutes: float = typer.Option(4.0, "--restart-minutes", help="Downtime per restart."),
    reps: int = typer.Option(100, "--reps", help="Replications."),
    seed: int = typer.Option(1, "--seed", help="Seed; the same seed gives the same numbers."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Interruptions, effective training time and lost GPU-hours of a run window."""
    if reps < 1:
        raise UserError(f"--reps must be at least 1, got {reps}")
    if seed < 0:
        raise UserError(f"--seed must be zero or more, got {seed}")
    with _as_user_errors():
        spec = ReliabilitySpec(
            gpus=gpus,
            gpus_per_node=gpus_per_node,
            failure_rate=failure_rate,
            planned_per_day=planned_per_day,
            checkpoint_write_minutes=checkpoint_write_minutes,
            restart_minutes=restart_minutes,
        )
        best = best_checkpoint_minutes(spec)
        spec = replace(
            spec, checkpoint_minutes=best if checkpoint_minutes is None else checkpoint_minutes
        )
        runs = _replicate(spec, days, reps, seed, show_progress=not json_output)
    summary = _cluster_summary(spec, runs, best)
    if json_output:
        emit_json({**summary, "inputs": {**asdict(spec), "days": days}, "reps": reps, "seed": seed})
    else:
        _show_cluster(summary)


def _replicate(
    spec: ReliabilitySpec, days: float, reps: int, seed: int, *, show_progress: bool
) -> list[ClusterRun]:
    """Run ``reps`` seeded replications, with a progress bar on stderr when asked and long."""
    if not show_progress or reps <= _PROGRESS_REPS:
        return [simulate_cluster(spec, days, Streams.for_replication(seed, k)) for k in range(reps)]
    runs: list[ClusterRun] = []
    with Progress(console=stderr, transient=True) as progress:
        task = progress.add_task("replications", total=reps)
        for k in range(reps):
            runs.append(simulate_cluster(spec, days, Streams.for_replication(seed, k)))
            progress.advance(task)
    return runs


def _cluster_summary(spec: ReliabilitySpec, runs: list[ClusterRun], best: float) -> dict[str, Any]:
    summary: dict[str, Any] = {
        key: summarize([getattr(run, field) for run in runs]) for key, field, _ in _STATISTICS
    }
    summary["checkpoint_minutes"] = spec.checkpoint_minutes
    summary["best_checkpoint_minutes"] = best
    summary["young_daly_minutes"] = young_daly_minutes(spec)
    summary["analytic_effective_training_time"] = analytic_effective_training_time(spec)
    return summary


def _show_cluster(summary: Mapping[str, Any]) -> None:
    rows = (
        (label, *(summary[key][q] for q in ("mean", "p10", "p50", "p90")))
        for key, _, label in _STATISTICS
    )
    table("Run reliability", rows, ("quantity", "mean", "p10", "p50", "p90"))
    scalars = {k: v for k, v in summary.items() if not isinstance(v, Mapping)}
    _show_scalars("Checkpoint interval (minutes) and analytic expectation", scalars)


def register(app: typer.Typer) -> None:
    """Add ``compute`` and ``cluster`` to the app."""
    app.command("compute")(compute)
    app.command("cluster")(cluster)
