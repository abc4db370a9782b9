"""Interview page: practise the LLM-training interview question by building and playing a plan.

Five steps, in any order: the question and its clarifying choices; Part 1, the
challenges by lifecycle stage, each priced by the model when it strikes late and
unowned; Part 2, the plan (owners and early warnings, decision rights and roles,
gates, budget, levers and playbook, objective, strategy and trade-offs) run against
reference designs; the three follow-ups played live on the candidate's design; and
the rubric debrief, with a Markdown export and past sessions.

The answer lives in ``st.session_state`` as one :class:`~sim.interview.plan.InterviewPlan`
under a key no widget owns; each step's widgets start from it and write back to it.
Widget keys carry a version, bumped when a whole plan is loaded, so every widget then
starts from the loaded values. Every number comes from ``sim``.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy import make_url
from sqlalchemy.exc import SQLAlchemyError

from sim.interview.plan import (
    CLARIFICATIONS,
    PART_1,
    PART_1_TITLE,
    PART_2,
    PART_2_TITLE,
    PRACTICE_MINUTES,
    QUESTION,
    QUESTION_TITLE,
    InterviewPlan,
    PlanError,
    base_scenario,
    parse_plan,
    plan_json,
    shape_scenario,
)
from sim.interview.rubric import STATUS_LABEL, RubricReport, judge, session_markdown
from sim.interview.store import PracticeStore
from sim.scenario.spec import Scenario
from sim.storage import database_url, make_engine
from ui.common import (
    usd,
    words,
)
from ui.interview import charts
from ui.interview.common import (
    NOTICE,
    SAVED,
    STARTED,
    STEP,
    go,
    minutes_used,
    new_attempt,
    outcome_for,
    plan_digest,
    plan_now,
    replace_plan,
    set_plan,
    show_outcome,
    start_clock,
    stop_clock,
    wkey,
)
from ui.interview.followups import render_followups
from ui.interview.part1 import render_part1
from ui.interview.part2 import render_part2

STEPS = ("The question", "Part 1: what is hard", "Part 2: your plan", "Follow-ups", "Debrief")
ICON = {"met": ":green[●]", "partly": ":orange[◐]", "missed": ":red[○]", "not_played": ":gray[–]"}

#: A database problem met while saving, shown with the past sessions.
STORE_ERROR = "iv_store_error"


@st.fragment(run_every=10)
def clock() -> None:
    used = minutes_used()
    if used is None:
        return
    left = PRACTICE_MINUTES - used
    text = (
        f":material/timer: **{math.ceil(left)} min left** of {PRACTICE_MINUTES}"
        if left > 0
        else f":red[:material/timer_off: **Time is up**: {used:.0f} min used]"
    )
    st.markdown(text)
    st.progress(min(1.0, used / PRACTICE_MINUTES))


def load_uploaded_plan() -> None:
    upload = st.session_state.get("iv_upload")
    if upload is None:
        return
    try:
        plan = parse_plan(upload.getvalue().decode("utf-8"), upload.name)
    except UnicodeDecodeError:
        st.session_state[NOTICE] = f"error:{upload.name}: file is not UTF-8 text"
        return
    except PlanError as exc:
        st.session_state[NOTICE] = "error:" + "\n".join(str(p) for p in exc.problems)
        return
    replace_plan(plan, f"Loaded {upload.name}: carry on where you left off.")


def render_question(plan: InterviewPlan) -> InterviewPlan:
    st.markdown(f"### {QUESTION_TITLE}")
    st.markdown(QUESTION)
    with st.container(border=True):
        st.markdown(
            "**How this works.** Answer the question by making choices the model can run. "
            f"**{PART_1_TITLE}.** {PART_1} **{PART_2_TITLE}.** {PART_2} Then the three "
            "follow-up questions happen to your design as "
            "live incidents, and the debrief judges your answer against the interview's rubric, "
            "with evidence from your own plan and play."
        )
    left, right = st.columns([3, 2], gap="large")
    with right, st.container(border=True):
        st.markdown("**Practise under time pressure?**")
        if st.session_state.get(STARTED):
            st.button("Stop the clock", key="iv_stop_clock", on_click=stop_clock)
        else:
            st.button(
                f"Start a {PRACTICE_MINUTES}-minute clock",
                key="iv_start_clock",
                on_click=start_clock,
                icon=":material/timer:",
            )
        candidate = st.text_input(
            "Your name (to track progress across attempts)",
            value=plan.candidate,
            key=wkey("candidate"),
            max_chars=100,
        )
        st.file_uploader(
            "Continue a saved plan (PLAN.json)",
            type=["json"],
            key="iv_upload",
            on_change=load_uploaded_plan,
        )
    with left:
        st.markdown("#### Clarifying questions")
        st.caption("Ask before you answer. Each answer shapes the project you plan for.")
        chosen = {}
        for q in CLARIFICATIONS:
            ids = [o.id for o in q.options]
            current = plan.clarifications.get(q.id, ids[0])
            pick = st.radio(
                q.question,
                ids,
                index=ids.index(current) if current in ids else 0,
                format_func=lambda oid, q=q: q.option(oid).label,
                key=wkey(f"clar_{q.id}"),
            )
            st.caption(q.option(pick).effect)
            chosen[q.id] = pick
    show_world(shape_scenario(base_scenario(plan.base), chosen))
    with st.expander("Your past sessions"):
        show_past_sessions(candidate)
    return plan.model_copy(update={"clarifications": chosen, "candidate": candidate})


def show_world(world: Scenario) -> None:
    obj, b = world.objective, world.objective.budget
    st.markdown("#### The project you are planning")
    row = st.columns(4)
    row[0].metric("Deadline", f"{obj.deadline_days:g} days")
    row[1].metric("Budget", usd(b.total_usd), help="compute, people, data licensing, annotation")
    m = world.model
    if world.levers.strategy == "adapt" and m.base_model is not None:
        row[2].metric("Model", f"adapt {m.base_model.params_b:g}B", help=m.base_model.name)
    else:
        row[2].metric("Model", f"{m.params_b:g}B from scratch", help=f"{m.tokens_b:,.0f}B tokens")
    row[3].metric("Cluster", f"{world.cluster.gpus:,} {world.cluster.gpu.upper()}")
    kinds = {e.id: words(e.kind) for e in obj.evals}
    targets = "; ".join(
        f"{words(t.capability)} by `{t.eval}` ({kinds[t.eval]}) ≥ {t.threshold:.2f}"
        for t in obj.targets
    )
    st.markdown(f"**For:** {obj.product_use}. **Targets:** {targets}.")


@st.cache_resource(show_spinner=False)
def practice_store(url: str) -> PracticeStore:
    return PracticeStore(make_engine(url))


def store_problem(exc: SQLAlchemyError) -> str:
    url = make_url(database_url()).render_as_string(hide_password=True)
    reason = str(exc.orig if getattr(exc, "orig", None) else exc).splitlines()[0]
    return f"Saved sessions are unavailable: cannot use the database at {url} ({reason})."


def save_session(plan: InterviewPlan, report: RubricReport) -> None:
    try:
        store = practice_store(database_url())
        sid = store.save(plan, report, session_markdown(plan, report), minutes=minutes_used())
    except SQLAlchemyError as exc:
        st.session_state[STORE_ERROR] = store_problem(exc)
        return
    st.session_state[SAVED] = (sid, plan_digest(plan) + str(len(plan.followups)))


def show_items(report: RubricReport) -> None:
    for part in dict.fromkeys(i.part for i in report.items):
        st.markdown(f"##### {part}")
        for item in (i for i in report.items if i.part == part):
            label = f"{ICON[item.status]} **{item.title}**: {STATUS_LABEL[item.status]}"
            with st.expander(label, expanded=item.status in ("partly", "missed")):
                st.markdown("\n".join(f"- {e}" for e in item.evidence))
                if item.status != "met":
                    st.markdown(f":material/lightbulb: **A strong answer:** {item.strong}")


def outcome_table(outcome: dict[str, dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            (name, f"{s['p_success']:.0%}", f"{s['p_on_time']:.0%}", f"{s['p_on_budget']:.0%}",
             f"{s['p_quality_met']:.0%}")
            for name, s in outcome.items()
        ],
        columns=["design", "all met", "on time", "on budget", "quality met"],
    )  # fmt: skip


def render_debrief(plan: InterviewPlan) -> None:
    st.markdown("#### Debrief: your answer against the rubric")
    outcome = outcome_for(plan)
    report = judge(plan, outcome)
    mine = outcome.get("Your design", {})
    row = st.columns(5)
    row[0].metric("Rubric score", f"{report.score:.0%}", help="Partly met counts half.")
    row[1].metric("Met", report.counts["met"])
    row[2].metric("Partly met", report.counts["partly"])
    row[3].metric("Missed", report.counts["missed"])
    row[4].metric(
        "All objectives met",
        f"{mine.get('p_success', 0.0):.0%}",
        help="Your design: the share of simulated worlds where it is on time, on budget and "
        "meets every quality target.",
    )
    items, side = st.columns([3, 2], gap="large")
    with items:
        show_items(report)
    with side, st.container(border=True):
        st.markdown("**Your design in the model** (the same worlds for each)")
        st.dataframe(outcome_table(outcome), hide_index=True, width="stretch")
        markdown = session_markdown(plan, report)
        st.download_button(
            "Download the session (Markdown)", markdown, file_name="interview-practice.md",
            mime="text/markdown", key="iv_download_md", on_click="ignore",
            icon=":material/download:", type="primary",
        )  # fmt: skip
        st.download_button(
            "Download the plan (PLAN.json)", plan_json(plan), file_name="PLAN.json",
            mime="application/json", key="iv_download_plan", on_click="ignore",
            icon=":material/download:",
        )  # fmt: skip
        saved = st.session_state.get(SAVED)
        if saved and saved[1] == plan_digest(plan) + str(len(plan.followups)):
            st.success(f"Saved as session {saved[0]}.", icon=":material/save:")
        else:
            st.button(
                "Save this session", key="iv_save", on_click=save_session,
                args=(plan, report), icon=":material/save:",
            )  # fmt: skip
        st.caption(
            "Sessions are kept on this machine, so you can watch your score across attempts."
        )
        st.button(
            "Start another attempt", key="iv_new_attempt", on_click=new_attempt,
            icon=":material/restart_alt:",
        )  # fmt: skip
    show_outcome(plan, outcome)
    show_past_sessions(plan.candidate)


def show_past_sessions(candidate: str) -> None:
    st.markdown("#### Past sessions" + (f" of {candidate}" if candidate else ""))
    problem = st.session_state.pop(STORE_ERROR, None)
    try:
        store = practice_store(database_url())
        progress = store.progress(candidate or None)
    except SQLAlchemyError as exc:
        problem = store_problem(exc)
    if problem:
        st.warning(f"{problem} The practice itself works; download the session to keep it.",
                   icon=":material/cloud_off:")  # fmt: skip
        return
    if progress.empty:
        st.caption("No saved sessions yet" + (f" for {candidate}" if candidate else "") + ".")
        return
    chart, table = st.columns([2, 3], gap="large")
    chart.plotly_chart(charts.progress_figure(progress), key="iv_progress")
    shown = progress.assign(
        saved=progress["saved_at"].dt.strftime("%Y-%m-%d %H:%M"),
        score=progress["score"].map("{:.0%}".format),
        design=progress["p_success"].map(lambda v: "" if pd.isna(v) else f"{v:.0%}"),
    )[["attempt", "saved", "score", "met", "partly", "missed", "design"]]
    table.dataframe(shown.iloc[::-1], hide_index=True, width="stretch")
    labels = {
        int(r.id): f"attempt {r.attempt}, {r.saved_at:%Y-%m-%d %H:%M}, score {r.score:.0%}"
        for r in progress.itertuples()
    }
    pick = table.selectbox(
        "Read a past session", list(labels)[::-1], format_func=labels.get, key="iv_past_pick"
    )
    if pick is not None:
        with st.expander(f"The whole session: {labels[pick]}"):
            st.markdown(store.load(int(pick)).markdown)


def step_bar(current: int) -> None:
    for i, (column, name) in enumerate(zip(st.columns(len(STEPS)), STEPS, strict=True)):
        column.button(
            f"{i + 1}. {name}", key=f"iv_step_{i}", on_click=go, args=(i,), width="stretch",
            type="primary" if i == current else "secondary",
        )  # fmt: skip


def show_notice() -> None:
    notice = st.session_state.pop(NOTICE, None)
    if not notice:
        return
    if notice.startswith("error:"):
        for line in notice.removeprefix("error:").splitlines():
            st.error(line, icon=":material/error:")
    else:
        st.success(notice, icon=":material/check:")


def render() -> None:
    st.title("Interview practice")
    step = int(st.session_state.get(STEP, 0))
    step_bar(step)
    clock()
    show_notice()
    plan = plan_now()
    if step == 0:
        plan = render_question(plan)
    elif step == 1:
        plan = render_part1(plan)
    elif step == 2:
        plan = render_part2(plan)
    elif step == 3:
        render_followups(plan)
    else:
        render_debrief(plan)
    if step in (0, 1, 2):
        set_plan(plan)
    if step < len(STEPS) - 1:
        st.button(
            f"Next: {STEPS[step + 1]}", key="iv_next", on_click=go, args=(step + 1,),
            type="primary", icon=":material/arrow_forward:",
        )  # fmt: skip


if __name__ == "__main__":
    render()
