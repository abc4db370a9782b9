"""Direction tests for the organisation's lessons of DESIGN.md, at equal scope, on three seeds.

Each test runs two designs through the same replications (common random numbers) with both
plans funded in full (``fund_full_plan``: no design has its run cut to pay its payroll), and
asserts the direction on a paired 95% interval on the main seed (2026) and on two others (7
and 31). Tokens trained and post-training rounds of both arms are printed for every seed
(``pytest -s`` shows them) and put in every failure message; where a lesson's own mechanism
changes the scope (a late fix trains on, variants split the tokens), the test says so.
Replications are stated per test; the whole file takes about a minute on one core.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from sim.designs import PRESETS_BY_KEY, fund_full_plan
from sim.engine.model import ProjectModel
from sim.engine.quality import data_multiplier
from sim.intervals import paired_difference
from sim.runner import run_designs
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario

ROOT = Path(__file__).resolve().parent.parent
#: The main seed and the two others every direction is checked on.
SEEDS = (2026, 7, 31)


def scenario(name: str) -> Scenario:
    return load_scenario(ROOT / "scenarios" / f"{name}.yaml")


def changed(base: Scenario, **overrides: Any) -> Scenario:
    return with_overrides(base, {k.replace("__", "."): v for k, v in overrides.items()})


@dataclass(frozen=True)
class Arms:
    """Both designs' replications on one seed."""

    a: pd.DataFrame
    b: pd.DataFrame
    seed: int

    @property
    def scope(self) -> str:
        rounds_a, rounds_b = (df["post_training_rounds"].mean() for df in (self.a, self.b))
        return (
            f"seed {self.seed}: tokens {self.a['tokens_b'].mean():,.0f}B (A) / "
            f"{self.b['tokens_b'].mean():,.0f}B (B), post-training rounds "
            f"{rounds_a:.2f} / {rounds_b:.2f}"
        )

    def same_run(self, tolerance: float = 0.02) -> None:
        """Both arms trained the same tokens (within ``tolerance``): equal scope."""
        ratio = self.b["tokens_b"].mean() / self.a["tokens_b"].mean()
        assert abs(ratio - 1.0) < tolerance, f"not the same run: {self.scope}"

    def higher(self, metric: str, a_is_higher: bool = False) -> float:
        """Paired B - A (or A - B) of ``metric``; its whole 95% interval must be above zero."""
        x = _col(self.b if a_is_higher else self.a, metric)
        y = _col(self.a if a_is_higher else self.b, metric)
        d = paired_difference(x, y)
        assert d["low"] > 0, (
            f"{metric}: expected {'A' if a_is_higher else 'B'} higher, got {d['mean']:.4g} "
            f"[{d['low']:.4g}, {d['high']:.4g}]; {self.scope}"
        )
        return float(d["mean"])


def _col(df: pd.DataFrame, name: str) -> pd.Series:
    return (df[name] if name in df else pd.Series(0, index=df.index)).astype(float)


def arms(a: Scenario, b: Scenario, reps: int, policy: str = "playbook") -> Iterator[Arms]:
    """Design A and design B, both funded in full, on each of :data:`SEEDS`."""
    designs = {"a": fund_full_plan(a), "b": fund_full_plan(b)}
    for seed in SEEDS:
        frames = run_designs(designs, reps, seed, policy=policy)
        out = Arms(frames["a"], frames["b"], seed)
        print(out.scope)
        yield out


@pytest.fixture(scope="module")
def base7b() -> Scenario:
    return scenario("assistant_7b")


# --- owners, signals and decisions ----------------------------------------------------------------


def test_unowned_risks_cost_more_than_their_owners_watch(base7b: Scenario) -> None:
    # 200 replications a seed. Unowned defects are not watched and early gates do not look
    # for them: they surface at the light release gate (expensive: training on after the
    # run) or ship (the model is worse). Leaving three risks unowned saves their owners'
    # watch and reviews, but the project meets every objective clearly less often and is
    # never cheaper or faster by an amount that matters (1% of the budget, a day). Scope
    # differs by the mechanism itself: a defect fixed after the run trains on.
    unowned = changed(
        base7b,
        org__risk_owners__data_quality=None,
        org__risk_owners__tokenizer_config=None,
        org__risk_owners__contamination=None,
    )
    budget = base7b.objective.budget.total_usd
    for arm in arms(base7b, unowned, 200):
        arm.higher("success", a_is_higher=True)
        cost = paired_difference(_col(arm.b, "cost_usd"), _col(arm.a, "cost_usd"))
        days = paired_difference(_col(arm.b, "schedule_days"), _col(arm.a, "schedule_days"))
        assert cost["mean"] > -0.01 * budget and days["mean"] > -1.0, (cost, days, arm.scope)


def test_spikes_need_a_fast_owned_response(base7b: Scenario) -> None:
    # 120 replications a seed of the loss-spike follow-up, the same answers (textbook
    # rollback): nobody watching the loss, politics and no agreed entry waste GPU-hours.
    s = scenario("followup_loss_spike")
    clear = changed(s, levers__playbook__rollback=["rollback_skip"])
    muddled = changed(s, org__risk_owners__loss_spike=None, org__politics_days=1.0)
    for arm in arms(clear, muddled, 120, policy="textbook"):
        arm.same_run()
        arm.higher("run_lost_gpu_hours")
        arm.higher("decision_latency_days")


def test_an_owner_who_looks_less_often_notices_spikes_later() -> None:
    # 120 replications a seed: the same owner watching the loss daily instead of hourly.
    s = scenario("followup_loss_spike")
    owner = s.team_ids.index(s.org.risk_owners["loss_spike"] or "")
    daily = changed(s, **{f"org__teams__{owner}__watch_hours": 24.0})
    for arm in arms(s, daily, 120, policy="textbook"):
        arm.same_run()
        arm.higher("run_lost_gpu_hours")


def test_a_playbook_beats_the_person_deciding_on_the_spot_where_the_model_shows_it() -> None:
    # 150 replications a seed of the budget-cut follow-up. A: its playbook; B: nothing agreed,
    # so the holder decides on the spot (a noisy, loss-averse reading of the model's
    # forecasts) after deliberating. The model shows the playbook winning on success and
    # speed of decision; the person keeps more money in hand (scope: it cuts tokens and skips
    # extra rounds), so no direction on P(on budget) is claimed.
    s = scenario("followup_budget_cut")
    for arm in arms(s, changed(s, levers__playbook={}), 150):
        arm.higher("success", a_is_higher=True)
        arm.higher("quality_met", a_is_higher=True)
        arm.higher("decision_latency_days")


def test_the_person_deciding_on_the_spot_does_not_pick_absurd_options_at_random() -> None:
    # 60 replications of the loss-spike follow-up with nothing agreed: a uniform pick would
    # overreact to a quarter of spikes and accept a quarter of overruns; the person, reading
    # the model's forecasts, almost never does either.
    s = changed(scenario("followup_loss_spike"), levers__playbook={})
    choices: Counter[tuple[str, str]] = Counter()
    for rep in range(60):
        m = ProjectModel(s, seed=2026, replication=rep)
        m.env.run(m.main)
        choices.update((d.kind, d.choice) for d in m.recording.decisions)
    spikes = sum(n for (kind, _), n in choices.items() if kind == "rollback")
    assert spikes > 100
    assert choices[("rollback", "overreact")] < 0.05 * spikes, choices
    assert choices[("rollback", "rollback_skip")] > 0.5 * spikes, choices


# --- safety ---------------------------------------------------------------------------------------


def test_late_safety_engagement_slips_the_schedule(base7b: Scenario) -> None:
    # 120 replications a seed. The same latent issues; engaged late, only the release review
    # looks, and a fix there costs six times one made in prepare, plus a tuning round.
    late = changed(base7b, levers__safety_from_start=False)
    for arm in arms(base7b, late, 120):
        arm.same_run()
        arm.higher("schedule_days")
        arm.higher("cost_usd")


# --- team size ------------------------------------------------------------------------------------


def _fixed_scope(s: Scenario) -> Scenario:
    """No decision may change the scope: budget gaps are accepted, every ship is a ship."""
    return changed(
        s,
        levers__playbook__budget=["accept_overrun"],
        levers__playbook__ship=["ship"],
        levers__playbook__schedule=["accept_slip"],
    )


def _core_scaled(s: Scenario, factor: float) -> Scenario:
    core = set(s.co_design_team_ids)
    return changed(
        s,
        **{
            f"org__teams__{i}__headcount": max(1, round(t.headcount * factor))
            for i, t in enumerate(s.org.teams)
            if t.id in core
        },
    )


def test_four_times_the_core_is_a_little_faster_at_much_higher_effort(base7b: Scenario) -> None:
    # 80 replications a seed of the post-training-bound 70B adaptation, at fixed scope.
    base = _fixed_scope(scenario("adapt_open_base_70b"))
    for arm in arms(base, _core_scaled(base, 4), 80):
        arm.same_run()
        faster = arm.higher("schedule_days", a_is_higher=True)
        assert faster < 0.1 * arm.a["schedule_days"].mean(), arm.scope
        assert arm.b["effort_person_days"].mean() > 1.5 * arm.a["effort_person_days"].mean()


def test_a_small_core_is_somewhat_slower_not_collapsed(base7b: Scenario) -> None:
    # 80 replications a seed at fixed scope: the 7B's cores cut from 5 to 2 people.
    base = _fixed_scope(base7b)
    for arm in arms(base, _core_scaled(base, 0.4), 80):
        arm.same_run()
        slower = arm.higher("schedule_days")
        assert slower < 0.3 * arm.a["schedule_days"].mean(), arm.scope


def test_adding_people_late_to_the_core_makes_it_later(base7b: Scenario) -> None:
    # 120 replications a seed; four newcomers join post-training on day 95.
    late = changed(base7b, levers__add_core_staff=4, levers__add_core_staff_day=95)
    for arm in arms(base7b, late, 120):
        arm.same_run()
        arm.higher("schedule_days")
        arm.higher("cost_people_usd")


def test_headcount_helps_where_co_design_is_not_needed_not_in_the_core(base7b: Scenario) -> None:
    # 100 replications a seed: the data team (data acquisition, little co-design) doubled
    # against the pretraining core doubled. Every arm ships at the first evaluation: an
    # extra round is a decision the budget left over pays for, and a bigger payroll leaves
    # less, so extra rounds would make the scope differ (equal scope: the same rounds).
    base = changed(base7b, levers__playbook__ship=["ship"])
    data = base.team_ids.index("data")
    core = base.team_ids.index("pretraining")
    more_data = changed(base, **{f"org__teams__{data}__headcount": 12})
    more_core = changed(base, **{f"org__teams__{core}__headcount": 10})
    pairs = zip(arms(base, more_data, 100), arms(base, more_core, 100), strict=True)
    for data_arm, core_arm in pairs:
        data_arm.same_run()
        core_arm.same_run()
        data_gain = data_arm.higher("schedule_days", a_is_higher=True)
        core_gain = paired_difference(core_arm.b["schedule_days"], core_arm.a["schedule_days"])[
            "mean"
        ]
        assert data_gain > 4 * max(0.0, core_gain), (data_gain, core_gain, core_arm.scope)


# --- silos ----------------------------------------------------------------------------------------


def test_siloed_design_detects_later_and_reworks_more(base7b: Scenario) -> None:
    # 120 replications a seed; every link four times slower, engineering split from training.
    links = [
        {**lk.model_dump(by_alias=True), "latency_days": lk.latency_days * 4}
        for lk in base7b.org.links
    ]
    siloed = changed(
        base7b, org__links=links, levers__engineering_embedded=False, org__politics_days=0.5
    )
    for arm in arms(base7b, siloed, 120):
        arm.same_run()
        arm.higher("incident:handoff_rework")
        arm.higher("decision_latency_days")
        # Throughput fixes and manual restarts wait for the round trip to infrastructure.
        arm.higher("run_effective_training_time", a_is_higher=True)


def test_at_equal_scope_the_large_siloed_org_is_slower_and_dearer(base7b: Scenario) -> None:
    # 100 replications a seed of the compare page's two presets.
    small = PRESETS_BY_KEY["small_core"].apply(base7b)
    large = PRESETS_BY_KEY["large_siloed"].apply(base7b)
    for arm in arms(small, large, 100):
        arm.same_run()
        arm.higher("schedule_days")
        arm.higher("cost_usd")


# --- data work ------------------------------------------------------------------------------------


def test_data_work_beats_equal_spend_on_compute_in_quality(base7b: Scenario) -> None:
    # 100 replications a seed; $100k more on data work versus $100k more of tokens. Scope
    # differs by design: the compute arm trains more tokens.
    extra = 100_000.0
    usd_per_token = ProjectModel(base7b).plan.usd_per_token
    data = changed(base7b, levers__data_investment_usd=extra)
    compute = changed(
        base7b,
        model__tokens_b=base7b.model.tokens_b + extra / usd_per_token / 1e9,
        objective__budget__compute_usd=base7b.objective.budget.compute_usd + extra,
    )
    for arm in arms(data, compute, 100):
        arm.higher("loss")


def test_data_work_takes_the_data_teams_time_and_does_not_pay_at_every_size(
    base7b: Scenario,
) -> None:
    # 60 replications a seed; no extra data work (A) against $1M of it (B). The passes take
    # the data team's person-days before training starts, so the big spend costs more
    # effort, money and calendar than it saves in extra training rounds. Scope: both arms
    # plan the same run; the data arm's better tokens may need fewer post-training rounds.
    big = changed(base7b, levers__data_investment_usd=1_000_000.0)
    for arm in arms(base7b, big, 60):
        arm.higher("effort_person_days")
        arm.higher("schedule_days")
        arm.higher("cost_usd")


def test_data_work_has_diminishing_returns_relative_to_the_tokens_it_improves() -> None:
    one, two = (data_multiplier(1.0, usd, 4e12) for usd in (100_000.0, 200_000.0))
    assert two - one < one - 1.0  # the second $100k buys less than the first
    assert data_multiplier(1.0, 100_000.0, 15e12) < one  # and less on a bigger corpus


# --- too many models, forced contributions, territory, research -----------------------------------


def test_fewer_focused_models_do_better(base7b: Scenario) -> None:
    # 100 replications a seed. Three variants split the GPUs, the tokens (scope: the flagship
    # trains a third) and the core's people; the best of three recipes does not make up for it.
    for arm in arms(base7b, changed(base7b, levers__parallel_variants=3), 100):
        arm.higher("loss")
        arm.higher("schedule_days")


def test_forced_contributions_cost_quality_that_tested_ones_do_not(base7b: Scenario) -> None:
    # 120 replications a seed: the same three ideas from the pretraining team, judged by the
    # ablations (A) or forced in (B): the ones that hurt stay, and their bugs skip the gate.
    ideas = [{"id": f"idea{k}", "team": "pretraining", "tested": True} for k in range(3)]
    tested = changed(base7b, org__contributions=ideas)
    forced = changed(base7b, org__contributions=[{**c, "tested": False} for c in ideas])
    for arm in arms(tested, forced, 120):
        arm.higher("loss")
        arm.higher("contribution_loss")
        arm.higher("incident:defect_tokenizer_config")


def test_a_mandate_not_backed_by_experiments_skips_the_gate(base7b: Scenario) -> None:
    # 120 replications a seed: leadership mandates one change, tested or not.
    mandate = {"id": "mandate", "team": "leadership", "tested": True}
    backed = changed(base7b, org__contributions=[mandate])
    unbacked = changed(base7b, org__contributions=[{**mandate, "tested": False}])
    for arm in arms(backed, unbacked, 120):
        arm.higher("contribution_loss")


def test_a_territorial_team_slows_decisions_and_worsens_the_model(base7b: Scenario) -> None:
    # 150 replications a seed: the data team turned territorial under a day of politics.
    base = changed(base7b, org__politics_days=1.0)
    data = base.team_ids.index("data")
    territorial = changed(base, **{f"org__teams__{data}__territorial": True})
    for arm in arms(base, territorial, 150):
        arm.higher("decision_latency_days")
        arm.higher("contribution_loss")


def test_evergreen_research_kept_apart_pays_later_at_a_cost(base7b: Scenario) -> None:
    # 100 replications a seed: findings for the next model and defects caught before the
    # run, for the researchers' salaries; folded into the core instead, they force their
    # ideas in and find nothing for later.
    apart = PRESETS_BY_KEY["evergreen_apart"].apply(base7b)
    inside = PRESETS_BY_KEY["research_in_core"].apply(base7b)
    for arm in arms(base7b, apart, 100):
        arm.same_run()
        arm.higher("research_findings")
        arm.higher("cost_people_usd")
    for arm in arms(apart, inside, 100):
        arm.higher("research_findings", a_is_higher=True)
        arm.higher("loss")
