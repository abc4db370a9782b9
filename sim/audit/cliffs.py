"""Cliffs: a small step of a lever that moves an outcome far more than its neighbours do.

Each numeric lever of the registry (:data:`sim.scenario.levers.LEVERS`) is swept over its
range in its own steps, every point on the same worlds (common random numbers), and each
watched outcome's step-to-step changes are read along the sweep:

- a **cliff** is a step whose change is material (:data:`MATERIAL`) and at least
  :data:`STEEPER` times the largest change of its neighbouring steps and of the sweep's
  median step, and is clear on the paired worlds (its 95% interval excludes zero);
- a **reversal** is planned scope (tokens, post-training rounds) that grows by a material
  amount as a lever that spends money (:data:`SPENDS`) grows: more reserve, ablations or
  data work leave fewer dollars for scope, never more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.designs import apply_delta
from sim.intervals import paired_difference
from sim.runner import run_designs
from sim.scenario.levers import LEVERS, Lever
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario

#: Outcomes watched along each sweep, and the smallest change of each that matters: a
#: share of the sweep's typical value (``relative``), at least ``floor``.
MATERIAL: dict[str, tuple[float, float]] = {
    "tokens_planned_b": (0.03, 1.0),
    "post_training_rounds_planned": (0.0, 0.5),
    "success": (0.0, 0.08),
    "schedule_days": (0.0, 3.0),
    "cost_usd": (0.02, 1_000.0),
}
#: How many times its neighbours' change a step's change must be to be a cliff.
STEEPER = 3.0
#: Levers that spend the budget (the registry's ``spends``): planned scope must not grow
#: with them.
SPENDS = tuple(lv.name for lv in LEVERS if lv.spends)
SCOPE = ("tokens_planned_b", "post_training_rounds_planned")
#: The most points a sweep runs (a lever with finer steps is swept on a coarser grid).
MAX_POINTS = 31


@dataclass(frozen=True)
class Cliff:
    """One step of one lever that moves one outcome far more than its neighbours."""

    lever: str
    metric: str
    kind: str  # "cliff" or "reversal"
    start: float
    end: float
    #: Mean change over the step (end minus start), its 95% interval on the same worlds.
    change: float
    low: float
    high: float
    #: The largest change of the neighbouring steps, and the sweep's median step.
    neighbours: float
    typical: float

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Sweep:
    """One lever's sweep: the points, and each watched outcome's mean at each point."""

    lever: str
    values: tuple[float, ...]
    means: dict[str, tuple[float, ...]]
    skipped: str = ""


def grid(lever: Lever) -> tuple[float, ...]:
    """The lever's range in its own steps (integers step by one), at most MAX_POINTS."""
    low, high = float(lever.low), float(lever.high)
    step = float(lever.step) if lever.step else 1.0
    n = int(round((high - low) / step)) + 1
    if n > MAX_POINTS:
        n = MAX_POINTS
    values = np.linspace(low, high, n)
    integer = isinstance(lever.low, int) and not isinstance(lever.low, bool)
    return tuple(int(round(v)) if integer else round(float(v), 10) for v in values)


def numeric_levers() -> tuple[Lever, ...]:
    """Levers with a numeric range (not switches, not choices)."""
    return tuple(
        lv for lv in LEVERS
        if isinstance(lv.low, int | float) and not isinstance(lv.low, bool)
    )  # fmt: skip


def sweep(s: Scenario, lever: Lever, worlds: int, seed: int) -> tuple[Sweep, list[Cliff]]:
    """Every point of ``lever``'s grid on the same worlds, and the cliffs along it."""
    values = grid(lever)
    designs: dict[str, Scenario] = {}
    try:
        for v in values:
            designs[repr(v)] = apply_delta(s, {lever.path: v})
    except ScenarioError as exc:
        return Sweep(lever.name, values, {}, exc.problems[0].reason), []
    frames = run_designs(designs, worlds, seed)
    series = [frames[repr(v)] for v in values]
    means = {m: tuple(float(f[m].mean()) for f in series) for m in MATERIAL if m in series[0]}
    cliffs = [c for m in means for c in _cliffs(lever.name, m, values, series)]
    return Sweep(lever.name, values, means), cliffs


def material(metric: str, ys: Sequence[float]) -> float:
    relative, floor = MATERIAL[metric]
    return max(floor, relative * float(np.median(np.abs(ys))))


def _cliffs(
    lever: str, metric: str, values: Sequence[float], frames: Sequence[pd.DataFrame]
) -> list[Cliff]:
    ys = [float(f[metric].mean()) for f in frames]
    steps = np.diff(ys)
    if len(steps) == 0:
        return []
    size = np.abs(steps)
    typical = float(np.median(size))
    floor = material(metric, ys)
    out: list[Cliff] = []
    for i, d in enumerate(steps):
        near = [size[j] for j in (i - 1, i + 1) if 0 <= j < len(steps)]
        neighbours = max(near) if near else 0.0
        steep = size[i] >= floor and size[i] >= STEEPER * max(neighbours, typical)
        rises = lever in SPENDS and metric in SCOPE and d >= floor
        if not (steep or rises):
            continue
        diff = paired_difference(
            frames[i][metric].astype(float), frames[i + 1][metric].astype(float)
        )
        exact = size[i] > 0 and float(diff["high"]) == float(diff["low"])
        if not exact and float(diff["low"]) <= 0 <= float(diff["high"]):
            continue  # not clear on these worlds
        out.append(
            Cliff(
                lever, metric, "reversal" if rises and not steep else "cliff",
                float(values[i]), float(values[i + 1]), float(d),
                float(diff["low"]), float(diff["high"]), float(neighbours), typical,
            )
        )  # fmt: skip
    return out
