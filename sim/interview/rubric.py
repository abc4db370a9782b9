"""The interview rubric: each item judged met, partly met or missed, with evidence.

Items follow the question's rubric (seeds/000): what Part 1 and Part 2 should
cover, what a strong answer adds, and the three follow-ups. Each item is judged
from the candidate's own plan and play, never from prose quality: the checks are
structural (is every risk owned? is there a reserve? did the gates before the run
look for the defects that hurt most?) and the evidence quotes the plan's own
values, so a candidate sees exactly what to change. Free text is only checked for
being there and being more than a word or two; judging the prose is the coach's job.

:func:`judge` returns a :class:`RubricReport`; :func:`session_markdown` writes a
whole practice session as Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from sim.engine.compute import estimate_for_scenario, planned_compute_usd
from sim.interview.followups import FOLLOWUPS
from sim.interview.plan import (
    CLARIFICATION_BY_ID,
    EARLY_SIGNALS,
    STAGES,
    InterviewPlan,
    adapt_caps,
    effective_strategy,
    plan_scenario,
    plan_world,
    stated_targets,
)
from sim.scenario.spec import DECISION_KINDS, RISK_KINDS

Status = Literal["met", "partly", "missed", "not_played"]
STATUS_LABEL: dict[str, str] = {
    "met": "met",
    "partly": "partly met",
    "missed": "missed",
    "not_played": "not played",
}
POINTS: dict[str, float] = {"met": 1.0, "partly": 0.5, "missed": 0.0}
#: The product manager's team in the shipped scenarios.
PM_TEAM = "product"
#: Teams that may sensibly hold budget, schedule and ship calls.
BUSINESS_TEAMS = ("product", "leadership")
RESERVE_MIN = 0.05
ABLATION_MIN = 0.03
#: How far a compute estimate may stray from the model's and still count as sound.
ESTIMATE_TOLERANCE = 0.35
#: Defects a pre-run gate should look for: the ones that ruin a run when found late.
PRE_RUN_CATCHES = ("data_quality", "tokenizer_config", "contamination")
SOUND_SPIKE_CALLS = ("rollback_skip", "pause_investigate")
AREAS: dict[str, tuple[str, ...]] = {
    "data": ("data",),
    "compute and infrastructure": ("sizing", "cluster"),
    "training stability": ("stability",),
    "post-training": ("post_training",),
    "evaluation": ("evaluation",),
}
Judgement = tuple[Status, list[str]]


@dataclass(frozen=True)
class RubricItem:
    id: str
    part: str
    title: str
    status: Status
    evidence: tuple[str, ...]
    strong: str


@dataclass(frozen=True)
class RubricReport:
    items: tuple[RubricItem, ...]
    outcome: dict[str, Any] | None = None
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def score(self) -> float:
        """Share of the judged items met (partly met counts half); not-played items are left out."""
        judged = [POINTS[i.status] for i in self.items if i.status in POINTS]
        return sum(judged) / len(judged) if judged else 0.0

    def item(self, item_id: str) -> RubricItem:
        return next(i for i in self.items if i.id == item_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "counts": self.counts,
            "items": [asdict(i) for i in self.items],
            "outcome": self.outcome,
        }


def _words(text: str) -> int:
    return len(text.split())


def _grade(passed: int, total: int, partly_from: int = 1) -> Status:
    if passed >= total:
        return "met"
    return "partly" if passed >= partly_from else "missed"


def _names(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"


def _pre_run_gates(plan: InterviewPlan) -> list[Any]:
    return [g for g in plan.gates if g.after in ("prepare", "ablations")]


# --- Part 1 ----------------------------------------------------------------------------------


def _breadth(plan: InterviewPlan) -> Judgement:
    stages = {c.stage for c in plan.challenges}
    covered = [a for a, ss in AREAS.items() if stages & set(ss)]
    missing = [a for a in AREAS if a not in covered]
    status: Status = "met" if not missing else ("partly" if len(covered) >= 3 else "missed")
    return status, [
        f"{len(plan.challenges)} challenges cover {len(covered)} of {len(AREAS)} areas: "
        f"{_names(covered)}; missing: {_names(missing)}"
    ]


def _consequences(plan: InterviewPlan) -> Judgement:
    if not plan.challenges:
        return "missed", ["No challenges listed"]
    bare = [c.title for c in plan.challenges if not c.hits or _words(c.consequence) < 4]
    done = len(plan.challenges) - len(bare)
    status = _grade(done, len(plan.challenges), partly_from=(len(plan.challenges) + 1) // 2)
    lines = [f"{done} of {len(plan.challenges)} challenges say what they put at risk and how"]
    if bare:
        lines.append(f"Without a concrete consequence: {_names(bare)}")
    return status, lines


def _grounding(plan: InterviewPlan) -> Judgement:
    lines = []
    explained = _words(plan.late_discovery) >= 15
    lines.append(
        f"Why late discovery is expensive: {_words(plan.late_discovery)} words"
        + ("" if explained else " (say what is thrown away and what must be redone)")
    )
    mapped = [c for c in plan.challenges if c.risk is not None]
    signalled = [c for c in mapped if c.earliest_signal is not None]
    unsound = [c for c in signalled if c.earliest_signal not in EARLY_SIGNALS[c.risk or "budget"]]
    sound = bool(mapped) and 2 * len(signalled) >= len(mapped) and not unsound
    lines.append(
        f"Earliest signals named for {len(signalled)} of {len(mapped)} challenges; "
        f"{len(signalled) - len(unsound)} sound"
    )
    for c in unsound:
        first = " or ".join(EARLY_SIGNALS[c.risk or "budget"])
        lines.append(f"'{c.title}' at {c.earliest_signal}: its first signal comes at {first}")
    return _grade(int(explained) + int(sound), 2), lines


# --- Part 2 ----------------------------------------------------------------------------------


def _owners(plan: InterviewPlan) -> Judgement:
    unowned = [r for r in RISK_KINDS if plan.owner(r) is None]
    silent = [r for r in RISK_KINDS if plan.owner(r) and _words(plan.early_warning(r)) < 2]
    n = len(RISK_KINDS)
    lines = [
        f"{n - len(unowned)} of {n} risks have an owner"
        if not unowned
        else f"{len(unowned)} of {n} risks have no owner: {_names(unowned)}"
    ]
    if silent:
        lines.append(f"{len(silent)} owned risks have no early warning: {_names(silent)}")
    orphans = sorted({c.risk for c in plan.challenges if c.risk and plan.owner(c.risk) is None})
    if orphans:
        lines.append(f"Part 1 challenges left without an owner: {_names(orphans)}")
    if not unowned and not silent:
        return "met", lines
    return ("partly" if len(unowned) <= 3 else "missed"), lines


def _core_teams(plan: InterviewPlan) -> set[str]:
    design = plan_scenario(plan)
    # The teams owning recipe work, and any the candidate marked core (a deprecated flag).
    return set(design.recipe_team_ids) | {t.id for t in design.org.teams if t.core}


def _rights(plan: InterviewPlan) -> Judgement:
    rights = {k: v for k in DECISION_KINDS if (v := plan.right(k)) is not None}
    open_ = [k for k in DECISION_KINDS if k not in rights]
    lines = [f"Rights named: {_names([f'{k} → {v}' for k, v in rights.items()])}"]
    if open_:
        lines.append(f"No holder named for: {_names(open_)}")
    core = _core_teams(plan)
    misplaced = [k for k in ("rollback", "data_fix") if k in rights and rights[k] not in core]  # type: ignore[comparison-overlap]
    misplaced += [
        k
        for k in ("budget", "schedule", "ship")
        if k in rights and rights[k] not in BUSINESS_TEAMS  # type: ignore[comparison-overlap]
    ]
    if misplaced:
        lines.append(
            "Held far from the work: "
            + _names([f"{k} by {rights[k]}" for k in misplaced])
            + " (run calls belong to the core training team; money, dates and shipping to "
            "product or leadership)"
        )
    agreed = bool(plan.responses("rollback"))
    if not agreed:
        lines.append("Nothing agreed in advance for a loss spike (no rollback playbook entry)")
    lines += _spike_evidence(plan)
    if open_:
        return "missed", lines
    return ("met" if not misplaced and agreed else "partly"), lines


def _spike_evidence(plan: InterviewPlan) -> list[str]:
    f = plan.followup("loss_spike")
    if f is None or not f.decisions:
        return []
    d = f.decisions[0]
    return [
        f"In the loss-spike follow-up, {d.owner} made the call {d.latency_days:.1f} days after "
        f"the spike was seen and chose {d.choice.replace('_', ' ')}"
    ]


def _gates(plan: InterviewPlan) -> Judgement:
    pre = _pre_run_gates(plan)
    with_experiment = [g.id for g in pre if _words(g.experiment) >= 2]
    caught = {k for g in pre for k in g.catches}
    blind = [k for k in PRE_RUN_CATCHES if k not in caught]
    ablation = plan.levers.ablation_fraction
    checks = [bool(with_experiment), not blind, ablation >= ABLATION_MIN]
    lines = [
        f"Gates before the run: {_names([g.id for g in pre])}; with a cheap experiment named: "
        f"{_names(with_experiment)}",
        f"Defects no gate before the run looks for: {_names(blind)}",
        f"Ablation budget: {ablation:.0%} of the run's compute"
        + ("" if ablation >= ABLATION_MIN else f" (less than {ABLATION_MIN:.0%})"),
    ]
    return _grade(sum(checks), 3), lines


def model_compute_usd(plan: InterviewPlan) -> float:
    """The model's compute bill for the design: main run, ablations and post-training rounds."""
    design = plan_scenario(plan)
    return planned_compute_usd(
        estimate_for_scenario(design).cost_usd,
        design.levers.ablation_fraction,
        design.model.post_training_rounds,
    )


def _budget(plan: InterviewPlan) -> Judgement:
    b = plan.budget
    model = model_compute_usd(plan)
    off = (b.compute_usd - model) / model if model > 0 else 0.0
    estimated = b.compute_usd > 0 and abs(off) <= ESTIMATE_TOLERANCE
    all_in = plan.clarifications.get("budget", "all_in") != "compute_only"
    lines_needed = ["compute_usd"] + (
        ["people_usd", "data_licensing_usd", "annotation_usd"] if all_in else []
    )
    unallocated = [k.removesuffix("_usd") for k in lines_needed if getattr(b, k) <= 0]
    tracked = _words(b.tracking) >= 3
    protected = b.reserve_fraction >= RESERVE_MIN
    total = plan_world(plan).objective.budget.total_usd
    lines = [
        f"Compute estimate ${b.compute_usd:,.0f}; the model's for this design "
        f"${model:,.0f} ({off:+.0%})",
        f"Categories without an estimate: {_names(unallocated)}",
        "Tracking: " + (b.tracking if tracked else "not said how spend is tracked"),
        f"Reserve: {b.reserve_fraction:.0%} of the budget (${b.reserve_fraction * total:,.0f})"
        + ("" if protected else f"; under {RESERVE_MIN:.0%} leaves nothing for surprises"),
    ]
    checks = [estimated, not unallocated, tracked, protected]
    return _grade(sum(checks), 4, partly_from=2), lines


def _levers(plan: InterviewPlan) -> Judgement:
    lines = [
        f"{k}: " + (" → ".join(o.replace("_", " ") for o in plan.responses(k)) or "ad hoc")
        for k in ("budget", "schedule")
    ]
    f = plan.followup("budget_cut")
    if f is not None and f.decisions:
        pulled = " → ".join(d.choice.replace("_", " ") for d in f.decisions)
        lines.append(f"In the budget-cut follow-up you pulled: {pulled}")
    return _grade(sum(bool(plan.responses(k)) for k in ("budget", "schedule")), 2), lines


# --- what a strong answer covers ---------------------------------------------------------------


def _objective(plan: InterviewPlan) -> Judgement:
    world = plan_world(plan)
    kinds = {e.id: e.kind for e in world.objective.evals}
    targets = stated_targets(plan)
    product = [t for t in targets if kinds.get(t.eval) == "product_eval"]
    use = plan.objective.product_use.strip()
    lines = [
        f"Product use: {use}" if _words(use) >= 3 else "The product use is not stated",
        "Targets: " + _names([f"{t.capability} by {t.eval} ≥ {t.threshold:.2f}" for t in targets]),
    ]
    if not product:
        lines.append("No target is measured by a product eval")
    return _grade(int(_words(use) >= 3) + int(bool(product)), 2), lines


def _roles(plan: InterviewPlan) -> Judgement:
    roles = plan.roles.model_dump()
    described = [k.replace("_", " ") for k, v in roles.items() if _words(v) >= 3]
    held = [k for k in ("rollback", "data_fix") if plan.right(k) == PM_TEAM]
    lines = [f"Roles described: {_names(described)} ({len(described)} of {len(roles)})"]
    if held:
        lines.append(f"The product team also holds technical calls: {_names(held)}")
    if len(described) == len(roles) and not held:
        return "met", lines
    return ("partly" if len(described) >= 2 else "missed"), lines


def _build_vs_adapt(plan: InterviewPlan) -> Judgement:
    strategy = effective_strategy(plan)
    fixed = plan.clarifications.get("strategy", "open") != "open"
    n = _words(plan.strategy_reason)
    lines = [
        f"Strategy: {strategy} ({'fixed by your clarifying answer' if fixed else 'your call'})",
        f"Reasoning: {n} words" + (f": {plan.strategy_reason}" if n else ""),
    ]
    capped = [f"{c} at {cap:.2f}, below its {bar:.2f} target" for c, cap, bar in adapt_caps(plan)]
    if capped:
        verb = "caps" if strategy == "adapt" else "would cap"
        lines.append(f"Adapting the open base model {verb} " + "; ".join(capped))
    return ("met" if n >= 10 else "partly" if n else "missed"), lines


def _tradeoffs(plan: InterviewPlan) -> Judgement:
    stated = [t for t in plan.tradeoffs if _words(t.text) >= 3]
    dims: list[str] = sorted({d for t in stated for d in (t.protect, t.give_up)})
    lines = [f"protect {t.protect}, give up {t.give_up}: {t.text}" for t in stated]
    lines.append(f"Dimensions traded: {_names(dims)}")
    f = plan.followup("budget_cut")
    if f is not None and f.quality_given_up is not None:
        lines.append(
            f"In the budget-cut follow-up your calls gave up {f.quality_given_up:+.3f} of "
            "mean eval score against the same world without the cut"
        )
    if len(dims) == 3 and len(stated) >= 2:
        return "met", lines
    return ("partly" if stated else "missed"), lines


def _safety(plan: InterviewPlan) -> Judgement:
    start = plan.levers.safety_from_start
    legal = [g.id for g in _pre_run_gates(plan) if "licensing" in g.catches]
    named = [c.title for c in plan.challenges if c.stage == "safety_legal"]
    lines = [
        "Safety, legal and privacy engaged " + ("from the start" if start else "only at release"),
        f"Licence and privacy review before the run: {_names(legal)}",
        f"Part 1 names: {_names(named)}",
    ]
    return _grade(int(start) + int(bool(legal)) + int(bool(named)), 3), lines


# --- the follow-ups ------------------------------------------------------------------------------


def _not_played(plan: InterviewPlan, fid: str) -> Judgement | None:
    f = plan.followup(fid)
    if f is None:
        return "not_played", ["Not played"]
    if not f.decisions:
        return "not_played", ["The situation did not arise on your design"]
    return None


def _followup_spike(plan: InterviewPlan) -> Judgement:
    skipped = _not_played(plan, "loss_spike")
    if skipped:
        return skipped
    f = plan.followup("loss_spike")
    assert f is not None
    d = f.decisions[0]
    sound, fast = d.choice in SOUND_SPIKE_CALLS, d.latency_days <= 1.0
    lines = [
        f"{d.owner} held the call; it reached them in {d.latency_days:.1f} days; you chose "
        f"{d.choice.replace('_', ' ')}",
        *_alternative_lines(f),
    ]
    return _grade(int(sound) + int(fast), 2), lines


def _alternative_lines(f: Any) -> list[str]:
    better = [a for a in f.alternatives if a.delta_schedule_days < -0.5 or a.delta_cost_usd < -1e4]
    return [
        f"{a.choice.replace('_', ' ')} would have changed schedule by "
        f"{a.delta_schedule_days:+.1f} days and cost by ${a.delta_cost_usd:+,.0f}"
        for a in better[:2]
    ]


def _followup_budget(plan: InterviewPlan) -> Judgement:
    skipped = _not_played(plan, "budget_cut")
    if skipped:
        return skipped
    f = plan.followup("budget_cut")
    assert f is not None
    first = f.decisions[0]
    agreed = next((o for o in plan.responses("budget") if o in first.options), None)
    followed = agreed is not None and first.choice == agreed
    lines = [
        "You pulled: " + " → ".join(d.choice.replace("_", " ") for d in f.decisions),
        f"Your playbook's first lever on offer: {agreed.replace('_', ' ') if agreed else 'none'}",
        "The project ended " + ("on budget" if f.on_budget else "over budget"),
    ]
    if f.quality_given_up is not None:
        lines.append(f"Quality given up against the same world without the cut: "
                     f"{f.quality_given_up:+.3f}")  # fmt: skip
    return _grade(int(followed) + int(f.on_budget), 2), lines


def _followup_ship(plan: InterviewPlan) -> Judgement:
    skipped = _not_played(plan, "benchmarks_vs_product")
    if skipped:
        return skipped
    f = plan.followup("benchmarks_vs_product")
    assert f is not None
    seen = ", ".join(f"{k} {v:.2f}" for k, v in f.situation.items())
    first = f.decisions[0].choice
    lines = [f"Scores when you decided: {seen}", f"You chose {first.replace('_', ' ')}"]
    if f.rationale:
        lines.append(f"Your reason: {f.rationale}")
    if not f.shipped_with_gap:
        return "met", lines
    return ("partly" if _words(f.rationale) >= 8 else "missed"), lines


@dataclass(frozen=True)
class ItemSpec:
    id: str
    part: str
    title: str
    judge: Callable[[InterviewPlan], Judgement]
    strong: str


P1, P2, STRONG, FOLLOW = "Part 1", "Part 2", "Strong answer", "Follow-ups"
ITEMS: tuple[ItemSpec, ...] = (
    ItemSpec("breadth", P1, "Breadth across the lifecycle", _breadth,
             "Name at least one challenge in each of data, compute and infrastructure, training "
             "stability, post-training and evaluation, so no stage is a blind spot."),
    ItemSpec("consequences", P1, "Each challenge tied to quality, time or money", _consequences,
             "For every challenge, say what it does when it strikes: which targets slip, how "
             "many days, how much money."),
    ItemSpec("grounding", P1, "Technical grounding: why late is expensive", _grounding,
             "Explain that a problem found after weeks of training throws that compute away "
             "and forces a repeat, while the same problem found in a small ablation costs "
             "days; and know where each problem can first be seen."),
    ItemSpec("owners", P2, "Every risk has an owner and an early warning", _owners,
             "One owning team per risk, with the earliest cheap signal it watches: dedup rates "
             "and proxy-run losses for data, loss-curve alerts for spikes, product evals built "
             "before training for the eval gap."),
    ItemSpec("decision_rights", P2, "Clear decision rights while the run is going", _rights,
             "The core training team calls rollbacks and data fixes within hours, on a response "
             "agreed in advance; product and leadership hold money, dates and the ship call."),
    ItemSpec("gates", P2, "A phased plan with gates and cheap experiments", _gates,
             "A data review and an ablation gate before the big run, with small proxy runs and "
             "scaling-law fits that look for data, tokenizer and contamination problems."),
    ItemSpec("budget", P2, "Costs estimated, allocated, tracked and protected", _budget,
             "Estimate compute from 6·N·D, GPU count and utilisation; allocate every category; "
             "review burn against forecast weekly; hold a reserve of 10-15%."),
    ItemSpec("levers", P2, "Levers agreed before anything slips", _levers,
             "An ordered list for a budget slip (reserve, then ablations, then post-training "
             "rounds, then tokens) and one for a schedule slip, signed off before the run."),
    ItemSpec("objective", STRONG, "Starts from a defined objective", _objective,
             "Capabilities, each measured by a named eval with a threshold, for a stated product "
             "use, with product evals and not only public benchmarks."),
    ItemSpec("roles", STRONG, "The product manager's role apart from research, engineering "
             "and program management", _roles,
             "The PM owns the objective, the trade-offs and the ship call; research owns the "
             "recipe; engineering the cluster and pipeline; program management the plan, "
             "dependencies and risk review."),
    ItemSpec("build_vs_adapt", STRONG, "Build versus adapt, reasoned", _build_vs_adapt,
             "Pretrain only when no open base model can reach the targets or the licence, data "
             "or control needs rule adapting out; otherwise adapt, cheaper and sooner."),
    ItemSpec("tradeoffs", STRONG, "Explicit trade-offs among quality, time and cost",
             _tradeoffs,
             "Say which of quality, time and cost you protect and which you give up, and where "
             "the line is, before anyone has to ask."),
    ItemSpec("safety", STRONG, "Safety, legal and privacy from the start", _safety,
             "Safety, legal and privacy reviewers in from day one, a licence and privacy check "
             "on the data before the run, red-teaming before release rather than at it."),
    ItemSpec("followup_spike", FOLLOW, "The loss spike: who calls it, and what next",
             _followup_spike,
             "The training lead rolls back to the last good checkpoint and skips the offending "
             "batches within hours, as agreed in advance; escalate only if spikes recur."),
    ItemSpec("followup_budget", FOLLOW, "The budget cut: levers in the agreed order",
             _followup_budget,
             "Pull the levers in the order agreed before the run, and say what quality that "
             "costs; stay on budget."),
    ItemSpec("followup_ship", FOLLOW, "Strong benchmarks, lagging product evals: ship?",
             _followup_ship,
             "Product evals decide: do not ship on inflated public benchmarks; fix the data or "
             "run another round, or ship only with the gap stated and accepted."),
)  # fmt: skip


def judge(plan: InterviewPlan, outcome: dict[str, Any] | None = None) -> RubricReport:
    """Judge every rubric item on ``plan`` (and its follow-ups); ``outcome`` rides alongside."""
    items = []
    for spec in ITEMS:
        status, evidence = spec.judge(plan)
        items.append(
            RubricItem(spec.id, spec.part, spec.title, status, tuple(evidence), spec.strong)
        )
    counts = {s: sum(1 for i in items if i.status == s) for s in STATUS_LABEL}
    return RubricReport(tuple(items), outcome, counts)


# --- Markdown ----------------------------------------------------------------------------------


def _outcome_table(outcome: dict[str, Any]) -> list[str]:
    lines = [
        "| design | finish P50 (days) | cost P50 | on time | on budget | quality met | all met |",
        "|:--|--:|--:|--:|--:|--:|--:|",
    ]
    for name, s in outcome.items():
        lines.append(
            f"| {name} | {s['schedule_days']['p50']:.0f} | ${s['cost_usd']['p50']:,.0f} | "
            f"{s['p_on_time']:.0%} | {s['p_on_budget']:.0%} | {s['p_quality_met']:.0%} | "
            f"{s['p_success']:.0%} |"
        )
    return lines


def _plan_lines(plan: InterviewPlan) -> list[str]:
    lines = ["## Part 1: what makes it hard", ""]
    for c in plan.challenges:
        hits = ", ".join(c.hits) or "?"
        lines.append(f"- **{STAGES[c.stage]}: {c.title}** ({hits}). {c.consequence}".rstrip())
    if plan.late_discovery:
        lines += ["", f"Why late is expensive: {plan.late_discovery}"]
    lines += ["", "## Part 2: the plan", "", "| risk | owner | early warning |", "|:--|:--|:--|"]
    for r in RISK_KINDS:
        rp = plan.risks.get(r)  # type: ignore[call-overload]
        lines.append(
            f"| {r} | {plan.owner(r) or '**nobody**'} | {rp.early_warning if rp else ''} |"
        )
    rights = ", ".join(f"{k}: {plan.decision_rights.get(k, '—')}" for k in DECISION_KINDS)  # type: ignore[call-overload]
    lines += ["", f"**Decision rights.** {rights}", "", "**Gates.**"]
    lines += [
        f"- {g.id} after {g.after}: {', '.join(g.catches)}. {g.experiment}" for g in plan.gates
    ]
    b = plan.budget
    lines += [
        "",
        f"**Budget estimate.** compute ${b.compute_usd:,.0f}, people ${b.people_usd:,.0f}, "
        f"data licensing ${b.data_licensing_usd:,.0f}, annotation ${b.annotation_usd:,.0f}; "
        f"reserve {b.reserve_fraction:.0%}. Tracking: {b.tracking or '—'}",
        "",
        "**Playbook.** "
        + "; ".join(f"{k}: {' → '.join(v)}" for k, v in plan.levers.playbook.items()),
        "",
        f"**Strategy.** {effective_strategy(plan)}. {plan.strategy_reason}",
        "",
        "**Roles.** "
        + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in plan.roles.model_dump().items() if v),
        "",
        "**Trade-offs.** "
        + "; ".join(f"protect {t.protect}, give up {t.give_up}: {t.text}" for t in plan.tradeoffs),
    ]
    return lines


def _followup_lines(plan: InterviewPlan) -> list[str]:
    lines = []
    for f in plan.followups:
        lines.append(f"### {FOLLOWUPS[f.id].title}")
        lines += ["", f"*{FOLLOWUPS[f.id].question}*", ""]
        if not f.decisions:
            lines += ["The situation did not arise on this design.", ""]
            continue
        calls = " → ".join(d.choice.replace("_", " ") for d in f.decisions)
        who = f.decisions[0]
        lines.append(
            f"{who.owner} held the call ({who.latency_days:.1f} days to reach them) and chose "
            f"**{calls}**. The project finished on day {f.schedule_days:.0f} for "
            f"${f.cost_usd:,.0f}; every objective met: {'yes' if f.success else 'no'}."
        )
        if f.rationale:
            lines.append(f"Reasoning: {f.rationale}")
        for a in f.alternatives:
            lines.append(
                f"- instead, {a.choice.replace('_', ' ')}: {a.delta_schedule_days:+.1f} days, "
                f"${a.delta_cost_usd:+,.0f}, quality {a.delta_quality:+.3f}"
            )
        lines.append("")
    return lines


def session_markdown(
    plan: InterviewPlan, report: RubricReport, title: str = "Interview practice"
) -> str:
    """A whole practice session: the answer, the simulated outcome, follow-ups and the rubric."""
    lines = [f"# {title}", ""]
    if plan.candidate:
        lines += [f"Candidate: {plan.candidate}", ""]
    lines += [
        f"**Rubric score: {report.score:.0%}** "
        f"({report.counts.get('met', 0)} met, {report.counts.get('partly', 0)} partly met, "
        f"{report.counts.get('missed', 0)} missed)",
        "",
        "## Clarifying answers",
        "",
    ]
    for qid, oid in plan.clarifications.items():
        q = CLARIFICATION_BY_ID[qid]
        lines.append(f"- {q.question} **{q.option(oid).label}.**")
    lines += ["", *_plan_lines(plan)]
    if report.outcome:
        lines += ["", "## Simulated outcome", "", *_outcome_table(report.outcome)]
    if plan.followups:
        lines += ["", "## Follow-ups, played on the design", "", *_followup_lines(plan)]
    lines += ["", "## Rubric", ""]
    for part in (P1, P2, STRONG, FOLLOW):
        lines += [f"### {part}", ""]
        for item in (i for i in report.items if i.part == part):
            lines.append(f"- **{item.title}: {STATUS_LABEL[item.status]}.**")
            lines += [f"  - {e}" for e in item.evidence]
            if item.status != "met":
                lines.append(f"  - *A strong answer:* {item.strong}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
