"""The budget as a plan: the cheapest scope that closes the gap, sized to it, never silent.

Sizes: set-up fitting is deterministic (one model each); the paired quality test plays 80
worlds per arm on three seeds. About 40 s in all.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sim.designs import fund_full_plan
from sim.engine import budget
from sim.engine.model import ProjectModel
from sim.engine.project import Project
from sim.play.game import Game
from sim.play.views import snapshot
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario
from sim.units import USD_TOLERANCE
from tests.cli import run_sim
from tests.mechanisms import SEEDS, higher, runs, same_scope

ROOT = Path(__file__).resolve().parent.parent


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, env={"PATH": ""}, columns=200, timeout=300)


@pytest.fixture(scope="module")
def base() -> Scenario:
    return load_scenario("assistant_7b")


def reserve(s: Scenario, fraction: float) -> Scenario:
    return with_overrides(s, {"levers.reserve_fraction": fraction})


def _bare(s: Scenario) -> Project:
    """The play's state before the plan is fitted (a ProjectModel fits it at once)."""
    return ProjectModel(s, 0, 0, "playbook", fit_budget=False)


def test_a_20_percent_reserve_no_longer_sends_the_run_to_its_floor(base: Scenario) -> None:
    # The example: the old sizing cut 4,000B tokens to 2,472B (its floor) at a 15%
    # reserve and the chance of success fell from 0.55 to 0.07. Since the gates' reviews run
    # beside their phases the plan needs a 17% reserve to be over; 20% is well over.
    m = ProjectModel(reserve(base, 0.2))
    assert m.plan.scope_cuts, "a 20% reserve does not fit this budget without a cut"
    assert m.plan.tokens >= 0.75 * m.plan.tokens_scenario, [c.summary() for c in m.plan.scope_cuts]
    for seed in SEEDS:
        df = runs(reserve(base, 0.2), 80, seed)
        assert df["success"].mean() > 0.15, seed
        assert df["tokens_b"].mean() > 3_000


@pytest.mark.parametrize("scenario", ["assistant_7b", "followup_loss_spike", "frontier_405b"])
@pytest.mark.parametrize("fraction", [0.15, 0.25, 0.4])
def test_a_cut_never_removes_more_than_the_gap(scenario: str, fraction: float) -> None:
    s = reserve(load_scenario(scenario), fraction)
    before = budget.budget_gap(_bare(s))
    m = ProjectModel(s)
    saves = [c.saves_usd for c in m.plan.scope_cuts]
    if before <= USD_TOLERANCE:
        assert not saves
        return
    # Every cut but the last was needed, and together they close the gap (or nothing is left).
    assert sum(saves[:-1]) < before
    assert budget.budget_gap(m) <= USD_TOLERANCE or not budget.scope_options(m, before)
    # A continuous cut (tokens, ablations) is sized to what was still over.
    for k, cut in enumerate(m.plan.scope_cuts):
        if cut.response == "reduce_tokens":
            assert cut.saves_usd <= (before - sum(saves[:k])) * 1.05


@pytest.mark.parametrize("playbook", [[], ["reduce_tokens"], ["cut_ablations"]])
def test_the_set_up_fit_takes_the_cheapest_scope_first_whatever_the_playbook(
    base: Scenario, playbook: list[str]
) -> None:
    # The playbook orders the responses to a slip during the play; the plan is sized
    # cheapest first (issue 24.1), so the same cut is made whatever the playbook says.
    s = reserve(with_overrides(base, {"levers.playbook.budget": playbook}), 0.2)
    bare = _bare(s)
    gap = budget.budget_gap(bare)
    priced = budget.scope_options(bare, gap)
    assert len(priced) >= 3
    cheapest = min(priced, key=lambda o: o.price(gap))
    first = ProjectModel(s).plan.scope_cuts[0]
    # The first cut is the cheapest unless the cheapest overshoots the gap (a whole round).
    if cheapest.saves_usd <= budget.OVERSHOOT * gap:
        assert first.response == cheapest.response
    else:
        assert first.response in {o.response for o in priced}


def test_cutting_the_ablations_is_priced_at_the_recipe_they_tune(base: Scenario) -> None:
    # Ablations tune the recipe (sim/engine/quality.py, recipe_excess): dropping them all
    # is priced at the loss an untuned recipe keeps, so it is not the cheapest cut.
    bare = _bare(reserve(base, 0.2))
    gap = budget.budget_gap(bare)
    options = {o.response: o for o in budget.scope_options(bare, gap)}
    ablations = options["cut_ablations"]
    assert ablations.loss > 0.005 and ablations.score < -0.01
    assert ablations.price(gap) > min(o.price(gap) for o in options.values())


def test_a_cut_acts_on_a_line_that_is_over(base: Scenario) -> None:
    # The compute line squeezed: every cut saves compute (people alone would not help).
    tight = reserve(with_overrides(base, {"objective.budget.compute_usd": 200_000}), 0.15)
    m = _bare(tight)
    gap = budget.budget_gap(m)
    assert gap > 0 and "compute" in budget.over_categories(m)
    for option in budget.scope_options(m, gap):
        assert any(option.saves.get(c, 0) > USD_TOLERANCE for c in budget.over_categories(m))
    assert "smaller_eval_scope" not in {o.response for o in budget.scope_options(m, gap)} or (
        "people" in budget.over_categories(m)
    )


def test_a_tokens_price_includes_the_salaries_of_its_days(base: Scenario) -> None:
    m = _bare(reserve(base, 0.2))
    option = budget.scope_option(m, "reduce_tokens", 100_000.0)
    assert option is not None
    compute_only = (m.plan.tokens - float(option.what.split(" to ")[1].split("T")[0]) * 1e12) * (
        m.plan.usd_per_token
    )
    assert option.saves["people"] > 0 and option.saves_usd > 1.2 * compute_only


def test_the_priced_quality_matches_what_the_cut_costs(base: Scenario) -> None:
    # Paired: the same worlds with the plan funded in full and cut to fit a 20% reserve.
    # Only a cut's expected score is compared (a risk price is not an expected loss); both
    # arms ship at the first evaluation, so no extra round (which only the funded arm can
    # afford) adds to the difference the cut makes.
    playbook = {"levers.playbook.ship": ["ship"]}
    cut = reserve(with_overrides(base, playbook), 0.2)
    cuts = ProjectModel(cut).plan.scope_cuts
    assert cuts and not any(c.at_risk for c in cuts), [c.summary() for c in cuts]
    priced = sum(c.score for c in cuts)
    assert priced < 0
    funded = fund_full_plan(cut)
    for seed in SEEDS:
        a, b = runs(funded, 80, seed), runs(cut, 80, seed)
        same_scope(a, b, why="one arm is cut to fit its budget: the test prices that cut")
        targets = [f"true:{t.eval}" for t in base.objective.targets]
        gained = higher(a[targets].mean(axis=1), b[targets].mean(axis=1), f"seed {seed}")
        assert 0.3 * -priced < gained["mean"] < 3.0 * -priced, (gained, priced)


def test_scope_cuts_are_visible_and_priced_everywhere(base: Scenario) -> None:
    s = reserve(base, 0.2)
    game = Game(s, seed=1)
    game.play_to_end()
    cuts = [e for e in game.model.recording.trace if e.kind == "scope_cut"]
    assert cuts and all(e.data["saves_usd"] > 0 and "saves $" in e.summary for e in cuts)
    out = game.outcome()
    assert out["scope_cuts"] == len(cuts) and out["scope_cut_usd"] > 0
    # What the outcome calls planned is the plan fitted to the budget: a shorter last round.
    fitted = game.model.plan.set_up
    assert fitted is not None and fitted.rounds < 4
    assert out["tokens_planned_b"] == fitted.tokens / 1e9
    assert out["post_training_rounds_planned"] == fitted.rounds
    assert snapshot(game)["scope_cuts"] == [e.summary for e in cuts]
    args = ["run", "assistant_7b", "--reps", "3", "--set", "levers.reserve_fraction=0.2"]
    scope = json.loads(sim(*args, "--json").stdout)["scope"]
    assert scope["p_cut"] == 1.0 and scope["responses"]
    assert scope["post_training_rounds_planned"] == pytest.approx(fitted.rounds)
    assert "Worlds with a scope cut" in sim(*args).stdout


def test_a_budget_cut_mid_play_is_answered_with_priced_options() -> None:
    s = load_scenario("followup_budget_cut")
    game = Game(s, seed=3)
    game.play_to_end()
    budget_points = [d for d in game.model.recording.decisions if d.kind == "budget"]
    assert budget_points
    priced = budget_points[0].context["priced"]
    assert priced and all(p["saves_usd"] > 0 for p in priced)
    after = [c for c in game.model.plan.scope_cuts if c.when.startswith("after a $")]
    assert all(c.saves_usd > 0 for c in after)


def _opens(m: Project, tolerance: float) -> bool:
    """Whether a look at the forecast with ``tolerance`` opens a budget episode now."""
    look = budget.budget_watch(m, tolerance)
    opened = next(look, None) is not None  # an episode waits for its decision
    look.close()
    return opened


def test_a_weekly_look_opens_an_episode_past_the_tolerance_an_accepted_overrun_stays_decided(
    base: Scenario,
) -> None:
    """Management by exception (engine 19): the weekly look ignores a gap within 1% of the
    budget that a phase boundary acts on; an accepted overrun is reopened by a boundary
    only once it grows, and by a weekly look only once it grows past the tolerance."""
    m = ProjectModel(base, seed=0, replication=0, decider="playbook")
    tol = budget.BUDGET_TOLERANCE_SHARE * m.ledger.budget_usd
    assert tol == pytest.approx(0.01 * base.objective.budget.total_usd)

    def set_gap(usd: float) -> None:
        m.ledger.cut_budget(usd - budget.budget_gap(m))
        assert budget.budget_gap(m) == pytest.approx(usd)

    set_gap(0.5 * tol)
    assert _opens(m, 0.0) and not _opens(m, tol)
    set_gap(1.5 * tol)
    assert _opens(m, tol)
    m.plan.decide_gap(1.5 * tol)  # the owner accepts the overrun
    assert not _opens(m, 0.0) and not _opens(m, tol)
    set_gap(2.0 * tol)
    assert _opens(m, 0.0) and not _opens(m, tol)
    set_gap(2.6 * tol)
    assert _opens(m, tol)
    assert m.budget_open == 0


def test_a_reserve_release_is_the_gap_the_look_found() -> None:
    """An answer is carried out as the look priced it (engine 19): each release of the
    reserve is the gap in the decision's context, less only what another episode released
    while the answer came, or when the reserve runs out (the last release)."""
    s = load_scenario("frontier_405b")
    exact = 0
    for rep in range(3):
        m = ProjectModel(s, seed=0, replication=rep, decider="playbook")
        m.env.run()
        looks = [d for d in m.recording.decisions if d.choice == "use_reserve"]
        releases = [
            (e.day, float(e.summary.split("$")[1].split(" ")[0].replace(",", "")))
            for e in m.recording.trace
            if e.summary.endswith("of the reserve released")
        ]
        assert len(looks) == len(releases)
        for k, (look, (day, usd)) in enumerate(zip(looks, releases, strict=True)):
            assert day == look.day
            assert usd <= look.context["gap_usd"] + 1.0
            raised = look.day - look.latency_days
            overlapped = any(raised <= d < day for d, _ in releases[:k])
            if not overlapped and k < len(looks) - 1:
                assert usd == pytest.approx(look.context["gap_usd"], abs=1.0)
                exact += 1
    assert exact >= 10


def _planned(s: Scenario) -> tuple[float, float]:
    m = ProjectModel(s)
    return m.plan.tokens / 1e9, m.plan.rounds


@pytest.mark.parametrize(
    ("scenario", "low", "high"),
    [("followup_budget_cut", 0.10, 0.20), ("followup_benchmarks_vs_product", 0.18, 0.28)],
)
def test_the_set_up_fit_moves_smoothly_with_the_reserve(
    scenario: str, low: float, high: float
) -> None:
    # Sized whole, the fit switched from one option to another as the gap grew: the
    # budget-cut follow-up cut rounds 4 -> 3.2 at a 13% reserve and tokens 4.00T -> 3.55T at
    # 14% (-454B tokens, rounds back up by 0.8, +7.6 days; `sim audit`); the benchmarks
    # follow-up added the half eval scope between 22% and 23%. Closed slice by slice at the
    # marginal price, a 1-point step moves planned scope by a step like its neighbours'.
    s = load_scenario(scenario)
    points = [round(low + 0.01 * k, 2) for k in range(round((high - low) / 0.01) + 1)]
    plans = [_planned(reserve(s, r)) for r in points]
    tokens = [t for t, _ in plans]
    rounds = [r for _, r in plans]
    assert tokens[0] > tokens[-1] or rounds[0] > rounds[-1], "the range must hold cuts"
    for series, material in ((tokens, 0.03 * tokens[0]), (rounds, 0.5)):
        steps = [abs(b - a) for a, b in zip(series, series[1:], strict=False)]
        assert max(steps) < material, list(zip(points, series, strict=True))
        # Scope never grows as the reserve grows.
        assert all(b <= a + 1e-9 for a, b in zip(series, series[1:], strict=False)), series


def test_the_set_up_fit_shares_a_gap_between_options_at_their_marginal_price() -> None:
    # At a 15% reserve the budget-cut follow-up's gap is shared: rounds first (the first
    # cut round is cheap), then tokens as a deeper round cut grows dearer. One cut a
    # response, never two, and together they close the gap.
    m = ProjectModel(reserve(load_scenario("followup_budget_cut"), 0.15))
    responses = [c.response for c in m.plan.scope_cuts]
    assert sorted(responses) == ["fewer_post_training_rounds", "reduce_tokens"], responses
    assert budget.budget_gap(m) <= USD_TOLERANCE
    bare = _bare(reserve(load_scenario("followup_budget_cut"), 0.15))
    whole = budget.budget_gap(bare)
    assert sum(c.saves_usd for c in m.plan.scope_cuts) < 1.05 * whole
