"""``--help`` that fits the terminal: option names whole, help text wrapped between words.

typer's rich help panels shrink every column to fit and end what still does not fit
with ``…`` (``--checkpoint-minu…`` at 60 columns). click's own formatter never cuts a
name, but it assumes at least 50 columns, splits a word longer than the line and keeps
the first column 30 wide however narrow the terminal. This formatter keeps click's
layout and fixes those three: it uses the terminal's width (down to 20 columns), breaks
lines only at spaces, and below about 60 columns puts each option's help under its name.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Iterable
from typing import Any

import typer

#: The formatter class typer's contexts use: click's, which typer vendors since 0.26 in a
#: module it keeps private (``typer._click``), so it is reached through the public context.
HelpFormatter: Any = typer.Context.formatter_class

#: The help is never wider than this, however wide the terminal (click's default).
MAX_WIDTH = 80
#: Nor narrower than this: below it no help is readable.
MIN_WIDTH = 20
#: Beside its option, a help text needs at least this many columns; else it goes below.
MIN_HELP_COLUMNS = 28
#: How far a help text written below its option is indented past it.
BELOW_INDENT = 4


#: A bracketed note (``[default: 4.0]``, ``[required]``) is kept on one line: its spaces
#: become this character (a no-break space, which textwrap never breaks at) while wrapping.
_GLUE = "\u00a0"
_BRACKETS = re.compile(r"\[[^\[\]]*\]")


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    r"""The lines of ``text``, each ``indent`` + at most ``width`` characters, broken at spaces.

    Paragraphs (a blank line apart) stay apart; a paragraph that starts with click's
    ``\b`` marker keeps its own lines. A word longer than ``width`` (a name, an
    example) stands whole on its own line rather than being split or cut, and so does
    a bracketed note such as ``[default: 4.0]``.
    """
    wrapper = textwrap.TextWrapper(
        width=len(indent) + max(width, 1),
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )
    lines: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text.strip("\n")):
        if lines:
            lines.append("")
        if paragraph.lstrip(" ").startswith("\b"):
            lines.extend(indent + line for line in paragraph.splitlines()[1:])
        else:
            words = _BRACKETS.sub(lambda m: m[0].replace(" ", _GLUE), " ".join(paragraph.split()))
            lines.extend(line.replace(_GLUE, " ") for line in wrapper.wrap(words))
    return lines


class WrappingHelpFormatter(HelpFormatter):
    """click's help layout at the terminal's real width, wrapped between words only."""

    def __init__(
        self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None
    ) -> None:
        if width is None:
            columns = min(shutil.get_terminal_size().columns, max_width or MAX_WIDTH)
            width = max(columns - 2, MIN_WIDTH)
        super().__init__(indent_increment=indent_increment, width=width, max_width=max_width)

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """Write ``Usage: PROG ARGS``, the arguments wrapped under their first one.

        When an argument would not fit beside ``PROG``, they all go on the lines below.
        """
        head = f"{'Usage: ' if prefix is None else prefix:>{self.current_indent}}{prog} "
        longest = max((len(word) for word in args.split()), default=0)
        if len(head) + longest <= self.width:
            lines = wrap(args, self.width - len(head), " " * len(head)) or [""]
            lines[0] = head + lines[0][len(head) :]
        else:
            indent = " " * (self.current_indent + BELOW_INDENT)
            lines = [head.rstrip(), *wrap(args, self.width - len(indent), indent)]
        for line in lines:
            self.write(f"{line}\n")

    def write_text(self, text: str) -> None:
        """Write ``text`` at the current indent, rewrapped paragraph by paragraph."""
        indent = " " * self.current_indent
        for line in wrap(text, self.width - self.current_indent, indent):
            self.write(f"{line}\n")

    def write_dl(
        self, rows: Iterable[tuple[str, str]], col_max: int = 30, col_spacing: int = 2
    ) -> None:
        """Write each term (an option, a command) whole, with its help beside or below it.

        The first column takes a third of the line at most; a longer term has its help
        start on the next line. When even that leaves the help fewer than
        :data:`MIN_HELP_COLUMNS`, every help goes below its term, indented.
        """
        rows = list(rows)
        if not rows:
            return
        room = self.width - self.current_indent
        first = min(max(len(term) for term, _ in rows), col_max, room // 3)
        beside = room - first - col_spacing >= MIN_HELP_COLUMNS
        column = first + col_spacing if beside else BELOW_INDENT
        lead = " " * (self.current_indent + column)
        for term, help_text in rows:
            lines = wrap(help_text, room - column, lead)
            self.write(f"{'':>{self.current_indent}}{term}")
            if lines and beside and len(term) <= first:
                self.write(" " * (column - len(term)) + lines.pop(0)[len(lead) :])
            self.write("\n")
            for line in lines:
                self.write(f"{line}\n")


class HelpContext(typer.Context):
    """A typer context whose ``--help`` is written by :class:`WrappingHelpFormatter`."""

    formatter_class = WrappingHelpFormatter
