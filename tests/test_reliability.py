"""Interruptions, checkpoints and effective training time: arithmetic, analytic model, DES."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import simpy
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine import reliability
from sim.engine.reliability import (
    CHECKPOINT_SEARCH_MINUTES,
    ClusterRun,
    ReliabilitySpec,
    analytic_effective_training_time,
    best_checkpoint_minutes,
    progress_since_restart,
    simulate_cluster,
    young_daly_minutes,
)
from sim.engine.rng import Streams

# Llama 3 (§3.3.4): 54 days on 16,384 H100 GPUs, 419 unexpected + 47 planned interruptions.
LLAMA3 = ReliabilitySpec(gpus=16_384)
LLAMA3_DAYS = 54.0


def runs(spec: ReliabilitySpec, days: float, reps: int, seed: int = 7) -> list[ClusterRun]:
    return [simulate_cluster(spec, days, Streams.for_replication(seed, k)) for k in range(reps)]


def at_best(spec: ReliabilitySpec) -> ReliabilitySpec:
    return replace(spec, checkpoint_minutes=best_checkpoint_minutes(spec))


# --- the spec ------------------------------------------------------------------------------


def test_llama3_spec_rates() -> None:
    assert LLAMA3.nodes == 2_048
    assert LLAMA3.unexpected_per_day == pytest.approx(3.8 / 1_000 * 2_048)
    assert LLAMA3.interruptions_per_day == pytest.approx(7.7824 + 0.87)
    # "One interruption every ~3 hours at that scale."
    assert 2.5 < LLAMA3.mean_hours_between_interruptions < 3.0


def test_part_filled_node_counts_as_a_node() -> None:
    assert ReliabilitySpec(gpus=9).nodes == 2
    assert ReliabilitySpec(gpus=4).nodes == 1


def test_no_interruptions_means_infinite_time_between_them() -> None:
    spec = ReliabilitySpec(gpus=8, failure_rate=0, planned_per_day=0)
    assert spec.mean_hours_between_interruptions == math.inf


@pytest.mark.parametrize(
    "field, value",
    [
        ("gpus", 0),
        ("gpus_per_node", 0),
        ("failure_rate", -1.0),
        ("planned_per_day", -0.1),
        ("checkpoint_minutes", 0.0),
        ("checkpoint_minutes", math.inf),
        ("checkpoint_write_minutes", -0.5),
        ("restart_minutes", math.nan),
    ],
)
def test_spec_rejects_bad_values(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        replace(ReliabilitySpec(gpus=8), **{field: value})  # type: ignore[arg-type]


# --- progress since a restart --------------------------------------------------------------


@pytest.mark.parametrize(
    "elapsed, expected",
    [
        (-3.0, (0.0, 0.0)),
        (0.0, (0.0, 0.0)),
        (5.0, (0.0, 5.0)),
        (10.5, (0.0, 10.0)),  # a checkpoint being written does not save yet
        (11.0, (10.0, 0.0)),
        (25.0, (20.0, 3.0)),
        (33.0, (30.0, 0.0)),
    ],
)
def test_progress_since_restart(elapsed: float, expected: tuple[float, float]) -> None:
    spec = ReliabilitySpec(gpus=8, checkpoint_minutes=10.0, checkpoint_write_minutes=1.0)
    assert progress_since_restart(elapsed, spec) == pytest.approx(expected)


# --- the analytic expectation --------------------------------------------------------------


def test_without_interruptions_only_checkpoint_writes_cost() -> None:
    spec = ReliabilitySpec(gpus=8, failure_rate=0, planned_per_day=0, checkpoint_minutes=9.5)
    assert analytic_effective_training_time(spec) == pytest.approx(9.5 / 10.0)


def test_planned_interruptions_cost_only_restarts() -> None:
    spec = ReliabilitySpec(
        gpus=8, failure_rate=0, planned_per_day=2.0, checkpoint_write_minutes=0, restart_minutes=0
    )
    assert analytic_effective_training_time(spec) == pytest.approx(1.0)


def test_analytic_matches_numerical_integration_of_the_arithmetic() -> None:
    # Independent check of the closed form: integrate the kept work of one renewal
    # cycle over the exponential gap, using progress_since_restart itself.
    spec = ReliabilitySpec(gpus=4_096, failure_rate=20.0, planned_per_day=5.0, restart_minutes=7)
    lam = spec.interruptions_per_day / 1_440.0
    planned_share = spec.planned_per_day / spec.interruptions_per_day
    gaps = np.linspace(0.0, 40.0 / lam, 400_001)
    kept = [
        s + planned_share * u
        for s, u in (progress_since_restart(g - spec.restart_minutes, spec) for g in gaps)
    ]
    expected_reward = np.trapezoid(np.array(kept) * lam * np.exp(-lam * gaps), gaps)
    assert analytic_effective_training_time(spec) == pytest.approx(expected_reward * lam, rel=1e-5)


def test_llama3_defaults_give_just_over_ninety_percent() -> None:
    effective = analytic_effective_training_time(at_best(LLAMA3))
    assert 0.90 < effective < 0.92


# --- Young/Daly and the best interval ------------------------------------------------------


def test_young_daly_formula() -> None:
    mtbf_minutes = 1_440.0 / LLAMA3.unexpected_per_day
    assert young_daly_minutes(LLAMA3) == pytest.approx(math.sqrt(2 * mtbf_minutes * 0.5))
    assert young_daly_minutes(replace(LLAMA3, failure_rate=0)) == math.inf


@pytest.mark.parametrize(
    "gpus, write_minutes, planned_per_day",
    [(16_384, 0.5, 0.87), (16_384, 0.1, 0.0), (2_048, 1.0, 0.87), (65_536, 0.2, 0.0)],
)
def test_best_interval_is_near_young_daly_when_writes_are_short(
    gpus: int, write_minutes: float, planned_per_day: float
) -> None:
    spec = ReliabilitySpec(
        gpus=gpus, checkpoint_write_minutes=write_minutes, planned_per_day=planned_per_day
    )
    mtbf_minutes = 1_440.0 / spec.unexpected_per_day
    assert write_minutes < 0.01 * mtbf_minutes  # the regime where Young/Daly holds
    assert best_checkpoint_minutes(spec) == pytest.approx(young_daly_minutes(spec), rel=0.15)


def test_effective_training_time_peaks_at_an_interior_interval() -> None:
    best = at_best(LLAMA3)
    peak = analytic_effective_training_time(best)
    for factor in (0.25, 0.5, 2.0, 4.0):
        other = replace(best, checkpoint_minutes=best.checkpoint_minutes * factor)
        assert analytic_effective_training_time(other) < peak


def test_best_interval_at_the_search_bounds() -> None:
    free_writes = replace(LLAMA3, checkpoint_write_minutes=0.0)
    assert best_checkpoint_minutes(free_writes) == pytest.approx(CHECKPOINT_SEARCH_MINUTES[0])
    never_fails = replace(LLAMA3, failure_rate=0.0, planned_per_day=0.0)
    assert best_checkpoint_minutes(never_fails) == pytest.approx(CHECKPOINT_SEARCH_MINUTES[1])


# --- the discrete-event simulation ---------------------------------------------------------


def test_llama3_interruption_counts_and_effective_time() -> None:
    sample = runs(at_best(LLAMA3), LLAMA3_DAYS, reps=200)
    assert np.mean([r.unexpected for r in sample]) == pytest.approx(419, rel=0.10)
    assert np.mean([r.interruptions for r in sample]) == pytest.approx(466, rel=0.10)
    assert np.mean([r.planned for r in sample]) == pytest.approx(47, rel=0.10)
    assert np.mean([r.effective_training_time for r in sample]) > 0.90


@pytest.mark.parametrize(
    "spec, days",
    [
        (at_best(LLAMA3), LLAMA3_DAYS),
        (ReliabilitySpec(gpus=2_048, checkpoint_minutes=60.0), 30.0),
        (
            ReliabilitySpec(
                gpus=8_192, failure_rate=30.0, checkpoint_minutes=45.0, restart_minutes=20.0
            ),
            20.0,
        ),
    ],
)
def test_des_agrees_with_the_analytic_expectation(spec: ReliabilitySpec, days: float) -> None:
    # Tolerance: 1 percentage point on the mean of 200 replications.
    sample = runs(spec, days, reps=200)
    simulated = float(np.mean([r.effective_training_time for r in sample]))
    assert simulated == pytest.approx(analytic_effective_training_time(spec), abs=0.01)


def test_same_seed_same_run_and_other_seed_other_run() -> None:
    spec = ReliabilitySpec(gpus=16_384)
    first = simulate_cluster(spec, 10.0, Streams.for_replication(3, 0))
    again = simulate_cluster(spec, 10.0, Streams.for_replication(3, 0))
    other = simulate_cluster(spec, 10.0, Streams.for_replication(4, 0))
    assert first == again
    assert first != other


def test_lost_time_accounts_for_all_unproductive_wall_time() -> None:
    run = simulate_cluster(LLAMA3, 5.0, Streams.for_replication(1, 0))
    unproductive = run.lost_work_minutes + run.downtime_minutes + run.writing_minutes
    assert run.productive_minutes + unproductive == pytest.approx(run.wall_minutes)
    gpu_hours = run.wall_minutes / 60.0 * LLAMA3.gpus
    assert run.lost_gpu_hours == pytest.approx((1 - run.effective_training_time) * gpu_hours)
    assert run.as_dict()["interruptions"] == run.unexpected + run.planned


def test_simpy_events_scale_with_interruptions_not_checkpoints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    steps: list[int] = []

    class CountingEnvironment(simpy.Environment):
        def step(self) -> None:
            steps.append(1)
            super().step()

    monkeypatch.setattr(reliability.simpy, "Environment", CountingEnvironment)
    spec = ReliabilitySpec(gpus=16_384, checkpoint_minutes=1.0)  # ~75,000 checkpoints
    run = simulate_cluster(spec, LLAMA3_DAYS, Streams.for_replication(1, 0))
    assert len(steps) <= 2 * run.interruptions + 10


def test_simulate_rejects_a_non_positive_window() -> None:
    with pytest.raises(ValueError, match="days"):
        simulate_cluster(LLAMA3, 0.0, Streams.for_replication(1, 0))


# --- properties ----------------------------------------------------------------------------

gpu_counts = st.integers(min_value=1, max_value=32_768)
seeds = st.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(small=gpu_counts, extra=gpu_counts, seed=seeds)
def test_interruptions_grow_with_gpu_count(small: int, extra: int, seed: int) -> None:
    low = simulate_cluster(ReliabilitySpec(gpus=small), 7.0, Streams.for_replication(seed, 0))
    high = simulate_cluster(
        ReliabilitySpec(gpus=small + extra), 7.0, Streams.for_replication(seed, 0)
    )
    assert high.unexpected >= low.unexpected
    assert high.planned == low.planned


@SETTINGS
@given(
    restart=st.floats(min_value=0.0, max_value=60.0),
    more=st.floats(min_value=0.01, max_value=60.0),
    seed=seeds,
)
def test_effective_time_falls_as_restarts_slow(restart: float, more: float, seed: int) -> None:
    quick = ReliabilitySpec(gpus=16_384, restart_minutes=restart)
    slow = replace(quick, restart_minutes=restart + more)
    assert analytic_effective_training_time(slow) < analytic_effective_training_time(quick)
    fast_run = simulate_cluster(quick, 3.0, Streams.for_replication(seed, 0))
    slow_run = simulate_cluster(slow, 3.0, Streams.for_replication(seed, 0))
    assert slow_run.effective_training_time <= fast_run.effective_training_time


@SETTINGS
@given(
    gpus=gpu_counts,
    failure_rate=st.floats(min_value=0.0, max_value=50.0),
    planned=st.floats(min_value=0.0, max_value=5.0),
    checkpoint=st.floats(min_value=1.0, max_value=240.0),
    write=st.floats(min_value=0.0, max_value=5.0),
    restart=st.floats(min_value=0.0, max_value=30.0),
    days=st.floats(min_value=0.5, max_value=10.0),
    seed=seeds,
)
def test_run_invariants(
    gpus: int,
    failure_rate: float,
    planned: float,
    checkpoint: float,
    write: float,
    restart: float,
    days: float,
    seed: int,
) -> None:
    spec = ReliabilitySpec(gpus, 8, failure_rate, planned, checkpoint, write, restart)
    run = simulate_cluster(spec, days, Streams.for_replication(seed, 0))
    assert run.lost_gpu_hours >= 0
    assert min(run.lost_work_minutes, run.downtime_minutes, run.writing_minutes) >= 0
    # A window can keep nothing (every failure before the first checkpoint, ending in a
    # restart), so the DES may give 0; the long-run expectation is always positive.
    assert 0 <= run.effective_training_time <= 1
    assert 0 < analytic_effective_training_time(spec) <= 1
    assert run.interruptions == run.unexpected + run.planned


@SETTINGS
@given(
    gpus=gpu_counts,
    failure_rate=st.floats(min_value=0.0, max_value=10.0),
    checkpoint=st.floats(min_value=1.0, max_value=60.0),
    restart=st.floats(min_value=0.0, max_value=15.0),
    seed=seeds,
)
def test_effective_time_is_positive_in_realistic_runs(
    gpus: int, failure_rate: float, checkpoint: float, restart: float, seed: int
) -> None:
    spec = ReliabilitySpec(
        gpus, failure_rate=failure_rate, checkpoint_minutes=checkpoint, restart_minutes=restart
    )
    run = simulate_cluster(spec, 2.0, Streams.for_replication(seed, 0))
    assert 0 < run.effective_training_time <= 1


# --- restarts that need people ------------------------------------------------------------------


def test_a_manual_restart_adds_the_wait_and_the_fix_to_its_share() -> None:
    assert reliability.restart_with_people(4.0, 0.0, 30.0, 540.0) == 4.0
    assert reliability.restart_with_people(4.0, 1.0, 30.0, 540.0) == 4.0 + 30.0 + 540.0
    assert reliability.restart_with_people(4.0, 0.25, 30.0, 540.0) == pytest.approx(146.5)


def test_operations_at_scale_count_the_manual_restarts_of_the_cluster() -> None:
    from sim.scenario.spec import ClusterSpec

    auto = reliability.operations(ClusterSpec(gpus=992), 175e9, 992).restart_minutes
    people = reliability.MANUAL_FIX_MINUTES + reliability.ON_CALL_WAIT_MINUTES
    for share in (0.0, 3 / 466, 1 / 3):
        spec = reliability.spec_at_scale(ClusterSpec(gpus=992, manual_restart_share=share), 175e9)
        assert spec.restart_minutes == pytest.approx(auto + share * people)
    # OPT-175B's third of manual restarts (about 9.5 hours each) against Llama 3's 3 in 466.
    opt = reliability.spec_at_scale(ClusterSpec(gpus=992, manual_restart_share=1 / 3), 175e9)
    llama = reliability.spec_at_scale(ClusterSpec(gpus=992), 175e9)
    assert analytic_effective_training_time(opt) < analytic_effective_training_time(llama) - 0.05
