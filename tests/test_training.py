"""sim.engine.training: the run as a SimPy process over a small host (no project needed).

The host records what the run asks of it, in order, so each test asserts the sequence
of events: progress, interruptions, spikes and their decisions, scripted incidents.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Generator
from typing import Any

import pytest
import simpy

from sim.engine.facts import scenario_facts
from sim.engine.incidents import Defect, DefectBook
from sim.engine.org import OrgGraph
from sim.engine.records import Ledger
from sim.engine.rng import Streams
from sim.engine.signals import watch_interval_days
from sim.engine.training import (
    BATCH_TOKENS,
    DIVERGENCE_NOTICE_DAYS,
    ROLLBACK_STEPS,
    RunHost,
    Steps,
    TrainingRun,
)
from sim.scenario.spec import DefectSource, Scenario
from sim.units import MINUTES_PER_DAY
from tests.tiny import tiny

TOKENS = 300e9


class Record:
    """What a run records through its host's recording, logged beside its other calls."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.incidents: Counter[str] = Counter()  # what a settled stretch counts into

    def trace_event(
        self, kind: str, summary: str, team: str | None = None, data: dict[str, Any] | None = None
    ) -> None:
        self.host.log.append((self.host.env.now, "trace", kind))

    def count_incident(self, kind: str) -> None:
        self.host.log.append((self.host.env.now, "incident", kind))


class Host:
    """What a run needs of its project, and a log of what it was asked."""

    def __init__(self, s: Scenario, choice: str = "rollback_skip", latency: float = 0.5) -> None:
        self.env = simpy.Environment()
        self.scenario = s
        self.streams = Streams.for_replication(0, 0)
        self.ledger = Ledger(1e9, 0.0)
        self.defects = DefectBook()
        self.org = OrgGraph(s)
        self.choice, self.latency = choice, latency
        self.log: list[tuple[float, str, str]] = []
        self.observed = True  # the loss curve is recorded
        self.recording = Record(self)

    def current_loss(self, tokens: float) -> float:
        return 3.0 - tokens / TOKENS

    def decide(
        self,
        kind: str,
        detected_by: str,
        summary: str,
        context: dict[str, Any] | None = None,
        options: tuple[str, ...] | None = None,
    ) -> Generator[simpy.Event, Any, str]:
        self.log.append((self.env.now, "decide", kind))
        yield self.env.timeout(self.latency)
        return self.choice

    def respond_to_found_defects(self, run: TrainingRun) -> Steps:
        self.log.append((self.env.now, "defects", ""))
        for d in self.defects.due(self.env.now):
            self.defects.mark_found(d, self.env.now, "run monitoring")
        yield from ()

    def apply_inject(self, kind: str, params: dict[str, Any], scripted: bool = False) -> None:
        self.log.append((self.env.now, "inject", kind))


def start(s: Scenario, host: Host | None = None) -> tuple[Host, TrainingRun]:
    host = host or Host(s)
    typed: RunHost = host  # the fake satisfies the protocol the project does
    facts = scenario_facts(s).run(s.model.active_b * 1e9)
    run = TrainingRun(typed, facts, TOKENS, "Main run")
    host.env.process(run.process())
    return host, run


def events(host: Host, what: str) -> list[str]:
    return [kind for _, w, kind in host.log if w == what]


def test_a_run_without_incidents_trains_at_its_rate_and_bills_every_day() -> None:
    host, run = start(tiny())
    host.env.run()
    assert run.tokens == pytest.approx(TOKENS)
    assert run.stats.wall_days == pytest.approx(TOKENS / run.rate)
    assert host.env.now == pytest.approx(run.stats.wall_days)
    assert host.ledger.totals["compute"] == pytest.approx(run.stats.wall_days * run.usd_per_day)
    assert run.effective_training_time == pytest.approx(run.duty)
    assert events(host, "trace") == ["run_start", "run_end"]
    curve = run.stats.curve
    assert curve[0].tokens_b == 0.0 and curve[-1].tokens_b == pytest.approx(TOKENS / 1e9)
    days = [p.day for p in curve]
    assert days == sorted(days)
    # A point every half day at most, apart from the run's last step.
    inner = days[:-2]
    assert all(b - a >= 0.5 - 1e-9 for a, b in zip(inner, inner[1:], strict=False))


def test_expected_days_use_the_long_run_effective_training_time() -> None:
    s = tiny(incidents__hardware=True)
    facts = scenario_facts(s).run(s.model.active_b * 1e9)
    expected = TOKENS / facts.ideal_tokens_per_day / facts.effective_training_time
    assert facts.expected_days(TOKENS) == pytest.approx(expected)
    host, run = start(s)
    assert run.expected_days() == facts.expected_days(TOKENS)


def test_an_unexpected_interruption_loses_the_work_since_the_checkpoint() -> None:
    host, run = start(tiny())
    host.env.run(until=5.0)
    run.fail_now()
    host.env.run(until=5.2)  # the step that takes the failure, and the restart
    lost = math.fmod(run.rate * 5.0, run.checkpoint_tokens)  # since the last checkpoint
    assert run.tokens == pytest.approx(run.rate * 5.0 - lost)
    assert run.stats.unexpected == 1 and run.stats.lost_tokens == pytest.approx(lost)
    assert events(host, "incident") == ["hardware_interruption"]
    restart_days = run.reliability.restart_minutes / MINUTES_PER_DAY
    assert host.ledger.entries[-1].note == "Main run: restart"
    assert host.ledger.entries[-1].usd == pytest.approx(restart_days * run.usd_per_day)


def test_a_spike_is_noticed_decided_and_rolled_back_in_that_order() -> None:
    host, run = start(tiny(), Host(tiny(), "rollback_skip", latency=0.5))
    host.env.run(until=5.0)
    run.spike_now()
    host.env.run(until=6.0)
    spike_day = next(day for day, w, kind in host.log if kind == "loss_spike" and w == "trace")
    decided = next(day for day, w, kind in host.log if w == "decide")
    # The owner watches the metrics: it is noticed within one look interval, then decided.
    look = watch_interval_days(host.org, "loss_spike")
    assert spike_day < decided <= spike_day + look + 1e-9
    assert [k for _, w, k in host.log if w in ("incident", "decide")] == ["loss_spike", "rollback"]
    assert run.stats.spikes == run.stats.rollbacks == 1
    assert run.stats.lost_tokens >= ROLLBACK_STEPS * BATCH_TOKENS
    assert run.stats.curve[-2].spike or any(p.spike for p in run.stats.curve)
    notes = [e.note for e in host.ledger.entries]
    assert notes.index("Main run: diverged training before anyone noticed") < notes.index(
        "Main run: idle while the rollback decision travelled"
    )


def test_continuing_after_a_spike_that_does_not_recover_costs_a_day_more() -> None:
    s = tiny(incidents__loss_spikes={"enabled": False, "self_recovery": 0.0})
    host, run = start(s, Host(s, "continue", latency=0.0))
    host.env.run(until=5.0)
    run.spike_now()
    host.env.run(until=7.0)
    notes = [e.note for e in host.ledger.entries]
    assert "Main run: training on after divergence" in notes
    held = next(e for e in host.ledger.entries if e.note.endswith("after divergence"))
    assert held.usd == pytest.approx(DIVERGENCE_NOTICE_DAYS * run.usd_per_day)
    assert events(host, "trace")[-1] == "divergence" and run.stats.rollbacks == 1


def test_scripted_incidents_strike_at_their_share_of_the_run() -> None:
    s = tiny(incidents__scripted=[{"kind": "data_defect", "run_progress": 0.25},
                                  {"kind": "hardware_failure", "run_progress": 0.5}])  # fmt: skip
    host, run = start(s)
    host.env.run()
    inject_day = next(day for day, w, _ in host.log if w == "inject")
    assert inject_day == pytest.approx(0.25 * TOKENS / run.rate, rel=1e-6)
    assert events(host, "inject") == ["data_defect"]  # the host applies it
    assert run.stats.unexpected == 1 and run.scripted == []
    order = [(w, k) for _, w, k in host.log if w in ("inject", "incident")]
    assert order == [("inject", "data_defect"), ("incident", "hardware_interruption")]


def test_the_run_hands_found_defects_to_its_host() -> None:
    s = tiny()
    host = Host(s)
    defect = Defect(0, DefectSource(kind="data_quality", probability=1.0), True, {}, 0.0)
    defect.monitor_day = 3.0
    host.defects.defects.append(defect)
    host, run = start(s, host)
    host.env.run()
    assert [day for day, w, _ in host.log if w == "defects"] == [pytest.approx(3.0)]
    assert defect.found and defect.found_day == pytest.approx(3.0)
    # Found is not fixed: the defect spoils every token until someone fixes it.
    assert defect.affected_tokens == pytest.approx(TOKENS)
