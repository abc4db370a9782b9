"""The exercise service: every rule of a tabletop exercise, enforced here, with no UI.

A facilitator creates an exercise from a scenario and gets a room code and a facilitator
key; players join with the room code and a display name, get a seat key, and claim
roles (teams of the org graph). The facilitator moves the clock; injects fire on their
triggers; a decision the engine raises may be made only by the player holding the role
with that decision right, with a written rationale. Everyone may comment.

Every action is one transaction, committed before the call returns, so a crash loses
nothing. Each action re-derives the play by replay (:mod:`sim.tabletop.clock`) from what
it read, and commits only if the exercise's version is still the one it read (an
optimistic lock); otherwise it retries on the new state. Concurrent players therefore
never overwrite each other, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any, TypeVar

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import flag_modified
from sqlalchemy.orm.exc import StaleDataError

from sim.play.game import Game, PlayError
from sim.scenario.loading import ScenarioError, load_text
from sim.storage import make_engine
from sim.tabletop import views
from sim.tabletop.authoring import (
    MAX_MESSAGE,
    MAX_POINT,
    AuthoringError,
    InjectSpec,
    check_injects,
    inject_list,
    roles,
)
from sim.tabletop.clock import ClockRun, Fired, derive, fire, playbook_choice, run_clock
from sim.tabletop.credentials import (
    MAX_COMMENT,
    MAX_HOT_WASH,
    MAX_OWNER,
    MAX_RATIONALE,
    MIN_RATIONALE,
    clean_name,
    clean_text,
    key_hash,
    key_matches,
    new_key,
    new_room_code,
    normalize_room_code,
)
from sim.tabletop.errors import (
    Conflict,
    Forbidden,
    InputError,
    NotFound,
    Refused,
    Unavailable,
)
from sim.tabletop.models import (
    Base,
    Comment,
    Decision,
    Event,
    Exercise,
    HotWashItem,
    Inject,
    Participant,
    Role,
    utcnow,
)
from sim.tabletop.report import AfterActionReport, Progress, build_report
from sim.tabletop.room import Room, load_room

logger = logging.getLogger(__name__)
T = TypeVar("T")

#: Attempts at an action before it gives up with :class:`Conflict`.
RETRIES = 12
MAX_SCENARIO_BYTES = 1 << 20
MAX_TITLE = 120
HOT_WASH_KINDS = ("strength", "improvement")
#: Days after the exercise's end that an improvement is due by default.
DUE_DAYS = 30
FACILITATOR = "Facilitator"


@dataclass(frozen=True)
class Created:
    """A new exercise. ``facilitator_key`` is shown once: only its hash is stored."""

    exercise_id: int
    room_code: str
    facilitator_key: str


@dataclass(frozen=True)
class Seat:
    """A player's place in an exercise. ``seat_key`` lets them act (and rejoin) as themself."""

    participant_id: int
    name: str
    seat_key: str


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


def _points(points: tuple[str, ...], what: str) -> tuple[str, ...]:
    return tuple(clean_text(p, what, MAX_POINT) for p in points if p.strip())


class TabletopService:
    """Tabletop exercises in a database (default: :func:`sim.storage.make_engine`)."""

    def __init__(self, engine: Engine | None = None, create_tables: bool = True) -> None:
        self.engine = engine or make_engine()
        if create_tables:
            try:
                Base.metadata.create_all(self.engine)
            except OperationalError as exc:
                raise unavailable(exc) from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._games: OrderedDict[tuple[int, int], Game] = OrderedDict()
        self._reports: dict[tuple[int, int], AfterActionReport] = {}
        self._lock = threading.Lock()

    # --- transactions -----------------------------------------------------------------------

    def _find(self, session: Session, room: str | int) -> Exercise:
        if isinstance(room, int) or str(room).isdigit():
            ex = session.get(Exercise, int(room))
        else:
            code = normalize_room_code(str(room))
            ex = session.scalar(select(Exercise).where(Exercise.room_code == code))
        if ex is None:
            raise NotFound(f"no exercise with room code or id {room!r}")
        return ex

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Session]:
        """A read-only session; a database that does not answer is :class:`Unavailable`."""
        try:
            with self._sessions() as session:
                yield session
        except OperationalError as exc:
            raise unavailable(exc) from None

    def _act(self, room: str | int, action: Callable[[Session, Exercise], T]) -> T:
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
                logger.info("exercise %s is busy (%s); retrying", room, exc)
            except (StaleDataError, IntegrityError) as exc:
                logger.info("exercise %s changed under an action (%s); retrying", room, exc)
            time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))  # noqa: S311
        raise Conflict("the exercise kept changing while this was saved; please try again")

    def _read(self, room: str | int) -> Room:
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
        if not key_matches(key, ex.facilitator_key_hash):
            raise Forbidden("that is not this exercise's facilitator key")
        return Actor(FACILITATOR)

    @staticmethod
    def _player(session: Session, ex: Exercise, seat_key: str) -> Participant:
        me = session.scalar(
            select(Participant).where(
                Participant.exercise_id == ex.id, Participant.token_hash == key_hash(seat_key)
            )
        )
        if me is None:
            raise Forbidden("that seat key does not belong to a player in this exercise")
        return me

    def _anyone(self, session: Session, ex: Exercise, key: str) -> Actor:
        if key_matches(key, ex.facilitator_key_hash):
            return Actor(FACILITATOR)
        me = self._player(session, ex, key)
        return Actor(me.name, me)

    @staticmethod
    def _running(ex: Exercise) -> None:
        if ex.status == "paused":
            raise Refused("the facilitator has paused the exercise")
        if ex.status == "ended":
            raise Refused("the exercise has ended")

    # --- creating, joining, roles -----------------------------------------------------------

    def create_exercise(
        self,
        scenario_yaml: str,
        *,
        seed: int = 0,
        title: str | None = None,
        injects: list[InjectSpec] | None = None,
    ) -> Created:
        """A new exercise from a scenario (YAML text) and an inject list (default: authored)."""
        if len(scenario_yaml.encode("utf-8")) > MAX_SCENARIO_BYTES:
            raise InputError("the scenario is larger than 1 MiB")
        try:
            scenario = load_text(scenario_yaml, "scenario")
        except ScenarioError as exc:
            raise InputError(f"the scenario is not valid:\n{exc}") from None
        injects = inject_list(scenario) if injects is None else injects
        try:
            check_injects(injects)
        except AuthoringError as exc:
            raise InputError(str(exc)) from None
        if not 0 <= seed < 2**31:
            raise InputError("the seed is a whole number from 0 to 2,147,483,647")
        name = clean_text(title or scenario.name, "the title", MAX_TITLE)
        key = new_key()
        for _ in range(RETRIES):
            try:
                with self._sessions.begin() as session:
                    ex = Exercise(
                        room_code=new_room_code(),
                        title=name,
                        scenario_yaml=scenario_yaml,
                        seed=seed,
                        facilitator_key_hash=key_hash(key),
                        status="running",
                        clock_day=0.0,
                    )
                    session.add(ex)
                    session.flush()
                    for n, r in enumerate(roles(scenario)):
                        session.add(
                            Role(exercise_id=ex.id, team=r.team, name=r.name, position=n,
                                 rights=list(r.rights), risks=list(r.risks))
                        )  # fmt: skip
                    for n, spec in enumerate(injects):
                        session.add(
                            Inject(exercise_id=ex.id, position=n, inject_id=spec.id,
                                   spec=spec.to_dict(), status="pending", engine_note="")
                        )  # fmt: skip
                    self._log(session, ex, "created", FACILITATOR, f"Exercise created: {name}")
                return Created(ex.id, ex.room_code, key)
            except IntegrityError:  # a room code collided: draw another
                continue
            except OperationalError as exc:
                raise unavailable(exc) from None
        raise Conflict("could not allocate a room code")

    def join(self, room: str, name: str) -> Seat:
        """Join as a player with a display name, unique in the room."""
        display = clean_name(name)
        key = new_key()

        def act(session: Session, ex: Exercise) -> Seat:
            if ex.status == "ended":
                raise Refused("the exercise has ended")
            taken = session.scalar(
                select(func.count(Participant.id)).where(
                    Participant.exercise_id == ex.id,
                    func.lower(Participant.name) == display.lower(),
                )
            )
            if taken:
                raise InputError(f"someone in this room is already called {display!r}")
            me = Participant(exercise_id=ex.id, name=display, token_hash=key_hash(key))
            session.add(me)
            session.flush()
            self._log(session, ex, "joined", display, f"{display} joined")
            return Seat(me.id, display, key)

        return self._act(room, act)

    def rejoin(self, room: str, seat_key: str) -> Seat:
        """Check a seat key (after a disconnect or a server restart)."""
        with self._reading() as session:
            ex = self._find(session, room)
            me = self._player(session, ex, seat_key)
            return Seat(me.id, me.name, seat_key)

    def open_as_facilitator(self, room: str, key: str) -> int:
        """Check a facilitator key; the exercise's id."""
        with self._reading() as session:
            ex = self._find(session, room)
            self._facilitator(ex, key)
            return ex.id

    def claim_role(self, room: str, seat_key: str, team: str) -> None:
        """Take a free role. A role has at most one holder; a player may hold several."""

        def act(session: Session, ex: Exercise) -> None:
            me = self._player(session, ex, seat_key)
            if ex.status == "ended":
                raise Refused("the exercise has ended")
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
            role.participant_id = None
            self._log(session, ex, "released", who.name, f"{role.name} is free again")

        self._act(room, act)

    @staticmethod
    def _role(session: Session, ex: Exercise, team: str) -> Role:
        role = session.scalar(select(Role).where(Role.exercise_id == ex.id, Role.team == team))
        if role is None:
            raise NotFound(f"no role {team!r} in this exercise")
        return role

    # --- the clock (facilitator) ------------------------------------------------------------

    def advance(
        self,
        room: str,
        key: str,
        until_day: float | None = None,
        by_days: float | None = None,
    ) -> ClockRun:
        """Move the clock to the next inject, to ``until_day``, or ``by_days`` further.

        To a day, injects due on the way are delivered and the clock goes on; by a number
        of days (a running clock's tick), it stops at the first inject so the room can
        read it. The clock always stops early when a decision is waiting or the project
        ends.
        """
        if until_day is not None and by_days is not None:
            raise InputError("give a day or a number of days, not both")
        if until_day is not None and not 0.0 <= until_day <= 10_000.0:
            raise InputError("the day must be between 0 and 10,000")
        if by_days is not None and not 0.0 < by_days <= 365.0:
            raise InputError("a clock step is more than 0 and at most 365 days")

        def act(session: Session, ex: Exercise) -> ClockRun:
            self._facilitator(ex, key)
            self._running(ex)
            room_ = load_room(session, ex)
            game = derive(room_.play_record())
            if game.pending is not None:
                raise Refused(f"a decision is waiting for {game.pending.owner}")
            if game.finished:
                raise Refused("the project has finished: end the exercise for the hot wash")
            target = until_day if by_days is None else min(10_000.0, ex.clock_day + by_days)
            if target is not None and target <= ex.clock_day:
                raise InputError(f"the clock is already at day {ex.clock_day:.1f}")
            stop_at_inject = until_day is None
            run = run_clock(game, ex.clock_day, room_.waiting(), target, stop_at_inject)
            by_id = {i.inject_id: i for i in room_.injects}
            for f in run.fired:
                self._delivered(session, ex, by_id[f.inject_id], f, manual=False)
            ex.clock_day = run.clock_day
            self._log(
                session,
                ex,
                "clock",
                FACILITATOR,
                f"Clock to day {run.clock_day:.1f} ({run.reason})",
            )
            return run

        return self._act(room, act)

    def deliver_inject(self, room: str, key: str, inject_id: str) -> None:
        """Deliver a waiting inject now, whatever its trigger (the facilitator's call)."""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            self._running(ex)
            room_ = load_room(session, ex)
            row = next((i for i in room_.injects if i.inject_id == inject_id), None)
            if row is None:
                raise NotFound(f"no inject {inject_id!r}")
            if row.status != "pending":
                raise Refused(f"inject {inject_id!r} was already delivered")
            game = derive(room_.play_record())
            try:
                fired = fire(game, inject_id, room_.spec(row), ex.clock_day)
            except PlayError as exc:
                raise Refused(str(exc)) from None
            self._delivered(session, ex, row, fired, manual=True)

        self._act(room, act)

    def add_inject(self, room: str, key: str, spec: InjectSpec) -> str:
        """Write a new inject into the running exercise's list (the facilitator's own text).

        It waits for its trigger like any other (a day already passed fires on the next
        clock move), or the facilitator delivers it at once. Its id is made unique here;
        the id it was given is kept as a prefix. Returns the id it got.
        """

        def act(session: Session, ex: Exercise) -> str:
            self._facilitator(ex, key)
            if ex.status == "ended":
                raise Refused("the exercise has ended")
            room_ = load_room(session, ex)
            taken = {i.inject_id for i in room_.injects}
            base = (spec.id or "custom")[:56]
            inject_id = base
            n = 1
            while inject_id in taken:
                n += 1
                inject_id = f"{base}-{n}"
            made = dataclasses.replace(
                spec,
                id=inject_id,
                title=clean_text(spec.title, "the inject's title", MAX_TITLE),
                message=clean_text(spec.message, "the message to players", MAX_MESSAGE),
                expected_actions=_points(spec.expected_actions, "an expected action"),
                learning_points=_points(spec.learning_points, "a learning point"),
            )
            try:
                check_injects([room_.spec(i) for i in room_.injects] + [made])
            except AuthoringError as exc:
                raise InputError(str(exc)) from None
            position = max((i.position for i in room_.injects), default=-1) + 1
            session.add(
                Inject(exercise_id=ex.id, position=position, inject_id=inject_id,
                       spec=made.to_dict(), status="pending", engine_note="")
            )  # fmt: skip
            self._log(
                session, ex, "authored", FACILITATOR,
                f"Inject written: {made.title} ({made.trigger.describe()})",
            )  # fmt: skip
            return inject_id

        return self._act(room, act)

    def _delivered(
        self, session: Session, ex: Exercise, row: Inject, fired: Fired, manual: bool
    ) -> None:
        row.status = "delivered"
        row.delivered_day = fired.day
        row.delivered_at = utcnow()
        row.engine_step = fired.step
        row.engine_day = fired.engine_day
        row.engine_note = fired.note
        row.manual = manual
        title = row.spec.get("title", row.inject_id)
        self._log(session, ex, "inject", FACILITATOR, f"Inject delivered: {title}")

    def set_status(self, room: str, key: str, status: str) -> None:
        """``paused`` (no clock, no decisions), ``running`` again, or ``ended`` (for good)."""
        if status not in ("running", "paused", "ended"):
            raise InputError(f"unknown status {status!r}")

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            if ex.status == "ended":
                raise Refused("the exercise has ended")
            ex.status = status
            if status == "ended":
                ex.ended_at = utcnow()
            self._log(session, ex, status, FACILITATOR, f"Exercise {status}")

        self._act(room, act)

    # --- decisions, comments, hot wash ----------------------------------------------------------

    def decide(
        self, room: str, seat_key: str, decision_key: str, choice: str, rationale: str
    ) -> None:
        """Make the waiting decision ``decision_key``: only its role's holder, with a rationale."""
        why = clean_text(rationale, "the rationale", MAX_RATIONALE, MIN_RATIONALE)

        def act(session: Session, ex: Exercise) -> None:
            me = self._player(session, ex, seat_key)
            self._running(ex)
            game = derive(load_room(session, ex).play_record())
            point = game.pending
            if point is None or point.key != decision_key:
                raise Refused("that decision is no longer waiting")
            role = self._role(session, ex, point.owner)
            if role.participant_id != me.id:
                raise Forbidden(f"only the player holding {role.name} may make this decision")
            if choice not in point.options:
                raise InputError(f"{choice!r} is not an option here: {', '.join(point.options)}")
            self._record_decision(session, ex, game, choice, why, me.id, "player")
            self._log(session, ex, "decision", me.name, f"{me.name} ({role.name}) chose {choice}")

        self._act(room, act)

    def resolve_with_playbook(self, room: str, key: str) -> str:
        """Settle the waiting decision by the playbook: the facilitator, if its role is free."""

        def act(session: Session, ex: Exercise) -> str:
            self._facilitator(ex, key)
            self._running(ex)
            game = derive(load_room(session, ex).play_record())
            point = game.pending
            if point is None:
                raise Refused("no decision is waiting")
            role = self._role(session, ex, point.owner)
            if role.participant_id is not None:
                raise Forbidden(f"{role.name} has a player; only they may make this decision")
            choice = playbook_choice(game)
            why = (
                f"Settled by the facilitator with the scenario's playbook: nobody held {role.name}."
            )
            self._record_decision(session, ex, game, choice, why, None, "playbook")
            self._log(
                session, ex, "decision", FACILITATOR, f"Playbook chose {choice} for {role.name}"
            )
            return choice

        return self._act(room, act)

    @staticmethod
    def _record_decision(
        session: Session, ex: Exercise, game: Game, choice: str, why: str, who: int | None, by: str
    ) -> None:
        point = game.pending
        assert point is not None
        game.decide(choice)
        session.add(
            Decision(exercise_id=ex.id, index=point.index, key=point.key, kind=point.kind,
                     day=point.day, summary=point.summary, options=list(point.options),
                     choice=choice, rationale=why, team=point.owner, participant_id=who, by=by,
                     latency_days=point.latency_days)
        )  # fmt: skip

    def comment(self, room: str, key: str, text: str, about: str | None = None) -> None:
        """A comment from a player or the facilitator, optionally about a decision's key."""
        body = clean_text(text, "a comment", MAX_COMMENT)
        if about is not None:
            about = clean_text(about, "the decision a comment is about", 40)

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            pid = who.participant.id if who.participant else None
            session.add(
                Comment(exercise_id=ex.id, participant_id=pid, author=who.name, about=about,
                        body=body, day=ex.clock_day)
            )  # fmt: skip
            self._log(session, ex, "comment", who.name, f"{who.name} commented")

        self._act(room, act)

    def add_hot_wash(
        self,
        room: str,
        key: str,
        kind: str,
        text: str,
        owner: str | None = None,
        due: date | None = None,
    ) -> None:
        """A strength or area for improvement from the hot wash, with an owner and a due date."""
        if kind not in HOT_WASH_KINDS:
            raise InputError(f"a hot-wash item is a {' or an '.join(HOT_WASH_KINDS)}")
        body = clean_text(text, "a hot-wash item", MAX_HOT_WASH)
        owner_ = clean_text(owner, "the owner", MAX_OWNER) if owner and owner.strip() else None

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            held = (
                []
                if who.participant is None
                else load_room(session, ex).roles_of(who.participant.id)
            )
            default_owner = ", ".join(r.name for r in held) or who.name
            start = (ex.ended_at or utcnow()).date()
            session.add(
                HotWashItem(exercise_id=ex.id, kind=kind, text=body,
                            owner=owner_ or default_owner[:MAX_OWNER],
                            due=due or start + timedelta(days=DUE_DAYS), author=who.name)
            )  # fmt: skip
            self._log(session, ex, "hot_wash", who.name, f"{who.name} added a {kind}")

        self._act(room, act)

    # --- what people see --------------------------------------------------------------------

    def version(self, room: str | int) -> int:
        """The exercise's version: it changes with every action (cheap to poll)."""
        with self._reading() as session:
            return self._find(session, room).version

    def player_view(self, room: str, seat_key: str) -> dict[str, Any]:
        """What a player may see: no inject before it fires, no facilitator material."""
        state = self._read(room)
        with self._reading() as session:
            me = self._player(session, state.exercise, seat_key)
        return views.player_view(state, self._game(state), me.id)

    def facilitator_view(self, room: str, key: str) -> dict[str, Any]:
        """Everything, with the hidden view: the MSEL, expected actions, the model's state."""
        state = self._read(room)
        self._facilitator(state.exercise, key)
        return views.facilitator_view(state, self._game(state))

    def report(self, room: str | int, progress: Progress | None = None) -> AfterActionReport:
        """The after-action report as the exercise stands (cached per version)."""
        state = self._read(room)
        key = (state.exercise.id, state.exercise.version)
        with self._lock:
            cached = self._reports.get(key)
        if cached is None:
            cached = build_report(state, progress)
            with self._lock:
                self._reports = {key: cached}
        return cached

    def room(self, room: str | int) -> Room:
        """Every stored row of an exercise (for the report and the command line)."""
        return self._read(room)

    def exercises(self) -> list[tuple[int, str, str, str]]:
        """(id, room code, title, status) of every exercise, newest first."""
        with self._reading() as session:
            rows = session.execute(
                select(Exercise.id, Exercise.room_code, Exercise.title, Exercise.status).order_by(
                    Exercise.id.desc()
                )
            )
            return [(r[0], r[1], r[2], r[3]) for r in rows]
