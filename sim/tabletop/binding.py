"""Seats bound to their holder: one browser holds a seat, and a second one is noticed.

A seat key is a secret, but a secret can be copied. So a seat is also bound to the
browser that holds it (``holder_hash``: its browser id, else its page session; see
:mod:`sim.tabletop.db.clients`), set when it joins (or at its first rejoin that names a
browser). Then:

- the key acts only from that browser: an action that names another browser is refused
  and logged (:meth:`sim.tabletop.db.store.ExerciseStore._player`; the pages name theirs
  with :meth:`~sim.tabletop.db.store.ExerciseStore.acting_from`);
- a rejoin from a second browser is **noticed**: it does not get the seat; the seat is
  marked contested (``contender_hash``), the log says so, the facilitator's page shows
  it, and the holder's page is told (its view carries ``seat_notice``);
- the facilitator **chooses** which browser keeps the seat (:meth:`Binding.settle_seat`):
  the other one is denied (``denied_hashes``), and its key opens nothing there again;
- a seat key is never taken from a page's address. The page's link back to a seat
  carries a **link token** instead (:meth:`Binding.seat_link`), which opens the seat only
  in the browser that holds it: the same address opened anywhere else is refused and
  logged, and shows nothing. The facilitator's page keeps a link of the same kind
  (:meth:`Binding.facilitator_link`), never the facilitator key.

Callers that name no browser (the command line, Python code with the database itself)
are not bound: whoever can open the database needs no key.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from sim.tabletop.db.clients import holder_of
from sim.tabletop.db.credentials import key_hash, key_matches, new_key
from sim.tabletop.db.models import Exercise, Participant, utcnow
from sim.tabletop.db.store import FACILITATOR, Clients, ExerciseStore
from sim.tabletop.errors import Forbidden, NotFound, Refused


class Contested(Refused):
    """A seat key presented from a second browser: the facilitator chooses who keeps it."""


def seat_notice(me: Participant) -> str | None:
    """What the holder's page says while a second browser waits for the seat."""
    if me.contender_hash is None:
        return None
    when = me.contested_at.strftime("%H:%M UTC") if me.contested_at else "just now"
    return (
        f"Your seat key was used from another browser at {when}. The facilitator has been "
        "told and chooses which browser keeps this seat. If that was not you, tell the "
        "facilitator now."
    )


class Binding(ExerciseStore):
    """Contests over a seat, the facilitator's choice, and the browser-bound seat link."""

    def _claim_seat(self, session: Session, ex: Exercise, me: Participant, seen: Clients) -> bool:
        """Bind ``me`` to the caller's browser, or mark a contest; True when it holds."""
        caller = holder_of(seen)
        if caller is None or caller == me.holder_hash:
            return True
        if caller in (me.denied_hashes or []):
            raise Forbidden("the facilitator gave this seat to another browser")
        if me.holder_hash is None:
            me.holder_hash = caller
            return True
        if me.contender_hash != caller:
            me.contender_hash, me.contested_at = caller, utcnow()
            flag_modified(ex, "status")  # the holder's page polls the version: tell it
            self._log(session, ex, "seat_contested", me.name,
                      f"{me.name}'s seat key was used from a second browser; the first one "
                      "still holds the seat until the facilitator chooses")  # fmt: skip
        return False

    def settle_seat(self, room: str, key: str, participant_id: int, to_new: bool) -> None:
        """The facilitator's choice on a contested seat: keep it, or move it to the new browser.

        The browser not chosen is denied: the seat key opens nothing from it again.
        """

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            me = session.get(Participant, participant_id)
            if me is None or me.exercise_id != ex.id:
                raise NotFound(f"no player {participant_id} in this exercise")
            if me.contender_hash is None:
                raise Refused(f"nobody else has asked for {me.name}'s seat")
            loser = me.holder_hash if to_new else me.contender_hash
            if to_new:
                me.holder_hash = me.contender_hash
                me.link_hash = None  # the old browser's link dies with it
            me.denied_hashes = [*(me.denied_hashes or []), *([loser] if loser else [])]
            me.contender_hash = me.contested_at = None
            self._log(session, ex, "seat_settled", FACILITATOR,
                      f"{me.name}'s seat " + ("moved to the second browser; the first is "
                                              "denied" if to_new else "kept with the first "
                                              "browser; the second is denied"))  # fmt: skip

        self._act(room, act, "settle a contested seat")

    def seat_link(self, room: str, seat_key: str, clients: Clients = ()) -> str:
        """A token for the page's address that opens this seat only in the holding browser.

        Asking again replaces the old token. Needs a browser: without one there is
        nothing to bind the link to.
        """
        token = new_key()
        caller = holder_of(clients)
        if caller is None:
            raise Refused("a seat link needs a browser to bind it to")

        def act(session: Session, ex: Exercise) -> str:
            me = self._player(session, ex, seat_key)
            if me.holder_hash != caller:
                raise Forbidden("only the browser holding this seat can make its link")
            me.link_hash = key_hash(token)
            self._log(session, ex, "seat_link", me.name, f"{me.name} made a link to their seat")
            return token

        with self.acting_from(clients):
            return self._act(room, act, "make a seat link", bump=False)

    def facilitator_link(self, room: str, key: str, clients: Clients = ()) -> str:
        """A token for the facilitator page's address, in place of the facilitator key.

        It opens the exercise as the facilitator only in the browser that asked for it
        (anywhere else it is refused, and the refusal is logged), so an address that is
        shared, screen-shared or left in a browser's history does not hand the room over.
        Asking again (from any browser, with the key) replaces the old token.
        """
        token = new_key()
        caller = holder_of(clients)
        if caller is None:
            raise Refused("a facilitator link needs a browser to bind it to")

        def act(session: Session, ex: Exercise) -> str:
            if not key_matches(key, ex.facilitator_key_hash):
                raise Forbidden("only the facilitator key can make the facilitator's link")
            ex.facilitator_link_hash, ex.facilitator_holder_hash = key_hash(token), caller
            self._log(session, ex, "facilitator_link", FACILITATOR,
                      "The facilitator's page keeps a link bound to its browser")  # fmt: skip
            return token

        with self.acting_from(clients):
            return self._act(room, act, "make the facilitator's link", bump=False)

    def contests(self, room: str) -> list[tuple[int, str]]:
        """(participant id, name) of each seat a second browser is waiting for."""
        with self._reading() as session:
            ex = self._find(session, room)
            rows = session.scalars(
                select(Participant).where(
                    Participant.exercise_id == ex.id, Participant.contender_hash.is_not(None)
                )
            )
            return [(p.id, p.name) for p in rows]
