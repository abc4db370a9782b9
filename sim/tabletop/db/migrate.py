"""Bring an older exercise database up to the current tables, keeping everything in it.

``create_all`` makes missing tables but never touches existing ones, so columns added
since (room-code hashes, name keys, the improvement plan's fields...) are added here,
nullable, and filled in for the rows already stored; the unique indexes on them follow.
Nothing is dropped or rewritten beyond those new columns.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine, inspect, select, text, update
from sqlalchemy.orm import Session

from sim.tabletop.db.credentials import normalize_room_code, room_hash
from sim.tabletop.db.identity import name_key
from sim.tabletop.db.models import Base, Exercise, Participant

logger = logging.getLogger(__name__)


def _add_missing_columns(engine: Engine) -> list[str]:
    added = []
    existing = inspect(engine)
    with engine.begin() as conn:
        for table in Base.metadata.sorted_tables:
            if not existing.has_table(table.name):
                continue
            have = {c["name"] for c in existing.get_columns(table.name)}
            for column in table.columns:
                if column.name in have:
                    continue
                kind = column.type.compile(dialect=engine.dialect)
                conn.execute(text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}'))
                added.append(f"{table.name}.{column.name}")
    return added


def _backfill(engine: Engine) -> None:
    with Session(engine) as session, session.begin():
        for ex in session.scalars(select(Exercise).where(Exercise.room_code_hash.is_(None))):
            code = normalize_room_code(ex.room_code) or ex.room_code
            session.execute(
                update(Exercise)
                .where(Exercise.id == ex.id)
                .values(room_code_hash=room_hash(code))
                .execution_options(synchronize_session=False)
            )
        taken: set[tuple[int, str]] = set()
        for p in session.scalars(select(Participant).order_by(Participant.id)):
            if p.name_key is not None:
                taken.add((p.exercise_id, p.name_key))
        for p in session.scalars(
            select(Participant).where(Participant.name_key.is_(None)).order_by(Participant.id)
        ):
            key = name_key(p.name) or f"#{p.id}"
            if (p.exercise_id, key) in taken:  # two old names the new rule calls the same
                key = f"{key}#{p.id}"
            taken.add((p.exercise_id, key))
            session.execute(
                update(Participant)
                .where(Participant.id == p.id)
                .values(name_key=key)
                .execution_options(synchronize_session=False)
            )


def upgrade(engine: Engine) -> None:
    """Create what is missing: tables, columns (filled in), then their indexes."""
    Base.metadata.create_all(engine)
    added = _add_missing_columns(engine)
    if added:
        logger.info("tabletop tables upgraded: added %s", ", ".join(added))
    _backfill(engine)
    for table in Base.metadata.sorted_tables:
        for index in table.indexes:
            index.create(engine, checkfirst=True)
