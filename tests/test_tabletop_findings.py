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

import pytest

from sim.storage import make_engine
from sim.tabletop.errors import Refused
from sim.tabletop.report.calls import judged
from sim.tabletop.report.findings import Finding, one_verdict, quantify
from sim.tabletop.report.montecarlo import KindEffect, MonteCarlo
from sim.tabletop.report.report import AfterActionReport
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, Table, db_url, quiet_yaml, sample_injects

__all__ = ["db_url"]

Chooser = Callable[[dict, dict], str]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


def play(svc: TabletopService, seed: int, choose: Chooser) -> tuple[Table, AfterActionReport]:
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
    return table, svc.report(table.room, table.key, reps=6)


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

    table, report = play(service, 3, overreact)
    spike = next(d for d in table.svc.room(table.room).decisions if d.choice == "overreact")
    judged_calls = {k for f in on_calls(report) for k in f.calls}
    assert spike.key in judged_calls
    effect = report.montecarlo.effect("rollback")
    assert effect is not None and [e.kind for e in report.montecarlo.by_kind] == ["rollback"]
    for o, ci in effect.delta_p_met_interval.items():  # each chance with its interval
        assert ci["low"] <= effect.delta_p_met[o] <= ci["high"] and ci["n"] == 6
    good = {k for f in report.strengths for k in f.calls}
    bad = {k for f in report.improvements for k in f.calls}
    assert not good & bad


def test_a_single_option_or_the_playbooks_call_is_not_judged() -> None:
    assert not judged(["accept_overrun"], "accept_overrun", "accept_overrun")
    assert not judged(["accept_overrun"], "accept_overrun", "use_reserve")
    assert not judged(["use_reserve", "cut_scope"], "use_reserve", "use_reserve")
    assert judged(["use_reserve", "cut_scope"], "cut_scope", "use_reserve")


def test_no_monte_carlo_gap_on_calls_that_were_the_playbooks() -> None:
    same = KindEffect("budget", ("use_reserve", "use_reserve"), "use_reserve",
                      {"budget": -0.2}, {"mean": 3.0, "low": 1.0, "high": 5.0},
                      {"mean": 181_647.0, "low": 109_000.0, "high": 254_000.0})  # fmt: skip
    mc = cast(MonteCarlo, SimpleNamespace(reps=100))  # quantify reads the count only
    assert quantify(same, mc) == ""
    other = KindEffect("budget", ("use_reserve", "cut_scope"), "use_reserve",
                       same.delta_p_met, same.delta_days, same.delta_cost_usd,
                       {"budget": {"mean": -0.2, "low": -0.31, "high": -0.09, "n": 100.0}},
                       )  # fmt: skip
    said = quantify(other, mc)
    assert "$+181,647" in said and "-20 points (95% interval -31 to -9)" in said


def test_a_call_is_never_both_a_strength_and_an_area_for_improvement() -> None:
    due = date(2026, 1, 1)
    strength = Finding("strength", "incident_response", "As expected.", "Ada", due, "inject a",
                       calls=("rollback#0",))  # fmt: skip
    other = Finding("strength", "incident_response", "Fine.", "Ada", due, "inject b",
                    calls=("rollback#1",))  # fmt: skip
    fault = Finding("improvement", "incident_response", "Would have beaten.", "Ada", due,
                    "decision rollback#0", calls=("rollback#0",))  # fmt: skip
    assert one_verdict([strength, other, fault]) == [other, fault]
