"""Answers in words, confirmed before they are judged (issue 25, points 2 and 3).

The follow-ups answered in prose are read as the candidate's calls and played on their
design exactly as the form's buttons play them, so their items count; every reading shows
its sentence, an unsure one is asked and never guessed, and only what the candidate
confirms enters the plan. On the page (Streamlit's AppTest) and in ``sim``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from sim.cli import app as cli_app
from sim.interview.plan import InterviewPlan, plan_json
from sim.interview.prose import read_answer
from sim.interview.prose_followups import answer_in_words, play_read_followup, read_followup
from sim.interview.replays import play_calls
from sim.interview.rubric import judge
from tests import interview_plans as plans
from tests.apptest import open_page
from ui.interview import common

ROOT = Path(__file__).resolve().parents[1]
SPOKEN_FOLLOWUPS = {
    "loss_spike": "We roll back to the last good checkpoint and skip the bad batches; the "
    "training lead makes that call within hours.",
    "budget_cut": "First we use the reserve, then cut ablations, then run fewer "
    "post-training rounds, as agreed.",
    "benchmarks_vs_product": "The product eval gap is within the eval's noise and waiting "
    "costs weeks for almost no quality, so we ship and state the gap.",
}
UNSURE = "We keep a reserve, and 12% is right."
SURE = "The data team owns data quality and watches dedup rates."
FOLLOW = ("followup_spike", "followup_budget", "followup_ship")


def _answered(plan: InterviewPlan) -> InterviewPlan:
    for fid, text in SPOKEN_FOLLOWUPS.items():
        read = read_followup(fid, text)
        played = play_read_followup(plan, fid, read.calls, text)
        assert played is not None, fid
        plan = plan.with_followup(played)
    return plan


@pytest.fixture(scope="module")
def design() -> InterviewPlan:
    return plans.strong().model_copy(update={"followups": []})


def test_followups_in_words_score_like_the_forms(design) -> None:
    """The same calls said in words and pressed on the buttons: the same record, verdicts."""
    spoken = _answered(design)
    for f in spoken.followups:
        pressed = play_calls(design, f.id, tuple(d.choice for d in f.mine), f.rationale)
        assert pressed is not None and pressed == f, f.id
    report = judge(spoken)
    assert all(report.item(i).status != "not_played" for i in FOLLOW)
    assert report.score > 0.79 and report.score > judge(design).score + 0.15
    assert report.grade > judge(design).grade


def test_a_spoken_answer_with_spoken_followups_scores_more() -> None:
    text = (ROOT / "tests" / "data" / "spoken_answer.txt").read_text(encoding="utf-8")
    plan = read_answer(text).plan
    before, after = judge(plan), judge(_answered(plan))
    assert all(before.item(i).status == "not_played" for i in FOLLOW)
    assert sum(after.item(i).status == "met" for i in FOLLOW) >= 2
    assert after.score > before.score + 0.1


def test_an_unsure_reading_enters_the_plan_only_when_confirmed() -> None:
    read = read_answer(f"{SURE} {UNSURE}")
    [asked] = read.unsure
    assert asked.key == "reserve=0.12" and asked.sentence == UNSURE
    assert "reserve_fraction" not in read.plan.budget.model_fields_set  # never guessed
    confirmed = read_answer(f"{SURE} {UNSURE}", confirmed=[asked.key])
    assert confirmed.plan.budget.reserve_fraction == pytest.approx(0.12)
    assert not confirmed.unsure
    assert confirmed.plan.owner("data_quality") == read.plan.owner("data_quality") == "data"
    # Confirming a key the reader never read adds nothing.
    assert read_answer(UNSURE, confirmed=["reserve=0.3"]).plan.budget.reserve_fraction == 0.0


# --- the page ---------------------------------------------------------------------------


@pytest.fixture
def at(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return open_page("ui/interview/page.py")


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def _key(at: AppTest, name: str) -> str:
    version = at.session_state[common.VERSION] if common.VERSION in at.session_state else 0
    return f"iv_{version}_{name}"


@pytest.mark.parametrize("confirm", [True, False])
def test_the_page_asks_before_it_judges(at: AppTest, confirm: bool) -> None:
    at.radio(key=_key(at, "mode")).set_value("prose").run()
    at.text_area(key=_key(at, "prose")).set_value(f"{SURE} {UNSURE}").run()
    at.button(key="iv_read_prose").click().run()
    _ok(at)
    table = at.dataframe[0].value
    assert set(table["from the sentence"]) == {SURE, UNSURE}  # every reading, its sentence
    assert "asks you" in set(table["reading"])
    assert at.button(key="iv_use_prose").disabled  # nothing is judged while one is open
    ask = at.radio(key=_key(at, "prose_ask_0"))
    assert UNSURE in ask.label and ask.value is None  # asked, not guessed
    ask.set_value(ask.options[0 if confirm else 1]).run()
    assert not at.button(key="iv_use_prose").disabled
    at.button(key="iv_use_prose").click().run()
    _ok(at)
    plan = at.session_state[common.PLAN]
    assert plan.owner("data_quality") == "data"
    if confirm:
        assert plan.budget.reserve_fraction == pytest.approx(0.12)
    else:
        assert "reserve_fraction" not in plan.budget.model_fields_set


def test_a_followup_answered_in_words_on_the_page(at: AppTest, design) -> None:
    at.file_uploader(key="iv_upload").set_value(
        ("PLAN.json", plan_json(design.model_copy(update={"candidate": ""})).encode(), "json")
    )
    at.run()
    at.button(key="iv_step_3").click().run()
    _ok(at)
    text = "No, I would hold the release for now."
    at.text_area(key="iv_futext_benchmarks_vs_product").set_value(text).run()
    at.button(key="iv_furead_benchmarks_vs_product").click().run()
    _ok(at)
    assert at.button(key="iv_fuplay_benchmarks_vs_product").disabled  # unsure: asked first
    ask = at.radio(key="iv_fuask_benchmarks_vs_product_0")
    assert text in ask.label and ask.value is None
    ask.set_value("fix_data_and_retune").run()  # corrected, not just confirmed
    at.button(key="iv_fuplay_benchmarks_vs_product").click().run()
    _ok(at)
    f = at.session_state[common.PLAN].followup("benchmarks_vs_product")
    assert f is not None and [d.choice for d in f.mine] == ["fix_data_and_retune"]
    assert f == play_calls(design, "benchmarks_vs_product", ("fix_data_and_retune",), text)
    assert f.rationale == text


# --- the command line -------------------------------------------------------------------

HOLD = "No, I would hold the release for now."


def _cli(*args: str) -> Any:
    result = CliRunner().invoke(cli_app, ["rubric", *args, "--reps", "0"], env={"COLUMNS": "100"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def words(tmp_path) -> tuple[Path, Path]:
    answer, ship = tmp_path / "answer.txt", tmp_path / "ship.txt"
    answer.write_text(f"{SURE} {UNSURE}\n", encoding="utf-8")
    ship.write_text(HOLD + "\n", encoding="utf-8")
    return answer, ship


def test_the_command_line_leaves_unsure_readings_out_and_says_so(words) -> None:
    answer, ship = words
    args = (str(answer), "--prose", "--followup", f"benchmarks_vs_product={ship}")
    out = _cli(*args)
    assert out.exit_code == 0, out.stderr
    assert "unsure: left out" in out.stdout and "--confirm" in out.stdout
    data = json.loads(_cli(*args, "--json").stdout)
    assert set(data["asked"]) == {"reserve=0.12", "call:benchmarks_vs_product=extra_round"}
    assert data["followups"] == []  # an unsure call is never played unasked
    sentences = {r["key"]: r["sentence"] for r in data["readings"]}
    assert (
        sentences["reserve=0.12"] == UNSURE
        and sentences["call:benchmarks_vs_product=extra_round"] == HOLD
    )  # each reading beside its sentence
    expected = answer_in_words(answer.read_text(), {"benchmarks_vs_product": HOLD})
    assert data["score"] == pytest.approx(judge(expected.plan).score)


def test_the_command_line_takes_confirmed_readings_by_flag_or_file(words, tmp_path) -> None:
    answer, ship = words
    keys = tmp_path / "confirmed.txt"
    keys.write_text(
        "# what I meant\nreserve=0.12\ncall:benchmarks_vs_product=fix_data_and_retune\n"
    )
    base = (str(answer), "--prose", "--followup", f"benchmarks_vs_product={ship}", "--json")
    by_flag = json.loads(_cli(*base, "--confirm", "reserve=0.12", "--confirm",
                              "call:benchmarks_vs_product=fix_data_and_retune").stdout)  # fmt: skip
    by_file = json.loads(_cli(*base, "--confirmed", str(keys)).stdout)
    assert by_flag["items"] == by_file["items"] and by_flag["asked"] == by_file["asked"] == []
    status = {r["key"]: r["status"] for r in by_file["readings"]}
    assert status["reserve=0.12"] == "confirmed"
    assert status["call:benchmarks_vs_product=extra_round"] == "corrected"
    # The confirmed call is the candidate's when its decision comes. With the 12% reserve
    # this engine's follow-up world reaches the targets without a ship call, so the call
    # is checked with the reserve left unsaid (the scenario's 10%: the call comes).
    assert by_file["followups"]
    call_only = json.loads(
        _cli(*base, "--confirm", "call:benchmarks_vs_product=fix_data_and_retune").stdout
    )
    [ship_call] = call_only["followups"]
    mine = [d["choice"] for d in ship_call["decisions"] if d["by"] == "candidate"]
    assert mine == ["fix_data_and_retune"]
    budget = next(i for i in by_file["items"] if i["id"] == "budget")
    assert any(c["name"] == "reserve" for c in budget["claims"])  # now a claim, judged


@pytest.mark.parametrize(
    "args",
    [("--followup", "loss_spike=x.txt"), ("--prose", "--followup", "nothing=x.txt"),
     ("--prose", "--followup", "loss_spike"), ("--prose", "--confirmed", "missing.txt")],
)  # fmt: skip
def test_bad_words_options_exit_2_with_a_message(words, args) -> None:
    out = _cli(str(words[0]), *args)
    assert out.exit_code == 2 and out.stderr.strip() and "Traceback" not in out.output


def test_a_prose_plan_judges_the_same_on_the_page_and_from_its_file(at: AppTest, tmp_path) -> None:
    """The plan read from words, downloaded as PLAN.json and judged by ``sim rubric``: the
    same score and grade as the page's debrief (what it never said stays unsaid in the file)."""
    text = (ROOT / "tests" / "data" / "spoken_answer.txt").read_text(encoding="utf-8")
    at.radio(key=_key(at, "mode")).set_value("prose").run()
    at.text_area(key=_key(at, "prose")).set_value(text).run()
    at.button(key="iv_read_prose").click().run()
    at.button(key="iv_use_prose").click().run()
    at.button(key="iv_step_4").click().run()
    _ok(at)
    shown = {m.label: m.value for m in at.metric}
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(at.session_state[common.PLAN]), encoding="utf-8")
    data = json.loads(CliRunner().invoke(cli_app, ["rubric", str(path), "--json"]).stdout)
    assert shown["Rubric score"] == f"{data['score']:.0%}"
    assert shown["Grade"] == f"{data['grade']:.2f}"
    page = judge(at.session_state[common.PLAN], at.session_state[common.OUTCOME][1])
    assert data["grade"] == pytest.approx(page.grade)
    assert data["soundness"] == pytest.approx(page.soundness)  # no unsaid lever turned wrong


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Reserve and ablations at 10% and 5%.", {"reserve=0.1", "ablation=0.05"}),
        ("We set aside 12% and 6% for the reserve and the ablations respectively.",
         {"reserve=0.12", "ablation=0.06"}),
        ("Ablations and reserve will be 7% and 15%, and we plan at 40% MFU.",
         {"ablation=0.07", "reserve=0.15"}),
    ],
)  # fmt: skip
def test_two_nouns_and_two_numbers_bind_in_order(text: str, want: set[str]) -> None:
    """A respectively list binds the numbers to the nouns in the order said, surely."""
    read = read_answer(text)
    sure = {r.key for r in read.readings if not r.unsure}
    assert sure == want


def test_a_list_the_reader_cannot_pair_is_asked_not_guessed() -> None:
    """Three numbers beside two nouns cannot be paired: no sure share is read. ("5% and 10%
    toward ablations and the reserve" was asked until 2026-12-05; "toward" now joins a list
    to its numbers as "for" does, and "the ablation budget and the reserve are 6% and 12%"
    reads the head noun "budget" as part of its phrase.)"""
    read = read_answer("so we would put 5% and 10% and 3% toward ablations and the reserve")
    assert not [r for r in read.readings if not r.unsure and r.key.split("=")[0]
                in ("reserve", "ablation")]  # fmt: skip
    paired = read_answer("so we would put 5% and 10% toward ablations and the reserve")
    assert {r.key for r in paired.readings if not r.unsure} == {"ablation=0.05", "reserve=0.1"}
    headed = read_answer("The ablation budget and the reserve are 6% and 12% respectively.")
    assert {r.key for r in headed.readings if not r.unsure} == {"ablation=0.06", "reserve=0.12"}


HARD_TEXTS = {
    "ten thousand words": " ".join(
        ["the data team owns data quality and watches dedup rates"] * 1100
    ),
    "no punctuation": "so the data team owns data quality and watches dedup rates and the "
    "training lead makes the rollback call " * 30,
    "emoji and other scripts": "🚀🔥 データチームがデータ品質を担当します Резерв 👍 the data team "
    "owns data quality and watches dedup rates",
    "a 3,000-character sentence": "we keep a reserve and watch the burn " * 82,
}


@pytest.mark.parametrize("name", list(HARD_TEXTS))
def test_hard_texts_on_the_page_get_a_reading_or_a_message(at: AppTest, name: str) -> None:
    """No traceback on the page: the reading table, or a message saying what was done."""
    at.radio(key=_key(at, "mode")).set_value("prose").run()
    at.text_area(key=_key(at, "prose")).set_value(HARD_TEXTS[name]).run()
    at.button(key="iv_read_prose").click().run()
    _ok(at)
    said = [m.value for m in (*at.info, *at.warning, *at.error, *at.success)]
    assert at.dataframe or said, name
