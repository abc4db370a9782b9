"""The tabletop pages through Streamlit's AppTest: create an exercise, write an inject and
deliver it, let the clock run on its timer, and a player joining and reading the inject.

The service underneath has its own tests (test_tabletop_service.py); these check that the
pages drive it and show what it says.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from sim.storage import database_url, make_engine
from sim.tabletop.service import TabletopService
from tests.apptest import open_page
from ui.tabletop import facilitator as fac
from ui.tabletop import player

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Exercises go to a database in a temporary data directory."""
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def service() -> TabletopService:
    return TabletopService(make_engine(database_url()))


@pytest.fixture
def facilitator(data_dir: Path) -> AppTest:
    at = open_page("ui/tabletop/facilitator.py")
    create = next(b for b in at.button if b.label == "Create the exercise")
    create.click()
    ok(at)
    assert at.session_state[fac.ROOM] and at.session_state[fac.KEY]
    assert any("Exercise created" in s.value for s in at.success)
    return at


def facilitator_view(at: AppTest) -> dict:
    return service().facilitator_view(at.session_state[fac.ROOM], at.session_state[fac.KEY])


def test_a_written_inject_is_delivered_now_and_a_player_reads_it(facilitator: AppTest) -> None:
    at = facilitator
    before = facilitator_view(at)["situation"]["budget_usd"]
    at.text_input(key="tt_w_title").set_value("The cloud provider raises prices")
    at.text_area(key="tt_w_message").set_value("Prices go up by a fifth from next week.")
    at.radio(key="tt_w_when").set_value("now")
    ok(at)
    at.selectbox(key="tt_w_engine").set_value("budget_cut")
    ok(at)
    at.slider(key="tt_w_fraction").set_value(0.3)
    at.text_area(key="tt_w_actions").set_value("Leadership closes the gap\n\nFinance re-forecasts")
    ok(at)
    assert at.multiselect(key="tt_w_expected").options, "a budget cut raises a budget decision"
    at.button(key="tt_w_add").click()
    ok(at)
    assert any("Delivered: The cloud provider raises prices" in s.value for s in at.success)
    view = facilitator_view(at)
    row = next(i for i in view["msel"] if i["title"] == "The cloud provider raises prices")
    assert row["status"] == "delivered" and row["decision_kind"] == "budget"
    assert row["expected_actions"] == ["Leadership closes the gap", "Finance re-forecasts"]
    assert view["situation"]["budget_usd"] < before, "the engine cut the budget"

    # A player joins from another session and reads it among the injects.
    room = at.session_state[fac.ROOM]
    p = open_page("ui/tabletop/player.py")
    p.text_input(key="tt_join_room").set_value(room)
    p.text_input(key="tt_join_name").set_value("Ada")
    next(b for b in p.button if b.label == "Join").click()
    ok(p)
    assert p.session_state[player.SEAT]
    text = "\n".join(m.value for m in p.markdown)
    assert "The cloud provider raises prices" in text
    assert "Leadership closes the gap" not in text, "expected actions stay with the facilitator"


def test_an_empty_inject_cannot_be_added(facilitator: AppTest) -> None:
    at = facilitator
    assert at.button(key="tt_w_add").disabled
    at.text_input(key="tt_w_title").set_value("A title but no message")
    ok(at)
    assert at.button(key="tt_w_add").disabled


def test_the_running_clock_ticks_on_its_timer_and_stops_at_an_inject(
    facilitator: AppTest,
) -> None:
    at = facilitator
    assert facilitator_view(at)["exercise"]["clock_day"] == 0.0
    at.selectbox(key="tt_pace").set_value("half a day")
    at.toggle(key=fac.RUNNING).set_value(True)
    ok(at)
    day = facilitator_view(at)["exercise"]["clock_day"]
    assert day == pytest.approx(0.5), "switching the clock on ticks once"
    ok(at)
    assert facilitator_view(at)["exercise"]["clock_day"] == pytest.approx(day), (
        "a rerun between ticks does not move the clock"
    )
    # Ticks go on (each a timer run of the fragment) until the first inject stops the clock.
    for _ in range(200):
        at.session_state[fac.TICKED] = -1e9  # as if the timer's seconds had passed
        ok(at)
        if not at.session_state[fac.RUNNING]:
            break
    view = facilitator_view(at)
    assert not at.session_state[fac.RUNNING]
    delivered = [i for i in view["msel"] if i["status"] == "delivered"]
    assert delivered or view["pending"] is not None, "it stopped for an inject or a decision"
    assert view["exercise"]["clock_day"] > day
