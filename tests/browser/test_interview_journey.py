"""One interview-practice session in Chromium: the question under a clock, the answer spoken
in prose and read into a plan, Part 1 with the model's prices, Part 2 with the ranked
playbook control and a kept org-chart section, the design run, the three follow-ups played
live, the rubric debrief handed in with its model answers, the Markdown download, and the
session saved to past sessions with its item-by-item chart."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from sim.scenario.vocabulary import option_words
from tests.browser.conftest import SHOWN

# The app server starts once per session and inherits this environment: set at collection,
# before any server starts, so a saved session lands in a temporary data directory and
# never in the real home.
os.environ.setdefault("TRAININGROOM_DATA_DIR", tempfile.mkdtemp(prefix="trainingroom-test-"))

SPOKEN = (Path(__file__).parents[1] / "data" / "spoken_answer.txt").read_text(encoding="utf-8")


def pick(app, label: str, option: str) -> None:  # type: ignore[no-untyped-def]
    """Choose ``option`` in the Part 1 multiselect ``label`` and wait for its priced row."""
    page = app.page
    box = page.get_by_test_id("stMultiSelect").filter(has_text=label)
    for _ in range(4):
        # A rerun that lands while the list is open closes it again: open it once more.
        box.locator("input").click()
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=SHOWN // 20)
            break
        except PlaywrightTimeout:
            app.wait()
    page.keyboard.press("Escape")
    rows = page.get_by_test_id("stVerticalBlock").filter(has_text=option)
    row = rows.filter(has_text="The model, when")
    expect(row.last).to_be_visible(timeout=SHOWN)
    app.wait()


def choose(app, key: str, option: str) -> None:  # type: ignore[no-untyped-def]
    """Choose ``option`` in the selectbox whose widget key ends in ``key``."""
    page = app.page
    box = page.locator(f"[class*='st-key-iv_'][class*='{key}']")
    for _ in range(4):
        # A rerun that lands while the list is open closes it again: open it once more.
        box.locator("input").click()
        page.keyboard.type(option)
        try:
            page.get_by_role("option", name=option, exact=True).click(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            app.wait()
    app.wait()


def fill(page: Page, label: str, text: str, nth: int = 0) -> None:
    field = page.get_by_label(label, exact=True).nth(nth)
    field.fill(text)
    field.press("Tab")


def step(app, name: str) -> None:  # type: ignore[no-untyped-def]
    app.page.get_by_role("button", name=name).click()
    app.wait()
    app.assert_no_exception()


def test_one_practice_session_end_to_end(app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = app.page
    app.open()
    app.go_to("Interview")
    app.assert_no_exception()
    expect(page.get_by_text("Clarifying questions")).to_be_visible()
    page.get_by_role("button", name="Start a 45-minute clock").click()
    expect(page.get_by_text("min left of 45")).to_be_visible(timeout=SHOWN)
    fill(page, "Your name (to track progress across attempts)", "Ada")
    page.get_by_text("Speak it: write or paste your answer").click()
    app.wait()
    box = page.get_by_label("Your answer", exact=True)
    box.fill(SPOKEN)
    box.press("Tab")
    app.wait()
    page.get_by_role("button", name="Read my answer").click()
    expect(page.get_by_text("What the tool read")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    app.screenshot("interview-1-prose")
    page.get_by_role("button", name="Use this plan, then correct it").click()
    expect(page.get_by_text("Your spoken answer is now the plan")).to_be_visible(timeout=SHOWN)
    app.wait()

    # Part 1 holds what was read; add one more challenge and explain it.
    expect(page.get_by_text("Noisy, duplicated or low-quality web data").first).to_be_visible()
    pick(app, "Evaluation", "Public benchmarks look better than the product really is")
    app.assert_no_exception()
    expect(page.get_by_text("What your challenges cost when they strike")).to_be_visible()
    expect(page.get_by_text("Puts at risk (read from your words)").first).to_be_visible()
    app.screenshot("interview-2-part1")

    step(app, "3. Part 2: your plan")
    page.get_by_role("tab", name="Levers").click()
    app.wait()
    # The playbook's order is the order of the ranked boxes: make the schedule playbook
    # "add core staff, then accept the slip".
    choose(app, "_pb_schedule_0", "add core staff")
    choose(app, "_pb_schedule_1", option_words("accept_slip"))
    glance = page.get_by_test_id("stVerticalBlock").filter(has_text="Your plan at a glance").last
    expect(glance).to_contain_text("rollback, budget, schedule", timeout=SHOWN)
    app.assert_no_exception()
    app.screenshot("interview-3-playbook")
    page.get_by_role("tab", name="Owners").click()
    app.wait()
    expect(page.get_by_test_id("stGraphVizChart")).to_be_visible()
    page.get_by_role("button", name="Run my design beside the references (60 worlds each)").click()
    expect(page.get_by_text("Your design beside the references")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    app.screenshot("interview-3-part2")

    step(app, "4. Follow-ups")
    expect(page.get_by_role("button", name="Play it on my design")).to_have_count(3)
    for fid in ("loss_spike", "budget_cut", "benchmarks_vs_product"):
        page.locator(f"[class*='st-key-iv_play_{fid}'] button").click()
        decide = f"[class*='st-key-iv_decide_{fid}_']"
        expect(page.locator(decide).first).to_be_visible(timeout=SHOWN)
        app.wait()
        if fid == "loss_spike":
            expect(page.get_by_text("You decide as")).to_be_visible()
            app.screenshot("interview-4-followup-decision")
        while page.locator(decide).count():
            first = page.locator(decide).first
            key = next(c for c in (first.get_attribute("class") or "").split() if "iv_decide" in c)
            first.get_by_role("button").click()
            expect(page.locator(f"[class*='{key}']")).to_have_count(0, timeout=SHOWN)
            app.wait()
        expect(page.locator(f"[class*='st-key-iv_again_{fid}']")).to_be_visible(timeout=SHOWN)
        app.assert_no_exception()
    expect(page.get_by_text("You chose")).to_have_count(3)
    app.screenshot("interview-5-followups")

    step(app, "5. Debrief")
    expect(page.get_by_text("Rubric score")).to_be_visible(timeout=SHOWN)
    app.wait()
    expect(page.get_by_text("Every risk has an owner and an early warning")).to_be_visible()
    expect(page.get_by_text("How the design plays out")).to_be_visible()
    expect(page.get_by_text("Model answer for this project")).to_have_count(0)
    page.get_by_role("button", name="Hand in this attempt").click()
    shown = page.get_by_text("Model answer for this project").locator("visible=true")
    expect(shown.first).to_be_visible(timeout=SHOWN)
    app.wait()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the session (Markdown)").click()
    saved = tmp_path / "session.md"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("# Interview practice") and "## Rubric" in text
    assert "Candidate: Ada" in text
    page.get_by_role("button", name="Save this session").click()
    expect(page.get_by_text("Saved as session")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_text("Progress across your attempts")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_text("Item by item across your attempts")).to_be_visible(timeout=SHOWN)
    app.screenshot("interview-6-debrief")
