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
    title: Mapped[str] = mapped_column(String(120))
    scenario_yaml: Mapped[str] = mapped_column(Text)
    seed: Mapped[int] = mapped_column(Integer)
    facilitator_key_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), default="running")
    clock_day: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}


class Participant(Base):
    __tablename__ = "tabletop_participants"
    __table_args__ = (UniqueConstraint("exercise_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
    """A strength or an area for improvement raised at the hot wash, with owner and due date."""

    __tablename__ = "tabletop_hot_wash"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    exercise_id: Mapped[int] = mapped_column(ForeignKey("tabletop_exercises.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    owner: Mapped[str] = mapped_column(String(80))
    due: Mapped[date] = mapped_column(Date)
    author: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
