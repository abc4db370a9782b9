"""One source of terms: docs/glossary.md, the app's page and every command's help agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import COMMANDS, app
from sim.glossary import DOC_PATH, METHODS, PAGE_URL, TERMS, markdown, term_help, term_link
from tests.apptest import open_page

ROOT = Path(__file__).resolve().parent.parent


def test_the_doc_is_the_generated_text() -> None:
    doc = (ROOT / DOC_PATH).read_text()
    assert doc == markdown(), "run: .venv/bin/python -m sim.glossary > docs/glossary.md"


def test_terms_are_unique_plain_and_cover_the_issue() -> None:
    ids = [t.id for t in TERMS]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"[a-z0-9-]+", i) for i in ids)
    names = {t.name.lower() for t in TERMS}
    needed = "world replication scope rung margin points reserve gate interval".split() + [
        "common random numbers",
        "chance all objectives are met",
    ]
    assert set(needed) <= names, set(needed) - names
    for t in TERMS:
        assert t.meaning.endswith(".") and "_" not in t.meaning, t.id
        assert len(t.meaning.split()) < 70, t.id
    assert all(link.startswith("https://") for _, _, link in METHODS)


def test_the_app_page_is_registered_once_and_links_resolve() -> None:
    app_py = (ROOT / "app.py").read_text()
    assert app_py.count(f'url_path="{PAGE_URL}"') == 1
    assert (ROOT / "ui" / "glossary.py").exists()
    assert term_help("world").endswith(f"(/{PAGE_URL}#world)")
    assert term_link("points", "points out of 100") == f"[points out of 100](/{PAGE_URL}#points)"


def test_every_command_help_points_to_the_glossary() -> None:
    runner = CliRunner()
    for name in COMMANDS:
        out = runner.invoke(app, [name, "--help"], env={"COLUMNS": "80"}).output
        assert DOC_PATH in " ".join(out.split()), name


def _page_text(at) -> str:  # type: ignore[no-untyped-def]
    """Every markdown, caption and help text the page rendered (where a term link can be)."""
    texts = [e.value for e in (*at.markdown, *at.caption)]
    texts += [str(getattr(e, "help", "") or "") for e in (*at.metric, *at.number_input)]
    return "\n".join(str(t) for t in texts)


@pytest.mark.parametrize(
    ("page", "terms"),
    [
        ("ui/scenario/page.py", ("lever", "reserve", "points", "mfu", "effective-training-time")),
        ("ui/interview/page.py", ("world", "points")),
        ("ui/tabletop/facilitator.py", ("decision-right", "inject", "world")),
        ("ui/tabletop/player.py", ("decision-right",)),
    ],
)
def test_the_pages_link_their_first_terms_to_the_glossary(
    page: str, terms: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28.4: a newcomer's first unfamiliar word on each page links to its meaning."""
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    text = _page_text(open_page(page))
    linked = set(re.findall(rf"/{PAGE_URL}#([a-z0-9-]+)", text))
    assert linked, f"{page}: no glossary link on the page"
    assert set(terms) <= linked, f"{page}: not linked: {sorted(set(terms) - linked)}"
    assert linked <= {t.id for t in TERMS}, f"{page}: links to no term: {linked}"
