"""Tables that stay readable at any width: numbers are never cut, text wraps.

Rich shrinks every column of a table that is too wide, cutting numbers with an
ellipsis. Here number columns keep the width of their widest cell, headers wrap
on their words, text columns fold into the width left; when even that does not
fit, each row is printed as a short block of ``label value`` pairs instead.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sim.format import pp_signed, usd

#: Narrowest a text column may become before the vertical layout is used instead.
MIN_TEXT = 14


@dataclass(frozen=True)
class Col:
    """A column: its header, and whether it holds text (left, wraps) or numbers (right)."""

    header: str
    text: bool = False


def _columns(columns: Sequence[str | Col], text_columns: int) -> list[Col]:
    return [
        c if isinstance(c, Col) else Col(c, text=i < text_columns) for i, c in enumerate(columns)
    ]


def _width(cell: str) -> int:
    return max((len(line) for line in cell.split("\n")), default=0)


def _longest_word(text: str) -> int:
    return max((len(word) for word in text.split()), default=0)


def _wrap_header(header: str, width: int) -> str:
    return "\n".join(textwrap.wrap(header, width) or [""])


def show(
    title: str,
    rows: Iterable[Sequence[Any]],
    columns: Sequence[str | Col],
    *,
    console: Console,
    text_columns: int = 1,
    caption: str | None = None,
) -> None:
    """Print a table that fits the console's width without cutting a number."""
    cols = _columns(columns, text_columns)
    cells = [[v if isinstance(v, str) else fmt(v) for v in row] for row in rows]
    widths = [
        max([_longest_word(c.header), *(_width(r[i]) for r in cells)], default=1)
        for i, c in enumerate(cols)
    ]
    # A text column is never narrower than its longest word, so no word is cut in two.
    words = [
        max([MIN_TEXT, *(_longest_word(r[i]) for r in cells)]) if c.text else widths[i]
        for i, c in enumerate(cols)
    ]
    # A boxed table needs three characters a column and one; without the box (a rule under
    # the header, two spaces between columns) a wide table still fits before it must fall
    # back to one block per row.
    boxed = 3 * len(cols) + 1
    borders = boxed if sum(words) + boxed <= console.width else 2 * (len(cols) - 1)
    if sum(words) + borders > console.width:
        _vertical(console, title, cells, cols, caption)
        return
    # Headers of number columns stay on one line when there is room for all of them.
    whole = [w if c.text else max(w, len(c.header)) for w, c in zip(words, cols, strict=True)]
    if sum(whole) + borders <= console.width:
        widths = [w if c.text else max(w, len(c.header)) for w, c in zip(widths, cols, strict=True)]
    frame: dict[str, Any] = {}
    if borders != boxed:
        frame = {"box": box.SIMPLE_HEAD, "show_edge": False, "pad_edge": False,
                 "padding": (0, 1, 0, 0)}  # fmt: skip
    table = Table(
        title=title, title_justify="left", caption=caption, caption_justify="left", **frame
    )
    for col, width, least in zip(cols, widths, words, strict=True):
        if col.text:
            table.add_column(col.header, justify="left", overflow="fold", min_width=least)
        else:
            table.add_column(
                _wrap_header(col.header, width), justify="right", no_wrap=True, min_width=width
            )
    for row in cells:
        table.add_row(*(Text(cell) for cell in row))  # cells are text, never rich markup
    console.print(table)


def _vertical(
    console: Console, title: str, cells: list[list[str]], cols: list[Col], caption: str | None
) -> None:
    """Each row as a heading (its first cell) and its other cells as ``header: value``."""
    console.print(Text(title, style="bold"))
    for row in cells:
        heading = row[0] if cols[0].text else f"{cols[0].header}: {row[0]}"
        console.print(Text(heading, style="bold"), overflow="fold")
        pairs = [f"{c.header}: {v}" for c, v in zip(cols[1:], row[1:], strict=True) if v]
        for line in _lines(pairs, console.width - 2):
            console.print(Text("  " + line), overflow="fold")
    if caption:
        console.print(Text(caption, style="dim"), overflow="fold")


def _lines(pairs: list[str], width: int) -> list[str]:
    """``header: value`` pairs joined by `` · `` into lines of at most ``width``.

    A pair is never broken (one longer than a line gets a line of its own, folded).
    """
    lines: list[str] = []
    for pair in pairs:
        if lines and len(lines[-1]) + 3 + len(pair) <= width:
            lines[-1] += " · " + pair
        else:
            lines.append(pair)
    return lines


# --- numbers with their units ---------------------------------------------------------------


def money(value: float) -> str:
    """US dollars, short as the app writes them: ``$6.18M``, ``$150k``, ``$2.50``, ``-$24k``."""
    return usd(value)


def percent(value: float, digits: int = 1) -> str:
    """A share as a percentage: ``96.7%``."""
    return f"{100 * value:.{digits}f}%" if math.isfinite(value) else "—"


def number(value: float, digits: int = 3) -> str:
    """A plain quantity, with thousands separators and about ``digits`` significant digits."""
    if not math.isfinite(value):
        return "—"
    if value == 0:
        return "0"
    if abs(value) >= 1e7 or abs(value) < 1e-3:
        return f"{value:.{digits}g}"
    decimals = max(digits - 1 - math.floor(math.log10(abs(value))), 0)
    return f"{value:,.{decimals}f}"


def setting(value: Any) -> str:
    """A lever's setting as written in a scenario: ``0.02``, ``500,000``, ``yes``, ``adapt``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return f"{value:,g}"
    return str(value)


def fmt(value: Any) -> str:
    """Readable formatting of a cell whose unit the caller did not give."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return number(value)
    return str(value)


def compact(value: float) -> str:
    """A large count with a suffix: ``2.66M``, ``4.29T``, ``419``."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return number(value)


def with_unit(value: float, unit: str) -> str:
    """``value`` written in ``unit`` (a unit name of :mod:`sim.metrics`)."""
    if unit == "USD":
        return money(value)
    if unit in ("probability", "share"):
        return percent(value)
    if unit == "billion tokens":
        return f"{number(value)}B"
    return number(value)


def difference(value: float, unit: str) -> str:
    """A signed difference in ``unit``: ``+3.2``, ``-$1.20M``, ``+5.0 pp`` for chances.

    Chances differ in percentage points (``pp``) and quality in points (``pts``): the two
    never read alike.
    """
    if not math.isfinite(value):
        return "—"
    if unit in ("probability", "share"):
        return pp_signed(value)
    sign = "+" if value > 0 else ""
    return sign + (money(value) if unit == "USD" else number(value))
