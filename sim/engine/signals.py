"""Signals on the org graph: who watches which metric, when they notice, how news travels.

A symptom is seen by whoever watches its metric: the owner of the risk, at the team's
``watch_hours`` cadence; when nobody owns it, only at the project's routine review. News
then travels the org graph (:class:`~sim.engine.org.OrgGraph` latencies) to whoever must
act. Silos and distance therefore cost through these paths: a spike idles the cluster
longer, a defect spoils more tokens before anyone sees it, a throughput fix or a manual
restart waits for the round trip between training and infrastructure.
docs/model.md, "Signals".
"""

from __future__ import annotations

import math

import numpy as np

from sim.engine.compute import tokens_per_day
from sim.engine.org import OrgGraph
from sim.engine.reliability import MANUAL_FIX_MINUTES, restart_with_people
from sim.engine.rng import Streams
from sim.scenario.spec import Scenario
from sim.units import HOURS_PER_DAY, MINUTES_PER_DAY, Days

#: Without an owner a metric is looked at only at the routine review (a daily stand-up).
REVIEW_INTERVAL_HOURS = 24.0
#: Detections per day of a subtle defect by an owner who looks at least daily, at seniority
#: 0.5 (times ``0.5 + seniority``): 0.088 a day at the default 0.6, 11 days on average.
MONITOR_RATE_PER_DAY = 0.08
#: Throughput left on the table when the run starts (kernels, parallel layout, data loader).
MFU_START_GAP = 0.15
#: Days for infrastructure to turn one profile into a deployed fix, before the round trip.
TUNING_DAYS = 1.0
#: Share of the remaining throughput gap each fix closes.
TUNING_STEP = 0.5
#: Hands-on time of a training team on an interruption it must recover without
#: infrastructure's tools and runbooks: four times an owner's ``MANUAL_FIX_MINUTES`` (fitted
#: to OPT-175B: :mod:`sim.engine.reliability`), so an owned restart is never the slower one.
UNOWNED_FIX_FACTOR = 4.0
UNOWNED_FIX_MINUTES = UNOWNED_FIX_FACTOR * MANUAL_FIX_MINUTES


def entity_stream(streams: Streams, source: str, entity_id: str) -> np.random.Generator:
    """The stream of ``source`` that belongs to one element (a team, a spike, a variant).

    :meth:`~sim.engine.rng.Streams.for_entity`: an element's draws depend on its id, never
    on its position in a list.
    """
    return streams.for_entity(source, entity_id)


# --- who watches, and when they notice ---------------------------------------------------------


def watch_interval_days(org: OrgGraph, risk: str) -> Days:
    """How often someone looks at the metric of ``risk``: its owner's cadence, else the review."""
    owner = org.owner(risk)
    hours = org.teams[owner].watch_hours if owner is not None else REVIEW_INTERVAL_HOURS
    return hours / HOURS_PER_DAY


def notice_days(org: OrgGraph, risk: str, u: float) -> Days:
    """Days until a sharp symptom of ``risk`` (a loss spike) is seen: ``u`` of a look interval.

    ``u`` is a uniform draw: the symptom strikes at a random moment between two looks.
    """
    return u * watch_interval_days(org, risk)


def monitoring_days(org: OrgGraph, risk: str, exponential: float) -> Days:
    """Days of watching until a subtle defect of ``risk`` shows in its owner's metrics.

    Detection is a Poisson process at ``MONITOR_RATE_PER_DAY * (0.5 + seniority)`` for an
    owner who looks at least daily, slower in proportion for one who looks less often;
    contamination shows only in evals, so it waits for the next checkpoint evaluation
    (every ``org.eval_interval_days``). Unowned defects are not watched (infinite).
    """
    owner = org.owner(risk)
    if owner is None:
        return math.inf
    team = org.teams[owner]
    looks = min(1.0, 1.0 / watch_interval_days(org, risk))
    days = exponential / (MONITOR_RATE_PER_DAY * (0.5 + team.seniority) * looks)
    if risk == "contamination":
        interval = org.org.eval_interval_days
        days = math.ceil(days / interval) * interval
    return days


# --- distance between training and infrastructure ---------------------------------------------


def round_trip_days(org: OrgGraph) -> Days:
    """Days for news to go from the training team to infrastructure and back."""
    infra = org.infra_team
    if infra is None:
        return math.inf
    return 2.0 * org.signal_latency(org.training_team, infra)


def tuned_share(run_days: Days, cycle_days: Days) -> float:
    """Average share of the start gap still open over ``run_days`` of fixes every ``cycle``.

    The gap is ``(1 - TUNING_STEP)^k`` after ``k`` fixes, the ``k``-th landing at ``k *
    cycle_days``; the share is its time average (1 with no fixes at all).
    """
    if run_days <= 0:
        return 1.0
    if not math.isfinite(cycle_days):
        return 1.0
    full = int(run_days // cycle_days)
    keep = 1.0 - TUNING_STEP
    area = cycle_days * (1.0 - keep**full) / (1.0 - keep)
    area += (run_days - full * cycle_days) * keep**full
    return area / run_days


def run_mfu(s: Scenario, org: OrgGraph, active_params: float, tokens: float, gpus: int) -> float:
    """The run's average MFU: ``cluster.mfu`` less the throughput gap not yet tuned away.

    The run starts ``MFU_START_GAP`` short of ``cluster.mfu``; each fix infrastructure makes
    after a profile from training closes half of what is left, one fix per ``TUNING_DAYS``
    plus the round trip of the news between them. Nobody owning hardware: no fixes.
    """
    c = s.cluster
    days = tokens / tokens_per_day(active_params, gpus, c.gpu, c.mfu)
    cycle = TUNING_DAYS + round_trip_days(org)
    return c.mfu * (1.0 - MFU_START_GAP * tuned_share(days, cycle))


def restart_minutes(s: Scenario, org: OrgGraph, automated: float) -> float:
    """Mean downtime of an interruption: the automated restart, plus the manual cases.

    ``automated``: the automated restart's minutes at the job's size (docs/model.md,
    "Operations at scale"). A share ``cluster.manual_restart_share`` of interruptions
    needs a person: it waits for the hardware owner to look (half its watch interval),
    takes ``MANUAL_FIX_MINUTES``, and waits for the news to reach the training team,
    which relaunches the job; without an owner the training team picks it up at its
    routine review and takes ``UNOWNED_FIX_MINUTES``.
    """
    infra = org.infra_team
    if infra is None:
        wait = REVIEW_INTERVAL_HOURS / HOURS_PER_DAY / 2.0
        fix = UNOWNED_FIX_MINUTES
    else:
        wait = watch_interval_days(org, "hardware") / 2.0
        wait += org.signal_latency(infra, org.training_team)
        fix = MANUAL_FIX_MINUTES
    share = s.cluster.manual_restart_share
    return restart_with_people(automated, share, wait * MINUTES_PER_DAY, fix)
