"""Where saved sessions live: SQLAlchemy over SQLite by default, any URL via DATABASE_URL.

The SQLite file sits in the user's data directory (``$TRAININGROOM_DATA_DIR``, else
``$XDG_DATA_HOME/trainingroom``, else ``~/.local/share/trainingroom``), so nothing a
user saved lives inside the checkout or is lost when the app restarts.
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine, event


def data_dir() -> Path:
    """The user's TrainingRoom data directory (created on first use)."""
    explicit = os.environ.get("TRAININGROOM_DATA_DIR")
    if explicit:
        base = Path(explicit)
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg) / "trainingroom" if xdg else Path.home() / ".local/share/trainingroom"
    base.mkdir(parents=True, exist_ok=True)
    return base


def database_url(name: str = "trainingroom.sqlite3") -> str:
    """``DATABASE_URL`` when set, else a SQLite file in the data directory."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir() / name}"


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url`` (default :func:`database_url`); SQLite gets WAL and a busy wait."""
    url = url or database_url()
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn, _record):  # type: ignore[no-untyped-def]
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)
