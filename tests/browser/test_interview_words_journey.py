"""Answers in words in Chromium: a prose answer whose unsure reading is asked before the
plan is used, a follow-up answered in words and its unsure call corrected, and the quick
plan's form."""

from __future__ import annotations

import os
import tempfile

from playwright.sync_api import expect

from sim.scenario.vocabulary import option_words
from tests.browser.conftest import SHOWN

os.environ.setdefault("TRAININGROOM_DATA_DIR", tempfile.mkdtemp(prefix="trainingroom-test-"))

SURE = "The data team owns data quality and watches dedup rates."
UNSURE = "We keep a reserve, and 12% is right."
HOLD = "No, I would hold the release for now."


def test_words_are_asked_before_they_are_judged(app) -> None:  # type: ignore[no-untyped-def]
    page = app.page
    app.open()
    app.go_to("Interview")
    page.get_by_text("A quick plan (27 inputs").click()
    app.wait()
    expect(page.get_by_role("button", name="Use this quick plan")).to_be_visible(timeout=SHOWN)
    app.assert_no_exception()
    app.screenshot("interview-words-0-quick")

    page.get_by_text("Speak it: write or paste your answer").click()
    app.wait()
    box = page.get_by_label("Your answer", exact=True)
    box.fill(f"{SURE} {UNSURE}")
    box.press("Tab")
    app.wait()
    page.get_by_role("button", name="Read my answer").click()
    expect(page.get_by_text("Is that what you meant?")).to_be_visible(timeout=SHOWN)
    app.wait()
    use = page.get_by_role("button", name="Use this plan, then correct it")
    expect(use).to_be_disabled()  # an unsure reading is asked, never guessed
    app.screenshot("interview-words-1-asked")
    # Left out: a 12% reserve is this engine's plan that reaches the targets with no ship
    # call in the follow-up below (tests/test_interview_words.py says the same).
    page.get_by_text("No, leave it out (I will correct it)").click()
    app.wait()
    app.click_when_enabled(use)
    expect(page.get_by_text("Your spoken answer is now the plan")).to_be_visible(timeout=SHOWN)
    app.assert_no_exception()

    page.get_by_role("button", name="4. Follow-ups").click()
    app.wait()
    ship = page.locator("[class*='st-key-iv_futext_benchmarks_vs_product']")
    page.get_by_text("Or answer in words, as you would in the room").nth(2).click()
    ship.locator("textarea").fill(HOLD)
    ship.locator("textarea").press("Tab")
    app.wait()
    page.locator("[class*='st-key-iv_furead_benchmarks_vs_product'] button").click()
    expect(page.get_by_text("Which call is it?")).to_be_visible(timeout=SHOWN)
    app.wait()
    play = page.locator("[class*='st-key-iv_fuplay_benchmarks_vs_product'] button")
    expect(play).to_be_disabled()
    ask = page.locator("[class*='st-key-iv_fuask_benchmarks_vs_product_0']")
    ask.get_by_text(option_words("fix_data_and_retune")).click()
    app.wait()
    app.screenshot("interview-words-2-followup")
    app.click_when_enabled(play)
    expect(page.get_by_text(f"You chose {option_words('fix_data_and_retune')}")).to_be_visible(
        timeout=SHOWN
    )
    app.assert_no_exception()
    app.screenshot("interview-words-3-played")
