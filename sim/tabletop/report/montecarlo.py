"""How likely the room's way of deciding is to meet each objective, by Monte Carlo.

One replay of one seed says what happened in the room's world; it does not say whether
the room's calls were good or lucky. Here the room's choices become a policy (the n-th
call of a kind gets the room's n-th answer to that kind; calls beyond those the room
made get the option it chose most often for that kind), and the scenario is played many
times (:func:`sim.runner.run_replications`) in worlds drawn from its own
randomness, with the exercise's injects at the points they struck. The same
replications are played with the scenario's playbook, and once more per kind of call
with only that kind handed back to the playbook, all on common random numbers, so each
difference is the effect of the room's choices rather than of the draw.

Decision latency is the scenario's in every arm: the room's policy changes what is
chosen, not whether a response was agreed in advance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from sim import names
from sim.engine.decisions import (
    POLICIES,
    Decider,
    LogDecider,
    PolicyDecider,
    first_available,
    reference_decider,
)
from sim.intervals import wilson
from sim.runner import run_replications
from sim.scenario.spec import DECISION_OPTIONS, RUN_KINDS, Scenario, ScriptedIncident
from sim.stats import summarize
from sim.tabletop.clock import scenario_of
from sim.tabletop.db.room import Room
from sim.tabletop.report.calls import judged_call
from sim.tabletop.report.hseep import OBJECTIVE_COLUMN
from sim.tabletop.report.versus import Versus, compare

#: Replications per arm in the report: about 4 ms each on this machine, so the default
#: report (at most seven arms) takes a few seconds.
REPS = names.TABLETOP_REPS
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Arm:
    """One way of deciding over the same replications."""

    name: str
    p_met: dict[str, float]
    p_eval: dict[str, float]
    p_success: float
    days: dict[str, float]
    cost_usd: dict[str, float]
    #: Each objective's chance with its 95% Wilson interval (low, high).
    p_met_interval: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class KindEffect:
    """The room's calls of one kind against the playbook's, on the same worlds.

    ``versus`` is the room's way of deciding minus the same with only this kind handed
    back to the playbook: the finish, the cost and each objective's chance, with paired
    intervals and the verdict (:mod:`sim.tabletop.report.versus`).
    """

    kind: str
    room_choices: tuple[str, ...]
    playbook_choice: str
    versus: Versus
    #: The room's calls of this kind that left the playbook (their keys).
    judged: tuple[str, ...] = ()

    @property
    def delta_p_met(self) -> dict[str, float]:
        return {o: float(r["mean"]) for o, r in self.versus.chances.items()}

    @property
    def delta_p_met_interval(self) -> dict[str, dict[str, Any]]:
        return self.versus.chances

    @property
    def delta_days(self) -> dict[str, Any]:
        return self.versus.days

    @property
    def delta_cost_usd(self) -> dict[str, Any]:
        return self.versus.cost_usd


@dataclass(frozen=True)
class MonteCarlo:
    reps: int
    seed: int
    #: Incidents scripted in every replication: the scenario's own and the exercise's.
    scripted_incidents: int
    room: Arm
    playbook: Arm
    by_kind: tuple[KindEffect, ...]
    #: The room's way of deciding minus the playbook's, every call, on the same worlds.
    versus: Versus | None = None

    def effect(self, kind: str) -> KindEffect | None:
        return next((k for k in self.by_kind if k.kind == kind), None)


def room_preferences(room: Room) -> dict[str, tuple[str, ...]]:
    """For each kind of call the players made: their options, most often chosen first."""
    counts: dict[str, Counter[str]] = {}
    for d in room.decisions:
        if d.by == "player":
            counts.setdefault(d.kind, Counter())[d.choice] += 1
    return {kind: tuple(o for o, _ in c.most_common()) for kind, c in counts.items()}


def _incident(
    kind: str, day: float | None, threshold: float | None, params: dict[str, object]
) -> ScriptedIncident:
    when = (
        {"run_progress": threshold}
        if threshold is not None and kind in RUN_KINDS and 0.0 < threshold < 1.0
        else {"day": max(0.0, day or 0.0)}
    )
    return ScriptedIncident.from_params(kind, when, params)


def exercise_scenario(room: Room) -> Scenario:
    """The scenario with the exercise's delivered incidents scripted where they struck.

    At the run's progress for a run-progress trigger, else on the day the engine took it.
    """
    s = scenario_of(room.exercise.scenario_yaml)
    added = []
    for row in room.delivered():
        spec = room.spec(row)
        if spec.engine is None or row.engine_step is None:
            continue  # a message, or an incident that had no effect
        threshold = spec.trigger.threshold if spec.trigger.metric == "run_progress" else None
        added.append(_incident(spec.engine, row.engine_day, threshold, spec.params))
    incidents = s.incidents.model_copy(update={"scripted": [*s.incidents.scripted, *added]})
    return s.model_copy(update={"incidents": incidents})


def _arm(name: str, df: pd.DataFrame, evals: Sequence[str]) -> Arm:
    return Arm(
        name,
        {o: float(df[c].mean()) for o, c in OBJECTIVE_COLUMN.items()},
        {e: float(df[f"met:{e}"].mean()) for e in evals if f"met:{e}" in df},
        float(df["success"].mean()),
        summarize(df["schedule_days"]),
        summarize(df["cost_usd"]),
        {o: wilson(float(df[c].sum()), len(df)) for o, c in OBJECTIVE_COLUMN.items()},
    )


def simulate(room: Room, reps: int = REPS, progress: Progress | None = None) -> MonteCarlo:
    """The room's policy, the playbook, and each kind handed back, on the same ``reps``."""
    scenario = exercise_scenario(room)
    playbook = scenario.levers.playbook
    reference = reference_decider(playbook)
    prefs = room_preferences(room)

    def playbook_pick(kind: str) -> str:
        options = DECISION_OPTIONS[kind]
        agreed = playbook.get(kind, ())  # type: ignore[call-overload]
        textbook = POLICIES["textbook"].get(kind, ())
        return first_available(agreed, options) or first_available(textbook, options) or options[-1]

    calls = {d.key: d.choice for d in room.decisions if d.by == "player"}
    # A kind gets an arm only if some call of it left the playbook's answer to that call's
    # own options: a call that was the playbook's, or had one option, has no effect to show.
    differing = sorted({d.kind for d in room.decisions if judged_call(room, d)})

    def room_policy(without: str | None = None) -> Decider:
        keyed = {k: c for k, c in calls.items() if k.split("#")[0] != without}
        usual = {k: v for k, v in prefs.items() if k != without}
        return LogDecider(keyed, PolicyDecider("room", usual, fallback=reference))

    arms: dict[str, Decider] = {
        "room": room_policy(),
        "playbook": PolicyDecider("playbook", {}, fallback=reference),
    }
    for kind in differing:
        arms[f"room:{kind}"] = room_policy(without=kind)
    total, done = reps * len(arms), 0
    frames: dict[str, pd.DataFrame] = {}
    for name, decider in arms.items():

        def tick(n: int, _total: int, before: int = done) -> None:
            if progress:
                progress(before + n, total)

        frames[name] = run_replications(
            scenario, reps, room.exercise.seed, policy=decider, progress=tick
        )
        done += reps
    evals = [t.eval for t in scenario.objective.targets]
    room_df = frames["room"]
    effects = tuple(
        KindEffect(
            kind, tuple(c for k, c in calls.items() if k.split("#")[0] == kind),
            playbook_pick(kind), compare(frames[f"room:{kind}"], room_df),
            tuple(d.key for d in room.decisions if d.kind == kind and judged_call(room, d)),
        )
        for kind in differing
    )  # fmt: skip
    return MonteCarlo(
        reps, room.exercise.seed, len(scenario.incidents.scripted),
        _arm("room", room_df, evals), _arm("playbook", frames["playbook"], evals),
        effects, compare(frames["playbook"], room_df),
    )  # fmt: skip
