"""Compare page: two or more org designs through the same incidents, many times over.

Designs are a base scenario as it is, the essay's presets applied to it
(``sim.designs``), other shipped scenarios, or a design the user edits here. Every
number comes from ``sim``: runs from ``sim.compare.sweep.run_batch`` (via ``ui.compare.common``),
statistics and verdicts from ``sim.compare.analysis``, summaries from ``sim.summary``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from sim import distribution
from sim.compare import analysis, inference, sequential
from sim.compare.editing import field_words, value_words
from sim.designs import PRESETS, DesignFile, design_yaml, diff, fund_full_plan, load_design
from sim.engine.org import OrgGraph
from sim.format import points, points_signed, pp_signed, usd_signed
from sim.glossary import methods_note, term_help, term_link
from sim.intervals import TooFewWorlds
from sim.metrics import BY_KEY, HEADLINE, OBJECTIVES, PROBABILITY_KEYS
from sim.scenario.loading import ScenarioError, with_overrides
from sim.scenario.spec import LINK_KINDS, Scenario
from sim.summary import interval_summary
from ui.common import (
    SCENARIO_DIR,
    lever_inputs,
    load,
    pick_scenario,
    playbook_inputs,
    records,
    shipped_scenarios,
    show_problems,
    team_inputs,
    usd,
    words,
)
from ui.compare import charts
from ui.compare.common import (
    RunState,
    cached_batch,
    downloads,
    partial_notice,
    run_controls,
    run_designs_live,
    run_if_asked,
    running,
    saved_run,
    store_run,
)

PREFIX, RUN, TORNADO = "compare", "compare_result", "compare_tornado"
SEQUENTIAL = "compare_sequential"
#: Metrics the user may name as primary, and whose margins the page lets them set.
PRIMARY_METRICS = (
    "success",
    *(m.key for m in HEADLINE if m.key not in ("success", "effort_person_days")),
)
BASE_LABEL, OWN_LABEL = "Base scenario as it is", "Your design"
DEFAULT_PICK = ("small_core", "large_siloed")
TORNADO_METRICS = tuple(m.key for m in HEADLINE if m.key != "effort_person_days")
# --- the designs ---------------------------------------------------------------------------


def shipped_designs(base_source: str) -> dict[str, Scenario]:
    """Other shipped scenarios, as they are, named by file."""
    out = {}
    for name in shipped_scenarios():
        if f"scenarios/{name}" == base_source:
            continue
        try:
            out[f"File: {name.removesuffix('.yaml')}"] = load(
                (SCENARIO_DIR / name).read_text(encoding="utf-8"), f"scenarios/{name}"
            )
        except ScenarioError:
            continue
    return out


def links_editor(scenario: Scenario, prefix: str) -> dict[str, Any]:
    """Links and politics as overrides: a table of links to edit, add to or delete from."""
    teams = scenario.team_ids
    rows = pd.DataFrame(
        [
            {"from": x.source, "to": x.target, "kind": x.kind, "latency_days": x.latency_days}
            for x in scenario.org.links
        ]
    )
    edited = st.data_editor(
        rows, num_rows="dynamic", key=f"{prefix}links", width="stretch", hide_index=True,
        column_config={
            "from": st.column_config.SelectboxColumn("from", options=teams, required=True),
            "to": st.column_config.SelectboxColumn("to", options=teams, required=True),
            "kind": st.column_config.SelectboxColumn("kind", options=LINK_KINDS, required=True),
            "latency_days": st.column_config.NumberColumn(
                "latency (days)", min_value=0.0, max_value=60.0, step=0.25, required=True
            ),
        },
    )  # fmt: skip
    changes: dict[str, Any] = {}
    links = records(edited.dropna())
    if links != records(rows):
        changes["org.links"] = links
    politics = st.number_input(
        "Politics: extra days per hop a decision travels (`org.politics_days`)",
        0.0, 30.0, float(scenario.org.politics_days), 0.25, key=f"{prefix}politics",
    )  # fmt: skip
    if politics != scenario.org.politics_days:
        changes["org.politics_days"] = politics
    return changes


def own_design(base: Scenario, source: str, presets: dict[str, Scenario]) -> Scenario | None:
    """The design the user builds from the base or a preset; shows its graph and delta."""
    starts = {BASE_LABEL: base} | presets
    start_label = st.selectbox("Start from", list(starts), key="compare_own_start")
    start = starts[start_label]
    prefix = f"compare_own_{list(starts).index(start_label)}_"
    teams_tab, links_tab, levers_tab, playbook_tab = st.tabs(
        ["Teams, decision rights, risk owners", "Links and politics", "Levers", "Playbook"],
        key="cmp_editor_tabs",
    )
    with teams_tab:
        changes = team_inputs(start, prefix)
    with links_tab:
        changes |= links_editor(start, prefix)
    with levers_tab:
        values = lever_inputs(start, prefix)
        changes |= {f"levers.{k}": v for k, v in values.items() if v != getattr(start.levers, k)}
    with playbook_tab:
        playbook = playbook_inputs(start, prefix)
        if playbook != dict(start.levers.playbook):
            changes["levers.playbook"] = playbook
    try:
        edited = with_overrides(start, changes) if changes else start
    except ScenarioError as error:
        show_problems(error)
        return None
    st.graphviz_chart(OrgGraph(edited).to_dot(), width="stretch")
    st.caption(
        "Your design's organisation, redrawn as you edit. Orange: core co-design teams. "
        "Solid blue: handoffs; green dashes: communication; grey dots: reporting; labels are "
        "latencies in days. To compare it, add **Your design** to the designs below."
    )
    changes_from_base = {k: v for k, v in diff(base, edited).items() if k != "name"}
    text = design_yaml(DesignFile(OWN_LABEL, source.removeprefix("scenarios/"), changes_from_base))
    st.markdown(f"**Changes from the base** ({len(changes_from_base)})")
    st.code(text if changes_from_base else "# no changes yet", language="yaml", height=220)
    st.download_button(
        "Download this design (YAML)", text, "design.yaml", "application/x-yaml",
        key="compare_own_download", icon=":material/download:", disabled=not changes_from_base,
        on_click="ignore",
    )  # fmt: skip
    return edited.model_copy(update={"name": OWN_LABEL})


def uploaded_design(base: Scenario) -> tuple[str, Scenario] | None:
    upload = st.file_uploader(
        "Load a design file (YAML) saved from here or written by hand; it applies to the base",
        type=["yaml", "yml"], key="compare_design_upload",
    )  # fmt: skip
    if upload is None:
        return None
    try:
        design = load_design(upload.getvalue().decode("utf-8", errors="replace"), upload.name)
        return f"File: {design.name}", design.apply(base, upload.name)
    except ScenarioError as error:
        show_problems(error)
        return None


def design_options(base: Scenario, source: str) -> dict[str, Scenario]:
    """Every design the user can pick, by the name the charts use."""
    presets = {p.title: p.apply(base) for p in PRESETS}
    options = {BASE_LABEL: base} | presets
    with st.expander("Build your own design: teams, links, risk owners, decision rights"):
        own = own_design(base, source, presets)
        uploaded = uploaded_design(base)
    if own is not None:
        options[OWN_LABEL] = own
    if uploaded is not None:
        options[uploaded[0]] = uploaded[1]
    return options | shipped_designs(source)


def show_presets() -> None:
    with st.expander("What the preset designs are, and why (from the essay on training orgs)"):
        for p in PRESETS:
            st.markdown(f"**{p.title}** (`{p.key}`). {p.rationale}")


# --- the run -------------------------------------------------------------------------------


# --- the results ---------------------------------------------------------------------------


def _range(v: dict[str, Any], fmt: Any) -> str:
    low = "…" if v["low"] is None else fmt(v["low"])
    high = "…" if v["high"] is None else fmt(v["high"])
    return f"{fmt(v['value'])} ({low}–{high})"


def key_numbers(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One column per design, one row per number (designs read side by side), each with
    its 95% interval: order-statistic ones on P10/P50/P90, Wilson ones on chances."""
    columns = {}
    days, pcts = "{:.0f}".format, ("p10", "p50", "p90")
    sched, cost = BY_KEY["schedule_days"], BY_KEY["cost_usd"]
    tokens, rounds = BY_KEY["tokens_b"], BY_KEY["post_training_rounds"]
    for name, df in frames.items():
        iv = interval_summary(df)
        s, c, j = iv["schedule_days"], iv["cost_usd"], iv["within_80"]
        columns[name] = {
            **{f"{sched.label} {p.upper()} ({sched.unit})": _range(s[p], days) for p in pcts},
            **{f"{cost.label} {p.upper()}": _range(c[p], usd) for p in pcts},
            **{m.label: _range(iv[PROBABILITY_KEYS[m.key]], "{:.0%}".format) for m in OBJECTIVES},
            "80% of worlds finish within": f"{j['days']:.0f} days and {usd(j['usd'])} "
            f"(really {j['share_low']:.0%}–{j['share_high']:.0%} of worlds)",
            # Scope is part of the answer: a design that cannot afford the plan trains less.
            f"{tokens.label} (mean)": f"{df['tokens_b'].mean():,.0f}B",
            f"{rounds.label} (mean)": f"{df['post_training_rounds'].mean():.1f}",
        }
    return pd.DataFrame(columns)


def letter(i: int) -> str:
    return chr(ord("A") + i)


def show_verdicts(
    frames: dict[str, pd.DataFrame], designs: dict[str, Scenario], comparison: inference.Comparison
) -> None:
    names = list(frames)
    a = names[0]
    st.subheader("Verdict", help=term_help("common-random-numbers"))
    worlds = len(frames[a])
    st.caption(
        f"From {worlds:,} worlds per design. "
        "Each design against the first one picked, world by world: the same incidents strike "
        "both in each world, so the differences are the designs'. **Clear**: a difference "
        "these worlds show beyond chance; **alike**: within the smallest difference that "
        "matters; **not yet known**: neither, with the worlds that would settle it."
    )
    letters = {n: letter(i) for i, n in enumerate(names)}
    lines = analysis.comparison_lines(comparison, frames, designs[a], letters)
    for b in names[1:]:
        with st.container(border=True):
            st.markdown(f"**{letters[b]}: {b}** against **A: {a}**")
            st.markdown("\n".join(f"- {line}" for line in lines[b]))
    primary = comparison.primary
    metric = BY_KEY[primary]
    margin = "±" + analysis.amount(comparison.best["margin"], metric.unit)
    named = {n: f"{letters[n]}: {n}" for n in names}
    best = analysis.best_line(comparison.best, metric.label, margin, named)
    st.markdown(f"**{best}**")
    st.caption(comparison.adjustment_note() + "  \n" + methods_note(*analysis.METHOD_NAMES))
    note = st.session_state.get(SEQUENTIAL)
    if isinstance(note, dict) and note.get("worlds") == worlds:
        st.info(note["text"], icon=":material/straighten:")


def amount_in(value: float, unit: str) -> str:
    """A metric's value in its unit: $6.43M, 57%, 71.3 pts, 155.2 days."""
    if unit == "USD":
        return usd(value)
    if unit == "probability":
        return f"{value:.0%}"
    if unit == "score":
        return points(value)
    return f"{value:,.1f} {unit}".rstrip()


def signed(value: float, unit: str) -> str:
    """A difference with its sign (ASCII) and unit: -5.5 days, +$980k, -56.0 pp, +0.7 pts.

    Chances differ in percentage points, quality scores in points out of 100 (sim.format).
    """
    if unit == "USD":
        return usd_signed(value)
    if unit == "probability":
        return pp_signed(value)
    if unit == "score":
        return points_signed(value)
    return f"{value:+,.1f} {unit}"


def show_distributions(frames: dict[str, pd.DataFrame], designs: dict[str, Scenario]) -> None:
    objs = {n: designs[n].objective for n in frames}
    left, right = st.columns(2, gap="large")
    left.plotly_chart(
        charts.ecdf_figure(frames, "schedule_days", "Schedule", "days",
                           {n: o.deadline_days for n, o in objs.items()}, "deadline"),
        key="compare_ecdf_schedule",
    )  # fmt: skip
    cost = {n: df.assign(cost_musd=df["cost_usd"] / 1e6) for n, df in frames.items()}
    right.plotly_chart(
        charts.ecdf_figure(cost, "cost_musd", "Cost", "million USD",
                           {n: o.budget.total_usd / 1e6 for n, o in objs.items()}, "budget"),
        key="compare_ecdf_cost",
    )  # fmt: skip
    targets = {t.eval: t for t in next(iter(objs.values())).targets}
    picked = st.selectbox("Quality: which target eval", list(targets), key="compare_quality_eval",
                          format_func=words, help=term_help("points"))  # fmt: skip
    column = f"score:{picked}"
    if all(column in df for df in frames.values()):
        # Quality in points out of 100, as everywhere else on the page.
        thresholds = {
            n: 100 * next((t.threshold for t in o.targets if t.eval == picked),
                          targets[picked].threshold)
            for n, o in objs.items()
        }  # fmt: skip
        scores = {n: df.assign(points=100 * df[column].astype(float)) for n, df in frames.items()}
        title = f"Quality: {words(picked)} ({words(targets[picked].capability)})"
        st.plotly_chart(
            charts.ecdf_figure(scores, "points", title, "points out of 100", thresholds, "target"),
            key="compare_ecdf_quality",
        )  # fmt: skip
    st.caption(
        "Read an S-curve at a line: the height where a curve crosses the deadline (or budget, "
        "or target) is the share of worlds that make it. Further left is sooner or cheaper; "
        "for quality further right is better. Diamonds mark P10, P50 and P90, their whiskers the "
        "95% interval of each. The shaded band holds the whole true curve with 95% confidence: "
        "where the band crosses a line is the range the share that makes it could really have.  "
        "\n" + methods_note("Order-statistic interval", "Dvoretzky-Kiefer-Wolfowitz band")
    )


def show_objectives(frames: dict[str, pd.DataFrame], designs: dict[str, Scenario]) -> None:
    probs = {n: analysis.objective_probabilities(df, designs[n]) for n, df in frames.items()}
    st.plotly_chart(charts.objectives_figure(probs), key="compare_objectives")
    objs = {n: designs[n].objective for n in frames}
    st.plotly_chart(
        charts.joint_figure(
            frames,
            {n: o.deadline_days for n, o in objs.items()},
            {n: o.budget.total_usd for n, o in objs.items()},
        ),
        key="compare_joint",
    )
    lines = []
    for name, df in frames.items():
        j = distribution.joint_confidence(df, 0.8)
        sure = (
            f" With 95% confidence at least 80% of worlds stay within {j['days_sure']:.0f} days "
            f"and {usd(j['usd_sure'])}."
            if "days_sure" in j
            else ""
        )
        lines.append(
            f"- **{name}**: in 80% of these worlds it finishes within **{j['days']:.0f} days** "
            f"and spends at most **{usd(j['usd'])}**, both at once; that rectangle holds "
            f"{j['share_low']:.0%}–{j['share_high']:.0%} of all worlds (95% interval).{sure}"
        )
    st.markdown("**Time and cost together**\n" + "\n".join(lines))


def show_paired(frames: dict[str, pd.DataFrame], comparison: inference.Comparison) -> None:
    names = list(frames)
    level = analysis.level_words({"level": 1 - comparison.alpha})
    for i, b in enumerate(names[1:], start=1):
        table = comparison.tables[b]
        st.markdown(f"**{letter(i)}: {b}** minus **A: {names[0]}**, world by world")
        st.plotly_chart(charts.paired_figure(table, "A", letter(i)), key=f"compare_paired_{b}")
        units = table["unit"].astype(str)
        shown = pd.DataFrame({
            "metric": table["label"],
            f"{letter(i)} − A": [signed(v, u) for v, u in zip(table["mean"], units, strict=True)],
            f"{level} interval": [f"{signed(lo, u)} to {signed(hi, u)}" for lo, hi, u in
                                  zip(table["low"], table["high"], units, strict=True)],
            "verdict": table["verdict"],
            "matters at": [analysis.margin_words(r) for r in records(table)],
            "adjusted p": table["p_adjusted"].map(analysis.p_words),
            f"{letter(i)} better in": table["p_b_better"].map("{:.0%} of worlds".format),
            "alike in": table["p_same"].map("{:.0%} of worlds".format),
        })  # fmt: skip
        st.dataframe(shown, hide_index=True, width="stretch")
    st.caption(
        "Green: the design did clearly better than A on the same worlds; red: clearly worse; "
        "grey: not clear. Chances differ in percentage points (pp), quality scores in points "
        "out of 100 (pts). " + comparison.adjustment_note() + "  \n"
        + methods_note("Student's t interval", "Tango's score test",
                       "Paired differences and Holm's correction")
    )  # fmt: skip


def show_criticality(frames: dict[str, pd.DataFrame]) -> None:
    crit = analysis.criticality_table(frames)
    st.caption(
        "The criticality index: how often a team, or a handoff between two teams, lay on the "
        "chain of work that set the finish date. A team near 100% is the bottleneck; speeding "
        "up a team near 0% does not move the date."
    )
    left, right = st.columns(2, gap="large")
    left.plotly_chart(charts.criticality_figure(crit, "team"), key="compare_crit_teams")
    if (crit["kind"] == "handoff").any():
        right.plotly_chart(charts.criticality_figure(crit, "handoff"), key="compare_crit_handoffs")
    else:
        right.info("No handoff lay on the critical chain in these worlds.")


def show_sensitivity(designs: dict[str, Scenario], seed: int) -> None:
    st.caption(
        "A tornado: each lever is set to its low, then its high end, one at a time, with "
        "everything else as in the design, on the same worlds. The longest bars are the levers "
        "that matter most here; a lever with no effect has no bar and sits at the bottom."
    )
    row = st.columns([2, 2, 1, 1], vertical_alignment="bottom")
    name = row[0].selectbox("Design", list(designs), key="compare_tornado_design")
    metric = row[1].selectbox(
        "Metric", TORNADO_METRICS, key="compare_tornado_metric", format_func=analysis.metric_label
    )
    reps = int(
        row[2].number_input(
            "Worlds per setting",
            10,
            2000,
            40,
            10,
            key="compare_tornado_reps",
            help=term_help("world"),
        )  # fmt: skip
    )
    tornado_designs, skipped = analysis.tornado_designs(designs[name])
    if row[3].button("Run sensitivity", key="compare_tornado_run", icon=":material/tune:"):
        run_designs_live(TORNADO, tornado_designs, reps, seed, f"{len(tornado_designs)} settings")
    state = saved_run(TORNADO, tornado_designs, seed)
    if state is None or state.done == 0:
        st.info(f"Press **Run sensitivity**: {len(tornado_designs)} settings × {reps} worlds.")
        return
    partial_notice(state)
    try:
        table = analysis.tornado_table(
            state.frames(), metric, seed=seed, as_is=analysis.settings_as_is(designs[name])
        )
    except TooFewWorlds as error:
        st.warning(str(error))
        return
    st.plotly_chart(charts.tornado_figure(table, analysis.metric_label(metric)),
                    key="compare_tornado_chart")  # fmt: skip
    ranges = {r.path: r.why for r in analysis.LEVER_RANGES}
    unit = BY_KEY[metric].unit if metric in BY_KEY else ""
    levers = table["lever"].astype(str)
    shown = pd.DataFrame({
        "rank": table["rank"],
        "lever": levers.map(field_words),
        "low → high": [f"{value_words(lv, lo)} → {value_words(lv, hi)}"
                       for lv, lo, hi in zip(levers, table["low"], table["high"], strict=True)],
        "at low": [amount_in(v, unit) for v in table["metric_low"]],
        "at high": [amount_in(v, unit) for v in table["metric_high"]],
        "swing (high - low)": [signed(v, unit) for v in table["swing"]],
        "95% interval": [f"{signed(lo, unit)} to {signed(hi, unit)}" for lo, hi in
                         zip(table["swing_low"], table["swing_high"], strict=True)],
        "clear": table["clear"].map({True: "yes", False: "no"}),
        "chance in top 3": table["p_top3"].map("{:.0%}".format),
        "range": table["lever"].map(ranges),
    })  # fmt: skip
    st.dataframe(shown, hide_index=True, width="stretch", height=36 * (len(shown) + 1) + 2)
    st.caption(
        "Whiskers: the 95% interval of each setting's difference from the design as it is, "
        "on the same worlds. A swing is **clear** when its test, adjusted for the levers tried "
        "together, says so; **chance in top 3** is the chance that the lever is truly among "
        "the three that move the metric most. Few worlds per setting give wide whiskers and a "
        "ranking that can change with the seed.  \n"
        + methods_note("Paired differences and Holm's correction", "Bayesian bootstrap")
    )
    for line in skipped:
        st.caption(f"Skipped {line}")


def summary_json(
    state: RunState, designs: dict[str, Scenario], seed: int, comparison: inference.Comparison
) -> dict[str, Any]:
    """The comparison's JSON download: the object ``compare --json`` prints."""
    return analysis.comparison_json(designs, state.frames(), comparison, seed)


def question_controls(base: Scenario, disabled: bool) -> tuple[str, dict[str, float], float | None]:
    """The primary metric, the smallest differences that matter, and sequential precision."""
    row = st.columns([2, 1, 1], vertical_alignment="bottom")
    primary = row[0].selectbox(
        "Primary metric (what the comparison is about)", PRIMARY_METRICS,
        format_func=analysis.metric_label, key="compare_primary", disabled=disabled,
    )  # fmt: skip
    unit = BY_KEY[primary].unit
    precise = row[1].toggle(
        "Run until known", key="compare_precise", disabled=disabled,
        help="Add worlds in batches (doubling) until every design's difference from A on the "
        "primary metric is known to ± the value here, or shown alike. Each look's intervals "
        "are widened so that all looks together keep a 5% error rate.",
    )  # fmt: skip
    step = {"probability": 0.5, "USD": 10_000.0}.get(unit, 0.5)
    default = {"probability": 2.0, "USD": 100_000.0}.get(unit, 2.0)
    what = "percentage points" if unit == "probability" else unit
    value = row[2].number_input(
        f"to ± ({what})", min_value=step, value=default, step=step, key=f"compare_precision_{unit}",
        disabled=disabled or not precise,
    )  # fmt: skip
    precision = (value / 100 if unit == "probability" else value) if precise else None
    margins: dict[str, float] = {}
    with st.expander("Smallest differences that matter (for 'alike' and 'not yet known')"):
        cols = st.columns(4)
        defaults = inference.margins_for(base)
        cols[0].number_input("Schedule (days)", 0.1, 365.0, defaults["schedule_days"], 0.5,
                             key="compare_margin_days")  # fmt: skip
        cols[1].number_input("Cost (USD)", 1_000.0, 1e9, defaults["cost_usd"], 10_000.0,
                             key="compare_margin_usd")  # fmt: skip
        cols[2].number_input("Chances (percentage points)", 0.1, 50.0, 100 * defaults["success"],
                             0.5, key="compare_margin_points")  # fmt: skip
        cols[3].number_input("Eval scores", 0.001, 0.5, 0.01, 0.005, format="%.3f",
                             key="compare_margin_score")  # fmt: skip
    margins["schedule_days"] = float(st.session_state.get("compare_margin_days", 1.0))
    margins["cost_usd"] = float(st.session_state.get("compare_margin_usd", defaults["cost_usd"]))
    points = float(st.session_state.get("compare_margin_points", 1.0)) / 100
    margins |= {m.key: points for m in OBJECTIVES}
    score = float(st.session_state.get("compare_margin_score", 0.01))
    margins |= {k: score for k in defaults if k.startswith("score:")}
    return primary, margins, precision


def run_precise(
    designs: dict[str, Scenario],
    reps: int,
    seed: int,
    primary: str,
    margins: dict[str, float],
    precision: float,
) -> None:
    """Looks of doubling size until the primary difference is known (sim.compare.sequential)."""
    a = next(iter(designs))
    with st.status("Running until the primary difference is known…", expanded=True) as status:
        result = sequential.run_sequential(
            cached_batch(designs, seed), designs[a], reps, precision, primary=primary,
            margins=margins, max_worlds=max(reps, 3_200), seed=seed,
            on_look=lambda n, why: st.write(f"{n:,} worlds: {why}"),
        )  # fmt: skip
        status.update(label=result.note(), state="complete", expanded=False)
    store_run(RUN, designs, seed, result.frames)
    st.session_state[SEQUENTIAL] = {
        "worlds": result.comparison.worlds, "alpha": result.alpha_per_look, "text": result.note(),
    }  # fmt: skip


def show_results(
    state: RunState,
    designs: dict[str, Scenario],
    base: Scenario,
    seed: int,
    primary: str,
    margins: dict[str, float],
) -> None:
    frames = state.frames()
    partial_notice(state)
    note = st.session_state.get(SEQUENTIAL)
    alpha = note["alpha"] if isinstance(note, dict) and note.get("worlds") == state.done else 0.05
    a = next(iter(frames))
    try:
        comparison = inference.compare_designs(
            frames, designs[a], primary=primary, margins=margins, alpha=alpha, seed=seed
        )
    except TooFewWorlds as error:
        st.warning(f"{error}.", icon=":material/block:")
        return
    show_verdicts(frames, designs, comparison)
    st.subheader("Key numbers")
    st.caption("Each with its 95% interval; the 80% statement gives the share of all worlds "
               "its days and dollars really hold.  \n"
               + methods_note("Order-statistic interval", "Wilson score interval"))  # fmt: skip
    st.dataframe(key_numbers(frames), width="stretch")
    tabs = st.tabs(["Distributions", "Objectives", "Paired differences", "Critical path",
                    "Sensitivity", "Downloads"], key="cmp_result_tabs")  # fmt: skip
    with tabs[0]:
        show_distributions(frames, designs)
    with tabs[1]:
        show_objectives(frames, designs)
    with tabs[2]:
        show_paired(frames, comparison)
    with tabs[3]:
        show_criticality(frames)
    with tabs[4]:
        show_sensitivity(designs, seed)
    with tabs[5]:
        table = pd.concat([df.assign(design=n) for n, df in frames.items()], ignore_index=True)
        st.caption("Every replication of every design, one row each, and the summary.")
        downloads("comparison", table, summary_json(state, designs, seed, comparison),
                  "compare_download")  # fmt: skip


def render() -> None:
    st.title("Compare team designs")
    st.markdown(
        "Put two or more ways of organising the same project through the "
        f"**{term_link('common-random-numbers', 'same incidents')}** many times (each time a "
        f"{term_link('world')}), and see which meets the objectives, by how much, and how sure "
        "we can be. "
        "Pick a base scenario, then the designs: the base as it is, the preset org designs "
        "applied to it, other scenarios, or one you build. The first design picked is the "
        "baseline the others are measured against."
    )
    picked = pick_scenario("compare_base", prefer="assistant_7b.yaml")
    if picked is None:
        return
    base, source = picked
    show_presets()
    options = design_options(base, source)
    by_key = {p.key: p.title for p in PRESETS}
    names = st.multiselect(
        "Designs to compare (the first is the baseline)", list(options),
        default=[by_key[k] for k in DEFAULT_PICK], key="compare_designs",
        disabled=running(PREFIX),
    )  # fmt: skip
    fund = st.toggle(
        "Fund every design's full plan (compare at equal scope)", key="compare_fund_plans",
        disabled=running(PREFIX),
        help="The budget is one envelope: a design with a bigger payroll has its run cut to "
        "pay for it, so it trains less, finishes sooner and scores lower. Switch this on to "
        "raise each design's people budget until its planned run fits, and compare the "
        "organisations on the same run; what each costs then shows in the cost.",
    )  # fmt: skip
    designs = {n: fund_full_plan(options[n]) if fund else options[n] for n in names}
    if len(designs) < 2:
        st.info("Pick at least two designs to compare.")
    label = f"Run the comparison ({len(designs)} designs)"
    reps, seed = run_controls(PREFIX, label, len(designs) >= 2, 200)
    primary, margins, precision = question_controls(base, running(PREFIX))
    if len(designs) >= 2 and precision is not None and running(PREFIX):
        run_precise(designs, reps, seed, primary, margins, precision)
        st.session_state[f"{PREFIX}_running"] = False
        st.rerun()
    if len(designs) >= 2:
        run_if_asked(PREFIX, RUN, designs, reps, seed, f"{len(designs)} designs")
    state = saved_run(RUN, designs, seed) if len(designs) >= 2 else None
    if state is None or state.done == 0:
        if len(designs) >= 2:
            st.info("Press **Run the comparison** to play these designs in the same worlds.")
        return
    show_results(state, designs, base, seed, primary, margins)


if __name__ == "__main__":
    render()
