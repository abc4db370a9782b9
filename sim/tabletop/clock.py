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
#: How long the clock waits, after an inject strikes, for the call it raises to reach its
#: holder (handoffs and deliberation), before it stops anyway (days).
RAISE_DAYS = 15.0
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


def struck(spec: InjectSpec, game: Game) -> bool | None:
    """Whether the engine has fired the scenario's own scripted incident this inject tells of.

    None when the inject is not one of them, or when its trigger is no longer the
    incident's own (the facilitator chose when the news arrives). The engine fires a
    scripted incident by itself (its trace says "Scripted incident: ..."); its news
    reaches the room then, not when a metric next crosses the trigger (a spike can set
    the run back below the progress it struck at, and the call it raised would come
    first).
    """
    if not spec.scripted or not spec.id.startswith("scripted-"):
        return None
    number = spec.id.removeprefix("scripted-")
    incidents = game.scenario.incidents.scripted
    if not number.isdigit() or not 0 < int(number) <= len(incidents):
        return None
    n = int(number) - 1
    inc, t = incidents[n], spec.trigger
    own = (t.day is not None and t.day == inc.day) or (
        t.metric == "run_progress" and inc.run_progress is not None
        and t.threshold == inc.run_progress
    )  # fmt: skip
    if not own:
        return None
    ordinal = sum(1 for i in incidents[:n] if i.kind == incidents[n].kind)
    words = f"Scripted incident: {spec.scripted.replace('_', ' ')}"
    seen = sum(1 for e in game.model.recording.trace if e.kind == "inject" and e.summary == words)
    return seen > ordinal


def due(spec: InjectSpec, game: Game, clock_day: float) -> bool:
    """Whether an inject is due: its scripted incident struck, else its trigger holds."""
    hit = struck(spec, game)
    return fires(spec.trigger, game, clock_day) if hit is None else hit


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


def _raises_call(fired: Sequence[tuple[str, InjectSpec]], game: Game) -> bool:
    """Whether an inject just fired strikes the model with an incident that asks for a call."""
    return (
        game.pending is None
        and not game.finished
        and any(s.engine is not None and s.decision_kind for _, s in fired)
    )


def _until_raised(
    game: Game, t: float, until_day: float | None, left: Sequence[tuple[str, InjectSpec]]
) -> float:
    """Advance until the call an inject raised reaches its holder.

    Or until the end, another inject's trigger, or :data:`RAISE_DAYS`. So the decision
    an inject raises comes up in the same advance as the inject.
    """
    stop = min(t + RAISE_DAYS, until_day if until_day is not None else math.inf)
    while game.pending is None and not game.finished and t < stop:
        if math.isinf(game.model.env.peek()) or any(due(s, game, t) for _, s in left):
            break
        target = min(t + STEP_DAYS, stop, _next_timed(left, t))
        game.advance(until_day=target)
        t = _clock_after(game, target)
    return t


def _clock_after(game: Game, target: float) -> float:
    """The clock after an advance to ``target``: where a call or the project's end stopped it.

    One clock: once the project has finished, the exercise's day is its finish day, the
    same number the page, the log and the report show.
    """
    if game.finished and game.model.finish_day is not None:
        return float(game.model.finish_day)
    return game.day if game.pending is not None else target


def run_clock(
    game: Game,
    clock_day: float,
    waiting: Sequence[tuple[str, InjectSpec]],
    until_day: float | None = None,
    stop_at_inject: bool = True,
) -> ClockRun:
    """Move the clock until an inject fires, ``until_day``, a decision waits, or the end.

    With ``stop_at_inject`` the clock stops at the first inject (once the call it raises,
    if any, has come up); otherwise injects whose trigger holds are delivered on the way
    to ``until_day``. A call that comes up brings with it the news injects (no incident
    of their own, e.g. a scenario's scripted event) whose trigger already holds, so the
    room reads the news with the call it raised, not a step later.
    """
    left = list(waiting)
    run = ClockRun(clock_day, "")
    t = clock_day
    while True:
        if game.finished:
            run.reason = "finished"
            break
        if game.pending is not None:
            news = [(i, s) for i, s in left if s.engine is None and due(s, game, t)]
            for item in news:
                left.remove(item)
                run.fired.append(fire(game, item[0], item[1], t))
            run.reason = "decision"
            break
        ready = [(i, s) for i, s in left if due(s, game, t)]
        if ready:
            for item in ready:
                left.remove(item)
                run.fired.append(fire(game, item[0], item[1], t))
            game.advance(until_day=t)  # what happens at once (a decision raised on the spot)
            if stop_at_inject:
                if _raises_call(ready, game):
                    t = _until_raised(game, t, until_day, left)
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
        t = _clock_after(game, target)
    run.clock_day = t
    return run


def playbook_choice(game: Game) -> str:
    """What the scenario's playbook (then the textbook) answers to the waiting decision."""
    point = game.pending
    if point is None:
        raise PlayError("no decision is waiting")
    decider = reference_decider(game.scenario.levers.playbook)
    return decider.decide(point) or point.options[0]
