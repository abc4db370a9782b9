"""A small document model (headings, paragraphs, lists, tables) rendered as Markdown or HTML.

Every string in a block is plain text. Each renderer escapes it for its format, so text
a person typed (a name, a rationale, a comment) is shown as typed and never becomes
markup, links, LaTeX or script.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Para:
    text: str
    quiet: bool = False


@dataclass(frozen=True)
class Bullets:
    items: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Heading | Para | Bullets | Table

#: Characters that mean something anywhere in a Markdown line (``$`` starts LaTeX in Streamlit).
_MD_INLINE = re.compile(r"([\\`*_\[\]<>|$~&])")
#: What means something only at the start of a line: a heading, a list item, a numbered item.
_MD_LINE_START = re.compile(r"^(#|[-+](?=\s|$)|\d+[.)](?=\s|$))")


def md_escape(text: str) -> str:
    """Plain text as Markdown that renders to exactly that text, on one line."""
    one_line = " ".join(str(text).split())
    escaped = _MD_INLINE.sub(r"\\\1", one_line)
    return _MD_LINE_START.sub(lambda m: m[1][:-1] + "\\" + m[1][-1], escaped)


def to_markdown(blocks: Sequence[Block], shift: int = 0) -> str:
    """Markdown; ``shift`` moves every heading down that many levels (to sit inside a page)."""
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            out += ["#" * min(6, b.level + shift) + " " + md_escape(b.text), ""]
        elif isinstance(b, Para):
            text = md_escape(b.text)
            out += [f"*{text}*" if b.quiet else text, ""]
        elif isinstance(b, Bullets):
            out += [f"- {md_escape(i)}" for i in b.items] + [""]
        else:
            out.append("| " + " | ".join(md_escape(h) for h in b.header) + " |")
            out.append("|" + "---|" * len(b.header))
            out += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in b.rows]
            out.append("")
    return "\n".join(out)


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem;
       color: #1d2433; line-height: 1.45; }
h1 { border-bottom: 2px solid #d0d7e2; padding-bottom: .3rem; }
h2 { margin-top: 2rem; color: #23395d; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .92rem; }
th, td { border: 1px solid #d0d7e2; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #eef2f8; }
p.quiet { color: #5b6577; font-style: italic; }
@media print {
  body { margin: 0; max-width: none; font-size: 10.5pt; }
  h2 { break-after: avoid; }
  h3 { break-after: avoid; }
  table, ul { break-inside: avoid; }
}
"""


def _h(text: str) -> str:
    return html.escape(str(text), quote=True)


def to_html(blocks: Sequence[Block], title: str) -> str:
    """A standalone HTML page (inline CSS, no scripts)."""
    body: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            body.append(f"<h{b.level}>{_h(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            attr = ' class="quiet"' if b.quiet else ""
            body.append(f"<p{attr}>{_h(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append("<ul>" + "".join(f"<li>{_h(i)}</li>" for i in b.items) + "</ul>")
        else:
            head = "".join(f"<th>{_h(h)}</th>" for h in b.header)
            rows = "".join(
                "<tr>" + "".join(f"<td>{_h(c)}</td>" for c in row) + "</tr>" for row in b.rows
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_h(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )
