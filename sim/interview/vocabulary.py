"""The interview's domain vocabulary: concepts, their synonyms and inflections, and matching.

A :class:`Concept` is one idea a rubric item looks for ("the loss curve", "an overlap scan
against the eval sets", "time lost"), spelled out as the phrases people use for it. A
text *names* a concept when one of its phrases occurs in it, word for word after both are
tokenised and stemmed with the Snowball English stemmer (so "monitors", "monitoring" and
"monitored" are one word). Words of six letters or more also match a misspelling within a
small edit distance (RapidFuzz), so "gradiant norm" still counts. A phrase written
``=word`` matches that word exactly, unstemmed: ``=weeks`` is a duration, "weekly" is not.

Matching knows nothing about the rubric: :mod:`sim.interview.content` says which concepts
each answer must name. docs/interview.md lists the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import snowballstemmer
from rapidfuzz.distance import Levenshtein

#: Shortest stem that may match a misspelling, and the edits allowed per length.
FUZZY_MIN_LETTERS = 6
#: Words that may stand between two words of a phrase ("throws that compute away").
GAP = 2
TOKEN = re.compile(r"\$|%|[0-9]+(?:[.,][0-9]+)*[a-z]*|[a-z]+(?:'[a-z]+)?")
NUMBER = re.compile(
    r"(?P<cur>\$)?\s?(?P<num>[0-9]+(?:[.,][0-9]+)*(?:\s[0-9]{3}(?![0-9.,]))*)\s?"
    r"(?P<unit>%|k\b|m\b|b\b|million|billion|"
    r"thousand|percent|per\s+cent\b|days?|weeks?|months?|gpus?|tokens?|t\b)?(?P<usd>\s?(?:dollars|usd))?",
    re.IGNORECASE,
)

_STEMMER = snowballstemmer.stemmer("english")


@dataclass(frozen=True)
class Concept:
    """One idea, with the phrases that name it."""

    id: str
    label: str
    phrases: tuple[str, ...]


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (and ``$``, ``%`` and numbers) of ``text``."""
    return TOKEN.findall(text.lower().replace("’", "'").replace("-", " "))


@lru_cache(maxsize=20_000)
def stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


def _close(a: str, b: str) -> bool:
    if a == b:
        return True
    if min(len(a), len(b)) < FUZZY_MIN_LETTERS or a[:2] != b[:2]:
        return False
    allowed = 1 if max(len(a), len(b)) < 9 else 2
    return Levenshtein.distance(a, b, score_cutoff=allowed) <= allowed


@dataclass(frozen=True)
class Text:
    """A text ready to match: its raw tokens and their stems."""

    raw: tuple[str, ...]
    stems: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> Text:
        return _text(text)

    def has(self, phrase: str) -> bool:
        """Whether ``phrase`` occurs in the text (stemmed, fuzzy on long words)."""
        return _find(self, _pattern(phrase))

    @cached_property
    def named(self) -> frozenset[str]:
        """Every concept of the vocabulary the text names."""
        return frozenset(c.id for c in CONCEPTS.values() if any(self.has(p) for p in c.phrases))


@lru_cache(maxsize=4_096)
def _text(text: str) -> Text:
    raw = tuple(tokens(text))
    return Text(raw, tuple(stem(t) for t in raw))


@lru_cache(maxsize=4_096)
def _pattern(phrase: str) -> tuple[tuple[bool, str], ...]:
    """A phrase as (exact, word) pairs: exact words match raw tokens, others stems."""
    out: list[tuple[bool, str]] = []
    for part in phrase.split():
        if part.startswith("="):
            out.append((True, part[1:].lower()))
        else:
            out.extend((False, stem(t)) for t in tokens(part))
    return tuple(out)


@lru_cache(maxsize=1)
def _vocabulary_stems() -> frozenset[str]:
    return frozenset(
        w for c in CONCEPTS.values() for p in c.phrases for exact, w in _pattern(p) if not exact
    )


@lru_cache(maxsize=50_000)
def _matches(word_stem: str) -> frozenset[str]:
    """The vocabulary's stems that a text's stem matches (itself, or within a typo)."""
    return frozenset(w for w in _vocabulary_stems() if _close(word_stem, w))


def _word_at(text: Text, i: int, exact: bool, w: str) -> bool:
    if exact:
        return text.raw[i] == w
    return w == text.stems[i] or w in _matches(text.stems[i])


def _find(text: Text, pattern: tuple[tuple[bool, str], ...]) -> bool:
    """Whether the words of ``pattern`` occur in order, at most :data:`GAP` words apart."""
    if not pattern:
        return False
    n = len(text.raw)
    for i in range(n):
        if not _word_at(text, i, *pattern[0]):
            continue
        at, ok = i, True
        for exact, w in pattern[1:]:
            nxt = next(
                (k for k in range(at + 1, min(n, at + 2 + GAP)) if _word_at(text, k, exact, w)),
                None,
            )
            if nxt is None:
                ok = False
                break
            at = nxt
        if ok:
            return True
    return False


def _c(cid: str, label: str, *phrases: str) -> Concept:
    return Concept(cid, label, phrases)


CONCEPTS: dict[str, Concept] = {
    c.id: c
    for c in (
        # --- signals an early warning can watch -----------------------------------------------
        _c("loss_curve", "the training loss", "loss", "loss curve", "perplexity"),
        _c("grad_norm", "the gradient norm", "gradient norm", "grad norm", "gradient",
           "gradnorm"),
        _c("checkpoint_evals", "evals on each checkpoint", "checkpoint eval",
           "checkpoint evaluation", "intermediate eval", "eval every checkpoint",
           "evals on every checkpoint", "evals on each checkpoint"),
        _c("dedup_filter", "deduplication and filtering", "dedup", "deduplication",
           "deduplicate", "duplicate", "near duplicate", "=dup", "=dups",
           "minhash", "filter", "filtering",
           "quality classifier", "junk rate", "boilerplate"),
        _c("data_audit", "sampling and auditing the data", "data audit", "sample audit",
           "spot check", "manual review of samples", "data card", "read samples",
           "sampled documents", "inspect samples", "look at samples", "sampled read",
           "eyeball"),
        _c("proxy_runs", "small proxy runs and ablations", "proxy run", "proxy model",
           "small model", "ablation", "pilot run", "1b run", "1b proxy", "small scale run",
           "scaling law", "scaling law fit"),
        _c("overlap_scan", "an overlap scan against the eval sets", "overlap", "n gram",
           "ngram", "13 gram", "contamination scan", "contamination check", "decontaminate",
           "decontamination", "canary", "exact match against benchmark",
           "benchmark items in the data", "leak", "leakage"),
        _c("licence_audit", "a licence and provenance audit", "licence", "license",
           "licensing", "licencing", "provenance", "copyright", "terms of use", "opt out",
           "legal review"),
        _c("pii_scan", "a personal-data scan", "personal data", "personal information",
           "pii", "privacy", "gdpr", "redact", "redaction", "de identification", "anonymise",
           "anonymize", "=phi"),
        _c("tokenizer_check", "tokenizer and config checks", "=tokenizer", "=tokenizers",
           "=tokeniser", "=tokenisers",
           "fertility", "tokens per word", "compression", "vocabulary",
           "config", "configuration", "hyperparameter",
           "dry run", "smoke test", "unit test"),
        _c("hardware_health", "node health and failure rates", "node health",
           "health check", "burn in", "gpu failure", "failure rate", "ecc error", "xid",
           "nccl", "straggler", "mtbf", "uptime", "interruption", "throughput", "mfu",
           "hardware", "node"),
        _c("product_evals", "product evals on real use", "product eval",
           "product evaluation", "held out", "support ticket", "customer ticket",
           "real user", "user study", "human eval", "side by side", "internal eval",
           "task eval", "acceptance test", "product metric"),
        _c("red_team", "red-teaming and safety evals", "red team", "red teaming",
           "safety eval", "safety evaluation", "jailbreak", "harmful", "toxicity",
           "safety review", "policy review", "adversarial test"),
        _c("burn_forecast", "burn against the forecast", "burn", "burn rate", "spend",
           "forecast", "=actuals", "gpu hours", "cost per", "variance", "invoice",
           "budget review", "cost report"),
        _c("attrition", "attrition and cover for key people", "attrition", "bus factor",
           "hiring", "hire", "headcount", "key person", "succession", "backup", "cover",
           "retention", "handover", "resign", "vacancy", "onboarding", "staffing"),
        _c("monitoring", "watching it (generic)", "monitor", "dashboard", "alert", "alarm",
           "on call", "watch", "telemetry", "track"),
        _c("evals_generic", "evals (generic)", "eval", "evaluation", "benchmark"),
        _c("cadence", "a cadence", "=daily", "=weekly", "=monthly", "every week",
           "each week", "every day", "sprint", "=biweekly", "per week", "each round",
           "every round"),
        # --- what a problem costs -------------------------------------------------------------
        _c("time", "time", "=day", "=days", "=week", "=weeks", "=month", "=months", "late",
           "delay", "slip", "deadline", "schedule", "behind", "sooner", "idle", "wait",
           "lost time", "date", "time", "lost work", "work lost", "downtime", "rework"),
        _c("money", "money", "$", "cost", "money", "dollar", "budget", "overrun",
           "expensive", "compute bill", "wasted compute", "bill", "price", "pay", "=paid", "spend",
           "million", "gpu hours"),
        _c("quality", "quality", "quality", "accuracy", "score", "worse", "weaker",
           "degrade", "regress", "capability", "=weak", "below target", "below the bar", "=bar",
           "miss the target", "misses the target", "hallucination", "error rate", "unsafe",
           "unreliable", "bias", "lower"),
        # --- why late discovery is expensive --------------------------------------------------
        _c("sunk_compute", "compute already spent", "compute already spent",
           "already spent", "spent compute", "wasted", "thrown away", "throw away", "throws away",
           "sunk",
           "=burned", "lost compute", "gpu hours", "weeks of training", "weeks of compute",
           "compute is gone", "written off"),
        _c("redo", "a restart or retrain", "restart", "retrain", "rerun", "re run",
           "repeat", "redo", "redone", "start over", "from scratch", "roll back",
           "rollback", "train again"),
        _c("downstream", "everything built on it downstream", "downstream", "post training",
           "fine tuning", "built on", "depend", "everything after", "later stage",
           "cascade", "knock on", "whole pipeline", "every stage after"),
        _c("early_cheap", "found early it is cheap", "ablation", "small run", "proxy",
           "early", "cheap", "a few days", "in days", "hours"),
        # --- roles ----------------------------------------------------------------------------
        _c("pm_scope", "objective, trade-offs, the ship call",
           "objective", "target", "requirement", "success criteria", "trade off",
           "priority", "prioritise", "prioritize", "ship", "launch", "release", "go no go",
           "stakeholder", "customer", "user", "roadmap", "scope", "product eval"),
        _c("research_scope", "the recipe: data mix, architecture, experiments", "recipe",
           "architecture", "data mix", "hyperparameter", "ablation", "scaling law",
           "experiment", "model design", "learning rate", "training method", "research"),
        _c("engineering_scope", "the cluster, pipeline and checkpoints", "cluster",
           "infrastructure", "infra", "pipeline", "checkpoint", "reliability", "throughput",
           "mfu", "gpu", "storage", "tooling", "distributed", "kernel", "uptime"),
        _c("program_scope", "the plan, dependencies and risk review", "plan", "milestone",
           "dependency", "risk register", "risk review", "status", "coordination",
           "timeline", "critical path", "standup", "raid", "schedule", "cadence"),
        # --- build versus adapt, objectives, trade-offs, ship ---------------------------------
        _c("base_model", "an open base model or pretraining from scratch", "base model",
           "open model", "open weight", "from scratch", "pretrain", "adapt", "fine tune",
           "continued pretraining", "llama", "mistral", "qwen"),
        _c("adapt_criterion", "a reason: cost, time, capability cap, licence, control",
           "cost", "cheaper", "faster", "sooner", "capability", "cap", "target", "licence",
           "license", "control", "domain", "data", "quality", "ceiling", "reach"),
        _c("product_use", "who uses it", "customer", "support", "assistant",
           "help desk", "helpdesk", "ticket", "user", "agent", "employee", "developer",
           "analyst", "lawyer", "doctor", "clinician", "student", "shopper", "writer"),
        _c("product_task", "what it does for them", "answer", "draft", "reply", "assist",
           "chat", "code", "write", "summarise", "summarize", "search", "resolve",
           "triage", "translate", "suggest", "recommend", "complete", "classify"),
        _c("owns", "owning it (as a role)", "own", "owner", "responsible", "accountable",
           "in charge"),
        _c("ownership", "owning it", "own", "owner", "responsible", "accountable", "decide",
           "in charge", "manage", "define", "drive", "approve"),
        _c("limit", "where the line is", "before", "unless", "until", "up to", "at most",
           "no more than", "only if", "as long as", "rather than", "%", "=days", "=weeks",
           "$", "threshold", "bar", "line"),
        _c("owner_role", "who owns it", "tpm", "program manager", "program management",
           "finance", "product manager", "pm", "leadership", "owned by", "owner", "lead",
           "controller"),
        _c("topic_data_quality", "data quality", "data", "=token", "=tokens", "web", "corpus",
           "noisy",
           "duplicate", "low quality", "crawl", "data mix", "spam", "scraped"),
        _c("topic_contamination", "contamination", "contamination", "contaminated", "leak",
           "benchmark items", "test set", "overlap", "leakage", "memorise", "memorize",
           "benchmark questions", "eval items", "saw the benchmark"),
        _c("topic_licensing", "licensing and privacy", "licence", "license", "copyright",
           "unlicensed", "unlicenced",
           "legal", "privacy", "personal", "lawsuit", "takedown", "consent"),
        _c("topic_tokenizer_config", "tokenizer and configuration", "=tokenizer", "=tokeniser",
           "config", "configuration", "hyperparameter", "=setting", "=settings", "precision"),
        _c("topic_loss_spike", "loss spikes", "spike", "diverge", "divergence", "instability",
           "unstable", "nan", "blow up", "loss"),
        _c("topic_hardware", "hardware failures", "gpu", "node", "hardware", "failure",
           "crash", "interruption", "checkpoint", "cluster"),
        _c("topic_eval_gap", "the eval gap", "product", "customer", "user", "benchmark",
           "eval", "real use", "target", "eval gap", "gap between"),
        _c("topic_safety", "safety", "safety", "harm", "red team", "unsafe", "jailbreak",
           "toxic", "policy"),
        _c("topic_budget", "the budget", "budget", "estimate", "overrun", "compute bill",
           "forecast", "cut", "cost"),
        _c("topic_staffing", "staffing", "people", "staff", "leave", "quit", "hire",
           "headcount", "key person", "bus factor", "engineer"),
        _c("choice", "a choice made in advance", "rather than", "instead of", "unless",
           "up to", "at most", "no more than", "only if", "as long as", "never more",
           "accept", "give up", "trade", "protect", "sacrifice", "in exchange",
           "at the cost of", "would rather", "not at the expense"),
        _c("gap", "the measured gap", "gap", "below target", "short of", "lag", "behind",
           "miss", "under the bar", "below the bar", "points"),
        _c("noise", "the eval's noise", "noise", "noisy", "margin", "sample size",
           "=items", "confidence", "significant", "standard error", "within error",
           "error bar", "variance", "uncertain"),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Found:
    """What a text names from a list of concepts."""

    found: tuple[str, ...]
    missing: tuple[str, ...]

    def labels(self, which: Iterable[str]) -> list[str]:
        return [CONCEPTS[c].label for c in which]


def names(text: str | Text, concept: str) -> bool:
    """Whether ``text`` names ``concept``."""
    t = text if isinstance(text, Text) else Text.of(text)
    return concept in t.named


def phrases_named(text: str | Text, concept: str) -> int:
    """How many of the concept's phrases occur in the text (its weight on a topic)."""
    t = text if isinstance(text, Text) else Text.of(text)
    return sum(1 for p in CONCEPTS[concept].phrases if t.has(p))


def find(text: str | Text, concepts: Sequence[str]) -> Found:
    """Which of ``concepts`` the text names, and which it does not, in the order given."""
    t = text if isinstance(text, Text) else Text.of(text)
    hit = tuple(c for c in concepts if c in t.named)
    return Found(hit, tuple(c for c in concepts if c not in hit))


@dataclass(frozen=True)
class Number:
    """A number read from a text, with its unit as written (``$``, ``%``, ``days``…)."""

    value: float
    unit: str
    span: tuple[int, int]


_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9}


def _value(num: str) -> float | None:
    """A written number's value: "1,200" and "1 200" are 1200; "2,4" (a decimal comma) is 2.4."""
    num = num.replace(" ", "")
    if re.fullmatch(r"[0-9]+,[0-9]{1,2}", num):
        num = num.replace(",", ".")
    try:
        return float(num.replace(",", ""))
    except ValueError:
        return None


def numbers(text: str) -> list[Number]:
    """Numbers in ``text``: ``$1.2M`` is 1.2e6 with unit ``$``; ``12%`` is 0.12 with ``%``."""
    out = []
    for m in NUMBER.finditer(text):
        value = _value(m["num"])
        if value is None:
            continue
        unit = re.sub(r"\s+", "", (m["unit"] or "").lower())
        if unit in ("%", "percent"):
            out.append(Number(value / 100.0, "%", m.span()))
            continue
        if unit in _SCALE:
            value *= _SCALE[unit]
            unit = ""
        out.append(Number(value, "$" if m["cur"] or m["usd"] else unit, m.span()))
    for m in WORD_PERCENT.finditer(text):
        value = _words_value(m["num"])
        if value is not None:
            out.append(Number(value / 100.0, "%", m.span()))
    for m in WORD_SHARE.finditer(text):
        out.append(Number(SHARES[m["share"].lower()], "%", m.span()))
    return sorted(out, key=lambda n: n.span)


_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
#: A percentage in words ("twelve percent", "twenty-five per cent").
WORD_PERCENT = re.compile(
    r"\b(?P<num>(?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|"
    r"eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\s+(?:percent|per\s+cent)\b",
    re.IGNORECASE,
)

#: A share said as a fraction in words ("a tenth of the budget", "one fifth").
SHARES = {"tenth": 0.1, "fifth": 0.2, "twentieth": 0.05}
WORD_SHARE = re.compile(r"\b(?:a|one)\s+(?P<share>tenth|fifth|twentieth)\b", re.IGNORECASE)


def _words_value(words: str) -> float | None:
    """The value of a number in words up to fifty-nine ("twelve", "twenty-five")."""
    total = 0
    for part in re.split(r"[\s-]+", words.lower()):
        if part in _TENS:
            total += _TENS[part]
        elif part in _UNITS:
            total += _UNITS[part]
        else:
            return None
    return float(total)
