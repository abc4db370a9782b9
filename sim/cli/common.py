"""What every command shares: JSON output, readable tables, and user-error handling."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table

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


def table(title: str, rows: Iterable[tuple[Any, ...]], columns: tuple[str, ...]) -> None:
    """Print a simple rich table on stdout."""
    t = Table(title=title, title_justify="left")
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == 0 else "right")
    for row in rows:
        t.add_row(*(fmt(v) for v in row))
    stdout.print(t)


def fmt(value: Any) -> str:
    """Readable number formatting for tables."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != 0 and (abs(value) >= 1e7 or abs(value) < 1e-3):
            return f"{value:.3g}"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        return f"{value:.3f}"
    return str(value)


def run_app(app: typer.Typer) -> None:
    """Run the typer app; click usage errors also exit 2 (click's own convention)."""
    app()
