"""A complete, true audit log (issue 27.4), through the service, asserted after each attempt.

Every action and every refusal is logged once, with its actor, its UTC time and the
exercise day: joins and failed joins, rejoins, removals, locks, re-keys, injects (at the
day they arrived, not the day the clock stood at before), decisions and refused
decisions, clock moves, report reads refused and report downloads. The report and the
log need the facilitator's key; after the end, players get the report without the
expected actions, the ratings and the audit log until the facilitator releases them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from sim.storage import make_engine
from sim.tabletop.db.models import Event
from sim.tabletop.db.store import FACILITATOR, NEWCOMER, UNKNOWN_KEY
from sim.tabletop.errors import Forbidden, InputError, Refused
from sim.tabletop.report.aar import to_markdown
from sim.tabletop.service import TabletopService
from tests.test_tabletop_service import RATIONALE, SECRET, Table, db_url

__all__ = ["db_url"]


@pytest.fixture
def service(db_url: str) -> Iterator[TabletopService]:
    svc = TabletopService(make_engine(db_url))
    yield svc
    svc.engine.dispose()


class Log:
    """The room's audit log, read after each attempt: exactly the entries since the last."""

    def __init__(self, svc: TabletopService, room: str) -> None:
        self.svc, self.room, self.seen = svc, room, len(svc.room(room).events)
        self.started = datetime.now(UTC) - timedelta(seconds=1)

    def new(self) -> list[Event]:
        events = self.svc.room(self.room).events
        fresh = list(events[self.seen :])
        self.seen = len(events)
        for e in fresh:  # every entry: an actor, a UTC time of this test, an exercise day
            at = e.at if e.at.tzinfo else e.at.replace(tzinfo=UTC)
            assert self.started <= at <= datetime.now(UTC) + timedelta(seconds=1), e.at
            assert e.actor and e.day >= 0.0 and e.summary
        return fresh

    def one(self, kind: str, actor: str, *words: str) -> Event:
        fresh = self.new()
        assert [(e.kind, e.actor) for e in fresh] == [(kind, actor)], [
            (e.kind, e.actor, e.summary) for e in fresh
        ]
        for w in words:
            assert w in fresh[0].summary, (w, fresh[0].summary)
        return fresh[0]


def test_every_action_and_refusal_is_logged_once(service: TabletopService) -> None:
    table = Table(service)
    svc, room, key = service, table.room, table.key
    log = Log(svc, room)
    day = svc.room(room).exercise.clock_day
    # Joins, failed joins, rejoins.
    mallory = svc.join(room, "Mallory", clients=("session:m",))
    log.one("joined", "Mallory", "Mallory joined")
    with pytest.raises(InputError):
        svc.join(room, "Facil1tator")
    log.one("refused", NEWCOMER, "join as 'Facil1tator'", "would pass for")
    with pytest.raises(InputError, match="already called"):
        svc.join(room, "Gr4ce")
    log.one("refused", NEWCOMER, "join as 'Gr4ce'", "already called 'Grace'")
    svc.rejoin(room, table.ada.seat_key, clients=("session:ada",))
    log.one("rejoined", "Ada")
    with pytest.raises(Forbidden):
        svc.rejoin(room, "a-guessed-key")
    log.one("refused", UNKNOWN_KEY, "rejoin")
    svc.open_as_facilitator(room, key)
    log.one("rejoined", FACILITATOR)
    with pytest.raises(Forbidden):
        svc.open_as_facilitator(room, table.ada.seat_key)
    log.one("refused", UNKNOWN_KEY, "open the facilitator's page")
    with pytest.raises(Forbidden):
        svc.facilitator_view(room, table.ada.seat_key)
    log.one("refused", UNKNOWN_KEY, "open the facilitator's view")
    # Clock moves, refused and made; the inject is logged at the day it arrived.
    with pytest.raises(Forbidden):
        svc.advance(room, table.ada.seat_key)
    log.one("refused", UNKNOWN_KEY, "move the clock")
    with pytest.raises(InputError):
        svc.advance(room, key, until_day=day)
    log.one("refused", FACILITATOR, "move the clock", "already at day")
    svc.advance(room, key)  # to the briefing, due on day 2
    fresh = log.new()
    assert [e.kind for e in fresh] == ["inject", "clock"]
    briefing = next(i for i in svc.room(room).injects if i.inject_id == "briefing")
    assert briefing.delivered_day == pytest.approx(2.0)
    assert fresh[0].day == pytest.approx(2.0) and fresh[0].day != day, "logged when it arrived"
    assert fresh[1].day == pytest.approx(2.0) and "Clock to day 2.0" in fresh[1].summary
    # Decisions: a non-holder refused (under her own name), the holder's logged.
    pending = table.to_spike_decision()
    log.new()
    with pytest.raises(Forbidden, match="only the player holding"):
        svc.decide(room, table.grace.seat_key, pending["key"], "rollback_skip", RATIONALE)
    refused = log.one("refused", "Grace", f"decide '{pending['key']}'")
    assert refused.day == pytest.approx(svc.room(room).exercise.clock_day)
    with pytest.raises(InputError, match="at least"):
        svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", "ok")
    log.one("refused", "Ada", "rationale")
    svc.decide(room, table.ada.seat_key, pending["key"], "rollback_skip", RATIONALE)
    log.one("decision", "Ada", "chose rollback_skip")
    # Removal, lock, re-key; and the removed seat's browser refused.
    svc.remove_player(room, key, mallory.participant_id)
    log.one("removed", FACILITATOR, "Mallory removed", "1 browser barred")
    with pytest.raises(Forbidden):
        svc.join(room, "Mal Ory", clients=("session:m",))
    log.one("barred", NEWCOMER, "join as 'Mal Ory'", "(Mallory)")
    svc.lock_room(room, key)
    log.one("locked", FACILITATOR)
    with pytest.raises(Refused, match="locked"):
        svc.join(room, "Linus")
    log.one("refused", NEWCOMER, "join as 'Linus'", "locked")
    new = svc.rekey_room(room, key)
    log.one("rekeyed", FACILITATOR)
    # The report needs the facilitator's key; refusals are logged, downloads too.
    with pytest.raises(Forbidden):
        svc.report(room, table.ada.seat_key, reps=4)
    log.one("refused", UNKNOWN_KEY, "read the report")
    with pytest.raises(Refused, match="ended"):
        svc.player_report(room, table.ada.seat_key, reps=4)
    assert log.new() == [], "the exercise state refused it; no key was wrong"
    svc.set_status(new, key, "ended")
    log.one("ended", FACILITATOR)
    svc.report(room, key, reps=4)
    assert log.new() == [], "reading the report is not an entry; downloading it is"
    svc.record_download(room, key, "docx")
    log.one("download", FACILITATOR, "full report (docx)")
    svc.record_download(new, table.grace.seat_key, "pdf")
    log.one("download", "Grace", "players' report (pdf)")
    with pytest.raises(Forbidden):
        svc.record_download(room, mallory.seat_key, "md")
    log.one("refused", "Mallory (removed)", "download the report (md)")


def test_players_get_the_report_without_the_facilitators_parts(
    service: TabletopService,
) -> None:
    table = Table(service)
    svc, room, key = service, table.room, table.key
    pending = table.to_spike_decision()
    svc.decide(room, table.ada.seat_key, pending["key"], "continue", RATIONALE)
    svc.advance(room, key, until_day=float(svc.room(room).exercise.clock_day + 5))
    svc.rate_action(room, key, "briefing", 0, "M")
    svc.set_status(room, key, "ended")
    full = svc.report(room, key, reps=4)
    mine = svc.player_report(room, table.ada.seat_key, reps=4)

    def expected(r: object) -> int:
        return sum(len(c.expected) for a in r.analysis for c in a.capabilities)  # type: ignore[attr-defined]

    assert expected(full) > 0 and full.audit, "the facilitator's report has both"
    assert any(c.rating for a in full.analysis for c in a.capabilities)
    assert expected(mine) == 0 and mine.audit == ()
    assert not any(c.rating for a in mine.analysis for c in a.capabilities)
    assert not any(f.source.startswith(("inject ", "action ")) for f in mine.improvements)
    assert any(f.source.startswith(("inject ", "action ")) for f in full.improvements)
    assert SECRET in to_markdown(full) and "Rated M" in to_markdown(full)
    text = to_markdown(mine)
    assert SECRET not in text and "Rated M" not in text
    assert "The audit log is kept by the facilitator" in text
    # The room's own record stays: its decisions and the Monte Carlo.
    assert [d.key for d in mine.decisions] == [d.key for d in full.decisions]
    assert mine.montecarlo == full.montecarlo
    # Released: players get it all; withheld again, they do not. Both are logged.
    with pytest.raises(Forbidden):
        svc.release_report(room, table.ada.seat_key)
    svc.release_report(room, key)
    assert svc.room(room).events[-1].kind == "released_report"
    released = svc.player_report(room, table.grace.seat_key, reps=4)
    assert expected(released) == expected(full) and released.audit
    svc.release_report(room, key, released=False)
    assert svc.room(room).events[-1].kind == "withheld_report"
    assert svc.player_report(room, table.grace.seat_key, reps=4).audit == ()


def test_the_reports_log_is_fresh_while_its_analysis_is_cached(
    service: TabletopService,
) -> None:
    """A rejoin or a refusal changes nothing but the log: the report's log shows it."""
    table = Table(service)
    svc, room, key = service, table.room, table.key
    svc.set_status(room, key, "ended")
    first = svc.report(room, key, reps=4)
    version = svc.version(room)
    svc.rejoin(room, table.ada.seat_key)
    with pytest.raises(Forbidden):
        svc.rejoin(room, "wrong")
    assert svc.version(room) == version, "log-only entries do not move the version"
    again = svc.report(room, key, reps=4)
    assert again.montecarlo is first.montecarlo, "the analysis came from the cache"
    assert [e.kind for e in again.audit[-2:]] == ["rejoined", "refused"]
    assert len(again.audit) == len(first.audit) + 2
    assert svc.log_mark(room) > 0
