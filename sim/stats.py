"""Summary statistics shared by every command: a random quantity is mean, p10, p50, p90."""

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


def paired_difference(a: Iterable[float], b: Iterable[float]) -> dict[str, float]:
    """Mean of b - a over paired replications with a normal 95% interval."""
    x = np.asarray(list(b), dtype=float) - np.asarray(list(a), dtype=float)
    n = x.size
    mean = float(x.mean()) if n else float("nan")
    half = float(1.96 * x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {"mean": mean, "low": mean - half, "high": mean + half, "n": float(n)}
