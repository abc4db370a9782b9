"""Design-comparison analytics: hand-computed cases, then real runs on common random numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import distribution
from sim import intervals as analysis_stats
from sim.compare import analysis
from sim.compare.analysis import LeverRange
from sim.designs import apply_delta
from sim.runner import run_designs
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")


def frame(base: Scenario, schedule: list[float], **columns: list[float]) -> pd.DataFrame:
    """A replication table with every compared column; ``schedule`` sets the length."""
    n = len(schedule)
    data: dict[str, object] = {
        "schedule_days": schedule,
        "cost_usd": [1e6] * n,
        "effort_person_days": [100.0] * n,
        "on_time": [True] * n,
        "on_budget": [True] * n,
        "quality_met": [True] * n,
        "success": [True] * n,
    }
    for t in base.objective.targets:
        data[f"score:{t.eval}"] = [0.8] * n
        data[f"met:{t.eval}"] = [True] * n
    data.update(columns)
    return pd.DataFrame(data)


# --- hand-computed cases ------------------------------------------------------------------


def test_ecdf_steps_through_the_sorted_values() -> None:
    e = distribution.ecdf([3.0, 1.0, 2.0, 2.0])
    assert e["value"].tolist() == [1.0, 2.0, 2.0, 3.0]
    assert e["probability"].tolist() == [0.25, 0.5, 0.75, 1.0]


def test_percentiles_are_the_linear_interpolated_ones() -> None:
    p = distribution.percentiles(range(1, 11))
    assert p == pytest.approx({"mean": 5.5, "p10": 1.9, "p50": 5.5, "p90": 9.1})


def test_percentile_intervals_are_order_statistics() -> None:
    p = distribution.percentile_intervals(range(1, 101))
    # Distribution-free 95% interval of the median of 1..100: the 40th to the 61st value.
    assert (p["p50"]["low"], p["p50"]["high"]) == (40.0, 61.0)
    assert p["p90"]["low"] < p["p90"]["value"] < p["p90"]["high"]
    few = distribution.percentile_intervals(range(1, 21))
    assert few["p90"]["high"] is None, "20 worlds cannot bound P90 from above at 95%"


def test_the_joint_statement_carries_its_interval() -> None:
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {"schedule_days": rng.normal(100, 10, 200), "cost_usd": rng.normal(5, 1, 200)}
    )
    j = distribution.joint_confidence(df, 0.8)
    assert j["share_low"] < 0.8 <= j["share"] < j["share_high"]
    assert j["days_sure"] > j["days"] and j["usd_sure"] > j["usd"]


def test_ecdf_has_a_dkw_band() -> None:
    e = distribution.ecdf(np.arange(100.0))
    half = np.sqrt(np.log(2 / 0.05) / 200)
    assert (e["high"] - e["probability"]).iloc[50] == pytest.approx(half)
    assert e["low"].min() == 0.0 and e["high"].max() == 1.0


def test_wilson_interval_of_five_in_ten() -> None:
    assert distribution.wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    low, high = distribution.wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)


def test_objective_probabilities_count_each_objective_and_all(base: Scenario) -> None:
    first = base.objective.targets[0].eval
    df = frame(
        base,
        [1.0, 2.0, 3.0, 4.0],
        on_time=[True, True, False, True],
        success=[True, False, False, False],
        **{f"met:{first}": [True, True, True, False]},
    )
    probs = analysis.objective_probabilities(df, base).set_index("objective")["probability"]
    assert probs["on_time"] == 0.75
    assert probs[f"met:{first}"] == 0.75
    assert probs["success"] == 0.25
    assert probs["on_budget"] == 1.0
    assert list(probs.index)[-1] == "success"


def test_joint_probability_needs_both_time_and_cost() -> None:
    df = pd.DataFrame({"schedule_days": [100, 150, 200], "cost_usd": [1.0, 3.0, 2.0]})
    assert distribution.joint_probability(df, 160, 2.5) == pytest.approx(1 / 3)
    assert distribution.joint_probability(df, 200, 3.0) == 1.0


def test_joint_confidence_is_looser_than_two_separate_quantiles() -> None:
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {"schedule_days": rng.normal(100, 10, 2000), "cost_usd": rng.normal(5, 1, 2000)}
    )
    joint = distribution.joint_confidence(df, 0.8)
    assert joint["share"] >= 0.8
    # Independent quantities: 80% inside both needs about the 89th percentile of each.
    assert joint["days"] > np.quantile(df["schedule_days"], 0.8)
    assert joint["quantile"] == pytest.approx(np.sqrt(0.8), abs=0.02)


SCHEDULE_A = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]
SOONER = [-2.0, -1.0, -3.0, 0.0, -2.0, -1.0, -3.0, 0.0, -2.0, -1.0]


def test_paired_table_uses_student_t_by_hand(base: Scenario) -> None:
    a = frame(base, SCHEDULE_A)
    b = frame(base, [x + d for x, d in zip(SCHEDULE_A, SOONER, strict=True)])
    table = analysis.paired_table(a, b, base).set_index("metric")
    row = table.loc["schedule_days"]
    # Differences: mean -1.5, sd 1.0801; t(0.975, 9) = 2.262157, so half-width 0.7727.
    assert row["mean"] == pytest.approx(-1.5)
    assert row["low"] == pytest.approx(-1.5 - 0.7727, abs=1e-3)
    assert row["high"] == pytest.approx(-1.5 + 0.7727, abs=1e-3)
    assert row["p_b_better"] == 0.8 and row["p_same"] == 0.2
    assert row["method"] == "paired t" and row["p_value"] < 0.01
    # The same cost in every world: no zero-width interval, an exact bound instead.
    cost = table.loc["cost_usd"]
    assert cost["low"] < 0 < cost["high"] and cost["method"].startswith("exact bound")


def test_a_verdict_is_clear_alike_or_not_yet_known(base: Scenario) -> None:
    a = frame(base, SCHEDULE_A)
    b = frame(base, [x + d for x, d in zip(SCHEDULE_A, SOONER, strict=True)])
    comparison = analysis.compare_designs({"A": a, "B": b}, base, primary="schedule_days")
    row = comparison.row("B", "schedule_days")
    assert row["verdict"] == "clear" and row["primary"]
    line = analysis.verdict_line(row, "A", "B")
    assert line.startswith("B finishes 1.5 days sooner than A (95% interval 0.73 to 2.3 days")
    assert "clear, p = 0.00" in line and "finishes sooner in 80% of the same worlds" in line
    # With a margin of 5 days the whole interval lies inside ±5 days: statistically
    # clear, but too small to matter, so alike (clear means clear and material).
    wide = analysis.compare_designs({"A": a, "B": b}, base, primary="schedule_days",
                                    margins={"schedule_days": 5.0})  # fmt: skip
    row = wide.row("B", "schedule_days")
    assert row["p_adjusted"] < 0.05 and row["verdict"] == "alike" and not row["significant"]
    assert analysis.verdict_line(row, "A", "B").startswith(
        "Alike on schedule within ±5.0 days: B finishes 1.5 days sooner on average"
    )
    # A margin of 2 days: a real difference (p = 0.002), but its estimate, 1.5 days, is
    # under the 2 days that matter and its interval (0.73 to 2.3) crosses them: not yet
    # known whether it matters, and the line says so (clear means clear and material).
    two = analysis.compare_designs({"A": a, "B": b}, base, primary="schedule_days",
                                   margins={"schedule_days": 2.0})  # fmt: skip
    row = two.row("B", "schedule_days")
    assert row["p_adjusted"] < 0.05 and row["verdict"] == "not yet known"
    assert "a real difference but smaller than the ±2.0 days that matters" in (
        analysis.verdict_line(row, "A", "B")
    )
    # Noise around no difference, with a margin too small to show alike: not yet known.
    noisy = frame(base, [x + d for x, d in zip(SCHEDULE_A, [3, -4, 2, -1, 0, 1, -3, 4, -2, 1],
                                                 strict=True)])  # fmt: skip
    row = analysis.compare_designs({"A": a, "B": noisy}, base).row("B", "schedule_days")
    assert row["verdict"] == "not yet known"
    line = analysis.verdict_line(row, "A", "B")
    assert line.startswith("Not yet known on schedule: B finishes 0.10 days later on average")
    assert "worlds would settle it" in line


def test_chances_carry_discordant_counts_and_an_exact_test(base: Scenario) -> None:
    n = 200
    a_met = [True] * 100 + [False] * 100
    b_met = list(a_met)
    for i in range(9):  # B meets all objectives in 9 worlds where A does not ...
        b_met[100 + i] = True
    for i in range(3):  # ... and A in 3 where B does not
        b_met[i] = False
    a = frame(base, [100.0] * n, success=a_met)
    b = frame(base, [100.0] * n, success=b_met)
    row = analysis.compare_designs({"A": a, "B": b}, base).row("B", "success")
    assert (row["b_only"], row["a_only"]) == (9, 3)
    # Tango's score test at 0, the one its interval inverts: z = (6 - 0.5) / sqrt 12.
    assert row["p_value"] == pytest.approx(0.1124, abs=1e-3)
    assert row["p_exact"] == pytest.approx(0.146, abs=1e-3)  # exact McNemar: 2 P(X <= 3 | 12)
    assert row["low"] < 0 < row["high"] and row["verdict"] == "not yet known"
    line = analysis.verdict_line(row, "A", "B")
    assert "B meets all objectives in 9 worlds where A does not, A in 3 where B does not" in line
    assert "(p = 0.11)" in line and "Tango" not in line  # the method is named in a footnote


def test_too_few_worlds_is_refused_not_nan(base: Scenario) -> None:
    a = frame(base, [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(analysis_stats.TooFewWorlds, match="4 worlds are too few .* at least 10"):
        analysis.paired_table(a, a, base)


def test_verdict_of_a_table_without_adjustment_reads_the_same(base: Scenario) -> None:
    a = frame(base, SCHEDULE_A)
    b = frame(base, [x + d for x, d in zip(SCHEDULE_A, SOONER, strict=True)])
    table = analysis.paired_table(a, b, base)
    lines = analysis.verdict("A", "B", table, ["schedule_days"])
    assert (
        lines[0] == "B meets all objectives in 100% of the worlds (72–100%), A in 100% (72–100%)."
    )
    assert any(line.startswith("B finishes 1.5 days sooner than A") for line in lines)


def test_tornado_table_ranks_by_swing_and_puts_no_effect_last(base: Scenario) -> None:
    ranges = [
        LeverRange("levers.a", 0, 1),
        LeverRange("levers.b", 0, 1),
        LeverRange("levers.c", 0, 1),
    ]
    noise = np.array([0.5, -0.3, 0.2, -0.4, 0.1, 0.0, -0.2, 0.3, -0.1, -0.1])

    def df(v: float) -> pd.DataFrame:
        return pd.DataFrame({"schedule_days": v + noise})

    frames = {
        "base": df(100),
        "levers.a=0": df(100), "levers.a=1": df(100),  # no effect
        "levers.b=0": df(90), "levers.b=1": df(95),
        "levers.c=0": df(120), "levers.c=1": df(100),
    }  # fmt: skip
    t = analysis.tornado_table(frames, "schedule_days", ranges)
    assert t["lever"].tolist() == ["levers.c", "levers.b", "levers.a"]
    assert t["swing"].tolist() == pytest.approx([-20.0, 5.0, 0.0])
    assert t["rank"].tolist() == [1, 2, 3]
    assert t["clear"].tolist() == [True, True, False]
    # Whiskers around each end; a lever with no effect can never be in the top three.
    assert (t["low_from"] <= t["metric_low"]).all() and (t["metric_low"] <= t["low_to"]).all()
    assert t["p_top3"].tolist() == pytest.approx([1.0, 1.0, 0.0])


# --- real runs on common random numbers ----------------------------------------------------


def test_two_identical_designs_show_no_difference(base: Scenario) -> None:
    frames = run_designs({"A": base, "B": base}, 24, seed=5)
    table = analysis.paired_table(frames["A"], frames["B"], base)
    assert not table["significant"].any()
    assert (table["mean"] == 0).all() and (table["p_same"] == 1).all()
    comparison = analysis.compare_designs(frames, base)
    lines = analysis.comparison_lines(comparison, frames, base)["B"]
    assert all("exactly as well" in line for line in lines[1:])
    assert not any(comparison.tables["B"]["verdict"] == "clear")
    # Neither of two identical designs is called best with confidence.
    chances = comparison.best["chance_best"]
    assert chances["A"] == pytest.approx(chances["B"], abs=0.05) and chances["A"] < 0.6


def test_a_design_whose_run_is_cut_gets_the_scope_line(base: Scenario) -> None:
    """The large siloed preset's payroll cuts its run under the same budget: the verdict
    says so, since it is why that design finishes sooner and scores lower."""
    from sim.designs import PRESETS_BY_KEY

    siloed = PRESETS_BY_KEY["large_siloed"].apply(base)
    frames = run_designs({"A": base, "B": siloed}, 24, seed=5)
    # The budget plan cuts its cheapest scope (rounds, ablations), not only tokens.
    assert (frames["B"]["scope_cuts"] > 0).mean() > 0.9
    lines = analysis.design_verdict("A", "B", frames["A"], frames["B"], base)
    assert lines[-1].startswith("Scope: B gave up scope") and "rounds" in lines[-1]
    same = analysis.design_verdict("A", "A2", frames["A"], frames["A"], base)
    assert not any(line.startswith("Scope") for line in same)


def test_a_built_in_advantage_is_significant(base: Scenario) -> None:
    late = apply_delta(base, {"levers.safety_from_start": False})
    frames = run_designs({"late": late, "early": base}, 24, seed=5)
    comparison = analysis.compare_designs(frames, base)
    row = comparison.row("early", "schedule_days")
    assert row["verdict"] == "clear" and row["mean"] < -5
    lines = analysis.verdict("late", "early", comparison.tables["early"], ["schedule_days"])
    assert any(line.startswith("early finishes") and "sooner than late" in line for line in lines)


def test_tornado_ranks_a_lever_with_no_effect_last(base: Scenario) -> None:
    # add_core_staff_day does nothing while add_core_staff is 0: listed first, ranked last.
    ranges = [
        LeverRange("levers.add_core_staff_day", 10.0, 150.0),
        LeverRange("levers.safety_from_start", False, True),
        LeverRange("levers.reserve_fraction", 0.0, 0.25),
    ]
    table, skipped = analysis.tornado(base, "schedule_days", 12, seed=2, ranges=ranges)
    assert table["p_top3"].iloc[-1] == 0.0
    # The setting the base already has is the design itself: a whisker of no width.
    assert base.levers.safety_from_start is True
    row = table.set_index("lever").loc["levers.safety_from_start"]
    assert row["high_from"] == row["high_to"] == row["base"]
    assert row["low_from"] < row["metric_low"] < row["low_to"]
    assert skipped == []
    assert table["lever"].iloc[-1] == "levers.add_core_staff_day"
    assert table["swing"].iloc[-1] == 0.0
    assert (table["effect"].iloc[:-1] > 0).all()


def test_tornado_skips_a_setting_the_base_rejects(base: Scenario) -> None:
    no_base_model = apply_delta(base, {"model.base_model": None})
    designs, skipped = analysis.tornado_designs(
        no_base_model, [LeverRange("levers.strategy", "pretrain", "adapt")]
    )
    assert list(designs) == ["base"]
    assert skipped and skipped[0].startswith("Strategy:")


def test_default_tornado_leaves_out_a_lever_whose_partner_is_off(base: Scenario) -> None:
    assert base.levers.add_core_staff == 0
    designs, skipped = analysis.tornado_designs(base)
    assert "People added to the core, on day: no effect while people added to the core is 0" in (
        skipped
    )
    assert not any("add_core_staff_day" in name for name in designs)
    staffed = apply_delta(base, {"levers.add_core_staff": 2})
    designs, skipped = analysis.tornado_designs(staffed)
    assert not any("add_core_staff_day" in s for s in skipped)
    assert sum("add_core_staff_day" in name for name in designs) == 2


def test_criticality_table_is_long(base: Scenario) -> None:
    frames = run_designs({"A": base}, 6, seed=1)
    crit = analysis.criticality_table(frames)
    assert set(crit["kind"]) <= {"team", "handoff"}
    assert crit["share"].between(0, 1).all()
    assert set(crit.loc[crit["kind"] == "team", "name"]) == set(base.team_ids)


def test_the_scope_line_appears_only_when_tokens_trained_differ_clearly() -> None:
    assert analysis.scope_line("A", "B", 4_000.0, 4_000.0) is None
    assert analysis.scope_line("A", "B", 4_000.0, 3_640.0) is None  # 9% fewer
    fewer = analysis.scope_line("A", "B", 4_133.0, 2_480.0)
    assert fewer is not None
    assert "B trained 40% fewer tokens than A" in fewer and "2,480B against 4,133B" in fewer
    assert "shorter run finishes sooner" in fewer
    more = analysis.scope_line("A", "B", 2_000.0, 3_000.0)
    assert more is not None and "50% more" in more and "longer run" in more
    assert analysis.scope_line("A", "B", 0.0, 10.0) is None
