"""Incident sources: hidden defects and their detection, departures, budget cuts.

Every draw is made up front, in a fixed order, from the incident's named stream,
so replication *k* holds the same defects, failures and cuts under any design
(common random numbers). docs/model.md, "Incidents".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sim.engine.org import OrgGraph
from sim.engine.quality import ablation_detection
from sim.engine.review import looks_for, review_strength
from sim.engine.rng import Streams, standard_exponential
from sim.engine.signals import monitoring_days
from sim.scenario.spec import DefectSource, Gate, Scenario
from sim.units import Days

#: Defect kinds whose symptoms show in training metrics.
MONITORABLE = frozenset({"data_quality", "tokenizer_config", "contamination"})
#: Defect kinds built into the checkpoint (the vocabulary, the architecture, the schedule):
#: tokens trained on them cannot be trained back with clean data, so a fix once the run
#: has started means training again from scratch, and no run starts on them.
BAKED_IN = frozenset({"tokenizer_config"})
#: Defect kinds whose harm once the run is over is to the measurement, not the model: the
#: benchmark items the model saw are dropped and the model measured again (no retraining).
IN_THE_EVALS = frozenset({"contamination"})
#: Defect kinds that live in a data set, not in the checkpoint: where post-training rounds
#: train on the project's own data set (an adaptation's fine-tuning set), they spoil the
#: rounds that train on it too (:meth:`DefectBook.round_factor`).
IN_THE_DATA = frozenset({"data_quality", "contamination", "licensing"})


@dataclass
class Defect:
    """A hidden flaw in data, tokenizer or config that may be present from the start."""

    index: int
    source: DefectSource
    present: bool
    gate_draws: dict[str, float]
    monitor_draw: float
    found: bool = False
    fixed: bool = False
    found_day: Days | None = None
    found_at: str | None = None
    fixed_day: Days | None = None
    affected_tokens: float = 0.0
    monitor_day: Days = math.inf

    @property
    def kind(self) -> str:
        return self.source.kind

    @property
    def active(self) -> bool:
        return self.present and not self.fixed

    @property
    def hidden(self) -> bool:
        return self.present and not self.found


@dataclass
class DefectBook:
    """All defect sources of a play, their draws, and the tokens each has spoiled."""

    defects: list[Defect] = field(default_factory=list)

    @classmethod
    def draw(cls, scenario: Scenario, streams: Streams) -> DefectBook:
        """Each source's presence and detection draws, from streams keyed by its id.

        A source's id is its ``id`` or, by default, its kind; a gate draw is keyed by the
        source and the gate's id.
        """
        novelty = scenario.model.novelty
        gates = scenario.plan.gates
        book = cls()
        # Kept in the order of their ids, so defects found together are handled in the
        # same order whatever the order of the scenario's list.
        sources = sorted(scenario.incidents.defects, key=lambda d: d.key)
        for i, src in enumerate(sources):
            key = src.key
            u_present, u_monitor = streams.entity_uniforms("defects", key, 2)
            present = u_present < min(1.0, src.probability * (1.0 + novelty))
            monitor = -math.log1p(-u_monitor)  # a standard exponential
            draws = {g.id: streams.entity_uniform("detection", f"{key}@{g.id}") for g in gates}
            book.defects.append(Defect(i, src, present, draws, monitor))
        return book

    def accrue(self, tokens: float) -> None:
        for d in self.defects:
            if d.active:
                d.affected_tokens += tokens

    def spoiling(self) -> list[Defect]:
        """The defects that spoil every token trained now (present and not fixed).

        What :meth:`accrue` adds to; it changes only when a defect is fixed.
        """
        return [d for d in self.defects if d.active]

    def reset_tokens(self) -> None:
        """A restart from scratch: no token has been trained on the bad data yet."""
        for d in self.defects:
            d.affected_tokens = 0.0

    def gate(
        self, gate: Gate, org: OrgGraph, ablation_fraction: float, legal_engaged: bool
    ) -> list[Defect]:
        """Defects this gate catches. Unowned risks are caught only at late gates."""
        found = []
        for d in self.defects:
            if not d.hidden or not looks_for(gate, d.kind, org, legal_engaged):
                continue
            chance = review_strength(gate.strength)
            if gate.after == "ablations":
                chance *= ablation_detection(ablation_fraction)
            if d.gate_draws.get(gate.id, 1.0) < chance:
                found.append(d)
        return found

    def start_monitoring(self, now: Days, org: OrgGraph) -> None:
        """Owners watching the run's metrics find their defects (sim/engine/signals.py)."""
        for d in self.defects:
            if d.hidden and d.kind in MONITORABLE:
                d.monitor_day = now + monitoring_days(org, d.kind, d.monitor_draw)

    def stop_monitoring(self) -> None:
        for d in self.defects:
            d.monitor_day = math.inf

    def next_detection(self, now: Days) -> Days:
        first = math.inf
        for d in self.defects:
            if d.monitor_day < first and d.hidden:
                first = d.monitor_day
        return first

    def due(self, now: Days) -> list[Defect]:
        return [d for d in self.defects if d.hidden and d.monitor_day <= now + 1e-9]

    def mark_found(self, d: Defect, day: Days, where: str) -> None:
        d.found, d.found_day, d.found_at, d.monitor_day = True, day, where, math.inf

    def fix(self, d: Defect, day: Days) -> None:
        """The fix is in on ``day``: the data (or config) is clean from then on."""
        d.fixed, d.fixed_day = True, day

    def round_factor(self, start: Days, end: Days) -> tuple[float, tuple[Defect, ...]]:
        """Share of a post-training round's worth left by the defects in its data set.

        A round trained from ``start`` to ``end`` on a data set a defect was in counts as
        ``1 - quality_penalty * share`` of a round, ``share`` being the part of the round
        before the defect's fix landed (all of it when never fixed): a defect fixed before
        the round costs nothing, one fixed mid-way part (docs/model.md, "The fine-tuning
        set"). Returns the factor and the defects that spoiled the round.
        """
        factor, spoilers = 1.0, []
        span = end - start
        for d in self.defects:
            if not d.present or d.kind not in IN_THE_DATA:
                continue
            if d.fixed_day is not None and d.fixed_day <= start:
                continue  # fixed before the round: its data was clean
            until = end if d.fixed_day is None else min(end, d.fixed_day)
            share = 1.0 if span <= 0 else (until - start) / span
            factor *= 1.0 - d.source.quality_penalty * share
            spoilers.append(d)
        return factor, tuple(spoilers)

    def token_factor(self, total_tokens: float) -> float:
        """Share of trained tokens that still count as effective after defects."""
        factor = 1.0
        if total_tokens <= 0:
            return factor
        for d in self.defects:
            if d.present:
                spoiled = min(1.0, d.affected_tokens / total_tokens)
                factor *= 1.0 - d.source.quality_penalty * spoiled
        return factor

    def contamination_active(self) -> bool:
        return any(d.kind == "contamination" and d.active for d in self.defects)

    def licensing_active(self) -> bool:
        return any(d.kind == "licensing" and d.active for d in self.defects)


@dataclass(frozen=True)
class BudgetCutDraw:
    happens: bool
    day: Days


def draw_budget_cut(scenario: Scenario, rng: np.random.Generator) -> BudgetCutDraw:
    cut = scenario.incidents.budget_cut
    u, v = rng.random(), rng.random()
    day = cut.earliest_day + v * (cut.latest_day - cut.earliest_day)
    return BudgetCutDraw(cut.enabled and u < cut.probability, float(day))


def draw_departure_gaps(
    scenario: Scenario, streams: Streams, horizon: int = 16
) -> dict[str, Sequence[float]]:
    """Standard exponential gaps between departures, per team (scaled by rates later).

    Each team's gaps come from its own ``staffing`` stream, keyed by the team's id.
    """
    return {
        t.id: streams.entity_draws("staffing", t.id, horizon, standard_exponential)
        for t in scenario.org.teams
    }
