"""The quick plan: at most 30 inputs that reach every rubric item (issue 25, point 7).

The full form asks about 95 inputs; the quick plan asks :data:`QUICK_INPUTS` (27) and the
follow-ups their calls (:data:`FOLLOWUP_CALLS`, one each on the buttons or in words), 30 in
all. Each input says which rubric items it feeds (:attr:`QuickInput.items`), and every item
but the simulation's is fed by one (tested: each item can be met from the quick plan
alone, and every input moves the score or the grade when left empty). It builds the same
:class:`~sim.interview.plan.InterviewPlan` as the form, so it is run, played and judged like
any plan, and the full form can then deepen it.

Where one box holds several things (the owners and their warnings, the playbook, the roles,
the trade-offs, the rest of the budget) it is read with the prose reader, and readings the
reader is unsure of are left out (:attr:`QuickPlan.left_out`), never guessed: the candidate
corrects them in the full form.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sim.interview.content import DIMENSIONS, METHODS, topic
from sim.interview.items import PRACTICES as ITEM_PRACTICES
from sim.interview.plan import (
    CATALOGUE,
    BudgetPlan,
    Challenge,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    RolesPlan,
    base_scenario,
)
from sim.interview.prose import ROLE_WORDS, Reading, first_seen, read_answer
from sim.interview.vocabulary import Text, find, phrases_named
from sim.scenario.spec import DECISION_KINDS

Kind = Literal["text", "lines", "percent", "usd", "team", "choice", "practices"]


@dataclass(frozen=True)
class QuickInput:
    """One input of the quick plan: its key, the question, its kind, the items it feeds."""

    id: str
    label: str
    kind: Kind
    items: tuple[str, ...]
    help: str = ""


#: Part 1's stages in the quick plan: the five areas breadth asks for, and safety.
QUICK_STAGES = ("data", "cluster", "stability", "post_training", "evaluation", "safety_legal")
_P1 = ("breadth", "consequences", "grounding")
#: The practices one multiselect states (picked: on; not picked: off, and said so): the
#: rubric's on/off practice levers.
PRACTICES = tuple(name for name, (_, good) in ITEM_PRACTICES.items() if good is True)

QUICK_INPUTS: tuple[QuickInput, ...] = (
    QuickInput("challenge_data", "Data: the challenge, what it costs, and where it first shows",
               "text", _P1, "e.g. noisy, duplicated web data: the model learns less and misses "
               "its target; first seen in the ablations"),
    QuickInput("challenge_cluster", "The cluster: the challenge, what it costs, where it first "
               "shows", "text", _P1),
    QuickInput("challenge_stability", "Training stability: the challenge, what it costs, where "
               "it first shows", "text", _P1),
    QuickInput("challenge_post_training", "Post-training: the challenge, what it costs, where it "
               "first shows", "text", _P1),
    QuickInput("challenge_evaluation", "Evaluation: the challenge, what it costs, where it first "
               "shows", "text", _P1),
    QuickInput("challenge_safety_legal", "Safety, legal and privacy: the challenge, what it "
               "costs, where it first shows", "text", (*_P1, "safety")),
    QuickInput("late_discovery", "Why does a problem found late in a long run cost so much?",
               "text", ("grounding",)),
    QuickInput("owners", "Who owns each risk, and what do they watch? One line each", "lines",
               ("owners",), "e.g. The data team owns data quality and watches dedup rates."),
    *(QuickInput(f"right_{k}", f"Who makes the {k.replace('_', ' ')} call?", "team",
                 ("decision_rights", "roles"))
      for k in DECISION_KINDS),
    QuickInput("gate_prepare", "A gate after data preparation: what it checks, and how", "text",
               ("gates", "safety"), "e.g. dedup and filter rates, an n-gram overlap scan and "
               "a licence audit on sampled shards"),
    QuickInput("gate_ablations", "A gate after the ablations: what it checks, and how", "text",
               ("gates",), "e.g. small proxy runs catch tokenizer and config mistakes"),
    QuickInput("ablation", "Ablations and scaling-law runs, % of the main run", "percent",
               ("gates",)),
    QuickInput("reserve", "Reserve, % of the budget", "percent", ("budget",)),
    QuickInput("compute_usd", "Your compute estimate (USD)", "usd", ("budget",)),
    QuickInput("budget_rest", "The rest of the budget in dollars: people, data licensing, "
               "annotation", "lines", ("budget",), "e.g. People $1.5M, data licensing $300k, "
               "annotation $250k."),
    QuickInput("tracking", "How is spend tracked, and by whom?", "text", ("budget",)),
    QuickInput("playbook", "What is agreed in advance: on a budget cut, on a schedule slip, on "
               "a loss spike (in order)", "lines", ("levers", "decision_rights"),
               "e.g. If the budget is cut, first use the reserve, then cut ablations, then run "
               "fewer post-training rounds."),
    QuickInput("practices", "From day one, we…", "practices",
               ("gates", "objective", "roles", "safety")),
    QuickInput("product_use", "Who uses the model, for what?", "text", ("objective",)),
    QuickInput("roles", "What the PM, research, engineering and program management each own: "
               "one line each", "lines", ("roles",)),
    QuickInput("strategy", "Pretrain from scratch or adapt an open base model?", "choice",
               ("build_vs_adapt",)),
    QuickInput("strategy_reason", "Why?", "text", ("build_vs_adapt",)),
    QuickInput("tradeoffs", "Two trade-offs: what you protect, what you give up, where the "
               "line is", "lines", ("tradeoffs",),
               "e.g. We protect quality rather than the date, up to two weeks of slip."),
)  # fmt: skip
#: The follow-ups' calls: one each, on the buttons or in words, after the quick plan.
FOLLOWUP_CALLS = 3
#: Items the quick plan reaches through the simulation and the follow-ups, not an input.
PLAYED = ("outcome", "followup_spike", "followup_budget", "followup_ship")


@dataclass(frozen=True)
class QuickPlan:
    """The quick plan built: the plan, what was read from its boxes, and what was left out."""

    plan: InterviewPlan
    readings: tuple[Reading, ...]
    left_out: tuple[Reading, ...]


def _risk(stage: str, text: str) -> tuple[str, str]:
    """(title, risk) of the stage's catalogue challenge the text is most about."""
    t = Text.of(text)
    options = CATALOGUE[stage]
    scores = [sum(phrases_named(t, c) for c in topic(risk)) for _, risk in options]
    return options[max(range(len(options)), key=lambda k: (scores[k], -k))]


def _hits(text: str) -> list[str]:
    found = set(find(text, tuple(DIMENSIONS.values())).found)
    return [k for k, d in DIMENSIONS.items() if d in found]


def _catches(text: str) -> list[str]:
    named = set(Text.of(text).named)
    return [d for d, methods in METHODS.items() if named & set(methods)]


def _roles(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in re.split(r"[\n;]+|(?<=[.!?])\s+", text):
        low = line.strip().lower()
        at = [(low.find(w), role) for role, ws in ROLE_WORDS.items() for w in ws
              if 0 <= low.find(w) < 24 and role not in out]  # fmt: skip
        if at:
            out[min(at)[1]] = line.strip()[:2_000]
    return out


def _text(values: Mapping[str, Any], key: str) -> str:
    v = values.get(key)
    return str(v).strip()[:2_000] if v else ""


def quick_plan(values: Mapping[str, Any], plan: InterviewPlan | None = None) -> QuickPlan:
    """The plan the quick inputs ``values`` (by :attr:`QuickInput.id`) make, on ``plan``'s world.

    Empty inputs are left unsaid, as in the form. Numbers: ``ablation`` and ``reserve`` in
    percent, ``compute_usd`` in dollars; a ``right_*`` is a team id; ``strategy`` is
    ``pretrain`` or ``adapt``; ``practices`` lists the :data:`PRACTICES` picked.
    """
    base = plan or InterviewPlan()
    teams = set(base_scenario(base.base).team_ids)
    challenges = []
    for stage in QUICK_STAGES:
        text = _text(values, f"challenge_{stage}")
        if text:
            title, risk = _risk(stage, text)
            challenges.append(Challenge(
                stage=stage, title=title, risk=risk, hits=_hits(text),  # type: ignore[arg-type]
                consequence=text, earliest_signal=first_seen(text),  # type: ignore[arg-type]
            ))  # fmt: skip
    readings: list[Reading] = []

    def read(key: str) -> InterviewPlan:
        r = read_answer(_text(values, key), base)
        readings.extend(r.readings)
        return r.plan

    update: dict[str, Any] = {"challenges": challenges}
    if _text(values, "late_discovery"):
        update["late_discovery"] = _text(values, "late_discovery")
    if _text(values, "owners"):
        update["risks"] = read("owners").risks
    rights = {k: values[f"right_{k}"] for k in DECISION_KINDS if values.get(f"right_{k}") in teams}
    if rights:
        update["decision_rights"] = rights
    gates = []
    for after in ("prepare", "ablations"):
        text = _text(values, f"gate_{after}")
        catches = _catches(text)
        if text and catches:
            gates.append(GatePlan(id=f"{after}_gate", after=after, catches=catches,  # type: ignore[arg-type]
                                  experiment=text))  # fmt: skip
    if gates:
        update["gates"] = gates
    budget: dict[str, Any] = {}
    if values.get("reserve") is not None:
        budget["reserve_fraction"] = min(0.5, max(0.0, float(values["reserve"]) / 100))
    if values.get("compute_usd"):
        budget["compute_usd"] = float(values["compute_usd"])
    if _text(values, "budget_rest"):
        rest = read("budget_rest").budget
        budget |= {k: getattr(rest, k) for k in rest.model_fields_set
                   if k in ("people_usd", "data_licensing_usd", "annotation_usd")}  # fmt: skip
    if _text(values, "tracking"):
        budget["tracking"] = _text(values, "tracking")
    if budget:
        update["budget"] = BudgetPlan(**budget)
    levers: dict[str, Any] = {}
    if values.get("ablation") is not None:
        levers["ablation_fraction"] = min(1.0, max(0.0, float(values["ablation"]) / 100))
    if values.get("practices") is not None:
        picked = set(values["practices"])
        levers |= {p: p in picked for p in PRACTICES}
    if _text(values, "playbook"):
        levers["playbook"] = dict(read("playbook").levers.playbook)
    if levers:
        update["levers"] = LeverPlan(**levers)
    if _text(values, "product_use"):
        update["objective"] = ObjectivePlan(product_use=_text(values, "product_use")[:200],
                                            targets=list(base.objective.targets))  # fmt: skip
    roles = _roles(_text(values, "roles"))
    if roles:
        update["roles"] = RolesPlan(**roles)
    if values.get("strategy") in ("pretrain", "adapt"):
        update["strategy"] = values["strategy"]
    if _text(values, "strategy_reason"):
        update["strategy_reason"] = _text(values, "strategy_reason")
    if _text(values, "tradeoffs"):
        update["tradeoffs"] = read("tradeoffs").tradeoffs
    fresh = InterviewPlan(candidate=base.candidate, base=base.base,
                          clarifications=dict(base.clarifications))  # fmt: skip
    built = InterviewPlan.model_validate({**fresh.model_dump(exclude_unset=True), **update})
    return QuickPlan(built, tuple(readings), tuple(r for r in readings if r.unsure))
