"""Steering post-training: which eval a round is aimed by, and how much of its gain is real.

A post-training round is steered by evals: the team keeps the checkpoint, the data mix and
the settings that score best on the eval it aims at. A capability is aimed at with its
product eval while the product's evals are in hand (built early, or after a retune), else
with its public benchmarks. The product's evals are those its targets read (an eval no
target reads is built for nobody and steers nothing); every public benchmark the team
measures is read. Items of a public benchmark the model saw in training are
answered from memory: choices made on them pick what recalls those items, not what is
better at the capability, so the effort they steer lands on the capability no better than
effort aimed without the right evals (:data:`~sim.engine.quality.PRODUCT_TRANSFER_LATE`):

    steered_c = 1 - (1 - PRODUCT_TRANSFER_LATE) * public_c * leaked_c

``public_c`` is the share of the capability's steering done by public benchmarks (1 with
no product eval of it a target reads; with one, the share the product's evals do not
steer), ``leaked_c`` the mean leaked share of its public benchmarks as the round runs (none after
decontamination, plus an undetected contamination defect's). Each round's factor is kept
as it ran (:class:`~sim.engine.plan.Plan` keeps their mean): finding the leak afterwards
re-measures the model, it does not re-steer rounds already run. docs/model.md,
"Steering post-training".
"""

from __future__ import annotations

from sim.engine.quality import PRODUCT_TRANSFER_LATE, leaked_share
from sim.scenario.spec import Capability, Eval, Target


def product_steering(product_transfer: float) -> float:
    """Share of a capability's steering its product eval does, from the plan's transfer.

    Full transfer means the product's evals aim post-training (1); the late transfer
    means they do not (0); a partly spoiled set in between (an objective change).
    """
    span = 1.0 - PRODUCT_TRANSFER_LATE
    return min(1.0, max(0.0, (product_transfer - PRODUCT_TRANSFER_LATE) / span))


def steered_shares(
    caps: list[Capability],
    evals: list[Eval],
    targets: list[Target],
    decontaminate: bool,
    contamination_defect: bool,
    product_transfer: float,
) -> tuple[tuple[str, float], ...]:
    """Each capability's share of a round's gain that is real, by what steered it (< 1 only)."""
    product = product_steering(product_transfer)
    read = {t.eval for t in targets}
    out = []
    for cap in caps:
        public = [e for e in evals if e.kind == "public_benchmark" and e.capability == cap.id]
        if not public:
            continue
        has_product = any(
            e.kind == "product_eval" and e.capability == cap.id and e.id in read for e in evals
        )
        by_public = 1.0 - product if has_product else 1.0
        leaked = sum(leaked_share(e, decontaminate, contamination_defect) for e in public)
        lost = (1.0 - PRODUCT_TRANSFER_LATE) * by_public * leaked / len(public)
        if lost > 0.0:
            out.append((cap.id, 1.0 - lost))
    return tuple(out)
