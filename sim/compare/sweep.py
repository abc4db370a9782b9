"""Sweeps: a grid over levers (or any scenario field), every point on common random numbers.

``--grid levers.reserve_fraction=0,0.1,0.2`` is one axis; the grid is every combination
of the axes' values. Each point is the base scenario with that point's values applied
(validated like ``--set``; teams may be named by id, ``org.teams.pretraining.headcount``),
and all points run through the same replications, so the differences between points
are the levers', not the dice's. The result is one tidy row per point.

Also here: running designs batch by batch over a range of replications, for callers
(the app) that show progress and keep what finished when a run is cancelled.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim.designs import apply_delta, with_source
from sim.intervals import (
    MIN_WORLDS,
    mean_interval,
    quantile_interval,
    require_worlds,
    wilson,
)
from sim.metrics import HEADLINE, PROBABILITY_KEYS
from sim.runner import ExecutorName, open_executor, replicate_batch, run_designs
from sim.scenario.loading import Problem, ScenarioError, parse_override
from sim.scenario.spec import Scenario
from sim.stats import summarize

#: The largest grid a sweep runs (points, not replications).
MAX_POINTS = 400
#: Columns summarised as mean, P10, P50 and P90 in a sweep's table.
QUANTITIES = tuple(m.key for m in HEADLINE if m.kind == "quantity")
#: Replication columns that are counts of what happened: absent means zero.
SPARSE = ("incident:", "critical_handoff:")


@dataclass(frozen=True)
class Axis:
    """One dimension of a grid: a dotted scenario path and the values it takes."""

    path: str
    values: tuple[Any, ...]

    @property
    def name(self) -> str:
        return self.path.removeprefix("levers.")


def parse_axis(text: str) -> Axis:
    """``PATH=V1,V2,...``; each value is read as a YAML scalar, as ``--set`` reads it."""
    source = f"--grid {text}"
    if "=" not in text:
        raise ScenarioError([Problem(source, None, "", "expected PATH=VALUE,VALUE,...")])
    path, raw = (part.strip() for part in text.split("=", 1))
    parts = [p.strip() for p in raw.split(",")]
    if not raw or any(not p for p in parts):
        raise ScenarioError(
            [Problem(source, None, path, "give one or more values, comma-separated")]
        )
    values = tuple(parse_override(f"{path}={p}").value for p in parts)
    if len(set(map(repr, values))) != len(values):
        raise ScenarioError([Problem(source, None, path, "a value is listed twice")])
    return Axis(path, values)


def grid_points(axes: Sequence[Axis]) -> list[dict[str, Any]]:
    """Every combination of the axes' values, first axis slowest."""
    paths = [a.path for a in axes]
    if len(set(paths)) != len(paths):
        raise ScenarioError([Problem("--grid", None, paths[0], "the same field twice in a grid")])
    points = [
        dict(zip(paths, combo, strict=True))
        for combo in itertools.product(*(a.values for a in axes))
    ]
    if len(points) > MAX_POINTS:
        raise ScenarioError(
            [Problem("--grid", None, "", f"{len(points)} grid points; at most {MAX_POINTS}")]
        )
    return points


def point_name(point: Mapping[str, Any]) -> str:
    """A grid point as text: ``reserve_fraction=0.1, ablation_fraction=0.05``."""
    return ", ".join(f"{path.removeprefix('levers.')}={value}" for path, value in point.items())


def grid_designs(
    base: Scenario, axes: Sequence[Axis]
) -> tuple[dict[str, Scenario], list[dict[str, Any]]]:
    """One validated scenario per grid point, named by its point, and the points.

    Each value is first checked on its own, so a problem names the ``--grid`` value
    that causes it.
    """
    for axis in axes:
        for value in axis.values:
            try:
                apply_delta(base, {axis.path: value})
            except ScenarioError as exc:
                raise with_source(exc, f"--grid {axis.path}={value}") from None
    points = grid_points(axes)
    designs = {}
    for p in points:
        try:
            designs[point_name(p)] = apply_delta(base, p)
        except ScenarioError as exc:
            raise with_source(exc, f"--grid point {point_name(p)}") from None
    return designs, points


def summarize_point(df: pd.DataFrame, scenario: Scenario) -> dict[str, Any]:
    """One grid point's row: headline statistics, objective probabilities, target scores.

    Each mean carries its 95% t interval (``_mean_low``, ``_mean_high``), each P90 its
    distribution-free one (``_p90_low``, ``_p90_high``; NaN where the worlds cannot reach
    it), each chance its Wilson interval (``_low``, ``_high``).
    """
    n = len(df)
    require_worlds(n, MIN_WORLDS, "a sweep point's intervals")
    row: dict[str, Any] = {"reps": n}
    for key in QUANTITIES:
        values = df[key].astype(float).to_numpy()
        for stat, value in summarize(values).items():
            row[f"{key}_{stat}"] = value
        _, row[f"{key}_mean_low"], row[f"{key}_mean_high"] = mean_interval(values)
        low, high = quantile_interval(values, 0.9)
        row[f"{key}_p90_low"] = math.nan if low is None else low
        row[f"{key}_p90_high"] = math.nan if high is None else high
    chances = {key: column for column, key in PROBABILITY_KEYS.items()}
    chances |= {f"p_met:{t.eval}": f"met:{t.eval}" for t in scenario.objective.targets}
    for key, column in chances.items():
        hits = float(df[column].astype(bool).sum())
        row[key] = hits / n
        row[f"{key}_low"], row[f"{key}_high"] = wilson(hits, n)
    for t in scenario.objective.targets:
        row[f"score:{t.eval}_mean"] = float(df[f"score:{t.eval}"].mean())
    return row


def sweep_table(
    frames: Mapping[str, pd.DataFrame], points: Sequence[Mapping[str, Any]], base: Scenario
) -> pd.DataFrame:
    """The tidy result: one row per grid point, its values first, then its statistics."""
    rows = []
    for point in points:
        df = frames.get(point_name(point))
        if df is None or df.empty:
            continue
        rows.append({**point, **summarize_point(df, base)})
    return pd.DataFrame(rows)


def sweep(
    base: Scenario, axes: Sequence[Axis], reps: int, seed: int = 0, **run: Any
) -> pd.DataFrame:
    """Run every grid point through the same ``reps`` replications; one row per point.

    ``run`` takes :func:`sim.runner.run_designs`'s options (workers, executor, progress...).
    """
    designs, points = grid_designs(base, axes)
    return sweep_table(run_designs(designs, reps, seed, **run), points, base)


# --- batch by batch ------------------------------------------------------------------------


def run_batch(
    designs: Mapping[str, Scenario],
    seed: int,
    start: int,
    stop: int,
    *,
    workers: int = 1,
    executor: ExecutorName = "local",
    scheduler: str | None = None,
    policy: str = "playbook",
) -> dict[str, pd.DataFrame]:
    """Replications ``start`` to ``stop - 1`` of every design.

    The numbers are those of the same replications in :func:`sim.runner.run_designs`,
    whatever the batch boundaries, workers or executor.
    """
    reps = list(range(start, stop))
    size = max(1, len(reps) // max(1, workers * 2))
    chunks = [reps[i : i + size] for i in range(0, len(reps), size)]
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in designs}
    with open_executor(executor, workers, scheduler) as pool:
        if pool is None:
            for name, sc in designs.items():
                rows[name] = replicate_batch(sc, seed, reps, policy)
        else:
            futures: list[tuple[str, Future[list[dict[str, Any]]]]] = [
                (name, pool.submit(replicate_batch, sc, seed, chunk, policy))
                for name, sc in designs.items()
                for chunk in chunks
            ]
            for name, fut in futures:
                rows[name].extend(fut.result())
    return {name: pd.DataFrame.from_records(r) for name, r in rows.items()}


def combine(batches: Sequence[Mapping[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """Join batches of the same designs into one table each, ordered by replication."""
    if not batches:
        return {}
    out = {}
    for name in batches[0]:
        df = pd.concat([b[name] for b in batches], ignore_index=True)
        sparse = sorted(c for c in df.columns if c.startswith(SPARSE))
        df = df[[c for c in df.columns if not c.startswith(SPARSE)] + sparse]
        df[sparse] = df[sparse].fillna(0).astype(int)
        out[name] = df.sort_values("rep", kind="stable").reset_index(drop=True)
    return out
