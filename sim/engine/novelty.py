"""What pushing the frontier costs: novelty raises the resources a plan needs.

The seeds' essay says pushing the frontier takes about ten times the resources of
repeating well-documented work. ``model.novelty`` (0 documented, 1 the frontier) scales
research work by :func:`exploration_multiplier`: the effort of the co-design (core)
teams' workstreams and of every post-training round, and the ablation compute needed
for the same forecast precision and defect detection; failed recipes make ablation
campaigns run again. docs/model.md, "Novelty".
"""

from __future__ import annotations

#: Resources of research at novelty 1 over documented work (the seeds' essay: about 10x).
NOVELTY_RESOURCE_RATIO = 10.0
#: Chance an ablation campaign's recipe fails and must be rerun, per unit of novelty.
ABLATION_FAILURE_PER_NOVELTY = 0.5
#: Share of a campaign that a rerun repeats (the failed recipe's experiments, not all).
ABLATION_RERUN_SHARE = 0.5
#: Most reruns drawn for one project.
MAX_ABLATION_RERUNS = 6


def exploration_multiplier(novelty: float) -> float:
    """Research resources relative to documented work: ``10 ** novelty`` (1x to 10x)."""
    return float(NOVELTY_RESOURCE_RATIO**novelty)


def effective_ablation_fraction(ablation_fraction: float, novelty: float) -> float:
    """The documented-work equivalent of an ablation budget: frontier ablations buy less."""
    return ablation_fraction / exploration_multiplier(novelty)


def ablation_failure_chance(novelty: float) -> float:
    """Chance an ablation campaign's recipe fails and is rerun."""
    return min(0.9, ABLATION_FAILURE_PER_NOVELTY * novelty)


def expected_ablation_factor(novelty: float) -> float:
    """Expected ablation compute and calendar over the planned campaign (reruns included)."""
    q = ablation_failure_chance(novelty)
    return 1.0 + ABLATION_RERUN_SHARE * q / (1.0 - q)
