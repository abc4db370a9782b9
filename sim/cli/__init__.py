"""The ``python -m sim`` / ``trainingroom`` command line.

Every command accepts ``--json`` (one JSON object on stdout, nothing else) and
otherwise prints a readable table. User errors exit 2 with
``FILE:LINE: field.path: reason`` lines on stderr, never a traceback.

Start-up is kept short: the command modules are imported only when their command
runs (``--help`` lists them from :data:`COMMANDS` without importing any), so
``validate`` never pays for pandas, and ``--help`` for nothing but typer.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

import sim
from sim.cli.helptext import HelpContext
from sim.glossary import cli_epilog

#: Each command: the module of ``sim.cli`` that registers it, and its one-line help
#: (the first paragraph of the command's docstring; a test keeps the two the same).
COMMANDS: dict[str, tuple[str, str]] = {
    "compute": (
        "hardware",
        "Training FLOPs, wall time, GPU-hours and cost of a run, with interruptions.",
    ),
    "cluster": (
        "hardware",
        "Interruptions, effective training time and lost GPU-hours of a run window.",
    ),
    "validate": (
        "scenarios",
        "Check scenario files; print every problem as FILE:LINE: field.path: reason (exit 2).",
    ),
    "schema": (
        "scenarios",
        "Print the scenario JSON Schema (one JSON object), or write it with --output.",
    ),
    "run": (
        "runs",
        "Play a scenario many times and summarise schedule, cost, quality and risks.",
    ),
    "compare": (
        "runs",
        "Run designs through the same incidents (common random numbers) and compare them.",
    ),
    "optimize": (
        "optimize",
        "Search the design space for the designs that best meet the objective.",
    ),
    "audit": (
        "audit",
        "No free lunch and no cliff: each good practice against its removal, each lever swept.",
    ),
    "bench": ("runs", "Measure the model's speed against a bare SimPy loop on this machine."),
    "calibrate": (
        "calibration",
        "Published figures (DeepSeek-V3, Llama 3, OLMo 2, Chinchilla, PaLM...) beside the model.",
    ),
    "report": (
        "tabletop",
        "Print or write the after-action report and improvement plan of a tabletop exercise.",
    ),
    "sweep": (
        "analysis",
        "Run every point of a grid over levers on the same replications; one row per point.",
    ),
    "sensitivity": (
        "analysis",
        "Tornado: swing each lever over its range, one at a time, and rank by the effect.",
    ),
    "play": (
        "plays",
        "Play one world of a scenario with a policy deciding; optionally save the play.",
    ),
    "replay": (
        "plays",
        "Replay a saved play to its outcome (identical to the original, on the same engine).",
    ),
    "debrief": ("plays", "Each decision against every other option, replayed in the same world."),
    "rubric": (
        "rubric",
        "Judge PLAN.json item by item (met, partly met, missed) beside its simulated outcome.",
    ),
}


def load_command(name: str) -> Any:
    """The real click command ``name``: import its module and let it register itself.

    Its ``--help`` is click's plain layout written by :class:`HelpContext` (typer's rich
    panels cut long option names on a narrow terminal).
    """
    module = importlib.import_module(f"sim.cli.{COMMANDS[name][0]}")
    commands = typer.Typer(
        add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None
    )
    module.register(commands)
    command = typer.main.get_group(commands).commands[name]
    command.context_class = HelpContext
    command.epilog = cli_epilog(name)
    return command


class LazyGroup(TyperGroup):
    """A command group that imports a command's module only when that command runs.

    Until then each command is a stand-in holding its name and one-line help, which
    is all that ``--help`` and the "did you mean" of a mistyped command need. A
    command, once loaded, also takes the group's ``--version``.
    """

    context_class = HelpContext

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, (_, short) in COMMANDS.items():
            self.commands.setdefault(name, TyperCommand(name, help=short))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] in COMMANDS:
            command = load_command(args[0])
            command.params.extend(p for p in self.params if p.name == "version")
            self.commands[args[0]] = command
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Each command with its whole one-line help (click shortens it to fit with "...")."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, short) for name, (_, short) in COMMANDS.items()])


app = typer.Typer(
    name="trainingroom",
    help="TrainingRoom: simulate LLM-training projects, their teams and their incidents.",
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help and errors: typer's rich panels cut names
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"trainingroom {sim.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_show_version,
        is_eager=True,
        expose_value=False,  # every command takes it (LazyGroup); none receives its value
        help="Print the version and exit.",
    ),
) -> None:
    """TrainingRoom: simulate LLM-training projects, their teams and their incidents."""


def main() -> None:
    """Entry point for ``python -m sim`` and the ``trainingroom`` script."""
    from sim.cli.common import run_app

    run_app(app)
