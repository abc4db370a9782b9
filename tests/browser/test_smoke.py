"""Smoke journey through the real app in Chromium: Home, then the Scenario page."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from sim.engine.org import OrgGraph
from sim.scenario.loading import load_scenario
from tests.browser.conftest import SHOWN

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = "scenarios/assistant_7b.yaml"


def test_home_page_introduces_the_app(app) -> None:
    app.open()
    page = app.page
    app.assert_no_exception()
    expect(page.get_by_role("heading", name="TrainingRoom", exact=True)).to_be_visible()
    for use in ("Interview practice", "Leadership tabletop exercises", "Team-design comparisons"):
        expect(page.get_by_text(use).first).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Scenario")
    app.screenshot("home")


def test_scenario_page_shows_objective_org_graph_and_compute(app) -> None:
    scenario = load_scenario(ROOT / SHIPPED)
    app.open()
    app.go_to("Scenario")
    page = app.page
    page.get_by_test_id("stSelectbox").click()
    page.get_by_role("option", name=Path(SHIPPED).name, exact=True).click()
    app.wait()
    app.assert_no_exception()
    expect(page.get_by_text(f"{SHIPPED} is valid.")).to_be_visible()
    expect(page.get_by_role("heading", name=scenario.name)).to_be_visible()

    labels = page.get_by_test_id("stMetricLabel")
    values = page.get_by_test_id("stMetricValue")
    for label in ("Deadline", "Total budget", "Budget: Compute", "Training compute",
                  "Expected wall time", "Compute cost", "Predicted loss"):  # fmt: skip
        expect(labels.filter(has_text=label).first).to_be_visible()
    deadline = f"{scenario.objective.deadline_days:g} days"
    expect(values.filter(has_text=deadline).first).to_be_visible()
    expect(values.filter(has_text="FLOP")).to_have_count(1)
    assert values.count() >= 15

    chart = page.get_by_test_id("stGraphVizChart")
    expect(chart).to_have_count(1)
    expect(chart.locator("svg")).to_be_visible()
    unowned_note = 1 if OrgGraph(scenario).unowned_risks() else 0
    expect(chart.locator("svg g.node")).to_have_count(len(scenario.org.teams) + unowned_note)
    app.assert_no_exception()
    app.screenshot("scenario")


def test_invalid_upload_lists_problems_without_an_exception(app, tmp_path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: broken\nobjective:\n  deadline_days: -3\n", encoding="utf-8")
    app.open("scenario")
    page = app.page
    page.get_by_text("Upload a YAML file").click()
    app.wait()
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(bad))
    expect(page.get_by_text("problems:", exact=False)).to_be_visible(timeout=SHOWN)
    app.wait()
    errors = page.get_by_test_id("stAlertContentError")
    expect(errors.filter(has_text="broken.yaml:3: objective.deadline_days:")).to_have_count(1)
    assert errors.count() >= 2
    expect(page.get_by_test_id("stGraphVizChart")).to_have_count(0)
    app.assert_no_exception()
    app.screenshot("scenario-invalid-upload")
