"""Design presets and deltas: apply, diff, save and load, with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.designs import (
    PRESETS,
    DesignFile,
    apply_delta,
    concrete,
    design_yaml,
    diff,
    load_design,
    preset,
)
from sim.scenario.loading import ScenarioError, load_scenario
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "assistant_7b.yaml")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_preset_applies_to_every_shipped_scenario(path: Path) -> None:
    sc = load_scenario(path)
    for p in PRESETS:
        design = p.apply(sc)
        assert design != sc or p.key == "small_core"
        assert apply_delta(sc, diff(sc, design)) == design


def test_presets_say_what_the_essay_says(base: Scenario) -> None:
    assert len({p.key for p in PRESETS}) == len(PRESETS) >= 4
    for p in PRESETS:
        assert 200 < len(p.rationale) < 900, p.key
    siloed = preset("large_siloed").apply(base)
    assert siloed.levers.engineering_embedded is False and siloed.org.politics_days > 0
    core = {t.id: t.headcount for t in base.org.teams if t.id in base.co_design_team_ids}
    assert core and all(t.headcount == 2 * core[t.id] for t in siloed.org.teams if t.id in core)
    assert any(t.territorial for t in siloed.org.teams)
    variants = preset("many_variants").apply(base)
    assert variants.levers.parallel_variants > 1 and variants.org.politics_days > 0
    apart = preset("evergreen_apart").apply(base)
    research = next(t for t in apart.org.teams if t.id == "evergreen_research")
    # Kept apart, it does no co-design work, and the project pays for it.
    assert research.evergreen and research.id not in apart.co_design_team_ids
    assert research.usd_per_person_day > 0
    inside = preset("research_in_core").apply(base)
    assert inside.org.contributions and not any(c.tested for c in inside.org.contributions)
    with pytest.raises(ValueError, match="unknown design"):
        preset("flat")


def test_teams_are_addressed_by_id_and_new_items_appended(base: Scenario) -> None:
    delta = {
        "org.teams.pretraining.headcount": 9,
        "org.teams.research.headcount": 3,  # unknown id with a scalar: an error
    }
    with pytest.raises(ScenarioError, match="no item with id 'research'"):
        apply_delta(base, delta)
    added = apply_delta(
        base,
        {
            "org.teams.research": {"headcount": 3},
            "org.teams.research.seniority": 0.9,
            "org.links.+": [{"from": "research", "to": "pretraining", "kind": "communication"}],
        },
    )
    research = added.org.teams[-1]
    assert (research.id, research.headcount, research.seniority) == ("research", 3, 0.9)
    assert added.org.links[-1].source == "research"
    index = base.team_ids.index("pretraining")
    assert concrete(base, {"org.teams.pretraining.headcount": 9}) == {
        f"org.teams.{index}.headcount": 9
    }


def test_a_delta_is_validated_like_a_scenario(base: Scenario) -> None:
    with pytest.raises(ScenarioError) as err:
        apply_delta(base, {"levers.reserve_fraction": 0.9})
    assert err.value.problems[0].path == "levers.reserve_fraction"
    with pytest.raises(ScenarioError, match="unknown team 'ghost'"):
        apply_delta(base, {"org.decision_rights.rollback": "ghost"})


def test_design_file_round_trip(base: Scenario) -> None:
    design = preset("evergreen_apart").apply(base)
    changes = diff(base, design)
    text = design_yaml(DesignFile("Research apart", "assistant_7b.yaml", changes))
    assert text.startswith("# A TrainingRoom design")
    assert "org.teams.evergreen_research:" in text
    loaded = load_design(text, "mine.yaml")
    assert loaded.name == "Research apart" and loaded.base == "assistant_7b.yaml"
    assert apply_delta(base, loaded.changes) == design


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\n", "changes"),
        ("changes: {}\n", "changes"),
        ("changes: {levers.reserve_fraction: 0.2}\nextra: 1\n", "unknown key"),
        ("name: [1]\nchanges: {levers.reserve_fraction: 0.2}\n", "must be text"),
        ("- a\n", "mapping"),
        ("changes: !!python/object:os.system {}\n", "mine.yaml"),
    ],
)
def test_bad_design_files_are_user_errors(text: str, message: str) -> None:
    with pytest.raises(ScenarioError, match=message) as exc:
        load_design(text, "mine.yaml")
    assert all(p.source == "mine.yaml" and p.line is not None for p in exc.value.problems)


DESIGN = """name: typo design
base: assistant_7b.yaml
changes:
  levers.reserve_fraction: 0.1
  org.teams.pretraining.headcount: {headcount}
  org.teams.{team}.headcount: 3
"""


@pytest.mark.parametrize(
    ("headcount", "team", "line", "path", "reason"),
    [
        (12, "ghost", 6, "org.teams.ghost.headcount", "no item with id 'ghost'"),
        (-4, "data", 5, "org.teams.2.headcount", "greater than or equal to 1"),
    ],
)
def test_a_design_file_problem_names_the_line_of_its_change(
    base: Scenario, headcount: int, team: str, line: int, path: str, reason: str
) -> None:
    design = load_design(DESIGN.format(headcount=headcount, team=team), "mine.yaml")
    with pytest.raises(ScenarioError) as exc:
        design.apply(base, "mine.yaml")
    [problem] = exc.value.problems
    assert (problem.source, problem.line, problem.path) == ("mine.yaml", line, path)
    assert reason in problem.reason
    assert str(problem).startswith(f"mine.yaml:{line}: {path}: ")


def test_funding_the_full_plan_stops_the_run_being_cut(base: Scenario) -> None:
    from sim.designs import full_plan_budget_usd, fund_full_plan
    from sim.engine.model import ProjectModel

    # The shipped project already fits its budget: nothing to fund.
    assert full_plan_budget_usd(base) <= base.objective.budget.total_usd
    assert fund_full_plan(base) is base
    siloed = preset("large_siloed").apply(base)
    assert ProjectModel(siloed, seed=0).plan.scope_cuts, "its payroll cuts the plan's scope"
    funded = fund_full_plan(siloed)
    extra = funded.objective.budget.people_usd - siloed.objective.budget.people_usd
    assert extra > 0 and funded.objective.budget.compute_usd == siloed.objective.budget.compute_usd
    for rep in range(12):  # the set-up projection does not depend on the draws
        assert not ProjectModel(funded, seed=3, replication=rep).plan.scope_cuts
    assert fund_full_plan(funded) is funded, "funding twice changes nothing"
