"""The debrief shows a lesson only when this play's outcome moved beyond noise.

Each lesson's counterfactual is replayed on the play's own world and on neighbouring
worlds (the next replications of its seed, common random numbers); these tests hold the
rule to what it promises. Worlds: plays of assistant_7b and followup_loss_spike on seeds
1, 2 and 3 (played by their playbooks), 30 neighbouring worlds unless a test says
otherwise; small registries keep the file to about 40 s of CPU.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from statsmodels.stats.multitest import multipletests

from sim.designs import PRESETS_BY_KEY, apply_delta
from sim.play.debrief import make_debrief
from sim.play.game import Game, PlayLog
from sim.play.lessons.arms import Arm
from sim.play.lessons.catalog import (
    INTERVENTIONS,
    INTERVENTIONS_BY_ID,
    LESSONS,
    Change,
    Intervention,
    PlayFacts,
)
from sim.play.lessons.check import (
    EQUAL_SCOPE,
    MATERIAL_BUDGET_SHARE,
    MATERIAL_DAYS,
    MATERIAL_SCORE,
    Comparison,
    Finding,
    LessonReport,
    check_lessons,
    confirm,
    holm_confirmed,
)
from sim.play.lessons.measures import Measure, paired_interval, same_scope
from sim.runner import replicate
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (1, 2, 3)


def played(scenario: Scenario, seed: int) -> PlayLog:
    game = Game(scenario, seed=seed)
    game.play_to_end("playbook")
    return game.current_log()


def check(log: PlayLog, *ids: str, worlds: int = 30) -> LessonReport:
    return check_lessons(log, worlds=worlds, interventions=[INTERVENTIONS_BY_ID[i] for i in ids])


def only(report: LessonReport) -> Finding:
    [finding] = report.findings
    return finding


# --- interventions that change nothing material never show ----------------------------------------


def _nothing(p: PlayFacts) -> Change:
    return Change("Changing nothing")


def _rename(p: PlayFacts) -> Change:
    return Change("Renaming the scenario", {"name": p.scenario.name + " (copy)"})


def _teams_backwards(p: PlayFacts) -> Change:
    # The same teams listed the other way round: each draw keyed by position lands on
    # another team (noise only); keyed by identity it changes nothing at all.
    return Change(
        "Listing the teams backwards",
        {"org.teams": [t.model_dump() for t in reversed(p.scenario.org.teams)]},
    )


def _defects_backwards(p: PlayFacts) -> Change:
    return Change(
        "Listing the defect sources backwards",
        {"incidents.defects": [d.model_dump() for d in reversed(p.scenario.incidents.defects)]},
    )


def _a_hair_more_failures(p: PlayFacts) -> Change:
    return Change(
        "A tenth of a percent more hardware failures",
        {"cluster.failure_rate": p.scenario.cluster.failure_rate * 1.001},
    )


NO_EFFECT = tuple(
    Intervention(f.__name__.strip("_"), "focus", f)
    for f in (_nothing, _rename, _teams_backwards, _defects_backwards, _a_hair_more_failures)
)


@pytest.mark.parametrize("name", ["assistant_7b", "followup_loss_spike"])
@pytest.mark.parametrize("seed", SEEDS)
def test_an_intervention_within_noise_is_never_shown(name: str, seed: int) -> None:
    report = check_lessons(played(load_scenario(name), seed), interventions=NO_EFFECT)
    assert len(report.findings) == len(NO_EFFECT)
    assert not report.shown, [f.line for f in report.shown]
    aa = report.findings[0]
    assert aa.alt == aa.base and not aa.moved  # A/A: the same numbers, exactly
    for f in report.findings:
        assert not f.line


def test_material_on_this_world_but_not_on_its_neighbours_is_not_shown() -> None:
    def at(days: float, usd: float = 0.0) -> Measure:
        return Measure(100.0 + days, 1e6 + usd, 0.7, True, 2.0, 1000.0, 4, ())

    base = [at(0.0)] * 10
    # This world: 3 days later. Neighbours: as often sooner as later, on the other side,
    # all later, and later by an amount that never varies.
    world = {"schedule_days": 3.0}
    straddle = [at(d) for d in (4, -4, 3, -3, 2, -2, 5, -5, 1, -1)]
    other_side = [at(-d) for d in (1, 2, 3, 2, 1, 2, 3, 2, 1, 2)]
    same_side = [at(d) for d in (1, 2, 3, 2, 1, 2, 3, 2, 1, 2)]
    constant = [at(2.0)] * 10
    assert confirm(world, base, straddle)[1] == ()
    assert confirm(world, base, other_side)[1] == ()
    assert confirm(world, base, same_side)[1] == ("schedule_days",)
    assert confirm(world, base, constant)[1] == ("schedule_days",)
    assert confirm({"schedule_days": -3.0}, base, same_side)[1] == ()
    # No variation and no difference: zero is inside.
    assert not paired_interval([1.0] * 5, [1.0] * 5).excludes_zero_towards(1.0)
    # A yes/no measure: Tango's interval on the discordant worlds.
    met = paired_interval([0.0] * 10, [1.0] * 8 + [0.0] * 2, binary=True)
    assert met.low > 0 and met.p_value < 0.05
    assert not paired_interval([0.0] * 10, [1.0] + [0.0] * 9, binary=True).excludes_zero_towards(1)


def test_many_tests_at_once_hold_together() -> None:
    # Holm over a report's tests: a difference that passes alone need not pass among many.
    def at(days: float) -> Measure:
        return Measure(100.0 + days, 1e6, 0.7, True, 2.0, 1000.0, 4, ())

    base = [at(0.0)] * 10
    weak = [at(d) for d in (0.4, 0.9, 0.1, 1.2, 0.3, 0.8, -0.2, 1.0, 0.5, 0.6)]
    assert confirm({"schedule_days": 1.0}, base, weak)[1] == ("schedule_days",)
    interval = paired_interval([x.schedule_days for x in base], [x.schedule_days for x in weak])
    assert interval.excludes_zero_towards(1.0)
    assert holm_confirmed({0: (interval, 1.0)}) == {0}
    assert holm_confirmed({k: (interval, 1.0) for k in range(100)}) == set()
    assert holm_confirmed({0: (interval, -1.0)}) == set()  # the other side of this world


# --- an intervention known to matter shows, with the right sign -----------------------------------


def late_safety_world() -> Scenario:
    """Safety engaged late, and a late engagement always draws a release-blocking finding."""
    return with_overrides(
        load_scenario("assistant_7b"),
        {
            "levers.safety_from_start": False,
            "incidents.safety.probability_late": 1.0,
            "incidents.safety.probability_early": 0.0,
        },
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_engaging_safety_early_shows_as_days_saved(seed: int) -> None:
    f = only(check(played(late_safety_world(), seed), "safety_from_start"))
    assert f.shown, f.verdict
    assert "schedule_days" in f.confirmed and f.diff("schedule_days") <= -MATERIAL_DAYS
    assert f.paired["schedule_days"].high < 0
    assert f.line.startswith("Engaging safety, legal and privacy from the start would have saved")
    assert "averaged over 30 similar worlds" in f.line


@pytest.mark.parametrize("seed", SEEDS)
def test_owning_the_loss_spike_risk_shows_as_time_or_money_saved(seed: int) -> None:
    # Nobody watches the loss, and spikes come often enough (2 per trillion tokens, not 0.35)
    # that the time they idle the cluster shows on 30 worlds.
    world = with_overrides(
        load_scenario("followup_loss_spike"),
        {"org.risk_owners.loss_spike": None, "incidents.loss_spikes.per_trillion_tokens": 2.0},
    )
    f = only(check(played(world, seed), "owner_loss_spike"))
    assert f.shown, f.verdict
    # Where the arms cut different scope (the play paid for its idle cluster with a round),
    # the mechanism's sign is the equal-scope comparison's.
    c = f.equal if f.equal is not None else f.played
    assert {"schedule_days", "cost_usd"} & set(c.confirmed)
    for m in {"schedule_days", "cost_usd"} & set(c.confirmed):
        assert c.diff(m) < 0 and c.paired[m].high < 0
    assert f.line.startswith("Giving the unowned loss-spike risk to")


# --- every line shown is material and beyond noise; none other is ---------------------------------


def _material(c: Comparison, m: str, budget: float) -> bool:
    limit = {
        "schedule_days": MATERIAL_DAYS,
        "cost_usd": MATERIAL_BUDGET_SHARE * budget,
        "quality": MATERIAL_SCORE,
        "quality_met": 1.0,
    }[m]
    return abs(c.diff(m)) >= limit


def test_the_debrief_states_exactly_the_lessons_that_moved_beyond_noise() -> None:
    log = played(load_scenario("assistant_7b"), 2)
    debrief = make_debrief(log)
    report = debrief.lesson_report
    assert report is not None and report.worlds == 30
    assert [line for _, _, line in debrief.lessons] == [f.line for f in report.shown]
    assert report.shown, "some lesson moves a 7B play (the model has mechanisms)"
    # The rule, recomputed here: every material difference tested, Holm over all of them
    # (statsmodels' step-down), and the interval beyond zero on this world's side.
    tests = [
        (f.intervention, side, m, c)
        for f in report.findings
        for side, c in (("played", f.played), ("equal", f.equal))
        if c is not None
        for m in c.paired
    ]
    assert len(tests) == report.tests > 0
    reject = multipletests([c.paired[m].p_value for *_, m, c in tests], 0.05, "holm")[0]
    expected = {
        (iv, side, m)
        for (iv, side, m, c), ok in zip(tests, reject, strict=True)
        if ok and c.paired[m].excludes_zero_towards(c.diff(m))
    }
    got = {
        (f.intervention, side, m)
        for f in report.findings
        for side, c in (("played", f.played), ("equal", f.equal))
        if c is not None
        for m in c.confirmed
    }
    assert got == expected
    for f in report.findings:
        for c in (f.played, f.equal):
            if c is not None:
                assert set(c.paired) == set(c.moved)  # every material difference is tested
                assert all(_material(c, m, f.budget_usd) for m in c.moved)
        assert bool(f.line) == f.shown
    # The tabletop and interview read the same triples: id, title, line.
    assert all(len(t) == 3 and t[2] for t in debrief.lessons)


def test_neighbouring_worlds_are_decided_as_sim_run_decides() -> None:
    # A neighbour's arm (no log) gives the outcome runner.replicate gives: same playbook,
    # same ad hoc stream. Only the event count differs (a game steps through each answer).
    s = load_scenario("followup_loss_spike")  # no rollback entry: ad hoc rollbacks
    for rep in (1, 2, 3):
        mine, run = Arm(s, {}).play(5, rep), replicate(s, 5, rep)
        for row in (mine, run):
            row.pop("events"), row.pop("rep", None), row.pop("injects_missed", None)
        assert mine == run


@pytest.mark.parametrize(("name", "seed"), [("assistant_7b", 3), ("frontier_405b", 8)])
def test_an_arm_without_injects_answers_in_the_model_as_a_game_answers(
    name: str, seed: int
) -> None:
    # Arm.play lets the model answer as it goes when nothing strikes from outside; a game
    # that stops at each decision and answers it gives the very same outcome (only the
    # events after the finish, which a game does not play out, are not counted).
    s = load_scenario(name)
    arm = Arm(
        s, {"rollback#0": "pause_investigate"}, answers={"rollback": {"continue": "rollback"}}
    )
    for rep in (0, 1, 2):
        game = Game(s, seed, rep)
        by_game = game.play_to_end(arm._decider(game.model.decision_stream, arm.choices))
        mine = arm.play(seed, rep)
        assert mine.pop("injects_missed") == 0
        assert mine.pop("events") >= by_game.pop("events")
        assert mine == by_game


def test_injects_replay_in_every_arm_and_one_that_no_longer_fits_is_counted() -> None:
    # A facilitator's loss spike mid-run: adapting instead trains for days, not months, so
    # on the spike's day no run is in progress and the inject finds nothing to strike.
    game = Game(load_scenario("assistant_7b"), seed=2)

    def mid_run() -> bool:
        run = game.model.run
        return game.phase == "training" and run is not None and run.tokens > 0.3 * run.target_tokens

    while not mid_run():
        if game.pending is not None:
            game.decide(game.pending.options[0])
        game.model.env.step()
    game.inject("loss_spike")
    game.play_to_end()
    log = game.current_log()
    assert log.injections
    report = check_lessons(
        log, worlds=6, interventions=[NO_EFFECT[0], INTERVENTIONS_BY_ID["strategy"]]
    )
    nothing, adapt = report.findings
    assert nothing.alt == nothing.base and nothing.base.injects_missed == 0
    assert adapt.alt.injects_missed == 1
    assert adapt.base.schedule_days == pytest.approx(game.outcome()["schedule_days"])


# --- determinism ----------------------------------------------------------------------------------


def _numbers(report: LessonReport) -> dict[str, object]:
    d = report.as_dict()
    del d["seconds"]
    return d


def test_the_same_play_gives_the_same_lines() -> None:
    log = played(load_scenario("followup_loss_spike"), 3)
    ids = ("owner_loss_spike", "safety_from_start", "product_evals_early", "core_double", "reserve")
    first, again = check(log, *ids), check(PlayLog.from_json(log.to_json()), *ids)
    assert _numbers(first) == _numbers(again)
    assert [f.line for f in first.shown] and [f.line for f in first.shown] == [
        f.line for f in again.shown
    ]
    pooled = check_lessons(
        log, worlds=30, interventions=[INTERVENTIONS_BY_ID[i] for i in ids], workers=2
    )
    assert _numbers(pooled) == _numbers(first)


def test_the_default_registry_is_cached_by_play() -> None:
    log = played(load_scenario("followup_loss_spike"), 1)
    first = check_lessons(log, worlds=4)
    assert check_lessons(PlayLog.from_json(log.to_json()), worlds=4) is first


# --- equal scope ----------------------------------------------------------------------------------


def test_both_arms_scope_is_reported_and_a_scope_cut_is_flagged() -> None:
    # Twice the core team: the payroll grows, the one budget envelope cuts scope to pay;
    # funded in full, both arms train the same scope, and the line says what is left.
    log = played(load_scenario("assistant_7b"), 1)
    report = check(log, "core_double", "eval_focus")
    bigger, focus = report.findings
    assert bigger.alt.scope_cuts and not bigger.base.scope_cuts
    assert bigger.alt.post_training_rounds < bigger.base.post_training_rounds
    assert bigger.scope is not None and "a cut to fit the budget" in bigger.scope
    assert bigger.shown and bigger.scope in bigger.notes
    row = bigger.as_dict()
    for arm in ("play", "intervention_arm"):
        assert {"tokens_b", "post_training_rounds", "scope_cuts", "scope_cut_usd"} <= set(row[arm])
    there = row["neighbour_scope"]
    assert there["intervention_rounds"] < there["play_rounds"] and there["scope_cut_differs"] > 0.5
    equal = bigger.equal
    assert equal is not None and same_scope(equal.base, equal.alt, bigger.budget_usd)
    assert equal.neighbour_scope is not None and equal.neighbour_scope.scope_cut_differs == 0
    # Brooks at equal scope: much dearer, and not the days the cut scope bought.
    assert equal.confirmed and "cost_usd" in equal.confirmed and equal.diff("cost_usd") > 0
    assert equal.diff("schedule_days") > bigger.diff("schedule_days")  # the cut bought days
    assert any(EQUAL_SCOPE in note.lower() for note in bigger.notes)
    assert focus.shown and same_scope(focus.base, focus.alt, focus.budget_usd)
    assert focus.scope is None and focus.equal is None
    assert not any("funded in full" in t.lower() for t in (focus.line, *focus.notes))


# --- the command ----------------------------------------------------------------------------------


def test_sim_debrief_prints_the_lesson_check(tmp_path: Path) -> None:
    play_file = tmp_path / "play.json"
    play_file.write_text(played(late_safety_world(), 1).to_json(), encoding="utf-8")

    def sim(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "sim", "debrief", str(play_file), *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=300,
        )

    out = sim("--worlds", "10", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    check = d["lesson_check"]
    assert check["worlds"] == 10 and check["rule"]["adjustment"] == "Holm"
    lines = [lesson["evidence"] for lesson in d["lessons"]]
    assert lines == check["shown"]
    assert all(f["line"] in lines for f in check["findings"] if f["shown"])
    [safety] = [f for f in check["findings"] if f["intervention"] == "safety_from_start"]
    assert safety["difference"]["schedule_days"] <= -MATERIAL_DAYS  # late finding on this world
    assert {"tokens_b", "post_training_rounds", "scope_cuts"} <= set(safety["intervention_arm"])
    bad = sim("--worlds", "1")
    assert bad.returncode == 2 and "--worlds" in bad.stderr and "Traceback" not in bad.stderr


# --- every lesson has a counterfactual, and every counterfactual is a design ------------------

_PLAYBOOKS = tuple(f"playbook_{k}" for k in ("rollback", "data_fix", "budget", "ship", "schedule"))
#: Each direction test of a lesson (tests/test_lessons.py, tests/test_lessons_org.py) and the
#: interventions that bring its mechanism into a debrief.
CARRIED_BY: dict[str, tuple[str, ...]] = {
    "test_defect_caught_at_ablation_gate_costs_far_less_than_mid_run": ("early_gates",),
    "test_fix_cost_grows_with_how_far_the_run_has_gone": ("early_gates",),
    "test_more_ablation_budget_lowers_p90_cost_and_spread_up_to_a_point": ("ablation_share",),
    "test_ablations_tune_the_recipe_the_run_trains": ("ablation_share",),
    "test_effective_training_time_peaks_at_an_interior_checkpoint_interval": ("checkpoint_best",),
    "test_overreacting_to_spikes_costs_more_on_average": ("overreact",),
    "test_expect_failed_runs_at_frontier_scale": ("overreact", "novelty"),
    "test_reserve_lowers_the_chance_of_going_over_budget": ("reserve", "budget_order"),
    "test_adapting_wins_on_time_and_cost_and_loses_where_the_cap_binds": ("strategy",),
    "test_over_indexing_raises_the_benchmark_not_the_product_score": ("eval_focus",),
    "test_contamination_inflates_public_benchmarks_only": ("decontaminate",),
    "test_frontier_work_costs_several_times_more_with_wider_spreads": ("novelty",),
    "test_unowned_risks_cost_more_than_their_owners_watch": (
        "owner_data_quality",
        "owner_tokenizer_config",
        "owner_contamination",
    ),
    "test_spikes_need_a_fast_owned_response": ("owner_loss_spike", "playbook_rollback", "politics"),
    "test_an_owner_who_looks_less_often_notices_spikes_later": ("watch_loss_spike",),
    "test_a_playbook_beats_the_person_deciding_on_the_spot_where_the_model_shows_it": _PLAYBOOKS,
    "test_the_person_deciding_on_the_spot_does_not_pick_absurd_options_at_random": _PLAYBOOKS,
    "test_late_safety_engagement_slips_the_schedule": ("safety_from_start", "owner_safety"),
    "test_four_times_the_core_is_a_little_faster_at_much_higher_effort": ("core_double",),
    "test_a_small_core_is_somewhat_slower_not_collapsed": ("core_half",),
    "test_adding_people_late_to_the_core_makes_it_later": ("no_late_staff",),
    "test_headcount_helps_where_co_design_is_not_needed_not_in_the_core": (
        "scale_non_core",
        "core_double",
    ),
    "test_siloed_design_detects_later_and_reworks_more": ("engineering_embedded", "politics"),
    "test_at_equal_scope_the_large_siloed_org_is_slower_and_dearer": (
        "engineering_embedded",
        "territorial",
        "politics",
        "core_double",
    ),
    "test_data_work_beats_equal_spend_on_compute_in_quality": ("data_work",),
    "test_data_work_has_diminishing_returns_relative_to_the_tokens_it_improves": ("data_work",),
    "test_data_work_takes_the_data_teams_time_and_does_not_pay_at_every_size": ("data_work",),
    "test_fewer_focused_models_do_better": ("variants",),
    "test_forced_contributions_cost_quality_that_tested_ones_do_not": ("contributions",),
    "test_a_mandate_not_backed_by_experiments_skips_the_gate": ("contributions",),
    "test_a_territorial_team_slows_decisions_and_worsens_the_model": ("territorial",),
    "test_evergreen_research_kept_apart_pays_later_at_a_cost": ("evergreen",),
    "test_a_right_held_far_from_the_work_decides_later_and_costs_more": (
        "ship_right",
        "rollback_right",
    ),
    "test_a_holder_far_from_the_evaluation_reads_it_worse": ("ship_right",),
}


def test_every_lesson_test_has_a_counterfactual_in_the_debrief() -> None:
    tests = set()
    for name in ("test_lessons.py", "test_lessons_org.py"):
        text = (ROOT / "tests" / name).read_text(encoding="utf-8")
        tests |= set(re.findall(r"^def (test_\w+)\(", text, re.MULTILINE))
    assert tests == set(CARRIED_BY), "a lesson test without a debrief counterfactual (or stale)"
    for ids in CARRIED_BY.values():
        assert set(ids) <= set(INTERVENTIONS_BY_ID), ids
    assert {iv.lesson for iv in INTERVENTIONS} == {lesson.id for lesson in LESSONS}


def other_side() -> Scenario:
    """The 7B with every lever the shipped scenarios leave off turned on (and the reverse)."""
    s = with_overrides(
        load_scenario("assistant_7b"),
        {
            "levers.reserve_fraction": 0.0,
            "levers.ablation_fraction": 0.0,
            "levers.parallel_variants": 2,
            "levers.add_core_staff": 2,
            "levers.add_core_staff_day": 60.0,
            "levers.data_investment_usd": 100_000.0,
            "levers.eval_focus": "single",
            "levers.decontaminate": False,
            "levers.product_evals_early": False,
            "levers.safety_from_start": False,
            "levers.engineering_embedded": False,
            "org.politics_days": 1.0,
            "model.novelty": 0.0,
            "org.contributions": [
                {"id": "idea", "team": "pretraining", "tested": True},
                {"id": "mandate", "team": "leadership", "tested": False},
            ],
        },
    )
    s = PRESETS_BY_KEY["evergreen_apart"].apply(s)
    data, core = s.team_ids.index("data"), s.team_ids.index("pretraining")
    return with_overrides(
        s,
        {f"org.teams.{data}.territorial": True, f"org.teams.{core}.watch_hours": 24.0},
    )


@pytest.mark.parametrize(
    "name",
    [
        "assistant_7b",
        "followup_loss_spike",
        "followup_budget_cut",
        "followup_benchmarks_vs_product",
        "adapt_open_base_70b",
        "frontier_405b",
        "other side",
    ],
)
def test_every_counterfactual_is_a_valid_design_that_changes_something(name: str) -> None:
    # Only the play's world (no neighbours): each change is applied and validated like a
    # design, and either changes the scenario or the answers, or says why it does not apply.
    scenario = other_side() if name == "other side" else load_scenario(name)
    report = check_lessons(played(scenario, 1), worlds=0, interventions=INTERVENTIONS)
    assert not [s for s in report.skipped if "not a valid design" in s[2]], report.skipped
    assert len(report.findings) + len(report.skipped) == len(INTERVENTIONS)
    for f in report.findings:
        assert f.delta or f.answers, f.intervention
        if f.delta:
            assert apply_delta(scenario, f.delta) != scenario, f.intervention
        assert not f.shown  # nothing is confirmed without neighbouring worlds
    if name == "other side":
        applied = {f.intervention for f in report.findings}
        assert {"contributions", "territorial", "evergreen", "no_late_staff"} <= applied
        assert {"watch_loss_spike", "budget_order"} <= applied
        by_id = {f.intervention: f for f in report.findings}
        assert by_id["contributions"].delta["org.contributions"][1]["tested"] is True
        assert by_id["territorial"].delta == {"org.teams.data.territorial": False}
        assert by_id["watch_loss_spike"].delta == {"org.teams.pretraining.watch_hours": 1.0}
        assert "evergreen_research" not in str(by_id["evergreen"].delta["org.teams"])


# --- the new mechanisms' counterfactuals, known to matter on constructed worlds --------------


@pytest.mark.parametrize("seed", SEEDS)
def test_testing_forced_contributions_shows_as_quality_gained(seed: int) -> None:
    # Three ideas of the pretraining team forced in untested: two in three hurt the loss, and
    # all stay; tested in the ablations, those measured to hurt are dropped.
    ideas = [{"id": f"idea{k}", "team": "pretraining", "tested": False} for k in range(3)]
    world = with_overrides(load_scenario("assistant_7b"), {"org.contributions": ideas})
    f = only(check(played(world, seed), "contributions"))
    assert f.shown and "quality" in f.confirmed, f.verdict
    assert f.diff("quality") >= MATERIAL_SCORE and f.paired["quality"].low > 0
    assert f.line.startswith("Testing the forced contributions (idea0, idea1, idea2)")


@pytest.mark.parametrize("seed", SEEDS)
def test_an_owner_looking_daily_shows_as_time_or_money_lost(seed: int) -> None:
    # The loss-spike owner looking daily instead of hourly, spikes at 2 per trillion tokens:
    # each idles the cluster for longer before anyone sees it.
    world = with_overrides(
        load_scenario("followup_loss_spike"), {"incidents.loss_spikes.per_trillion_tokens": 2.0}
    )
    f = only(check(played(world, seed), "watch_loss_spike"))
    assert f.shown, f.verdict
    c = f.equal if f.equal is not None else f.played
    assert {"schedule_days", "cost_usd"} & set(c.confirmed)
    for m in {"schedule_days", "cost_usd"} & set(c.confirmed):
        assert c.diff(m) > 0 and c.paired[m].low > 0
