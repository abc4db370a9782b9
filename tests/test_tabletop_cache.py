"""Fast pages (issue 27.7), through the service: the report's analysis (replay, every
alternative, the Monte Carlo) is computed once per play, whatever the wrap-up edits, and
once for pages that ask at the same time; each version's report is assembled once.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from sim.storage import make_engine
from sim.tabletop.report import report as report_module
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, Table, db_url

__all__ = ["db_url"]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


@pytest.fixture
def analyses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the analyses computed (the real one runs)."""
    calls: list[int] = []
    real = report_module.analyse

    def counted(*args: object, **kwargs: object) -> report_module.Analysis:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("sim.tabletop.service.analyse", counted)
    return calls


def ended(svc: TabletopService) -> Table:
    table = Table(svc)
    pending = table.to_spike_decision()
    svc.decide(table.room, table.ada.seat_key, pending["key"], "overreact", RATIONALE)
    svc.set_status(table.room, table.key, "ended")
    return table


def test_wrap_up_edits_reuse_the_plays_analysis(
    service: TabletopService, analyses: list[int]
) -> None:
    table = ended(service)
    room, key = table.room, table.key
    first = service.report(room, key, reps=4)
    assert len(analyses) == 1
    assert service.report(room, key, reps=4).montecarlo is first.montecarlo  # same version
    item = service.add_hot_wash(room, key, "improvement", "Agree the rollback order first.")
    service.update_overview(room, key, scope="A one-hour spike drill.")
    service.rate_action(room, key, "spike", 0, "S", "Slow to roll back.")
    after = service.report(room, key, reps=4)
    assert len(analyses) == 1, "wrap-up edits change no replay"
    assert after.montecarlo is first.montecarlo
    assert any(p.item_id == item for p in after.plan), "but the report shows the edit"
    assert after.overview["scope"] == "A one-hour spike drill."
    # Another replication count is another analysis; the play's own is kept.
    service.report(room, key, reps=5)
    assert len(analyses) == 2
    service.report(room, key, reps=4)
    assert len(analyses) == 2


def test_pages_asking_at_once_share_one_analysis(
    service: TabletopService, analyses: list[int]
) -> None:
    table = ended(service)
    got: list[object] = []
    readers = [
        threading.Thread(target=lambda: got.append(service.report(table.room, table.key, reps=4)))
        for _ in range(3)
    ]
    for t in readers:
        t.start()
    for t in readers:
        t.join(timeout=120)
    assert len(got) == 3 and len(analyses) == 1
    assert len({id(r.montecarlo) for r in got}) == 1  # type: ignore[attr-defined]


def test_a_prefetching_service_starts_the_analysis_at_the_end(
    db_url: str, analyses: list[int]
) -> None:
    svc = TabletopService(make_engine(db_url), prefetch=True)
    try:
        table = ended(svc)
        workers = [t for t in threading.enumerate() if t.name == "tabletop-report"]
        for t in workers:
            t.join(timeout=120)
        assert workers and len(analyses) == 1
        svc.report(table.room, table.key)  # the default count: the prefetched analysis
        assert len(analyses) == 1
    finally:
        svc.engine.dispose()
