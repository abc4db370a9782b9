"""What the app's pages share: number formats, picking a scenario, and the set-up widgets
(levers, team, playbook) as scenario overrides.

Nothing here simulates; loading and validation are ``sim.scenario.loading``'s.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from sim.format import count as count_words
from sim.format import points as points
from sim.format import points_signed as points_signed
from sim.format import usd as usd
from sim.scenario.catalog import SHIPPED_DIR
from sim.scenario.levers import LEVERS, Lever
from sim.scenario.loading import ScenarioError, load_text
from sim.scenario.spec import DECISION_KINDS, DECISION_OPTIONS, RISK_KINDS, Scenario

# The model's words for its options live in sim (the CLI and the reports read them too);
# re-exported here for pages that still import them from ui.common.
from sim.scenario.vocabulary import DECISION_TITLES as DECISION_TITLES
from sim.scenario.vocabulary import OPTION_HELP as OPTION_HELP
from sim.scenario.vocabulary import words as words
from sim.tabletop.report.document import md_escape

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_DIR = SHIPPED_DIR
SHIPPED, UPLOAD = "A shipped scenario", "Upload a YAML file"
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


#: Word joiner: breaks what Streamlit's Markdown would turn into an icon or a link.
_JOIN = "\u2060"
_LINKISH = re.compile(r"(:)(?=\S)|(//)|(www)(\.)|(@)", re.IGNORECASE)


def esc(text: object) -> str:
    """Plain text inside Markdown: escaped, and no icon codes or auto-links."""
    escaped = md_escape(str(text))
    return _LINKISH.sub(lambda m: _JOIN.join(g for g in m.groups() if g) + _JOIN, escaped)


def scientific(value: float) -> str:
    """A large number as 1.68 × 10²³."""
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPT)}"


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A table's rows as dicts keyed by column name (pandas types its keys as ``Hashable``).

    Every table the app builds or edits has string column names; another name is an error.
    """
    names = list(frame.columns)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"a table's column names must be strings, not {names!r}")
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def shipped_scenarios() -> list[str]:
    """File names of the scenarios in ``scenarios/``."""
    return sorted(p.name for p in SCENARIO_DIR.glob("*.yaml"))


def choose_scenario_text(
    key: str = "scenario", prefer: str | None = None
) -> tuple[str, str] | None:
    """The YAML text the user picked and a name for it in messages, or None.

    ``key`` prefixes the widgets' keys (one set per page); ``prefer`` is the shipped file
    selected first when it exists.
    """
    mode = st.radio("Scenario", (SHIPPED, UPLOAD), horizontal=True, key=f"{key}_mode")
    if mode == SHIPPED:
        names = shipped_scenarios()
        if not names:
            st.info("There are no scenarios in `scenarios/` yet; upload one instead.")
            return None
        index = names.index(prefer) if prefer in names else 0
        name = st.selectbox("Shipped scenario", names, index=index, key=f"{key}_file")
        path = SCENARIO_DIR / name
        return path.read_text(encoding="utf-8"), f"scenarios/{name}"
    upload = st.file_uploader("Scenario file (YAML)", type=["yaml", "yml"], key=f"{key}_upload")
    if upload is None:
        st.info("Choose a scenario file. The shipped ones in `scenarios/` are good templates.")
        return None
    try:
        return upload.getvalue().decode("utf-8"), upload.name
    except UnicodeDecodeError:
        st.error(f"{upload.name}: file is not UTF-8 text")
        return None


@st.cache_data(show_spinner=False, max_entries=32)
def load(text: str, source: str) -> Scenario:
    return load_text(text, source)


def show_problems(error: ScenarioError) -> None:
    count = len(error.problems)
    st.markdown(f"**This scenario has {count_words(count, 'problem')}:**")
    for problem in error.problems:
        st.error(str(problem), icon=":material/error:")


def pick_scenario(key: str = "scenario", prefer: str | None = None) -> tuple[Scenario, str] | None:
    """Let the user pick or upload a scenario; the valid scenario and its name, or None.

    Problems are shown inline, one per line with its file, line and field.
    """
    picked = choose_scenario_text(key, prefer)
    if picked is None:
        return None
    text, source = picked
    try:
        return load(text, source), source
    except ScenarioError as error:
        show_problems(error)
        return None


# --- set-up widgets: levers, team and playbook as scenario overrides ---


#: The app's lever widgets: the lever registry, in its order (sim/scenario/levers.py).
LEVER_WIDGETS: tuple[Lever, ...] = LEVERS
NOBODY = "(nobody)"


def lever_input(spec: Lever, value: Any, key: str, disabled: bool = False) -> Any:
    """One lever's widget, labelled in words and by its name; returns its value."""
    label = f"{spec.label} · `{spec.name}`"
    common: dict[str, Any] = {"key": key, "help": spec.help, "disabled": disabled}
    args = spec.widget_args
    if spec.widget == "radio":
        options = args["options"]
        return st.radio(label, options, index=options.index(value), horizontal=True, **common)
    if spec.widget == "checkbox":
        # The name alone: a checkbox label does not wrap; the words go to the tooltip.
        common["help"] = f"{spec.label}. {spec.help}"
        return st.checkbox(f"`{spec.name}`", bool(value), **common)
    typed = type(args["min_value"])(value)
    if spec.widget == "slider":
        return st.slider(label, value=typed, **args, **common)
    return st.number_input(label, value=typed, **args, **common)


def lever_inputs(scenario: Scenario, prefix: str) -> dict[str, Any]:
    """Every lever of ``LEVER_WIDGETS`` as a widget in two columns; returns their values."""
    lev, values = scenario.levers, dict[str, Any]()
    columns = st.columns(2)
    for i, spec in enumerate(LEVER_WIDGETS):
        needs = spec.needs.removeprefix("levers.") if spec.needs else None
        disabled = (spec.name == "strategy" and scenario.model.base_model is None) or (
            needs is not None and not values.get(needs)
        )
        with columns[0 if i < len(LEVER_WIDGETS) // 2 else 1]:
            values[spec.name] = lever_input(
                spec, getattr(lev, spec.name), f"{prefix}{spec.name}", disabled
            )
    return values


def team_inputs(scenario: Scenario, prefix: str) -> dict[str, Any]:
    """Headcounts, decision rights and risk owners; the changed ones as overrides."""
    org, changes = scenario.org, dict[str, Any]()
    st.markdown("**Headcount** (★ core co-design teams)")
    grid = st.columns(4)
    core = set(scenario.co_design_team_ids)
    for i, team in enumerate(org.teams):
        label = f"{'★ ' if team.id in core else ''}{team.name or team.id}"
        n = grid[i % 4].number_input(label, 1, 10_000, team.headcount, key=f"{prefix}team{i}")
        if n != team.headcount:
            changes[f"org.teams.{i}.headcount"] = int(n)
    teams = [t.id for t in org.teams]
    st.markdown("**Who holds each decision right** (`org.decision_rights`)")
    for column, kind in zip(st.columns(len(DECISION_KINDS)), DECISION_KINDS, strict=True):
        holder = org.decision_rights.get(kind)  # type: ignore[call-overload]
        at = teams.index(holder) if holder in teams else 0
        right = column.selectbox(kind, teams, index=at, key=f"{prefix}right_{kind}")
        if right != holder:
            changes[f"org.decision_rights.{kind}"] = right
    st.markdown("**Who owns each risk** (`org.risk_owners`; an unowned risk surfaces late)")
    owners, cells = [NOBODY, *teams], st.columns(5)
    for i, risk in enumerate(RISK_KINDS):
        owner = org.risk_owners.get(risk)  # type: ignore[call-overload]
        at = owners.index(owner) if owner in owners else 0
        picked = cells[i % 5].selectbox(words(risk), owners, index=at, key=f"{prefix}{risk}")
        new_owner = None if picked == NOBODY else picked
        if new_owner != owner:
            changes[f"org.risk_owners.{risk}"] = new_owner
    return changes


def playbook_inputs(scenario: Scenario, prefix: str) -> dict[str, list[str]]:
    """The playbook: ordered responses per decision kind; an empty kind is left ad hoc."""
    st.caption(
        "Responses agreed in advance, in order of preference. A decision kind with a playbook "
        "entry reaches its owner faster (no deliberation); where there is none, whoever holds "
        "the right decides ad hoc."
    )
    playbook = {}
    for column, kind in zip(st.columns(len(DECISION_KINDS)), DECISION_KINDS, strict=True):
        default = list(scenario.levers.playbook.get(kind, []))  # type: ignore[call-overload]
        chosen = column.multiselect(
            f"`{kind}`", DECISION_OPTIONS[kind], default=default, key=f"{prefix}playbook_{kind}",
            format_func=words, placeholder="ad hoc",
        )  # fmt: skip
        if chosen:
            playbook[kind] = list(chosen)
    return playbook


def setup_overrides(scenario: Scenario, prefix: str) -> dict[str, Any]:
    """Levers, team and playbook as tabs of widgets; the changes as ``with_overrides`` paths.

    ``prefix`` keys the widgets: give each scenario its own, so they start from its values.
    """
    levers_tab, team_tab, playbook_tab = st.tabs(
        ["Levers", "Team and decision rights", "Playbook"], key=f"{prefix}_setup_tabs"
    )
    with levers_tab:
        values = lever_inputs(scenario, prefix)
    with team_tab:
        changes = team_inputs(scenario, prefix)
    with playbook_tab:
        playbook = playbook_inputs(scenario, prefix)
    lev = scenario.levers
    for name, value in values.items():
        if value != getattr(lev, name):
            changes[f"levers.{name}"] = value
    if playbook != {kind: list(v) for kind, v in lev.playbook.items()}:
        changes["levers.playbook"] = playbook
    return changes
