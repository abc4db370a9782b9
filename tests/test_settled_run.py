"""The run's settled stretches (issue 15.1) give the numbers of one SimPy event a step.

Every comparison is bit for bit (``==`` on floats): the outcome row, the trace, the
ledger, the loss curve, the decision log, the phase spans and the event count of plays
with settled stretches against the same plays with every step a SimPy event; the states a
stepping driver (the game, the tabletop clock) stops at; and plays saved by the engine
before the change, replayed now.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest
import simpy
from hypothesis import example, given
from hypothesis import strategies as st

from sim.engine import ENGINE_VERSION
from sim.engine.clock import PlayEnvironment, timeout_at
from sim.engine.decisions import reference_decider
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.play.game import Game, PlayLog
from sim.runner import run_replications
from sim.scenario.loading import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))
#: Plays saved by engine 11 before the run settled stretches (main at 5d264d6, engine c8c0bce).
SAVED = ROOT / "tests" / "data" / f"plays_engine{ENGINE_VERSION}.json"
#: Plays saved by the engine before this one (version 13: before issue 24's data work took
#: the data team's time).
OLDER = "15"
SAVED_BY_OLDER = ROOT / "tests" / "data" / f"plays_engine{OLDER}.json"


def one_event_a_step(self: PlayEnvironment) -> tuple[float, float, float]:
    """A settle window that settles nothing: every step of the run a SimPy event (as before)."""
    return -math.inf, -math.inf, 0


def record(m: ProjectModel) -> list[Any]:
    """Everything a play shows: outcome (with its event count), trace, ledger, curve, ..."""
    run = m.run
    return [
        sorted(outcome_row(m).items()),
        [(t.day, t.kind, t.summary, t.team, sorted(t.data.items())) for t in m.recording.trace],
        [(e.day, e.category, e.usd, e.note, e.line) for e in m.ledger.entries],
        [(p.day, p.tokens_b, p.loss, p.spike) for p in run.stats.curve] if run else [],
        [{k: v for k, v in d.as_dict().items() if k != "by"} for d in m.recording.decisions],
        [(s.phase, s.start, s.end) for s in m.recording.phase_spans],
    ]


def digest(m: ProjectModel) -> str:
    """The digest the saved plays' file stores (trace, ledger, curve, decisions)."""
    run = m.run
    items = [
        [(t.day, t.kind, t.summary, t.team, sorted(t.data.items())) for t in m.recording.trace],
        [(e.day, e.category, e.usd, e.note) for e in m.ledger.entries],
        [(p.day, p.tokens_b, p.loss, p.spike) for p in run.stats.curve] if run else [],
        [{k: v for k, v in d.as_dict().items() if k != "by"} for d in m.recording.decisions],
    ]
    return hashlib.sha256(repr(items).encode()).hexdigest()


def plays(name: str, policy: str) -> list[tuple[list[Any], int]]:
    scenario = load_scenario(name)
    out = []
    for seed, rep in ((0, 0), (7, 3)):
        m = ProjectModel(scenario, seed=seed, replication=rep, decider=policy)
        m.env.run()
        out.append((record(m), m.env.events_settled))
    return out


@pytest.mark.parametrize("name", SCENARIOS)
def test_settled_plays_are_the_event_by_event_plays_bit_for_bit(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for policy in ("playbook", "textbook"):
        settled = plays(name, policy)
        with monkeypatch.context() as patch:
            patch.setattr(PlayEnvironment, "settle_window", one_event_a_step)
            stepped = plays(name, policy)
        assert [r for r, _ in settled] == [r for r, _ in stepped]
        assert all(n == 0 for _, n in stepped)
    if name == "frontier_405b":  # hundreds of interruptions: most steps are settled
        events = sum(row[1] for row in settled[0][0][0] if row[0] == "events")
        assert settled[0][1] > 0.5 * events


def stepped_play(name: str, seed: int) -> tuple[Game, list[list[Any]]]:
    """A play driven like the tabletop: three days at a time, injects during the run.

    Returns the game and what it showed at every stop (day, events, run tokens, ledger).
    """
    s = load_scenario(name)
    game = Game(s, seed=seed)
    auto = reference_decider(s.levers.playbook)

    def to(day: float) -> None:
        point = game.advance(until_day=day)
        while point is not None:
            game.decide(auto.decide(point) or point.options[0])
            point = game.advance(until_day=day)

    stops: list[list[Any]] = []
    kinds = ["hardware_failure", "loss_spike", "hardware_failure"]
    day = 0.0
    while not game.finished and day < 5_000:
        day += 3.0
        to(day)
        run = game.model.run
        stops.append([game.day, game.model.env.events_processed, run and run.tokens])
        stops[-1].append(len(game.model.ledger.entries))
        done = len(game.log.injections)
        if run is not None and not game.model.run_finished and done < len(kinds):
            if run.tokens > (done + 1) * 0.2 * run.target_tokens:
                game.inject(kinds[done])
                to(game.day)
    return game, stops


@pytest.mark.parametrize(("name", "seed"), [("frontier_405b", 3), ("assistant_7b", 5)])
def test_a_driver_stopping_every_few_days_sees_what_event_by_event_play_shows(
    name: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, stops = stepped_play(name, seed)
    assert game.model.env.events_settled > 0 and len(game.log.injections) == 3
    with monkeypatch.context() as patch:
        patch.setattr(PlayEnvironment, "settle_window", one_event_a_step)
        old, old_stops = stepped_play(name, seed)
    assert old.model.env.events_settled == 0
    assert stops == old_stops
    assert record(game.model) == record(old.model)
    # Replayed from its file (injects at their event counts), settled or not: the same.
    replayed = Game.from_log(PlayLog.from_json(game.save()))
    replayed.play_to_end()
    assert replayed.model.env.events_settled > 0
    assert record(replayed.model) == record(game.model)


def test_plays_saved_by_this_engine_replay_to_the_same_numbers() -> None:
    saved = json.loads(SAVED.read_text())["plays"]
    assert [p["play"]["engine_version"] for p in saved] == [ENGINE_VERSION] * len(saved)
    for p in saved:
        log = PlayLog.from_json(json.dumps(p["play"]))
        assert log.version_notice() is None  # same engine version: same numbers
        assert len(log.injections) == 3  # recorded at event counts
        game = Game.from_log(log)
        row = game.play_to_end()
        assert game.model.env.events_settled > 0
        assert digest(game.model) == p["digest"]
        assert (row["schedule_days"], row["cost_usd"], row["events"]) == (
            p["schedule_days"],
            p["cost_usd"],
            p["events"],
        )


def test_plays_saved_by_an_older_engine_replay_and_say_their_numbers_moved() -> None:
    """An older engine's play replays its decisions and injects and says the model is newer."""
    saved = json.loads(SAVED_BY_OLDER.read_text())["plays"]
    assert [p["play"]["engine_version"] for p in saved] == [OLDER] * len(saved)
    for p in saved:
        log = PlayLog.from_json(json.dumps(p["play"]))
        notice = log.version_notice()
        assert notice is not None and f"version {OLDER}" in notice and ENGINE_VERSION in notice
        game = Game.from_log(log)
        row = game.play_to_end()
        # Each inject lands on its day, or says in the trace why it no longer applies there
        # (the newer model's run may not be in progress on that day).
        missed = [e for e in game.model.recording.trace if e.summary.startswith("Inject ")]
        assert game.finished and len(game.log.injections) + len(missed) == 3
        # The numbers come from the newer model and stay near the old ones: the same world,
        # decisions and injects. (A change of engine need not move every play: engine 14's
        # data work moves only plays that buy data work, and these two buy none.)
        assert math.isclose(row["schedule_days"], p["schedule_days"], rel_tol=0.25)
        assert math.isclose(row["cost_usd"], p["cost_usd"], rel_tol=0.25)


def test_a_play_stepped_by_hand_never_settles() -> None:
    s = load_scenario("frontier_405b")
    by_hand = ProjectModel(s, seed=1)
    with pytest.raises(simpy.core.EmptySchedule):  # as env.run() ends, counted the same way
        while True:
            by_hand.env.step()
    assert by_hand.env.events_settled == 0
    run = ProjectModel(s, seed=1)
    run.env.run()
    assert run.env.events_settled > 0
    assert record(by_hand) == record(run)


def test_settled_frontier_replications_are_the_same_serial_and_parallel() -> None:
    s = load_scenario("frontier_405b")
    serial = run_replications(s, 6, seed=2, workers=1)
    assert serial.equals(run_replications(s, 6, seed=2, workers=2))


@given(
    st.floats(min_value=0.0, max_value=1e6, allow_nan=False),
    st.floats(min_value=0.0, max_value=1e6, allow_nan=False),
)
@example(1.052516153169563, 262145.71695372375)  # no delay rounds to it (a tie)
def test_a_timeout_at_a_day_fires_on_that_very_float(a: float, b: float) -> None:
    now, day = min(a, b), max(a, b)
    env = PlayEnvironment(initial_time=now)
    env.process(_wait(env, day))
    env.run()
    assert env.now == day


def _wait(env: simpy.Environment, day: float) -> Any:
    yield timeout_at(env, day)
