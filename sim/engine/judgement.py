"""What a person deciding on the spot sees: the model's own forecast of each option.

When no answer was agreed in advance, the holder of the right reads a forecast of what each
option on offer does to the finish (days), the spend (dollars) and the model (the mean score
of the targeted evals), relative to doing nothing (the status quo). The forecasts are the
engine's own arithmetic at the time of the decision, with what the holder can know then (the
spike rate seen so far, not the true one; staffing as if Brooks had never written).
:class:`~sim.engine.decisions.HumanDecider` reads them with noise and with loss aversion.
docs/model.md, "Decisions".
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

from sim.engine.decisions import STATUS_QUO, Forecast
from sim.engine.incidents import BAKED_IN, Defect
from sim.engine.phases import (
    CONTINUE_AFTER_FIX_SHARE,
    RETUNE_DATA_PERSON_DAYS,
    fix_co_design,
    fix_team,
    round_cost,
)
from sim.engine.project import Project
from sim.engine.quality import chinchilla_loss, true_scores
from sim.engine.training import (
    BATCH_TOKENS,
    DIVERGENCE_NOTICE_DAYS,
    INVESTIGATE_DAYS,
    OVERREACT_SPIKE_RATE,
    RECIPE_CHANGE_DAYS,
    RECIPE_CHANGE_STEPS,
    ROLLBACK_STEPS,
    SELF_RECOVERY_WASTE_DAYS,
)
from sim.scenario.spec import ROLE_CO_DESIGN
from sim.units import MINUTES_PER_DAY

#: Share of the budget a person deciding would pay for one point (0.01) of the mean target
#: score: what the project is for, weighed against its money.
QUALITY_POINT_BUDGET_SHARE = 0.02
#: Assumed effect of dropping the ablations on the mean target score (defects found later,
#: a wider forecast).
ABLATION_CUT_QUALITY = -0.005


def target_score(m: Project, loss_change: float = 0.0, rounds_change: float = 0.0,
                 transfer: float | None = None) -> float:  # fmt: skip
    """Mean true score of the targeted capabilities the plan heads for, changed as asked.

    The plan's end state: the loss at the run's target tokens and the rounds planned.
    """
    s = m.scenario
    q = m.quality_state()
    run = m.run
    tokens = run.target_tokens if run is not None else m.plan.tokens
    rounds = max(float(m.plan.rounds), q.rounds)
    q = dataclasses.replace(
        q,
        loss=m.current_loss(tokens) + loss_change,
        rounds=max(0.0, rounds + rounds_change),
        product_transfer=q.product_transfer if transfer is None else transfer,
    )
    caps = {t.capability for t in s.objective.targets}
    scores = true_scores([c for c in s.objective.capabilities if c.id in caps], q)
    return math.fsum(scores.values()) / max(1, len(scores))


def usd_per_score(m: Project) -> float:
    """Dollars a whole unit of mean target score is worth (100 points of 0.01)."""
    return 100.0 * QUALITY_POINT_BUDGET_SHARE * m.ledger.budget_usd


def people_usd_per_day(m: Project) -> float:
    return m.staff.salaries_per_day()


# --- per decision kind ----------------------------------------------------------------------


def _rollback(m: Project, context: dict[str, Any]) -> dict[str, Forecast]:
    run = m.run
    if run is None:
        return {}
    spikes = m.scenario.incidents.loss_spikes
    restart = run.reliability.restart_minutes / MINUTES_PER_DAY
    lost = ROLLBACK_STEPS * BATCH_TOKENS + 0.5 * run.checkpoint_tokens
    back = lost / run.rate + restart
    # What the holder can know: the spikes seen so far, over the tokens trained so far.
    seen_rate = run.stats.spikes / max(run.tokens, 1.0)
    ahead = seen_rate * max(0.0, run.target_tokens - run.tokens)
    recur = spikes.recurrence * back
    days = {
        "continue": spikes.self_recovery * SELF_RECOVERY_WASTE_DAYS
        + (1.0 - spikes.self_recovery) * (DIVERGENCE_NOTICE_DAYS + back),
        "rollback_skip": back + recur,
        "pause_investigate": INVESTIGATE_DAYS + back + recur / 2.0,
        # A recipe change: re-plan with the cluster held, go back further, spike less after.
        "overreact": RECIPE_CHANGE_DAYS
        + (RECIPE_CHANGE_STEPS * BATCH_TOKENS + 0.5 * run.checkpoint_tokens) / run.rate
        + restart
        - ahead * (1.0 - OVERREACT_SPIKE_RATE) * back,
    }
    base = days["continue"]
    # The cluster is held (and billed) for every one of those days.
    return {o: Forecast(d - base, (d - base) * run.usd_per_day, 0.0) for o, d in days.items()}


def _found_defect(m: Project, kind: str) -> Defect | None:
    for d in m.defects.defects:
        if d.kind == kind and d.found and not d.fixed:
            return d
    return None


def _data_fix(m: Project, context: dict[str, Any]) -> dict[str, Forecast]:
    run = m.run
    d = _found_defect(m, str(context.get("defect", "")))
    if run is None or d is None:
        return {}
    fix_days = m.staff.work_days(fix_team(m, d), d.source.fix_person_days, fix_co_design(d))
    during = not m.run_finished
    run_days_done = run.tokens / run.rate
    spoil_share = d.source.quality_penalty

    def loss_if(factor: float) -> float:
        return chinchilla_loss(m.plan.params, max(1e6, run.target_tokens) * factor) - (
            chinchilla_loss(m.plan.params, max(1e6, run.target_tokens))
        )

    accept_loss = loss_if(1.0 - spoil_share)
    out: dict[str, Forecast] = {}
    point = target_score(m)
    if during:
        # Training goes on; bad tokens accrue until the fix lands, then the run trains
        # back the share they lost (the retraining share: its days held and billed).
        # A defect built into the checkpoint is trained back whole (from scratch).
        share = 1.0 if d.kind in BAKED_IN else spoil_share
        retrain_days = share * (d.affected_tokens / run.rate + fix_days)
        restart_days = fix_days + run_days_done
        out["fix_and_continue"] = Forecast(retrain_days, retrain_days * run.usd_per_day, 0.0)
        out["fix_and_restart"] = Forecast(restart_days, restart_days * run.usd_per_day, 0.0)
    else:
        extra = CONTINUE_AFTER_FIX_SHARE * run.target_tokens / run.rate
        half_q = target_score(m, loss_if(1.0 - spoil_share / 2.0)) - point
        out["fix_and_continue"] = Forecast(fix_days + extra, extra * run.usd_per_day, half_q)
        full = run.target_tokens / run.rate
        out["fix_and_restart"] = Forecast(fix_days + full, full * run.usd_per_day, 0.0)
    out["accept"] = Forecast(0.0, 0.0, target_score(m, accept_loss) - point)
    return out


def _budget(m: Project, context: dict[str, Any]) -> dict[str, Forecast]:
    gap = float(context.get("gap_usd", 0.0))
    point = target_score(m)
    run = m.run
    target = run.target_tokens if run is not None else m.plan.tokens
    done = run.tokens if run is not None else 0.0
    out = {"accept_overrun": Forecast(0.0, 0.0, 0.0)}
    out["use_reserve"] = Forecast(0.0, -min(gap, m.plan.reserve_left), 0.0)
    ablation_usd = m.plan.ablations * m.plan.tokens * m.plan.usd_per_token
    out["cut_ablations"] = Forecast(0.0, -min(gap, ablation_usd), ABLATION_CUT_QUALITY)
    floor = max(done, 0.5 * target)
    cut = max(0.0, target - max(floor, target - gap / m.plan.usd_per_token))
    loss = chinchilla_loss(m.plan.params, max(1e6, target - cut)) - chinchilla_loss(
        m.plan.params, max(1e6, target)
    )
    out["reduce_tokens"] = Forecast(
        -cut / m.plan.run_facts.rate, -cut * m.plan.usd_per_token, target_score(m, loss) - point
    )
    annotation, compute = round_cost(m)
    per_round = max(1.0, annotation + compute)
    rounds = min(gap / per_round, max(0.0, m.plan.rounds - math.floor(m.plan.rounds_done) - 1))
    out["fewer_post_training_rounds"] = Forecast(
        -rounds * m.round_days(),
        -min(gap, rounds * per_round),
        target_score(m, rounds_change=-rounds) - point,
    )
    return out


def _ship(m: Project, context: dict[str, Any]) -> dict[str, Forecast]:
    annotation, compute = round_cost(m)
    days = m.round_days()
    point = target_score(m)
    one_more = target_score(m, rounds_change=1) - point
    owner = m.org.owner("data_quality") or m.post_training_team
    retune = m.staff.work_days(owner, RETUNE_DATA_PERSON_DAYS, ROLE_CO_DESIGN["data"])
    fixed = target_score(m, rounds_change=1, transfer=1.0) - point
    return {
        "ship": Forecast(0.0, 0.0, 0.0),
        "extra_round": Forecast(days, annotation + compute, one_more),
        "fix_data_and_retune": Forecast(days + retune, annotation + compute, fixed),
    }


def _schedule(m: Project, context: dict[str, Any]) -> dict[str, Forecast]:
    s = m.scenario
    projected = float(context.get("projected_day", 0.0))
    slip = max(0.0, projected - float(context.get("deadline_day", 0.0)))
    days = m.round_days()
    left = max(0.0, m.plan.rounds - m.plan.rounds_done)
    cut = min(left - 1.0, slip / days) if left > 1 else 0.0
    point = target_score(m)
    fewer = target_score(m, rounds_change=-cut) - point
    team = m.staff.teams[m.post_training_team]
    people = max(2, s.levers.add_core_staff)
    # The naive man-month: the holder expects the added people to speed rounds in proportion.
    faster = left * days * people / (team.headcount + people)
    rate = team.spec.usd_per_person_day
    return {
        "accept_slip": Forecast(0.0, 0.0, 0.0),
        "cut_post_training_rounds": Forecast(-cut * days, -cut * sum(round_cost(m)), fewer),
        "add_core_staff": Forecast(-faster, people * rate * (left * days - faster), 0.0),
    }


FORECASTERS: dict[str, Callable[[Project, dict[str, Any]], dict[str, Forecast]]] = {
    "rollback": _rollback,
    "data_fix": _data_fix,
    "budget": _budget,
    "ship": _ship,
    "schedule": _schedule,
}


def forecast_options(
    m: Project, kind: str, options: tuple[str, ...], context: dict[str, Any]
) -> dict[str, Forecast]:
    """The model's forecast of each option on offer, relative to the status quo.

    Options the forecaster does not know get a zero forecast (no change expected).
    """
    known = FORECASTERS[kind](m, context)
    base = known.get(STATUS_QUO[kind], Forecast(0.0, 0.0, 0.0))
    return {
        o: Forecast(f.days - base.days, f.usd - base.usd, f.quality - base.quality)
        for o in options
        for f in (known.get(o, base),)
    }
