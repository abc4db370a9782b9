"""The grade and the soundness shown beside the coverage score, in plain words: on the
command line's readable table and on the app's debrief, the same figures as the report."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from sim.cli import app as cli_app
from sim.interview.plan import plan_json
from sim.interview.rubric import judge
from tests import interview_plans as plans
from tests.apptest import open_page
from ui.interview import common


def _wrong() -> plans.InterviewPlan:
    """The weak plan saying two wrong things outright: no reserve, engineering kept apart."""
    w = plans.weak()
    return w.model_copy(update={
        "budget": w.budget.model_copy(update={"reserve_fraction": 0.0}),
        "levers": w.levers.model_copy(update={"engineering_embedded": False}),
    })  # fmt: skip


@pytest.mark.parametrize("make", [plans.strong, plans.weak, plans.filler, _wrong])
def test_the_table_shows_grade_and_soundness_beside_the_score(make, tmp_path) -> None:
    plan = make()
    report = judge(plan)
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(plan), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["rubric", str(path), "--reps", "0"],
                                env={"COLUMNS": "100"})  # fmt: skip
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert f"Rubric: score {report.score:.0%}, grade {report.grade:.2f}" in out
    for name, figure, _ in report.standing():
        assert any(name in line and figure in line for line in out.splitlines()), name
    n = report.stances
    if n["unsound"]:
        assert f"{n['unsound']} wrong" in out.replace("\n", " ")
        assert "Wrong:" in out  # each wrong claim named under its item


def test_standing_says_in_words_what_each_figure_is() -> None:
    weak, strong = judge(_wrong()), judge(plans.strong())
    assert weak.stances["unsound"] > 0 and strong.stances["unsound"] == 0
    (_, _, _), (_, ws, wsaid), (_, wg, _) = weak.standing()
    (_, _, _), (_, ss, _), (_, sg, _) = strong.standing()
    assert f"{weak.stances['unsound']} wrong" in wsaid
    assert float(sg) > float(wg)
    assert ss == "+100%" and ws.startswith(("-", "+"))
    nothing = judge(plans.InterviewPlan())
    assert nothing.standing()[1][1] == "none"


def test_the_debrief_shows_grade_and_soundness(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    at: AppTest = open_page("ui/interview/page.py")
    plan = _wrong().model_copy(update={"candidate": ""})
    at.file_uploader(key="iv_upload").set_value(("PLAN.json", plan_json(plan).encode(), "json"))
    at.run()
    at.button(key="iv_step_4").click().run()
    assert not at.exception, [e.value for e in at.exception]
    report = judge(common_plan(at), at.session_state[common.OUTCOME][1])
    shown = {m.label: m.value for m in at.metric}
    assert shown["Grade"] == f"{report.grade:.2f}"
    assert shown["Soundness"] == report.standing()[1][1]
    assert shown["Rubric score"] == f"{report.score:.0%}"
    words = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert f"{report.stances['unsound']} wrong" in words


def common_plan(at: AppTest):  # type: ignore[no-untyped-def]
    return at.session_state[common.PLAN]


def test_json_keeps_grade_and_soundness(tmp_path) -> None:
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(_wrong()), encoding="utf-8")
    args = ["rubric", str(path), "--json", "--reps", "0"]
    data = json.loads(CliRunner().invoke(cli_app, args).stdout)
    report = judge(_wrong())
    assert data["grade"] == pytest.approx(report.grade)
    assert data["soundness"] == pytest.approx(report.soundness)
