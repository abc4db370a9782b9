"""``report``: the after-action report of a saved tabletop exercise."""

from __future__ import annotations

import sys

import typer
from sqlalchemy import inspect
from sqlalchemy.exc import ArgumentError, OperationalError, ProgrammingError

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded
from sim.storage import make_engine
from sim.tabletop.errors import TabletopError
from sim.tabletop.models import Exercise
from sim.tabletop.report import to_html, to_markdown
from sim.tabletop.service import TabletopService

FORMATS = ("md", "html")


def report(
    exercise: str = typer.Argument(..., help="Exercise id or room code."),
    db: str | None = typer.Option(
        None, "--db", help="Database URL (default: DATABASE_URL, else the user's SQLite file)."
    ),
    fmt: str = typer.Option("md", "--format", help="md (Markdown) or html."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Print the after-action report and improvement plan of a saved tabletop exercise."""
    if fmt not in FORMATS:
        raise UserError(f"--format must be md or html, got {fmt!r}")
    try:
        engine = make_engine(db)
        if not inspect(engine).has_table(Exercise.__tablename__):
            shown = engine.url.render_as_string(hide_password=True)
            raise UserError(f"no tabletop exercise has been saved in {shown} yet")
        service = TabletopService(engine, create_tables=False)
        result = service.report(exercise)
    except TabletopError as exc:
        raise UserError(str(exc)) from None
    except (ArgumentError, OperationalError, ProgrammingError) as exc:
        raise UserError(
            f"cannot read tabletop exercises from that database: {exc.args[0]}"
        ) from None
    text = to_html(result) if fmt == "html" else to_markdown(result)
    if as_json:
        emit_json({**result.to_dict(), "format": fmt, "text": text})
    else:
        sys.stdout.write(text)


def register(app: typer.Typer) -> None:
    app.command()(guarded(report))
