"""Compute, wall time and cost of a training run.

Training FLOPs are ``6 * N * D`` (active parameters for a mixture of experts);
ideal wall time follows from GPU count, dense BF16 peak and MFU; expected wall
time divides that by the effective training time of :mod:`sim.engine.reliability`.
Equations and sources: docs/model.md, "Compute and cost".
"""

from __future__ import annotations

import math
import numbers
from dataclasses import asdict, dataclass, replace
from typing import Any

from sim.engine.quality import (
    best_scores,
    chinchilla_loss,
    data_multiplier,
    domain_gaps,
    finetune_data_worth,
)
from sim.engine.reliability import ReliabilitySpec, analytic_effective_training_time, operations
from sim.scenario.spec import PostTrainingRecipe, Scenario
from sim.units import HOURS_PER_DAY, SECONDS_PER_DAY, Days, Flops, Hours, Usd

#: Training FLOPs per active parameter per token (forward and backward pass).
FLOPS_PER_PARAM_TOKEN = 6.0
#: A forward pass alone (generation, a reference model's log-probabilities).
FORWARD_FLOPS_PER_PARAM_TOKEN = 2.0
#: Post-training's throughput as a share of pretraining's MFU: short, ragged sequences,
#: small batches and frequent evaluation (docs/model.md, "Post-training compute").
POST_TRAINING_MFU_SHARE = 0.6


@dataclass(frozen=True)
class GpuModel:
    """One accelerator: dense BF16 peak, memory and a default rental price."""

    name: str
    peak_tflops: float
    memory_gb: float
    usd_per_gpu_hour: Usd
    source: str


_CLOUD_2026 = "price: 2026 cloud list prices"
GPUS: dict[str, GpuModel] = {
    g.name: g
    for g in (
        GpuModel("a100", 312.0, 80.0, 2.0, f"NVIDIA A100 SXM datasheet, dense BF16; {_CLOUD_2026}"),
        GpuModel("h100", 989.0, 80.0, 2.5, f"NVIDIA H100 SXM datasheet, dense BF16; {_CLOUD_2026}"),
        GpuModel(
            "h800",
            989.0,
            80.0,
            2.0,
            "H100 SXM compute, export interconnect; price: DeepSeek-V3 report ($2/GPU-hour)",
        ),
        GpuModel("h200", 989.0, 141.0, 3.5, "NVIDIA H200 datasheet, dense BF16 (H100 compute)"),
        GpuModel("b200", 2250.0, 192.0, 5.0, "NVIDIA HGX B200 datasheet, dense BF16"),
    )
}


@dataclass(frozen=True)
class ComputeEstimate:
    """What a run costs: ideal (no interruptions) and expected (with them)."""

    flops: Flops
    ideal_days: Days
    expected_days: Days
    ideal_gpu_hours: Hours
    expected_gpu_hours: Hours
    cost_usd: Usd
    effective_training_time: float
    predicted_loss: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def gpu_model(gpu: str) -> GpuModel:
    """The catalogue entry for ``gpu``; ``ValueError`` naming the known ones otherwise."""
    try:
        return GPUS[gpu]
    except KeyError:
        raise ValueError(f"unknown GPU {gpu!r}; one of {', '.join(GPUS)}") from None


def training_flops(active_params: float, tokens: float) -> Flops:
    """Training compute, ``6 * N * D``."""
    _positive("active_params", active_params)
    _positive("tokens", tokens)
    return FLOPS_PER_PARAM_TOKEN * active_params * tokens


def tokens_per_day(active_params: float, gpus: int, gpu: str = "h100", mfu: float = 0.4) -> float:
    """Tokens a cluster trains per day without interruptions."""
    _check_cluster(gpus, mfu)
    flops_per_day = gpus * gpu_model(gpu).peak_tflops * 1e12 * mfu * SECONDS_PER_DAY
    return flops_per_day / training_flops(active_params, 1.0)


def estimate(
    params: float,
    tokens: float,
    gpus: int,
    *,
    active_params: float | None = None,
    gpu: str = "h100",
    mfu: float = 0.4,
    usd_per_gpu_hour: Usd | None = None,
    failure_rate: float = 3.8,
    planned_per_day: float = 0.87,
    checkpoint_minutes: float = 15.0,
    checkpoint_write_minutes: float = 0.5,
    restart_minutes: float = 4.0,
    gpus_per_node: int = 8,
) -> ComputeEstimate:
    """Estimate a run of ``params`` parameters on ``tokens`` tokens (raw counts).

    ``predicted_loss`` is the Chinchilla loss of the active parameters: the fit
    is for dense models, so for a mixture of experts this is a cautious reading.
    """
    _positive("params", params)
    _positive("tokens", tokens)
    # Checked before the run's facts are built (the compiled engine's classes take
    # Python ints only, and would answer 8.5 GPUs with a bare TypeError).
    _check_cluster(gpus, mfu)
    _check_whole("gpus_per_node", gpus_per_node)
    gpus, gpus_per_node = int(gpus), int(gpus_per_node)
    active = params if active_params is None else active_params
    _positive("active_params", active)
    if active > params:
        raise ValueError(f"active_params ({active:g}) exceed params ({params:g})")
    price = _price(gpu, usd_per_gpu_hour)
    reliability = ReliabilitySpec(
        gpus=gpus,
        gpus_per_node=gpus_per_node,
        failure_rate=failure_rate,
        planned_per_day=planned_per_day,
        checkpoint_minutes=checkpoint_minutes,
        checkpoint_write_minutes=checkpoint_write_minutes,
        restart_minutes=restart_minutes,
    )
    ideal_days = tokens / tokens_per_day(active, gpus, gpu, mfu)
    effective = analytic_effective_training_time(reliability)
    expected_gpu_hours = ideal_days / effective * HOURS_PER_DAY * gpus
    return ComputeEstimate(
        flops=training_flops(active, tokens),
        ideal_days=ideal_days,
        expected_days=ideal_days / effective,
        ideal_gpu_hours=ideal_days * HOURS_PER_DAY * gpus,
        expected_gpu_hours=expected_gpu_hours,
        cost_usd=expected_gpu_hours * price,
        effective_training_time=effective,
        predicted_loss=chinchilla_loss(active, tokens),
    )


def estimate_for_scenario(scenario: Scenario) -> ComputeEstimate:
    """Estimate the scenario's main training run.

    ``pretrain`` trains the model on ``model.tokens_b``; ``adapt`` trains the
    base model on ``model.adapt_tokens_b``, and its predicted loss counts the
    base model's own tokens too. Tokens are raw (before data quality).
    """
    model, cluster = scenario.model, scenario.cluster
    if scenario.levers.strategy == "adapt":
        if model.base_model is None:
            raise ValueError("strategy 'adapt' needs model.base_model")
        params = active = model.base_model.params_b * 1e9
        tokens = model.adapt_tokens_b * 1e9
    else:
        params, active, tokens = model.params_b * 1e9, model.active_b * 1e9, model.tokens_b * 1e9
    ops = operations(cluster, params, cluster.gpus)
    result = estimate(
        params,
        tokens,
        cluster.gpus,
        active_params=active,
        gpu=cluster.gpu,
        mfu=cluster.mfu,
        usd_per_gpu_hour=cluster.usd_per_gpu_hour,
        failure_rate=cluster.failure_rate,
        planned_per_day=ops.planned_per_day,
        checkpoint_minutes=scenario.levers.checkpoint_minutes,
        checkpoint_write_minutes=ops.checkpoint_write_minutes,
        restart_minutes=ops.restart_minutes,
        gpus_per_node=cluster.gpus_per_node,
    )
    if model.base_model is not None and scenario.levers.strategy == "adapt":
        seen_tokens = tokens + model.base_model.tokens_b * 1e9
        result = replace(result, predicted_loss=chinchilla_loss(active, seen_tokens))
    return result


def post_training_round_flops(active_params: float, recipe: PostTrainingRecipe) -> Flops:
    """Compute of one post-training round: SFT, preference tuning and RL with rollouts.

    Every trained token costs ``6 N``; preference tuning adds a reference model's forward
    pass (``2 N``) per token; RL first generates its rollouts (``2 N`` a token, at
    ``rollout_efficiency`` of training's throughput), then trains on them.
    """
    b = 1e9
    trained = (recipe.sft_tokens_b + recipe.preference_tokens_b + recipe.rl_rollout_tokens_b) * b
    reference = recipe.preference_tokens_b * b
    generated = recipe.rl_rollout_tokens_b * b / recipe.rollout_efficiency
    flops_per_param = FLOPS_PER_PARAM_TOKEN * trained + FORWARD_FLOPS_PER_PARAM_TOKEN * (
        reference + generated
    )
    return active_params * flops_per_param


def post_training_round_gpu_hours(
    active_params: float, recipe: PostTrainingRecipe, gpu: str, mfu: float
) -> Hours:
    """GPU-hours of one round at ``POST_TRAINING_MFU_SHARE`` of the cluster's MFU."""
    per_gpu = gpu_model(gpu).peak_tflops * 1e12 * mfu * POST_TRAINING_MFU_SHARE
    return post_training_round_flops(active_params, recipe) / per_gpu / 3_600.0


def adapting(s: Scenario) -> bool:
    """Whether the scenario adapts a base model rather than pretraining its own."""
    return s.levers.strategy == "adapt" and s.model.base_model is not None


def adapted_ceilings(s: Scenario) -> dict[str, float]:
    """The best score adapting ``s``'s base model reaches on each capability, at any rounds.

    The base model's size and tokens plus the planned adaptation tokens give its loss, its
    capabilities' domain gaps give the rest (docs/model.md, "Capabilities"). Empty when
    the scenario has no base model.
    """
    base = s.model.base_model
    if base is None:
        return {}
    tokens = s.model.adapt_tokens_b * 1e9
    dm = data_multiplier(s.model.data_quality, s.levers.data_investment_usd, tokens)
    loss = chinchilla_loss(base.params_b * 1e9, base.tokens_b * 1e9 + tokens * dm)
    caps = s.objective.capabilities
    gaps = dict(domain_gaps(caps, base.tokens_b * 1e9, tokens * dm))
    return best_scores(caps, loss, gaps, finetune_data_worth(s.levers.data_investment_usd, tokens))


def planned_run(s: Scenario) -> tuple[float, float]:
    """(active parameters, tokens) of the run the scenario plans, before budget fitting."""
    lev = s.levers
    base = s.model.base_model
    if adapting(s) and base is not None:
        return base.params_b * 1e9, s.model.adapt_tokens_b * 1e9 / lev.parallel_variants
    return s.model.active_b * 1e9, s.model.tokens_b * 1e9 / lev.parallel_variants


def total_params(s: Scenario) -> float:
    """Parameters the run trains and checkpoints (all of a mixture of experts')."""
    base = s.model.base_model
    if adapting(s) and base is not None:
        return base.params_b * 1e9
    return s.model.params_b * 1e9


def round_compute_usd(s: Scenario, active_params: float) -> Usd:
    """On-demand price of one post-training round's GPU-hours on the scenario's cluster."""
    c = s.cluster
    hours = post_training_round_gpu_hours(active_params, s.model.post_training, c.gpu, c.mfu)
    return hours * _price(c.gpu, c.usd_per_gpu_hour)


def planned_compute_usd(scenario: Scenario) -> Usd:
    """A plan's compute bill: the main run, its ablations and its post-training rounds.

    Ablations cost ``ablation_fraction`` of the compute they de-risk (the run and the
    post-training rounds); each round its own GPU-hours (docs/model.md, "Plan sizing").
    """
    run = estimate_for_scenario(scenario)
    active, _ = planned_run(scenario)
    rounds = scenario.model.post_training_rounds * round_compute_usd(scenario, active)
    return (run.cost_usd + rounds) * (1.0 + scenario.levers.ablation_fraction)


def _price(gpu: str, usd_per_gpu_hour: Usd | None) -> Usd:
    if usd_per_gpu_hour is None:
        return gpu_model(gpu).usd_per_gpu_hour
    _positive("usd_per_gpu_hour", usd_per_gpu_hour)
    return usd_per_gpu_hour


def _check_cluster(gpus: int, mfu: float) -> None:
    _check_whole("gpus", gpus)
    if not (math.isfinite(mfu) and 0 < mfu <= 1):
        raise ValueError(f"mfu must be in (0, 1], got {mfu}")


def _check_whole(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")


def _positive(name: str, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive number, got {value}")
