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

:func:`read_texts` returns a :class:`TextVerdict` per slot, each with its evidence:
the concepts found and the ones missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from rapidfuzz import fuzz

from sim.interview.plan import InterviewPlan
from sim.interview.vocabulary import CONCEPTS, Text, find
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


def _judge(slot: Slot, text: Text) -> TextVerdict:
    req = slot.requirement
    got = find(text, req.concepts)
    met_groups = sum(1 for g in req.groups if set(g) & set(got.found))
    missing = tuple(c for g in req.groups if not set(g) & set(got.found) for c in g)
    problem = ""
    if slot.text.strip() and not any(find(text, tuple(CONCEPTS)).found):
        problem = "names nothing a reviewer could check"
    return TextVerdict(
        slot.id,
        slot.label,
        slot.text,
        met_groups >= req.need and not problem,
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
            )
        )
    out.append(
        Slot(
            "late_discovery",
            "Why late is expensive",
            plan.late_discovery,
            Requirement(tuple((m,) for m in MECHANISMS), 2),
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
            )
        )
    out.append(
        Slot(
            "tracking",
            "How spend is tracked",
            plan.budget.tracking,
            Requirement((("burn_forecast",), ("cadence", "owner_role")), 2),
        )
    )
    roles = plan.roles.model_dump()
    for role, scope in ROLE_SCOPES.items():
        out.append(
            Slot(
                f"role.{role}",
                f"Role of {role.replace('_', ' ')}",
                roles[role],
                Requirement(((scope,),), 1),
                "role",
                (scope,),
            )
        )
    out.append(
        Slot(
            "strategy_reason",
            "Why this strategy",
            plan.strategy_reason,
            Requirement((("base_model",), ("adapt_criterion",)), 2),
        )
    )
    for k, t in enumerate(plan.tradeoffs):
        protect, give = DIMENSIONS[t.protect], DIMENSIONS[t.give_up]
        out.append(
            Slot(
                f"tradeoff.{k}",
                f"Trade-off {k + 1} (protect {t.protect}, give up {t.give_up})",
                t.text,
                Requirement(((protect,), (give,)), 2),
            )
        )
    out.append(
        Slot(
            "product_use",
            "The product use",
            plan.objective.product_use,
            Requirement((("product_use",),), 1),
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
    """How much a text is about a topic: a signal or scope named counts 2, a subject word 1."""
    return sum(1 if c.startswith("topic_") else 2 for c in find(text, tuple(concepts)).found)


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
        if best is not None and scores[best] > own:
            verdicts[s.id] = replace(v, met=False, problem=f"reads as written about {best}")


def _repeats(all_slots: list[Slot], verdicts: dict[str, TextVerdict]) -> None:
    """Credit a repeated text in one slot only: the one where it names the most."""
    filled = [s for s in all_slots if len(s.text.split()) >= REPEAT_MIN_TOKENS]
    seen: set[str] = set()
    for s in filled:
        if s.id in seen:
            continue
        group = [
            o for o in filled if fuzz.token_sort_ratio(s.text.lower(), o.text.lower()) >= REPEAT_RATIO
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
    _repeats(all_slots, verdicts)
    return verdicts


def reason_ok(text: str) -> bool:
    """Whether a short reason names anything at all from the vocabulary (not filler)."""
    return bool(text.strip()) and bool(find(text, tuple(CONCEPTS)).found)
