"""What every command shares: JSON output, readable tables, and user-error handling."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from sim.cli.tables import Col, show
from sim.cli.tables import fmt as fmt
from sim.scenario.problems import Problem, ScenarioError

P = ParamSpec("P")
R = TypeVar("R")

#: Exit code for bad input (files, options, overrides).
USAGE_EXIT = 2

stderr = Console(stderr=True)
stdout = Console()

JSON_OPTION = typer.Option(False, "--json", help="Print one JSON object on stdout, nothing else.")


class UserError(Exception):
    """A problem with what the user asked for (not a bug): exit 2 with a clear message."""


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
