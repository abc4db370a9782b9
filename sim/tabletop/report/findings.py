"""The report's findings: strengths and areas for improvement, each tied to a capability.

Each carries its root cause, a corrective action, the evidence behind it, and what the
Monte Carlo says about it.

Where each comes from:

- a decision with a clearly better option in the same world (an improvement), or a
  role's calls of one kind with none (a strength);
- a call that took more than :data:`SLOW_DAYS` to reach its holder;
- a call that fell to the playbook because nobody held the role;
- an inject's expected choice made, not made, or never answered (matched by the day the
  incident happened: :mod:`sim.tabletop.matching`);
- the facilitator's rating of each expected action (P a strength; S, M, U an area for
  improvement);
- each objective met or missed, with its chance under the room's way of deciding;
- the hot wash.

Two rules keep the verdicts honest. A call the playbook would have made, or a call with
a single option, is never judged (neither a strength nor an area for improvement, and no
Monte Carlo gap is put on it): the room did what was agreed, or had no choice, and a gap
there comes from how calls are replayed, not from what the room decided. The route a
call took (slow, or unstaffed) is still reported: that is about the org, not the choice.
And a call is never both a strength and an area for improvement: a call any area for
improvement names is left out of every strength.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sim.tabletop.clock import scenario_of
from sim.tabletop.db.room import Room
from sim.tabletop.effects import DecisionEffect, ExpectedAction, Objective
from sim.tabletop.report.calls import judgeable
from sim.tabletop.report.hseep import CAPABILITIES, OBJECTIVES, RATINGS, capability_of_kind
from sim.tabletop.report.montecarlo import KindEffect, MonteCarlo

#: A decision that took longer than this to reach its owner is worth a look (days).
SLOW_DAYS = 1.0
IMPROVE_DUE_DAYS = 30
SUSTAIN_DUE_DAYS = 90
#: Which objective each project objective row belongs to, for objective findings.
OBJECTIVE_CAPABILITY = {"deadline": "schedule", "budget": "financial", "quality": "release"}


@dataclass(frozen=True)
class Finding:
    """A strength or an area for improvement, with where it came from and why."""

    kind: str
    capability: str
    text: str
    owner: str
    due: date
    source: str
    root_cause: str = ""
    corrective_action: str = ""
    evidence: tuple[str, ...] = ()
    quantified: str = ""
    #: The decisions (their keys) this finding judges.
    calls: tuple[str, ...] = ()

    @property
    def objective(self) -> str:
        return CAPABILITIES[self.capability].objective if self.capability in CAPABILITIES else ""


def _words(name: str) -> str:
    return name.replace("_", " ")


def _pts(share: float) -> str:
    return f"{share * 100:+.0f} points"


def quantify(effect: KindEffect | None, mc: MonteCarlo) -> str:
    """What the room's choices of one kind did over the Monte Carlo's worlds.

    Nothing when every one of the room's calls of the kind was the playbook's: then the
    two arms differ only in how calls are replayed, not in what the room decided.
    """
    if effect is None or set(effect.room_choices) <= {effect.playbook_choice}:
        return ""
    days, cost = effect.delta_days, effect.delta_cost_usd

    def chance(o: str, v: float) -> str:
        ci = effect.delta_p_met_interval.get(o)
        within = f" (95% interval {ci['low'] * 100:+.0f} to {ci['high'] * 100:+.0f})" if ci else ""
        return f"{OBJECTIVES[o][0].lower()} {_pts(v)}{within}"

    chances = ", ".join(chance(o, v) for o, v in effect.delta_p_met.items())
    chose = ", ".join(_words(c) for c in effect.room_choices)
    return (
        f"Over {mc.reps} simulated worlds, the room's {effect.kind} calls ({chose}) against "
        f"the playbook's ({_words(effect.playbook_choice)}) changed the chance of each "
        f"objective by: {chances}; the finish by {days['mean']:+.1f} days "
        f"(95% interval {days['low']:+.1f} to {days['high']:+.1f}) and the cost by "
        f"${cost['mean']:+,.0f} (${cost['low']:+,.0f} to ${cost['high']:+,.0f})."
    )


def _decision_findings(
    room: Room,
    effects: Sequence[DecisionEffect],
    mc: MonteCarlo,
    improve: date,
    sustain: date,
    faulted: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Findings on the room's calls; ``faulted`` calls (named elsewhere) are no strength."""
    s = scenario_of(room.exercise.scenario_yaml)
    items: list[Finding] = []
    clean: dict[tuple[str, str], list[DecisionEffect]] = {}
    may_judge = judgeable(room)
    for e in effects:
        cap = capability_of_kind(e.kind).id
        evidence = (f"Decision {e.key} on day {e.day:.1f} by {e.by}: {_words(e.choice)}. "
                    f"Rationale: {e.rationale}",)  # fmt: skip
        best = e.best
        agreed = s.levers.playbook.get(e.kind)  # type: ignore[call-overload]
        if not may_judge(e.key):
            best = None  # the agreed call, or no choice at all: never judged
        elif best is None and e.alternatives:
            clean.setdefault((e.role, e.kind), []).append(e)
        if best is not None:
            cause = (
                f"The playbook agrees {', '.join(_words(a) for a in agreed)} for {e.kind} calls; "
                f"the room chose {_words(e.choice)}."
                if agreed
                else f"No {e.kind} response was agreed in advance, so it was decided ad hoc."
            )
            items.append(Finding(
                "improvement", cap,
                f"Day {e.day:.1f}: {_words(best.option)} would have beaten {_words(e.choice)} "
                f"in the same world ({best.delta_schedule_days:+.1f} days, "
                f"${best.delta_cost_usd:+,.0f}, quality {best.delta_quality:+.3f}).",
                e.role, improve, f"decision {e.key}", cause,
                f"Agree the {e.kind} response in the playbook ({_words(best.option)} where it "
                "applies) and rehearse it.", evidence, quantify(mc.effect(e.kind), mc),
                (e.key,),
            ))  # fmt: skip
        if e.latency_days > SLOW_DAYS:
            items.append(Finding(
                "improvement", cap,
                f"The {e.kind} call on day {e.day:.1f} took {e.latency_days:.1f} days to reach "
                f"{e.role}.", e.role, improve, f"slow {e.key}",
                "The signal travelled along the org graph through handoffs"
                + ("" if agreed else ", then waited on deliberation (no agreed response)") + ".",
                "Shorten the path: a direct link from whoever sees it to whoever decides, or "
                "an agreed playbook entry.", evidence, calls=(e.key,),
            ))  # fmt: skip
        if e.by == "playbook":
            role = e.role.split(" (")[0]
            items.append(Finding(
                "improvement", cap,
                f"Nobody in the room held {role}; the {e.kind} call on day {e.day:.1f} fell to "
                "the playbook.", "Facilitator", improve, f"unstaffed {e.key}",
                "The role that holds this decision right was not staffed.",
                "Staff every role that holds a decision right before the exercise starts.",
                evidence, calls=(e.key,),
            ))  # fmt: skip
    faulted = faulted | {k for f in items if f.kind == "improvement" for k in f.calls}
    for (role, kind), found in clean.items():
        calls = [e for e in found if e.key not in faulted]
        if not calls:
            continue
        total = sum(1 for e in effects if (e.role, e.kind) == (role, kind))
        days = ", ".join(f"{e.day:.0f}" for e in calls)
        items.append(Finding(
            "strength", capability_of_kind(kind).id,
            f"{_words(kind).capitalize()} calls: {len(calls)} of {total} had no clearly better "
            f"option in the same world (day{'s' if len(calls) > 1 else ''} {days}).",
            role, sustain, "decisions " + ", ".join(e.key for e in calls),
            evidence=tuple(f"Decision {e.key}: {_words(e.choice)}" for e in calls),
            calls=tuple(e.key for e in calls),
        ))  # fmt: skip
    return items


def _choice_finding(a: ExpectedAction, n: int, improve: date, sustain: date) -> Finding:
    where = f"Inject “{a.inject}”"
    when = "" if a.incident_day is None else f" (the incident: day {a.incident_day:.1f})"
    expected = " or ".join(_words(o) for o in a.choice)
    if a.answered_choice is None:
        return Finding(
            "improvement", a.capability,
            f"{where}: no call followed the incident{when}; expected: {expected}.",
            a.owner, improve, f"inject {a.inject_id}",
            "The incident did not reach a decision in the room.",
            "Check that the role with the right sees the signal, and rehearse the call.",
        )  # fmt: skip
    met = a.answered_choice in a.choice
    said = f"{where}: the room chose {_words(a.answered_choice)}{when}"
    return Finding(
        "strength" if met else "improvement", a.capability,
        said + (", as expected." if met else f"; expected: {expected}."),
        a.owner, sustain if met else improve, f"inject {a.inject_id}",
        "" if met else "The expected response was not chosen when the incident struck.",
        "" if met else "Rehearse this response, and write it into the playbook.",
        (f"Decision {a.answered_by}: {_words(a.answered_choice)}",),
        calls=(a.answered_by,) if a.answered_by else (),
    )  # fmt: skip


def _expected_findings(
    expected: Sequence[ExpectedAction],
    improve: date,
    sustain: date,
    may_judge: Callable[[str], bool] = lambda key: True,
) -> list[Finding]:
    items = []
    for n, a in enumerate(expected):
        if a.choice:
            if a.answered_by is not None and not may_judge(a.answered_by):
                continue  # the playbook's call, or no choice: not a finding either way
            items.append(_choice_finding(a, n, improve, sustain))
        elif a.rating:
            good = a.rating == "P"
            items.append(Finding(
                "strength" if good else "improvement", a.capability,
                f"Inject “{a.inject}”, expected action: {a.action} Rated {a.rating} "
                f"({RATINGS[a.rating].lower()}).", a.owner, sustain if good else improve,
                f"action {a.inject_id}#{n}",
                "" if good else (a.note or "Noted by the facilitator."),
                "" if good else "Practise this action, and name who does it.",
                ((a.note,) if a.note else ()),
            ))  # fmt: skip
    return items


def _objective_findings(
    objectives: Sequence[Objective], mc: MonteCarlo, improve: date, sustain: date
) -> list[Finding]:
    items = []
    for o in objectives:
        p_room, p_book = mc.room.p_met[o.objective], mc.playbook.p_met[o.objective]
        chance = (
            f"Over {mc.reps} simulated worlds the room's way of deciding meets "
            f"{OBJECTIVES[o.objective][0].lower()} {p_room:.0%} of the time (the playbook "
            f"{p_book:.0%})."
        )
        cap = OBJECTIVE_CAPABILITY[o.objective]
        if o.met:
            items.append(Finding("strength", cap, f"{o.name} met in the room's play: {o.result} "
                                 f"against {o.target}.", o.owner, sustain, f"objective {o.name}",
                                 quantified=chance))  # fmt: skip
        else:
            items.append(Finding(
                "improvement", cap,
                f"{o.name} missed in the room's play: {o.result} against {o.target}.",
                o.owner, improve, f"objective {o.name}",
                "See the decisions behind this objective; the Monte Carlo says whether the "
                "miss came from the calls or from the world.",
                "Find the decision or lever that would have closed the gap.", quantified=chance,
            ))  # fmt: skip
    return items


def _hot_wash(room: Room) -> list[Finding]:
    return [
        Finding(h.kind, h.capability or "", h.text, h.owner, h.due, h.source or "hot wash",
                h.root_cause or "", h.corrective_action or "",
                (f"Raised at the hot wash by {h.author} (item #{h.id}).",))
        for h in room.hot_wash
    ]  # fmt: skip


def findings(
    room: Room,
    effects: Sequence[DecisionEffect],
    expected: Sequence[ExpectedAction],
    objectives: Sequence[Objective],
    mc: MonteCarlo,
    end: date,
) -> list[Finding]:
    """Every strength and area for improvement of the exercise."""
    improve, sustain = end + timedelta(IMPROVE_DUE_DAYS), end + timedelta(SUSTAIN_DUE_DAYS)
    answers = _expected_findings(expected, improve, sustain, judgeable(room))
    return one_verdict(
        _decision_findings(room, effects, mc, improve, sustain, faulted(answers))
        + answers
        + _objective_findings(objectives, mc, improve, sustain)
        + _hot_wash(room)
    )


def faulted(items: Sequence[Finding]) -> frozenset[str]:
    """The calls some area for improvement among ``items`` names."""
    return frozenset(k for f in items if f.kind == "improvement" for k in f.calls)


def one_verdict(items: Sequence[Finding]) -> list[Finding]:
    """``items`` with no call both a strength and an area for improvement.

    A strength that names a faulted call is dropped (the decisions' own strengths are
    built without faulted calls, so this drops an inject's "as expected" beside a call a
    counterfactual or a slow route faults).
    """
    bad = faulted(items)
    return [f for f in items if not (f.kind == "strength" and set(f.calls) & bad)]
