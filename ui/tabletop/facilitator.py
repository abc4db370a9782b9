"""Tabletop, facilitator's page: create an exercise from a scenario (with its inject list),
share the room code, move the clock, deliver injects, watch the hidden view (expected
actions, learning points, the model's live state), then the hot wash and the report.

The page keeps the room code and the facilitator key in ``st.session_state`` and in the
page's address (so a reload or a restart keeps the exercise); the room opens to players
only once the facilitator has typed the key back, to show it is kept. Every rule is the
service's (``sim.tabletop.service``), and the view is re-read whenever the exercise
changes (a fragment polls its version).
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, get_args

import pandas as pd
import streamlit as st

from sim.glossary import term_help, term_link
from sim.play.game import INJECTIONS
from sim.scenario.loading import scenario_yaml
from sim.scenario.spec import DECISION_OPTIONS, DefectKind, Scenario
from sim.scenario.vocabulary import OPTION_HELP
from sim.tabletop.authoring import (
    MAX_MESSAGE,
    MAX_POINT,
    MAX_POINTS,
    MAX_TITLE,
    RAISES,
    STATE_METRICS,
    InjectSpec,
    Trigger,
    facilitator_guide,
    inject_list,
    situation_manual,
)
from sim.tabletop.clock import scenario_of
from sim.tabletop.service import TabletopService
from ui.common import pick_scenario, words
from ui.tabletop import common as tt
from ui.tabletop import wrapup

esc = tt.esc

ROOM, KEY, FRESH, SEEN, NOTICE, RUNNING = (
    "tt_fac_room",
    "tt_fac_key",
    "tt_fac_fresh",
    "tt_fac_seen",
    "tt_fac_notice",
    "tt_fac_running",
)
TICKED, STOP = "tt_fac_ticked", "tt_fac_stop_clock"
#: The facilitator link kept in the page's address (bound to this browser).
LINK = "tt_fac_link"
COUNTS, INJECTS = "tt_fac_counts", "tt_fac_injects"
PREFER = "followup_loss_spike.yaml"
#: The running clock: one tick every TICK_SECONDS moves the project this many days.
TICK_SECONDS = 2.0
PACES = {"half a day": 0.5, "a day": 1.0, "two days": 2.0, "a week": 7.0}


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
        day, threshold = _number(row["day"]), _number(row["threshold"])
        if trigger.day is not None and day is not None:
            trigger = dataclasses.replace(trigger, day=day)
        elif trigger.day is None and threshold is not None:
            trigger = dataclasses.replace(trigger, threshold=threshold)
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
        _keep_link(created.room_code, created.facilitator_key)  # a reload keeps the exercise


def _keep_link(room: str, key: str) -> None:
    """Keep a link bound to this browser in the page's address (never the key itself)."""
    link = tt.attempt(lambda: tt.service().facilitator_link(room, key, clients=tt.clients()),
                      NOTICE)  # fmt: skip
    if link is not None:
        st.session_state[LINK] = link
        tt.keep(room, link, tt.KEPT["tabletop-facilitator"])


def _resume(room: str, key: str) -> bool:
    """Open with the facilitator key (typed) or this browser's link (from the address)."""
    opened = tt.attempt(
        lambda: tt.service().open_as_facilitator(room, key, clients=tt.clients()), NOTICE
    )
    if opened is None:
        return False
    st.session_state[ROOM], st.session_state[KEY] = tt.code(room), key.strip()
    if tt.kept(tt.KEPT["tabletop-facilitator"]) != (room, key):  # typed: make this browser's link
        _keep_link(tt.code(room), key.strip())
    else:
        st.session_state[LINK] = key.strip()
    return True


def entrance() -> None:
    st.title("Tabletop exercise: facilitator")
    tt.drop_key_in_address(NOTICE, "facilitator key",
                           "Resume with the room code and the key instead.")  # fmt: skip
    st.caption(
        "Run a scenario with a group. Players join from their own browsers with the room "
        "code and take roles; each role holds "
        f"{term_link('decision-right', 'decision rights')} from the scenario's org graph. "
        f"You move the clock; {term_link('inject', 'injects')} arrive on their triggers; only "
        "the player holding a "
        "right may make that decision, with a written rationale. At the end: a hot wash and "
        "an after-action report with an improvement plan."
    )
    create, resume = st.tabs(["Create an exercise", "Resume an exercise"], key="tt_fac_tabs")
    with create:
        picked = pick_scenario("tt_fac_scenario", prefer=PREFER)
        if picked is None:
            return
        scenario, source = picked
        cols = st.columns([3, 1])
        title = cols[0].text_input("Title", value=scenario.name, max_chars=120)
        seed = int(cols[1].number_input("Seed", 0, 2**31 - 1, 0, help="The world the room "
                                        "plays. " + term_help("world")))  # fmt: skip
        st.markdown(
            "**Inject list** (master scenario events list): switch injects off or move their "
            "triggers; the expected actions stay on your side only. Once the exercise runs, "
            "you can also write injects of your own."
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
    running_clock(room, key, still)
    if waiting:
        st.caption("The clock waits for the decision below.")
    elif finished and status != "ended":
        st.caption("The project has finished: end the exercise for the hot wash and the report.")


def running_clock(room: str, key: str, still: bool) -> None:
    """Let the clock run on its own: every few seconds the project moves on, until an inject
    arrives, a decision waits, the project ends, or the facilitator stops or pauses it."""
    if still or st.session_state.pop(STOP, False):
        st.session_state[RUNNING] = False  # set before the toggle exists, as widgets require
    cols = st.columns([2.4, 2.2, 3.0], vertical_alignment="center")
    on = cols[0].toggle(
        "Run the clock", key=RUNNING, disabled=still,
        help="The clock runs by itself and stops at each inject, so the room can read it.",
    )  # fmt: skip
    pace = cols[1].selectbox(
        f"Every {TICK_SECONDS:g} s, move", list(PACES), index=1, key="tt_pace",
        label_visibility="collapsed", format_func=lambda p: f"{p} every {TICK_SECONDS:g} s",
    )  # fmt: skip
    if not on:
        return
    cols[2].caption(":material/timer: The clock is running; it stops at the next inject.")

    @st.fragment(run_every=TICK_SECONDS)
    def _tick() -> None:
        # The fragment also runs with every full rerun of the page: tick on the timer only.
        now = time.monotonic()
        if not st.session_state.get(RUNNING) or now - st.session_state.get(TICKED, -1e9) < (
            0.9 * TICK_SECONDS
        ):
            return
        st.session_state[TICKED] = now
        run = tt.attempt(lambda: tt.service().advance(room, key, by_days=PACES[pace]), NOTICE)
        if run is None or run.reason != "day":
            st.session_state[STOP] = True  # an inject, a decision, the end, or a refusal
        st.rerun()

    _tick()


def pending(view: dict[str, Any], room: str, key: str) -> None:
    p = view["pending"]
    if p is None:
        return
    with st.container(border=True, key="tt_fac_pending"):
        tt.decision_card(view)
        hint = view["hidden"]["playbook_choice"]
        st.caption(f"The scenario's {term_link('playbook')} would choose: {words(hint)}.")
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
            tt.plain(i["message"])
            if i["decision_kind"]:
                expected = ", ".join(words(o) for o in i["expected_options"]) or "any"
                st.markdown(f"**Raises:** a {words(i['decision_kind'])} decision · "
                            f"**expected choice:** {expected}")  # fmt: skip
            for heading, points in (("Expected actions", i["expected_actions"]),
                                    ("Learning points", i["learning_points"])):  # fmt: skip
                if points:
                    st.markdown(f"**{heading}**")
                    tt.plain("\n".join(f"• {a}" for a in points))
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


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in text.splitlines() if line.strip())[:MAX_POINTS]


def write_inject(view: dict[str, Any], room: str, key: str) -> None:
    """The facilitator's own inject: a message, a trigger, and what it sets off in the model."""
    if view["exercise"]["status"] == "ended":
        return
    # Keyed, with its open state kept in the session: the page reruns whenever anyone in the
    # room acts, and an expander redrawn at a new place (a row above it came or went) used to
    # close under the facilitator's typing.
    with st.expander("Write your own inject", icon=":material/edit_note:", key="tt_w_open",
                     on_change="rerun"):  # fmt: skip
        title = st.text_input("Title", max_chars=MAX_TITLE, key="tt_w_title",
                              placeholder="e.g. The cloud provider raises prices")  # fmt: skip
        message = st.text_area(
            "What the players read", max_chars=MAX_MESSAGE, key="tt_w_message", height=90,
            placeholder="The news as it reaches the room, in a few sentences.",
        )  # fmt: skip
        when = st.radio("When", ["now", "on a day", "when the model crosses a line"],
                        horizontal=True, key="tt_w_when")  # fmt: skip
        clock = float(view["exercise"]["clock_day"])
        trigger = Trigger(day=clock)
        if when == "on a day":
            day = st.number_input("Day", 0.0, 10_000.0, math.floor(clock) + 7.0, 1.0,
                                  key="tt_w_day")  # fmt: skip
            trigger = Trigger(day=float(day))
        elif when == "when the model crosses a line":
            cols = st.columns([2, 1, 1])
            metric = cols[0].selectbox("Watch", list(STATE_METRICS), key="tt_w_metric",
                                       format_func=STATE_METRICS.__getitem__)  # fmt: skip
            op = cols[1].selectbox("goes", ["below", "above"], key="tt_w_op")
            threshold = cols[2].number_input("share", 0.0, 1.0, 0.5, 0.05, key="tt_w_threshold")
            trigger = Trigger(metric=metric, op=op, threshold=float(threshold))  # type: ignore[arg-type]
        engine = st.selectbox(
            "What it sets off in the model", [None, *INJECTIONS], key="tt_w_engine",
            format_func=lambda k: "nothing: a message only" if k is None else words(k),
        )  # fmt: skip
        params: dict[str, Any] = {}
        if engine == "budget_cut":
            params["fraction"] = st.slider("Share of the remaining compute budget cut",
                                           0.05, 0.8, 0.2, 0.05, key="tt_w_fraction")  # fmt: skip
        elif engine == "departure":
            teams = [r["team"] for r in view["roles"]]
            names = {r["team"]: r["name"] for r in view["roles"]}
            params["team"] = st.selectbox(
                "Who leaves: a senior person from", teams, key="tt_w_team",
                format_func=names.__getitem__,
            )  # fmt: skip
        elif engine == "data_defect":
            params["kind"] = st.selectbox("The defect found", get_args(DefectKind),
                                          key="tt_w_defect", format_func=words)  # fmt: skip
        kind = RAISES.get(engine) if engine else None
        expected: list[str] = []
        if kind:
            expected = st.multiselect(
                f"It raises a `{kind}` decision: the choice you expect", DECISION_OPTIONS[kind],
                key="tt_w_expected", format_func=words,
            )  # fmt: skip
        actions = st.text_area(f"Expected actions (one per line; only you see them; at most "
                               f"{MAX_POINTS})", key="tt_w_actions", height=80)  # fmt: skip
        points = st.text_area("Learning points (one per line)", key="tt_w_points", height=80)
        too_long = [line for line in _lines(actions + "\n" + points) if len(line) > MAX_POINT]
        if too_long:
            st.warning(f"Each point is limited to {MAX_POINT} characters.")
        incomplete = not title.strip() or not message.strip() or bool(too_long)
        if st.button("Add to the inject list", icon=":material/add:", key="tt_w_add",
                     disabled=incomplete):  # fmt: skip
            spec = InjectSpec("custom", title, message, trigger, engine, params, kind,
                              tuple(expected), _lines(actions), _lines(points))  # fmt: skip
            svc = tt.service()
            added = tt.attempt(lambda: svc.add_inject(room, key, spec), NOTICE)
            if added is not None and when == "now":
                tt.attempt(lambda: svc.deliver_inject(room, key, added), NOTICE,
                           f"Delivered: {title.strip()}")  # fmt: skip
            elif added is not None:
                st.session_state[NOTICE] = ("success", f"Added to the inject list: {title.strip()} "
                                            f"({trigger.describe()})")  # fmt: skip
            st.rerun()


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
    title = view["exercise"]["title"]
    st.caption("The HTML versions print cleanly from a browser.")
    for fmt, ext, mime in (("html", "html", "text/html"), ("markdown", "md", "text/markdown")):
        tt.offer(
            st, f"Situation manual for players ({ext.upper()})",
            situation_manual(scenario, OPTION_HELP, title, fmt=fmt),  # type: ignore[arg-type]
            f"situation-manual.{ext}", mime, icon=":material/download:", width="stretch",
            key=f"tt_manual_{ext}", help="For players: the project, the roles, the rules.",
            on_click="ignore",
        )  # fmt: skip
        tt.offer(
            st, f"Facilitator guide with the inject list ({ext.upper()})",
            facilitator_guide(scenario, specs, fmt=fmt),  # type: ignore[arg-type]
            f"facilitator-guide.{ext}", mime, icon=":material/download:", width="stretch",
            key=f"tt_guide_{ext}", help="For you only: the inject list with expected actions.",
            on_click="ignore",
        )  # fmt: skip


def save_key(view: dict[str, Any], room: str, key: str) -> None:
    """Before the room opens: keep the facilitator key, and show it by typing it back."""
    st.success(
        f"Exercise created. Its room code is **`{room}`**. Before players can join, keep your "
        "facilitator key: it is shown only here, only its hash is stored, and without it "
        "nobody can run this exercise.", icon=":material/key:",
    )  # fmt: skip
    if st.session_state.get(FRESH):  # the key itself, this once
        with st.container(key="tt_fac_new_key"):
            st.code(key, language=None)
        st.download_button("Download the key (text file)", f"{room}\n{key}\n",
                           f"facilitator-key-{room.lower()}.txt", "text/plain",
                           icon=":material/download:", key="tt_key_download",
                           on_click="ignore")  # fmt: skip
    else:
        st.caption("The key was shown when the exercise was created; type it back below.")
    if st.session_state.get(LINK):
        st.caption("This page's address keeps a link that reopens the exercise in this browser "
                   "only (a reload keeps your place); from any other browser, resume with the "
                   "room code and the key.")  # fmt: skip
    with st.form("tt_open_room"):
        typed = st.text_input("Paste the facilitator key here to show you have kept it",
                              type="password", key="tt_confirm_key")  # fmt: skip
        if st.form_submit_button("Open the room to players", type="primary",
                                 icon=":material/door_open:"):  # fmt: skip
            if tt.attempt(lambda: tt.service().open_room(room, key, typed), NOTICE,
                          "The room is open: give players the room code.") is not None:  # fmt: skip
                st.session_state.pop(FRESH, None)
            st.rerun()


def roster(view: dict[str, Any], room: str, key: str) -> None:
    """Players (remove one) and roles (release or reassign one); all in the audit log."""
    svc = tt.service()
    seated = [p for p in view["participants"] if not p["removed"]]
    for p in seated:
        cols = st.columns([3, 1.3], vertical_alignment="center")
        roles = esc(", ".join(p["roles"])) or ":gray[no role]"
        org = f" · {esc(p['organisation'])}" if p["organisation"] else ""
        cols[0].markdown(f"**{esc(p['name'])}**{org} · {roles}")
        with cols[1].popover("Remove", icon=":material/person_remove:"):
            st.markdown(f"Remove **{esc(p['name'])}**? Their roles are freed and their key "
                        "stops working at once.")  # fmt: skip
            st.button("Remove this player", key=f"tt_remove_{p['id']}", type="primary",
                      on_click=tt.attempt, args=(lambda pid=p["id"]: svc.remove_player(
                          room, key, pid), NOTICE, f"{p['name']} was removed."))  # fmt: skip
    removed = [p["name"] for p in view["participants"] if p["removed"]]
    if removed:
        st.caption("Removed: " + esc(", ".join(removed)))
    names = {p["id"]: p["name"] for p in seated}
    with st.expander("Release or reassign a role", icon=":material/swap_horiz:"):
        for r in view["roles"]:
            cols = st.columns([2.2, 2, 1.2], vertical_alignment="center")
            holder = esc(r["holder"]) if r["holder"] else ":gray[free]"
            cols[0].markdown(f"**{esc(r['name'])}** · {holder}")
            cols[1].selectbox(
                "Give to", [None, *names], key=f"tt_assign_{r['team']}",
                label_visibility="collapsed",
                format_func=lambda i: "give to…" if i is None else names[i],
                on_change=_assign, args=(room, key, r["team"]),
            )  # fmt: skip
            if r["holder"]:
                cols[2].button("Release", key=f"tt_fac_release_{r['team']}",
                               on_click=tt.attempt, args=(lambda t=r["team"]: svc.release_role(
                                   room, key, t), NOTICE))  # fmt: skip


def room_access(view: dict[str, Any], room: str, key: str) -> None:
    """Lock the room (no new joins) and re-key it (a new code; seated players stay)."""
    svc = tt.service()
    ex = view["exercise"]
    ended = ex["status"] == "ended"
    cols = st.columns(2)
    if ex["locked"]:
        cols[0].button("Unlock the room", key="tt_unlock", icon=":material/lock_open:",
                       disabled=ended, on_click=tt.attempt,
                       args=(lambda: svc.lock_room(room, key, False), NOTICE,
                             "The room is unlocked: new players may join."))  # fmt: skip
    else:
        cols[0].button("Lock the room", key="tt_lock", icon=":material/lock:", disabled=ended,
                       help="No new player may join; seated players stay and may rejoin.",
                       on_click=tt.attempt,
                       args=(lambda: svc.lock_room(room, key, True), NOTICE,
                             "The room is locked: nobody new may join."))  # fmt: skip
    with cols[1].popover("Change the room code", icon=":material/key:", disabled=ended):
        st.markdown("A new room code: the old one admits nobody new. Seated players keep "
                    "their seats; give the new code only to those who should join.")  # fmt: skip
        st.button("Change it now", key="tt_rekey", type="primary", on_click=_rekey,
                  args=(room, key))  # fmt: skip
    if ex["locked"]:
        st.caption(":material/lock: Locked: nobody new may join.")


def _rekey(room: str, key: str) -> None:
    new = tt.attempt(lambda: tt.service().rekey_room(room, key), NOTICE)
    if new is None:
        return
    st.session_state[ROOM] = new
    if st.session_state.get(LINK):
        tt.keep(new, st.session_state[LINK], tt.KEPT["tabletop-facilitator"])
    st.session_state[NOTICE] = ("success", f"The new room code is {new}.")


def barred_alerts(view: dict[str, Any]) -> None:
    """Joins refused from removed seats' browsers, and joins from their addresses."""
    for entry in view["alerts"][-3:]:
        st.warning(f"Day {entry['day']:.1f}, {entry['at']}: {esc(entry['summary'])}",
                   icon=":material/gpp_maybe:")  # fmt: skip


def contested_seats(view: dict[str, Any], room: str, key: str) -> None:
    """Seats whose key a second browser used: the facilitator chooses which keeps each."""
    for c in view.get("contests", []):
        with st.container(border=True, key=f"tt_contest_{c['id']}"):
            st.warning(
                f"{esc(c['name'])}'s seat key was used from a second browser at {c['at']}. "
                "The first browser still holds the seat. Ask the player, then choose.",
                icon=":material/devices:",
            )
            cols = st.columns(2)
            for col, to_new, label in ((cols[0], False, "Keep it with the first browser"),
                                       (cols[1], True, "Move it to the new browser")):  # fmt: skip
                col.button(
                    label, key=f"tt_settle_{c['id']}_{int(to_new)}", on_click=tt.attempt,
                    args=(lambda pid=c["id"], new=to_new: tt.service().settle_seat(
                        room, key, pid, new), NOTICE, "Done: the other browser is denied."),
                )  # fmt: skip


def _assign(room: str, key: str, team: str) -> None:
    pid = st.session_state.pop(f"tt_assign_{team}", None)
    if pid is not None:
        tt.attempt(lambda: tt.service().assign_role(room, key, team, pid), NOTICE)


def audit_log(view: dict[str, Any]) -> None:
    events = view["events"]
    st.caption(f"{len(events)} entries: who did what, when (UTC) and on which play day. The "
               "log is exported with the after-action report.")  # fmt: skip
    st.dataframe(pd.DataFrame(list(reversed(events))), hide_index=True, width="stretch",
                 height=320)  # fmt: skip


def main() -> None:
    tt.keep_offered()
    opened = tt.open_view((ROOM, KEY, NOTICE), TabletopService.facilitator_view, entrance, _resume)
    if opened is None:
        return
    room, key, view = opened
    tt.live(room, SEEN, view["exercise"]["version"], view["log_mark"])
    names = esc(", ".join(p["name"] for p in view["participants"] if not p["removed"]))
    count = sum(not p["removed"] for p in view["participants"])
    players = f"{count} player{'s' if count != 1 else ''}: {names}" if count else "no players yet"
    tt.header(view, f"You are the facilitator · {players}")
    tt.show_notice(NOTICE)
    barred_alerts(view)
    contested_seats(view, room, key)
    if not view["exercise"]["open"]:
        save_key(view, room, key)
        return
    tt.notices(view, COUNTS)
    controls(view, room, key)
    tt.situation(view)
    pending(view, room, key)
    wrapup.wrap_up(view, room, key, NOTICE, None)
    left, right = st.columns([3, 2], gap="large")
    with left:
        tabs = st.tabs(
            ["Inject list (hidden)", "Feed", "Model (hidden)", "Decisions", "Audit log"],
            key="tt_fac_room_tabs",
        )
        with tabs[0]:
            msel(view, room, key)
            write_inject(view, room, key)
        with tabs[1]:
            tt.injects_feed(view, INJECTS)
        with tabs[2]:
            hidden_model(view)
        with tabs[3]:
            tt.decisions_table(view)
        with tabs[4]:
            audit_log(view)
    with right:
        st.subheader("Players and roles")
        room_access(view, room, key)
        roster(view, room, key)
        tt.roles_list(view)
        st.subheader("Comments")
        about = view["pending"]["key"] if view["pending"] else None
        tt.comment_form(room, key, about, NOTICE)
        tt.comments(view)
        st.subheader("Manuals")
        manuals(room, view)


if __name__ == "__main__":
    main()
