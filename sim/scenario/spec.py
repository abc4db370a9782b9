"""The scenario: one typed, immutable description of a training project.

A YAML file in ``scenarios/`` becomes a :class:`Scenario` through
:mod:`sim.scenario.loading`; the engine only ever reads this object. Field meanings,
units and defaults are documented in docs/scenarios.md and docs/model.md.
"""

from __future__ import annotations

import graphlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from sim.scenario.counts import MAX_PARAMETERS, MAX_TOKENS
from sim.scenario.problems import suggestion

GpuType = Literal["a100", "h100", "h800", "h200", "b200"]
Strategy = Literal["pretrain", "adapt"]
EvalKind = Literal["public_benchmark", "product_eval"]
LinkKind = Literal["handoff", "communication", "reporting"]
LINK_KINDS: tuple[str, ...] = LinkKind.__args__  # type: ignore[attr-defined]
#: The phases of a project, in the order they run (the one list; docs/model.md, "The phases").
Phase = Literal["prepare", "ablations", "training", "post_training", "evaluation", "release"]
PHASES: tuple[str, ...] = Phase.__args__  # type: ignore[attr-defined]

#: Risks a project carries. Each needs an owner (a team) or an explicit ``null``.
RiskKind = Literal[
    "data_quality",
    "contamination",
    "licensing",
    "tokenizer_config",
    "loss_spike",
    "hardware",
    "eval_gap",
    "safety",
    "budget",
    "staffing",
]
RISK_KINDS: tuple[str, ...] = RiskKind.__args__  # type: ignore[attr-defined]

#: Kinds of decision; ``org.decision_rights`` names the team holding each.
DecisionKind = Literal["rollback", "data_fix", "budget", "ship", "schedule"]
DECISION_KINDS: tuple[str, ...] = DecisionKind.__args__  # type: ignore[attr-defined]

#: The options each decision kind offers (see sim.engine.decisions for their effects).
DECISION_OPTIONS: dict[str, tuple[str, ...]] = {
    "rollback": ("rollback_skip", "continue", "pause_investigate", "overreact"),
    "data_fix": ("fix_and_continue", "fix_and_restart", "accept"),
    "budget": (
        "use_reserve",
        "cut_ablations",
        "reduce_tokens",
        "fewer_post_training_rounds",
        "smaller_eval_scope",
        "fewer_hires",
        "smaller_cluster",
        "accept_overrun",
    ),
    "ship": ("extra_round", "fix_data_and_retune", "ship"),
    # The trade-off right (scope, time and quality): a forecast slip, and the response to an
    # objective change (redo the work done against the old objective, or keep it).
    "schedule": (
        "cut_post_training_rounds",
        "add_core_staff",
        "accept_slip",
        "rework",
        "keep_work",
    ),
}

WorkstreamRole = Literal[
    "general", "recipe", "data", "product_evals", "evals", "integration", "safety_review"
]
#: How much co-design each role's work needs by default, in [0, 1]: the share of the full
#: pairwise coordination cost (docs/model.md, "Teams") its people pay. The recipe (architecture,
#: data mix, training and post-training recipe) needs all of it; data acquisition, eval creation
#: and integrations split into pieces that barely talk to each other (seeds/003).
ROLE_CO_DESIGN: dict[str, float] = {
    "recipe": 1.0,
    "general": 0.5,
    "safety_review": 0.3,
    "evals": 0.05,
    "integration": 0.05,
    "product_evals": 0.03,
    "data": 0.02,
}
#: Work needing at least this much co-design makes its team part of the core (recipe work).
CO_DESIGN_CORE = 0.75

DefectKind = Literal["data_quality", "contamination", "licensing", "tokenizer_config"]
DEFECT_KINDS: tuple[str, ...] = DefectKind.__args__  # type: ignore[attr-defined]

Fraction = Annotated[float, Field(ge=0.0, le=1.0)]
Positive = Annotated[float, Field(gt=0.0)]
NonNegative = Annotated[float, Field(ge=0.0)]
#: A model's size and its training tokens, in billions, up to what any run has (100T
#: parameters, 10,000T tokens): a count written whole (7e9 for 7B) is refused, not run.
BillionParameters = Annotated[float, Field(gt=0.0, le=MAX_PARAMETERS / 1e9)]
BillionTokens = Annotated[float, Field(gt=0.0, le=MAX_TOKENS / 1e9)]
Identifier = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9_\-]*$")]


class Spec(BaseModel):
    """Base for every scenario part: unknown keys are errors and values are frozen."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, strict=True, allow_inf_nan=False
    )


# --- objective ---------------------------------------------------------------------------


class Budget(Spec):
    """Budget by category, in US dollars. The reserve is a share of the total."""

    compute_usd: NonNegative
    people_usd: NonNegative
    data_licensing_usd: NonNegative = 0.0
    annotation_usd: NonNegative = 0.0

    @property
    def total_usd(self) -> float:
        return self.compute_usd + self.people_usd + self.data_licensing_usd + self.annotation_usd


class Capability(Spec):
    """A capability the model must have, and how it depends on loss and post-training."""

    id: Identifier
    loss_midpoint: Annotated[float, Field(gt=1.0, lt=5.0)] = Field(
        description="Pretraining loss at which the base model scores 0.5 on this capability."
    )
    loss_scale: Annotated[float, Field(gt=0.0, le=1.0)] = 0.08
    post_training_gain: Fraction = 0.25
    general_text_transfer: Fraction = Field(
        1.0,
        description=(
            "How well tokens of a general public corpus teach this capability, as a share of "
            "the project's own in-domain tokens: 1 for what public text teaches (instruction "
            "following, reasoning); lower for knowledge that lives in specialised or private "
            "text (0.07 fits continued pretraining on biomedical papers). An adapted base "
            "model counts its own tokens at this share, its adaptation tokens in full."
        ),
    )
    base_model_cap: Fraction = Field(
        1.0,
        description=(
            "Deprecated and ignored: an adapted model's scores now come from the base model's "
            "size and tokens and general_text_transfer. Still accepted so older files load."
        ),
    )


class Eval(Spec):
    """A named evaluation: a public benchmark or a product eval."""

    id: Identifier
    kind: EvalKind
    capability: Identifier
    items: Annotated[int, Field(ge=10, le=1_000_000)] = 500
    contamination: Fraction = Field(
        0.0, description="Share of a public benchmark's items found in the training data."
    )
    contamination_gain: Fraction = Field(
        0.15, description="Score gained on a fully contaminated benchmark (Llama 3: 0-0.4)."
    )


class Target(Spec):
    """A capability target: ``eval`` must score at least ``threshold``."""

    capability: Identifier
    eval: Identifier
    threshold: Fraction


class Objective(Spec):
    deadline_days: Positive
    budget: Budget
    product_use: str = Field(min_length=1, max_length=200)
    capabilities: list[Capability] = Field(min_length=1)
    evals: list[Eval] = Field(min_length=1)
    targets: list[Target] = Field(min_length=1)


# --- model and compute ---------------------------------------------------------------------


class BaseModelSpec(Spec):
    """The open base model adapted when ``levers.strategy`` is ``adapt``."""

    name: str = "open base model"
    params_b: BillionParameters
    tokens_b: BillionTokens
    license_usd: NonNegative = 0.0


class PostTrainingRecipe(Spec):
    """What one post-training round trains on (docs/model.md, "Post-training compute").

    Token counts are per round and scale the round's compute with the model's size.
    """

    sft_tokens_b: NonNegative = Field(
        2.0, description="Supervised fine-tuning tokens per round (epochs included), billions."
    )
    preference_tokens_b: NonNegative = Field(
        1.0, description="Preference-tuning tokens per round (chosen and rejected), billions."
    )
    rl_rollout_tokens_b: NonNegative = Field(
        1.0, description="Tokens generated as RL rollouts per round, billions."
    )
    rollout_efficiency: Annotated[float, Field(gt=0.0, le=1.0)] = Field(
        0.25, description="Generation's throughput as a share of training's (decoding is slow)."
    )


class ModelSpec(Spec):
    params_b: BillionParameters = Field(description="Total parameters, billions.")
    active_params_b: BillionParameters | None = Field(
        None, description="Active parameters per token (mixture of experts), billions."
    )
    tokens_b: BillionTokens = Field(description="Planned pretraining tokens, billions.")
    base_model: BaseModelSpec | None = None
    adapt_tokens_b: BillionTokens = Field(
        20.0, description="Continued-pretraining and fine-tuning tokens when adapting."
    )
    post_training_rounds: Annotated[int, Field(ge=0, le=20)] = 4
    round_person_days: Positive = Field(30.0, description="Post-training team effort per round.")
    round_days_min: Positive = Field(7.0, description="Shortest calendar time of one round.")
    post_training: PostTrainingRecipe = PostTrainingRecipe()
    novelty: Fraction = Field(
        0.0, description="0: repeating documented work; 1: pushing the frontier."
    )
    data_quality: Annotated[float, Field(gt=0.0, le=2.0)] = Field(
        1.0, description="Multiplier from raw to effective tokens before extra data work."
    )

    @property
    def active_b(self) -> float:
        return self.active_params_b if self.active_params_b is not None else self.params_b


class ClusterSpec(Spec):
    gpu: GpuType = "h100"
    gpus: Annotated[int, Field(ge=1, le=1_000_000)]
    gpus_per_node: Annotated[int, Field(ge=1, le=72)] = 8
    mfu: Annotated[float, Field(gt=0.0, le=1.0)] = 0.40
    usd_per_gpu_hour: Positive | None = None
    failure_rate: NonNegative = Field(
        3.8, description="Unexpected interruptions per 1,000 node-days (Llama 3)."
    )
    planned_rate: NonNegative = Field(
        0.425, description="Planned interruptions (maintenance) per 1,000 node-days (Llama 3)."
    )
    planned_per_day: NonNegative | None = Field(
        None, description="Planned interruptions per day; default: planned_rate times the nodes."
    )
    checkpoint_write_minutes: NonNegative | None = Field(
        None, description="Training blocked per checkpoint; default: from the model's size."
    )
    restart_minutes: NonNegative | None = Field(
        None, description="Downtime per restart; default: grows with the job's size."
    )
    manual_restart_share: Fraction = Field(
        3.0 / 466.0,
        description=(
            "Share of unexpected interruptions automation cannot recover, so a person must "
            "(find the bad host, swap it, relaunch). Llama 3's automation: 3 of 466; OPT-175B's "
            "first cloud cluster: about 35 of 105."
        ),
    )
    storage_gb_per_second: Positive = Field(
        2_000.0, description="Checkpoint storage bandwidth, GB/s (Llama 3: 2 TB/s sustained)."
    )
    billing: Literal["on_demand", "reserved"] = Field(
        "on_demand",
        description="on_demand: GPU-hours used; reserved: the whole cluster every day from "
        "the first ablation to the end of post-training, idle days included.",
    )


# --- organisation --------------------------------------------------------------------------


class Team(Spec):
    id: Identifier
    name: str = ""
    headcount: Annotated[int, Field(ge=1, le=10_000)]
    seniority: Fraction = 0.6
    core: bool = Field(
        False,
        description=(
            "Deprecated and ignored by the model: how much co-design work needs is a property "
            "of the work (plan.workstreams.*.co_design, by role). Still accepted so older "
            "files load; Scenario.co_design_team_ids says which teams do co-design work."
        ),
    )
    usd_per_person_day: NonNegative = 1_200.0
    watch_hours: Positive = Field(
        1.0,
        description=(
            "How often the team looks at the metrics of the risks it owns (alerts and on-call "
            "make it short), in hours."
        ),
    )
    territorial: bool = Field(
        False,
        description=(
            "The team pushes its way into the project's goal: it holds a stake in every "
            "decision and forces a contribution of its own into the final model."
        ),
    )
    evergreen: bool = Field(
        False,
        description=(
            "Long-term research kept apart from the project's work: it takes no project work "
            "and turns its time into findings for later models and safer tooling."
        ),
    )


class Link(Spec):
    source: Identifier = Field(alias="from")
    target: Identifier = Field(alias="to")
    kind: LinkKind
    latency_days: NonNegative = 1.0


class Contribution(Spec):
    """A change a team wants in the final model (an architecture tweak, a data source, a trick)."""

    id: Identifier
    team: Identifier = Field(description="The team that proposes (or mandates) it.")
    tested: bool = Field(
        True,
        description=(
            "Backed by experiments: it goes through the ablation gate and is dropped when the "
            "experiments show it hurts. False: forced in (a mandate, a contribution pushed "
            "for a person or a team), whatever it does."
        ),
    )
    integration_person_days: NonNegative = Field(
        10.0, description="Co-design work for the training team to fold it into the recipe."
    )


class Org(Spec):
    teams: list[Team] = Field(min_length=1)
    links: list[Link] = Field(default_factory=list)
    risk_owners: dict[RiskKind, Identifier | None] = Field(
        description="Owner team of each risk; null leaves the risk unowned on purpose."
    )
    decision_rights: dict[DecisionKind, Identifier]
    politics_days: NonNegative = Field(
        0.0, description="Extra latency per hop a decision travels (territory, politics)."
    )
    eval_interval_days: Positive = Field(
        7.0, description="How often checkpoints are evaluated while the model trains (days)."
    )
    contributions: list[Contribution] = Field(
        default_factory=list,
        description=(
            "Changes proposed for the final model: a team's idea, or a mandate from above. "
            "Untested ones skip the ablation gate that would have judged them."
        ),
    )


# --- plan ----------------------------------------------------------------------------------


class Workstream(Spec):
    id: Identifier
    owner: Identifier
    phase: Phase
    effort_person_days: NonNegative
    depends_on: list[Identifier] = Field(default_factory=list)
    role: WorkstreamRole = Field(
        "general",
        description=(
            "What kind of work it is: sets its co-design need; product_evals and safety_review "
            "move with their levers."
        ),
    )
    co_design: Fraction | None = Field(
        None,
        description=(
            "How much the work needs the people on it to design together, 0 to 1 "
            "(default by role: recipe 1, general 0.5, data 0.02; docs/model.md 'Teams')."
        ),
    )
    strategy: Literal["pretrain", "adapt", "both"] = Field(
        "both", description="Run this workstream only under this strategy."
    )

    @property
    def co_design_need(self) -> float:
        """The work's co-design need: its own ``co_design``, else its role's default."""
        return self.co_design if self.co_design is not None else ROLE_CO_DESIGN[self.role]


class Gate(Spec):
    id: Identifier
    after: Phase
    catches: list[DefectKind] = Field(min_length=1)
    strength: Fraction = Field(
        0.5,
        description=(
            "Chance the gate catches a defect it looks for; its review effort grows as "
            "-ln(1 - strength) per kind (docs/model.md 'Gate reviews'; above 0.99 reads as 0.99)."
        ),
    )
    owner: Identifier | None = Field(
        None,
        description=(
            "Team that does the whole review (default: each kind's risk owner reviews it, "
            "else the holder of 'data_fix')."
        ),
    )


class Plan(Spec):
    workstreams: list[Workstream] = Field(min_length=1)
    gates: list[Gate] = Field(default_factory=list)
    training_team: Identifier | None = Field(
        None,
        description=(
            "Team that runs the main run (default: holder of 'rollback'). Name it to hand the "
            "rollback right to another team without moving the work."
        ),
    )
    post_training_team: Identifier | None = Field(
        None, description="Team that runs post-training rounds (default: the training team)."
    )
    post_training_co_design: Fraction = Field(
        1.0, description="Co-design need of a post-training round (recipe work)."
    )


# --- incidents -----------------------------------------------------------------------------


class LossSpikes(Spec):
    enabled: bool = True
    per_trillion_tokens: NonNegative = Field(
        3.0, description="Spikes per trillion tokens for a 7B dense model."
    )
    scale_exponent: NonNegative = 0.5
    self_recovery: Fraction = 0.5
    recurrence: Fraction = 0.1
    recipe_bound: Fraction = Field(
        0.03,
        description="Share of spikes that come from the recipe (LR, clipping, warmup) and recur "
        "after rollbacks until the recipe changes, for documented work; novelty adds more.",
    )


class DefectSource(Spec):
    kind: DefectKind
    id: Identifier | None = Field(
        None,
        description="Names the source (its draws are keyed by it); default: its kind. "
        "Two sources of one kind need distinct ids.",
    )
    probability: Fraction
    quality_penalty: Fraction = Field(
        0.15,
        description="Share of effective tokens a defect wastes while it is in the data (and, in "
        "an adaptation, of each post-training round trained on its data set).",
    )
    fix_person_days: NonNegative = 20.0

    @property
    def key(self) -> str:
        """The source's identity: its ``id``, or its kind when it has none."""
        return self.id if self.id is not None else self.kind


class BudgetCut(Spec):
    enabled: bool = True
    probability: Fraction = 0.2
    fraction: Fraction = Field(0.2, description="Share of the remaining compute budget cut.")
    earliest_day: NonNegative = 30.0
    latest_day: NonNegative = 120.0

    @model_validator(mode="after")
    def _window(self) -> BudgetCut:
        if self.latest_day < self.earliest_day:
            raise ValueError("latest_day must not be before earliest_day")
        return self


class Departures(Spec):
    enabled: bool = True
    per_person_year: NonNegative = 0.12
    replacement_days: NonNegative = 45.0


class SafetyFindings(Spec):
    """Latent safety, legal and privacy issues, their reviews and fixes (sim/engine/safety.py)."""

    enabled: bool = True
    issues_mean: NonNegative = Field(
        1.0, description="Expected latent safety, legal and privacy issues of the project."
    )
    data_share: Fraction = Field(
        0.5, description="Share of them in the data (seen before training); the rest in the model."
    )
    review_strength: Fraction = Field(0.8, description="Chance a review finds an issue it can see.")
    fix_days_late: NonNegative = Field(30.0, description="Days to fix an issue found at release.")
    fix_days_early: NonNegative = Field(
        5.0, description="Days to fix an issue found in prepare (dearer in every later phase)."
    )
    probability_late: Fraction | None = Field(
        None, description="Deprecated and ignored: issues now come from issues_mean."
    )
    probability_early: Fraction | None = Field(
        None, description="Deprecated and ignored: issues now come from issues_mean."
    )


#: Incidents a scenario can script and a facilitator can inject (the one list of names).
ScriptedKind = Literal[
    "loss_spike", "hardware_failure", "budget_cut", "departure", "data_defect", "objective_change"
]
#: What an objective change changes (docs/model.md, "Objective changes").
ObjectiveChange = Literal["target", "deadline", "product_use"]
OBJECTIVE_CHANGES: tuple[str, ...] = ObjectiveChange.__args__  # type: ignore[attr-defined]
INJECT_KINDS: tuple[str, ...] = ScriptedKind.__args__  # type: ignore[attr-defined]


@dataclass(frozen=True)
class InjectKind:
    """What the engine knows of an inject kind (sim.engine.injects makes it happen)."""

    #: Parameters a facilitator may set (the engine's names; a script's ``defect`` is ``kind``).
    params: tuple[str, ...]
    #: Whether it can strike at a share of the main run (``run_progress``).
    during_run: bool
    #: The kind of decision it raises, if any.
    raises: str | None
    #: What players read when it strikes in an exercise (a scenario's own note on an
    #: incident is an author's remark and goes to the facilitator's side only).
    message: str = ""
    #: The risk it strikes (the name under ``org.risk_owners``).
    risk: str = ""


#: Every inject kind, by name (the names of :data:`INJECT_KINDS`, a test checks).
INJECTS: dict[str, InjectKind] = {
    "loss_spike": InjectKind(
        (),
        during_run=True,
        raises="rollback",
        message="The training loss has jumped and is not coming back down. The run is still "
        "burning cluster time.",
        risk="loss_spike",
    ),
    "hardware_failure": InjectKind(
        (),
        during_run=True,
        raises=None,
        message="Part of the cluster has failed; the run stopped and must restart from its "
        "last checkpoint.",
        risk="hardware",
    ),
    "budget_cut": InjectKind(
        ("fraction",),
        during_run=False,
        raises="budget",
        message="The budget has been cut, effective today.",
        risk="budget",
    ),
    "departure": InjectKind(
        ("team",),
        during_run=False,
        raises=None,
        message="A senior member of the team has resigned and leaves this week.",
        risk="staffing",
    ),
    "data_defect": InjectKind(
        ("kind",),
        during_run=True,
        raises="data_fix",
        message="A problem has turned up in the training data.",
        risk="data_quality",
    ),
    "objective_change": InjectKind(
        ("change", "eval", "threshold", "deadline_days", "product_use"),
        during_run=False,
        raises="schedule",
        message="The objective has changed: a target, the deadline or the product's use is no "
        "longer the one the plan was built for.",
        risk="eval_gap",
    ),
}
RUN_KINDS: tuple[str, ...] = tuple(k for k, i in INJECTS.items() if i.during_run)


class ScriptedIncident(Spec):
    """An incident that strikes at a set day or point of the run (a scenario's inject)."""

    kind: ScriptedKind
    day: NonNegative | None = None
    run_progress: Annotated[float, Field(gt=0.0, lt=1.0)] | None = Field(
        None, description="Share of the main run's tokens at which it strikes."
    )
    fraction: Annotated[float, Field(gt=0.0, le=1.0)] | None = Field(
        None, description="budget_cut: share of the remaining compute budget cut."
    )
    team: Identifier | None = Field(None, description="departure: the team someone leaves.")
    defect: DefectKind | None = Field(None, description="data_defect: its kind.")
    change: ObjectiveChange | None = Field(
        None, description="objective_change: what changes (a target, the deadline, the use)."
    )
    eval: Identifier | None = Field(
        None, description="objective_change of a target: the target's eval (default: the first)."
    )
    threshold: Fraction | None = Field(
        None, description="objective_change of a target: the threshold it must now reach."
    )
    deadline_days: Positive | None = Field(
        None, description="objective_change of the deadline: the new deadline, days from the start."
    )
    product_use: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="objective_change of the product use: what the model is now for.",
    )
    note: str = Field("", max_length=300)

    @model_validator(mode="after")
    def _when(self) -> ScriptedIncident:
        if (self.day is None) == (self.run_progress is None):
            raise ValueError("give exactly one of day or run_progress")
        if self.run_progress is not None and self.kind not in RUN_KINDS:
            raise ValueError(f"run_progress applies only to {', '.join(RUN_KINDS)}")
        if self.kind == "objective_change":
            needs = {"target": "threshold", "deadline": "deadline_days"}.get(self.change or "")
            if self.change is None:
                kinds = ", ".join(OBJECTIVE_CHANGES)
                raise ValueError(f"objective_change needs change: one of {kinds}")
            if needs is not None and getattr(self, needs) is None:
                raise ValueError(f"an objective_change of the {self.change} needs {needs}")
        return self

    #: The engine's parameter name of each field an inject takes (a script's ``defect`` is the
    #: engine's ``kind``).
    PARAMS: ClassVar[dict[str, str]] = {
        "fraction": "fraction",
        "team": "team",
        "defect": "kind",
        "change": "change",
        "eval": "eval",
        "threshold": "threshold",
        "deadline_days": "deadline_days",
        "product_use": "product_use",
    }

    def params(self) -> dict[str, object]:
        """The engine's parameters of this incident (sim/engine/injects.py)."""
        values = {engine: getattr(self, f) for f, engine in self.PARAMS.items()}
        return {k: v for k, v in values.items() if v is not None}

    @classmethod
    def from_params(
        cls, kind: str, when: Mapping[str, float], params: Mapping[str, object]
    ) -> ScriptedIncident:
        """The scripted incident of an inject of ``kind`` with the engine's ``params``."""
        fields = {f: params.get(engine) for f, engine in cls.PARAMS.items()}
        return cls.model_validate(
            {"kind": kind, **when, **{k: v for k, v in fields.items() if v is not None}}
        )


class Incidents(Spec):
    variability: bool = Field(
        True,
        description="Effort spread, handoff rework, loss-forecast error and eval sampling noise.",
    )
    hardware: bool = True
    loss_spikes: LossSpikes = LossSpikes()
    defects: list[DefectSource] = Field(default_factory=list)
    budget_cut: BudgetCut = BudgetCut(enabled=False)
    departures: Departures = Departures()
    safety: SafetyFindings = SafetyFindings()
    scripted: list[ScriptedIncident] = Field(default_factory=list)


# --- levers --------------------------------------------------------------------------------


class Levers(Spec):
    """The product's levers. Names are shared by YAML, ``--set``, the app and docs/levers.md."""

    strategy: Strategy = "pretrain"
    reserve_fraction: Annotated[float, Field(ge=0.0, le=0.5)] = 0.10
    ablation_fraction: Annotated[float, Field(ge=0.0, le=0.5)] = 0.05
    checkpoint_minutes: Annotated[float, Field(ge=1.0, le=1_440.0)] = 15.0
    product_evals_early: bool = True
    decontaminate: bool = True
    eval_focus: Literal["balanced", "single"] = "balanced"
    safety_from_start: bool = True
    engineering_embedded: bool = True
    add_core_staff: Annotated[int, Field(ge=0, le=100)] = 0
    add_core_staff_day: NonNegative = 60.0
    data_investment_usd: NonNegative = Field(0.0, description="Extra spend on data work.")
    parallel_variants: Annotated[int, Field(ge=1, le=8)] = 1
    playbook: dict[DecisionKind, list[str]] = Field(
        default_factory=dict,
        description="Pre-agreed ordered responses per decision kind; absent means ad hoc.",
    )


# --- the whole scenario --------------------------------------------------------------------


class Scenario(Spec):
    name: str = Field(min_length=1, max_length=120)
    teaches: str = Field("", max_length=2_000, description="What this scenario teaches.")
    objective: Objective
    model: ModelSpec
    cluster: ClusterSpec
    org: Org
    plan: Plan
    incidents: Incidents = Incidents()
    levers: Levers = Levers()

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Scenario:
        # The loader defers this check so it can point each problem at its own line.
        if info.context and info.context.get("defer_references"):
            return self
        problems = reference_problems(self)
        if problems:
            raise ValueError("; ".join(f"{path}: {reason}" for path, reason in problems))
        return self

    @property
    def team_ids(self) -> list[str]:
        return [t.id for t in self.org.teams]

    @property
    def recipe_team_ids(self) -> list[str]:
        """Teams owning recipe work: workstreams needing :data:`CO_DESIGN_CORE` or more.

        With the post-training team when the plan names one (its rounds are recipe work).
        """
        ids = {w.owner for w in self.plan.workstreams if w.co_design_need >= CO_DESIGN_CORE}
        if self.plan.post_training_team is not None:
            ids.add(self.plan.post_training_team)
        return [t.id for t in self.org.teams if t.id in ids and not t.evergreen]

    @property
    def co_design_team_ids(self) -> list[str]:
        """Teams that do co-design work: the core, derived from the work, not declared.

        The recipe teams and the training team (it trains the model). The
        deprecated ``Team.core`` flag plays no part.
        """
        ids = set(self.recipe_team_ids) | {self.training_team_id}
        return [t for t in self.team_ids if t in ids]

    @property
    def training_team_id(self) -> str:
        """The team that runs the main run: ``plan.training_team``, else the rollback holder."""
        if self.plan.training_team is not None:
            return self.plan.training_team
        return self.org.decision_rights["rollback"]  # type: ignore[index]


# --- references between parts -------------------------------------------------------------
#
# Checked on plain data (what a YAML file holds, or ``Scenario.model_dump``), so that the
# loader can report them beside the schema's own problems in one pass, even when some part
# of the file does not validate. A value of the wrong type is the schema's problem: the
# checks below skip it.


def _at(data: object, *keys: str) -> object:
    """``data[k1][k2]...``, or None where a step is missing or not a mapping."""
    for key in keys:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


def _records(data: object, *keys: str) -> list[tuple[int, Mapping[str, object]]]:
    """The mappings of the list at ``keys``, with their positions."""
    items = _at(data, *keys)
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, Mapping)]


def _texts(items: list[tuple[int, Mapping[str, object]]], key: str) -> list[tuple[int, str]]:
    return [(i, v) for i, item in items if isinstance(v := item.get(key), str)]


def _number(value: object) -> float | None:
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if is_number else None  # type: ignore[arg-type]


def _or_default(data: object, spec: type[Spec], field: str, *keys: str) -> object:
    value = _at(data, *keys, field)
    return spec.model_fields[field].default if value is None else value


def _duplicates(path: str, ids: list[tuple[int, str]]) -> list[tuple[str, str]]:
    """Each repeated id after its first use, at its own list position."""
    seen: set[str] = set()
    out = []
    for i, ident in ids:
        if ident in seen:
            out.append((f"{path}.{i}.id", f"duplicate id {ident!r}"))
        seen.add(ident)
    return out


def _unknown(what: str, name: str, known: Iterable[str]) -> str:
    """``unknown team 'infr'; did you mean 'infra'? (teams: data, infra, ...)``."""
    plural = "capabilities" if what == "capability" else f"{what}s"
    return f"unknown {what} {name!r}; " + suggestion(name, sorted(known), plural)


def _owner_problems(
    path: str, owner: object, teams: set[str], evergreen: set[str], evergreen_why: str
) -> list[tuple[str, str]]:
    """An owner that names no team, or the evergreen team (kept apart: ``evergreen_why``)."""
    if isinstance(owner, str) and owner not in teams:
        return [(path, _unknown("team", owner, teams))]
    if isinstance(owner, str) and owner in evergreen:
        return [(path, f"team {owner!r} is evergreen research, kept apart: {evergreen_why}")]
    return []


def _org_problems(d: object, teams: set[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i, link in _records(d, "org", "links"):
        for end in ("from", "to"):
            team = link.get(end)
            if isinstance(team, str) and team not in teams:
                out.append((f"org.links.{i}.{end}", _unknown("team", team, teams)))
    for kinds, field, missing in (
        (RISK_KINDS, "risk_owners", "risk {!r} has no owner: name a team, or null to leave it "
         "unowned"),
        (DECISION_KINDS, "decision_rights", "no team holds the {!r} decision right"),
    ):  # fmt: skip
        holders = _at(d, "org", field)
        if not isinstance(holders, Mapping):
            continue
        for kind, holder in holders.items():
            if isinstance(holder, str) and holder not in teams:
                out.append((f"org.{field}.{kind}", _unknown("team", holder, teams)))
        out += [(f"org.{field}", missing.format(k)) for k in kinds if k not in holders]
    contributions = _records(d, "org", "contributions")
    out += _duplicates("org.contributions", _texts(contributions, "id"))
    for i, team in _texts(contributions, "team"):
        if team not in teams:
            out.append((f"org.contributions.{i}.team", _unknown("team", team, teams)))
    for i, inc in _records(d, "incidents", "scripted"):
        team = inc.get("team")
        if isinstance(team, str) and team not in teams:
            out.append((f"incidents.scripted.{i}.team", _unknown("team", team, teams)))
    for field in ("training_team", "post_training_team"):
        team = _at(d, "plan", field)
        if isinstance(team, str) and team not in teams:
            out.append((f"plan.{field}", _unknown("team", team, teams)))
    return out


def _plan_problems(d: object, teams: set[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    workstreams = _records(d, "plan", "workstreams")
    by_id = {ident: item for ident, item in ((w.get("id"), w) for _, w in workstreams)
             if isinstance(ident, str)}  # fmt: skip
    phase_order = {p: k for k, p in enumerate(PHASES)}
    graph: dict[str, set[str]] = {ident: set() for ident in by_id}
    evergreen = {
        ident
        for _, t in _records(d, "org", "teams")
        if t.get("evergreen") is True and isinstance(ident := t.get("id"), str)
    }
    for i, w in workstreams:
        out += _owner_problems(
            f"plan.workstreams.{i}.owner",
            w.get("owner"),
            teams,
            evergreen,
            "it takes no project work (give the workstream to another team, or set "
            "evergreen: false)",
        )
        deps = w.get("depends_on")
        for j, dep in enumerate(deps if isinstance(deps, list) else []):
            if not isinstance(dep, str):
                continue
            if dep not in by_id:
                out.append(
                    (f"plan.workstreams.{i}.depends_on.{j}", _unknown("workstream", dep, by_id))
                )
                continue
            if isinstance(w.get("id"), str):
                graph[str(w["id"])].add(dep)
            later = phase_order.get(str(by_id[dep].get("phase")), -1)
            if later > phase_order.get(str(w.get("phase")), len(phase_order)):
                out.append(
                    (
                        f"plan.workstreams.{i}.depends_on.{j}",
                        f"{dep!r} runs in a later phase ({by_id[dep]['phase']}) than "
                        f"{w.get('id')!r}",
                    )
                )
    for i, g in _records(d, "plan", "gates"):
        out += _owner_problems(
            f"plan.gates.{i}.owner", g.get("owner"), teams, evergreen, "it reviews no gate"
        )
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        cycle = list(reversed(exc.args[1]))[:-1]
        out.append(("plan.workstreams", f"dependency cycle: {' -> '.join(cycle)}"))
    return out


def _objective_problems(d: object) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    caps = {c for _, c in _texts(_records(d, "objective", "capabilities"), "id")}
    evals = _records(d, "objective", "evals")
    measures = {e["id"]: e.get("capability") for _, e in evals if isinstance(e.get("id"), str)}
    for i, measured in _texts(evals, "capability"):
        if measured not in caps:
            out.append((f"objective.evals.{i}.capability", _unknown("capability", measured, caps)))
    for i, t in _records(d, "objective", "targets"):
        cap, ev = t.get("capability"), t.get("eval")
        if isinstance(cap, str) and cap not in caps:
            out.append((f"objective.targets.{i}.capability", _unknown("capability", cap, caps)))
        if not isinstance(ev, str):
            continue
        if ev not in measures:
            out.append((f"objective.targets.{i}.eval", _unknown("eval", ev, map(str, measures))))
        elif isinstance(cap, str) and measures[ev] != cap:
            out.append(
                (
                    f"objective.targets.{i}.eval",
                    f"eval {ev!r} measures {measures[ev]!r}, not {cap!r}",
                )
            )
    return out


def _scripted_problems(d: object) -> list[tuple[str, str]]:
    """A scripted objective change of a target must name one of the targets' evals."""
    targets = {t for _, t in _texts(_records(d, "objective", "targets"), "eval")}
    out: list[tuple[str, str]] = []
    for i, inc in _records(d, "incidents", "scripted"):
        ev = inc.get("eval")
        if inc.get("kind") == "objective_change" and isinstance(ev, str) and ev not in targets:
            out.append((f"incidents.scripted.{i}.eval", _unknown("target eval", ev, targets)))
    return out


def _lever_problems(d: object) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    playbook = _at(d, "levers", "playbook")
    for kind, options in playbook.items() if isinstance(playbook, Mapping) else ():
        allowed = DECISION_OPTIONS.get(str(kind), ())
        for j, option in enumerate(options if allowed and isinstance(options, list) else []):
            if isinstance(option, str) and option not in allowed:
                reason = f"unknown option {option!r}; " + suggestion(option, allowed, "one of")
                out.append((f"levers.playbook.{kind}.{j}", reason))
    strategy = _or_default(d, Levers, "strategy", "levers")
    if strategy == "adapt" and _at(d, "model", "base_model") is None:
        out.append(("model.base_model", "strategy 'adapt' needs a base_model"))
    params, active = (
        _number(_at(d, "model", "params_b")),
        _number(_at(d, "model", "active_params_b")),
    )
    if params is not None and active is not None and active > params:
        out.append(("model.active_params_b", "active parameters exceed total parameters"))
    gpus = _number(_at(d, "cluster", "gpus"))
    per_node = _number(_or_default(d, ClusterSpec, "gpus_per_node", "cluster"))
    if gpus is not None and per_node and gpus % per_node and gpus > per_node:
        out.append(("cluster.gpus", "GPU count is not a whole number of nodes"))
    return out


def _defect_keys(data: object) -> list[tuple[int, str]]:
    """Each defect source's identity (its ``id``, or its kind without one), by position."""
    out = []
    for i, d in _records(data, "incidents", "defects"):
        key = d.get("id") if d.get("id") is not None else d.get("kind")
        if isinstance(key, str):
            out.append((i, key))
    return out


def reference_problems_in(data: Mapping[str, object]) -> list[tuple[str, str]]:
    """Cross-field problems of scenario data as ``(dotted.path, reason)``; empty when consistent.

    ``data`` is plain (a parsed YAML file, overrides applied, or ``model_dump(by_alias=True)``);
    parts that are missing or of the wrong type are skipped, as the schema reports them.
    """
    teams = _texts(_records(data, "org", "teams"), "id")
    out = _duplicates("org.teams", teams)
    for path in ("plan.workstreams", "objective.capabilities", "objective.evals", "plan.gates"):
        out += _duplicates(path, _texts(_records(data, *path.split(".")), "id"))
    out += [
        (path, f"{reason}: give each defect source of one kind its own id")
        for path, reason in _duplicates("incidents.defects", _defect_keys(data))
    ]
    known = {t for _, t in teams}
    return (
        out
        + _org_problems(data, known)
        + _plan_problems(data, known)
        + _objective_problems(data)
        + _scripted_problems(data)
        + _lever_problems(data)
    )


def reference_problems(s: Scenario) -> list[tuple[str, str]]:
    """Cross-field problems of a scenario as ``(dotted.path, reason)`` pairs; empty when none."""
    return reference_problems_in(s.model_dump(by_alias=True))
