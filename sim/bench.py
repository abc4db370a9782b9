"""Speed of the model against a bare SimPy loop, measured in the same process and run.

The ratio is bare-SimPy events per second over model events per second: how many
times more each model event costs than SimPy's own scheduling. Each side is timed in
``REPEATS`` passes and its fastest pass kept, as ``timeit`` advises: the slower passes
measure what else the machine was doing, not the code.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from typing import Any

import numpy as np
import simpy

from sim.compare.runner import run_replications
from sim.engine.model import ProjectModel
from sim.scenario.spec import Scenario

#: Timed passes per side; the fastest is kept.
REPEATS = 3


def bare_simpy_events_per_second(events: int = 200_000, processes: int = 20) -> float:
    """Events per second of processes that only wait on timeouts (fastest of the passes)."""
    return max(_bare_pass(events, processes) for _ in range(REPEATS))


def _bare_pass(events: int, processes: int) -> float:
    env = simpy.Environment()
    rng = np.random.default_rng(0)
    gaps = rng.exponential(1.0, size=events)
    per = events // processes

    def proc(offset: int) -> Generator[simpy.Event, Any, None]:
        for i in range(per):
            yield env.timeout(gaps[offset + i])

    for p in range(processes):
        env.process(proc(p * per))
    start = time.perf_counter()
    env.run()
    return per * processes / (time.perf_counter() - start)


def model_events_per_second(scenario: Scenario, reps: int = 50, seed: int = 0) -> float:
    """Events per second of the full project model, serially, over ``reps`` replications.

    The fastest of the passes; the first also pays the scenario's one-off set-up.
    """
    return max(_model_pass(scenario, reps, seed) for _ in range(REPEATS))


def _model_pass(scenario: Scenario, reps: int, seed: int) -> float:
    events = 0
    start = time.perf_counter()
    for rep in range(reps):
        m = ProjectModel(scenario, seed=seed, replication=rep)
        m.env.run()
        events += m.env.events_processed
    return events / (time.perf_counter() - start)


def replications_per_second(scenario: Scenario, reps: int, workers: int, seed: int = 0) -> float:
    start = time.perf_counter()
    run_replications(scenario, reps, seed, workers=workers)
    return reps / (time.perf_counter() - start)


def bench(scenario: Scenario, reps: int = 200, workers: int = 2, seed: int = 0) -> dict[str, Any]:
    bare = bare_simpy_events_per_second()
    model = model_events_per_second(scenario, reps=min(reps, 100), seed=seed)
    return {
        "scenario": scenario.name,
        "model_events_per_second": model,
        "bare_simpy_events_per_second": bare,
        "ratio": bare / model,
        "replications_per_second": replications_per_second(scenario, reps, workers, seed),
        "replications_per_second_serial": replications_per_second(scenario, reps, 1, seed),
        "reps": reps,
        "workers": workers,
    }
