"""Plotly figures for the Play page: pure functions from ``sim.play.views`` frames to figures.

Each builder takes plain data (frames, dicts, debrief reviews) and returns a
``go.Figure``; nothing here reads session state or draws on the page, so every
figure can be checked in plain Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from sim.format import usd_signed
from sim.play.debrief import DecisionReview
from sim.scenario.spec import PHASES
from sim.scenario.vocabulary import option_words

CATEGORY_COLORS: dict[str, str] = {
    "compute": "#4C78A8",
    "people": "#F58518",
    "data_licensing": "#54A24B",
    "annotation": "#B279A2",
}
#: One colour per phase, in the order of :data:`~sim.scenario.spec.PHASES`.
PHASE_COLORS: dict[str, str] = dict(
    zip(PHASES, ("#9ecae1", "#6baed6", "#3182bd", "#74c476", "#fdae6b", "#e6550d"), strict=True)
)
GOOD, BAD, NEUTRAL = "#2ca02c", "#d62728", "#9e9e9e"
SPIKE = "#d62728"
#: Trace kinds that mark progress rather than something going wrong.
MILESTONES = frozenset(
    {"phase", "release", "run_start", "run_end", "round", "hire", "retrain", "budget"}
)
ROWS = ("Decisions", "Incidents", "Milestones")


def _words(name: str) -> str:
    return name.replace("_", " ")


def layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0, "xanchor": "left", "font": {"size": 15}},
        height=height,
        margin={"l": 10, "r": 10, "t": 48, "b": 10},
        legend={"orientation": "h", "yanchor": "top", "y": -0.3, "x": 0},
        hovermode="closest",
    )
    return fig


def _usd(value: float) -> str:
    return usd_signed(value)


def _deadline(fig: go.Figure, day: float, color: str, at_top: bool) -> None:
    """A dotted vertical line at the deadline, labelled."""
    fig.add_vline(x=day, line={"color": color, "dash": "dot"})
    fig.add_annotation(
        x=day,
        y=1 if at_top else 0,
        yref="paper",
        yanchor="top" if at_top else "bottom",
        xanchor="left" if at_top else "right",
        text="deadline",
        showarrow=False,
        font={"color": color},
    )


# --- the decision card ------------------------------------------------------------------------


def loss_figure(loss: pd.DataFrame, target_b: float | None = None) -> go.Figure:
    """Pretraining loss against tokens, with every loss spike marked."""
    # The untrained first point (loss ~10) would flatten the part of the curve people read.
    trained = loss[loss["tokens_b"] > 0]
    spikes = loss[loss["spike"].astype(bool)]
    hover = "%{x:,.0f}B tokens<br>loss %{y:.3f}<br>day %{customdata:.1f}<extra></extra>"
    fig = go.Figure()
    for rows, name, style in (
        (trained, "loss", {"mode": "lines", "line": {"color": "#3182bd", "width": 2}}),
        (spikes, "loss spike", {"mode": "markers",
                                "marker": {"color": SPIKE, "size": 11, "symbol": "x"}}),
    ):  # fmt: skip
        fig.add_trace(
            go.Scatter(
                x=rows["tokens_b"],
                y=rows["loss"],
                name=name,
                customdata=rows["day"],
                hovertemplate=f"{name}: {hover}",
                **style,
            )  # fmt: skip
        )
    if len(trained):
        low, high = float(trained["loss"].min()), float(trained["loss"].max())
        fig.update_yaxes(range=[low - 0.05, high + 0.1])
    if target_b:
        fig.update_xaxes(range=[0, target_b * 1.02])
    fig.update_xaxes(title="tokens trained (billions)")
    fig.update_yaxes(title="loss")
    title = f"Training loss: {len(spikes)} spike{'s' if len(spikes) != 1 else ''}"
    return layout(fig, title, 300)


def spend_figure(
    spend: pd.DataFrame,
    budget_usd: float,
    reserve_usd: float,
    deadline_days: float,
    now_day: float | None = None,
) -> go.Figure:
    """Cumulative spend by category (stacked), against the budget and budget minus reserve."""
    fig = go.Figure()
    for category, rows in spend.groupby("category", sort=False):
        fig.add_trace(
            go.Scatter(
                x=rows["day"],
                y=rows["usd"],
                name=_words(str(category)),
                mode="lines",
                stackgroup="spend",
                line={"width": 0.5, "color": CATEGORY_COLORS.get(str(category))},
                hovertemplate="day %{x:.0f}: $%{y:,.0f}<extra>"
                + _words(str(category))
                + "</extra>",
            )
        )
    end = max(deadline_days, float(spend["day"].max()) if len(spend) else 0.0, now_day or 0.0)
    lines = (  # the reserve's label goes under its line, clear of the budget's
        (budget_usd, "budget", "#d62728", "solid", "bottom"),
        (budget_usd - reserve_usd, "budget minus reserve", "#ff7f0e", "dash", "top"),
    )
    for value, name, color, dash, side in lines:
        fig.add_trace(
            go.Scatter(
                x=[0, end],
                y=[value, value],
                mode="lines",
                name=name,
                line={"color": color, "dash": dash, "width": 2},
                showlegend=False,
                hovertemplate=f"{name}: $%{{y:,.0f}}<extra></extra>",
            )
        )
        # Labelled on the line itself: the legend is for the spend categories.
        fig.add_annotation(
            x=0,
            y=value,
            xanchor="left",
            yanchor=side,
            showarrow=False,
            text=f"{name} {_usd(value).lstrip('+')}",
            font={"color": color, "size": 11},
        )
    _deadline(fig, deadline_days, "#555", at_top=False)
    spent = float(spend.groupby("category")["usd"].last().sum()) if len(spend) else 0.0
    fig.update_xaxes(title="day", range=[0, end * 1.02])
    fig.update_yaxes(title="spent (USD)", rangemode="tozero", range=[0, budget_usd * 1.12])
    title = f"Spend: {_usd(spent).lstrip('+')}, {spent / budget_usd:.0%} of the budget"
    return layout(fig, title, 320)


def evals_figure(quality: pd.DataFrame) -> go.Figure:
    """Latest eval scores against targets, public benchmarks and product evals side by side."""
    kinds = (("public_benchmark", "Public benchmarks"), ("product_eval", "Product evals"))
    fig = make_subplots(rows=1, cols=2, subplot_titles=[k[1] for k in kinds], shared_yaxes=True)
    for col, (kind, _) in enumerate(kinds, start=1):
        rows = quality[quality["kind"] == kind]
        colors = [
            NEUTRAL if pd.isna(t) else (GOOD if s >= t else BAD)
            for s, t in zip(rows["score"], rows["threshold"], strict=True)
        ]
        fig.add_trace(
            go.Bar(
                x=rows["eval"],
                y=100 * rows["score"],  # points out of 100, as everywhere on the page
                marker_color=colors,
                name=kind,
                text=[f"{100 * s:.0f}" for s in rows["score"]],
                textposition="inside",
                insidetextanchor="start",  # at the foot: clear of the target line
                customdata=rows["capability"],
                showlegend=False,
                hovertemplate="%{x} (%{customdata}): %{y:.1f} pts<extra></extra>",
            ),
            row=1,
            col=col,
        )
        targets = rows[rows["threshold"].notna()]
        fig.add_trace(
            go.Scatter(
                x=targets["eval"],
                y=100 * targets["threshold"],
                mode="markers",
                name="target",
                marker={
                    "symbol": "line-ew-open",
                    "size": 36,
                    "line": {"width": 3},
                    "color": "#222",
                },
                showlegend=col == 1,
                hovertemplate="target %{y:.0f} pts<extra></extra>",
            ),
            row=1,
            col=col,
        )
        # Eval names wrapped onto two lines, so neighbours' labels do not collide.
        labels = [_words(e).replace(" ", "<br>", 1) for e in rows["eval"]]
        fig.update_xaxes(tickvals=list(rows["eval"]), ticktext=labels, row=1, col=col)
    fig.update_yaxes(range=[0, 105], title="score (points of 100)", row=1, col=1)
    fig.update_xaxes(tickangle=0)
    measured = quality["threshold"].notna()
    met = int((quality["score"][measured] >= quality["threshold"][measured]).sum())
    return layout(fig, f"Latest evals: {met} of {int(measured.sum())} targets met", 300)


# --- the outcome dashboard --------------------------------------------------------------------


def timeline_figure(
    phases: pd.DataFrame,
    trace: pd.DataFrame,
    deadline_days: float,
    finish_day: float | None = None,
) -> go.Figure:
    """Phases as a Gantt chart, with incidents, decisions and milestones marked in time."""
    fig = go.Figure()
    for phase, start, end in zip(phases["phase"], phases["start"], phases["end"], strict=True):
        name = _words(str(phase))
        fig.add_trace(
            go.Bar(
                y=[name],
                x=[end - start],
                base=[start],
                orientation="h",
                marker_color=PHASE_COLORS.get(str(phase), NEUTRAL),
                name=name,
                showlegend=False,
                hovertemplate=f"{name}: day {start:.0f} to {end:.0f} "
                f"({end - start:.0f} days)<extra></extra>",
            )
        )
    lanes = trace.assign(
        lane=[
            "Decisions" if k == "decision" else "Milestones" if k in MILESTONES else "Incidents"
            for k in trace["kind"]
        ]
    )
    marks = {
        "Decisions": ("diamond", "#6a3d9a"),
        "Incidents": ("x", SPIKE),
        "Milestones": ("circle", NEUTRAL),
    }
    for lane in ROWS:
        rows = lanes[lanes["lane"] == lane]
        symbol, color = marks[lane]
        fig.add_trace(
            go.Scatter(
                x=rows["day"],
                y=[lane] * len(rows),
                mode="markers",
                name=lane.lower(),
                marker={"symbol": symbol, "size": 11, "color": color, "line": {"width": 1}},
                customdata=rows[["kind", "summary"]].fillna("").to_numpy(),
                hovertemplate="day %{x:.1f} · %{customdata[0]}<br>%{customdata[1]}<extra></extra>",
            )
        )
    order = [_words(p) for p in phases["phase"]] + list(ROWS)
    fig.update_yaxes(categoryorder="array", categoryarray=order[::-1], autorange=True)
    _deadline(fig, deadline_days, "#d62728", at_top=True)
    title = "Timeline"
    if finish_day is not None:
        fig.add_vline(x=finish_day, line={"color": "#222", "width": 2})
        late = finish_day - deadline_days
        verdict = f"{late:.0f} days late" if late > 0 else f"{-late:.0f} days early"
        title = f"Timeline: finished on day {finish_day:.0f}, {verdict}"
    if len(phases):
        longest = phases.assign(days=phases["end"] - phases["start"]).nlargest(1, "days").iloc[0]
        title += f"; longest phase {_words(longest['phase'])} ({longest['days']:.0f} days)"
    fig.update_xaxes(title="day", rangemode="tozero")
    return layout(fig, title, 90 + 34 * len(order))


def money_figure(
    spent_by_category: Mapping[str, float], budget_by_category: Mapping[str, float]
) -> go.Figure:
    """Where the money went: spend against the budget, by category."""
    names = list(budget_by_category)
    labels = [_words(n) for n in names]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            y=labels,
            x=[budget_by_category[n] for n in names],
            orientation="h",
            name="budgeted",
            marker_color="#d9d9d9",
            hovertemplate="budgeted $%{x:,.0f}<extra></extra>",
        )
    )
    spent = [spent_by_category.get(n, 0.0) for n in names]
    fig.add_trace(
        go.Bar(
            y=labels,
            x=spent,
            orientation="h",
            name="spent",
            width=0.45,
            marker_color=[CATEGORY_COLORS.get(n, NEUTRAL) for n in names],
            text=[_usd(v).lstrip("+") for v in spent],
            textposition="outside",
            hovertemplate="spent $%{x:,.0f}<extra></extra>",
        )
    )
    fig.update_layout(barmode="overlay")
    fig.update_yaxes(autorange="reversed")
    # Room to the right of the longest bar for its label ("$5.47M" was cut to "$5.").
    widest = max([*spent, *budget_by_category.values(), 1.0])
    fig.update_xaxes(title="USD", range=[0, 1.18 * widest])
    top = max(spent_by_category.items(), key=lambda kv: kv[1], default=("nothing", 0.0))
    total = sum(spent_by_category.values()) or 1.0
    return layout(fig, f"Where the money went: {top[1] / total:.0%} on {_words(top[0])}", 300)


# --- the debrief ------------------------------------------------------------------------------


def counterfactual_frame(reviews: Sequence[DecisionReview]) -> pd.DataFrame:
    """One row per (decision, other option): the change had that option been chosen."""
    rows = [
        {
            "index": r.index,
            "decision": f"#{r.index + 1} {_words(r.kind)}, day {r.day:.0f}",
            "label": f"#{r.index + 1} {_words(r.kind)} d{r.day:.0f}: "
            f"{option_words(r.choice)} → {option_words(a.choice)}",
            "choice": r.choice,
            "alternative": a.choice,
            "delta_schedule_days": a.delta_schedule_days,
            "delta_cost_usd": a.delta_cost_usd,
            "delta_quality": a.delta_quality,
            "impact": a.impact,
            "success": a.success,
        }
        for r in reviews
        for a in r.alternatives
    ]
    columns = [
        "index",
        "decision",
        "label",
        "choice",
        "alternative",
        "delta_schedule_days",
        "delta_cost_usd",
        "delta_quality",
        "impact",
        "success",
    ]
    return pd.DataFrame(rows, columns=columns)


def _padded(values: pd.Series) -> list[float]:
    """An axis range around zero with room for the bars' labels."""
    low = min([0.0, *values])
    high = max([0.0, *values])
    span = (high - low) or 1.0
    return [
        low - 0.45 * span if low < 0 else -0.05 * span,
        high + 0.45 * span if high > 0 else 0.05 * span,
    ]


def counterfactual_figure(reviews: Sequence[DecisionReview]) -> go.Figure:
    """Per decision and other option: change in schedule, cost and quality (same world)."""
    frame = counterfactual_frame(reviews)
    panels = (
        ("delta_schedule_days", "Δ schedule (days)", -1, 1.0, lambda v: f"{v:+.1f} d"),
        ("delta_cost_usd", "Δ cost (USD)", -1, 1.0, _usd),
        ("delta_quality", "Δ quality (pts of 100)", 1, 100.0, lambda v: f"{v:+.1f} pts"),
    )
    fig = make_subplots(
        rows=1,
        cols=3,
        shared_yaxes=True,
        horizontal_spacing=0.03,
        subplot_titles=[p[1] for p in panels],
    )
    for col, (column, title, good_sign, scale, fmt) in enumerate(panels, start=1):
        values = scale * frame[column]
        colors = [NEUTRAL if abs(v) < 1e-9 else GOOD if v * good_sign > 0 else BAD for v in values]
        fig.add_trace(
            go.Bar(
                y=frame["label"],
                x=values,
                orientation="h",
                marker_color=colors,
                name=title,
                text=[fmt(v) for v in values],
                textposition="outside",
                cliponaxis=False,
                showlegend=False,
                hovertemplate="%{y}<br>" + title + ": %{text}<extra></extra>",
            ),
            row=1,
            col=col,
        )
        fig.add_vline(x=0, line={"color": "#444", "width": 1}, row=1, col=col)
        fig.update_xaxes(range=_padded(values), row=1, col=col)
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    title = "Had you chosen otherwise (green: better than your choice, red: worse)"
    return layout(fig, title, 110 + 26 * max(1, len(frame)))
