"""What each text of an answer must say, and whether it says it, where it belongs.

Every free text of a plan fills a *slot* (an early warning for one risk, a challenge's
consequence, a role, a trade-off…). A slot's :class:`Requirement` lists groups of
concepts from :mod:`sim.interview.vocabulary`; the text meets it when it names a concept
from enough groups. On top of that, three coherence checks take credit away:

- **repeats**: a text (nearly) the same as another slot's earns credit in one slot only,
  the one it fits best;
- **belongs elsewhere**: among slots of one family (the ten early warnings, the four
  roles, the challenges' consequences) a text that names more of another member's topic
  than of its own is read as written for that other question;
- **names nothing**: a text that names no concept of the vocabulary at all is filler.

A text that says what is done or why (an early warning, a gate's experiment, how spend is
tracked, a role, the product use, why late is expensive) is judged on its *affirmed* words
only: a concept named in the scope of a negation ("we do not watch dedup rates",
"research does not own the recipe", "a late defect does not force a restart") is not
named, so negating the statement never earns what the statement earns. A challenge's
consequence, the strategy's reason and a trade-off are judged on all their words: there a
negation often carries the point ("we can't finish on time", "no open model reaches the
target", "rather than slip").

:func:`read_texts` returns a :class:`TextVerdict` per slot, each with its evidence:
the concepts found and the ones missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from rapidfuzz import fuzz

from sim.interview.clauses import negated
from sim.interview.plan import InterviewPlan, RiskPlan, RolesPlan
from sim.interview.vocabulary import CONCEPTS, TOKEN, Text, find, names, phrases_named, stem
from sim.scenario.spec import RISK_KINDS

#: How alike two texts must be (RapidFuzz token-sort ratio, 0-100) to count as a repeat.
REPEAT_RATIO = 90.0
#: Words a text needs before a repeat is looked for (two one-word answers may agree).
REPEAT_MIN_TOKENS = 3

#: Signals that can reveal each risk early: an early warning must name one.
SIGNALS: dict[str, tuple[str, ...]] = {
    "data_quality": ("dedup_filter", "data_audit", "proxy_runs"),
    "contamination": ("overlap_scan",),
    "licensing": ("licence_audit", "pii_scan"),
    "tokenizer_config": ("tokenizer_check", "proxy_runs"),
    "loss_spike": ("loss_curve", "grad_norm", "checkpoint_evals"),
    "hardware": ("hardware_health",),
    "eval_gap": ("product_evals",),
    "safety": ("red_team",),
    "budget": ("burn_forecast",),
    "staffing": ("attrition",),
}
#: Methods a gate's cheap experiment can use to look for each defect.
METHODS: dict[str, tuple[str, ...]] = {
    "data_quality": ("dedup_filter", "data_audit", "proxy_runs"),
    "tokenizer_config": ("tokenizer_check", "proxy_runs"),
    "contamination": ("overlap_scan",),
    "licensing": ("licence_audit", "pii_scan"),
}
#: What an experiment after each phase looks like: a text about another phase's
#: experiment on this gate reads as written for that gate.
PHASE_METHODS: dict[str, tuple[str, ...]] = {
    "prepare": ("data_audit", "dedup_filter", "licence_audit", "pii_scan"),
    "ablations": ("proxy_runs",),
    "post_training": ("checkpoint_evals", "red_team"),
    "evaluation": ("product_evals", "evals_generic"),
}
ROLE_SCOPES: dict[str, str] = {
    "product_manager": "pm_scope",
    "research": "research_scope",
    "engineering": "engineering_scope",
    "program_management": "program_scope",
}
DIMENSIONS: dict[str, str] = {"quality": "quality", "schedule": "time", "cost": "money"}
MECHANISMS = ("sunk_compute", "redo", "downstream")
CONSEQUENCE_DIMS = ("time", "money", "quality")


def topic(risk: str) -> tuple[str, ...]:
    """Concepts that mark a text as being about ``risk``: its signals and its subject."""
    return (*SIGNALS[risk], f"topic_{risk}")


@dataclass(frozen=True)
class Requirement:
    """Groups of concepts (any one concept satisfies a group); ``need`` groups must be met."""

    groups: tuple[tuple[str, ...], ...]
    need: int

    @property
    def concepts(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for g in self.groups for c in g))


@dataclass(frozen=True)
class TextVerdict:
    """One slot's text judged: met or not, with the concepts found and missing, and why not."""

    slot: str
    label: str
    text: str
    met: bool
    found: tuple[str, ...]
    missing: tuple[str, ...]
    problem: str = ""

    @property
    def found_labels(self) -> list[str]:
        return [CONCEPTS[c].label for c in self.found]

    @property
    def missing_labels(self) -> list[str]:
        return [CONCEPTS[c].label for c in self.missing]

    def evidence(self) -> str:
        """One line: what the text names, what it misses, and any coherence problem."""
        if not self.text.strip():
            return f"{self.label}: nothing written"
        found = ", ".join(self.found_labels)
        line = f"{self.label}: " + (f"names {found}" if found else "names none of what it needs")
        if self.missing and not self.met:
            line += f"; missing: {' or '.join(self.missing_labels)}"
        if self.problem:
            line += f" ({self.problem})"
        return line


@dataclass(frozen=True)
class Slot:
    id: str
    label: str
    text: str
    requirement: Requirement
    family: str = ""
    affinity: tuple[str, ...] = ()
    kind: str = ""


#: A text reads as the answer to another question only when it answers an item of that
#: kind by more than this better than its own item.
KIND_MARGIN = 0.0
#: Kinds whose answers rightly share their marks, so they are not compared: consequences
#: and trade-offs both weigh time, money and quality; a consequence may well say why
#: late is expensive (weeks of training redone); the budget's early warning is how
#: spend is tracked; a licence audit is an early warning and a gate's experiment alike.
SIBLING_KINDS = (
    {"consequence", "tradeoff"}, {"consequence", "late_discovery"}, {"warning", "tracking"},
    {"warning", "experiment"},
)  # fmt: skip


#: A role text that lists this many things of its scope says what the role owns, with or
#: without the word ("PM: the objective, the trade-offs and the ship call").
ROLE_LIST_MIN = 2


def _listed_scope(slot: Slot, text: Text) -> tuple[str, ...]:
    """The ownership concept, when a role text lists enough of its own scope to imply it.

    Not when the text says what something costs in time, money or quality: that is a
    consequence naming the scope in passing ("a finding at sign-off delays the launch"),
    not a list of what the role owns.
    """
    if slot.kind != "role" or not slot.affinity or find(text, CONSEQUENCE_DIMS).found:
        return ()
    if names(Text.of(slot.text), "ownership") and not names(text, "ownership"):
        return ()  # "research does not own the recipe, the data mix …" denies what it lists
    return ("ownership",) if phrases_named(text, slot.affinity[0]) >= ROLE_LIST_MIN else ()


#: Slot kinds that say what is done, judged on their affirmed words (:func:`affirmed`).
AFFIRMED_KINDS = frozenset(
    {"warning", "experiment", "tracking", "role", "product_use", "late_discovery"}
)
#: Words that negate like "not" ("nothing ships without a red-team eval" is a double
#: negative), written over with "not" and spaces so every position stays where it was.
_NEGATING_PRONOUN = re.compile(r"\b(?:nothing|nobody|no\s+one)\b")
#: A token no phrase of the vocabulary can match.
_MASKED = "\x00"


#: "and the", "and our" between two noun phrases of one list ("the loss and the gradient
#: norm"), written so that it ends no negation's scope (same length: positions stay).
_LIST_AND = re.compile(r"\band(\s+)(?=(?:the|our)\b)")


def affirmed(text: str, refusals: bool = False, lists: bool = False) -> Text:
    """``text`` ready to match, with every word in a negation's scope masked.

    The scope is the prose reader's (:func:`sim.interview.clauses.negated`), without the
    refusal verbs unless ``refusals`` ("we drop near-duplicates" is deduplication; "you
    can't avoid a restart" is a restart): "we do not track burn" names no burn; "nothing
    ships without a red-team eval" names one. ``lists``: "and the" joins a list and ends
    no scope ("we do not watch the loss and the gradient norm"): right for one answer in
    one box, wrong for a transcript, where "and the data team owns …" starts a clause.
    """
    low = text.lower().replace("’", "'").replace("-", " ")
    low = _NEGATING_PRONOUN.sub(lambda m: "not".ljust(len(m.group(0))), low)
    if lists:
        low = _LIST_AND.sub(lambda m: "and" + "_" * len(m.group(1)), low)
    raw = [
        _MASKED if negated(low, m.start(), refusals=refusals) else m.group(0)
        for m in TOKEN.finditer(low)
    ]
    return Text(tuple(raw), tuple(w if w == _MASKED else stem(w) for w in raw))


def _judge(slot: Slot, text: Text) -> TextVerdict:
    req = slot.requirement
    said = text
    if slot.kind in AFFIRMED_KINDS:
        text = affirmed(slot.text, refusals=slot.kind == "late_discovery", lists=True)
    got = find(text, req.concepts)
    named = set(got.found) | set(_listed_scope(slot, text))
    met_groups = sum(1 for g in req.groups if set(g) & named)
    missing = tuple(c for g in req.groups if not set(g) & named for c in g)
    problem = ""
    filler = bool(slot.text.strip()) and not any(find(said, tuple(CONCEPTS)).found)
    denied = [c for c in find(said, req.concepts).found if c not in got.found]
    if filler:
        problem = "names nothing a reviewer could check"
    elif denied:
        problem = "says it does not: " + ", ".join(CONCEPTS[c].label for c in denied)
    return TextVerdict(
        slot.id,
        slot.label,
        slot.text,
        met_groups >= req.need and not filler,
        got.found,
        missing,
        problem,
    )


def slots(plan: InterviewPlan) -> list[Slot]:
    """Every text slot of the plan, with what it must name."""
    out: list[Slot] = []
    for i, c in enumerate(plan.challenges):
        out.append(
            Slot(
                f"challenge.{i}",
                f"'{c.title}', what it costs",
                c.consequence,
                Requirement((CONSEQUENCE_DIMS,), 1),
                "challenge" if c.risk else "",
                topic(c.risk) if c.risk else (),
                "consequence",
            )
        )
    out.append(
        Slot(
            "late_discovery",
            "Why late is expensive",
            plan.late_discovery,
            Requirement(tuple((m,) for m in MECHANISMS), 2),
            kind="late_discovery",
        )
    )
    for risk in RISK_KINDS:
        out.append(
            Slot(
                f"warning.{risk}",
                f"Early warning for {risk}",
                plan.early_warning(risk),
                Requirement((SIGNALS[risk],), 1),
                "warning",
                topic(risk),
                "warning",
            )
        )
    for g in plan.gates:
        methods = tuple(dict.fromkeys(m for k in g.catches for m in METHODS.get(k, ())))
        out.append(
            Slot(
                f"gate.{g.id}",
                f"Experiment behind gate {g.id}",
                g.experiment,
                Requirement((methods,), 1),
                "gate",
                PHASE_METHODS.get(g.after, ()),
                "experiment",
            )
        )
    out.append(
        Slot(
            "tracking",
            "How spend is tracked",
            plan.budget.tracking,
            Requirement((("burn_forecast",), ("cadence", "owner_role")), 2),
            kind="tracking",
        )
    )
    roles = plan.roles.model_dump()
    for role, scope in ROLE_SCOPES.items():
        out.append(
            Slot(
                f"role.{role}",
                f"Role of {role.replace('_', ' ')}",
                roles[role],
                Requirement(((scope,), ("ownership",)), 2),
                "role",
                (scope,),
                "role",
            )
        )
    out.append(
        Slot(
            "strategy_reason",
            "Why this strategy",
            plan.strategy_reason,
            Requirement((("base_model",), ("adapt_criterion",)), 2),
            kind="strategy",
        )
    )
    for k, t in enumerate(plan.tradeoffs):
        protect, give = DIMENSIONS[t.protect], DIMENSIONS[t.give_up]
        out.append(
            Slot(
                f"tradeoff.{k}",
                f"Trade-off {k + 1} (protect {t.protect}, give up {t.give_up})",
                t.text,
                Requirement(((protect,), (give,), ("choice",)), 3),
                kind="tradeoff",
            )
        )
    out.append(
        Slot(
            "product_use",
            "The product use",
            plan.objective.product_use,
            Requirement((("product_use",), ("product_task",)), 2),
            kind="product_use",
        )
    )
    for section, reason in plan.confirmed.items():
        out.append(
            Slot(
                f"confirm.{section}",
                f"Why you keep the scenario's {section}",
                reason,
                Requirement((tuple(c for c in CONCEPTS if not c.startswith("topic_")),), 1),
            )
        )
    return out


def _affinity(text: Text, concepts: Iterable[str]) -> int:
    """How much a text is about a topic: a signal or scope named counts 2, each subject word 1."""
    found = find(text, tuple(concepts)).found
    return sum(phrases_named(text, c) if c.startswith("topic_") else 2 for c in found)


#: A text reads as written about another topic only when it names that topic clearly:
#: a signal, or two subject words (one word such as "cluster" in passing does not).
MISPLACED_MIN = 2


def _rivals(family: str) -> dict[str, tuple[str, ...]]:
    if family == "role":
        return {r.replace("_", " "): (scope,) for r, scope in ROLE_SCOPES.items()}
    if family == "gate":
        return {f"a gate after {p}": m for p, m in PHASE_METHODS.items()}
    return {r: topic(r) for r in RISK_KINDS}


def _misplaced(
    family: str, members: list[Slot], texts: dict[str, Text], verdicts: dict[str, TextVerdict]
) -> None:
    """Mark texts that are more about another member's topic than about their own."""
    rivals = _rivals(family)
    for s in members:
        v = verdicts[s.id]
        if not v.met:
            continue
        own = _affinity(texts[s.id], s.affinity)
        scores = {name: _affinity(texts[s.id], t) for name, t in rivals.items() if t != s.affinity}
        best = max(scores, key=lambda n: scores[n], default=None)
        if best is not None and scores[best] > own and scores[best] >= MISPLACED_MIN:
            verdicts[s.id] = replace(v, met=False, problem=f"reads as written about {best}")


def kind_requirements() -> dict[str, tuple[Requirement, ...]]:
    """Every requirement a text of each kind of question can be held to (one per item)."""
    pairs = [(a, b) for a in DIMENSIONS.values() for b in DIMENSIONS.values() if a != b]
    return {
        "consequence": (Requirement((CONSEQUENCE_DIMS,), 1),),
        "late_discovery": (Requirement(tuple((m,) for m in MECHANISMS), 2),),
        "warning": tuple(Requirement((SIGNALS[r],), 1) for r in RISK_KINDS),
        "experiment": tuple(Requirement((m,), 1) for m in METHODS.values()),
        "tracking": (Requirement((("burn_forecast",), ("cadence", "owner_role")), 2),),
        "role": tuple(Requirement(((sc,), ("ownership",)), 2) for sc in ROLE_SCOPES.values()),
        "strategy": (Requirement((("base_model",), ("adapt_criterion",)), 2),),
        "tradeoff": tuple(Requirement(((a,), (b,), ("choice",)), 3) for a, b in pairs),
        "product_use": (Requirement((("product_use",), ("product_task",)), 2),),
    }


def answer_score(text: Text, req: Requirement, extra: Iterable[str] = ()) -> float:
    """How fully ``text`` answers an item held to ``req``.

    0 unless it meets it, else the share of its groups named (up to 1) plus how many of
    its concepts it names.
    """
    named = set(find(text, req.concepts).found) | set(extra)
    groups = sum(1 for g in req.groups if set(g) & named)
    if groups < req.need:
        return 0.0
    return groups / len(req.groups) + len(named & set(req.concepts))


def _subject(slot: Slot, text: Text) -> int:
    """Words naming the slot's own subject (the challenge's or warning's risk).

    Each is one more sign that the text answers this item.
    """
    return sum(phrases_named(text, c) for c in slot.affinity if c.startswith("topic_"))


#: Words saying that no one holds something ("while nobody decides"): a text saying so
#: states missing ownership, never what a role owns.
NOBODY = frozenset({"nobody", "noone"})


def _says_nobody(text: Text) -> bool:
    raw = [w.lower() for w in text.raw]
    return bool(NOBODY & set(raw)) or any(
        a == "no" and b in ("one", "owner") for a, b in zip(raw, raw[1:], strict=False)
    )


def _other_question(slot: Slot, text: Text, verdicts: dict[str, TextVerdict]) -> None:
    """Mark a text that answers an item of another kind of question better than its own.

    Scores are compared across items (:func:`answer_score`, plus the words naming this
    item's own subject): a text met here is set aside only when it would meet another
    kind's item more fully than it meets this one (by more than :data:`KIND_MARGIN`).
    """
    v = verdicts[slot.id]
    if not v.met or not slot.kind:
        return
    own = answer_score(text, slot.requirement, _listed_scope(slot, text)) + _subject(slot, text)
    for kind, reqs in kind_requirements().items():
        if kind == slot.kind or {kind, slot.kind} in SIBLING_KINDS:
            continue
        if kind == "role" and _says_nobody(text):
            continue  # "the cluster idles while nobody decides" is no role's scope
        if max(answer_score(text, r) for r in reqs) > own + KIND_MARGIN:
            problem = f"reads as the answer to another question ({kind.replace('_', ' ')})"
            verdicts[slot.id] = replace(v, met=False, problem=problem)
            return


def _repeats(all_slots: list[Slot], verdicts: dict[str, TextVerdict]) -> None:
    """Credit a repeated text in one slot only: the one where it names the most."""
    filled = [s for s in all_slots if len(s.text.split()) >= REPEAT_MIN_TOKENS]
    seen: set[str] = set()
    for s in filled:
        if s.id in seen:
            continue
        group = [
            o
            for o in filled
            if fuzz.token_sort_ratio(s.text.lower(), o.text.lower()) >= REPEAT_RATIO
        ]
        if len(group) < 2:
            continue
        seen.update(o.id for o in group)
        keep = max(group, key=lambda o: (verdicts[o.id].met, len(verdicts[o.id].found)))
        for o in group:
            if o.id != keep.id:
                v = verdicts[o.id]
                verdicts[o.id] = replace(v, met=False, problem=f"repeats {keep.label}")


def read_texts(plan: InterviewPlan) -> dict[str, TextVerdict]:
    """Every text slot of ``plan`` judged for content and coherence, by slot id."""
    all_slots = slots(plan)
    texts = {s.id: Text.of(s.text) for s in all_slots}
    verdicts = {s.id: _judge(s, texts[s.id]) for s in all_slots}
    for family in ("warning", "role", "challenge", "gate"):
        _misplaced(family, [s for s in all_slots if s.family == family], texts, verdicts)
    for s in all_slots:
        _other_question(s, texts[s.id], verdicts)
    _repeats(all_slots, verdicts)
    return verdicts


def reason_ok(text: str) -> bool:
    """Whether a short reason names anything at all from the vocabulary (not filler)."""
    return bool(text.strip()) and bool(find(text, tuple(CONCEPTS)).found)


def with_texts(plan: InterviewPlan, texts: dict[str, str]) -> InterviewPlan:
    """``plan`` with the texts of the given slots replaced (slot ids as :func:`slots` names)."""
    challenges = list(plan.challenges)
    risks = dict(plan.risks)
    gates = list(plan.gates)
    tradeoffs = list(plan.tradeoffs)
    roles = plan.roles.model_dump()
    confirmed = dict(plan.confirmed)
    update: dict[str, object] = {}
    budget, objective = plan.budget, plan.objective
    for slot, text in texts.items():
        head, _, key = slot.partition(".")
        if head == "challenge":
            i = int(key)
            challenges[i] = challenges[i].model_copy(update={"consequence": text})
        elif head == "warning":
            old = risks.get(key)  # type: ignore[call-overload]
            risks[key] = (old or RiskPlan()).model_copy(update={"early_warning": text})  # type: ignore[index]
        elif head == "gate":
            gates = [g.model_copy(update={"experiment": text}) if g.id == key else g for g in gates]
        elif head == "tradeoff":
            k = int(key)
            tradeoffs[k] = tradeoffs[k].model_copy(update={"text": text})
        elif head == "role":
            roles[key] = text
        elif head == "confirm":
            confirmed[key] = text  # type: ignore[index]
        elif head == "tracking":
            budget = budget.model_copy(update={"tracking": text})
        elif head == "product_use":
            objective = objective.model_copy(update={"product_use": text})
        elif head in ("late_discovery", "strategy_reason"):
            update[head] = text
        else:
            raise ValueError(f"unknown text slot {slot!r}")
    return plan.model_copy(
        update={
            **update,
            "challenges": challenges,
            "risks": risks,
            "gates": gates,
            "tradeoffs": tradeoffs,
            "roles": RolesPlan(**roles),
            "confirmed": confirmed,
            "budget": budget,
            "objective": objective,
        }
    )
