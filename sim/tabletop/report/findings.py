"""The report's findings: strengths and areas for improvement, each tied to a capability.

Each carries its root cause, a corrective action, the evidence behind it, and what the
Monte Carlo says about it.

Where each comes from:

- the room's calls of one kind against the playbook's, on the same simulated worlds
  (at least :data:`sim.tabletop.report.versus.FINDING_WORLDS`, common random numbers):
  clearly worse is an area for improvement, clearly better a strength, with the paired
  intervals on the finish, the cost and each objective's chance
  (:mod:`sim.tabletop.report.versus`); the exercise's own world with the call changed is
  shown beside it as an illustration only, never as the basis of the verdict;
- a call that took more than :data:`SLOW_DAYS` to reach its holder;
- a call that fell to the playbook because nobody held the role;
- an inject's expected choice made, not made, or never answered (matched by the day the
  incident happened: :mod:`sim.tabletop.matching`);
- the facilitator's rating of each expected action (P a strength; S, M, U an area for
  improvement);
- each objective met or missed, with its chance under the room's way of deciding and
  the playbook's (Wilson intervals) and their paired difference (Tango's interval);
- the hot wash; a finding adopted into it is listed once, as the hot-wash item.

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

from sim.scenario.vocabulary import words
from sim.tabletop.clock import scenario_of
from sim.tabletop.db.room import Room
from sim.tabletop.effects import DecisionEffect, ExpectedAction, Objective
from sim.tabletop.report.calls import judgeable
from sim.tabletop.report.hseep import CAPABILITIES, OBJECTIVES, RATINGS, capability_of_kind
from sim.tabletop.report.montecarlo import KindEffect, MonteCarlo
from sim.tabletop.report.versus import Versus, figure, figures, label

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


def quantify(effect: KindEffect | None, mc: MonteCarlo) -> str:
    """What the room's choices of one kind did over the Monte Carlo's worlds.

    Nothing when every one of the room's calls of the kind was the playbook's: then the
    two arms differ only in how calls are replayed, not in what the room decided.
    """
    if effect is None or set(effect.room_choices) <= {effect.playbook_choice}:
        return ""
    chose = ", ".join(words(c) for c in effect.room_choices)
    return (
        f"Over {effect.versus.reps} simulated worlds (common random numbers), the room's "
        f"{words(effect.kind)} calls ({chose}) against the playbook's "
        f"({words(effect.playbook_choice)}) changed {figures(effect.versus)}. Verdict: "
        f"{effect.versus.verdict}."
    )


def illustration(e: DecisionEffect) -> str:
    """The exercise's own world with this call changed: an illustration, never a verdict."""
    top = max(e.alternatives, key=lambda a: a.impact, default=None)
    if top is None:
        return ""
    return (
        f"One world only (the exercise's own, an illustration beside the many-world figure): "
        f"{words(top.option)} instead of {words(e.choice)} on day {e.day:.1f} would have "
        f"changed the finish by {top.delta_schedule_days:+.1f} days, the cost by "
        f"${top.delta_cost_usd:+,.0f} and quality by {top.delta_quality:+.3f}."
    )


def _clear_words(v: Versus, measures: Sequence[str]) -> str:
    return "; ".join(f"{label(m)} {figure(m, v.rows()[m])}" for m in measures)


def _kind_finding(
    room: Room,
    effect: KindEffect,
    calls: Sequence[DecisionEffect],
    mc: MonteCarlo,
    improve: date,
    sustain: date,
) -> Finding | None:
    """The verdict on the room's calls of one kind, over the Monte Carlo's worlds, or none."""
    v = effect.versus
    if v.verdict not in ("worse", "better") or not calls:
        return None
    s = scenario_of(room.exercise.scenario_yaml)
    agreed = s.levers.playbook.get(effect.kind)  # type: ignore[call-overload]
    chose = "; ".join(f"day {e.day:.0f}: {words(e.choice)}" for e in calls)
    head = (f"{words(effect.kind).capitalize()} calls ({chose}) against the playbook's "
            f"({words(effect.playbook_choice)}), over {v.reps} simulated worlds")  # fmt: skip
    evidence = tuple(
        f"Decision {e.key} on day {e.day:.1f} by {e.by}: {words(e.choice)}. "
        f"Rationale: {e.rationale}"
        for e in calls
    ) + tuple(filter(None, (illustration(e) for e in calls)))
    keys = tuple(e.key for e in calls)
    cap = capability_of_kind(effect.kind).id
    if v.verdict == "better":
        return Finding(
            "strength", cap, f"{head}: clearly better on {_clear_words(v, v.better_on())}.",
            calls[0].role, sustain, f"calls {effect.kind}", evidence=evidence,
            quantified=quantify(effect, mc), calls=keys,
        )  # fmt: skip
    cause = (
        f"The playbook agrees {', '.join(words(a) for a in agreed)} for {words(effect.kind)} "
        "calls; the room chose otherwise."
        if agreed
        else f"No {words(effect.kind)} response was agreed in advance, so it was decided ad hoc."
    )
    return Finding(
        "improvement", cap, f"{head}: clearly worse on {_clear_words(v, v.worse_on())}.",
        calls[0].role, improve, f"calls {effect.kind}", cause,
        f"Agree the {words(effect.kind)} response in the playbook "
        f"({words(effect.playbook_choice)} where it applies) and rehearse it.",
        evidence, quantify(effect, mc), keys,
    )  # fmt: skip


def _decision_findings(
    room: Room,
    effects: Sequence[DecisionEffect],
    mc: MonteCarlo,
    improve: date,
    sustain: date,
) -> list[Finding]:
    """Findings on the room's calls: per kind over many worlds, and each call's route."""
    s = scenario_of(room.exercise.scenario_yaml)
    items: list[Finding] = []
    may_judge = judgeable(room)
    for kind in dict.fromkeys(e.kind for e in effects):
        effect = mc.effect(kind)
        calls = [e for e in effects if e.kind == kind and may_judge(e.key)]
        found = _kind_finding(room, effect, calls, mc, improve, sustain) if effect else None
        if found is not None:
            items.append(found)
    for e in effects:
        cap = capability_of_kind(e.kind).id
        evidence = (f"Decision {e.key} on day {e.day:.1f} by {e.by}: {words(e.choice)}. "
                    f"Rationale: {e.rationale}",)  # fmt: skip
        agreed = s.levers.playbook.get(e.kind)  # type: ignore[call-overload]
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
    return items


def _choice_finding(
    a: ExpectedAction, improve: date, sustain: date, mc: MonteCarlo | None = None
) -> Finding:
    where = f"Inject “{a.inject}”"
    when = "" if a.incident_day is None else f" (the incident: day {a.incident_day:.1f})"
    expected = " or ".join(words(o) for o in a.choice)
    if a.answered_choice is None:
        return Finding(
            "improvement", a.capability,
            f"{where}: no call followed the incident{when}; expected: {expected}.",
            a.owner, improve, f"inject {a.inject_id}",
            "The incident did not reach a decision in the room.",
            "Check that the role with the right sees the signal, and rehearse the call.",
        )  # fmt: skip
    met = a.answered_choice in a.choice
    said = f"{where}: the room chose {words(a.answered_choice)}{when}"
    return Finding(
        "strength" if met else "improvement", a.capability,
        said + (", as expected." if met else f"; expected: {expected}."),
        a.owner, sustain if met else improve, f"inject {a.inject_id}",
        "" if met else "The expected response was not chosen when the incident struck.",
        "" if met else "Rehearse this response, and write it into the playbook.",
        (f"Decision {a.answered_by}: {words(a.answered_choice)}",),
        quantify(mc.effect(a.answered_by.split("#")[0]), mc) if mc and a.answered_by else "",
        calls=(a.answered_by,) if a.answered_by else (),
    )  # fmt: skip


def _expected_findings(
    expected: Sequence[ExpectedAction],
    improve: date,
    sustain: date,
    may_judge: Callable[[str], bool] = lambda key: True,
    mc: MonteCarlo | None = None,
) -> list[Finding]:
    items = []
    for n, a in enumerate(expected):
        if a.choice:
            if a.answered_by is not None and not may_judge(a.answered_by):
                continue  # the playbook's call, or no choice: not a finding either way
            items.append(_choice_finding(a, improve, sustain, mc))
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


def chance_words(mc: MonteCarlo, objective: str) -> str:
    """An objective's chance, room and playbook, each with its interval, and the paired gap."""
    lo, hi = mc.room.p_met_interval.get(objective, (0.0, 1.0))
    blo, bhi = mc.playbook.p_met_interval.get(objective, (0.0, 1.0))
    gap = mc.versus.chances.get(objective) if mc.versus else None
    paired = (
        f"; the room minus the playbook on the same worlds: {figure(objective, gap)}" if gap else ""
    )
    return (
        f"Over {mc.reps} simulated worlds the room's way of deciding meets the objective "
        f"“{OBJECTIVES[objective][0]}” {mc.room.p_met[objective]:.0%} of the time (95% "
        f"interval {lo:.0%} to {hi:.0%}), the playbook {mc.playbook.p_met[objective]:.0%} "
        f"({blo:.0%} to {bhi:.0%}){paired}."
    )


def _objective_findings(
    objectives: Sequence[Objective], mc: MonteCarlo, improve: date, sustain: date
) -> list[Finding]:
    items = []
    for o in objectives:
        chance = chance_words(mc, o.objective)
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
    answers = _expected_findings(expected, improve, sustain, judgeable(room), mc)
    computed = (
        _decision_findings(room, effects, mc, improve, sustain)
        + answers
        + _objective_findings(objectives, mc, improve, sustain)
    )
    return one_verdict(adopted_once(computed, room) + _hot_wash(room))


def adopted_once(computed: Sequence[Finding], room: Room) -> list[Finding]:
    """The report's own findings less those adopted into the hot wash (the copy stands in).

    Adopting a proposed finding stores it as a hot-wash item with the finding's source;
    counting both would list it twice (issue 27.8: 6 areas for improvement became 14).
    """
    stored = {h.source for h in room.hot_wash if h.source}
    return [f for f in computed if f.source not in stored]


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
