"""Bring an older exercise database up to the current tables, keeping everything in it.

``create_all`` makes missing tables but never touches existing ones, so columns added
since (room-code hashes, name keys, the improvement plan's fields...) are added here,
nullable, and filled in for the rows already stored; the unique indexes on them follow.

Stored name keys are recomputed, never trusted: a key is the name's confusable skeleton
(:func:`sim.tabletop.db.identity.name_key`), and a database written by an older skeleton
would otherwise let a look-alike of an old seat in beside it. Every seat's key is
computed again at each upgrade and rewritten where it changed. Two seats already in a
room whose names the new rule calls the same both keep their seats: the first to join
keeps the plain key (so a third look-alike is still refused), the later one gets the key
with its id appended, and the room's audit log says so. Nothing else is dropped or
rewritten.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine, inspect, select, text, update
from sqlalchemy.orm import Session

from sim.tabletop.db.credentials import normalize_room_code, room_hash
from sim.tabletop.db.identity import name_key
from sim.tabletop.db.models import Base, Event, Exercise, Participant

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
        _recompute_name_keys(session)


def fresh_name_keys(seats: list[tuple[int, int, str]]) -> dict[int, str]:
    """Each seat's name key by the current skeleton, from (id, exercise id, name) rows.

    Seats are taken in the order they joined (their ids); a seat whose key another seat
    of its room already has keeps a seat of its own with ``#id`` appended.
    """
    out: dict[int, str] = {}
    taken: set[tuple[int, str]] = set()
    for pid, exercise_id, name in sorted(seats):
        key = name_key(name) or f"#{pid}"
        if (exercise_id, key) in taken:
            key = f"{key}#{pid}"
        taken.add((exercise_id, key))
        out[pid] = key
    return out


def _recompute_name_keys(session: Session) -> None:
    rows = session.execute(
        select(Participant.id, Participant.exercise_id, Participant.name, Participant.name_key)
    ).all()
    fresh = fresh_name_keys([(r[0], r[1], r[2]) for r in rows])
    changed = [r for r in rows if fresh[r[0]] != r[3]]
    if not changed:
        return

    def set_key(pid: int, key: str) -> None:
        session.execute(
            update(Participant)
            .where(Participant.id == pid)
            .values(name_key=key)
            .execution_options(synchronize_session=False)
        )

    # Two steps, so no row takes a key another row still holds under the unique index.
    for r in changed:
        set_key(r[0], f"~migrating#{r[0]}")
    for r in changed:
        set_key(r[0], fresh[r[0]])
    names = {r[0]: r[2] for r in rows}
    for pid, key in fresh.items():
        if "#" not in key or key.startswith("#"):
            continue
        base = key.rsplit("#", 1)[0]
        twin = next((p for p, k in fresh.items() if k == base and p != pid), None)
        was = next(r for r in rows if r[0] == pid)
        if twin is None or was[3] == key:
            continue  # already logged at an earlier upgrade
        _log_twins(session, was[1], names[twin], names[pid])
    logger.info("tabletop name keys recomputed for %d seats", len(changed))


def _log_twins(session: Session, exercise_id: int, first: str, later: str) -> None:
    ex = session.get(Exercise, exercise_id)
    day = ex.clock_day if ex is not None else 0.0
    session.add(
        Event(exercise_id=exercise_id, day=day, kind="name_check", actor="TrainingRoom",
              summary=f"Name check after an upgrade: {later!r} would pass for {first!r}, "
              "who joined first; both keep their seats, and no third look-alike may join")
    )  # fmt: skip


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
