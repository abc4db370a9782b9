"""The exercise store: transactions, finding a room by its code, and who is acting.

Every action is one transaction, committed before the call returns, so a crash loses
nothing. Each action reads the exercise, does its work, and commits only if the
exercise's version is still the one it read (an optimistic lock); otherwise it retries
on the new state. Concurrent players therefore never overwrite each other, on SQLite and
PostgreSQL alike.

A room is found by its code alone: by the hash of the normalised code, compared again in
constant time; a number (a database id) finds nothing. Keys are checked the same way,
and a removed player's key opens nothing.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from sim.play.game import Game
from sim.storage import make_engine
from sim.tabletop.clock import derive
from sim.tabletop.db import backoff
from sim.tabletop.db.credentials import (
    check_key,
    hashes_match,
    key_hash,
    key_matches,
    normalize_room_code,
    room_hash,
)
from sim.tabletop.db.migrate import upgrade
from sim.tabletop.db.models import Event, Exercise, Participant
from sim.tabletop.db.room import Room, load_room
from sim.tabletop.errors import Conflict, Forbidden, NotFound, Refused, TabletopError, Unavailable

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Attempts at an action before it gives up with :class:`Conflict`.
RETRIES = 12
FACILITATOR = "Facilitator"
#: Who a join or a rejoin comes from, for the backoff (e.g. ``("session:…", "ip:…")``).
Clients = Sequence[str]


@dataclass(frozen=True)
class Actor:
    """Who is acting: the facilitator, or a participant."""

    name: str
    participant: Participant | None = None

    @property
    def facilitator(self) -> bool:
        return self.participant is None


def _contended(exc: OperationalError) -> bool:
    """A lock or a serialisation failure (worth a retry), not a database that is gone."""
    text = str(exc.orig if exc.orig is not None else exc).lower()
    return any(w in text for w in ("locked", "busy", "deadlock", "could not serialize"))


def unavailable(exc: Exception) -> Unavailable:
    """The database error as a message for a person (first line, no credentials)."""
    orig = getattr(exc, "orig", None) or exc
    return Unavailable(f"the exercise database did not answer: {str(orig).splitlines()[0]}")


class ExerciseStore:
    """Exercises in a database (default: :func:`sim.storage.make_engine`).

    ``clock`` gives the time in seconds since the epoch (the backoff's clock; tests
    replace it so nothing sleeps).
    """

    def __init__(
        self,
        engine: Engine | None = None,
        create_tables: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine or make_engine()
        if create_tables:
            try:
                upgrade(self.engine)
            except OperationalError as exc:
                raise unavailable(exc) from None
        self.clock = clock
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._games: OrderedDict[tuple[int, int], Game] = OrderedDict()
        self._lock = threading.Lock()

    # --- transactions -----------------------------------------------------------------------

    @staticmethod
    def _find(session: Session, room: str) -> Exercise:
        code = normalize_room_code(room)
        ex = None
        if code is not None:
            wanted = room_hash(code)
            ex = session.scalar(select(Exercise).where(Exercise.room_code_hash == wanted))
            if ex is not None and not hashes_match(ex.room_code_hash or "", wanted):
                ex = None
        if ex is None:
            raise NotFound("no exercise with that room code")
        return ex

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Session]:
        """A read-only session; a database that does not answer is :class:`Unavailable`."""
        try:
            with self._sessions() as session:
                yield session
        except OperationalError as exc:
            raise unavailable(exc) from None

    def _act(self, room: str, action: Callable[[Session, Exercise], T]) -> T:
        """Run ``action`` in one transaction that commits only on an unchanged exercise."""
        for attempt in range(RETRIES):
            try:
                with self._sessions.begin() as session:
                    ex = self._find(session, room)
                    result = action(session, ex)
                    flag_modified(ex, "status")  # bump the version even if nothing else changed
                return result
            except OperationalError as exc:
                if not _contended(exc):
                    raise unavailable(exc) from None
                logger.info("an exercise is busy (%s); retrying", exc)
            except (StaleDataError, IntegrityError) as exc:
                logger.info("an exercise changed under an action (%s); retrying", exc)
            time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))  # noqa: S311
        raise Conflict("the exercise kept changing while this was saved; please try again")

    def _guarded(self, clients: Clients, attempt: Callable[[], T]) -> T:
        """``attempt`` under the backoff: refused while blocked; a wrong code or key counts."""
        if clients:
            with self._reading() as session:
                backoff.check(session, clients, self.clock())
        try:
            return attempt()
        except (NotFound, Forbidden):
            if clients:
                self._count_failure(clients)
            raise

    def _count_failure(self, clients: Clients) -> None:
        for _ in range(3):
            try:
                with self._sessions.begin() as session:
                    backoff.record_failure(session, clients, self.clock())
                return
            except IntegrityError:  # two failures at once: count again on the stored row
                continue
            except OperationalError as exc:
                raise unavailable(exc) from None

    def _read(self, room: str) -> Room:
        with self._reading() as session:
            return load_room(session, self._find(session, room))

    def _game(self, room: Room) -> Game:
        """The play at this version, from a small cache (a replay is cheap but not free)."""
        key = (room.exercise.id, room.exercise.version)
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
                return game
        game = derive(room.play_record())
        with self._lock:
            self._games[key] = game
            while len(self._games) > 32:
                self._games.popitem(last=False)
        return game

    @staticmethod
    def _log(session: Session, ex: Exercise, kind: str, actor: str, summary: str) -> None:
        session.add(
            Event(exercise_id=ex.id, day=ex.clock_day, kind=kind, actor=actor, summary=summary)
        )

    # --- who is acting ----------------------------------------------------------------------

    @staticmethod
    def _facilitator(ex: Exercise, key: str) -> Actor:
        check_key(key, "the facilitator key")
        if not key_matches(key, ex.facilitator_key_hash):
            raise Forbidden("that is not this exercise's facilitator key")
        return Actor(FACILITATOR)

    @staticmethod
    def _player(session: Session, ex: Exercise, seat_key: str) -> Participant:
        wanted = key_hash(check_key(seat_key, "the seat key"))
        me = session.scalar(
            select(Participant).where(
                Participant.exercise_id == ex.id, Participant.token_hash == wanted
            )
        )
        if me is None or not hashes_match(me.token_hash, wanted):
            raise Forbidden("that seat key does not belong to a player in this exercise")
        if me.removed_at is not None:
            raise Forbidden("the facilitator has removed this seat from the exercise")
        return me

    def _anyone(self, session: Session, ex: Exercise, key: str) -> Actor:
        check_key(key)
        if key_matches(key, ex.facilitator_key_hash):
            return Actor(FACILITATOR)
        me = self._player(session, ex, key)
        return Actor(me.name, me)

    @staticmethod
    def _running(ex: Exercise) -> None:
        if ex.opened_at is None:
            raise Refused("the facilitator has not opened the room yet")
        if ex.status == "paused":
            raise Refused("the facilitator has paused the exercise")
        if ex.status == "ended":
            raise Refused("the exercise has ended")

    @staticmethod
    def _not_ended(ex: Exercise) -> None:
        if ex.status == "ended":
            raise Refused("the exercise has ended")


__all__ = ["FACILITATOR", "Actor", "Clients", "ExerciseStore", "TabletopError", "unavailable"]
