"""Invariants of the Scenario schema, checked with hypothesis on variants of the shipped scenario.

Variants are made with ``with_overrides`` (validated exactly like a file, without YAML), so
these run fast.
"""

from __future__ import annotations

import json
import re
from typing import Any

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sim.cli.scenarios import scenario_schema
from sim.scenario.levers import LEVERS
from sim.scenario.loading import ScenarioError, load_text, scenario_yaml, with_overrides
from sim.scenario.spec import (
    DECISION_KINDS,
    DECISION_OPTIONS,
    RISK_KINDS,
    Budget,
    BudgetCut,
    ModelSpec,
    Scenario,
    Team,
)

PROPS = settings(max_examples=60, deadline=None)
money = st.floats(min_value=0, max_value=1e12, allow_nan=False)
any_float = st.floats(allow_nan=True, allow_infinity=False)


def problems(scenario: Scenario, overrides: dict[str, Any]) -> list[tuple[str, str]]:
    """``(path, reason)`` of each problem the overrides cause; empty when valid."""
    try:
        with_overrides(scenario, overrides)
    except ScenarioError as exc:
        return [(p.path, p.reason) for p in exc.problems]
    return []


# --- money ----------------------------------------------------------------------------------


@PROPS
@given(money, money, money, money)
def test_budget_categories_add_up_to_total(
    compute: float, people: float, licensing: float, annotation: float
) -> None:
    budget = Budget(
        compute_usd=compute,
        people_usd=people,
        data_licensing_usd=licensing,
        annotation_usd=annotation,
    )
    categories = [compute, people, licensing, annotation]
    assert budget.total_usd == pytest.approx(sum(categories), rel=1e-12)
    assert budget.total_usd >= max(categories) >= 0


@PROPS
@given(
    st.sampled_from(["compute_usd", "people_usd", "data_licensing_usd", "annotation_usd"]),
    any_float,
)
def test_budget_category_is_never_negative(category: str, value: float) -> None:
    fields = {"compute_usd": 1.0, "people_usd": 1.0, category: value}
    if value >= 0:
        assert getattr(Budget(**fields), category) == value
    else:
        with pytest.raises(ValidationError):
            Budget(**fields)


@PROPS
@given(money, money)
def test_budget_overrides_keep_the_total_consistent(
    scenario: Scenario, compute: float, people: float
) -> None:
    s = with_overrides(
        scenario, {"objective.budget.compute_usd": compute, "objective.budget.people_usd": people}
    )
    b = s.objective.budget
    assert b.total_usd == pytest.approx(
        compute + people + b.data_licensing_usd + b.annotation_usd, rel=1e-12
    )


# --- ranges ---------------------------------------------------------------------------------

#: Override path, lowest and highest allowed value, whether each end is included.
RANGES = [
    *(  # every bounded float lever, from the lever registry
        (lever.path, *lever.bounds, True, True)
        for lever in LEVERS
        if lever.field.annotation is float and None not in lever.bounds
    ),
    ("cluster.mfu", 0.0, 1.0, False, True),
    ("incidents.budget_cut.probability", 0.0, 1.0, True, True),
    ("model.novelty", 0.0, 1.0, True, True),
    ("model.data_quality", 0.0, 2.0, False, True),
]


@pytest.mark.parametrize(("path", "low", "high", "low_ok", "high_ok"), RANGES)
@settings(max_examples=40, deadline=None)
@given(value=st.floats(min_value=-3, max_value=3000, allow_nan=False))
def test_values_are_accepted_exactly_inside_their_range(
    scenario: Scenario,
    path: str,
    low: float,
    high: float,
    low_ok: bool,
    high_ok: bool,
    value: float,
) -> None:
    inside = (low < value or (low_ok and value == low)) and (
        value < high or (high_ok and value == high)
    )
    found = problems(scenario, {path: value})
    if inside:
        assert found == []
    else:
        assert [p for p, _ in found] == [path]


@pytest.mark.parametrize("path", ["cluster.mfu", "levers.reserve_fraction", "cluster.failure_rate"])
def test_nan_is_refused(scenario: Scenario, path: str) -> None:
    assert [p for p, _ in problems(scenario, {path: float("nan")})] == [path]


@PROPS
@given(st.floats(0, 400), st.floats(0, 400))
def test_budget_cut_window_must_not_run_backwards(earliest: float, latest: float) -> None:
    if latest >= earliest:
        BudgetCut(earliest_day=earliest, latest_day=latest)
    else:
        with pytest.raises(ValidationError, match="latest_day"):
            BudgetCut(earliest_day=earliest, latest_day=latest)


@PROPS
@given(st.floats(0.1, 1000), st.none() | st.floats(0.1, 1000))
def test_active_parameters(params: float, active: float | None) -> None:
    model = ModelSpec(params_b=params, active_params_b=active, tokens_b=100)
    assert model.active_b == (params if active is None else active)


IDENTIFIER = re.compile(r"[a-z][a-z0-9_\-]*")


@PROPS
@given(st.text(max_size=70) | st.from_regex(IDENTIFIER, fullmatch=True))
def test_identifiers(text: str) -> None:
    ok = bool(IDENTIFIER.fullmatch(text)) and len(text) <= 64
    if ok:
        assert Team(id=text, headcount=1).id == text
    else:
        with pytest.raises(ValidationError):
            Team(id=text, headcount=1)


# --- cross references -----------------------------------------------------------------------


@PROPS
@given(st.sets(st.sampled_from(RISK_KINDS)))
def test_each_risk_left_out_is_reported_as_unowned(scenario: Scenario, removed: set[str]) -> None:
    owners = {k: v for k, v in scenario.org.risk_owners.items() if k not in removed}
    found = problems(scenario, {"org.risk_owners": owners})
    assert {p for p, _ in found} <= {"org.risk_owners"}
    assert {re.search(r"risk '(\w+)' has no owner", r)[1] for _, r in found} == removed


@PROPS
@given(st.sets(st.sampled_from(DECISION_KINDS)))
def test_each_decision_right_left_out_is_reported(scenario: Scenario, removed: set[str]) -> None:
    rights = {k: v for k, v in scenario.org.decision_rights.items() if k not in removed}
    found = problems(scenario, {"org.decision_rights": rights})
    assert {re.search(r"the '(\w+)' decision right", r)[1] for _, r in found} == removed


def _references_to(data: dict[str, Any], team: str) -> set[str]:
    """Dotted paths in ``data`` where a team id is expected and ``team`` is named."""
    org, plan = data["org"], data["plan"]
    out = {
        f"org.links.{i}.{end}"
        for i, ln in enumerate(org["links"])
        for end in ("from", "to")
        if ln[end] == team
    }
    out |= {f"org.risk_owners.{k}" for k, v in org["risk_owners"].items() if v == team}
    out |= {f"org.decision_rights.{k}" for k, v in org["decision_rights"].items() if v == team}
    out |= {
        f"plan.workstreams.{i}.owner"
        for i, w in enumerate(plan["workstreams"])
        if w["owner"] == team
    }
    if plan.get("post_training_team") == team:
        out.add("plan.post_training_team")
    scripted = data.get("incidents", {}).get("scripted", [])
    out |= {
        f"incidents.scripted.{i}.team" for i, inc in enumerate(scripted) if inc.get("team") == team
    }
    return out


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_removing_a_team_reports_every_reference_to_it(
    scenario: Scenario, data: st.DataObject
) -> None:
    plain = json.loads(scenario.model_dump_json(by_alias=True))
    teams = plain["org"]["teams"]
    gone = data.draw(st.sampled_from(teams))["id"]
    found = problems(scenario, {"org.teams": [t for t in teams if t["id"] != gone]})
    remaining = ", ".join(sorted(t["id"] for t in teams if t["id"] != gone))
    # Each names the missing team and lists the teams there are.
    assert all(
        reason.startswith(f"unknown team {gone!r}; ") and reason.endswith(f"(teams: {remaining})")
        for _, reason in found
    )
    assert {path for path, _ in found} == _references_to(plain, gone)


@PROPS
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=10),
        )
    )
)
def test_dependency_cycles_are_found_exactly_when_present(
    scenario: Scenario, graph: tuple[int, set[tuple[int, int]]]
) -> None:
    n, edges = graph
    owner = scenario.org.teams[0].id
    workstreams = [
        {
            "id": f"w{i}",
            "owner": owner,
            "phase": "prepare",
            "effort_person_days": 1,
            "depends_on": sorted(f"w{a}" for a, b in edges if b == i),
        }
        for i in range(n)
    ]
    found = problems(scenario, {"plan.workstreams": workstreams})
    g = nx.DiGraph(edges)
    g.add_nodes_from(range(n))
    cyclic = not nx.is_directed_acyclic_graph(g)
    assert any("dependency cycle" in r for _, r in found) == cyclic
    assert all(p == "plan.workstreams" for p, _ in found)


# --- the playbook and the vocabulary --------------------------------------------------------


@PROPS
@given(st.data())
def test_playbook_accepts_exactly_the_options_of_its_decision(
    scenario: Scenario, data: st.DataObject
) -> None:
    kind = data.draw(st.sampled_from(DECISION_KINDS))
    known = st.sampled_from(DECISION_OPTIONS[kind])
    options = data.draw(st.lists(known | st.sampled_from(["panic", "ship_it", ""]), max_size=5))
    found = problems(scenario, {f"levers.playbook.{kind}": options})
    bad = {
        f"levers.playbook.{kind}.{j}"
        for j, o in enumerate(options)
        if o not in DECISION_OPTIONS[kind]
    }
    assert {p for p, _ in found} == bad


def test_vocabulary_is_consistent() -> None:
    assert set(DECISION_OPTIONS) == set(DECISION_KINDS)
    assert all(DECISION_OPTIONS[k] for k in DECISION_KINDS)
    defs = scenario_schema()["$defs"]
    risk_keys = defs["Org"]["properties"]["risk_owners"]["propertyNames"]["enum"]
    assert sorted(risk_keys) == sorted(RISK_KINDS)
    decision_keys = defs["Org"]["properties"]["decision_rights"]["propertyNames"]["enum"]
    assert sorted(decision_keys) == sorted(DECISION_KINDS)


# --- the object itself ----------------------------------------------------------------------


def test_scenario_is_immutable(scenario: Scenario) -> None:
    with pytest.raises(ValidationError):
        scenario.cluster.gpus = 1  # type: ignore[misc]


@settings(max_examples=20, deadline=None)
@given(
    reserve=st.floats(0, 0.5),
    checkpoint=st.floats(1, 1_440),
    early=st.booleans(),
    focus=st.sampled_from(["balanced", "single"]),
)
def test_yaml_round_trip(
    scenario: Scenario, reserve: float, checkpoint: float, early: bool, focus: str
) -> None:
    s = with_overrides(
        scenario,
        {
            "levers.reserve_fraction": reserve,
            "levers.checkpoint_minutes": checkpoint,
            "levers.product_evals_early": early,
            "levers.eval_focus": focus,
        },
    )
    assert load_text(scenario_yaml(s)) == s
