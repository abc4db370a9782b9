"""A two-design comparison in Chromium: pick a small core against a siloed org, run it,
read the verdict and the charts, run the tornado, then a small sweep with its heat map."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import SHOWN


def set_number(page, label: str, value: int) -> None:  # type: ignore[no-untyped-def]
    field = page.get_by_role("spinbutton", name=label, exact=True)
    field.fill(str(value))
    field.press("Enter")


def test_compare_two_designs_then_sweep(app) -> None:  # type: ignore[no-untyped-def]
    page = app.page
    app.open()
    app.go_to("Compare")
    app.assert_no_exception()
    picked = page.get_by_test_id("stMultiSelect")
    expect(picked.get_by_text("Small core, engineering embedded")).to_be_visible()
    expect(picked.get_by_text("Large siloed org, engineering apart")).to_be_visible()
    # A long run, stopped part-way: what finished is kept and shown.
    set_number(page, "Replications per design", 10_000)
    app.wait()
    page.get_by_role("button", name="Run the comparison (2 designs)").click()
    some_done = re.compile(r"^[1-9][\d,]* of 20,000 replications")
    expect(page.get_by_text(some_done)).to_be_visible(timeout=SHOWN)
    page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Stop").click()
    expect(page.get_by_text("The run stopped after")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_role("heading", name="Verdict")).to_be_visible()
    app.screenshot("compare-0-stopped")

    set_number(page, "Replications per design", 60)
    app.wait()
    page.get_by_role("button", name="Run the comparison (2 designs)").click()
    expect(page.get_by_role("heading", name="Verdict")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    verdict = page.get_by_text("B: Large siloed org, engineering apart against A: Small core")
    expect(verdict).to_be_visible()
    expect(page.get_by_text("95% interval").first).to_be_visible()
    expect(page.get_by_text("From 60 worlds per design.")).to_be_visible()
    expect(page.get_by_text("Best on all objectives met:").first).to_be_visible()
    # The S-curves: waits until the third chart is drawn (a count taken at once can race it).
    expect(page.get_by_test_id("stPlotlyChart").nth(2)).to_be_visible(timeout=SHOWN)
    app.screenshot("compare-1-verdict-and-s-curves")

    for tab, shot in (
        ("Objectives", "compare-2-objectives"),
        ("Paired differences", "compare-3-paired"),
        ("Critical path", "compare-4-critical-path"),
    ):
        page.get_by_role("tab", name=tab).click()
        app.wait()
        app.assert_no_exception()
        app.screenshot(shot)

    page.get_by_role("tab", name="Sensitivity").click()
    set_number(page, "Worlds per setting", 10)
    app.wait()
    page.get_by_role("button", name="Run sensitivity").click()
    expect(page.get_by_text("What moves schedule (days) most")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_text("Whiskers: the 95% interval of each setting").first).to_be_visible()
    app.screenshot("compare-5-tornado")

    page.get_by_role("tab", name="Downloads").click()
    expect(page.get_by_role("button", name="Download the table (CSV)")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the summary (JSON)").click()
    assert download.value.suggested_filename == "comparison.json"

    page.get_by_text("Build your own design").click()
    expect(page.get_by_test_id("stGraphVizChart")).to_have_count(1, timeout=SHOWN)
    app.wait()
    app.screenshot("compare-6-own-design")

    app.go_to("Sweep")
    app.assert_no_exception()
    page.get_by_role("textbox", name="Values of budget reserve, comma-separated").fill("0, 0.2")
    page.keyboard.press("Enter")
    app.wait()
    set_number(page, "Replications per design", 10)
    app.wait()
    page.get_by_role("button", name="Run the sweep").click()
    expect(page.get_by_text("over the grid")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    app.screenshot("sweep-1-heat-map")
