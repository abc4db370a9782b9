"""The Glossary page in Chromium: in the menu, every term of sim/glossary.py, anchors work."""

from __future__ import annotations

from playwright.sync_api import expect

from sim.glossary import PAGE_URL, TERMS
from tests.browser.conftest import SHOWN


def test_the_glossary_page_lists_every_term(app) -> None:
    page = app.page
    app.open()
    app.go_to("Glossary")
    app.assert_no_exception()
    expect(page.get_by_role("heading", name="Glossary", exact=True)).to_be_visible(timeout=SHOWN)
    for term in TERMS:
        expect(page.get_by_role("heading", name=term.name, exact=True)).to_have_count(1)
    expect(page.get_by_role("link", name="McNemar's test")).to_have_count(1)
    app.screenshot("glossary")
    app.open(f"{PAGE_URL}#points")
    expect(page.get_by_role("heading", name="Points", exact=True)).to_be_visible(timeout=SHOWN)
