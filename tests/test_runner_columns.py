"""The runner's columnar tables are the tables the chunks' join makes, to the bit.

``Columns`` fills one array per outcome as chunks arrive (so a large comparison never holds
its chunks and their join at once); ``_combined`` is the join it replaces. Both must give
the same frame: values, types and column order, whatever order the chunks arrive in.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.runner import Columns, _chunks, _combined, replicate_frame
from sim.scenario.loading import load_scenario

SCENARIOS = sorted(p.stem for p in Path("scenarios").glob("*.yaml"))


def _both(
    parts: list[pd.DataFrame], reps: list[int], order: list[int], in_place: bool = False
) -> tuple[pd.DataFrame, pd.DataFrame]:
    table = Columns(reps)
    for k in order:
        table.add(parts[k])
    if in_place:  # written into its arrays, not kept as chunks
        assert table._parts is None
    return table.frame(), _combined([parts[k] for k in order])


def _same(new: pd.DataFrame, old: pd.DataFrame) -> None:
    assert list(new.columns) == list(old.columns)
    assert list(new.dtypes) == list(old.dtypes)
    pd.testing.assert_frame_equal(new, old, check_exact=True)
    for c in new.columns:  # NaN in the same places, every float bit for bit
        a, b = new[c].to_numpy(), old[c].to_numpy()
        if a.dtype.kind == "f":
            assert np.array_equal(a.view("int64"), b.view("int64")), c


@pytest.mark.parametrize("name", SCENARIOS)
def test_columns_equal_the_join(name: str) -> None:
    scenario = load_scenario(name)
    reps = list(range(3, 83))
    batches = _chunks(len(reps), 2, 1)[0]
    parts = [replicate_frame(scenario, 0, [reps[i] for i in b]) for b in batches]
    order = list(range(len(parts)))
    random.Random(name).shuffle(order)  # as_completed: any order
    _same(*_both(parts, reps, order, in_place=True))


def test_a_chunk_unlike_the_first_falls_back_to_the_join() -> None:
    scenario = load_scenario("assistant_7b")
    reps = list(range(12))
    parts = [replicate_frame(scenario, 0, reps[i : i + 4]) for i in range(0, 12, 4)]
    odd = parts[1].drop(columns=["cost_usd"])  # a column missing: the join fills NaN
    odd["schedule_days"] = odd["schedule_days"].astype("float32")  # another type
    parts[1] = odd
    for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0]):
        new, old = _both(parts, reps, order)
        _same(new, old)
        assert new["cost_usd"].isna().sum() == 4


def test_a_count_seen_in_one_chunk_is_zero_elsewhere() -> None:
    scenario = load_scenario("frontier_405b")
    reps = list(range(30))
    parts = [replicate_frame(scenario, 0, reps[i : i + 5]) for i in range(0, 30, 5)]
    parts[2] = parts[2].assign(**{"incident:only_here": [1, 0, 2, 0, 1]})
    new, old = _both(parts, reps, [5, 2, 0, 4, 1, 3])
    _same(new, old)
    assert new["incident:only_here"].tolist() == [0] * 10 + [1, 0, 2, 0, 1] + [0] * 15
