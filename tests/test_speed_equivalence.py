"""What the engine reuses to go faster gives the numbers it would work out afresh.

The set-up fit is made once per scenario and copied into later replications; forecasts of
a team without newcomers are kept while its people stay the same; an element's draws are
worked out a block at a time as they are read; a stream's seed is mixed in Python. Each is
checked against the fresh computation it stands for. A few seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import numpy as np
import pytest

from sim.engine import forecast
from sim.engine.facts import scenario_facts
from sim.engine.forecast import FORECAST_ORDER
from sim.engine.model import ProjectModel
from sim.engine.quality import QualityState, measure
from sim.engine.review import REVIEW_CO_DESIGN
from sim.engine.rng import (
    BLOCK_DRAWS,
    STREAM_KEYS,
    STREAMS,
    Streams,
    entity_key,
    standard_exponential,
)
from sim.engine.teams import (
    MENTOR_SHARE,
    RAMP_DAYS,
    TeamState,
    output_on,
    seniority_factor,
    share_out,
)
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.spec import Scenario


def _fitted(s: Scenario, replication: int) -> ProjectModel:
    return ProjectModel(s, seed=11, replication=replication)


def _record(m: ProjectModel) -> tuple[object, ...]:
    return (
        m.plan.state(),
        list(m.plan.scope_cuts),
        [(e.day, e.kind, e.summary, e.team, e.data) for e in m.recording.trace],
        dict(m.recording.incidents),
        m.plan.run_facts,
        m.plan.usd_per_token,
    )


@pytest.mark.parametrize(
    ("scenario", "reserve"),
    [("assistant_7b", 0.25), ("frontier_405b", 0.4), ("adapt_open_base_70b", 0.3)],
)
def test_the_set_up_fit_copied_into_a_replication_is_the_fit_made_afresh(
    scenario: str, reserve: float
) -> None:
    s = with_overrides(load_scenario(scenario), {"levers.reserve_fraction": reserve})
    facts = scenario_facts(s)
    facts.set_up_fit = None
    first = _fitted(s, 0)
    assert first.plan.scope_cuts, "this reserve must force a cut at set-up, or nothing is tested"
    assert facts.set_up_fit is not None
    for rep in (1, 7, 23):
        copied = _fitted(s, rep)
        facts.set_up_fit = None  # the next one works it out again
        fresh = _fitted(s, rep)
        assert _record(copied) == _record(fresh), rep
        # What a play records is its own: changing one replication's copy leaves the other.
        copied.recording.trace[0].data["probe"] = 1
        assert "probe" not in fresh.recording.trace[0].data


def test_a_set_up_with_no_scope_left_is_recorded_the_same_in_every_replication() -> None:
    s = with_overrides(
        load_scenario("assistant_7b"),
        {
            "objective.budget.compute_usd": 100_000.0,
            "objective.budget.people_usd": 1_000_000.0,
            "levers.reserve_fraction": 0.3,
        },
    )
    facts = scenario_facts(s)
    facts.set_up_fit = None
    runs = [_fitted(s, rep) for rep in range(3)]
    facts.set_up_fit = None
    assert [_record(m) for m in runs] == [_record(_fitted(s, rep)) for rep in range(3)]
    assert any(e.kind == "plan" and "no scope left" in e.summary for e in runs[0].recording.trace)


def test_a_steady_teams_forecast_is_the_one_worked_out_now() -> None:
    m = ProjectModel(load_scenario("assistant_7b"), seed=2, replication=3)
    while m.env.peek() < 60.0:
        m.env.step()
        for tid, team in m.staff.teams.items():
            effort, co_design = 40.0, 0.5
            got = m.staff.work_days(tid, effort, co_design)
            assert got == m.staff.solo_work_days(team, effort, co_design, m.env.now), (
                tid,
                m.env.now,
            )


def test_entity_draws_read_lazily_are_the_draws_made_at_once() -> None:
    one = Streams.for_replication(4, 9)
    for n in (1, 5, BLOCK_DRAWS, BLOCK_DRAWS + 1, 3 * BLOCK_DRAWS + 2):
        at_once = one.entity_uniforms("effort", "w", n)
        lazy = one.entity_draws("effort", "w", n)
        assert len(lazy) == n and lazy == at_once
        assert [lazy[k] for k in reversed(range(n))] == at_once[::-1]
        assert lazy[-1] == at_once[-1] and lazy[1:4] == at_once[1:4]
        assert one.entity_uniform("effort", "w") == at_once[0]
        with pytest.raises(IndexError):
            lazy[n]
    gaps = one.entity_draws("staffing", "t", 16, standard_exponential)
    assert list(gaps) == one.entity_exponentials("staffing", "t", 16)
    with pytest.raises(KeyError, match="add it to"):
        one.entity_uniform("no_such_source", "x")


@pytest.mark.parametrize("scenario", ["frontier_405b", "followup_budget_cut"])
def test_a_play_nobody_looks_at_keeps_the_same_totals_without_its_entries(scenario: str) -> None:
    s = load_scenario(scenario)
    seen = ProjectModel(s, seed=5, replication=2, observed=True)
    batch = ProjectModel(s, seed=5, replication=2, observed=False)
    seen.env.run()
    batch.env.run()
    assert batch.ledger.totals == seen.ledger.totals
    assert batch.ledger.line_totals == seen.ledger.line_totals
    assert len(seen.ledger.entries) > 100  # a frontier run charges every step
    assert sum(e.usd for e in seen.ledger.entries) == pytest.approx(seen.ledger.spent_usd)
    with pytest.raises(RuntimeError, match="not observed"):
        _ = batch.ledger.entries


def test_a_streams_generators_are_the_ones_numpys_seed_sequence_seeds() -> None:
    """The pool mixed in Python gives NumPy's SeedSequence words, so the same draws, bit for bit.

    Seeds of one word and of several, replications past 32 bits, every named stream and
    entity keys; a stream built the NumPy way draws the same numbers.
    """
    rnd = random.Random(23)
    seeds = [0, 1, 11, 2**32 - 1, 2**32, 2**64 + 5, *(rnd.getrandbits(130) for _ in range(5))]
    for seed in seeds:
        for replication in (0, 3, 2**32 + 7, rnd.getrandbits(40)):
            streams = Streams.for_replication(seed, replication)
            for name in STREAMS:
                child = np.random.SeedSequence(
                    entropy=seed, spawn_key=(replication, STREAM_KEYS[name])
                )
                numpy_way = np.random.Generator(np.random.PCG64(child))
                assert streams[name].bit_generator.state == numpy_way.bit_generator.state
                assert streams[name].random(3).tolist() == numpy_way.random(3).tolist()
            entity = np.random.SeedSequence(
                entropy=seed, spawn_key=(replication, STREAM_KEYS["safety"], entity_key("t1"))
            )
            gen = np.random.Generator(np.random.PCG64(entity))
            assert streams.for_entity("safety", "t1").standard_normal(4).tolist() == (
                gen.standard_normal(4).tolist()
            )
    # A seed sequence whose entropy is a list goes the NumPy way, with the same result.
    listed = Streams(np.random.SeedSequence(entropy=[3, 2**40], spawn_key=(9,)))
    child = np.random.SeedSequence(entropy=[3, 2**40], spawn_key=(9, STREAM_KEYS["budget"]))
    assert listed["budget"].random() == np.random.Generator(np.random.PCG64(child)).random()


def _fresh_phase_days(m: ProjectModel, phase: str) -> float:
    """A phase's forecast days worked out now, with no forecast kept anywhere."""
    now, teams = m.env.now, m.staff.teams
    days = 0.0
    for w in m.facts.in_phase[phase]:
        effort = m.planned_effort(w)
        days = max(days, m.staff.solo_work_days(teams[w.owner], effort, w.co_design_need, now))
    for _, effort_by_team in m.facts.gate_reviews[phase]:
        for team, e in effort_by_team.items():
            days = max(days, m.staff.solo_work_days(teams[team], e, REVIEW_CO_DESIGN, now))
    return days


def _fresh_planned_score(m: ProjectModel) -> float:
    s = m.scenario
    state = QualityState(
        loss=forecast.planned_loss(m),
        rounds=float(m.plan.rounds),
        product_transfer=m.plan.product_transfer,
        focus_capability=m.focus_capability,
        decontaminate=s.levers.decontaminate,
        contamination_defect=False,
        domain_gaps=forecast.planned_domain_gaps(m),
    )
    scores = measure(s.objective.capabilities, s.objective.evals, state, None)
    targets = s.objective.targets
    return math.fsum(scores[t.eval].score for t in targets) / max(1, len(targets))


def _every_event_of_a_frontier_and_7b_play() -> Iterator[tuple[str, ProjectModel]]:
    """A whole frontier play and a whole 7B play (teams ramping up in both), event by event."""
    for scenario, seed in (("frontier_405b", 5), ("assistant_7b", 2)):
        m = ProjectModel(load_scenario(scenario), seed=seed, replication=1)
        while not m.finished:
            m.env.step()
            yield scenario, m


def test_kept_forecasts_of_phases_and_scores_are_the_ones_worked_out_now() -> None:
    """Phases' days kept by the staff's version (also after a newcomer's ramp-up is over,
    while they are not yet counted as a veteran) and plans' scores kept by their fields."""
    ramped_unpromoted = ramping = 0
    for scenario, m in _every_event_of_a_frontier_and_7b_play():
        now = m.env.now
        for team in m.staff.teams.values():
            ramped_unpromoted += bool(team.newcomers) and not team.ramping(now)
            ramping += team.ramping(now)
        for first in range(1, len(FORECAST_ORDER)):
            fresh = tuple(_fresh_phase_days(m, p) for p in FORECAST_ORDER[first:])
            assert forecast.phases_work_days(m, first) == fresh, (scenario, now, first)
        assert forecast.planned_score(m) == _fresh_planned_score(m), (scenario, now)
    assert ramped_unpromoted and ramping, "both kinds of team must occur, or nothing is tested"


def _fresh_productive_share(team: TeamState, now: float) -> float:
    """:meth:`TeamState.productive_share` worked out afresh (as before anything was kept)."""
    n = team.headcount
    if n <= 0:
        return 0.0
    ramped = [min(1.0, max(0.0, (now - d) / RAMP_DAYS)) for d in team.newcomers]
    mentoring = min(float(team.veterans), MENTOR_SHARE * sum(1.0 - r for r in ramped))
    raw = team.veterans + (sum(ramped) - mentoring)
    return raw / n * seniority_factor(team.spec.seniority)


def test_a_teams_kept_shares_and_pace_are_the_ones_worked_out_now() -> None:
    """The people's shares over the work on hand (kept until either changes), a ramping
    team's output per head (kept for the moment) and whether it ramps (read from the newest
    newcomer), at every event of a whole frontier and 7B play, also a moment later; the
    staff's versions, ramping flags and payroll a day (kept until a team's people change)."""
    kept_shares = kept_paces = 0
    for scenario, m in _every_event_of_a_frontier_and_7b_play():
        now = m.env.now
        teams = m.staff.teams
        fresh_total = sum(t.version for t in teams.values())
        assert m.staff.version() == (fresh_total, any(t.ramping(now) for t in teams.values()))
        for ids in m.facts.phase_teams.values():
            fresh_versions = tuple(teams[i].version for i in ids)
            ramping = any(teams[i].ramping(now) for i in ids)
            assert m.staff.versions(ids) == (fresh_versions, ramping), (scenario, now, ids)
        payroll = 0.0
        for t in teams.values():
            payroll += t.headcount * t.spec.usd_per_person_day
        assert m.staff.payroll_per_day() == payroll, (scenario, now)
        for team in teams.values():
            for t in (now, now + 0.5):
                assert team.ramping(t) == any(t - d < RAMP_DAYS for d in team.newcomers)
            kept_paces += now in team._shares_on
            assert team.productive_share(now) == _fresh_productive_share(team, now)
            if team._shares is not None:
                kept_shares += 1
                assert team._shares == share_out(team.people(), team.items), (scenario, now)
            for item in team.items:
                shares = share_out(team.people(), team.items)
                fresh = output_on(
                    shares[team.items.index(item)], item, _fresh_productive_share(team, now)
                )
                assert team.rate(item, now) == fresh, (scenario, now, team.id)
    assert kept_shares and kept_paces, "kept shares and paces must occur, or nothing is tested"
