"""How much faster replications run on two workers than serially, measured on a busy machine.

``sim bench`` divides the serial run's CPU seconds by the parallel run's wall seconds: right
on a quiet machine, unfair on a shared one (the parallel run waits for CPUs others hold).
This alternates serial and two-worker runs of the same replications and reports, per round,

- wall over wall (both wait alike for the machine),
- ``sim bench``'s serial CPU over parallel wall,
- the bound the CPU allows: serial CPU seconds over the busier worker's (the workers' CPU
  from ``RUSAGE_CHILDREN``, taken as shared evenly; the parent's own CPU is printed too),

with the load average beside each round. Numbers are never compared: only speed.

Usage: ``PYTHONPATH=. python benchmarks/parallel_scaling.py [scenario] [reps] [rounds]``
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time

from sim.runner import WorkerPool, run_on, run_replications
from sim.scenario.loading import load_scenario

WORKERS = 2


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    name = sys.argv[1] if len(sys.argv) > 1 else "assistant_7b"
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    scenario = load_scenario(name)
    run_replications(scenario, 20, 0, workers=1)  # the scenario's facts, made once here
    ratios: list[tuple[float, float, float]] = []
    for r in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        run_replications(scenario, reps, 0, workers=1)
        serial_wall, serial_cpu = time.perf_counter() - wall, time.process_time() - cpu
        load = os.getloadavg()[0]
        children, wall, cpu = _children_cpu(), time.perf_counter(), time.process_time()
        pool = WorkerPool(WORKERS)
        try:
            run_on(pool, {"design": scenario}, range(reps), 0, workers=WORKERS)
        finally:
            pool.shutdown()  # waits for the workers, so their CPU is counted
        parallel_wall, parent_cpu = time.perf_counter() - wall, time.process_time() - cpu
        workers_cpu = _children_cpu() - children
        bound = serial_cpu / (workers_cpu / WORKERS)
        ratios.append((serial_wall / parallel_wall, serial_cpu / parallel_wall, bound))
        print(
            f"round {r}: serial {serial_wall:.2f} s wall, {serial_cpu:.2f} s CPU | "
            f"{WORKERS} workers {parallel_wall:.2f} s wall, workers {workers_cpu:.2f} s CPU, "
            f"parent {parent_cpu:.2f} s | wall/wall {ratios[-1][0]:.2f}, "
            f"bench-style {ratios[-1][1]:.2f}, CPU bound {bound:.2f} | "
            f"load {load:.1f} -> {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    for label, k in (("wall/wall", 0), ("bench-style", 1), ("CPU bound", 2)):
        print(f"median {label}: {statistics.median(r[k] for r in ratios):.2f}")


if __name__ == "__main__":
    main()
