"""Politics, safety, signals and the person deciding on the spot: the mechanisms, exactly."""

from __future__ import annotations

import pytest

from sim.engine.model import ProjectModel
from sim.engine.org import OrgGraph
from sim.engine.politics import ContributionBook, proposals, variant_loss_error
from sim.engine.rng import Streams
from sim.engine.safety import fix_days
from sim.engine.signals import monitoring_days, notice_days, restart_minutes, run_mfu
from sim.scenario.loading import ScenarioError, with_overrides
from sim.scenario.spec import Scenario


def test_a_territorial_team_proposes_an_untested_contribution(scenario: Scenario) -> None:
    s = with_overrides(scenario, {"org.teams.4.territorial": True})
    [c] = proposals(s)
    assert c.team == s.org.teams[4].id and not c.tested


def test_untested_contributions_are_kept_whatever_they_do(scenario: Scenario) -> None:
    ideas = [{"id": f"i{k}", "team": "pretraining", "tested": k % 2 == 0} for k in range(40)]
    s = with_overrides(scenario, {"org.contributions": ideas})
    book = ContributionBook.draw(s, Streams.for_replication(3, 0))
    judged = book.judge(ablation_fraction=0.5)
    assert {c.spec.id for c in judged} == {f"i{k}" for k in range(0, 40, 2)}
    forced = [c for c in book.items if not c.spec.tested]
    assert all(c.kept for c in forced) and any(c.effect > 0 for c in forced)
    # Judged well (big ablations), the kept tested ones help on the whole.
    kept = [c.effect for c in judged if c.kept]
    assert kept and sum(kept) < 0


def test_the_release_is_the_best_of_the_variants(scenario: Scenario) -> None:
    s = with_overrides(scenario, {"levers.parallel_variants": 4})
    streams = Streams.for_replication(1, 2)
    assert variant_loss_error(s, streams, 0.05, 0.02) <= 0.05
    assert variant_loss_error(scenario, streams, 0.05, 0.02) == 0.05


def test_an_evergreen_team_takes_no_project_work(scenario: Scenario) -> None:
    with pytest.raises(ScenarioError, match="evergreen"):
        with_overrides(scenario, {"org.teams.4.evergreen": True})  # the data team owns work


def test_safety_fixes_cost_more_the_later_they_come(scenario: Scenario) -> None:
    days = [fix_days(scenario, p) for p in ("prepare", "training", "release")]
    assert days[0] == pytest.approx(scenario.incidents.safety.fix_days_early)
    assert days[-1] == pytest.approx(scenario.incidents.safety.fix_days_late)
    assert days[0] < days[1] < days[2]


def test_signals_travel_the_org_graph(scenario: Scenario) -> None:
    org = OrgGraph(scenario)
    unowned = OrgGraph(with_overrides(scenario, {"org.risk_owners.loss_spike": None}))
    assert notice_days(org, "loss_spike", 0.5) < notice_days(unowned, "loss_spike", 0.5)
    assert monitoring_days(unowned, "data_quality", 1.0) < float("inf")
    no_data_owner = OrgGraph(with_overrides(scenario, {"org.risk_owners.data_quality": None}))
    assert monitoring_days(no_data_owner, "data_quality", 1.0) == float("inf")
    # Contamination shows only at the weekly checkpoint evaluations.
    days = monitoring_days(org, "contamination", 1.0)
    assert days % scenario.org.eval_interval_days == pytest.approx(0.0)
    apart = OrgGraph(with_overrides(scenario, {"levers.engineering_embedded": False}))
    assert restart_minutes(scenario, apart, 10.0) > restart_minutes(scenario, org, 10.0)
    args = (7e9, 4e12, scenario.cluster.gpus)
    assert run_mfu(scenario, apart, *args) < run_mfu(scenario, org, *args) < scenario.cluster.mfu


def test_the_person_deciding_reads_forecasts_relative_to_doing_nothing(scenario: Scenario) -> None:
    s = with_overrides(scenario, {"levers.playbook": {}})
    m = ProjectModel(s, seed=0, replication=0)
    while m.pending is None and not m.finished and m.env.peek() < float("inf"):
        m.env.step()
        if m.recording.decisions:
            break
    record = m.recording.decisions[0] if m.recording.decisions else None
    assert record is not None, "the 7B play raises a decision"
    outlook = m.outlook(record.kind, record.options, record.context)
    quo = {"rollback": "continue", "data_fix": "accept", "budget": "accept_overrun",
           "ship": "ship", "schedule": "accept_slip"}[record.kind]  # fmt: skip
    if quo in record.options:
        f = outlook.options[quo]
        assert (f.days, f.usd, f.quality) == (0.0, 0.0, 0.0)
    assert outlook.usd_per_day > 0 and outlook.usd_per_score > 0
