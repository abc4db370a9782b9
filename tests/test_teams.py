"""sim.engine.teams: capacity from headcount, ramp-up and mentoring; the person-day integral."""

from __future__ import annotations

import pytest

from sim.engine.org import coordination_overhead
from sim.engine.teams import MENTOR_SHARE, RAMP_DAYS, TeamState, seniority_factor
from sim.scenario.spec import Team


def team(headcount: int = 4, core: bool = True, seniority: float = 0.5) -> TeamState:
    return TeamState(Team(id="t", headcount=headcount, core=core, seniority=seniority))


def test_capacity_of_a_settled_team_follows_the_formula() -> None:
    t = team(4)
    expected = 4 * (1 - coordination_overhead(4, True)) * seniority_factor(0.5)
    assert t.capacity(0.0) == pytest.approx(expected)
    assert t.capacity(100.0) == t.capacity(0.0)  # nothing ramps, nothing changes


def test_a_newcomer_costs_output_at_first_and_adds_it_after_ramping_up() -> None:
    t = team(4)
    before = t.capacity(0.0)
    t.join(10.0)
    at_join = t.capacity(10.0)
    halfway = t.capacity(10.0 + RAMP_DAYS / 2)
    ramped = t.capacity(10.0 + RAMP_DAYS)
    # Brooks: the newcomer contributes nothing yet and takes mentoring from the veterans.
    raw = 4 - MENTOR_SHARE
    assert at_join == pytest.approx(
        raw * (1 - coordination_overhead(5, True)) * seniority_factor(0.5)
    )
    assert at_join < before < ramped
    assert at_join < halfway < ramped


def test_promote_turns_ramped_newcomers_into_veterans() -> None:
    t = team(2)
    t.join(0.0, people=2)
    t.promote(RAMP_DAYS - 1)
    assert (t.veterans, len(t.newcomers)) == (2, 2)
    t.promote(RAMP_DAYS)
    assert (t.veterans, len(t.newcomers)) == (4, 0)


def test_departures_take_veterans_first() -> None:
    t = team(1)
    t.join(0.0)
    t.leave(5.0)
    assert (t.veterans, len(t.newcomers)) == (0, 1)
    t.leave(6.0)
    assert t.headcount == 0


def test_person_days_integrate_headcount_exactly_through_joins_and_departures() -> None:
    t = team(3)
    t.join(10.0, people=2)  # 3 people for 10 days
    t.leave(20.0)  # 5 people for 10 days
    assert t.person_days(30.0) == pytest.approx(3 * 10 + 5 * 10 + 4 * 10)


def test_every_person_day_is_charged_once() -> None:
    t = team(2)
    first = t.accrue_person_days(10.0)
    t.join(15.0)
    second = t.accrue_person_days(20.0)
    assert first == pytest.approx(20.0)
    assert second == pytest.approx(2 * 5 + 3 * 5)
    assert t.accrue_person_days(20.0) == 0.0
    assert first + second == pytest.approx(t.person_days(20.0))
    assert t.cost_usd(second) == pytest.approx(second * t.spec.usd_per_person_day)


def test_attention_split_and_the_floor() -> None:
    full = team(4)
    split = TeamState(Team(id="t", headcount=4, core=True, seniority=0.5), attention=0.5)
    assert split.capacity(0.0) == pytest.approx(full.capacity(0.0) / 2)
    lone = team(1)
    lone.leave(0.0)
    assert lone.capacity(0.0) == pytest.approx(0.05)  # never zero: work still moves
