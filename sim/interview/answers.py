"""A model answer for every rubric item, written for the candidate's own project.

Shown in the debrief only after the attempt is handed in (``RubricReport.revealed``), so a
second attempt cannot copy it before estimating. The budget answer works the compute
estimate through 6·N·D on the candidate's design: parameters, tokens, FLOPs, the
cluster's throughput at its utilisation, interruptions, GPU-hours and price, then the
ablation share and post-training rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.engine.compute import estimate_for_scenario, gpu_model
from sim.format import points, usd
from sim.interview.content import SIGNALS
from sim.interview.items import model_compute_usd
from sim.interview.plan import (
    FollowupResult,
    InterviewPlan,
    adapt_caps,
    plan_scenario,
    plan_world,
)
from sim.interview.provenance import reference
from sim.interview.verdicts import CLEAR_SD, NOISE_SD, gaps
from sim.interview.vocabulary import CONCEPTS
from sim.scenario.vocabulary import words


def _usd(x: float) -> str:
    return usd(x)


def _about(x: float) -> str:
    """A figure as one would estimate it: two significant digits ("about $5,500")."""
    return usd(float(f"{x:.2g}"))


def worked_estimate(plan: InterviewPlan) -> str:
    """The compute bill of the candidate's design, worked through 6·N·D step by step."""
    design = plan_scenario(plan)
    m, c, lev = design.model, design.cluster, design.levers
    est = estimate_for_scenario(design)
    if lev.strategy == "adapt" and m.base_model is not None:
        n, d, what = m.base_model.params_b * 1e9, m.adapt_tokens_b * 1e9, "adapting the base model"
    else:
        n, d, what = m.active_b * 1e9, m.tokens_b * 1e9, "pretraining"
    peak = gpu_model(c.gpu).peak_tflops
    price = c.usd_per_gpu_hour or gpu_model(c.gpu).usd_per_gpu_hour
    per_day = c.gpus * peak * 1e12 * c.mfu * 86_400
    total = model_compute_usd(plan)
    # The plan's compute over its run, less the ablations: what the rounds add (compute.py).
    extra = total / est.cost_usd - 1.0 if est.cost_usd > 0 else 0.0
    per_round = (extra - lev.ablation_fraction) / max(1, m.post_training_rounds)
    return "\n".join(
        [
            f"1. FLOPs for {what}: 6 × N × D = 6 × {n:.3g} parameters × {d:.3g} tokens "
            f"= {est.flops:.3g} FLOPs.",
            f"2. The cluster: {c.gpus:,} {c.gpu.upper()} × {peak:g} TFLOP/s peak × {c.mfu:.0%} "
            f"MFU = {per_day:.3g} FLOPs a day, so {est.ideal_days:.1f} days without "
            "interruptions.",
            f"3. Interruptions and checkpoints keep {est.effective_training_time:.0%} of the "
            f"time training: {est.expected_days:.1f} days, {est.expected_gpu_hours:,.0f} "
            "GPU-hours.",
            f"4. At ${price:g} per GPU-hour the main run costs {_usd(est.cost_usd)}.",
            f"5. Add {lev.ablation_fraction:.0%} for ablations and "
            f"{per_round:.1%} for each of {m.post_training_rounds} post-training "
            f"rounds (+{extra:.1%}): about {_usd(total)} of compute.",
        ]
    )


#: How each risk is named in a model answer, and the earliest signal its owner watches.
RISK_WORDS: dict[str, tuple[str, str]] = {
    "data_quality": ("data quality", "dedup and filter rates on every shard"),
    "contamination": ("contamination", "n-gram overlap scans against every eval set"),
    "licensing": ("licensing and privacy", "a licence and PII audit of every source"),
    "tokenizer_config": ("tokenizer and config mistakes", "tokenizer checks and proxy runs"),
    "loss_spike": ("loss spikes", "loss and gradient-norm alerts"),
    "hardware": ("hardware failures", "node health checks and failure rates"),
    "eval_gap": ("the gap between benchmarks and the product",
                 "product evals built from real use before training"),
    "safety": ("safety findings", "red-teaming and safety evals"),
    "budget": ("the budget", "weekly burn against the forecast"),
    "staffing": ("key people leaving", "attrition and the bus factor"),
}  # fmt: skip
#: How a team is named as the subject of a sentence, where its id alone is no phrase.
TEAM_PHRASES = {
    "data": "the data team", "evals": "the evals team", "pretraining": "the pretraining team",
    "post_training": "the post-training team", "safety_legal": "the safety and legal team",
    "product": "the product team",
}  # fmt: skip


def _team(team: str) -> str:
    return TEAM_PHRASES.get(team, team.replace("_", " "))


def _owners_answer(plan: InterviewPlan) -> str:
    """One owning team per risk (the scenario's own, which are sound), each with its signal."""
    ref = reference(plan)
    lines = []
    for risk, (named, signal) in RISK_WORDS.items():
        team = ref.owner(risk)  # type: ignore[arg-type]
        if team is not None:
            lines.append(f"- {_team(team).capitalize()} owns {named} and watches {signal}.")
    return "One owning team per risk, each watching the earliest signal that can reveal it:\n\n" + (
        "\n".join(lines)
    )


#: What a strong answer says in each box, one text per box (the item answers join them).
MODEL_CONSEQUENCES: dict[str, str] = {
    "data_quality": "Duplicated web data: the run learns less per token, quality falls short "
    "and a retrain costs weeks.",
    "hardware": "GPU failures: every restart loses the work since the last checkpoint, days "
    "lost across the run.",
    "loss_spike": "A loss spike left alone: days of idle cluster while nobody decides.",
}
#: Breadth: one challenge per area of the lifecycle, each with what it costs.
MODEL_BREADTH = (
    "Data: duplicated web data teaches the model less per token, so quality falls short and "
    "a retrain costs weeks. Compute and infrastructure: GPU failures interrupt the run, and "
    "each restart loses days. Training stability: a loss spike left alone diverges the run "
    "while the cluster idles. Post-training: tuning toward public benchmarks instead of the "
    "product makes the model weaker for customers, below the quality target. Evaluation: "
    "leaked test-set items inflate the scores, so real quality is lower than measured."
)
MODEL_LATE = (
    "By mid-run most of the compute is already spent; a data or tokenizer defect found then "
    "means a restart or retrain, and post-training, evals and the release built on that "
    "checkpoint are redone too. The same defect found in a 1B proxy run costs a few days."
)
#: Where each problem first shows, said with what it costs (the grounding's second check).
MODEL_FIRST_SEEN = (
    "Duplicated data costs quality and first shows in the ablations. A loss spike idles the "
    "cluster and first shows in training, in the loss and the gradient norm. Tuning toward "
    "benchmarks instead of the product makes the model weak for customers, and first shows "
    "in post-training, on the product evals."
)
MODEL_ROLES: dict[str, str] = {
    "product_manager": "PM: the objective, the trade-offs, the ship call and the stakeholders.",
    "research": "Research: the recipe, data mix, architecture and ablations.",
    "engineering": "Engineering: the cluster, pipeline, checkpoints and throughput.",
    "program_management": "Program management: the plan, milestones, dependencies and the "
    "weekly risk review.",
}
MODEL_TRADEOFFS: dict[tuple[str, str], str] = {
    ("quality", "schedule"): "Protect quality, give up schedule: slip up to two weeks rather "
    "than ship below the product bar.",
    ("schedule", "cost"): "Protect the date, give up cost: spend the reserve, never more, to "
    "keep the launch.",
    ("cost", "quality"): "Protect cost, give up quality: after a cut, fewer post-training "
    "rounds before fewer tokens.",
}
MODEL_GATES: dict[str, str] = {
    "prepare": "A data review gate after data preparation: dedup rates, sampled audits, "
    "n-gram overlap against every eval set, licence and PII scans.",
    "ablations": "An ablation gate after the ablations: 1B proxy runs, tokenizer checks and "
    "scaling-law fits on the full mix, thorough enough to stop the run.",
}
MODEL_TRACKING = "Program management reviews burn against the forecast weekly, by category."


def _watch(risk: str) -> str:
    return "watch " + " or ".join(CONCEPTS[s].label for s in SIGNALS[risk])


def _adapt(plan: InterviewPlan) -> str:
    caps = adapt_caps(plan)
    if not caps:
        return "The open base model can reach every target, so adapt it: cheaper and sooner."
    return (
        "Adapting the open base model caps "
        + "; ".join(f"{c} at {cap:.2f} below {bar:.2f}" for c, cap, bar in caps)
        + ", so we pretrain from scratch, and say what that costs in time and money."
    )


def model_texts(plan: InterviewPlan) -> dict[str, str]:
    """The model answer for each free-text box of ``plan`` that has one.

    Keyed by slot id, as :func:`sim.interview.content.slots` names them.
    """
    out = {
        "late_discovery": MODEL_LATE,
        "strategy_reason": _adapt(plan),
        "tracking": MODEL_TRACKING,
        "product_use": plan_world(plan).objective.product_use,
    }
    out |= {f"warning.{r}": _watch(r) for r in SIGNALS}
    out |= {f"role.{r}": t for r, t in MODEL_ROLES.items()}
    for i, c in enumerate(plan.challenges):
        if c.risk in MODEL_CONSEQUENCES:
            out[f"challenge.{i}"] = MODEL_CONSEQUENCES[c.risk]
    for g in plan.gates:
        if g.after in MODEL_GATES:
            out[f"gate.{g.id}"] = MODEL_GATES[g.after]
    for k, t in enumerate(plan.tradeoffs):
        if (t.protect, t.give_up) in MODEL_TRADEOFFS:
            out[f"tradeoff.{k}"] = MODEL_TRADEOFFS[(t.protect, t.give_up)]
    return out


SHIP_RULE = (
    "Compare the gap with the eval's noise (sd √(p(1-p)/items)): a gap beyond two sd is "
    "real, so hold and fix; a gap within one sd is noise, and if waiting costs weeks for "
    "almost no quality, ship with the gap stated."
)


def _ship_answer(plan: InterviewPlan, followups: Sequence[FollowupResult]) -> str:
    """The rule, and, where the follow-up was played, the call it gives in that world."""
    played = next((f for f in followups if f.id == "benchmarks_vs_product"), None)
    found = gaps(plan, played) if played is not None else []
    if not found:
        return SHIP_RULE
    ev, gap, z = max(found, key=lambda g: g[2])
    here = f"Here {words(ev)} was {points(gap)} below its target, {z:.1f} sd of the eval's noise: "
    if z >= CLEAR_SD:
        return here + (
            "a real gap, beyond two sd, so hold the release and fix the data "
            "first; the benchmarks' strength does not change that."
        )
    if z < NOISE_SD:
        return here + (
            "within one sd, noise, so ship now with the gap stated to "
            "stakeholders: waiting costs weeks for almost no quality."
        )
    return here + (
        "borderline, between one and two sd: ship with the gap stated unless "
        "another round buys real quality for its weeks."
    )


def model_answers(plan: InterviewPlan, followups: Sequence[FollowupResult] = ()) -> dict[str, str]:
    """What a strong answer would have said for each rubric item, for this project.

    ``followups``: the follow-ups as the rubric replayed them; the ship call's answer then
    says which call the rule gives in the world the candidate met.
    """
    world = plan_world(plan)
    b = world.objective.budget
    targets = "; ".join(f"{t.capability} by {t.eval} ≥ {t.threshold:.2f}"
                        for t in world.objective.targets)  # fmt: skip
    return {
        "breadth": MODEL_BREADTH,
        "consequences": " ".join(MODEL_CONSEQUENCES.values()),
        "grounding": f"{MODEL_LATE} {MODEL_FIRST_SEEN}",
        "owners": _owners_answer(plan),
        "decision_rights": "Rollback and data fixes: the pretraining lead, within hours. On a "
        "loss spike the response agreed in advance is to roll back to the last good checkpoint "
        "and skip the batches. Budget and schedule: leadership, on the PM's recommendation. "
        "Ship: the PM, on the product evals.",
        "gates": " ".join(MODEL_GATES.values()) + " Ablations get 8% of the main run's "
        "compute; 5-10% is usual.",
        "budget": f"Compute comes to about {_about(model_compute_usd(plan))}, worked for your "
        "design:\n"
        + worked_estimate(plan)
        + f"\n\nThe rest of the budget: people {_usd(b.people_usd)}, data licensing "
        f"{_usd(b.data_licensing_usd)}, annotation {_usd(b.annotation_usd)}. "
        f"{MODEL_TRACKING} We hold back a reserve of 12% ({_usd(0.12 * b.total_usd)}); "
        "10-15% is usual.",
        "levers": "Budget slip: use the reserve, then cut ablations, then fewer post-training "
        "rounds, then fewer tokens. Schedule slip: cut post-training rounds, then add core "
        "staff early, then accept the slip. Signed off before the run.",
        "objective": f"For {world.objective.product_use}: {targets}, with product evals built "
        "from real use before training, not only public benchmarks.",
        "roles": " ".join(MODEL_ROLES.values()),
        "build_vs_adapt": _adapt(plan),
        "tradeoffs": " ".join(MODEL_TRADEOFFS.values()),
        "safety": "Safety, legal and privacy are in from day one. A data review gate after "
        "data preparation runs licence and PII scans before the run. A release-blocking safety "
        "finding found only at sign-off delays the launch by weeks, so red-teaming runs on "
        "each post-training round.",
        "outcome": "The scenario's own design is the bar: owners with early warnings, gates "
        "before the run, a reserve and an agreed playbook. Beat it or match it on the same "
        "worlds.",
        "followup_spike": "The pretraining lead rolls back to the last good checkpoint and "
        "skips the batches, within hours, as agreed; a second spike on other data triggers a "
        "pause to investigate.",
        "followup_budget": "Pull the levers in the agreed order (reserve first), say what "
        "quality the cut costs, and stay on budget.",
        "followup_ship": _ship_answer(plan, followups),
    }
