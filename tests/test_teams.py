"""Team output from coordination: the shape of team size against time and effort, exactly.

No Monte Carlo here: these tests read sim/engine/teams.py's arithmetic directly, so they
pin the shape the lessons rest on (docs/model.md, "Teams") in milliseconds.
"""

from __future__ import annotations

from typing import Any

import pytest

from sim.engine.staff import WORK_STEP_DAYS
from sim.engine.teams import (
    CO_DESIGN_COST,
    TASK_PERSON_DAYS,
    TeamState,
    coordination_factor,
    output_on,
    seniority_factor,
    share_out,
    work_item,
)
from sim.scenario.spec import RISK_KINDS, ROLE_CO_DESIGN, Team

RECIPE = ROLE_CO_DESIGN["recipe"]
DATA = ROLE_CO_DESIGN["data"]


def days(people: float, effort: float, co_design: float) -> float:
    """Calendar days for ``people`` veterans alone on one piece of work."""
    return effort / output_on(people, work_item(effort, co_design))


def test_on_fixed_scope_four_times_the_team_is_a_little_faster_at_several_times_the_effort() -> (
    None
):
    effort = 400.0  # recipe work large enough that 20 people all have tasks
    small, large = days(5, effort, RECIPE), days(20, effort, RECIPE)
    assert 0.85 < large / small < 0.99, large / small
    assert 20 * large / (5 * small) > 3.0


def test_a_small_team_is_somewhat_slower_not_collapsed() -> None:
    effort = 400.0
    five, two, one = (days(n, effort, RECIPE) for n in (5, 2, 1))
    assert 1.0 < two / five < 1.25
    assert 1.0 < one / five < 1.5


def test_no_u_shape_more_people_never_make_unsaturated_co_design_work_slower() -> None:
    effort = 10_000.0
    pace = [days(n, effort, RECIPE) for n in range(1, 60)]
    assert all(b <= a for a, b in zip(pace, pace[1:], strict=False))
    # ... and output approaches, never passes, its ceiling of 1/c person-days a day.
    assert output_on(59, work_item(effort, RECIPE)) < 1.0 / CO_DESIGN_COST


def test_work_without_co_design_scales_with_headcount_until_it_saturates() -> None:
    effort = 180.0
    tasks = effort / TASK_PERSON_DAYS
    assert days(6, effort, DATA) / days(24, effort, DATA) > 3.0  # nearly linear
    # Past its tasks, more people add nothing.
    assert days(tasks, effort, DATA) == pytest.approx(days(3 * tasks, effort, DATA))


def test_co_design_work_does_not_scale_where_data_work_does() -> None:
    assert days(5, 400, RECIPE) / days(20, 400, RECIPE) < 1.15
    assert days(5, 400, DATA) / days(20, 400, DATA) > 3.0


def test_pairs_weighted_by_co_design() -> None:
    # n(n-1)/2 pairs, each spending c*d of one member's share: c d (n - 1) extra per unit.
    for n, d in ((2, 1.0), (10, 0.5), (30, 0.02)):
        assert coordination_factor(n, d) - 1.0 == pytest.approx(
            CO_DESIGN_COST * d * n * (n - 1) / 2 * 2 / n
        )


def test_people_are_shared_over_the_work_on_hand_and_surplus_has_no_task() -> None:
    small, big = work_item(3.0, RECIPE), work_item(300.0, RECIPE)  # 2 tasks and 200
    assert share_out(10, [small, big]) == pytest.approx([2.0, 8.0])
    team = TeamState(Team(id="t", headcount=10, seniority=0.625))
    team.take(small, 0.0)
    assert team.surplus_person_days(5.0) == pytest.approx(8.0 * 5.0)  # 8 people had no task
    team.take(big, 5.0)
    assert team.surplus_person_days(10.0) == pytest.approx(8.0 * 5.0)  # now they all have one


def test_newcomers_cost_before_they_help_brooks() -> None:
    item = work_item(1_000.0, RECIPE)
    team = TeamState(Team(id="t", headcount=5, seniority=0.625))
    team.take(item, 0.0)
    before = team.rate(item, 0.0)
    team.join(0.0, 4)
    assert team.rate(item, 1.0) < before  # mentoring and more pairs, nothing ramped yet
    assert team.rate(item, 120.0) > before  # once ramped (and promoted), a little faster
    # Mentoring never takes more veterans than there are: a team of newcomers still ramps.
    fresh = TeamState(Team(id="n", headcount=1, seniority=0.625))
    fresh.leave(0.0)
    fresh.join(0.0, 3)
    assert fresh.productive_share(0.0) == 0.0 and fresh.productive_share(30.0) > 0.0


def _bare_project(headcount: int) -> tuple[Any, str]:
    """A play's teams in an empty environment: only the work a test starts runs in it."""
    from types import SimpleNamespace

    from sim.engine.clock import PlayEnvironment
    from sim.engine.facts import scenario_facts
    from sim.engine.recording import Recording
    from sim.engine.records import Ledger
    from sim.engine.rng import Streams
    from sim.engine.staff import Staff
    from tests.tiny import TRAIN, tiny

    # Nobody owns a risk: an owner's watch would take people off the work counted by hand.
    s = tiny(org__teams__0__headcount=headcount, org__risk_owners=dict.fromkeys(RISK_KINDS))
    env = PlayEnvironment()
    streams, ledger = Streams.for_replication(0, 0), Ledger(1e9, 0.0)
    staff = Staff(s, scenario_facts(s), env, streams, ledger, Recording(env))
    return SimpleNamespace(env=env, staff=staff), TRAIN


def test_a_piece_of_work_speeds_up_the_moment_its_team_finishes_another() -> None:
    # Two pieces share 4 people (2 each). When the short one finishes, the long one gets all
    # 4 at that moment, not at its next look: the work done is the exact integral of a
    # piecewise-constant pace.
    m, team = _bare_project(4)
    co = ROLE_CO_DESIGN["general"]
    ended: dict[str, float] = {}

    def piece(name: str, effort: float) -> Any:
        yield from m.staff.work(team, effort, co, key=name)
        ended[name] = m.env.now

    m.env.process(piece("short", 3.0))
    m.env.process(piece("long", 40.0))
    m.env.run()
    share = m.staff.teams[team].productive_share(0.0)
    two, four = (output_on(p, work_item(e, co), share) for p, e in ((2, 3.0), (4, 40.0)))
    t_short = 3.0 / two
    left = 40.0 - output_on(2, work_item(40.0, co), share) * t_short
    assert ended["short"] == pytest.approx(t_short, rel=1e-12)
    assert ended["long"] == pytest.approx(t_short + left / four, rel=1e-12)


def test_a_join_wakes_the_work_and_its_newcomer_ramps_in_steps() -> None:
    # A join on day 3 reaches the work at once; while the newcomer ramps up the pace is read
    # every WORK_STEP_DAYS at the start of each step. On a month of work a newcomer to a
    # team of two costs more than it adds (mentoring first: Brooks).
    m, team = _bare_project(2)
    co = ROLE_CO_DESIGN["data"]
    state = m.staff.teams[team]
    ended: list[float] = []

    def piece() -> Any:
        yield from m.staff.work(team, 60.0, co, key="piece")
        ended.append(m.env.now)

    def join_at(day: float) -> Any:
        yield m.env.timeout(day)
        state.join(m.env.now)

    item = work_item(60.0, co)
    alone = 60.0 / output_on(2, item, state.productive_share(0.0))
    m.env.process(piece())
    m.env.process(join_at(3.0))
    m.env.run()
    # The same arithmetic by hand: two veterans for three days, then steps from the join.
    t, left = 3.0, 60.0 - output_on(2, item, seniority_factor(state.spec.seniority)) * 3.0
    while left > 1e-9:
        rate = output_on(3, item, state.productive_share(t))
        dt = min(WORK_STEP_DAYS, left / rate)
        t, left = t + dt, left - rate * dt
    assert ended[0] == pytest.approx(t, rel=1e-12)
    assert ended[0] > alone
    assert state.version == 1  # one change of the people
