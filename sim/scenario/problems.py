"""What is wrong with an input, located as ``FILE:LINE: field.path: reason``.

Kept apart from :mod:`sim.scenario.loading` (pydantic, ruamel) so that code which
only reports problems, such as the command line's error handling, imports nothing
heavy.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located as precisely as we can."""

    source: str
    line: int | None
    path: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line is not None else self.source
        return one_line(f"{where}: {self.path or '(document)'}: {self.reason}")


def one_line(text: str) -> str:
    """Escape control characters (a key or file name may hold a newline): one problem, one line."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


class ScenarioError(Exception):
    """A scenario (file or overrides) is not valid; ``problems`` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def closest(word: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The valid names closest to ``word`` (difflib), best first; case is ignored."""
    options = list(dict.fromkeys(names))
    by_lower = {name.lower(): name for name in options}
    lower = word.lower()
    found = difflib.get_close_matches(lower, list(by_lower), n=n, cutoff=0.6)
    # Else a name that begins the word, or that the word begins (gpu_type, reserve).
    if not found and len(lower) >= 3:
        found += [
            k for k in by_lower if len(k) >= 3 and (lower.startswith(k) or k.startswith(lower))
        ]
    return [by_lower[f] for f in dict.fromkeys(found)][:n]


def suggestion(word: str, names: Iterable[str], what: str = "valid names") -> str:
    """``did you mean 'x'? (valid names: a, b, c)`` for a word that is not among ``names``."""
    options = list(dict.fromkeys(names))
    close = closest(word, options)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    return f"{hint}({what}: {', '.join(options)})"
