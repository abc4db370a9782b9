"""A replication's world, drawn up front: effort spreads, rework, forecast error, cuts.

Each draw comes from its source's named stream, and a draw that belongs to one element
of the scenario from that element's own stream (keyed by its id), so replication *k*
holds the same world under every design, and under any order of the scenario's lists
(common random numbers by identity; docs/model.md, "Randomness"). Defects are drawn by
:class:`~sim.engine.incidents.DefectBook`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from sim.engine.incidents import BudgetCutDraw, draw_budget_cut, draw_departure_gaps
from sim.engine.novelty import (
    MAX_ABLATION_RERUNS,
    ablation_failure_chance,
    effective_ablation_fraction,
)
from sim.engine.quality import loss_sigma
from sim.engine.rng import Streams, standard_normal
from sim.scenario.spec import Scenario

#: Effort spread: lognormal sigma = base + novelty * extra (frontier work is less predictable).
EFFORT_SIGMA_BASE = 0.10
EFFORT_SIGMA_NOVELTY = 0.50
#: Effort multipliers drawn for post-training rounds (reused in turn beyond that).
ROUND_DRAWS = 40
#: The entity whose stream holds the post-training rounds' draws (round k reads the k-th).
ROUNDS_ENTITY = "post_training_rounds"


def handoff_entity(workstream: str, upstream: str) -> str:
    """The id of the handoff from ``upstream`` into ``workstream`` (its rework draw's stream)."""
    return f"{workstream}<{upstream}"


def _mean_one(sigma: float, z: float) -> float:
    return math.exp(sigma * z - sigma**2 / 2)


def _round_multiplier(sigma: float, u: float) -> float:
    return _mean_one(sigma, standard_normal(u))


@dataclass(frozen=True)
class Draws:
    """The random facts of one replication that the play reads as it goes."""

    #: Mean-one lognormal multiplier of each workstream's effort, by workstream id.
    effort_multiplier: dict[str, float]
    #: Effort multipliers of post-training rounds, in the order the rounds run.
    round_multipliers: Sequence[float]
    #: Uniform draw per (workstream, upstream) pair; rework when below its chance.
    rework: dict[tuple[str, str], float]
    #: Error of the loss forecast, added to the scaling-law loss.
    loss_error: float
    cut: BudgetCutDraw
    #: Standard exponential gaps between departures, per team.
    departure_gaps: dict[str, Sequence[float]]
    #: Uniform draw deciding whether a safety review finds an issue.
    safety: float
    #: Standard normal sampling error of each eval set, by eval id.
    eval_set_errors: dict[str, float]
    #: Ablation campaigns whose recipe failed and ran again (novel work fails more).
    ablation_reruns: int

    @classmethod
    def draw(cls, s: Scenario, streams: Streams) -> Draws:
        vary = s.incidents.variability
        sigma = (EFFORT_SIGMA_BASE + EFFORT_SIGMA_NOVELTY * s.model.novelty) if vary else 0.0
        workstreams = s.plan.workstreams
        # Mean-one lognormal multipliers: one from each workstream's own stream, and the
        # post-training rounds' from theirs (round k always reads the k-th draw).
        uniform = streams.entity_uniform
        z_work = [standard_normal(uniform("effort", w.id)) for w in workstreams]
        pairs = [(w.id, d) for w in workstreams for d in w.depends_on]
        rework = [uniform("handoffs", handoff_entity(w, d)) if vary else 1.0 for w, d in pairs]
        error = streams["quality"].standard_normal()
        novelty = s.model.novelty
        ablations = effective_ablation_fraction(s.levers.ablation_fraction, novelty)
        sigma_loss = loss_sigma(novelty, ablations) if vary else 0.0
        evals = s.objective.evals
        noise = [standard_normal(uniform("eval_noise", e.id)) for e in evals]
        return cls(
            effort_multiplier={
                w.id: _mean_one(sigma, x) for w, x in zip(workstreams, z_work, strict=True)
            },
            # Read as the rounds run: a play of three rounds works out eight, not forty.
            round_multipliers=streams.entity_draws(
                "effort", ROUNDS_ENTITY, ROUND_DRAWS, partial(_round_multiplier, sigma)
            ),
            rework=dict(zip(pairs, rework, strict=True)),
            loss_error=float(error * sigma_loss),
            cut=draw_budget_cut(s, streams["budget"]),
            departure_gaps=draw_departure_gaps(s, streams),
            safety=float(streams["safety"].random()),
            eval_set_errors=dict(zip((e.id for e in evals), noise, strict=True)),
            ablation_reruns=_reruns(streams, novelty),
        )


def _reruns(streams: Streams, novelty: float) -> int:
    """Ablation campaigns that fail and run again: each fails with the novelty's chance."""
    fail = ablation_failure_chance(novelty)
    draws = streams["ablations"].random(MAX_ABLATION_RERUNS).tolist()
    return next((k for k, u in enumerate(draws) if u >= fail), MAX_ABLATION_RERUNS)
