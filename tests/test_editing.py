"""The design editor's operations (sim.compare.editing) and its round trip through a design file."""

from __future__ import annotations

import pytest

from sim.compare import editing
from sim.designs import DesignFile, design_yaml, diff, load_design
from sim.runner import run_designs
from sim.scenario.loading import ScenarioError, load_scenario
from sim.scenario.spec import Gate, Team


@pytest.fixture(scope="module")
def base():
    return load_scenario("scenarios/assistant_7b.yaml")


def test_references_are_every_field_naming_the_team(base):
    refs = {r.path for r in editing.team_references(base, "pretraining")}
    assert "org.decision_rights.rollback" in refs
    assert "org.risk_owners.loss_spike" in refs
    owned = {
        f"plan.workstreams.{i}.owner"
        for i, w in enumerate(base.plan.workstreams)
        if w.owner == "pretraining"
    }
    assert owned and owned <= refs
    linked = {i for i, x in enumerate(base.org.links) if "pretraining" in (x.source, x.target)}
    assert {int(p.split(".")[2]) for p in refs if p.startswith("org.links.")} == linked


def test_rename_team_moves_every_reference(base):
    renamed = editing.rename_team(base, "pretraining", "pretrain_core")
    assert "pretraining" not in renamed.team_ids and "pretrain_core" in renamed.team_ids
    assert renamed.org.decision_rights["rollback"] == "pretrain_core"
    assert editing.team_references(renamed, "pretrain_core")
    # Nothing anywhere still names the old id.
    assert '"pretraining"' not in renamed.model_dump_json(by_alias=True)


def test_rename_to_an_existing_team_is_refused(base):
    with pytest.raises(ScenarioError, match="already a team 'data'"):
        editing.rename_team(base, "pretraining", "data")


def test_remove_team_says_what_needs_a_new_holder(base):
    with pytest.raises(ScenarioError) as err:
        editing.remove_team(base, "pretraining")
    paths = {p.path for p in err.value.problems}
    assert "org.decision_rights.rollback" in paths
    assert all("name who takes over" in p.reason for p in err.value.problems)


def test_remove_team_with_a_successor(base):
    out = editing.remove_team(base, "safety_legal", successor="product")
    assert "safety_legal" not in out.team_ids
    assert out.org.risk_owners["safety"] == "product"
    assert all("safety_legal" not in (x.source, x.target) for x in out.org.links)
    assert all(x.source != x.target for x in out.org.links)


def test_removing_a_team_that_only_owns_risks_leaves_them_unowned(base):
    lonely = editing.add_team(base, "red_team", headcount=2, seniority=0.8)
    lonely = editing.set_value(lonely, "org.risk_owners.safety", "red_team")
    out = editing.remove_team(lonely, "red_team")
    assert out.org.risk_owners["safety"] is None


def test_add_team_validates_its_fields(base):
    with pytest.raises(ScenarioError) as err:
        editing.add_team(base, "new_team", headcount=0)
    assert any(p.path.endswith("headcount") for p in err.value.problems)


def test_playbook_is_a_ranked_list(base):
    s = editing.set_value(base, "levers.playbook", {})
    s = editing.playbook_add(s, "rollback", "continue")
    s = editing.playbook_add(s, "rollback", "rollback_skip")
    assert s.levers.playbook["rollback"] == ["continue", "rollback_skip"]
    s = editing.playbook_move(s, "rollback", "rollback_skip", -1)
    assert s.levers.playbook["rollback"] == ["rollback_skip", "continue"]
    s = editing.playbook_remove(
        editing.playbook_remove(s, "rollback", "continue"), "rollback", "rollback_skip"
    )
    assert "rollback" not in s.levers.playbook


def test_gates_are_edited_and_bad_values_named(base):
    rows = [g.model_dump() for g in base.plan.gates]
    rows[0]["strength"] = 0.75
    out = editing.update_items(base, "plan.gates", rows)
    assert out.plan.gates[0].strength == 0.75
    rows[0]["strength"] = 1.5
    with pytest.raises(ScenarioError) as err:
        editing.update_items(base, "plan.gates", rows)
    assert err.value.problems[0].path == "plan.gates.0.strength"


def test_columns_follow_the_spec():
    kinds = {c.key: c.kind for c in editing.columns(Team)}
    assert kinds["headcount"] == "int" and kinds["seniority"] == "float"
    gate = {c.key: c for c in editing.columns(Gate)}
    assert gate["catches"].kind == "choices" and "licensing" in gate["catches"].choices
    assert gate["strength"].low == 0.0 and gate["strength"].high == 1.0


def test_edit_save_load_gives_the_same_design_and_numbers(base):
    s = editing.rename_team(base, "evals", "evaluation")
    s = editing.add_team(s, "red_team", name="Red team", headcount=3)
    s = editing.add_item(
        s,
        "org.links",
        {"from": "red_team", "to": "evaluation", "kind": "handoff", "latency_days": 2.0},
    )
    s = editing.remove_team(s, "safety_legal", successor="red_team")
    s = editing.set_value(s, "org.decision_rights.ship", "red_team")
    s = editing.set_value(s, "objective.budget.people_usd", base.objective.budget.people_usd * 1.1)
    text = design_yaml(DesignFile("Edited", "assistant_7b.yaml", diff(base, s)))
    loaded = load_design(text, "edited.yaml").apply(base, "edited.yaml")
    assert loaded.model_dump() == s.model_copy(update={"name": "Edited"}).model_dump()
    a = run_designs({"edited": s}, 12, seed=3)["edited"]
    b = run_designs({"loaded": loaded}, 12, seed=3)["loaded"]
    assert a.equals(b)


def test_readable_changes_match_ids(base):
    s = editing.rename_team(base, "evals", "evaluation")
    s = editing.set_value(s, "org.teams.0.headcount", 5)
    lines = editing.readable_changes(base, s)
    assert "teams: removed evals" in lines and "teams: added evaluation" in lines
    assert "leadership team headcount: 2 → 5" in lines
    assert "owner of the eval gap risk: evals → evaluation" in lines
    # Words, never a path or an identifier: no dots, no "›" between a path's parts, no ids.
    assert not any("org ›" in line or "_" in line for line in lines), lines


def test_an_edited_design_file_runs_in_sim_compare(base, tmp_path):
    import subprocess
    import sys

    s = editing.remove_team(
        editing.rename_team(base, "evals", "evaluation"), "safety_legal", "product"
    )
    path = tmp_path / "edited.yaml"
    path.write_text(design_yaml(DesignFile("Edited", "assistant_7b.yaml", diff(base, s))), "utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "sim",
            "compare",
            "scenarios/assistant_7b.yaml",
            "--design",
            str(path),
            "--reps",
            "10",
            "--workers",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "Edited" in out.stdout


def test_a_large_number_reads_whole_in_the_changes() -> None:
    from sim.compare.editing import readable_changes
    from sim.designs import apply_delta
    from sim.scenario.loading import load_scenario

    base = load_scenario("assistant_7b")
    design = apply_delta(base, {"levers.data_investment_usd": 76_700.0})
    (line,) = readable_changes(base, design)
    assert line == "Extra data work (USD): $0 → $76,700"


def test_changes_read_as_words() -> None:
    """A lever by its label and in its unit, a playbook as its options' actions in order, an
    owner or a right by the team's words (the CLI's optimize and the app's pages show these)."""
    from sim.compare.editing import readable_changes
    from sim.designs import apply_delta
    from sim.scenario.loading import load_scenario

    base = load_scenario("assistant_7b")
    design = apply_delta(base, {
        "levers.reserve_fraction": 0.05, "org.risk_owners.staffing": None,
        "org.decision_rights.data_fix": "post_training", "levers.playbook.ship": [],
        "levers.playbook.budget": ["fewer_post_training_rounds", "use_reserve"],
    })  # fmt: skip
    assert readable_changes(base, design) == [
        "owner of the staffing risk: leadership → nobody",
        "who decides data fix: pretraining → post-training",
        "Budget reserve: 10% → 5%",
        "budget playbook: use the reserve, then cut ablations, then fewer post-training "
        "rounds, then fewer tokens → fewer post-training rounds, then use the reserve",
        "ship playbook: one more post-training round, then ship → decided on the spot",
    ]
