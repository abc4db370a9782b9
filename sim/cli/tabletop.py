"""``report``: the after-action report and improvement plan of a saved tabletop exercise.

The database, the exercise and the documents are imported in the command's body, so its
``--help`` starts at once.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded
from sim.names import TABLETOP_REPS

#: Text formats go to stdout; Word and PDF are binary and need ``--output``.
FORMATS = ("md", "html", "docx", "pdf")
BINARY = ("docx", "pdf")


def _exercise_id(exercise: str) -> int | None:
    """An exercise number typed in ASCII digits (the command line's own way in)."""
    text = exercise.strip()
    return int(text) if text.isascii() and text.isdigit() else None


def report(
    exercise: str = typer.Argument(..., help="Room code, or the exercise's number."),
    db: str | None = typer.Option(
        None, "--db", help="Database URL (default: DATABASE_URL, else the user's SQLite file)."
    ),
    fmt: str = typer.Option("md", "--format", help="md, html, docx (Word) or pdf."),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the report to this file (needed for docx and pdf)."
    ),
    reps: int = typer.Option(
        TABLETOP_REPS,
        "--reps",
        min=1,
        max=5_000,
        help="Monte Carlo replications per way of deciding.",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Print or write the after-action report and improvement plan of a tabletop exercise."""
    from sqlalchemy import inspect
    from sqlalchemy.exc import ArgumentError, OperationalError, ProgrammingError

    from sim.storage import make_engine
    from sim.tabletop.db.models import Exercise
    from sim.tabletop.errors import TabletopError
    from sim.tabletop.report.aar import to_docx, to_html, to_markdown, to_pdf
    from sim.tabletop.service import TabletopService

    if fmt not in FORMATS:
        raise UserError(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    if fmt in BINARY and output is None:
        raise UserError(f"--format {fmt} writes a binary file: give it with --output FILE")
    try:
        engine = make_engine(db)
        if not inspect(engine).has_table(Exercise.__tablename__):
            shown = engine.url.render_as_string(hide_password=True)
            raise UserError(f"no tabletop exercise has been saved in {shown} yet")
        service = TabletopService(engine)
        number = _exercise_id(exercise)
        result = (
            service.report_by_id(number, reps=reps)
            if number is not None
            else service.report_by_id(
                service.exercise_id(unicodedata.normalize("NFKC", exercise)), reps=reps
            )
        )
    except TabletopError as exc:
        raise UserError(str(exc)) from None
    except (ArgumentError, OperationalError, ProgrammingError) as exc:
        raise UserError(
            f"cannot read tabletop exercises from that database: {exc.args[0]}"
        ) from None
    renderers: dict[str, Callable[[Any], str | bytes]] = {
        "md": to_markdown, "html": to_html, "docx": to_docx, "pdf": to_pdf,
    }  # fmt: skip
    rendered = renderers[fmt](result)
    if output is not None:
        try:
            if isinstance(rendered, bytes):
                output.write_bytes(rendered)
            else:
                output.write_text(rendered, encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{output}: cannot write the report: {exc.strerror}") from None
    if as_json:
        text = None if isinstance(rendered, bytes) else rendered
        emit_json({**result.to_dict(), "format": fmt, "text": text,
                   "output": None if output is None else str(output)})  # fmt: skip
    elif output is None:
        sys.stdout.write(str(rendered))


def register(app: typer.Typer) -> None:
    app.command()(guarded(report))
