"""Findings that judge only real choices (issue 27.5), through the service.

A call equal to the playbook's, or with a single option, is never a finding (neither a
strength nor an area for improvement, and no Monte Carlo gap is put on it); a call is
never both a strength and an area for improvement. An exercise whose every call is the
playbook's produces no finding on its calls, on two seeds; the same exercise with one
call away from the playbook does (so the test can fail).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from types import SimpleNamespace
from typing import cast

import numpy as np
import pandas as pd
import pytest

from sim.storage import make_engine
from sim.tabletop.errors import Refused
from sim.tabletop.report.calls import judged
from sim.tabletop.report.findings import Finding, one_verdict, quantify
from sim.tabletop.report.montecarlo import KindEffect, MonteCarlo
from sim.tabletop.report.report import AfterActionReport
from sim.tabletop.report.versus import FINDING_WORLDS, compare
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, Table, db_url, quiet_yaml, sample_injects

__all__ = ["db_url"]

Chooser = Callable[[dict, dict], str]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


def play(
    svc: TabletopService, seed: int, choose: Chooser, reps: int = 6
) -> tuple[Table, AfterActionReport]:
    """An exercise to its end, every role held by a player, each call made by ``choose``."""
    table = Table.__new__(Table)
    table.svc = svc
    table.created = svc.create_exercise(quiet_yaml(), seed=seed, injects=sample_injects())
    table.room, table.key = table.created.room_code, table.created.facilitator_key
    svc.open_room(table.room, table.key, table.key)
    table.ada = svc.join(table.room, "Ada")
    for role in table.view()["roles"]:
        svc.claim_role(table.room, table.ada.seat_key, role["team"])
    for _ in range(200):
        view = table.view()
        pending = view["pending"]
        if pending is not None:
            svc.decide(table.room, table.ada.seat_key, pending["key"], choose(pending, view),
                       RATIONALE)  # fmt: skip
            continue
        if view["situation"]["finished"]:
            break
        try:
            svc.advance(table.room, table.key, by_days=30.0)
        except Refused:
            break
    svc.set_status(table.room, table.key, "ended")
    return table, svc.report(table.room, table.key, reps=reps)


def playbook(pending: dict, view: dict) -> str:
    choice = view["hidden"]["playbook_choice"]
    assert choice in pending["options"]
    return str(choice)


def on_calls(report: AfterActionReport) -> list[Finding]:
    """The findings that judge a call's choice (not its route or staffing)."""
    return [f for f in (*report.strengths, *report.improvements)
            if f.calls and not f.source.startswith(("slow ", "unstaffed "))]  # fmt: skip


@pytest.mark.parametrize("seed", [3, 11])
def test_calls_equal_to_the_playbooks_are_never_findings(
    service: TabletopService, seed: int
) -> None:
    table, report = play(service, seed, playbook)
    decisions = table.svc.room(table.room).decisions
    assert len(decisions) >= 1 and all(d.by == "player" for d in decisions)
    assert on_calls(report) == [], [f.text for f in on_calls(report)]
    assert not any("simulated worlds, the room's" in f.quantified for f in report.improvements)
    assert report.montecarlo.by_kind == (), "no Monte Carlo arm for the playbook's own calls"
    # None of them is both a strength and an area for improvement.
    good = {k for f in report.strengths for k in f.calls}
    bad = {k for f in report.improvements for k in f.calls}
    assert not good & bad


def test_a_call_away_from_the_playbook_is_judged(service: TabletopService) -> None:
    """The control: the spike answered by an overreaction, everything else by the playbook."""

    def overreact(pending: dict, view: dict) -> str:
        if pending["kind"] == "rollback" and "overreact" in pending["options"]:
            return "overreact"
        return playbook(pending, view)

    table, report = play(service, 3, overreact, reps=FINDING_WORLDS)
    spike = next(d for d in table.svc.room(table.room).decisions if d.choice == "overreact")
    judged_calls = {k for f in on_calls(report) for k in f.calls}
    assert spike.key in judged_calls
    effect = report.montecarlo.effect("rollback")
    assert effect is not None and [e.kind for e in report.montecarlo.by_kind] == ["rollback"]
    assert effect.judged == (spike.key,)
    for o, ci in effect.delta_p_met_interval.items():  # each chance with its interval
        assert ci["low"] <= effect.delta_p_met[o] <= ci["high"] and ci["n"] == FINDING_WORLDS
    for row in (effect.delta_days, effect.delta_cost_usd):
        assert row["low"] <= row["mean"] <= row["high"] and row["n"] == FINDING_WORLDS
    good = {k for f in report.strengths for k in f.calls}
    bad = {k for f in report.improvements for k in f.calls}
    assert not good & bad


def contrarian(pick: int) -> Chooser:
    """Every call away from the playbook where it has another option (the pick-th other)."""

    def choose(pending: dict, view: dict) -> str:
        agreed = playbook(pending, view)
        others = [o for o in pending["options"] if o != agreed]
        return others[pick % len(others)] if others else agreed

    return choose


@pytest.mark.parametrize(("seed", "pick"), [(3, 0), (11, -1)])
def test_every_finding_on_calls_rests_on_the_many_world_verdict(
    service: TabletopService, seed: int, pick: int
) -> None:
    """A finding on the room's choices is the kind's verdict over >= 100 paired worlds.

    Clearly worse is an area for improvement, clearly better a strength, anything else
    (no clear difference, a trade-off) no finding at all, whatever one world says; the
    single replayed world appears only as a marked illustration beside the figure.
    """
    table, report = play(service, seed, contrarian(pick), reps=FINDING_WORLDS)
    mc = report.montecarlo
    assert mc.reps >= 100 and mc.by_kind, "the contrarian room left the playbook"
    by_source = {f.source: f for f in (*report.strengths, *report.improvements)}
    slow = {k for f in report.improvements if f.source.startswith(("slow ", "unstaffed "))
            for k in f.calls}  # fmt: skip
    for effect in mc.by_kind:
        v = effect.versus
        assert v.reps == mc.reps and set(v.chances) == {"deadline", "budget", "quality"}
        found = by_source.get(f"calls {effect.kind}")
        if v.verdict == "worse":
            assert found is not None and found.kind == "improvement"
        elif v.verdict == "better" and not set(effect.judged) & slow:
            assert found is not None and found.kind == "strength"
        elif v.verdict not in ("worse", "better"):
            assert found is None, (effect.kind, v.verdict, found)
        if found is not None:
            assert set(found.calls) == set(effect.judged)
            assert f"Over {v.reps} simulated worlds" in found.quantified
            assert found.quantified.count("95% interval") == 5  # finish, cost, 3 chances
            singles = [e for e in found.evidence if "One world only" in e]
            assert all("illustration" in e for e in singles)
            assert "One world" not in found.text and "same world" not in found.text
    # No claim on a call rests on one world: the old single-world sentence is gone.
    texts = [f.text for f in (*report.strengths, *report.improvements)]
    assert not any("would have beaten" in t or "in the same world" in t for t in texts)
    # Each objective's chance carries its interval and the paired gap to the playbook.
    for f in report.strengths + report.improvements:
        if f.source.startswith("objective "):
            assert "95% interval" in f.quantified and "on the same worlds" in f.quantified


def test_too_few_worlds_give_no_verdict_on_a_call(service: TabletopService) -> None:
    """Below 100 worlds the comparison is shown but no call is judged by it."""
    _, report = play(service, 11, contrarian(-1), reps=20)
    assert report.montecarlo.by_kind
    assert {e.versus.verdict for e in report.montecarlo.by_kind} == {"too few worlds"}
    assert not [f for f in (*report.strengths, *report.improvements)
                if f.source.startswith("calls ")]  # fmt: skip


def _frame(days: np.ndarray, cost: np.ndarray, on_time: np.ndarray) -> pd.DataFrame:
    n = days.size
    return pd.DataFrame(
        {
            "schedule_days": days,
            "cost_usd": cost,
            "on_time": on_time,
            "on_budget": np.ones(n, bool),
            "quality_met": np.ones(n, bool),
        }
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_verdict_reads_only_clear_paired_differences(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 100
    days, cost = rng.normal(150, 10, n), rng.normal(8e6, 4e5, n)
    on_time = rng.random(n) < 0.6
    base = _frame(days, cost, on_time)
    # The same worlds, three days later and $200k dearer in each (a shift, plus noise).
    later = _frame(days + 3 + rng.normal(0, 1, n), cost + 2e5 + rng.normal(0, 5e4, n), on_time)
    assert compare(base, later).verdict == "worse"
    assert compare(later, base).verdict == "better"
    # Sooner but dearer: a trade-off, no verdict either way.
    mixed = _frame(days - 3 + rng.normal(0, 1, n), cost + 2e5 + rng.normal(0, 5e4, n), on_time)
    assert compare(base, mixed).verdict == "trade-off"
    # Noise alone around the same worlds: no clear difference.
    noise = _frame(days + rng.normal(0, 1, n), cost + rng.normal(0, 5e4, n), on_time)
    assert compare(base, noise).verdict == "no clear difference"
    # The same shift on too few worlds is never a verdict.
    few = compare(base.head(FINDING_WORLDS - 1), later.head(FINDING_WORLDS - 1))
    assert few.verdict == "too few worlds" and not few.worse_on()


def test_a_single_option_or_the_playbooks_call_is_not_judged() -> None:
    assert not judged(["accept_overrun"], "accept_overrun", "accept_overrun")
    assert not judged(["accept_overrun"], "accept_overrun", "use_reserve")
    assert not judged(["use_reserve", "cut_scope"], "use_reserve", "use_reserve")
    assert judged(["use_reserve", "cut_scope"], "cut_scope", "use_reserve")


def test_no_monte_carlo_gap_on_calls_that_were_the_playbooks() -> None:
    rng = np.random.default_rng(4)
    days, cost = rng.normal(150, 10, 100), rng.normal(8e6, 4e5, 100)
    base = _frame(days, cost, rng.random(100) < 0.6)
    versus = compare(base, _frame(days + 3, cost + 181_647, base["on_time"].to_numpy()))
    mc = cast(MonteCarlo, SimpleNamespace(reps=100))  # quantify reads the count only
    same = KindEffect("budget", ("use_reserve", "use_reserve"), "use_reserve", versus)
    assert quantify(same, mc) == ""
    other = KindEffect("budget", ("use_reserve", "cut_scope"), "use_reserve", versus)
    said = quantify(other, mc)
    assert "+$181,647" in said and "the finish +3.0 days (95% interval" in said
    assert "Over 100 simulated worlds (common random numbers)" in said


def test_a_call_is_never_both_a_strength_and_an_area_for_improvement() -> None:
    due = date(2026, 1, 1)
    strength = Finding("strength", "incident_response", "As expected.", "Ada", due, "inject a",
                       calls=("rollback#0",))  # fmt: skip
    other = Finding("strength", "incident_response", "Fine.", "Ada", due, "inject b",
                    calls=("rollback#1",))  # fmt: skip
    fault = Finding("improvement", "incident_response", "Would have beaten.", "Ada", due,
                    "decision rollback#0", calls=("rollback#0",))  # fmt: skip
    assert one_verdict([strength, other, fault]) == [other, fault]


@pytest.mark.parametrize("seed", [3, 11])
def test_adopting_the_findings_does_not_count_them_twice(
    service: TabletopService, seed: int
) -> None:
    """Adopted, each proposed area for improvement is one plan item and one finding (27.8)."""
    table, before = play(service, seed, contrarian(0), reps=FINDING_WORLDS)  # adopt's count
    proposed = [p for p in before.plan if p.item_id is None]
    assert proposed, "the contrarian room leaves something to improve"
    added = service.adopt_findings(table.room, table.key)
    assert added == len(proposed)
    after = service.report(table.room, table.key, reps=FINDING_WORLDS)
    assert len(after.improvements) == len(before.improvements)
    assert len(after.plan) == len(before.plan)
    assert all(p.item_id is not None for p in after.plan)
    sources = [f.source for f in after.improvements]
    assert len(sources) == len(set(sources)), sources
    assert service.adopt_findings(table.room, table.key) == 0  # nothing left to adopt
