"""A replication's world, drawn up front: effort spreads, rework, forecast error, cuts.

Each draw comes from its source's named stream in a fixed order, so replication *k*
holds the same world under every design (common random numbers; docs/model.md,
"Randomness"). Defects are drawn by :class:`~sim.engine.incidents.DefectBook`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.engine.incidents import BudgetCutDraw, draw_budget_cut, draw_departure_gaps
from sim.engine.quality import loss_sigma
from sim.engine.rng import Streams
from sim.scenario.spec import Scenario

#: Effort spread: lognormal sigma = base + novelty * extra (frontier work is less predictable).
EFFORT_SIGMA_BASE = 0.10
EFFORT_SIGMA_NOVELTY = 0.50
#: Effort multipliers drawn for post-training rounds (reused in turn beyond that).
ROUND_DRAWS = 40


@dataclass(frozen=True)
class Draws:
    """The random facts of one replication that the play reads as it goes."""

    #: Mean-one lognormal multiplier of each workstream's effort, by workstream id.
    effort_multiplier: dict[str, float]
    #: Effort multipliers of post-training rounds, in the order the rounds run.
    round_multipliers: list[float]
    #: Uniform draw per (workstream, upstream) pair; rework when below its chance.
    rework: dict[tuple[str, str], float]
    #: Error of the loss forecast, added to the scaling-law loss.
    loss_error: float
    cut: BudgetCutDraw
    #: Standard exponential gaps between departures, per team.
    departure_gaps: dict[str, list[float]]
    #: Uniform draw deciding whether a safety review finds an issue.
    safety: float
    #: Standard normal sampling error of each eval set, by eval id.
    eval_set_errors: dict[str, float]

    @classmethod
    def draw(cls, s: Scenario, streams: Streams) -> Draws:
        vary = s.incidents.variability
        sigma = (EFFORT_SIGMA_BASE + EFFORT_SIGMA_NOVELTY * s.model.novelty) if vary else 0.0
        workstreams = s.plan.workstreams
        # Mean-one lognormal multipliers, in a fixed order for common random numbers:
        # one per workstream, then the post-training rounds' (one draw of them all).
        z = streams["effort"].standard_normal(len(workstreams) + ROUND_DRAWS).tolist()
        multipliers = [math.exp(sigma * x - sigma**2 / 2) for x in z]
        pairs = [(w.id, d) for w in workstreams for d in w.depends_on]
        rework = streams["handoffs"].random(len(pairs)).tolist() if vary else [1.0] * len(pairs)
        error = streams["quality"].standard_normal()
        sigma_loss = loss_sigma(s.model.novelty, s.levers.ablation_fraction) if vary else 0.0
        evals = s.objective.evals
        noise = streams["eval_noise"].standard_normal(len(evals)).tolist()
        return cls(
            effort_multiplier={
                w.id: m for w, m in zip(workstreams, multipliers, strict=False)
            },
            round_multipliers=multipliers[len(workstreams) :],
            rework=dict(zip(pairs, rework, strict=True)),
            loss_error=float(error * sigma_loss),
            cut=draw_budget_cut(s, streams["budget"]),
            departure_gaps=draw_departure_gaps(s, streams["staffing"]),
            safety=float(streams["safety"].random()),
            eval_set_errors=dict(zip((e.id for e in evals), noise, strict=True)),
        )
