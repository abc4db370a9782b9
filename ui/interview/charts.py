"""Plotly figures for the Interview page: pure functions from plain data to figures.

Nothing here reads session state or draws on the page, so each figure can be built
and checked in plain Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ui.play.charts import layout as play_layout

DESIGN_COLORS = ("#4C78A8", "#9e9e9e", "#E45756")
PROBABILITIES = (
    ("p_on_time", "on time"),
    ("p_on_budget", "on budget"),
    ("p_quality_met", "quality met"),
    ("p_success", "all met"),
)
LATE, OWNED, NEUTRAL = "#d62728", "#2ca02c", "#9e9e9e"


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    """The Play page's layout, with the legend a little closer to the plot."""
    fig = play_layout(fig, title, height)
    fig.update_layout(legend={"y": -0.18})
    return fig


def designs_figure(
    outcome: Mapping[str, Mapping[str, Any]], deadline_days: float, budget_usd: float
) -> go.Figure:
    """Each design's chances of meeting the objectives, and its finish-day and cost ranges."""
    fig = make_subplots(
        rows=1,
        cols=3,
        column_widths=[0.46, 0.27, 0.27],
        subplot_titles=("Chance of meeting each objective", "Finish day (P10–P90)",
                        "Cost, $M (P10–P90)"),
        horizontal_spacing=0.08,
    )  # fmt: skip
    names = list(outcome)
    labels = [label for _, label in PROBABILITIES]
    for k, name in enumerate(names):
        s = outcome[name]
        color = DESIGN_COLORS[k % len(DESIGN_COLORS)]
        values = [s[key] for key, _ in PROBABILITIES]
        fig.add_trace(
            go.Bar(x=labels, y=values, name=name, marker_color=color,
                   hovertemplate="%{x}: %{y:.0%}<extra>" + name + "</extra>"),
            row=1, col=1,
        )  # fmt: skip
        for col, key, scale in ((2, "schedule_days", 1.0), (3, "cost_usd", 1e-6)):
            q = s[key]
            fig.add_trace(
                go.Scatter(
                    x=[q["p50"] * scale], y=[name], mode="markers", showlegend=False,
                    marker={"color": color, "size": 11},
                    error_x={"type": "data", "symmetric": False,
                             "array": [(q["p90"] - q["p50"]) * scale],
                             "arrayminus": [(q["p50"] - q["p10"]) * scale]},
                    hovertemplate=f"{name}: P50 %{{x:,.1f}}<extra></extra>",
                ),
                row=1, col=col,
            )  # fmt: skip
    fig.add_vline(x=deadline_days, line={"color": "#555", "dash": "dot"}, row=1, col=2)
    fig.add_vline(x=budget_usd * 1e-6, line={"color": "#555", "dash": "dot"}, row=1, col=3)
    fig.update_yaxes(range=[0, 1.02], tickformat=".0%", row=1, col=1)
    fig.update_xaxes(tickangle=0, row=1, col=1)
    fig.update_yaxes(autorange="reversed", showticklabels=False, row=1, col=2)
    fig.update_yaxes(autorange="reversed", showticklabels=False, row=1, col=3)
    fig.update_layout(barmode="group")
    fig = _layout(fig, "Your design beside the references, on the same worlds", 380)
    fig.update_layout(margin={"t": 72})
    return fig


def risk_prices_frame(prices: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per priced risk: extra days and dollars, late-and-unowned and owned."""
    rows = [
        {
            "risk": p["risk"].replace("_", " "),
            "late_days": p["late"]["schedule_days"],
            "owned_days": p["owned"]["schedule_days"],
            "late_usd": p["late"]["cost_usd"],
            "owned_usd": p["owned"]["cost_usd"],
            "late_clear": p["late"].get("clear", True),
        }
        for p in prices
    ]
    columns = ["risk", "late_days", "owned_days", "late_usd", "owned_usd", "late_clear"]
    return pd.DataFrame(rows, columns=columns).sort_values("late_days")


def risk_prices_figure(prices: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Extra days when each risk strikes: late and unowned against owned with a warning."""
    frame = risk_prices_frame(prices)
    fig = go.Figure()
    late_colors = [LATE if clear else NEUTRAL for clear in frame["late_clear"]]
    for col, name, color in (
        ("late_days", "late and unowned (grey: within the noise)", late_colors),
        ("owned_days", "owned, with an early warning", OWNED),
    ):
        fig.add_trace(
            go.Bar(
                y=frame["risk"],
                x=frame[col],
                name=name,
                orientation="h",
                marker_color=color,
                hovertemplate="%{y}: %{x:+.1f} days<extra>" + name + "</extra>",
            )
        )
    fig.update_layout(barmode="group")
    fig.add_vline(x=0, line={"color": "#555", "width": 1})
    title = "What your challenges cost when they strike: days later (+) or sooner (−)"
    fig = _layout(fig, title, 150 + 44 * len(frame))
    fig.update_layout(legend={"yref": "container", "y": 0, "yanchor": "bottom"}, margin={"b": 48})
    return fig


def progress_figure(progress: pd.DataFrame) -> go.Figure:
    """Rubric score and the design's chance of meeting every objective, attempt by attempt."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=progress["attempt"], y=progress["score"], name="rubric score",
            mode="lines+markers", line={"color": "#4C78A8", "width": 3},
            hovertemplate="attempt %{x}: %{y:.0%}<extra></extra>",
        )
    )  # fmt: skip
    if progress["p_success"].notna().any():
        fig.add_trace(
            go.Scatter(
                x=progress["attempt"], y=progress["p_success"],
                name="your design: all objectives met", mode="lines+markers",
                line={"color": "#F58518", "dash": "dash"},
                hovertemplate="attempt %{x}: %{y:.0%}<extra></extra>",
            )
        )  # fmt: skip
    fig.update_yaxes(range=[0, 1.05], tickformat=".0%")
    fig.update_xaxes(title="attempt", dtick=1, range=[0.5, max(1, len(progress)) + 0.5])
    return _layout(fig, "Progress across your attempts", 300)


def alternatives_figure(alternatives: Sequence[Mapping[str, Any]], chosen: str) -> go.Figure:
    """Each other option for the candidate's call, replayed in the same world.

    Green is better than the call made on that measure (sooner, cheaper, higher quality).
    """
    names = [a["choice"].replace("_", " ") for a in alternatives]
    fig = make_subplots(
        rows=1, cols=3, shared_yaxes=True, horizontal_spacing=0.04,
        subplot_titles=("Δ finish (days)", "Δ cost ($k)", "Δ quality (mean eval score)"),
    )  # fmt: skip
    panels = ((1, "delta_schedule_days", 1.0, -1), (2, "delta_cost_usd", 1e-3, -1),
              (3, "delta_quality", 1.0, 1))  # fmt: skip
    for col, key, scale, good in panels:
        values = [a[key] * scale for a in alternatives]
        fig.add_trace(
            go.Bar(
                y=names, x=values, orientation="h", showlegend=False,
                marker_color=[NEUTRAL if abs(v) < 1e-9 else OWNED if v * good > 0 else LATE
                              for v in values],
                hovertemplate="%{y}: %{x:+,.3g}<extra></extra>",
            ),
            row=1, col=col,
        )  # fmt: skip
    title = (f"Instead of {chosen.replace('_', ' ')}, in the same world (green: better; "
             "later calls by your playbook)")  # fmt: skip
    return _layout(fig, title, 120 + 40 * len(names))


STATUS_COLOURS = ((0.0, "#d62728"), (0.5, "#f2a33a"), (1.0, "#2ca02c"))


def item_progress_figure(items: pd.DataFrame, titles: Mapping[str, str]) -> go.Figure:
    """Each rubric item attempt by attempt: missed (red), partly met (orange), met (green).

    Grey cells were left out of that attempt's score (a situation that did not arise, or a
    simulation not run).
    """
    order = list(dict.fromkeys(titles))
    grid = items.pivot_table(index="item", columns="attempt", values="points", aggfunc="first")
    grid = grid.reindex([i for i in order if i in grid.index])
    labels = [titles[i] for i in grid.index]
    status = items.pivot_table(index="item", columns="attempt", values="status",
                               aggfunc="first").reindex(grid.index)  # fmt: skip
    fig = go.Figure(
        go.Heatmap(
            z=grid.to_numpy(dtype=float), x=[f"attempt {a}" for a in grid.columns], y=labels,
            zmin=0.0, zmax=1.0, colorscale=[list(c) for c in STATUS_COLOURS], showscale=False,
            xgap=2, ygap=2, text=status.fillna("").to_numpy(), hoverongaps=False,
            hovertemplate="%{y}, %{x}: %{text}<extra></extra>",
        )
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_layout(plot_bgcolor="#e8e8e8")
    return _layout(fig, "Item by item across your attempts", 140 + 22 * len(labels))
