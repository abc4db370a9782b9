"""The quick plan (issue 25, point 7): at most 30 inputs, the follow-ups' calls included, that
reach every rubric item; each input feeds what it says it feeds, and none is idle."""

from __future__ import annotations

from typing import Any

import pytest

from sim.interview.plan import InterviewPlan
from sim.interview.quick import FOLLOWUP_CALLS, PLAYED, PRACTICES, QUICK_INPUTS, quick_plan
from sim.interview.rubric import ITEMS, judge

GOOD: dict[str, Any] = {
    "challenge_data": "Noisy, duplicated web data: the model learns less and misses its "
    "quality target; first seen in the ablations.",
    "challenge_cluster": "GPU and node failures interrupt the run: lost work since the last "
    "checkpoint and days of delay; first seen during training.",
    "challenge_stability": "Loss spikes mid-run idle the cluster while nobody decides, which "
    "costs days and money; first seen during training.",
    "challenge_post_training": "Post-training tuned toward the wrong target gives a model "
    "customers find weak, so quality falls short; first seen in data preparation, when the "
    "product evals are written.",
    "challenge_evaluation": "Public benchmarks look better than the product really is, so we "
    "ship something weaker than it measures; first seen in data preparation.",
    "challenge_safety_legal": "A release-blocking safety finding at sign-off delays the launch "
    "by weeks; first seen in data preparation if safety is in from the start.",
    "late_discovery": "A defect found after weeks of the main run throws that compute away and "
    "forces a restart, and everything built on it downstream is redone.",
    "owners": "\n".join(
        [
            "The data team owns data quality and watches dedup rates.",
            "The evals team owns contamination and runs n-gram overlap scans.",
            "Legal owns licensing and runs a licence audit.",
            "The pretraining team owns tokenizer and config mistakes and runs tokenizer checks.",
            "The training lead owns loss spikes and watches loss and grad norm alerts.",
            "Infra owns the hardware and watches node health.",
            "The evals team owns the eval gap and watches product evals on real tickets.",
            "The safety team owns safety and runs red-team evals.",
            "I own the budget and watch burn against the forecast.",
            "Leadership owns staffing and tracks attrition and the bus factor.",
        ]
    ),  # fmt: skip
    "right_rollback": "pretraining",
    "right_data_fix": "pretraining",
    "right_budget": "leadership",
    "right_ship": "product",
    "right_schedule": "leadership",
    "gate_prepare": "Dedup and filter rates on sampled shards, an n-gram overlap scan against "
    "every eval set, and a licence audit.",
    "gate_ablations": "Small proxy runs catch tokenizer and config mistakes and data quality "
    "problems before the big run.",
    "ablation": 8,
    "reserve": 12,
    "compute_usd": 380_000,
    "budget_rest": "People $1.5M, data licensing $300k, annotation $250k.",
    "tracking": "Weekly burn against the forecast by category, owned by the TPM.",
    "playbook": "If the budget is cut, first use the reserve, then cut ablations, then run "
    "fewer post-training rounds. If the schedule slips, first cut post-training rounds, then "
    "add core staff, and only then accept the slip. On a loss spike we roll back to the last "
    "good checkpoint and skip the batches.",
    "practices": list(PRACTICES),
    "product_use": "Support agents use it to draft replies to customer tickets.",
    "roles": "\n".join(
        [
            "As PM I own the objective, the trade-offs and the ship call.",
            "Research owns the recipe: the data mix, the architecture and the experiments.",
            "Engineering owns the cluster, the pipeline and the checkpoints.",
            "The TPM owns the plan, the dependencies and the risk review.",
        ]
    ),  # fmt: skip
    "strategy": "pretrain",
    "strategy_reason": "Adapting an open base model would be cheaper, but it caps support "
    "knowledge below the target, so we pretrain from scratch.",
    "tradeoffs": "We protect quality rather than the schedule, up to two weeks of slip. We "
    "would rather spend the reserve than cut quality.",
}


def test_at_most_thirty_inputs_reach_every_item() -> None:
    assert len(QUICK_INPUTS) + FOLLOWUP_CALLS <= 30
    assert set(GOOD) == {q.id for q in QUICK_INPUTS}
    fed = {item for q in QUICK_INPUTS for item in q.items}
    assert fed | set(PLAYED) == {spec.id for spec in ITEMS}


@pytest.fixture(scope="module")
def good() -> Any:
    return judge(quick_plan(GOOD).plan)


def test_a_good_quick_plan_meets_every_item_it_feeds(good) -> None:
    missed = [(i.id, i.evidence) for i in good.items if i.id not in PLAYED and i.status != "met"]
    assert not missed
    assert good.stances["unsound"] == 0


def test_every_input_counts() -> None:
    """Leave one input empty and the items it feeds lose something: none is idle."""
    full = judge(quick_plan(GOOD).plan)
    for q in QUICK_INPUTS:
        without = judge(quick_plan({k: v for k, v in GOOD.items() if k != q.id}).plan)
        lost = [i for i in q.items
                if (without.item(i).status, len(without.item(i).claims))
                != (full.item(i).status, len(full.item(i).claims))]  # fmt: skip
        assert lost, q.id


def test_an_empty_quick_plan_is_an_empty_plan() -> None:
    built = quick_plan({}, InterviewPlan(candidate="ada"))
    assert built.plan == InterviewPlan(candidate="ada") and not built.readings
    assert judge(built.plan).stances == judge(InterviewPlan()).stances


def test_wrong_answers_in_the_quick_plan_are_judged_wrong() -> None:
    wrong = GOOD | {"reserve": 0, "practices": [], "right_rollback": "product"}
    report = judge(quick_plan(wrong).plan)
    assert report.stances["unsound"] >= 4  # no reserve, three practices refused, a far right
    assert report.grade < judge(quick_plan(GOOD).plan).grade


def _fill(at: Any) -> None:
    """Fill the page's quick plan with GOOD and press **Use this quick plan**."""
    for q in QUICK_INPUTS:
        value = GOOD[q.id]
        widget = {"text": at.text_input, "lines": at.text_area, "percent": at.number_input,
                  "usd": at.number_input, "team": at.selectbox, "choice": at.radio,
                  "practices": at.multiselect}[q.kind](key=f"iv_0_quick_{q.id}")  # fmt: skip
        widget.set_value(float(value) if q.kind in ("percent", "usd") else value)
    next(b for b in at.button if b.label == "Use this quick plan").click().run()


def test_the_page_builds_the_same_quick_plan(tmp_path, monkeypatch) -> None:
    from tests.apptest import open_page
    from ui.interview import common

    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    at = open_page("ui/interview/page.py")
    at.radio(key="iv_0_mode").set_value("quick").run()
    assert not at.exception
    _fill(at)
    assert not at.exception, [e.value for e in at.exception]
    shown = at.session_state[common.PLAN]
    assert shown == quick_plan(GOOD, InterviewPlan()).plan
    assert at.session_state[common.STEP] == 3  # on to the follow-ups


#: The page's input widgets, by kind.
WIDGETS = ("text_input", "text_area", "number_input", "selectbox", "radio", "multiselect")


def test_the_quick_path_asks_at_most_thirty_inputs_on_the_page(tmp_path, monkeypatch) -> None:
    """Counted on the page, not in the registry: the quick plan's input widgets, then one
    call per follow-up (the rest left to the playbook), reach every rubric item."""
    from tests.apptest import open_page
    from ui.interview import common

    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    at = open_page("ui/interview/page.py")
    at.radio(key="iv_0_mode").set_value("quick").run()
    assert not at.exception
    shown = [w.key for kind in WIDGETS for w in getattr(at, kind)
             if w.key and w.key.startswith("iv_0_quick_")]  # fmt: skip
    assert len(shown) == len(QUICK_INPUTS) == 27
    _fill(at)
    assert not at.exception, [e.value for e in at.exception]
    calls = 0
    for fid in ("loss_spike", "budget_cut", "benchmarks_vs_product"):
        at.button(key=f"iv_play_{fid}").click().run()
        decide = [b.key for b in at.button if b.key and b.key.startswith(f"iv_decide_{fid}_")]
        if not decide:
            continue  # the situation never arose on this design
        at.button(key=decide[0]).click().run()
        calls += 1
        if any(b.key == f"iv_rest_{fid}" for b in at.button):
            at.button(key=f"iv_rest_{fid}").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.session_state[common.PLAN].followup(fid) is not None
    assert calls == FOLLOWUP_CALLS and len(shown) + calls <= 30
    report = judge(at.session_state[common.PLAN])
    assert {i.id for i in report.items if i.status in ("met", "partly")} >= {
        i.id for i in report.items if i.id != "outcome" and i.status != "did_not_arise"
    } - {"followup_budget", "followup_ship"}
    assert all(report.item(f).status != "not_played" for f in
               ("followup_spike", "followup_budget", "followup_ship"))  # fmt: skip
