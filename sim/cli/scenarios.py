"""Scenario commands: ``validate`` files (``--set`` overrides too) and print the JSON ``schema``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli.common import (
    JSON_OPTION,
    USAGE_EXIT,
    UserError,
    emit_json,
    guarded,
)
from sim.scenario.loading import Problem, ScenarioError, load_scenario, parse_override
from sim.scenario.spec import Scenario

#: The JSON Schema dialect pydantic writes.
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

FilesArgument = Annotated[
    list[str],
    typer.Argument(metavar="FILE", help="Scenario YAML files to check.", show_default=False),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="PATH=VALUE",
        help="Override a field by dotted path (cluster.gpus=512); repeatable.",
        show_default=False,
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the schema to this file instead of stdout."),
]


def scenario_schema() -> dict[str, Any]:
    """The scenario JSON Schema, as editors and ``docs/scenario.schema.json`` use it."""
    return {"$schema": SCHEMA_DIALECT, **Scenario.model_json_schema(by_alias=True)}


def schema_text() -> str:
    """The schema as the text that ``schema`` prints and ``--output`` writes."""
    return json.dumps(scenario_schema(), indent=2, ensure_ascii=False) + "\n"


def _write_problems(problems: list[Problem]) -> None:
    # Plain writes: a rich console would wrap long problem lines at the terminal width.
    for p in problems:
        sys.stderr.write(f"{p}\n")
    sys.stderr.flush()


def _problems(check: Callable[[], object]) -> list[Problem]:
    try:
        check()
    except ScenarioError as exc:
        return exc.problems
    return []


def _problem_json(p: Problem) -> dict[str, Any]:
    return {"source": p.source, "line": p.line, "path": p.path, "reason": p.reason, "text": str(p)}


@guarded
def validate(files: FilesArgument, set_: SetOption = None, json_output: bool = JSON_OPTION) -> None:
    """Check scenario files; print every problem as FILE:LINE: field.path: reason (exit 2)."""
    overrides = tuple(set_ or ())
    # A malformed --set is reported once, not once per file, and then no file is read.
    malformed = [p for text in overrides for p in _problems(partial(parse_override, text))]
    results = (
        []
        if malformed
        else [(path, _problems(partial(load_scenario, path, overrides))) for path in files]
    )
    _write_problems(malformed + [p for _, problems in results for p in problems])
    valid = not malformed and all(not problems for _, problems in results)
    if json_output:
        entries = [
            {"file": path, "valid": not problems, "problems": [_problem_json(p) for p in problems]}
            for path, problems in results
        ]
        emit_json(
            {"files": entries, "valid": valid, "problems": [_problem_json(p) for p in malformed]}
        )
    else:
        for path, problems in results:
            if not problems:
                typer.echo(f"{path}: ok")
    if not valid:
        raise typer.Exit(USAGE_EXIT)


@guarded
def schema(output: OutputOption = None, json_output: bool = JSON_OPTION) -> None:
    """Print the scenario JSON Schema (one JSON object), or write it with --output."""
    text = schema_text()
    if output is None:
        # Already one JSON object: the same with or without --json.
        typer.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write {output}: {exc.strerror}") from None
    if json_output:
        emit_json({"output": str(output), "bytes": len(text.encode("utf-8"))})
    else:
        typer.echo(f"wrote {output}")


def register(app: typer.Typer) -> None:
    """Add ``validate`` and ``schema`` to the app."""
    app.command("validate", no_args_is_help=True)(validate)
    app.command("schema")(schema)
