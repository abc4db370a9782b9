"""The exercise's play, derived by replay, and the facilitator's clock with its injects.

The state of an exercise's play is a pure function of what the database holds (scenario,
seed, decisions, the incidents injects set off and where, the clock's day): replaying
them through :class:`sim.play.game.Game` gives the same play every time, in any process,
after any crash. Nothing about a play is pickled or kept only in memory.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from sim.engine.decisions import reference_decider
from sim.play.game import Game, Injection, PlayError
from sim.scenario.loading import load_text
from sim.scenario.spec import Scenario
from sim.tabletop.authoring import InjectSpec, Trigger

#: How far the clock moves between checks of state triggers (days).
STEP_DAYS = 0.25
#: Effective training time is not judged before the run has this much wall time (days).
ETT_MIN_WALL_DAYS = 2.0


@lru_cache(maxsize=16)
def scenario_of(scenario_yaml: str) -> Scenario:
    """The scenario of a stored exercise (validated once per process; it is immutable)."""
    return load_text(scenario_yaml, "exercise scenario")


@dataclass(frozen=True)
class PlayRecord:
    """What the database holds about a play: enough to replay it exactly."""

    scenario_yaml: str
    seed: int
    clock_day: float
    decisions: tuple[tuple[str, str], ...] = ()
    injections: tuple[Injection, ...] = ()


def derive(record: PlayRecord) -> Game:
    """Replay the play to where the exercise stands."""
    game = Game(
        scenario_of(record.scenario_yaml),
        record.seed,
        choices=dict(record.decisions),
        injections=list(record.injections),
    )
    game.advance(until_day=record.clock_day)
    return game


def metrics(game: Game) -> dict[str, float | None]:
    """The state triggers can watch (:data:`sim.tabletop.authoring.STATE_METRICS`)."""
    m = game.model
    run = m.run
    ett = None
    if run is not None and run.stats.wall_days >= ETT_MIN_WALL_DAYS:
        ett = run.effective_training_time
    return {
        "effective_training_time": ett,
        "spend_share": m.ledger.spent_usd / max(m.ledger.budget_usd, 1.0),
        "run_progress": min(1.0, run.tokens / max(run.target_tokens, 1.0)) if run else 0.0,
    }


def fires(trigger: Trigger, game: Game, clock_day: float) -> bool:
    if trigger.day is not None:
        return clock_day >= trigger.day
    value = metrics(game).get(trigger.metric or "")
    if value is None:
        return False
    return value < trigger.threshold if trigger.op == "below" else value > trigger.threshold


@dataclass(frozen=True)
class Fired:
    """An inject delivered: its id, the clock's day, and where the engine applied its incident."""

    inject_id: str
    day: float
    step: int | None = None
    engine_day: float | None = None
    note: str = ""


def fire(game: Game, inject_id: str, spec: InjectSpec, clock_day: float) -> Fired:
    """Deliver ``spec`` now; its incident, if any, goes to the engine at this exact point."""
    if spec.engine is None:
        return Fired(inject_id, clock_day)
    if game.pending is not None:
        raise PlayError("a decision is waiting; deliver the inject once it is made")
    if game.finished:
        return Fired(inject_id, clock_day, note="no effect in the model: the play has ended")
    try:
        game.inject(spec.engine, **spec.params)
    except PlayError as exc:
        return Fired(inject_id, clock_day, note=f"no effect in the model: {exc}")
    applied = game.log.injections[-1]
    return Fired(inject_id, clock_day, applied.step, applied.day)


@dataclass
class ClockRun:
    """Where the clock stopped and why, with the injects delivered on the way."""

    clock_day: float
    reason: str
    fired: list[Fired] = field(default_factory=list)


def _next_timed(waiting: Sequence[tuple[str, InjectSpec]], after: float) -> float:
    days = [
        s.trigger.day for _, s in waiting if s.trigger.day is not None and s.trigger.day > after
    ]
    return min(days, default=math.inf)


def run_clock(
    game: Game,
    clock_day: float,
    waiting: Sequence[tuple[str, InjectSpec]],
    until_day: float | None = None,
    stop_at_inject: bool = True,
) -> ClockRun:
    """Move the clock until an inject fires, ``until_day``, a decision waits, or the end.

    With ``stop_at_inject`` the clock stops at the first inject; otherwise injects whose
    trigger holds are delivered on the way to ``until_day``.
    """
    left = list(waiting)
    run = ClockRun(clock_day, "")
    t = clock_day
    while True:
        if game.finished:
            run.reason = "finished"
            break
        if game.pending is not None:
            run.reason = "decision"
            break
        due = [(i, s) for i, s in left if fires(s.trigger, game, t)]
        if due:
            for item in due:
                left.remove(item)
                run.fired.append(fire(game, item[0], item[1], t))
            game.advance(until_day=t)  # what happens at once (a decision raised on the spot)
            if stop_at_inject:
                run.reason = "inject"
                break
            continue
        if until_day is not None and t >= until_day:
            run.reason = "day"
            break
        if math.isinf(game.model.env.peek()):
            run.reason = "finished"
            break
        target = min(t + STEP_DAYS, _next_timed(left, t), until_day or math.inf)
        game.advance(until_day=target)
        t = game.day if game.pending is not None else target
    run.clock_day = t
    return run


def playbook_choice(game: Game) -> str:
    """What the scenario's playbook (then the textbook) answers to the waiting decision."""
    point = game.pending
    if point is None:
        raise PlayError("no decision is waiting")
    decider = reference_decider(game.scenario.levers.playbook)
    return decider.decide(point) or point.options[0]
