"""A small document model (headings, paragraphs, lists, tables) and its renderers.

Markdown, HTML, Word (.docx, with python-docx) and PDF (with fpdf2, in the DejaVu Sans
font matplotlib ships, so no system font or browser is needed).

Every string in a block is plain text. Each renderer escapes it for its format, so text
a person typed (a name, a rationale, a comment) is shown as typed and never becomes
markup, links, LaTeX, icons or script; Word and PDF take it as literal text.
"""

from __future__ import annotations

import html
import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any


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


def html_body(blocks: Sequence[Block]) -> str:
    """The blocks as HTML elements (no page around them), every text escaped."""
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
    return "\n".join(body)


def to_html(blocks: Sequence[Block], title: str) -> str:
    """A standalone HTML page (inline CSS, no scripts)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_h(title)}</title><style>{_CSS}</style></head>\n<body>\n"
        + html_body(blocks)
        + "\n</body></html>\n"
    )


def to_docx(blocks: Sequence[Block], title: str, author: str = "") -> bytes:
    """A Word document: headings, paragraphs, bulleted lists and gridded tables."""
    from docx import Document
    from docx.shared import Pt

    doc = Document()
    doc.core_properties.title = title
    # The template's author is "python-docx"; a report's is whoever ran the exercise.
    doc.core_properties.author = author
    doc.core_properties.last_modified_by = author
    doc.core_properties.comments = ""
    doc.styles["Normal"].font.size = Pt(10)
    for b in blocks:
        if isinstance(b, Heading):
            doc.add_heading(b.text, level=min(b.level, 9))
        elif isinstance(b, Para):
            run = doc.add_paragraph().add_run(b.text)
            run.italic = b.quiet
        elif isinstance(b, Bullets):
            for item in b.items:
                doc.add_paragraph(item, style="List Bullet")
        else:
            table = doc.add_table(rows=1, cols=len(b.header))
            table.style = "Table Grid"
            for cell, text in zip(table.rows[0].cells, b.header, strict=True):
                cell.paragraphs[0].add_run(text).bold = True
            for row in b.rows:
                for cell, text in zip(table.add_row().cells, row, strict=True):
                    cell.text = text
            doc.add_paragraph()
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _font_files() -> dict[str, Any]:
    """DejaVu Sans (regular, bold, oblique), as shipped with matplotlib."""
    ttf = files("matplotlib") / "mpl-data" / "fonts" / "ttf"
    return {"": ttf / "DejaVuSans.ttf", "B": ttf / "DejaVuSans-Bold.ttf",
            "I": ttf / "DejaVuSans-Oblique.ttf"}  # fmt: skip


def to_pdf(blocks: Sequence[Block], title: str, author: str = "") -> bytes:
    """A PDF (A4, DejaVu Sans): headings, paragraphs, lists and tables that break across pages."""
    from fpdf import FPDF
    from fpdf.fonts import FontFace

    logging.getLogger("fontTools").setLevel(logging.WARNING)
    pdf = FPDF(format="A4")
    pdf.set_title(title)
    pdf.set_author(author)
    pdf.set_margins(15, 15, 15)
    pdf.set_auto_page_break(True, margin=15)
    for style, path in _font_files().items():
        pdf.add_font("DejaVu", style, str(path))
    pdf.add_page()
    sizes = {1: 16, 2: 13, 3: 11.5, 4: 10.5, 5: 9.5}
    for b in blocks:
        if isinstance(b, Heading):
            pdf.set_font("DejaVu", "B", sizes.get(b.level, 9.5))
            pdf.ln(2)
            pdf.multi_cell(0, sizes.get(b.level, 9.5) * 0.5, b.text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        elif isinstance(b, Para):
            pdf.set_font("DejaVu", "I" if b.quiet else "", 9.5)
            pdf.multi_cell(0, 4.8, b.text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
        elif isinstance(b, Bullets):
            pdf.set_font("DejaVu", "", 9.5)
            for item in b.items:
                pdf.multi_cell(0, 4.8, f"•  {item}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
        else:
            size = 8.5 if len(b.header) <= 5 else 6.5
            pdf.set_font("DejaVu", "", size)
            heading = FontFace(emphasis="BOLD", fill_color=(238, 242, 248))
            with pdf.table(text_align="LEFT", headings_style=heading, line_height=size * 0.5,
                           padding=1) as table:  # fmt: skip
                for row in (b.header, *b.rows):
                    cells = table.row()
                    for text in row:
                        cells.cell(text)
            pdf.ln(2)
    return bytes(pdf.output())
