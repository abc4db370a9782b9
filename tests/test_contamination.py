"""Contamination with consequences (issue 24.6): decontamination costs people and a scan,
and skipping it lets a leaked benchmark pass a call the product then fails after release.

Direction tests on common random numbers, two seeds each.
"""

from __future__ import annotations

import pytest

from sim.engine.model import ProjectModel
from sim.engine.quality import (
    DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK,
    OVERLAP_SCAN_USD_PER_TRILLION,
)
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario
from tests.mechanisms import higher, runs

SEEDS = (2026, 7)


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario("assistant_7b")


#: People's budget added so that the ship call has a choice: without money for more
#: post-training rounds it ships whatever the scores read, and no call rests on the benchmark.
#: (Engine 18, 800 worlds: ifeval met after release +2.4 and +1.6 points on seeds 2026 and 7
#: with it; +1.25 and +0.5 with half of it.)
ROOM_FOR_ROUNDS_USD = 1_200_000.0


def near_threshold(base: Scenario) -> Scenario:
    """The 7B with its ifeval target near the median released score (0.78 against 0.77) and
    the money for extra rounds: a call read on leaked items can now pass a model the product
    would fail, where the true score would have bought another round."""
    targets = [t.model_dump() for t in base.objective.targets]
    for t in targets:
        if t["eval"] == "ifeval":
            t["threshold"] = 0.78
    people = base.objective.budget.people_usd + ROOM_FOR_ROUNDS_USD
    return with_overrides(
        base, {"objective.targets": targets, "objective.budget.people_usd": people}
    )


def test_decontamination_takes_the_data_teams_days_and_a_scan(base: Scenario) -> None:
    m = ProjectModel(base)
    m.env.run()
    public = [e for e in base.objective.evals if e.kind == "public_benchmark"]
    assert len(public) == 2
    notes = [e.summary for e in m.recording.trace if "Decontamination" in e.summary]
    want = f"{DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK * len(public):.0f} person-days"
    assert notes and want in notes[0]
    scans = [e.usd for e in m.ledger.entries if e.note == "benchmark overlap scan"]
    assert scans == [
        pytest.approx(OVERLAP_SCAN_USD_PER_TRILLION * 2 * m.plan.tokens_scenario / 1e12)
    ]
    # The data team's days lengthen prepare, its critical path, so the project's salary
    # days rise; 300 worlds, as decisions on the less inflated scores move effort too.
    for seed in SEEDS:
        on, off = runs(base, 300, seed), runs(base, 300, seed, levers__decontaminate=False)
        higher(on["effort_person_days"], off["effort_person_days"], f"effort, seed {seed}")


def test_a_leaked_benchmark_reads_high_and_the_product_shows_the_truth(base: Scenario) -> None:
    for seed in SEEDS:
        on, off = runs(base, 120, seed), runs(base, 120, seed, levers__decontaminate=False)
        # Measured: inflated by the leaked items; released: the same model on fresh items.
        higher(off["score:gsm8k"], on["score:gsm8k"], f"measured gsm8k, seed {seed}")
        assert abs((off["release:gsm8k"] - off["true:gsm8k"]).mean()) < 0.005
        assert (off["score:gsm8k"] - off["release:gsm8k"]).mean() > 0.03


def test_skipping_it_fails_targets_after_release_when_a_call_rests_on_the_benchmark(
    base: Scenario,
) -> None:
    near = near_threshold(base)
    for seed in SEEDS:
        on, off = runs(near, 800, seed), runs(near, 800, seed, levers__decontaminate=False)
        # Without it, the inflated ifeval passes the ship call: it ships sooner...
        higher(on["schedule_days"], off["schedule_days"], f"days, seed {seed}")
        # ...and the released model misses the target it seemed to meet.
        higher(on["met:ifeval"], off["met:ifeval"], f"ifeval met after release, seed {seed}")
        assert off["score:ifeval"].mean() > on["score:ifeval"].mean() + 0.01
