"""The project lead's forecasts: days still needed, phase by phase, and the plan's quality.

Rough on purpose (docs/model.md, "Forecasts"): the longest workstream of a phase at its
team's current pace, expected values where the play will draw (ablation reruns, the
run's interruptions), no handoffs. The budget plan (:mod:`sim.engine.budget`) prices
every scope option with these forecasts, and the schedule check reads them.
"""

from __future__ import annotations

import math

from sim.engine.compute import adapting
from sim.engine.facts import PLANNED_SCORES_KEPT
from sim.engine.novelty import effective_ablation_fraction, expected_ablation_factor
from sim.engine.project import Project
from sim.engine.quality import (
    QualityState,
    chinchilla_loss,
    domain_gaps,
    loss_sigma,
    measure,
    recipe_excess,
)
from sim.engine.review import REVIEW_CO_DESIGN
from sim.engine.steering import steered_shares
from sim.scenario.spec import PHASES

#: Ablations happen on the cluster; their calendar time at this share of it.
ABLATION_CLUSTER_SHARE = 0.5
#: Mean absolute error of a normal variable, per unit of its standard deviation.
MEAN_ABS_PER_SD = math.sqrt(2.0 / math.pi)

#: Set-up and the play's phases, in order, for forecasts; a phase's position in it.
FORECAST_ORDER = ("setup", *PHASES)
_POSITION = {phase: k for k, phase in enumerate(FORECAST_ORDER)}
_ABLATIONS, _TRAINING, _EVALUATION = 2, 3, 5


def work_days(m: Project, phase: str) -> float:
    """Rough calendar days of a phase's work: its longest workstream or gate review.

    Each at its team's pace today; the reviews of the gates after the phase run beside its
    workstreams (sim/engine/review.py). Kept while the teams' paces hold (their versions;
    the moment too while one ramps up): the same question, the same answer
    (``Staff.phase_memo``).
    """
    versions, ramping = m.staff.versions(m.facts.phase_teams[phase])
    memo = m.staff.phase_memo(ramping)
    key = (phase, m.plan.eval_scope, versions)
    days = memo.get(key)
    if days is None:
        days = memo[key] = _work_days(m, phase)
    return days


def phases_work_days(m: Project, first: int) -> tuple[float, ...]:
    """:func:`work_days` of every phase from ``FORECAST_ORDER[first]`` on, in order.

    Kept by ``first``, the plan's evaluation scope and the staff's version
    (``Staff.version``): each phase's answer is kept by the versions of its own teams
    already, and the staff's version moves whenever one of them does, so the same key
    reads the same answers with one look at the teams instead of one per phase. While
    someone ramps up, kept for the moment only (the options priced at one moment share it).
    """
    version, ramping = m.staff.version()
    key = (first, m.plan.eval_scope, version)
    memo = m.staff.phases_memo(ramping)
    days = memo.get(key)
    if days is None:
        days = memo[key] = tuple(work_days(m, phase) for phase in FORECAST_ORDER[first:])
    return days


def _work_days(m: Project, phase: str) -> float:
    """:func:`work_days` worked out afresh."""
    days = 0.0
    for w in m.facts.in_phase[phase]:
        days = max(days, m.staff.work_days(w.owner, m.planned_effort(w), w.co_design_need))
    for _, effort in m.facts.gate_reviews[phase]:
        for team, e in effort.items():
            days = max(days, m.staff.work_days(team, e, REVIEW_CO_DESIGN))
    return days


def ablation_days(m: Project, reruns: float | None = None) -> float:
    """Calendar days of the ablation campaign (expected reruns unless ``reruns`` is given)."""
    run_days = m.plan.tokens / m.plan.run_facts.rate
    factor = expected_ablation_factor(m.scenario.model.novelty) if reruns is None else reruns
    return m.plan.ablations * run_days * factor / ABLATION_CLUSTER_SHARE


def days_by_phase(m: Project) -> dict[str, float]:
    """Rough days still needed from now, by the phase they fall in."""
    now = _POSITION.get(m.recording.phase, len(FORECAST_ORDER))
    out = dict.fromkeys(PHASES, 0.0)
    out["post_training"] = m.round_days() * max(0, m.plan.rounds - m.plan.rounds_done)
    if now <= _TRAINING:
        run = m.run
        out["training"] = (
            run.expected_days() if run else m.plan.run_facts.expected_days(m.plan.tokens)
        )
    if now <= _ABLATIONS:
        out["ablations"] = ablation_days(m)
    # The phases still to come; evaluation and release also while they run.
    first = max(1, now + 1 if now < _EVALUATION else now)
    for phase, days in zip(FORECAST_ORDER[first:], phases_work_days(m, first), strict=True):
        out[phase] += days
    if m.recording.phase == "prepare":
        out["prepare"] += max(0.0, work_days(m, "prepare") - (m.env.now - m.recording.phase_start))
    return out


def forecast_days(m: Project) -> float:
    """Rough days still needed from now (for forecasts, not for the play)."""
    return sum(days_by_phase(m).values())


# --- quality -----------------------------------------------------------------------------


def planned_loss(m: Project, tokens: float | None = None) -> float:
    """The scaling law's loss at the plan's tokens and ablations (no forecast error, no defects)."""
    s = m.scenario
    tokens = m.plan.tokens if tokens is None else tokens
    base = s.model.base_model
    if adapting(s) and base is not None:
        effective = base.tokens_b * 1e9 + tokens * m.plan.data_multiplier
        loss = chinchilla_loss(base.params_b * 1e9, effective)
    else:
        loss = chinchilla_loss(m.plan.params, max(1e6, tokens) * m.plan.data_multiplier)
    ablations = effective_ablation_fraction(m.plan.ablations, s.model.novelty)
    return loss * (1.0 + recipe_excess(ablations))


def planned_domain_gaps(m: Project) -> tuple[tuple[str, float], ...]:
    """An adapted plan's extra loss on each capability's own text (none if pretraining)."""
    s = m.scenario
    base = s.model.base_model
    if not adapting(s) or base is None:
        return ()
    adapted = m.plan.tokens * m.plan.data_multiplier
    return domain_gaps(s.objective.capabilities, base.tokens_b * 1e9, adapted)


def _planned_scores(m: Project, loss: float | None, rounds: int | None) -> dict[str, float]:
    """Expected measured score of every eval for a plan (no noise, no defects)."""
    s = m.scenario
    # The quality state's fields, as a plain tuple: the state itself is made only when
    # the scores are not kept yet.
    key = (
        planned_loss(m) if loss is None else loss,
        float(m.plan.rounds if rounds is None else rounds),
        m.plan.product_transfer,
        m.focus_capability,
        s.levers.decontaminate,
        planned_domain_gaps(m),
        m.plan.post_training_worth,
    )
    kept = m.facts.planned_scores
    known = kept.get(key)
    if known is None:
        if len(kept) >= PLANNED_SCORES_KEPT:
            kept.clear()
        loss_, rounds_, transfer, focus, decontaminate, gaps, worth = key
        state = QualityState(
            loss=loss_,
            rounds=rounds_,
            product_transfer=transfer,
            focus_capability=focus,
            decontaminate=decontaminate,
            contamination_defect=False,
            domain_gaps=gaps,
            steered=steered_shares(
                s.objective.capabilities,
                s.objective.evals,
                s.objective.targets,
                decontaminate,
                False,
                transfer,
            ),
            post_training_worth=worth,
        )
        scores = measure(s.objective.capabilities, s.objective.evals, state, None)
        known = kept[key] = {e: r.score for e, r in scores.items()}
    return known


def planned_score(m: Project, loss: float | None = None, rounds: int | None = None) -> float:
    """Mean expected score over the targets' evals for a plan (no noise)."""
    targets = m.scenario.objective.targets
    scores = _planned_scores(m, loss, rounds)
    return math.fsum(scores[t.eval] for t in targets) / max(1, len(targets))


def loss_at_risk(m: Project, ablation_fraction: float) -> float:
    """Expected absolute error of the loss forecast with ``ablation_fraction`` of ablations."""
    novelty = m.scenario.model.novelty
    sigma = loss_sigma(novelty, effective_ablation_fraction(ablation_fraction, novelty))
    return MEAN_ABS_PER_SD * sigma


def measurement_error(m: Project, items_share: float) -> float:
    """Mean expected absolute sampling error of the targets' evals with ``items_share``."""
    s = m.scenario
    scores = _planned_scores(m, None, None)
    evals = {e.id: e for e in s.objective.evals}
    terms = []
    for t in s.objective.targets:
        p = scores[t.eval]
        items = max(1.0, evals[t.eval].items * items_share)
        terms.append(MEAN_ABS_PER_SD * math.sqrt(max(0.0, p * (1.0 - p)) / items))
    return math.fsum(terms) / max(1, len(s.objective.targets))
