"""Hand-written interview answers of known quality, for the rubric's ordering tests.

- ``strong``: every item answered, specific texts, the candidate's own choices, the
  follow-ups played soundly;
- ``mediocre``: the shape is there, half the texts generic, some parts missing;
- ``weak``: an honest thin answer: three challenges, a few owners, little else;
- ``filler``: the strong answer's structure with every text filler and meaningless numbers;
- ``misplaced``: the strong answer with its texts moved to the wrong risks and questions;
- ``button_only``: "Start from the scenario's own org chart" and nothing else.

They must come out in the order strong > mediocre > weak > filler > button_only, with the
misplaced answer below the mediocre one (tests/test_rubric.py).
"""

from __future__ import annotations

from typing import Any

from sim.interview.plan import (
    BudgetPlan,
    Challenge,
    FollowupResult,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    RiskPlan,
    RolesPlan,
    TradeOff,
    world_plan,
)
from sim.interview.replays import play_calls
from sim.interview.rubric import model_compute_usd

OWNERS: dict[str, tuple[str, str]] = {
    "data_quality": ("data", "dedup and filter rates on every shard, sampled audits, and "
                     "proxy-run loss on the mix"),
    "contamination": ("evals", "n-gram overlap scans of the training data against every eval "
                      "set"),
    "licensing": ("safety_legal", "licence and provenance audit of each source, plus a PII "
                  "scan, before it enters the mix"),
    "tokenizer_config": ("pretraining", "tokenizer fertility checks and a dry run of the "
                         "config on a 1B proxy"),
    "loss_spike": ("pretraining", "loss and gradient-norm alerts on the training dashboard, "
                   "evals on every checkpoint"),
    "hardware": ("infra", "burn-in tests, node health checks and the failure rate per 1,000 "
                 "node-days"),
    "eval_gap": ("evals", "product evals built from real support tickets before training, "
                 "checked each round"),
    "safety": ("safety_legal", "red-team review and safety evals of each post-training round"),
    "budget": ("leadership", "weekly burn against the forecast in GPU-hours and dollars"),
    "staffing": ("leadership", "bus factor per workstream and attrition reviewed monthly, with "
                 "a named backup"),
}  # fmt: skip
CHALLENGES: list[tuple[str, str, str, str, str]] = [
    ("data", "Noisy, duplicated or low-quality web data", "data_quality", "ablations",
     "Duplicated, noisy web tokens make the model learn less per token: quality falls short "
     "and a retrain costs weeks and a second compute bill."),
    ("sizing", "Tokenizer or configuration mistakes baked in before the run", "tokenizer_config",
     "ablations", "A wrong tokenizer setting baked into the configuration spoils the whole "
     "run: weeks late and the compute paid twice."),
    ("sizing", "A compute estimate that is too optimistic", "budget", "prepare",
     "An optimistic estimate means the budget runs out before the last round: an overrun of "
     "millions or a cut in quality."),
    ("cluster", "GPU and node failures interrupting the run", "hardware", "training",
     "Each GPU or node failure loses the work since the last checkpoint plus the restart: "
     "days of schedule over the run."),
    ("stability", "Loss spikes and divergence mid-run", "loss_spike", "training",
     "A spike left alone diverges the run; while nobody decides the cluster idles at "
     "thousands of dollars an hour."),
    ("post_training", "Post-training tuned toward the wrong target", "eval_gap", "prepare",
     "Tuning toward public benchmarks instead of the product ships a model customers find "
     "weak: quality below the target."),
    ("evaluation", "Contaminated benchmarks inflate the scores", "contamination", "ablations",
     "Benchmark items leaked into the training data inflate the scores, so the real quality "
     "is lower than we believe."),
    ("safety_legal", "Release-blocking safety findings", "safety", "prepare",
     "A release-blocking safety finding at sign-off delays the launch by weeks of red-teaming "
     "and retuning."),
]  # fmt: skip
LATE = (
    "By mid-run most of the compute is already spent; a data or tokenizer defect found then "
    "forces a restart or a retrain, and the post-training and evals built on that checkpoint "
    "are redone downstream, while the same defect found in a 1B ablation costs a few days."
)
ROLES = RolesPlan(
    product_manager="owns the objective, the trade-offs and the ship call with stakeholders",
    research="owns the data mix, architecture, ablations and training recipe",
    engineering="owns the cluster, the pipeline, checkpoints and throughput",
    program_management="owns the plan, milestones, dependencies and the weekly risk review",
)
REASON = (
    "No open base model reaches the support-knowledge target (adapting caps below it) and its "
    "licence limits our control, so we pretrain from scratch."
)
TRADEOFFS = [
    TradeOff(protect="quality", give_up="schedule",
             text="slip up to two weeks rather than ship below the product quality bar"),
    TradeOff(protect="schedule", give_up="cost",
             text="spend the reserve, never more, to keep the launch date"),
    TradeOff(protect="cost", give_up="quality",
             text="after a budget cut, give up some quality in post-training rather than "
             "cut tokens"),
]  # fmt: skip
GATES = [
    GatePlan(id="data_review", after="prepare", catches=["data_quality", "licensing"],
             experiment="sampled audit, dedup rates, licence and PII review", strength=0.7),
    GatePlan(id="ablation_gate", after="ablations",
             catches=["data_quality", "tokenizer_config", "contamination"],
             experiment="1B proxy runs and scaling-law fits, tokenizer checks and overlap scans",
             strength=0.85),
]  # fmt: skip
PLAYBOOK: dict[str, list[str]] = {
    "rollback": ["rollback_skip", "pause_investigate"],
    "data_fix": ["fix_and_continue"],
    "budget": ["use_reserve", "cut_ablations", "fewer_post_training_rounds"],
    "ship": ["extra_round", "ship"],
    "schedule": ["cut_post_training_rounds", "accept_slip"],
}
RIGHTS = {"rollback": "pretraining", "data_fix": "pretraining", "budget": "leadership",
          "ship": "product", "schedule": "leadership"}  # fmt: skip
SHIP_REASON = (
    "The product eval is a point below its target, inside the noise of a 400-item eval; "
    "another round costs two weeks for almost no quality, so ship with the gap stated."
)
FILLER = (
    "lorem ipsum dolor sit amet",
    "the weather is nice today",
    "consectetur adipiscing elit sed do",
    "my cat likes to sit on the windowsill",
    "blue green yellow purple orange",
)


def followups(design: InterviewPlan, ship_reason: str = SHIP_REASON) -> list[FollowupResult]:
    """The three follow-ups really played on ``design`` with sound first calls."""
    out = [
        play_calls(design, "loss_spike", ("rollback_skip",)),
        play_calls(design, "budget_cut", ("use_reserve",)),
        play_calls(design, "benchmarks_vs_product", ("ship",), ship_reason),
    ]
    assert all(f is not None for f in out)
    return [f for f in out if f is not None]


def _challenges(texts: list[str] | None = None) -> list[Challenge]:
    return [
        Challenge(stage=stage, title=title, risk=risk, earliest_signal=signal,  # type: ignore[arg-type]
                  hits=["quality", "schedule"],
                  consequence=text if texts is None else texts[i])
        for i, (stage, title, risk, signal, text) in enumerate(CHALLENGES)
    ]  # fmt: skip


def strong() -> InterviewPlan:
    plan = InterviewPlan(
        candidate="strong",
        challenges=_challenges(),
        late_discovery=LATE,
        objective=ObjectivePlan(
            product_use="customer-support assistant that drafts answers to help-desk tickets"
        ),  # fmt: skip
        strategy="pretrain",
        strategy_reason=REASON,
        risks={r: RiskPlan(owner=o, early_warning=w) for r, (o, w) in OWNERS.items()},
        decision_rights=RIGHTS,  # type: ignore[arg-type]
        gates=GATES,
        budget=BudgetPlan(
            people_usd=5_400_000,
            data_licensing_usd=250_000,
            annotation_usd=400_000,
            reserve_fraction=0.12,
            tracking="weekly burn against the forecast by category, owned by the TPM",
        ),  # fmt: skip
        levers=LeverPlan(
            ablation_fraction=0.08,
            product_evals_early=True,
            decontaminate=True,
            safety_from_start=True,
            engineering_embedded=True,
            playbook=PLAYBOOK,
        ),  # type: ignore[arg-type]  # fmt: skip
        roles=ROLES,
        tradeoffs=TRADEOFFS,
    )
    estimate = round(model_compute_usd(plan), -4)  # estimated, so a round figure
    plan = plan.model_copy(update={"budget": plan.budget.model_copy(
        update={"compute_usd": estimate})})  # fmt: skip
    return plan.model_copy(update={"followups": followups(plan)})


def mediocre() -> InterviewPlan:
    s = strong()
    generic = iter(
        (
            "we keep an eye on it",
            "the lead checks it regularly",
            "a standing item at the Monday meeting",
            "ask the owner how it is going",
            "as needed",
        )
    )
    risks = {
        r: RiskPlan(owner=p.owner, early_warning=p.early_warning if i % 2 == 0 else next(generic))
        for i, (r, p) in enumerate(s.risks.items())
    }  # fmt: skip
    vague = ("hardware", "eval_gap", "safety")
    return s.model_copy(update={
        "candidate": "mediocre",
        "challenges": [c.model_copy(update={"consequence": "it is a problem for the project"})
                       if c.risk in vague else c for c in s.challenges],
        "late_discovery": "Late problems mean a restart of the run.",
        "risks": risks,
        "gates": s.gates[:1],
        "budget": s.budget.model_copy(update={"compute_usd": s.budget.compute_usd * 1.6,
                                              "tracking": "we keep an eye on it"}),
        "roles": RolesPlan(product_manager=ROLES.product_manager, research=ROLES.research),
        "strategy_reason": "",
        "tradeoffs": TRADEOFFS[:1],
        "levers": s.levers.model_copy(update={"playbook": {k: v for k, v in PLAYBOOK.items()
                                                          if k != "schedule"}}),
        "followups": s.followups[:1],
    })  # fmt: skip


def weak() -> InterviewPlan:
    return InterviewPlan(
        candidate="weak",
        challenges=[
            Challenge(
                stage="data",
                title="Noisy, duplicated or low-quality web data",
                risk="data_quality",
                hits=["quality"],
                consequence="bad data makes the model quality worse",
            ),
            Challenge(
                stage="stability",
                title="Loss spikes and divergence mid-run",
                risk="loss_spike",
                hits=["schedule"],
                consequence="the run is delayed by days",
            ),
            Challenge(
                stage="evaluation",
                title="Public benchmarks look better than the product really is",
                risk="eval_gap",
                hits=["quality"],
                consequence="the product quality is lower than the benchmark score",
            ),
        ],  # fmt: skip
        late_discovery="It is expensive because time is lost.",
        objective=ObjectivePlan(product_use="a support assistant"),
        strategy_reason="Pretraining gives us control over the data.",
        risks={
            "data_quality": RiskPlan(owner="data", early_warning="dedup rates on the data"),
            "loss_spike": RiskPlan(owner="pretraining", early_warning="loss curve alerts"),
            "eval_gap": RiskPlan(owner="evals", early_warning="we look at it"),
            "budget": RiskPlan(owner="product", early_warning="ask finance"),
        },
        decision_rights={"rollback": "pretraining", "ship": "product", "budget": "product"},  # type: ignore[dict-item]
        budget=BudgetPlan(compute_usd=200_000, reserve_fraction=0.05),
        tradeoffs=[
            TradeOff(
                protect="quality", give_up="schedule", text="we would rather be late than worse"
            )
        ],  # fmt: skip
    )


def filler() -> InterviewPlan:
    s = strong()
    f = iter(FILLER * 40)
    return s.model_copy(update={
        "candidate": "filler",
        "challenges": _challenges([next(f) for _ in CHALLENGES]),
        "late_discovery": next(f) + " " + next(f),
        "objective": ObjectivePlan(product_use=next(f)),
        "strategy_reason": next(f),
        "risks": {r: RiskPlan(owner=p.owner, early_warning=next(f)) for r, p in s.risks.items()},
        "decision_rights": {**RIGHTS, "rollback": "leadership", "data_fix": "product"},
        "gates": [g.model_copy(update={"experiment": next(f), "strength": 0.1}) for g in GATES],
        "budget": BudgetPlan(compute_usd=12_345, people_usd=1, data_licensing_usd=1,
                             annotation_usd=1, reserve_fraction=0.5, tracking=next(f)),
        "levers": s.levers.model_copy(update={"ablation_fraction": 0.5}),
        "roles": RolesPlan(**{k: next(f) for k in ROLES.model_dump()}),
        "tradeoffs": [t.model_copy(update={"text": next(f)}) for t in TRADEOFFS],
        "followups": [],
    })  # fmt: skip


def _rotate(values: list[Any], by: int = 1) -> list[Any]:
    return values[by:] + values[:by]


def misplaced() -> InterviewPlan:
    """The strong answer, its texts moved to the wrong risks and the wrong questions."""
    s = strong()
    risks = list(s.risks)
    warnings = _rotate([s.risks[r].early_warning for r in risks], 3)
    roles = _rotate(list(ROLES.model_dump().values()))
    consequences = _rotate([c.consequence for c in s.challenges], 3)
    texts = _rotate([t.text for t in TRADEOFFS])
    experiments = _rotate([g.experiment for g in GATES])
    return s.model_copy(update={
        "candidate": "misplaced",
        "challenges": [c.model_copy(update={"consequence": t})
                       for c, t in zip(s.challenges, consequences, strict=True)],
        "late_discovery": REASON,
        "strategy_reason": LATE,
        "objective": ObjectivePlan(product_use=s.budget.tracking),
        "budget": s.budget.model_copy(update={"tracking": s.objective.product_use}),
        "risks": {r: RiskPlan(owner=s.risks[r].owner, early_warning=w)
                  for r, w in zip(risks, warnings, strict=True)},
        "roles": RolesPlan(**dict(zip(ROLES.model_dump(), roles, strict=True))),
        "tradeoffs": [t.model_copy(update={"text": x}) for t, x in zip(TRADEOFFS, texts,
                                                                        strict=True)],
        "gates": [g.model_copy(update={"experiment": x}) for g, x in zip(GATES, experiments,
                                                                          strict=True)],
        "followups": followups(s, ship_reason=ROLES.research),
    })  # fmt: skip


def button_only() -> InterviewPlan:
    return world_plan(InterviewPlan(candidate="button"))


#: The order the plans must come out in, best first.
ORDER = ("strong", "mediocre", "weak", "filler", "button_only")
PLANS = {f.__name__: f for f in (strong, mediocre, weak, filler, misplaced, button_only)}
