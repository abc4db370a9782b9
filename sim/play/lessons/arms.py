"""One side of a lesson's comparison: a scenario played on a world with the play's answers.

An :class:`Arm` is picklable, so the neighbouring worlds can fan out over an executor.
docs/model.md, "Debrief", says how each arm decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.engine.decisions import Decider, DecisionPoint, LogDecider, StreamFor, make_decider
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.play.game import Game, Injection, PlayError
from sim.play.lessons.measures import Measure, measure
from sim.runner import open_executor
from sim.scenario.spec import Scenario


class Reanswer:
    """Wraps a decider: an answer listed in ``answers[kind]`` becomes the option it maps to."""

    name = "reanswer"

    def __init__(self, inner: Decider, answers: Mapping[str, Mapping[str, str]]) -> None:
        self.inner = inner
        self.answers = answers

    def decide(self, point: DecisionPoint) -> str | None:
        choice = self.inner.decide(point)
        return choice if choice is None else remap(point.kind, choice, point.options, self.answers)


def remap(
    kind: str, choice: str, options: Sequence[str], answers: Mapping[str, Mapping[str, str]]
) -> str:
    instead = answers.get(kind, {}).get(choice)
    return instead if instead is not None and instead in options else choice


@dataclass(frozen=True)
class Arm:
    """One side of a comparison, picklable: a scenario, the logged answers, the injects."""

    scenario: Scenario
    choices: Mapping[str, str]
    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    injections: tuple[Injection, ...] = ()
    afresh: tuple[str, ...] = ()
    """Decision kinds whose logged answers do not hold here (decided by the scenario)."""

    def play(self, seed: int, replication: int) -> dict[str, Any]:
        """Play this arm on world ``(seed, replication)`` to its outcome row.

        Logged answers hold where the same decision (``kind#n``) comes up with that option
        on offer, unless its kind is ``afresh``; anything else is answered by the scenario's
        playbook, by the person on the spot where it is silent (the engine's ``playbook``
        policy, as ``sim run`` decides). Each inject strikes at its day; one that no longer
        fits (a loss spike when no run is in progress) is left out and counted in the row's
        ``injects_missed``.
        """
        held = {k: c for k, c in self.choices.items() if k.split("#")[0] not in self.afresh}
        if not self.injections:
            # Nothing strikes from outside: the model answers as it goes (the same events in
            # the same order as a game answering each decision, without stopping at each).
            model = ProjectModel(self.scenario, seed, replication, observed=False)
            model.decider = self._decider(model.decision_stream, held)
            model.env.run()
            row = outcome_row(model)
            row["injects_missed"] = 0
            return row
        game = Game(self.scenario, seed, replication)
        auto = self._decider(game.model.decision_stream, held)
        missed = 0
        for inj in sorted(self.injections, key=lambda i: i.day):
            _run_until(game, auto, inj.day)
            if game.finished:
                missed += 1
                continue
            try:
                game.inject(inj.kind, **inj.params)
            except PlayError:
                missed += 1
        row = game.play_to_end(auto)
        row["injects_missed"] = missed
        return row

    def _decider(self, stream_for: StreamFor, held: Mapping[str, str]) -> Decider:
        """The logged answers that hold, remapped, then the scenario's playbook."""
        playbook = make_decider("playbook", self.scenario.levers.playbook, stream_for)
        return Reanswer(LogDecider(held, playbook), self.answers)


def _run_until(game: Game, auto: Decider, day: float) -> None:
    """Advance to ``day``, answering every decision on the way with ``auto``."""
    while not game.finished:
        point = game.advance(until_day=day)
        if point is None:
            return
        game.decide(auto.decide(point) or point.options[0])


def play_worlds(arm: Arm, seed: int, reps: Sequence[int]) -> list[Measure]:
    """The arm on several worlds (one task for an executor)."""
    return [measure(arm.play(seed, r), arm.scenario) for r in reps]


def run_arms(
    arms: Mapping[str, Arm],
    seed: int,
    reps: Sequence[int],
    workers: int,
    tick: Callable[[int], None],
) -> dict[str, list[Measure]]:
    """Every arm on every neighbouring world; serial, or over a process pool."""
    out: dict[str, list[Measure]] = {}
    with open_executor("local", workers) as pool:
        if pool is None:
            for name, arm in arms.items():
                out[name] = []
                for r in reps:
                    out[name].extend(play_worlds(arm, seed, [r]))
                    tick(1)
        else:
            futures = {
                name: pool.submit(play_worlds, arm, seed, reps) for name, arm in arms.items()
            }
            for name, fut in futures.items():
                out[name] = fut.result()
                tick(len(reps))
    return out
