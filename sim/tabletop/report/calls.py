"""Which of the room's calls can be judged: a choice made, away from the playbook.

A call the playbook would have made (the scenario's playbook, then the textbook,
answering the call's own options, as :func:`sim.tabletop.clock.playbook_choice` answers a
waiting call), or a call with a single option, is never a finding and never a Monte Carlo
arm: the room did what was agreed, or had no choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sim.engine.decisions import DecisionPoint, reference_decider
from sim.tabletop.clock import scenario_of
from sim.tabletop.db.models import Decision
from sim.tabletop.db.room import Room


def playbook_call(room: Room, kind: str, options: Sequence[str]) -> str:
    """What the scenario's playbook (then the textbook) answers to a call with ``options``."""
    decider = reference_decider(scenario_of(room.exercise.scenario_yaml).levers.playbook)
    return decider.decide(_point(kind, options)) or options[0]


def _point(kind: str, options: Sequence[str]) -> DecisionPoint:
    """A call as a decider reads it: its kind and options.

    The rest of a play's point is not known here, and the playbook's decider reads none of it.
    """
    return DecisionPoint(
        index=0, key=f"{kind}#1", kind=kind, day=0.0, options=tuple(options),
        owner="", detected_by="", latency_days=0.0, summary="",
    )  # fmt: skip


def judged(options: Sequence[str], choice: str, playbook: str) -> bool:
    """Whether a call's choice may be a finding: it had a choice, and left the playbook's."""
    return len(options) > 1 and choice != playbook


def judged_call(room: Room, row: Decision) -> bool:
    """Whether the stored call ``row`` was a player's, with a choice, away from the playbook."""
    if row.by != "player":
        return False
    return judged(row.options, row.choice, playbook_call(room, row.kind, row.options))


def judgeable(room: Room) -> Callable[[str], bool]:
    """Whether the room's call with this key may be a finding (:func:`judged_call`)."""
    rows = {d.key: d for d in room.decisions}
    return lambda key: key in rows and judged_call(room, rows[key])
