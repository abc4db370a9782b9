"""The ``calibrate`` command: published figures beside the model's values for the same inputs."""

from __future__ import annotations

import typer

from sim.calibration import CalibrationRow, calibration_rows
from sim.cli.common import JSON_OPTION, UserError, emit_json, fmt, guarded, stdout, table

_COLUMNS = ("figure", "source", "published", "model", "unit", "tolerance", "within")


def _published(row: CalibrationRow) -> str:
    if isinstance(row.published, tuple):
        low, high = row.published
        return f"{fmt(low)}–{fmt(high)}"
    return fmt(row.published)


def _show(rows: list[CalibrationRow]) -> None:
    cells = (
        (
            r.name,
            r.source,
            _published(r),
            r.model,
            r.unit,
            r.tolerance.describe(),
            r.within,
        )
        for r in rows
    )
    table("Calibration: published figures and the model", cells, _COLUMNS)
    for r in rows:
        if r.gap:
            stdout.print(f"known gap — {r.name}: {r.gap}", markup=False, highlight=False)
    met = sum(r.within for r in rows)
    stdout.print(f"{met} of {len(rows)} figures within tolerance (docs/model.md, 'Calibration').")


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
