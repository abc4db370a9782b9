"""Direction tests: every lesson of DESIGN.md's table, proven on common random numbers.

Each test runs two (or more) designs through the same replications (same seed, so
replication k sees the same failures, spikes, defects and staffing under both) and
asserts the direction on a paired 95% interval, not on one lucky run. Replication
counts are stated per test. Tests of the scope, money and compute lessons report the
tokens trained and post-training rounds of both arms (``same_scope``) and fail when a
scope cut made to fit the budget, not the mechanism they name, could give the direction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from sim.intervals import paired_difference
from sim.runner import run_replications
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario
from tests.mechanisms import same_scope

ROOT = Path(__file__).resolve().parent.parent
SEED = 2026


def scenario(name: str) -> Scenario:
    return load_scenario(ROOT / "scenarios" / f"{name}.yaml")


def runs(base: Scenario, reps: int, policy: str = "playbook", **overrides: Any) -> pd.DataFrame:
    s = with_overrides(base, {k.replace("__", "."): v for k, v in overrides.items()})
    return run_replications(s, reps, SEED, policy=policy)


def higher(b: pd.Series, a: pd.Series) -> dict[str, float]:
    """Paired B - A; asserts the whole 95% interval is above zero."""
    d = paired_difference(a.astype(float), b.astype(float))
    assert d["low"] > 0, (
        f"expected B > A, got mean {d['mean']:.4g} [{d['low']:.4g}, {d['high']:.4g}]"
    )
    return d


def column(df: pd.DataFrame, name: str) -> pd.Series:
    """An incident count column; zero where no replication had that incident."""
    return df[name] if name in df else pd.Series(0, index=df.index)


def spread(x: pd.Series) -> float:
    return float(np.percentile(x, 90) - np.percentile(x, 10))


def target_quality(df: pd.DataFrame) -> pd.Series:
    cols = [c for c in df.columns if c.startswith("score:")]
    return df[cols].mean(axis=1)


@pytest.fixture(scope="module")
def base7b() -> Scenario:
    return scenario("assistant_7b")


#: A people line no arm runs out of: no scope is cut to fit the budget (equal scope).
RICH = {"objective.budget.people_usd": 20_000_000}
#: A budget no arm of any scenario runs out of, and no deadline that cuts rounds.
UNBOUNDED = {"objective.budget.people_usd": 1e10, "objective.deadline_days": 5_000}


# --- late discovery, ablations, ownership -------------------------------------------------------

RETRAIN = "a fix that lands after the run started trains back the spoiled share (retraining share)"


ONE_DATA_DEFECT = [
    {"kind": "data_quality", "probability": 1.0, "quality_penalty": 0.2, "fix_person_days": 30}
]


def test_defect_caught_at_ablation_gate_costs_far_less_than_mid_run(base7b: Scenario) -> None:
    # 300 replications; the same defect is present in every one of them.
    s = with_overrides(
        base7b,
        {
            **RICH,
            "incidents.defects": ONE_DATA_DEFECT,
            "levers.playbook.data_fix": ["fix_and_restart"],
        },
    )
    gates = [g.model_dump() for g in s.plan.gates]
    # The gates as shipped (0.9 at the ablation gate): a review's strength costs its teams'
    # time, so a certain gate would spend more on the review than the lesson is about.
    with_gate = runs(s, 300, plan__gates=gates)
    no_gate = runs(s, 300, plan__gates=[g for g in gates if g["id"] != "ablation_gate"])
    same_scope(with_gate, no_gate, RETRAIN)
    higher(no_gate["cost_usd"], with_gate["cost_usd"])
    higher(no_gate["schedule_days"], with_gate["schedule_days"])
    higher(no_gate["cost_compute_usd"], with_gate["cost_compute_usd"])


def test_fix_cost_grows_with_how_far_the_run_has_gone(base7b: Scenario) -> None:
    # 150 replications per point: the same injected defect at 10%, 50% and 90% of the run.
    s = with_overrides(
        base7b,
        {**RICH, "levers.playbook.data_fix": ["fix_and_restart"], "incidents.defects": []},
    )
    arms = []
    for progress in (0.1, 0.5, 0.9):
        inject = [{"kind": "data_defect", "run_progress": progress, "defect": "data_quality"}]
        arms.append(runs(s, 150, incidents__scripted=inject))
    same_scope(arms[0], arms[2])
    higher(arms[1]["cost_compute_usd"], arms[0]["cost_compute_usd"])
    higher(arms[2]["cost_compute_usd"], arms[1]["cost_compute_usd"])


def test_more_ablation_budget_lowers_p90_cost_and_spread_up_to_a_point(base7b: Scenario) -> None:
    # 200 replications per level; a found defect mid-run means a restart. Every plan is funded
    # in full, so no arm trims its scope: the cost of ablations shows as cost.
    s = with_overrides(base7b, {**RICH, "levers.playbook.data_fix": ["fix_and_restart"]})
    none, some, lots = (runs(s, 200, levers__ablation_fraction=f) for f in (0.0, 0.1, 0.5))
    same_scope(none, some, RETRAIN)
    same_scope(some, lots, RETRAIN)
    assert np.percentile(some["cost_usd"], 90) < np.percentile(none["cost_usd"], 90)
    assert spread(some["cost_usd"]) < spread(none["cost_usd"])
    assert spread(some["loss"]) < spread(none["loss"])
    # Past the point, ablations cost more compute than the late restarts they prevent.
    higher(lots["cost_compute_usd"], some["cost_compute_usd"])


def test_ablations_tune_the_recipe_the_run_trains(base7b: Scenario) -> None:
    # Same worlds, every plan funded: the run with 10% ablations trains a better-tuned
    # recipe (lower loss on average, not only a narrower spread), on two seeds. The recipe
    # term itself is Step Law's: 0.95% of the loss untuned, 0.08% after 10% ablations.
    from sim.engine.quality import UNTUNED_RECIPE_EXCESS, recipe_excess

    assert recipe_excess(0.0) == UNTUNED_RECIPE_EXCESS
    assert recipe_excess(0.1) == pytest.approx(0.0095 * np.exp(-2.5))
    s = with_overrides(base7b, UNBOUNDED)
    for seed in (SEED, 7):
        none = run_replications(with_overrides(s, {"levers.ablation_fraction": 0.0}), 150, seed)
        some = run_replications(s, 150, seed)
        same_scope(none, some, RETRAIN)
        higher(none["loss"], some["loss"])
        higher(target_quality(some), target_quality(none))


# --- the run -----------------------------------------------------------------------------------


def test_effective_training_time_peaks_at_an_interior_checkpoint_interval() -> None:
    # 40 replications per interval on 16,384 GPUs (hundreds of interruptions each).
    s = with_overrides(
        scenario("frontier_405b"), {**UNBOUNDED, "incidents.loss_spikes.enabled": False}
    )
    arms = {m: runs(s, 40, levers__checkpoint_minutes=m) for m in (1, 13, 240)}
    same_scope(arms[1], arms[240])
    ett = {m: df["run_effective_training_time"].mean() for m, df in arms.items()}
    assert ett[13] > ett[1] and ett[13] > ett[240], ett


def test_overreacting_to_spikes_costs_more_on_average() -> None:
    # 300 replications of the loss-spike follow-up; only the spike response differs. Most
    # spikes are curable by a rollback: a recipe change ("overreact") costs days and tokens.
    s = with_overrides(scenario("followup_loss_spike"), RICH)
    calm = runs(s, 300, levers__playbook__rollback=["rollback_skip"])
    over = runs(s, 300, levers__playbook__rollback=["overreact"])
    same_scope(calm, over)
    higher(over["cost_compute_usd"], calm["cost_compute_usd"])
    higher(over["run_wall_days"], calm["run_wall_days"])
    higher(over["run_lost_gpu_hours"], calm["run_lost_gpu_hours"])


def test_expect_failed_runs_at_frontier_scale() -> None:
    # 150 replications: recipe-bound instabilities that rollbacks do not cure force recipe
    # changes, and some runs fail outright (abandoned, restarted from scratch).
    frontier = runs(scenario("frontier_405b"), 150)
    failed = (frontier["run_failed_runs"] > 0).mean()
    assert 0.01 <= failed <= 0.25, failed
    assert frontier["run_recipe_changes"].mean() > 0.5
    # Each failed run costs its progress: those worlds train longer and cost more.
    hit = frontier[frontier["run_failed_runs"] > 0]
    assert hit["run_wall_days"].mean() > frontier["run_wall_days"].mean()


# --- budget ------------------------------------------------------------------------------------


def test_reserve_lowers_the_chance_of_going_over_budget(base7b: Scenario) -> None:
    # 400 replications.
    without, with_reserve = (runs(base7b, 400, levers__reserve_fraction=r) for r in (0.0, 0.15))
    same_scope(
        without, with_reserve, why="a reserve is money the plan does not spend: its scope is cut"
    )
    higher(with_reserve["on_budget"], without["on_budget"])


# --- strategy and evaluation --------------------------------------------------------------------


def test_adapting_wins_on_time_and_cost_and_loses_where_the_cap_binds(base7b: Scenario) -> None:
    # 300 replications. The adapted model's ceiling is the open 8B base model's own: its size
    # and 15T tokens through the scaling law and each capability's logistic, with public text
    # teaching the company's support knowledge at 7% of in-domain tokens (no cap of its own).
    # Both ship at the first eval (no extra rounds), so the comparison is of the paths.
    rich = with_overrides(base7b, RICH)
    build = runs(rich, 300, policy="aggressive")
    adapt = runs(rich, 300, policy="aggressive", levers__strategy="adapt")
    same_scope(build, adapt, why="adapting trains a few billion tokens on a base model")
    assert adapt["scope_cuts"].max() == 0 and build["scope_cuts"].max() == 0
    higher(build["schedule_days"], adapt["schedule_days"])
    higher(build["cost_usd"], adapt["cost_usd"])
    higher(build["true:support_tickets"], adapt["true:support_tickets"])
    # General capabilities: the base model's 15T tokens beat the build's 4T.
    higher(adapt["true:ifeval"], build["true:ifeval"])
    # The ceiling is a mechanism, not a constant: a bigger base model (same tokens) and more
    # adaptation tokens on the domain each lift the support knowledge an adapted model reaches.
    bigger = runs(rich, 300, policy="aggressive", levers__strategy="adapt",
                  model__base_model__params_b=34)  # fmt: skip
    higher(bigger["true:support_tickets"], adapt["true:support_tickets"])
    longer = runs(rich, 300, policy="aggressive", levers__strategy="adapt",
                  model__adapt_tokens_b=400)  # fmt: skip
    higher(longer["true:support_tickets"], adapt["true:support_tickets"])


def test_over_indexing_raises_the_benchmark_not_the_product_score(base7b: Scenario) -> None:
    # 300 replications, shipping without extra rounds so quality comes only from the focus.
    balanced = runs(base7b, 300, policy="aggressive")
    single = runs(base7b, 300, policy="aggressive", levers__eval_focus="single")
    higher(single["score:ifeval"], balanced["score:ifeval"])
    for product in ("support_tickets", "support_reasoning"):
        higher(balanced[f"score:{product}"], single[f"score:{product}"])


def test_contamination_inflates_public_benchmarks_only(base7b: Scenario) -> None:
    # 200 replications.
    clean = runs(base7b, 200, policy="aggressive")
    dirty = runs(base7b, 200, policy="aggressive", levers__decontaminate=False)
    higher(dirty["score:gsm8k"], clean["score:gsm8k"])
    # Measured against what the product shows after release: leaked items inflate the
    # public benchmark, never a product eval. (Decontamination's days and the calls read
    # on the inflated benchmark may move the model itself: tests/test_contamination.py.)
    for arm in (clean, dirty):
        product = arm["score:support_reasoning"] - arm["release:support_reasoning"]
        assert product.abs().max() < 1e-9

    def leaked(arm: pd.DataFrame) -> pd.Series:
        return arm["score:gsm8k"] - arm["release:gsm8k"]

    higher(leaked(dirty), leaked(clean))


# --- the frontier (the organisation's lessons are in test_lessons_org.py) -------------------


def test_frontier_work_costs_several_times_more_with_wider_spreads(base7b: Scenario) -> None:
    # 300 replications per design, both funded without limit (equal scope): novelty raises
    # research effort, ablation needs and failed recipes, not only the spread.
    funded = with_overrides(base7b, UNBOUNDED)
    documented = runs(funded, 300, model__novelty=0.0)
    frontier = runs(funded, 300, model__novelty=1.0)
    same_scope(documented, frontier, why="novel work finds more defects late: fixes train on")
    assert documented["scope_cuts"].max() == 0 and frontier["scope_cuts"].max() == 0
    assert frontier["post_training_rounds"].mean() >= documented["post_training_rounds"].mean()
    assert frontier["cost_usd"].mean() > 3.0 * documented["cost_usd"].mean()
    higher(frontier["effort_person_days"], documented["effort_person_days"])
    assert spread(frontier["schedule_days"]) > 1.3 * spread(documented["schedule_days"])
    assert spread(frontier["cost_usd"]) > 1.3 * spread(documented["cost_usd"])
