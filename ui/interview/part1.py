"""Interview page, Part 1: the challenges by lifecycle stage, each priced by the model.

A challenge that maps to one of the model's risks is priced by a counterfactual Monte
Carlo (``sim.interview.risks.price_risk``): the same worlds where it strikes, once owned
and watched, once late and unowned. Prices are cached per world and risk.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import streamlit as st

from sim.format import NO_CHANGE, no_change, points_signed, pp_signed
from sim.glossary import term_link
from sim.interview.content import DIMENSIONS
from sim.interview.plan import (
    CATALOGUE,
    PART_1,
    PART_1_TITLE,
    STAGES,
    Challenge,
    InterviewPlan,
    base_scenario,
    shape_scenario,
)
from sim.interview.risks import price_risk
from sim.interview.vocabulary import find
from sim.scenario.spec import PHASES, RISK_KINDS
from ui.common import (
    usd,
    words,
)
from ui.interview import charts
from ui.interview.common import (
    short_hash,
    wkey,
)


@st.cache_data(show_spinner=False, max_entries=256)
def risk_price(base: str, clarifications: tuple[tuple[str, str], ...], risk: str) -> dict[str, Any]:
    world = shape_scenario(base_scenario(base), dict(clarifications))
    return asdict(price_risk(world, risk))


def price_of(plan: InterviewPlan, risk: str) -> dict[str, Any]:
    return risk_price(plan.base, tuple(sorted(plan.clarifications.items())), risk)


def _days(value: float) -> str:
    if no_change(value, "days"):
        return "no change in the finish"
    return f"{abs(value):.1f} days {'later' if value > 0 else 'sooner'}"


def _money(value: float) -> str:
    if no_change(value, "USD"):
        return "no change in cost"
    return f"{usd(abs(value))} {'more' if value > 0 else 'less'}"


def price_line(p: dict[str, Any]) -> str:
    """What the model says a risk costs when it strikes late and unowned, in words."""
    late, owned = p["late"], p["owned"]
    if not late["clear"]:
        return (
            f":material/monitoring: **The model**, when {p['strikes']} and {p['neglect']}: "
            f"**no clear effect on this project** (within the spread of {p['reps']} worlds)."
        )
    parts = [_days(late["schedule_days"]), _money(late["cost_usd"])]
    if not no_change(late["quality"], "score"):
        parts.append(f"true quality {points_signed(late['quality'])}")
    if not no_change(late["p_success"], "probability"):
        parts.append(f"chance of meeting every objective {pp_signed(late['p_success'], 0)}")
    text = (
        f":material/monitoring: **The model**, when {p['strikes']} and {p['neglect']}: "
        f"**{', '.join(parts)}**"
    )
    if owned["schedule_days"] < late["schedule_days"] - NO_CHANGE["days"]:
        text += f". Owned, with an early warning: {_days(owned['schedule_days'])}"
    if late["schedule_days"] < -NO_CHANGE["days"] and late["quality"] < -NO_CHANGE["score"]:
        text += ". Sooner because nobody spends time on a problem nobody measures: it ships worse"
    return text + "."


def hits_of(text: str) -> list[str]:
    """Quality, schedule and cost as the consequence names them (the rubric's vocabulary)."""
    found = set(find(text, tuple(DIMENSIONS.values())).found)
    return [k for k, d in DIMENSIONS.items() if d in found]


def challenge_row(stage: str, title: str, old: Challenge | None, plan: InterviewPlan) -> Challenge:
    known = dict(CATALOGUE[stage]).get(title)
    h = f"{stage}_{short_hash(title)}"
    with st.container(border=True):
        head, text_col, signal_col = st.columns([2.2, 4.4, 1.6])
        head.markdown(f"**{title}**")
        if known is not None:
            risk: str | None = known
            head.caption(f"risk: `{risk}`")
        else:
            options = [None, *RISK_KINDS]
            at = options.index(old.risk) if old and old.risk in options else 0
            risk = head.selectbox(
                "Maps to the model's risk", options, index=at, key=wkey(f"risk_{h}"),
                format_func=lambda r: "(none)" if r is None else words(r),
            )  # fmt: skip
        consequence = text_col.text_input(
            "What happens when it strikes: what it costs in time, money or quality",
            value=old.consequence if old else "",
            key=wkey(f"what_{h}"),
            placeholder="e.g. the run must be repeated: weeks late, compute bill doubled",
        )
        hits = hits_of(consequence)
        text_col.caption(
            "Puts at risk (read from your words): " + (", ".join(hits) or "nothing yet")
        )
        phases = [None, *PHASES]
        at = phases.index(old.earliest_signal) if old and old.earliest_signal in phases else 0
        signal = signal_col.selectbox(
            "First seen at", phases, index=at, key=wkey(f"signal_{h}"),
            format_func=lambda p: "—" if p is None else words(p),
        )  # fmt: skip
        if risk is not None:
            with st.spinner("Pricing it in the model…"):
                st.markdown(price_line(price_of(plan, risk)))
    return Challenge(
        stage=stage,  # type: ignore[arg-type]
        title=title,
        risk=risk,  # type: ignore[arg-type]
        hits=list(hits or []),
        consequence=consequence,
        earliest_signal=signal,
    )


def render_part1(plan: InterviewPlan) -> InterviewPlan:
    st.markdown(f"#### {PART_1_TITLE}")
    st.markdown(PART_1)
    st.caption(
        "Pick challenges from the suggestions or type your own, stage by stage. For each, say "
        "what happens when it strikes and where it can first be seen. The model then "
        f"prices it: the same {term_link('world', 'worlds')} with the risk striking, once "
        "owned and watched, once late and unowned."
    )
    challenges: list[Challenge] = []
    for stage, label in STAGES.items():
        current = [c for c in plan.challenges if c.stage == stage]
        suggestions = [t for t, _ in CATALOGUE[stage]]
        own = [c.title for c in current if c.title not in suggestions]
        titles = st.multiselect(
            f"**{label}**",
            suggestions + own,
            default=[c.title for c in current],
            key=wkey(f"p1_{stage}"),
            accept_new_options=True,
            placeholder="Pick a challenge or type your own",
        )
        by_title = {c.title: c for c in current}
        for title in titles:
            challenges.append(challenge_row(stage, title, by_title.get(title), plan))
    late = st.text_area(
        "Why is a problem found late in a long training run so expensive?",
        value=plan.late_discovery,
        key=wkey("late_discovery"),
        placeholder="What is thrown away, what must be redone, and what it costs by then",
    )
    priced = sorted({c.risk for c in challenges if c.risk})
    if priced:
        prices = [price_of(plan, r) for r in priced]
        st.plotly_chart(charts.risk_prices_figure(prices), key="iv_risk_prices")
    return plan.model_copy(update={"challenges": challenges, "late_discovery": late})
