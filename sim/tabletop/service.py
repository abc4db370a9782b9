"""The exercise service: every rule of a tabletop exercise, enforced here, with no UI.

A facilitator creates an exercise from a scenario and gets a room code and a facilitator
key, and opens the room once they have shown they kept the key; players join with the
room code and a display name, get a seat key, and claim roles (teams of the org graph).
The facilitator moves the clock; injects fire on their triggers; a decision the engine
raises may be made only by the player holding the role with that decision right, with a
written rationale. Everyone may comment. After the end: the hot wash, the improvement
plan and the after-action report.

The service is built in layers, one concern each: :mod:`sim.tabletop.db.store`
(transactions, finding a room, who is acting), :mod:`sim.tabletop.seats` (joining,
roles, the roster), :mod:`sim.tabletop.report.wrapup` (hot wash, plan, ratings, overview), and
this module (creating, the clock, decisions, comments, views, the report).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from sim.play.game import Game, PlayError
from sim.scenario.loading import ScenarioError, load_text
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
from sim.tabletop.db.credentials import (
    MAX_COMMENT,
    MAX_RATIONALE,
    MIN_RATIONALE,
    check_unicode,
    clean_text,
    key_hash,
    new_key,
    new_room_code,
    room_hash,
)
from sim.tabletop.db.models import Comment, Decision, Exercise, Inject, Role, utcnow
from sim.tabletop.db.room import Room, load_room
from sim.tabletop.db.store import FACILITATOR, RETRIES, Actor, shown, unavailable
from sim.tabletop.errors import Conflict, Forbidden, InputError, NotFound, Refused
from sim.tabletop.report.release import for_players
from sim.tabletop.report.report import (
    REPS,
    AfterActionReport,
    Analysis,
    Progress,
    analyse,
    audit_log,
    build_report,
    play_fingerprint,
)
from sim.tabletop.report.wrapup import DUE_DAYS, HOT_WASH_KINDS, WrapUp
from sim.tabletop.seats import Seat

logger = logging.getLogger(__name__)

MAX_SCENARIO_BYTES = 1 << 20
MAX_TITLE = 120
#: Reports (per version) and analyses (per play) kept in memory.
CACHED_REPORTS = 8
__all__ = [
    "DUE_DAYS", "FACILITATOR", "HOT_WASH_KINDS", "Actor", "Created", "Seat", "TabletopService",
]  # fmt: skip


@dataclass(frozen=True)
class Created:
    """A new exercise. ``facilitator_key`` is shown once: only its hash is stored."""

    exercise_id: int
    room_code: str
    facilitator_key: str


def _points(points: tuple[str, ...], what: str) -> tuple[str, ...]:
    return tuple(clean_text(p, what, MAX_POINT) for p in points if p.strip())


class TabletopService(WrapUp):
    """Tabletop exercises in a database (default: :func:`sim.storage.make_engine`)."""

    def __init__(self, engine: Engine | None = None, create_tables: bool = True,
                 prefetch: bool = False, **kwargs: Any) -> None:  # fmt: skip
        """A service on ``engine``; with ``prefetch`` an ended exercise's report starts at once.

        The analysis then runs in the background from the moment the facilitator ends the
        exercise (the pages set it), so the first report is ready sooner.
        """
        super().__init__(engine, create_tables, **kwargs)
        self._reports: OrderedDict[tuple[int, int, int], AfterActionReport] = OrderedDict()
        self._analyses: OrderedDict[tuple[int, str], Analysis] = OrderedDict()
        self._computing: dict[tuple[int, str], threading.Lock] = {}
        self._prefetch = prefetch

    # --- creating, joining, roles -----------------------------------------------------------

    def create_exercise(
        self,
        scenario_yaml: str,
        *,
        seed: int = 0,
        title: str | None = None,
        injects: list[InjectSpec] | None = None,
    ) -> Created:
        """A new exercise from a scenario (YAML text) and an inject list (default: authored).

        Players can join once the facilitator has opened the room (:meth:`open_room`).
        """
        check_unicode(scenario_yaml, "the scenario")
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
        if not isinstance(seed, int) or not 0 <= seed < 2**31:
            raise InputError("the seed is a whole number from 0 to 2,147,483,647")
        name = clean_text(title or scenario.name, "the title", MAX_TITLE)
        key = new_key()
        for _ in range(RETRIES):
            try:
                with self._sessions.begin() as session:
                    code = new_room_code()
                    ex = Exercise(
                        room_code=code,
                        room_code_hash=room_hash(code),
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

        def act(session: Session, ex: Exercise) -> ClockRun:
            self._facilitator(ex, key)
            if until_day is not None and by_days is not None:
                raise InputError("give a day or a number of days, not both")
            if until_day is not None and not 0.0 <= until_day <= 10_000.0:
                raise InputError("the day must be between 0 and 10,000")
            if by_days is not None and not 0.0 < by_days <= 365.0:
                raise InputError("a clock step is more than 0 and at most 365 days")
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

        return self._act(room, act, "move the clock")

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

        self._act(room, act, f"deliver the inject {shown(inject_id, 64)!r}")

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

        return self._act(room, act, "write an inject")

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
        self._log(session, ex, "inject", FACILITATOR, f"Inject delivered: {title}", day=fired.day)

    def set_status(self, room: str, key: str, status: str) -> None:
        """``paused`` (no clock, no decisions), ``running`` again, or ``ended`` (for good)."""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            if status not in ("running", "paused", "ended"):
                raise InputError(f"unknown status {status!r}")
            if ex.status == "ended":
                raise Refused("the exercise has ended")
            ex.status = status
            if status == "ended":
                ex.ended_at = utcnow()
            self._log(session, ex, status, FACILITATOR, f"Exercise {status}")

        self._act(room, act, f"set the exercise {shown(status, 16)}")
        if status == "ended" and self._prefetch:
            state = self._read(room)
            threading.Thread(target=self._analysis_of, args=(state, None, REPS),
                             name="tabletop-report", daemon=True).start()  # fmt: skip

    # --- decisions, comments, hot wash ----------------------------------------------------------

    def decide(
        self, room: str, seat_key: str, decision_key: str, choice: str, rationale: str
    ) -> None:
        """Make the waiting decision ``decision_key``: only its role's holder, with a rationale."""

        def act(session: Session, ex: Exercise) -> None:
            me = self._player(session, ex, seat_key)
            self._running(ex)
            game = derive(load_room(session, ex).play_record())
            point = game.pending
            only = None
            if point is not None and point.key == decision_key:
                only = views.single_option_reason(point.kind, list(point.options))
            # One option: nothing to explain, so no rationale is asked (it says why instead).
            if only:
                why = clean_text(rationale or "", "the rationale", MAX_RATIONALE, 0) or only
            else:
                why = clean_text(rationale, "the rationale", MAX_RATIONALE, MIN_RATIONALE)
            if not isinstance(choice, str) or not choice:
                raise InputError("choose one of the options first")
            if point is None or point.key != decision_key:
                raise Refused("that decision is no longer waiting")
            role = self._role(session, ex, point.owner)
            if role.participant_id != me.id:
                raise Forbidden(f"only the player holding {role.name} may make this decision")
            if choice not in point.options:
                raise InputError(f"{choice!r} is not an option here: {', '.join(point.options)}")
            self._record_decision(session, ex, game, choice, why, me.id, "player")
            self._log(session, ex, "decision", me.name, f"{me.name} ({role.name}) chose {choice}")

        self._act(room, act, f"decide {shown(decision_key, 40)!r}")

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

        return self._act(room, act, "settle a decision with the playbook")

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
        """A comment from a player or the facilitator, optionally about a decision's key.

        Allowed while paused and after the end; not before the room is open.
        """

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            body = clean_text(text, "a comment", MAX_COMMENT)
            on = None if about is None else clean_text(about, "the decision a comment is about", 40)
            if ex.opened_at is None and not who.facilitator:
                raise Refused("the facilitator has not opened the room yet")
            pid = who.participant.id if who.participant else None
            session.add(
                Comment(exercise_id=ex.id, participant_id=pid, author=who.name, about=on,
                        body=body, day=ex.clock_day)
            )  # fmt: skip
            self._log(session, ex, "comment", who.name, f"{who.name} commented")

        self._act(room, act, "comment")

    # --- what people see --------------------------------------------------------------------

    def version(self, room: str) -> int:
        """The exercise's version: it changes with every action (cheap to poll)."""
        with self._reading() as session:
            return self._find(session, room).version

    def player_view(self, room: str, seat_key: str) -> dict[str, Any]:
        """What a player may see: no inject before it fires, no facilitator material."""
        state = self._read(room)
        me = self._checked(state.exercise, "open a player's view",
                           lambda: self._seated(state.exercise, seat_key))  # fmt: skip
        return views.player_view(state, self._game(state), me.id)

    def facilitator_view(self, room: str, key: str) -> dict[str, Any]:
        """Everything, with the hidden view: the MSEL, expected actions, the model's state."""
        state = self._read(room)
        self._check_facilitator(room, state, key, "open the facilitator's view")
        return views.facilitator_view(state, self._game(state))

    def report(
        self, room: str, key: str, progress: Progress | None = None, reps: int = REPS
    ) -> AfterActionReport:
        """The after-action report as the exercise stands: the facilitator's, in full.

        Cached per exercise version; its audit log is read fresh each time (log entries that
        change nothing else do not move the version).
        """
        state = self._read(room)
        self._check_facilitator(room, state, key, "read the report")
        return self._report(state, progress, reps)

    def player_report(
        self, room: str, seat_key: str, progress: Progress | None = None, reps: int = REPS
    ) -> AfterActionReport:
        """The report for a seated player, once the exercise has ended.

        Without the facilitator-only parts (the expected actions, the ratings, what was
        found from them, the audit log) unless the facilitator has released them.
        """
        state = self._read(room)
        self._checked(state.exercise, "read the report",
                      lambda: self._seated(state.exercise, seat_key))  # fmt: skip
        if state.exercise.status != "ended":
            raise Refused("the report is shared once the facilitator has ended the exercise")
        full = self._report(state, progress, reps)
        return full if state.exercise.report_released_at is not None else for_players(full)

    def release_report(self, room: str, key: str, released: bool = True) -> None:
        """Share the facilitator-only parts of the report with the players (or stop)."""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            if (ex.report_released_at is not None) == released:
                return
            ex.report_released_at = utcnow() if released else None
            self._log(session, ex, "released_report" if released else "withheld_report",
                      FACILITATOR,
                      "The full report (expected actions, ratings, audit log) released to players"
                      if released else "The full report withheld from players again")  # fmt: skip

        self._act(room, act, "release the report" if released else "withhold the report")

    def record_download(self, room: str, key: str, fmt: str) -> None:
        """Log a download of the report (by the facilitator or a player) in ``fmt``."""
        what = clean_text(fmt, "the format", 16)

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            part = "full" if who.facilitator or ex.report_released_at else "players'"
            self._log(session, ex, "download", who.name,
                      f"{who.name} downloaded the {part} report ({what})")  # fmt: skip

        self._act(room, act, f"download the report ({what})", bump=False)

    def _check_facilitator(self, room: str, state: Room, key: str, attempt: str) -> None:
        self._checked(state.exercise, attempt, lambda: self._facilitator(state.exercise, key))

    def report_by_id(
        self, exercise_id: int, progress: Progress | None = None, reps: int = REPS
    ) -> AfterActionReport:
        """The report of exercise ``exercise_id``.

        The command line's way in: it reads the database directly, so needs no key; the
        pages find rooms by code, and need the facilitator's key.
        """
        return self._report(self.room_by_id(exercise_id), progress, reps)

    def exercise_id(self, room: str) -> int:
        """The id of the exercise a room code opens.

        For the command line, which has the database and so needs no key.
        """
        with self._reading() as session:
            return self._find(session, room).id

    def _report(self, state: Room, progress: Progress | None, reps: int) -> AfterActionReport:
        """The report of this version: assembled once per version from the play's analysis.

        The analysis (replay, alternatives, Monte Carlo) is computed once per play
        (:func:`play_fingerprint`) and reused by every version that changes only the
        wrap-up, and by every page asking at once (one computes, the others wait).
        """
        key = (state.exercise.id, state.exercise.version, reps)
        with self._lock:
            cached = self._reports.get(key)
        if cached is None:
            cached = build_report(state, reps=reps,
                                  analysis=self._analysis_of(state, progress, reps))  # fmt: skip
            with self._lock:
                self._reports[key] = cached
                while len(self._reports) > CACHED_REPORTS:
                    self._reports.popitem(last=False)
        return dataclasses.replace(cached, audit=audit_log(state))

    def _analysis_of(self, state: Room, progress: Progress | None, reps: int) -> Analysis:
        key = (state.exercise.id, play_fingerprint(state, reps))
        with self._lock:
            found = self._analyses.get(key)
            gate = self._computing.setdefault(key, threading.Lock())
        if found is not None:
            return found
        with gate:  # one computes; the others wait for it and reuse it
            with self._lock:
                found = self._analyses.get(key)
            if found is None:
                found = analyse(state, progress, reps)
                with self._lock:
                    self._analyses[key] = found
                    while len(self._analyses) > CACHED_REPORTS:
                        self._analyses.popitem(last=False)
        with self._lock:
            self._computing.pop(key, None)
        return found

    def adopt_findings(self, room: str, key: str, progress: Progress | None = None) -> int:
        """Put the report's proposed areas for improvement into the stored plan.

        There the facilitator can edit them. Returns how many were added.
        """
        state = self._read(room)
        self._check_facilitator(room, state, key, "adopt the report's findings")
        if state.exercise.status != "ended":
            raise Refused("the improvement plan is written once the exercise has ended")
        report = self._report(state, progress, REPS)
        added = 0
        for row in report.plan:
            if row.item_id is not None:
                continue
            self.add_hot_wash(room, key, "improvement", row.issue, owner=row.poc,
                              due=row.completion, capability=row.capability,
                              corrective_action=row.corrective_action, root_cause=row.root_cause,
                              organisation=row.organisation or None, start=row.start,
                              source=row.source)  # fmt: skip
            added += 1
        return added

    def room(self, room: str) -> Room:
        """Every stored row of an exercise (for the report and the pages)."""
        return self._read(room)

    def room_by_id(self, exercise_id: int) -> Room:
        """Every stored row of exercise ``exercise_id`` (for the command line)."""
        with self._reading() as session:
            ex = session.get(Exercise, exercise_id) if isinstance(exercise_id, int) else None
            if ex is None:
                raise NotFound(f"no exercise {exercise_id}")
            return load_room(session, ex)

    def exercises(self) -> list[tuple[int, str, str, str]]:
        """(id, room code, title, status) of every exercise, newest first."""
        with self._reading() as session:
            rows = session.execute(
                select(Exercise.id, Exercise.room_code, Exercise.title, Exercise.status).order_by(
                    Exercise.id.desc()
                )
            )
            return [(r[0], r[1], r[2], r[3]) for r in rows]
