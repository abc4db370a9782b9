"""After play: the hot wash, the improvement plan, ratings, and the exercise overview.

The hot wash fills the improvement plan; the facilitator rates the expected actions and
edits the overview (scope, sponsor, points of contact).

Hot-wash items are taken only once the exercise has ended. Their author or the
facilitator may edit or delete them; every change is in the audit log.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sim.tabletop.db.credentials import MAX_HOT_WASH, MAX_ORGANISATION, MAX_OWNER, clean_text
from sim.tabletop.db.models import ActionRating, Exercise, HotWashItem, Inject, utcnow
from sim.tabletop.db.room import load_room
from sim.tabletop.db.store import FACILITATOR, Actor
from sim.tabletop.errors import Forbidden, InputError, NotFound, Refused
from sim.tabletop.report.hseep import CAPABILITIES, RATINGS
from sim.tabletop.seats import Seats

HOT_WASH_KINDS = ("strength", "improvement")
#: Days after the exercise's end that an improvement is due by default.
DUE_DAYS = 30
MAX_ACTION_TEXT = 600
#: The overview's fields and their limits (characters).
OVERVIEW_FIELDS: dict[str, int] = {
    "scope": 600,
    "sponsor": 120,
    "poc_name": 60,
    "poc_organisation": MAX_ORGANISATION,
    "poc_contact": 120,
}
#: The fields of a plan item that can be edited, with their limits (dates aside).
ITEM_TEXT = {
    "text": MAX_HOT_WASH,
    "owner": MAX_OWNER,
    "corrective_action": MAX_ACTION_TEXT,
    "root_cause": MAX_ACTION_TEXT,
    "organisation": MAX_ORGANISATION,
}


def _optional(value: Any, what: str, limit: int) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    return clean_text(value, what, limit)


def _check_item(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "kind":
            if value not in HOT_WASH_KINDS:
                raise InputError(f"a hot-wash item is a {' or an '.join(HOT_WASH_KINDS)}")
            out[name] = value
        elif name == "capability":
            if value not in (None, "") and value not in CAPABILITIES:
                raise InputError(f"unknown capability {value!r}; one of {', '.join(CAPABILITIES)}")
            out[name] = value or None
        elif name in ("start", "due"):
            if value is not None and not isinstance(value, date):
                raise InputError(f"the {name} date must be a date")
            out[name] = value
        elif name in ITEM_TEXT:
            label = "a hot-wash item" if name == "text" else f"the {name.replace('_', ' ')}"
            out[name] = (
                clean_text(value, label, ITEM_TEXT[name])
                if name == "text"
                else _optional(value, label, ITEM_TEXT[name])
            )
        else:
            raise InputError(f"a plan item has no field {name!r}")
    if out.get("start") and out.get("due") and out["due"] < out["start"]:
        raise InputError("the completion date comes before the start date")
    return out


class WrapUp(Seats):
    """The hot wash, the improvement plan, ratings and the overview."""

    def add_hot_wash(
        self,
        room: str,
        key: str,
        kind: str,
        text: str,
        owner: str | None = None,
        due: date | None = None,
        **plan: Any,
    ) -> int:
        """A strength or an area for improvement; returns the item's id.

        ``plan`` takes the plan's other fields (``capability``, ``corrective_action``,
        ``root_cause``, ``organisation``, ``start``, ``source``).
        """
        source = str(plan.pop("source", "hot wash"))[:80]
        fields = _check_item({"kind": kind, "text": text, "owner": owner, "due": due, **plan})

        def act(session: Session, ex: Exercise) -> int:
            who = self._anyone(session, ex, key)
            if ex.status != "ended":
                raise Refused("the hot wash starts once the facilitator has ended the exercise")
            held = (
                []
                if who.participant is None
                else load_room(session, ex).roles_of(who.participant.id)
            )
            default_owner = ", ".join(r.name for r in held) or who.name
            end = (ex.ended_at or utcnow()).date()
            item = HotWashItem(
                exercise_id=ex.id, kind=kind, text=fields["text"],
                owner=fields["owner"] or default_owner[:MAX_OWNER],
                due=fields["due"] or end + timedelta(days=DUE_DAYS), author=who.name,
                author_id=who.participant.id if who.participant else None,
                capability=fields.get("capability"),
                corrective_action=fields.get("corrective_action"),
                root_cause=fields.get("root_cause"), organisation=fields.get("organisation"),
                start=fields.get("start") or (end if kind == "improvement" else None),
                source=source,
            )  # fmt: skip
            session.add(item)
            session.flush()
            self._log(session, ex, "hot_wash", who.name, f"{who.name} added a {kind} (#{item.id})")
            return item.id

        return self._act(room, act, "add to the hot wash")

    def _item(self, session: Session, ex: Exercise, who: Actor, item_id: int) -> HotWashItem:
        item = session.get(HotWashItem, item_id) if isinstance(item_id, int) else None
        if item is None or item.exercise_id != ex.id:
            raise NotFound("no such hot-wash item")
        mine = who.participant is not None and item.author_id == who.participant.id
        if not (who.facilitator or mine):
            raise Forbidden("only its author or the facilitator may change a hot-wash item")
        return item

    def update_hot_wash(self, room: str, key: str, item_id: int, **fields: Any) -> None:
        """Edit a hot-wash item or plan row: its author or the facilitator."""
        checked = _check_item(fields)

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            item = self._item(session, ex, who, item_id)
            for name, value in checked.items():
                if name == "owner" and value is None:
                    continue  # an item always has an owner
                setattr(item, name, value)
            if item.due is None:
                item.due = (ex.ended_at or utcnow()).date() + timedelta(days=DUE_DAYS)
            changed = ", ".join(n.replace("_", " ") for n in checked) or "nothing"
            self._log(session, ex, "hot_wash", who.name,
                      f"{who.name} edited hot-wash item #{item.id} ({changed})")  # fmt: skip

        self._act(room, act, "edit a hot-wash item")

    def delete_hot_wash(self, room: str, key: str, item_id: int) -> None:
        """Delete a hot-wash item: its author or the facilitator."""

        def act(session: Session, ex: Exercise) -> None:
            who = self._anyone(session, ex, key)
            item = self._item(session, ex, who, item_id)
            session.delete(item)
            self._log(session, ex, "hot_wash", who.name,
                      f"{who.name} deleted hot-wash item #{item_id}: {item.text[:80]}")  # fmt: skip

        self._act(room, act, "delete a hot-wash item")

    def rate_action(
        self, room: str, key: str, inject_id: str, action: int, rating: str, note: str = ""
    ) -> None:
        """The facilitator rates an expected action of a delivered inject.

        A rating is P, S, M or U; an empty rating clears it.
        """
        if rating not in ("", *RATINGS):
            raise InputError(f"a rating is one of {', '.join(RATINGS)} (or empty to clear it)")
        remark = _optional(note, "the note", MAX_ACTION_TEXT) or ""

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            row = session.scalar(
                select(Inject).where(Inject.exercise_id == ex.id, Inject.inject_id == inject_id)
            )
            if row is None:
                raise NotFound(f"no inject {inject_id!r}")
            actions = row.spec.get("expected_actions") or []
            if not isinstance(action, int) or not 0 <= action < len(actions):
                raise NotFound(f"inject {inject_id!r} has no expected action {action!r}")
            if row.status != "delivered":
                raise Refused("only the expected actions of a delivered inject can be rated")
            stored = session.scalar(
                select(ActionRating).where(
                    ActionRating.exercise_id == ex.id,
                    ActionRating.inject_id == inject_id,
                    ActionRating.action == action,
                )
            )
            if not rating:
                if stored is not None:
                    session.delete(stored)
            elif stored is None:
                session.add(ActionRating(exercise_id=ex.id, inject_id=inject_id, action=action,
                                         rating=rating, note=remark))  # fmt: skip
            else:
                stored.rating, stored.note, stored.rated_at = rating, remark, utcnow()
            said = f"Expected action {action + 1} of {inject_id}: {rating or 'cleared'}"
            self._log(session, ex, "rated", FACILITATOR, said)

        self._act(room, act, "rate an expected action")

    def update_overview(self, room: str, key: str, **fields: str | None) -> None:
        """The facilitator edits the exercise overview (:data:`OVERVIEW_FIELDS`)."""
        unknown = set(fields) - set(OVERVIEW_FIELDS)
        if unknown:
            raise InputError(f"the overview has no field {sorted(unknown)[0]!r}")
        checked = {
            k: _optional(v, f"the {k.replace('_', ' ')}", OVERVIEW_FIELDS[k])
            for k, v in fields.items()
        }

        def act(session: Session, ex: Exercise) -> None:
            self._facilitator(ex, key)
            overview = dict(ex.overview or {})
            overview.update({k: v for k, v in checked.items() if v is not None})
            for k in [k for k, v in checked.items() if v is None]:
                overview.pop(k, None)
            ex.overview = overview
            self._log(session, ex, "overview", FACILITATOR,
                      f"Exercise overview edited ({', '.join(checked) or 'nothing'})")  # fmt: skip

        self._act(room, act, "edit the exercise overview")
