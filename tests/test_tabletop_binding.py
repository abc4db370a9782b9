"""Seats bound to their holder (issue 27.3), through the service, on SQLite (and on
PostgreSQL in test_tabletop_postgres.py, which reruns ``TestSeatsBoundToTheirHolder``).

Ada's seat key used from a second browser is noticed (logged, shown to the facilitator,
told to Ada's page), gets nothing until the facilitator chooses, and the browser not
chosen is denied; a seat link in a page's address opens the seat only in the browser
that holds it. The audit log is asserted after each attempt.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sim.storage import make_engine
from sim.tabletop.binding import Contested
from sim.tabletop.db.models import Event
from sim.tabletop.errors import Forbidden, Refused
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import Table, db_url

__all__ = ["db_url"]

LAPTOP = ("session:ada-tab-1", "browser:ada-laptop", "ip:10.0.0.5")
#: A reload or a second tab of Ada's browser: a new page session, the same browser.
LAPTOP_TAB = ("session:ada-tab-2", "browser:ada-laptop", "ip:10.0.0.5")
THIEF = ("session:thief", "browser:thief-laptop", "ip:10.0.0.66")


def last(svc: TabletopService, room: str) -> Event:
    return svc.room(room).events[-1]


class TestSeatsBoundToTheirHolder:
    @pytest.fixture
    def service(self, db_url: str) -> Iterator[TabletopService]:
        svc = TabletopService(make_engine(db_url))
        yield svc
        svc.engine.dispose()

    @pytest.fixture
    def table(self, service: TabletopService) -> Table:
        table = Table(service)
        table.ada = service.join(table.room, "Ada Byron", clients=LAPTOP)
        return table

    def contest(self, table: Table) -> None:
        """The thief presents Ada's key from another browser: noticed, nothing given."""
        svc, room = table.svc, table.room
        with pytest.raises(Contested, match="facilitator"):
            svc.rejoin(room, table.ada.seat_key, clients=THIEF)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("seat_contested", "Ada Byron")
        assert "second browser" in entry.summary

    def test_a_second_browser_is_noticed_and_gets_nothing(self, table: Table) -> None:
        svc, room = table.svc, table.room
        # A reload or another tab of her own browser is no second browser.
        assert svc.rejoin(room, table.ada.seat_key, clients=LAPTOP_TAB).name == "Ada Byron"
        assert last(svc, room).kind == "rejoined"
        with svc.acting_from(LAPTOP):
            assert svc.player_view(room, table.ada.seat_key)["seat_notice"] is None
        self.contest(table)
        # The facilitator sees it; Ada's page is told; the thief's page waits.
        view = table.view()
        assert [c["name"] for c in view["contests"]] == ["Ada Byron"]
        assert any("second browser" in a["summary"] for a in view["alerts"])
        with svc.acting_from(LAPTOP):
            notice = svc.player_view(room, table.ada.seat_key)["seat_notice"]
        assert notice and "another browser" in notice
        # Asking again from the same browser adds nothing to the log (the page polls).
        before = len(svc.room(room).events)
        with pytest.raises(Contested):
            svc.rejoin(room, table.ada.seat_key, clients=THIEF)
        assert len(svc.room(room).events) == before
        # Ada's key acts from her browser only; from the thief's, every action is refused.
        for act in (lambda: svc.player_view(room, table.ada.seat_key),
                    lambda: svc.comment(room, table.ada.seat_key, "I am Ada, trust me"),
                    lambda: svc.claim_role(room, table.ada.seat_key, "data")):  # fmt: skip
            before = len(svc.room(room).events)
            with svc.acting_from(THIEF), pytest.raises(Forbidden, match="another browser"):
                act()
            assert len(svc.room(room).events) == before + 1, "each refusal is logged"
            entry = last(svc, room)
            assert (entry.kind, entry.actor) == ("refused", "Ada Byron")
        assert not any(c.body == "I am Ada, trust me" for c in svc.room(room).comments)
        with svc.acting_from(LAPTOP):
            svc.comment(room, table.ada.seat_key, "Still me, from my laptop")
        assert last(svc, room).actor == "Ada Byron"

    def test_the_facilitator_keeps_the_seat_with_its_holder(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        self.contest(table)
        with pytest.raises(Forbidden):  # a player cannot settle it
            svc.settle_seat(room, table.ada.seat_key, table.ada.participant_id, to_new=True)
        svc.settle_seat(room, key, table.ada.participant_id, to_new=False)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("seat_settled", "Facilitator")
        assert "kept with the first browser" in entry.summary
        assert table.view()["contests"] == []
        with svc.acting_from(LAPTOP):
            assert svc.player_view(room, table.ada.seat_key)["seat_notice"] is None
        with pytest.raises(Forbidden, match="gave this seat to another browser"):
            svc.rejoin(room, table.ada.seat_key, clients=THIEF)
        assert (last(svc, room).kind, last(svc, room).actor) == ("refused", "Ada Byron")
        with pytest.raises(Refused, match="nobody else"):
            svc.settle_seat(room, key, table.ada.participant_id, to_new=True)

    def test_the_facilitator_moves_the_seat_to_the_new_browser(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        self.contest(table)
        svc.settle_seat(room, key, table.ada.participant_id, to_new=True)
        assert "moved to the second browser" in last(svc, room).summary
        # The new browser now holds the seat; the old one is told it no longer does.
        assert svc.rejoin(room, table.ada.seat_key, clients=THIEF).name == "Ada Byron"
        with svc.acting_from(LAPTOP), pytest.raises(Forbidden, match="another browser"):
            svc.player_view(room, table.ada.seat_key)
        with pytest.raises(Forbidden, match="gave this seat to another browser"):
            svc.rejoin(room, table.ada.seat_key, clients=LAPTOP)

    def test_a_seat_link_opens_the_seat_only_in_its_browser(self, table: Table) -> None:
        svc, room = table.svc, table.room
        with pytest.raises(Forbidden, match="another browser"):
            svc.seat_link(room, table.ada.seat_key, clients=THIEF)
        link = svc.seat_link(room, table.ada.seat_key, clients=LAPTOP)
        assert link != table.ada.seat_key and last(svc, room).kind == "seat_link"
        # From Ada's browser (a reload, another tab) the link opens her seat.
        assert svc.rejoin(room, link, clients=LAPTOP_TAB).name == "Ada Byron"
        with svc.acting_from(LAPTOP_TAB):
            assert svc.player_view(room, link)["me"]["name"] == "Ada Byron"
        # The same address seen by anyone else opens nothing, and says so in the log.
        for clients in (THIEF, ()):
            with pytest.raises(Forbidden, match="only in the browser that holds it"):
                svc.rejoin(room, link, clients=clients)
            assert (last(svc, room).kind, last(svc, room).actor) == ("refused", "Ada Byron")
        with pytest.raises(Forbidden):
            svc.player_view(room, link)  # no browser named: a link is never a bearer key
        # No contest came of it: a link is not the key, and the thief learnt nothing.
        assert table.view()["contests"] == []
        # A new link replaces the old one.
        newer = svc.seat_link(room, table.ada.seat_key, clients=LAPTOP)
        with pytest.raises(Forbidden):
            svc.rejoin(room, link, clients=LAPTOP)
        assert svc.rejoin(room, newer, clients=LAPTOP).name == "Ada Byron"

    def test_the_facilitators_link_opens_the_room_only_in_its_browser(self, table: Table) -> None:
        """The facilitator's page keeps a link, not the key: anywhere else it opens nothing."""
        svc, room, key = table.svc, table.room, table.key
        with pytest.raises(Forbidden, match="only the facilitator key"):
            svc.facilitator_link(room, table.ada.seat_key, clients=THIEF)
        with pytest.raises(Refused, match="needs a browser"):
            svc.facilitator_link(room, key)
        link = svc.facilitator_link(room, key, clients=LAPTOP)
        assert link != key and last(svc, room).kind == "facilitator_link"
        # From the facilitator's browser the link opens and runs the room.
        svc.open_as_facilitator(room, link, clients=LAPTOP_TAB)
        with svc.acting_from(LAPTOP_TAB):
            assert svc.facilitator_view(room, link)["exercise"]["room_code"] == room
            svc.lock_room(room, link, True)
        assert svc.room(room).exercise.locked_at is not None
        # Seen over a shoulder, or with no browser named, it is refused, and logged.
        for clients in (THIEF, ()):
            with pytest.raises(Forbidden, match="only in the browser it was made in"):
                svc.open_as_facilitator(room, link, clients=clients)
            assert (last(svc, room).kind, last(svc, room).actor) == ("refused", "Facilitator")
        with pytest.raises(Forbidden):
            svc.facilitator_view(room, link)
        # The link is not the key: it cannot be typed back to open the room, nor make a link.
        with pytest.raises(Forbidden, match="only the facilitator key"):
            svc.facilitator_link(room, link, clients=LAPTOP)
        # A new link (from the key, in any browser) replaces the old one.
        newer = svc.facilitator_link(room, key, clients=THIEF)
        with pytest.raises(Forbidden):
            svc.open_as_facilitator(room, link, clients=LAPTOP)
        svc.open_as_facilitator(room, newer, clients=THIEF)
