"""What a player may see, and what the facilitator sees besides, as plain JSON-able data.

A player's view is built from public fields only: injects appear when delivered, with
their title and message; expected actions, learning points, triggers, the model's true
scores and its undiscovered defects stay in the facilitator's view. The pages only
display these dictionaries.
"""

from __future__ import annotations

import math
from typing import Any

from sim.engine.budget import ON_FORECAST
from sim.play.game import Game
from sim.play.views import snapshot
from sim.scenario.vocabulary import DECISION_TITLES
from sim.tabletop.binding import seat_notice
from sim.tabletop.clock import metrics, playbook_choice
from sim.tabletop.db.room import Room
from sim.tabletop.db.store import QUIET_KINDS

#: Engine trace kinds players do not see: the facilitator's injects and the analysis of
#: what set the pace are the facilitator's business.
HIDDEN_TRACE = frozenset({"inject", "critical"})
RECENT = 15


def _situation(room: Room, game: Game) -> dict[str, Any]:
    snap = snapshot(game)
    ex = room.exercise
    run = snap["run"]
    return {
        "day": game.model.finish_day if game.finished else ex.clock_day,
        "phase": snap["phase"],
        "finished": snap["finished"],
        "deadline_days": snap["deadline_days"],
        "budget_usd": snap["budget_usd"],
        "spent_usd": snap["spent_usd"],
        "reserve_usd": snap["reserve_usd"],
        "reserve_left_usd": snap["reserve_left_usd"],
        "run": None
        if run is None
        else {k: run[k] for k in ("label", "progress", "effective_training_time", "interruptions",
                                  "spikes", "loss", "tokens_b", "target_b")},
        "evals": {
            ev: {k: v for k, v in info.items() if k != "true_score"}
            for ev, info in snap["evals"].items()
        },
    }  # fmt: skip


def _roles(room: Room) -> list[dict[str, Any]]:
    names = room.names
    return [
        {
            "team": r.team,
            "name": r.name,
            "rights": list(r.rights),
            "risks": list(r.risks),
            "holder": names.get(r.participant_id) if r.participant_id else None,
        }
        for r in room.roles
    ]


#: A budget call raised by the forecast, not by a cut (the engine's own words for it).
FORECAST_WORDS = ON_FORECAST


def decision_title(kind: str, summary: str) -> str:
    """The call's title: a forecast over budget is not a cut."""
    if kind == "budget" and FORECAST_WORDS in summary:
        return "The forecast is over budget: how do you close the gap?"
    return DECISION_TITLES.get(kind, kind.replace("_", " ").capitalize())


def single_option_reason(kind: str, options: tuple[str, ...] | list[str]) -> str | None:
    """Why a call offers one option (None when it offers more): nothing to explain."""
    if len(options) != 1:
        return None
    only = options[0].replace("_", " ")
    if kind == "budget" and options[0] == "accept_overrun":
        return (f"Only {only} is open: the reserve is spent and no cut of scope applies "
                "now, so there is no choice to explain.")  # fmt: skip
    return (f"Only {only} is open: the other responses were used already or do not apply "
            "here, so there is no choice to explain.")  # fmt: skip


def _pending(room: Room, game: Game, me: int | None) -> dict[str, Any] | None:
    point = game.pending
    if point is None:
        return None
    role = next((r for r in room.roles if r.team == point.owner), None)
    holder = room.holder(point.owner)
    return {
        "key": point.key,
        "kind": point.kind,
        "day": point.day,
        "summary": point.summary,
        "options": list(point.options),
        "team": point.owner,
        "role": role.name if role else point.owner,
        "holder": holder.name if holder else None,
        "can_decide": holder is not None and holder.id == me and room.exercise.status == "running",
        "detected_by": point.detected_by,
        "latency_days": point.latency_days,
        "title": decision_title(point.kind, point.summary),
        "single_option": single_option_reason(point.kind, list(point.options)),
    }


def _decisions(room: Room) -> list[dict[str, Any]]:
    roles = {r.team: r.name for r in room.roles}
    return [
        {
            "key": d.key,
            "kind": d.kind,
            "day": d.day,
            "summary": d.summary,
            "choice": d.choice,
            "options": list(d.options),
            "rationale": d.rationale,
            "role": roles.get(d.team, d.team),
            "by": room.decided_by(d),
        }
        for d in room.decisions
    ]


def _delivered(room: Room) -> list[dict[str, Any]]:
    """Delivered injects in the order they arrived (the pages show the newest first)."""
    out = []
    for n, i in enumerate(room.delivered()):
        spec = room.spec(i)
        out.append({"id": i.inject_id, "title": spec.title, "message": spec.message,
                    "day": i.delivered_day, "order": n})  # fmt: skip
    return out


def _hot_wash(room: Room) -> list[dict[str, Any]]:
    return [
        {
            "id": h.id,
            "kind": h.kind,
            "text": h.text,
            "owner": h.owner,
            "due": h.due.isoformat(),
            "author": h.author,
            "author_id": h.author_id,
            "capability": h.capability or "",
            "corrective_action": h.corrective_action or "",
            "root_cause": h.root_cause or "",
            "organisation": h.organisation or "",
            "start": h.start.isoformat() if h.start else None,
            "source": h.source or "hot wash",
        }
        for h in room.hot_wash
    ]


def _public(room: Room, game: Game, me: int | None) -> dict[str, Any]:
    ex = room.exercise
    trace = [e for e in game.model.recording.trace if e.kind not in HIDDEN_TRACE][-RECENT:]
    return {
        "exercise": {
            "id": ex.id,
            "title": ex.title,
            "room_code": ex.room_code,
            "status": ex.status,
            "clock_day": ex.clock_day,
            "version": ex.version,
            "open": ex.opened_at is not None,
            "locked": ex.locked_at is not None,
            "report_released": ex.report_released_at is not None,
        },
        "situation": _situation(room, game),
        "roles": _roles(room),
        "participants": [p.name for p in room.seated],
        "injects": _delivered(room),
        "pending": _pending(room, game, me),
        "decisions": _decisions(room),
        "comments": [
            {"day": c.day, "author": c.author, "about": c.about, "body": c.body}
            for c in room.comments
        ],
        "recent": [{"day": e.day, "summary": e.summary} for e in reversed(trace)],
        "hot_wash": _hot_wash(room),
        "counts": {"decisions": len(room.decisions), "comments": len(room.comments),
                   "injects": sum(i.status == "delivered" for i in room.injects)},
    }  # fmt: skip


def player_view(room: Room, game: Game, participant_id: int) -> dict[str, Any]:
    view = _public(room, game, participant_id)
    me = next(p for p in room.participants if p.id == participant_id)
    view["me"] = {"id": me.id, "name": me.name,
                  "roles": [r.team for r in room.roles_of(participant_id)]}  # fmt: skip
    view["seat_notice"] = seat_notice(me)
    return view


def _msel(room: Room) -> list[dict[str, Any]]:
    out = []
    for i in room.injects:
        spec = room.spec(i)
        out.append(
            {
                **spec.to_dict(),
                "when": spec.trigger.describe(),
                "status": i.status,
                "delivered_day": i.delivered_day,
                "engine_note": i.engine_note,
                "manual": i.manual,
                "ratings": [
                    {"rating": r.rating, "note": r.note} if r else None
                    for r in (
                        room.rating(i.inject_id, n) for n in range(len(spec.expected_actions))
                    )
                ],
            }
        )
    return out


def _hidden(game: Game) -> dict[str, Any]:
    m = game.model
    return {
        "metrics": metrics(game),
        "true_scores": {ev: r.true_score for ev, r in m.latest_evals.items()},
        "hidden_defects": [d.kind for d in m.defects.defects if d.hidden],
        "incidents": dict(m.recording.incidents),
        "next_event_day": None if math.isinf(m.env.peek()) else m.env.peek(),
        "playbook_choice": playbook_choice(game) if game.pending is not None else None,
        "trace": [
            {"day": e.day, "kind": e.kind, "summary": e.summary}
            for e in reversed(m.recording.trace[-40:])
        ],
    }


def facilitator_view(room: Room, game: Game) -> dict[str, Any]:
    view = _public(room, game, None)
    view["msel"] = _msel(room)
    view["hidden"] = _hidden(game)
    view["participants"] = [
        {"id": p.id, "name": p.name, "organisation": p.organisation or "",
         "roles": [r.name for r in room.roles_of(p.id)], "removed": p.removed_at is not None}
        for p in room.participants
    ]  # fmt: skip
    view["overview"] = dict(room.exercise.overview or {})
    view["events"] = [
        {
            "at": e.at.strftime("%Y-%m-%d %H:%M:%S UTC"),
            "day": e.day,
            "kind": e.kind,
            "actor": e.actor,
            "summary": e.summary,
        }
        for e in room.events
    ]
    view["log_mark"] = max((e.id for e in room.events if e.kind not in QUIET_KINDS), default=0)
    view["alerts"] = [
        {"at": e.at.strftime("%Y-%m-%d %H:%M:%S UTC"), "day": e.day, "summary": e.summary}
        for e in room.events
        if e.kind in ("barred", "joined_flagged", "seat_contested")
    ]
    view["contests"] = [
        {"id": p.id, "name": p.name,
         "at": p.contested_at.strftime("%H:%M:%S UTC") if p.contested_at else ""}
        for p in room.participants
        if p.contender_hash is not None and p.removed_at is None
    ]  # fmt: skip
    return view
