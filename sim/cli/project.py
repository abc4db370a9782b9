"""CLI commands (filled in by its own issue work)."""

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
