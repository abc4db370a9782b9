"""Model quality: scaling-law loss, capabilities, and the evals that measure them.

Equations and sources: docs/model.md, "Quality".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from sim.scenario.spec import Capability, Eval

# Chinchilla parametric fit (Hoffmann et al., 2022): L(N, D) = E + A / N^alpha + B / D^beta.
CHINCHILLA_E = 1.69
CHINCHILLA_A = 406.4
CHINCHILLA_B = 410.7
CHINCHILLA_ALPHA = 0.34
CHINCHILLA_BETA = 0.28


def chinchilla_loss(params: float, tokens: float) -> float:
    """Pretraining loss for ``params`` parameters trained on ``tokens`` (effective) tokens."""
    if params <= 0 or tokens <= 0:
        raise ValueError("params and tokens must be positive")
    return CHINCHILLA_E + CHINCHILLA_A / params**CHINCHILLA_ALPHA + data_loss(tokens)


def data_loss(tokens: float) -> float:
    """The scaling law's data term ``B / D^beta``: the loss a finite corpus leaves."""
    return CHINCHILLA_B / tokens**CHINCHILLA_BETA


# --- adapting a base model ----------------------------------------------------------------

#: ``Capability.general_text_transfer`` of a specialised domain: a general corpus's tokens
#: teach biomedical papers as well as 7% as many in-domain tokens would. Fitted to
#: BioMed-RoBERTa (Gururangan et al. 2020): 13.1B tokens of continued pretraining (12,500
#: steps of 2,048 sequences of 512) on 7.55B tokens of papers raised RoBERTa-base (2.1T
#: tokens seen) from 82.8 to 84.0 on five biomedical tasks, +1.2 points; through the data
#: term and a capability's default logistic (``loss_scale`` 0.08) that is this share
#: (``sim calibrate``; docs/model.md, "Capabilities").
SPECIALISED_TEXT_TRANSFER = 0.07


def domain_gaps(
    caps: list[Capability], base_tokens: float, adapted_tokens: float
) -> tuple[tuple[str, float], ...]:
    """Extra loss of an adapted base model on each capability's own text.

    The base model's loss counts its ``base_tokens`` and the ``adapted_tokens`` (effective)
    of its adaptation. On a capability whose text public corpora teach only in part
    (``general_text_transfer`` below 1), its own tokens count at that share and the
    adaptation's in full (continued pretraining on the domain): the difference of the two
    data terms. Nothing is added where the transfer is 1. A model pretrained on the
    project's own corpus has no gap: its corpus is the product's.
    """
    seen = base_tokens + adapted_tokens
    out = []
    for cap in caps:
        share = cap.general_text_transfer
        if share < 1.0:
            domain = max(1e6, share * base_tokens + adapted_tokens)
            out.append((cap.id, data_loss(domain) - data_loss(max(1e6, seen))))
    return tuple(out)


# --- effective tokens --------------------------------------------------------------------

#: Largest multiplier on effective tokens that extra data work can buy (quality filtering
#: studies such as FineWeb-Edu reach equal scores on several times fewer tokens).
DATA_INVESTMENT_GAIN = 0.6
#: Dollars of data work per billion tokens it improves that buy 63% of that gain. FineWeb:
#: about $0.5M of GPU compute (120,000 H100-hours) to filter, deduplicate and ablate its way
#: to 15T tokens, $33 per billion.
DATA_WORK_USD_PER_BILLION_TOKENS = 33.0


# --- the fine-tuning set of an adaptation --------------------------------------------------

#: Largest share that extra data work on an adaptation's fine-tuning set adds to each
#: capability's post-training gain (its ceiling, so each round is worth more). Assumption
#: anchored on LIMA (Zhou et al. 2023, section 5): 2,000 Stack Exchange examples filtered
#: for quality against 2,000 unfiltered, same 7B model and training, rated 3.83 against
#: 3.33 for helpfulness, +15%. AlpaGasus (Chen et al. 2023: 9k of Alpaca's 52k kept by a
#: model judge scored higher than all 52k) and Tulu 3's data-mix ablations point the same
#: way; none gives a larger single figure (docs/model.md, "The fine-tuning set").
FINETUNE_DATA_GAIN = 0.15
#: Dollars of data work per billion fine-tuning tokens that buy 63% of that gain.
#: Assumption anchored on judging every example with a strong model, as AlpaGasus did:
#: about 1.3M examples a billion tokens (Tulu 3's SFT mix: 939K samples, 0.7B tokens), at
#: about $0.01 an example read and scored (about $13K a billion), and as much again to
#: review, rewrite or replace what the judge flags. Instruction data is curated example by
#: example, so it costs far more a token than filtering a pretraining corpus ($33).
FINETUNE_DATA_WORK_USD_PER_BILLION_TOKENS = 20_000.0


def finetune_data_worth(investment_usd: float, tokens: float) -> float:
    """Multiplier on post-training gains from extra data work on a fine-tuning set.

    The same diminishing-returns shape as :func:`data_multiplier`: the work is spread over
    the ``tokens`` of the set, and each further dollar buys less than the one before.
    """
    return 1.0 + FINETUNE_DATA_GAIN * work_done(
        investment_usd, FINETUNE_DATA_WORK_USD_PER_BILLION_TOKENS, tokens
    )


#: Person-days of the data team's time that each $100K of extra data work needs: writing
#: and tuning filters and classifiers, running the passes, reading samples and checking
#: each filter with a small ablation (FineWeb and DCLM chose every filter that way).
#: Assumption anchored on FineWeb: about 1,000 person-days beside $0.5M of compute to
#: build its pipeline from scratch (200 per $100K); applying published filters takes
#: about a tenth of that. It makes data work cost people and calendar time, not only
#: dollars, so that it does not pay at every size (docs/model.md, "Quality").
DATA_WORK_PERSON_DAYS_PER_100K = 20.0


def data_work_person_days(investment_usd: float) -> float:
    """The data team's person-days that ``investment_usd`` of extra data work takes."""
    return DATA_WORK_PERSON_DAYS_PER_100K * max(0.0, investment_usd) / 100_000.0


def data_multiplier(base_quality: float, investment_usd: float, tokens: float) -> float:
    """Effective tokens per raw token, from the data's quality and extra data work.

    The work is spread over the ``tokens`` it must improve: the same dollars buy less at a
    larger scale, and each further dollar buys less than the one before.
    """
    return base_quality * (
        1.0
        + DATA_INVESTMENT_GAIN * work_done(investment_usd, DATA_WORK_USD_PER_BILLION_TOKENS, tokens)
    )


def work_done(investment_usd: float, usd_per_billion_tokens: float, tokens: float) -> float:
    """Share of the most data work can buy that ``investment_usd`` buys on ``tokens``.

    ``1 - exp(-investment / scale)``, the scale being ``usd_per_billion_tokens`` for every
    billion tokens the work must improve: each further dollar buys less than the one
    before, and the same dollars buy less on a larger set.
    """
    scale = max(1.0, usd_per_billion_tokens * tokens / 1e9)
    return 1.0 - math.exp(-max(0.0, investment_usd) / scale)


#: How much ablations see: ``1 - exp(-ablation_fraction / scale)`` of what they could, for
#: the defects an ablation gate catches and for the recipe they tune.
ABLATION_DETECTION_SCALE = 0.04


def ablation_detection(ablation_fraction: float) -> float:
    """Share of what ablations could see that a budget of ``ablation_fraction`` sees."""
    return 1.0 - math.exp(-ablation_fraction / ABLATION_DETECTION_SCALE)


#: Relative loss an untuned recipe gives up against a tuned one. Step Law (Li et al., 2025,
#: Table 1; 3,700 models trained from scratch): learning rate and batch size taken from an
#: older published law (Kaplan et al.'s) land 9.51 per mille above the best loss found by
#: exhaustive search, their own law fitted on small runs 0.94 per mille.
UNTUNED_RECIPE_EXCESS = 0.0095


def recipe_excess(effective_ablation_fraction: float) -> float:
    """Relative loss above a tuned recipe's: the share of tuning the ablations did not do.

    Ablations are the small runs that tune the recipe (learning rate, batch size, the data
    mix); a run without them trains on the recipe as written. 10% of the run's compute in
    ablations leaves 0.08% (Step Law's own fit: 0.094%).
    """
    return UNTUNED_RECIPE_EXCESS * (1.0 - ablation_detection(effective_ablation_fraction))


def loss_sigma(novelty: float, ablation_fraction: float) -> float:
    """Spread of the true loss around the scaling-law forecast.

    Novel recipes forecast worse; ablations and scaling-law fits narrow the error
    (docs/model.md, "Quality uncertainty").
    """
    return LOSS_SIGMA_BASE * (1.0 + 3.0 * novelty) / math.sqrt(1.0 + ablation_fraction / 0.02)


LOSS_SIGMA_BASE = 0.02


# --- capabilities ----------------------------------------------------------------------

#: Rounds for post-training gains to reach 63% of their ceiling.
POST_TRAINING_TAU_ROUNDS = 2.0
#: Rounds past which reward over-optimisation starts to bite (Llama 3 ran 6 rounds).
OPTIMAL_ROUNDS = 6
OVEROPTIMISATION = 0.01
#: Share of post-training gains that reach the product when product evals come late.
PRODUCT_TRANSFER_LATE = 0.6
#: Share of post-training effort on the focused capability with ``eval_focus: single`` (the
#: rest is split evenly over the others); balanced effort gives each an equal share.
FOCUS_SHARE = 0.6
#: Points a public benchmark gains, beyond what its capability gains, per round of effort aimed
#: at it above a balanced share: tuning to its items over-fits them. Sized with contamination
#: to GSM1k, where over-fitted models lost up to 8-13 points on re-written items.
BENCHMARK_OVERFIT_PER_ROUND = 0.02
#: The data team's person-days to decontaminate against one public benchmark: build its
#: n-gram index, scan the corpus, review the flagged overlaps and write the exclusions
#: (assumption: GPT-3's 13-gram and Llama 2's 8-gram overlap analyses are days of an
#: engineer's work per benchmark, not weeks).
DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK = 3.0
#: CPU cost of the overlap scan per trillion training tokens (assumption: hashing n-grams at
#: about a million tokens a core-second, 280 core-hours a trillion, at $0.05 a core-hour).
OVERLAP_SCAN_USD_PER_TRILLION = 14.0
#: Benchmark items leaked by an undetected contamination defect.
CONTAMINATION_DEFECT_SHARE = 0.3


def effective_rounds(rounds: float, caps: int, focus: str | None, capability: str) -> float:
    """Rounds' worth of post-training effort a capability gets, given how effort is shared."""
    if focus is None or caps <= 1:
        return rounds
    share = FOCUS_SHARE if capability == focus else (1.0 - FOCUS_SHARE) / (caps - 1)
    return rounds * caps * share


def post_training_gain(rounds: float) -> float:
    """Share of a capability's post-training ceiling reached after ``rounds``."""
    gain = 1.0 - math.exp(-rounds / POST_TRAINING_TAU_ROUNDS)
    return gain - OVEROPTIMISATION * max(0.0, rounds - OPTIMAL_ROUNDS) ** 2


def base_score(cap: Capability, loss: float) -> float:
    """Score of the pretrained model: a logistic curve in loss around the capability's midpoint."""
    return 1.0 / (1.0 + math.exp((loss - cap.loss_midpoint) / cap.loss_scale))


def gain_ceiling(cap: Capability, worth: float = 1.0) -> float:
    """Share of the headroom post-training can close on ``cap``, with its data's ``worth``."""
    return min(1.0, cap.post_training_gain * worth)


def best_scores(
    caps: list[Capability], loss: float, gaps: dict[str, float], worth: float = 1.0
) -> dict[str, float]:
    """The best score a model of ``loss`` reaches on each capability, at any number of rounds.

    ``gaps``: an adapted base model's :func:`domain_gaps`; ``worth``: its fine-tuning
    set's (:func:`finetune_data_worth`). Post-training is balanced and aimed with the
    product's evals (full transfer). For an adapted base model this is its ceiling, set by
    the base model's size and tokens and by its data, not by a cap of its own.
    """
    out = {}
    for cap in caps:
        base = base_score(cap, loss + gaps.get(cap.id, 0.0))
        best = max(post_training_gain(float(r)) for r in range(0, 21))
        out[cap.id] = min(1.0, base + (1.0 - base) * gain_ceiling(cap, worth) * best)
    return out


@dataclass(frozen=True)
class QualityState:
    """What determines quality at a moment of a play."""

    loss: float
    rounds: float
    product_transfer: float
    focus_capability: str | None
    decontaminate: bool
    contamination_defect: bool
    capabilities: int = 0
    """How many capabilities share the post-training effort (0: all those measured)."""
    domain_gaps: tuple[tuple[str, float], ...] = ()
    """Extra loss on a capability's own text of an adapted base model (:func:`domain_gaps`)."""
    steered: tuple[tuple[str, float], ...] = ()
    """Share of each capability's post-training gain that is real, by the evals that steered
    its rounds (sim/engine/steering.py; absent: 1)."""
    post_training_worth: float = 1.0
    """Multiplier on post-training gains from the data the rounds train on: an adaptation's
    fine-tuning set after extra data work (:func:`finetune_data_worth`); 1 otherwise."""


def true_scores(
    caps: list[Capability], q: QualityState, in_product: bool = True
) -> dict[str, float]:
    """The capability the model really has, in the product's use or on general tasks.

    Post-training steered without product evals reaches the product only in part
    (``product_transfer``); on general tasks its gains count in full.
    """
    transfer = q.product_transfer if in_product else 1.0
    n = q.capabilities or len(caps)
    gaps = dict(q.domain_gaps)
    steered = dict(q.steered)
    out: dict[str, float] = {}
    for cap in caps:
        base = base_score(cap, q.loss + gaps.get(cap.id, 0.0))
        rounds = effective_rounds(q.rounds, n, q.focus_capability, cap.id)
        gain = gain_ceiling(cap, q.post_training_worth) * post_training_gain(rounds) * transfer
        gain *= steered.get(cap.id, 1.0)
        score = base + (1.0 - base) * gain
        out[cap.id] = min(1.0, max(0.0, score))
    return out


@dataclass(frozen=True)
class EvalResult:
    eval: str
    kind: str
    capability: str
    score: float
    true_score: float
    #: What the product shows on the same task after release: the score on items the model
    #: never saw (no leaked items, no benchmark overfitting), with the set's sampling error.
    #: Decisions read ``score``; whether a target was really met is judged on this.
    released: float


def measure(
    caps: list[Capability],
    evals: list[Eval],
    q: QualityState,
    set_errors: dict[str, float] | None,
    items_share: float = 1.0,
) -> dict[str, EvalResult]:
    """Measured scores: public benchmarks inflated by contamination and focus.

    An eval set of ``items`` questions misstates the expected score by a sampling
    error of sd sqrt(p(1-p)/items). The error belongs to the set, not to one run:
    ``set_errors`` holds one standard normal per eval, drawn once per play, so
    measuring again does not re-roll it. ``None`` means no sampling error.
    ``items_share`` is the share of each set's items run (a smaller eval scope).
    """
    product, general = true_scores(caps, q), true_scores(caps, q, in_product=False)
    out: dict[str, EvalResult] = {}
    for ev in evals:
        truth = product if ev.kind == "product_eval" else general
        expected = truth[ev.capability]
        if ev.kind == "public_benchmark":
            expected += leaked_share(ev, q.decontaminate, q.contamination_defect) * (
                ev.contamination_gain
            )
            if ev.capability == q.focus_capability:
                n = q.capabilities or len(caps)
                aimed = effective_rounds(q.rounds, n, q.focus_capability, ev.capability)
                expected += BENCHMARK_OVERFIT_PER_ROUND * max(0.0, aimed - q.rounds)
        score = _sampled(expected, ev.items * items_share, set_errors, ev.id)
        fresh = _sampled(truth[ev.capability], ev.items * items_share, set_errors, ev.id)
        out[ev.id] = EvalResult(ev.id, ev.kind, ev.capability, score, truth[ev.capability], fresh)
    return out


def leaked_share(ev: Eval, decontaminate: bool, contamination_defect: bool) -> float:
    """Share of a public benchmark's items the model saw in training."""
    leaked = 0.0 if decontaminate else ev.contamination
    if contamination_defect:
        leaked = min(1.0, leaked + CONTAMINATION_DEFECT_SHARE)
    return leaked


def _sampled(expected: float, items: float, set_errors: dict[str, float] | None, key: str) -> float:
    """``expected`` as an eval set of ``items`` questions measures it (its set's own error)."""
    p = min(1.0, max(0.0, expected))
    if set_errors is not None:
        p += set_errors[key] * math.sqrt(p * (1.0 - p) / max(1.0, items))
    return min(1.0, max(0.0, p))
