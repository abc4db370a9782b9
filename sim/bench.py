"""Speed of the model against a bare SimPy loop, measured in the same process and run.

The ratio is bare-SimPy events per second over model events per second: how many
times more each model event costs than SimPy's own scheduling. Serial figures are
timed in this process's CPU seconds (``time.process_time``), so other work on a shared
machine does not count against the model; the parallel figure is wall time. A model event is a step
of the play as the model defines it; the training run settles most of its steps and
restarts without a SimPy event each (docs/model.md, "Speed"), so the SimPy events a
replication really schedules are reported beside them. Each side is timed in
``REPEATS`` passes and its fastest pass kept, as ``timeit`` advises: the slower passes
measure what else the machine was doing, not the code.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import simpy

from sim import native
from sim.engine.model import ProjectModel
from sim.runner import run_replications
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
    start = time.process_time()
    env.run()
    return per * processes / (time.process_time() - start)


@dataclass(frozen=True)
class ModelSpeed:
    """The fastest serial pass over ``reps`` replications of one scenario."""

    events_per_second: float
    events_per_replication: float
    #: The part of ``events_per_replication`` that went through SimPy's queue.
    simpy_events_per_replication: float


def model_speed(scenario: Scenario, reps: int = 50, seed: int = 0) -> ModelSpeed:
    """Events per second and per replication of the full project model, serially.

    The fastest of the passes; the first also pays the scenario's one-off set-up.
    """
    passes = [_model_pass(scenario, reps, seed) for _ in range(REPEATS)]
    events, settled, seconds = min(passes, key=lambda p: p[2])
    return ModelSpeed(events / seconds, events / reps, (events - settled) / reps)


def model_events_per_second(scenario: Scenario, reps: int = 50, seed: int = 0) -> float:
    """Events per second of the full project model, serially (the fastest pass)."""
    return model_speed(scenario, reps, seed).events_per_second


def _model_pass(scenario: Scenario, reps: int, seed: int) -> tuple[int, int, float]:
    events = settled = 0
    start = time.process_time()
    for rep in range(reps):
        m = ProjectModel(scenario, seed=seed, replication=rep)
        m.env.run()
        events += m.env.events_processed
        settled += m.env.events_settled
    return events, settled, time.process_time() - start


def replications_per_second(scenario: Scenario, reps: int, workers: int, seed: int = 0) -> float:
    """Replications per second through the runner: CPU time when serial, else wall time."""
    clock = time.process_time if workers == 1 else time.perf_counter
    start = clock()
    run_replications(scenario, reps, seed, workers=workers)
    return reps / (clock() - start)


def scenario_speed(
    scenario: Scenario, bare: float, reps: int = 200, workers: int = 2, seed: int = 0
) -> dict[str, Any]:
    """One scenario's speed: per event against bare SimPy, and replications per second."""
    speed = model_speed(scenario, reps=min(reps, 100), seed=seed)
    serial = replications_per_second(scenario, reps, 1, seed)
    return {
        "scenario": scenario.name,
        "events_per_replication": speed.events_per_replication,
        "simpy_events_per_replication": speed.simpy_events_per_replication,
        "model_events_per_second": speed.events_per_second,
        "ratio": bare / speed.events_per_second,
        "replications_per_second_serial": serial,
        #: A replication's CPU time in bare-SimPy events (issue 23's measure).
        "bare_events_per_replication": bare / serial,
        "replications_per_second": replications_per_second(scenario, reps, workers, seed),
    }


def bench(scenario: Scenario, reps: int = 200, workers: int = 2, seed: int = 0) -> dict[str, Any]:
    """The speed of one scenario, with the bare SimPy loop it is measured against."""
    return bench_all({"": scenario}, reps=reps, workers=workers, seed=seed)


def bench_all(
    scenarios: Mapping[str, Scenario], reps: int = 200, workers: int = 2, seed: int = 0
) -> dict[str, Any]:
    """Every scenario's speed in the same run; the top-level keys are the first scenario's.

    ``scenarios`` maps a name to show (a file or shipped name) to its scenario.
    """
    bare = bare_simpy_events_per_second()
    rows = [
        {"name": name, **scenario_speed(sc, bare, reps, workers, seed)}
        for name, sc in scenarios.items()
    ]
    first = {k: v for k, v in rows[0].items() if k != "name"}
    return {
        **first,
        "engine": "compiled" if native.running_compiled() else "python",
        "bare_simpy_events_per_second": bare,
        "reps": reps,
        "workers": workers,
        "scenarios": rows,
    }


# --- start-up of the command line ---------------------------------------------------------------

#: The commands whose start-up is timed: the cheapest and the most common.
STARTUP_COMMANDS: tuple[tuple[str, ...], ...] = (("--help",), ("validate", "assistant_7b"))


def startup_seconds(args: Sequence[str], runs: int = 5) -> dict[str, float]:
    """Wall time of ``python -m sim ARGS`` in fresh processes: fastest and median of ``runs``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "sim", *args],
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "COLUMNS": "80"},
        )
        times.append(time.perf_counter() - start)
    return {"min": min(times), "median": statistics.median(times)}


def startup(runs: int = 5) -> dict[str, dict[str, float]]:
    """Start-up time of each of :data:`STARTUP_COMMANDS`, and of a bare ``python -c pass``."""
    out = {" ".join(args): startup_seconds(args, runs) for args in STARTUP_COMMANDS}
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=False)
        times.append(time.perf_counter() - start)
    out["python -c pass"] = {"min": min(times), "median": statistics.median(times)}
    return out
