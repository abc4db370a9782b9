"""Sweeps over levers: grids, tidy tables, batches, and the same numbers on every executor."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sim.compare.sweep import (
    Axis,
    combine,
    grid_designs,
    grid_points,
    parse_axis,
    point_name,
    run_batch,
    sweep,
)
from sim.runner import run_designs
from sim.scenario.loading import ScenarioError, load_scenario
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parents[1]
AXES = (
    "levers.reserve_fraction=0,0.2",
    "levers.ablation_fraction=0.02,0.1",
    "org.teams.pretraining.headcount=3,6",
)


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")


def test_parse_axis_reads_values_as_yaml_scalars() -> None:
    assert parse_axis("levers.reserve_fraction=0, 0.1,0.2") == Axis(
        "levers.reserve_fraction", (0, 0.1, 0.2)
    )
    assert parse_axis("levers.decontaminate=true,false").values == (True, False)
    assert parse_axis("levers.strategy=pretrain,adapt").values == ("pretrain", "adapt")


@pytest.mark.parametrize(
    "text", ["levers.reserve_fraction", "levers.reserve_fraction=", "a=1,,2", "a=1,1"]
)
def test_bad_axes_are_user_errors(text: str) -> None:
    with pytest.raises(ScenarioError):
        parse_axis(text)


def test_grid_is_every_combination_first_axis_slowest() -> None:
    points = grid_points([Axis("a", (1, 2)), Axis("b", ("x", "y", "z"))])
    assert len(points) == 6
    assert points[:2] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}]
    assert point_name(points[0]) == "a=1, b=x"
    with pytest.raises(ScenarioError, match="at most"):
        grid_points([Axis("a", tuple(range(30))), Axis("b", tuple(range(30)))])


def test_a_bad_value_names_its_grid_value(base: Scenario) -> None:
    with pytest.raises(ScenarioError) as err:
        grid_designs(base, [parse_axis("levers.reserve_fraction=0.1,0.9")])
    assert str(err.value).startswith("--grid levers.reserve_fraction=0.9: ")


def test_sweep_returns_one_tidy_row_per_point(base: Scenario) -> None:
    axes = [parse_axis(a) for a in AXES]
    table = sweep(base, axes, 10, seed=3, workers=1)
    assert len(table) == 8
    assert list(table.columns[:4]) == [a.path for a in axes] + ["reps"]
    assert (table["reps"] == 10).all()
    # Every cell carries its intervals: t on means, Wilson on chances, order statistics on P90.
    assert (table["schedule_days_mean_low"] < table["schedule_days_mean"]).all()
    assert (table["schedule_days_mean"] < table["schedule_days_mean_high"]).all()
    assert (table["p_success_low"] <= table["p_success"]).all()
    assert (table["p_success"] <= table["p_success_high"]).all()
    assert table["p_success_high"].gt(table["p_success_low"]).all(), "never zero width"
    assert table["schedule_days_p90_high"].isna().all(), "10 worlds cannot bound P90 above"
    for column in ("schedule_days_p90", "cost_usd_mean", "p_success", "p_on_budget"):
        assert column in table
    assert table["p_success"].between(0, 1).all()
    assert not table.duplicated(subset=[a.path for a in axes]).any()


def test_batches_give_the_numbers_of_one_run(base: Scenario) -> None:
    designs = {"a": base}
    whole = run_designs(designs, 9, seed=4)["a"]
    parts = combine([run_batch(designs, 4, 0, 4), run_batch(designs, 4, 4, 9, workers=2)])["a"]
    pd.testing.assert_frame_equal(whole, parts, check_like=True)


def test_same_numbers_on_the_process_pool_and_a_local_dask_cluster(base: Scenario) -> None:
    import distributed  # noqa: F401  (the dask extra, which scripts/test.sh installs)

    axes = [parse_axis(AXES[0]), parse_axis(AXES[2])]
    serial = sweep(base, axes, 10, seed=7, workers=1)
    pool = sweep(base, axes, 10, seed=7, workers=2)
    dask = sweep(base, axes, 10, seed=7, workers=2, executor="dask")
    pd.testing.assert_frame_equal(serial, pool)
    pd.testing.assert_frame_equal(serial, dask)
