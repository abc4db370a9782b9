"""What the tabletop pages share: the service, live polling, kept seats, and the room's record.

Every rule lives in ``sim.tabletop.service``; these helpers only display the dictionaries
its views return and pass people's clicks to it. Text people typed is shown as plain text
(``st.text``, or escaped HTML), never as Markdown: no links, no icon codes, no markup.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pandas as pd
import streamlit as st

from sim.scenario.vocabulary import DECISION_TITLES, OPTION_HELP
from sim.storage import database_url, make_engine
from sim.tabletop.db.credentials import normalize_room_code
from sim.tabletop.errors import TabletopError, Unavailable
from sim.tabletop.report.aar import document, to_docx, to_html, to_markdown, to_pdf
from sim.tabletop.report.document import html_body
from sim.tabletop.service import TabletopService
from ui.common import esc, usd, words

#: How often an open page asks the database whether anything changed (seconds).
POLL_SECONDS = 2.0
STATUS_BADGE = {
    "running": ":green-badge[running]",
    "paused": ":orange-badge[paused]",
    "ended": ":gray-badge[ended]",
}
CLIENT = "tt_client"


def code(typed: str) -> str:
    """A room code as the service writes it (what people typed, normalised)."""
    return normalize_room_code(typed) or typed


def plain(text: object) -> None:
    """Text a person typed, shown exactly as typed."""
    st.text(str(text))


@st.cache_resource(show_spinner=False)
def _service(url: str) -> TabletopService:
    return TabletopService(make_engine(url), prefetch=True)


def service() -> TabletopService:
    """One service (and connection pool) per database, shared by every session."""
    return _service(database_url())


def browser_id(cookie: str | None) -> str | None:
    """A stable id of this browser from Streamlit's XSRF cookie, or None.

    The cookie is ``2|mask|masked token|timestamp``; the mask changes at every page load,
    the token (mask XOR masked token) and the timestamp do not, so a reload or a new tab
    of the same browser gives the same id, and a new browser (or a private window) another.
    """
    parts = (cookie or "").split("|")
    if len(parts) != 4 or parts[0] != "2":
        return None
    try:
        mask, masked = bytes.fromhex(parts[1]), bytes.fromhex(parts[2])
    except ValueError:
        return None
    if not mask or not masked:
        return None
    token = bytes(b ^ mask[i % len(mask)] for i, b in enumerate(masked))
    return f"{token.hex()}|{parts[3]}"


def clients() -> tuple[str, ...]:
    """Who this browser is: for the service's backoff on failed joins, and for barring the
    browser of a removed seat (its session, and the browser itself across reloads)."""
    token = st.session_state.setdefault(CLIENT, secrets.token_hex(12))
    out = [f"session:{token}"]
    cookies = getattr(st.context, "cookies", None) or {}
    browser = browser_id(cookies.get("_streamlit_xsrf"))
    if browser:
        out.append(f"browser:{browser}")
    ip = getattr(st.context, "ip_address", None)
    if ip:
        out.append(f"ip:{ip}")
    return tuple(out)


def attempt(action: Callable[[], Any], notice: str, done: str | None = None) -> Any:
    """Run a service call; its refusal goes to ``st.session_state[notice]`` as an error."""
    try:
        with service().acting_from(clients()):  # a seat key acts from its holder's browser
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


def live(room: str, seen_key: str, version: int, log_mark: int | None = None) -> None:
    """Poll the exercise's version; rerun the page when someone else changed it.

    With ``log_mark`` (the facilitator's page) the audit log is watched too: a refused
    join or a rejoin changes nothing else, and the facilitator should see it.
    """
    seen = (version, log_mark)
    st.session_state[seen_key] = seen

    @st.fragment(run_every=POLL_SECONDS)
    def _poll() -> None:
        try:
            svc = service()
            now = (svc.version(room), None if log_mark is None else svc.log_mark(room))
        except TabletopError:
            return
        if now != st.session_state.get(seen_key):
            st.session_state[seen_key] = now
            st.rerun()

    _poll()


# --- seats kept in the page's address ----------------------------------------------------------


#: The page's address parameter that carries what opens the seat: a token bound to the
#: browser that made it (the facilitator's link, a player's seat link), never a key.
KEPT = {"tabletop-facilitator": "link", "tabletop-player": "seat"}


def kept(param: str) -> tuple[str, str] | None:
    """The room code and the token kept in this page's address under ``param``, if any."""
    room, key = st.query_params.get("room"), st.query_params.get(param)
    return (room, key) if room and key else None


def keep(room: str, key: str, param: str) -> None:
    """Keep the room code and a token in this page's address: a reload keeps the place."""
    st.query_params.update({"room": room, param: key})


def drop_key_in_address(notice: str, what: str, instead: str) -> None:
    """A key in the page's address is never used (anyone who sees it could): drop it, say so."""
    if "key" in st.query_params:
        st.query_params.pop("key", None)
        st.session_state[notice] = (
            "error", f"A {what} in a page's address is never used: anyone who sees the "
            f"address could use it. {instead}",
        )  # fmt: skip


def forget() -> None:
    for name in ("room", "key", "seat", "link"):
        st.query_params.pop(name, None)


def open_view(
    keys: tuple[str, str, str],
    read: Callable[[TabletopService, str, str], dict[str, Any]],
    entrance: Callable[[], None],
    resume: Callable[[str, str], bool],
) -> tuple[str, str, dict[str, Any]] | None:
    """The room code, the key and the view, or the entrance when there is none (yet).

    ``keys`` names the session-state keys of the room code, the key and the notices. A
    seat kept in the page's address is resumed with ``resume`` (after a reload or a
    restart of the server).
    """
    room_key, secret_key, notice = keys
    param = "link" if room_key.startswith("tt_fac") else "seat"
    if not st.session_state.get(secret_key) and kept(param) is not None:
        room, key = kept(param)  # type: ignore[misc]
        if not resume(room, key):
            forget()
    room, key = st.session_state.get(room_key), st.session_state.get(secret_key)
    if not room or not key:
        st.session_state.pop(OFFERED, None)  # no room: nothing of one is offered
        entrance()
        show_notice(notice)
        return None
    try:
        with service().acting_from(clients()):
            return room, key, read(service(), room, key)
    except Unavailable as exc:  # keep the keys: the exercise is there once the database is back
        st.error(f"{esc(exc)}. Your place is kept; try again in a moment.",
                 icon=":material/cloud_off:")  # fmt: skip
        st.button("Try again", icon=":material/refresh:")
        return None
    except TabletopError as exc:
        st.session_state.pop(secret_key, None)
        forget()
        st.error(f"{esc(exc)}. Please open the exercise again.")
        st.button("Back to the start")
        return None


def badge(ex: dict[str, Any]) -> str:
    """The status badge: "waiting to open" until the facilitator opens the room."""
    if not ex.get("open", True) and ex["status"] != "ended":
        return ":blue-badge[waiting to open]"
    return STATUS_BADGE.get(ex["status"], ex["status"])


def header(view: dict[str, Any], who: str) -> None:
    ex = view["exercise"]
    st.markdown(f"### {esc(ex['title'])}")
    st.markdown(f"#### Room code `{ex['room_code']}` {badge(ex)}")
    st.caption(who)


def situation(view: dict[str, Any]) -> None:
    """The project's state as everyone in the room sees it."""
    s = view["situation"]
    run = s["run"]
    top, bottom = st.columns(3), st.columns(3)
    top[0].metric("Day", f"{s['day']:.1f} of {s['deadline_days']:g}", help="Day of the deadline")
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
    title = pending.get("title") or DECISION_TITLES.get(pending["kind"], words(pending["kind"]))
    holder = esc(pending["holder"] or "nobody yet")
    st.markdown(f"#### {title}")
    travel = (
        f" The news took {pending['latency_days']:.1f} days to reach them from "
        f"{words(pending['detected_by'])}."
        if pending["latency_days"] >= 0.05
        else ""
    )
    st.markdown(
        f"{esc(pending['summary'])}  \nDecided by **{esc(pending['role'])}** (held by "
        f"**{holder}**), day {pending['day']:.1f}.{travel}"
    )


def option_label(option: str) -> str:
    return f"**{words(option)}** — {OPTION_HELP.get(option, '')}"


def injects_feed(view: dict[str, Any], seen_key: str) -> None:
    """Delivered injects, newest first; those this page has not shown before are marked new."""
    injects = view["injects"]
    if not injects:
        st.caption("No injects yet.")
    seen: set[str] = st.session_state.setdefault(seen_key, set())
    new = [i for i in injects if i["id"] not in seen]
    if seen and new:
        st.toast(f"{len(new)} new inject{'s' if len(new) > 1 else ''}", icon=":material/campaign:")
    for inject in reversed(injects):
        fresh = inject["id"] not in seen
        with st.container(border=True, key=f"tt_inject_{inject['order']}"):
            badge = " :blue-badge[new]" if fresh else ""
            st.markdown(f"**Day {inject['day']:.1f}**{badge}")
            st.markdown(f"**{esc(inject['title'])}**")
            plain(inject["message"])
    st.session_state[seen_key] = seen | {i["id"] for i in injects}


def notices(view: dict[str, Any], seen_key: str) -> None:
    """A toast for new decisions and comments, and a badge that stays until marked seen."""
    counts = view["counts"]
    before = st.session_state.get(seen_key)
    st.session_state[seen_key] = dict(counts)
    unseen: dict[str, int] = st.session_state.setdefault(f"{seen_key}_unseen", {})
    if before is not None:
        fresh = {w: counts[w] - before.get(w, 0) for w in ("decisions", "comments")}
        fresh = {w: n for w, n in fresh.items() if n > 0}
        if fresh:
            st.toast(_counted(fresh), icon=":material/notifications:")
            for w, n in fresh.items():
                unseen[w] = unseen.get(w, 0) + n
    if unseen:
        cols = st.columns([4, 1], vertical_alignment="center")
        cols[0].markdown(f":blue-badge[:material/notifications: {_counted(unseen)} since you "
                         "last looked]")  # fmt: skip
        cols[1].button("Mark as seen", key="tt_seen", on_click=unseen.clear)


def _counted(counts: dict[str, int]) -> str:
    return " · ".join(f"{n} new {w[:-1]}{'s' if n > 1 else ''}" for w, n in counts.items())


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
    for c in reversed(view["comments"][-30:]):
        about = f" · on the {words(c['about'].split('#')[0])} call" if c["about"] else ""
        with st.chat_message("user", avatar=":material/forum:"):
            st.markdown(f"**{esc(c['author'])}** · day {c['day']:.0f}{about}")
            plain(c["body"])


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
        decides = ", ".join(words(k) for k in r["rights"]) or "no decision rights"
        risks = ", ".join(words(k) for k in r["risks"]) or "none"
        holder = f"**{esc(r['holder'])}**" if r["holder"] else ":gray[free]"
        lines.append(f"- **{esc(r['name'])}** ({holder}): decides {decides}; owns risks: {risks}")
    st.markdown("\n".join(lines))


DOWNLOAD_NOTICE = "tt_download_notice"
#: What each download button on this page last offered: button key -> (data, file name, type).
OFFERED = "tt_offered"


def offer(where: Any, label: str, data: bytes | str, file_name: str, mime: str, *, key: str,
          **options: Any) -> None:  # fmt: skip
    """A download button whose file stays reachable through every rerun (:func:`keep_offered`)."""
    st.session_state.setdefault(OFFERED, {})[key] = (data, file_name, mime)
    where.download_button(label, data, file_name, mime, key=key, **options)


def keep_offered() -> None:
    """First thing on a tabletop page: every file its download buttons last offered, out of sight.

    Streamlit (1.67, ``MediaFileManager``) drops a session's references to its files at the
    start of every full rerun and takes each back only when the script reaches its button
    again; every script run of any session (each open tabletop page polls every 2 s) ends
    with a sweep, and a download file left unreferenced through two sweeps is deleted. On
    these pages a rerun comes whenever anyone in the room does something, and reaching the
    report's or the manuals' buttons takes the rest of a long page (0.1 to 1.5 s on a busy
    machine), so a click in that time fetched a deleted file and the browser cancelled the
    download. Offered again here, hidden, before anything else, the files the page shows
    (and those it showed, while a rerun is still replacing them) stay referenced. Measured
    with a note written to the room every 2 s and another core busy: quick clicks lost 7
    of 40 files with the report's buttons in a fragment alone, 0 of 64 with this too.
    """
    offered = st.session_state.get(OFFERED)
    if not offered:
        return
    with st.container(key="tt_offered"):
        st.html("<style>.st-key-tt_offered { display: none; }</style>")
        for key, (data, file_name, mime) in offered.items():
            st.download_button(file_name, data, file_name, mime, key=f"tt_offered_{key}",
                               on_click="ignore")  # fmt: skip


def _downloaded(room: str, key: str, ext: str) -> None:
    attempt(lambda: service().record_download(room, key, ext), DOWNLOAD_NOTICE)


@st.fragment
def _downloads(room: str, key: str, slug: str, files: list[tuple[str, str, str, bytes]]) -> None:
    """The report's four download buttons, in a fragment of their own: a click reruns only
    the fragment (its ``on_click`` logs the download), never the page, so the page keeps
    its files' references (:func:`keep_offered`). Before, a click reran the page, and a
    second click within that rerun (Word, then PDF) lost its file: 20 of 40 quick clicks
    (0 of 80 in a fragment). The other download buttons do not rerun at all.
    """
    cols = st.columns(4)
    for col, (label, ext, mime, data) in zip(cols, files, strict=True):
        offer(col, f"Download the report ({label})", data, f"aar-{slug}.{ext}", mime,
              icon=":material/download:", key=f"tt_aar_{ext}", on_click=_downloaded,
              args=(room, key, ext))  # fmt: skip
    show_notice(DOWNLOAD_NOTICE)


def report(room: str, key: str, facilitator: bool) -> None:
    """The after-action report, shown and offered as Markdown, HTML, Word and PDF.

    The facilitator's in full; a player's without the facilitator-only parts unless the
    facilitator released them. Each download goes into the audit log.
    """
    bar = st.progress(0.0, text="Replaying the exercise, every alternative, and the Monte Carlo…")

    def progress(done: int, total: int) -> None:
        bar.progress(min(1.0, done / max(total, 1)),
                     text=f"Replaying and simulating: {done} of {total}")  # fmt: skip

    try:
        read = service().report if facilitator else service().player_report
        with service().acting_from(clients()):  # a link token acts only from its browser
            result = read(room, key, progress=progress)
    except TabletopError as exc:
        bar.empty()
        st.error(esc(exc))
        return
    bar.empty()
    _downloads(room, key, result.room_code.lower(), _exports(result, facilitator))
    with st.container(border=True, key="tt_report"):
        st.html(f"<div class='tt-report'>{html_body(document(result))}</div>" + _REPORT_CSS)


EXPORTS = "tt_exports"


def _exports(result: Any, facilitator: bool) -> list[tuple[str, str, str, bytes]]:
    """The report's four files, made once per report shown (kept in the session).

    Made here, as bytes, not on click, and kept: the same bytes keep the same address
    (Streamlit names a file by a hash of its bytes), so a rerun under a click still serves
    it. A download's own line in the audit log does not make them again (new bytes would get
    a new address while the page still shows the old one). The files list the downloads
    made before them.
    """
    substance = replace(result, audit=tuple(e for e in result.audit if e.kind != "download"))
    ident = (result.exercise_id, facilitator, len(substance.audit), len(result.plan),
             hash(to_markdown(substance)))  # fmt: skip
    kept = st.session_state.get(EXPORTS)
    if kept is None or kept[0] != ident:
        files = [
            ("Word", "docx",
             "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
             to_docx(result)),
            ("PDF", "pdf", "application/pdf", to_pdf(result)),
            ("HTML", "html", "text/html", to_html(result).encode("utf-8")),
            ("Markdown", "md", "text/markdown", to_markdown(result).encode("utf-8")),
        ]  # fmt: skip
        kept = (ident, files)
        st.session_state[EXPORTS] = kept
    return kept[1]


_REPORT_CSS = """<style>
.tt-report table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem;
  font-size: .85rem; }
.tt-report th, .tt-report td { border: 1px solid #d0d7e2; padding: .25rem .45rem; text-align: left;
  vertical-align: top; }
.tt-report th { background: #eef2f8; }
.tt-report p.quiet { color: #5b6577; font-style: italic; }
</style>"""
