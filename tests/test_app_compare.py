"""The Compare and Sweep pages through Streamlit's AppTest: pick designs, run, stop and
resume, build a design, load one from a file, sensitivity, and a small sweep."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from sim.compare.sweep import combine, run_batch
from sim.designs import PRESETS_BY_KEY, DesignFile, design_yaml
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Scenario
from tests.apptest import open_page
from ui.common import NOBODY
from ui.compare import common as compare_common
from ui.compare import page as compare

ROOT = Path(__file__).resolve().parents[1]
BASE = load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")
REPS = 10


def ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def at() -> AppTest:
    page = open_page("ui/compare/page.py")
    page.number_input(key="compare_reps").set_value(REPS)
    return ok(page)


def default_designs() -> dict[str, object]:
    return {PRESETS_BY_KEY[k].title: PRESETS_BY_KEY[k].apply(BASE) for k in compare.DEFAULT_PICK}


def run(at: AppTest) -> AppTest:
    at.button(key="compare_run_button").click()
    return ok(at)


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_the_page_starts_with_two_presets_and_asks_to_run(at: AppTest) -> None:
    assert at.multiselect(key="compare_designs").value == list(default_designs())
    assert "Press **Run the comparison**" in at.info[0].value
    assert "Large siloed org" in markdown(at)  # the presets' rationale
    assert compare.RUN not in at.session_state


def test_a_comparison_shows_a_verdict_numbers_charts_and_downloads(at: AppTest) -> None:
    run(at)
    state = at.session_state[compare.RUN]
    assert state.complete and state.done == REPS
    text = markdown(at)
    assert "**B: Large siloed org, engineering apart** against **A: Small core" in text
    assert "- B meets all objectives in" in text and "95% interval" in text
    assert "**Best on all objectives met: A: Small core" in text or "**Best on" in text
    # The methods are named in a footnote with their links, not in the sentences.
    assert any("Methods: [Student's t interval](https://" in c.value for c in at.caption)
    assert not any("Tango" in line or "Holm" in line for line in text.splitlines())
    assert at.session_state["compare_running"] is False
    paired = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert set(paired["verdict"]) <= {"clear", "alike", "not yet known"}
    numbers = next(d.value for d in at.dataframe if "All objectives met" in d.value.index)
    assert list(numbers.columns) == list(default_designs())
    assert "All objectives met" in numbers.index
    assert len(at.get("plotly_chart")) >= 6
    assert {b.label for b in at.get("download_button")} >= {
        "Download the table (CSV)",
        "Download the summary (JSON)",
    }


def test_funding_every_plan_compares_the_same_run(at: AppTest) -> None:
    run(at)
    assert "Scope: B gave up scope" in markdown(at), "unfunded, the large org's plan is cut"
    at.toggle(key="compare_fund_plans").set_value(True)
    ok(at)
    assert "Press **Run the comparison**" in at.info[0].value, "funded designs are new designs"
    run(at)
    text = markdown(at)
    assert "- B meets all objectives in" in text and "Scope:" not in text
    frames = at.session_state[compare.RUN].frames()
    tokens = [f["tokens_b"].mean() for f in frames.values()]
    assert abs(tokens[1] / tokens[0] - 1.0) < 0.02


def test_a_stopped_run_keeps_its_replications_and_resumes(at: AppTest) -> None:
    designs = default_designs()
    first = run_batch(designs, 0, 0, 4)  # type: ignore[arg-type]
    at.session_state[compare.RUN] = compare_common.RunState(
        compare_common.signature(designs, 0),
        REPS,
        4,
        (first,),  # type: ignore[arg-type]
    )
    ok(at)
    assert "stopped after 4 of 10 replications" in at.warning[0].value
    # Four worlds are too few to compare: a refusal that says why, not a nan verdict.
    assert "4 worlds are too few for a comparison: at least 10" in at.warning[1].value
    assert "Verdict" not in [h.value for h in at.subheader]
    run(at)
    assert "Verdict" in [h.value for h in at.subheader]
    state = at.session_state[compare.RUN]
    assert state.done == REPS and not at.warning
    name = next(iter(designs))
    before = combine([first])[name]
    after = state.frames()[name].iloc[:4][list(before.columns)]
    pd.testing.assert_frame_equal(after, before)


def test_the_primary_metric_and_its_margin_shape_the_verdict(at: AppTest) -> None:
    at.selectbox(key="compare_primary").set_value("schedule_days")
    at.number_input(key="compare_margin_days").set_value(30.0)
    run(ok(at))
    text = markdown(at)
    assert "Best on schedule" in text
    assert "Primary metric: schedule" in " ".join(c.value for c in at.caption)
    # The smallest difference that matters is the user's 30 days, not the default day.
    assert "±30 days" in text


def test_run_until_known_adds_worlds_in_looks(at: AppTest) -> None:
    at.toggle(key="compare_precise").set_value(True)
    ok(at)
    at.number_input(key="compare_precision_probability").set_value(25.0)
    run(ok(at))
    state = at.session_state[compare.RUN]
    note = at.session_state[compare.SEQUENTIAL]
    assert state.done == note["worlds"] >= REPS and note["alpha"] < 0.05
    assert "Sequential run:" in note["text"] and "keep a 5% error rate" in note["text"]
    assert any("Sequential run:" in i.value for i in at.info)


def test_fewer_than_two_designs_cannot_run(at: AppTest) -> None:
    at.multiselect(key="compare_designs").set_value([compare.BASE_LABEL])
    ok(at)
    assert "Pick at least two designs" in at.info[0].value
    assert at.button(key="compare_run_button").disabled


def test_an_edited_design_is_redrawn_saved_and_compared(at: AppTest) -> None:
    index = BASE.team_ids.index("pretraining")
    at.number_input(key=f"compare_own_0_team{index}").set_value(9)
    ok(at)
    code = next(c.value for c in at.code if "TrainingRoom design" in c.value)
    assert "org.teams.pretraining.headcount: 9" in code
    assert at.get("graphviz_chart")
    at.multiselect(key="compare_designs").set_value([compare.BASE_LABEL, compare.OWN_LABEL])
    run(ok(at))
    assert "**B: Your design** against **A: Base scenario as it is**" in markdown(at)


def test_the_design_editor_changes_the_playbook(at: AppTest) -> None:
    at.multiselect(key="compare_own_0_playbook_rollback").set_value(["pause_investigate"])
    ok(at)
    code = next(c.value for c in at.code if "TrainingRoom design" in c.value)
    assert "levers.playbook.rollback:" in code and "pause_investigate" in code
    assert "levers.playbook.budget" not in code, "only the changed kind"


def test_a_design_file_is_loaded_onto_the_base(at: AppTest) -> None:
    text = design_yaml(DesignFile("Politics", "assistant_7b.yaml", {"org.politics_days": 2}))
    at.file_uploader(key="compare_design_upload").set_value(("mine.yaml", text.encode(), ""))
    ok(at)
    assert "File: Politics" in at.multiselect(key="compare_designs").options
    bad = b"changes: {levers.reserve_fraction: 0.9}\n"
    at.file_uploader(key="compare_design_upload").set_value(("bad.yaml", bad, ""))
    ok(at)
    assert any("levers.reserve_fraction" in e.value for e in at.error)


def test_sensitivity_runs_and_ranks_levers(at: AppTest) -> None:
    run(at)
    at.number_input(key="compare_tornado_reps").set_value(REPS)
    at.button(key="compare_tornado_run").click()
    ok(at)
    table = next(d.value for d in at.dataframe if "swing (high - low)" in d.value.columns)
    assert len(table) >= 10 and table["rank"].tolist() == list(range(1, len(table) + 1))
    assert {"95% interval", "clear", "chance in top 3"} <= set(table.columns)
    # Levers by their labels, settings and swings in their units: no path, no bare number.
    assert "Budget reserve" in set(table["lever"])
    assert not table["lever"].str.contains(r"[._]").any(), table["lever"]
    assert "0% → 25%" in set(table["low → high"])
    assert table["swing (high - low)"].str.fullmatch(r"[+-][\d,.]+ days").all(), table


def test_a_small_sweep_draws_a_heat_map_and_a_table() -> None:
    at = open_page("ui/compare/sweep.py")
    at.text_input(key="sweep_values_0_levers.reserve_fraction").set_value("0, 0.2")
    at.text_input(key="sweep_values_1_levers.ablation_fraction").set_value("0.05, 0.15")
    at.selectbox(key="sweep_axis_2").set_value("(no axis)")
    at.number_input(key="sweep_reps").set_value(REPS)
    ok(at)
    assert "4 grid points × 10 worlds" in at.caption[0].value
    at.button(key="sweep_run_button").click()
    ok(at)
    table = at.dataframe[0].value
    assert len(table) == 4 and "Chance all objectives met" in table
    assert {"Chance all objectives met, 95% low", "Schedule, mean, 95% low (days)",
            "Budget reserve", "Ablation budget"} <= set(table.columns)  # fmt: skip
    # No column is an identifier (schedule_days_mean, p_success, levers.reserve_fraction).
    assert not [c for c in table.columns if re.search(r"_|\.|^p_", c)], list(table.columns)
    assert set(table["Budget reserve"]) == {"0%", "20%"}
    assert at.get("plotly_chart")
    at.text_input(key="sweep_values_0_levers.reserve_fraction").set_value("0, 0.9")
    ok(at)
    assert any("reserve_fraction" in e.value for e in at.error)


def test_the_design_editor_applies_rights_risks_budget_and_playbook_edits() -> None:
    """Each widget's edit reaches the draft with its own kind and value, and only it."""
    at = ok(open_page("ui/compare/editor.py"))

    def draft() -> Scenario:
        return at.session_state["editor"]["draft"]

    def key(name: str) -> str:
        return f"editor_{at.session_state['editor']['version']}_{name}"

    at.selectbox(key=key("right_rollback")).set_value("infra")
    ok(at)
    assert draft().org.decision_rights["rollback"] == "infra"
    assert draft().org.decision_rights["schedule"] == "leadership", "only that right"
    at.selectbox(key=key("risk_hardware")).set_value(NOBODY)
    ok(at)
    assert draft().org.risk_owners.get("hardware") is None
    assert draft().org.risk_owners["safety"] == "safety_legal"
    at.number_input(key=key("b_compute_usd")).set_value(600_000.0)
    ok(at)
    assert draft().objective.budget.compute_usd == 600_000.0
    at.button(key=key("up_budget_cut_ablations")).click()
    ok(at)
    assert list(draft().levers.playbook["budget"])[:2] == ["cut_ablations", "use_reserve"]
    at.button(key=key("rm_ship_extra_round")).click()
    ok(at)
    assert list(draft().levers.playbook["ship"]) == ["ship"]
    assert list(draft().levers.playbook["budget"])[:2] == ["cut_ablations", "use_reserve"]
