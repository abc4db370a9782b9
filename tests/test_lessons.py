"""Direction tests: every lesson of DESIGN.md's table, proven on common random numbers.

Each test runs two (or more) designs through the same replications (same seed, so
replication k sees the same failures, spikes, defects and staffing under both) and
asserts the direction on a paired 95% interval, not on one lucky run. Replication
counts are stated per test; all together the file runs in well under a minute.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from sim.compare.runner import run_replications
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario
from sim.stats import paired_difference

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


# --- late discovery, ablations, ownership -------------------------------------------------------

ONE_DATA_DEFECT = [
    {"kind": "data_quality", "probability": 1.0, "quality_penalty": 0.2, "fix_person_days": 30}
]


def test_defect_caught_at_ablation_gate_costs_far_less_than_mid_run(base7b: Scenario) -> None:
    # 300 replications; the same defect is present in every one of them.
    s = with_overrides(
        base7b,
        {"incidents.defects": ONE_DATA_DEFECT, "levers.playbook.data_fix": ["fix_and_restart"]},
    )
    gates = [g.model_dump() for g in s.plan.gates]
    with_gate = runs(s, 300, plan__gates=[{**g, "strength": 1.0} for g in gates])
    no_gate = runs(s, 300, plan__gates=[g for g in gates if g["id"] != "ablation_gate"])
    higher(no_gate["cost_usd"], with_gate["cost_usd"])
    higher(no_gate["schedule_days"], with_gate["schedule_days"])
    higher(no_gate["cost_compute_usd"], with_gate["cost_compute_usd"])


def test_fix_cost_grows_with_how_far_the_run_has_gone(base7b: Scenario) -> None:
    # 150 replications per point: the same injected defect at 10%, 50% and 90% of the run.
    s = with_overrides(
        base7b, {"levers.playbook.data_fix": ["fix_and_restart"], "incidents.defects": []}
    )
    costs = []
    for progress in (0.1, 0.5, 0.9):
        inject = [{"kind": "data_defect", "run_progress": progress, "defect": "data_quality"}]
        costs.append(runs(s, 150, incidents__scripted=inject)["cost_compute_usd"])
    higher(costs[1], costs[0])
    higher(costs[2], costs[1])


def test_more_ablation_budget_lowers_p90_cost_and_spread_up_to_a_point() -> None:
    # Frontier scale, 200 replications per level; a found defect mid-run means a restart.
    # The licensing risk is switched off: ablations cannot see a takedown (a legal review
    # can), and in the 10% of worlds where one strikes it alone sets the cost's P90.
    base = scenario("frontier_405b")
    licensing = [d.kind for d in base.incidents.defects].index("licensing")
    s = with_overrides(
        base,
        {
            "levers.playbook.data_fix": ["fix_and_restart"],
            f"incidents.defects.{licensing}.probability": 0.0,
        },
    )
    none, some, lots = (runs(s, 200, levers__ablation_fraction=f) for f in (0.0, 0.08, 0.5))
    assert np.percentile(some["cost_usd"], 90) < np.percentile(none["cost_usd"], 90)
    assert spread(some["cost_usd"]) < spread(none["cost_usd"])
    assert spread(some["loss"]) < spread(none["loss"])
    # Past the point, ablations eat into the run: the plan is trimmed to fit and quality drops.
    higher(lots["loss"], some["loss"])


# --- the run -----------------------------------------------------------------------------------


def test_effective_training_time_peaks_at_an_interior_checkpoint_interval() -> None:
    # 40 replications per interval on 16,384 GPUs (hundreds of interruptions each).
    s = with_overrides(scenario("frontier_405b"), {"incidents.loss_spikes.enabled": False})
    ett = {
        m: runs(s, 40, levers__checkpoint_minutes=m)["run_effective_training_time"].mean()
        for m in (1, 13, 240)
    }
    assert ett[13] > ett[1] and ett[13] > ett[240], ett


def test_overreacting_to_spikes_costs_more_on_average() -> None:
    # 300 replications of the loss-spike follow-up; only the spike response differs.
    s = scenario("followup_loss_spike")
    calm = runs(s, 300, levers__playbook__rollback=["rollback_skip"])
    over = runs(s, 300, levers__playbook__rollback=["overreact"])
    higher(over["cost_compute_usd"], calm["cost_compute_usd"])
    higher(over["run_wall_days"], calm["run_wall_days"])
    higher(over["run_lost_gpu_hours"], calm["run_lost_gpu_hours"])


# --- budget ------------------------------------------------------------------------------------


def test_reserve_lowers_the_chance_of_going_over_budget(base7b: Scenario) -> None:
    # 400 replications.
    without, with_reserve = (runs(base7b, 400, levers__reserve_fraction=r) for r in (0.0, 0.15))
    higher(with_reserve["on_budget"], without["on_budget"])


# --- strategy and evaluation --------------------------------------------------------------------


def test_adapting_wins_on_time_and_cost_and_loses_where_the_cap_binds(base7b: Scenario) -> None:
    # 300 replications; support_knowledge is capped at 0.66 in the base model. Both ship at the
    # first eval (no extra rounds), so the comparison is of the paths, not of chasing a cap.
    build = runs(base7b, 300, policy="aggressive")
    adapt = runs(base7b, 300, policy="aggressive", levers__strategy="adapt")
    higher(build["schedule_days"], adapt["schedule_days"])
    higher(build["cost_usd"], adapt["cost_usd"])
    higher(build["true:support_tickets"], adapt["true:support_tickets"])
    assert adapt["true:ifeval"].mean() >= build["true:ifeval"].mean() - 0.01  # no cap there


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
    assert (dirty["score:support_reasoning"] - clean["score:support_reasoning"]).abs().max() < 1e-9


# --- people and organisation ---------------------------------------------------------------------


def test_frontier_work_has_wider_spreads(base7b: Scenario) -> None:
    # 400 replications per design.
    documented = runs(base7b, 400, model__novelty=0.0)
    frontier = runs(base7b, 400, model__novelty=1.0)
    assert spread(frontier["schedule_days"]) > 1.3 * spread(documented["schedule_days"])
    assert spread(frontier["cost_usd"]) > 1.3 * spread(documented["cost_usd"])
