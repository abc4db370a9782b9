"""The runner pauses Python's cyclic garbage collector during a play, and only then.

The pause is a speed measure (docs/model.md, "Speed"): no number may depend on it, the
collector must be on again after every play (and off again if the caller had it off),
and a play's cycles must be freed once it ends.
"""

from __future__ import annotations

import gc
import threading
from pathlib import Path

import pytest

from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.runner import collector_paused, replicate
from sim.scenario.loading import load_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture(scope="module")
def scenario():  # type: ignore[no-untyped-def]
    return load_scenario(SCENARIOS / "assistant_7b.yaml")


def test_the_collector_is_off_during_a_play_and_on_after(scenario, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    seen: list[bool] = []

    def watched(model):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return outcome_row(model)

    monkeypatch.setattr("sim.runner.outcome_row", watched)
    assert gc.isenabled()
    replicate(scenario, 3, 0)
    assert seen == [False]
    assert gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off(scenario) -> None:  # type: ignore[no-untyped-def]
    gc.disable()
    try:
        replicate(scenario, 3, 0)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_in_a_play_turns_the_collector_back_on() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("a play failed")
    assert gc.isenabled()


def test_overlapping_pauses_end_with_the_collector_on() -> None:
    """Dask runs plays in threads: the collector is on once the last pause ends."""
    first_in, second_done = threading.Event(), threading.Event()
    states: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_done.wait(timeout=60)
            states.append(gc.isenabled())  # the second ended: still paused for this one

    t = threading.Thread(target=first)
    t.start()
    assert first_in.wait(timeout=60)
    with collector_paused():
        assert not gc.isenabled()
    second_done.set()
    t.join(timeout=60)
    assert states == [False]
    assert gc.isenabled()


def test_the_numbers_do_not_depend_on_the_collector(scenario) -> None:  # type: ignore[no-untyped-def]
    paused = [replicate(scenario, 11, rep) for rep in range(6)]
    with_collector = []
    thresholds = gc.get_threshold()
    for rep in range(6):
        gc.collect()
        gc.set_threshold(50, 1000, 1000)  # young collections 14 times as often as by default
        try:
            model = ProjectModel(scenario, seed=11, replication=rep, observed=False)
            model.env.run()
            row = outcome_row(model)
        finally:
            gc.set_threshold(*thresholds)
        row["rep"] = rep
        with_collector.append(row)
    assert paused == with_collector


def test_a_plays_cycles_are_freed_after_it(scenario) -> None:  # type: ignore[no-untyped-def]
    replicate(scenario, 5, 0)
    gc.collect()
    before = len(gc.get_objects())
    for rep in range(1, 6):
        replicate(scenario, 5, rep)
    gc.collect()
    assert len(gc.get_objects()) - before < 2_000  # no play's state is left behind
