"""Build a design in Chromium (add a team, move a right), save it, load it back; then run a
short design search and read its result."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from sim.designs import load_design
from sim.scenario.loading import load_scenario
from tests.browser.conftest import SHOWN


def test_build_save_load_a_design_then_search(app, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page = app.page
    app.open("design")
    app.assert_no_exception()
    expect(page.get_by_role("heading", name="Design editor")).to_be_visible()

    form = page.get_by_test_id("stForm").filter(has_text="Add a team")
    form.get_by_label("id (lower case, e.g. red_team)").fill("red_team")
    form.get_by_label("name").fill("Red team")
    form.get_by_role("button", name="Add team").click()
    app.wait()
    expect(page.get_by_text("teams: added red team")).to_be_visible(timeout=SHOWN)

    page.get_by_role("tab", name="Rights and risks").click()
    ship = page.get_by_test_id("stSelectbox").filter(has=page.get_by_text("ship", exact=True))
    ship.click()
    page.get_by_role("option", name="red_team", exact=True).click()
    app.wait()
    expect(page.get_by_text("who decides ship: product → red team")).to_be_visible()
    app.assert_no_exception()
    app.screenshot("design-1-edited")

    # A bad id is refused in words, at the form.
    page.get_by_role("tab", name="Teams").click()
    form = page.get_by_test_id("stForm").filter(has_text="Add a team")
    form.get_by_label("id (lower case, e.g. red_team)").fill("Bad Id")
    form.get_by_role("button", name="Add team").click()
    app.wait()
    expect(page.get_by_text("'Bad Id' is not an id")).to_be_visible()
    app.screenshot("design-2-problem-in-words")

    with page.expect_download() as download:
        page.get_by_role("button", name="Save this design (YAML)").click()
    saved = tmp_path / "design.yaml"
    download.value.save_as(saved)
    design = load_design(saved.read_text(encoding="utf-8"), str(saved))
    built = design.apply(load_scenario("scenarios/assistant_7b.yaml"), str(saved))
    assert "red_team" in built.team_ids and built.org.decision_rights["ship"] == "red_team"

    page.get_by_role("button", name="Start over from the base").click()
    app.wait()
    expect(page.get_by_text("No changes yet.")).to_be_visible()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(saved))
    app.wait()
    expect(page.get_by_text("teams: added red team")).to_be_visible(timeout=SHOWN)
    expect(page.get_by_text("who decides ship: product → red team")).to_be_visible()
    app.assert_no_exception()
    app.screenshot("design-3-loaded-back")

    app.open("optimize")
    app.assert_no_exception()
    trials = page.get_by_role("spinbutton", name="Trials", exact=True)
    trials.fill("8")
    trials.press("Enter")
    app.wait()
    page.get_by_role("button", name="Run the search").click()
    expect(page.get_by_text("8 trials:")).to_be_visible(timeout=4 * SHOWN)
    app.wait()
    app.assert_no_exception()
    # Either a recommendation with its on/off importance, or the one honest line.
    expect(
        page.get_by_role("heading", name="Which changes mattered")
        .or_(page.get_by_text("No design did as well as the baseline"))
        .or_(page.get_by_text("pays on fresh worlds: the baseline stays"))
        .or_(page.get_by_text("not clearly better than the baseline"))
        .first
    ).to_be_visible()
    app.screenshot("design-4-search")
