"""The interview rubric against hand-written plans of known quality, and ``python -m sim rubric``.

The plans in tests/interview_plans.py must come out in their known order; filler and
shuffled texts never earn a content item (property tests); a value the org-chart button
filled earns nothing until changed or confirmed; follow-ups count only the candidate's
calls; the ship call is judged on the gap, the noise and the trade-off; the simulation's
verdict is an item. PLAN.json problems print ``FILE:LINE: field: reason`` and exit 2, and
a format-1 PLAN.json still loads.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sim.cli import app
from sim.interview import verdicts as vd
from sim.interview.content import SIBLING_KINDS, read_texts, slots, with_texts
from sim.interview.items import Answer
from sim.interview.markdown import session_markdown
from sim.interview.plan import (
    PLAN_FORMAT,
    Alternative,
    FollowupResult,
    InterviewPlan,
    PlanError,
    RiskPlan,
    TradeOff,
    parse_plan,
    plan_json,
    plan_scenario,
)
from sim.interview.replays import Replays
from sim.interview.risks import compare_designs
from sim.interview.rubric import ITEMS, RubricReport, _status, judge, model_compute_usd
from sim.scenario.spec import RISK_KINDS
from tests import interview_plans as plans

runner = CliRunner()
PROBLEM_LINE = re.compile(r"^(?P<file>.+):(?P<line>\d+): (?P<path>\S+): (?P<reason>.+)$")
CONTENT_ITEMS = {s.id for s in ITEMS if s.content}


def _statuses(plan: InterviewPlan) -> dict[str, str]:
    return {i.id: i.status for i in judge(plan).items}


def _content_earned(report: RubricReport) -> list[str]:
    """Content items met or partly met, and content checks passed anywhere."""
    items = [i.id for i in report.items if i.id in CONTENT_ITEMS and i.status != "missed"]
    checks = [f"{i.id}:{c.name}" for i in report.items for c in i.checks
              if c.kind == "content" and c.passed]  # fmt: skip
    return items + checks


# --- plans of known quality --------------------------------------------------------------


@pytest.fixture(scope="module")
def reports() -> dict[str, RubricReport]:
    return {name: judge(make()) for name, make in plans.PLANS.items()}


@pytest.fixture(scope="module")
def simulated() -> dict[str, RubricReport]:
    """The same plans judged with the simulation's verdict (12 common worlds each)."""
    out = {}
    for name, make in plans.PLANS.items():
        plan = make()
        out[name] = judge(plan, compare_designs(plan, reps=12, seed=3))
    return out


@pytest.mark.parametrize("which", ["reports", "simulated"])
def test_plans_of_known_quality_come_out_in_order(which: str, request) -> None:
    scores = {k: r.score for k, r in request.getfixturevalue(which).items()}
    ranked = [scores[k] for k in plans.ORDER]
    assert ranked == sorted(ranked, reverse=True) and len(set(ranked)) == len(ranked), scores
    assert scores["misplaced"] < scores["mediocre"], scores
    assert scores["strong"] - scores["misplaced"] > 0.4, scores
    assert scores["button_only"] < 0.1, scores


def test_the_strong_plan_meets_every_item(reports) -> None:
    unmet = {
        i.id: i.evidence for i in reports["strong"].items if i.status not in ("met", "not_run")
    }
    assert not unmet
    assert {i.id for i in reports["strong"].items} == {spec.id for spec in ITEMS}


@pytest.mark.parametrize("name", ["filler", "misplaced", "button_only"])
def test_filler_misplaced_and_button_earn_no_content(reports, name: str) -> None:
    assert _content_earned(reports[name]) == []


def test_every_verdict_shows_concepts_found_and_missing(reports) -> None:
    warnings = reports["misplaced"].item("owners").evidence
    assert any("missing: an overlap scan against the eval sets" in e for e in warnings)
    assert any(
        "reads as written about" in e for e in reports["misplaced"].item("consequences").evidence
    )
    strong = " ".join(reports["strong"].item("grounding").evidence)
    assert "compute already spent" in strong and "a restart or retrain" in strong


# --- property tests: filler and shuffled texts -------------------------------------------

FILLER_WORDS = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor the weather "
    "is nice today my cat likes sunny afternoons blue green purple banana guitar holiday "
    "garden coffee music river mountain happy quickly yesterday"
).split()
filler_text = st.lists(st.sampled_from(FILLER_WORDS), min_size=0, max_size=14).map(" ".join)
STRONG = plans.strong().model_copy(update={"followups": []})
SLOTS = {s.id: s for s in slots(STRONG)}
NAMES = list(SLOTS)


def _also_answers(home: str, to: str) -> bool:
    """Whether a text written for ``home`` could rightly answer ``to`` as well: the two ask
    for some of the same concepts, or are sibling kinds, and are not rivals in one family
    (a licence audit is an early warning and the experiment behind a licence gate alike)."""
    a, b = SLOTS[home], SLOTS[to]
    if a.family and a.family == b.family:
        return False
    if {a.kind, b.kind} in SIBLING_KINDS:
        return True
    return bool(set(a.requirement.concepts) & set(b.requirement.concepts))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(filler_text, min_size=len(NAMES), max_size=len(NAMES)))
def test_filler_never_earns_a_content_item(fill: list[str]) -> None:
    plan = with_texts(STRONG, dict(zip(NAMES, fill, strict=True)))
    assert _content_earned(judge(plan)) == []


@st.composite
def derangements(draw: Any, n: int) -> list[int]:
    """A permutation of range(n) that moves every index."""
    order = draw(st.permutations(range(n)))
    return [order[(order.index(i) + 1) % n] for i in range(n)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(derangements(len(NAMES)))
def test_shuffled_texts_never_earn_a_content_item(moved: list[int]) -> None:
    """Every text moved to another question: to the wrong risk, role, challenge or gate, or to
    a question of another kind. (A move where the text answers its new question too is
    left blank, so what is tested is that the wrong answer earns nothing.)"""
    texts = {
        NAMES[i]: "" if _also_answers(NAMES[j], NAMES[i]) else SLOTS[NAMES[j]].text
        for i, j in enumerate(moved)
    }
    assert _content_earned(judge(with_texts(STRONG, texts))) == []


def test_texts_moved_within_their_family_never_earn() -> None:
    """The misplaced plan moves every text to the wrong risk, role, challenge and trade-off."""
    verdicts = read_texts(plans.misplaced())
    assert not [s for s, v in verdicts.items() if v.met]


# --- credit only what the candidate did ----------------------------------------------------


def test_button_values_earn_nothing_until_changed_or_confirmed() -> None:
    button = plans.button_only()
    assert _statuses(button)["decision_rights"] == "missed"
    # Changing one owner makes that owner the candidate's; the rest stay the scenario's.
    changed = button.model_copy(update={"risks": {**button.risks, "budget": RiskPlan(
        owner="product", early_warning="weekly burn against the forecast")}})  # fmt: skip
    line = judge(changed).item("owners").evidence[0]
    assert line.startswith("1 of 10 risks have an owner you chose")
    # Confirming a section with a reason that says something makes it the candidate's.
    sure = button.model_copy(update={"confirmed": {
        "rights": "run calls sit with the core training team, money with leadership",
        "playbook": "lorem ipsum"}})  # fmt: skip
    report = judge(sure)
    assert report.item("decision_rights").evidence[0].startswith("Rights you named: rollback")
    assert any("the scenario's playbook" in e for e in report.item("decision_rights").evidence)


def test_a_followup_not_played_counts_as_not_done() -> None:
    strong = plans.strong()
    played = judge(strong)
    skipped = judge(strong.model_copy(update={"followups": strong.followups[:1]}))
    assert skipped.item("followup_ship").status == "not_played"
    assert skipped.score < played.score
    n = len([i for i in played.items if i.status != "not_run"])
    assert skipped.score == pytest.approx(played.score - 2 / n)


def test_calls_made_by_the_playbook_are_not_the_candidates() -> None:
    strong = plans.strong()
    item = judge(strong).item("followup_budget")
    assert item.status == "met"
    assert "You pulled: use reserve" in item.evidence
    assert any("Made by your playbook afterwards, not by you: fewer post training rounds" in e
               for e in item.evidence)  # fmt: skip
    cut = strong.followup("budget_cut")
    assert cut is not None
    auto = [d.model_copy(update={"by": "playbook"}) for d in cut.decisions]
    only_auto = strong.with_followup(cut.model_copy(update={"decisions": auto}))
    assert judge(only_auto).item("followup_budget").status == "not_played"
    md = session_markdown(strong, judge(strong))
    calls = "You chose **use the reserve**; your playbook then chose fewer post-training rounds"
    assert calls in md


def _ship(
    gap_score: float,
    choice: str,
    delta_days: float,
    delta_q: float,
    reason: str,
    success: bool = True,
    alt_success: bool = True,
) -> str:
    """The ship call's verdict on a given replay (the judging rule, not the replay)."""
    strong = plans.strong()
    f = strong.followup("benchmarks_vs_product")
    assert f is not None
    other = "ship" if choice != "ship" else "extra_round"
    alt = Alternative(choice=other, delta_schedule_days=delta_days, delta_cost_usd=0.0,
                      delta_quality=delta_q, success=alt_success)  # fmt: skip
    d = f.mine[0].model_copy(update={"choice": choice})
    given = f.model_copy(update={
        "decisions": [d], "alternatives": [alt], "rationale": reason, "success": success,
        "situation": {"support_tickets": gap_score, "ifeval": 0.8},
        "targets": {"support_tickets": 0.70, "ifeval": 0.70},
        "eval_noise": {"support_tickets": 0.023}})  # fmt: skip
    answer = Answer(strong, replays=Replays({"benchmarks_vs_product": given}))
    j = vd.followup_ship(answer)
    spec = next(s for s in ITEMS if s.id == "followup_ship")
    evidence = [e for c in j.checks for e in c.evidence] + list(j.note)
    return _status(spec, j) + "|" + " ".join(evidence)


WITHIN_NOISE = "The gap is 0.006, inside the noise of a 400-item eval; waiting costs 15 days."


def test_ship_is_judged_on_the_gap_the_noise_and_the_trade_off() -> None:
    # 0.694 against 0.70 on a 400-item eval: within the noise; holding cost 15 days for 0.006.
    assert _ship(0.694, "ship", 15.0, 0.006, WITHIN_NOISE).startswith("met|")
    hold_noise = _ship(0.694, "extra_round", -15.0, -0.006, WITHIN_NOISE)
    assert hold_noise.startswith("partly|") and "Waiting bought little" in hold_noise
    # A real gap (0.62 against 0.70, 3.5 sd): shipping is the wrong call, holding the right one.
    real = "Support tickets are 0.08 below target, beyond the eval noise; a round costs 2 weeks."
    assert _ship(0.62, "ship", 14.0, 0.03, real, success=False).startswith("missed|")
    assert _ship(0.62, "extra_round", -14.0, -0.03, real, alt_success=False).startswith("met|")


def test_the_strong_plans_ship_call_is_judged_on_its_replayed_world() -> None:
    """Within the noise, and shipping 12 days sooner for almost no quality: ship is sound."""
    item = judge(plans.strong()).item("followup_ship")
    assert item.status == "met", item.evidence
    held = plans.strong()
    f = held.followup("benchmarks_vs_product")
    assert f is not None
    hold = f.model_copy(update={"decisions": [f.mine[0].model_copy(
        update={"choice": "extra_round"})]})  # fmt: skip
    item = judge(held.with_followup(hold)).item("followup_ship")
    assert item.status == "partly" and any("Waiting bought little" in e for e in item.evidence)


# --- coherence checks ----------------------------------------------------------------------


def test_coherence_checks_take_credit_away() -> None:
    strong = plans.strong()
    same = strong.model_copy(
        update={
            "tradeoffs": [
                TradeOff(
                    protect="quality",
                    give_up="quality",
                    text="protect quality by giving up quality",
                )
            ]
        }
    )
    assert any("protects and gives up the same thing" in e
               for e in judge(same).item("tradeoffs").evidence)  # fmt: skip
    weak_gates = [g.model_copy(update={"strength": 0.1}) for g in strong.gates]
    gates = judge(strong.model_copy(update={"gates": weak_gates})).item("gates")
    assert gates.status != "met" and any("catches almost nothing" in e for e in gates.evidence)
    hoard = strong.budget.model_copy(update={"reserve_fraction": 0.45})
    budget = judge(strong.model_copy(update={"budget": hoard})).item("budget")
    assert budget.status == "partly" and any(
        "outside a sensible 5%-25%" in e for e in budget.evidence
    )
    wrong = {**strong.levers.playbook, "rollback": ["overreact", "rollback_skip"]}
    rights = judge(strong.model_copy(update={"levers": strong.levers.model_copy(
        update={"playbook": wrong})})).item("decision_rights")  # fmt: skip
    assert rights.status == "partly" and any("wrong first response" in e for e in rights.evidence)
    one = "loss and gradient-norm alerts on the training dashboard"
    copies = with_texts(strong, {f"warning.{r}": one for r in RISK_KINDS})
    verdicts = read_texts(copies)
    assert [r for r in RISK_KINDS if verdicts[f"warning.{r}"].met] == ["loss_spike"]
    assert "repeats Early warning for loss_spike" in verdicts["warning.hardware"].problem


def test_a_copied_compute_estimate_is_flagged() -> None:
    strong = plans.strong()
    exact = model_compute_usd(strong)
    copied = strong.model_copy(update={"budget": strong.budget.model_copy(
        update={"compute_usd": round(exact)})})  # fmt: skip
    item = judge(copied).item("budget")
    assert item.status == "partly" and any("the model's own figure" in e for e in item.evidence)
    shown = judge(strong, revealed_estimates=[strong.budget.compute_usd]).item("budget")
    assert any("an earlier debrief showed" in e for e in shown.evidence)
    assert judge(strong).item("budget").status == "met"  # a round figure near it is estimated


def test_the_model_estimate_is_shown_only_after_the_attempt_is_judged() -> None:
    strong = plans.strong()
    figure = f"${model_compute_usd(strong):,.0f}"
    before = judge(strong)
    assert figure not in " ".join(before.item("budget").evidence)
    assert figure not in session_markdown(strong, before)
    assert "Model answers are added once the attempt is handed in" in session_markdown(
        strong, before
    )
    after = judge(strong, reveal=True)
    assert figure in " ".join(after.item("budget").evidence)
    md = session_markdown(strong, after)
    assert "Model answer for this project" in md and "6 × N × D" in md
    assert after.to_dict()["model_compute_usd"] == pytest.approx(model_compute_usd(strong))
    assert "model_compute_usd" not in before.to_dict()


def test_a_judged_at_added_to_a_file_unlocks_no_figure() -> None:
    strong = plans.strong()
    figure = f"${model_compute_usd(strong):,.0f}"
    forged = strong.model_copy(update={"judged_at": "2026-01-01T09:00:00+00:00"})
    report = judge(forged)
    assert not report.revealed and "model_compute_usd" not in report.to_dict()
    assert figure not in " ".join(e for i in report.items for e in i.evidence)
    assert figure not in session_markdown(forged, report)
    assert report.score == judge(strong).score


def test_the_simulation_item_scores_the_design_against_the_reference(simulated) -> None:
    assert simulated["strong"].item("outcome").status == "met"
    assert simulated["button_only"].item("outcome").status == "missed"
    assert any("nothing of yours" in e for e in simulated["button_only"].item("outcome").evidence)
    assert simulated["filler"].item("outcome").status in ("partly", "missed")
    assert judge(plans.strong()).item("outcome").status == "not_run"


def test_the_plan_becomes_a_scenario_with_its_owners_and_levers() -> None:
    design = plan_scenario(plans.strong())
    assert design.org.risk_owners["licensing"] == "safety_legal"
    assert design.levers.reserve_fraction == pytest.approx(0.12)
    assert [g.id for g in design.plan.gates] == ["data_review", "ablation_gate"]
    unowned = plan_scenario(InterviewPlan())
    assert all(unowned.org.risk_owners[r] is None for r in RISK_KINDS)


def test_markdown_has_the_answer_and_every_verdict(reports) -> None:
    strong = plans.strong()
    text = session_markdown(strong, reports["strong"])
    assert text.startswith("# Interview practice")
    assert "| licensing | safety_legal |" in text
    assert text.count("met.**") + text.count("not run.**") == len(ITEMS)


# --- PLAN.json formats -------------------------------------------------------------------------

V1_PLAN = {
    "format": "trainingroom-interview-plan/1",
    "candidate": "Sam",
    "risks": {"loss_spike": {"owner": "pretraining", "early_warning": "loss alerts"}},
    "followups": [{"id": "loss_spike", "seed": 1, "schedule_days": 150.0, "cost_usd": 6e6,
                   "quality": 0.7, "on_time": True, "on_budget": True, "success": True,
                   "decisions": [{"kind": "rollback", "day": 60.0, "owner": "pretraining",
                                  "latency_days": 0.1, "options": ["rollback_skip", "continue"],
                                  "choice": "rollback_skip"}]}],
}  # fmt: skip


def test_a_format_1_plan_still_loads_and_saves_as_format_2() -> None:
    plan = parse_plan(json.dumps(V1_PLAN, indent=2))
    assert plan.format == PLAN_FORMAT
    assert plan.owner("loss_spike") == "pretraining"
    f = plan.followup("loss_spike")
    assert isinstance(f, FollowupResult) and f.mine and f.mine[0].choice == "rollback_skip"
    assert plan.scenario_filled == [] and json.loads(plan_json(plan))["format"] == PLAN_FORMAT
    with pytest.raises(PlanError) as err:
        parse_plan('{\n  "format": "trainingroom-interview-plan/9"\n}')
    assert str(err.value.problems[0]).startswith("PLAN.json:2: format: unknown plan format")


def test_the_docs_example_plan_file_loads(tmp_path) -> None:
    """The PLAN.json a format-1 app saved (docs/interview.md's example) still judges."""
    path = Path(__file__).parent / "data" / "plan_v1.json"
    plan = parse_plan(path.read_text(encoding="utf-8"), str(path))
    assert plan.candidate == "Sam" and len(plan.challenges) == 4
    assert judge(plan).item("followup_spike").status == "met"


# --- the command --------------------------------------------------------------------------


def _run(*args: str | Path) -> Any:
    result = runner.invoke(app, ["rubric", *(str(a) for a in args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_cli_json_reports_every_item_and_the_outcome(tmp_path) -> None:
    complete = plans.strong()
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(complete), encoding="utf-8")
    result = _run(path, "--json", "--reps", "4")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["score"] == pytest.approx(judge(complete, data["outcome"]).score)
    assert data["score"] > 0.9
    assert len(data["items"]) == len(ITEMS)
    assert {"Your design", "The scenario's own plan"} <= set(data["outcome"])
    assert 0.0 <= data["outcome"]["Your design"]["p_success"] <= 1.0
    table = _run(path, "--reps", "0")
    assert table.exit_code == 0
    assert "Rubric: score 100%" in table.stdout  # the simulation item is left out at --reps 0


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


def test_parse_plan_round_trips() -> None:
    complete = plans.strong()
    assert parse_plan(plan_json(complete)) == complete
    with pytest.raises(PlanError):
        parse_plan('{"teams": {"marketing": {"headcount": 3}}}')
