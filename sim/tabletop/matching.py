"""Which decision answered which inject, judged by the day things happened in the play.

An inject is news about an incident; the decision that answers it is the first one of
its kind that the incident raised. So the match is made on the incident's day, not on the
day the inject reached the room: an incident the engine took from a facilitator's inject
happened at its engine day; one the scenario scripts happened when the engine fired it
(its trace says when), which may be days before the inject that tells the room; a
message-only inject that asks for a call happened when it was delivered. A decision
answers an inject when it was raised within :data:`WINDOW_DAYS` of the incident, and it
answers one inject at most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sim.engine.records import DecisionRecord, TraceEvent
from sim.tabletop.authoring import RAISES
from sim.tabletop.db.room import Room

#: How long after an incident its decision may be raised (days): detection of a spike by an
#: unowned monitor, or a data defect found at the run's next check.
WINDOW_DAYS = 3.0
EPS = 1e-6


@dataclass(frozen=True)
class Match:
    inject_id: str
    incident_day: float | None
    decision: DecisionRecord | None


def _scripted_kind(spec_scripted: str | None, decision_kind: str | None) -> str | None:
    if spec_scripted:
        return spec_scripted
    return next((k for k, v in RAISES.items() if v == decision_kind), None)


def _scripted_days(trace: Sequence[TraceEvent], kind: str) -> list[float]:
    words = f"Scripted incident: {kind.replace('_', ' ')}"
    return [e.day for e in trace if e.kind == "inject" and e.summary == words]


def incident_days(room: Room, trace: Sequence[TraceEvent]) -> dict[str, float | None]:
    """For each delivered inject, the play day its incident happened (None: it never did)."""
    out: dict[str, float | None] = {}
    seen: dict[str, int] = {}
    for row in sorted(room.delivered(), key=lambda r: r.position):
        spec = room.spec(row)
        if spec.engine is not None:
            out[row.inject_id] = row.engine_day if row.engine_step is not None else None
        elif spec.id.startswith("scripted-") or spec.scripted:
            kind = _scripted_kind(spec.scripted, spec.decision_kind)
            days = _scripted_days(trace, kind) if kind else []
            n = seen.get(kind or "", 0)
            seen[kind or ""] = n + 1
            out[row.inject_id] = days[n] if n < len(days) else None
        else:
            out[row.inject_id] = row.delivered_day
    return out


def match_answers(
    room: Room, decisions: Sequence[DecisionRecord], trace: Sequence[TraceEvent]
) -> dict[str, Match]:
    """The decision that answered each delivered inject asking for a call."""
    days = incident_days(room, trace)
    used: set[str] = set()
    out: dict[str, Match] = {}
    asking = [r for r in room.delivered() if room.spec(r).decision_kind]
    for row in sorted(asking, key=lambda r: (days.get(r.inject_id) or 0.0, r.position)):
        kind, day = room.spec(row).decision_kind, days.get(row.inject_id)
        found = None
        if day is not None:
            found = next(
                (d for d in sorted(decisions, key=lambda d: d.raised_day)
                 if d.kind == kind and d.key not in used
                 and day - EPS <= d.raised_day <= day + WINDOW_DAYS),
                None,
            )  # fmt: skip
        if found is not None:
            used.add(found.key)
        out[row.inject_id] = Match(row.inject_id, day, found)
    return out
