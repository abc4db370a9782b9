"""A finished search as the user reads it: the ``sim optimize --json`` object and its parts.

The best few designs are confirmed beside the baseline on fresh worlds with the compare
page's own machinery (:func:`sim.compare.inference.compare_designs`, the same verdict
lines, intervals and summaries), then the frontier and the importance of each choice.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sim.compare.analysis import comparison_lines
from sim.compare.editing import readable_changes
from sim.compare.inference import Comparison, compare_designs, paired_summary
from sim.compare.prune import (
    ALPHA,
    PRUNE_SEED_OFFSET,
    QUESTION_ALPHA,
    Pruned,
    Worth,
    combine,
    prune,
    worth,
)
from sim.compare.screen import T_MIN
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
from sim.designs import apply_delta
from sim.runner import run_on
from sim.scenario.spec import Scenario
from sim.summary import interval_summary, summarize_runs

#: The design the pruning leaves, as the confirmation names it.
RECOMMENDED = "recommended"


@dataclass
class Confirmed:
    """The baseline, the recommendation and the best designs on fresh worlds, compared."""

    designs: dict[str, Scenario]
    frames: dict[str, pd.DataFrame]
    comparison: Comparison
    picked: list[TrialRecord]
    seed: int
    #: The best design pruned to the changes that pay (None when no design was picked).
    pruned: Pruned | None = None
    #: Each change's on/off worth on the pruning's worlds (``prune.on_off``).
    on_off: dict[str, Any] = field(default_factory=dict)
    #: Each kept change's own worth in the recommendation, on the confirmation's worlds.
    own: dict[str, Worth] = field(default_factory=dict)


def _confirm_all(search: Search, pool: Executor | None) -> Confirmed:
    s = search.settings
    picked = best_designs(search)
    column = OBJECTIVE_COLUMNS[s.objective]
    pruned: Pruned | None = None
    on_off: dict[str, Any] = {}
    if picked:
        pruned, on_off = prune(
            search.base,
            picked[0].delta,
            column,
            s.confirm_reps,
            s.seed + PRUNE_SEED_OFFSET,
            s.constraints,
            pool,
            s.workers,
        )
    extra = {RECOMMENDED: pruned.delta} if pruned is not None and pruned.kept else {}
    designs, frames, seed = confirm(search, picked, pool, extra)
    own: dict[str, Worth] = {}
    if extra and pruned is not None:
        without = {
            c.key: apply_delta(
                search.base, combine(search.base, [o for o in pruned.kept if o is not c])
            )
            for c in pruned.kept
        }
        ran = run_on(pool, without, range(s.confirm_reps), seed, workers=s.workers)
        for key, frame in ran.items():
            own[key] = worth(frames[RECOMMENDED][column], frame[column])
    primary = column
    comparison = compare_designs(frames, designs["baseline"], primary=primary, seed=seed)
    return Confirmed(designs, frames, comparison, picked, seed, pruned, on_off, own)


def confirmed(search: Search, pool: Executor | None = None) -> Confirmed:
    """Prune the best design, then run and compare the designs on fresh worlds."""
    if pool is None and search.settings.workers > 1:
        with open_pool(search.settings) as opened:
            return _confirm_all(search, opened)
    return _confirm_all(search, pool)


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
    rec = _recommended(search, c, lines)
    front = frontier(search)
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
        "recommended": rec,
        "nothing_better": None if rec and rec["beats_baseline"] else _nothing_line(search, c),
        "frontier": [_point(r, s.objective) for r in front],
        "cheaper": [_point(r, s.objective) for r in cheaper_than_baseline(search)],
        "importance": {
            "method": c.on_off.get("method", "no design changed anything"),
            "params": c.on_off.get("params", []),
            "fanova": {
                "method": IMPORTANCE_METHOD,
                "params": [
                    {"choice": k, "importance": v, "what": words.get(k, "")} for k, v in imp.items()
                ],
            },
        },
        "search": {
            "sampler": "TPE, re-seeded from (seed, trial number) at each trial",
            "screen": (
                "each choice alone on the baseline's worlds, paired; those paying at "
                f"t >= {T_MIN:g} are the first trials"
                if search.settings.screen
                else "off"
            ),
            "screened": [r.origin for r in search.records if r.origin not in ("TPE", "baseline")],
            "pruner": f"successive halving, rungs of {search.rungs} worlds, the best third go on",
            "counts": summary_counts(search),
            "best_trial": best.number if best else None,
            "study": search.study.study_name,
            "trials": trial_rows(search),
        },
        "verdict": lines,
        "best_line": c.comparison.best,
    }


def cheaper_than_baseline(search: Search) -> list[TrialRecord]:
    """Frontier designs that change something and cost less than the baseline on average."""
    base = next((r for r in search.records if not r.delta and r.cost_usd is not None), None)
    if base is None:
        return []
    return [r for r in frontier(search) if r.delta and (r.cost_usd or 0) < (base.cost_usd or 0)]


def _recommended(
    search: Search, c: Confirmed, lines: dict[str, list[str]]
) -> dict[str, Any] | None:
    """The pruned design: its numbers on fresh worlds and each change with its own worth."""
    p = c.pruned
    if p is None:
        return None
    s = search.settings
    metric = OBJECTIVE_COLUMNS[s.objective]
    kept = []
    why = {st.change.key: st.why for st in p.steps if not st.dropped}
    for ch in p.kept:
        mine = c.own.get(ch.key)
        kept.append(
            {
                "change": ch.key,
                "what": ch.words,
                "doubt": ch.doubt,
                "why": why.get(ch.key, "kept: it pays"),
                "bar": QUESTION_ALPHA if ch.doubt else ALPHA,
                "worth": mine.as_json() if mine else None,
                "worth_pruning": _json(p.final.get(ch.key)),
            }
        )
    dropped = [
        {
            "change": st.change.key,
            "what": st.change.words,
            "doubt": st.change.doubt,
            "why": st.why,
            "worth": st.worth.as_json() if st.worth else None,
        }
        for st in p.steps
        if st.dropped
    ]
    out: dict[str, Any] = {
        "changes": p.delta,
        "each": kept,
        "dropped": dropped,
        "pruning": {
            "method": "greedy backward elimination on fresh paired worlds (docs/compare.md)",
            "seed": p.seed,
            "worlds": p.reps,
            "designs_run": p.designs_run,
            "from_trial": c.picked[0].number if c.picked else None,
            "changes_before": len(p.kept) + len(p.dropped),
        },
        "beats_baseline": False,
    }
    if RECOMMENDED in c.frames:
        paired = paired_summary(c.comparison).get(RECOMMENDED, {})
        row = paired.get(metric, {})
        out.update(
            _stats(RECOMMENDED, c.designs[RECOMMENDED], c.frames[RECOMMENDED], c.seed),
            changes_in_words=readable_changes(search.base, c.designs[RECOMMENDED]),
            verdict=lines.get(RECOMMENDED, []),
            paired=paired,
            beats_baseline=row.get("verdict") == "clear" and (row.get("low") or 0) > 0,
        )
    return out


def _json(w: Worth | None) -> dict[str, Any] | None:
    return w.as_json() if w else None


def _nothing_line(search: Search, c: Confirmed) -> str:
    """One line: nothing beat the baseline (the CLI adds what it saved and offers)."""
    obj = search.settings.objective
    p = c.frames["baseline"][OBJECTIVE_COLUMNS[obj]].mean()
    if not c.picked:
        return f"No design did as well as the baseline on the search's worlds ({obj} {p:.0%})"
    if c.pruned is not None and not c.pruned.kept:
        return (
            f"No change of the best design (trial {c.picked[0].number}) pays on fresh worlds: "
            f"the baseline stays ({obj} {p:.0%})"
        )
    return (
        f"The recommended changes are not clearly better than the baseline on "
        f"{search.settings.confirm_reps} fresh worlds ({obj} {p:.0%})"
    )
