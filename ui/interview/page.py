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
from datetime import UTC, datetime
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from sim.glossary import term_help, term_link
from sim.interview.answers import model_answers
from sim.interview.followups import FOLLOWUPS
from sim.interview.items import model_compute_usd
from sim.interview.llm_judge import LlmNotes, llm_config, llm_notes
from sim.interview.markdown import plan_lines, session_markdown
from sim.interview.plan import (
    CLARIFICATIONS,
    PART_1,
    PART_1_TITLE,
    PART_2,
    PART_2_TITLE,
    PRACTICE_MINUTES,
    QUESTION,
    QUESTION_TITLE,
    ClarifyingOption,
    ClarifyingQuestion,
    InterviewPlan,
    PlanError,
    base_scenario,
    parse_plan,
    plan_json,
    shape_scenario,
)
from sim.interview.prose import ProseReading, Reading
from sim.interview.prose import read_answer as read_prose_answer
from sim.interview.quick import FOLLOWUP_CALLS, PRACTICES, QUICK_INPUTS, QuickInput, quick_plan
from sim.interview.replays import replayed_plan
from sim.interview.risks import NEGLECTED, SCENARIO_PLAN, YOUR_DESIGN
from sim.interview.rubric import ITEMS, STATUS_LABEL, RubricReport, judge
from sim.interview.store import PracticeStore
from sim.interview.unread import not_read
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import identifiers_in_words
from sim.storage import database_url, make_engine
from ui.common import (
    esc,
    points,
    records,
    usd,
    words,
)
from ui.interview import charts
from ui.interview.common import (
    HANDED_IN,
    NOTICE,
    SAVED,
    SHOWN,
    STARTED,
    STEP,
    attempt_digest,
    go,
    handed_in_here,
    locked,
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
ICON = {
    "met": ":green[●]",
    "partly": ":orange[◐]",
    "missed": ":red[○]",
    "not_played": ":red[–]",
    "did_not_arise": ":gray[–]",
    "not_run": ":gray[–]",
}
#: What the prose reader last read: (the text, its ProseReading).
PROSE_READ = "iv_prose_read"
#: The language model's notes for a plan digest.
LLM = "iv_llm"
MODES = {
    "structured": "Build it part by part",
    "quick": f"A quick plan ({len(QUICK_INPUTS)} inputs, then the follow-ups)",
    "prose": "Speak it: write or paste your answer",
}
#: The quick plan's last inputs, by input id (its widgets start from them).
QUICK_VALUES = "iv_quick_values"

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
    again = replayed_plan(plan)
    dropped = [FOLLOWUPS[f.id].title for f in plan.followups if again.followup(f.id) is None]
    notice = f"Loaded {upload.name}: carry on where you left off."
    if plan.followups:
        notice += " Its follow-ups were replayed from your calls; the figures a file stores "
        notice += "are never used."
    if dropped:
        notice += " These no longer fit the design, so play them again: " + "; ".join(dropped)
    if plan.judged_at is not None:
        notice += " The file says it was handed in, so it is read only; its model answers "
        notice += "show once you hand it in here, in the debrief."
    replace_plan(again, notice)


def render_question(plan: InterviewPlan) -> InterviewPlan:
    st.markdown(f"### {QUESTION_TITLE}")
    st.markdown(QUESTION)
    with st.container(border=True):
        st.markdown(
            "**How this works.** Answer the question by making choices the model can run. "
            f"**{PART_1_TITLE}.** {PART_1} **{PART_2_TITLE}.** {PART_2} Then the three "
            "follow-up questions happen to your design as "
            "live incidents, and the debrief judges your answer against the interview's rubric, "
            f"with evidence from your own plan and play in simulated {term_link('world', 'worlds')}"
            "."
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
        chosen: dict[str, str] = {}
        for q in CLARIFICATIONS:
            ids = [o.id for o in q.options]
            current = plan.clarifications.get(q.id, ids[0])
            pick = st.radio(
                q.question,
                ids,
                index=ids.index(current) if current in ids else 0,
                format_func=partial(option_label, q),
                key=wkey(f"clar_{q.id}"),
            )
            answer = clarification_answer(q, pick, current)
            st.caption(answer.effect)
            chosen[q.id] = answer.id
    show_world(shape_scenario(base_scenario(plan.base), chosen))
    plan = plan.model_copy(update={"clarifications": chosen, "candidate": candidate})
    mode = st.radio(
        "How will you answer?", list(MODES), format_func=MODES.get, horizontal=True,
        key=wkey("mode"), index=2 if plan.prose else 0,
        help="In prose you answer as in the room; the tool reads your plan from it, you "
        "correct what it read, and it is run and judged like a plan built part by part.",
    )  # fmt: skip
    if mode == "prose":
        plan = render_prose(plan)
    elif mode == "quick":
        render_quick(plan)
    with st.expander("Your past sessions"):
        show_past_sessions(candidate)
    return plan


def read_answer(plan: InterviewPlan) -> None:
    text = st.session_state.get(wkey("prose"), "")
    for key in [k for k in st.session_state if str(k).startswith(wkey("prose_ask_"))]:
        del st.session_state[key]
    st.session_state[PROSE_READ] = (text, read_prose_answer(text, plan))


#: The two answers to an unsure reading.
CONFIRM, REJECT = "Yes, that is what I meant", "No, leave it out (I will correct it)"


def prose_answers(read: ProseReading) -> dict[str, bool] | None:
    """Each unsure reading's key, confirmed (True) or left out (False); None while a question
    is still open: an unsure reading is asked, never guessed."""
    out = {}
    for i, r in enumerate(read.unsure):
        pick = st.session_state.get(wkey(f"prose_ask_{i}"))
        if pick is None:
            return None
        out[r.key] = pick == CONFIRM
    return out


def use_read_plan() -> None:
    held = st.session_state.get(PROSE_READ)
    if held is None:
        return
    text, read = held
    answers = prose_answers(read)
    if answers is None:
        return
    confirmed = [k for k, yes in answers.items() if yes]
    plan = read_prose_answer(text, plan_now(), confirmed).plan
    replace_plan(plan, "Your spoken answer is now the plan, with the readings you confirmed: "
                 "check it in Part 1 and Part 2, correct what was misread or left out, then "
                 "run and judge it.")  # fmt: skip
    st.session_state[STEP] = 1


def render_prose(plan: InterviewPlan) -> InterviewPlan:
    st.markdown("#### Your answer, as you would say it")
    st.caption(
        "Write or paste your whole answer: what makes it hard, then how you would organise "
        f"the team. Name owners, early warnings, {term_link('gate', 'gates')}, numbers "
        f"({term_link('reserve')}, ablation share, "
        "estimates in dollars), what you do first when the budget is cut, your roles, build "
        "or adapt and why, and your trade-offs. The follow-ups you can answer in words too, "
        "on their step."
    )
    text = st.text_area("Your answer", value=plan.prose, key=wkey("prose"), height=260,
                        max_chars=20_000)  # fmt: skip
    plan = plan.model_copy(update={"prose": text})
    st.button("Read my answer", key="iv_read_prose", on_click=read_answer, args=(plan,),
              icon=":material/auto_stories:", disabled=not text.strip())  # fmt: skip
    held = st.session_state.get(PROSE_READ)
    if held is None or held[0] != text:
        return plan
    read: ProseReading = held[1]
    for message in read.messages:
        st.warning(message, icon=":material/info:")
    if not read.readings:
        return plan
    st.markdown(f"**What the tool read: {len(read.readings)} things**, each beside the sentence "
                "it came from. Check them; after using the plan you can correct each in Part 1 "
                "and Part 2.")  # fmt: skip
    frame = pd.DataFrame(
        [(*shown(r), "asks you" if r.unsure else "sure", r.sentence) for r in read.readings],
        columns=["read as", "value", "reading", "from the sentence"],
    )  # fmt: skip
    st.dataframe(frame, hide_index=True, width="stretch")
    missing = not_read(read)
    if missing:
        with st.expander(f"Not found in your answer: {len(missing)} of the parts the rubric "
                         "asks for", expanded=True, icon=":material/search_off:"):  # fmt: skip
            st.markdown("Add them in Part 1 and Part 2 after using the plan, or say them "
                        "plainly and read again. A part not found is left for you to fill, "
                        "never counted against you before you hand in.\n\n"
                        + "\n".join(f"- {line}" for line in missing))  # fmt: skip
    if read.unsure:
        many = "1 reading" if len(read.unsure) == 1 else f"{len(read.unsure)} readings"
        st.markdown(f"**{many} the tool is not sure of.** Nothing unsure "
                    "goes into your plan unless you say so.")  # fmt: skip
    for i, r in enumerate(read.unsure):
        st.radio(
            "From “{}” I read **{}: {}**. Is that what you meant?".format(
                *(esc(part) for part in (r.sentence, *shown(r)))
            ),
            [CONFIRM, REJECT], index=None, key=wkey(f"prose_ask_{i}"),
        )  # fmt: skip
    open_questions = prose_answers(read) is None
    if open_questions:
        st.caption("Answer each question above first; then the plan is read with your answers.")
    st.button("Use this plan, then correct it", key="iv_use_prose", on_click=use_read_plan,
              type="primary", icon=":material/edit_note:", disabled=open_questions)  # fmt: skip
    return plan


def shown(r: Reading) -> tuple[str, str]:
    """A reading's field and value in words; a value taken from the candidate's own sentence
    is shown as they typed it."""
    value = r.value if r.value in r.sentence else identifiers_in_words(r.value)
    kind, _, team = r.key.partition("=")
    if kind.startswith(("owner:", "right:")) and r.value.startswith(team):
        value = f"the {words(team)} team{r.value[len(team) :]}"  # "the data team"
    return identifiers_in_words(r.field), value


def team_label(team: str | None) -> str:
    return "—" if team is None else words(team)


def quick_widget(q: QuickInput, teams: list[str], old: dict[str, Any]) -> Any:
    """One quick-plan input, starting from its last value."""
    key, value = wkey(f"quick_{q.id}"), old.get(q.id)
    if q.kind == "text":
        return st.text_input(q.label, value=value or "", key=key, placeholder=q.help,
                             max_chars=2_000)  # fmt: skip
    if q.kind == "lines":
        return st.text_area(q.label, value=value or "", key=key, placeholder=q.help,
                            max_chars=2_000, height=110)  # fmt: skip
    if q.kind == "percent":
        return st.number_input(q.label, 0.0, 50.0, value=value, step=1.0, key=key)
    if q.kind == "usd":
        return st.number_input(q.label, 0.0, 1e10, value=value, step=10_000.0, key=key)
    if q.kind == "team":
        options = [None, *teams]
        at = options.index(value) if value in options else 0
        return st.selectbox(q.label, options, index=at, key=key, format_func=team_label)
    if q.kind == "choice":
        options = ["pretrain", "adapt"]
        return st.radio(q.label, options, index=options.index(value) if value in options
                        else None, key=key, horizontal=True, format_func=words)  # fmt: skip
    return st.multiselect(q.label, list(PRACTICES), default=value or [], key=key,
                          format_func=words)  # fmt: skip


def render_quick(plan: InterviewPlan) -> None:
    st.markdown("#### A quick plan")
    st.caption(
        f"{len(QUICK_INPUTS)} inputs that reach every item of the rubric, then the "
        f"{FOLLOWUP_CALLS} follow-ups: {len(QUICK_INPUTS) + FOLLOWUP_CALLS} in all. It becomes "
        "the same plan as the full form, run and judged the same way, and you can deepen it "
        "there afterwards. What you leave empty counts as not done."
    )
    teams = list(base_scenario(plan.base).team_ids)
    old = st.session_state.get(QUICK_VALUES, {})
    with st.form("iv_quick_form", border=True):
        values = {}
        for q in QUICK_INPUTS:
            values[q.id] = quick_widget(q, teams, old)
        submitted = st.form_submit_button("Use this quick plan", type="primary",
                                          icon=":material/bolt:")  # fmt: skip
    if submitted:
        st.session_state[QUICK_VALUES] = values
        built = quick_plan(values, plan)
        notice = "Your quick plan is the answer: play the follow-ups, then read the debrief."
        if built.left_out:
            asked = "; ".join(f"{shown(r)[0]} ({r.sentence})" for r in built.left_out)
            notice += (f" {len(built.left_out)} readings the tool was unsure of were left out, "
                       f"never guessed; add them in Part 1 and Part 2: {asked}")  # fmt: skip
        replace_plan(built.plan, notice)
        st.session_state[STEP] = 3
        st.rerun()


def show_world(world: Scenario) -> None:
    obj, b = world.objective, world.objective.budget
    st.markdown("#### The project you are planning")
    row = st.columns(4)
    row[0].metric("Deadline", f"{obj.deadline_days:g} days")
    row[1].metric("Budget", usd(b.total_usd), help="compute, people, data licensing, annotation")
    m = world.model
    if world.levers.strategy == "adapt" and m.base_model is not None:
        row[2].metric("Model (adapted)", f"{m.base_model.params_b:g}B", help=m.base_model.name)
    else:
        row[2].metric("Model (from scratch)", f"{m.params_b:g}B",
                      help=f"{m.tokens_b:,.0f}B tokens")  # fmt: skip
    row[3].metric("Cluster", f"{world.cluster.gpus:,} {world.cluster.gpu.upper()}")
    kinds = {e.id: words(e.kind) for e in obj.evals}
    targets = "; ".join(
        f"{words(t.capability)} by {words(t.eval)} ({kinds[t.eval]}) at least {points(t.threshold)}"
        for t in obj.targets
    )
    st.markdown(
        f"**For:** {obj.product_use}. **Targets** (in {term_link('points', 'points out of 100')})"
        f": {targets}."
    )


@st.cache_resource(show_spinner=False)
def practice_store(url: str) -> PracticeStore:
    return PracticeStore(make_engine(url))


def option_label(q: ClarifyingQuestion, option_id: str) -> str:
    return q.option(option_id).label


def clarification_answer(q: ClarifyingQuestion, pick: str | None, current: str) -> ClarifyingOption:
    """The option picked; with none (a radio that returns None), the plan's, else the first."""
    for option_id in (pick, current):
        if option_id is not None and any(o.id == option_id for o in q.options):
            return q.option(option_id)
    return q.options[0]


def store_problem(exc: SQLAlchemyError) -> str:
    """Why saved sessions are unavailable, in one line: the driver's first line, else the error's.

    A driver error with an empty message is named by its class (the message has no line).
    """
    url = make_url(database_url()).render_as_string(hide_password=True)
    cause: BaseException = exc
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        cause = exc.orig
    lines = [line for line in str(cause).splitlines() if line.strip()]
    reason = lines[0].strip() if lines else type(cause).__name__
    return f"Saved sessions are unavailable: cannot use the database at {url} ({reason})."


def save_session(plan: InterviewPlan, report: RubricReport) -> None:
    try:
        store = practice_store(database_url())
        sid = store.save(plan, report, session_markdown(plan, report), minutes=minutes_used())
    except SQLAlchemyError as exc:
        st.session_state[STORE_ERROR] = store_problem(exc)
        return
    st.session_state[SAVED] = (sid, plan_digest(plan) + str(len(plan.followups)))


def held_review(plan: InterviewPlan) -> LlmNotes | None:
    """The language model's notes kept for this very plan, if it was asked about it."""
    held = st.session_state.get(LLM)
    if isinstance(held, tuple) and held[0] == plan_digest(plan) and isinstance(held[1], LlmNotes):
        return held[1]
    return None


def show_items(plan: InterviewPlan, report: RubricReport) -> None:
    answers = model_answers(plan, report.followups) if report.revealed else {}
    review = held_review(plan)
    notes = review.notes if review is not None else {}
    for part in dict.fromkeys(i.part for i in report.items):
        st.markdown(f"##### {part}")
        for item in (i for i in report.items if i.part == part):
            label = f"{ICON[item.status]} **{item.title}**: {STATUS_LABEL[item.status]}"
            with st.expander(label, expanded=item.status in ("partly", "missed")):
                st.markdown("\n".join(f"- {e}" for e in item.evidence))
                if item.claims:
                    st.markdown(said_line(item))
                if item.status != "met":
                    st.markdown(f":material/lightbulb: **A strong answer:** {item.strong}")
                if item.id in answers:
                    st.markdown(f":material/school: **Model answer for this project:**\n\n"
                                f"{answers[item.id]}")  # fmt: skip
                if review is not None and item.id in notes:
                    st.markdown(f":material/smart_toy: **{review.model}** (not part of the "
                                f"score): {notes[item.id]}")  # fmt: skip


def said_line(item: Any) -> str:
    """An item's claims in plain words: how many right, thin and wrong, and each wrong one."""
    n = {s: sum(c.stance == s for c in item.claims) for s in ("sound", "thin", "unsound")}
    text = (f":material/fact_check: **What you said here:** {n['sound']} right, "
            f"{n['thin']} too thin to credit, {n['unsound']} wrong.")  # fmt: skip
    wrong = [c.evidence or c.name for c in item.claims if c.stance == "unsound"]
    return text + "".join(f"\n- :red[Wrong:] {w}" for w in wrong)


SHORT_NAMES = {YOUR_DESIGN: "yours", SCENARIO_PLAN: "scenario's", NEGLECTED: "siloed"}


def outcome_table(outcome: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per measure, one narrow column per design, so it fits beside the items."""
    measures = (("all met", "p_success"), ("on time", "p_on_time"),
                ("on budget", "p_on_budget"), ("quality met", "p_quality_met"))  # fmt: skip
    return pd.DataFrame(
        {"": [m for m, _ in measures]}
        | {SHORT_NAMES.get(name, name): [f"{s[k]:.0%}" for _, k in measures]
           for name, s in outcome.items()}
    )  # fmt: skip


def render_debrief(plan: InterviewPlan) -> None:
    st.markdown("#### Debrief: your answer against the rubric")
    outcome = outcome_for(plan)
    report = judge(plan, outcome, revealed_for(plan), reveal=handed_in_here(plan))
    mine = outcome.get("Your design", {})
    row = st.columns(7)
    row[0].metric("Rubric score", f"{report.score:.0%}", help="Partly met counts half.")
    row[1].metric("Met", report.counts["met"])
    row[2].metric("Partly met", report.counts["partly"])
    row[3].metric("Missed", report.counts["missed"])
    (_, _, covered), (_, sound, said), (_, grade, graded) = report.standing()
    row[4].metric("Soundness", sound, help=f"Of what you said: {said}.")
    row[5].metric("Grade", grade, help=f"{graded}.")
    row[6].metric(
        "All objectives met",
        f"{mine.get('p_success', 0.0):.0%}",
        help="Your design: the share of simulated worlds where it is on time, on budget and "
        "meets every quality target. " + term_help("success"),
    )
    st.caption(f"**Score** (coverage): {covered}. **Soundness**: {said}. **Grade**: {graded}.")
    items, side = st.columns([3, 2], gap="large")
    with items:
        if not report.revealed:
            st.info(
                "These verdicts are for the answer as it stands. **Hand it in** to lock it and "
                "see the model answer for every item, with the worked compute estimate for your "
                "project; after that a new answer is a new attempt.", icon=":material/lock_open:",
            )  # fmt: skip
            st.button("Hand in this attempt", key="iv_hand_in", on_click=hand_in,
                      type="primary", icon=":material/assignment_turned_in:")  # fmt: skip
        show_items(plan, report)
    with side:
        show_llm(plan, report)
    with side, st.container(border=True):
        st.markdown("**Your design in the model** (the same worlds for each)")
        st.dataframe(outcome_table(outcome), hide_index=True, width="stretch")
        st.caption("Yours, the scenario's own design, and the siloed one with no owners, "
                   "reserve or playbook.")  # fmt: skip
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


def revealed_for(plan: InterviewPlan) -> list[float]:
    """Compute figures earlier debriefs showed (this session's, and saved ones of this candidate),
    to flag a copied estimate."""
    own = attempt_digest(plan)
    shown = [x for digest, x in st.session_state.get(SHOWN, []) if digest != own]
    if not plan.candidate:
        return shown
    try:
        return shown + practice_store(database_url()).revealed_estimates(plan.candidate, plan)
    except SQLAlchemyError:
        return shown


def show_llm(plan: InterviewPlan, report: RubricReport) -> None:
    config = llm_config()
    if config is None:
        return
    with st.container(border=True):
        st.markdown(f"**A second opinion from {config.model}** (optional; never part of the "
                    "score)")  # fmt: skip
        review = held_review(plan)
        if review is not None:
            if review.error:
                st.warning(review.error, icon=":material/cloud_off:")
            else:
                st.caption(f"Its notes are beside the verdicts, {len(review.notes)} items.")
        st.button("Ask the language model", key="iv_ask_llm", on_click=ask_llm,
                  args=(plan, report), icon=":material/smart_toy:")  # fmt: skip


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
    items = store.item_progress(candidate or None)
    if not items.empty:
        titles = {spec.id: spec.title for spec in ITEMS}
        st.plotly_chart(charts.item_progress_figure(items, titles), key="iv_item_progress")
        st.caption(
            "Green: met; orange: partly met; red: missed or not played; grey: left out "
            "of that attempt's score (a situation that never arose, no simulation)."
        )
    shown = progress.assign(
        saved=progress["saved_at"].dt.strftime("%Y-%m-%d %H:%M"),
        score=progress["score"].map("{:.0%}".format),
        design=progress["p_success"].map(lambda v: "" if pd.isna(v) else f"{v:.0%}"),
    )[["attempt", "saved", "score", "met", "partly", "missed", "design"]]
    table.dataframe(shown.iloc[::-1], hide_index=True, width="stretch")
    labels = {
        int(r["id"]): f"attempt {r['attempt']}, {r['saved_at']:%Y-%m-%d %H:%M}, "
        f"score {r['score']:.0%}"
        for r in records(progress)
    }

    def label(session_id: int) -> str:
        return labels[session_id]

    pick = table.selectbox(
        "Read a past session", list(labels)[::-1], format_func=label, key="iv_past_pick"
    )
    if pick is not None:
        with st.expander(f"The whole session: {labels[pick]}"):
            st.markdown(store.load(int(pick)).markdown)


def show_locked(plan: InterviewPlan) -> None:
    st.info(
        "This attempt was handed in, so it is read only; the debrief shows the model's "
        "answers once it is handed in in this session. Start another attempt to answer again.",
        icon=":material/lock:",
    )  # fmt: skip
    st.button("Start another attempt", key="iv_new_attempt_locked", on_click=new_attempt,
              icon=":material/restart_alt:")  # fmt: skip
    with st.container(border=True):
        st.markdown("\n".join(plan_lines(plan)))


def hand_in() -> None:
    """Lock the attempt and unlock its model answers, for this session only."""
    plan = plan_now()
    if plan.judged_at is None:
        plan = plan.model_copy(update={"judged_at": datetime.now(UTC).isoformat()})
        set_plan(plan)
    digest = attempt_digest(plan)
    st.session_state.setdefault(HANDED_IN, set()).add(digest)
    st.session_state.setdefault(SHOWN, []).append((digest, model_compute_usd(plan)))


def ask_llm(plan: InterviewPlan, report: RubricReport) -> None:
    config = llm_config()
    if config is not None:
        st.session_state[LLM] = (plan_digest(plan), llm_notes(plan, report, config))


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
    if step in (0, 1, 2) and locked(plan):
        show_locked(plan)
    elif step == 0:
        plan = render_question(plan)
    elif step == 1:
        plan = render_part1(plan)
    elif step == 2:
        plan = render_part2(plan)
    elif step == 3:
        render_followups(plan)
    else:
        render_debrief(plan)
    if step in (0, 1, 2) and not locked(plan):
        set_plan(plan)
    if step < len(STEPS) - 1:
        st.button(
            f"Next: {STEPS[step + 1]}", key="iv_next", on_click=go, args=(step + 1,),
            type="primary", icon=":material/arrow_forward:",
        )  # fmt: skip


if __name__ == "__main__":
    render()
