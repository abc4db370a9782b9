"""Step-by-step play: advance, decide, inject; save, load, replay and counterfactuals.

A play is fully determined by scenario + seed + decision log (+ any injections a
facilitator made), so it can be saved as JSON, shared, replayed to the identical
outcome, and re-run with one decision changed. The app, the interview mode and
the tabletop all drive the engine through :class:`Game`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any

from sim.engine import ENGINE_VERSION
from sim.engine.decisions import Decider, DecisionPoint, LogDecider, make_decider, reference_decider
from sim.engine.injects import InjectError
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.scenario.loading import ScenarioError, load_text, scenario_yaml
from sim.scenario.spec import INJECTS, Scenario

PLAY_FORMAT = "trainingroom-play/1"
#: The engine version of plays saved before saved plays carried one.
UNVERSIONED = "10 or earlier"
#: Incidents a facilitator can inject, with the parameters each takes.
INJECTIONS: dict[str, tuple[str, ...]] = {kind: i.params for kind, i in INJECTS.items()}


class PlayError(ValueError):
    """A play file or a game action that cannot be honoured."""


@dataclass
class Injection:
    step: int
    day: float
    kind: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class PlayLog:
    """Everything needed to replay a play exactly."""

    scenario_yaml: str
    seed: int
    replication: int = 0
    decisions: list[dict[str, str]] = field(default_factory=list)
    injections: list[Injection] = field(default_factory=list)
    format: str = PLAY_FORMAT
    #: The engine that played it; a replay by another engine may give other numbers.
    engine_version: str = ENGINE_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    def version_notice(self) -> str | None:
        """A warning when this play was saved by another engine, else None."""
        if self.engine_version == ENGINE_VERSION:
            return None
        return (
            f"This play was saved by engine version {self.engine_version}; this is version "
            f"{ENGINE_VERSION}. The decisions replay, but the numbers come from the newer model "
            "and may differ from those the play showed when it was saved."
        )

    @classmethod
    def from_json(cls, text: str, source: str = "play") -> PlayLog:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PlayError(f"{source}:{exc.lineno}: not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict) or data.get("format") != PLAY_FORMAT:
            raise PlayError(f"{source}: not a TrainingRoom play (format {PLAY_FORMAT!r} expected)")
        try:
            injections = [Injection(**i) for i in data.get("injections", [])]
            log = cls(
                scenario_yaml=str(data["scenario_yaml"]),
                seed=int(data["seed"]),
                replication=int(data.get("replication", 0)),
                decisions=[
                    {"key": str(d["key"]), "choice": str(d["choice"])}
                    for d in data.get("decisions", [])
                ],
                injections=injections,
                engine_version=str(data.get("engine_version", UNVERSIONED)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PlayError(f"{source}: missing or malformed field: {exc}") from None
        return log

    def scenario(self) -> Scenario:
        try:
            return load_text(self.scenario_yaml, "play scenario")
        except ScenarioError as exc:
            raise PlayError(f"the play's scenario is not valid:\n{exc}") from None


class Game:
    """One play of a scenario, advanced by a person (or a script) one decision at a time."""

    def __init__(
        self,
        scenario: Scenario,
        seed: int = 0,
        replication: int = 0,
        *,
        choices: dict[str, str] | None = None,
        then: Decider | None = None,
        injections: list[Injection] | None = None,
        replay_by_step: bool = True,
    ) -> None:
        self.scenario = scenario
        self.model = ProjectModel(
            scenario, seed, replication, decider=LogDecider(choices or {}, then)
        )
        self.log = PlayLog("", seed, replication)
        self._queued = sorted(injections or [], key=lambda i: (i.step, i.day))
        self._by_step = replay_by_step
        self._deferred: list[tuple[str, dict[str, Any]]] = []

    # --- state ------------------------------------------------------------------------------

    @property
    def pending(self) -> DecisionPoint | None:
        return self.model.pending

    @property
    def finished(self) -> bool:
        return self.model.finished

    @property
    def day(self) -> float:
        return self.model.env.now

    @property
    def phase(self) -> str:
        return self.model.recording.phase

    # --- moving the play forward -------------------------------------------------------------

    def _apply_queued(self) -> None:
        env = self.model.env
        while self._queued:
            nxt = self._queued[0]
            due = (
                env.events_processed >= nxt.step
                if self._by_step
                else env.peek() > nxt.day or math.isinf(env.peek())
            )
            if not due:
                return
            self._queued.pop(0)
            env.look_at(nxt.day)  # on its day, as it was made (nothing happens in between)
            try:
                self._inject_now(nxt.kind, nxt.params)
            except PlayError as exc:
                if self._by_step:  # an exact replay: the inject applied the first time
                    raise
                # A counterfactual world may have moved on (the run already over, say).
                self.model.recording.trace_event(
                    "inject", f"Inject {nxt.kind} did not apply: {exc}"
                )

    def advance(
        self, until_day: float | None = None, stop_at_phase_change: bool = False
    ) -> DecisionPoint | None:
        """Run until a decision waits for an answer, the play ends, ``until_day`` or a new phase."""
        env = self.model.env
        start_phase = self.model.recording.phase
        while not self.model.finished and self.model.pending is None:
            self._apply_queued()
            nxt = env.peek()
            if math.isinf(nxt):
                break
            if until_day is not None and nxt > until_day:
                # Nothing happens before the day asked for: the play is now at that day
                # (an inject made next strikes on it, not on the last event's day).
                env.look_at(until_day)
                break
            # The run may settle stretches up to where this loop could stop and look:
            # the day asked for, and the next queued inject (by step or by day).
            with env.settling(*self._stops(until_day)):
                env.step()
            if stop_at_phase_change and self.model.recording.phase != start_phase:
                break
        return self.model.pending

    def _stops(self, until_day: float | None) -> tuple[float, float]:
        """The day and event count past which the run must not settle before ``advance`` looks."""
        day = math.inf if until_day is None else until_day
        event = math.inf
        if self._queued:
            nxt = self._queued[0]
            if self._by_step:
                event = nxt.step
            else:
                day = min(day, nxt.day)
        return day, event

    def decide(self, choice: str) -> None:
        point = self.model.pending
        if point is None:
            raise PlayError("no decision is waiting")
        if choice not in point.options:
            raise PlayError(f"{choice!r} is not an option here: {', '.join(point.options)}")
        self.model.answer(choice)
        for kind, params in self._deferred:
            self._inject_now(kind, params)
        self._deferred.clear()
        # Let the deciding process take its answer before anything else is injected.
        while self.model.pending is point:
            self.model.env.step()

    def inject(self, kind: str, /, **params: Any) -> None:
        """A facilitator's inject, at the current time of the play."""
        if kind not in INJECTIONS:
            raise PlayError(f"unknown inject {kind!r}; one of {', '.join(INJECTIONS)}")
        if self.model.finished:
            raise PlayError("the play has ended")
        if self.model.pending is not None:
            # Applied right after the answer, so a replay sees the same order of events.
            self._deferred.append((kind, dict(params)))
            return
        self._inject_now(kind, params)

    def _inject_now(self, kind: str, params: dict[str, Any]) -> None:
        try:
            self.model.apply_inject(kind, params)
        except InjectError as exc:
            raise PlayError(str(exc)) from None
        env = self.model.env
        self.log.injections.append(Injection(env.events_processed, env.now, kind, dict(params)))

    def play_to_end(self, policy: str | Decider = "playbook") -> dict[str, Any]:
        """Answer any remaining decisions with ``policy`` (a name or a decider) and finish."""
        auto = (
            make_decider(policy, self.scenario.levers.playbook, self.model.decision_stream)
            if isinstance(policy, str)
            else policy
        )
        while not self.model.finished:
            point = self.advance()
            if point is not None:
                self.decide(auto.decide(point) or point.options[0])
            elif math.isinf(self.model.env.peek()):
                break
        return self.outcome()

    def outcome(self) -> dict[str, Any]:
        return outcome_row(self.model)

    # --- saving, loading, replaying ------------------------------------------------------------

    def current_log(self) -> PlayLog:
        """The play so far: every decision made (by the player or a policy) and every inject."""
        self.log.decisions = [
            {"key": d.key, "choice": d.choice} for d in self.model.recording.decisions
        ]
        if not self.log.scenario_yaml:
            self.log.scenario_yaml = scenario_yaml(self.scenario)
        return self.log

    def save(self) -> str:
        return self.current_log().to_json()

    @classmethod
    def from_log(cls, log: PlayLog, then: Decider | None = None) -> Game:
        """The play of ``log``, replayed.

        By this engine, exactly: injects land at the step they were made. A play saved by
        another engine (:meth:`PlayLog.version_notice`) counts its steps differently, so
        its injects land on the day they were made instead, and one that no longer applies
        there (the run already over, say) is noted in the trace.
        """
        choices = {d["key"]: d["choice"] for d in log.decisions}
        game = cls(
            log.scenario(),
            log.seed,
            log.replication,
            choices=choices,
            then=then,
            injections=list(log.injections),
            replay_by_step=log.engine_version == ENGINE_VERSION,
        )
        return game


def replay(log: PlayLog) -> dict[str, Any]:
    """Replay a saved play; decisions beyond the log follow the scenario's playbook."""
    game = Game.from_log(log)
    return game.play_to_end()


def counterfactual(
    log: PlayLog, index: int, choice: str, scenario: Scenario | None = None
) -> dict[str, Any]:
    """The same world with decision ``index`` answered ``choice``.

    Later decisions keep their logged answers where the same decision recurs; new ones
    follow the scenario's playbook.
    """
    if not 0 <= index < len(log.decisions):
        raise PlayError(f"the play has no decision {index}")
    choices = {d["key"]: d["choice"] for d in log.decisions}
    choices[log.decisions[index]["key"]] = choice
    scenario = scenario or log.scenario()
    game = Game(
        scenario,
        log.seed,
        log.replication,
        choices=choices,
        injections=list(log.injections),
        replay_by_step=False,
    )
    return game.play_to_end(reference_decider(scenario.levers.playbook))
