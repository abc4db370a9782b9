"""Tabletop, player's page: join with a room code, take a role, follow the situation, decide
when a decision is yours (with a rationale), comment; the hot wash and the report at the end.

The page keeps only the room code and the seat key in ``st.session_state``. A seat key is
never taken from the page's address: when the player chooses, the address keeps a seat
link instead, a token that opens the seat only in this browser (so a reload or a server
restart keeps the seat, and the address seen by anyone else opens nothing). A key used
from a second browser waits here for the facilitator's choice. Everything the page shows
comes from ``sim.tabletop.service``'s player view, re-read whenever the exercise changes
(a fragment polls its version).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from sim.glossary import term_link
from sim.scenario.vocabulary import OPTION_HELP
from sim.tabletop.authoring import situation_manual, situation_manual_blocks
from sim.tabletop.binding import Contested
from sim.tabletop.clock import scenario_of
from sim.tabletop.db.credentials import MAX_NAME, MAX_ORGANISATION, MAX_RATIONALE, MIN_RATIONALE
from sim.tabletop.errors import TabletopError
from sim.tabletop.report.document import html_body
from sim.tabletop.service import TabletopService
from ui.common import words
from ui.tabletop import common as tt
from ui.tabletop import wrapup

ROOM, SEAT, SEEN, NOTICE = "tt_player_room", "tt_player_seat", "tt_player_seen", "tt_player_notice"
SAVE, INJECTS, WAITING = "tt_player_save", "tt_player_injects", "tt_player_waiting"
esc = tt.esc


def _join(room: str, name: str, organisation: str) -> None:
    seat = tt.attempt(
        lambda: tt.service().join(room, name, organisation or None, clients=tt.clients()), NOTICE
    )
    if seat is not None:
        st.session_state[ROOM], st.session_state[SEAT] = tt.code(room), seat.seat_key
        st.session_state[SAVE] = True
        st.session_state[NOTICE] = ("success", f"Welcome, {seat.name}. Take a role below.")


def _rejoin(room: str, key: str) -> bool:
    try:
        seat = tt.service().rejoin(room, key, clients=tt.clients())
    except Contested as exc:  # a second browser: the facilitator chooses; wait here
        st.session_state[WAITING] = (room, key)
        st.session_state[NOTICE] = ("error", str(exc))
        return False
    except TabletopError as exc:
        st.session_state.pop(WAITING, None)
        st.session_state[NOTICE] = ("error", str(exc))
        return False
    st.session_state.pop(WAITING, None)
    if seat is not None:
        st.session_state[ROOM], st.session_state[SEAT] = tt.code(room), seat.seat_key
        st.session_state[NOTICE] = ("success", f"Welcome back, {seat.name}.")
    return seat is not None


def waiting() -> None:
    """A seat key used from this second browser: wait for the facilitator's choice."""
    room, key = st.session_state[WAITING]
    st.warning(
        "Your seat key is held by another browser. The facilitator has been told and "
        "chooses which browser keeps the seat; this page opens it if it is given to you.",
        icon=":material/devices:",
    )

    @st.fragment(run_every=tt.POLL_SECONDS)
    def _ask_again() -> None:
        if _rejoin(room, key) or WAITING not in st.session_state:
            st.rerun(scope="app")

    _ask_again()


def entrance() -> None:
    st.title("Tabletop exercise: player")
    tt.drop_key_in_address(NOTICE, "seat key", "Type your seat key in Rejoin instead.")
    if WAITING in st.session_state:
        waiting()
        return
    st.caption(
        "Your facilitator gives you a room code. Join with a name the others will recognise, "
        "then take a role: each role holds some "
        f"{term_link('decision-right', 'decision rights')} in the project."
    )
    join, back = st.columns(2)
    with join.form("tt_join"):
        st.markdown("**Join an exercise**")
        room = st.text_input("Room code", placeholder="ABCD-EFGH-JKMN", key="tt_join_room")
        name = st.text_input("Your name", max_chars=MAX_NAME, key="tt_join_name")
        org = st.text_input("Your organisation (optional)", max_chars=MAX_ORGANISATION,
                            key="tt_join_org")  # fmt: skip
        if st.form_submit_button("Join", type="primary", icon=":material/login:"):
            _join(room, name, org)
            st.rerun()
    with back.form("tt_rejoin"):
        st.markdown("**Rejoin** (with your seat key or your saved link)")
        room2 = st.text_input("Room code", key="tt_rejoin_room")
        key = st.text_input("Your seat key", type="password")
        if st.form_submit_button("Rejoin", icon=":material/replay:"):
            _rejoin(room2, key)
            st.rerun()


def roles(view: dict[str, Any], room: str, seat: str) -> None:
    mine = set(view["me"]["roles"])
    for r in view["roles"]:
        cols = st.columns([3, 2])
        rights = ", ".join(f"`{k}`" for k in r["rights"])
        cols[0].markdown(f"**{esc(r['name'])}** · " + (f"decides {rights}" if rights else
                                                        ":gray[no decision rights]"))  # fmt: skip
        if r["team"] in mine:
            cols[1].button(
                "Give it back", key=f"tt_release_{r['team']}", icon=":material/logout:",
                on_click=tt.attempt,
                args=(lambda t=r["team"]: tt.service().release_role(room, seat, t), NOTICE),
            )  # fmt: skip
        elif r["holder"]:
            cols[1].caption(f"held by {esc(r['holder'])}")
        else:
            cols[1].button(
                "Take this role", key=f"tt_claim_{r['team']}", icon=":material/person_add:",
                on_click=tt.attempt,
                args=(lambda t=r["team"]: tt.service().claim_role(room, seat, t), NOTICE),
            )  # fmt: skip


def decide(view: dict[str, Any], room: str, seat: str) -> None:
    pending = view["pending"]
    if pending is None:
        st.info(
            "No decision is waiting. The facilitator moves the clock.", icon=":material/schedule:"
        )
        return
    with st.container(border=True, key="tt_decision_card"):
        tt.decision_card(view)
        if not pending["can_decide"]:
            holder = esc(pending["holder"] or "nobody yet")
            st.warning(
                f"Only the player holding {esc(pending['role'])} ({holder}) may decide. You can "
                "comment below.",
                icon=":material/lock:",
            )
            return
        if pending.get("single_option"):
            only = pending["options"][0]
            st.info(esc(pending["single_option"]), icon=":material/info:")
            if st.button(f"Confirm: {words(only)}", type="primary", icon=":material/gavel:",
                         key=f"tt_confirm_{pending['key']}"):  # fmt: skip
                tt.attempt(lambda: tt.service().decide(room, seat, pending["key"], only, ""),
                           NOTICE, f"You chose {words(only)}.")  # fmt: skip
                st.rerun()
            return
        with st.form(f"tt_decide_{pending['key']}"):
            choice = st.radio(
                "Your decision", pending["options"], format_func=lambda o: words(o),
                captions=[OPTION_HELP.get(o, "") for o in pending["options"]], index=None,
            )  # fmt: skip
            why = st.text_area(
                f"Your rationale ({MIN_RATIONALE} to {MAX_RATIONALE} characters)",
                max_chars=MAX_RATIONALE, height=100,
                placeholder="Why this option, what you expect it to cost, and what you will watch.",
            )  # fmt: skip
            if st.form_submit_button("Decide", type="primary", icon=":material/gavel:"):
                tt.attempt(
                    lambda: tt.service().decide(room, seat, pending["key"], choice or "", why),
                    NOTICE, f"You chose {words(choice or '')}.",
                )  # fmt: skip
                st.rerun()


def manual(view: dict[str, Any], room: str) -> None:
    scenario = scenario_of(tt.service().room(room).exercise.scenario_yaml)
    title = view["exercise"]["title"]
    text = situation_manual(scenario, OPTION_HELP, title)
    cols = st.columns(2)
    tt.offer(
        cols[0], "Situation manual (HTML, printable)",
        situation_manual(scenario, OPTION_HELP, title, fmt="html"),
        "situation-manual.html", "text/html", icon=":material/print:", width="stretch",
        key="tt_player_manual_html", on_click="ignore",
    )  # fmt: skip
    tt.offer(
        cols[1], "Situation manual (Markdown)", text, "situation-manual.md", "text/markdown",
        icon=":material/download:", width="stretch", key="tt_player_manual_md",
        on_click="ignore",
    )  # fmt: skip
    with st.expander("Read the situation manual"):
        st.html(html_body(situation_manual_blocks(scenario, OPTION_HELP, title)))


def _keep(room: str, seat: str) -> None:
    """Keep a seat link (bound to this browser) in the page's address."""
    link = tt.attempt(lambda: tt.service().seat_link(room, seat, clients=tt.clients()), NOTICE)
    if link is not None:
        tt.keep(room, link, "seat")


def save_seat(room: str, seat: str) -> None:
    """The "keep your seat" step: the seat key to type back, and a link for this browser."""
    kept = tt.kept("seat") is not None
    with st.container(border=True, key="tt_save_seat"):
        st.markdown(
            "**Keep your seat key** to come back after a closed tab, another device or a "
            "restart: type it in *Rejoin*. Anyone with it can ask for your seat; a second "
            "browser that uses it is shown to the facilitator, who chooses who keeps it."
        )
        st.code(seat, language=None)
        cols = st.columns(2)
        if kept:
            cols[0].caption(":material/check: This page's address keeps a link to your "
                            "seat that works only in this browser: a reload brings you "
                            "back.")  # fmt: skip
            cols[1].button("Forget it on this page", key="tt_forget", on_click=tt.forget)
        else:
            cols[0].button("Keep my seat in this page's address", key="tt_keep",
                           icon=":material/bookmark:", on_click=_keep, args=(room, seat),
                           help="A link that opens your seat only in this browser; never "
                                "the seat key itself.")  # fmt: skip
        if st.session_state.get(SAVE):
            done = cols[0 if kept else 1]
            done.button(
                "I have saved it", key="tt_saved", on_click=st.session_state.pop, args=(SAVE, None)
            )


def main() -> None:
    tt.keep_offered()
    opened = tt.open_view((ROOM, SEAT, NOTICE), TabletopService.player_view, entrance, _rejoin)
    if opened is None:
        return
    room, seat, view = opened
    tt.live(room, SEEN, view["exercise"]["version"])
    me = view["me"]
    held = [r["name"] for r in view["roles"] if r["team"] in me["roles"]]
    roles_held = f", holding {esc(', '.join(held))}" if held else ", no role yet"
    tt.header(view, f"You are **{esc(me['name'])}**{roles_held}")
    tt.show_notice(NOTICE)
    if view.get("seat_notice"):
        st.warning(esc(view["seat_notice"]), icon=":material/devices:")
    if st.session_state.get(SAVE):
        save_seat(room, seat)
    else:
        with st.expander("Your seat key and link", icon=":material/link:"):
            save_seat(room, seat)
    if not held:
        st.info("Take a role to decide for it. Anyone may comment.", icon=":material/person_add:")
    tt.situation(view)
    wrapup.wrap_up(view, room, seat, NOTICE, me["id"])
    left, right = st.columns([3, 2], gap="large")
    with left:
        if view["exercise"]["status"] != "ended":
            decide(view, room, seat)
        st.subheader("Injects")
        tt.injects_feed(view, INJECTS)
        st.subheader("Decisions so far")
        tt.decisions_table(view)
    with right:
        st.subheader("Roles")
        roles(view, room, seat)
        st.subheader("Comments")
        about = view["pending"]["key"] if view["pending"] else None
        tt.comment_form(room, seat, about, NOTICE)
        tt.comments(view)
        st.subheader("Situation manual")
        manual(view, room)


if __name__ == "__main__":
    main()
