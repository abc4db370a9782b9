"""Do the compare intervals hold their coverage on the model's own lumpy differences?

Issue 26.2's seeded study: on the 7B, two pairs whose paired differences are lumpy (most
worlds equal, a few far apart) - reserve 0.10 -> 0.12, and $100k of data work against
none. A large reference (``--reference`` worlds, seed 0) gives each metric's true mean
difference; then ``--seeds`` comparisons of ``--worlds`` worlds each (seeds 1, 2, ...,
fresh worlds every time) are run through :func:`sim.compare.inference.compare_designs`,
exactly as ``sim compare`` judges them. For each metric it prints:

- coverage: the share of comparisons whose 95% interval holds the reference difference
  (target >= 0.93, issue 26), with its binomial standard error;
- the verdicts given ("clear", "alike", "not yet known");
- wrong-sign "clear": a clear verdict whose difference has the opposite sign of the
  reference's (target: none);
- rough: the share of rows flagged too lumpy to judge at that many worlds.

The reference's own error is printed beside it (its standard error); a reference within
two of its standard errors of zero has no sign, and a "clear" there is counted apart.

Usage: ``PYTHONPATH=. python benchmarks/verdict_coverage.py [--seeds 200] [--worlds 50]
[--reference 5000] [--workers 2]`` (about 4 minutes on 2 busy cores at the defaults).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np
import pandas as pd

from sim.compare.inference import compare_designs
from sim.designs import with_overrides
from sim.runner import run_designs
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Scenario

SCENARIO = "scenarios/assistant_7b.yaml"
METRICS = ("schedule_days", "cost_usd", "effort_person_days", "success", "on_budget")
TARGET = 0.93


def pairs(base: Scenario) -> dict[str, Scenario]:
    return {
        "reserve 0.10 -> 0.12": with_overrides(base, {"levers.reserve_fraction": 0.12}),
        "data work $100k": with_overrides(base, {"levers.data_investment_usd": 100_000.0}),
    }


def reference(
    base: Scenario, alt: Scenario, n: int, workers: int
) -> dict[str, tuple[float, float]]:
    frames = run_designs({"A": base, "B": alt}, n, seed=0, workers=workers)
    out = {}
    for key in METRICS:
        d = frames["B"][key].astype(float) - frames["A"][key].astype(float)
        out[key] = (float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))))
    return out


def study(
    base: Scenario, alt: Scenario, truth: dict[str, tuple[float, float]], args: argparse.Namespace
) -> pd.DataFrame:
    hits: Counter[str] = Counter()
    verdicts: dict[str, Counter[str]] = {k: Counter() for k in METRICS}
    wrong: Counter[str] = Counter()
    unsigned_clear: Counter[str] = Counter()
    rough: Counter[str] = Counter()
    for seed in range(1, args.seeds + 1):
        frames = run_designs({"A": base, "B": alt}, args.worlds, seed=seed, workers=args.workers)
        comparison = compare_designs(frames, base)
        for key in METRICS:
            row = comparison.row("B", key)
            true, se = truth[key]
            hits[key] += bool(row["low"] <= true <= row["high"])
            verdicts[key][str(row["verdict"])] += 1
            rough[key] += bool(row.get("rough"))
            if row["verdict"] == "clear":
                if abs(true) <= 2 * se:
                    unsigned_clear[key] += 1
                elif np.sign(row["mean"]) != np.sign(true):
                    wrong[key] += 1
    n = args.seeds
    rows = []
    for key in METRICS:
        cov = hits[key] / n
        rows.append(
            {
                "metric": key,
                "reference": f"{truth[key][0]:+.4g} ± {2 * truth[key][1]:.2g}",
                "coverage": round(cov, 3),
                "± se": round(math.sqrt(cov * (1 - cov) / n), 3),
                "meets": "yes" if cov >= TARGET else "NO",
                "clear": verdicts[key]["clear"],
                "alike": verdicts[key]["alike"],
                "not yet known": verdicts[key]["not yet known"],
                "wrong-sign clear": wrong[key],
                "clear, no sign": unsigned_clear[key],
                "rough": round(rough[key] / n, 2),
            }
        )
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--worlds", type=int, default=50)
    ap.add_argument("--reference", type=int, default=5000)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    base = load_scenario(SCENARIO)
    for name, alt in pairs(base).items():
        t0 = time.perf_counter()
        truth = reference(base, alt, args.reference, args.workers)
        table = study(base, alt, truth, args)
        took = time.perf_counter() - t0
        print(f"\n{name}: {args.seeds} comparisons of {args.worlds} worlds, reference "
              f"{args.reference} worlds ({took:.0f} s)")  # fmt: skip
        print(table.to_string(index=False))


if __name__ == "__main__":
    main()
