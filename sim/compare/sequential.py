"""Sequential precision: add worlds in batches until the primary difference is known.

``compare --precision X`` (and the Compare page's control) runs the designs on a first
batch of worlds, then doubles the worlds at each look (200, 400, 800, ... up to a
maximum), and stops at the first look where every design's difference from the baseline
on the primary metric is known to ±X (its interval's half-width) or shown alike within
its margin.

Looking again and again and stopping when the answer pleases would raise the error rate
(stopping as soon as an interval leaves zero turns 5% into 10% or more). So the looks are
planned in advance and share the error: with K planned looks each look's intervals and
tests are at level 1 - 0.05 / K (Bonferroni over the looks), and whatever look the run
stops at, the chance that any reported interval misses or any verdict is false is at
most 5%. The price is wider intervals per look (with seven looks, 99.3% intervals).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sim import names
from sim.compare.inference import Comparison, compare_designs, precision_reached
from sim.compare.sweep import combine, run_batch
from sim.intervals import ALPHA, MIN_WORLDS
from sim.scenario.spec import Scenario

#: Most worlds a sequential comparison runs unless told otherwise.
MAX_WORLDS = names.SEQUENTIAL_MAX_WORLDS

Batch = Callable[[int, int], Mapping[str, pd.DataFrame]]


def planned_looks(first: int, max_worlds: int = MAX_WORLDS) -> list[int]:
    """The worlds at each look: ``first``, doubling, and ``max_worlds`` last."""
    if first < MIN_WORLDS:
        raise ValueError(f"the first look needs at least {MIN_WORLDS} worlds, got {first}")
    looks = [first]
    while looks[-1] < max_worlds:
        looks.append(min(max_worlds, looks[-1] * 2))
    return looks


def look_alpha(looks: int, alpha: float = ALPHA) -> float:
    """The error each look may spend so that all looks together spend at most ``alpha``."""
    return alpha / max(1, looks)


@dataclass
class Sequential:
    """What a sequential run did: the frames and comparison at its last look, and why."""

    frames: dict[str, pd.DataFrame]
    comparison: Comparison
    precision: float
    looks: list[int]
    alpha_per_look: float
    history: list[dict[str, Any]] = field(default_factory=list)
    reached: bool = False

    def summary(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "planned_looks": self.looks,
            "alpha_per_look": self.alpha_per_look,
            "level_per_look": 1 - self.alpha_per_look,
            "looks": self.history,
            "worlds": self.comparison.worlds,
            "reached": self.reached,
            "rule": "Bonferroni over planned looks (worlds doubling each look)",
        }

    def note(self) -> str:
        """One sentence on how the run stopped."""
        last = self.history[-1]
        level = f"{100 * (1 - self.alpha_per_look):.1f}%"
        head = (
            f"Sequential run: {len(self.history)} of {len(self.looks)} planned looks, "
            f"{last['worlds']:,} worlds; each look's intervals are {level} so that all looks "
            "together keep a 5% error rate."
        )
        if self.reached:
            return f"{head} Stopped: {last['reason']}."
        return f"{head} Not reached at the maximum: {last['reason']}."


def run_sequential(
    batch: Batch,
    scenario: Scenario,
    first: int,
    precision: float,
    *,
    primary: str,
    margins: Mapping[str, float] | None = None,
    max_worlds: int = MAX_WORLDS,
    seed: int = 0,
    on_look: Callable[[int, str], None] | None = None,
) -> Sequential:
    """Run looks until the primary difference is known to ±``precision`` or alike.

    ``batch(start, stop)`` runs worlds ``start`` to ``stop - 1`` of every design (the
    first design is the baseline); ``scenario`` is the baseline's.
    """
    if precision <= 0:
        raise ValueError("precision must be positive")
    looks = planned_looks(first, max(first, max_worlds))
    alpha = look_alpha(len(looks))
    batches: list[Mapping[str, pd.DataFrame]] = []
    done, history = 0, []
    frames: dict[str, pd.DataFrame] = {}
    comparison: Comparison | None = None
    reached = False
    for worlds in looks:
        batches.append(batch(done, worlds))
        done = worlds
        frames = combine(batches)
        comparison = compare_designs(
            frames, scenario, primary=primary, margins=margins, alpha=alpha, seed=seed
        )
        reached, reason = precision_reached(comparison, precision)
        history.append({"worlds": worlds, "reached": reached, "reason": reason})
        if on_look:
            on_look(worlds, reason)
        if reached:
            break
    assert comparison is not None
    return Sequential(frames, comparison, precision, looks, alpha, history, reached)


def batch_runner(designs: Mapping[str, Scenario], seed: int, **options: Any) -> Batch:
    """A :data:`Batch` that runs :func:`sim.compare.sweep.run_batch` with ``options``."""
    return lambda start, stop: run_batch(designs, seed, start, stop, **options)
