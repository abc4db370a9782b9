"""Steering post-training (engine 20): a round aimed by a leaked public benchmark gains less.

The share of a round's gain that is real (sim/engine/steering.py) is checked on its own,
then its direction on common random numbers: on the benchmarks follow-up (product evals
late, 60% of both public benchmarks leaked) skipping decontamination lowers the released
scores of the capabilities the leaked benchmarks steer, and building the product evals
early takes the loss off the capability its product eval then steers. Both arms train the
same tokens and rounds (``same_scope``, reported); two seeds each.
"""

from __future__ import annotations

import pandas as pd
import pytest

from sim.engine.facts import scenario_facts
from sim.engine.plan import Plan
from sim.engine.quality import CONTAMINATION_DEFECT_SHARE, PRODUCT_TRANSFER_LATE
from sim.engine.steering import product_steering, steered_shares
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Capability, Eval, Scenario, Target
from tests.mechanisms import higher, runs, same_scope

SEEDS = (2026, 7)
REPS = 200

CAPS = [Capability(id=c, loss_midpoint=2.0) for c in ("follow", "reason", "know")]
EVALS = [
    Eval(id="bench", kind="public_benchmark", capability="follow", contamination=0.5),
    Eval(id="math", kind="public_benchmark", capability="reason", contamination=0.5),
    Eval(id="prod_reason", kind="product_eval", capability="reason"),
    Eval(id="prod_know", kind="product_eval", capability="know"),
    # Built for no target: nobody aims at it, so it steers nothing.
    Eval(id="prod_follow", kind="product_eval", capability="follow"),
]
TARGETS = [
    Target(capability="reason", eval="prod_reason", threshold=0.5),
    Target(capability="know", eval="prod_know", threshold=0.5),
]


def test_a_leaked_benchmark_steers_its_capability_as_badly_as_no_product_eval() -> None:
    lost = 1.0 - PRODUCT_TRANSFER_LATE
    late = dict(steered_shares(CAPS, EVALS, TARGETS, False, False, PRODUCT_TRANSFER_LATE))
    assert late == pytest.approx({"follow": 1 - lost * 0.5, "reason": 1 - lost * 0.5})
    # The product's evals in hand steer the capability they measure; the one only a
    # public benchmark and an eval no target reads measure is still steered by the former.
    early = dict(steered_shares(CAPS, EVALS, TARGETS, False, False, 1.0))
    assert early == pytest.approx({"follow": 1 - lost * 0.5})
    # Decontaminated, nothing leaked steers anything; a broken decontamination leaks again.
    assert steered_shares(CAPS, EVALS, TARGETS, True, False, PRODUCT_TRANSFER_LATE) == ()
    broken = dict(steered_shares(CAPS, EVALS, TARGETS, True, True, 1.0))
    assert broken == pytest.approx({"follow": 1 - lost * CONTAMINATION_DEFECT_SHARE})
    assert product_steering(PRODUCT_TRANSFER_LATE) == 0.0
    assert product_steering(1.0) == 1.0


def test_each_round_keeps_the_steering_it_ran_with(base: Scenario) -> None:
    plan = Plan(base, scenario_facts(base), 0.0)
    plan.add_round_done(1.0, {"follow": 0.8})
    plan.add_round_done(1.0, {})  # the leak found and fixed: later rounds steer cleanly
    plan.add_round_done(0.5, {"follow": 0.8})
    assert plan.steered["follow"] == pytest.approx((0.8 + 1.0 + 0.4) / 2.5)
    plan.redo_rounds()
    assert plan.steered == {}


#: This plan is tight: a few worlds of either arm trim scope when the run's bills come in
#: (2-4% of worlds), so both arms' scope is reported and held alike rather than uncut.
TIGHT = "a tight plan: a few worlds of both arms trim scope to the budget"


def alike_scope(on: pd.DataFrame, off: pd.DataFrame) -> None:
    same_scope(on, off, TIGHT)
    assert abs(off["tokens_b"].mean() / on["tokens_b"].mean() - 1.0) < 0.01
    assert abs(off["post_training_rounds"].mean() - on["post_training_rounds"].mean()) < 0.05


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario("scenarios/followup_benchmarks_vs_product.yaml")


def test_skipping_decontamination_lowers_what_the_product_shows(base: Scenario) -> None:
    for seed in SEEDS:
        quiet = {"incidents__budget_cut__enabled": False}
        on = runs(base, REPS, seed, levers__decontaminate=True, **quiet)
        off = runs(base, REPS, seed, levers__decontaminate=False, **quiet)
        alike_scope(on, off)
        # Released scores (fresh items): the rounds steered by leaked items gained less.
        higher(on["release:ifeval"], off["release:ifeval"], f"ifeval released, seed {seed}")
        higher(
            on["release:support_reasoning"],
            off["release:support_reasoning"],
            f"support reasoning released, seed {seed}",
        )
        # A product eval no public benchmark shares is steered by nothing leaked.
        assert abs((on["true:support_tickets"] - off["true:support_tickets"]).mean()) < 0.002


def test_product_evals_in_hand_take_the_leak_off_the_capability_they_steer(
    base: Scenario,
) -> None:
    for seed in SEEDS:
        quiet = {"incidents__budget_cut__enabled": False, "levers__product_evals_early": True}
        on = runs(base, REPS, seed, levers__decontaminate=True, **quiet)
        off = runs(base, REPS, seed, levers__decontaminate=False, **quiet)
        alike_scope(on, off)
        # Reasoning is steered by its product eval now: the leak costs it nothing real...
        gap = (on["true:support_reasoning"] - off["true:support_reasoning"]).mean()
        assert abs(gap) < 0.002, f"seed {seed}: {gap:.4f}"
        # ...while instruction following, which only the leaked benchmark measures, still
        # loses what its rounds were mis-steered.
        higher(on["release:ifeval"], off["release:ifeval"], f"ifeval released, seed {seed}")
