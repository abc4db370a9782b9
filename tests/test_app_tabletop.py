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
from tests.apptest import load_scale, open_page
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


def open_the_room(at: AppTest) -> None:
    """The facilitator types the key back: the room opens to players."""
    at.text_input(key="tt_confirm_key").set_value(at.session_state[fac.KEY])
    next(b for b in at.button if b.label == "Open the room to players").click()
    ok(at)


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
    # A reload keeps the exercise through a link bound to this browser, never the key.
    kept = dict(at.query_params)
    assert "key" not in kept and kept.get("link") and kept["room"] == at.session_state[fac.ROOM]
    assert at.session_state[fac.KEY] not in str(kept)
    open_the_room(at)
    assert any("The room is open" in s.value for s in at.success)
    return at


def facilitator_view(at: AppTest) -> dict:
    return service().facilitator_view(at.session_state[fac.ROOM], at.session_state[fac.KEY])


def open_the_writer(at: AppTest) -> None:
    """Open "Write your own inject" (in a browser its form is drawn only while it is open)."""
    at.session_state["tt_w_open"] = True
    ok(at)


def test_a_written_inject_is_delivered_now_and_a_player_reads_it(facilitator: AppTest) -> None:
    at = facilitator
    before = facilitator_view(at)["situation"]["budget_usd"]
    open_the_writer(at)
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
    open_the_writer(at)
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


def test_the_room_opens_only_with_the_key_typed_back(data_dir: Path) -> None:
    at = open_page("ui/tabletop/facilitator.py")
    next(b for b in at.button if b.label == "Create the exercise").click()
    ok(at)
    assert not [b for b in at.button if b.key == "tt_next"], "no clock before the room opens"
    at.text_input(key="tt_confirm_key").set_value("not the key")
    next(b for b in at.button if b.label == "Open the room to players").click()
    ok(at)
    assert any("not the facilitator key" in e.value for e in at.error)
    assert not service().room(at.session_state[fac.ROOM]).exercise.opened_at


def test_a_seat_key_never_rides_in_the_address_and_a_removed_player_is_shown_out(
    facilitator: AppTest,
) -> None:
    """The address keeps a seat link, never the key; a key put in an address is not used.

    (A reload that keeps the seat needs a real browser's id: tests/browser does it.)
    """
    room = facilitator.session_state[fac.ROOM]
    p = open_page("ui/tabletop/player.py")
    p.text_input(key="tt_join_room").set_value(room)
    p.text_input(key="tt_join_name").set_value("Ada")
    next(b for b in p.button if b.label == "Join").click()
    ok(p)
    seat = p.session_state[player.SEAT]
    assert any("Keep your seat key" in m.value for m in p.markdown)
    assert any(seat in c.value for c in p.code), "the key is shown to be kept"
    p.button(key="tt_keep").click()
    ok(p)
    assert "key" not in p.query_params and seat not in str(dict(p.query_params))
    assert p.query_params.get("seat") and p.query_params["room"] == room
    # An address that carries the seat key opens nothing, and says why.
    other = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60 * load_scale())
    other.run()
    other.switch_page("ui/tabletop/player.py")
    other.query_params.update({"room": room, "key": seat})
    ok(other)
    assert player.SEAT not in other.session_state
    assert any("never used" in e.value for e in other.error)
    assert "key" not in other.query_params
    # The facilitator removes Ada; her page shows her out.
    ok(facilitator)
    ada = next(x for x in facilitator_view(facilitator)["participants"] if x["name"] == "Ada")
    facilitator.button(key=f"tt_remove_{ada['id']}").click()
    ok(facilitator)
    assert any("Ada was removed" in s.value for s in facilitator.success)
    ok(p)
    assert any("removed this seat" in e.value for e in p.error)
    assert player.SEAT not in p.session_state


def test_the_decision_starts_with_no_option_chosen(facilitator: AppTest) -> None:
    at = facilitator
    room = at.session_state[fac.ROOM]
    p = open_page("ui/tabletop/player.py")
    p.text_input(key="tt_join_room").set_value(room)
    p.text_input(key="tt_join_name").set_value("Grace")
    next(b for b in p.button if b.label == "Join").click()
    ok(p)
    p.button(key="tt_claim_leadership").click()
    ok(p)
    svc, key = service(), at.session_state[fac.KEY]
    for _ in range(10):  # to the first budget call (the board's cut)
        pending = svc.facilitator_view(room, key)["pending"]
        if pending is not None and pending["kind"] == "budget":
            break
        if pending is not None:
            svc.resolve_with_playbook(room, key)
        else:
            svc.advance(room, key)
    ok(p)
    radio = p.radio[0]
    assert radio.value is None and radio.index is None, "no option comes pre-selected"
    p.text_area[0].set_value("A rationale that is long enough.")
    next(b for b in p.button if b.label == "Decide").click()
    ok(p)
    assert any("choose one of the options" in e.value for e in p.error)


def test_decisions_and_comments_raise_a_notice_for_the_facilitator(facilitator: AppTest) -> None:
    at = facilitator
    room = at.session_state[fac.ROOM]
    seat = service().join(room, "Ada")
    ok(at)  # the page has seen the room as it is
    service().comment(room, seat.seat_key, "Visit www.example.com :material/home: now")
    ok(at)
    badges = " ".join(m.value for m in at.markdown)
    assert "1 new comment since you last looked" in badges
    assert [t.value for t in at.toast] and "1 new comment" in at.toast[0].value
    shown = [t.value for t in at.text]
    assert "Visit www.example.com :material/home: now" in shown, "a comment is plain text"
    at.button(key="tt_seen").click()
    ok(at)
    assert "since you last looked" not in " ".join(m.value for m in at.markdown)


def test_the_facilitator_rates_each_expected_action_once_it_has_ended(
    facilitator: AppTest,
) -> None:
    """A rating's callback records that inject's action, not the loop's last one."""
    at = facilitator
    at.text_input(key="tt_w_title").set_value("The storage array fails")
    at.text_area(key="tt_w_message").set_value("A third of the checkpoints are unreadable.")
    at.radio(key="tt_w_when").set_value("now")
    at.text_area(key="tt_w_actions").set_value("Infra restores from backup\n\nPause the run")
    ok(at)
    at.button(key="tt_w_add").click()
    ok(at)
    room, key = at.session_state[fac.ROOM], at.session_state[fac.KEY]
    msel = facilitator_view(at)["msel"]
    inject = next(i for i in msel if i["title"] == "The storage array fails")
    service().set_status(room, key, "ended")
    ok(at)
    at.selectbox(key=f"tt_rate_{inject['id']}_1").set_value("M")
    ok(at)
    rated = next(i for i in facilitator_view(at)["msel"] if i["id"] == inject["id"])
    assert [(r or {}).get("rating") for r in rated["ratings"]] == [None, "M"]
