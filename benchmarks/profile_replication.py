"""Profile replications of one scenario and print the hottest functions.

Usage: ``PYTHONPATH=. python benchmarks/profile_replication.py [scenario.yaml] [reps] [top]``
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

from sim.runner import replicate
from sim.scenario.loading import load_scenario


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("scenarios/assistant_7b.yaml")
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    scenario = load_scenario(path)
    replicate(scenario, 0, 0)  # warm caches and imports outside the profile
    profiler = cProfile.Profile()
    profiler.enable()
    for rep in range(reps):
        replicate(scenario, 0, rep)
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


if __name__ == "__main__":
    main()
