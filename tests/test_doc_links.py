"""Every relative link and anchor in README.md and docs/*.md resolves."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MD = MarkdownIt("commonmark")


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation but - and _ dropped, spaces to -."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _text(inline: Token) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2, ...)."""
    tokens = MD.parse(path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            s = slug(_text(tokens[i + 1]))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return frozenset(out)


def links(path: Path) -> list[str]:
    """The relative targets of a Markdown file's links (no scheme: not http, mailto...)."""
    out = []
    for tok in MD.parse(path.read_text(encoding="utf-8")):
        for child in tok.children or []:
            href = str(child.attrs.get("href", "")) if child.type == "link_open" else ""
            if href and not re.match(r"^[a-z][a-z0-9+.-]*:", href):
                out.append(href)
    return out


def broken(path: Path) -> list[str]:
    """The links of ``path`` whose file or anchor does not exist, with the reason."""
    bad = []
    for href in links(path):
        target, _, fragment = href.partition("#")
        dest = (path.parent / target).resolve() if target else path
        if not dest.exists():
            bad.append(f"{href}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            bad.append(f"{href}: no heading with this anchor in {dest.name}")
    return bad


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_relative_links_and_anchors_resolve(path: Path) -> None:
    assert broken(path) == []


def test_the_checker_finds_a_broken_anchor_and_file(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# A heading (`sim/x.py`)\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text(
        "[ok](b.md#a-heading-simxpy) [gone](b.md#nope) [missing](c.md) [web](https://x.org)\n",
        encoding="utf-8",
    )
    assert broken(page) == [
        "b.md#nope: no heading with this anchor in b.md",
        "c.md: no such file",
    ]
