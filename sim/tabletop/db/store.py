"""The exercise store: transactions, finding a room by its code, and who is acting.

Every action is one transaction, committed before the call returns, so a crash loses
nothing. Each action reads the exercise, does its work, and commits only if the
exercise's version is still the one it read (an optimistic lock); otherwise it retries
on the new state. Concurrent players therefore never overwrite each other, on SQLite and
PostgreSQL alike.

A room is found by its code alone: by the hash of the normalised code, compared again in
constant time; a number (a database id) finds nothing. Keys are checked the same way,
and a removed player's key opens nothing. A code the facilitator replaced (a re-key)
still finds the room for people whose key says who they are, and admits nobody new.

Every action and every refusal goes into the audit log, with its actor, the UTC time and
the exercise day. An action logs in its own transaction; a refusal rolls the action back
and is then logged in a transaction of its own, naming who tried (as far as their key
says) and what was refused. Log rows that change nothing in the exercise (rejoins,
refusals, downloads) do not bump its version, so they do not make every open page and
the report's cache start again; :meth:`ExerciseStore.log_mark` tells a page that the log
grew.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from sim.play.game import Game
from sim.storage import make_engine
from sim.tabletop.clock import derive
from sim.tabletop.db import backoff
from sim.tabletop.db.clients import holder_of
from sim.tabletop.db.credentials import (
    check_key,
    hashes_match,
    key_hash,
    key_matches,
    normalize_room_code,
    room_hash,
)
from sim.tabletop.db.migrate import upgrade
from sim.tabletop.db.models import Event, Exercise, Participant, RetiredCode
from sim.tabletop.db.room import Room, load_room
from sim.tabletop.errors import (
    Barred,
    Conflict,
    Forbidden,
    NotFound,
    OldCode,
    Refused,
    TabletopError,
    Unavailable,
)

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Attempts at an action before it gives up with :class:`Conflict`.
RETRIES = 12
FACILITATOR = "Facilitator"
#: Who a join or a rejoin comes from, for the backoff (e.g. ``("session:…", "ip:…")``).
Clients = Sequence[str]
#: The log's actor for someone whose key opened nothing, and for someone not seated yet.
UNKNOWN_KEY = "someone with a wrong key"
NEWCOMER = "newcomer (not seated)"
#: Log entries the facilitator's page does not rerun for (shown at its next rerun).
QUIET_KINDS = ("download",)
#: Who the action under way turned out to be (set as keys are checked; read on refusal).
_ACTOR: ContextVar[str | None] = ContextVar("tabletop_actor", default=None)
#: Who is calling (the page's clients, :meth:`ExerciseStore.acting_from`): a seat key acts
#: only from the browser that holds its seat (:mod:`sim.tabletop.binding`).
_CLIENTS: ContextVar[tuple[str, ...]] = ContextVar("tabletop_clients", default=())


def shown(text: object, limit: int) -> str:
    """Text fit for the log: valid Unicode, no control or bidi characters, at most ``limit``."""
    raw = str(text).encode("utf-8", "replace").decode("utf-8")
    kept = "".join(c for c in raw if not unicodedata.category(c).startswith("C"))
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


def log_kind(exc: TabletopError) -> str:
    """The log's kind for a refusal: a removed seat's browser is told apart."""
    return "barred" if isinstance(exc, Barred) else "refused"


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
    def _locate(
        session: Session,
        room: str,
        current: bool = False,
        seen: list[tuple[int, float]] | None = None,
    ) -> Exercise:
        """The exercise of a room code; with ``current``, a replaced code is :class:`OldCode`.

        The exercise found (its id and day) is appended to ``seen``, even when it is refused
        for an old code, so that a refusal can be logged in its room.
        """
        code = normalize_room_code(room)
        if code is not None:
            wanted = room_hash(code)
            ex = session.scalar(select(Exercise).where(Exercise.room_code_hash == wanted))
            if ex is not None and hashes_match(ex.room_code_hash or "", wanted):
                if seen is not None:
                    seen.append((ex.id, ex.clock_day))
                return ex
            old = session.get(RetiredCode, wanted)
            if old is not None and hashes_match(old.code_hash, wanted):
                ex = session.get(Exercise, old.exercise_id)
                if ex is not None:
                    if seen is not None:
                        seen.append((ex.id, ex.clock_day))
                    if current:
                        raise OldCode(
                            "the facilitator has changed this room's code: ask them for the new one"
                        )
                    return ex
        raise NotFound("no exercise with that room code")

    @classmethod
    def _find(cls, session: Session, room: str) -> Exercise:
        return cls._locate(session, room)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Session]:
        """A read-only session; a database that does not answer is :class:`Unavailable`."""
        try:
            with self._sessions() as session:
                yield session
        except OperationalError as exc:
            raise unavailable(exc) from None

    def _act(
        self,
        room: str,
        action: Callable[[Session, Exercise], T],
        attempt: str | None = None,
        *,
        current: bool = False,
        bump: bool = True,
        actor: str | None = None,
    ) -> T:
        """Run ``action`` in one transaction that commits only on an unchanged exercise.

        ``attempt`` says what was tried, for the log when it is refused; ``actor`` who tried
        before any key says so. ``current``: only the room's current code finds it (a
        join). ``bump``: the action changes the exercise (its version moves on).
        """
        for n in range(RETRIES):
            seen: list[tuple[int, float]] = []
            token = _ACTOR.set(actor)
            try:
                with self._sessions.begin() as session:
                    ex = self._locate(session, room, current, seen)
                    result = action(session, ex)
                    if bump:
                        flag_modified(ex, "status")  # bump the version even if nothing else did
                return result
            except (Conflict, Unavailable):
                raise
            except TabletopError as exc:
                if attempt is not None and seen:
                    who = _ACTOR.get() or UNKNOWN_KEY
                    self._log_refusal(*seen[0], who, attempt, exc)
                raise
            except OperationalError as exc:
                if not _contended(exc):
                    raise unavailable(exc) from None
                logger.info("an exercise is busy (%s); retrying", exc)
            except (StaleDataError, IntegrityError) as exc:
                logger.info("an exercise changed under an action (%s); retrying", exc)
            finally:
                _ACTOR.reset(token)
            time.sleep(random.uniform(0.005, 0.02) * (n + 1))  # noqa: S311
        raise Conflict("the exercise kept changing while this was saved; please try again")

    def _log_refusal(
        self, exercise_id: int, day: float, actor: str, attempt: str, exc: TabletopError
    ) -> None:
        """A refused attempt, in the log of the room it was made in (its own transaction)."""
        event = Event(exercise_id=exercise_id, day=day, kind=log_kind(exc), actor=shown(actor, 60),
                      summary=shown(f"Refused: {attempt}: {exc}", 2_000))  # fmt: skip
        try:
            with self._sessions.begin() as session:
                session.add(event)
        except (OperationalError, IntegrityError) as error:  # the refusal itself stands
            logger.warning("could not log a refusal in exercise %s: %s", exercise_id, error)

    def _seated(self, ex: Exercise, seat_key: str) -> Participant:
        """The seated player a key belongs to (a read of its own)."""
        with self._reading() as session:
            return self._player(session, ex, seat_key)

    def _checked(self, ex: Exercise, attempt: str, check: Callable[[], T]) -> T:
        """``check`` (a key's check on a read), its refusal logged under who the key showed."""
        token = _ACTOR.set(None)
        try:
            return check()
        except Forbidden as exc:
            self._log_refusal(ex.id, ex.clock_day, _ACTOR.get() or UNKNOWN_KEY, attempt, exc)
            raise
        finally:
            _ACTOR.reset(token)

    def log_mark(self, room: str) -> int:
        """The newest audit-log entry's id (cheap to poll: it grows with every entry).

        A report download (:data:`QUIET_KINDS`) does not count: the page that polls it
        would rerun under the download and lose the file.
        """
        with self._reading() as session:
            ex = self._find(session, room)
            last = session.scalar(
                select(func.max(Event.id)).where(
                    Event.exercise_id == ex.id, Event.kind.not_in(QUIET_KINDS)
                )
            )
            return int(last or 0)

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
    def _log(
        session: Session, ex: Exercise, kind: str, actor: str, summary: str,
        day: float | None = None,
    ) -> None:  # fmt: skip
        """An entry of the audit log: at the exercise's day, or at ``day`` it happened."""
        when = ex.clock_day if day is None else day
        session.add(Event(exercise_id=ex.id, day=when, kind=kind, actor=shown(actor, 60),
                          summary=summary))  # fmt: skip

    # --- who is acting ----------------------------------------------------------------------

    @staticmethod
    def _is_facilitator(ex: Exercise, key: str) -> bool:
        """The facilitator key, or the facilitator page's link token from its own browser.

        The link (kept in the page's address instead of the key) opens the exercise only in
        the browser it was made in: anywhere else it is refused, like a seat link.
        """
        if key_matches(key, ex.facilitator_key_hash):
            return True
        if not ex.facilitator_link_hash or not key_matches(key, ex.facilitator_link_hash):
            return False
        caller = holder_of(_CLIENTS.get())
        if caller is None or caller != ex.facilitator_holder_hash:
            _ACTOR.set(FACILITATOR)  # the log names whose link it was, as for a seat link
            raise Forbidden(
                "a facilitator link opens the exercise only in the browser it "
                "was made in; resume with the room code and the facilitator key"
            )
        return True

    @classmethod
    def _facilitator(cls, ex: Exercise, key: str) -> Actor:
        check_key(key, "the facilitator key")
        if not cls._is_facilitator(ex, key):
            raise Forbidden("that is not this exercise's facilitator key")
        _ACTOR.set(FACILITATOR)
        return Actor(FACILITATOR)

    @staticmethod
    @staticmethod
    @contextlib.contextmanager
    def acting_from(clients: Clients) -> Iterator[None]:
        """Every call inside names these clients (the page's session, browser, address).

        A seat key then acts only from the browser that holds its seat, and a seat link
        opens it only there (:mod:`sim.tabletop.binding`).
        """
        token = _CLIENTS.set(tuple(clients))
        try:
            yield
        finally:
            _CLIENTS.reset(token)

    @staticmethod
    def _player(session: Session, ex: Exercise, seat_key: str, bound: bool = True) -> Participant:
        """The seated player a seat key (or a seat link's token) belongs to.

        ``bound``: refused from a browser other than the one holding the seat. A link
        token is always bound, and needs the caller to name its browser.
        """
        wanted = key_hash(check_key(seat_key, "the seat key"))
        me = session.scalar(
            select(Participant).where(
                Participant.exercise_id == ex.id, Participant.token_hash == wanted
            )
        )
        by_link = False
        if me is None:
            me = session.scalar(
                select(Participant).where(
                    Participant.exercise_id == ex.id, Participant.link_hash == wanted
                )
            )
            by_link = me is not None
        stored = (me.link_hash if by_link else me.token_hash) if me is not None else None
        if me is None or not hashes_match(stored or "", wanted):
            raise Forbidden("that seat key does not belong to a player in this exercise")
        _ACTOR.set(me.name if me.removed_at is None else f"{me.name} (removed)")
        if me.removed_at is not None:
            raise Forbidden("the facilitator has removed this seat from the exercise")
        caller = holder_of(_CLIENTS.get())
        if by_link and (caller is None or caller != me.holder_hash):
            raise Forbidden("a seat link opens the seat only in the browser that holds it; "
                            "rejoin with your seat key")  # fmt: skip
        if bound and caller is not None and me.holder_hash not in (None, caller):
            if caller in (me.denied_hashes or []):
                raise Forbidden("the facilitator gave this seat to another browser")
            raise Forbidden("this seat is held by another browser; rejoin with your seat key "
                            "and the facilitator chooses which browser keeps it")  # fmt: skip
        return me

    def _anyone(self, session: Session, ex: Exercise, key: str) -> Actor:
        check_key(key)
        if self._is_facilitator(ex, key):
            _ACTOR.set(FACILITATOR)
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


__all__ = [
    "FACILITATOR", "NEWCOMER", "UNKNOWN_KEY", "Actor", "Clients", "ExerciseStore",
    "TabletopError", "shown", "unavailable",
]  # fmt: skip
