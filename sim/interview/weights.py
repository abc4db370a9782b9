"""What each claim is worth: the one registry of claim weights, each with its reason.

A rubric item turns what the candidate said into claims (:class:`~sim.interview.checks.
Claim`). Not every claim says as much: naming a risk is where an answer starts, owning
it with an early warning is the practice, and agreeing a rollback before the run is what
an experienced lead does. A claim's weight says how much expertise it shows when sound,
and how much harm it shows when unsound: a confidently wrong practice (no reserve, a
restart after one spike, shipping on benchmarks) costs more than saying nothing, since a
team would act on it. A thin claim (said, but too little to credit) weighs nothing.

Claims are looked up by their item and their kind: the claim's name, or the words before
its subject ("owner data_quality" is an ``owner`` claim of the owners item). The weights
come from the seeds' lessons (docs/interview.md, "What each claim is worth", gives every
reason), never from individual corpus answers. A sound claim that binds a specific (a
holder, a number, an order, a threshold, a phase) earns :data:`BINDING_WEIGHT` times its
weight, and an order :data:`ORDER_BONUS` more per further lever.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sim.interview.checks import Claim


@dataclass(frozen=True)
class ClaimWeight:
    """What a sound claim earns and an unsound one costs (before the grade's penalty)."""

    #: What a sound claim earns, before the binding weight (1: a sound practice stated).
    sound: float
    #: What an unsound claim costs, before the grade's UNSOUND_PENALTY.
    unsound: float
    reason: str
    #: What the claim binds to what it names ("a holder", "a number", "an order", "a
    #: threshold", "a phase"), or "" for a concept named in words or a lever set.
    binds: str = ""


#: (item id, claim kind) -> its weight. Sound: 1 for a sound statement, less where the
#: claim is bookkeeping or the design's or the world's doing more than the candidate's;
#: a claim that binds a specific earns :data:`BINDING_WEIGHT` times that. Unsound: 0.5 a
#: slip that harms little, 1 a wrong statement, 1.5 a wrong practice a team would act on,
#: 2 the hazards the seeds warn of by name (no reserve, a restart or recipe change after
#: one spike, shipping on benchmarks, refusing decontamination or early product evals).
CLAIM_WEIGHTS: dict[tuple[str, str], ClaimWeight] = {
    ("consequences", "challenge"): ClaimWeight(
        1.0, 0.5, "Naming a risk and what it costs is where an answer starts; anyone can list "
        "risks, and what is done about them is the practice."),
    ("grounding", "late_discovery"): ClaimWeight(
        1.0, 1.0, "Why late is expensive (compute spent, a restart, the work downstream) is "
        "the technical core of why training is hard."),
    ("grounding", "signal"): ClaimWeight(
        1.0, 0.5, "Knowing where a problem first shows is useful detail; a wrong phase is a "
        "small error, not a harmful practice."),
    ("owners", "owner"): ClaimWeight(
        1.0, 1.5, "A named owner per risk is a start; a risk the run's own signals reveal "
        "owned by product or leadership sees them last, far from the work.",
        binds="a holder"),
    ("owners", "hazard"): ClaimWeight(
        0.0, 2.0, "Risks owned by everyone or by someone unnamed are owned by nobody: the "
        "question's first hint is an owner for every risk, and a shared risk is the one "
        "nobody watches."),
    ("owners", "warning"): ClaimWeight(
        1.0, 1.0, "An early warning makes ownership actionable: owning a risk with the signal "
        "that reveals it early is the practice the seeds name."),
    ("decision_rights", "right"): ClaimWeight(
        1.0, 1.5, "A named holder per call decides without a meeting; a call held far from "
        "the work decides later and worse (DESIGN.md: decisions close to the work).",
        binds="a holder"),
    ("decision_rights", "spike response"): ClaimWeight(
        1.0, 2.0, "Agreeing before the run to roll back first is what experienced leads do; a "
        "recipe change or training on after one spike is the known overreaction.",
        binds="an order"),
    ("gates", "gate"): ClaimWeight(
        1.0, 0.5, "A gate before the big run is where late discovery is avoided; a token gate "
        "catches nothing but harms little.", binds="a phase"),
    ("gates", "experiment"): ClaimWeight(
        1.0, 1.0, "A cheap experiment named for a gate (dedup audit, proxy run, overlap scan) "
        "shows the candidate knows how the gate catches anything."),
    ("gates", "hazard"): ClaimWeight(
        0.0, 1.5, "No gate before the main run, or going straight to it, finds every defect "
        "late, when the compute is spent: the phased plan the question asks for refused."),
    ("gates", "ablation"): ClaimWeight(
        1.0, 1.5, "An ablation budget in a sensible band is standard; refusing ablations "
        "skips the cheap experiments that de-risk the run.", binds="a number"),
    ("gates", "decontaminate"): ClaimWeight(
        1.0, 2.0, "Decontamination is what separates a real eval from a flattering one; "
        "refusing it means shipping on inflated benchmarks."),
    ("budget", "estimate"): ClaimWeight(
        1.0, 2.0, "A compute estimate within a third of 6·N·D's is worked expertise; a copied "
        "one is a forgery.", binds="a number"),
    ("budget", "allocated"): ClaimWeight(
        0.5, 0.25, "A figure per category is bookkeeping: it shows the budget was split, not "
        "judged.", binds="a number"),
    ("budget", "tracking"): ClaimWeight(
        1.0, 1.0, "Burn against forecast on a cadence, with an owner, is how overruns are seen "
        "before they are spent."),
    ("budget", "reserve"): ClaimWeight(
        1.0, 2.0, "A reserve sized to the risk is standard practice; no reserve is the hazard "
        "the seeds name: the first surprise becomes an overrun or a cut.", binds="a number"),
    ("levers", "playbook"): ClaimWeight(
        1.0, 1.5, "Levers agreed in order before anything slips save a deliberation under "
        "pressure; accepting the overrun first agrees nothing.", binds="an order"),
    ("levers", "hazard"): ClaimWeight(
        0.0, 1.5, "Deciding as things come up agrees nothing in advance: every slip becomes a "
        "deliberation under pressure, the opposite of levers agreed before the run."),
    ("objective", "product_use"): ClaimWeight(
        1.0, 0.75, "Who uses the model and for what is the start of an objective."),
    ("objective", "targets"): ClaimWeight(
        1.0, 2.0, "A target measured by a product eval; every target a public benchmark is "
        "shipping on benchmarks.", binds="a threshold"),
    ("objective", "practice"): ClaimWeight(
        1.0, 0.0, "The ship call resting on the product evals is the answer to the third "
        "follow-up's trap, said before it is asked."),
    ("objective", "hazard"): ClaimWeight(
        0.0, 2.0, "The public benchmarks as the ship criterion is the trap the third follow-up "
        "names: benchmarks flatter the model, the product evals are what customers meet."),
    ("objective", "product_evals_early"): ClaimWeight(
        1.0, 2.0, "Product evals built before training are what experts single out; built "
        "late, the gap to the product is found at release."),
    ("objective", "eval_focus"): ClaimWeight(
        1.0, 1.5, "Balanced eval effort is a small sound choice; focusing on one benchmark "
        "over-fits it (DESIGN.md: public benchmarks are not product evals)."),
    ("roles", "role"): ClaimWeight(
        1.0, 0.75, "A role described by what it owns shows the organisation, one role at a "
        "time."),
    ("roles", "PM holds"): ClaimWeight(
        0.0, 1.5, "The product manager holding a rollback or data fix puts a run call far "
        "from the work."),
    ("roles", "engineering_embedded"): ClaimWeight(
        1.0, 1.5, "Engineering embedded with training restarts faster; kept apart it is a "
        "ticket queue (DESIGN.md: avoid silos)."),
    ("build_vs_adapt", "strategy_reason"): ClaimWeight(
        1.0, 1.0, "A reason naming the alternative and a criterion is the reasoning asked for."),
    ("build_vs_adapt", "strategy"): ClaimWeight(
        1.0, 1.0, "The choice alone says little; adapting where the base model caps a target "
        "misses it for sure."),
    ("tradeoffs", "trade-off"): ClaimWeight(
        1.0, 0.5, "A stated trade-off tells the team what gives first; one that protects and "
        "gives up the same thing says nothing."),
    ("safety", "safety_from_start"): ClaimWeight(
        1.0, 1.5, "Safety and legal in from the start; at release only, their findings block "
        "the launch."),
    ("outcome", "own"): ClaimWeight(
        0.0, 0.0, "The scenario's own design unchanged: nothing of the candidate's to weigh."),
    ("outcome", "plays_out"): ClaimWeight(
        1.0, 1.0, "The design's simulated chance of success against the reference's."),
    ("followup_spike", "sound"): ClaimWeight(
        1.0, 2.0, "Rolling back after one spike is the expert call; restarting or changing the "
        "recipe after one spike is the overreaction the seeds warn of."),
    ("followup_spike", "fast"): ClaimWeight(
        0.25, 0.25, "How fast the news travelled is the design's doing more than the call's."),
    ("followup_budget", "agreed_order"): ClaimWeight(
        1.0, 1.0, "Pulling the levers in the order agreed before the run."),
    ("followup_budget", "on_budget"): ClaimWeight(
        0.5, 0.5, "Ending on budget after the cut is partly the world's doing."),
    ("followup_ship", "gap"): ClaimWeight(
        1.0, 2.0, "Reading a product-eval gap against its noise is the expert call; shipping "
        "over a real gap is shipping on benchmarks."),
    ("followup_ship", "trade_off"): ClaimWeight(
        0.5, 0.5, "Whether another option did better in the same world is partly luck."),
    ("followup_ship", "reasoning"): ClaimWeight(
        1.0, 1.0, "A reason naming the gap, the noise and what waiting costs."),
}  # fmt: skip
#: A sound claim that binds a specific (a holder to a call or a risk, a number to its noun,
#: a lever to its place in an order, a threshold to a target, a gate to its phase) earns
#: this many times its weight: specificity is evidence of expertise, since anyone can name
#: a concept and only someone who has done the work says who, how much and in what order
#: (tuned on the prose corpus's tuning half only: 1, 1.25, 1.5, 2 tried).
BINDING_WEIGHT = 2.0
#: What an ordered claim adds for each lever after its first, up to ORDER_MAX of them: an
#: order of three levers agrees more in advance than one lever (0, 0.25, 0.5, 1 tried).
ORDER_BONUS = 0.25
ORDER_MAX = 3
_NEXT = re.compile("→")


def weight_of(item: str, c: Claim) -> ClaimWeight:
    """The registry's weight for claim ``c`` of ``item`` (KeyError: no entry, a bug)."""
    key = (item, c.name)
    if key in CLAIM_WEIGHTS:
        return CLAIM_WEIGHTS[key]
    for (it, kind), w in CLAIM_WEIGHTS.items():
        if it == item and c.name.startswith(kind + " "):
            return w
    raise KeyError(f"no claim weight for {item}: {c.name!r}")


def further_levers(c: Claim) -> int:
    """The levers an ordered claim's evidence lists after its first ("a → b → c": 2)."""
    return min(len(_NEXT.findall(c.evidence)), ORDER_MAX)


def weighed(item: str, c: Claim) -> float:
    """The claim's signed weight: + sound (bindings, orders more), - unsound, 0 thin."""
    w = weight_of(item, c)
    if c.stance == "unsound":
        return -w.unsound
    if c.stance == "thin":
        return 0.0
    bound = w.sound * (BINDING_WEIGHT if w.binds else 1.0)
    return bound + (ORDER_BONUS * further_levers(c) if w.binds == "an order" else 0.0)


def docs_rows() -> list[str]:
    """The registry as docs/interview.md's table rows (tests/test_rubric_weights.py)."""
    return [
        f"| {item} | {kind} | {cw.sound:g} | {cw.binds or '—'} | {cw.unsound:g} | {cw.reason} |"
        for (item, kind), cw in CLAIM_WEIGHTS.items()
    ]
