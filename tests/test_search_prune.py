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


#: Seeds of the planted-flaw search with its screen: the winner holds the fix on every one.
SEARCH_SEEDS = (0, 5)


@pytest.mark.parametrize("seed", SEARCH_SEEDS)
def test_the_planted_fix_is_recommended_with_only_changes_that_pay(late_evals, seed):
    found = run_search(late_evals, Settings(trials=20, reps=30, seed=seed, confirm_reps=100))
    screened = [r for r in found.records if r.number > 0][:1]
    assert screened and screened[0].delta == {FIX: True}  # the screen's first trial
    result = report(found, confirmed(found))
    rec = result["recommended"]
    assert rec is not None and rec["changes"].get(FIX) is True, rec
    check_recommendation(result, rec)


def test_without_the_screen_a_winner_of_many_changes_is_pruned_to_the_few_that_pay(late_evals):
    """Seed 3's unscreened winner moves 36 choices; the recommendation keeps at most 4."""
    s = Settings(trials=30, reps=30, seed=3, confirm_reps=100, screen=False)
    found = run_search(late_evals, s)
    result = report(found, confirmed(found))
    rec = result["recommended"]
    assert rec is not None and rec["changes"].get(FIX) is True, rec
    assert rec["pruning"]["changes_before"] > 10
    check_recommendation(result, rec)


def test_the_screen_finds_the_planted_fix_alone_first(late_evals):
    from sim.compare.screen import T_MIN, alternatives, screen, seeds
    from sim.compare.space import Constraints, base_params, search_space

    space = search_space(late_evals, Constraints())
    by_name = {ch.name: ch for ch in space}
    assert alternatives(by_name[FIX]) == [True]
    reserve = by_name["levers.reserve_fraction"]  # halfway to each end of its range
    assert alternatives(reserve) == [reserve.base / 2, (reserve.base + reserve.high) / 2]
    for seed in (0, 11):
        found = screen(
            late_evals, space, "success", seed=seed, reps=30, constraints=Constraints(), pool=None
        )
        assert (found[0].choice, found[0].value) == (FIX, True) and found[0].t >= T_MIN
        assert found[0].effect > 0.1  # ten points of success or more, paired (17 on engine 17)
        trials = seeds(found, base_params(space), limit=5)
        assert trials[0][0][FIX] is True and len(trials) <= 5
        changed = [{k for k, v in p.items() if v != by_name[k].base} for p, _ in trials]
        assert changed[0] == {FIX}
        if len(trials) > 1:  # then the last holds every paying single change at once
            assert changed[-1] >= changed[0] and len(changed[-1]) > 1


def check_recommendation(result, rec):
    before = rec["pruning"]["changes_before"]
    assert len(rec["each"]) <= min(4, before)  # a few changes, never more than the winner's
    for ch in rec["each"]:
        w = ch["worth_pruning"]
        bar = QUESTION_ALPHA if ch["doubt"] else ALPHA
        assert w["mean"] > 0 and w["p_value"] < bar and not w["rough"], ch
        assert ch["worth"] is not None  # its own effect on the confirmation's worlds
    fix = next(ch for ch in rec["each"] if ch["change"] == FIX)
    assert fix["worth"]["low"] > 0.25  # the fix alone is worth tens of points, fresh worlds
    assert rec["beats_baseline"] and result["nothing_better"] is None
    paired = rec["paired"]["success"]
    # Tens of points, clear (engine 20, seed 3: low 0.25; above 0.3 on engine 19, before
    # rounds steered by a leaked benchmark gained less and the set-up fit took slices).
    assert paired["verdict"] == "clear" and paired["low"] > 0.2
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


@pytest.mark.parametrize("path", ["scenarios/assistant_7b.yaml", "scenarios/frontier_405b.yaml"])
def test_a_right_moved_nearer_its_signals_is_not_questioned_one_moved_farther_is(path):
    """Near or far is measured where the signals arise in the base's worlds, and agrees
    with the latency the engine's decisions then wait (two seeds of worlds)."""
    from sim.compare.prune import doubt, reach_days
    from sim.engine.model import ProjectModel

    base = load_scenario(path)
    assert base.org.decision_rights["ship"] == "product"
    near = doubt(base, "org.decision_rights.ship", "evals")  # evals run the evaluations
    far = doubt(base, "org.decision_rights.ship", "data")
    assert near is None
    assert far is not None and "farther from where its signals arise" in far
    assert reach_days(base, "ship", "evals") < reach_days(base, "ship", "product")
    assert reach_days(base, "ship", "data") > reach_days(base, "ship", "product")

    def waited(holder: str, seed: int) -> float:
        design = apply_delta(base, {"org.decision_rights.ship": holder})
        days = []
        for rep in range(8):
            m = ProjectModel(design, seed=seed, replication=rep, observed=False)
            m.env.run()
            days += [d.latency_days for d in m.recording.decisions if d.kind == "ship"]
        assert days, "no ship decision in 8 worlds"
        return sum(days) / len(days)

    for seed in (0, 7):
        assert waited("evals", seed) < waited("product", seed) < waited("data", seed)
