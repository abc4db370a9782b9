"""Compare designs: distributions, objectives, paired differences, verdicts, tornado.

Distributions with P10/P50/P90, the chance of meeting each objective, paired
differences on common random numbers, a verdict in words that states its
uncertainty, and a tornado of one-at-a-time lever swings. Everything reads the
tidy frames :func:`sim.runner.run_designs` returns (one row per replication,
replication *k* the same world under every design), except :func:`tornado`,
which builds and runs its own designs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.compare.editing import field_words, value_words
from sim.compare.inference import (
    Comparison,
    compare_designs,
    margins_for,
    paired_summary,
    settle_verdicts,
)
from sim.compare.inference import compared_metrics as compared_metrics
from sim.compare.inference import paired_table as paired_table
from sim.designs import apply_delta, diff
from sim.distribution import wilson
from sim.intervals import (
    ALPHA,
    MIN_DIFFERING,
    MIN_WORLDS,
    SAME,
    chance_top,
    holm,
    paired_mean,
    paired_proportion,
    require_worlds,
)
from sim.metrics import BY_KEY, HEADLINE, OBJECTIVES
from sim.runner import run_designs
from sim.scenario.levers import LEVERS
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import option_words, words
from sim.summary import interval_summary, summarize_runs

# --- objectives ----------------------------------------------------------------------------


def objective_columns(scenario: Scenario) -> list[tuple[str, str]]:
    """``(column, label)`` of every objective: time, budget, each target, quality, all."""
    targets = [(f"met:{t.eval}", f"{t.eval} ≥ {t.threshold:g}") for t in scenario.objective.targets]
    out: list[tuple[str, str]] = []
    for m in OBJECTIVES:
        if m.key == "quality_met":  # the targets it is made of come just before it
            out += targets
        out.append((m.key, m.objective))
    return out


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


# --- paired differences and the verdict ------------------------------------------------------


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


_PHRASES: dict[str, Phrase] = {m.key: Phrase(m.verb, m.more, m.less) for m in HEADLINE if m.verb}
#: What a chance metric's discordant worlds read as: 'B meets all objectives in 9 worlds...'.
_EVENT = {m.key: m.verb for m in OBJECTIVES}


def phrase(row: Mapping[str, Any]) -> Phrase:
    """The metric's phrase; a target's eval score reads 'scores 3.0 points higher on EVAL'."""
    key = str(row["metric"])
    return _PHRASES.get(
        key, Phrase("scores", "higher", "lower", f" on {words(key.split(':')[-1])}")
    )


def amount(value: float, unit: str) -> str:
    """A magnitude with its unit, for sentences: 12 days, $1.20M, 7 percentage points."""
    v = abs(value)
    if unit == "USD":
        return f"${v / 1e6:.2f}M" if v >= 1e6 else f"${v / 1e3:,.0f}k" if v >= 1e3 else f"${v:.0f}"
    if unit == "probability":
        points = 100 * v
        text = f"{points:.0f}" if points >= 9.5 or points == 0 else f"{points:.1f}"
        return f"{text} percentage point{'' if text == '1.0' or text == '1' else 's'}"
    if unit == "score":  # quality in points out of 100, as everywhere
        points = 100 * v
        return f"{points:.1f} points" if points >= 0.05 or points == 0 else f"{points:.2g} points"
    if v < 1:
        return f"{v:.2f} {unit}"
    return f"{v:.1f} {unit}" if v < 10 else f"{v:,.0f} {unit}"


def level_words(row: Mapping[str, Any]) -> str:
    """'95%', or '99.2%' for an interval at a sequential run's per-look level."""
    level = float(row.get("level", 0.95) or 0.95)
    return f"{100 * level:.0f}%" if abs(level - 0.95) < 1e-9 else f"{100 * level:.1f}%"


def interval_words(row: Mapping[str, Any]) -> str:
    """The interval in words: '9.0 to 15 days sooner', 'from 1.0 day sooner to 2.9 later'."""
    ph, unit = phrase(row), str(row["unit"])
    low, high = float(row["low"]), float(row["high"])
    if low * high > 0:
        near, far = sorted((abs(low), abs(high)))
        number = amount(near, unit) if unit == "USD" else amount(near, unit).split(" ")[0]
        return f"{number} to {amount(far, unit)} {ph.direction(low)}"
    return (
        f"from {amount(low, unit)} {ph.direction(low)} to {amount(high, unit)} {ph.direction(high)}"
    )


def p_words(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


def _adjusted(row: Mapping[str, Any], key: str) -> str:
    """'p = 0.003, adjusted for 6 comparisons' or 'p = 0.003' when nothing was adjusted.

    The method (Holm's) is named in the output's footnote (:data:`METHOD_NAMES`), not here.
    """
    p = float(row.get(f"{key}_adjusted", row.get(key, 1.0)))
    family = str(row.get("adjustment", "")).removeprefix("Holm over ")
    return p_words(p) + (f", adjusted for {family} comparisons" if family not in ("", "1") else "")


#: The methods behind a comparison's sentences, for its footnote (sim.glossary.METHODS).
METHOD_NAMES = (
    "Student's t interval",
    "Tango's score test",
    "Paired differences and Holm's correction",
    "Bayesian bootstrap",
)


def discordant_words(row: Mapping[str, Any], a: str, b: str) -> str:
    """'B meets all objectives in 9 worlds where A does not, A in 3 where B does not'."""
    event = _EVENT.get(str(row["metric"]), "meets it")
    bo, ao = int(row["b_only"]), int(row["a_only"])
    return (
        f"{b} {event} in {bo} world{'' if bo == 1 else 's'} where {a} does not, "
        f"{a} in {ao} where {b} does not ({p_words(float(row['p_value']))})"
    )


def _has_counts(row: Mapping[str, Any]) -> bool:
    """A chance metric's row, with its discordant counts."""
    b_only = row.get("b_only")
    return row["kind"] == "probability" and b_only is not None and not math.isnan(float(b_only))


def _rough(row: Mapping[str, Any]) -> bool:
    rough = row.get("rough")
    return isinstance(rough, bool | np.bool_) and bool(rough)


def _wins(row: Mapping[str, Any], a: str, b: str) -> str:
    """How often, world by world, B beat A (or the other way round)."""
    if _has_counts(row):
        return discordant_words(row, a, b)
    ph, mean = phrase(row), float(row["mean"])
    better, same = float(row["p_b_better"]), float(row["p_same"])
    worse = 1.0 - better - same
    improved = (mean < 0) == (row["better"] == "lower")
    share = better if improved else worse
    return f"{ph.verb} {ph.direction(mean)} in {100 * share:.0f}% of the same worlds"


def margin_words(row: Mapping[str, Any]) -> str:
    """The smallest difference that matters, in the metric's unit: '±1.0 day'."""
    return "±" + amount(float(row["margin"]), str(row["unit"]))


def _needed(row: Mapping[str, Any]) -> str:
    n = row.get("worlds_needed")
    if n is None or (isinstance(n, float) and math.isnan(n)):
        return "more than ten million worlds would be needed to settle it"
    if int(n) <= int(row["n"]):
        return "a few more worlds should settle it"
    return f"about {int(n):,} worlds would settle it"


def row_verdict(row: Mapping[str, Any]) -> str:
    """clear, alike or not yet known (adjusted where the row carries adjusted p-values).

    The rule of :func:`sim.compare.inference.settle_verdicts`.
    """
    if "verdict" in row and isinstance(row["verdict"], str):
        return str(row["verdict"])
    return str(settle_verdicts(pd.DataFrame([dict(row)]))[0])


def verdict_line(row: Mapping[str, Any], a: str, b: str) -> str:
    """One metric's difference B − A in words: clear, alike within ±X, or not yet known."""
    ph, mean, unit = phrase(row), float(row["mean"]), str(row["unit"])
    label, lv, n = str(row["label"]).lower(), level_words(row), int(row["n"])
    kind = row_verdict(row)
    if row["p_same"] >= 1.0:
        head = f"{b} and {a} do exactly as well on {label} in all {n:,} worlds run"
        if kind == "alike":
            return f"{head}: alike within {margin_words(row)} ({_adjusted(row, 'p_equivalent')})."
        return (
            f"{head}, but other worlds could still differ: not yet known whether they stay "
            f"within {margin_words(row)} ({lv} interval {interval_words(row)}); {_needed(row)}."
        )
    if kind == "clear":
        return (
            f"{b} {ph.change(mean, unit)}{ph.suffix} than {a} ({lv} interval "
            f"{interval_words(row)}; clear, {_adjusted(row, 'p_value')}); {_wins(row, a, b)}."
        )
    if kind == "alike":
        return (
            f"Alike on {label} within {margin_words(row)}: {b} {ph.change(mean, unit)}"
            f"{ph.suffix} on average ({lv} interval {interval_words(row)}; "
            f"{_adjusted(row, 'p_equivalent')})."
        )
    extra = f" {discordant_words(row, a, b)}." if _has_counts(row) else ""
    if _rough(row):
        k = int(row.get("worlds_differing", 0) or 0)
        extra += (
            f" Only {k} world{'' if k == 1 else 's'} of {n:,} carry the difference (the rest "
            f"differ little or not at all), and a clear call needs at least {MIN_DIFFERING}: "
            "the interval is rough until there are more worlds."
        )
    if not _rough(row) and float(row.get("p_adjusted", row.get("p_value", 1.0))) < ALPHA:
        return (
            f"Not yet known on {label}: {b} {ph.change(mean, unit)}{ph.suffix} on average "
            f"({lv} interval {interval_words(row)}), a real difference but smaller than the "
            f"{margin_words(row)} that matters, so not yet a clear one; {_needed(row)}.{extra}"
        )
    return (
        f"Not yet known on {label}: {b} {ph.change(mean, unit)}{ph.suffix} on average, but "
        f"neither a clear difference nor alike within {margin_words(row)} ({lv} interval "
        f"{interval_words(row)}); {_needed(row)}.{extra}"
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
        n = int(s["n"])
        lo_b, hi_b = wilson(s["b_mean"] * n, n)
        lo_a, hi_a = wilson(s["a_mean"] * n, n)
        lines.append(
            f"{b} meets all objectives in {100 * s['b_mean']:.0f}% of the worlds "
            f"({100 * lo_b:.0f}–{100 * hi_b:.0f}%), {a} in {100 * s['a_mean']:.0f}% "
            f"({100 * lo_a:.0f}–{100 * hi_a:.0f}%)."
        )
    primary = [m for m, r in rows.items() if r.get("primary") is True]
    order = list(dict.fromkeys([*primary, "success", *metrics]))
    lines += [verdict_line(rows[m], a, b) for m in order if m in rows]
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
        option_words(c.split(":", 1)[1])
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
    table: pd.DataFrame | None = None,
) -> list[str]:
    """The verdict on B against A, with the scope line when due.

    ``table`` is B's table from :func:`sim.compare.inference.compare_designs` (adjusted
    for every design and metric compared); without it, B against A alone.
    """
    if table is None:
        table = compare_designs({a: frame_a, b: frame_b}, scenario_a).tables[b]
    lines = verdict(a, b, table, metrics)
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


def best_line(
    best: Mapping[str, Any], label: str, margin: str, names: Mapping[str, str] | None = None
) -> str:
    """'Best on all objectives met: X. The chance it is truly the best ... is 62%, ...'."""
    pick = str(best["pick"])
    return (
        f"Best on {label.lower()}: {(names or {}).get(pick, pick)}. The chance it is truly "
        "the best of these designs is "
        f"{100 * best['chance_best'][pick]:.0f}%, and that it is within {margin} of the best "
        f"{100 * best['chance_near_best'][pick]:.0f}% (over the same worlds)."
    )


def comparison_lines(
    comparison: Comparison,
    frames: Mapping[str, pd.DataFrame],
    scenario: Scenario,
    names: Mapping[str, str] | None = None,
    metrics: Sequence[str] = VERDICT_METRICS,
) -> dict[str, list[str]]:
    """Each design's verdict lines against the baseline (``names`` relabels, e.g. A, B)."""
    label = names or {n: n for n in frames}
    a = comparison.baseline
    return {
        b: design_verdict(label[a], label[b], frames[a], frames[b], scenario, metrics, table)
        for b, table in comparison.tables.items()
    }


def comparison_json(
    designs: Mapping[str, Scenario],
    frames: Mapping[str, pd.DataFrame],
    comparison: Comparison,
    seed: int,
) -> dict[str, Any]:
    """The comparison as JSON: ``compare --json`` and the compare page's download alike.

    DESIGN.md's keys first (reps, seed, baseline, designs, paired, verdict), then the
    primary metric, its margins, the error rate and its adjustment, the best design, each
    design's intervals and what each design changes from the baseline.
    """
    names = list(designs)
    base = names[0]
    table = next(iter(comparison.tables.values())).to_dict("records")
    return {
        "reps": comparison.worlds,
        "seed": seed,
        "baseline": base,
        "designs": {n: summarize_runs(frames[n], designs[n], seed) for n in names},
        "paired": paired_summary(comparison),
        "verdict": comparison_lines(comparison, frames, designs[base]),
        "primary": comparison.primary,
        "margins": margins_for(
            designs[base], frames[base], {r["metric"]: r["margin"] for r in table}
        ),
        "alpha": comparison.alpha,
        "adjustment": {
            "method": "holm",
            **comparison.families,
            "note": comparison.adjustment_note(),
        },
        "best": comparison.best,
        "intervals": {n: interval_summary(frames[n]) for n in names},
        "changes": {n: diff(designs[base], designs[n]) for n in names[1:]},
    }


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


#: Each lever's realistic range for sensitivity and optimize, from the lever registry
#: (docs/scenarios.md gives the hard limits), and the organisation's politics. Strategy
#: comes last, as it did before the registry, so optimize's trials keep their order.
LEVER_RANGES: tuple[LeverRange, ...] = (
    *(
        LeverRange(lv.path, lv.low, lv.high, lv.why, needs=lv.needs)
        for lv in sorted(LEVERS, key=lambda lv: lv.name == "strategy")
    ),
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
            now = _value_at(base, r.needs)
            skipped.append(f"{field_words(r.path)}: no effect while {field_words(r.needs).lower()} "
                           f"is {value_words(r.needs, now)}")  # fmt: skip
            continue
        try:
            pair = {
                _setting(r, end): apply_delta(base, {r.path: getattr(r, end)})
                for end in ("low", "high")
            }
        except ScenarioError as exc:
            skipped.append(f"{field_words(r.path)}: {exc.problems[0].reason}")
            continue
        designs.update(pair)
    return designs, skipped


def settings_as_is(base: Scenario, ranges: Sequence[LeverRange] = LEVER_RANGES) -> set[str]:
    """The tornado settings that leave ``base`` as it is (the same design, by construction)."""
    out = set()
    for r in ranges:
        try:
            now = _value_at(base, r.path)
        except AttributeError:
            continue
        out |= {_setting(r, end) for end in ("low", "high") if getattr(r, end) == now}
    return out


def _paired(kind: str, x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
    return (paired_proportion if kind == "probability" else paired_mean)(x, y)


def tornado_table(
    frames: Mapping[str, pd.DataFrame],
    metric: str,
    ranges: Sequence[LeverRange] = LEVER_RANGES,
    seed: int = 0,
    as_is: set[str] | frozenset[str] = frozenset(),
) -> pd.DataFrame:
    """Mean ``metric`` at each lever's low and high end, ranked by the size of the swing.

    ``swing`` is high minus low, on the same worlds. Levers are ranked by ``|swing|``,
    largest first; a lever with no effect has a swing of exactly 0 on common random
    numbers and ranks last. Each end carries the 95% interval of its difference from the
    base (``low_from``/``low_to``, ``high_from``/``high_to``: the whiskers), the swing its
    own (``swing_low``/``swing_high``) and a p-value Holm-adjusted over the levers
    (``clear``); ``p_top3`` is the chance the lever is truly among the three that move
    the metric most (Bayesian bootstrap over the same worlds). A setting named in
    ``as_is`` (:func:`settings_as_is`) is the design itself: its whisker has no width.
    """
    base_values = frames[BASE][metric].astype(float).to_numpy()
    require_worlds(base_values.size, MIN_WORLDS, "a sensitivity ranking")
    base_value = float(base_values.mean())
    kind = BY_KEY[metric].kind if metric in BY_KEY else "quantity"
    rows, effects = [], []
    for r in ranges:
        low, high = _setting(r, "low"), _setting(r, "high")
        if low not in frames or high not in frames:
            continue
        at = {
            e: frames[s][metric].astype(float).to_numpy() for e, s in (("low", low), ("high", high))
        }
        swing = _paired(kind, at["low"], at["high"])
        ends = {
            e: {"low": 0.0, "high": 0.0}
            if (low if e == "low" else high) in as_is
            else _paired(kind, base_values, at[e])
            for e in at
        }
        zero = abs(swing["mean"]) < SAME and swing["p_value"] >= 1.0
        rows.append(
            {
                "lever": r.path, "low": r.low, "high": r.high,
                "metric_low": float(at["low"].mean()), "metric_high": float(at["high"].mean()),
                "base": base_value,
                "swing": 0.0 if zero else swing["mean"],
                "effect": 0.0 if zero else abs(swing["mean"]),
                "swing_low": swing["low"], "swing_high": swing["high"],
                "low_from": base_value + ends["low"]["low"],
                "low_to": base_value + ends["low"]["high"],
                "high_from": base_value + ends["high"]["low"],
                "high_to": base_value + ends["high"]["high"],
                "p_value": swing["p_value"],
            }
        )  # fmt: skip
        effects.append(at["high"] - at["low"])
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    table["p_adjusted"] = holm(table["p_value"].tolist(), ALPHA)
    table["clear"] = table["p_adjusted"] < ALPHA
    table["p_top3"] = chance_top(np.column_stack(effects), 3, seed=seed)
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

    ``run`` takes :func:`sim.runner.run_designs`'s options (workers, executor, progress...).
    """
    designs, skipped = tornado_designs(base, ranges)
    frames = run_designs(designs, reps, seed, **run)
    return tornado_table(frames, metric, ranges, seed, settings_as_is(base, ranges)), skipped


def metric_label(key: str) -> str:
    """A column's label and unit from the KPI registry, or the column itself."""
    m = BY_KEY.get(key)
    if m is None:
        return words(key.removeprefix("score:")) + " score" if key.startswith("score:") else key
    return m.label if m.unit == "probability" else f"{m.label} ({m.unit})"
