"""The ``audit`` command: every good practice against its removal, and every lever for cliffs.

The command and its options; what it runs (the model, pandas, SciPy) is imported in its
body (:mod:`sim.cli.audit_run`), so its ``--help`` starts at once. It exits 1 when the
model pays for dropping a practice (a free lunch) or a lever has a cliff or a reversal, so
CI can run it as a check.
"""

from __future__ import annotations

from pathlib import Path

import typer

from sim.cli.common import JSON_OPTION, emit_json, guarded
from sim.scenario.loading import load_scenario

#: Exit code when the audit finds a free lunch (2 stays a usage error).
AUDIT_FAILED_EXIT = 1


def audit(
    scenario: Path = typer.Argument(..., help="Scenario YAML file."),
    reps: int = typer.Option(200, "--reps", help="Worlds per practice and its removal."),
    sweep_reps: int | None = typer.Option(
        None, "--sweep-reps", help="Worlds per point of each lever's sweep (default: reps/4)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the common random numbers."),
    only: list[str] | None = typer.Option(
        None,
        "--only",
        metavar="ID",
        help="Audit only this practice (an id such as owner:hardware, or a family such as "
        "gate:); repeatable. Skips the sweeps.",
    ),  # fmt: skip
    cliffs: bool = typer.Option(True, "--cliffs/--no-cliffs", help="Sweep the levers for cliffs."),
    overrides: list[str] | None = typer.Option(
        None, "--set", help="Override a scenario field: PATH=VALUE (repeatable)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """No free lunch and no cliff: each good practice against its removal, each lever swept."""
    from sim.audit import audit as run_audit
    from sim.cli.audit_run import check_only, check_options, print_report, progress_line

    check_options(reps, sweep_reps)
    sc = load_scenario(scenario, tuple(overrides or ()))
    check_only(sc, only or ())
    report = run_audit(
        sc, reps, seed, sweep_worlds=sweep_reps, cliffs=cliffs and not only,
        only=tuple(only or ()), progress=None if as_json else progress_line,
    )  # fmt: skip
    if as_json:
        emit_json(report.as_dict())
    else:
        print_report(report)
    if not report.passed:
        raise typer.Exit(AUDIT_FAILED_EXIT)


def register(app: typer.Typer) -> None:
    """Add ``audit`` to the app."""
    app.command("audit")(guarded(audit))
