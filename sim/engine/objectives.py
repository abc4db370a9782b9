"""An objective that changes midway: the new objective, the work redone, and the trade-off.

An objective change (an inject: :data:`~sim.scenario.spec.INJECTS`) moves a target's
threshold, the deadline or the product's use. The news reaches the holder of the trade-off
right (``schedule``: scope, time and quality) along the org graph like any other signal;
until it decides, the teams go on working against the old objective. It then answers with
``rework`` (redo the share of that work the change spoils) or ``keep_work`` (keep it and
lose what it no longer gives the new objective), and weighs the new forecast against the
deadline as for any slip. A late change therefore costs more than an early one: the rework
is in proportion to the work already done. docs/model.md, "Objective changes".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.engine import phases
from sim.engine.project import Project
from sim.engine.quality import PRODUCT_TRANSFER_LATE
from sim.engine.training import Steps
from sim.format import points
from sim.scenario.spec import OBJECTIVE_CHANGES, Objective
from sim.scenario.vocabulary import words
from sim.units import PersonDays, TeamId

#: Share of the affected work done against the old objective that the change makes rework.
#: Assumption: a new product use keeps the eval harnesses, the general instruction and
#: safety data and the pipelines, and redoes the use's own tasks, items and tuning data,
#: about half. Wiegers and Beatty (Software Requirements, 3rd ed., 2013) put a change to a
#: requirement already built at 10 to 20 times one made while it is specified: most of its
#: cost is redoing what was built on it, which is what this share prices.
OBJECTIVE_REWORK_SHARE = 0.5
#: The work built against the objective: the product evals and the eval campaign (with the
#: post-training rounds done, steered by them).
OBJECTIVE_ROLES = frozenset({"product_evals", "evals"})
#: The product use a change names when it gives none.
NEW_USE = "a new product use"


class ObjectiveChangeError(ValueError):
    """An objective change that does not fit the scenario (an unknown target, a bad value)."""


@dataclass(frozen=True)
class Rework:
    """What an objective change spoils of the work done so far."""

    rounds: float
    """Post-training rounds whose gains no longer count for the new objective."""
    work: tuple[tuple[str, TeamId, PersonDays, float], ...]
    """(workstream, team, person-days, co-design) of evaluation work to redo."""

    @property
    def person_days(self) -> PersonDays:
        return sum(w[2] for w in self.work)


def new_objective(objective: Objective, params: dict[str, Any]) -> Objective:
    """The objective after the change ``params`` describes (``change`` and its value)."""
    change = params.get("change")
    if change not in OBJECTIVE_CHANGES:
        raise ObjectiveChangeError(
            f"change must be one of {', '.join(OBJECTIVE_CHANGES)}, not {change!r}"
        )
    if change == "deadline":
        days = _number(params.get("deadline_days"), "deadline_days")
        if days <= 0:
            raise ObjectiveChangeError("deadline_days must be positive")
        return objective.model_copy(update={"deadline_days": days})
    if change == "product_use":
        use = str(params.get("product_use") or NEW_USE).strip()[:200] or NEW_USE
        return objective.model_copy(update={"product_use": use})
    threshold = _number(params.get("threshold"), "threshold")
    if not 0.0 <= threshold <= 1.0:
        raise ObjectiveChangeError("threshold must be between 0 and 1")
    target = _target_index(objective, params.get("eval"))
    targets = list(objective.targets)
    targets[target] = targets[target].model_copy(update={"threshold": threshold})
    return objective.model_copy(update={"targets": targets})


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ObjectiveChangeError(f"{name} must be a number")
    return float(value)


def _target_index(objective: Objective, ev: Any) -> int:
    evals = [t.eval for t in objective.targets]
    if ev is None:
        return 0
    if ev not in evals:
        raise ObjectiveChangeError(f"eval must be a target's eval: one of {', '.join(evals)}")
    return evals.index(ev)


def affected_share(objective: Objective, change: str) -> float:
    """Share of the work built against the objective that the change touches.

    A new use touches all of it; one target of ``n`` its ``1/n`` (the evals and tuning
    aimed at it); a new deadline none (nothing built is about a date).
    """
    if change == "product_use":
        return 1.0
    if change == "target":
        return 1.0 / max(1, len(objective.targets))
    return 0.0


def rework_owed(m: Project, share: float) -> Rework:
    """What ``share`` of the work done so far against the objective costs to redo, now.

    The rounds done and the finished product-eval and eval-campaign workstreams, each
    times ``share * OBJECTIVE_REWORK_SHARE``. Work under way is redirected as it goes on
    (an assumption: the model counts finished work only).
    """
    spoiled = share * OBJECTIVE_REWORK_SHARE
    work = []
    for w in m.scenario.plan.workstreams:
        if w.role in OBJECTIVE_ROLES and w.id in m.recording.finished_at:
            effort = m.planned_effort(w) * m.draws.effort_multiplier[w.id]
            work.append((w.id, w.owner, spoiled * effort, w.co_design_need))
    return Rework(spoiled * m.plan.rounds_done, tuple(work))


def kept_transfer(m: Project, share: float, rework: Rework) -> float:
    """Product transfer when the product evals built for the old objective are kept.

    The spoiled share of them steers post-training as if the product evals were built late
    (:data:`~sim.engine.quality.PRODUCT_TRANSFER_LATE`).
    """
    if not any(m.facts.by_id[ws].role == "product_evals" for ws, *_ in rework.work):
        return m.plan.product_transfer
    spoiled = share * OBJECTIVE_REWORK_SHARE
    return m.plan.product_transfer * (1.0 - spoiled * (1.0 - PRODUCT_TRANSFER_LATE))


def change_objective(m: Project, params: dict[str, Any]) -> Steps:
    """The objective changes now; the trade-off holder answers when the news reaches it."""
    s = m.scenario
    objective = new_objective(s.objective, params)
    change = str(params["change"])
    m.change_objective(objective)
    m.recording.count_incident("objective_change")
    heard_by = m.org.decider("ship")
    m.recording.trace_event(
        "objective",
        f"The objective changed: {describe(s.objective, objective)}",
        heard_by,
        {"change": change, "product_use": objective.product_use},
    )
    share = affected_share(objective, change)
    holder = m.org.decider("schedule")
    if share > 0:
        owed = rework_owed(m, share)
        choice = yield from m.decide(
            "schedule",
            detected_by=heard_by,
            summary=f"The objective changed ({describe(s.objective, objective)}): redo the "
            f"work done against the old one ({owed.rounds:.1f} post-training rounds and "
            f"{owed.person_days:.0f} person-days of evaluation work so far) or keep it?",
            context={"objective_change": change, "share": share},
            options=("rework", "keep_work"),
        )
        _respond(m, choice, share)
    else:
        holder = heard_by
    yield from phases.schedule_check(m, detected_by=holder)


def _respond(m: Project, choice: str, share: float) -> None:
    """Redo what the change spoiled, or keep it: the work done up to the holder's answer."""
    owed = rework_owed(m, share)
    if choice == "keep_work":
        m.lose_rounds(owed.rounds, redo=False, transfer=kept_transfer(m, share, owed))
        m.recording.trace_event(
            "objective",
            f"The work done against the old objective is kept: {owed.rounds:.1f} post-training "
            "rounds no longer count for the new one",
            m.org.decider("schedule"),
        )
        return
    m.lose_rounds(owed.rounds, redo=True)
    for ws, team, effort, co_design in owed.work:
        if effort > 0:
            work = m.staff.work(team, effort, co_design, key=f"objective:{ws}")
            m.objective_work.append(m.env.process(work))
    m.recording.trace_event(
        "objective",
        f"Rework for the new objective: {owed.rounds:.1f} post-training rounds and "
        f"{owed.person_days:.0f} person-days of evaluation work to redo",
        m.org.decider("schedule"),
    )


def describe(old: Objective, new: Objective) -> str:
    """What changed between two objectives, in words."""
    if new.deadline_days != old.deadline_days:
        return f"deadline day {old.deadline_days:.0f} -> day {new.deadline_days:.0f}"
    if new.product_use != old.product_use:
        # The new use is a person's text: kept in the trace's data, never in a line that a
        # page renders as Markdown.
        return "the product's use changed"
    for a, b in zip(old.targets, new.targets, strict=True):
        if a.threshold != b.threshold:
            return f"{words(a.eval)} target {points(a.threshold)} -> {points(b.threshold)}"
    return "no change"
