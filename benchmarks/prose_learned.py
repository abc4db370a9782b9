"""A learned statement-to-concept model beside the prose reader's rules, measured honestly.

The rules (sim/interview/prose.py) reach high precision but miss what new authors say in
words the rules were not written for. This benchmark trains a small per-concept classifier
on the labelled statements and adds its readings only where the rules read nothing for that
key, then scores rules alone against rules + model exactly as tests/prose_corpus.py does.

Evaluation is **leave one author set out** on the development sets only: corpus.yaml (whole),
heldout2.yaml and heldout3.yaml. Each fold trains on two sets and measures on the third; the
thresholds are chosen on the two training sets alone (each predicted by a model trained on
the other), never on the measured set. The sets still held out (``BLIND_SETS`` entries with
``held_out=True``) are never opened here.

Concepts (slots): ``warning:<risk>``, ``owner:<risk>`` and ``right:<decision>`` (the team
bound by the rules' team vocabulary from the sentence itself: one team named, or the reading
is asked), ``challenge=<risk>``, ``gate:<phase>``, ``role:<role>``, ``safety_from_start=on``,
``product_evals_early=on``, and the plain ``=yes`` keys ``tracking``, ``late``,
``product_use``, and ``strategy=<pretrain or adapt>``. The model reads each sentence as the
reader splits it, and each of its clauses; a sentence or clause with a negator, a refusal,
"nobody" or "rather than" anywhere in it earns no model reading (the rules' own negation
words: clauses.NOT, NOT_EXCEPT, REFUSE). The model reads only slots the rules left empty.

Thresholds (chosen on the training sets, five folds by answer, never on the measured set):
a reading is sure at or above the lowest score at which every training set keeps precision
``--min-precision`` (the rules' readings and the model's together; ``--added``: the model's
own readings alone, pooled), and asked in a band below it.

Features: ``emb`` WordLlama's bundled 256-d sentence embedding (``--site DIR`` where
wordllama is installed); ``bow`` Snowball stems and stem bigrams, tf-idf; ``both``.
Classifier: one logistic regression per concept (numpy, L2, full-batch gradient descent).

Usage: ``PYTHONPATH=. python benchmarks/prose_learned.py [--site DIR] [--features bow,emb,both]
[--min-precision 0.96] [--added] [--inner cv or loso] [--curves] [--errors]``
"""

from __future__ import annotations

import functools
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from sim.interview.clauses import (
    NOT,
    NOT_EXCEPT,
    REFUSE,
    bare_term,
    sentences,
    term_lines,
    term_list,
)
from sim.interview.content import _NEGATING_PRONOUN
from sim.interview.plan import base_scenario
from sim.interview.prose import RATHER_THAN, _team_in, read_answer
from sim.interview.prose_followups import read_followup
from sim.interview.vocabulary import TOKEN, stem
from tests.prose_corpus import BLIND_SETS, CORPUS, HELDOUT2, Tally, field_of, load, text_of

HELDOUT3 = CORPUS.with_name("heldout3.yaml")
#: The development sets, one per group of authors. Nothing else is opened.
DEV_SETS: tuple[tuple[str, Path], ...] = (
    ("corpus", CORPUS),
    ("held-out 2", HELDOUT2),
    ("held-out 3", HELDOUT3),
)
_STILL_HELD_OUT = {bs.answers.resolve() for bs in BLIND_SETS if bs.held_out}
assert not _STILL_HELD_OUT & {p.resolve() for _, p in DEV_SETS}, "a held-out set in DEV_SETS"

#: Fields whose key is ``field:<thing>`` and whose value the model must not invent.
TEAM_FIELDS = ("owner", "right")
#: Fields whose slot is ``field:<thing>`` and whose value is ``yes``.
YES_FIELDS = ("warning", "gate", "role")
#: Whole keys the model may read as they are.
WHOLE_KEYS = (
    "safety_from_start=on", "product_evals_early=on", "tracking=yes", "late=yes",
    "product_use=yes", "strategy=adapt", "strategy=pretrain",
)  # fmt: skip
TEAMS = base_scenario().team_ids


def slot_of(key: str) -> str | None:
    """The concept a gold key teaches, or None for fields the model leaves to the rules."""
    f = field_of(key)
    if f in TEAM_FIELDS or f in YES_FIELDS:
        return key.split("=", 1)[0]
    if f == "challenge" or key in WHOLE_KEYS:
        return key
    return None


def rule_slot(key: str) -> str:
    """The slot a rules reading fills (any value): the model never reads a second one."""
    f = field_of(key)
    if f in TEAM_FIELDS or f in YES_FIELDS:
        return key.split("=", 1)[0]
    if f == "strategy":
        return "strategy"
    return key


def model_slot(slot: str) -> str:
    return "strategy" if slot.startswith("strategy=") else slot


def negation_in(sentence: str) -> bool:
    """Whether any negator, refusal or "rather than" occurs anywhere in the sentence."""
    low = sentence.lower().replace("’", "'").replace("-", " ")
    spared = NOT_EXCEPT.sub(" ", low)
    return bool(
        NOT.search(spared) or REFUSE.search(low) or _NEGATING_PRONOUN.search(low)
        or RATHER_THAN.search(low)
    )  # fmt: skip


def team_of(sentence: str) -> tuple[str | None, bool]:
    """The one team a sentence names (and whether it is the only one), by the rules' words."""
    last = _team_in(sentence, TEAMS, nearest=True)
    first = _team_in(sentence, TEAMS, nearest=False)
    return last, last is not None and last == first


# --- features ---------------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    low = text.lower().replace("’", "'").replace("-", " ")
    return [stem(w) for w in TOKEN.findall(low)]


class Bow:
    """Stems and stem bigrams seen in at least two training statements; tf-idf, unit length."""

    def __init__(self, texts: Sequence[str]) -> None:
        df: Counter[str] = Counter()
        for t in texts:
            df.update(set(self.grams(t)))
        self.vocab = {g: i for i, g in enumerate(sorted(g for g, n in df.items() if n >= 2))}
        n = len(texts)
        self.idf = np.array(
            [np.log((1 + n) / (1 + df[g])) + 1 for g in sorted(self.vocab, key=self.vocab.get)]  # type: ignore[arg-type]
        )

    @staticmethod
    def grams(text: str) -> list[str]:
        ts = tokens(text)
        return ts + [a + "_" + b for a, b in zip(ts, ts[1:], strict=False)]

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        x = np.zeros((len(texts), len(self.vocab)))
        for i, t in enumerate(texts):
            for g in self.grams(t):
                j = self.vocab.get(g)
                if j is not None:
                    x[i, j] = 1.0
        x *= self.idf
        return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)


class Embedder:
    """WordLlama's bundled embedding, cached per text."""

    def __init__(self) -> None:
        import wordllama
        from wordllama import WordLlama

        start = time.perf_counter()
        self.wl = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        self.load_s = time.perf_counter() - start
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            for t, v in zip(todo, self.wl.embed(todo, norm=True), strict=True):
                self.cache[t] = np.asarray(v, dtype=float)
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, 256))


# --- the classifier ---------------------------------------------------------------------


@dataclass
class Logistic:
    """One-vs-rest logistic regression, full batch, L2; deterministic (zero start)."""

    w: np.ndarray
    b: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 400,
            lr: float = 0.5) -> Logistic:  # fmt: skip
        n, d = x.shape
        prior = np.clip(y.mean(axis=0), 1e-3, 1 - 1e-3)
        w, b = np.zeros((d, y.shape[1])), np.log(prior / (1 - prior))
        mw, vw, mb, vb = (np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b))
        for t in range(1, steps + 1):
            p = 1 / (1 + np.exp(-(x @ w + b)))
            g = p - y
            gw, gb = x.T @ g / n + l2 * w, g.mean(axis=0)
            mw, vw = 0.9 * mw + 0.1 * gw, 0.999 * vw + 0.001 * gw * gw
            mb, vb = 0.9 * mb + 0.1 * gb, 0.999 * vb + 0.001 * gb * gb
            c1, c2 = 1 - 0.9**t, 1 - 0.999**t
            w -= lr * 0.1 * (mw / c1) / (np.sqrt(vw / c2) + 1e-8)
            b -= lr * 0.1 * (mb / c1) / (np.sqrt(vb / c2) + 1e-8)
        return cls(w, b)

    def predict(self, x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-(x @ self.w + self.b)))


# --- data -------------------------------------------------------------------------------


@dataclass
class Answer:
    id: str
    text: str
    gold: set[str]
    rules_sure: set[str]
    rules_unsure: set[str]
    sentences: list[str]
    followups: list[tuple[str, set[str], set[str], set[str]]]


def prepare(answers: list[dict[str, Any]]) -> list[Answer]:
    out = []
    for a in answers:
        text = text_of(a)
        read = read_answer(text)
        said = sentences(text)
        listed = term_lines(said)
        ss = [s for s in said if not (listed and bare_term(s)) and not term_list(s)]
        fus = []
        for fid, statements in (a.get("followups") or {}).items():
            ft = str(a.get("join", " ")).join(s["text"] for s in statements)
            fr = read_followup(fid, ft)
            fus.append((f"{a['id']}/{fid}", {k for s in statements for k in s["gold"]},
                        {r.key for r in fr.readings if not r.unsure},
                        {r.key for r in fr.readings if r.unsure}))  # fmt: skip
        out.append(Answer(
            a["id"], text, {k for s in a["statements"] for k in s["gold"]},
            {r.key for r in read.readings if not r.unsure},
            {r.key for r in read.readings if r.unsure}, ss, fus,
        ))  # fmt: skip
    return out


def statements_of(answers: list[dict[str, Any]]) -> list[tuple[str, set[str]]]:
    """Every gold statement of the main answers with the slots its gold keys teach."""
    return [
        (s["text"], {slot for k in s["gold"] if (slot := slot_of(k))})
        for a in answers
        for s in a["statements"]
    ]


# --- the model and its readings ---------------------------------------------------------


@dataclass
class Model:
    featurize: Callable[[Sequence[str]], np.ndarray]
    clf: Logistic
    slots: list[str]

    @classmethod
    def train(cls, stmts: list[tuple[str, set[str]]], features: str, emb: Embedder | None,
              min_pos: int = 3) -> Model:  # fmt: skip
        counts = Counter(s for _, ss in stmts for s in ss)
        slots = sorted(s for s, n in counts.items() if n >= min_pos)
        texts = [t for t, _ in stmts]
        feat = make_features(features, texts, emb)
        y = np.array([[1.0 if s in ss else 0.0 for s in slots] for _, ss in stmts])
        return cls(feat, Logistic.fit(feat(texts), y), slots)

    def scores(self, ss: Sequence[str]) -> np.ndarray:
        return self.clf.predict(self.featurize(list(ss))) if ss else np.zeros((0, len(self.slots)))


def make_features(features: str, texts: Sequence[str], emb: Embedder | None
                  ) -> Callable[[Sequence[str]], np.ndarray]:  # fmt: skip
    if features == "bow":
        return Bow(texts)
    if emb is None:
        raise SystemExit(f"--features {features} needs wordllama: pass --site DIR")
    if features == "emb":
        return emb
    bow = Bow(texts)
    return lambda ts: np.hstack([bow(ts), emb(ts)])


@dataclass(frozen=True)
class Candidate:
    """A reading the model could add: its key, its family, its score, whether it may be sure."""

    key: str
    family: str
    score: float
    bindable: bool


#: Where a sentence parts into clauses the model reads one by one.
CLAUSE_SPLIT = re.compile(r"[;:]|,\s*|\s[-–—]\s|\s+(?=(?:but|because|while|whereas)\b)")


@functools.cache
def units(sentence: str) -> list[tuple[str, str | None, bool]]:
    """The stretches the model reads in a sentence, each with its team and whether it is bound.

    The sentence itself and each of its clauses, but only those with no negator, refusal,
    "nobody" or "rather than" anywhere in them. A stretch's team is the one team it names,
    else the sentence's one team; a stretch that names two, or none in a sentence of two,
    has a team only to ask about.
    """
    team, only = team_of(sentence)
    out = []
    parts = [sentence] + [c for c in CLAUSE_SPLIT.split(sentence) if len(c.split()) >= 3]
    for i, u in enumerate(dict.fromkeys(parts)):
        if negation_in(u):
            continue
        if i == 0:
            out.append((u, team, only))
            continue
        t, o = team_of(u)
        if t is None:
            t, o = team, only
        out.append((u, t, o))
    return out


def candidates(model: Model, a: Answer) -> list[Candidate]:
    """The model's best reading per slot the rules left empty, in one answer."""
    filled = {rule_slot(k) for k in a.rules_sure | a.rules_unsure}
    us = [u for s in a.sentences for u in units(s)]
    p = model.scores([u for u, _, _ in us])
    best: dict[str, Candidate] = {}
    for i, (_, team, only) in enumerate(us):
        for j, slot in enumerate(model.slots):
            if model_slot(slot) in filled:
                continue
            f = field_of(slot)
            if f in TEAM_FIELDS:
                if team is None:
                    continue
                key, bindable = f"{slot}={team}", only
            elif f in YES_FIELDS:
                key, bindable = f"{slot}=yes", True
            else:
                key, bindable = slot, True
            c = Candidate(key, f, float(p[i, j]), bindable)
            if slot not in best or (c.bindable, c.score) > (best[slot].bindable, best[slot].score):
                best[slot] = c
    return list(best.values())


@dataclass(frozen=True)
class Thresholds:
    sure: float
    ask: float


def choose(inner: list[tuple[Tally, list[tuple[Candidate, bool]]]], min_precision: float,
           added_only: bool = False) -> Thresholds:  # fmt: skip
    """The lowest sure threshold that keeps every training set's precision, rules + model.

    ``inner``: per training set, the rules' tally and the model's candidates, each predicted
    by a model that never saw its answer. The sure threshold is the lowest at which every
    training set's precision (the rules' readings and the model's sure ones together) stays
    at ``min_precision`` or above; the ask band reaches down to where the added readings are
    right three times in four. ``added_only``: the sure threshold is the lowest at which
    the model's added readings alone, pooled over the training sets, are right at least
    ``min_precision`` of the time (three readings at least).
    """
    grid = [x / 100 for x in range(5, 100)]

    def precision(t: Tally, cands: list[tuple[Candidate, bool]], th: float) -> float:
        got = [ok for c, ok in cands if c.bindable and c.score >= th]
        right = sum(t.right.values()) + sum(got)
        return right / (right + sum(t.wrong.values()) + len(got) - sum(got))

    pooled = [x for _, c in inner for x in c]
    if added_only:
        # the model's own readings alone, pooled: right at least ``min_precision`` of the time
        sure = next((th for th in grid if len(got := [ok for c, ok in pooled
                     if c.bindable and c.score >= th]) >= 3
                     and sum(got) / len(got) >= min_precision), 1.01)  # fmt: skip
    else:
        sure = next((th for th in grid if all(precision(t, c, th) >= min_precision
                                              for t, c in inner)), 1.01)  # fmt: skip
    ask = sure
    for th in grid:
        if th >= sure:
            break
        got = [ok for c, ok in pooled if th <= c.score < sure]
        if got and sum(got) / len(got) >= 0.75:
            ask = th
            break
    return Thresholds(sure, ask)


#: Thresholds no score reaches: every candidate listed, none read.
NEVER = Thresholds(2, 2)
#: Folds by answer inside each training set, for the thresholds.
FOLDS = 5


#: The model's readings per answer id: (sure keys, asked keys).
Added = dict[str, tuple[set[str], set[str]]]


def tally(answers: list[Answer], added: Added | None = None) -> Tally:
    t = Tally()
    for a in answers:
        sure, unsure = added.get(a.id, (set(), set())) if added else (set(), set())
        t.add(a.id, a.gold, a.rules_sure | sure, a.rules_unsure | unsure)
        for fid, gold, fs, fu in a.followups:
            t.add(fid, gold, fs, fu)
    return t


def apply(
    model: Model, answers: list[Answer], th: Thresholds
) -> tuple[Added, list[tuple[Candidate, bool]]]:
    added: Added = {}
    seen = []
    for a in answers:
        sure, unsure = set(), set()
        for c in candidates(model, a):
            seen.append((c, c.key in a.gold))
            if c.score >= th.sure and c.bindable:
                sure.add(c.key)
            elif c.score >= th.ask:
                unsure.add(c.key)
        added[a.id] = (sure, unsure)
    return added, seen


def curve(cands: list[tuple[Candidate, bool]]) -> str:
    """Precision and count of the bindable candidates above each threshold."""
    cells = []
    for t in (0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        got = [ok for c, ok in cands if c.bindable and c.score >= t]
        cells.append(f"{t:.1f}:{sum(got)}/{len(got)}")
    return " ".join(cells)


# --- the report -------------------------------------------------------------------------

FIELDS = ("warning", "owner", "right", "challenge", "gate", "role", "safety_from_start",
          "product_evals_early", "tracking", "late", "product_use", "strategy")  # fmt: skip


def line(name: str, t: Tally) -> str:
    unsure = sum(t.unsure_right.values()) + sum(t.unsure_wrong.values())
    return (f"  {name:<18} precision {t.precision():.3f}  recall {t.recall():.3f}  "
            f"right {sum(t.right.values()):>4}  wrong {sum(t.wrong.values()):>3}  "
            f"unsure {unsure:>3} ({sum(t.unsure_right.values())} right)")  # fmt: skip


def main(argv: list[str]) -> int:
    if "--site" in argv:
        sys.path.append(argv[argv.index("--site") + 1])
    kinds = (argv[argv.index("--features") + 1] if "--features" in argv else "bow").split(",")
    floor = float(argv[argv.index("--min-precision") + 1]) if "--min-precision" in argv else 0.96
    inner_kind = argv[argv.index("--inner") + 1] if "--inner" in argv else "cv"
    emb = Embedder() if any(k != "bow" for k in kinds) else None
    if emb is not None:
        print(f"WordLlama loaded in {emb.load_s:.2f} s")
    raw = {name: load(path) for name, path in DEV_SETS}
    prepared = {name: prepare(ans) for name, ans in raw.items()}
    stmts = {name: statements_of(ans) for name, ans in raw.items()}
    for kind in kinds:
        print(f"\n# features: {kind} (sure where each training set keeps precision >= {floor})")
        total_base, total_new = [], []
        per_field: dict[str, list[tuple[Tally, Tally]]] = defaultdict(list)
        for test in raw:
            train = [n for n in raw if n != test]
            # thresholds from the training sets alone, each predicted by a model that never
            # saw it: the other training set (``loso``), or the rest of both (``cv``, five
            # folds by answer)
            inner: list[tuple[Tally, list[tuple[Candidate, bool]]]] = []
            if inner_kind == "loso":
                for held in train:
                    (other,) = [n for n in train if n != held]
                    m = Model.train(stmts[other], kind, emb)
                    inner.append((tally(prepared[held]), apply(m, prepared[held], NEVER)[1]))
            else:
                for held in train:
                    got: list[tuple[Candidate, bool]] = []
                    for k in range(FOLDS):
                        fit = [r for n in train for i, r in enumerate(raw[n])
                               if n != held or i % FOLDS != k]  # fmt: skip
                        m = Model.train(statements_of(fit), kind, emb)
                        part = [a for i, a in enumerate(prepared[held]) if i % FOLDS == k]
                        got += apply(m, part, NEVER)[1]
                    inner.append((tally(prepared[held]), got))
            th = choose(inner, floor, added_only="--added" in argv)
            model = Model.train(stmts[train[0]] + stmts[train[1]], kind, emb)
            added, outer = apply(model, prepared[test], th)
            if "--errors" in argv:
                for a in prepared[test]:
                    for k in added[a.id][0] - a.gold:
                        print(f"    wrong {a.id} {k}")
            if "--curves" in argv:
                print("  measured fold (not used to choose):", curve(outer))
                for _, c_in in inner:
                    print("  inner (chooses):                   ", curve(c_in))
            base, new = tally(prepared[test]), tally(prepared[test], added)
            total_base.append(base)
            total_new.append(new)
            print(f"fold: measure {test}, train {' + '.join(train)}; "
                  f"thresholds sure {th.sure:.2f}, ask {th.ask:.2f}")  # fmt: skip
            print(line("rules", base))
            print(line("rules + model", new))
            for f in FIELDS:
                per_field[f].append((base, new))
        print("\nper field, recall rules -> rules + model (precision), per fold")
        for f, pairs in per_field.items():
            cells = "  ".join(
                f"{b.recall(f):.2f}->{n.recall(f):.2f} ({n.precision(f):.2f}, g{b.gold[f]})"
                for b, n in pairs
            )
            print(f"  {f:<20} {cells}")
        pairs = zip(total_base, total_new, strict=True)
        gain = np.mean([n.recall() - b.recall() for b, n in pairs])
        print(f"mean recall gain {gain:+.3f}; min precision "
              f"{min(n.precision() for n in total_new):.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
