"""Sweep page: a grid over levers, every point on the same worlds; a heat map and a table.

The grid, its designs and its table come from ``sim.compare.sweep``; the runs go through
``ui.compare.common`` (batches, progress, cache, cancel keeps what finished).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from sim.compare.editing import field_words, value_words
from sim.compare.sweep import Axis, grid_designs, parse_axis, sweep_table
from sim.designs import PRESETS
from sim.glossary import methods_note, term_link
from sim.metrics import OBJECTIVES, PROBABILITY_KEYS, QUANTITIES, summary_label
from sim.scenario.levers import BY_NAME, LEVERS
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import sentence
from ui.common import pick_scenario, show_problems, words
from ui.compare import charts
from ui.compare.common import downloads, partial_notice, run_controls, run_if_asked, saved_run

PREFIX, RUN = "sweep", "sweep_result"
NONE = "(no axis)"
AS_IS = "the scenario as it is"
#: What the heat map can show: a table column and its label.
METRICS: dict[str, str] = {
    **{
        PROBABILITY_KEYS[m.key]: summary_label(m)
        for m in sorted(OBJECTIVES, key=lambda m: m.key != "success")  # all of them first
    },
    **{
        f"{m.key}_{stat.lower()}": summary_label(m, stat)
        for m in QUANTITIES
        if m.key != "effort_person_days"
        for stat in ("mean", "P90")
    },
}


def catalog(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Fields worth sweeping: label → (dotted path, suggested values)."""
    gpus = scenario.cluster.gpus
    adapts = scenario.model.base_model is not None  # else strategy has one value
    out = {lv.label: (lv.path, lv.sweep) for lv in LEVERS if adapts or lv.name != "strategy"}
    out |= {
        "Politics (days per decision hop)": ("org.politics_days", "0, 0.5, 1, 2"),
        "GPUs": ("cluster.gpus", f"{max(1, gpus // 2)}, {gpus}, {gpus * 2}"),
    }
    core = set(scenario.co_design_team_ids)
    for t in scenario.org.teams:
        label = f"{'Core team' if t.id in core else 'Team'} size: {t.name or t.id}"
        out[label] = (f"org.teams.{t.id}.headcount", "3, 5, 8" if t.id in core else "2, 4, 8")
    return out


def default_axes(options: list[str]) -> list[str]:
    core = next((o for o in options if o.startswith("Core team size")), NONE)
    return [BY_NAME["reserve_fraction"].label, BY_NAME["ablation_fraction"].label, core]


def pick_axes(scenario: Scenario) -> list[Axis] | None:
    """Up to three axes, each a field and its values; None when a value is wrong."""
    fields = catalog(scenario)
    defaults = default_axes(list(fields))
    axes = []
    for i in range(3):
        left, right = st.columns([2, 3])
        choices = list(fields) if i == 0 else [NONE, *fields]
        field = left.selectbox(
            f"Axis {i + 1}", choices, index=choices.index(defaults[i]), key=f"sweep_axis_{i}"
        )
        if field == NONE:
            continue
        path, suggested = fields[field]
        values = right.text_input(
            f"Values of {field.lower()}, comma-separated", suggested,
            key=f"sweep_values_{i}_{path}",
            help=f"As the scenario file writes them (the field `{path}`): shares as fractions, "
            "money in dollars.",
        )  # fmt: skip
        try:
            axes.append(parse_axis(f"{path}={values}"))
        except ScenarioError as error:
            show_problems(error)
            return None
    return axes


def heat_map(table: Any, axes: list[Axis]) -> None:
    metric = st.selectbox(
        "Show", list(METRICS), format_func=METRICS.__getitem__, key="sweep_metric"
    )
    label = METRICS[metric]
    if len(axes) == 1:
        st.plotly_chart(charts.sweep_line_figure(table, axes[0].path, metric, label),
                        key="sweep_line")  # fmt: skip
        return
    paths = [a.path for a in axes]
    row = st.columns(3)
    x = row[0].selectbox("Across", paths, index=0, key="sweep_x", format_func=field_words)
    y = row[1].selectbox("Down", [p for p in paths if p != x], key="sweep_y",
                         format_func=field_words)  # fmt: skip
    rest = [a for a in axes if a.path not in (x, y)]
    part = table
    if rest:
        path = rest[0].path
        at = row[2].selectbox(
            f"With {field_words(path).lower()} at", rest[0].values, key="sweep_slice",
            format_func=lambda v: value_words(path, v),
        )  # fmt: skip
        part = table[table[path] == at]
    st.plotly_chart(charts.heatmap_figure(part, x, y, metric, label), key="sweep_heatmap")
    st.caption(
        "Yellow is good: more likely to meet an objective, or sooner or cheaper. Under each "
        "value, its 95% interval (… where the worlds cannot reach an end). Every cell is played "
        "on the same worlds, so the differences between cells are the levers', but a cell's "
        "interval is about the cell alone: two cells whose intervals overlap can still differ "
        "clearly, world by world.  \n"
        + methods_note("Wilson score interval", "Student's t interval", "Order-statistic interval")
    )


#: A statistic's column suffix, in words.
STATS = {"mean": "mean", "std": "SD", "min": "min", "max": "max", "p10": "P10", "p50": "P50",
         "p90": "P90", "mean_low": "mean, 95% low", "mean_high": "mean, 95% high",
         "p90_low": "P90, 95% low", "p90_high": "P90, 95% high", "low": "95% low",
         "high": "95% high"}  # fmt: skip


def column_label(column: str, axes: list[Axis]) -> str:
    """A sweep table's column as a person reads it: never ``schedule_days_mean`` or a path."""
    if column in {a.path for a in axes}:
        return sentence(field_words(column))
    if column == "reps":
        return "worlds"
    for m in QUANTITIES:
        if column.startswith(f"{m.key}_") and column.removeprefix(f"{m.key}_") in STATS:
            return f"{m.label}, {STATS[column.removeprefix(m.key + '_')]} ({m.unit})"
    for m in OBJECTIVES:
        key = PROBABILITY_KEYS[m.key]
        if column == key or column.startswith(f"{key}_"):
            tail = column.removeprefix(key).removeprefix("_")
            return summary_label(m) + (f", {STATS[tail]}" if tail else "")
    if column.startswith("p_met:"):
        ev = column.removeprefix("p_met:")
        for end in ("low", "high"):
            if ev.endswith(f"_{end}"):
                return f"Chance {words(ev.removesuffix('_' + end))} met, {STATS[end]}"
        return f"Chance {words(ev)} met"
    if column.startswith("score:") and column.endswith("_mean"):
        return f"{words(column.removeprefix('score:').removesuffix('_mean'))} score, mean (pts)"
    return words(column)


def readable_table(table: Any, axes: list[Axis]) -> tuple[Any, dict[str, Any]]:
    """The table with its columns in words and its scores in points; and their formats."""
    shown = table.copy()
    formats: dict[str, Any] = {}
    for column in table.columns:
        label = column_label(column, axes)
        if column.startswith(("p_", "p_met:")):
            formats[label] = st.column_config.NumberColumn(format="percent")
        elif column.startswith("cost_usd"):
            formats[label] = st.column_config.NumberColumn(format="dollar")
        elif column.startswith(("schedule_days", "effort_person_days")):
            formats[label] = st.column_config.NumberColumn(format="%.1f")
        elif column.startswith("score:"):
            shown[column] = 100 * shown[column].astype(float)
            formats[label] = st.column_config.NumberColumn(format="%.1f")
    shown.columns = [column_label(c, axes) for c in table.columns]
    for a in axes:  # an axis's settings as they read: 10%, $250,000, yes
        label = sentence(field_words(a.path))
        shown[label] = [value_words(a.path, v) for v in table[a.path]]
    return shown, formats


def render() -> None:
    st.title("Sweep levers")
    st.markdown(
        "Try every combination of a few levers — say the budget reserve, the ablation budget and "
        f"the size of the core team — on the **{term_link('world', 'same worlds')}**, and see "
        "where the project meets its objectives. Each axis is a field of the scenario and the "
        "values it takes. Where a plan did less (trained fewer tokens, fewer post-training "
        f"rounds), its {term_link('scope')} shows in the table."
    )
    picked = pick_scenario("sweep_base", prefer="assistant_7b.yaml")
    if picked is None:
        return
    base, _ = picked
    designs_by_title = {AS_IS: None} | {p.title: p for p in PRESETS}
    chosen = st.selectbox("Org design applied first", list(designs_by_title), key="sweep_design")
    preset = designs_by_title[chosen]
    scenario = preset.apply(base) if preset else base
    axes = pick_axes(scenario)
    if not axes:
        return
    try:
        designs, points = grid_designs(scenario, axes)
    except ScenarioError as error:
        show_problems(error)
        return
    points_words = f"{len(points)} grid point{'s' if len(points) != 1 else ''}"
    label = f"Run the sweep ({points_words})"
    reps, seed = run_controls(PREFIX, label, True, 50)
    st.caption(f"{points_words} × {reps} worlds = {len(points) * reps:,} replications.")
    run_if_asked(PREFIX, RUN, designs, reps, seed, points_words)
    state = saved_run(RUN, designs, seed)
    if state is None or state.done == 0:
        st.info("Press **Run the sweep** to play every grid point in the same worlds.")
        return
    partial_notice(state)
    table = sweep_table(state.frames(), points, scenario)
    heat_map(table, axes)
    shown, formats = readable_table(table, axes)
    st.dataframe(shown, hide_index=True, width="stretch", column_config=formats)
    summary = {
        "scenario": scenario.name,
        "seed": seed,
        "reps": state.done,
        "axes": [{"path": a.path, "values": list(a.values)} for a in axes],
        "points": table.to_dict("records"),
    }
    downloads("sweep", table, summary, "sweep_download")


if __name__ == "__main__":
    render()
