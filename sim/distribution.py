"""One design's distribution: ECDF, percentiles, joint statement and chances.

Its ECDF with a band, percentiles with intervals, the joint statement on schedule and
cost, and the Wilson interval of a chance.

Everything reads the tidy frame of one design (one row per replication) that
:func:`sim.runner.run_designs` returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from sim.intervals import (
    MIN_WORLDS,
    dkw_halfwidth,
    mean_interval,
    quantile_interval,
    require_worlds,
)
from sim.intervals import wilson as stats_wilson
from sim.stats import summarize


def ecdf(values: Iterable[float]) -> pd.DataFrame:
    """The empirical CDF: each sorted value and the share of replications at or below it.

    ``low`` and ``high`` are the 95% Dvoretzky-Kiefer-Wolfowitz band: the true curve lies
    inside it everywhere at once, with 95% confidence.
    """
    x = np.sort(np.asarray(list(values), dtype=float))
    p = np.arange(1, x.size + 1) / max(x.size, 1)
    half = dkw_halfwidth(x.size) if x.size else math.nan
    return pd.DataFrame(
        {"value": x, "probability": p, "low": np.clip(p - half, 0, 1),
         "high": np.clip(p + half, 0, 1)}
    )  # fmt: skip


def ecdf_table(frames: Mapping[str, pd.DataFrame], column: str) -> pd.DataFrame:
    """ECDFs of ``column`` for every design, long: ``design``, ``value``, ``probability``."""
    parts = [ecdf(df[column]).assign(design=name) for name, df in frames.items()]
    return pd.concat(parts, ignore_index=True)[["design", "value", "probability", "low", "high"]]


def percentiles(values: Iterable[float]) -> dict[str, float]:
    """P10, P50 and P90 (and the mean), as every statistic in TrainingRoom."""
    return summarize(values)


def percentile_intervals(values: Iterable[float]) -> dict[str, dict[str, float | None]]:
    """P10, P50 and P90 with 95% order-statistic intervals, and the mean with its t one.

    The quantiles' intervals are distribution-free; an end the worlds cannot reach is
    None (open).
    """
    x = np.asarray(list(values), dtype=float)
    require_worlds(x.size, MIN_WORLDS, "intervals on percentiles")
    mean, low, high = mean_interval(x)
    out: dict[str, dict[str, float | None]] = {"mean": {"value": mean, "low": low, "high": high}}
    for name, q in (("p10", 0.1), ("p50", 0.5), ("p90", 0.9)):
        lo, hi = quantile_interval(x, q)
        out[name] = {"value": float(np.quantile(x, q)), "low": lo, "high": hi}
    return out


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (statsmodels; sound near 0 and 1)."""
    if n <= 0:
        return (math.nan, math.nan)
    return stats_wilson(successes, n)


def joint_probability(df: pd.DataFrame, max_days: float, max_usd: float) -> float:
    """Share of replications finishing by ``max_days`` and spending at most ``max_usd``."""
    both = (df["schedule_days"] <= max_days) & (df["cost_usd"] <= max_usd + 1e-6)
    return float(both.mean())


def joint_confidence(df: pd.DataFrame, level: float = 0.8) -> dict[str, float]:
    """Days and dollars that the project stays within *together* in ``level`` of the worlds.

    The same quantile of schedule and of cost, raised until the share of replications
    inside both reaches ``level`` (a joint statement is weaker than two separate P80s).
    ``share_low``/``share_high`` are the 95% Wilson interval of the share of all worlds
    inside that rectangle; ``days_sure``/``usd_sure`` the smallest such rectangle whose
    interval's lower end reaches ``level`` (so "at least 80% of worlds, 95% confident").
    """
    days, usd = df["schedule_days"].to_numpy(float), df["cost_usd"].to_numpy(float)
    n = days.size
    found: dict[str, float] | None = None
    for q in np.linspace(level, 1.0, 201):
        d, c = float(np.quantile(days, q)), float(np.quantile(usd, q))
        share = float(((days <= d) & (usd <= c + 1e-6)).mean())
        if found is None and share >= level - 1e-12:
            found = {"level": level, "days": d, "usd": c, "share": share, "quantile": float(q)}
        if found is not None and wilson(share * n, n)[0] >= level:
            found |= {"days_sure": d, "usd_sure": c, "quantile_sure": float(q)}
            break
    if found is None:
        found = {"level": level, "days": float(days.max()), "usd": float(usd.max()), "share": 1.0}
    low, high = wilson(found["share"] * n, n)
    return found | {"share_low": low, "share_high": high}
