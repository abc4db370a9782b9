"""What every command shares: JSON output, readable tables, and user-error handling."""

from __future__ import annotations

import contextlib
import json
import math
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import wraps
from os import _exit as exit_now
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.progress import Progress, ProgressColumn

from sim.cli.tables import Col, show
from sim.cli.tables import fmt as fmt
from sim.names import POLICY_NAMES
from sim.scenario.problems import Problem, ScenarioError, suggestion

P = ParamSpec("P")
R = TypeVar("R")

#: Exit code for bad input (files, options, overrides).
USAGE_EXIT = 2
#: Exit code after Ctrl-C (128 + SIGINT, the shell's convention).
INTERRUPTED_EXIT = 130

stderr = Console(stderr=True)
stdout = Console()

JSON_OPTION = typer.Option(False, "--json", help="Print one JSON object on stdout, nothing else.")


class UserError(Exception):
    """A problem with what the user asked for (not a bug): exit 2 with a clear message."""


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a long step, with where it stopped and what was kept."""

    def __init__(self, where: str, kept: str = "nothing was saved") -> None:
        super().__init__(where)
        self.where = where
        self.kept = kept


def stopped_line(command: str, exc: KeyboardInterrupt) -> str:
    """The one line printed after Ctrl-C: what was stopped, where, and what was kept."""
    where = f" {exc.where}" if isinstance(exc, Stopped) and exc.where else ""
    kept = exc.kept if isinstance(exc, Stopped) else "nothing was saved"
    return f"stopped by Ctrl-C: {command}{where}; {kept}.\n"


def _clean(value: Any) -> Any:
    """Make numpy scalars and non-finite floats JSON-safe."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def emit_json(obj: Mapping[str, Any]) -> None:
    """Write exactly one JSON object to stdout."""
    sys.stdout.write(json.dumps(_clean(obj), indent=2) + "\n")
    sys.stdout.flush()


@contextlib.contextmanager
def progress_bar(show: bool, *columns: str | ProgressColumn) -> Iterator[Progress | None]:
    """A progress bar on stderr when ``show`` and stderr is a terminal, else None.

    Off a terminal it would print only a blank line. After Ctrl-C the bar stays on the
    screen, showing where the work stopped.
    """
    if not show or not stderr.is_terminal:
        yield None
        return
    bar = Progress(*columns, console=stderr, transient=True)
    # Its refresh thread is born with Ctrl-C blocked, so Ctrl-C always reaches the main
    # thread (a signal held back while workers start is not lost to that thread).
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        bar.start()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield bar
    except KeyboardInterrupt:
        bar.live.transient = False  # the bar stays, showing where the work stopped
        raise
    finally:
        bar.stop()


def check_args(reps: int, workers: int | None, executor: str, policy: str) -> None:
    """The run options checked before anything heavy loads (a mistake fails at once)."""
    if reps < 1:
        raise UserError(f"--reps must be at least 1, got {reps}")
    if workers is not None and workers < 1:
        raise UserError(f"--workers must be at least 1, got {workers}")
    if executor not in ("local", "dask"):
        raise UserError(
            f"--executor {executor!r}: " + suggestion(executor, ("local", "dask"), "one of")
        )
    if policy not in POLICY_NAMES:
        raise UserError(f"--policy {policy!r}: " + suggestion(policy, POLICY_NAMES, "one of"))


def print_problems(problems: Iterable[Problem]) -> None:
    """One ``FILE:LINE: field.path: reason`` line per problem, never wrapped."""
    for p in problems:
        sys.stderr.write(f"{p}\n")


def guarded(func: Callable[P, R]) -> Callable[P, R]:
    """Turn user errors into messages on stderr and exit code 2."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except ScenarioError as exc:
            print_problems(exc.problems)
            raise typer.Exit(USAGE_EXIT) from None
        except UserError as exc:
            sys.stderr.write(f"error: {exc}\n")
            raise typer.Exit(USAGE_EXIT) from None
        except KeyboardInterrupt as exc:
            sys.stderr.write(stopped_line(func.__name__, exc))
            runner = sys.modules.get("sim.runner")  # loaded only if a run started
            if runner is not None and getattr(runner, "stuck", False):
                sys.stdout.flush()
                sys.stderr.flush()
                exit_now(INTERRUPTED_EXIT)  # skip the joins a stopped pool holds
            raise typer.Exit(INTERRUPTED_EXIT) from None

    return wrapper


def table(
    title: str,
    rows: Iterable[tuple[Any, ...]],
    columns: Sequence[str | Col],
    *,
    text_columns: int = 1,
    caption: str | None = None,
) -> None:
    """Print a table on stdout that fits its width: numbers whole, text wrapped."""
    show(title, rows, columns, console=stdout, text_columns=text_columns, caption=caption)


def run_app(app: typer.Typer) -> None:
    """Run the typer app; click usage errors also exit 2 (click's own convention)."""
    app()
