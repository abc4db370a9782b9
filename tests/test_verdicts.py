"""Verdicts that mean what they say (issue 26, items 1 and 2).

"Clear" only for a difference that is statistically clear, material (its interval not
inside the margin) and carried by enough worlds; rounding noise is no difference; a
chance row's interval and test are one rule; lumpy differences keep their coverage.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import intervals as stats
from sim.compare.analysis import design_verdict, verdict_line
from sim.compare.inference import compare_designs, paired
from sim.runner import run_designs
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")


@pytest.mark.parametrize("seed", [0, 3])
def test_one_dollar_of_data_work_is_alike_everywhere(base: Scenario, seed: int) -> None:
    """$1 of data work moved the scores by about 3e-7 and printed "+0.00 pts ... clear" in
    39 of 40 seeds; the cost, a dollar or two in every world, was "not yet known ±$168k"."""
    frames = run_designs(
        {"A": base, "B": with_overrides(base, {"levers.data_investment_usd": 1})}, 40, seed
    )
    rows = paired(frames["A"], frames["B"], base)
    assert all(r["verdict"] != "clear" for r in rows.values())
    for key, r in rows.items():
        if key.startswith("score:"):
            assert r["verdict"] == "alike", (key, r)
    # $1 of passes, and the data team's 0.0002 person-days of salary for them: a few
    # dollars in every world, alike and known to the dollar.
    cost = rows["cost_usd"]
    assert 1.0 <= cost["mean"] < 5.0
    assert cost["verdict"] == "alike" and 0.5 < cost["low"] <= cost["high"] < 5.0


@pytest.mark.parametrize("seed", [149, 169])
def test_a_sure_difference_inside_its_margin_is_not_clear(base: Scenario, seed: int) -> None:
    """Reserve 12% against 10% at 50 worlds: "0.01 days later ... clear, p < 0.001" though
    the whole interval lay inside the 1-day margin (and 5,000 worlds say 0.89 days sooner);
    the effort row was clear with the wrong sign."""
    frames = run_designs(
        {"A": base, "B": with_overrides(base, {"levers.reserve_fraction": 0.12})}, 50, seed
    )
    table = compare_designs(frames, base).tables["B"].set_index("metric")
    for key in ("schedule_days", "effort_person_days", "cost_usd"):
        row = table.loc[key]
        assert row["verdict"] != "clear", key
        inside = -row["margin"] < row["low"] and row["high"] < row["margin"]
        assert not inside or row["verdict"] == "alike", key
    lines = design_verdict("A", "B", frames["A"], frames["B"], base)
    # A "not yet known" line says "neither a clear difference nor alike": no claim of one.
    claims = [line for line in lines if not line.startswith("Not yet known")]
    assert not any("clear" in line and "schedule" in line.lower() for line in claims)


def test_rounding_noise_is_no_difference(base: Scenario) -> None:
    """Dollars that differ only by float rounding are the same outcome, never "$0 less"."""
    rng = np.random.default_rng(4)
    n = 60
    cost = rng.normal(6e6, 3e5, n)
    noise = cost * (1 + rng.normal(0, 1e-15, n))  # what summing in another order does
    a = pd.DataFrame({"cost_usd": cost, "schedule_days": rng.normal(150, 10, n)})
    b = a.assign(cost_usd=noise)
    row = compare_designs({"A": a, "B": b}, base, primary="cost_usd").row("B", "cost_usd")
    assert row["p_same"] == 1.0 and row["verdict"] == "alike"
    assert "$0 less" not in verdict_line(row, "A", "B") or row["verdict"] == "alike"
    assert "clear" not in verdict_line(row, "A", "B")


def test_a_chance_rows_interval_and_test_are_one_rule() -> None:
    """The interval leaves 0 exactly when the test of no difference is below 5%, for every
    count of discordant worlds (Tango's score test and the interval that inverts it)."""
    for n in (20, 50, 200):
        for b_only in range(0, 16):
            for a_only in range(0, 16):
                if b_only + a_only > n:
                    continue
                x = np.r_[np.zeros(b_only), np.ones(a_only), np.zeros(n - b_only - a_only)]
                y = np.r_[np.ones(b_only), np.zeros(a_only), np.zeros(n - b_only - a_only)]
                d = stats.paired_proportion(x, y)
                excludes = d["low"] > 0 or d["high"] < 0
                assert excludes == (d["p_value"] < 0.05), (n, b_only, a_only, d)


def test_means_interval_and_test_are_one_rule() -> None:
    rng = np.random.default_rng(8)
    for _ in range(300):
        n = int(rng.integers(10, 80))
        a = rng.normal(100, 10, n)
        share = rng.random()
        d = np.where(rng.random(n) < share, rng.normal(rng.normal(0, 3), 5, n), 0.0)
        r = stats.paired_mean(a, a + d)
        if r["high"] - r["low"] <= 0:
            continue
        excludes = r["low"] > 0 or r["high"] < 0
        assert excludes == (r["p_value"] < 0.05)


def lumpy(rng: np.random.Generator, n: int, share: float) -> np.ndarray:
    """Most worlds equal (a small shift), ``share`` of them two weeks sooner give or take."""
    far = rng.random(n) < share
    return np.where(far, rng.normal(-15.0, 5.0, n), 0.02)


@pytest.mark.parametrize(("n", "share"), [(50, 0.08), (50, 0.2), (100, 0.08)])
def test_lumpy_differences_keep_their_coverage(n: int, share: float) -> None:
    """The reserve pair's shape (68-92% of worlds equal, a few far off): the plain t
    interval covered 0.875-0.89 at 50 worlds; the interval on the differing worlds
    covers at least 93%, and nothing is called clear with the wrong sign."""
    rng = np.random.default_rng(int(1000 * share) + n)
    truth = share * -15.0 + (1 - share) * 0.02
    reps = 1500
    hits = plain = wrong = 0
    for _ in range(reps):
        d = lumpy(rng, n, share)
        r = stats.paired_mean(np.zeros(n), d, margin=1.0)
        hits += r["low"] <= truth <= r["high"]
        t = stats.sps.t.ppf(0.975, n - 1) * d.std(ddof=1) / np.sqrt(n)
        plain += d.mean() - t <= truth <= d.mean() + t
        clear = r["p_value"] < 0.05 and not r["rough"] and not -1 < r["low"] <= r["high"] < 1
        wrong += clear and r["mean"] > 0
    assert hits / reps >= 0.93
    assert wrong == 0
    if share < 0.1:
        assert plain / reps < 0.925 < hits / reps


def test_too_few_differing_worlds_are_never_clear(base: Scenario) -> None:
    """Five worlds two weeks sooner and 45 the same: p < 0.05, but five worlds carry it;
    the verdict waits and says how many worlds would bring ten."""
    n = 50
    a = pd.DataFrame({"schedule_days": np.linspace(120, 180, n)})
    d = np.zeros(n)
    d[[3, 14, 25, 36, 47]] = -15.0
    b = a.assign(schedule_days=a["schedule_days"] + d)
    row = compare_designs({"A": a, "B": b}, base, primary="schedule_days").row("B", "schedule_days")
    assert row["worlds_differing"] == 5 and row["rough"]
    assert row["verdict"] == "not yet known"
    assert row["worlds_needed"] >= 100
    line = verdict_line(row, "A", "B")
    assert "Only 5 worlds of 50 carry the difference" in line
    assert f"about {int(row['worlds_needed']):,} worlds would settle it" in line


@pytest.mark.parametrize("seed", [3, 11])
def test_a_shift_of_most_worlds_beside_one_far_world_is_not_lumpy(seed: int) -> None:
    """79 worlds a little worse and one far off: the bulk carries the difference, so the
    plain t interval (wider for the far world) is kept, not one with a single degree of
    freedom; a small shift of the bulk beside far worlds carrying the mean stays lumpy."""
    rng = np.random.default_rng(seed)
    shift = np.append(rng.normal(0.001, 0.0003, 79), 0.02)
    sd, df, lumpy = stats.lumpy_t(shift)
    assert (df, lumpy) == (79, False)
    assert stats.paired_mean(np.zeros(80), shift)["low"] > 0
    carried = np.where(rng.random(50) < 0.1, rng.normal(-15.0, 5.0, 50), -0.02)
    carried[:3] = -15.0  # at least three far worlds
    carried += rng.normal(0.0, 0.001, 50)
    assert stats.lumpy_t(carried)[2]
