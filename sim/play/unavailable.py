"""Why a decision offers fewer options than its kind has, from the engine's own rules.

The engine (sim/engine/phases.py, budget.py, training.py) decides which options apply at
a decision; this module states, for each option left out, the rule that left it out,
reading the decision's context, the decisions before it and the engine's own constants,
so a lone button never looks broken. Every kind that can lose options has its rule here;
:func:`reasons` raises for a kind it does not know, so a new rule cannot go unexplained.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.engine.phases import MAX_EXTRA_ROUNDS
from sim.engine.training import RECIPE_ROLLBACKS_BEFORE_CHANGE
from sim.scenario.spec import DECISION_OPTIONS
from sim.scenario.vocabulary import option_words


def _episode_choices(summary: str, earlier: Sequence[tuple[str, str, str]]) -> set[str]:
    """Budget responses already used on this gap (each is offered once per episode).

    ``earlier`` is ``(kind, summary, choice)`` of the decisions before this one, in order;
    an episode is the run of budget decisions just before it that share its cause (the
    words after "over the budget") and did not accept the overrun.
    """
    why = summary.partition(" over the budget")[2]
    used: set[str] = set()
    for kind, text, choice in reversed(earlier):
        if kind != "budget" or text.partition(" over the budget")[2] != why:
            break
        if choice == "accept_overrun":
            break
        used.add(choice)
    return used


def reasons(
    kind: str,
    offered: Sequence[str],
    context: Mapping[str, Any],
    summary: str = "",
    earlier: Sequence[tuple[str, str, str]] = (),
) -> dict[str, str]:
    """``{option not offered: why}`` for a decision of ``kind``; empty when all are offered."""
    missing = [o for o in DECISION_OPTIONS.get(kind, ()) if o not in offered]
    if not missing:
        return {}
    if kind == "rollback":
        n = int(context.get("rollbacks_into_instability", RECIPE_ROLLBACKS_BEFORE_CHANGE))
        why = f"after {n} rollbacks into the same instability, only a change of recipe can cure it"
        return dict.fromkeys(missing, why)
    if kind == "data_fix":
        if context.get("defect") == "licensing":
            return dict.fromkeys(
                missing, "data the project has no licence for cannot be kept in the model"
            )
        raise ValueError(f"no rule leaves out {missing} for a {context.get('defect')} defect")
    if kind == "ship":
        extra = sum(1 for k, _, c in earlier if k == "ship" and c != "ship")
        why = (
            f"the project has had its {MAX_EXTRA_ROUNDS} extra post-training rounds"
            if extra >= MAX_EXTRA_ROUNDS
            else "the budget, less the reserve still held back, cannot pay for another "
            "post-training round (its annotation, compute and salaries)"
        )
        return dict.fromkeys(missing, why)
    if kind == "schedule":
        return dict.fromkeys(missing, "only one post-training round is planned, none to cut")
    if kind == "budget":
        used = _episode_choices(summary, earlier)
        out = {}
        for o in missing:
            if o in used:
                out[o] = "already used on this gap"
            elif o == "use_reserve":
                out[o] = "the reserve is spent"
            else:
                out[o] = "saves nothing on the budget lines now over"
        return out
    raise ValueError(f"no rule says why a {kind} decision leaves out {missing}")


def fewer_options_note(
    kind: str,
    offered: Sequence[str],
    context: Mapping[str, Any],
    summary: str = "",
    earlier: Sequence[tuple[str, str, str]] = (),
) -> str:
    """One line naming each option not offered and why, grouped by reason; "" when none."""
    why = reasons(kind, offered, context, summary, earlier)
    if not why:
        return ""
    grouped: dict[str, list[str]] = {}
    for option, reason in why.items():
        grouped.setdefault(reason, []).append(option_words(option))
    parts = [f"{', '.join(options)} ({reason})" for reason, options in grouped.items()]
    return "Not offered here: " + "; ".join(parts) + "."


def earlier_decisions(model: Any) -> list[tuple[str, str, str]]:
    """``(kind, summary, choice)`` of every decision a play's model has made, in order."""
    summaries = [e for e in model.recording.trace if e.kind == "decision"]
    out = []
    for rec in model.recording.decisions:
        summary = next((e.summary for e in summaries if abs(e.day - rec.day) < 1e-9), "")
        out.append((rec.kind, summary, rec.choice))
    return out


def pending_note(game: Any) -> str:
    """Why the decision a play waits on offers fewer options than its kind ("" if none)."""
    point = game.pending
    if point is None:
        return ""
    return fewer_options_note(
        point.kind, point.options, point.context, point.summary, earlier_decisions(game.model)
    )
