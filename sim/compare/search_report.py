"""A finished search as the user reads it: the ``sim optimize --json`` object and its parts.

The best few designs are confirmed beside the baseline on fresh worlds with the compare
page's own machinery (:func:`sim.compare.inference.compare_designs`, the same verdict
lines, intervals and summaries), then the frontier and the importance of each choice.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim.compare.analysis import comparison_lines
from sim.compare.editing import readable_changes
from sim.compare.inference import Comparison, compare_designs, paired_summary
from sim.compare.search import (
    IMPORTANCE_METHOD,
    OBJECTIVE_COLUMNS,
    Search,
    TrialRecord,
    best_designs,
    confirm,
    frontier,
    importances,
    open_pool,
    summary_counts,
    trial_rows,
)
from sim.scenario.spec import Scenario
from sim.summary import interval_summary, summarize_runs


@dataclass
class Confirmed:
    """The baseline and the best designs on the confirmation's worlds, compared."""

    designs: dict[str, Scenario]
    frames: dict[str, pd.DataFrame]
    comparison: Comparison
    picked: list[TrialRecord]
    seed: int


def confirmed(search: Search, pool: Executor | None = None) -> Confirmed:
    """Run and compare the baseline and the best designs on fresh worlds."""
    picked = best_designs(search)
    if pool is None and search.settings.workers > 1:
        with open_pool(search.settings) as opened:
            designs, frames, seed = confirm(search, picked, opened)
    else:
        designs, frames, seed = confirm(search, picked, pool)
    primary = OBJECTIVE_COLUMNS[search.settings.objective]
    comparison = compare_designs(frames, designs["baseline"], primary=primary, seed=seed)
    return Confirmed(designs, frames, comparison, picked, seed)


def _stats(name: str, design: Scenario, frame: pd.DataFrame, seed: int) -> dict[str, Any]:
    return {
        "name": name,
        **summarize_runs(frame, design, seed),
        "intervals": interval_summary(frame),
    }


def _point(r: TrialRecord, objective: str) -> dict[str, Any]:
    return {
        "trial": r.number,
        objective: r.value,
        "cost_usd_mean": r.cost_usd,
        "schedule_days_p50": r.schedule_days,
        "changes": r.delta,
    }


def report(search: Search, c: Confirmed) -> dict[str, Any]:
    """The ``sim optimize --json`` object: DESIGN.md's keys first (baseline, best, frontier)."""
    s = search.settings
    base = search.base
    best = c.picked[0] if c.picked else None
    lines = comparison_lines(c.comparison, c.frames, base)
    top = []
    for r in c.picked:
        name = f"trial {r.number}"
        top.append(
            {
                **_stats(name, c.designs[name], c.frames[name], c.seed),
                "trial": r.number,
                "search_value": r.value,
                "changes": r.delta,
                "changes_in_words": readable_changes(base, c.designs[name]),
                "verdict": lines.get(name, []),
                "paired": paired_summary(c.comparison).get(name, {}),
            }
        )
    imp = importances(search)
    words = {ch.name: ch.words for ch in search.space}
    return {
        "scenario": base.name,
        "objective": s.objective,
        "seed": s.seed,
        "trials": s.trials,
        "reps": s.reps,
        "rungs": search.rungs,
        "confirm_reps": s.confirm_reps,
        "confirm_seed": c.seed,
        "constraints": s.constraints.as_json(),
        "baseline": _stats("baseline", base, c.frames["baseline"], c.seed),
        "best": top[0] if top else None,
        "top": top,
        "frontier": [_point(r, s.objective) for r in frontier(search)],
        "importance": {
            "method": IMPORTANCE_METHOD,
            "params": [
                {"choice": k, "importance": v, "what": words.get(k, "")} for k, v in imp.items()
            ],
        },
        "search": {
            "sampler": "TPE, re-seeded from (seed, trial number) at each trial",
            "pruner": f"successive halving, rungs of {search.rungs} worlds, the best third go on",
            "counts": summary_counts(search),
            "best_trial": best.number if best else None,
            "study": search.study.study_name,
            "trials": trial_rows(search),
        },
        "verdict": lines,
        "best_line": c.comparison.best,
    }
