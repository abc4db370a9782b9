"""The ``calibrate`` command: published figures beside the model's values for the same inputs.

The command and its options; the figures (which run the model) are imported in its body
(:mod:`sim.cli.calibration_run`), so its ``--help`` starts at once.
"""

from __future__ import annotations

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded


@guarded
def calibrate(
    reps: int = typer.Option(
        100, "--reps", help="Simulated 54-day windows for the Llama 3 interruption rows."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of those windows."),
    json_output: bool = JSON_OPTION,
) -> None:
    """Published figures (DeepSeek-V3, Llama 3, OLMo 2, Chinchilla, PaLM...) beside the model."""
    from sim.calibration import calibration_rows
    from sim.cli.calibration_run import counts, show

    try:
        rows = calibration_rows(reps, seed)
    except ValueError as exc:  # the option names are the argument names
        raise UserError(f"--{exc}") from None
    if json_output:
        summary = counts(rows)
        emit_json(
            {"rows": [r.as_dict() for r in rows], "summary": summary, "reps": reps, "seed": seed}
        )
    else:
        show(rows)


def register(app: typer.Typer) -> None:
    """Add ``calibrate`` to the app."""
    app.command("calibrate")(calibrate)
