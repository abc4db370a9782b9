"""The rubric items of Part 1, Part 2 and what a strong answer adds, judged on one plan.

Each judge takes an :class:`Answer` (the plan, every text judged for content, and whether
the attempt has been handed in) and returns a :class:`~sim.interview.checks.Judgement`.
Credit goes only to what the candidate did: a value the org-chart button filled stays
the scenario's (:mod:`sim.interview.provenance`) until changed or confirmed.
docs/interview.md says what every check looks for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from sim.engine.compute import planned_compute_usd
from sim.interview.checks import Claim, Judgement, Status, check, claim, judged, names
from sim.interview.content import TextVerdict, read_texts
from sim.interview.plan import (
    EARLY_SIGNALS,
    FollowupResult,
    InterviewPlan,
    adapt_caps,
    effective_strategy,
    plan_scenario,
    plan_world,
    stated_targets,
)
from sim.interview.provenance import reference, scenarios
from sim.interview.replays import Replays, replay_followups
from sim.interview.stated import STATED, stated
from sim.scenario.spec import DECISION_KINDS, RISK_KINDS
from sim.scenario.vocabulary import option_words, words

#: The product manager's team in the shipped scenarios.
PM_TEAM = "product"
#: Teams that may sensibly hold budget, schedule and ship calls.
BUSINESS_TEAMS = ("product", "leadership")
#: Risks the run's own signals reveal (data metrics, overlap scans, the loss, node health):
#: owned by a business team, their signals reach the owner last, so the owner is far from
#: the work (the same reason run calls belong to a core team).
RUN_RISKS = ("data_quality", "contamination", "tokenizer_config", "loss_spike", "hardware")
#: A sensible reserve: under 5% leaves nothing for surprises; over 25% idles money the
#: work needs (the seeds' essay and common practice put it at 10-15%).
RESERVE_BAND = (0.05, 0.25)
ABLATION_BAND = (0.03, 0.25)
#: How far a compute estimate may stray from the model's and still count as sound.
ESTIMATE_TOLERANCE = 0.35
#: An estimate this close to the model's figure, written to more than three significant
#: digits, was copied rather than estimated; this close to a figure an earlier debrief
#: showed, it was copied whatever its digits.
COPY_TOLERANCE = 0.005
REVEALED_TOLERANCE = 0.001
#: A gate less thorough than this catches almost nothing it looks for.
GATE_STRENGTH_MIN = 0.3
#: Defects a pre-run gate should look for: the ones that ruin a run when found late.
PRE_RUN_CATCHES = ("data_quality", "tokenizer_config", "contamination")
#: Sound first responses to a loss spike (a recipe change or training on is not).
SOUND_SPIKE_CALLS = ("rollback_skip", "pause_investigate")
#: The sound setting of each practice lever no item's checks read (the seeds' lessons:
#: decontaminate, build product evals early, spread eval effort, embed engineering with
#: training, bring safety in from the start); the item whose claims judge it.
PRACTICES: dict[str, tuple[str, object]] = {
    "decontaminate": ("gates", True),
    "product_evals_early": ("objective", True),
    "eval_focus": ("objective", "balanced"),
    "engineering_embedded": ("roles", True),
    "safety_from_start": ("safety", True),
}
AREAS: dict[str, tuple[str, ...]] = {
    "data": ("data",),
    "compute and infrastructure": ("sizing", "cluster"),
    "training stability": ("stability",),
    "post-training": ("post_training",),
    "evaluation": ("evaluation",),
}


@dataclass
class Answer:
    """One plan ready to judge: texts read once, follow-ups replayed, figures shown or not.

    ``reveal`` is the caller's: true only for an attempt handed in there and then (the app's
    hand-in button, the command line's ``--hand-in``), never read from the plan, so a
    ``judged_at`` added to a file unlocks nothing. ``replays`` are the follow-ups recomputed
    from the plan's calls (:func:`sim.interview.replays.replay_followups` unless given); the
    follow-up records stored in the plan are never read.
    """

    plan: InterviewPlan
    outcome: dict[str, Any] | None = None
    revealed_estimates: Sequence[float] = ()
    reveal: bool = False
    replays: Replays | None = None
    texts: dict[str, TextVerdict] = field(init=False)

    def __post_init__(self) -> None:
        self.texts = read_texts(self.plan)
        if self.replays is None:
            self.replays = replay_followups(self.plan)

    def followup(self, fid: str) -> FollowupResult | None:
        """The follow-up ``fid`` as replayed from the candidate's calls (None: not played)."""
        return self.replays.get(fid) if self.replays is not None else None

    def stale(self, fid: str) -> str:
        """Why the plan's record of ``fid`` was set aside, if it was."""
        return self.replays.stale.get(fid, "") if self.replays is not None else ""

    @cached_property
    def stated(self) -> dict[str, str]:
        """What the candidate's own words state of :data:`sim.interview.stated.STATED`.

        Read afresh each time from the prose answer and every text of the plan (never
        from a stored reading), each with the first sentence that states it.
        """
        return stated([self.plan.prose, *(v.text for v in self.texts.values())])

    def stated_claims(self, item: str) -> list[Claim]:
        """The hazards (unsound) and practices (sound) of ``item`` stated in words."""
        return [
            claim(f"{STATED[sid].kind} {sid}", STATED[sid].sound,
                  f"“{sentence[:160]}”: {STATED[sid].label}")
            for sid, sentence in self.stated.items()
            if STATED[sid].item == item
        ]  # fmt: skip

    @cached_property
    def model_compute_usd(self) -> float:
        return model_compute_usd(self.plan)

    def mine(self, section: str, key: str | None = None) -> bool:
        """Whether the value is the candidate's (not left as the scenario's)."""
        return not scenarios(self.plan, section, key)

    def text(self, slot: str) -> TextVerdict:
        return self.texts[slot]

    def said(self, section: str, key: str | None = None) -> bool:
        """Whether the candidate stated this value: set in the plan, and theirs.

        A value the plan holds only as its default (a prose answer that never mentions the
        reserve) was not said, so it is no claim; one the form asked for always was.
        """
        model, name = {
            "reserve": (self.plan.budget, "reserve_fraction"),
            "ablation": (self.plan.levers, "ablation_fraction"),
            "levers": (self.plan.levers, key or ""),
        }[section]
        return name in model.model_fields_set and self.mine(section, key)

    def text_claim(self, name: str, slot: str) -> list[Claim]:
        """A written text as a claim: sound when it says what its slot needs, else thin."""
        v = self.texts[slot]
        return [claim(name, v.met, v.evidence(), wrong=False)] if v.text.strip() else []

    def practices(self, item: str) -> list[Claim]:
        """The practice levers stated for ``item``: sound at their sound setting, else wrong."""
        out = []
        for name, (where, good) in PRACTICES.items():
            if where == item and self.said("levers", name):
                value = getattr(self.plan.levers, name)
                out.append(claim(name, value == good, f"{name}: {value}"))
        return out


def model_compute_usd(plan: InterviewPlan) -> float:
    """The model's compute bill for the design: main run, ablations and post-training rounds."""
    return planned_compute_usd(plan_scenario(plan))


def _explained(a: Answer) -> list[int]:
    return [i for i in range(len(a.plan.challenges)) if a.text(f"challenge.{i}").met]


# --- Part 1 ----------------------------------------------------------------------------------


def breadth(a: Answer) -> Judgement:
    challenges = a.plan.challenges
    stages = {challenges[i].stage for i in _explained(a)}
    covered = [area for area, ss in AREAS.items() if stages & set(ss)]
    missing = [area for area in AREAS if area not in covered]
    line = (
        f"{len(challenges)} challenges, {len(_explained(a))} with a consequence that says what "
        f"it costs; they cover {len(covered)} of {len(AREAS)} areas: {names(covered)}; "
        f"missing: {names(missing)}"
    )
    c = check("areas", len(covered) >= 3, "content", line)
    status: Status = "met" if not missing else ("partly" if len(covered) >= 3 else "missed")
    # No claims of its own: the challenges it counts are the consequences item's claims.
    return judged(c, status=status)


def consequences(a: Answer) -> Judgement:
    n = len(a.plan.challenges)
    if not n:
        return judged(check("consequences", False, "content", "No challenges listed"))
    done = _explained(a)
    lines = [f"{len(done)} of {n} challenges say what they cost in time, money or quality"]
    lines += [a.text(f"challenge.{i}").evidence() for i in range(n) if i not in done]
    c = check("consequences", len(done) >= (n + 1) // 2, "content", *lines)
    status: Status = "met" if len(done) == n and n >= 3 else ("partly" if c.passed else "missed")
    claims = [
        claim(f"challenge {ch.title}", i in done, a.text(f"challenge.{i}").evidence(), wrong=False)
        for i, ch in enumerate(a.plan.challenges)
    ]
    return judged(c, status=status, claims=claims)


def grounding(a: Answer) -> Judgement:
    late = a.text("late_discovery")
    mechanism = check("late_discovery", late.met, "content", late.evidence())
    mapped = [c for c in a.plan.challenges if c.risk is not None]
    signalled = [c for c in mapped if c.earliest_signal is not None]
    unsound = [c for c in signalled if c.earliest_signal not in EARLY_SIGNALS[c.risk or "budget"]]
    lines = [
        f"Earliest signals named for {len(signalled)} of {len(mapped)} challenges; "
        f"{len(signalled) - len(unsound)} sound"
    ]
    for c in unsound:
        first = " or ".join(EARLY_SIGNALS[c.risk or "budget"])
        lines.append(f"'{c.title}' at {c.earliest_signal}: its first signal comes at {first}")
    sound = bool(mapped) and 2 * len(signalled) >= len(mapped) and not unsound
    claims = a.text_claim("late_discovery", "late_discovery") + [
        claim(f"signal {c.title}", c not in unsound, f"{c.title} first seen at {c.earliest_signal}")
        for c in signalled
    ]
    return judged(mechanism, check("signals", sound, "structure", *lines), claims=claims)


# --- Part 2 ----------------------------------------------------------------------------------


def owners(a: Answer) -> Judgement:
    plan = a.plan
    owned = [r for r in RISK_KINDS if plan.owner(r) is not None]
    theirs = [r for r in owned if not a.mine("owners", r)]
    mine = [r for r in owned if a.mine("owners", r)]
    unowned = [r for r in RISK_KINDS if r not in owned]
    warned = [r for r in mine if a.text(f"warning.{r}").met]
    n = len(RISK_KINDS)
    lines = [f"{len(mine)} of {n} risks have an owner you chose"]
    if unowned:
        lines.append(f"No owner: {names(unowned)}")
    if theirs:
        lines.append(f"Still the scenario's owner (change or confirm it): {names(theirs)}")
    warn_lines = [f"{len(warned)} of {len(mine)} owned risks have an early warning that names "
                  "a signal able to reveal that risk"]  # fmt: skip
    warn_lines += [a.text(f"warning.{r}").evidence() for r in mine if r not in warned]
    orphans = sorted({c.risk for c in plan.challenges if c.risk and c.risk in unowned})
    if orphans:
        lines.append(f"Part 1 challenges left without an owner: {names(orphans)}")
    c_owned = check("owned", len(mine) == n, "structure", *lines)
    c_warned = check("warnings", len(warned) >= max(3, len(mine) // 2), "content", *warn_lines)
    if c_owned.passed and len(warned) == len(mine):
        status: Status = "met"
    else:
        status = "partly" if len(mine) >= 5 and c_warned.passed else "missed"
    far = [r for r in mine if r in RUN_RISKS and plan.owner(r) in BUSINESS_TEAMS]
    if far:
        held = names([f"{r} by {plan.owner(r)}" for r in far])
        lines.append(f"Owned far from the work: {held} (a risk the run's own signals reveal "
                     "belongs to a team at the work)")  # fmt: skip
    claims = [claim(f"owner {r}", r not in far, f"{r} owned by {plan.owner(r)}") for r in mine]
    claims += [c for r in mine for c in a.text_claim(f"warning {r}", f"warning.{r}")]
    claims += a.stated_claims("owners")
    return judged(c_owned, c_warned, status=status, claims=claims)


def _core_teams(plan: InterviewPlan) -> set[str]:
    design = plan_scenario(plan)
    # The teams owning recipe work, and any the candidate marked core (a deprecated flag).
    return set(design.recipe_team_ids) | {t.id for t in design.org.teams if t.core}


#: The risk each run call answers: the team owning that risk is at the work it concerns.
CALL_RISK = {"rollback": "loss_spike", "data_fix": "data_quality"}


def _owns_the_risk(plan: InterviewPlan, kind: str, team: str) -> bool:
    """Whether ``team`` owns the risk the call ``kind`` answers (and is no business team).

    The risk's owner in the plan or in the scenario's own design: the data team for a
    data fix is at the work it concerns.
    """
    risk = CALL_RISK[kind]
    return team not in BUSINESS_TEAMS and team in (plan.owner(risk), reference(plan).owner(risk))


def rights(a: Answer) -> Judgement:
    plan = a.plan
    named = {k: v for k in DECISION_KINDS if (v := plan.right(k)) is not None}
    mine = {k: v for k, v in named.items() if a.mine("rights", k)}
    lines = [f"Rights you named: {names([f'{k} → {v}' for k, v in mine.items()])}"]
    open_ = [k for k in DECISION_KINDS if k not in mine]
    if open_:
        lines.append(f"Not named by you: {names(open_)}")
    core = _core_teams(plan)
    misplaced = [k for k in ("rollback", "data_fix") if k in mine and mine[k] not in core
                 and not _owns_the_risk(plan, k, mine[k])]  # fmt: skip
    misplaced += [k for k in ("budget", "schedule", "ship") if k in mine
                  and mine[k] not in BUSINESS_TEAMS]  # fmt: skip
    placed = [
        "Held far from the work: "
        + names([f"{k} by {mine[k]}" for k in misplaced])
        + " (run calls belong to a core training team; money, dates and shipping to "
        "product or leadership)"
        if misplaced
        else ""
    ]
    first: str | None = next(iter(plan.responses("rollback")), None)
    own_playbook = a.mine("playbook", "rollback")
    spike = check(
        "rollback_agreed",
        first in SOUND_SPIKE_CALLS and own_playbook,
        "structure",
        "Loss-spike response agreed in advance: "
        + (
            "none"
            if first is None
            else f"{str(first).replace('_', ' ')} first"
            + ("" if own_playbook else " (the scenario's playbook, not yours)")
            + ("" if first in SOUND_SPIKE_CALLS else
               " (the wrong first response: roll back or pause, not train on or change recipe)")
        ),
    )  # fmt: skip
    claims = [claim(f"right {k}", k not in misplaced, f"{k} → {v}") for k, v in mine.items()]
    if first is not None and own_playbook:
        claims.append(claim("spike response", first in SOUND_SPIKE_CALLS, spike.evidence[0]))
    return judged(
        check("all_named", not open_, "structure", *lines),
        check("placed", bool(mine) and not misplaced, "structure", *placed),
        spike,
        note=_spike_note(a),
        claims=claims,
    )


def _spike_note(a: Answer) -> list[str]:
    f = a.followup("loss_spike")
    if f is None or not f.mine:
        return []
    d = f.mine[0]
    return [
        f"In the loss-spike follow-up, the {words(d.owner)} team made the call "
        f"{d.latency_days:.1f} days after "
        f"the spike was seen and you chose {option_words(d.choice)}"
    ]


def _gate_problem(a: Answer, g: Any) -> str:
    world = plan_world(a.plan)
    odds = {d.kind: d.probability for d in world.incidents.defects}
    if g.strength < GATE_STRENGTH_MIN:
        return f"{g.id} is so light it catches almost nothing ({g.strength:.0%} chance)"
    if not any(odds.get(k, 0.0) > 0 for k in g.catches):
        return f"{g.id} looks only for defects this project never has"
    return ""


def gates(a: Answer) -> Judgement:
    plan = a.plan
    pre = [g for g in plan.gates if g.after in ("prepare", "ablations")]
    mine = [g for g in pre if a.mine("gates", g.id)]
    weak = {g.id: p for g in mine if (p := _gate_problem(a, g))}
    working = [g for g in mine if g.id not in weak]
    # The tool's own experiment text (what the button writes) is never the candidate's
    # words, whatever the file records about the button.
    ref_exp = {g.id: g.experiment for g in reference(plan).gates}
    experiments = [a.text(f"gate.{g.id}") for g in working if g.experiment != ref_exp.get(g.id)]
    backed = [v for v in experiments if v.met]
    caught = {k for g in working for k in g.catches}
    blind = [k for k in PRE_RUN_CATCHES if k not in caught]
    ablation = plan.levers.ablation_fraction
    lo, hi = ABLATION_BAND
    ablation_ok = lo <= ablation <= hi and a.mine("ablation")
    theirs = [g.id for g in pre if g not in mine]
    lines = [f"Your gates before the run: {names([g.id for g in mine])}"]
    if theirs:
        lines.append(f"Still the scenario's (change or confirm them): {names(theirs)}")
    lines += list(weak.values())
    claims = [claim(f"gate {g.id}", g.id not in weak, weak.get(g.id, f"{g.id} after {g.after}"))
              for g in mine]  # fmt: skip
    claims += [claim(f"experiment {v.slot}", v.met, v.evidence(), wrong=False)
               for v in experiments if v.text.strip()]  # fmt: skip
    if a.said("ablation"):
        claims.append(claim("ablation", lo <= ablation <= hi, f"Ablation budget {ablation:.0%}"))
    claims += a.practices("gates") + a.stated_claims("gates")
    checks = (
        check("experiment", bool(backed), "content",
              *[v.evidence() for v in experiments] or ["No cheap experiment named for a gate"]),
        check("coverage", not blind, "structure", *lines,
              f"Defects no working gate before the run looks for: {names(blind)}"),
        check("ablation", ablation_ok, "structure",
              f"Ablation budget: {ablation:.0%} of the run's compute"
              + ("" if a.mine("ablation") else " (the scenario's)")
              + ("" if lo <= ablation <= hi else f" (outside {lo:.0%}-{hi:.0%})")),
    )  # fmt: skip
    return judged(*checks, claims=claims)


def _significant(x: float) -> int:
    digits = f"{abs(x):.0f}".rstrip("0")
    return len(digits)


def copied_estimate(a: Answer) -> str:
    """Why the compute estimate looks copied rather than estimated (empty when it does not)."""
    est, model = a.plan.budget.compute_usd, a.model_compute_usd
    if est <= 0 or model <= 0:
        return ""
    for shown in a.revealed_estimates:
        if shown > 0 and abs(est - shown) / shown <= REVEALED_TOLERANCE:
            return "the same figure an earlier debrief showed: estimate it, don't copy it"
    if abs(est - model) / model <= COPY_TOLERANCE and _significant(est) > 3:
        return "the model's own figure to the dollar: estimate it, don't copy it"
    return ""


def budget(a: Answer) -> Judgement:
    plan, b = a.plan, a.plan.budget
    model = a.model_compute_usd
    off = (b.compute_usd - model) / model if model > 0 else math.inf
    copied = copied_estimate(a)
    close = b.compute_usd > 0 and abs(off) <= ESTIMATE_TOLERANCE and not copied
    if a.reveal:
        est_line = (f"Compute estimate ${b.compute_usd:,.0f}; the model's for this design "
                    f"${model:,.0f} ({off:+.0%})")  # fmt: skip
    else:
        est_line = (f"Compute estimate ${b.compute_usd:,.0f}: "
                    + ("within" if abs(off) <= ESTIMATE_TOLERANCE else "not within")
                    + f" {ESTIMATE_TOLERANCE:.0%} of the model's (its figure is shown once "
                    "you hand the attempt in)")  # fmt: skip
    all_in = plan.clarifications.get("budget", "all_in") != "compute_only"
    needed = ["compute_usd"] + (
        ["people_usd", "data_licensing_usd", "annotation_usd"] if all_in else []
    )
    unallocated = [k.removesuffix("_usd") for k in needed if getattr(b, k) <= 0]
    total = plan_world(plan).objective.budget.total_usd
    lo, hi = RESERVE_BAND
    band = lo <= b.reserve_fraction <= hi
    reserve_line = (
        f"Reserve: {b.reserve_fraction:.0%} of the budget (${b.reserve_fraction * total:,.0f})"
        + ("" if a.mine("reserve") else " (the scenario's; change or confirm it)")
        + ("" if band else f"; outside a sensible {lo:.0%}-{hi:.0%}")
    )
    tracking = a.text("tracking")
    # An estimate off the model's is thin, not wrong: without the working the rubric cannot
    # tell a wrong method from other assumptions (GPU price, utilisation); a copy is wrong.
    claims = [claim("estimate", close, est_line, wrong=bool(copied))] if b.compute_usd > 0 else []
    claims += [claim(f"allocated {k.removesuffix('_usd')}", True, f"{k}: ${getattr(b, k):,.0f}")
               for k in needed[1:] if getattr(b, k) > 0]  # fmt: skip
    claims += a.text_claim("tracking", "tracking")
    if a.said("reserve"):
        claims.append(claim("reserve", band, reserve_line))
    return judged(
        check("estimate", close, "structure", est_line, f"Flagged: {copied}" if copied else ""),
        check("allocated", not unallocated, "structure",
              f"Categories without an estimate: {names(unallocated)}"),
        check("tracking", tracking.met, "content", tracking.evidence()),
        check("reserve", band and a.mine("reserve"), "structure", reserve_line),
        claims=claims,
    )  # fmt: skip


def levers(a: Answer) -> Judgement:
    plan = a.plan
    out, claims = [], []
    for kind in ("budget", "schedule"):
        responses = plan.responses(kind)
        mine = a.mine("playbook", kind)
        line = f"{kind}: " + (" → ".join(o.replace("_", " ") for o in responses) or "ad hoc")
        if responses and not mine:
            line += " (the scenario's playbook; change or confirm it)"
        bad = kind == "budget" and responses[:1] == ["accept_overrun"]
        if bad:
            line += " (accepting the overrun first agrees no lever at all)"
        out.append(check(kind, bool(responses) and mine and not bad, "structure", line))
        if responses and mine:
            claims.append(claim(f"playbook {kind}", not bad, line))
    f = a.followup("budget_cut")
    note = []
    if f is not None and f.mine:
        note = ["In the budget-cut follow-up you pulled: "
                + " → ".join(d.choice.replace("_", " ") for d in f.mine)]  # fmt: skip
    return judged(*out, note=note, claims=claims + a.stated_claims("levers"))


# --- what a strong answer covers ---------------------------------------------------------------


def objective(a: Answer) -> Judgement:
    plan = a.plan
    world = plan_world(plan)
    kinds = {e.id: e.kind for e in world.objective.evals}
    targets = stated_targets(plan)
    product = [t for t in targets if kinds.get(t.eval) == "product_eval"]
    use = a.text("product_use")
    claims = a.text_claim("product_use", "product_use") + a.practices("objective")
    claims += a.stated_claims("objective")
    if plan.objective.targets:
        claims.append(claim("targets", bool(product),
                            "A target measured by a product eval" if product else
                            "Every target is a public benchmark"))  # fmt: skip
    return judged(
        check("product_use", use.met, "content", use.evidence()),
        check("product_eval", bool(product), "structure",
              "Targets: " + names([f"{t.capability} by {t.eval} ≥ {t.threshold:.2f}"
                                   for t in targets]),
              "" if product else "No target is measured by a product eval"),
        claims=claims,
    )  # fmt: skip


def roles(a: Answer) -> Judgement:
    plan = a.plan
    verdicts = [a.text(f"role.{r}") for r in plan.roles.model_dump()]
    described = [v for v in verdicts if v.met]
    held = [k for k in ("rollback", "data_fix") if plan.right(k) == PM_TEAM]
    lines = [f"Roles described by what they own: {len(described)} of {len(verdicts)}"]
    lines += [v.evidence() for v in verdicts if not v.met]
    c_described = check("described", len(described) >= 2, "content", *lines)
    c_apart = check(
        "apart",
        not held,
        "structure",
        f"The product team also holds technical calls: {names(held)}" if held else "",
    )
    full = len(described) == len(verdicts) and not held
    claims = [c for r in plan.roles.model_dump() for c in a.text_claim(f"role {r}", f"role.{r}")]
    claims += [claim(f"PM holds {k}", False, f"The product team also holds the {k} call")
               for k in held]  # fmt: skip
    claims += a.practices("roles")
    status: Status = "met" if full else "partly" if c_described.passed else "missed"
    return judged(c_described, c_apart, status=status, claims=claims)


def build_vs_adapt(a: Answer) -> Judgement:
    plan = a.plan
    strategy = effective_strategy(plan)
    fixed = plan.clarifications.get("strategy", "open") != "open"
    reason = a.text("strategy_reason")
    capped = [f"{c} at {cap:.2f}, below its {bar:.2f} target" for c, cap, bar in adapt_caps(plan)]
    lines = [
        f"Strategy: {strategy} ({'fixed by your clarifying answer' if fixed else 'your call'})"
    ]
    sound = True
    if capped:
        verb = "caps" if strategy == "adapt" else "would cap"
        lines.append(f"Adapting the open base model {verb} " + "; ".join(capped))
        sound = strategy == "pretrain" or fixed
    claims = a.text_claim("strategy_reason", "strategy_reason")
    if "strategy" in plan.model_fields_set:
        claims.append(claim("strategy", sound, lines[-1]))
    return judged(
        check("reason", reason.met, "content", reason.evidence()),
        check("consistent", sound, "structure", *lines,
              "" if sound else "You chose to adapt although it cannot reach a target"),
        claims=claims,
    )  # fmt: skip


def tradeoffs(a: Answer) -> Judgement:
    plan = a.plan
    same = [k for k, t in enumerate(plan.tradeoffs) if t.protect == t.give_up]
    stated = [
        (t, a.text(f"tradeoff.{k}"))
        for k, t in enumerate(plan.tradeoffs)
        if k not in same and a.text(f"tradeoff.{k}").met
    ]
    dims = sorted({d for t, _ in stated for d in (t.protect, t.give_up)})
    lines = [v.evidence() for k in range(len(plan.tradeoffs)) if (v := a.text(f"tradeoff.{k}"))]
    lines += [f"Trade-off {k + 1} protects and gives up the same thing: {plan.tradeoffs[k].protect}"
              for k in same]  # fmt: skip
    c_stated = check("stated", bool(stated), "content", *lines or ["No trade-off stated"])
    c_dims = check("dimensions", len(dims) == 3, "structure", f"Dimensions traded: {names(dims)}")
    full = len(stated) >= 2 and c_dims.passed
    met = {id(t) for t, _ in stated}
    claims = [claim(f"trade-off {k + 1}", id(t) in met, a.text(f"tradeoff.{k}").evidence(),
                    wrong=k in same) for k, t in enumerate(plan.tradeoffs)]  # fmt: skip
    return judged(
        c_stated,
        c_dims,
        note=_cut_note(a),
        status="met" if full else "partly" if stated else "missed",
        claims=claims,
    )


def _cut_note(a: Answer) -> list[str]:
    f = a.followup("budget_cut")
    if f is None or f.quality_given_up is None or not f.mine:
        return []
    return [f"In the budget-cut follow-up your calls gave up {f.quality_given_up:+.3f} of mean "
            "eval score against the same world without the cut"]  # fmt: skip


def safety(a: Answer) -> Judgement:
    plan = a.plan
    start = plan.levers.safety_from_start and a.mine("levers", "safety_from_start")
    legal = [g.id for g in plan.gates if g.after in ("prepare", "ablations")
             and "licensing" in g.catches and a.mine("gates", g.id)]  # fmt: skip
    named = [plan.challenges[i].title for i in _explained(a)
             if plan.challenges[i].stage == "safety_legal"]  # fmt: skip
    from_start = ("from the start" if plan.levers.safety_from_start else "only at release") + (
        "" if a.mine("levers", "safety_from_start") else " (the scenario's lever)"
    )
    # The licence gate and the safety challenge are claims of the gates and consequences.
    claims = a.practices("safety")
    return judged(
        check("from_start", start, "structure", f"Safety, legal and privacy engaged {from_start}"),
        check("licence_gate", bool(legal), "structure",
              f"Your licence and privacy review before the run: {names(legal)}"),
        check("named", bool(named), "content",
              f"Part 1 explains: {names(named)}"),
        claims=claims,
    )  # fmt: skip
