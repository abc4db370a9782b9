"""Compare designs: distributions, objectives, paired differences, verdicts, tornado.

Distributions with P10/P50/P90, the chance of meeting each objective, paired
differences on common random numbers, a verdict in words that states its
uncertainty, and a tornado of one-at-a-time lever swings. Everything reads the
tidy frames :func:`sim.compare.runner.run_designs` returns (one row per replication,
replication *k* the same world under every design), except :func:`tornado`,
which builds and runs its own designs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.compare.designs import apply_delta
from sim.compare.runner import run_designs
from sim.metrics import BY_KEY, HEADLINE, Metric
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario
from sim.stats import paired_difference, summarize

#: Two replications whose values differ by less than this count as the same outcome.
SAME = 1e-9
#: z for a two-sided 95% interval.
Z95 = 1.959964


# --- one design's distribution -----------------------------------------------------------------


def ecdf(values: Iterable[float]) -> pd.DataFrame:
    """The empirical CDF: each sorted value and the share of replications at or below it."""
    x = np.sort(np.asarray(list(values), dtype=float))
    return pd.DataFrame({"value": x, "probability": np.arange(1, x.size + 1) / max(x.size, 1)})


def ecdf_table(frames: Mapping[str, pd.DataFrame], column: str) -> pd.DataFrame:
    """ECDFs of ``column`` for every design, long: ``design``, ``value``, ``probability``."""
    parts = [ecdf(df[column]).assign(design=name) for name, df in frames.items()]
    return pd.concat(parts, ignore_index=True)[["design", "value", "probability"]]


def percentiles(values: Iterable[float]) -> dict[str, float]:
    """P10, P50 and P90 (and the mean), as every statistic in TrainingRoom."""
    return summarize(values)


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound near 0 and 1, unlike the normal one)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def objective_columns(scenario: Scenario) -> list[tuple[str, str]]:
    """``(column, label)`` of every objective: time, budget, each target, quality, all."""
    targets = [(f"met:{t.eval}", f"{t.eval} ≥ {t.threshold:g}") for t in scenario.objective.targets]
    return [
        ("on_time", "On time"),
        ("on_budget", "On budget"),
        *targets,
        ("quality_met", "All quality targets"),
        ("success", "All objectives"),
    ]


def objective_probabilities(df: pd.DataFrame, scenario: Scenario) -> pd.DataFrame:
    """Probability of meeting each objective and all of them, with 95% Wilson intervals."""
    rows = []
    n = len(df)
    for column, label in objective_columns(scenario):
        hits = float(df[column].astype(bool).sum()) if column in df else math.nan
        low, high = wilson(hits, n)
        rows.append(
            {
                "objective": column,
                "label": label,
                "probability": hits / n if n else math.nan,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(rows)


def joint_probability(df: pd.DataFrame, max_days: float, max_usd: float) -> float:
    """Share of replications finishing by ``max_days`` and spending at most ``max_usd``."""
    both = (df["schedule_days"] <= max_days) & (df["cost_usd"] <= max_usd + 1e-6)
    return float(both.mean())


def joint_confidence(df: pd.DataFrame, level: float = 0.8) -> dict[str, float]:
    """Days and dollars that the project stays within *together* in ``level`` of the worlds.

    The same quantile of schedule and of cost, raised until the share of replications
    inside both reaches ``level`` (a joint statement is weaker than two separate P80s).
    """
    days, usd = df["schedule_days"].to_numpy(float), df["cost_usd"].to_numpy(float)
    for q in np.linspace(level, 1.0, 201):
        d, c = float(np.quantile(days, q)), float(np.quantile(usd, q))
        share = float(((days <= d) & (usd <= c)).mean())
        if share >= level - 1e-12:
            return {"level": level, "days": d, "usd": c, "share": share, "quantile": float(q)}
    return {"level": level, "days": float(days.max()), "usd": float(usd.max()), "share": 1.0}


# --- paired differences and the verdict ------------------------------------------------------


def compared_metrics(scenario: Scenario) -> list[Metric]:
    """Headline metrics and each target's eval score (higher is better)."""
    scores = [
        Metric(f"score:{t.eval}", f"{t.eval} score", "score", "higher")
        for t in scenario.objective.targets
    ]
    return [*HEADLINE, *scores]


def paired_table(a: pd.DataFrame, b: pd.DataFrame, scenario: Scenario) -> pd.DataFrame:
    """B − A per metric on the same replications, with 95% intervals and who wins how often.

    ``p_b_better`` and ``p_same`` are the shares of worlds (replications) in which B did
    better than A, or exactly as well; ``significant`` is true when the interval excludes 0.
    """
    rows = []
    for m in compared_metrics(scenario):
        if m.key not in a or m.key not in b:
            continue
        x, y = a[m.key].astype(float).to_numpy(), b[m.key].astype(float).to_numpy()
        d = paired_difference(x, y)
        delta = y - x
        gain = -delta if m.better == "lower" else delta
        zero = bool(np.all(np.abs(delta) < SAME))
        rows.append(
            {
                "metric": m.key,
                "label": m.label,
                "unit": m.unit,
                "better": m.better,
                "kind": m.kind,
                "a_mean": float(x.mean()),
                "b_mean": float(y.mean()),
                "mean": d["mean"],
                "low": 0.0 if zero else d["low"],
                "high": 0.0 if zero else d["high"],
                "n": int(d["n"]),
                "p_b_better": float((gain > SAME).mean()),
                "p_same": float((np.abs(delta) <= SAME).mean()),
                "significant": (not zero) and (d["low"] > 0 or d["high"] < 0),
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class Phrase:
    """How a difference in one metric reads: 'finishes 12 days sooner'."""

    verb: str
    up: str
    down: str
    suffix: str = ""

    def change(self, value: float, unit: str) -> str:
        return f"{self.verb} {amount(value, unit)} {self.up if value > 0 else self.down}"

    def direction(self, value: float) -> str:
        return self.up if value > 0 else self.down


_PHRASES: dict[str, Phrase] = {
    "schedule_days": Phrase("finishes", "later", "sooner"),
    "cost_usd": Phrase("costs", "more", "less"),
    "effort_person_days": Phrase("takes", "more", "less"),
    "on_time": Phrase("is on time", "more often", "less often"),
    "on_budget": Phrase("is on budget", "more often", "less often"),
    "quality_met": Phrase("meets all quality targets", "more often", "less often"),
    "success": Phrase("meets all objectives", "more often", "less often"),
}


def phrase(row: Mapping[str, Any]) -> Phrase:
    """The metric's phrase; a target's eval score reads 'scores 0.030 higher on EVAL'."""
    key = str(row["metric"])
    return _PHRASES.get(key, Phrase("scores", "higher", "lower", f" on {key.split(':')[-1]}"))


def amount(value: float, unit: str) -> str:
    """A magnitude with its unit, for sentences: 12 days, $1.20M, 7 percentage points."""
    v = abs(value)
    if unit == "USD":
        return f"${v / 1e6:.2f}M" if v >= 1e6 else f"${v / 1e3:,.0f}k" if v >= 1e3 else f"${v:.0f}"
    if unit == "probability":
        return f"{100 * v:.0f} percentage point{'' if round(100 * v) == 1 else 's'}"
    if unit == "score":
        return f"{v:.3f}" if v >= 1e-3 or v == 0 else f"{v:.2g}"
    return f"{v:.1f} {unit}" if v < 10 else f"{v:,.0f} {unit}"


def interval_words(row: Mapping[str, Any]) -> str:
    """The 95% interval in words: '9.0 to 15 days sooner', 'from 1.0 day sooner to 2.9 later'."""
    ph, unit = phrase(row), str(row["unit"])
    low, high = float(row["low"]), float(row["high"])
    if low * high > 0:
        near, far = sorted((abs(low), abs(high)))
        number = amount(near, unit) if unit == "USD" else amount(near, unit).split(" ")[0]
        return f"{number} to {amount(far, unit)} {ph.direction(low)}"
    return (
        f"from {amount(low, unit)} {ph.direction(low)} to {amount(high, unit)} {ph.direction(high)}"
    )


def _wins(row: Mapping[str, Any], a: str, b: str) -> str:
    """How often, world by world, B beat A (or the other way round)."""
    ph, mean = phrase(row), float(row["mean"])
    better, same = float(row["p_b_better"]), float(row["p_same"])
    worse = 1.0 - better - same
    if row["kind"] == "probability":
        ahead, behind = (b, a) if mean > 0 else (a, b)
        share, reverse = (better, worse) if mean > 0 else (worse, better)
        return (
            f"{ahead} {ph.verb} and {behind} does not in {100 * share:.0f}% of the same "
            f"worlds, the reverse in {100 * reverse:.0f}%"
        )
    improved = (mean < 0) == (row["better"] == "lower")
    share = better if improved else worse
    return f"{ph.verb} {ph.direction(mean)} in {100 * share:.0f}% of the same worlds"


def verdict_line(row: Mapping[str, Any], a: str, b: str) -> str:
    """One metric's difference B − A in words, with its 95% interval and how often B wins."""
    ph, mean, unit = phrase(row), float(row["mean"]), str(row["unit"])
    if row["p_same"] >= 1.0:
        return f"{b} and {a} do exactly as well on {row['label'].lower()} in every world."
    if not row["significant"]:
        return (
            f"No clear difference in {row['label'].lower()}: {b} {ph.change(mean, unit)}"
            f"{ph.suffix} on average, but the 95% interval ({interval_words(row)}) "
            "includes no difference."
        )
    return (
        f"{b} {ph.change(mean, unit)}{ph.suffix} than {a} (95% interval "
        f"{interval_words(row)}); {_wins(row, a, b)}."
    )


def verdict(
    a: str, b: str, table: pd.DataFrame, metrics: Sequence[str] = ("schedule_days", "cost_usd")
) -> list[str]:
    """B against A in plain language: the chance of meeting everything first, then metrics."""
    rows: dict[str, dict[str, Any]] = {
        str(r["metric"]): {str(k): v for k, v in r.items()} for r in table.to_dict("records")
    }
    lines = []
    if "success" in rows:
        s = rows["success"]
        lines.append(
            f"{b} meets all objectives in {100 * s['b_mean']:.0f}% of the worlds, "
            f"{a} in {100 * s['a_mean']:.0f}%."
        )
    lines += [verdict_line(rows[m], a, b) for m in ("success", *metrics) if m in rows]
    return lines


#: The metrics a design verdict speaks to, after the chance of meeting every objective.
VERDICT_METRICS = ("schedule_days", "cost_usd", "quality_met")
#: A difference in tokens trained worth a line of its own (share of A's mean).
SCOPE_GAP = 0.10


def scope_line(a: str, b: str, tokens_a: float, tokens_b: float) -> str | None:
    """When B trained a clearly different amount than A, say so: it explains the rest."""
    if tokens_a <= 0 or abs(tokens_b - tokens_a) / tokens_a < SCOPE_GAP:
        return None
    share = abs(tokens_b / tokens_a - 1.0)
    how = (
        "a shorter run finishes sooner and reaches lower quality"
        if tokens_b < tokens_a
        else "a longer run takes longer and reaches higher quality"
    )
    return (
        f"Scope: {b} trained {share:.0%} {'fewer' if tokens_b < tokens_a else 'more'} tokens "
        f"than {a} ({tokens_b:,.0f}B against {tokens_a:,.0f}B on average; a design that costs "
        f"more has its run cut to fit the budget). Read schedule and quality together: {how}."
    )


#: Share of worlds more in which B cut scope before the verdict says so.
SCOPE_CUT_GAP = 0.25


def scope_cut_line(a: str, b: str, frame_a: pd.DataFrame, frame_b: pd.DataFrame) -> str | None:
    """When B gave up scope to fit its budget clearly more often than A, say what it gave up."""
    if "scope_cuts" not in frame_a or "scope_cuts" not in frame_b:
        return None
    share_a = float((frame_a["scope_cuts"] > 0).mean())
    share_b = float((frame_b["scope_cuts"] > 0).mean())
    if share_b - share_a < SCOPE_CUT_GAP:
        return None
    rounds_a = float(frame_a["post_training_rounds"].mean())
    rounds_b = float(frame_b["post_training_rounds"].mean())
    given = [
        c.split(":", 1)[1].replace("_", " ")
        for c in sorted(frame_b.columns)
        if c.startswith("scope:") and frame_b[c].fillna(False).astype(bool).mean() >= SCOPE_GAP
    ]
    return (
        f"Scope: {b} gave up scope to fit its budget in {share_b:.0%} of worlds ({share_a:.0%} "
        f"for {a}): {', '.join(given) or 'cuts'}; post-training rounds {rounds_b:.1f} against "
        f"{rounds_a:.1f}. Compare at equal scope (fund every plan) to see the organisation alone."
    )


def design_verdict(
    a: str,
    b: str,
    frame_a: pd.DataFrame,
    frame_b: pd.DataFrame,
    scenario_a: Scenario,
    metrics: Sequence[str] = VERDICT_METRICS,
) -> list[str]:
    """The verdict on B against A from their replications, with the scope line when due."""
    lines = verdict(a, b, paired_table(frame_a, frame_b, scenario_a), metrics)
    if "tokens_b" in frame_a and "tokens_b" in frame_b:
        line = scope_line(
            a, b, float(frame_a["tokens_b"].mean()), float(frame_b["tokens_b"].mean())
        )
        if line:
            lines.append(line)
    cut = scope_cut_line(a, b, frame_a, frame_b)
    if cut:
        lines.append(cut)
    return lines


def criticality_table(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """How often each team and handoff set the finish date, per design (long table)."""
    rows = []
    for name, df in frames.items():
        for column in df.columns:
            kind, _, what = column.partition(":")
            if kind in ("critical", "critical_handoff"):
                share = float(df[column].astype(float).mean())
                kind = "team" if kind == "critical" else "handoff"
                rows.append({"design": name, "kind": kind, "name": what, "share": share})
    return pd.DataFrame(rows, columns=["design", "kind", "name", "share"])


# --- tornado: one-at-a-time lever swings ------------------------------------------------------


@dataclass(frozen=True)
class LeverRange:
    """A lever's documented low and high setting (a dotted path, as in ``--set``)."""

    path: str
    low: Any
    high: Any
    why: str = ""
    #: Another lever this one acts through: while it is 0 (or off), this one cannot matter.
    needs: str | None = None

    @property
    def name(self) -> str:
        return self.path.removeprefix("levers.")


#: Each lever's realistic range for sensitivity (docs/scenarios.md gives the hard limits).
LEVER_RANGES: tuple[LeverRange, ...] = (
    LeverRange("levers.reserve_fraction", 0.0, 0.25, "no reserve to a quarter of the budget"),
    LeverRange("levers.ablation_fraction", 0.0, 0.2, "no ablations to a fifth of the run"),
    LeverRange("levers.checkpoint_minutes", 5.0, 180.0, "every 5 minutes to every 3 hours"),
    LeverRange("levers.product_evals_early", False, True, "built late or early"),
    LeverRange("levers.decontaminate", False, True, "off or on"),
    LeverRange("levers.eval_focus", "single", "balanced", "one eval or all of them"),
    LeverRange("levers.safety_from_start", False, True, "late or from the start"),
    LeverRange("levers.engineering_embedded", False, True, "a silo or embedded"),
    LeverRange("levers.add_core_staff", 0, 6, "nobody to six people added to the core"),
    LeverRange(
        "levers.add_core_staff_day", 30.0, 120.0, "when added people join",
        needs="levers.add_core_staff",
    ),  # fmt: skip
    LeverRange("levers.data_investment_usd", 0.0, 500_000.0, "none to half a million dollars"),
    LeverRange("levers.parallel_variants", 1, 3, "one model or three at once"),
    LeverRange("levers.strategy", "pretrain", "adapt", "from scratch or from a base model"),
    LeverRange("org.politics_days", 0.0, 2.0, "no politics to two days per decision hop"),
)

BASE = "base"


def _setting(r: LeverRange, end: str) -> str:
    return f"{r.path}={r.low if end == 'low' else r.high}"


def _value_at(scenario: Scenario, path: str) -> Any:
    node: Any = scenario
    for key in path.split("."):
        node = getattr(node, key)
    return node


def tornado_designs(
    base: Scenario, ranges: Sequence[LeverRange] = LEVER_RANGES
) -> tuple[dict[str, Scenario], list[str]]:
    """The base plus each lever at its low and at its high end; levers the base rejects.

    A lever whose setting does not validate on this base (``strategy: adapt`` without a
    base model), or that acts through another lever the base leaves at 0, is skipped and
    named in the second list, with the reason.
    """
    designs: dict[str, Scenario] = {BASE: base}
    skipped: list[str] = []
    for r in ranges:
        if r.needs is not None and not _value_at(base, r.needs):
            skipped.append(f"{r.path}: no effect while {r.needs} is {_value_at(base, r.needs)}")
            continue
        try:
            pair = {
                _setting(r, end): apply_delta(base, {r.path: getattr(r, end)})
                for end in ("low", "high")
            }
        except ScenarioError as exc:
            skipped.append(f"{r.path}: {exc.problems[0].reason}")
            continue
        designs.update(pair)
    return designs, skipped


def tornado_table(
    frames: Mapping[str, pd.DataFrame],
    metric: str,
    ranges: Sequence[LeverRange] = LEVER_RANGES,
) -> pd.DataFrame:
    """Mean ``metric`` at each lever's low and high end, ranked by the size of the swing.

    ``swing`` is high minus low. Levers are ranked by ``|swing|``, largest first; a lever
    with no effect has a swing of exactly 0 on common random numbers and ranks last.
    """
    base_value = float(frames[BASE][metric].astype(float).mean())
    rows = []
    for r in ranges:
        low, high = _setting(r, "low"), _setting(r, "high")
        if low not in frames or high not in frames:
            continue
        at_low = float(frames[low][metric].astype(float).mean())
        at_high = float(frames[high][metric].astype(float).mean())
        swing = at_high - at_low
        rows.append(
            {
                "lever": r.path,
                "low": r.low,
                "high": r.high,
                "metric_low": at_low,
                "metric_high": at_high,
                "base": base_value,
                "swing": 0.0 if abs(swing) < SAME else swing,
                "effect": 0.0 if abs(swing) < SAME else abs(swing),
            }
        )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table = table.sort_values("effect", ascending=False, kind="stable").reset_index(drop=True)
    table["rank"] = np.arange(1, len(table) + 1)
    return table


def tornado(
    base: Scenario,
    metric: str,
    reps: int,
    seed: int = 0,
    *,
    ranges: Sequence[LeverRange] = LEVER_RANGES,
    **run: Any,
) -> tuple[pd.DataFrame, list[str]]:
    """Run every lever's low and high setting on common random numbers; rank the swings.

    ``run`` takes :func:`sim.compare.runner.run_designs`'s options (workers, executor, progress...).
    """
    designs, skipped = tornado_designs(base, ranges)
    frames = run_designs(designs, reps, seed, **run)
    return tornado_table(frames, metric, ranges), skipped


def metric_label(key: str) -> str:
    """A column's label and unit from the KPI registry, or the column itself."""
    m = BY_KEY.get(key)
    if m is None:
        return key.replace("score:", "") + " score" if key.startswith("score:") else key
    return m.label if m.unit == "probability" else f"{m.label} ({m.unit})"
