"""Removal means out (issue 27.2), through the service, on SQLite (and on PostgreSQL in
test_tabletop_postgres.py, which reruns ``TestRemovalMeansOut``).

A removed seat's browser is refused at join under any name ("Mallory" removed, back as
"Mal Ory"), and the attempt is logged with the seat it comes from and shown to the
facilitator; the facilitator locks the room (no new joins; seated players stay) and
re-keys it (a new code; the old one admits nobody new; seated players keep their seats
under either code). The audit log is asserted after each attempt.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sim.storage import make_engine
from sim.tabletop.binding import Contested
from sim.tabletop.db.models import Event
from sim.tabletop.db.store import NEWCOMER, UNKNOWN_KEY
from sim.tabletop.errors import Barred, Forbidden, NotFound, OldCode, Refused
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import Table, db_url

__all__ = ["db_url"]

MALLORY = ("session:mallory-laptop", "ip:10.0.0.9")
MALLORY_PHONE = ("session:mallory-phone", "ip:10.0.0.9")
#: Someone else in the same office: the same address, a browser of their own.
COLLEAGUE = ("session:colleague", "ip:10.0.0.9")


def last(svc: TabletopService, room: str) -> Event:
    return svc.room(room).events[-1]


def kinds(svc: TabletopService, room: str) -> list[str]:
    return [e.kind for e in svc.room(room).events]


class TestRemovalMeansOut:
    @pytest.fixture
    def service(self, db_url: str) -> Iterator[TabletopService]:
        svc = TabletopService(make_engine(db_url))
        yield svc
        svc.engine.dispose()

    @pytest.fixture
    def table(self, service: TabletopService) -> Table:
        return Table(service)

    def test_a_removed_seats_browsers_are_refused_under_any_name(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        mallory = svc.join(room, "Mallory", clients=MALLORY)
        assert last(svc, room).kind == "joined"
        with pytest.raises(Contested):  # her phone, too: a second browser, noticed
            svc.rejoin(room, mallory.seat_key, clients=MALLORY_PHONE)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("seat_contested", "Mallory")
        assert "second browser" in entry.summary
        svc.remove_player(room, key, mallory.participant_id, reason="not on the invite list")
        entry = last(svc, room)
        assert entry.kind == "removed" and "2 browsers barred" in entry.summary
        for name, browser in (("Mal Ory", MALLORY), ("M. Allory", MALLORY_PHONE),
                              ("Eve", MALLORY)):  # fmt: skip
            before = len(svc.room(room).events)
            with pytest.raises(Barred, match=r"removed from the exercise \(Mallory\)"):
                svc.join(room, name, clients=browser)
            events = svc.room(room).events
            assert len(events) == before + 1, "each attempt is logged once"
            entry = events[-1]
            assert (entry.kind, entry.actor) == ("barred", NEWCOMER)
            assert f"join as {name!r}" in entry.summary and "(Mallory)" in entry.summary
            assert entry.day == svc.room(room).exercise.clock_day
        # Her old key opens nothing, and that attempt is logged under her removed seat.
        with pytest.raises(Forbidden, match="removed"):
            svc.rejoin(room, mallory.seat_key, clients=MALLORY)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("refused", "Mallory (removed)")
        # The facilitator is shown the barred attempts; a colleague at the same address
        # is not barred (only the browser is), but the join is flagged with whose it was.
        alerts = table.view()["alerts"]  # the contest, then the three barred joins
        assert len(alerts) == 4 and all("Mallory" in b["summary"] for b in alerts)
        assert table.view()["contests"] == [], "a removed seat is contested no more"
        assert svc.join(room, "Linus", clients=COLLEAGUE).name == "Linus"
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("joined_flagged", "Linus")
        assert "from the address of removed seat Mallory" in entry.summary
        assert len(table.view()["alerts"]) == 5
        assert svc.join(room, "Wanda", clients=("session:w", "ip:10.0.0.77")).name == "Wanda"
        assert last(svc, room).kind == "joined", "another address: an ordinary join"
        names = [p["name"] for p in table.view()["participants"] if not p["removed"]]
        assert names == ["Ada", "Grace", "Linus", "Wanda"], "no seat for Mallory under any name"

    def test_a_locked_room_takes_nobody_new(self, table: Table) -> None:
        svc, room, key = table.svc, table.room, table.key
        with pytest.raises(Forbidden):
            svc.lock_room(room, table.ada.seat_key)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("refused", UNKNOWN_KEY)
        assert "lock the room" in entry.summary
        svc.lock_room(room, key)
        assert last(svc, room).kind == "locked" and table.view()["exercise"]["locked"]
        with pytest.raises(Refused, match="locked"):
            svc.join(room, "Mal Ory", clients=MALLORY)
        entry = last(svc, room)
        assert (entry.kind, entry.actor) == ("refused", NEWCOMER) and "'Mal Ory'" in entry.summary
        # Seated players stay: they rejoin, read and act as before.
        assert svc.rejoin(room, table.ada.seat_key).name == "Ada"
        assert last(svc, room).kind == "rejoined"
        svc.comment(room, table.ada.seat_key, "Still here while the room is locked.")
        svc.lock_room(room, key, locked=False)
        assert last(svc, room).kind == "unlocked"
        assert svc.join(room, "Linus").name == "Linus"

    def test_a_rekeyed_room_admits_nobody_new_by_its_old_code(self, table: Table) -> None:
        svc, old, key = table.svc, table.room, table.key
        with pytest.raises(Forbidden):
            svc.rekey_room(old, table.grace.seat_key)
        assert last(svc, old).kind == "refused"
        new = svc.rekey_room(old, key)
        assert new != old and table.view()["exercise"]["room_code"] == new
        assert last(svc, new).kind == "rekeyed"
        with pytest.raises(OldCode, match="changed this room's code"):
            svc.join(old, "Mal Ory", clients=MALLORY)
        entry = last(svc, new)
        assert (entry.kind, entry.actor) == ("refused", NEWCOMER)
        assert "changed this room's code" in entry.summary
        assert isinstance(OldCode("x"), NotFound), "to the backoff, a wrong code like any other"
        # Seated players keep their seats under the old code and the new one.
        for code in (old, new):
            assert svc.rejoin(code, table.ada.seat_key).name == "Ada"
            assert svc.player_view(code, table.grace.seat_key)["me"]["name"] == "Grace"
            svc.comment(code, table.ada.seat_key, f"Writing with {code}.")
        assert svc.facilitator_view(old, key)["exercise"]["room_code"] == new
        assert svc.join(new, "Linus").name == "Linus"
        # Re-keyed twice: both old codes keep the seated, and admit nobody new.
        newer = svc.rekey_room(new, key)
        for code in (old, new):
            with pytest.raises(OldCode):
                svc.join(code, "Zed")
            assert svc.rejoin(code, table.ada.seat_key).name == "Ada"
        assert svc.join(newer, "Zed").name == "Zed"

    def test_mallory_removed_cannot_come_back_as_mal_ory(self, table: Table) -> None:
        """The issue's attack: removed, then back 45 s later under a new name."""
        svc, room, key = table.svc, table.room, table.key
        mallory = svc.join(room, "Mallory", clients=MALLORY)
        svc.claim_role(room, mallory.seat_key, "product")
        svc.remove_player(room, key, mallory.participant_id)
        # Same browser, a new name: refused, and the log links it to the removed seat.
        with pytest.raises(Barred):
            svc.join(room, "Mal Ory", clients=MALLORY)
        assert "(Mallory)" in last(svc, room).summary
        # A fresh browser with the room's code: the facilitator re-keys, and the old code
        # Mallory holds admits nobody.
        svc.rekey_room(room, key)
        with pytest.raises(OldCode):
            svc.join(room, "Mal Ory", clients=("session:a-fresh-browser",))
        assert last(svc, room).kind == "refused"
        seated = [p.name for p in svc.room(room).seated]
        assert seated == ["Ada", "Grace"]
        roles = {r["team"]: r["holder"] for r in table.view()["roles"]}
        assert roles["product"] is None, "her role was freed"
