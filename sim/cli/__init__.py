"""The ``python -m sim`` / ``trainingroom`` command line.

Every command accepts ``--json`` (one JSON object on stdout, nothing else) and
otherwise prints a readable table. User errors exit 2 with
``FILE:LINE: field.path: reason`` lines on stderr, never a traceback.
"""

from __future__ import annotations

import typer

from sim.cli import analysis, calibration, hardware, plays, project, rubric, scenarios, tabletop

app = typer.Typer(
    name="trainingroom",
    help="TrainingRoom: simulate LLM-training projects, their teams and their incidents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
hardware.register(app)
scenarios.register(app)
project.register(app)
calibration.register(app)
tabletop.register(app)
analysis.register(app)
plays.register(app)
rubric.register(app)


def main() -> None:
    """Entry point for ``python -m sim`` and the ``trainingroom`` script."""
    from sim.cli.common import run_app

    run_app(app)
