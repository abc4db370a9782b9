"""The shipped scenarios: package data under ``sim/scenario/shipped/``, found by name.

The repository's top-level ``scenarios/`` folder is a link to the same files, so
``scenarios/assistant_7b.yaml`` works in a checkout and ``assistant_7b`` works
anywhere the package is installed.
"""

from __future__ import annotations

import difflib
from pathlib import Path

#: Where the shipped scenario files live inside the installed package.
SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"
SUFFIXES = (".yaml", ".yml")


def shipped_names() -> list[str]:
    """Names of the shipped scenarios (file names without ``.yaml``), sorted."""
    return sorted(p.stem for p in SHIPPED_DIR.iterdir() if p.suffix in SUFFIXES)


def shipped_path(name: str) -> Path | None:
    """The file of the shipped scenario ``name`` (with or without ``.yaml``), or None."""
    stem = name[: -len(Path(name).suffix)] if Path(name).suffix in SUFFIXES else name
    if not stem or "/" in stem or "\\" in stem or stem.startswith("."):
        return None
    for suffix in SUFFIXES:
        path = SHIPPED_DIR / f"{stem}{suffix}"
        if path.is_file():
            return path
    return None


def resolve(path_or_name: str | Path) -> Path:
    """A path as given when it exists; else the shipped scenario of that name; else as given.

    A file on disk always wins over a shipped name, so a user's own ``assistant_7b``
    in the working directory is the one read.
    """
    p = Path(path_or_name)
    if p.exists():
        return p
    shipped = shipped_path(str(path_or_name)) if p.parent == Path(".") else None
    return shipped if shipped is not None else p


def did_you_mean(name: str) -> str:
    """A hint naming the closest shipped scenario (and all of them), for a missing file."""
    names = shipped_names()
    stem = Path(name).stem
    close = difflib.get_close_matches(stem, names, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"{hint} (shipped scenarios, by name: {', '.join(names)})"
