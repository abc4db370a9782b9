"""What the Interview page's steps share: the plan in session state, versioned widget keys,
the practice clock, and the simulated outcome of the candidate's design beside the references.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import streamlit as st

from sim.interview.plan import (
    InterviewPlan,
    plan_world,
)
from sim.interview.risks import DESIGN_REPS, DESIGN_SEED, designs_for, summarize_designs
from ui.compare.common import run_designs_live
from ui.interview import charts

# Session-state keys no widget owns.
PLAN, STEP, VERSION, STARTED, OUTCOME, SAVED, NOTICE = (
    "iv_plan",
    "iv_step",
    "iv_version",
    "iv_started",
    "iv_outcome",
    "iv_saved",
    "iv_notice",
)
RUN_KEY = "iv_design_run"
#: Attempts handed in during this session (their digests), and the model's compute figures
#: their debriefs showed. Only these unlock the model's figures: nothing a file says does.
HANDED_IN, SHOWN = "iv_handed_in", "iv_shown_estimates"


def plan_now() -> InterviewPlan:
    plan = st.session_state.get(PLAN)
    return plan if isinstance(plan, InterviewPlan) else InterviewPlan()


def set_plan(plan: InterviewPlan) -> None:
    st.session_state[PLAN] = plan


def wkey(name: str) -> str:
    """A widget key, versioned so a loaded plan re-initialises every widget."""
    return f"iv_{st.session_state.get(VERSION, 0)}_{name}"


def replace_plan(plan: InterviewPlan, notice: str) -> None:
    set_plan(plan)
    st.session_state[VERSION] = st.session_state.get(VERSION, 0) + 1
    st.session_state[NOTICE] = notice


def new_attempt() -> None:
    """A fresh answer for the same candidate: the plan, its runs and follow-ups are cleared."""
    candidate = plan_now().candidate
    for key in [k for k in st.session_state if str(k).startswith(("iv_game_", "iv_fu"))]:
        del st.session_state[key]  # games, and follow-ups answered in words
    for key in (OUTCOME, SAVED, STARTED, RUN_KEY, "iv_prose_read", "iv_llm", "iv_quick_values"):
        st.session_state.pop(key, None)
    replace_plan(InterviewPlan(candidate=candidate), "A new attempt: the question, from the top.")
    st.session_state[STEP] = 0


def go(step: int) -> None:
    st.session_state[STEP] = step


def short_hash(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def plan_digest(plan: InterviewPlan) -> str:
    """What the simulated outcome depends on: the design and its world."""
    body = plan.model_dump_json(exclude={"followups", "candidate", "judged_at", "prose"})
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def start_clock() -> None:
    st.session_state[STARTED] = time.time()


def stop_clock() -> None:
    st.session_state.pop(STARTED, None)


def minutes_used() -> float | None:
    started = st.session_state.get(STARTED)
    return (time.time() - started) / 60.0 if started else None


#: Outcomes already run this session, by plan digest (a design changed back runs no more).
OUTCOMES = "iv_outcomes"


def run_outcome(plan: InterviewPlan) -> dict[str, dict[str, Any]]:
    digest = plan_digest(plan)
    cache = st.session_state.setdefault(OUTCOMES, {})
    if digest in cache:
        st.session_state[OUTCOME] = (digest, cache[digest])
        return cache[digest]  # type: ignore[no-any-return]
    designs = designs_for(plan)
    state = run_designs_live(
        RUN_KEY, designs, DESIGN_REPS, DESIGN_SEED, "your design and two references"
    )
    outcome = summarize_designs(state.frames(), designs, DESIGN_SEED)
    cache[digest] = outcome
    st.session_state[OUTCOME] = (digest, outcome)
    return outcome


def outcome_for(plan: InterviewPlan) -> dict[str, dict[str, Any]]:
    stored = st.session_state.get(OUTCOME)
    if stored is not None and stored[0] == plan_digest(plan):
        return stored[1]  # type: ignore[no-any-return]
    return run_outcome(plan)


def attempt_digest(plan: InterviewPlan) -> str:
    """The whole attempt but its hand-in stamp: what a hand-in in this session covers."""
    return hashlib.sha256(plan.model_dump_json(exclude={"judged_at"}).encode()).hexdigest()


def handed_in_here(plan: InterviewPlan) -> bool:
    """Whether this very attempt was handed in during this session (never read from a file)."""
    return attempt_digest(plan) in st.session_state.get(HANDED_IN, set())


def locked(plan: InterviewPlan) -> bool:
    """A handed-in attempt is read only: a new answer is a new attempt."""
    return plan.judged_at is not None


def show_outcome(plan: InterviewPlan, outcome: dict[str, dict[str, Any]]) -> None:
    world = plan_world(plan)
    fig = charts.designs_figure(
        outcome, world.objective.deadline_days, world.objective.budget.total_usd
    )
    st.plotly_chart(fig, key=f"iv_designs_{st.session_state.get(STEP, 0)}")
    st.caption(
        "The same worlds for every design: the same failures, spikes and defects strike at the "
        "same moments, so the differences come from the designs. The scenario's own plan is a "
        "sound reference; the siloed one has no owners, reserve, playbook or early evals. "
        "Dotted lines: the deadline and the budget."
    )
