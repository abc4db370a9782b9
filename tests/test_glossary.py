"""One source of terms: docs/glossary.md, the app's page and every command's help agree."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import COMMANDS, app
from sim.glossary import DOC_PATH, METHODS, PAGE_URL, TERMS, markdown, term_help, term_link

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
