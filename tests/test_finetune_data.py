"""The fine-tuning set of an adaptation: its defects spoil rounds, its data work pays.

docs/model.md, "The fine-tuning set". An adaptation's post-training rounds train on the
data team's fine-tuning set: a defect in it that is not fixed while a round runs spoils
part of that round, and extra data work on it makes every round worth more. A pretraining
project's rounds train on the post-training team's own set, which corpus defects do not
reach. Direction tests run both arms on the same worlds (common random numbers) on three
seeds and report both arms' tokens trained and post-training rounds.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from sim.engine.incidents import Defect, DefectBook
from sim.engine.model import ProjectModel
from sim.engine.quality import (
    FINETUNE_DATA_GAIN,
    FINETUNE_DATA_WORK_USD_PER_BILLION_TOKENS,
    finetune_data_worth,
)
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import DefectSource, Scenario
from tests.mechanisms import SEEDS, higher, runs, same_scope

ROOT = Path(__file__).resolve().parent.parent

#: The one defect of these tests, present in every world (the 70B's own data defect).
DATA_DEFECT = {"kind": "data_quality", "probability": 1.0, "quality_penalty": 0.2,
               "fix_person_days": 30}  # fmt: skip
#: No budget or deadline any arm runs into, and a ship call that ships: both arms train the
#: same tokens and the same rounds, so only the data the rounds saw differs.
EQUAL_SCOPE = {
    "objective.budget.people_usd": 1e10,
    "objective.deadline_days": 5_000,
    "levers.playbook.ship": ["ship"],
    "incidents.defects": [DATA_DEFECT],
}


@pytest.fixture(scope="module")
def adapt70b() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "adapt_open_base_70b.yaml")


def released_targets(s: Scenario, df: pd.DataFrame) -> pd.Series:
    """Mean released score over the targets' evals (what the product shows)."""
    return df[[f"release:{t.eval}" for t in s.objective.targets]].mean(axis=1)


# --- the law ---------------------------------------------------------------------------------


def defect_fixed_on(day: float | None) -> DefectBook:
    src = DefectSource(kind="data_quality", probability=1.0, quality_penalty=0.2)
    d = Defect(0, src, present=True, gate_draws={}, monitor_draw=1.0)
    book = DefectBook([d])
    if day is not None:
        book.fix(d, day)
    return book


def test_a_round_loses_the_penalty_times_the_share_it_trained_on_the_defect() -> None:
    # A round from day 10 to day 20.
    assert defect_fixed_on(5.0).round_factor(10.0, 20.0) == (1.0, ())  # fixed before
    mid, spoilers = defect_fixed_on(15.0).round_factor(10.0, 20.0)
    assert mid == pytest.approx(1.0 - 0.2 * 0.5) and len(spoilers) == 1
    assert defect_fixed_on(None).round_factor(10.0, 20.0)[0] == pytest.approx(0.8)
    # A checkpoint defect is not in the data set: the rounds do not train on it.
    src = DefectSource(kind="tokenizer_config", probability=1.0, quality_penalty=0.25)
    config = DefectBook([Defect(0, src, present=True, gate_draws={}, monitor_draw=1.0)])
    assert config.round_factor(10.0, 20.0) == (1.0, ())


def test_data_work_on_a_finetuning_set_has_diminishing_bounded_returns() -> None:
    tokens = 5e9
    scale = FINETUNE_DATA_WORK_USD_PER_BILLION_TOKENS * tokens / 1e9
    assert finetune_data_worth(0.0, tokens) == 1.0
    assert finetune_data_worth(scale, tokens) == pytest.approx(
        1.0 + FINETUNE_DATA_GAIN * (1.0 - math.exp(-1.0))
    )
    steps = [finetune_data_worth(50_000.0 * k, tokens) for k in range(11)]
    gains = [b - a for a, b in zip(steps, steps[1:], strict=False)]
    assert all(g > 0 for g in gains) and all(b < a for a, b in zip(gains, gains[1:], strict=False))
    assert steps[-1] < 1.0 + FINETUNE_DATA_GAIN
    # The same dollars buy less on a larger set.
    assert finetune_data_worth(100_000.0, 50e9) < finetune_data_worth(100_000.0, 5e9)


def test_a_pretraining_projects_rounds_are_not_spoiled_by_a_corpus_defect() -> None:
    # The 7B pretrains: its rounds train on the post-training team's own set, not the corpus.
    s7b = load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")
    s = with_overrides(s7b, {**EQUAL_SCOPE, "plan.gates": [], "levers.data_investment_usd": 1e6})
    left_in = 0
    for seed in range(12):  # the worlds where run monitoring did not find it
        m = ProjectModel(s, seed=seed)
        m.env.run()
        if not any(d.active for d in m.defects.defects):
            continue
        left_in += 1
        assert m.plan.rounds_done > 0
        assert m.plan.rounds_data_quality == 1.0 and m.plan.post_training_worth == 1.0
    assert left_in >= 2, left_in


# --- directions on the 70B adaptation -------------------------------------------------------


def test_a_defect_left_in_through_the_rounds_lowers_the_released_scores(adapt70b) -> None:
    # 150 worlds a seed, the same defect in each. Caught: a data review before the run
    # that catches it 99% of the time (fixed before the rounds); left in: no gate, so it is
    # in the fine-tuning set through every round unless run monitoring finds it.
    s = with_overrides(adapt70b, EQUAL_SCOPE)
    review = [{"id": "data_review", "after": "prepare", "catches": ["data_quality"],
               "strength": 1.0}]  # fmt: skip
    for seed in SEEDS:
        caught = runs(s, 150, seed, plan__gates=review)
        left_in = runs(s, 150, seed, plan__gates=[])
        same_scope(caught, left_in)
        assert caught["post_training_rounds"].mean() == pytest.approx(
            left_in["post_training_rounds"].mean()
        )
        d = higher(released_targets(s, caught), released_targets(s, left_in), f"seed {seed}")
        # Never found, it costs 20% of what the rounds add: about 2 points of the targets.
        assert d["mean"] > 0.005, d


def test_data_work_on_the_finetuning_set_raises_the_released_scores(adapt70b) -> None:
    # 120 worlds a seed: the audit's data work (2% of the budget) against none.
    s = with_overrides(adapt70b, {**EQUAL_SCOPE, "incidents.defects": []})
    for seed in SEEDS:
        none = runs(s, 120, seed, levers__data_investment_usd=0.0)
        some = runs(s, 120, seed, levers__data_investment_usd=129_000.0)
        same_scope(none, some)
        higher(released_targets(s, some), released_targets(s, none), f"seed {seed}")
        # It costs the data team's days: never a free lunch.
        higher(some["effort_person_days"], none["effort_person_days"], f"seed {seed}")
