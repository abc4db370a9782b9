"""What the tabletop pages share: the service, live polling, and the room's public record.

Every rule lives in ``sim.tabletop.service``; these helpers only display the dictionaries
its views return and pass people's clicks to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from sim.scenario.vocabulary import DECISION_TITLES, OPTION_HELP
from sim.storage import database_url, make_engine
from sim.tabletop.document import md_escape as esc
from sim.tabletop.errors import TabletopError, Unavailable
from sim.tabletop.report import to_html, to_markdown
from sim.tabletop.service import TabletopService
from ui.common import usd, words

#: How often an open page asks the database whether anything changed (seconds).
POLL_SECONDS = 2.0
STATUS_BADGE = {
    "running": ":green-badge[running]",
    "paused": ":orange-badge[paused]",
    "ended": ":gray-badge[ended]",
}


@st.cache_resource(show_spinner=False)
def _service(url: str) -> TabletopService:
    return TabletopService(make_engine(url))


def service() -> TabletopService:
    """One service (and connection pool) per database, shared by every session."""
    return _service(database_url())


def attempt(action: Callable[[], Any], notice: str, done: str | None = None) -> Any:
    """Run a service call; its refusal goes to ``st.session_state[notice]`` as an error."""
    try:
        result = action()
    except TabletopError as exc:  # the service's refusals, and a database that is down
        st.session_state[notice] = ("error", str(exc))
        return None
    if done:
        st.session_state[notice] = ("success", done)
    return result


def show_notice(notice: str) -> None:
    kind, text = st.session_state.pop(notice, (None, None))
    if kind == "error":
        st.error(esc(text), icon=":material/block:")
    elif kind == "success":
        st.success(esc(text), icon=":material/check_circle:")


def live(room: str, seen_key: str, version: int) -> None:
    """Poll the exercise's version; rerun the page when someone else changed it."""
    st.session_state[seen_key] = version

    @st.fragment(run_every=POLL_SECONDS)
    def _poll() -> None:
        try:
            now = service().version(room)
        except TabletopError:
            return
        if now != st.session_state.get(seen_key):
            st.session_state[seen_key] = now
            st.rerun()

    _poll()


def open_view(
    keys: tuple[str, str, str],
    read: Callable[[TabletopService, str, str], dict[str, Any]],
    entrance: Callable[[], None],
) -> tuple[str, str, dict[str, Any]] | None:
    """The room code, the key and the view, or the entrance when there is none (yet).

    ``keys`` names the session-state keys of the room code, the key and the notices.
    """
    room_key, secret_key, notice = keys
    room, key = st.session_state.get(room_key), st.session_state.get(secret_key)
    if not room or not key:
        entrance()
        show_notice(notice)
        return None
    try:
        return room, key, read(service(), room, key)
    except Unavailable as exc:  # keep the keys: the exercise is there once the database is back
        st.error(f"{esc(str(exc))}. Your place is kept; try again in a moment.",
                 icon=":material/cloud_off:")  # fmt: skip
        st.button("Try again", icon=":material/refresh:")
        return None
    except TabletopError as exc:
        st.session_state.pop(secret_key, None)
        st.error(f"{esc(str(exc))}. Please open the exercise again.")
        st.button("Back to the start")
        return None


def header(view: dict[str, Any], who: str) -> None:
    ex = view["exercise"]
    st.markdown(f"### {esc(ex['title'])}")
    st.markdown(
        f"#### Room code `{ex['room_code']}` {STATUS_BADGE.get(ex['status'], ex['status'])}"
    )
    st.caption(who)


def situation(view: dict[str, Any]) -> None:
    """The project's state as everyone in the room sees it."""
    s = view["situation"]
    run = s["run"]
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric("Day", f"{s['day']:.0f} of {s['deadline_days']:.0f}", help="Day of the deadline")
    top[1].metric("Phase", words(s["phase"]))
    top[2].metric(
        "Main run trained", f"{run['progress']:.0%}" if run else "not started",
        help="Share of the main pretraining run's tokens trained so far.",
    )  # fmt: skip
    bottom[0].metric("Spent", usd(s["spent_usd"]), help=f"Of a budget of {usd(s['budget_usd'])}")
    bottom[1].metric(
        "Reserve left", usd(s["reserve_left_usd"]), help=f"Of {usd(s['reserve_usd'])} held back"
    )
    bottom[2].metric(
        "Effective training time",
        f"{run['effective_training_time']:.0%}" if run else "—",
        help="Share of the run's wall time spent training (not restarting or waiting).",
    )
    st.progress(min(1.0, s["day"] / max(s["deadline_days"], 1.0)))


def decision_card(view: dict[str, Any]) -> None:
    """The waiting decision: what it is about and who may make it."""
    pending = view["pending"]
    if pending is None:
        return
    title = DECISION_TITLES.get(pending["kind"], words(pending["kind"]))
    holder = esc(pending["holder"] or "nobody yet")
    st.markdown(f"#### {title}")
    travel = (
        f" The news took {pending['latency_days']:.1f} days to reach them from "
        f"{words(pending['detected_by'])}."
        if pending["latency_days"] >= 0.05
        else ""
    )
    role = esc(pending["role"])
    st.markdown(
        f"{esc(pending['summary'])}  \nDecided by **{role}** (held by **{holder}**), "
        f"day {pending['day']:.1f}.{travel}"
    )


def option_label(option: str) -> str:
    return f"**{words(option)}** — {OPTION_HELP.get(option, '')}"


def injects_feed(view: dict[str, Any]) -> None:
    injects = view["injects"]
    if not injects:
        st.caption("No injects yet.")
    for inject in reversed(injects):
        with st.container(border=True):
            st.markdown(f"**Day {inject['day']:.0f} · {esc(inject['title'])}**")
            st.markdown(esc(inject["message"]))


def decisions_table(view: dict[str, Any]) -> None:
    rows = [
        {"day": round(d["day"], 1), "role": d["role"], "by": d["by"], "choice": words(d["choice"]),
         "rationale": d["rationale"], "situation": d["summary"]}
        for d in view["decisions"]
    ]  # fmt: skip
    if not rows:
        st.caption("No decisions yet.")
        return
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def comments(view: dict[str, Any]) -> None:
    if not view["comments"]:
        st.caption("No comments yet.")
    for c in view["comments"][-30:]:
        about = f" · on the {words(c['about'].split('#')[0])} call" if c["about"] else ""
        with st.chat_message("user", avatar=":material/forum:"):
            st.markdown(f"**{esc(c['author'])}** · day {c['day']:.0f}{about}")
            st.text(c["body"])


def comment_form(room: str, key: str, about: str | None, notice: str) -> None:
    with st.form("tt_comment", clear_on_submit=True, border=False):
        body = st.text_area("Add a comment", max_chars=1_000, height=80)
        if st.form_submit_button("Post comment", icon=":material/send:"):
            attempt(lambda: service().comment(room, key, body, about), notice)
            st.rerun()


def roles_list(view: dict[str, Any]) -> None:
    """Every role: the decisions it makes, the risks it owns, and who holds it."""
    lines = []
    for r in view["roles"]:
        decides = ", ".join(f"`{k}`" for k in r["rights"]) or "no decision rights"
        risks = ", ".join(words(k) for k in r["risks"]) or "none"
        holder = f"**{esc(r['holder'])}**" if r["holder"] else ":gray[free]"
        lines.append(f"- **{esc(r['name'])}** ({holder}): decides {decides}; owns risks: {risks}")
    st.markdown("\n".join(lines))


def hot_wash(view: dict[str, Any], room: str, key: str, notice: str) -> None:
    """The hot wash: strengths and areas for improvement, each with an owner and a due date."""
    if view["hot_wash"]:
        st.dataframe(pd.DataFrame(view["hot_wash"]), hide_index=True, width="stretch")
    with st.form("tt_hot_wash", clear_on_submit=True):
        kind = st.radio("Kind", ("strength", "improvement"), horizontal=True)
        text = st.text_area("What went well, or what to improve", max_chars=600, height=80)
        cols = st.columns(2)
        owner = cols[0].text_input("Owner (default: your roles)", max_chars=80)
        due = cols[1].date_input("Due", value=None)
        if st.form_submit_button("Add to the hot wash", icon=":material/add:"):
            attempt(
                lambda: service().add_hot_wash(room, key, kind, text, owner or None, due), notice
            )
            st.rerun()


def wrap_up(view: dict[str, Any], room: str, key: str, notice: str, caption: str) -> None:
    """Once the exercise has ended: the hot wash, then the after-action report."""
    if view["exercise"]["status"] != "ended":
        return
    st.subheader("Hot wash")
    st.caption(caption)
    hot_wash(view, room, key, notice)
    st.subheader("After-action report")
    report(room)


def report(room: str) -> None:
    """The after-action report, shown and offered as Markdown and HTML."""
    with st.spinner("Replaying the exercise and every alternative decision…"):
        try:
            result = service().report(room)
        except TabletopError as exc:
            st.error(str(exc))
            return
    md, page = to_markdown(result), to_html(result)
    shown = to_markdown(result, shift=2)  # headings sized to sit inside the page
    slug = result.room_code.lower()
    cols = st.columns(2)
    cols[0].download_button(
        "Download the report (Markdown)", md, f"aar-{slug}.md", "text/markdown",
        icon=":material/download:",
    )  # fmt: skip
    cols[1].download_button(
        "Download the report (HTML)", page, f"aar-{slug}.html", "text/html",
        icon=":material/download:",
    )  # fmt: skip
    with st.container(border=True):
        st.markdown(shown)
