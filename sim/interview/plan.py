"""Interview practice: the question, the candidate's answer as data, and how it becomes a design.

The question (docs: seeds/000) asks why training a large language model is hard and how
to organise a team that lands it on time and on budget. The candidate answers by
making choices the model can run:

- clarifying choices (:data:`CLARIFICATIONS`) fix the world: each is a set of
  overrides on the base scenario;
- Part 1 is a list of :class:`Challenge` by lifecycle stage;
- Part 2 is an :class:`InterviewPlan`: an owner and an early warning per risk,
  gates with cheap experiments, decision rights, a budget estimate with a reserve,
  levers agreed in advance, a role split and explicit trade-offs.

A plan becomes a :class:`~sim.scenario.spec.Scenario` as *base + clarifications + plan*,
all as validated overrides (:func:`plan_scenario`), so a design is diffable and runs
in the same engine as every other scenario. Plans save to and load from PLAN.json;
every problem in a file is reported as ``FILE:LINE: field: reason``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from sim.engine.compute import adapted_ceilings
from sim.scenario.catalog import did_you_mean, shipped_path
from sim.scenario.levers import interview_fields
from sim.scenario.loading import (
    MAX_BYTES,
    Problem,
    ScenarioError,
    line_of,
    load_scenario,
    with_overrides,
)
from sim.scenario.spec import (
    DECISION_OPTIONS,
    RISK_KINDS,
    DecisionKind,
    DefectKind,
    Fraction,
    Identifier,
    NonNegative,
    Phase,
    RiskKind,
    Scenario,
    Strategy,
)

BASE_SCENARIO = "assistant_7b.yaml"
PLAN_FORMAT_V1 = "trainingroom-interview-plan/1"
PLAN_FORMAT: Literal["trainingroom-interview-plan/2"] = "trainingroom-interview-plan/2"
#: Formats :func:`parse_plan` reads; older ones are migrated on load (:func:`migrate`).
PLAN_FORMATS = (PLAN_FORMAT_V1, PLAN_FORMAT)
#: The suggested length of a timed practice session.
PRACTICE_MINUTES = 45

QUESTION_TITLE = "Why is training a large language model hard, and how would you run the team?"
QUESTION = (
    "You are the product manager of a project that trains a large language model. First, "
    "explain what makes such training difficult. Then lay out how you would organise the "
    "people, the ownership and the way of working so that the training objectives land on "
    "schedule and within budget despite those difficulties."
)
PART_1_TITLE = "Part 1: what makes it hard"
PART_1 = (
    "Walk the lifecycle stage by stage and, for each challenge, say what it puts at risk "
    "(quality, schedule or cost) and where it would show up first."
)
PART_2_TITLE = "Part 2: how you organise"
PART_2 = (
    "Give every risk an owner and the earliest, cheapest warning; "
    "plan gates where small experiments de-risk the big run; say who decides what while the "
    "run is going; estimate and protect the budget; agree the levers before anything slips."
)

# --- clarifying questions ------------------------------------------------------------------

Overrides = dict[str, Any]


@dataclass(frozen=True)
class ClarifyingOption:
    """One answer to a clarifying question and what it does to the base scenario."""

    id: str
    label: str
    effect: str
    shape: Callable[[Scenario], Overrides]


@dataclass(frozen=True)
class ClarifyingQuestion:
    id: str
    question: str
    options: tuple[ClarifyingOption, ...]

    def option(self, option_id: str) -> ClarifyingOption:
        return next(o for o in self.options if o.id == option_id)


def _nothing(_: Scenario) -> Overrides:
    return {}


def _workstream_effort(s: Scenario, ws_id: str, factor: float) -> Overrides:
    for i, w in enumerate(s.plan.workstreams):
        if w.id == ws_id:
            return {f"plan.workstreams.{i}.effort_person_days": w.effort_person_days * factor}
    return {}


def _targets(*targets: tuple[str, str, float]) -> list[dict[str, Any]]:
    return [{"capability": c, "eval": e, "threshold": t} for c, e, t in targets]


def _compute_only(s: Scenario) -> Overrides:
    b = s.objective.budget
    # Money outside the manager's budget: generous lines, so compute is what binds.
    return {
        "objective.budget.people_usd": b.people_usd * 1.5,
        "objective.budget.data_licensing_usd": b.data_licensing_usd * 1.5,
        "objective.budget.annotation_usd": b.annotation_usd * 1.5,
    }


CLARIFICATIONS: tuple[ClarifyingQuestion, ...] = (
    ClarifyingQuestion(
        "strategy",
        "Pretrain a model from scratch, or adapt an existing base model?",
        (
            ClarifyingOption("open", "It is my call: I will argue it in Part 2",
                             "You choose the strategy in your plan.", _nothing),
            ClarifyingOption("pretrain", "From scratch: the company wants its own base model",
                             "The strategy is fixed to pretrain.",
                             lambda s: {"levers.strategy": "pretrain"}),
            ClarifyingOption("adapt", "Adapt an open base model",
                             "The strategy is fixed to adapt the open base model.",
                             lambda s: {"levers.strategy": "adapt"}),
        ),
    ),
    ClarifyingQuestion(
        "objectives",
        "Are the objectives (capabilities and eval thresholds) already defined?",
        (
            ClarifyingOption("given", "Yes, they are set",
                             "The scenario's targets stand; you restate the objective.",
                             _nothing),
            ClarifyingOption("mine", "No, setting them is part of my job",
                             "Your targets apply, and defining them takes three times the "
                             "product and eval effort up front.",
                             lambda s: _workstream_effort(s, "objective_and_evals_spec", 3.0)),
        ),
    ),
    ClarifyingQuestion(
        "budget",
        "Are the deadline and budget fixed, and what does the budget cover?",
        (
            ClarifyingOption("all_in", "Both fixed; the budget covers compute, people, data "
                             "licensing and annotation",
                             "The whole bill counts against the budget.", _nothing),
            ClarifyingOption("compute_only", "Both fixed; the budget is compute only",
                             "People, data and annotation are paid elsewhere (the model "
                             "gives them 50% head room), so compute is what binds.",
                             _compute_only),
            ClarifyingOption("flexible", "The budget is firm; the deadline can move a month",
                             "The deadline moves 30 days later.",
                             lambda s: {"objective.deadline_days": s.objective.deadline_days + 30}),
        ),
    ),
    ClarifyingQuestion(
        "product",
        "What is the model for?",
        (
            ClarifyingOption("specialist", "A domain specialist: customer support",
                             "The scenario's support targets stand.", _nothing),
            ClarifyingOption("general", "A general assistant",
                             "Targets on instruction following and reasoning, not support "
                             "knowledge.",
                             lambda s: {"objective.product_use": "general-purpose assistant",
                                        "objective.targets": _targets(
                                            ("instruction_following", "ifeval", 0.72),
                                            ("reasoning", "support_reasoning", 0.54))}),
            ClarifyingOption("feature", "A feature inside one product (ticket answers in the "
                             "help desk)",
                             "One narrow product target on support tickets.",
                             lambda s: {"objective.product_use": "answer drafting inside the "
                                        "help-desk product",
                                        "objective.targets": _targets(
                                            ("support_knowledge", "support_tickets", 0.72))}),
        ),
    ),
)  # fmt: skip
CLARIFICATION_BY_ID = {q.id: q for q in CLARIFICATIONS}
DEFAULT_CLARIFICATIONS = {q.id: q.options[0].id for q in CLARIFICATIONS}


def clarification_overrides(base: Scenario, chosen: Mapping[str, str]) -> Overrides:
    """The overrides the clarifying choices make, in question order."""
    out: Overrides = {}
    for q in CLARIFICATIONS:
        out.update(q.option(chosen.get(q.id, q.options[0].id)).shape(base))
    return out


def shape_scenario(base: Scenario, chosen: Mapping[str, str]) -> Scenario:
    """The world of the question: the base scenario under the clarifying choices."""
    return with_overrides(base, clarification_overrides(base, chosen))


# --- Part 1: the lifecycle and its challenges -----------------------------------------------

Stage = Literal[
    "data", "sizing", "cluster", "stability", "post_training", "evaluation", "safety_legal"
]
STAGES: dict[str, str] = {
    "data": "Assembling the data",
    "sizing": "Sizing the model, the run and the team",
    "cluster": "Running on a large cluster",
    "stability": "Keeping the run stable",
    "post_training": "Post-training",
    "evaluation": "Evaluation",
    "safety_legal": "Safety, legal and privacy",
}
#: The areas Part 1 should span (safety is judged with the strong-answer items).
CORE_STAGES = ("data", "sizing", "cluster", "stability", "post_training", "evaluation")
Consequence = Literal["quality", "schedule", "cost"]
CONSEQUENCES: tuple[str, ...] = ("quality", "schedule", "cost")

#: Suggested challenges per stage: (title, the model's risk it maps to).
CATALOGUE: dict[str, tuple[tuple[str, str], ...]] = {
    "data": (
        ("Noisy, duplicated or low-quality web data", "data_quality"),
        ("Benchmark items leaking into the training data", "contamination"),
        ("Data with unclear licences or personal information", "licensing"),
    ),
    "sizing": (
        ("Tokenizer or configuration mistakes baked in before the run", "tokenizer_config"),
        ("A compute estimate that is too optimistic", "budget"),
        ("Too few people for the work, or key people leaving", "staffing"),
    ),
    "cluster": (("GPU and node failures interrupting the run", "hardware"),),
    "stability": (("Loss spikes and divergence mid-run", "loss_spike"),),
    "post_training": (("Post-training tuned toward the wrong target", "eval_gap"),),
    "evaluation": (
        ("Public benchmarks look better than the product really is", "eval_gap"),
        ("Contaminated benchmarks inflate the scores", "contamination"),
    ),
    "safety_legal": (
        ("Release-blocking safety findings", "safety"),
        ("Licensing or privacy problems found at sign-off", "licensing"),
    ),
}

#: Where each risk can first be seen, if someone looks (docs/model.md, "Incidents").
EARLY_SIGNALS: dict[str, tuple[str, ...]] = {
    "data_quality": ("prepare", "ablations"),
    "contamination": ("prepare", "ablations"),
    "licensing": ("prepare",),
    "tokenizer_config": ("prepare", "ablations"),
    "loss_spike": ("training",),
    "hardware": ("prepare", "training"),
    "eval_gap": ("prepare", "post_training"),
    "safety": ("prepare",),
    "budget": ("prepare", "ablations"),
    "staffing": ("prepare",),
}


class PlanSpec(BaseModel):
    """Base for every part of a plan: unknown keys are errors; values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


Text = Annotated[str, Field(max_length=2_000)]


class Challenge(PlanSpec):
    """One difficulty the candidate names in Part 1."""

    stage: Stage
    title: Annotated[str, Field(min_length=1, max_length=200)]
    risk: RiskKind | None = Field(None, description="The model's risk this maps to, if any.")
    hits: list[Consequence] = Field(default_factory=list)
    consequence: Text = ""
    earliest_signal: Phase | None = Field(None, description="Where it can first be seen.")


# --- Part 2: the plan -----------------------------------------------------------------------


class RiskPlan(PlanSpec):
    owner: Identifier | None = None
    early_warning: Text = ""


class GatePlan(PlanSpec):
    id: Identifier
    after: Phase
    catches: list[DefectKind] = Field(min_length=1)
    experiment: Text = ""
    strength: Fraction = 0.6


class BudgetPlan(PlanSpec):
    """The candidate's estimate by category (USD), the reserve and how spend is tracked."""

    compute_usd: NonNegative = 0.0
    people_usd: NonNegative = 0.0
    data_licensing_usd: NonNegative = 0.0
    annotation_usd: NonNegative = 0.0
    reserve_fraction: Annotated[float, Field(ge=0.0, le=0.5)] = 0.0
    tracking: Text = ""


class TeamPlan(PlanSpec):
    headcount: Annotated[int, Field(ge=1, le=10_000)] | None = None
    core: bool | None = None


class TargetPlan(PlanSpec):
    capability: Identifier
    eval: Identifier
    threshold: Fraction


class ObjectivePlan(PlanSpec):
    product_use: Annotated[str, Field(max_length=200)] = ""
    targets: list[TargetPlan] = Field(default_factory=list)


class RolesPlan(PlanSpec):
    """What each role owns, in the candidate's words."""

    product_manager: Text = ""
    research: Text = ""
    engineering: Text = ""
    program_management: Text = ""


class TradeOff(PlanSpec):
    protect: Consequence
    give_up: Consequence
    text: Text = ""


class LeverPlan(PlanSpec):
    """The levers the interview form asks for, and the playbook.

    The lever fields (type, bounds, the form's starting value, order) come from the lever
    registry's ``interview`` entries (sim/scenario/levers.py); none is written here.
    """

    __annotations__.update({name: kind for name, (kind, _) in interview_fields().items()})
    locals().update({name: field for name, (_, field) in interview_fields().items()})
    playbook: dict[DecisionKind, list[str]] = Field(default_factory=dict)

    def __init__(self, **data: Any) -> None:
        super().__init__(**data)

    def __getattr__(self, name: str) -> Any:
        """Only reached for a name that is no field (type checkers see the levers here)."""
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


FollowupId = Literal["loss_spike", "budget_cut", "benchmarks_vs_product"]


Caller = Literal["candidate", "playbook"]


class FollowupDecision(PlanSpec):
    kind: DecisionKind
    day: NonNegative
    owner: Identifier
    latency_days: NonNegative
    options: list[str]
    choice: str
    by: Caller = Field(
        "candidate",
        description="Who made the call: the candidate or the "
        "design's playbook (textbook where it is silent).",
    )


class Alternative(PlanSpec):
    """Another option for the candidate's first call, replayed in the same world."""

    choice: str
    delta_schedule_days: float
    delta_cost_usd: float
    delta_quality: float
    success: bool


class FollowupResult(PlanSpec):
    """A follow-up played on the candidate's design: their calls and what followed."""

    id: FollowupId
    seed: int
    decisions: list[FollowupDecision] = Field(default_factory=list)
    rationale: Text = ""
    schedule_days: float
    cost_usd: float
    quality: float
    on_time: bool
    on_budget: bool
    success: bool
    situation: dict[str, float] = Field(default_factory=dict)
    alternatives: list[Alternative] = Field(default_factory=list)
    quality_given_up: float | None = None
    shipped_with_gap: bool | None = None
    deadline_days: float | None = None
    budget_usd: float | None = None
    targets: dict[str, float] = Field(
        default_factory=dict, description="Each target eval's threshold when the call was made."
    )
    eval_noise: dict[str, float] = Field(
        default_factory=dict,
        description="Each eval's sampling error (sd of the measured score) at the call.",
    )

    @property
    def mine(self) -> list[FollowupDecision]:
        """The calls the candidate made (the rest were the playbook's)."""
        return [d for d in self.decisions if d.by == "candidate"]


#: Parts of a plan that "Start from the scenario's own org chart" fills in.
Section = Literal["owners", "rights", "gates", "reserve", "ablation", "playbook", "levers"]
SECTIONS: dict[str, str] = {
    "owners": "risk owners",
    "rights": "decision rights",
    "gates": "gates",
    "reserve": "the reserve",
    "ablation": "the ablation budget",
    "playbook": "the playbook",
    "levers": "the other levers",
}


class InterviewPlan(PlanSpec):
    """A candidate's whole answer: clarifications, Part 1, Part 2 and any follow-ups played."""

    format: Literal["trainingroom-interview-plan/2"] = PLAN_FORMAT
    candidate: Annotated[str, Field(max_length=100)] = ""
    base: Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+\.ya?ml$")] = BASE_SCENARIO
    clarifications: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_CLARIFICATIONS))
    challenges: list[Challenge] = Field(default_factory=list)
    late_discovery: Text = Field("", description="Why a problem found late costs so much.")
    objective: ObjectivePlan = ObjectivePlan()
    strategy: Strategy = "pretrain"
    strategy_reason: Text = ""
    teams: dict[Identifier, TeamPlan] = Field(default_factory=dict)
    risks: dict[RiskKind, RiskPlan] = Field(default_factory=dict)
    decision_rights: dict[DecisionKind, Identifier] = Field(default_factory=dict)
    gates: list[GatePlan] = Field(default_factory=list)
    budget: BudgetPlan = BudgetPlan()
    levers: LeverPlan = LeverPlan()
    roles: RolesPlan = RolesPlan()
    tradeoffs: list[TradeOff] = Field(default_factory=list)
    followups: list[FollowupResult] = Field(default_factory=list)
    scenario_filled: list[Section] = Field(
        default_factory=list,
        description="Sections the org-chart button filled: the scenario's, not the candidate's, "
        "until changed or confirmed with a reason.",
    )
    confirmed: dict[Section, Text] = Field(
        default_factory=dict, description="Why the candidate keeps a section the button filled."
    )
    prose: Annotated[str, Field(max_length=20_000)] = Field(
        "", description="The spoken answer, written or pasted, that the plan was read from."
    )
    judged_at: str | None = Field(
        None, description="When the attempt was handed in for judging (ISO 8601); then locked."
    )

    def owner(self, risk: str) -> str | None:
        r = self._risks().get(risk)
        return r.owner if r is not None else None

    def early_warning(self, risk: str) -> str:
        r = self._risks().get(risk)
        return r.early_warning if r is not None else ""

    def _risks(self) -> dict[str, RiskPlan]:
        return {str(k): v for k, v in self.risks.items()}

    def right(self, kind: str) -> str | None:
        """The team the plan names for decision right ``kind``, if any."""
        return {str(k): v for k, v in self.decision_rights.items()}.get(kind)

    def responses(self, kind: str) -> list[str]:
        """The playbook's ordered responses for ``kind`` (empty: ad hoc)."""
        return {str(k): v for k, v in self.levers.playbook.items()}.get(kind, [])

    def followup(self, fid: str) -> FollowupResult | None:
        return next((f for f in self.followups if f.id == fid), None)

    def with_followup(self, result: FollowupResult) -> InterviewPlan:
        kept = [f for f in self.followups if f.id != result.id]
        return self.model_copy(update={"followups": [*kept, result]})


# --- plan to scenario -------------------------------------------------------------------------


@lru_cache(maxsize=8)
def base_scenario(name: str = BASE_SCENARIO) -> Scenario:
    """A shipped scenario by file name (the base a plan builds on)."""
    path = shipped_path(name)
    if path is None:
        raise ValueError(f"no shipped scenario {name!r}")
    return load_scenario(path)


def plan_world(plan: InterviewPlan) -> Scenario:
    """The base scenario under the plan's clarifying choices (the reference design)."""
    return shape_scenario(base_scenario(plan.base), plan.clarifications)


def strategy_fixed(plan: InterviewPlan) -> bool:
    return plan.clarifications.get("strategy", "open") != "open"


def objectives_given(plan: InterviewPlan) -> bool:
    return plan.clarifications.get("objectives", "given") == "given"


def plan_overrides(plan: InterviewPlan, world: Scenario) -> Overrides:
    """The plan as overrides on its world: teams, owners, rights, gates, levers, reserve."""
    out: Overrides = {}
    index = {t.id: i for i, t in enumerate(world.org.teams)}
    for tid, tp in plan.teams.items():
        if tp.headcount is not None:
            out[f"org.teams.{index[tid]}.headcount"] = tp.headcount
        if tp.core is not None:
            out[f"org.teams.{index[tid]}.core"] = tp.core
    out["org.risk_owners"] = {r: plan.owner(r) for r in RISK_KINDS}
    # A right the plan leaves open stays with the world's holder, so the design still runs;
    # the rubric counts it as missing.
    out["org.decision_rights"] = {**world.org.decision_rights, **plan.decision_rights}
    out["plan.gates"] = [g.model_dump(exclude={"experiment"}) for g in plan.gates]
    lev = plan.levers.model_dump()
    for name, value in lev.items():
        out[f"levers.{name}"] = value
    out["levers.reserve_fraction"] = plan.budget.reserve_fraction
    if not strategy_fixed(plan):
        out["levers.strategy"] = plan.strategy
    if not objectives_given(plan) and plan.objective.targets:
        out["objective.targets"] = [t.model_dump() for t in plan.objective.targets]
    if plan.objective.product_use and not objectives_given(plan):
        out["objective.product_use"] = plan.objective.product_use
    return out


def plan_scenario(plan: InterviewPlan) -> Scenario:
    """The candidate's design: base + clarifications + plan, validated like any scenario."""
    world = plan_world(plan)
    design = with_overrides(world, plan_overrides(plan, world))
    return design.model_copy(update={"name": "Your design"})


def effective_strategy(plan: InterviewPlan) -> str:
    fixed = plan.clarifications.get("strategy", "open")
    return plan.strategy if fixed == "open" else fixed


def adapt_caps(plan: InterviewPlan) -> list[tuple[str, float, float]]:
    """Targets an adapted base model cannot reach: (capability, its ceiling, the threshold).

    The ceiling is the best the base model reaches at any number of rounds, from its size
    and tokens (:func:`~sim.engine.compute.adapted_ceilings`).
    """
    world = plan_world(plan)
    caps = adapted_ceilings(world)
    return [
        (t.capability, caps[t.capability], t.threshold)
        for t in stated_targets(plan)
        if t.capability in caps and caps[t.capability] < t.threshold
    ]


def stated_targets(plan: InterviewPlan) -> list[TargetPlan]:
    """The targets the plan works to: the given ones, or the candidate's own."""
    if objectives_given(plan) or not plan.objective.targets:
        return [TargetPlan(**t.model_dump()) for t in plan_world(plan).objective.targets]
    return list(plan.objective.targets)


def world_plan(plan: InterviewPlan) -> InterviewPlan:
    """The world's own org and levers written as a plan (owners, rights, gates, playbook)."""
    world = plan_world(plan)
    lev = world.levers
    levers = LeverPlan(
        **{k: getattr(lev, k) for k in LeverPlan.model_fields if k != "playbook"},
        playbook={k: list(v) for k, v in lev.playbook.items()},
    )
    return plan.model_copy(
        update={
            "scenario_filled": list(SECTIONS),
            "confirmed": {},
            "risks": {
                r: RiskPlan(owner=o, early_warning=plan.risks.get(r, RiskPlan()).early_warning)
                for r, o in world.org.risk_owners.items()
            },
            "decision_rights": dict(world.org.decision_rights),
            "levers": levers,
            "budget": plan.budget.model_copy(update={"reserve_fraction": lev.reserve_fraction}),
            "gates": [
                GatePlan(**g.model_dump(exclude={"owner"}), experiment=_experiment(g.after))
                for g in world.plan.gates
            ],
        }
    )


def _experiment(after: str) -> str:
    return {
        "prepare": "data review: sample, deduplicate and audit licences",
        "ablations": "small proxy runs and scaling-law fits on the full data mix",
    }.get(after, "")


# --- checking a plan against its base ---------------------------------------------------------


def plan_problems(plan: InterviewPlan) -> list[tuple[str, str]]:
    """Cross-field problems as ``(dotted.path, reason)``; empty when the plan fits its base."""
    if shipped_path(plan.base) is None:
        return [("base", f"no shipped scenario {plan.base!r}{did_you_mean(plan.base)}")]
    out: list[tuple[str, str]] = []
    for qid, oid in plan.clarifications.items():
        q = CLARIFICATION_BY_ID.get(qid)
        if q is None:
            out.append(
                (f"clarifications.{qid}", f"unknown question; one of {_ids(CLARIFICATIONS)}")
            )
        elif oid not in {o.id for o in q.options}:
            out.append(
                (f"clarifications.{qid}", f"unknown choice {oid!r}; one of {_ids(q.options)}")
            )
    world = base_scenario(plan.base)
    teams = set(world.team_ids)
    for tid in plan.teams:
        if tid not in teams:
            out.append((f"teams.{tid}", f"unknown team; one of {', '.join(sorted(teams))}"))
    for risk, rp in plan.risks.items():
        if rp.owner is not None and rp.owner not in teams:
            out.append((f"risks.{risk}.owner", f"unknown team {rp.owner!r}"))
    for kind, holder in plan.decision_rights.items():
        if holder not in teams:
            out.append((f"decision_rights.{kind}", f"unknown team {holder!r}"))
    for kind, options in plan.levers.playbook.items():
        for j, option in enumerate(options):
            if option not in DECISION_OPTIONS[kind]:
                allowed = ", ".join(DECISION_OPTIONS[kind])
                out.append(
                    (f"levers.playbook.{kind}.{j}", f"unknown option {option!r}; one of {allowed}")
                )
    seen: set[str] = set()
    for i, g in enumerate(plan.gates):
        if g.id in seen:
            out.append((f"gates.{i}.id", f"duplicate gate id {g.id!r}"))
        seen.add(g.id)
    return out


def _ids(items: Any) -> str:
    return ", ".join(x.id for x in items)


# --- PLAN.json ----------------------------------------------------------------------------


class PlanError(Exception):
    """A PLAN.json that cannot be used; ``problems`` say where and why, one line each."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    """A plan document in the current format.

    Format 1 had no record of what the org-chart button filled, of who made each
    follow-up call, or of a prose answer: its plans load with none filled by the
    button and every call the candidate's (as format 1 counted them).
    """
    if data.get("format", PLAN_FORMAT) == PLAN_FORMAT_V1:
        return {**data, "format": PLAN_FORMAT}
    return data


def plan_json(plan: InterviewPlan) -> str:
    """PLAN.json text: the values the plan sets, and only those (its format always).

    What a plan leaves at its default was not said (a prose answer that never names a
    reserve states none), and the rubric judges only what was said
    (:meth:`sim.interview.items.Answer.said`); so the file keeps exactly the fields set,
    and a plan judges the same saved and loaded as in memory.
    """
    body = json.loads(plan.model_dump_json(exclude_unset=True))
    return json.dumps({"format": plan.format, **body}, indent=2, ensure_ascii=False) + "\n"


def save_plan(plan: InterviewPlan, path: str | Path) -> None:
    Path(path).write_text(plan_json(plan), encoding="utf-8")


def _positions(text: str) -> Any:
    """The JSON document as round-trip YAML nodes, for line numbers only (None if unreadable)."""
    try:
        # Tabs are only whitespace in valid JSON (a string cannot hold a raw tab).
        return YAML(typ="rt", pure=True).load(io.StringIO(text.replace("\t", " ")))
    except (YAMLError, ValueError, RecursionError):
        return None


def parse_plan(text: str, source: str = "PLAN.json") -> InterviewPlan:
    """Validate PLAN.json text; every problem becomes ``FILE:LINE: field: reason``."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise PlanError([Problem(source, 1, "", "file is larger than 1 MiB")])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlanError([Problem(source, exc.lineno, "", f"not valid JSON: {exc.msg}")]) from None
    except RecursionError:
        raise PlanError([Problem(source, 1, "", "JSON nested too deeply")]) from None
    if not isinstance(data, dict):
        raise PlanError([Problem(source, 1, "", "a plan must be a JSON object")])
    nodes = _positions(text)
    fmt = data.get("format", PLAN_FORMAT)
    if fmt not in PLAN_FORMATS:
        line = (line_of(nodes, ("format",)) if nodes is not None else None) or 1
        raise PlanError(
            [Problem(source, line, "format", f"unknown plan format {fmt!r}; one of "
                     + ", ".join(PLAN_FORMATS))]
        )  # fmt: skip
    data = migrate(data)

    def where(loc: tuple[Any, ...]) -> int:
        return (line_of(nodes, loc) if nodes is not None else None) or 1

    try:
        plan = InterviewPlan.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            loc = tuple(p for p in err["loc"] if p != "[key]")
            problems.append(Problem(source, where(loc), ".".join(map(str, loc)), err["msg"]))
        raise PlanError(problems) from None
    refs = plan_problems(plan)
    if not refs:
        try:
            plan_scenario(plan)
        except ScenarioError as exc:
            refs = [(p.path, p.reason) for p in exc.problems]
    if refs:
        split = [tuple(int(s) if s.isdigit() else s for s in p.split(".")) for p, _ in refs]
        raise PlanError(
            [Problem(source, where(loc), p, r) for (p, r), loc in zip(refs, split, strict=True)]
        )
    return plan


def load_plan(path: str | Path) -> InterviewPlan:
    """Read and validate a PLAN.json file."""
    source = str(path)
    p = Path(path)
    if not p.is_file():
        reason = "no such file" if not p.exists() else "not a regular file"
        raise PlanError([Problem(source, 1, "", reason)])
    try:
        raw = p.read_bytes()[: MAX_BYTES + 1]
        text = raw.decode("utf-8")
    except OSError as exc:
        raise PlanError([Problem(source, 1, "", f"cannot read: {exc.strerror}")]) from None
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise PlanError([Problem(source, line, "", "file is not UTF-8 text")]) from None
    return parse_plan(text, source)
