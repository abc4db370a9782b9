"""The ``compute`` and ``cluster`` commands: cost of a run, and its reliability alone.

The commands and their options; the engine's compute and reliability models are imported
in their bodies (:mod:`sim.cli.hardware_run`), so their ``--help`` starts at once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, replace
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, table
from sim.cli.sizes import PARAMETERS, TOKENS, parse_size, words
from sim.cli.tables import money, number, percent
from sim.names import GPU_NAMES
from sim.scenario.problems import suggestion


@contextmanager
def _as_user_errors(flags: Iterable[str]) -> Iterator[None]:
    """Report the library's input checks (``ValueError``) as user errors, naming the flag.

    The library names an argument (``gpus must be at least 1``); the user typed its flag.
    """
    try:
        yield
    except ValueError as exc:
        message = str(exc)
        name = message.split(" ", 1)[0]
        if name in flags:
            message = f"--{name.replace('_', '-')}{message[len(name) :]}"
        raise UserError(message) from None


def _check_gpu_and_mfu(gpu: str, mfu: float) -> None:
    """Refuse an unknown GPU with the closest names, and an MFU written as a percentage."""
    from sim.engine.compute import GPUS

    if gpu not in GPUS:
        raise UserError(f"--gpu {gpu!r}: " + suggestion(gpu, GPUS, "GPUs in the catalogue"))
    if 1 < mfu <= 100:
        raise UserError(
            f"--mfu {mfu:g}: MFU is a fraction of peak in (0, 1]; did you mean --mfu "
            f"{mfu / 100:g} ({mfu:g}%)?"
        )


#: What ``compute`` prints of its estimate: the JSON key, a label and how to write the value.
_ESTIMATE: tuple[tuple[str, str, Callable[[float], str]], ...] = (
    ("flops", "Training compute (6·N·D)", lambda v: f"{v:.3g} FLOPs"),
    ("ideal_days", "Wall time without interruptions", lambda v: f"{number(v)} days"),
    ("expected_days", "Wall time with interruptions", lambda v: f"{number(v)} days"),
    ("ideal_gpu_hours", "GPU-hours without interruptions", lambda v: f"{number(v)} GPU-h"),
    ("expected_gpu_hours", "GPU-hours with interruptions", lambda v: f"{number(v)} GPU-h"),
    ("cost_usd", "Compute cost", money),
    ("effective_training_time", "Effective training time", percent),
    ("predicted_loss", "Predicted loss (Chinchilla fit)", number),
)


def _compute_assumptions(
    inputs: Mapping[str, Any], texts: Mapping[str, str], best: bool
) -> list[str]:
    from sim.engine.compute import gpu_model

    model = gpu_model(inputs["gpu"])
    read = [
        f"--{flag} {texts[flag]} as {words(inputs[key])} {noun}"
        for flag, key, noun in (
            ("params", "params", "parameters"),
            ("active-params", "active_params", "active parameters"),
            ("tokens", "tokens", "tokens"),
        )
        if texts.get(flag)
    ]
    price = "catalogue price" if inputs["price_from_catalogue"] else "--usd-per-gpu-hour"
    interval = "the best interval" if best else "--checkpoint-minutes"
    return [
        "Read " + "; ".join(read) + ".",
        f"Assumed {inputs['gpus']:,} × {model.name.upper()} at {model.peak_tflops:,.0f} TFLOP/s "
        f"peak (dense BF16), MFU {percent(inputs['mfu'], 0)}, "
        f"{money(inputs['usd_per_gpu_hour'])} per GPU-hour ({price}).",
        f"Interruptions: {inputs['failure_rate']:g} unexpected per 1,000 node-days, "
        f"{inputs['restart_minutes']:g} min per restart, a checkpoint every "
        f"{inputs['checkpoint_minutes']:.3g} min ({interval}).",
    ]


@guarded
def compute(
    params: str = typer.Option(..., "--params", help="Total parameters: 7e9, 7B, 671B."),
    active_params: str | None = typer.Option(
        None, "--active-params", help="Active parameters per token (mixture of experts)."
    ),
    tokens: str = typer.Option(..., "--tokens", help="Training tokens: 2e12, 14.8T."),
    gpus: int = typer.Option(..., "--gpus", help="GPU count."),
    gpu: str = typer.Option("h100", "--gpu", help=f"GPU type: {', '.join(GPU_NAMES)}."),
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
    from sim.cli.hardware_run import say
    from sim.engine.compute import estimate, gpu_model
    from sim.engine.reliability import ReliabilitySpec, best_checkpoint_minutes

    gpu = gpu.strip().lower()  # the catalogue's names are lower case; tables print H100
    inputs: dict[str, Any] = {
        "params": parse_size(params, "params", PARAMETERS),
        "active_params": (
            parse_size(active_params, "active-params", PARAMETERS) if active_params else None
        ),
        "tokens": parse_size(tokens, "tokens", TOKENS),
        "gpus": gpus,
        "gpu": gpu,
        "mfu": mfu,
        "failure_rate": failure_rate,
        "restart_minutes": restart_minutes,
    }
    checkpoint_given = checkpoint_minutes
    _check_gpu_and_mfu(gpu, mfu)
    with _as_user_errors(inputs):
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
        return
    texts = {"params": params, "active-params": active_params or "", "tokens": tokens}
    shown = {**inputs, "price_from_catalogue": usd_per_gpu_hour is None}
    say(_compute_assumptions(shown, texts, best=checkpoint_given is None))
    rows = [(label, write(result[key])) for key, label, write in _ESTIMATE]
    table("Training run estimate", rows, ("quantity", "value"))


@guarded
def cluster(
    gpus: int = typer.Option(..., "--gpus", help="GPU count."),
    days: float = typer.Option(..., "--days", help="Length of the simulated window, days."),
    gpus_per_node: int = typer.Option(8, "--gpus-per-node", help="GPUs per node."),
    failure_rate: float = typer.Option(
        3.8, "--failure-rate", help="Unexpected interruptions per 1,000 node-days."
    ),
    planned_per_day: float | None = typer.Option(
        None,
        "--planned-per-day",
        help="Planned interruptions per day; default 0.87, or per node with --params.",
    ),
    checkpoint_minutes: float | None = typer.Option(
        None, "--checkpoint-minutes", help="Training between checkpoints; default: the best."
    ),
    checkpoint_write_minutes: float | None = typer.Option(
        None,
        "--checkpoint-write-minutes",
        help="Time one checkpoint blocks training; default 0.5, or sized with --params.",
    ),
    restart_minutes: float | None = typer.Option(
        None,
        "--restart-minutes",
        help="Downtime per restart; default 4, or from the job's size with --params.",
    ),
    params: str | None = typer.Option(
        None,
        "--params",
        help="Parameters of the model trained (405B): operations at scale, as plays use.",
    ),
    manual_share: float | None = typer.Option(
        None,
        "--manual-share",
        help=(
            "With --params: share of unexpected interruptions a person must recover; "
            "default 3/466 (Llama 3)."
        ),
    ),
    reps: int = typer.Option(100, "--reps", help="Replications."),
    seed: int = typer.Option(1, "--seed", help="Seed; the same seed gives the same numbers."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Interruptions, effective training time and lost GPU-hours of a run window."""
    from sim.cli.hardware_run import cluster_summary, replicate, say, show_cluster
    from sim.engine.reliability import ReliabilitySpec, best_checkpoint_minutes, spec_at_scale
    from sim.scenario.spec import ClusterSpec

    if reps < 1:
        raise UserError(f"--reps must be at least 1, got {reps}")
    if seed < 0:
        raise UserError(f"--seed must be zero or more, got {seed}")
    flags = ("gpus", "gpus_per_node", "failure_rate", "planned_per_day", "checkpoint_minutes",
             "checkpoint_write_minutes", "restart_minutes", "days", "manual_share")  # fmt: skip
    if manual_share is not None and params is None:
        raise UserError("--manual-share needs --params (the operations at scale it adds to)")
    if manual_share is not None and not 0.0 <= manual_share <= 1.0:
        raise UserError(f"--manual-share must be a share between 0 and 1, got {manual_share:g}")
    with _as_user_errors(flags):
        # Checked here with the fixed operations whatever --params says: the checks name
        # the flag (gpus must be at least 1), where the scenario model's would not.
        spec = ReliabilitySpec(
            gpus=gpus,
            gpus_per_node=gpus_per_node,
            failure_rate=failure_rate,
            planned_per_day=_or(planned_per_day, FIXED_OPERATIONS["planned_per_day"]),
            checkpoint_write_minutes=_or(
                checkpoint_write_minutes, FIXED_OPERATIONS["checkpoint_write_minutes"]
            ),
            restart_minutes=_or(restart_minutes, FIXED_OPERATIONS["restart_minutes"]),
        )
        if params is not None:
            scale = ClusterSpec(
                gpus=gpus,
                gpus_per_node=gpus_per_node,
                failure_rate=failure_rate,
                planned_per_day=planned_per_day,
                checkpoint_write_minutes=checkpoint_write_minutes,
                restart_minutes=restart_minutes,
            )
            if manual_share is not None:
                scale = scale.model_copy(update={"manual_restart_share": manual_share})
            spec = spec_at_scale(scale, parse_size(params, "params", PARAMETERS))
        best = best_checkpoint_minutes(spec)
        spec = replace(
            spec, checkpoint_minutes=best if checkpoint_minutes is None else checkpoint_minutes
        )
        runs = replicate(spec, days, reps, seed, show_progress=not json_output)
    summary = cluster_summary(spec, runs, best)
    if json_output:
        emit_json({**summary, "inputs": {**asdict(spec), "days": days}, "reps": reps, "seed": seed})
    else:
        show_cluster(summary, spec, days, reps)
        if params is None:
            say(
                [
                    "Operations fixed (no --params): give --params (e.g. 405B) for the "
                    "planned maintenance, checkpoint write and restart of a job this size, "
                    "as plays and `sim calibrate` use."
                ]
            )


#: ``cluster``'s operations without ``--params`` (a job of unknown size): fixed figures.
FIXED_OPERATIONS = {
    "planned_per_day": 0.87,
    "checkpoint_write_minutes": 0.5,
    "restart_minutes": 4.0,
}


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def register(app: typer.Typer) -> None:
    """Add ``compute`` and ``cluster`` to the app."""
    app.command("compute")(compute)
    app.command("cluster")(cluster)
