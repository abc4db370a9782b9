"""The tabletop's tables (SQLAlchemy 2.0 ORM), kept in their own metadata.

The play itself is never stored: it is derived by replaying the scenario, the seed, the
decision log and the delivered injects through :mod:`sim.play.game`. What is stored is what
people did, each row committed when it was done. ``Exercise.version`` is an optimistic
lock: every action bumps it, so two concurrent actions cannot both build on the same
state; the loser retries on the new state (see :mod:`sim.tabletop.service`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

STATUSES = ("running", "paused", "ended")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """The tabletop's own metadata (other features keep their own tables)."""


class Exercise(Base):
    __tablename__ = "tabletop_exercises"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_code: Mapped[str] = mapped_column(String(20), unique=True)
    #: What the room is found by (:func:`sim.tabletop.db.credentials.room_hash`).
    room_code_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    title: Mapped[str] = mapped_column(String(120))
    scenario_yaml: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    facilitator_key_hash: Mapped[str] = mapped_column(String(64))
    #: The facilitator's page link (:meth:`sim.tabletop.binding.Binding.facilitator_link`):
    #: the hash of a token kept in that page's address, and the browser it opens in.
    facilitator_link_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    facilitator_holder_hash: Mapped[str | None] = mapped_column(String(80), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="running")
    clock_day: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: When the facilitator confirmed they kept the key: players may join from then on.
    opened_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Set while the facilitator has locked the room: no new player may join.
    locked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Set when the facilitator releases the facilitator-only parts of the report (the
    #: expected actions, the ratings, the audit log) to the players.
    report_released_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    #: The HSEEP exercise overview the facilitator edits: scope, sponsor, points of contact.
    overview: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __table_args__ = (Index("ix_tabletop_exercises_room_code_hash", "room_code_hash", unique=True),)
    __mapper_args__ = {"version_id_col": version}


class Participant(Base):
    __tablename__ = "tabletop_participants"
    __table_args__ = (
        UniqueConstraint("exercise_id", "name"),
        Index("ix_tabletop_participants_name_key", "exercise_id", "name_key", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    #: The name's skeleton (:func:`sim.tabletop.db.identity.name_key`): unique in the room.
    name_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    organisation: Mapped[str | None] = mapped_column(String(80), nullable=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: Set when the facilitator removed the player: their key opens nothing from then on.
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: ``kind:hash`` of the sessions, browsers and addresses this seat was used from
    #: (:mod:`sim.tabletop.db.clients`): the first two are barred when the seat is removed.
    client_hashes: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    #: The browser (``kind:hash``) that holds the seat: its key acts from there only
    #: (:mod:`sim.tabletop.binding`). Set at the join, or at the first rejoin that names one.
    holder_hash: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: A second browser that presented the seat key, waiting for the facilitator's choice.
    contender_hash: Mapped[str | None] = mapped_column(String(80), nullable=True)
    contested_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Browsers the facilitator chose against: the seat key opens nothing from them.
    denied_hashes: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    #: Hash of the seat's link token: it opens the seat only from the holding browser.
    link_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class RetiredCode(Base):
    """A room code the facilitator replaced.

    It still finds the room for seated players and the facilitator (their keys say who
    they are), and admits nobody new.
    """

    __tablename__ = "tabletop_retired_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    retired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BarredClient(Base):
    """A browser session of a removed seat: refused at join under any name."""

    __tablename__ = "tabletop_barred_clients"
    __table_args__ = (UniqueConstraint("exercise_id", "client_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    #: ``kind:hash`` (:mod:`sim.tabletop.db.clients`).
    client_hash: Mapped[str] = mapped_column(String(80))
    participant_id: Mapped[int] = mapped_column(ForeignKey("tabletop_participants.id"))
    barred_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Role(Base):
    __tablename__ = "tabletop_roles"
    __table_args__ = (UniqueConstraint("exercise_id", "team"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    team: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(Integer)
    rights: Mapped[list[str]] = mapped_column(JSON)
    risks: Mapped[list[str]] = mapped_column(JSON)
    participant_id: Mapped[int | None] = mapped_column(
        ForeignKey("tabletop_participants.id"), nullable=True
    )


class Inject(Base):
    __tablename__ = "tabletop_injects"
    __table_args__ = (UniqueConstraint("exercise_id", "inject_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    inject_id: Mapped[str] = mapped_column(String(64))
    spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    delivered_day: Mapped[float | None] = mapped_column(Float, nullable=True)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: Where the engine applied the incident (events processed, day): replay needs both.
    engine_step: Mapped[int | None] = mapped_column(Integer, nullable=True)
    engine_day: Mapped[float | None] = mapped_column(Float, nullable=True)
    engine_note: Mapped[str] = mapped_column(Text, default="")
    manual: Mapped[bool] = mapped_column(default=False)


class Decision(Base):
    __tablename__ = "tabletop_decisions"
    __table_args__ = (UniqueConstraint("exercise_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    index: Mapped[int] = mapped_column(Integer)
    key: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))
    day: Mapped[float] = mapped_column(Float)
    summary: Mapped[str] = mapped_column(Text)
    options: Mapped[list[str]] = mapped_column(JSON)
    choice: Mapped[str] = mapped_column(String(40))
    rationale: Mapped[str] = mapped_column(Text)
    team: Mapped[str] = mapped_column(String(64))
    participant_id: Mapped[int | None] = mapped_column(
        ForeignKey("tabletop_participants.id"), nullable=True
    )
    by: Mapped[str] = mapped_column(String(16))
    latency_days: Mapped[float] = mapped_column(Float, default=0.0)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Comment(Base):
    __tablename__ = "tabletop_comments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    participant_id: Mapped[int | None] = mapped_column(
        ForeignKey("tabletop_participants.id"), nullable=True
    )
    author: Mapped[str] = mapped_column(String(60))
    about: Mapped[str | None] = mapped_column(String(40), nullable=True)
    body: Mapped[str] = mapped_column(Text)
    day: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Event(Base):
    """The exercise's audit log: who did what, when (wall clock and play day)."""

    __tablename__ = "tabletop_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    day: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(24))
    actor: Mapped[str] = mapped_column(String(60))
    summary: Mapped[str] = mapped_column(Text)


class HotWashItem(Base):
    """A hot-wash strength, or a row of the improvement plan (HSEEP's AAR/IP matrix).

    ``text`` is the observation or the issue; an improvement carries its corrective action,
    capability, root cause, the responsible organisation, its point of contact
    (``owner``), and start and completion (``due``) dates. ``source`` says where it came
    from: the hot wash, or a finding of the report the facilitator adopted.
    """

    __tablename__ = "tabletop_hot_wash"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    owner: Mapped[str] = mapped_column(String(80))
    due: Mapped[date] = mapped_column(Date)
    author: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    author_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    capability: Mapped[str | None] = mapped_column(String(32), nullable=True)
    corrective_action: Mapped[str | None] = mapped_column(Text, nullable=True)
    root_cause: Mapped[str | None] = mapped_column(Text, nullable=True)
    organisation: Mapped[str | None] = mapped_column(String(80), nullable=True)
    start: Mapped[date | None] = mapped_column(Date, nullable=True)
    source: Mapped[str | None] = mapped_column(String(80), nullable=True)


class ActionRating(Base):
    """The facilitator's rating of an expected action of a delivered inject (HSEEP's P/S/M/U)."""

    __tablename__ = "tabletop_action_ratings"
    __table_args__ = (UniqueConstraint("exercise_id", "inject_id", "action"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    inject_id: Mapped[str] = mapped_column(String(64))
    action: Mapped[int] = mapped_column(Integer)
    rating: Mapped[str] = mapped_column(String(1))
    note: Mapped[str] = mapped_column(Text, default="")
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FailedAttempt(Base):
    """Failed joins from one client (a browser session, an address): the backoff's memory."""

    __tablename__ = "tabletop_failed_attempts"

    client_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    #: Seconds since the epoch (plain numbers: the same on SQLite and PostgreSQL).
    last_failure: Mapped[float] = mapped_column(Float)
    blocked_until: Mapped[float] = mapped_column(Float, default=0.0)
