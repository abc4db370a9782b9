"""The live plan of a play: the run's size, the rounds, the rates, and what was cut to fit.

A :class:`Plan` starts as the scenario plans it; the budget plan (:mod:`sim.engine.budget`)
fits it to the budget and prices scope options by changing it and putting it back
(:meth:`Plan.state`, :meth:`Plan.restore`), and decisions change it as the play goes. The
scope a cut can change is a :class:`~sim.engine.records.PlanState`, the frozen copy kept
for the outcome and for later replications; the live plan adds what the play has done
(rounds done, extra rounds) and the rates that follow from the plan. docs/model.md,
"Budget as a plan".
"""

from __future__ import annotations

from sim.engine.compute import (
    adapting,
    planned_run,
    post_training_round_gpu_hours,
    round_compute_usd,
)
from sim.engine.facts import ScenarioFacts
from sim.engine.quality import PRODUCT_TRANSFER_LATE, data_multiplier, finetune_data_worth
from sim.engine.records import PlanState, ScopeCut
from sim.engine.training import RunFacts
from sim.scenario.spec import Scenario
from sim.units import HOURS_PER_DAY, Days, Usd

#: Post-training jobs run on this share of the cluster (assumption, docs/model.md).
POST_TRAINING_CLUSTER_SHARE = 0.25
#: Less of a round than this is no round (a plan's rounds are real numbers: a last round of
#: 0.4 is 0.4 of a round's work, compute and annotation).
ROUND_EPS = 1e-6


class Plan:
    """What the play means to do, changed by decisions and scope cuts."""

    __slots__ = (
        "_facts",
        "ablations",
        "data_multiplier",
        "eval_scope",
        "extra_rounds",
        "gap_decided",
        "gpus",
        "hires",
        "params",
        "post_training_worth",
        "product_transfer",
        "reserve_left",
        "round_compute_usd",
        "round_gpu_hours",
        "rounds",
        "rounds_done",
        "rounds_spoiled",
        "rounds_to_redo",
        "run_facts",
        "scope_cuts",
        "set_up",
        "steered",
        "tokens",
        "tokens_cap",
        "tokens_scenario",
        "usd_per_token",
    )

    def __init__(self, s: Scenario, facts: ScenarioFacts, reserve_usd: Usd) -> None:
        lev = s.levers
        self._facts = facts
        #: The run's active parameters and its token target (the running run's too).
        self.params, self.tokens = planned_run(s)
        #: What the scenario planned, before any scope cut.
        self.tokens_scenario = self.tokens
        #: Effective tokens are never above a clean run's of the same plan (late fixes).
        self.tokens_cap: float | None = None
        self.rounds: float = float(s.model.post_training_rounds)
        #: Rounds done, a last shorter round as its share (a plan of 3.4 rounds ends with a
        #: round of 0.4 of the work, compute and annotation: docs/model.md, "Budget as a plan").
        self.rounds_done = 0.0
        #: Per capability, the mean over the rounds done of the share of their gain that is
        #: real, by the evals that steered each as it ran (sim/engine/steering.py).
        self.steered: dict[str, float] = {}
        #: The part of the rounds done that defects in their data set spoiled (a round
        #: trained on a defect counts as ``1 - penalty`` of a round): see
        #: :attr:`rounds_data_quality`.
        self.rounds_spoiled = 0.0
        self.extra_rounds = 0
        #: Post-training rounds whose gains an objective change spoiled, still to run again
        #: (sim/engine/objectives.py).
        self.rounds_to_redo = 0.0
        #: Share of the run's compute spent on ablations.
        self.ablations = lev.ablation_fraction
        #: Share of the evaluation workstreams' effort and of the evals' items kept.
        self.eval_scope = 1.0
        #: GPUs the plan holds (a smaller cluster for longer is a scope option).
        self.gpus = s.cluster.gpus
        #: People still to join the core through ``levers.add_core_staff``.
        self.hires = lev.add_core_staff
        self.product_transfer = 1.0 if lev.product_evals_early else PRODUCT_TRANSFER_LATE
        #: The budget's reserve still held.
        self.reserve_left = reserve_usd
        #: The budget gap the last budget episode left, in dollars: 0 once it closed the
        #: gap, the overrun it accepted otherwise. A later look opens a new episode only
        #: when the gap has grown past it (docs/model.md, "Budget responses and the budget
        #: watch").
        self.gap_decided = 0.0
        #: Every scope cut made to fit the budget, priced (docs/model.md, "Budget as a plan").
        self.scope_cuts: list[ScopeCut] = []
        #: The plan once fitted to the budget at set-up (what the outcome calls planned).
        self.set_up: PlanState | None = None
        #: The planned run's rates, before it starts (they size the plan and feed forecasts).
        self.run_facts: RunFacts = facts.run(self.params)
        self.usd_per_token = self.run_facts.usd_per_day / self.run_facts.rate
        #: GPU-hours and on-demand price of one post-training round.
        self.round_gpu_hours = post_training_round_gpu_hours(
            self.params, s.model.post_training, s.cluster.gpu, s.cluster.mfu
        )
        self.round_compute_usd = round_compute_usd(s, self.params)
        self.data_multiplier = data_multiplier(
            s.model.data_quality, lev.data_investment_usd, self.tokens
        )
        #: What the rounds' data set makes each round worth. An adaptation's rounds train on
        #: the data team's fine-tuning set, which extra data work improves; a pretraining
        #: project's rounds train on the post-training team's own set, and its extra data
        #: work goes to the corpus (docs/model.md, "The fine-tuning set").
        self.post_training_worth = (
            finetune_data_worth(lev.data_investment_usd, self.tokens) if adapting(s) else 1.0
        )

    # --- the scope a cut changes --------------------------------------------------------------

    def state(self) -> PlanState:
        """The scope a cut changes, as it is now (a frozen copy)."""
        return PlanState(
            self.tokens, self.rounds, self.ablations, self.eval_scope, self.gpus, self.hires
        )

    def restore(self, state: PlanState) -> None:
        """Put back the scope of ``state``, all but the tokens (:meth:`Project.plan_tokens`)."""
        self.rounds = float(state.rounds)
        self.ablations = state.ablations
        self.eval_scope = state.eval_scope
        if self.gpus != state.gpus:
            self.set_cluster(state.gpus)
        self.hires = state.hires

    def fitted(self, state: PlanState, cuts: tuple[ScopeCut, ...]) -> None:
        """The plan as fitted to the budget at set-up, and the cuts that fitted it."""
        self.scope_cuts.extend(cuts)
        self.set_up = state

    def take_cuts_since(self, count: int) -> tuple[ScopeCut, ...]:
        """Remove the scope cuts made after the first ``count``; return them."""
        cuts = tuple(self.scope_cuts[count:])
        del self.scope_cuts[count:]
        return cuts

    def set_rounds(self, rounds: float) -> None:
        self.rounds = float(rounds)

    def set_ablations(self, fraction: float) -> None:
        self.ablations = fraction

    def set_eval_scope(self, share: float) -> None:
        self.eval_scope = share

    def set_hires(self, people: int) -> None:
        self.hires = people

    def set_cluster(self, gpus: int) -> None:
        """Hold ``gpus`` GPUs for the run (before it starts): its rates follow."""
        self.gpus = gpus
        self.run_facts = self._facts.run(self.params, gpus)
        self.usd_per_token = self.run_facts.usd_per_day / self.run_facts.rate

    def cap_tokens(self, tokens: float) -> None:
        """From now on the model can be no better than a clean run of ``tokens``.

        ``tokens`` counts what the recipe changes so far already cost (the clean run's own
        effective tokens, before data quality).
        """
        self.tokens_cap = tokens

    def use_reserve(self, usd: Usd) -> None:
        self.reserve_left = max(0.0, self.reserve_left - usd)

    def decide_gap(self, usd: Usd) -> None:
        """A budget episode ended leaving a gap of ``usd`` (0: closed; else accepted)."""
        self.gap_decided = usd

    # --- post-training rounds -------------------------------------------------------------------

    def round_share(self) -> float:
        """The size of the next planned round: 1, or the share left of a shorter last round."""
        return max(0.0, min(1.0, self.rounds - self.rounds_done))

    def round_index(self) -> int:
        """The number of the next round, extra rounds included (names its draw and its work)."""
        return int(self.rounds_done) + self.extra_rounds

    def add_round_done(self, share: float, steered: dict[str, float], spoiled: float = 0.0) -> None:
        """A round (or ``share`` of one) done, as ``steered`` and ``spoiled`` say.

        ``steered``: the share of its gain that is real on each capability (absent: 1);
        ``spoiled``: the part of it lost to defects in its data.
        """
        done = self.rounds_done
        if share > 0.0:
            total = done + share
            self.steered = {
                c: (self.steered.get(c, 1.0) * done + steered.get(c, 1.0) * share) / total
                for c in self.steered.keys() | steered.keys()
            }
        self.rounds_done = done + share
        self.rounds_spoiled += spoiled

    @property
    def rounds_data_quality(self) -> float:
        """Share of the post-training gain the rounds' data left: 1 - spoiled / done.

        Each round counts as ``1 - penalty * share`` of a round; the gain is scaled by the
        rounds' mean, not cut by rounds, so more rounds on the same flawed data do not
        train its flaws away, while clean rounds after a fix dilute them
        (docs/model.md, "The fine-tuning set").
        """
        if self.rounds_done <= 0:
            return 1.0
        return max(0.0, 1.0 - self.rounds_spoiled / self.rounds_done)

    def redo_rounds(self) -> None:
        """A retrain from scratch: post-training starts over."""
        self.rounds_done = 0.0
        self.steered = {}
        self.rounds_spoiled = 0.0

    def lose_rounds(self, rounds: float, redo: bool, transfer: float | None = None) -> None:
        """``rounds`` of post-training no longer count for the objective; ``redo``: run them again.

        Kept instead, the plan gives them up, and post-training is steered from now on with
        a product ``transfer`` (evals built for the old objective).
        """
        kept = max(0.0, self.rounds_done - rounds)
        # The rounds lost take their share of the spoiled part with them.
        self.rounds_spoiled *= kept / self.rounds_done if self.rounds_done > 0 else 0.0
        self.rounds_done = kept
        if redo:
            self.rounds_to_redo += rounds
        else:
            self.rounds = max(self.rounds_done, self.rounds - rounds)
        if transfer is not None:
            self.product_transfer = transfer

    def take_rounds_to_redo(self) -> float:
        """Rounds still to run again after an objective change (at most what the plan lacks)."""
        owed = min(self.rounds_to_redo, self.rounds - self.rounds_done)
        self.rounds_to_redo = 0.0
        return owed

    def add_extra_round(self) -> None:
        self.extra_rounds += 1

    def post_training_data_fixed(self) -> None:
        """Post-training data fixed for the product: product evals gain in full."""
        self.product_transfer = 1.0

    def round_compute_days(self) -> Days:
        """Days one round's GPU-hours take on the post-training share of the cluster."""
        gpus = max(1.0, POST_TRAINING_CLUSTER_SHARE * self.gpus)
        return self.round_gpu_hours / gpus / HOURS_PER_DAY
