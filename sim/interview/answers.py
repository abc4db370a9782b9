"""A model answer for every rubric item, written for the candidate's own project.

Shown in the debrief only after the attempt is handed in (``RubricReport.revealed``), so a
second attempt cannot copy it before estimating. The budget answer works the compute
estimate through 6·N·D on the candidate's design: parameters, tokens, FLOPs, the
cluster's throughput at its utilisation, interruptions, GPU-hours and price, then the
ablation share and post-training rounds.
"""

from __future__ import annotations

from sim.engine.compute import estimate_for_scenario, gpu_model
from sim.format import usd
from sim.interview.content import SIGNALS
from sim.interview.items import model_compute_usd
from sim.interview.plan import InterviewPlan, adapt_caps, plan_scenario, plan_world
from sim.interview.vocabulary import CONCEPTS


def _usd(x: float) -> str:
    return usd(x)


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


def _owners_answer() -> str:
    lines = [f"- {risk.replace('_', ' ')}: {_watch(risk)}" for risk in SIGNALS]
    return "One owning team per risk, each watching the earliest signal that can reveal it:\n" + (
        "\n".join(lines)
    )


#: What a strong answer says in each box, one text per box (the item answers join them).
MODEL_CONSEQUENCES: dict[str, str] = {
    "data_quality": "Duplicated web data: the run learns less per token, quality falls short "
    "and a retrain costs weeks.",
    "hardware": "GPU failures: every restart loses the work since the last checkpoint, days "
    "over the run.",
    "loss_spike": "A loss spike left alone: days of idle cluster while nobody decides.",
}
MODEL_LATE = (
    "By mid-run most of the compute is already spent; a data or tokenizer defect found then "
    "means a restart or retrain, and post-training, evals and the release built on that "
    "checkpoint are redone too. The same defect found in a 1B proxy run costs a few days. "
    "Data defects show first in the data review and the ablations; loss spikes in training; "
    "the eval gap when product evals exist before training."
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
    "prepare": "After data preparation: a data review (dedup rates, sampled audits, licence "
    "and PII scans, n-gram overlap against every eval set).",
    "ablations": "After ablations: 1B proxy runs and scaling-law fits on the full mix, "
    "thorough enough to stop the run.",
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
        + ", so pretrain, and say what that costs in time and money."
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


def model_answers(plan: InterviewPlan) -> dict[str, str]:
    """What a strong answer would have said for each rubric item, for this project."""
    world = plan_world(plan)
    b = world.objective.budget
    targets = "; ".join(f"{t.capability} by {t.eval} ≥ {t.threshold:.2f}"
                        for t in world.objective.targets)  # fmt: skip
    return {
        "breadth": "Data (noise, duplicates, licences, leaked benchmarks); compute and "
        "infrastructure (a compute estimate that is too optimistic, GPU failures); training "
        "stability (loss spikes); post-training (tuning toward the wrong target); evaluation "
        "(benchmarks that flatter the product).",
        "consequences": " ".join(MODEL_CONSEQUENCES.values()),
        "grounding": MODEL_LATE,
        "owners": _owners_answer(),
        "decision_rights": "Rollback and data fixes: the pretraining lead, within hours, "
        "on the agreed response (roll back to the last good checkpoint and skip the batches). "
        "Budget and schedule: leadership on the PM's recommendation. Ship: the PM, on the "
        "product evals.",
        "gates": " ".join(MODEL_GATES.values()) + " 5-10% of the main run's compute for ablations.",
        "budget": "Compute, worked for your design:\n"
        + worked_estimate(plan)
        + f"\n\nThe rest of the budget: people {_usd(b.people_usd)}, data licensing "
        f"{_usd(b.data_licensing_usd)}, annotation {_usd(b.annotation_usd)}. "
        f"{MODEL_TRACKING} A reserve of 10-15% ({_usd(0.1 * b.total_usd)}-"
        f"{_usd(0.15 * b.total_usd)}) is held back.",
        "levers": "Budget slip: use the reserve, then cut ablations, then fewer post-training "
        "rounds, then fewer tokens. Schedule slip: cut post-training rounds, then add core "
        "staff early, then accept the slip. Signed off before the run.",
        "objective": f"For {world.objective.product_use}: {targets}, with product evals built "
        "from real use before training, not only public benchmarks.",
        "roles": " ".join(MODEL_ROLES.values()),
        "build_vs_adapt": _adapt(plan),
        "tradeoffs": " ".join(MODEL_TRADEOFFS.values()),
        "safety": "Safety, legal and privacy in from day one; a licence and PII gate on the "
        "data before the run; red-teaming on each post-training round.",
        "outcome": "The scenario's own design is the bar: owners with early warnings, gates "
        "before the run, a reserve and an agreed playbook. Beat it or match it on the same "
        "worlds.",
        "followup_spike": "The pretraining lead rolls back to the last good checkpoint and "
        "skips the batches, within hours, as agreed; a second spike on other data triggers a "
        "pause to investigate.",
        "followup_budget": "Pull the levers in the agreed order (reserve first), say what "
        "quality the cut costs, and stay on budget.",
        "followup_ship": "Compare the gap with the eval's noise (sd √(p(1-p)/items)): a gap "
        "beyond two sd is real, so hold and fix; a gap within one sd is noise, and if waiting "
        "costs weeks for almost no quality, ship with the gap stated.",
    }
