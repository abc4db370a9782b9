"""Design editor: build any organisation on a base scenario; save it as a design file.

Every edit is an operation of ``sim.compare.editing`` (rename a team everywhere it is
named, remove a team and hand its duties on, rank the playbook...); this page only shows
the draft and passes edits on. A problem comes back in words, shown at the part it is
about. The design saves as a design file (the base plus its changes, ``sim.designs``)
that loads back here and works with ``sim compare --design FILE``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from sim.compare import editing
from sim.designs import DesignFile, design_yaml, diff, load_design
from sim.engine.org import OrgGraph
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import (
    DECISION_KINDS,
    RISK_KINDS,
    Budget,
    Gate,
    Link,
    Scenario,
    Team,
    Workstream,
)
from ui.common import NOBODY, lever_inputs, pick_scenario, records, words

KEY = "editor"


# --- the draft -----------------------------------------------------------------------------


def _state(base: Scenario, source: str) -> dict[str, Any]:
    state = st.session_state.get(KEY)
    if not isinstance(state, dict) or state.get("source") != source:
        state = {"source": source, "draft": base, "version": 0, "problems": {}, "name": "My design"}
        st.session_state[KEY] = state
    return state


def _apply(state: dict[str, Any], where: str, edit: Callable[[Scenario], Scenario]) -> None:
    """Run an edit on the draft; keep the problems, in words, for the part ``where``."""
    try:
        state["draft"] = edit(state["draft"])
    except ScenarioError as error:
        state["problems"] = {where: [f"{p.path}: {p.reason}" for p in error.problems]}
        return
    state["problems"] = {}
    state["version"] += 1
    st.rerun()


def _problems(state: dict[str, Any], where: str) -> None:
    for line in state["problems"].get(where, []):
        st.error(line, icon=":material/error:")


def _k(state: dict[str, Any], name: str) -> str:
    return f"{KEY}_{state['version']}_{name}"


def _required(part: type[BaseModel], key: str) -> bool:
    """Whether the field of ``part`` named (or aliased) ``key`` must be given."""
    for name, info in part.model_fields.items():
        if key in (name, info.alias):
            return info.is_required()
    return True


def _column_config(
    part: type[BaseModel], teams: list[str], skip: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Streamlit column settings from the spec's own fields (kinds, choices, bounds)."""
    out: dict[str, Any] = {}
    for c in editing.columns(part):
        if c.key in skip:
            continue
        label, helptext = c.key.replace("_", " "), c.description or None
        if c.key in ("from", "to", "owner", "team"):
            out[c.key] = st.column_config.SelectboxColumn(
                label, options=teams, required=_required(part, c.key), help=helptext
            )
        elif c.kind == "choice":
            out[c.key] = st.column_config.SelectboxColumn(
                label, options=list(c.choices), help=helptext
            )
        elif c.kind == "choices":
            out[c.key] = st.column_config.MultiselectColumn(
                label, options=list(c.choices), help=helptext
            )
        elif c.kind == "bool":
            out[c.key] = st.column_config.CheckboxColumn(label, help=helptext)
        elif c.kind in ("int", "float", "optional_float"):
            step = 1 if c.kind == "int" else None
            out[c.key] = st.column_config.NumberColumn(
                label,
                min_value=c.low,
                max_value=c.high,
                step=step,
                help=helptext,
                required=c.kind != "optional_float",
            )
        elif c.kind == "text":
            out[c.key] = st.column_config.TextColumn(label, help=helptext)
    return out


def _rows(items: list[BaseModel]) -> list[dict[str, Any]]:
    return [x.model_dump(by_alias=True) for x in items]


def _plain(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows from a data editor as plain values (NaN of an empty optional cell is None)."""
    out = []
    for row in records:
        clean = {}
        for k, v in row.items():
            if isinstance(v, float) and v != v:
                v = None
            elif hasattr(v, "item"):
                v = v.item()
            elif isinstance(v, tuple):
                v = list(v)
            clean[k] = v
        out.append(clean)
    return out


def _table(
    state: dict[str, Any],
    where: str,
    path: str,
    part: type[BaseModel],
    items: list[BaseModel],
    *,
    rows_fixed: bool,
    skip: tuple[str, ...] = (),
) -> None:
    """A part's list as an editable table; an edit goes through the editing operations."""
    draft: Scenario = state["draft"]
    rows = _rows(items)
    # Lists (a gate's defect kinds) last, so the short fields (a gate's strength and
    # owner) stay in view in a narrow column.
    cols = sorted(editing.columns(part), key=lambda c: c.kind == "choices")
    frame = pd.DataFrame(rows, columns=[c.key for c in cols])
    config = _column_config(part, draft.team_ids, skip)
    if rows_fixed and "id" in frame:
        config["id"] = st.column_config.TextColumn("id", disabled=True)
    edited = st.data_editor(
        frame,
        key=_k(state, where),
        hide_index=True,
        width="stretch",
        column_config=config,
        num_rows="fixed" if rows_fixed else "dynamic",
    )
    new = _plain(records(edited))
    if new != _plain(records(frame)):
        if rows_fixed:
            _apply(state, where, lambda s: editing.update_items(s, path, new))
        else:
            complete = [
                r
                for r in new
                if all(r.get(k) not in (None, "") for k in ("id", "from"))
                if set(r) & {"id", "from"}
            ]
            _apply(
                state,
                where,
                lambda s: editing.set_list(
                    s, path, [{k: v for k, v in r.items() if v is not None} for r in complete]
                ),
            )
    _problems(state, where)


# --- the parts -----------------------------------------------------------------------------


def teams_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    st.caption(
        "Edit headcount, seniority and day rates in the table. Add, rename and remove "
        "teams below: a rename follows the team into every field that names it."
    )
    _table(state, "teams", "org.teams", Team, list(draft.org.teams), rows_fixed=True)
    add, rename, remove = st.columns(3, gap="medium")
    with add.form(_k(state, "add_team"), border=True):
        st.markdown("**Add a team**")
        ident = st.text_input("id (lower case, e.g. red_team)", key=_k(state, "add_id"))
        name = st.text_input("name", key=_k(state, "add_name"))
        people = st.number_input("headcount", 1, 10_000, 3, key=_k(state, "add_n"))
        if st.form_submit_button("Add team", icon=":material/group_add:"):
            _apply(
                state,
                "add",
                lambda s: editing.add_team(s, ident.strip(), name=name, headcount=int(people)),
            )
    _problems(state, "add")
    with rename.form(_k(state, "rename_team"), border=True):
        st.markdown("**Rename a team**")
        old = st.selectbox("team", draft.team_ids, key=_k(state, "ren_old"))
        new = st.text_input("new id", key=_k(state, "ren_new"))
        if st.form_submit_button("Rename", icon=":material/edit:"):
            _apply(state, "rename", lambda s: editing.rename_team(s, old, new.strip()))
    _problems(state, "rename")
    with remove.container(border=True):
        st.markdown("**Remove a team**")
        gone = st.selectbox("team", draft.team_ids, key=_k(state, "rm_team"))
        refs = editing.team_references(draft, gone)
        heirs = ["(nobody: its risks become unowned)", *[t for t in draft.team_ids if t != gone]]
        heir = st.selectbox("who takes over what it holds", heirs, key=_k(state, "rm_heir"))
        with st.expander(f"What names {gone} ({len(refs)})"):
            st.markdown("\n".join(f"- {r.words}" for r in refs) or "nothing")
        if st.button("Remove team", key=_k(state, "rm_go"), icon=":material/group_remove:"):
            successor = None if heir.startswith("(nobody") else heir
            _apply(state, "remove", lambda s: editing.remove_team(s, gone, successor))
    _problems(state, "remove")


def links_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    st.caption(
        "Who hands work to whom, who talks and who reports; latencies in days. Add a row "
        "for a new link, select rows and delete them to cut links."
    )
    _table(state, "links", "org.links", Link, list(draft.org.links), rows_fixed=False)
    politics = st.number_input(
        "Politics: extra days per hop a decision travels (`org.politics_days`)",
        0.0,
        30.0,
        float(draft.org.politics_days),
        0.25,
        key=_k(state, "politics"),
    )
    if politics != draft.org.politics_days:
        _apply(state, "politics", lambda s: editing.set_value(s, "org.politics_days", politics))
    _problems(state, "politics")


#: Select boxes a row in the rights and risks tab.
GRID = 3


def rights_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    teams = draft.team_ids
    st.markdown("**Who holds each decision right** (`org.decision_rights`)")
    grid = st.columns(GRID)  # wide enough for a team's id
    for i, kind in enumerate(DECISION_KINDS):
        holder = draft.org.decision_rights[kind]  # type: ignore[index]
        picked = grid[i % GRID].selectbox(
            kind, teams, index=teams.index(holder), key=_k(state, f"right_{kind}")
        )
        if picked != holder:
            _apply(
                state,
                "rights",
                partial(editing.set_value, path=f"org.decision_rights.{kind}", value=picked),
            )
    _problems(state, "rights")
    st.markdown("**Who owns each risk** (`org.risk_owners`; an unowned risk surfaces late)")
    owners, cells = [NOBODY, *teams], st.columns(GRID)
    for i, risk in enumerate(RISK_KINDS):
        owner = draft.org.risk_owners.get(risk)  # type: ignore[call-overload]
        picked = cells[i % GRID].selectbox(
            words(risk), owners, index=owners.index(owner or NOBODY), key=_k(state, f"risk_{risk}")
        )
        if (None if picked == NOBODY else picked) != owner:
            value = None if picked == NOBODY else picked
            _apply(
                state,
                "risks",
                partial(editing.set_value, path=f"org.risk_owners.{risk}", value=value),
            )
    _problems(state, "risks")


def work_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    st.caption(
        "The plan's work: who owns each workstream, its effort and what kind of work it "
        "is (its role sets how much co-design the people on it need)."
    )
    _table(
        state,
        "work",
        "plan.workstreams",
        Workstream,
        list(draft.plan.workstreams),
        rows_fixed=True,
        skip=("depends_on",),
    )


def _item_model(parent: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The model of a list field's items (``Org.contributions`` -> ``Contribution``), if any."""
    info = parent.model_fields.get(name)
    args = getattr(info.annotation, "__args__", ()) if info else ()
    return (
        args[0] if args and isinstance(args[0], type) and issubclass(args[0], BaseModel) else None
    )


def contributions_part(state: dict[str, Any]) -> None:
    """Changes teams want in the final model, where the spec has them (``org.contributions``)."""
    draft: Scenario = state["draft"]
    model = _item_model(type(draft.org), "contributions")
    if model is None:
        return
    st.markdown(
        "**Contributions** teams push into the final model (untested ones skip the ablation gate)"
    )
    _table(
        state,
        "contributions",
        "org.contributions",
        model,
        list(getattr(draft.org, "contributions")),  # noqa: B009 (not every spec has it)
        rows_fixed=False,
    )


def gates_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    st.caption(
        "Each gate is a review after its phase: it looks for the defect kinds it catches "
        "and finds each with the chance in strength. The review takes its owner's time (left "
        "empty: each kind's risk owner), more for each step of strength than the last. Add a "
        "row for a new gate; select rows and delete to drop one."
    )
    _table(state, "gates", "plan.gates", Gate, list(draft.plan.gates), rows_fixed=False)
    st.markdown(
        "\n".join(
            f"- **{g.id}** (after {g.after}) stands on {editing.GATE_EXPERIMENTS[g.after]}."
            for g in draft.plan.gates
        )
    )


def budget_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    budget = draft.objective.budget
    st.markdown(f"**Budget lines** (total {budget.total_usd:,.0f} USD)")
    cols = st.columns(4)
    for col, c in zip(cols * 2, editing.columns(Budget), strict=False):
        value = float(getattr(budget, c.key))
        new = col.number_input(
            c.key.replace("_", " "), 0.0, 1e13, value, 10_000.0, key=_k(state, f"b_{c.key}")
        )
        if new != value:
            _apply(
                state,
                "budget",
                partial(editing.set_value, path=f"objective.budget.{c.key}", value=new),
            )
    _problems(state, "budget")
    st.markdown("**Levers** (the reserve is a share of the total budget)")
    values = lever_inputs(draft, _k(state, "lev_"))
    changed = {k: v for k, v in values.items() if v != getattr(draft.levers, k)}
    if changed:
        _apply(
            state,
            "levers",
            lambda s: editing.rebuilt(s, {"levers": {**s.levers.model_dump(), **changed}}),
        )
    _problems(state, "levers")


def playbook_part(state: dict[str, Any]) -> None:
    draft: Scenario = state["draft"]
    st.caption(
        "Responses agreed in advance, in order of preference: the first that applies is "
        "taken. A decision kind with no entry is decided ad hoc by whoever holds the right."
    )
    for kind in DECISION_KINDS:
        ranked = list(draft.levers.playbook.get(kind, []))  # type: ignore[call-overload]
        with st.container(border=True):
            st.markdown(
                f"**{kind}**: "
                + (" → ".join(f"{i}. {o}" for i, o in enumerate(ranked, 1)) or "ad hoc")
            )
            for i, option in enumerate(ranked):
                row = st.columns([4, 1, 1, 1], vertical_alignment="center")
                row[0].markdown(f"{i + 1}. `{option}`")
                if row[1].button("↑", key=_k(state, f"up_{kind}_{option}"), disabled=i == 0):
                    _apply(
                        state,
                        "playbook",
                        partial(editing.playbook_move, kind=kind, option=option, by=-1),
                    )
                if row[2].button(
                    "↓", key=_k(state, f"dn_{kind}_{option}"), disabled=i == len(ranked) - 1
                ):
                    _apply(
                        state,
                        "playbook",
                        partial(editing.playbook_move, kind=kind, option=option, by=1),
                    )
                if row[3].button("✕", key=_k(state, f"rm_{kind}_{option}")):
                    _apply(
                        state,
                        "playbook",
                        partial(editing.playbook_remove, kind=kind, option=option),
                    )
            rest = [o for o in editing.playbook_options(kind) if o not in ranked]
            if rest:
                add = st.selectbox(
                    f"add a response to {kind}", ["—", *rest], key=_k(state, f"add_{kind}")
                )
                if add != "—":
                    _apply(state, "playbook", partial(editing.playbook_add, kind=kind, option=add))
    _problems(state, "playbook")


# --- saving and loading --------------------------------------------------------------------


def design_file(state: dict[str, Any], base: Scenario) -> str:
    changes = {k: v for k, v in diff(base, state["draft"]).items() if k != "name"}
    return design_yaml(
        DesignFile(state["name"], state["source"].removeprefix("scenarios/"), changes)
    )


def load_part(state: dict[str, Any], base: Scenario) -> None:
    upload = st.file_uploader(
        "Load a design file (YAML): it applies to this base",
        type=["yaml", "yml"],
        key=f"{KEY}_upload",
    )
    if upload is None or state.get("loaded") == upload.file_id:
        return
    try:
        design = load_design(upload.getvalue().decode("utf-8", errors="replace"), upload.name)
        state["draft"] = design.apply(base, upload.name).model_copy(update={"name": base.name})
    except ScenarioError as error:
        for p in error.problems:
            st.error(str(p), icon=":material/error:")
        return
    state.update(loaded=upload.file_id, name=design.name, problems={})
    state["version"] += 1
    st.rerun()


def render() -> None:
    st.title("Design editor")
    st.markdown(
        "Build an organisation on a base scenario: its teams, links, rights, risks, work, "
        "gates, budget, levers and playbook. Save it as a design file, compare it on the "
        "**Compare** page or with `sim compare --design FILE`, or search around it on "
        "**Optimize**."
    )
    picked = pick_scenario("editor_base", prefer="assistant_7b.yaml")
    if picked is None:
        return
    base, source = picked
    state = _state(base, source)
    load_part(state, base)
    # The chart first, the page's full width: a dozen teams stay readable.
    chart = st.container()
    edit, side = st.columns([3, 2], gap="large")
    with edit:
        tabs = st.tabs(
            [
                "Teams",
                "Links",
                "Rights and risks",
                "Work",
                "Gates",
                "Budget and levers",
                "Playbook",
            ],
            key=f"{KEY}_tabs",
        )
        parts = (
            teams_part,
            links_part,
            rights_part,
            work_part,
            gates_part,
            budget_part,
            playbook_part,
        )
        for tab, part in zip(tabs, parts, strict=True):
            with tab:
                part(state)
    draft: Scenario = state["draft"]
    with chart:
        st.graphviz_chart(OrgGraph(draft).to_dot(), width="stretch")
        st.caption(
            "The organisation as it stands, redrawn at every edit. Solid blue: handoffs; "
            "green dashes: communication; grey dots: reporting; labels are latencies in days."
        )
    with side:
        state["name"] = st.text_input("Design name", state["name"], key=f"{KEY}_name")
        changes = editing.readable_changes(base, draft)
        st.markdown(f"**Changes from the base** ({len(changes)})")
        st.markdown("\n".join(f"- {line}" for line in changes) or "No changes yet.")
        text = design_file(state, base)
        st.download_button(
            "Save this design (YAML)",
            text,
            "design.yaml",
            "application/x-yaml",
            key=f"{KEY}_download",
            icon=":material/download:",
            disabled=not changes,
            on_click="ignore",
        )
        with st.expander("The design file"):
            st.code(text, language="yaml")
        if st.button("Start over from the base", key=f"{KEY}_reset", icon=":material/restart_alt:"):
            st.session_state.pop(KEY, None)
            st.rerun()


if __name__ == "__main__":
    render()
