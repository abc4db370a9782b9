"""Summary statistics shared by every command: a random quantity is mean, p10, p50, p90.

Intervals, tests and rankings live in :mod:`sim.intervals` (SciPy and statsmodels, which
the commands that only summarise need not load).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def summarize(values: Iterable[float]) -> dict[str, float]:
    """Mean and the 10th, 50th and 90th percentiles of ``values``."""
    a = np.asarray(list(values), dtype=float)
    if a.size == 0:
        nan = float("nan")
        return {"mean": nan, "p10": nan, "p50": nan, "p90": nan}
    p10, p50, p90 = np.percentile(a, [10, 50, 90])
    return {"mean": float(a.mean()), "p10": float(p10), "p50": float(p50), "p90": float(p90)}
