"""One clock (issue 27.6), through the service.

The finish day is one number everywhere (the exercise's clock, the pages' view, the audit
log and the report); the decision an inject raises comes up in the same advance as the
inject; a scenario's scripted event reaches the room with the call it raised, not after.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sim.storage import make_engine
from sim.tabletop.errors import Refused
from sim.tabletop.service import TabletopService
from tests.test_tabletop_findings import contrarian, play, playbook
from tests.test_tabletop_service import RATIONALE, ROOT, Table, db_url

__all__ = ["db_url"]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


@pytest.mark.parametrize(("seed", "choose"), [(3, playbook), (11, contrarian(0))])
def test_one_finish_day_everywhere(service: TabletopService, seed: int, choose: object) -> None:
    table, report = play(service, seed, choose)  # type: ignore[arg-type]
    view = table.view()
    assert view["situation"]["finished"]
    clock = service.room(table.room).exercise.clock_day
    assert view["situation"]["day"] == pytest.approx(clock, abs=1e-9)
    assert report.finish_day == pytest.approx(clock, abs=1e-9)
    assert report.stopped_day == pytest.approx(clock, abs=1e-9)
    # The log's last clock move and the end are on that day too, to the tenth shown.
    events = service.room(table.room).events
    last_clock = next(e for e in reversed(events) if e.kind == "clock")
    assert f"{clock:.1f}" in last_clock.summary and events[-1].day == pytest.approx(clock)
    deadline = next(o for o in report.objectives if o.objective == "deadline")
    assert deadline.result == f"day {clock:.1f}"


@pytest.mark.parametrize("seed", [3, 11])
def test_the_call_an_inject_raises_comes_up_in_the_same_advance(
    service: TabletopService, seed: int
) -> None:
    table = Table(service)
    if seed != 3:  # the same room on another seed
        table.created = service.create_exercise(
            service.room(table.room).exercise.scenario_yaml, seed=seed,
            injects=[service.room(table.room).spec(i) for i in service.room(table.room).injects],
        )  # fmt: skip
        table.room, table.key = table.created.room_code, table.created.facilitator_key
        service.open_room(table.room, table.key, table.key)
        table.ada = service.join(table.room, "Ada")
        service.claim_role(table.room, table.ada.seat_key, "pretraining")
    for _ in range(60):
        view = table.view()
        if view["pending"] is not None:
            if view["pending"]["holder"] == "Ada":
                service.decide(table.room, table.ada.seat_key, view["pending"]["key"],
                               view["hidden"]["playbook_choice"], RATIONALE)  # fmt: skip
            else:
                service.resolve_with_playbook(table.room, table.key)
            continue
        try:
            run = service.advance(table.room, table.key)
        except Refused:
            break
        if any(f.inject_id == "spike" for f in run.fired):
            pending = table.view()["pending"]
            assert pending is not None and pending["kind"] == "rollback", (
                "the spike's rollback call waits in the same advance"
            )
            spike = next(i for i in service.room(table.room).delivered() if i.inject_id == "spike")
            assert spike.delivered_day is not None
            assert spike.delivered_day <= pending["day"] <= run.clock_day + 1e-9
            return
    raise AssertionError("the spike never fired")


@pytest.mark.parametrize("seed", [0, 5])
def test_a_scripted_event_reaches_the_room_with_its_call(
    service: TabletopService, seed: int
) -> None:
    """No call the scripted spike raised is settled before the room hears of the spike."""
    text = (ROOT / "scenarios" / "followup_loss_spike.yaml").read_text(encoding="utf-8")
    created = service.create_exercise(text, seed=seed)
    room, key = created.room_code, created.facilitator_key
    service.open_room(room, key, key)
    settled_before: list[tuple[str, float]] = []
    for _ in range(300):
        if any(i.inject_id == "scripted-1" for i in service.room(room).delivered()):
            break
        view = service.facilitator_view(room, key)
        if view["pending"] is not None:
            settled_before.append((view["pending"]["key"], view["pending"]["day"]))
            service.resolve_with_playbook(room, key)
            continue
        try:
            service.advance(room, key)
        except Refused:
            break
    news = next(i for i in service.room(room).delivered() if i.inject_id == "scripted-1")
    service.set_status(room, key, "ended")
    report = service.report(room, key, reps=4)
    row = next(e for a in report.analysis for c in a.capabilities for e in c.expected
               if e.inject_id == "scripted-1" and e.choice)  # fmt: skip
    assert row.incident_day is not None and news.delivered_day is not None
    late = [(k, d) for k, d in settled_before if d >= row.incident_day - 1e-9]
    assert not late, f"calls after the spike (day {row.incident_day:.1f}) settled before its news"
    assert news.delivered_day >= row.incident_day - 1e-9
