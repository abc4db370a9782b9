"""The ``calibrate`` command: published figures beside the model's values for the same inputs."""

from __future__ import annotations

from collections.abc import Callable

import typer

from sim.calibration import CalibrationRow, calibration_rows
from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stdout, table
from sim.cli.tables import compact, money, number, percent

#: How a value of each unit is written (the unit itself is named beside the figure).
_WRITE: dict[str, Callable[[float], str]] = {
    "share of peak": percent,
    "share of wall time": percent,
    "share of compute": percent,
    "USD": money,
    "USD per GPU-hour": money,
    "FLOPs": lambda v: f"{v:.3g}",
    "GPU-hours": compact,
    "tokens": compact,
}


def _value(value: float, unit: str) -> str:
    return _WRITE.get(unit, number)(value)


def _published(row: CalibrationRow) -> str:
    if isinstance(row.published, tuple):
        low, high = row.published
        return f"{_value(low, row.unit)}–{_value(high, row.unit)}"
    return _value(row.published, row.unit)


#: Narrower than this, each figure is two or three lines of text instead of a table row.
WIDE = 120


def _show_narrow(rows: list[CalibrationRow]) -> None:
    stdout.print("Calibration: published figures and the model", style="bold", highlight=False)
    for r in rows:
        mark = "ok " if r.within else "OFF"
        stdout.print(f"{mark} {r.name}", markup=False, highlight=False)
        stdout.print(
            f"    published {_published(r)}, model {_value(r.model, r.unit)}, tolerance "
            f"{r.tolerance.describe()} ({r.unit}; {r.source})",
            markup=False,
            highlight=False,
            style="dim" if r.within else None,
        )


def _show(rows: list[CalibrationRow]) -> None:
    if stdout.width < WIDE:
        _show_narrow(rows)
    else:
        _show_table(rows)
    for r in rows:
        if r.gap:
            stdout.print(f"known gap — {r.name}: {r.gap}", markup=False, highlight=False)
    met = sum(r.within for r in rows)
    stdout.print(f"{met} of {len(rows)} figures within tolerance (docs/model.md, 'Calibration').")


def _show_table(rows: list[CalibrationRow]) -> None:
    cells = (
        (
            f"{r.name}\n  {r.unit} · {r.source}",
            _published(r),
            _value(r.model, r.unit),
            r.tolerance.describe(),
            "yes" if r.within else "NO",
        )
        for r in rows
    )
    table(
        "Calibration: published figures and the model",
        cells,
        ("figure (unit · source)", "published", "model", "tolerance", "within"),
    )


@guarded
def calibrate(
    reps: int = typer.Option(
        100, "--reps", help="Simulated 54-day windows for the Llama 3 interruption rows."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of those windows."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Published figures (DeepSeek-V3, Llama 3, OLMo 2, Chinchilla, PaLM...) beside the model."""
    try:
        rows = calibration_rows(reps, seed)
    except ValueError as exc:  # the option names are the argument names
        raise UserError(f"--{exc}") from None
    if json_output:
        emit_json({"rows": [r.as_dict() for r in rows], "reps": reps, "seed": seed})
    else:
        _show(rows)


def register(app: typer.Typer) -> None:
    """Add ``calibrate`` to the app."""
    app.command("calibrate")(calibrate)
