"""Plotly figures for the Compare and Sweep pages: pure functions from tables to figures.

Each builder takes the frames and tables of :mod:`sim.compare.analysis` and :mod:`sim.compare.sweep`
and returns a ``go.Figure``; nothing here reads session state or draws on the page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from sim.compare.editing import field_words, value_words
from sim.distribution import ecdf, percentile_intervals, percentiles
from sim.intervals import TooFewWorlds
from sim.metrics import QUANTITIES
from sim.scenario.vocabulary import sentence

#: One colour per design, in the order the designs were picked.
PALETTE = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2", "#9D755D")
GOOD, BAD, NEUTRAL = "#2ca02c", "#d62728", "#8c8c8c"
LIMIT = "#444444"


def colors(names: Sequence[str]) -> dict[str, str]:
    return {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)}


def translucent(color: str, alpha: float = 0.15) -> str:
    """A hex colour as rgba with ``alpha``: bands in a design's own colour."""
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r}, {g}, {b}, {alpha})"


def _layout(fig: go.Figure, title: str, height: int, legend: bool = True) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}},
        height=height,
        margin={"l": 10, "r": 10, "t": 48, "b": 10},
        legend={"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0},
        showlegend=legend,
        hovermode="closest",
    )
    return fig


def _limit(
    fig: go.Figure,
    x: float | None = None,
    y: float | None = None,
    text: str = "",
    color: str = LIMIT,
    row: int = 0,
) -> None:
    """A dashed line at a deadline, budget or threshold, labelled at its end.

    ``row`` staggers the labels of several lines on one axis so they do not overlap. A
    vertical line's label sits at the foot of the line: the P90 marks (and their labels) are
    near the top of an S-curve, where a label at the top covered them.
    """
    if x is not None:
        fig.add_vline(x=x, line={"color": color, "dash": "dash", "width": 1.5})
        fig.add_annotation(x=x, y=0.01 + 0.07 * row, yref="paper", text=text, showarrow=False,
                           xanchor="left", yanchor="bottom", font={"color": color},
                           bgcolor="rgba(255, 255, 255, 0.8)")  # fmt: skip
    if y is not None:
        fig.add_hline(y=y, line={"color": color, "dash": "dash", "width": 1.5})
        fig.add_annotation(y=y, x=1 - 0.2 * row, xref="paper", text=text, showarrow=False,
                           xanchor="right", yanchor="bottom", font={"color": color})  # fmt: skip


Limit = float | Mapping[str, float] | None


def _limits(fig: go.Figure, limit: Limit, text: str, axis: str, palette: Mapping[str, str]) -> None:
    """One grey line when every design shares the limit; otherwise one per design, in its colour
    (designs can differ: a funded plan's budget, another scenario's deadline)."""
    if limit is None:
        return
    values = {"": float(limit)} if not isinstance(limit, Mapping) else dict(limit)
    if len(set(values.values())) == 1:
        _limit(fig, **{axis: next(iter(values.values()))}, text=text)  # type: ignore[arg-type]
        return
    for row, (name, value) in enumerate(values.items()):
        short = name if len(name) <= 16 else name[:15].rstrip(" ,") + "…"
        _limit(fig, **{axis: value}, text=f"{text}: {short}", color=palette.get(name, LIMIT),
               row=row)  # type: ignore[arg-type]  # fmt: skip


PERCENTILE_MARKS = (("P10", "p10", 0.1), ("P50", "p50", 0.5), ("P90", "p90", 0.9))


def percentile_marks(
    p: Mapping[str, Mapping[str, float | None]], seen_low: float, seen_high: float
) -> list[tuple[str, float, float, float, float]]:
    """P10, P50 and P90 as ``(label, share, value, minus, plus)`` for a marker and its whisker.

    An end of an interval the worlds cannot reach (None, open) is drawn to the edge of what
    was seen (``seen_low``, ``seen_high``); a percentile with no value (None or NaN) has no
    marker rather than one at a made-up place.
    """
    out = []
    for label, key, share in PERCENTILE_MARKS:
        value, low, high = p[key]["value"], p[key]["low"], p[key]["high"]
        if value is None or math.isnan(value):
            continue
        low = seen_low if low is None else low
        high = seen_high if high is None else high
        out.append((label, share, value, max(0.0, value - low), max(0.0, high - value)))
    return out


def ecdf_figure(
    frames: Mapping[str, pd.DataFrame],
    column: str,
    title: str,
    axis: str,
    limit: Limit = None,
    limit_text: str = "",
) -> go.Figure:
    """S-curves: the share of worlds at or below each value, P10/P50/P90 marked per design.

    Each curve has its 95% band (Dvoretzky-Kiefer-Wolfowitz: the true curve lies inside
    everywhere at once), and each of P10, P50 and P90 its 95% order-statistic interval as
    a horizontal whisker. ``limit`` is one value for every design, or a value per design.
    """
    fig = go.Figure()
    palette = colors(list(frames))
    for name, df in frames.items():
        curve = ecdf(df[column].astype(float))
        color = palette[name]
        for edge in ("high", "low"):
            fig.add_trace(
                go.Scatter(
                    x=curve["value"], y=curve[edge], mode="lines", legendgroup=name,
                    line={"shape": "hv", "width": 0, "color": color}, showlegend=False,
                    fill="tonexty" if edge == "low" else None,
                    fillcolor=translucent(color), hoverinfo="skip",
                )
            )  # fmt: skip
        fig.add_trace(
            go.Scatter(
                x=curve["value"], y=curve["probability"], mode="lines", name=name,
                line={"shape": "hv", "color": color, "width": 2}, legendgroup=name,
                hovertemplate=f"{name}<br>{axis}: %{{x:,.4g}}<br>share at or below: %{{y:.0%}}"
                "<extra></extra>",
            )
        )  # fmt: skip
        try:
            p = percentile_intervals(df[column].astype(float))
        except TooFewWorlds:  # too few worlds for intervals: the points alone
            plain = percentiles(df[column].astype(float))
            p = {k: {"value": plain[k], "low": plain[k], "high": plain[k]} for k in plain}
        marks = percentile_marks(p, float(curve["value"].min()), float(curve["value"].max()))
        text, y, x, low, high = ([m[i] for m in marks] for i in range(5))
        fig.add_trace(
            go.Scatter(
                x=x, y=y, mode="markers+text",
                text=text, textposition="top right",
                marker={"color": color, "size": 9, "symbol": "diamond"}, legendgroup=name,
                error_x={"type": "data", "symmetric": False, "array": high, "arrayminus": low,
                         "color": color, "thickness": 1.5, "width": 5},
                showlegend=False, textfont={"color": color, "size": 10},
                hovertemplate=f"{name}<br>%{{text}}: %{{x:,.4g}}<extra></extra>",
            )
        )  # fmt: skip
    _limits(fig, limit, limit_text, "x", palette)
    fig.update_xaxes(title=axis)
    fig.update_yaxes(title="share of worlds at or below", range=[0, 1.02], tickformat=".0%")
    return _layout(fig, title, 360)


def objectives_figure(probabilities: Mapping[str, pd.DataFrame]) -> go.Figure:
    """Probability of meeting each objective and all of them, 95% intervals as whiskers."""
    fig = go.Figure()
    palette = colors(list(probabilities))
    for name, table in probabilities.items():
        fig.add_trace(
            go.Bar(
                x=table["label"], y=table["probability"], name=name,
                marker_color=palette[name],
                error_y={"type": "data", "symmetric": False,
                         "array": table["high"] - table["probability"],
                         "arrayminus": table["probability"] - table["low"]},
                text=[f"{p:.0%}" for p in table["probability"]], textposition="outside",
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.0%}}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_yaxes(title="probability", range=[0, 1.12], tickformat=".0%")
    fig.update_layout(barmode="group")
    return _layout(fig, "Chance of meeting each objective (95% intervals)", 380)


def joint_figure(
    frames: Mapping[str, pd.DataFrame],
    deadline_days: Mapping[str, float],
    budget_usd: Mapping[str, float],
) -> go.Figure:
    """Every world as a point of schedule and cost, with each design's deadline and budget."""
    fig = go.Figure()
    palette = colors(list(frames))
    for name, df in frames.items():
        on_time = df["schedule_days"] <= deadline_days[name]
        inside = float((on_time & (df["cost_usd"] <= budget_usd[name] + 1e-6)).mean())
        fig.add_trace(
            go.Scattergl(
                x=df["schedule_days"], y=df["cost_usd"] / 1e6, mode="markers",
                name=f"{name}: {inside:.0%} on time and on budget",
                marker={"color": palette[name], "size": 6, "opacity": 0.55},
                hovertemplate=f"{name}<br>%{{x:.0f}} days, $%{{y:.2f}}M<extra></extra>",
            )
        )  # fmt: skip
    _limits(fig, deadline_days, "deadline", "x", palette)
    _limits(fig, {n: v / 1e6 for n, v in budget_usd.items()}, "budget", "y", palette)
    fig.update_xaxes(title="schedule (days)")
    fig.update_yaxes(title="cost (million USD)")
    return _layout(fig, "Time and cost together, one point per world", 420)


def paired_figure(table: pd.DataFrame, a: str, b: str) -> go.Figure:
    """B − A per metric with its 95% interval, one small panel each (units differ).

    Each panel is centred on zero, so which side a point sits on is which design did
    better; green is B better, red B worse, grey no clear difference.
    """
    rows = table.to_dict("records")
    fig = make_subplots(rows=len(rows), cols=1, vertical_spacing=0.02 + 0.2 / max(len(rows), 1))
    for i, r in enumerate(rows, start=1):
        improved = (r["mean"] < 0) == (r["better"] == "lower")
        color = NEUTRAL if not r["significant"] else GOOD if improved else BAD
        scale, unit = UNIT_SCALE.get(str(r["unit"]), (1.0, str(r["unit"])))
        low, mean, high = (float(r[k]) * scale for k in ("low", "mean", "high"))
        fig.add_trace(
            go.Scatter(
                x=[mean], y=[r["label"]], mode="markers", marker={"color": color, "size": 11},
                error_x={"type": "data", "symmetric": False, "color": color,
                         "array": [high - mean], "arrayminus": [mean - low]},
                hovertemplate=f"{r['label']}: %{{x:+.3g}} {unit}<extra></extra>",
                showlegend=False,
            ),
            row=i, col=1,
        )  # fmt: skip
        reach = 1.15 * max(abs(low), abs(high), abs(mean)) or 1.0
        fig.add_vline(x=0, line={"color": LIMIT, "width": 1}, row=i, col=1)
        fig.update_xaxes(title={"text": unit, "standoff": 0}, range=[-reach, reach], row=i, col=1,
                         zeroline=False)  # fmt: skip
    return _layout(fig, f"{b} minus {a}, world by world", 70 + 78 * len(rows), legend=False)


#: How a unit is drawn in the differences chart: a scale and the axis title.
UNIT_SCALE: dict[str, tuple[float, str]] = {
    "probability": (100.0, "percentage points"),
    "USD": (1e-6, "million USD"),
    "score": (100.0, "points out of 100"),
}


def criticality_figure(table: pd.DataFrame, kind: str) -> go.Figure:
    """How often each team (or handoff) lay on the chain that set the finish date."""
    part = table[table["kind"] == kind]
    names = list(dict.fromkeys(part["design"]))
    palette = colors(names)
    fig = go.Figure()
    for name in names:
        rows = part[part["design"] == name]
        fig.add_trace(
            go.Bar(
                y=rows["name"], x=rows["share"], name=name, orientation="h",
                marker_color=palette[name],
                hovertemplate=f"{name}<br>%{{y}}: %{{x:.0%}} of worlds<extra></extra>",
            )
        )  # fmt: skip
    fig.update_xaxes(title="share of worlds on the critical chain", range=[0, 1], tickformat=".0%")
    fig.update_layout(barmode="group")
    what = "Teams" if kind == "team" else "Handoffs"
    height = 170 + 22 * len(names) * max(1, part["name"].nunique())
    return _layout(fig, f"{what} on the chain that set the finish date", min(max(height, 280), 900))


def tornado_figure(table: pd.DataFrame, label: str) -> go.Figure:
    """Each lever's low and high setting as bars from the base value, largest swing on top."""
    fig = go.Figure()
    if table.empty:
        return _layout(fig, "Sensitivity", 200)
    ordered = table.iloc[::-1]
    base = float(table["base"].iloc[0])
    names = [field_words(str(lever)) for lever in ordered["lever"]]
    for end, color in (("low", "#9ecae1"), ("high", "#3182bd")):
        values = ordered[f"metric_{end}"].astype(float)
        whiskers = {}
        if f"{end}_from" in ordered:
            whiskers = {"error_x": {
                "type": "data", "symmetric": False, "color": "#333333", "thickness": 1.2,
                "array": ordered[f"{end}_to"].astype(float) - values,
                "arrayminus": values - ordered[f"{end}_from"].astype(float),
            }}  # fmt: skip
        fig.add_trace(
            go.Bar(
                y=names, x=values - base, base=base, orientation="h", name=f"at its {end} setting",
                marker_color=color,
                customdata=[value_words(str(lv), v) for lv, v in zip(ordered["lever"], ordered[end],
                                                                     strict=True)],
                hovertemplate="%{y} = %{customdata}: %{x:,.4g}<extra></extra>",
                **whiskers,
            )
        )  # fmt: skip
    fig.add_vline(x=base, line={"color": LIMIT, "dash": "dash", "width": 1.5})
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(
        title=f"{label}; dashed line: the design as it is ({base:,.4g}); whiskers: 95% intervals"
    )
    return _layout(
        fig, f"What moves {label.lower()} most (one lever at a time)", 140 + 30 * len(table)
    )


def _axis_words(path: str, value: Any) -> str:
    """A grid axis's setting as it reads on a tick (``0.1`` of the reserve is "10%")."""
    return value_words(path, value)


def heatmap_figure(table: pd.DataFrame, x: str, y: str, metric: str, label: str) -> go.Figure:
    """A metric over two grid axes (named and ticked in words); cells show their value."""
    pivot = table.pivot_table(index=y, columns=x, values=metric, aggfunc="mean")
    probability = metric.startswith("p_")
    text = pivot.map(lambda v: f"{v:.0%}" if probability else f"{v:,.4g}")
    if f"{metric}_low" in table and f"{metric}_high" in table:
        # Each cell with its 95% interval underneath.
        ends = [table.pivot_table(index=y, columns=x, values=f"{metric}_{e}", aggfunc="mean")
                for e in ("low", "high")]  # fmt: skip

        def form(v: float) -> str:
            if v != v:  # NaN: an end the worlds cannot reach
                return "…"
            return f"{100 * v:.0f}" if probability else f"{v:,.4g}"

        text = text + "<br>(" + ends[0].map(form) + "–" + ends[1].map(form) + ")"
    fig = go.Figure(
        go.Heatmap(
            z=pivot.to_numpy(), x=[_axis_words(x, c) for c in pivot.columns],
            y=[_axis_words(y, i) for i in pivot.index],
            text=text.to_numpy(), texttemplate="%{text}", colorscale="Viridis",
            zmin=0.0 if probability else None, zmax=1.0 if probability else None,
            reversescale=_lower_is_better(metric),
            colorbar={"title": {"text": label}, "tickformat": ".0%" if probability else None},
            hovertemplate=f"{field_words(x)}: %{{x}}<br>{field_words(y)}: %{{y}}<br>"
            f"{label}: %{{text}}<extra></extra>",
        )
    )  # fmt: skip
    fig.update_xaxes(title=sentence(field_words(x)), type="category")
    fig.update_yaxes(title=sentence(field_words(y)), type="category")
    return _layout(fig, f"{label} over the grid", 420, legend=False)


def sweep_line_figure(table: pd.DataFrame, x: str, metric: str, label: str) -> go.Figure:
    """A metric along a single grid axis (named and ticked in words)."""
    hover = f"{field_words(x)} %{{x}}: %{{y:,.4g}}<extra></extra>"
    bars = {}
    if f"{metric}_low" in table and f"{metric}_high" in table:
        bars = {"error_y": {"type": "data", "symmetric": False,
                            "array": table[f"{metric}_high"] - table[metric],
                            "arrayminus": table[metric] - table[f"{metric}_low"]}}  # fmt: skip
    fig = go.Figure(
        go.Scatter(x=[_axis_words(x, v) for v in table[x]], y=table[metric],
                   mode="lines+markers", line={"color": PALETTE[0]}, hovertemplate=hover, **bars)
    )  # fmt: skip
    fig.update_xaxes(title=sentence(field_words(x)), type="category")
    fig.update_yaxes(title=label, tickformat=".0%" if metric.startswith("p_") else None)
    return _layout(fig, f"{label} along {field_words(x).lower()}", 380, legend=False)


def _lower_is_better(metric: str) -> bool:
    return any(metric.startswith(m.key) and m.better == "lower" for m in QUANTITIES)
