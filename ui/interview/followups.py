"""Interview page, the follow-ups: each played live on the candidate's design.

A follow-up starts a ``sim.play.game.Game`` (``sim.interview.followups.start_followup``) in
a world where its situation arises; the game waits for the candidate only on the
follow-up's kind of decision. Games live in session state until they end; the result
goes into the plan, where the rubric reads it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from sim.interview.followups import (
    FOLLOWUPS,
    SEARCH_SEEDS,
    eval_noise,
    find_world,
    followup_result,
    followup_scenario,
    situation,
    start_followup,
    unplayable_result,
)
from sim.interview.plan import (
    InterviewPlan,
)
from sim.interview.prose_followups import play_read_followup, read_followup
from sim.scenario.spec import DECISION_OPTIONS, Scenario
from sim.scenario.vocabulary import OPTION_HELP
from ui.common import (
    esc,
    usd,
    words,
)
from ui.interview import charts
from ui.interview.common import (
    plan_now,
    set_plan,
)


def game_key(fid: str) -> str:
    return f"iv_game_{fid}"


def answered_key(fid: str) -> str:
    """The decisions the candidate answered in this follow-up (the rest: the playbook)."""
    return f"iv_game_{fid}_answered"


@st.cache_data(show_spinner=False, max_entries=32)
def world_for(scenario_json: str, fid: str) -> tuple[int | None, int]:
    return find_world(Scenario.model_validate_json(scenario_json), fid)


def play_followup(fid: str) -> None:
    plan = plan_now()
    scenario = followup_scenario(plan, fid)
    seed, count = world_for(scenario.model_dump_json(by_alias=True), fid)
    st.session_state[f"iv_count_{fid}"] = count
    if seed is None:
        set_plan(plan.with_followup(unplayable_result(scenario, fid)))
        return
    game = start_followup(scenario, fid, seed)
    st.session_state[answered_key(fid)] = []
    st.session_state[game_key(fid)] = (game, situation(game))
    if game.pending is None:  # never expected: the search played the same world
        finish_followup(fid)


def answer_followup(fid: str, key: str, option: str) -> None:
    held = st.session_state.get(game_key(fid))
    if held is None:
        return
    game, seen = held
    if game.pending is None or game.pending.key != key:
        return  # a stale click
    st.session_state.setdefault(answered_key(fid), []).append(key)
    game.decide(option)
    game.advance()
    if game.finished or game.pending is None:
        finish_followup(fid)


def finish_followup(fid: str) -> None:
    """Play the rest by the playbook and record the result in the plan."""
    game, seen = st.session_state.pop(game_key(fid))
    game.play_to_end()
    why = st.session_state.get(f"iv_why_{fid}", "")
    answered = st.session_state.pop(answered_key(fid), [])
    set_plan(plan_now().with_followup(followup_result(game, fid, seen, why, answered)))


def replay_followup(fid: str) -> None:
    plan = plan_now()
    set_plan(plan.model_copy(update={"followups": [f for f in plan.followups if f.id != fid]}))
    st.session_state.pop(game_key(fid), None)
    st.session_state.pop(answered_key(fid), None)


def render_followups(plan: InterviewPlan) -> None:
    st.markdown("#### The follow-up questions, as live incidents on your design")
    st.caption(
        "Each follow-up plays your design (team, owners, decision rights, gates, reserve, "
        "playbook) forward in a world where the situation really arises. The model stops where "
        "the interviewer's question does and you make the call; your playbook answers "
        "everything else. Afterwards, every other option is replayed in the same world."
    )
    for fid, f in FOLLOWUPS.items():
        with st.container(border=True):
            st.markdown(f"##### {f.title}")
            st.markdown(f"*{f.question}*")
            st.caption(f.setup)
            held = st.session_state.get(game_key(fid))
            done = plan.followup(fid)
            if held is not None:
                show_followup_decision(fid, *held)
            elif done is not None:
                show_followup_result(fid, done)
            else:
                st.button(
                    "Play it on my design",
                    key=f"iv_play_{fid}",
                    on_click=play_followup,
                    args=(fid,),
                    icon=":material/play_arrow:",
                )
                answer_in_words(fid)


def show_followup_decision(fid: str, game: Any, seen: dict[str, float]) -> None:
    point = game.pending
    if point is None:
        return
    count = st.session_state.get(f"iv_count_{fid}")
    if count:
        st.caption(
            f"The situation arose on your design in {count} of {SEARCH_SEEDS} worlds searched; "
            f"this is world {game.log.seed}."
        )
    if fid == "loss_spike" and game.scenario.levers.strategy == "adapt":
        st.caption("Your design adapts a base model, so the spike strikes in the adaptation run.")
    path = game.model.org.signal_path(point.detected_by, point.owner)
    if path.hops:
        reach = (
            f"{point.detected_by.capitalize()} saw it; it took **{point.latency_days:.1f} days** "
            f"to reach **{point.owner}**, who holds the `{point.kind}` right "
            f"({' → '.join(path.teams)})."
        )
    else:
        reach = (
            f"**{point.owner.capitalize()}** saw it and holds the `{point.kind}` right, so there "
            f"is no hand-off"
            + (f" (deliberation: {point.latency_days:.1f} days)." if point.latency_days else ".")
        )
    st.markdown(
        f"**Day {point.day:.0f} · {point.summary}.** {reach} **You decide as {point.owner}.**"
    )
    show_situation(game, seen)
    agreed = game.scenario.levers.playbook.get(point.kind, [])
    if agreed:
        st.caption("What your plan agreed in advance: " + " → ".join(words(o) for o in agreed))
    st.text_input("Your reasoning (optional, goes into the debrief)", key=f"iv_why_{fid}")
    for option in point.options:
        button, text = st.columns([1, 3], vertical_alignment="center")
        button.button(
            words(option), key=f"iv_decide_{fid}_{point.key}_{option}", on_click=answer_followup,
            args=(fid, point.key, option), width="stretch",
        )  # fmt: skip
        text.markdown(OPTION_HELP.get(option, ""))
    if st.session_state.get(answered_key(fid)):
        # The question asks for the first call; the later ones may be left to what was
        # agreed in advance, as an answer in words that names one call is.
        st.button(
            "Leave the rest to my playbook", key=f"iv_rest_{fid}", on_click=finish_followup,
            args=(fid,), icon=":material/fast_forward:",
        )  # fmt: skip


def show_situation(game: Any, seen: dict[str, float]) -> None:
    point = game.pending
    if point.kind == "ship":
        kinds = {e.id: e.kind for e in game.scenario.objective.evals}
        bars = {t.eval: t.threshold for t in game.scenario.objective.targets}
        noise = eval_noise(game.scenario, seen)
        items = {e.id: e.items for e in game.scenario.objective.evals}
        rows = [
            (
                ev,
                words(kinds.get(ev, "")),
                round(score, 3),
                bars.get(ev),
                f"±{noise.get(ev, 0.0):.3f} ({items.get(ev, 0)} items)",
                "" if ev not in bars else "✓ met" if score >= bars[ev] else "✗ below target",
            )
            for ev, score in seen.items()
        ]
        columns = ["eval", "kind", "score", "target", "sampling noise (1 sd)", ""]
        frame = pd.DataFrame(rows, columns=columns)
        st.dataframe(frame, hide_index=True, width="content")
    elif point.kind == "budget":
        st.markdown(
            f"Gap to close: **{usd(point.context.get('gap_usd', 0.0))}**; reserve left: "
            f"**{usd(game.model.plan.reserve_left)}**."
        )


def show_followup_result(fid: str, r: Any) -> None:
    if not r.decisions:
        st.info(
            "The situation did not arise on your design in any of the worlds searched, so "
            "there is no call to make.",
            icon=":material/info:",
        )
        st.button("Try again", key=f"iv_again_{fid}", on_click=replay_followup, args=(fid,))
        return
    calls = " → ".join(words(d.choice) for d in r.mine) or "nothing"
    auto = " → ".join(words(d.choice) for d in r.decisions if d.by != "candidate")
    finish = f"day {r.schedule_days:.0f}" + (
        f" (deadline {r.deadline_days:g})" if r.deadline_days else ""
    )
    cost = usd(r.cost_usd) + (f" (budget {usd(r.budget_usd)})" if r.budget_usd else "")
    verdict = "every objective met" if r.success else "not every objective met"
    text = (
        f"You chose **{calls}**."
        + (f" Your playbook then chose {auto} (its calls, not yours)." if auto else "")
        + f" The project finished on {finish} for {cost}: {verdict}."
    )
    if r.quality_given_up is not None:
        given = max(0.0, r.quality_given_up)
        text += (
            f" Quality given up to the cut: {given:.3f} of mean eval score, against the same "
            "world without it."
        )
    st.info(text, icon=":material/flag:")
    if r.rationale:
        st.caption(f"Your reasoning: {r.rationale}")
    st.caption("Played on your design as it was then; after changing the plan, play it again.")
    if r.alternatives:
        alternatives = [a.model_dump() for a in r.alternatives]
        first = (r.mine or r.decisions)[0].choice
        fig = charts.alternatives_figure(alternatives, first)
        st.plotly_chart(fig, key=f"iv_alt_{fid}")
        st.caption(
            f"Each bar replays another answer to your first call ({words(first)}) in the same "
            "world; every later call in those replays was made by your playbook, not by you."
        )
    st.button("Play it again", key=f"iv_again_{fid}", on_click=replay_followup, args=(fid,))


# --- a follow-up answered in words ------------------------------------------------------------

#: The option the candidate picks for a reading that is none of the calls.
NO_CALL = "none of these"


def words_key(fid: str) -> str:
    """What the reader last read from the answer in words: (the text, the FollowupReading)."""
    return f"iv_fuwords_{fid}"


def ask_key(fid: str, i: int) -> str:
    return f"iv_fuask_{fid}_{i}"


def read_words(fid: str) -> None:
    text = st.session_state.get(f"iv_futext_{fid}", "")
    for key in [k for k in st.session_state if str(k).startswith(f"iv_fuask_{fid}_")]:
        del st.session_state[key]
    st.session_state[words_key(fid)] = (text, read_followup(fid, text))


def confirmed_calls(fid: str) -> list[str] | None:
    """The calls read, each unsure one as the candidate confirmed or corrected it (None: a
    question is still open)."""
    held = st.session_state.get(words_key(fid))
    if held is None:
        return None
    calls = []
    for i, r in enumerate(held[1].readings):
        if not r.unsure:
            calls.append(r.value)
            continue
        pick = st.session_state.get(ask_key(fid, i))
        if pick is None:
            return None
        if pick != NO_CALL:
            calls.append(pick)
    return calls


def play_words(fid: str) -> None:
    """Play the calls read from the words, confirmed, exactly as the form's follow-up plays."""
    held, calls = st.session_state.get(words_key(fid)), confirmed_calls(fid)
    if held is None or not calls:
        return
    plan = plan_now()
    result = play_read_followup(plan, fid, calls, held[0].strip()[:2_000])
    if result is not None:
        set_plan(plan.with_followup(result))
    st.session_state.pop(words_key(fid), None)


def answer_in_words(fid: str) -> None:
    """Answer the follow-up as in the room: the calls are read from the words, each shown with
    its sentence; the reader asks about any it is unsure of; then they are played."""
    with st.expander("Or answer in words, as you would in the room"):
        text = st.text_area(
            "Your answer", key=f"iv_futext_{fid}", max_chars=2_000, height=100,
            help="Say what you would do, in order (\"roll back to the last good checkpoint; if "
            "it spikes again, pause and investigate\"), and why. Your words are also your "
            "reasoning in the debrief.",
        )  # fmt: skip
        st.button("Read my answer", key=f"iv_furead_{fid}", on_click=read_words, args=(fid,),
                  disabled=not text.strip(), icon=":material/auto_stories:")  # fmt: skip
        held = st.session_state.get(words_key(fid))
        if held is None or held[0] != text:
            return
        read = held[1]
        if not read.readings:
            st.warning("No call could be read from it: name what you would do (roll back, use "
                       "the reserve, ship, another round…), or play it with the buttons.",
                       icon=":material/info:")  # fmt: skip
            return
        frame = pd.DataFrame(
            [(words(r.value), "asks you" if r.unsure else "sure", r.sentence)
             for r in read.readings],
            columns=["call read", "reading", "from the sentence"],
        )  # fmt: skip
        st.dataframe(frame, hide_index=True, width="stretch")
        options = list(DECISION_OPTIONS[FOLLOWUPS[fid].asks])
        for i, r in enumerate(read.readings):
            if r.unsure:
                st.radio(
                    f"From “{esc(r.sentence)}” I read **{words(r.value)}**, but I am not sure. "
                    "Which call is it?",
                    [*options, NO_CALL], index=None, key=ask_key(fid, i),
                    format_func=lambda o: o if o == NO_CALL else words(o), horizontal=True,
                )  # fmt: skip
        calls = confirmed_calls(fid)
        if calls is None:
            st.caption("Answer the question above first: an unsure reading is asked, never "
                       "guessed.")  # fmt: skip
        elif not calls:
            st.caption("No call left to play.")
        else:
            st.caption("Your calls, in order: " + " → ".join(words(c) for c in calls) + ". "
                       "They are played on your design in the world the buttons would play, "
                       "your playbook answering after them.")  # fmt: skip
        st.button("Play these calls on my design", key=f"iv_fuplay_{fid}", on_click=play_words,
                  args=(fid,), disabled=not calls, type="primary",
                  icon=":material/play_arrow:")  # fmt: skip
