"""What a comparison of designs can claim: paired intervals, verdicts, multiplicity, the best.

Every design is compared with the baseline world by world (common random numbers).
For each metric the difference B − A gets the interval its kind calls for (Student t
for quantities, on the worlds that differ when most do not; Tango's score interval for
chances, :mod:`sim.intervals`), the test of "no difference" that the interval inverts
(so the two never disagree) and a test of "alike within ±margin" (two one-sided tests),
where the margin is the smallest difference that matters.

Verdicts, with several designs or metrics adjusted by Holm's method in two families:
the **primary** metric over the designs (the question asked), and every other metric
over designs × metrics (secondary). In each family the chance of any false claim is at
most 5%. A row is

- **alike** when its whole interval lies inside ±margin, or its adjusted equivalence
  p-value is below 5% and it is not clear: a difference inside the margin does not
  matter, however sure it is;
- **clear** when its adjusted "no difference" p-value is below 5%, its interval is not
  entirely inside ±margin (the difference is material), and at least
  :data:`sim.intervals.MIN_DIFFERING` worlds carry it;
- **not yet known** otherwise, with the worlds that would settle it.

"Which design is best" on the primary metric is a Bayesian bootstrap over the same
worlds: the chance each design has the best mean, and the chance it is within the
margin of the best (:func:`sim.intervals.chance_best`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim import names
from sim.intervals import (
    ALPHA,
    MIN_WORLDS,
    chance_best,
    holm,
    paired_mean,
    paired_proportion,
    require_worlds,
    tolerance,
    worlds_needed,
)
from sim.metrics import BY_KEY, HEADLINE, Metric
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import words

#: The metric a comparison is about unless the user names another.
DEFAULT_PRIMARY = names.DEFAULT_PRIMARY
#: Verdict words.
CLEAR, ALIKE, UNKNOWN = "clear", "alike", "not yet known"
#: Smallest differences that matter, by default: one day, one percentage point, 1% of
#: the baseline's budget (cost) or of its mean effort, 0.01 on an eval score.
DEFAULT_MARGINS = {
    "days": 1.0, "probability": 0.01, "score": 0.01, "budget_share": 0.01, "effort_share": 0.01,
}  # fmt: skip


def compared_metrics(scenario: Scenario) -> list[Metric]:
    """Headline metrics and each target's eval score (higher is better)."""
    scores = [
        Metric(f"score:{t.eval}", f"{words(t.eval)} score", "score", "higher")
        for t in scenario.objective.targets
    ]
    return [*HEADLINE, *scores]


def metric_keys(scenario: Scenario) -> list[str]:
    return [m.key for m in compared_metrics(scenario)]


def default_margin(metric: Metric, scenario: Scenario, frame: pd.DataFrame | None) -> float:
    """The smallest difference in ``metric`` that matters, unless the user sets one."""
    if metric.unit == "days":
        return DEFAULT_MARGINS["days"]
    if metric.unit == "USD":
        return DEFAULT_MARGINS["budget_share"] * scenario.objective.budget.total_usd
    if metric.unit == "probability":
        return DEFAULT_MARGINS["probability"]
    if metric.unit == "score":
        return DEFAULT_MARGINS["score"]
    mean = float(frame[metric.key].mean()) if frame is not None and metric.key in frame else 1.0
    return max(DEFAULT_MARGINS["effort_share"] * abs(mean), tolerance([mean]))


def margins_for(
    scenario: Scenario, frame: pd.DataFrame | None = None, given: Mapping[str, float] | None = None
) -> dict[str, float]:
    """Every compared metric's margin: the user's where given, the default elsewhere."""
    given = dict(given or {})
    unknown = set(given) - set(metric_keys(scenario))
    if unknown:
        raise KeyError(", ".join(sorted(unknown)))
    return {
        m.key: float(given[m.key]) if m.key in given else default_margin(m, scenario, frame)
        for m in compared_metrics(scenario)
    }


def paired_row(m: Metric, x: np.ndarray, y: np.ndarray, margin: float) -> dict[str, Any]:
    """One metric's B − A on the same worlds, unadjusted (see :func:`compare_designs`)."""
    if m.kind == "probability":
        d = paired_proportion(x, y, margin)
    else:
        d = paired_mean(x, y, margin)
    delta = y - x
    same = tolerance(x, y)
    gain = -delta if m.better == "lower" else delta
    return {
        "metric": m.key, "label": m.label, "unit": m.unit, "better": m.better, "kind": m.kind,
        "a_mean": float(x.mean()), "b_mean": float(y.mean()),
        **d,
        "margin": margin,
        "p_b_better": float((gain > same).mean()),
        "p_same": float((np.abs(delta) <= same).mean()),
        "significant": bool(d["p_value"] < ALPHA),
    }  # fmt: skip


def paired_table(
    a: pd.DataFrame,
    b: pd.DataFrame,
    scenario: Scenario,
    margins: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """B − A per metric on the same replications, each alone (no multiplicity adjustment).

    ``p_b_better`` and ``p_same`` are the shares of worlds in which B did better than A,
    or exactly as well; ``significant`` is the unadjusted test at 5%. Refuses (raises
    :class:`sim.intervals.TooFewWorlds`) below :data:`sim.intervals.MIN_WORLDS` worlds.
    """
    require_worlds(min(len(a), len(b)), MIN_WORLDS, "a comparison")
    margins = margins_for(scenario, a, margins)
    rows = [
        paired_row(m, a[m.key].astype(float).to_numpy(), b[m.key].astype(float).to_numpy(),
                   margins[m.key])
        for m in compared_metrics(scenario)
        if m.key in a and m.key in b
    ]  # fmt: skip
    return pd.DataFrame(rows)


@dataclass
class Comparison:
    """Every design against the baseline, with adjusted verdicts and the best design."""

    baseline: str
    primary: str
    alpha: float
    tables: dict[str, pd.DataFrame]
    best: dict[str, Any]
    families: dict[str, int] = field(default_factory=dict)
    worlds: int = 0

    def row(self, design: str, metric: str) -> dict[str, Any]:
        table = self.tables[design].set_index("metric")
        return {"metric": metric, **{str(k): v for k, v in table.loc[metric].to_dict().items()}}

    def adjustment_note(self) -> str:
        """How the verdicts were adjusted, in one sentence."""
        p, s = self.families.get("primary", 0), self.families.get("secondary", 0)
        label = BY_KEY[self.primary].label if self.primary in BY_KEY else self.primary
        first = (
            f"Primary metric: {label.lower()}"
            + (f", adjusted for {p} designs" if p > 1 else "")
            + f"; the other metrics are secondary, adjusted together for {s} comparisons."
        )
        return first


def inside_margin(table: pd.DataFrame) -> pd.Series:
    """Rows whose whole interval lies strictly inside ±margin: a difference too small to matter."""
    return (table["low"] > -table["margin"]) & (table["high"] < table["margin"])


def settle_verdicts(table: pd.DataFrame, alpha: float = ALPHA) -> np.ndarray:
    """Each row's verdict from its adjusted p-values, its interval and its differing worlds.

    Clear means clear and material: adjusted "no difference" p below ``alpha``, the
    estimate at least the margin (the smallest difference that matters), and not ``rough``
    (at least :data:`sim.intervals.MIN_DIFFERING` worlds carry it). A real difference
    smaller than the margin is not clear: more worlds settle it as alike. Alike: interval
    inside ±margin, or adjusted equivalence p below ``alpha`` and not clear.
    """
    rough = table["rough"].fillna(False).astype(bool) if "rough" in table else False
    inside = inside_margin(table)
    p = table["p_adjusted"] if "p_adjusted" in table else table["p_value"]
    p_eq = (
        table["p_equivalent_adjusted"] if "p_equivalent_adjusted" in table
        else table.get("p_equivalent", pd.Series(1.0, index=table.index))
    )  # fmt: skip
    material = table["mean"].abs() >= table["margin"]
    clear = (p < alpha) & ~inside & ~rough & material
    alike = inside | ((p_eq < alpha) & ~clear)
    return np.where(clear, CLEAR, np.where(alike, ALIKE, UNKNOWN))


def _settle(table: pd.DataFrame, alpha: float, sizes: Mapping[bool, int]) -> list[int | None]:
    """Worlds for each row's interval to be known to ±margin (at today's spread).

    The interval is taken at its family's Bonferroni level (1 - alpha / comparisons), so
    that the adjusted verdict can settle on clear or alike.
    """
    out: list[int | None] = []
    for r in table.to_dict("records"):
        row = {str(k): v for k, v in r.items()}
        level = 1 - alpha / max(1, sizes[bool(row["primary"])])
        out.append(worlds_needed(row, float(row["margin"]), level))
    return out


def compare_designs(
    frames: Mapping[str, pd.DataFrame],
    scenario: Scenario,
    baseline: str | None = None,
    primary: str = DEFAULT_PRIMARY,
    margins: Mapping[str, float] | None = None,
    alpha: float = ALPHA,
    seed: int = 0,
) -> Comparison:
    """Each design against ``baseline`` (the first by default), adjusted and ranked.

    ``scenario`` is the baseline's (its targets name the score metrics and its budget
    sets the default cost margin). ``alpha`` is the error rate of each family; a
    sequential run passes a smaller one per look (:mod:`sim.compare.sequential`).
    """
    names = list(frames)
    base = baseline or names[0]
    if primary not in metric_keys(scenario):
        raise KeyError(primary)
    level = 1 - alpha
    margin_of = margins_for(scenario, frames[base], margins)
    tables: dict[str, pd.DataFrame] = {}
    for name in names:
        if name == base:
            continue
        t = paired_table(frames[base], frames[name], scenario, margin_of)
        if alpha != ALPHA:  # intervals at the run's own level
            t = _relevel(t, frames[base], frames[name], scenario, margin_of, level)
        tables[name] = t.assign(design=name)
    long = pd.concat(tables.values(), ignore_index=True) if tables else pd.DataFrame()
    families = {"primary": 0, "secondary": 0}
    if not long.empty:
        is_primary = long["metric"] == primary
        for fam, mask in (("primary", is_primary), ("secondary", ~is_primary)):
            idx = long.index[mask]
            families[fam] = len(idx)
            long.loc[idx, "p_adjusted"] = holm(long.loc[idx, "p_value"].tolist(), alpha)
            long.loc[idx, "p_equivalent_adjusted"] = holm(
                long.loc[idx, "p_equivalent"].tolist(), alpha
            )
        long["primary"] = is_primary
        long["verdict"] = settle_verdicts(long, alpha)
        long["significant"] = long["verdict"] == CLEAR
        long["alike"] = long["verdict"] == ALIKE
        needed = _settle(long, alpha, {True: families["primary"], False: families["secondary"]})
        if "worlds_for_t" in long:  # too few differing worlds: enough to bring MIN_DIFFERING
            floor = long["worlds_for_t"].fillna(0).astype(int).tolist()
            needed = [None if n is None else max(n, f) for n, f in zip(needed, floor, strict=True)]
        long["worlds_needed"] = needed
        long["adjustment"] = [
            f"Holm over {families['primary' if p else 'secondary']}" for p in is_primary
        ]
        for name in tables:
            part = long[long["design"] == name].drop(columns="design")
            tables[name] = part.reset_index(drop=True)
    best = best_design(frames, primary, margin_of[primary], seed=seed)
    return Comparison(base, primary, alpha, tables, best, families, len(frames[base]))


def _relevel(
    table: pd.DataFrame,
    a: pd.DataFrame,
    b: pd.DataFrame,
    scenario: Scenario,
    margins: Mapping[str, float],
    level: float,
) -> pd.DataFrame:
    """The same rows with their intervals at ``level`` (p-values do not depend on it)."""
    rows = []
    for m in compared_metrics(scenario):
        if m.key not in a or m.key not in b:
            continue
        x, y = a[m.key].astype(float).to_numpy(), b[m.key].astype(float).to_numpy()
        d = (paired_proportion if m.kind == "probability" else paired_mean)(
            x, y, margins[m.key], level
        )
        rows.append({"metric": m.key, "low": d["low"], "high": d["high"], "level": level})
    return table.drop(columns=["low", "high", "level"]).merge(pd.DataFrame(rows), on="metric")


def best_design(
    frames: Mapping[str, pd.DataFrame], metric: str, margin: float, seed: int = 0
) -> dict[str, Any]:
    """The design with the best mean ``metric`` and the chance that pick is right.

    ``chance_best``: the Bayesian-bootstrap chance each design is truly best on these
    worlds' distribution; ``chance_near_best``: the chance it is within ``margin`` of the
    best (an indifference zone).
    """
    names = list(frames)
    better = BY_KEY[metric].better if metric in BY_KEY else "higher"
    sign = -1.0 if better == "lower" else 1.0
    values = np.column_stack([frames[n][metric].astype(float).to_numpy() for n in names])
    binary = metric in BY_KEY and BY_KEY[metric].kind == "probability"
    best, near = chance_best(sign * values, margin, seed=seed, binary=binary)
    means = values.mean(axis=0)
    pick = int(np.argmax(sign * means))
    return {
        "metric": metric,
        "pick": names[pick],
        "means": dict(zip(names, map(float, means), strict=True)),
        "chance_best": dict(zip(names, map(float, best), strict=True)),
        "chance_near_best": dict(zip(names, map(float, near), strict=True)),
        "margin": margin,
        "method": "Bayesian bootstrap over the same worlds",
    }


def paired_json(row: Mapping[str, Any]) -> dict[str, Any]:
    """One row of a comparison as ``compare --json`` prints it under ``paired``."""
    keys = (
        "mean", "low", "high", "n", "level", "method", "p_value", "p_adjusted",
        "p_equivalent", "p_equivalent_adjusted", "margin", "verdict", "primary", "adjustment",
        "worlds_needed", "b_only", "a_only", "p_b_better", "p_same", "rough", "skew",
        "worlds_differing", "p_exact", "df",
    )  # fmt: skip
    out: dict[str, Any] = {}
    for k in keys:
        if k in row and not (isinstance(row[k], float) and np.isnan(row[k])):
            v = row[k]
            out[k] = v.item() if hasattr(v, "item") else v
    return out


def precision_reached(comparison: Comparison, precision: float) -> tuple[bool, str]:
    """Whether every design's primary difference is known to ±``precision`` or alike, and why."""
    reasons = []
    done = True
    for name in comparison.tables:
        r = comparison.row(name, comparison.primary)
        half = (float(r["high"]) - float(r["low"])) / 2
        if bool(r["alike"]):
            reasons.append(f"{name}: alike within ±{r['margin']:g}")
        elif half <= precision:
            reasons.append(f"{name}: known to ±{half:.3g}")
        else:
            done = False
            reasons.append(f"{name}: ±{half:.3g}, not yet ±{precision:g}")
    return done, "; ".join(reasons)


def headline_columns(scenario: Scenario) -> list[str]:
    """Columns compared pairwise: headline metrics and each target's eval score."""
    return [m.key for m in HEADLINE] + [f"score:{t.eval}" for t in scenario.objective.targets]


def paired(a: pd.DataFrame, b: pd.DataFrame, scenario: Scenario) -> dict[str, Any]:
    """B - A on the same replications, with 95% intervals, tests and verdicts."""
    return paired_summary(compare_designs({"A": a, "B": b}, scenario))["B"]


def paired_summary(comparison: Comparison) -> dict[str, dict[str, Any]]:
    """``compare --json``'s ``paired``: per design, per metric, B − A and what it shows."""
    return {
        name: {
            str(r["metric"]): paired_json({str(k): v for k, v in r.items()})
            for r in table.to_dict("records")
        }
        for name, table in comparison.tables.items()
    }
