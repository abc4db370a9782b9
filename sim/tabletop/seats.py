"""Seats: joining with a display name, rejoining with a key, roles, and the roster.

The facilitator opens the room, removes a player, releases or reassigns a role, locks
the room and re-keys it.

Every change to the roster goes into the audit log, and so does every refused join or
rejoin. A removed player's key stops working in the same transaction that removes them,
and the browser sessions their seat was used from are barred: a join from one of them is
refused under any name, logged as ``barred`` with the removed seat it comes from, and
shown to the facilitator. A locked room takes no new player (seated players rejoin as
before); a re-keyed room has a new code, and the old one admits nobody new while it
still opens the room for the keys of those already in it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sim.tabletop.binding import Binding, Contested
from sim.tabletop.db.clients import barring, flagging, holder_of, merged, seen_hashes
from sim.tabletop.db.credentials import (
    MAX_ORGANISATION,
    check_key,
    clean_text,
    key_hash,
    key_matches,
    new_key,
    new_room_code,
    room_hash,
)
from sim.tabletop.db.identity import clean_display_name
from sim.tabletop.db.models import BarredClient, Exercise, Participant, RetiredCode, Role, utcnow
from sim.tabletop.db.store import FACILITATOR, NEWCOMER, Clients, shown
from sim.tabletop.errors import Barred, Conflict, Forbidden, InputError, NotFound, Refused


@dataclass(frozen=True)
class Seat:
    """A player's place in an exercise. ``seat_key`` lets them act (and rejoin) as themself."""

    participant_id: int
    name: str
    seat_key: str


def _organisation(text: str | None) -> str | None:
    if text is None or not str(text).strip():
        return None
    return " ".join(clean_text(text, "the organisation", MAX_ORGANISATION).split())


class Seats(Binding):
    """Joining, rejoining and roles; the facilitator's roster actions."""

    def open_as_facilitator(self, room: str, key: str, clients: Clients = ()) -> int:
        """Check a facilitator key (the facilitator's page opening); the exercise's id."""

        def act(session: Session, ex: Exercise) -> int:
            self._facilitator(ex, key)
            self._log(session, ex, "rejoined", FACILITATOR,
                      "The facilitator opened the room's page")  # fmt: skip
            return ex.id

        with self.acting_from(clients):  # a facilitator link opens only in its own browser
            return self._guarded(
                clients, lambda: self._act(room, act, "open the facilitator's page", bump=False)
            )

    def open_room(self, room: str, key: str, confirm_key: str) -> None:
        """Open the room to players once the facilitator shows they kept the key."""
        check_key(confirm_key, "the key typed back")

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            if ex.opened_at is not None:
                return
            if not key_matches(confirm_key, ex.facilitator_key_hash):
                raise InputError("the key typed back is not the facilitator key: copy it again")
            ex.opened_at = utcnow()
            self._log(session, ex, "opened", FACILITATOR, "Room opened to players")

        self._act(room, act, "open the room")

    def join(
        self, room: str, name: str, organisation: str | None = None, clients: Clients = ()
    ) -> Seat:
        """Join as a player with a display name that says who they are, unique in the room.

        Refused in a locked room, with a replaced room code, and from a browser of a seat the
        facilitator removed (under any name); every refusal is logged.
        """
        key = new_key()
        seen = seen_hashes(clients)

        def act(session: Session, ex: Exercise) -> Seat:
            if ex.opened_at is None:
                raise Refused("the facilitator has not opened the room yet")
            self._not_ended(ex)
            self._not_barred(session, ex, barring(seen))
            if ex.locked_at is not None:
                raise Refused("the facilitator has locked the room: no new players may join")
            org = _organisation(organisation)
            roles = session.scalars(select(Role).where(Role.exercise_id == ex.id))
            reserved = [n for r in roles for n in (r.name, r.team)]
            shown_, name_key = clean_display_name(name, reserved)
            taken = session.scalar(
                select(Participant.name).where(
                    Participant.exercise_id == ex.id, Participant.name_key == name_key
                )
            )
            if taken is not None:
                raise InputError(
                    f"someone in this room is already called {taken!r}, which {shown_!r} "
                    "would pass for; add an initial or a surname"
                )
            me = Participant(exercise_id=ex.id, name=shown_, name_key=name_key,
                             organisation=org, token_hash=key_hash(key),
                             client_hashes=seen or None,
                             holder_hash=holder_of(clients))  # fmt: skip
            session.add(me)
            session.flush()
            near = self._removed_at_address(session, ex, flagging(seen))
            if near:
                self._log(session, ex, "joined_flagged", shown_,
                          f"{shown_} joined from the address of removed seat "
                          f"{', '.join(near)}")  # fmt: skip
            else:
                self._log(session, ex, "joined", shown_, f"{shown_} joined")
            return Seat(me.id, shown_, key)

        attempt = f"join as {shown(repr(name) if isinstance(name, str) else 'no name', 60)}"
        return self._guarded(
            clients, lambda: self._act(room, act, attempt, current=True, actor=NEWCOMER)
        )

    @staticmethod
    def _not_barred(session: Session, ex: Exercise, browsers: list[str]) -> None:
        """Refuse a join from a browser of a removed seat, naming that seat (for the log)."""
        if not browsers:
            return
        barred = session.scalar(
            select(BarredClient).where(
                BarredClient.exercise_id == ex.id, BarredClient.client_hash.in_(browsers)
            )
        )
        if barred is None:
            return
        seat = session.get(Participant, barred.participant_id)
        raise Barred(
            "this browser was used by a seat the facilitator removed from the exercise"
            + (f" ({seat.name})" if seat is not None else "")
        )

    @staticmethod
    def _removed_at_address(session: Session, ex: Exercise, addresses: list[str]) -> list[str]:
        """The removed seats of this room that were used from one of ``addresses``."""
        if not addresses:
            return []
        removed = session.scalars(
            select(Participant).where(
                Participant.exercise_id == ex.id, Participant.removed_at.is_not(None)
            )
        )
        return [p.name for p in removed if set(flagging(p.client_hashes)) & set(addresses)]

    def rejoin(self, room: str, seat_key: str, clients: Clients = ()) -> Seat:
        """Check a seat key (after a reload, a disconnect or a server restart); logged.

        The browser is remembered with the seat. A key presented from a second browser
        does not get the seat: the seat is marked contested and the facilitator chooses
        (:mod:`sim.tabletop.binding`); this raises :class:`Contested` until then, and
        :class:`Forbidden` once the facilitator chose the other browser.
        """
        seen = seen_hashes(clients)

        def act(session: Session, ex: Exercise) -> Seat | None:
            me = self._player(session, ex, seat_key, bound=False)
            new = [b for b in seen if b not in (me.client_hashes or [])]
            if new:
                me.client_hashes = merged(me.client_hashes, new)
            if not self._claim_seat(session, ex, me, clients):
                return None
            where = ""
            if barring(new) and barring(me.client_hashes):
                where = " from a browser this seat was not used from before"
            self._log(session, ex, "rejoined", me.name, f"{me.name} rejoined{where}")
            return Seat(me.id, me.name, seat_key.strip())

        with self.acting_from(clients):
            seat = self._guarded(clients, lambda: self._act(room, act, "rejoin", bump=False))
        if seat is None:
            raise Contested(
                "this seat is held by another browser. The facilitator has been told and "
                "chooses which browser keeps it; this page waits for that choice"
            )
        return seat

    def lock_room(self, room: str, key: str, locked: bool = True) -> None:
        """Lock the room (no new joins; seated players stay and rejoin) or unlock it."""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            self._not_ended(ex)
            if (ex.locked_at is not None) == locked:
                return
            ex.locked_at = utcnow() if locked else None
            self._log(session, ex, "locked" if locked else "unlocked", FACILITATOR,
                      "Room locked: no new players may join" if locked
                      else "Room unlocked: new players may join")  # fmt: skip

        self._act(room, act, "lock the room" if locked else "unlock the room")

    def rekey_room(self, room: str, key: str) -> str:
        """A new room code; the old one admits nobody new. Seated players keep their seats.

        Returns the new code (shown to the facilitator, who passes it on).
        """
        for _ in range(3):
            code = new_room_code()

            def act(session: Session, ex: Exercise, code: str = code) -> str:
                self._facilitator(ex, key)
                self._not_ended(ex)
                session.add(RetiredCode(code_hash=ex.room_code_hash or room_hash(ex.room_code),
                                        exercise_id=ex.id))  # fmt: skip
                ex.room_code, ex.room_code_hash = code, room_hash(code)
                self._log(session, ex, "rekeyed", FACILITATOR,
                          "Room re-keyed: a new room code; the old code admits nobody new, "
                          "and seated players keep their seats")  # fmt: skip
                return code

            try:
                return self._act(room, act, "re-key the room")
            except Conflict:  # a code collided with another room's: draw again
                continue
            except IntegrityError:
                continue
        raise Conflict("could not allocate a new room code; please try again")

    def claim_role(self, room: str, seat_key: str, team: str) -> None:
        """Take a free role. A role has at most one holder; a player may hold several."""

        def act(session: Session, ex: Exercise) -> None:
            me = self._player(session, ex, seat_key)
            self._not_ended(ex)
            role = self._role(session, ex, team)
            if role.participant_id == me.id:
                return
            if role.participant_id is not None:
                holder = session.get(Participant, role.participant_id)
                raise Refused(
                    f"{role.name} is already held by {holder.name if holder else 'someone'}"
                )
            role.participant_id = me.id
            self._log(session, ex, "claimed", me.name, f"{me.name} took the role {role.name}")

        self._act(room, act, f"take the role {shown(team, 64)!r}")

    def release_role(self, room: str, key: str, team: str) -> None:
        """Give a role back: its holder, or the facilitator (for a player who left)."""

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            role = self._role(session, ex, team)
            if role.participant_id is None:
                return
            if not who.facilitator and (
                who.participant is None or role.participant_id != who.participant.id
            ):
                raise Forbidden("only the role's holder or the facilitator may release it")
            holder = session.get(Participant, role.participant_id)
            role.participant_id = None
            held = f" (held by {holder.name})" if holder and who.facilitator else ""
            self._log(session, ex, "released", who.name, f"{role.name} is free again{held}")

        self._act(room, act, f"release the role {shown(team, 64)!r}")

    def assign_role(self, room: str, key: str, team: str, participant_id: int) -> None:
        """The facilitator gives a role to a player, taking it from whoever held it."""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            self._not_ended(ex)
            role = self._role(session, ex, team)
            to = self._participant(session, ex, participant_id)
            if to.removed_at is not None:
                raise Refused(f"{to.name} was removed from the exercise")
            if role.participant_id == to.id:
                return
            before = session.get(Participant, role.participant_id) if role.participant_id else None
            role.participant_id = to.id
            was = f" from {before.name}" if before else ""
            self._log(session, ex, "reassigned", FACILITATOR,
                      f"{role.name} reassigned{was} to {to.name}")  # fmt: skip

        self._act(room, act, f"reassign the role {shown(team, 64)!r}")

    def remove_player(self, room: str, key: str, participant_id: int, reason: str = "") -> None:
        """The facilitator removes a player: their roles are freed, their key stops working.

        The browsers their seat was used from may not join again, under any name.
        """
        why = clean_text(reason, "the reason", 200) if reason and reason.strip() else ""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            who = self._participant(session, ex, participant_id)
            if who.removed_at is not None:
                return
            who.removed_at = utcnow()
            freed = []
            for role in session.scalars(
                select(Role).where(Role.exercise_id == ex.id, Role.participant_id == who.id)
            ):
                role.participant_id = None
                freed.append(role.name)
            barred = session.scalars(
                select(BarredClient.client_hash).where(BarredClient.exercise_id == ex.id)
            ).all()
            for browser in barring(who.client_hashes):
                if browser not in barred:
                    session.add(BarredClient(exercise_id=ex.id, client_hash=browser,
                                             participant_id=who.id))  # fmt: skip
            roles = f"; freed {', '.join(freed)}" if freed else ""
            because = f" ({why})" if why else ""
            n = len(barring(who.client_hashes))
            browsers = f"; {n} browser{'s' if n != 1 else ''} barred" if n else ""
            said = f"{who.name} removed from the exercise{because}{roles}{browsers}"
            self._log(session, ex, "removed", FACILITATOR, said)

        self._act(room, act, "remove a player")

    def set_organisation(
        self, room: str, key: str, participant_id: int, organisation: str | None
    ) -> None:
        """The facilitator records a player's organisation (for the report's overview)."""
        org = _organisation(organisation)

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            who = self._participant(session, ex, participant_id)
            if who.organisation != org:
                who.organisation = org
                self._log(session, ex, "organisation", FACILITATOR,
                          f"{who.name}'s organisation: {org or 'none'}")  # fmt: skip

        self._act(room, act, "record a player's organisation")

    @staticmethod
    def _participant(session: Session, ex: Exercise, participant_id: int) -> Participant:
        who = session.get(Participant, participant_id) if isinstance(participant_id, int) else None
        if who is None or who.exercise_id != ex.id:
            raise NotFound("no such player in this exercise")
        return who

    @staticmethod
    def _role(session: Session, ex: Exercise, team: str) -> Role:
        role = session.scalar(select(Role).where(Role.exercise_id == ex.id, Role.team == team))
        if role is None:
            raise NotFound(f"no role {team!r} in this exercise")
        return role
