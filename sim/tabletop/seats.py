"""Seats: joining with a display name, rejoining with a key, roles, and the roster.

The facilitator opens the room, removes a player, releases or reassigns a role.

Every change to the roster goes into the audit log; a removed player's key stops working
in the same transaction that removes them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from sim.tabletop.db.credentials import (
    MAX_ORGANISATION,
    check_key,
    clean_text,
    key_hash,
    new_key,
)
from sim.tabletop.db.identity import clean_display_name
from sim.tabletop.db.models import Exercise, Participant, Role, utcnow
from sim.tabletop.db.store import FACILITATOR, Clients, ExerciseStore
from sim.tabletop.errors import Forbidden, InputError, NotFound, Refused


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


class Seats(ExerciseStore):
    """Joining, rejoining and roles; the facilitator's roster actions."""

    def open_as_facilitator(self, room: str, key: str, clients: Clients = ()) -> int:
        """Check a facilitator key; the exercise's id."""

        def attempt() -> int:
            with self._reading() as session:
                ex = self._find(session, room)
                self._facilitator(ex, key)
                return ex.id

        return self._guarded(clients, attempt)

    def open_room(self, room: str, key: str, confirm_key: str) -> None:
        """Open the room to players once the facilitator shows they kept the key."""
        check_key(confirm_key, "the key typed back")

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            if ex.opened_at is not None:
                return
            if confirm_key.strip() != key.strip():
                raise InputError("the key typed back is not the facilitator key: copy it again")
            ex.opened_at = utcnow()
            self._log(session, ex, "opened", FACILITATOR, "Room opened to players")

        self._act(room, act)

    def join(
        self, room: str, name: str, organisation: str | None = None, clients: Clients = ()
    ) -> Seat:
        """Join as a player with a display name that says who they are, unique in the room."""
        org = _organisation(organisation)
        key = new_key()

        def act(session: Session, ex: Exercise) -> Seat:
            if ex.opened_at is None:
                raise Refused("the facilitator has not opened the room yet")
            self._not_ended(ex)
            roles = session.scalars(select(Role).where(Role.exercise_id == ex.id))
            shown, name_key = clean_display_name(name, [n for r in roles for n in (r.name, r.team)])
            taken = session.scalar(
                select(Participant.name).where(
                    Participant.exercise_id == ex.id, Participant.name_key == name_key
                )
            )
            if taken is not None:
                raise InputError(
                    f"someone in this room is already called {taken!r}, which {shown!r} "
                    "would pass for; add an initial or a surname"
                )
            me = Participant(exercise_id=ex.id, name=shown, name_key=name_key,
                             organisation=org, token_hash=key_hash(key))  # fmt: skip
            session.add(me)
            session.flush()
            self._log(session, ex, "joined", shown, f"{shown} joined")
            return Seat(me.id, shown, key)

        return self._guarded(clients, lambda: self._act(room, act))

    def rejoin(self, room: str, seat_key: str, clients: Clients = ()) -> Seat:
        """Check a seat key (after a reload, a disconnect or a server restart)."""

        def attempt() -> Seat:
            with self._reading() as session:
                ex = self._find(session, room)
                me = self._player(session, ex, seat_key)
                return Seat(me.id, me.name, seat_key.strip())

        return self._guarded(clients, attempt)

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

        self._act(room, act)

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

        self._act(room, act)

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

        self._act(room, act)

    def remove_player(self, room: str, key: str, participant_id: int, reason: str = "") -> None:
        """The facilitator removes a player: their roles are freed and their key stops working."""
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
            roles = f"; freed {', '.join(freed)}" if freed else ""
            because = f" ({why})" if why else ""
            self._log(session, ex, "removed", FACILITATOR,
                      f"{who.name} removed from the exercise{because}{roles}")  # fmt: skip

        self._act(room, act)

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

        self._act(room, act)

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
