"""Answer in prose: read a spoken answer (written or pasted) into a plan the model can run.

The reader splits the answer into sentences and looks in each, with the same vocabulary
the rubric uses (:mod:`sim.interview.vocabulary`), for:

- challenges: a sentence about one risk that says what it costs (time, money, quality);
- why late is expensive: a sentence that gives two of the mechanisms;
- owners and early warnings: a team named beside a risk, a signal that can reveal it;
- decision rights: a team that decides, calls or signs off a kind of decision;
- gates: a gate, review or go/no-go after data preparation or the ablations, what it
  looks for, and the sentence as its experiment;
- numbers: the reserve and the ablation share (percentages), the compute, people, data
  licensing and annotation estimates (dollar amounts);
- the playbook: responses to a budget cut, a slip, a spike or a ship call, in the order
  they are said;
- levers, roles, the strategy and its reason, trade-offs, and the product use.

:func:`read_prose` returns the plan it read and one :class:`Reading` per field, with
the sentence it came from, so the candidate can check it and correct the plan before it
is run and judged like any structured plan.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sim.interview.content import DIMENSIONS, METHODS, SIGNALS, topic
from sim.interview.plan import (
    CATALOGUE,
    BudgetPlan,
    Challenge,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    RiskPlan,
    RolesPlan,
    TradeOff,
    base_scenario,
)
from sim.interview.vocabulary import Text, find, numbers, phrases_named
from sim.scenario.spec import RISK_KINDS

SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
WATCH = re.compile(r"\b(?:with|watch(?:es|ing)?|runs|using|through|via|tracks)\s+", re.I)
CLAUSE = re.compile(r",\s*and\s+|;\s*")
#: How people name each team of the shipped scenarios (beside its id and name).
TEAM_WORDS: dict[str, tuple[str, ...]] = {
    "leadership": ("leadership", "exec", "executive", "vp", "cto", "ceo", "sponsor"),
    "product": ("product team", "product manager", "pm", "i own", "i decide", "i make",
                "i hold", "me"),
    "pretraining": ("pretraining", "pre training", "training lead", "training team",
                    "research lead", "pretraining lead"),
    "infra": ("infra", "infrastructure", "sre", "cluster team", "platform team"),
    "data": ("data team", "data engineer", "data lead"),
    "post_training": ("post training team", "alignment team", "fine tuning team",
                      "post training lead"),
    "evals": ("evals team", "eval team", "evaluation team", "evals lead"),
    "safety_legal": ("legal", "safety team", "privacy team", "safety and legal", "counsel"),
}  # fmt: skip
DECIDES = ("decide", "call", "make the call", "sign off", "approve", "own the call", "has the say")
DECISION_WORDS: dict[str, tuple[str, ...]] = {
    "rollback": ("rollback", "roll back", "loss spike", "spike"),
    "data_fix": ("data fix", "data defect", "fix the data"),
    "budget": ("budget", "spend"),
    "schedule": ("schedule", "deadline", "slip", "date"),
    "ship": ("ship", "launch", "release"),
}
#: The words for each playbook option, by decision kind.
OPTION_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "budget": {"use_reserve": ("reserve",), "cut_ablations": ("ablation",),
               "reduce_tokens": ("fewer tokens", "token"),
               "fewer_post_training_rounds": ("post training round", "fewer round"),
               "accept_overrun": ("overrun",)},
    "schedule": {"cut_post_training_rounds": ("post training round", "cut round"),
                 "add_core_staff": ("add staff", "add people", "add core", "hire"),
                 "accept_slip": ("accept the slip", "move the date", "slip")},
    "rollback": {"rollback_skip": ("roll back", "rollback", "skip"),
                 "pause_investigate": ("pause", "investigate"), "continue": ("train on",),
                 "overreact": ("change the recipe", "new recipe")},
    "ship": {"extra_round": ("another round", "extra round"),
             "fix_data_and_retune": ("fix the data", "retune"), "ship": ("ship",)},
}  # fmt: skip
PLAYBOOK_CUES: dict[str, tuple[str, ...]] = {
    "budget": ("budget is cut", "budget cut", "cut the budget", "over budget", "budget slip"),
    "schedule": ("schedule slip", "we slip", "late", "behind schedule"),
    "rollback": ("loss spike", "spike"),
    "ship": ("lag", "product eval", "below target"),
}
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "product_manager": ("as pm", "as the pm", "product manager", "i own", "my job", "i am"),
    "research": ("research",),
    "engineering": ("engineering", "engineer"),
    "program_management": ("program manag", "tpm", "program lead"),
}
#: A role is read when the sentence starts with it ("Research owns …", "As PM I …").
ROLE_AT = 24
GATE_PHASES: dict[str, tuple[str, ...]] = {
    "prepare": ("data review", "after data prep", "before the ablation", "data gate"),
    "ablations": ("ablation", "proxy run", "scaling law", "before the main run"),
}
GATE_WORDS = (
    "gate",
    "go no go",
    "go/no-go",
    "review",
    "checkpoint",
    "milestone",
    "before the main run",
)
GIVE_UP_WORDS = ("slip", "spend", "give up", "accept", "sacrifice", "cut", "lose", "trade away")
STAGE_OF_RISK: dict[str, str] = {
    "data_quality": "data", "contamination": "evaluation", "licensing": "safety_legal",
    "tokenizer_config": "sizing", "loss_spike": "stability", "hardware": "cluster",
    "eval_gap": "post_training", "safety": "safety_legal", "budget": "sizing",
    "staffing": "sizing",
}  # fmt: skip


@dataclass(frozen=True)
class Reading:
    """One thing read from the answer: the field, what was read, and the sentence.

    ``key`` is the reading in the reader's output vocabulary (``field=value``, e.g.
    ``reserve=0.12``, ``owner:data_quality=data``, ``playbook:budget=use_reserve>cut_ablations``;
    docs/interview.md lists them), the form the labelled corpus is scored in. ``unsure``
    readings are the reader's guesses: ask the candidate to confirm them, never judge on
    them unconfirmed.
    """

    field: str
    value: str
    sentence: str
    key: str = ""
    unsure: bool = False


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(text) if len(s.strip().split()) >= 3]


def _has(t: Text, words: Iterable[str]) -> bool:
    return any(t.has(w) for w in words)


def _first_at(sentence: str, words: Iterable[str]) -> int:
    low = sentence.lower().replace("-", " ")
    hits = [low.find(w) for w in words if low.find(w) >= 0]
    return min(hits) if hits else -1


def _team(t: Text, teams: Iterable[str]) -> str | None:
    for team in teams:
        if _has(t, TEAM_WORDS.get(team, ()) or (team.replace("_", " "),)):
            return team
    return None


def _risk_of(t: Text) -> str | None:
    scores = {r: sum(phrases_named(t, c) for c in topic(r)) for r in RISK_KINDS}
    best = max(scores, key=lambda r: scores[r])
    return best if scores[best] > 0 else None


def _signal_clause(s: str) -> str:
    """The part of an ownership sentence that says what is watched ("… with loss alerts")."""
    m = WATCH.search(s)
    return s[m.end() :].strip() if m else s


def _title(risk: str) -> str:
    stage = STAGE_OF_RISK[risk]
    return next((title for title, r in CATALOGUE[stage] if r == risk), risk.replace("_", " "))


class _Reader:
    def __init__(self, plan: InterviewPlan, text: str) -> None:
        self.plan = plan
        self.teams = base_scenario(plan.base).team_ids
        self.readings: list[Reading] = []
        self.update: dict[str, object] = {}
        self.challenges: dict[str, Challenge] = {}
        self.risks: dict[str, RiskPlan] = {}
        self.rights: dict[str, str] = {}
        self.gates: dict[str, GatePlan] = {}
        self.budget: dict[str, object] = {}
        self.levers: dict[str, object] = {}
        self.playbook: dict[str, list[str]] = {}
        self.roles: dict[str, str] = {}
        self.tradeoffs: list[TradeOff] = []
        for s in sentences(text):
            self.sentence(s, Text.of(s))

    def note(self, field: str, value: str, sentence: str) -> None:
        self.readings.append(Reading(field, value, sentence))

    def sentence(self, s: str, t: Text) -> None:
        risk = _risk_of(t)
        dims = find(t, ("time", "money", "quality")).found
        team = _team(t, self.teams)
        self._late(s, t)
        claims = _has(t, DECIDES) or bool(find(t, ("ownership",)).found) or "$" in s
        if risk and dims and risk not in self.challenges and not claims and not _has(t, GATE_WORDS):
            hits = [k for k, d in DIMENSIONS.items() if d in dims]
            self.challenges[risk] = Challenge(
                stage=STAGE_OF_RISK[risk], title=_title(risk), risk=risk,  # type: ignore[arg-type]
                hits=hits, consequence=s,  # type: ignore[arg-type]
            )  # fmt: skip
            self.note("challenge", f"{_title(risk)} ({', '.join(hits)})", s)
        if risk and (team or claims):
            old = self.risks.get(risk, RiskPlan())
            owner = old.owner or team
            warning = old.early_warning or (_signal_clause(s) if find(t, SIGNALS[risk]).found
                                            else "")  # fmt: skip
            if (owner, warning) != (old.owner, old.early_warning):
                self.risks[risk] = RiskPlan(owner=owner, early_warning=warning)  # type: ignore[arg-type]
                self.note(f"owner of {risk}", f"{owner or '(no team named)'}"
                          + (" with an early warning" if warning else ""), s)  # fmt: skip
        if team and _has(t, DECIDES):
            for kind, words in DECISION_WORDS.items():
                if _has(t, words) and kind not in self.rights:
                    self.rights[kind] = team
                    self.note(f"decision right: {kind}", team, s)
        self._gate(s, t)
        self._numbers(s, t)
        self._playbook(s, t)
        self._levers(s, t)
        self._role(s, t)
        self._strategy(s, t)
        self._tradeoff(s, t, dims)
        if (
            "product_use" not in self.update
            and find(t, ("product_use", "product_task")).missing == ()
        ):
            self.update["product_use"] = s
            self.note("product use", s, s)

    def _late(self, s: str, t: Text) -> None:
        if "late_discovery" in self.update:
            return
        if len(find(t, ("sunk_compute", "redo", "downstream")).found) >= 2:
            self.update["late_discovery"] = s
            self.note("why late is expensive", s, s)

    def _gate(self, s: str, t: Text) -> None:
        if not _has(t, GATE_WORDS):
            return
        for clause in CLAUSE.split(s):
            self._gate_clause(clause, Text.of(clause), s)

    def _gate_clause(self, s: str, t: Text, sentence: str) -> None:
        for phase, cues in GATE_PHASES.items():
            if not _has(t, cues) or phase in self.gates:
                continue
            catches = [k for k, m in METHODS.items() if find(t, m).found]
            if catches:
                self.gates[phase] = GatePlan(
                    id=f"{phase}_gate",
                    after=phase,  # type: ignore[arg-type]
                    catches=catches,
                    experiment=s,
                )  # type: ignore[arg-type]
                self.note(f"gate after {phase}", ", ".join(catches), sentence)
                return

    def _numbers(self, s: str, t: Text) -> None:
        nums = numbers(s)
        pct = [n.value for n in nums if n.unit == "%"]
        usd = [n.value for n in nums if n.unit == "$"]
        if pct and t.has("reserve") and "reserve_fraction" not in self.budget:
            self.budget["reserve_fraction"] = min(0.5, pct[0])
            self.note("reserve", f"{pct[0]:.0%}", s)
        if pct and t.has("ablation") and "ablation_fraction" not in self.levers:
            self.levers["ablation_fraction"] = min(0.5, pct[-1] if t.has("reserve") else pct[0])
            self.note("ablation budget", f"{self.levers['ablation_fraction']:.0%}", s)
        lines = {"compute_usd": ("compute", "gpu"), "people_usd": ("people", "salar", "staff"),
                 "data_licensing_usd": ("licens", "licenc", "data deal"),
                 "annotation_usd": ("annotation", "label", "preference data")}  # fmt: skip
        for field, words in lines.items():
            at = _first_at(s, words)
            if at < 0 or field in self.budget:
                continue
            after = [n.value for n in numbers(s[at:]) if n.unit == "$"]
            if after or len(usd) == 1:
                value = after[0] if after else usd[0]
                self.budget[field] = value
                self.note(f"{field.removesuffix('_usd').replace('_', ' ')} estimate",
                          f"${value:,.0f}", s)  # fmt: skip
        if (
            find(t, ("burn_forecast",)).found
            and find(t, ("cadence", "owner_role")).found
            and "tracking" not in self.budget
        ):
            self.budget["tracking"] = s
            self.note("how spend is tracked", s, s)

    def _playbook(self, s: str, t: Text) -> None:
        for kind, cues in PLAYBOOK_CUES.items():
            if kind in self.playbook or not _has(t, cues):
                continue
            order = sorted(
                (at, option)
                for option, words in OPTION_WORDS[kind].items()
                if (at := _first_at(s, words)) >= 0
            )
            options = [o for _, o in order]
            if kind == "rollback" and "rollback_skip" not in options:
                continue
            if len(options) >= (1 if kind in ("rollback", "ship") else 2):
                self.playbook[kind] = options
                self.note(f"playbook: {kind}", " → ".join(options), s)

    def _levers(self, s: str, t: Text) -> None:
        if find(t, ("overlap_scan",)).found and "decontaminate" not in self.levers:
            self.levers["decontaminate"] = True
            self.note("decontaminate", "on", s)
        early = _has(t, ("early", "before training", "from day one", "from the start", "up front"))
        if early and find(t, ("product_evals",)).found:
            self.levers.setdefault("product_evals_early", True)
            self.note("product evals early", "on", s)
        if early and _has(t, ("safety", "legal", "privacy")):
            self.levers.setdefault("safety_from_start", True)
            self.note("safety from the start", "on", s)
        if _has(t, ("embed", "embedded", "same team", "sit with")) and _has(
            t, ("engineer", "infra")
        ):
            self.levers.setdefault("engineering_embedded", True)
            self.note("engineering embedded", "on", s)

    def _role(self, s: str, t: Text) -> None:
        if not find(t, ("ownership",)).found:
            return
        at = {r: _first_at(s, w) for r, w in ROLE_WORDS.items()}
        said = sorted((i, r) for r, i in at.items() if 0 <= i < ROLE_AT and r not in self.roles)
        if said:
            role = said[0][1]
            self.roles[role] = s
            self.note(f"role: {role.replace('_', ' ')}", s, s)

    def _strategy(self, s: str, t: Text) -> None:
        if "strategy" in self.update or not find(t, ("base_model",)).found:
            return
        low = s.lower()
        adapt = any(
            w in low for w in ("we adapt", "adapting", "fine-tune", "fine tune", "we will adapt")
        )
        scratch = any(w in low for w in ("from scratch", "we pretrain", "pretrain our own"))
        if adapt or scratch:
            self.update["strategy"] = "pretrain" if scratch else "adapt"
            self.update["strategy_reason"] = s
            self.note("strategy", str(self.update["strategy"]), s)

    def _tradeoff(self, s: str, t: Text, dims: tuple[str, ...]) -> None:
        if len(dims) < 2 or not find(t, ("choice",)).found or len(self.tradeoffs) >= 3:
            return
        by_dim = {d: k for k, d in DIMENSIONS.items()}
        pivot = _first_at(s, ("rather than", "instead of"))
        give_at = _first_at(s, GIVE_UP_WORDS)
        spans = {d: _first_at(s, _DIM_WORDS[d]) for d in dims}
        placed = sorted((i, d) for d, i in spans.items() if i >= 0)
        if len(placed) < 2:
            placed = [(0, d) for d in dims]
        if pivot >= 0:
            give = next((d for i, d in placed if i < pivot), placed[0][1])
        elif give_at >= 0:
            give = min(placed, key=lambda p: abs(p[0] - give_at))[1]
        else:
            give = placed[-1][1]
        protect = next(d for _, d in placed if d != give)
        self.tradeoffs.append(TradeOff(protect=by_dim[protect], give_up=by_dim[give], text=s))  # type: ignore[arg-type]
        self.note("trade-off", f"protect {by_dim[protect]}, give up {by_dim[give]}", s)

    def result(self) -> InterviewPlan:
        p = self.plan
        levers = LeverPlan(**{**self.levers, "playbook": self.playbook})  # type: ignore[arg-type]
        budget = BudgetPlan(**self.budget)  # type: ignore[arg-type]
        objective = ObjectivePlan(product_use=str(self.update.get("product_use", ""))[:200],
                                  targets=list(p.objective.targets))  # fmt: skip
        rest = {k: v for k, v in self.update.items() if k != "product_use"}
        return InterviewPlan(
            candidate=p.candidate, base=p.base, clarifications=dict(p.clarifications),
            challenges=list(self.challenges.values()), risks=self.risks,  # type: ignore[arg-type]
            decision_rights=self.rights, gates=list(self.gates.values()),  # type: ignore[arg-type]
            budget=budget, levers=levers, roles=RolesPlan(**self.roles),
            tradeoffs=self.tradeoffs, objective=objective, **rest,  # type: ignore[arg-type]
        ).model_copy(update={"prose": self.text_of()})  # fmt: skip

    def text_of(self) -> str:
        return str(self.plan.prose)


_DIM_WORDS: dict[str, tuple[str, ...]] = {
    "time": (
        "slip",
        "late",
        "week",
        "day",
        "month",
        "date",
        "deadline",
        "schedule",
        "delay",
        "sooner",
        "time",
    ),
    "money": ("spend", "cost", "budget", "$", "money", "reserve", "dollar", "overrun"),
    "quality": ("quality", "worse", "bar", "score", "capabilit", "accuracy", "weaker"),
}


@dataclass(frozen=True)
class ProseReading:
    """A prose answer read: the plan, every reading with its sentence, and any messages."""

    plan: InterviewPlan
    readings: tuple[Reading, ...]
    messages: tuple[str, ...] = ()

    @property
    def unsure(self) -> tuple[Reading, ...]:
        """The readings the candidate must confirm or correct before the plan is judged."""
        return tuple(r for r in self.readings if r.unsure)


def read_answer(text: str, plan: InterviewPlan | None = None) -> ProseReading:
    """A prose answer read on ``plan``'s world: never raises on any text."""
    base = (plan or InterviewPlan()).model_copy(update={"prose": text})
    reader = _Reader(base, text)
    return ProseReading(reader.result(), tuple(reader.readings))


def read_prose(text: str, plan: InterviewPlan | None = None) -> tuple[InterviewPlan, list[Reading]]:
    """The plan read from a prose answer (on ``plan``'s world), and what was read where."""
    read = read_answer(text, plan)
    return read.plan, list(read.readings)
