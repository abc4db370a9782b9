"""A search recommends only what pays (sim.compare.prune); a planted flaw ranks first."""

from __future__ import annotations

import pytest

from sim.compare.prune import ALPHA, QUESTION_ALPHA
from sim.compare.search import Settings, run_search
from sim.compare.search_report import confirmed, report
from sim.designs import apply_delta
from sim.scenario.loading import load_scenario
from tests.cli import run_sim

FIX = "levers.product_evals_early"


@pytest.fixture(scope="module")
def late_evals():
    """The 7B assistant with its product evals built late: P(success) ~7% against ~55%."""
    s = load_scenario("scenarios/assistant_7b.yaml")
    return apply_delta(s, {FIX: False}, name="product evals built late")


#: Seeds of the planted-flaw search. At 30 trials the search's winner holds the fix on
#: 3 of these 4 (engine 15; seed 0's winner does not, and the search then says that
#: nothing beat the baseline): the test asks for at least 3, and checks every one.
SEARCH_SEEDS = (0, 3, 5, 7)


def test_the_planted_fix_is_recommended_with_only_changes_that_pay(late_evals):
    recommended = 0
    for seed in SEARCH_SEEDS:
        found = run_search(late_evals, Settings(trials=30, reps=30, seed=seed, confirm_reps=100))
        result = report(found, confirmed(found))
        rec = result["recommended"]
        if rec is None or not rec["changes"].get(FIX):
            # Honest when it misses: whatever it recommends instead clearly pays.
            for ch in rec["each"] if rec is not None and rec["beats_baseline"] else ():
                w = ch["worth_pruning"]
                assert w["mean"] > 0 and w["p_value"] < ALPHA, (seed, ch)
            continue
        recommended += 1
        check_recommendation(result, rec)
    assert recommended >= 3, f"the fix was recommended on {recommended} of {len(SEARCH_SEEDS)}"


def check_recommendation(result, rec):
    before = rec["pruning"]["changes_before"]
    assert len(rec["each"]) <= 4 < before  # a few changes, out of the winner's many
    for ch in rec["each"]:
        w = ch["worth_pruning"]
        bar = QUESTION_ALPHA if ch["doubt"] else ALPHA
        assert w["mean"] > 0 and w["p_value"] < bar and not w["rough"], ch
        assert ch["worth"] is not None  # its own effect on the confirmation's worlds
    fix = next(ch for ch in rec["each"] if ch["change"] == FIX)
    assert fix["worth"]["low"] > 0.25  # the fix alone is worth tens of points, fresh worlds
    assert rec["beats_baseline"] and result["nothing_better"] is None
    paired = rec["paired"]["success"]
    assert paired["verdict"] == "clear" and paired["low"] > 0.3
    # Importance by on/off on common worlds: the planted flaw ranks first, clearly.
    top = result["importance"]["params"][0]
    assert top["choice"] == FIX and top["low"] > 0
    assert all(p["importance"] < top["low"] for p in result["importance"]["params"][1:])
    assert result["importance"]["fanova"]["method"].startswith("fANOVA")


def test_nothing_better_says_so_and_saves_nothing(tmp_path):
    out = run_sim(
        "optimize", "assistant_7b", "--trials", "1", "--reps", "10", "--confirm-reps", "10",
        "--workers", "1", "--save", str(tmp_path / "best"), columns=400,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "did as well as the baseline" in ln]
    assert len(lines) == 1 and "saved nothing" in lines[0], out.stdout
    assert not (tmp_path / "best").exists()


def test_changes_a_team_lead_would_question_are_named_and_the_playbook_comes_apart():
    from sim.compare.prune import changes_of, combine

    base = load_scenario("scenarios/assistant_7b.yaml")
    delta = {
        "org.teams.product.headcount": 1,
        "org.risk_owners.hardware": None,
        "org.decision_rights.rollback": "product",
        "levers.reserve_fraction": 0.2,
        "levers.playbook": {**{str(k): list(v) for k, v in base.levers.playbook.items()},
                            "rollback": ["pause_investigate", "rollback_skip"]},
    }  # fmt: skip
    changes = changes_of(base, delta)
    doubts = {c.key: c.doubt for c in changes}
    assert "one person" in doubts["org.teams.product.headcount"]
    assert "unowned" in doubts["org.risk_owners.hardware"]
    assert "rollback right" in doubts["org.decision_rights.rollback"]
    assert doubts["levers.reserve_fraction"] is None
    assert "levers.playbook:rollback" in doubts and len(changes) == 5
    assert apply_delta(base, combine(base, changes)) == apply_delta(base, delta)
