"""The Interview page's whole flow through Streamlit's AppTest: the question, Part 1, Part 2,
the design run, the three follow-ups, the rubric debrief, saving the session, and loading a
PLAN.json back (a bad one is an error on the page, never an exception)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from sim.cli import app as cli_app
from sim.interview.plan import InterviewPlan, plan_json, world_plan
from sim.interview.risks import DESIGN_REPS
from sim.interview.rubric import STATUS_LABEL, judge, model_compute_usd
from sim.scenario.spec import RISK_KINDS
from tests import interview_plans as plans
from tests.apptest import open_page
from ui.interview import common

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def at(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return open_page("ui/interview/page.py")


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def key(at: AppTest, name: str) -> str:
    """A widget's key under the page's current version (see ui.interview.common.wkey)."""
    version = at.session_state[common.VERSION] if common.VERSION in at.session_state else 0
    return f"iv_{version}_{name}"


def plan(at: AppTest) -> InterviewPlan:
    return at.session_state[common.PLAN]


def click(at: AppTest, button_key: str) -> AppTest:
    at.button(key=button_key).click().run()
    return ok(at)


def answer_part1(at: AppTest) -> None:
    picks = {
        "data": ["Noisy, duplicated or low-quality web data"],
        "sizing": ["Tokenizer or configuration mistakes baked in before the run"],
        "cluster": ["GPU and node failures interrupting the run"],
        "stability": ["Loss spikes and divergence mid-run"],
        "post_training": ["Post-training tuned toward the wrong target"],
        "evaluation": ["Public benchmarks look better than the product really is"],
        "safety_legal": ["Release-blocking safety findings", "Privacy review of chat logs"],
    }
    for stage, titles in picks.items():
        at.multiselect(key=key(at, f"p1_{stage}")).set_value(titles).run()
        ok(at)
    for box in at.text_input:
        if box.key and box.key.startswith(key(at, "what_")):
            box.set_value("weeks late and the compute bill doubled")
    signals = {"data": "ablations", "sizing": "ablations", "cluster": "training",
               "stability": "training", "post_training": "prepare", "evaluation": "prepare",
               "safety_legal": "prepare"}  # fmt: skip
    for box in at.selectbox:
        if box.key and box.key.startswith(key(at, "signal_")):
            box.set_value(
                signals[next(s for s in signals if box.key.startswith(key(at, f"signal_{s}")))]
            )
    at.text_area(key=key(at, "late_discovery")).set_value(
        "A defect found after weeks of training throws that compute away and the run must be "
        "continued or repeated, while an ablation finds it in days."
    )
    at.run()
    ok(at)


def test_the_question_shapes_the_world(at: AppTest) -> None:
    assert any("Clarifying questions" in m.value for m in at.markdown)
    at.radio(key=key(at, "clar_budget")).set_value("flexible").run()
    ok(at)
    assert plan(at).clarifications["budget"] == "flexible"
    deadline = next(m for m in at.metric if m.label == "Deadline")
    assert deadline.value == "210 days"
    click(at, "iv_start_clock")
    assert any("min left" in m.value for m in at.markdown)


def test_part1_prices_each_challenge_and_keeps_the_answer(at: AppTest) -> None:
    click(at, "iv_step_1")
    answer_part1(at)
    p = plan(at)
    assert len(p.challenges) == 8
    own = next(c for c in p.challenges if c.title == "Privacy review of chat logs")
    assert own.stage == "safety_legal" and own.risk is None
    assert all(c.hits == ["schedule", "cost"] for c in p.challenges)  # read from the words
    assert {c.earliest_signal for c in p.challenges} == {"ablations", "training", "prepare"}
    assert sum("The model**, when" in m.value for m in at.markdown) == 7
    # Leaving the step and coming back keeps every answer.
    click(at, "iv_step_0")
    click(at, "iv_step_1")
    assert plan(at).challenges == p.challenges


def test_a_whole_session_to_the_debrief_and_past_sessions(at: AppTest) -> None:
    at.text_input(key=key(at, "candidate")).set_value("ada").run()
    click(at, "iv_next")
    answer_part1(at)
    click(at, "iv_next")
    click(at, "iv_fill")
    assert plan(at).owner("licensing") == "safety_legal"
    assert "owners" in plan(at).scenario_filled
    for risk in RISK_KINDS:
        at.text_input(key=key(at, f"warn_{risk}")).set_value("a daily dashboard signal")
    at.number_input(key=key(at, "budget_compute_usd")).set_value(700_000)
    for field in ("people_usd", "data_licensing_usd", "annotation_usd"):
        at.number_input(key=key(at, f"budget_{field}")).set_value(300_000)
    at.text_input(key=key(at, "tracking")).set_value("weekly burn against the forecast")
    # Keep the scenario's rights, with a reason; change the budget playbook's order.
    at.text_input(key=key(at, "confirm_rights")).set_value(
        "run calls sit with the core training team, money and dates with leadership"
    )
    at.selectbox(key=key(at, "pb_budget_0")).set_value("cut_ablations")
    at.selectbox(key=key(at, "pb_budget_1")).set_value("use_reserve")
    at.run()
    ok(at)
    assert plan(at).budget.compute_usd == 700_000
    assert plan(at).responses("budget")[:2] == ["cut_ablations", "use_reserve"]
    assert "rights" in plan(at).confirmed
    assert any("Your plan at a glance" in m.value for m in at.markdown)
    click(at, "iv_run_design")
    assert at.session_state[common.OUTCOME][0] == common.plan_digest(plan(at))

    click(at, "iv_next")
    for fid in ("loss_spike", "budget_cut", "benchmarks_vs_product"):
        click(at, f"iv_play_{fid}")
        decided = 0
        while keys := [b.key for b in at.button if b.key and b.key.startswith(f"iv_decide_{fid}_")]:
            click(at, keys[0])
            decided += 1
        assert decided >= 1
        done = plan(at).followup(fid)
        assert done is not None and len(done.mine) == decided
    assert plan(at).followup("loss_spike").mine[0].choice == "rollback_skip"

    click(at, "iv_next")
    labels = {m.label: m.value for m in at.metric}
    assert labels["Rubric score"].endswith("%")
    titles = " ".join(e.label for e in at.expander)
    assert "Every risk has an owner and an early warning" in titles
    assert "How the design plays out" in titles
    text = " ".join(m.value for m in at.markdown)
    assert "Model answer for this project" not in text  # not before the attempt is handed in
    rights = next(e for e in at.expander if "Clear decision rights" in e.label)
    assert "Rights you named: rollback" in " ".join(m.value for m in rights.markdown)
    click(at, "iv_hand_in")
    assert plan(at).judged_at is not None
    text = " ".join(m.value for m in at.markdown)
    assert "Model answer for this project" in text and "6 × N × D" in text
    click(at, "iv_save")
    assert any("Saved as session 1" in s.value for s in at.success)
    assert any("Past sessions of ada" in m.value for m in at.markdown)
    # A handed-in attempt is read only.
    click(at, "iv_step_2")
    assert any("read only" in i.value for i in at.info)
    click(at, "iv_new_attempt_locked")
    assert plan(at) == InterviewPlan(candidate="ada")
    assert any("Clarifying questions" in m.value for m in at.markdown)


SPOKEN = (ROOT / "tests" / "data" / "spoken_answer.txt").read_text(encoding="utf-8")


def test_a_spoken_answer_is_read_shown_and_becomes_the_plan(at: AppTest) -> None:
    at.radio(key=key(at, "mode")).set_value("prose").run()
    ok(at)
    at.text_area(key=key(at, "prose")).set_value(SPOKEN).run()
    click(at, "iv_read_prose")
    read = at.dataframe[0].value
    assert {"read as", "value", "from the sentence"} <= set(read.columns)
    assert "playbook: budget" in set(read["read as"])
    # The tool's own labels are words, never identifiers ("owner of data quality").
    assert "owner of data quality" in set(read["read as"])
    owners = read[read["read as"] == "owner of data quality"]
    assert set(owners["value"]) <= {"the data team", "the data team with an early warning"}
    shown = (
        " ".join(read["read as"])
        + " "
        + " ".join(
            v for v, s in zip(read["value"], read["from the sentence"], strict=True) if v not in s
        )
    )
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", shown), shown
    # What was not read is listed, for the candidate to add before judging.
    missing = next(e for e in at.expander if e.label.startswith("Not found in your answer"))
    assert "Add them in Part 1 and Part 2" in " ".join(m.value for m in missing.markdown)
    click(at, "iv_use_prose")
    p = plan(at)
    assert p.prose == SPOKEN and p.owner("data_quality") == "data"
    assert p.responses("budget") == ["use_reserve", "cut_ablations", "fewer_post_training_rounds"]
    assert at.session_state[common.STEP] == 1  # on to Part 1 to correct it
    assert at.text_input(key=key(at, f"what_data_{common.short_hash(p.challenges[0].title)}"))


def test_a_saved_plan_loads_back_and_a_bad_one_is_an_error(at: AppTest) -> None:
    saved = world_plan(InterviewPlan(candidate="bob"))
    at.file_uploader(key="iv_upload").set_value(("PLAN.json", plan_json(saved).encode(), "json"))
    at.run()
    ok(at)
    assert plan(at).candidate == "bob"
    assert plan(at).owner("hardware") == "infra"
    assert at.text_input(key=key(at, "candidate")).value == "bob"
    bad = b'{"risks": {\n  "hardware": {"owner": "wizards"}\n}}'
    at.file_uploader(key="iv_upload").set_value(("BAD.json", bad, "json"))
    at.run()
    ok(at)
    errors = [e.value for e in at.error]
    assert "BAD.json:2: risks.hardware.owner: unknown team 'wizards'" in errors
    assert plan(at).candidate == "bob"  # the good plan is kept


def test_a_database_that_does_not_answer_leaves_the_practice_working(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://trainer:s3cret@127.0.0.1:1/nowhere")
    at = ok(open_page("ui/interview/page.py"))
    warning = " ".join(w.value for w in at.warning)
    assert "Saved sessions are unavailable" in warning and "s3cret" not in warning
    assert at.button(key="iv_step_1"), "the practice goes on"


def test_a_driver_error_with_no_message_is_named_not_a_crash(monkeypatch) -> None:
    from sqlalchemy.exc import OperationalError, SQLAlchemyError

    from ui.interview import page

    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://trainer:s3cret@127.0.0.1:1/nowhere")
    refused = OperationalError("SELECT 1", {}, ConnectionRefusedError("refused here\nDETAIL: x"))
    assert page.store_problem(refused).endswith("(refused here).")
    # The driver's own error had no words: its class names it (this once raised IndexError).
    assert page.store_problem(OperationalError("SELECT 1", {}, TimeoutError(""))).endswith(
        "(TimeoutError)."
    )
    problem = page.store_problem(SQLAlchemyError("pool exhausted"))
    assert "(pool exhausted)" in problem and "s3cret" not in problem


def test_a_clarification_with_no_pick_falls_back_to_the_plans_answer() -> None:
    from ui.interview import page

    q = page.CLARIFICATIONS[0]
    first, second = q.options[0], q.options[1]
    assert page.clarification_answer(q, second.id, first.id) == second
    assert page.clarification_answer(q, None, second.id) == second  # a radio gave None
    assert page.clarification_answer(q, None, "withdrawn") == first
    assert page.option_label(q, second.id) == second.label


def test_a_forged_file_loads_replayed_and_the_app_and_command_line_agree(
    at: AppTest, tmp_path
) -> None:
    """Same file, same worlds, same verdicts: the app's debrief and ``sim rubric --json``,
    item by item (verdict and evidence). The file's follow-up results are forged and it
    says it was handed in: the app replays the results, and shows neither the model's
    compute figure nor its model answers until the attempt is handed in there."""
    honest = plans.strong().model_copy(update={"candidate": ""})
    doc = json.loads(plan_json(honest))
    for record in doc["followups"]:
        record.update(success=True, quality=0.99, seed=9)
        record["alternatives"] = []
    doc["judged_at"] = "2026-01-01T09:00:00+00:00"
    honest = honest.model_copy(update={"judged_at": doc["judged_at"]})
    at.file_uploader(key="iv_upload").set_value(("PLAN.json", json.dumps(doc).encode(), "json"))
    at.run()
    ok(at)
    assert plan(at).followups == honest.followups  # replayed from the calls on load
    assert any("replayed from your calls" in s.value for s in at.success)
    click(at, "iv_step_4")
    app_outcome = at.session_state[common.OUTCOME][1]
    shown = next(m.value for m in at.metric if m.label == "Rubric score")
    path = tmp_path / "PLAN.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["rubric", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert shown == f"{data['score']:.0%}"
    app_report = judge(honest, app_outcome)
    for cli_item in data["items"]:
        app_item = app_report.item(cli_item["id"])
        assert (cli_item["status"], tuple(cli_item["evidence"])) == (
            app_item.status, app_item.evidence), cli_item["id"]  # fmt: skip
        shown_label = next(e.label for e in at.expander if f"**{app_item.title}**" in e.label)
        assert shown_label.endswith(STATUS_LABEL[cli_item["status"]]), shown_label
    assert data["grade"] == pytest.approx(app_report.grade)
    for name, summary in data["outcome"].items():
        assert summary["p_success"] == app_outcome[name]["p_success"]
        assert summary["reps"] == app_outcome[name]["reps"] == DESIGN_REPS
    # The figures wait for a hand-in here: a handed-in stamp in the file shows nothing.
    figure = f"${model_compute_usd(honest):,.0f}"
    text = " ".join(m.value for m in at.markdown)
    assert figure not in text and "Model answer for this project" not in text
    assert figure not in result.stdout and "model_compute_usd" not in data
    click(at, "iv_hand_in")
    text = " ".join(m.value for m in at.markdown)
    assert "Model answer for this project" in text and figure in text
