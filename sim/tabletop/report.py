"""The after-action report and improvement plan, generated from the exercise's own record.

What it holds: the timeline of injects, decisions (with their rationale) and comments;
each decision's quantified effect, by counterfactual replays of the same world (same
seed, same injects) with that one decision changed; the objectives met or missed; and
strengths and areas for improvement, each with an owner and a due date. The project is
played to its end with the scenario's playbook from wherever the exercise stopped, so
objectives can be judged; the report says from which day.

It renders as Markdown and as a standalone HTML page from one document model. Every
piece of text (names, rationales, comments, titles) is escaped for the format it goes
into; nothing a person typed becomes markup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sim.engine.decisions import reference_decider
from sim.play.debrief import DecisionReview, make_debrief
from sim.play.game import Game
from sim.tabletop.clock import scenario_of
from sim.tabletop.document import Block, Bullets, Heading, Para, Table
from sim.tabletop.document import to_html as page
from sim.tabletop.document import to_markdown as md
from sim.tabletop.models import utcnow
from sim.tabletop.room import Room

#: An alternative must beat the choice by this much (debrief impact units) to count.
MARGIN = 0.02
#: A decision that took longer than this to reach its owner is worth a look (days).
SLOW_DAYS = 1.0
IMPROVE_DUE_DAYS = 30
SUSTAIN_DUE_DAYS = 90

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Item:
    """A strength or an area for improvement: what, who owns it, by when, and whence."""

    kind: str
    text: str
    owner: str
    due: date
    source: str


@dataclass(frozen=True)
class Alternative:
    option: str
    delta_schedule_days: float
    delta_cost_usd: float
    delta_quality: float
    impact: float


@dataclass(frozen=True)
class DecisionEffect:
    key: str
    kind: str
    day: float
    role: str
    by: str
    choice: str
    rationale: str
    summary: str
    latency_days: float
    alternatives: tuple[Alternative, ...]

    @property
    def best(self) -> Alternative | None:
        better = [a for a in self.alternatives if a.impact > MARGIN]
        return max(better, key=lambda a: a.impact, default=None)


@dataclass(frozen=True)
class Objective:
    name: str
    target: str
    result: str
    met: bool
    owner: str


@dataclass(frozen=True)
class TimelineEntry:
    day: float
    kind: str
    title: str
    detail: str
    who: str


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
    participants: tuple[tuple[str, str], ...]
    objectives: tuple[Objective, ...]
    timeline: tuple[TimelineEntry, ...]
    decisions: tuple[DecisionEffect, ...]
    strengths: tuple[Item, ...]
    improvements: tuple[Item, ...]
    lessons: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("created", "ended"):
            data[key] = data[key].isoformat() if data[key] else None
        for group in ("strengths", "improvements"):
            for item in data[group]:
                item["due"] = item["due"].isoformat()
        return data


# --- building the report from the record ------------------------------------------------------


def _words(name: str) -> str:
    return name.replace("_", " ")


def _owner(room: Room, team: str) -> str:
    role = next((r.name for r in room.roles if r.team == team), team)
    holder = room.holder(team)
    return f"{role} ({holder.name})" if holder else f"{role} (no player)"


def _right_owner(room: Room, kind: str) -> str:
    return _owner(room, scenario_of(room.exercise.scenario_yaml).org.decision_rights[kind])  # type: ignore[index]


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
                room.decided_by(row),
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
        Objective("Deadline", f"day {deadline:g}", f"day {outcome['schedule_days']:.0f}",
                  bool(outcome["on_time"]), _right_owner(room, "schedule")),
        Objective("Budget", f"${outcome['budget_usd']:,.0f}", f"${outcome['cost_usd']:,.0f}",
                  bool(outcome["on_budget"]), _right_owner(room, "budget")),
    ]  # fmt: skip
    for t in s.objective.targets:
        score = outcome.get(f"score:{t.eval}")
        result = "not measured" if score is None else f"{score:.3f}"
        out.append(Objective(f"{t.eval} ({_words(t.capability)})", f"≥ {t.threshold:.2f}",
                             result, bool(outcome.get(f"met:{t.eval}")),
                             _right_owner(room, "ship")))  # fmt: skip
    return out


def _timeline(room: Room) -> list[TimelineEntry]:
    roles = {r.team: r.name for r in room.roles}
    entries = [
        TimelineEntry(i.delivered_day or 0.0, "inject", room.spec(i).title, room.spec(i).message,
                      "facilitator" + (" (delivered by hand)" if i.manual else ""))
        for i in room.injects
        if i.status == "delivered"
    ]  # fmt: skip
    entries += [
        TimelineEntry(d.day, "decision", f"{roles.get(d.team, d.team)}: {_words(d.choice)}",
                      d.rationale, room.decided_by(d))
        for d in room.decisions
    ]  # fmt: skip
    entries += [
        TimelineEntry(c.day, "comment",
                      f"Comment on the {_words(c.about.split('#')[0])} call" if c.about
                      else "Comment", c.body, c.author)
        for c in room.comments
    ]  # fmt: skip
    order = {"inject": 0, "decision": 1, "comment": 2}
    return sorted(entries, key=lambda e: (e.day, order[e.kind]))


def _fmt_delta(a: Alternative) -> str:
    return (
        f"{abs(a.delta_schedule_days):.1f} days "
        f"{'sooner' if a.delta_schedule_days < 0 else 'later'}, "
        f"${abs(a.delta_cost_usd):,.0f} {'cheaper' if a.delta_cost_usd < 0 else 'dearer'}, "
        f"quality {a.delta_quality:+.3f}"
    )


def _decision_items(effects: Sequence[DecisionEffect], improve: date, sustain: date) -> list[Item]:
    items = []
    best_calls: dict[tuple[str, str], list[DecisionEffect]] = {}
    for e in effects:
        best = e.best
        if best is None:
            if e.alternatives and e.by != "playbook":
                best_calls.setdefault((e.role, e.kind), []).append(e)
        else:
            items.append(Item("improvement", f"Day {e.day:.1f}: {_words(best.option)} would have "
                              f"beaten {_words(e.choice)} ({_fmt_delta(best)}). Review the "
                              f"{e.kind} entry of the playbook.", e.role, improve,
                              f"decision {e.key}"))  # fmt: skip
        if e.latency_days > SLOW_DAYS:
            items.append(Item("improvement", f"The {e.kind} call on day {e.day:.1f} took "
                              f"{e.latency_days:.1f} days to reach {e.role}: shorten the path "
                              "(a direct link, or an agreed playbook entry).", e.role, improve,
                              f"decision {e.key}"))  # fmt: skip
        if e.by == "playbook":
            items.append(Item("improvement", f"Nobody in the room held {e.role.split(' (')[0]}; "
                              f"the {e.kind} call fell to the playbook. Staff every role that "
                              "holds a decision right.", "Facilitator", improve,
                              f"decision {e.key}"))  # fmt: skip
    strengths = []
    for (role, kind), calls in best_calls.items():
        total = sum(1 for e in effects if (e.role, e.kind) == (role, kind))
        days = ", ".join(f"{e.day:.0f}" for e in calls)
        strengths.append(Item("strength", f"{_words(kind).capitalize()} calls: {len(calls)} of "
                              f"{total} had no clearly better option in the same world (day"
                              f"{'s' if len(calls) > 1 else ''} {days}).", role, sustain,
                              "decisions " + ", ".join(e.key for e in calls)))  # fmt: skip
    return strengths + items


def _inject_items(room: Room, improve: date, sustain: date) -> list[Item]:
    items = []
    for row in room.injects:
        spec = room.spec(row)
        if row.status != "delivered" or not spec.expected_options or spec.decision_kind is None:
            continue
        answer = next((d for d in room.decisions if d.kind == spec.decision_kind
                       and d.day >= (row.delivered_day or 0.0) - 1e-9), None)  # fmt: skip
        if answer is None:
            continue
        owner = _owner(room, answer.team)
        expected = " or ".join(_words(o) for o in spec.expected_options)
        if answer.choice in spec.expected_options:
            items.append(Item("strength", f"Inject “{spec.title}”: the room chose "
                              f"{_words(answer.choice)}, as expected.", owner, sustain,
                              f"inject {row.inject_id}"))  # fmt: skip
        else:
            items.append(Item("improvement", f"Inject “{spec.title}”: expected {expected}; the "
                              f"room chose {_words(answer.choice)}. Rehearse this response.",
                              owner, improve, f"inject {row.inject_id}"))  # fmt: skip
    return items


def _objective_items(objectives: Sequence[Objective], improve: date, sustain: date) -> list[Item]:
    return [
        Item("strength", f"{o.name} met: {o.result} against {o.target}.", o.owner, sustain,
             "objective")
        if o.met
        else Item("improvement", f"{o.name} missed: {o.result} against {o.target}. Find the "
                  "decision or lever that would have closed the gap.", o.owner, improve,
                  "objective")
        for o in objectives
    ]  # fmt: skip


def build_report(room: Room, progress: Progress | None = None) -> AfterActionReport:
    """The after-action report of an exercise, at whatever point it stands."""
    ex = room.exercise
    scenario = scenario_of(ex.scenario_yaml)
    record = room.play_record()
    game = Game(
        scenario, ex.seed, choices=dict(record.decisions), injections=list(record.injections)
    )
    stopped = ex.clock_day
    game.play_to_end(reference_decider(scenario.levers.playbook))
    debrief = make_debrief(game.current_log(), progress)
    outcome = debrief.outcome
    start = (ex.ended_at or utcnow()).date()
    improve, sustain = start + timedelta(IMPROVE_DUE_DAYS), start + timedelta(SUSTAIN_DUE_DAYS)
    effects = _effects(room, debrief.decisions)
    objectives = _objectives(room, outcome)
    items = (
        _decision_items(effects, improve, sustain)
        + _inject_items(room, improve, sustain)
        + _objective_items(objectives, improve, sustain)
        + [Item(h.kind, h.text, h.owner, h.due, f"hot wash ({h.author})") for h in room.hot_wash]
    )
    return AfterActionReport(
        ex.id, ex.room_code, ex.title, scenario.name, ex.seed, ex.status, ex.created_at,
        ex.ended_at, stopped, float(outcome["schedule_days"]),
        tuple((p.name, ", ".join(r.name for r in room.roles_of(p.id)) or "no role")
              for p in room.participants),
        tuple(objectives), tuple(_timeline(room)), tuple(effects),
        tuple(i for i in items if i.kind == "strength"),
        tuple(i for i in items if i.kind == "improvement"),
        tuple((title, evidence) for _, title, evidence in debrief.lessons),
    )  # fmt: skip


# --- rendering -----------------------------------------------------------------------------


def _yes(met: bool) -> str:
    return "met" if met else "missed"


def _items_table(items: Sequence[Item]) -> Table:
    return Table(
        ("#", "item", "owner", "due", "from"),
        tuple(
            (str(n), i.text, i.owner, i.due.isoformat(), i.source) for n, i in enumerate(items, 1)
        ),
    )


def _effect_rows(effects: Sequence[DecisionEffect]) -> tuple[tuple[str, ...], ...]:
    """One row per decision: the choice against the strongest other option."""
    rows = []
    for e in effects:
        top = max(e.alternatives, key=lambda a: a.impact, default=None)
        if top is None:
            rows.append((f"{e.day:.1f}", e.role, _words(e.choice), "(no other option)",
                         "", "", "", "only option"))  # fmt: skip
            continue
        verdict = (
            f"{_words(top.option)} was better"
            if top.impact > MARGIN
            else ("about as good" if top.impact > -MARGIN else "the best call")
        )
        rows.append((f"{e.day:.1f}", e.role, _words(e.choice), _words(top.option),
                     f"{top.delta_schedule_days:+.1f}", f"{top.delta_cost_usd:+,.0f}",
                     f"{top.delta_quality:+.3f}", verdict))  # fmt: skip
    return tuple(rows)


def _played(r: AfterActionReport) -> str:
    if r.stopped_day >= r.finish_day:
        return f"The room played the project to its end, on day {r.finish_day:.1f}."
    return (
        f"The room played to day {r.stopped_day:.1f}; from there the scenario's playbook played "
        f"the project to its end, on day {r.finish_day:.1f}."
    )


def document(r: AfterActionReport) -> list[Block]:
    """The report as blocks, in the order of an after-action report."""
    ended = r.ended.strftime("%Y-%m-%d %H:%M UTC") if r.ended else f"still {r.status}"
    met = sum(o.met for o in r.objectives)
    blocks: list[Block] = [
        Heading(1, f"After-action report: {r.title}"),
        Para(f"Exercise {r.exercise_id}, room {r.room_code}; scenario “{r.scenario}”, seed "
             f"{r.seed}; started {r.created.strftime('%Y-%m-%d %H:%M UTC')}, ended {ended}."),
        Para(_played(r) + " Each decision's effect is a replay of the same world (same "
             "seed, same injects) with that one decision changed.", quiet=True),
        Heading(2, "Summary"),
        Bullets((f"Objectives: {met} of {len(r.objectives)} met.",
                 f"Decisions made in the room: {len(r.decisions)}.",
                 f"Strengths: {len(r.strengths)}; areas for improvement: {len(r.improvements)}.")),
        Heading(2, "Participants"),
        Table(("player", "roles"), tuple(r.participants) or (("nobody joined", ""),)),
        Heading(2, "Objectives"),
        Table(("objective", "target", "result", "", "owner"),
              tuple((o.name, o.target, o.result, _yes(o.met), o.owner) for o in r.objectives)),
        Heading(2, "Timeline"),
        Table(("day", "what", "title", "detail", "who"),
              tuple((f"{e.day:.1f}", e.kind, e.title, e.detail, e.who) for e in r.timeline)
              or (("", "", "nothing happened", "", ""),)),
        Heading(2, "Decisions and their effect"),
        Para("Each row sets the choice made against the strongest other option: what that "
             "option would have changed (days and dollars: negative is sooner and cheaper; "
             "quality: the mean score on the target evals)."),
        Table(("day", "role", "chose", "best other option", "Δ days", "Δ cost (USD)",
               "Δ quality", "verdict"),
              _effect_rows(r.decisions) or (("", "", "no decisions", "", "", "", "", ""),)),
    ]  # fmt: skip
    for e in r.decisions:
        blocks.append(Para(f"Day {e.day:.1f}, {e.role}, by {e.by}: {_words(e.choice)}. "
                           f"Situation: {e.summary}. Rationale: {e.rationale}"))  # fmt: skip
    blocks += [
        Heading(2, "Strengths"),
        _items_table(r.strengths),
        Heading(2, "Areas for improvement (the improvement plan)"),
        _items_table(r.improvements),
    ]
    if r.lessons:
        blocks += [Heading(2, "What the play showed"),
                   Bullets(tuple(f"{t}: {ev}" for t, ev in r.lessons))]  # fmt: skip
    return blocks


def to_markdown(r: AfterActionReport, shift: int = 0) -> str:
    return md(document(r), shift)


def to_html(r: AfterActionReport) -> str:
    return page(document(r), f"After-action report: {r.title}")
