"""The interview rubric against hand-built plans, and ``python -m sim rubric`` end to end.

A complete plan meets every item; taking away one owner, or the reserve, loses exactly
the item that asks for it. PLAN.json problems print ``FILE:LINE: field: reason`` and exit 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.interview.plan import (
    BudgetPlan,
    Challenge,
    FollowupDecision,
    FollowupResult,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    PlanError,
    RiskPlan,
    RolesPlan,
    TradeOff,
    parse_plan,
    plan_json,
    plan_scenario,
)
from sim.interview.rubric import ITEMS, judge, model_compute_usd, session_markdown
from sim.scenario.spec import RISK_KINDS

runner = CliRunner()
PROBLEM_LINE = re.compile(r"^(?P<file>.+):(?P<line>\d+): (?P<path>\S+): (?P<reason>.+)$")

OWNERS = {
    "data_quality": ("data", "dedup and filter rates on every shard; proxy-run loss"),
    "contamination": ("evals", "n-gram overlap of the data with every benchmark"),
    "licensing": ("safety_legal", "licence audit of each source before it enters the mix"),
    "tokenizer_config": ("pretraining", "tokenizer fertility and a 1B proxy run"),
    "loss_spike": ("pretraining", "loss and gradient-norm alerts on the dashboard"),
    "hardware": ("infra", "burn-in tests and node health checks"),
    "eval_gap": ("evals", "product evals built before training, checked each round"),
    "safety": ("safety_legal", "red-team review of each post-training round"),
    "budget": ("leadership", "weekly burn against the forecast"),
    "staffing": ("leadership", "bus factor per workstream reviewed monthly"),
}
CHALLENGES = [
    ("data", "Noisy, duplicated web data", "data_quality", ["quality", "cost"], "prepare"),
    ("sizing", "Tokenizer mistakes baked in", "tokenizer_config", ["quality", "schedule"],
     "ablations"),
    ("cluster", "GPU failures interrupt the run", "hardware", ["schedule", "cost"], "training"),
    ("stability", "Loss spikes mid-run", "loss_spike", ["schedule", "cost"], "training"),
    ("post_training", "Tuning toward the wrong target", "eval_gap", ["quality"], "prepare"),
    ("evaluation", "Contaminated benchmarks flatter the model", "contamination", ["quality"],
     "ablations"),
    ("safety_legal", "Release-blocking safety findings", "safety", ["schedule"], "prepare"),
]  # fmt: skip


def _followups() -> list[FollowupResult]:
    def decision(kind: str, owner: str, options: list[str], choice: str) -> FollowupDecision:
        return FollowupDecision(
            kind=kind,  # type: ignore[arg-type]
            day=60.0,
            owner=owner,
            latency_days=0.1,
            options=options,
            choice=choice,
        )

    common: dict[str, Any] = {
        "seed": 1,
        "schedule_days": 150.0,
        "cost_usd": 6e6,
        "quality": 0.7,
        "on_time": True,
        "on_budget": True,
        "success": True,
    }
    return [
        FollowupResult(
            id="loss_spike",
            decisions=[decision("rollback", "pretraining", ["rollback_skip", "continue"],
                                "rollback_skip")],
            **common,
        ),
        FollowupResult(
            id="budget_cut",
            decisions=[decision("budget", "leadership", ["use_reserve", "accept_overrun"],
                                "use_reserve")],
            quality_given_up=0.01,
            **common,
        ),
        FollowupResult(
            id="benchmarks_vs_product",
            decisions=[decision("ship", "product", ["extra_round", "ship"], "extra_round")],
            situation={"ifeval": 0.8, "support_tickets": 0.62},
            shipped_with_gap=False,
            **common,
        ),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def complete() -> InterviewPlan:
    """A plan a strong candidate could have built: every rubric item is there."""
    plan = InterviewPlan(
        candidate="test",
        challenges=[
            Challenge(
                stage=stage,  # type: ignore[arg-type]
                title=title,
                risk=risk,  # type: ignore[arg-type]
                hits=hits,  # type: ignore[arg-type]
                consequence="costs weeks of compute when found after the run",
                earliest_signal=signal,  # type: ignore[arg-type]
            )
            for stage, title, risk, hits, signal in CHALLENGES
        ],
        late_discovery=(
            "A defect found after weeks of training means the compute already spent is thrown "
            "away and the run must be continued or repeated, while the same defect found in a "
            "small ablation costs days."
        ),
        objective=ObjectivePlan(product_use="customer-support assistant for a software company"),
        strategy="pretrain",
        strategy_reason=(
            "No open base model has the licence terms and the support knowledge we need, so "
            "we pretrain."
        ),
        risks={r: RiskPlan(owner=o, early_warning=w) for r, (o, w) in OWNERS.items()},
        decision_rights={
            "rollback": "pretraining",
            "data_fix": "pretraining",
            "budget": "leadership",
            "ship": "product",
            "schedule": "leadership",
        },
        gates=[
            GatePlan(
                id="data_review",
                after="prepare",
                catches=["data_quality", "licensing"],
                experiment="sample audit, dedup and licence review",
            ),
            GatePlan(
                id="ablation_gate",
                after="ablations",
                catches=["data_quality", "tokenizer_config", "contamination"],
                experiment="1B proxy runs and scaling-law fits",
                strength=0.9,
            ),
            GatePlan(
                id="release_eval",
                after="evaluation",
                catches=["data_quality", "contamination"],
                strength=0.8,
            ),
        ],  # fmt: skip
        budget=BudgetPlan(
            people_usd=5_400_000,
            data_licensing_usd=250_000,
            annotation_usd=400_000,
            reserve_fraction=0.10,
            tracking="weekly burn review against the forecast, by category",
        ),
        levers=LeverPlan(
            ablation_fraction=0.10,
            product_evals_early=True,
            decontaminate=True,
            safety_from_start=True,
            engineering_embedded=True,
            playbook={
                "rollback": ["rollback_skip"],
                "data_fix": ["fix_and_continue"],
                "budget": ["use_reserve", "cut_ablations", "fewer_post_training_rounds"],
                "ship": ["extra_round", "ship"],
                "schedule": ["cut_post_training_rounds", "accept_slip"],
            },
        ),
        roles=RolesPlan(
            product_manager="owns the objective, the trade-offs and the ship call",
            research="owns the data mix, architecture and training recipe",
            engineering="owns the cluster, the pipeline and checkpoints",
            program_management="owns the plan, dependencies and the weekly risk review",
        ),
        tradeoffs=[
            TradeOff(
                protect="quality",
                give_up="schedule",
                text="slip two weeks before we ship below the product bar",
            ),
            TradeOff(protect="schedule", give_up="cost", text="spend the reserve to keep the date"),
        ],  # fmt: skip
        followups=_followups(),
    )
    budget = plan.budget.model_copy(update={"compute_usd": model_compute_usd(plan)})
    return plan.model_copy(update={"budget": budget})


def _statuses(plan: InterviewPlan) -> dict[str, str]:
    return {i.id: i.status for i in judge(plan).items}


def test_a_complete_plan_meets_every_item(complete: InterviewPlan) -> None:
    report = judge(complete)
    unmet = {i.id: i.evidence for i in report.items if i.status != "met"}
    assert not unmet
    assert report.score == 1.0
    assert {i.id for i in report.items} == {spec.id for spec in ITEMS}


def test_removing_one_owner_loses_exactly_the_owners_item(complete: InterviewPlan) -> None:
    risks = dict(complete.risks)
    risks["licensing"] = RiskPlan(owner=None)
    risks["eval_gap"] = RiskPlan(owner=None)
    one = dict(complete.risks)
    one["eval_gap"] = RiskPlan(owner=None)
    before = _statuses(complete)
    after = _statuses(complete.model_copy(update={"risks": one}))
    assert {k for k in before if before[k] != after[k]} == {"owners"}
    two = judge(complete.model_copy(update={"risks": risks})).item("owners")
    assert "2 of 10 risks have no owner: licensing, eval_gap" in two.evidence
    assert two.status == "partly"


def test_removing_the_reserve_loses_exactly_the_budget_item(complete: InterviewPlan) -> None:
    no_reserve = complete.budget.model_copy(update={"reserve_fraction": 0.0})
    before = _statuses(complete)
    after = _statuses(complete.model_copy(update={"budget": no_reserve}))
    assert {k for k in before if before[k] != after[k]} == {"budget"}
    item = judge(complete.model_copy(update={"budget": no_reserve})).item("budget")
    assert any("Reserve: 0%" in e for e in item.evidence)


def test_an_empty_plan_misses_and_follow_ups_wait_to_be_played() -> None:
    report = judge(InterviewPlan())
    assert report.item("owners").status == "missed"
    assert report.item("breadth").status == "missed"
    assert {report.item(i).status for i in ("followup_spike", "followup_ship")} == {"not_played"}
    assert report.score < 0.2


def test_shipping_on_inflated_benchmarks_is_missed(complete: InterviewPlan) -> None:
    shipped = complete.followups[2].model_copy(update={"shipped_with_gap": True})
    plan = complete.with_followup(shipped)
    assert judge(plan).item("followup_ship").status == "missed"


def test_the_plan_becomes_a_scenario_with_its_owners_and_levers(complete: InterviewPlan) -> None:
    design = plan_scenario(complete)
    assert design.org.risk_owners["licensing"] == "safety_legal"
    assert design.levers.reserve_fraction == pytest.approx(0.10)
    assert [g.id for g in design.plan.gates] == ["data_review", "ablation_gate", "release_eval"]
    unowned = plan_scenario(InterviewPlan())
    assert all(unowned.org.risk_owners[r] is None for r in RISK_KINDS)


def test_markdown_has_the_answer_and_every_verdict(complete: InterviewPlan) -> None:
    text = session_markdown(complete, judge(complete))
    assert text.startswith("# Interview practice")
    assert "Rubric score: 100%" in text
    assert "| licensing | safety_legal |" in text
    assert text.count("met.**") == len(ITEMS)


# --- the command --------------------------------------------------------------------------


def _run(*args: str | Path) -> Any:
    result = runner.invoke(app, ["rubric", *(str(a) for a in args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_cli_json_reports_every_item_and_the_outcome(complete: InterviewPlan, tmp_path) -> None:
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(complete), encoding="utf-8")
    result = _run(path, "--json", "--reps", "4")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == 1.0
    assert len(data["items"]) == len(ITEMS)
    assert {"Your design", "The scenario's own plan"} <= set(data["outcome"])
    assert 0.0 <= data["outcome"]["Your design"]["p_success"] <= 1.0
    table = _run(path, "--reps", "0")
    assert table.exit_code == 0
    assert "Rubric: score 100%" in table.stdout


BAD_PLANS = [
    ('{"risks": {\n  "licensing": {"owner": "lawyers"}\n}}', 2, "risks.licensing.owner",
     "unknown team 'lawyers'"),
    ('{\n  "budget": {\n    "reserve_fraction": 0.9\n  }\n}', 3, "budget.reserve_fraction",
     "less than or equal to 0.5"),
    ('{\n  "clarifications": {"strategy": "maybe"}\n}', 2, "clarifications.strategy",
     "unknown choice 'maybe'"),
    ('{\n  "risks": {"weather": {}}\n}', 2, "risks.weather", "Input should be"),
    ('{\n  "levers": {\n\t"playbook": {"budget": ["pray"]}\n  }\n}', 3, "levers.playbook.budget.0",
     "unknown option 'pray'"),
    ('{"format": "trainingroom-interview-plan/1",\n  "base": 3', 2, "(document)",
     "not valid JSON"),
    ("[1, 2]", 1, "(document)", "a plan must be a JSON object"),
    ('{"clarifications": {"objectives": "mine"},\n "objective": {"targets": [\n'
     '  {"capability": "reasoning", "eval": "ifeval", "threshold": 0.5}]}}', 3,
     "objective.targets.0.eval", "measures 'instruction_following'"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "path", "reason"), BAD_PLANS)
def test_cli_bad_plan_exits_2_with_file_line_field_reason(
    tmp_path, text: str, line: int, path: str, reason: str
) -> None:
    plan = tmp_path / "PLAN.json"
    plan.write_text(text, encoding="utf-8")
    result = _run(plan, "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    m = PROBLEM_LINE.match(first)
    assert m, first
    assert (m["file"], int(m["line"]), m["path"]) == (str(plan), line, path)
    assert reason in m["reason"]
    assert "Traceback" not in result.stderr


def test_cli_missing_file_exits_2(tmp_path) -> None:
    result = _run(tmp_path / "nope.json")
    assert result.exit_code == 2
    assert result.stderr.strip() == f"{tmp_path / 'nope.json'}:1: (document): no such file"


def test_parse_plan_round_trips(complete: InterviewPlan) -> None:
    assert parse_plan(plan_json(complete)) == complete
    with pytest.raises(PlanError):
        parse_plan('{"teams": {"marketing": {"headcount": 3}}}')
