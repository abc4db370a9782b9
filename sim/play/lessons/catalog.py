"""The lessons the mechanics carry (DESIGN.md's table) and the counterfactual that tests each.

A lesson is shown in a debrief only when this play's outcome moved: each lesson names
one or more :class:`Intervention`, a pure change to the scenario (levers, org, plan:
dotted paths applied and validated like a design, see :mod:`sim.designs`) that
switches the input of the lesson's mechanism to its other side. :mod:`sim.play.lessons.check`
replays the same world with each one and keeps the lines that moved beyond noise
(docs/model.md, "Debrief").

An intervention never edits an outcome. ``dont_overreact`` is the one that changes answers
instead of the scenario: its lesson is about the answer itself (restart with changes or
roll back), so it maps logged answers of one decision kind to another option.

New mechanisms add their counterfactual by appending an :class:`Intervention` to
:data:`INTERVENTIONS` (or by passing their own tuple to the check).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sim.designs import PRESETS_BY_KEY, RESEARCHERS
from sim.engine.compute import planned_run
from sim.engine.decisions import POLICIES
from sim.engine.facts import scenario_facts
from sim.engine.reliability import best_checkpoint_minutes
from sim.format import usd
from sim.scenario.levers import BY_NAME
from sim.scenario.spec import CO_DESIGN_CORE, DECISION_OPTIONS, RISK_KINDS, Scenario
from sim.scenario.vocabulary import words

Delta = dict[str, Any]


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    mechanic: str
    direction: str


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "late_discovery",
        "Late discovery in a long run is expensive",
        "defects, gates, fix cost growing with progress",
        "a defect caught at an ablation gate costs far less than mid-run",
    ),
    Lesson(
        "ablations",
        "Cheap experiments de-risk the expensive run",
        "ablation budget raises detection and narrows loss uncertainty",
        "more ablation budget lowers P90 cost and spread, up to a point",
    ),
    Lesson(
        "checkpointing",
        "Hardware fails at scale; checkpointing trades overhead for lost work",
        "interruptions proportional to GPUs; checkpoint interval",
        "effective training time peaks at an interior checkpoint interval",
    ),
    Lesson(
        "spike_response",
        "Loss spikes need a fast, owned response",
        "spikes noticed at the owner's watch interval, decisions along the org graph",
        "clear decision rights and a playbook waste less compute",
    ),
    Lesson(
        "ownership",
        "Every risk needs an owner and an early warning",
        "unowned risks surface only at late gates",
        "unowned risks cost more time and money",
    ),
    Lesson(
        "reserve_playbook",
        "Reserve and pre-agreed levers protect budget and schedule",
        "reserve fraction; ordered playbook",
        "reserve lowers P(over budget); a playbook beats ad hoc choices",
    ),
    Lesson(
        "build_vs_adapt",
        "Build versus adapt",
        "adapting a base model is cheaper and faster, capped by its size and corpus",
        "adapt wins on time and cost, loses where the cap binds",
    ),
    Lesson(
        "benchmarks_vs_product",
        "Public benchmarks are not product evals",
        "contamination and over-indexing inflate benchmarks only",
        "over-indexing raises the benchmark, not the product score",
    ),
    Lesson(
        "safety_early",
        "Safety, legal and privacy from the start",
        "late engagement produces release-blocking findings",
        "late engagement slips the schedule",
    ),
    Lesson(
        "brooks",
        "Small core teams; coordination grows with size",
        "effort grows with the pairs coordinating on co-design work; newcomers ramp up",
        "a much larger core is only a little faster at much higher effort; late additions delay",
    ),
    Lesson(
        "silos",
        "Avoid silos; don't split engineering from training",
        "latency and rework on handoffs; distance lowers MFU, slows restarts",
        "a siloed design detects later and reworks more",
    ),
    Lesson(
        "scale_non_core",
        "Scale where co-design isn't needed",
        "work with little co-design (data, evals, integrations) scales with headcount",
        "headcount there helps; in co-design work it doesn't",
    ),
    Lesson(
        "data_work",
        "Data work is unglamorous and high-impact",
        "data quality multiplies effective tokens; in an adaptation, what each round is worth",
        "data investment beats equal spend on compute in quality per dollar",
    ),
    Lesson(
        "dont_overreact",
        "Expect failed runs; don't overreact",
        "recipe-bound divergences need a recipe change; a curable spike needs a rollback",
        "overreacting to a curable spike costs more on average",
    ),
    Lesson(
        "focus",
        "Fewer, focused models; no forced contributions, territory or politics",
        "variants split compute and people; forced contributions skip the ablations; "
        "territorial teams and politics slow decisions",
        "fewer, focused models do better",
    ),
    Lesson(
        "close_to_work",
        "Decisions belong close to the work",
        "a right's holder sees the work's figures after the hops to it, read less precisely",
        "a right held far from the work decides later and worse",
    ),
    Lesson(
        "frontier",
        "Pushing the frontier costs about 10x repeating documented work",
        "novelty multiplies research effort and ablations, fails recipes, widens uncertainty",
        "frontier work costs several times more, with wider spreads",
    ),
)
LESSONS_BY_ID: dict[str, Lesson] = {lesson.id: lesson for lesson in LESSONS}


# --- what an intervention may read of the play ------------------------------------------------


@dataclass(frozen=True)
class PlayFacts:
    """The play an intervention is built for: its scenario, outcome row and logged answers."""

    scenario: Scenario
    outcome: Mapping[str, Any]
    answers: tuple[tuple[str, str], ...]
    """``(key, choice)`` of every decision the play made, in order (keys are ``kind#n``)."""

    @property
    def kinds_decided(self) -> tuple[str, ...]:
        """Decision kinds that came up in the play, in the order they first did."""
        return tuple(dict.fromkeys(key.split("#")[0] for key, _ in self.answers))

    def choices_of(self, kind: str) -> tuple[str, ...]:
        return tuple(c for key, c in self.answers if key.split("#")[0] == kind)

    @property
    def critical_teams(self) -> tuple[str, ...]:
        """Teams on the chain of work that set a phase's end, in the org's order."""
        return tuple(t.id for t in self.scenario.org.teams if self.outcome.get(f"critical:{t.id}"))


@dataclass(frozen=True)
class Change:
    """One counterfactual: dotted-path changes to the scenario and, rarely, to answers.

    ``label`` names the counterfactual as the start of a sentence ("Owning the loss-spike
    risk"); ``answers`` maps a decision kind to ``{logged choice: choice instead}``;
    ``afresh`` lists decision kinds whose logged answers do not hold in the counterfactual
    (a playbook change is about who answers and how, so its kind is decided again by the
    changed scenario's playbook, or by the person on the spot where it is silent).
    """

    label: str
    delta: Delta = field(default_factory=dict)
    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    afresh: tuple[str, ...] = ()


@dataclass(frozen=True)
class Intervention:
    """A lesson's counterfactual: a function of the play to a :class:`Change`, or None.

    None means the intervention does not apply to this play (its mechanism has no other
    side here, e.g. adapting without a base model); ``why_not`` says so in the report.
    """

    id: str
    lesson: str
    change: Callable[[PlayFacts], Change | None]
    why_not: str = "does not apply to this play"


# --- the interventions ------------------------------------------------------------------------

#: Risk -> the decision right whose holder takes an unowned risk on (docs/model.md, "Debrief").
RISK_TAKER: dict[str, str] = {
    "data_quality": "data_fix",
    "contamination": "data_fix",
    "licensing": "data_fix",
    "tokenizer_config": "rollback",
    "loss_spike": "rollback",
    "hardware": "rollback",
    "eval_gap": "ship",
    "safety": "ship",
    "budget": "budget",
    "staffing": "budget",
}
#: The other side of a lever that is off: the shipped default of each.
RESERVE_ON = 0.10
ABLATIONS_ON = 0.05
POLITICS_ON_DAYS = 1.0
VARIANTS_ON = 3
#: A risk owner's watch interval (hours) on the other side: daily when it looks more
#: often, hourly (on-call alerts) when it looks daily or less often.
WATCH_SLOW_HOURS = 24.0
WATCH_FAST_HOURS = 1.0
#: Extra data work tried when the play spent none: this share of the total budget.
DATA_WORK_SHARE = 0.02
#: A checkpoint interval within this share of the best is already at its best.
CHECKPOINT_NEAR_BEST = 0.10
#: Gates that look before the main run starts (their defects are the cheap ones).
EARLY_PHASES = ("prepare", "ablations")


#: How a line names each risk.
RISK_WORDS: dict[str, str] = {
    "data_quality": "data-quality",
    "contamination": "contamination",
    "licensing": "licensing",
    "tokenizer_config": "tokenizer-and-config",
    "loss_spike": "loss-spike",
    "hardware": "hardware",
    "eval_gap": "eval-gap",
    "safety": "safety",
    "budget": "budget",
    "staffing": "staffing",
}


#: A budget response as a list of them names it ("tokens, then rounds, then overrun").
BUDGET_WORDS = {
    "use_reserve": "the reserve",
    "cut_ablations": "ablations",
    "reduce_tokens": "tokens",
    "fewer_post_training_rounds": "rounds",
    "smaller_eval_scope": "eval scope",
    "fewer_hires": "hires",
    "smaller_cluster": "cluster",
    "accept_overrun": "overrun",
}


def _team(s: Scenario, team_id: str | None) -> str:
    """A team as a line names it: the scenario's name for it, else its id in words.

    "Safety, legal and privacy" reads "safety, legal and privacy"; never a raw id.
    """
    if team_id is None:
        return "nobody"
    team = next((t for t in s.org.teams if t.id == team_id), None)
    name = team.name.strip() if team is not None and team.name.strip() else words(team_id)
    return name if name[:2].isupper() else name[:1].lower() + name[1:]


def _owner(risk: str, p: PlayFacts) -> Change:
    org = p.scenario.org
    owner = org.risk_owners.get(risk)  # type: ignore[call-overload]
    what = RISK_WORDS.get(risk, words(risk))
    if owner is None:
        taker = org.decision_rights[RISK_TAKER[risk]]  # type: ignore[index]
        return Change(
            f"Giving the unowned {what} risk to {_team(p.scenario, taker)} (who holds the "
            f"{words(RISK_TAKER[risk])} decision)",
            {f"org.risk_owners.{risk}": taker},
        )
    return Change(
        f"Leaving the {what} risk unowned instead of with {_team(p.scenario, owner)}",
        {f"org.risk_owners.{risk}": None},
    )


def _flag(lever: str, on: str, off: str, p: PlayFacts) -> Change:
    value = bool(getattr(p.scenario.levers, lever))
    return Change(off if value else on, {f"levers.{lever}": not value})


def _share(lever: str, on_value: float, p: PlayFacts) -> Change:
    value, noun = float(getattr(p.scenario.levers, lever)), BY_NAME[lever].label.lower()
    if value > 0:
        return Change(f"No {noun} (0 instead of {value:.0%})", {f"levers.{lever}": 0.0})
    return Change(f"A {noun} of {on_value:.0%}", {f"levers.{lever}": on_value})


def _checkpoint(p: PlayFacts) -> Change | None:
    s = p.scenario
    # The planned run's reliability as the engine builds it (GPUs per variant, operations
    # at the job's scale, restarts along the org graph).
    spec = scenario_facts(s).run(planned_run(s)[0]).reliability
    if spec.failure_rate == 0:
        return None
    low, high = BY_NAME["checkpoint_minutes"].bounds
    best = round(min(max(best_checkpoint_minutes(spec), low or 0.0), high or math.inf), 1)
    now = s.levers.checkpoint_minutes
    if abs(best - now) <= CHECKPOINT_NEAR_BEST * now:
        return None
    return Change(
        f"Checkpointing at its best interval ({best:g} minutes instead of {now:g})",
        {"levers.checkpoint_minutes": best},
    )


def _gates(p: PlayFacts) -> Change | None:
    s = p.scenario
    kinds = sorted(
        {d.kind for d in s.incidents.defects}
        | {i.defect for i in s.incidents.scripted if i.kind == "data_defect" and i.defect}
    )
    if not kinds:
        return None
    early = [g for g in s.plan.gates if g.after in EARLY_PHASES]
    if early:
        kept = [g.model_dump() for g in s.plan.gates if g.after not in EARLY_PHASES]
        names = ", ".join(words(g.id) for g in early)
        return Change(f"Dropping the early gates ({names})", {"plan.gates": kept})
    gate = {"id": "ablation_gate", "after": "ablations", "catches": kinds, "strength": 0.9}
    taken = {g.id for g in s.plan.gates}
    if gate["id"] in taken:
        gate["id"] = "early_ablation_gate"
    return Change(
        "An ablation gate before the run (strength 0.9)",
        {"plan.gates": [*(g.model_dump() for g in s.plan.gates), gate]},
    )


def _playbook(kind: str, p: PlayFacts) -> Change | None:
    if kind not in p.kinds_decided:
        return None
    book: dict[str, list[str]] = {k: list(v) for k, v in p.scenario.levers.playbook.items()}
    what = words(kind)
    if kind in book:
        del book[kind]
        return Change(
            f"No pre-agreed {what} response (decided on the spot)",
            {"levers.playbook": book},
            afresh=(kind,),
        )
    book[kind] = list(POLICIES["textbook"][kind])
    order = ", then ".join(words(o) for o in book[kind])
    return Change(
        f"Agreeing the {what} response in advance ({order})",
        {"levers.playbook": book},
        afresh=(kind,),
    )


def _budget_order(p: PlayFacts) -> Change | None:
    """The budget entry in another order: the textbook's, or (if it is that) tokens first.

    Applies when the order was used: a budget decision came up or the plan was cut to fit.
    """
    book: dict[str, list[str]] = {k: list(v) for k, v in p.scenario.levers.playbook.items()}
    now = book.get("budget", [])
    if not now or ("budget" not in p.kinds_decided and not p.outcome.get("scope_cuts")):
        return None
    textbook = list(POLICIES["textbook"]["budget"])
    other = textbook if now != textbook else list(POLICIES["aggressive"]["budget"])
    book["budget"] = other
    order = ", then ".join(BUDGET_WORDS.get(o, words(o)) for o in other)
    return Change(
        f"Another order of budget responses ({order})",
        {"levers.playbook": book},
        afresh=("budget",),
    )


def _strategy(p: PlayFacts) -> Change | None:
    s = p.scenario
    if s.levers.strategy == "adapt":
        return Change(
            "Pretraining from scratch instead of adapting", {"levers.strategy": "pretrain"}
        )
    if s.model.base_model is None:
        return None
    return Change(
        f"Adapting the base model ({s.model.base_model.name}) instead of pretraining",
        {"levers.strategy": "adapt"},
    )


def _eval_focus(p: PlayFacts) -> Change:
    if p.scenario.levers.eval_focus == "single":
        return Change("Balanced eval focus (not one eval)", {"levers.eval_focus": "balanced"})
    return Change("Over-indexing on one eval", {"levers.eval_focus": "single"})


def _work(p: PlayFacts, team: str, recipe: bool) -> float:
    """Effort the plan gives ``team`` of recipe work (or of work that needs little co-design)."""
    s = p.scenario
    return sum(
        w.effort_person_days
        for w in s.plan.workstreams
        if w.owner == team
        and w.strategy in ("both", s.levers.strategy)
        and (w.co_design_need >= CO_DESIGN_CORE) == recipe
    )


def _core_team(p: PlayFacts) -> str:
    """The co-design team on the critical path with the most recipe work (else the trainers).

    The core is derived from the work (``Scenario.co_design_team_ids``), never declared.
    """
    s = p.scenario
    on_path = [t for t in s.co_design_team_ids if t in p.critical_teams]
    if not on_path:
        return s.training_team_id
    return max(on_path, key=lambda t: (_work(p, t, recipe=True), -on_path.index(t)))


def _headcount(factor: float, p: PlayFacts) -> Change | None:
    team_id = _core_team(p)
    team = next(t for t in p.scenario.org.teams if t.id == team_id)
    new = max(1, round(team.headcount * factor))
    if new == team.headcount:
        return None
    word = "Half" if factor < 1 else "Twice"
    return Change(
        f"{word} the {_team(p.scenario, team_id)} team ({team.headcount} -> {new} people)",
        {f"org.teams.{team_id}.headcount": new},
    )


def _late_staff(p: PlayFacts) -> Change | None:
    lev = p.scenario.levers
    if lev.add_core_staff == 0:
        return None
    return Change(
        f"Not adding {lev.add_core_staff} people to the core on day {lev.add_core_staff_day:g}",
        {"levers.add_core_staff": 0},
    )


def _scale(p: PlayFacts) -> Change | None:
    """Twice the team outside the core with the most low-co-design work on the critical path."""
    s = p.scenario
    core = set(s.co_design_team_ids)
    effort = {
        t.id: _work(p, t.id, recipe=False)
        for t in s.org.teams
        if t.id in p.critical_teams and t.id not in core and not t.evergreen
    }
    effort = {t: e for t, e in effort.items() if e > 0}
    if not effort:
        return None
    team_id = max(effort, key=lambda t: (effort[t], t))
    team = next(t for t in s.org.teams if t.id == team_id)
    return Change(
        f"Twice the {_team(s, team_id)} team ({team.headcount} -> {2 * team.headcount} people)",
        {f"org.teams.{team_id}.headcount": 2 * team.headcount},
    )


def _data(p: PlayFacts) -> Change:
    s = p.scenario
    spent = s.levers.data_investment_usd
    if spent > 0:
        return Change(f"No extra data work (not {usd(spent)})", {"levers.data_investment_usd": 0.0})
    more = round(DATA_WORK_SHARE * s.objective.budget.total_usd, -3)
    return Change(f"{usd(more)} of extra data work", {"levers.data_investment_usd": more})


def _overreact(p: PlayFacts) -> Change | None:
    chosen = p.choices_of("rollback")
    if not chosen:
        return None
    if "overreact" in chosen:
        return Change(
            "Rolling back and skipping instead of overreacting",
            answers={"rollback": {"overreact": "rollback_skip"}},
        )
    others = {c: "overreact" for c in DECISION_OPTIONS["rollback"] if c != "overreact"}
    return Change("Overreacting to the loss spikes (a recipe change)", answers={"rollback": others})


def _variants(p: PlayFacts) -> Change:
    n = p.scenario.levers.parallel_variants
    if n > 1:
        return Change(f"One model instead of {n} variants", {"levers.parallel_variants": 1})
    return Change(
        f"{VARIANTS_ON} model variants at once", {"levers.parallel_variants": VARIANTS_ON}
    )


def _politics(p: PlayFacts) -> Change:
    days = p.scenario.org.politics_days
    if days > 0:
        return Change(f"No politics (not {days:g} days a hop)", {"org.politics_days": 0.0})
    return Change(
        f"Politics ({POLITICS_ON_DAYS:g} day a decision hop)",
        {"org.politics_days": POLITICS_ON_DAYS},
    )


def _contributions(p: PlayFacts) -> Change | None:
    """Forced contributions tested in the ablations; if all are tested, forced in instead."""
    cs = p.scenario.org.contributions
    if not cs:
        return None
    forced = [c for c in cs if not c.tested]
    names = ", ".join(c.id for c in (forced or cs))
    flipped = [{**c.model_dump(), "tested": bool(forced) or not c.tested} for c in cs]
    if forced:
        label = f"Testing the forced contributions ({names}) in the ablations"
    else:
        label = f"Forcing the contributions ({names}) in untested"
    return Change(label, {"org.contributions": flipped})


def _territorial(p: PlayFacts) -> Change | None:
    """No territorial teams; with none, the largest team outside the core turned territorial."""
    s = p.scenario
    teams = [t.id for t in s.org.teams if t.territorial]
    if teams:
        return Change(
            f"No territorial teams ({', '.join(_team(s, t) for t in teams)} not forcing a "
            f"contribution in)",
            {f"org.teams.{t}.territorial": False for t in teams},
        )
    core = set(s.co_design_team_ids)
    others = [t for t in s.org.teams if t.id not in core and not t.evergreen]
    if not others:
        return None
    team = max(others, key=lambda t: (t.headcount, -others.index(t)))
    return Change(
        f"The {_team(s, team.id)} team turned territorial (its own contribution forced in, "
        "a stake in every decision)",
        {f"org.teams.{team.id}.territorial": True},
    )


def _evergreen(p: PlayFacts) -> Change | None:
    """Without the evergreen research team; with none, one kept apart (the compare preset)."""
    s = p.scenario
    team = next((t for t in s.org.teams if t.evergreen), None)
    if team is None:
        preset = PRESETS_BY_KEY["evergreen_apart"]
        return Change(f"An evergreen research team of {RESEARCHERS} kept apart", preset.changes(s))
    teams = [t.model_dump() for t in s.org.teams if t.id != team.id]
    links = [
        link.model_dump(by_alias=True)
        for link in s.org.links
        if team.id not in (link.source, link.target)
    ]
    return Change(
        f"Without the {_team(s, team.id)} research team ({team.headcount} people)",
        {"org.teams": teams, "org.links": links},
    )


#: Risks in the order their owner's watch interval is tried: a team owning several is
#: tried once, under the first it owns (the loss spike first: its lesson is the spike's).
WATCHED: tuple[str, ...] = ("loss_spike", *(r for r in RISK_KINDS if r != "loss_spike"))


def _watch(risk: str, p: PlayFacts) -> Change | None:
    """The owner of ``risk`` looking at its metrics daily instead of hourly (or hourly)."""
    owners = p.scenario.org.risk_owners
    team_id = owners.get(risk)  # type: ignore[call-overload]
    if team_id is None:
        return None
    owned = [r for r in WATCHED if owners.get(r) == team_id]  # type: ignore[call-overload]
    if owned[0] != risk:
        return None  # tried under the first risk it owns
    team = next(t for t in p.scenario.org.teams if t.id == team_id)
    now = team.watch_hours
    new = WATCH_SLOW_HOURS if now < WATCH_SLOW_HOURS else WATCH_FAST_HOURS
    return Change(
        f"The {_team(p.scenario, team_id)} team checking its risks' metrics every {new:g} h, "
        f"not {now:g} h",
        {f"org.teams.{team_id}.watch_hours": new},
    )


def _hops(s: Scenario, a: str, b: str) -> int:
    return scenario_facts(s).org.signal_path(a, b).hops


def _right_moved(kind: str, work: str, p: PlayFacts) -> Change | None:
    """The ``kind`` right handed to the team at the ``work``, or from it to the furthest team.

    The run stays with the team running it (``plan.training_team``).
    """
    s = p.scenario
    holder = s.org.decision_rights[kind]  # type: ignore[index]
    what = "the ship call" if kind == "ship" else f"the {words(kind)} right"
    where = "the results" if kind == "ship" else "the loss curve"
    keep = {"plan.training_team": s.training_team_id}
    if holder != work:
        hops = _hops(s, work, holder)
        return Change(
            f"Handing {what} to {_team(s, work)}, who hold {where} ({_team(s, holder)} sits "
            f"{hops} hop{'s' * (hops != 1)} away)",
            {f"org.decision_rights.{kind}": work, **keep},
        )
    others = [t.id for t in s.org.teams if t.id != work and not t.evergreen]
    if not others:
        return None
    far = max(others, key=lambda t: (_hops(s, work, t), -others.index(t)))
    hops = _hops(s, work, far)
    return Change(
        f"Handing {what} to {_team(s, far)}, {hops} hop{'s' * (hops != 1)} from {where}",
        {f"org.decision_rights.{kind}": far, **keep},
    )


def _ship_right(p: PlayFacts) -> Change | None:
    s = p.scenario
    work = s.org.risk_owners.get("eval_gap")  # type: ignore[call-overload]
    if work is None:  # the team that ran the evaluation holds the results (phases.py)
        evaluators = [w.owner for w in scenario_facts(s).in_phase["evaluation"]]
        work = evaluators[0] if evaluators else s.org.decision_rights["ship"]  # type: ignore[index]
    return _right_moved("ship", work, p)


def _rollback_right(p: PlayFacts) -> Change | None:
    if "rollback" not in p.kinds_decided:
        return None
    s = p.scenario
    work = s.org.risk_owners.get("loss_spike") or s.training_team_id  # type: ignore[call-overload]
    return _right_moved("rollback", work, p)


def _novelty(p: PlayFacts) -> Change | None:
    n = p.scenario.model.novelty
    if n == 0:
        return None
    return Change(f"Repeating documented work (novelty 0, not {n:g})", {"model.novelty": 0.0})


INTERVENTIONS: tuple[Intervention, ...] = (
    Intervention("early_gates", "late_discovery", _gates, "no defect source to catch"),
    Intervention(
        "ablation_share",
        "ablations",
        partial(_share, "ablation_fraction", ABLATIONS_ON),
    ),
    Intervention("checkpoint_best", "checkpointing", _checkpoint, "already at its best interval"),
    *(
        Intervention(
            f"owner_{risk}",
            "spike_response" if risk == "loss_spike" else "ownership",
            partial(_owner, risk),
        )  # fmt: skip
        for risk in RISK_KINDS
    ),
    *(
        Intervention(
            f"watch_{risk}",
            "spike_response" if risk == "loss_spike" else "ownership",
            partial(_watch, risk),
            "the risk is unowned, or its owner is tried under another risk",
        )  # fmt: skip
        for risk in WATCHED
    ),
    Intervention("reserve", "reserve_playbook", partial(_share, "reserve_fraction", RESERVE_ON)),
    Intervention(
        "budget_order",
        "reserve_playbook",
        _budget_order,
        "no budget entry in the playbook, or no budget decision or scope cut came up",
    ),
    *(
        Intervention(
            f"playbook_{kind}",
            "reserve_playbook",
            partial(_playbook, kind),
            f"no {kind.replace('_', ' ')} decision came up",
        )  # fmt: skip
        for kind in DECISION_OPTIONS
    ),
    Intervention("strategy", "build_vs_adapt", _strategy, "no base model to adapt"),
    Intervention(
        "product_evals_early",
        "benchmarks_vs_product",
        partial(
            _flag,
            "product_evals_early",
            "Building product evals early",
            "Building product evals late",
        ),
    ),
    Intervention(
        "decontaminate",
        "benchmarks_vs_product",
        partial(_flag, "decontaminate", "Decontaminating the training data", "Not decontaminating"),
    ),
    Intervention("eval_focus", "benchmarks_vs_product", _eval_focus),
    Intervention(
        "safety_from_start",
        "safety_early",
        partial(
            _flag,
            "safety_from_start",
            "Engaging safety, legal and privacy from the start",
            "Engaging safety, legal and privacy late",
        ),
    ),
    Intervention("core_half", "brooks", partial(_headcount, 0.5), "the core team is one person"),
    Intervention("core_double", "brooks", partial(_headcount, 2.0)),
    Intervention("no_late_staff", "brooks", _late_staff, "no core staff added late"),
    Intervention(
        "engineering_embedded",
        "silos",
        partial(
            _flag,
            "engineering_embedded",
            "Embedding engineering with training",
            "Splitting engineering from training",
        ),
    ),
    Intervention(
        "scale_non_core", "scale_non_core", _scale, "no non-core team on the critical path"
    ),
    Intervention("data_work", "data_work", _data),
    Intervention("overreact", "dont_overreact", _overreact, "no loss-spike decision came up"),
    Intervention("variants", "focus", _variants),
    Intervention("politics", "focus", _politics),
    Intervention("contributions", "focus", _contributions, "no contributions were proposed"),
    Intervention("territorial", "focus", _territorial, "no team outside the core"),
    Intervention(
        "evergreen", "focus", _evergreen, "the research team cannot go (it owns a risk or a right)"
    ),
    Intervention("ship_right", "close_to_work", _ship_right, "no other team to hand it to"),
    Intervention(
        "rollback_right", "close_to_work", _rollback_right, "no loss-spike decision came up"
    ),
    Intervention("novelty", "frontier", _novelty, "the play already repeats documented work"),
)
INTERVENTIONS_BY_ID: dict[str, Intervention] = {iv.id: iv for iv in INTERVENTIONS}
