"""After the end, on both pages: the hot wash (add, edit, delete), and for the facilitator
the improvement-plan matrix, the ratings of the expected actions and the exercise overview;
then the after-action report.

Every rule (who may edit what, only after the end) is the service's; these only display
the views and pass edits on.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st

from sim.tabletop.db.credentials import MAX_HOT_WASH, MAX_OWNER
from sim.tabletop.report.hseep import CAPABILITIES, RATINGS
from sim.tabletop.report.wrapup import OVERVIEW_FIELDS
from ui.tabletop import common as tt

CAPABILITY_NAMES = {"": "—", **{c.id: c.name for c in CAPABILITIES.values()}}
PLAN_COLUMNS = ("text", "corrective_action", "capability", "organisation", "owner", "start",
                "due", "root_cause")  # fmt: skip


def _date(value: Any) -> dt.date | None:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return None
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _add_form(room: str, key: str, notice: str) -> None:
    with st.form("tt_hot_wash", clear_on_submit=True):
        kind = st.radio("Kind", ("strength", "improvement"), horizontal=True, index=None)
        text = st.text_area("What went well, or what to improve", max_chars=MAX_HOT_WASH,
                            height=80)  # fmt: skip
        cols = st.columns(3)
        capability = cols[0].selectbox("Capability", list(CAPABILITY_NAMES),
                                       format_func=CAPABILITY_NAMES.__getitem__)  # fmt: skip
        owner = cols[1].text_input("Owner (default: your roles)", max_chars=MAX_OWNER)
        due = cols[2].date_input("Due", value=None)
        if st.form_submit_button("Add to the hot wash", icon=":material/add:"):
            if kind is None:
                st.session_state[notice] = ("error", "choose a strength or an improvement")
            else:
                tt.attempt(lambda: tt.service().add_hot_wash(
                    room, key, kind, text, owner or None, due, capability=capability or None,
                ), notice)  # fmt: skip
            st.rerun()


def _item(item: dict[str, Any], room: str, key: str, notice: str) -> None:
    with st.container(border=True, key=f"tt_hw_{item['id']}"):
        st.markdown(f"**{item['kind'].capitalize()}** · {tt.esc(item['owner'])} · due "
                    f"{item['due']} · by {tt.esc(item['author'])}")  # fmt: skip
        tt.plain(item["text"])
        with st.popover("Edit or delete", icon=":material/edit:"):
            with st.form(f"tt_hw_edit_{item['id']}"):
                text = st.text_area("Text", item["text"], max_chars=MAX_HOT_WASH)
                owner = st.text_input("Owner", item["owner"], max_chars=MAX_OWNER)
                due = st.date_input("Due", _date(item["due"]))
                if st.form_submit_button("Save"):
                    tt.attempt(lambda: tt.service().update_hot_wash(
                        room, key, item["id"], text=text, owner=owner, due=due), notice,
                        "Saved.")  # fmt: skip
                    st.rerun()
            st.button("Delete this item", key=f"tt_hw_del_{item['id']}", icon=":material/delete:",
                      on_click=tt.attempt, args=(lambda: tt.service().delete_hot_wash(
                          room, key, item["id"]), notice, "Deleted."))  # fmt: skip


def hot_wash(view: dict[str, Any], room: str, key: str, notice: str, me: int | None) -> None:
    """Every item; the viewer's own (all of them, for the facilitator) can be changed."""
    for item in view["hot_wash"]:
        if me is None or item["author_id"] == me:
            _item(item, room, key, notice)
        else:
            with st.container(border=True):
                st.markdown(f"**{item['kind'].capitalize()}** · {tt.esc(item['owner'])} · due "
                            f"{item['due']} · by {tt.esc(item['author'])}")  # fmt: skip
                tt.plain(item["text"])
    _add_form(room, key, notice)


def plan_editor(view: dict[str, Any], room: str, key: str, notice: str) -> None:
    """The improvement plan's stored rows, edited in a table and saved together."""
    rows = [h for h in view["hot_wash"] if h["kind"] == "improvement"]
    cols = st.columns([3, 2])
    cols[0].caption("Areas for improvement from the hot wash, and the report's findings you "
                    "adopt: each with its corrective action, capability, responsible "
                    "organisation, point of contact and dates.")  # fmt: skip
    cols[1].button("Add the report's proposed items to the plan", key="tt_adopt",
                   icon=":material/playlist_add:", on_click=tt.attempt,
                   args=(lambda: tt.service().adopt_findings(room, key), notice,
                         "The report's proposed items are in the plan."))  # fmt: skip
    if not rows:
        return
    frame = pd.DataFrame([{"id": r["id"], **{c: r[c] for c in PLAN_COLUMNS}} for r in rows])
    for c in ("start", "due"):
        frame[c] = [_date(v) for v in frame[c]]
    edited = st.data_editor(
        frame, key="tt_plan", hide_index=True, width="stretch", disabled=["id"],
        column_config={
            "text": st.column_config.TextColumn("issue", max_chars=MAX_HOT_WASH),
            "corrective_action": st.column_config.TextColumn("corrective action"),
            "capability": st.column_config.SelectboxColumn(
                "capability", options=list(CAPABILITY_NAMES)),
            "organisation": st.column_config.TextColumn("responsible organisation"),
            "owner": st.column_config.TextColumn("point of contact", max_chars=MAX_OWNER),
            "start": st.column_config.DateColumn("start"),
            "due": st.column_config.DateColumn("completion"),
            "root_cause": st.column_config.TextColumn("root cause"),
        },
    )  # fmt: skip
    if st.button("Save the improvement plan", key="tt_plan_save", icon=":material/save:"):
        before = {r["id"]: r for r in frame.to_dict("records")}
        for row in edited.to_dict("records"):
            changed = {c: row[c] for c in PLAN_COLUMNS if row[c] != before[row["id"]][c]}
            if changed:
                for c in ("start", "due"):
                    if c in changed:
                        changed[c] = _date(changed[c])
                tt.attempt(partial(_update_item, room, key, int(row["id"]), changed), notice,
                           "The plan is saved.")  # fmt: skip
        st.rerun()


def _update_item(room: str, key: str, item_id: int, changed: dict[str, Any]) -> None:
    tt.service().update_hot_wash(room, key, item_id, **changed)


def _rate(room: str, key: str, inject_id: str, action: int, notice: str) -> None:
    """A rating's selectbox changed: record what it now shows."""
    rating = st.session_state[f"tt_rate_{inject_id}_{action}"]
    tt.attempt(lambda: tt.service().rate_action(room, key, inject_id, action, rating), notice)


def _set_organisation(room: str, key: str, participant_id: int, organisation: str | None) -> None:
    tt.service().set_organisation(room, key, participant_id, organisation)


def ratings(view: dict[str, Any], room: str, key: str, notice: str) -> None:
    """The facilitator rates each expected action of the delivered injects (P/S/M/U)."""
    choices = ["", *RATINGS]
    shown = False
    for inject in view["msel"]:
        if inject["status"] != "delivered" or not inject["expected_actions"]:
            continue
        shown = True
        st.markdown(f"**{tt.esc(inject['title'])}**")
        for n, action in enumerate(inject["expected_actions"]):
            now = (inject["ratings"][n] or {}).get("rating", "")
            cols = st.columns([4, 2], vertical_alignment="center")
            cols[0].text(action)
            cols[1].selectbox(
                "Rating", choices, index=choices.index(now), key=f"tt_rate_{inject['id']}_{n}",
                label_visibility="collapsed",
                format_func=lambda r: f"{r}: {RATINGS[r]}" if r else "not rated",
                on_change=_rate, args=(room, key, inject["id"], n, notice),
            )  # fmt: skip
    if not shown:
        st.caption("No delivered inject has expected actions to rate.")


def overview_form(view: dict[str, Any], room: str, key: str, notice: str) -> None:
    """Scope, sponsor and the point of contact, and each player's organisation."""
    o = view["overview"]
    labels = {"scope": "Scope", "sponsor": "Sponsor", "poc_name": "Point of contact: name",
              "poc_organisation": "Point of contact: organisation",
              "poc_contact": "Point of contact: email or phone"}  # fmt: skip
    with st.form("tt_overview"):
        values = {
            f: (st.text_area if f == "scope" else st.text_input)(
                labels[f], o.get(f, ""), max_chars=limit, key=f"tt_ov_{f}")
            for f, limit in OVERVIEW_FIELDS.items()
        }  # fmt: skip
        if st.form_submit_button("Save the overview", icon=":material/save:"):
            tt.attempt(lambda: tt.service().update_overview(room, key, **values), notice,
                       "The overview is saved.")  # fmt: skip
            st.rerun()
    players = [p for p in view["participants"] if not p["removed"]]
    if players:
        frame = pd.DataFrame([{"id": p["id"], "player": p["name"],
                               "organisation": p["organisation"]} for p in players])  # fmt: skip
        edited = st.data_editor(frame, key="tt_orgs", hide_index=True, disabled=["id", "player"])
        if st.button("Save the organisations", key="tt_orgs_save"):
            for before, row in zip(frame.to_dict("records"), edited.to_dict("records"),
                                   strict=True):  # fmt: skip
                if row["organisation"] != before["organisation"]:
                    tt.attempt(partial(_set_organisation, room, key, int(row["id"]),
                                       row["organisation"] or None), notice)  # fmt: skip
            st.rerun()


def wrap_up(view: dict[str, Any], room: str, key: str, notice: str, me: int | None) -> None:
    """Once the exercise has ended: the hot wash, the facilitator's part, the report."""
    if view["exercise"]["status"] != "ended":
        return
    st.subheader("Hot wash")
    st.caption("What went well and what to improve, each with an owner and a due date.")
    hot_wash(view, room, key, notice, me)
    if me is None:
        tabs = st.tabs(["Improvement plan", "Rate the expected actions", "Exercise overview"],
                       key="tt_wrap_tabs")  # fmt: skip
        with tabs[0]:
            plan_editor(view, room, key, notice)
        with tabs[1]:
            ratings(view, room, key, notice)
        with tabs[2]:
            overview_form(view, room, key, notice)
    st.subheader("After-action report and improvement plan")
    if me is None:
        access(view, room, key, notice)
    elif not view["exercise"]["report_released"]:
        st.caption("The facilitator keeps the expected actions, the ratings and the audit log "
                   "until they release them.")  # fmt: skip
    tt.report(room, key, me is None)


def access(view: dict[str, Any], room: str, key: str, notice: str) -> None:
    """Release the facilitator-only parts of the report to the players, or withhold them."""
    released = view["exercise"]["report_released"]
    label = "Withhold the full report from players" if released else (
        "Release the full report to players")  # fmt: skip
    st.button(label, key="tt_release_report", icon=":material/lock_open:",
              help="The expected actions, your ratings and the audit log; players see the "
              "rest of the report either way.", on_click=tt.attempt,
              args=(partial(tt.service().release_report, room, key, not released),
                    notice))  # fmt: skip
