"""The after-action report and improvement plan (HSEEP's AAR/IP), built from the record.

What it holds, in HSEEP's order: the exercise overview (scope, dates, participants and
their organisations, points of contact, objectives and the capabilities each tests);
an analysis per objective and capability (strengths, areas for improvement with their
root cause, the decisions and the expected actions behind each, the facilitator's
ratings); the improvement-plan matrix; the timeline, each decision against its
alternatives, and the audit log.

Evidence comes two ways. The play itself is replayed and played to its end with the
scenario's playbook from wherever the exercise stopped; each decision's alternatives are
counterfactual replays of the same world. And the chance of meeting each objective is a
Monte Carlo of the room's own way of deciding against the playbook
(:mod:`sim.tabletop.report.montecarlo`), so no verdict rests on one seed alone.

Rendering lives in :mod:`sim.tabletop.report.aar` (the document) and
:mod:`sim.tabletop.report.document` (Markdown, HTML, Word and PDF).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sim.engine.decisions import reference_decider
from sim.play.debrief import DecisionReview, make_debrief
from sim.play.game import Game
from sim.scenario.spec import INJECTS, Scenario
from sim.scenario.vocabulary import words
from sim.tabletop.clock import scenario_of
from sim.tabletop.db.models import utcnow
from sim.tabletop.db.room import Room
from sim.tabletop.effects import Alternative, DecisionEffect, ExpectedAction, Objective
from sim.tabletop.matching import match_answers
from sim.tabletop.report.findings import Finding, findings
from sim.tabletop.report.hseep import (
    CAPABILITIES,
    OBJECTIVES,
    capabilities_of,
    capability_of_inject,
    worst_rating,
)
from sim.tabletop.report.montecarlo import REPS, MonteCarlo, simulate

Progress = Callable[[int, int], None]
IMPROVE_DUE_DAYS = 30
__all__ = [
    "REPS", "AfterActionReport", "Analysis", "Progress", "analyse", "audit_log", "build_report",
    "play_fingerprint",
]  # fmt: skip


@dataclass(frozen=True)
class CapabilityAnalysis:
    id: str
    name: str
    description: str
    rating: str | None
    strengths: tuple[Finding, ...]
    improvements: tuple[Finding, ...]
    decisions: tuple[DecisionEffect, ...]
    expected: tuple[ExpectedAction, ...]


@dataclass(frozen=True)
class ObjectiveAnalysis:
    id: str
    name: str
    meaning: str
    results: tuple[Objective, ...]
    p_room: float
    p_playbook: float
    capabilities: tuple[CapabilityAnalysis, ...]


@dataclass(frozen=True)
class PlanRow:
    """A row of the improvement-plan matrix: stored (``item_id``) or proposed by the report."""

    item_id: int | None
    objective: str
    issue: str
    corrective_action: str
    capability: str
    organisation: str
    poc: str
    start: date | None
    completion: date
    root_cause: str
    source: str


@dataclass(frozen=True)
class Participant:
    name: str
    organisation: str
    roles: str
    status: str


@dataclass(frozen=True)
class TimelineEntry:
    day: float
    kind: str
    title: str
    detail: str
    who: str


@dataclass(frozen=True)
class LogEntry:
    at: str
    day: float
    kind: str
    actor: str
    summary: str


@dataclass(frozen=True)
class AfterActionReport:
    exercise_id: int
    room_code: str
    title: str
    scenario: str
    seed: int
    status: str
    created: datetime
    ended: datetime | None
    stopped_day: float
    finish_day: float
    overview: dict[str, str]
    participants: tuple[Participant, ...]
    objectives: tuple[Objective, ...]
    analysis: tuple[ObjectiveAnalysis, ...]
    plan: tuple[PlanRow, ...]
    timeline: tuple[TimelineEntry, ...]
    decisions: tuple[DecisionEffect, ...]
    strengths: tuple[Finding, ...]
    improvements: tuple[Finding, ...]
    montecarlo: MonteCarlo
    audit: tuple[LogEntry, ...]
    lessons: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    #: When the facilitator opened the room (None: never opened); the exercise dates
    #: start here, not at its creation.
    opened: datetime | None = None
    #: The scenario's story in a few sentences, and the threats and hazards the room met.
    narrative: str = ""
    hazards: tuple[str, ...] = ()
    #: Capabilities the exercise exercised (a decision, an expected action or a finding).
    exercised: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        return _jsonable(data)  # type: ignore[no-any-return]


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


# --- building the report from the record ------------------------------------------------------


def _owner(room: Room, team: str) -> str:
    role = next((r.name for r in room.roles if r.team == team), team)
    holder = room.holder(team)
    return f"{role} ({holder.name})" if holder else f"{role} (no player)"


def _right_owner(room: Room, kind: str) -> str:
    return _owner(room, scenario_of(room.exercise.scenario_yaml).org.decision_rights[kind])  # type: ignore[index]


def _decided_by(room: Room, participant_id: int | None) -> str:
    if participant_id is None:
        return "playbook"
    who = next((p for p in room.participants if p.id == participant_id), None)
    if who is None:
        return ""
    return who.name + (" (removed)" if who.removed_at is not None else "")


def _effects(room: Room, reviews: Sequence[DecisionReview]) -> list[DecisionEffect]:
    by_key = {d.key: d for d in room.decisions}
    out = []
    for review in reviews:
        row = by_key.get(review.key)
        if row is None:  # played out by the playbook after the exercise stopped
            continue
        out.append(
            DecisionEffect(
                review.key, review.kind, review.day, _owner(room, review.owner),
                _decided_by(room, row.participant_id),
                review.choice, row.rationale, row.summary, review.latency_days,
                tuple(Alternative(a.choice, a.delta_schedule_days, a.delta_cost_usd,
                                  a.delta_quality, a.impact) for a in review.alternatives),
            )
        )  # fmt: skip
    return out


def _objectives(room: Room, outcome: dict[str, Any]) -> list[Objective]:
    s = scenario_of(room.exercise.scenario_yaml)
    deadline = s.objective.deadline_days
    out = [
        Objective("Deadline", f"day {deadline:g}", f"day {outcome['schedule_days']:.1f}",
                  bool(outcome["on_time"]), _right_owner(room, "schedule"), "deadline"),
        Objective("Budget", f"${outcome['budget_usd']:,.0f}", f"${outcome['cost_usd']:,.0f}",
                  bool(outcome["on_budget"]), _right_owner(room, "budget"), "budget"),
    ]  # fmt: skip
    for t in s.objective.targets:
        score = outcome.get(f"score:{t.eval}")
        result = "not measured" if score is None else f"{score:.3f}"
        out.append(Objective(f"{t.eval} ({words(t.capability)})", f"at least {t.threshold:.2f}",
                             result, bool(outcome.get(f"met:{t.eval}")),
                             _right_owner(room, "ship"), "quality"))  # fmt: skip
    return out


def _timeline(room: Room) -> list[TimelineEntry]:
    """Everything that happened, by play day and, within a day, in the order it happened.

    Within one play day the wall clock orders things (an inject delivered after a call
    comes after it), and the kind only breaks exact ties.
    """
    roles = {r.team: r.name for r in room.roles}
    timed: list[tuple[TimelineEntry, datetime | None]] = [
        (TimelineEntry(i.delivered_day or 0.0, "inject", room.spec(i).title, room.spec(i).message,
                       "facilitator" + (" (delivered by hand)" if i.manual else "")),
         i.delivered_at)
        for i in room.delivered()
    ]  # fmt: skip
    timed += [
        (TimelineEntry(d.day, "decision", f"{roles.get(d.team, d.team)}: {words(d.choice)}",
                       d.rationale, _decided_by(room, d.participant_id)), d.made_at)
        for d in room.decisions
    ]  # fmt: skip
    timed += [
        (TimelineEntry(c.day, "comment",
                       f"Comment on the {words(c.about.split('#')[0])} call" if c.about
                       else "Comment", c.body, c.author), c.created_at)
        for c in room.comments
    ]  # fmt: skip
    timed += [
        (TimelineEntry(e.day, "roster", e.kind, e.summary, e.actor), e.at)
        for e in room.events
        if e.kind in ("removed", "released", "reassigned")
    ]
    order = {"inject": 0, "decision": 1, "comment": 2, "roster": 3}

    def when(item: tuple[TimelineEntry, datetime | None]) -> tuple[float, float, int]:
        entry, at = item
        wall = _epoch(at) if at is not None else float("inf")
        return (round(entry.day, 6), wall, order[entry.kind])

    return [entry for entry, _ in sorted(timed, key=when)]


def audit_log(room: Room) -> tuple[LogEntry, ...]:
    """The audit log: every action and refusal, with its UTC time, exercise day and actor."""
    return tuple(
        LogEntry(e.at.strftime("%Y-%m-%d %H:%M:%S"), e.day, e.kind, e.actor, e.summary)
        for e in room.events
    )


def _epoch(at: datetime) -> float:
    """Seconds since the epoch; a naive time (SQLite drops the zone) is UTC."""
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()


def _expected(room: Room, game: Game) -> list[ExpectedAction]:
    matches = match_answers(room, game.model.recording.decisions, game.model.recording.trace)
    out = []
    for row in room.delivered():
        spec = room.spec(row)
        cap = capability_of_inject(spec).id
        owner = _right_owner(room, spec.decision_kind) if spec.decision_kind else "Facilitator"
        match = matches.get(row.inject_id)
        key = choice = None
        if match is not None and match.decision is not None:
            key, choice = match.decision.key, match.decision.choice
        day = match.incident_day if match is not None else row.delivered_day
        if spec.expected_options:
            expected = " or ".join(words(o) for o in spec.expected_options)
            out.append(ExpectedAction(row.inject_id, spec.title, cap, owner,
                                      f"Choose {expected}", spec.expected_options, None, "",
                                      day, key, choice))  # fmt: skip
        for n, action in enumerate(spec.expected_actions):
            rated = room.rating(row.inject_id, n)
            out.append(ExpectedAction(row.inject_id, spec.title, cap, owner, action, (),
                                      rated.rating if rated else None,
                                      rated.note if rated else "", day, key, choice))  # fmt: skip
    return out


def _plan(room: Room, improvements: Sequence[Finding], end: date) -> list[PlanRow]:
    """Stored plan items first, then the report's proposals not yet adopted."""
    rows = []
    stored_sources = set()
    for h in room.hot_wash:
        if h.kind != "improvement":
            continue
        stored_sources.add(h.source or "")
        cap = CAPABILITIES.get(h.capability or "")
        rows.append(PlanRow(h.id, OBJECTIVES[cap.objective][0] if cap else "", h.text,
                            h.corrective_action or "", h.capability or "", h.organisation or "",
                            h.owner, h.start, h.due, h.root_cause or "",
                            h.source or "hot wash"))  # fmt: skip
    for f in improvements:
        if f.source in stored_sources or f.source.startswith("hot wash"):
            continue
        rows.append(PlanRow(None, OBJECTIVES[CAPABILITIES[f.capability].objective][0], f.text,
                            f.corrective_action, f.capability, "", f.owner, end,
                            end + timedelta(IMPROVE_DUE_DAYS), f.root_cause, f.source))  # fmt: skip
    return rows


def responsible(room: Room, capability: str) -> str:
    """The role that owns a capability, and its holder's organisation when recorded.

    The owner holds the decision right the capability's calls need, else owns the risk
    its incidents strike; a capability neither reaches is the facilitator's.
    """
    cap = CAPABILITIES.get(capability)
    if cap is None:
        return ""
    struck = {INJECTS[i].risk if i in INJECTS else i for i in cap.incidents}
    role = next((r for r in room.roles if set(r.rights) & set(cap.kinds)), None) or next(
        (r for r in room.roles if struck & set(r.risks)), None
    )
    if role is None:
        return "Facilitator"
    holder = room.holder(role.team)
    org = holder.organisation if holder is not None and holder.organisation else ""
    return f"{org} ({role.name})" if org else role.name


def owned(rows: Sequence[PlanRow], room: Room) -> list[PlanRow]:
    """Plan rows with no organisation get the one of the role that owns the capability."""
    return [
        r if r.organisation else replace(r, organisation=responsible(room, r.capability))
        for r in rows
    ]


def narrative(s: Scenario) -> str:
    """The scenario's story: what is built, for what, with what, by when and for how much."""
    o, m = s.objective, s.model
    budget = sum(v for v in o.budget.model_dump().values() if isinstance(v, int | float))
    targets = ", ".join(f"{t.eval} at {t.threshold:.2f}" for t in o.targets)
    how = "adapts an open base model" if s.levers.strategy == "adapt" else "pretrains a model"
    return (
        f"An organisation of {sum(t.headcount for t in s.org.teams)} people in "
        f"{len(s.org.teams)} teams {how} of {m.params_b:g}B parameters on {m.tokens_b:,.0f}B "
        f"tokens, using {s.cluster.gpus:,} GPUs, for {o.product_use}. It must ship within "
        f"{o.deadline_days:g} days and about ${budget / 1e6:,.1f}M, meeting {targets}."
    )


def hazards(room: Room) -> tuple[str, ...]:
    """The threats and hazards the room met: each delivered inject's title, once."""
    return tuple(dict.fromkeys(room.spec(i).title for i in room.delivered()))


def exercised(
    effects: Sequence[DecisionEffect], expected: Sequence[ExpectedAction], items: Sequence[Finding]
) -> tuple[str, ...]:
    """Capabilities with a decision, an expected action or a finding, in the registry's order."""
    used = {e.capability for e in expected} | {i.capability for i in items}
    used |= {c.id for c in CAPABILITIES.values() for e in effects if e.kind in c.kinds}
    return tuple(c for c in CAPABILITIES if c in used)


def _analysis(
    objectives: Sequence[Objective],
    effects: Sequence[DecisionEffect],
    expected: Sequence[ExpectedAction],
    items: Sequence[Finding],
    mc: MonteCarlo,
) -> list[ObjectiveAnalysis]:
    out = []
    for oid, (name, meaning) in OBJECTIVES.items():
        caps = []
        for cap in capabilities_of(oid):
            mine = [e for e in expected if e.capability == cap.id]
            caps.append(CapabilityAnalysis(
                cap.id, cap.name, cap.description,
                worst_rating([e.rating for e in mine if e.rating]),
                tuple(i for i in items if i.capability == cap.id and i.kind == "strength"),
                tuple(i for i in items if i.capability == cap.id and i.kind == "improvement"),
                tuple(e for e in effects if e.kind in cap.kinds), tuple(mine),
            ))  # fmt: skip
        out.append(ObjectiveAnalysis(
            oid, name, meaning, tuple(o for o in objectives if o.objective == oid),
            mc.room.p_met[oid], mc.playbook.p_met[oid], tuple(caps),
        ))  # fmt: skip
    return out


def _participants(room: Room) -> list[Participant]:
    return [
        Participant(p.name, p.organisation or "",
                    ", ".join(r.name for r in room.roles_of(p.id)) or "no role",
                    "removed by the facilitator" if p.removed_at is not None else "seated")
        for p in room.participants
    ]  # fmt: skip


def _scaled(progress: Progress | None, offset: int, total: int) -> Progress | None:
    if progress is None:
        return None
    return lambda done, of: progress(offset + done, total)


@dataclass(frozen=True)
class Analysis:
    """The expensive part of a report: the replay, every alternative, the Monte Carlo.

    It depends only on the play (:func:`play_fingerprint`), not on the wrap-up (hot wash,
    plan, ratings, overview), so those edits reuse it and re-render only what they change.
    """

    game: Game
    outcome: dict[str, Any]
    reviews: tuple[DecisionReview, ...]
    lessons: tuple[tuple[str, str], ...]
    montecarlo: MonteCarlo


def play_fingerprint(room: Room, reps: int) -> str:
    """What an :class:`Analysis` depends on, as a digest: scenario, seed, clock, calls, injects."""
    ex = room.exercise
    parts = (
        hashlib.sha256(ex.scenario_yaml.encode("utf-8", "surrogatepass")).hexdigest(),
        ex.seed, round(ex.clock_day, 9), reps,
        tuple((d.key, d.kind, d.choice, d.by, tuple(d.options), d.participant_id)
              for d in room.decisions),
        tuple((i.inject_id, i.engine_step, i.engine_day, i.delivered_day, repr(i.spec))
              for i in room.delivered()),
    )  # fmt: skip
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


def analyse(room: Room, progress: Progress | None = None, reps: int = REPS) -> Analysis:
    """Replay the play to its end, each decision's alternatives, and the Monte Carlo."""
    ex = room.exercise
    scenario = scenario_of(ex.scenario_yaml)
    record = room.play_record()
    game = Game(
        scenario, ex.seed, choices=dict(record.decisions), injections=list(record.injections)
    )
    game.play_to_end(reference_decider(scenario.levers.playbook))
    options = sum(len(d.options) - 1 for d in game.model.recording.decisions)
    mc_arms = 2 + len({d.kind for d in room.decisions if d.by == "player"})
    total = options + reps * mc_arms
    debrief = make_debrief(game.current_log(), _scaled(progress, 0, total))
    mc = simulate(room, reps, _scaled(progress, options, total))
    if progress:
        progress(total, total)
    return Analysis(
        game,
        dict(debrief.outcome),
        tuple(debrief.decisions),
        tuple((title, evidence) for _, title, evidence in debrief.lessons),
        mc,
    )


def build_report(
    room: Room,
    progress: Progress | None = None,
    reps: int = REPS,
    analysis: Analysis | None = None,
) -> AfterActionReport:
    """The after-action report of an exercise, at whatever point it stands.

    ``progress(done, total)`` is called as the replays and the Monte Carlo go; a given
    ``analysis`` (of this play) is reused instead.
    """
    ex = room.exercise
    scenario = scenario_of(ex.scenario_yaml)
    a = analysis if analysis is not None else analyse(room, progress, reps)
    game, outcome, mc = a.game, a.outcome, a.montecarlo
    end = (ex.ended_at or utcnow()).date()
    effects = _effects(room, a.reviews)
    objectives = _objectives(room, outcome)
    expected = _expected(room, game)
    items = findings(room, effects, expected, objectives, mc, end)
    strengths = tuple(i for i in items if i.kind == "strength")
    improvements = tuple(i for i in items if i.kind == "improvement")
    return AfterActionReport(
        ex.id, ex.room_code, ex.title, scenario.name, ex.seed, ex.status, ex.created_at,
        ex.ended_at, ex.clock_day, float(outcome["schedule_days"]),
        {k: str(v) for k, v in (ex.overview or {}).items()},
        tuple(_participants(room)), tuple(objectives),
        tuple(_analysis(objectives, effects, expected, items, mc)),
        tuple(owned(_plan(room, improvements, end), room)), tuple(_timeline(room)),
        tuple(effects),
        strengths, improvements, mc,
        audit_log(room),
        a.lessons,
        ex.opened_at, narrative(scenario), hazards(room),
        exercised(effects, expected, items),
    )  # fmt: skip
