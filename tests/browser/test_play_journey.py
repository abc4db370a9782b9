"""The main journey through the Play page in Chromium: pick the loss-spike scenario, decide,
play to the end, read the debrief, download the play, and load it back."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from sim.play.game import Game, PlayLog
from sim.scenario.vocabulary import option_words
from tests.browser.conftest import SHOWN

ROOT = Path(__file__).resolve().parents[2]
LOSS_SPIKE = ROOT / "scenarios" / "followup_loss_spike.yaml"


def test_play_the_loss_spike_scenario_to_the_debrief(app, tmp_path) -> None:
    assert LOSS_SPIKE.exists(), "the loss-spike follow-up scenario should ship"
    page = app.page
    app.open()
    app.go_to("Play")
    app.assert_no_exception()
    expect(page.get_by_role("button", name="Start the project")).to_be_visible()

    page.get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name=LOSS_SPIKE.name, exact=True).click()
    app.wait()
    expect(page.get_by_test_id("stGraphVizChart")).to_have_count(1, timeout=SHOWN)
    estimate = page.get_by_role("table").filter(has_text="all objectives met")
    expect(estimate).to_be_visible()  # the live estimate beside the levers
    app.assert_no_exception()
    app.screenshot("play-1-setup")

    page.get_by_role("button", name="Start the project").click()
    app.wait()
    app.assert_no_exception()
    decisions = page.locator("[class*='st-key-play_decide_']")
    expect(decisions.first).to_be_visible(timeout=SHOWN)
    app.wait()
    expect(page.get_by_text("You decide as")).to_be_visible()
    expect(page.get_by_test_id("stPlotlyChart").first).to_be_visible()
    app.screenshot("play-2-decision")

    chosen = decisions.first.inner_text().strip()
    decisions.first.get_by_role("button").click()
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_text(re.compile(r"You chose .+ on day \d+"))).to_be_visible(timeout=SHOWN)

    page.get_by_role("button", name="Play to the end").click()
    debrief = page.get_by_role("heading", name="Debrief: what each decision cost")
    expect(debrief).to_be_visible(timeout=SHOWN)
    expect(page.get_by_text("Debrief ready")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_text("The decision that mattered most")).to_be_visible()
    expect(page.get_by_role("heading", name="What this play shows")).to_be_visible()
    expect(page.get_by_test_id("stPlotlyChart").nth(4)).to_be_visible(timeout=SHOWN)  # five charts
    finished = page.get_by_test_id("stMetricValue").first.inner_text()
    app.screenshot("play-3-outcome-debrief")

    with page.expect_download() as download:
        page.get_by_role("button", name="Download the play (JSON)").click()
    saved = tmp_path / "play.json"
    download.value.save_as(saved)
    log = PlayLog.from_json(saved.read_text(encoding="utf-8"), saved.name)
    assert option_words(log.decisions[0]["choice"]) == chosen, "the decision clicked"
    replayed = Game.from_log(log).play_to_end()
    assert finished == f"day {replayed['schedule_days']:.0f}"

    page.get_by_role("button", name="Start a new play").click()
    expect(page.get_by_text("Have a saved play?")).to_be_visible(timeout=SHOWN)
    app.wait()
    page.get_by_text("Have a saved play?").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(saved))
    expect(page.get_by_text(f"Loaded {saved.name}")).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_test_id("stMetricValue").first).to_have_text(finished)


def test_a_bad_play_file_shows_an_error(app, tmp_path) -> None:
    bad = tmp_path / "not-a-play.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    page = app.page
    app.open("play")
    page.get_by_text("Have a saved play?").click()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(bad))
    error = page.get_by_test_id("stAlertContentError").filter(has_text="not-a-play.json")
    expect(error).to_be_visible(timeout=SHOWN)
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_role("button", name="Start the project")).to_be_visible()
    app.screenshot("play-4-bad-play-file")
