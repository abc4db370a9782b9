"""Tabletop, facilitator's page: create an exercise from a scenario (with its inject list),
share the room code, move the clock, deliver injects, watch the hidden view (expected
actions, learning points, the model's live state), then the hot wash and the report.

The page keeps only the room code and the facilitator key in ``st.session_state``; every
rule is the service's (``sim.tabletop.service``), and the view is re-read whenever the
exercise changes (a fragment polls its version).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pandas as pd
import streamlit as st

from sim.loading import scenario_yaml
from sim.scenario import Scenario
from sim.tabletop.authoring import InjectSpec, facilitator_guide, inject_list, situation_manual
from sim.tabletop.clock import scenario_of
from sim.tabletop.document import md_escape as esc
from sim.tabletop.service import TabletopService
from ui import tabletop_common as tt
from ui.common import OPTION_HELP, pick_scenario, words

ROOM, KEY, FRESH, SEEN, NOTICE = (
    "tt_fac_room",
    "tt_fac_key",
    "tt_fac_fresh",
    "tt_fac_seen",
    "tt_fac_notice",
)
PREFER = "followup_loss_spike.yaml"


# --- before the exercise: create or resume ---------------------------------------------------


def _msel_editor(scenario: Scenario, source: str) -> list[InjectSpec]:
    """The default inject list, with each inject switched on or off and its trigger moved."""
    injects = inject_list(scenario)
    frame = pd.DataFrame(
        [
            {
                "use": True,
                "inject": i.title,
                "when": i.trigger.describe(),
                "day": i.trigger.day,
                "threshold": None if i.trigger.day is not None else i.trigger.threshold,
                "raises": i.decision_kind or "—",
            }
            for i in injects
        ]
    )
    edited = st.data_editor(
        frame,
        key=f"tt_msel_{source}",
        hide_index=True,
        width="stretch",
        disabled=["inject", "when", "raises"],
        column_config={
            "use": st.column_config.CheckboxColumn("use", help="Leave an inject out."),
            "day": st.column_config.NumberColumn("day", min_value=0.0, max_value=10_000.0,
                                                 help="Timed injects: the day it fires."),
            "threshold": st.column_config.NumberColumn(
                "threshold", min_value=0.0, max_value=1.0, step=0.01, format="%.2f",
                help="State-triggered injects: the share at which it fires."),
        },
    )  # fmt: skip
    chosen = []
    for spec, row in zip(injects, edited.to_dict("records"), strict=True):
        if not row["use"]:
            continue
        trigger = spec.trigger
        if trigger.day is not None and _number(row["day"]) is not None:
            trigger = dataclasses.replace(trigger, day=_number(row["day"]))
        elif trigger.day is None and _number(row["threshold"]) is not None:
            trigger = dataclasses.replace(trigger, threshold=_number(row["threshold"]))
        chosen.append(dataclasses.replace(spec, trigger=trigger))
    return chosen


def _number(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _create(text: str, seed: int, title: str, injects: list[InjectSpec]) -> None:
    created = tt.attempt(
        lambda: tt.service().create_exercise(text, seed=seed, title=title or None, injects=injects),
        NOTICE,
    )
    if created is not None:
        st.session_state[ROOM], st.session_state[KEY] = created.room_code, created.facilitator_key
        st.session_state[FRESH] = True


def _resume(room: str, key: str) -> None:
    if tt.attempt(lambda: tt.service().open_as_facilitator(room, key), NOTICE) is not None:
        st.session_state[ROOM], st.session_state[KEY] = room, key


def entrance() -> None:
    st.title("Tabletop exercise: facilitator")
    st.caption(
        "Run a scenario with a group. Players join from their own browsers with the room "
        "code and take roles; each role holds decision rights from the scenario's org graph. "
        "You move the clock; injects arrive on their triggers; only the player holding a "
        "right may make that decision, with a written rationale. At the end: a hot wash and "
        "an after-action report with an improvement plan."
    )
    create, resume = st.tabs(["Create an exercise", "Resume an exercise"])
    with create:
        picked = pick_scenario("tt_fac_scenario", prefer=PREFER)
        if picked is None:
            return
        scenario, source = picked
        cols = st.columns([3, 1])
        title = cols[0].text_input("Title", value=scenario.name, max_chars=120)
        seed = int(cols[1].number_input("Seed", 0, 2**31 - 1, 0, help="The world the room plays."))
        st.markdown(
            "**Inject list** (master scenario events list): switch injects off or move their "
            "triggers; the expected actions stay on your side only."
        )
        injects = _msel_editor(scenario, source)
        if st.button("Create the exercise", type="primary", icon=":material/add_circle:"):
            _create(scenario_yaml(scenario), seed, title, injects)
            st.rerun()
    with resume, st.form("tt_resume"):
        room = st.text_input("Room code")
        key = st.text_input("Facilitator key", type="password")
        if st.form_submit_button("Resume", icon=":material/replay:"):
            _resume(room, key)
            st.rerun()


# --- running the exercise --------------------------------------------------------------------


def controls(view: dict[str, Any], room: str, key: str) -> None:
    svc = tt.service()
    status = view["exercise"]["status"]
    waiting = view["pending"] is not None
    finished = view["situation"]["finished"]
    still = status != "running" or waiting or finished
    cols = st.columns([2.4, 1.1, 1.5, 1.1, 1.7], vertical_alignment="bottom")
    cols[0].button(
        "Advance to the next inject", type="primary", icon=":material/fast_forward:",
        disabled=still, key="tt_next", width="stretch",
        on_click=tt.attempt, args=(lambda: svc.advance(room, key), NOTICE),
    )  # fmt: skip
    clock = int(math.floor(view["exercise"]["clock_day"]))
    day = cols[1].number_input(
        "Day", min_value=0, max_value=10_000, key=f"tt_day_{clock}", step=1, value=clock + 7,
        help="Advance the clock to this day; injects due on the way are delivered.",
    )  # fmt: skip
    cols[2].button(
        "Advance to day", icon=":material/event:", disabled=still, key="tt_to_day",
        on_click=tt.attempt, args=(lambda: svc.advance(room, key, until_day=float(day)), NOTICE),
    )  # fmt: skip
    if status == "paused":
        cols[3].button("Resume", icon=":material/play_arrow:", key="tt_resume_btn",
                       on_click=tt.attempt,
                       args=(lambda: svc.set_status(room, key, "running"), NOTICE))  # fmt: skip
    else:
        cols[3].button("Pause", icon=":material/pause:", key="tt_pause",
                       disabled=status == "ended", on_click=tt.attempt,
                       args=(lambda: svc.set_status(room, key, "paused"), NOTICE))  # fmt: skip
    cols[4].button(
        "End the exercise", icon=":material/stop_circle:", key="tt_end",
        disabled=status == "ended", on_click=tt.attempt,
        args=(lambda: svc.set_status(room, key, "ended"), NOTICE, "The exercise has ended."),
    )  # fmt: skip
    if waiting:
        st.caption("The clock waits for the decision below.")
    elif finished and status != "ended":
        st.caption("The project has finished: end the exercise for the hot wash and the report.")


def pending(view: dict[str, Any], room: str, key: str) -> None:
    p = view["pending"]
    if p is None:
        return
    with st.container(border=True, key="tt_fac_pending"):
        tt.decision_card(view)
        hint = view["hidden"]["playbook_choice"]
        st.caption(f"The scenario's playbook would choose: {words(hint)}.")
        if p["holder"] is None:
            st.warning(f"Nobody holds {esc(p['role'])}: ask a player to take it, or settle it with "
                       "the playbook.", icon=":material/person_off:")  # fmt: skip
            st.button(
                "Settle with the playbook", key="tt_settle", icon=":material/menu_book:",
                on_click=tt.attempt,
                args=(lambda: tt.service().resolve_with_playbook(room, key), NOTICE),
            )  # fmt: skip


def msel(view: dict[str, Any], room: str, key: str) -> None:
    """The hidden view of the inject list: what each inject is for, and where it stands."""
    waiting = [i for i in view["msel"] if i["status"] == "pending"]
    latest = max((i["delivered_day"] or 0.0 for i in view["msel"]), default=None)
    for i in view["msel"]:
        delivered = i["status"] == "delivered"
        when = f"delivered day {i['delivered_day']:.1f}" if delivered else f"waiting: {i['when']}"
        with st.expander(f"{esc(i['title'])} · {when}",
                         icon=":material/check_circle:" if delivered else ":material/schedule:",
                         expanded=delivered and i["delivered_day"] == latest):  # fmt: skip
            st.markdown(f"> {esc(i['message'])}")
            if i["decision_kind"]:
                expected = ", ".join(words(o) for o in i["expected_options"]) or "any"
                st.markdown(f"**Raises:** a `{i['decision_kind']}` decision · "
                            f"**expected choice:** {expected}")  # fmt: skip
            st.markdown(
                "**Expected actions**\n" + "\n".join(f"- {esc(a)}" for a in i["expected_actions"])
            )
            st.markdown(
                "**Learning points**\n" + "\n".join(f"- {esc(p)}" for p in i["learning_points"])
            )
            if i["engine_note"]:
                st.caption(i["engine_note"])
    if waiting and view["exercise"]["status"] == "running" and view["pending"] is None:
        cols = st.columns([3, 1], vertical_alignment="bottom")
        chosen = cols[0].selectbox("Deliver an inject now, whatever its trigger",
                                   [i["id"] for i in waiting], key="tt_deliver_pick",
                                   format_func=lambda x: next(i["title"] for i in waiting
                                                              if i["id"] == x))  # fmt: skip
        cols[1].button(
            "Deliver now", key="tt_deliver", icon=":material/campaign:", on_click=tt.attempt,
            args=(lambda: tt.service().deliver_inject(room, key, chosen), NOTICE),
        )  # fmt: skip


def hidden_model(view: dict[str, Any]) -> None:
    h = view["hidden"]
    m = h["metrics"]
    cols = st.columns(3)
    ett = m["effective_training_time"]
    cols[0].metric("Effective training time", "—" if ett is None else f"{ett:.1%}")
    cols[1].metric("Spend / budget", f"{m['spend_share']:.1%}")
    cols[2].metric("Main run trained", f"{m['run_progress']:.1%}")
    st.markdown("**Defects present but not found yet:** "
                + (", ".join(words(d) for d in h["hidden_defects"]) or "none"))  # fmt: skip
    evals = view["situation"]["evals"]
    if evals:
        rows = [{"eval": ev, "kind": words(info["kind"]), "measured": info["score"],
                 "true": h["true_scores"].get(ev), "target": info["threshold"]}
                for ev, info in evals.items()]  # fmt: skip
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.dataframe(pd.DataFrame(h["trace"]), hide_index=True, width="stretch", height=260)


def manuals(room: str, view: dict[str, Any]) -> None:
    state = tt.service().room(room)
    scenario = scenario_of(state.exercise.scenario_yaml)
    specs = [state.spec(i) for i in state.injects]
    st.download_button(
        "Situation manual for players (Markdown)",
        situation_manual(scenario, OPTION_HELP, view["exercise"]["title"]),
        "situation-manual.md", "text/markdown", icon=":material/download:", width="stretch",
    )  # fmt: skip
    st.download_button(
        "Facilitator guide with the inject list (Markdown)",
        facilitator_guide(scenario, specs), "facilitator-guide.md", "text/markdown",
        icon=":material/download:", width="stretch",
    )  # fmt: skip


def main() -> None:
    opened = tt.open_view((ROOM, KEY, NOTICE), TabletopService.facilitator_view, entrance)
    if opened is None:
        return
    room, key, view = opened
    tt.live(room, SEEN, view["exercise"]["version"])
    names = esc(", ".join(p["name"] for p in view["participants"]))
    count = len(view["participants"])
    players = f"{count} player{'s' if count != 1 else ''}: {names}" if count else "no players yet"
    tt.header(view, f"You are the facilitator · {players}")
    if st.session_state.get(FRESH):
        st.success(
            f"Exercise created. Give players the room code **`{room}`**: they join on the "
            "Tabletop: player page. Keep the facilitator key below: it is shown once, and you "
            "need it to resume this exercise.",
            icon=":material/key:",
        )
        st.code(key, language=None)
        st.button("I have kept the key", on_click=st.session_state.pop, args=(FRESH, None))
    tt.show_notice(NOTICE)
    controls(view, room, key)
    tt.situation(view)
    pending(view, room, key)
    if view["exercise"]["status"] == "ended":
        st.subheader("Hot wash")
        st.caption("Strengths and areas for improvement from the room, each with an owner.")
        tt.hot_wash(view, room, key, NOTICE)
        st.subheader("After-action report")
        tt.report(room)
    left, right = st.columns([3, 2], gap="large")
    with left:
        tabs = st.tabs(["Inject list (hidden)", "Model (hidden)", "Decisions"])
        with tabs[0]:
            msel(view, room, key)
        with tabs[1]:
            hidden_model(view)
        with tabs[2]:
            tt.decisions_table(view)
    with right:
        st.subheader("Players and roles")
        tt.roles_list(view)
        st.subheader("Comments")
        about = view["pending"]["key"] if view["pending"] else None
        tt.comment_form(room, key, about, NOTICE)
        tt.comments(view)
        st.subheader("Manuals")
        manuals(room, view)


main()
