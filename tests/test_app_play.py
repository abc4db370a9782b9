"""The Play page's logic through Streamlit's AppTest: set-up, a whole game to the debrief,
saving and loading plays, and bad play files shown as errors, never as exceptions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from sim.play.game import Game, PlayLog
from sim.scenario.loading import load_scenario
from sim.scenario.vocabulary import option_words
from tests.apptest import open_page
from ui import common
from ui.play import page as play

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "assistant_7b.yaml"


@pytest.fixture
def at() -> AppTest:
    return open_page("ui/play/page.py", timeout=30)


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def decision_keys(at: AppTest) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith("play_decide_")]


def game(at: AppTest) -> Game:
    return at.session_state[play.GAME]


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key=play.UPLOAD).set_value((name, data, "application/json")).run()
    assert not at.exception, at.exception
    return at


def test_set_up_shows_the_scenario_the_estimate_and_how_to_start(at: AppTest) -> None:
    assert "How to play" in at.info[0].value
    assert at.selectbox(key=f"{play.PICK}_file").value == play.LOSS_SPIKE_SCENARIO
    assert {"Deadline", "Budget", "Reserve"} <= {m.label for m in at.metric}
    assert any("| Estimate | now | Δ |" in m.value for m in at.markdown)
    assert at.button(key="play_start").disabled is False
    assert play.GAME not in at.session_state


def test_a_lever_changed_in_set_up_is_the_game_s_lever(at: AppTest) -> None:
    slider = next(s for s in at.slider if s.key and s.key.endswith("reserve_fraction"))
    slider.set_value(0.2).run()
    assert not at.exception
    estimate = next(m.value for m in at.markdown if "| Estimate |" in m.value)
    assert "on budget" in estimate
    click(at, "play_start")
    assert game(at).scenario.levers.reserve_fraction == pytest.approx(0.2)


def test_a_whole_game_to_the_debrief_and_its_play_file(at: AppTest) -> None:
    at.selectbox(key=f"{play.PICK}_file").set_value(SCENARIO.name).run()
    click(at, "play_start")
    keys = decision_keys(at)
    assert keys, "the game stops at its first decision"
    assert any("You decide as" in m.value for m in at.markdown)
    first = game(at).pending
    click(at, keys[-1])
    assert f"You chose **{option_words(first.options[-1])}**" in at.success[0].value
    assert game(at).model.recording.decisions[0].choice == first.options[-1]

    click(at, "play_to_end")
    assert game(at).finished
    assert [h.value for h in at.header] == ["Debrief: what each decision cost"]
    assert "What this play shows" in [s.value for s in at.subheader]
    debrief = at.session_state[play.DEBRIEF]
    assert len(debrief.decisions) == len(game(at).model.recording.decisions)
    report = debrief.lesson_report
    assert report is not None and report.worlds == 30
    drawn = "\n".join(m.value for m in at.markdown)
    for f in report.shown[:3]:  # the largest effects are drawn in full
        assert f.line.replace("$", "\\$") in drawn
    assert any("The decision that mattered most" in i.value for i in at.info)
    assert at.session_state[play.MINE] == [0]

    log = PlayLog.from_json(game(at).save())
    assert log.decisions[0] == {"key": first.key, "choice": first.options[-1]}
    assert Game.from_log(log).play_to_end() == game(at).outcome()

    click(at, "play_new")
    assert play.GAME not in at.session_state and at.button(key="play_start")


def test_stepping_by_phase(at: AppTest) -> None:
    at.selectbox(key=f"{play.PICK}_file").set_value(SCENARIO.name).run()
    click(at, "play_start")
    at.radio(key=play.STOP_AT).set_value(play.NEXT_PHASE).run()
    phase = game(at).phase
    click(at, decision_keys(at)[0])
    while game(at).pending is not None and not game(at).finished:
        click(at, decision_keys(at)[0])  # decisions may come before the phase ends
    if not game(at).finished:
        assert game(at).phase != phase
        assert at.button(key="play_next_decision") and at.button(key="play_next_phase")
        before = game(at).phase
        click(at, "play_next_phase")
        assert game(at).pending is not None or game(at).phase != before


def load_errors(at: AppTest) -> list[str]:
    """Error boxes other than the outcome's "objectives missed" flag."""
    return [e.value for e in at.error if e.icon != ":material/flag:"]


def test_a_saved_play_loads_and_replays_exactly(at: AppTest) -> None:
    original = Game(load_scenario(SCENARIO), seed=5)
    point = original.advance()
    assert point is not None
    original.decide(point.options[1])
    original.play_to_end()
    upload(at, "shared.json", original.save().encode())
    assert not load_errors(at)  # a missed objective may show; a load problem may not
    assert game(at).finished
    assert game(at).outcome() == original.outcome()
    assert at.session_state[play.NOTICE].startswith("Loaded shared.json")
    assert at.metric[0].value == f"day {original.outcome()['schedule_days']:.0f}"
    out = original.outcome()
    cost = at.metric[1]
    over = out["cost_usd"] - out["budget_usd"]
    assert cost.delta.startswith("-" if over < 0 else "+"), cost.delta  # an ASCII sign
    assert "−" not in cost.delta  # a Unicode minus reads as positive (red, arrow up)


def test_a_play_saved_part_way_continues_at_its_next_decision(at: AppTest) -> None:
    original = Game(load_scenario(SCENARIO), seed=5)
    point = original.advance()
    assert point is not None
    original.decide(point.options[0])
    upcoming = original.advance()
    upload(at, "half.json", original.save().encode())
    assert not at.error
    if upcoming is None:
        assert game(at).finished
    else:
        assert game(at).pending.key == upcoming.key
        assert decision_keys(at)


BAD_PLAYS = {
    "not-json.json": b"{ this is not json",
    "not-a-play.json": json.dumps({"format": "something else"}).encode(),
    "no-seed.json": json.dumps({"format": "trainingroom-play/1", "scenario_yaml": "x"}).encode(),
    "bad-scenario.json": json.dumps(
        {"format": "trainingroom-play/1", "scenario_yaml": "name: broken\n", "seed": 1}
    ).encode(),
    "binary.json": b"\xff\xfe\x00garbage",
    "list.json": b"[1, 2, 3]",
}


@pytest.mark.parametrize("name", sorted(BAD_PLAYS))
def test_a_bad_play_file_shows_an_error_not_an_exception(at: AppTest, name: str) -> None:
    upload(at, name, BAD_PLAYS[name])
    assert play.GAME not in at.session_state
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(name)
    assert at.button(key="play_start")  # the set-up is still there


def test_an_uploaded_scenario_is_checked_and_playable(at: AppTest) -> None:
    at.radio(key=f"{play.PICK}_mode").set_value(common.UPLOAD).run()
    broken = b"name: broken\nobjective:\n  deadline_days: -3\n"
    at.file_uploader(key=f"{play.PICK}_upload").set_value(("broken.yaml", broken, "")).run()
    assert not at.exception
    assert any(e.value.startswith("broken.yaml:3: objective.deadline_days:") for e in at.error)
    assert "play_start" not in [b.key for b in at.button]
    mine = ("mine.yaml", SCENARIO.read_bytes(), "")
    at.file_uploader(key=f"{play.PICK}_upload").set_value(mine).run()
    assert not at.exception and not at.error
    click(at, "play_start")
    assert game(at).scenario == load_scenario(SCENARIO)


def test_team_and_playbook_changes_reach_the_game(at: AppTest) -> None:
    def widget(kind: str, suffix: str):
        return next(w for w in getattr(at, kind) if w.key and w.key.endswith(suffix))

    widget("number_input", "_team2").set_value(9).run()
    widget("selectbox", "_right_rollback").set_value("leadership").run()
    widget("selectbox", "_loss_spike").set_value(common.NOBODY).run()
    widget("multiselect", "_playbook_rollback").set_value(["pause_investigate"]).run()
    widget("radio", "_strategy").set_value("adapt").run()
    assert not at.exception and not at.error
    click(at, "play_start")
    scenario = game(at).scenario
    assert scenario.org.teams[2].headcount == 9
    assert scenario.org.decision_rights["rollback"] == "leadership"
    assert scenario.org.risk_owners["loss_spike"] is None
    assert scenario.levers.playbook["rollback"] == ["pause_investigate"]
    assert scenario.levers.strategy == "adapt"


def test_the_set_up_is_kept_for_the_next_play(at: AppTest) -> None:
    def reserve():
        return next(s for s in at.slider if s.key and s.key.endswith("reserve_fraction"))

    at.selectbox(key=f"{play.PICK}_file").set_value(SCENARIO.name).run()
    reserve().set_value(0.25).run()
    click(at, "play_start")
    click(at, "play_to_end")
    click(at, "play_new")
    assert at.selectbox(key=f"{play.PICK}_file").value == SCENARIO.name
    assert reserve().value == pytest.approx(0.25)


def test_the_outcome_cards_read_their_sign_and_colour_right() -> None:
    """Under budget reads green with a down arrow, over it red with an up arrow (st.metric
    reads only an ASCII minus as negative), and at the limit grey with no arrow."""
    from ui.play.page import _against, _change

    under = _against(-1.19e6, f"{_change(-1.19e6, '$')} vs budget", 500)
    assert under["delta"].startswith("-$") and under["delta_color"] == "inverse"
    over = _against(2e5, f"{_change(2e5, '$')} vs budget", 500)
    assert over["delta"].startswith("+$") and over["delta_color"] == "inverse"
    late = _against(12, "+12 d vs deadline", 0.5)
    assert late["delta"].startswith("+")
    at = _against(0.2, "+0 d vs deadline", 0.5)
    assert at == {"delta": "at the deadline", "delta_color": "off", "delta_arrow": "off"}
