"""What every replication of a scenario reads but never changes, worked out once.

The org graph and its signal paths, which workstreams run in which phase, the handoffs
between them, and the training run's rates depend on the scenario and its levers only,
never on a draw. docs/model.md, "Workstreams, handoffs and rework".
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sim.engine.compute import planned_run
from sim.engine.org import OrgGraph
from sim.engine.records import SetUpFit
from sim.engine.review import legal_engaged, review_effort, reviewers
from sim.engine.training import RunFacts
from sim.scenario.spec import PHASES, Gate, Scenario, Workstream
from sim.units import Days, PersonDays, TeamId

#: Chance a cross-team handoff needs rework, per day of latency on the path (plus a base).
HANDOFF_REWORK_BASE = 0.05
HANDOFF_REWORK_PER_DAY = 0.08
#: Plans' expected scores a scenario's facts keep before starting afresh (a play prices a
#: few dozen plans; the same ones recur in every replication).
PLANNED_SCORES_KEPT = 4096


@dataclass(frozen=True)
class Handoff:
    """An upstream workstream of another team that a workstream waits on."""

    upstream: str
    upstream_effort: PersonDays
    latency_days: Days
    rework_chance: float


class ScenarioFacts:
    """The scenario's draw-free facts, shared by its replications in one process."""

    def __init__(self, scenario: Scenario) -> None:
        self.org = org = OrgGraph(scenario)
        lev = scenario.levers
        workstreams = scenario.plan.workstreams
        self.by_id: dict[str, Workstream] = {w.id: w for w in workstreams}
        self.active: frozenset[str] = frozenset(
            w.id for w in workstreams if w.strategy in ("both", lev.strategy)
        )
        late_safety = not (lev.safety_from_start and org.owner("safety"))
        self.phase_of: dict[str, str] = {}
        for w in workstreams:
            phase = w.phase
            if w.role == "product_evals" and not lev.product_evals_early:
                phase = "evaluation"
            elif w.role == "safety_review" and late_safety:
                phase = "release"
            self.phase_of[w.id] = phase
        # Work starts, and upstream work is read, in the order of ids: the order of the
        # scenario's lists is no part of the world (common random numbers by identity).
        by_id = sorted(workstreams, key=lambda w: w.id)
        self.in_phase: dict[str, tuple[Workstream, ...]] = {
            phase: tuple(w for w in by_id if self.phase_of[w.id] == phase and w.id in self.active)
            for phase in PHASES
        }
        self.active_deps: dict[str, tuple[str, ...]] = {
            w.id: tuple(d for d in sorted(w.depends_on) if d in self.active) for w in workstreams
        }
        self.handoffs: dict[str, tuple[Handoff, ...]] = {}
        for w in workstreams:
            handoffs = []
            for d in self.active_deps[w.id]:
                upstream = self.by_id[d]
                if upstream.owner == w.owner:
                    continue
                latency = org.signal_latency(upstream.owner, w.owner)
                chance = HANDOFF_REWORK_BASE + HANDOFF_REWORK_PER_DAY * latency
                handoffs.append(Handoff(d, upstream.effort_person_days, latency, chance))
            self.handoffs[w.id] = tuple(handoffs)
        legal = legal_engaged(scenario, org)
        #: Each phase's gates, in order, with the person-days each team reviews for them.
        self.gate_reviews: dict[str, tuple[tuple[Gate, dict[TeamId, PersonDays]], ...]] = {
            phase: tuple(
                (g, review_effort(g.strength, reviewers(g, org, legal)))
                for g in sorted(scenario.plan.gates, key=lambda g: g.id)
                if g.after == phase
            )
            for phase in PHASES
        }
        #: The teams whose pace a phase's forecast reads: its workstreams' owners and its
        #: gates' reviewers (sim/engine/forecast.py keeps a forecast while theirs holds).
        self.phase_teams: dict[str, tuple[TeamId, ...]] = {
            phase: tuple(
                sorted(
                    {w.owner for w in self.in_phase[phase]}
                    | {t for _, effort in self.gate_reviews[phase] for t in effort}
                )
            )
            for phase in PHASES
        }
        self._runs: dict[tuple[float, int | None], RunFacts] = {}
        #: Expected scores of plans, by the fields of the plan's quality state (loss,
        #: rounds, product transfer, focus, decontamination, domain gaps; no defect): a
        #: pure function of the scenario's evals and the state, so every replication reads
        #: the same numbers (sim/engine/forecast.py; cleared past PLANNED_SCORES_KEPT states).
        self.planned_scores: dict[tuple[Any, ...], dict[str, float]] = {}
        #: What fitting the plan to the budget at set-up did (the same for every replication:
        #: it reads no draw), made by the first replication (sim/engine/budget.py).
        self.set_up_fit: SetUpFit | None = None
        self.salary_notes = {t.id: f"{t.id} salaries" for t in scenario.org.teams}
        self.post_training_team: TeamId = scenario.plan.post_training_team or org.training_team

    def run(self, active_params: float, cluster_gpus: int | None = None) -> RunFacts:
        """Rates and reliability of a run of ``active_params`` on ``cluster_gpus`` GPUs.

        ``None``: the scenario's whole cluster.
        """
        key = (active_params, cluster_gpus)
        facts = self._runs.get(key)
        if facts is None:
            s = self.org.scenario
            facts = self._runs[key] = RunFacts.build(
                s, self.org, active_params, planned_run(s)[1], cluster_gpus
            )
        return facts


#: Recently used scenarios' facts, by object identity. The facts hold their scenario (so an
#: id is never reused while its entry lives); the cache is bounded, so a long-running app
#: that plays many variants (sweeps, edited designs) keeps only the most recent.
_FACTS: OrderedDict[int, tuple[Scenario, ScenarioFacts]] = OrderedDict()
FACTS_CACHED = 64
_FACTS_LOCK = threading.Lock()  # the app plays in several threads at once


def scenario_facts(scenario: Scenario) -> ScenarioFacts:
    """The scenario's :class:`ScenarioFacts`, shared by its replications in this process."""
    key = id(scenario)
    with _FACTS_LOCK:
        hit = _FACTS.get(key)
        if hit is not None and hit[0] is scenario:
            _FACTS.move_to_end(key)
            return hit[1]
    facts = ScenarioFacts(scenario)
    with _FACTS_LOCK:
        _FACTS[key] = (scenario, facts)
        while len(_FACTS) > FACTS_CACHED:
            _FACTS.popitem(last=False)
    return facts
