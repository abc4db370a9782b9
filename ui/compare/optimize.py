"""Optimize page: search the design space for the designs that best meet the objective.

The search is ``sim.compare.search`` (Optuna TPE, successive halving on common random
numbers); the result is ``sim.compare.search_report``; the best designs beside the
baseline use the compare page's own verdict, key numbers and S-curves.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from sim.compare.search import (
    OBJECTIVE_COLUMNS,
    Search,
    Settings,
    TrialRecord,
    best_so_far,
    run_search,
    trial_rows,
)
from sim.compare.search_report import Confirmed, confirmed, report
from sim.compare.space import Constraints
from sim.designs import DesignFile, design_yaml
from sim.format import pp_signed
from sim.glossary import term_help, term_link
from sim.metrics import label
from sim.scenario.spec import DECISION_KINDS, Scenario
from ui.common import pick_scenario, usd
from ui.compare.common import app_workers
from ui.compare.page import key_numbers, show_distributions, show_verdicts

KEY = "optimize"


def _joined(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def live_chart(rows: list[dict[str, Any]], objective: str) -> go.Figure:
    """Each trial's objective (dots: on the worlds it reached) and the best so far (line)."""
    fig = go.Figure()
    done = [r for r in rows if r["value"] is not None]
    for state, color in (("complete", "#1f77b4"), ("pruned", "#bbbbbb")):
        pts = [r for r in done if r["state"] == state]
        fig.add_scatter(
            x=[r["trial"] for r in pts],
            y=[r["value"] for r in pts],
            mode="markers",
            name=f"{state} ({'all worlds' if state == 'complete' else 'stopped early'})",
            marker={"color": color, "size": 8},
        )
    fig.add_scatter(
        x=[r["trial"] for r in rows],
        y=best_so_far(rows),
        mode="lines",
        name="best so far",
        line={"color": "#d62728", "shape": "hv"},
    )
    fig.update_layout(
        height=320,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        title="Search: best design so far",
        xaxis_title="trial",
        yaxis_title=label(objective),
        yaxis_tickformat=".0%",
    )
    return fig


def frontier_chart(result: dict[str, Any]) -> go.Figure:
    obj = result["objective"]
    rows = [r for r in result["search"]["trials"] if r["state"] == "complete"]
    fig = go.Figure()
    fig.add_scatter(
        x=[r["cost_usd"] / 1e6 for r in rows],
        y=[r["value"] for r in rows],
        mode="markers",
        name="candidates (all worlds)",
        marker={"color": "#bbbbbb"},
        text=[f"trial {r['trial']}" for r in rows],
    )
    front = result["frontier"]
    fig.add_scatter(
        x=[p["cost_usd_mean"] / 1e6 for p in front],
        y=[p[obj] for p in front],
        mode="lines+markers",
        name="frontier",
        line={"color": "#d62728", "shape": "hv"},
        text=[f"trial {p['trial']}" for p in front],
    )
    fig.update_layout(
        height=340,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        title=f"Trade-off: {label(obj).lower()} against mean cost",
        xaxis_title="mean cost (million USD)",
        yaxis_title=label(obj),
        yaxis_tickformat=".0%",
    )
    return fig


def controls(base: Scenario) -> tuple[Settings, bool]:
    row = st.columns(5, vertical_alignment="bottom")
    objective = row[0].selectbox("Objective", list(OBJECTIVE_COLUMNS), key=f"{KEY}_objective",
                                 format_func=label)  # fmt: skip
    trials = int(row[1].number_input("Trials", 2, 500, 30, 5, key=f"{KEY}_trials"))
    reps = int(row[2].number_input("Worlds for a design that lasts", 10, 2000, 30, 10,
                                   key=f"{KEY}_reps", help="The most worlds one design plays: "
                                   "each plays a few first and goes on only while it stays "
                                   "among the best. " + term_help("rung")))  # fmt: skip
    seed = int(row[3].number_input("Seed", 0, 10**9, 0, key=f"{KEY}_seed"))
    go_ = row[4].button(
        "Run the search", key=f"{KEY}_run", type="primary", icon=":material/travel_explore:"
    )
    with st.expander("Constraints: budget, headcount, what may not move"):
        cols = st.columns(3)
        budget = cols[0].number_input(
            "Total budget (USD; 0: as the scenario has it)",
            0.0,
            1e13,
            0.0,
            100_000.0,
            key=f"{KEY}_budget",
        )
        heads = int(
            cols[1].number_input(
                "At most this many people (0: no cap)", 0, 100_000, 0, key=f"{KEY}_heads"
            )
        )
        payroll = cols[2].number_input(
            "Payroll cap over the deadline (USD; 0: none)",
            0.0,
            1e13,
            0.0,
            100_000.0,
            key=f"{KEY}_payroll",
        )
        fixed = st.multiselect("Teams whose headcount stays", base.team_ids, key=f"{KEY}_fixed")
        rights = st.multiselect(
            "Decision rights that stay where they are", DECISION_KINDS, key=f"{KEY}_rights"
        )
        confirm_reps = int(
            st.number_input(
                "Fresh worlds to confirm the best on", 10, 5000, 100, 10, key=f"{KEY}_confirm"
            )
        )
    c = Constraints(
        budget_usd=budget or None,
        max_headcount=heads or None,
        people_budget_usd=payroll or None,
        fixed_teams=tuple(fixed),
        fixed_rights=tuple(rights),
    )
    s = Settings(
        objective=objective,
        trials=trials,
        reps=reps,
        seed=seed,
        confirm_reps=confirm_reps,
        constraints=c,
        workers=app_workers(),
    )
    return s, go_


def run(base: Scenario, s: Settings) -> None:
    bar = st.progress(0.0, text="Searching…")
    chart = st.empty()
    rows: list[dict[str, Any]] = []

    def on_trial(r: TrialRecord, done: int, total: int) -> None:
        rows.append({"trial": r.number, "state": r.state, "value": r.value})
        bar.progress(min(1.0, done / total), text=f"Trial {done} of {total}")
        chart.plotly_chart(live_chart(rows, s.objective), key=f"{KEY}_live_{len(rows)}")

    def on_screen(done: int, total: int) -> None:
        bar.progress(
            min(1.0, done / max(total, 1)),
            text=f"Trying each change alone: {done:,} of {total:,} worlds",
        )

    try:
        search = run_search(base, s, on_trial, on_screen)
    except ValueError as error:
        st.error(str(error))
        return
    bar.progress(1.0, text="Confirming the best designs on fresh worlds…")
    conf = confirmed(search)
    st.session_state[KEY] = {"search": search, "confirmed": conf, "result": report(search, conf)}
    bar.empty()
    chart.empty()


def show(saved: dict[str, Any], source: str) -> None:
    search: Search = saved["search"]
    conf: Confirmed = saved["confirmed"]
    result = saved["result"]
    obj = result["objective"]
    counts = result["search"]["counts"]
    st.caption(
        f"{result['trials']} trials: "
        + ", ".join(f"{n} {k}" for k, n in counts.items())
        + f". Each trial played {_joined([str(n) for n in result['rungs']])} worlds in turn "
        f"({term_link('rung', 'rungs')}), the weaker stopped after each; the best confirmed on "
        f"{result['confirm_reps']} fresh worlds (seed {result['confirm_seed']}), not the worlds "
        "the search chose on."
    )
    st.plotly_chart(live_chart(trial_rows(search), obj), key=f"{KEY}_final_live")
    if result["nothing_better"]:
        st.info(result["nothing_better"] + ". Nothing to save; the cheaper designs on the "
                "frontier are offered below.")  # fmt: skip
        offer_cheaper(result, source)
    show_recommended(result, source)
    if not result["top"]:
        return
    frames, designs = conf.frames, conf.designs
    show_verdicts(frames, designs, conf.comparison)
    st.subheader("Key numbers")
    st.dataframe(key_numbers(frames), width="stretch")
    st.subheader("What each best design changes")
    for d in result["top"]:
        with st.container(border=True):
            st.markdown(
                f"**{d['name']}**: {label(obj).lower()} {d[obj]:.0%}, mean cost "
                f"{usd(d['cost_usd']['mean'])}"
            )
            st.markdown("\n".join(f"- {line}" for line in d["changes_in_words"]))
            text = design_yaml(
                DesignFile(
                    f"Search best: {d['name']}", source.removeprefix("scenarios/"), d["changes"]
                )
            )
            st.download_button(
                "Save as a design file",
                text,
                f"{d['name'].replace(' ', '-')}.yaml",
                "application/x-yaml",
                key=f"{KEY}_save_{d['trial']}",
                icon=":material/download:",
                on_click="ignore",
            )
    st.subheader("Trade-off frontier")
    st.plotly_chart(frontier_chart(result), key=f"{KEY}_frontier")
    st.subheader("Which changes mattered (on/off, paired on common worlds)")
    st.caption(result["importance"]["method"] + ".")
    imp = pd.DataFrame(
        [
            {
                "rank": p["rank"],
                "change": p["what"],
                f"worth ({label(obj).lower()}, pp)": 100 * p["importance"],
                "95% low (pp)": 100 * p["low"],
                "95% high (pp)": 100 * p["high"],
            }
            for p in result["importance"]["params"][:12]
        ]
    )
    if not imp.empty:
        st.dataframe(imp, hide_index=True, width="stretch")
    with st.expander("S-curves of the baseline and the best designs"):
        show_distributions(frames, designs)


def _download(label: str, name: str, source: str, changes: Any, key: str) -> None:
    text = design_yaml(DesignFile(name, source.removeprefix("scenarios/"), changes))
    st.download_button(
        label, text, f"{key}.yaml", "application/x-yaml", key=f"{KEY}_{key}",
        icon=":material/download:", on_click="ignore",
    )  # fmt: skip


def offer_cheaper(result: dict[str, Any], source: str) -> None:
    """The frontier's designs that cost less than the baseline, each to save."""
    obj = result["objective"]
    for p in result["cheaper"]:
        st.markdown(
            f"**trial {p['trial']}**: {label(obj).lower()} {p[obj]:.0%}, mean cost "
            f"{usd(p['cost_usd_mean'])}"
        )
        _download("Save this cheaper design", f"Search frontier (trial {p['trial']})", source,
                  p["changes"], f"cheaper-{p['trial']}")  # fmt: skip


def show_recommended(result: dict[str, Any], source: str) -> None:
    """The best design pruned to the changes that pay, each with its own worth."""
    rec = result["recommended"]
    if not rec or not rec["each"]:
        return
    st.subheader("Recommended: the changes that pay")
    p = rec["pruning"]
    st.caption(
        f"{len(rec['each'])} of the {p['changes_before']} changes of trial {p['from_trial']}, "
        f"pruned on {p['worlds']} fresh paired worlds; each change's worth is on the "
        "confirmation's worlds (the recommendation with and without it)."
    )
    for ch in rec["each"]:
        w = ch["worth"]
        worth = f"{pp_signed(w['mean'])} ({100 * w['low']:+.1f} to {pp_signed(w['high'])})"
        st.markdown(f"- {ch['what']}: {worth}; {ch['why']}")
    for line in rec.get("verdict", []):
        st.markdown(line)
    if rec["beats_baseline"]:
        _download("Save the recommendation", "Search recommendation", source, rec["changes"],
                  "recommended")  # fmt: skip


def render() -> None:
    st.title("Optimize the design")
    st.markdown(
        "Search the design space around a base scenario (headcount per team, who holds "
        "each decision right, who owns each risk, gate strengths, reserve, ablation share "
        "and other levers, the playbook's first responses) for the designs that best meet "
        "the objective. Poor candidates are dropped after a few "
        f"{term_link('world', 'worlds')} (each step a {term_link('rung')}); the best play them "
        "all, and are then confirmed on fresh ones."
    )
    picked = pick_scenario("optimize_base", prefer="assistant_7b.yaml")
    if picked is None:
        return
    base, source = picked
    s, go_ = controls(base)
    if go_:
        run(base, s)
    saved = st.session_state.get(KEY)
    if isinstance(saved, dict) and saved["search"].base.name == base.name:
        show(saved, source)
    else:
        st.info("Press **Run the search**.")


if __name__ == "__main__":
    render()
