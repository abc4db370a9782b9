"""How well the rubric ranks whole answers against a coach's grades (Spearman, Kendall).

Each answer is read as the page and ``sim rubric --prose`` read it
(:func:`sim.interview.prose_followups.answer_in_words`: the answer read, each follow-up
answer played on its design), with the candidate's confirmation modelled: an unsure
reading that is what the answer means (in the corpus's gold) is confirmed, every other is
left out; the graded sets carry no labels, so nothing is confirmed there. The plan is
judged without the simulation item. For each answer it prints the coach's grade, the
coverage score (share of items met), the soundness (of the items it takes on) and the
rubric's grade (:attr:`sim.interview.rubric.RubricReport.grade`, which the ranking uses).

The prose corpus's coach grade is the independent, blind grade by the written protocol
(tests/data/prose_corpus/coach_grades.yaml; tests/data/rubric_graded/FRESH.md), with its
**protocol total** (core + ½ (strong + follow-ups), before hazards) beside it as a finer
target. The corpus's own ``grade`` fields (how well a fragment says its one thing, not how
well the whole answer answers the question) are reported beside as the *fragment grade*.
The grades are heavily tied, so each figure is given as Spearman's rho and as Kendall's
tau-b (which handles ties): on the corpus's tuning half and held-out half (split by the
id's hash; each also for its first 85 answers, those with no ``batch``), the coach-graded
set and the fresh set written blind (tests/data/rubric_graded/FRESH.md), each apart, with
the coverage score's Spearman beside. Target: Spearman 0.85 or more on held-out (issue 25).

Each claim counts with its weight (:data:`sim.interview.weights.CLAIM_WEIGHTS`: bindings
and orders more, named hazards most). ``--tune`` searches the grade's three constants
(UNSOUND_PENALTY, CREDIT_HALF, COVERAGE_WEIGHT), with the registry's weights as they are,
on the tuning half's coach grades only and prints the best few with the other sets'
figures beside, for the record; the held-out half never chooses.

Every set written blind that is present with its coach grades (``tests.prose_corpus.
BLIND_SETS``: heldout2.yaml and heldout3.yaml in corpus.yaml's format, their grades in
coach_grades.yaml's) is ranked as a set of its own (against its coach grades, with its
protocol totals and fragment grades beside); an absent one prints nothing. A set still held
out gives its figures only, never its answers one by one, and never takes part in --tune.

Usage: ``PYTHONPATH=. python benchmarks/rubric_ranking.py [--tune] [PATH.yaml]``
"""

from __future__ import annotations

import hashlib
import itertools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from scipy.stats import kendalltau, spearmanr

from sim.interview import rubric
from sim.interview.plan import InterviewPlan
from sim.interview.prose_followups import WordsAnswer, answer_in_words
from sim.interview.protocol import ProtocolCount, protocol_count
from sim.interview.rubric import RubricReport, judge
from tests.prose_corpus import BLIND_SETS, BlindSet

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "prose_corpus" / "corpus.yaml"
#: The corpus's answers graded blind by the written protocol (README.md beside it).
COACH = ROOT / "tests" / "data" / "prose_corpus" / "coach_grades.yaml"
GRADED = ROOT / "tests" / "data" / "rubric_graded" / "answers.yaml"
#: Written blind and graded by a written protocol before anything was run on it (FRESH.md).
FRESH = ROOT / "tests" / "data" / "rubric_graded" / "fresh.yaml"
#: The sets written blind (corpus.yaml's format, coach grades beside): each measured when present.
BLIND_NAMES = frozenset(bs.name for bs in BLIND_SETS)
TARGET = 0.85


def graded_set(path: Path | None = None) -> tuple[Path, list[dict[str, Any]]]:
    """The answers to rank: ``path``, else the reader's corpus if present, else our own set."""
    path = path or (CORPUS if CORPUS.is_file() else GRADED)
    return path, list(yaml.safe_load(path.read_text(encoding="utf-8")))


def coach_grades(path: Path = COACH) -> dict[str, dict[str, Any]]:
    """The corpus's blind coach grades by protocol, by answer id."""
    return {str(e["id"]): e for e in yaml.safe_load(path.read_text(encoding="utf-8"))}


def protocol_total(entry: dict[str, Any]) -> float:
    """The protocol's total before hazards: core + ½ (strong + follow-ups) (FRESH.md)."""
    return float(entry["core"]) + (float(entry["strong"]) + float(entry["followups"])) / 2


def protocol_grade(entry: dict[str, Any]) -> int:
    """The grade the protocol gives ``entry``'s counts: the total's band, one off per hazard.

    Bands read half-open (README.md, "Coach grades by protocol"): below 1 is 1, [1, 3) is
    2, [3, 6) is 3, [6, 9) is 4, 9 and up is 5; never below 1.
    """
    total = protocol_total(entry)
    band = 1 + sum(total >= edge for edge in (1, 3, 6, 9))
    return max(1, band - len(set(entry["hazards"])))


def text_of(answer: dict[str, Any], part: Sequence[dict[str, Any]] | str | None = None) -> str:
    """An answer's text: its ``text``, or its statements joined as the corpus says.

    ``part``: a follow-up's answer, as statements (the corpus) or as one text (the graded
    sets).
    """
    if isinstance(part, str):
        return part
    if part is None and "text" in answer:
        return str(answer["text"])
    statements = answer["statements"] if part is None else part
    return str(answer.get("join", " ")).join(str(s["text"]) for s in statements)


def split_of(answer_id: str) -> str:
    """The reader corpus's half: by the first byte of sha256(id), even is tuning."""
    return "tuning" if hashlib.sha256(answer_id.encode()).digest()[0] % 2 == 0 else "held-out"


def gold_keys(answer: dict[str, Any]) -> frozenset[str]:
    """What the answer means, as the corpus labels it (its statements' and follow-ups' gold).

    The graded sets carry no labels: nothing is confirmed there.
    """
    parts = [answer.get("statements") or []]
    parts += [p for p in (answer.get("followups") or {}).values() if not isinstance(p, str)]
    return frozenset(k for part in parts for s in part for k in s.get("gold", ()))


def words_of(answer: dict[str, Any]) -> WordsAnswer:
    """The answer read and its follow-ups played, with the gold's unsure readings confirmed."""
    followups = {
        fid: text_of(answer, part) for fid, part in (answer.get("followups") or {}).items()
    }
    return answer_in_words(text_of(answer), followups, confirmed=gold_keys(answer))


def counted(words: WordsAnswer) -> ProtocolCount:
    """The coach's protocol counted from what was read (:mod:`sim.interview.protocol`):
    the sure and confirmed readings, with the sentences that give a reason or a price."""
    keys = [r.key for r in words.readings if not r.unsure or r.key in words.confirmed]
    sentences: dict[str, str] = {}
    for r in words.readings:
        name = r.key.partition("=")[0]
        if name.startswith("call:") or name in ("strategy", "tradeoff"):
            sentences.setdefault(name, r.sentence)
    return protocol_count(keys, sentences)


def plan_of(answer: dict[str, Any]) -> InterviewPlan:
    """The plan the tool judges: the answer read as the page and ``sim rubric --prose`` read it.

    :func:`sim.interview.prose_followups.answer_in_words` reads the answer and plays each
    follow-up answer on its design. Then the candidate confirms before anything is judged
    (docs/interview.md, "Confirm before judging"): an unsure reading that is what they
    meant (in the answer's gold) is confirmed, and every other is left out, as the page's
    *No, leave it out* does. Sure readings stand as read, right or wrong.
    """
    return words_of(answer).plan


def reports(answers: Sequence[dict[str, Any]]) -> list[RubricReport]:
    """The rubric's report on each answer, read from its prose (no simulation item)."""
    return [judge(plan_of(a)) for a in answers]


def judged(answers: Sequence[dict[str, Any]]) -> tuple[list[RubricReport], list[ProtocolCount]]:
    """The rubric's report on each answer and the protocol's count of it, from one reading."""
    words = [words_of(a) for a in answers]
    return [judge(w.plan) for w in words], [counted(w) for w in words]


def rubric_scores(answers: Sequence[dict[str, Any]]) -> list[float]:
    """The rubric's grade of each answer (what the ranking uses)."""
    return [r.grade for r in reports(answers)]


def spearman(grades: Sequence[float], scores: Sequence[float]) -> float:
    rho = spearmanr(grades, scores).statistic
    return float(rho)


def kendall(grades: Sequence[float], scores: Sequence[float]) -> float:
    """Kendall's tau-b: pairs in the same order less pairs in the other, ties corrected."""
    tau = kendalltau(grades, scores, variant="b").statistic
    return float(tau)


class Scored(NamedTuple):
    """One set's answers with what they are ranked against and the rubric's reports.

    (A named tuple: the tests load this file without registering it as a module.)
    ``grades``: the coach's grade; ``totals``: the protocol total (the corpus only);
    ``fragment``: the corpus's own fragment grades (the corpus only).
    """

    name: str
    ids: tuple[str, ...]
    grades: tuple[float, ...]
    reports: tuple[RubricReport, ...]
    totals: tuple[float, ...] | None = None
    fragment: tuple[float, ...] | None = None
    #: The coach's protocol counted from the reader's readings (sim/interview/protocol.py).
    counts: tuple[ProtocolCount, ...] | None = None

    def figures(self, scores: Sequence[float] | None = None) -> dict[str, float | None]:
        """Spearman and tau-b of ``scores`` (the rubric's grades) against each target."""
        s = [r.grade for r in self.reports] if scores is None else list(scores)
        t, f, c = self.totals, self.fragment, self.counts
        return {
            "spearman": spearman(self.grades, s),
            "tau_b": kendall(self.grades, s),
            "total_spearman": None if t is None else spearman(t, s),
            "total_tau_b": None if t is None else kendall(t, s),
            "fragment_spearman": None if f is None else spearman(f, s),
            "coverage_spearman": spearman(self.grades, [r.score for r in self.reports]),
            "protocol_spearman": None if c is None else spearman(self.grades, [p.grade for p in c]),
            "protocol_tau_b": None if c is None else kendall(self.grades, [p.grade for p in c]),
        }


def corpus_sets(
    answers: Sequence[dict[str, Any]],
    reps: Sequence[RubricReport],
    coach: dict[str, dict[str, Any]] | None = None,
    counts: Sequence[ProtocolCount] | None = None,
) -> dict[str, Scored]:
    """The corpus's tuning and held-out halves, each also for its first 85 answers.

    Ranked against the blind coach grades (``coach``: :func:`coach_grades`), with the
    protocol totals and the corpus's fragment grades beside.
    """
    coach = coach_grades() if coach is None else coach
    out = {}
    for half in ("tuning", "held-out"):
        k = [i for i, a in enumerate(answers) if split_of(str(a["id"])) == half]
        # The first 85 answers alone (no batch): written before the said-in-words rules.
        first = [i for i in k if not answers[i].get("batch")]
        for name, chosen in ((half, k), (f"{half} (first 85)", first)):
            ids = tuple(str(answers[i]["id"]) for i in chosen)
            out[name] = Scored(
                name, ids, tuple(float(coach[i]["grade"]) for i in ids),
                tuple(reps[i] for i in chosen),
                tuple(protocol_total(coach[i]) for i in ids),
                tuple(float(answers[i]["grade"]) for i in chosen),
                None if counts is None else tuple(counts[i] for i in chosen),
            )  # fmt: skip
    return out


def _grade(r: RubricReport, penalty: float, half: float, weight: float) -> float:
    """The report's grade with other constants (the same formula as RubricReport.grade)."""
    c = sum(r.credits(penalty))
    return weight * r.score + (1 - weight) * (1 + c / (abs(c) + half)) / 2


GRID = {
    "UNSOUND_PENALTY": (0.5, 1.0, 1.5, 2.0, 3.0),
    "CREDIT_HALF": (3.0, 10.0, 30.0),
    "COVERAGE_WEIGHT": (0.0, 0.1, 0.3, 0.5, 1.0),
}


def _orders_known_plans(combo: tuple[float, float, float]) -> bool:
    """Whether the grade puts the test suite's plans of known quality in their order."""
    from tests import interview_plans as plans

    g = {n: _grade(judge(getattr(plans, n)()), *combo) for n in KNOWN}
    return bool(g["strong"] > g["mediocre"] > g["weak"] > g["filler"]
                and g["mediocre"] > g["misplaced"])  # fmt: skip


KNOWN = ("strong", "mediocre", "weak", "filler", "misplaced")


def tune(sets: dict[str, Scored]) -> None:
    """The grid's best constants by the tuning half's Spearman; the rest shown, not used.

    Only constants that also order the plans of known quality (tests/interview_plans.py:
    strong, mediocre, weak, filler; misplaced below mediocre) are eligible.
    """
    tuning = sets["tuning"]
    rows = []
    for combo in itertools.product(*GRID.values()):
        if not _orders_known_plans(combo):
            continue
        rho = spearman(tuning.grades, [_grade(r, *combo) for r in tuning.reports])
        rows.append((rho, combo))
    rows.sort(key=lambda row: -row[0])
    print("\nTuning (best by the tuning half; " + ", ".join(GRID) + "):")
    for rho, combo in rows[:8]:
        others = "  ".join(
            f"{name} {spearman(s.grades, [_grade(r, *combo) for r in s.reports]):.3f}"
            for name, s in sets.items() if name != "tuning" and name not in BLIND_NAMES
        )  # fmt: skip
        print(f"  {combo}: tuning {rho:.3f}  {others}")


def _table(ids: Sequence[str], grades: Sequence[float], reps: Sequence[RubricReport],
           fragment: Sequence[float] | None = None) -> None:  # fmt: skip
    print(f"{'id':<28}{'coach':>6}{'frag':>6}{'score':>8}{'sound':>8}{'rubric':>8}")
    frag: Sequence[float | None] = fragment or [None] * len(ids)
    rows = sorted(zip(ids, grades, frag, reps, strict=True), key=lambda p: (p[1], p[3].grade))
    for i, g, f, r in rows:
        sound = "-" if r.soundness is None else f"{r.soundness:.2f}"
        fr = "-" if f is None else f"{f:g}"
        print(f"{i:<28}{g:>6g}{fr:>6}{r.score:>8.3f}{sound:>8}{r.grade:>8.3f}")


def _fmt(x: float | None) -> str:
    return "    —" if x is None else f"{x:5.3f}"


def blind_set(bs: BlindSet) -> Scored | None:
    """A set written blind, ranked against its blind coach grades (None: absent).

    Answers in corpus.yaml's format, grades in coach_grades.yaml's; the whole file is
    held out (no half of it tunes anything).
    """
    if not (bs.answers.is_file() and bs.grades.is_file()):
        return None
    _, answers = graded_set(bs.answers)
    coach = coach_grades(bs.grades)
    missing = [str(a["id"]) for a in answers if str(a["id"]) not in coach]
    if missing:
        raise SystemExit(f"{bs.grades}: no coach grade for {', '.join(missing)}")
    ids = tuple(str(a["id"]) for a in answers)
    reps, counts = judged(answers)
    return Scored(
        bs.name, ids, tuple(float(coach[i]["grade"]) for i in ids),
        tuple(reps), tuple(protocol_total(coach[i]) for i in ids),
        tuple(float(a["grade"]) for a in answers) if all("grade" in a for a in answers)
        else None, tuple(counts),
    )  # fmt: skip


def measure(
    paths: Sequence[Path] = (), blind: Sequence[BlindSet] = BLIND_SETS
) -> dict[str, Scored]:
    """Every set's answers judged, ranked against its coach's grades (``paths``: all).

    With no ``paths``, every set written blind that is present too, its rows last.
    """
    sets: dict[str, Scored] = {}
    for path in paths or (CORPUS, GRADED, FRESH):
        _, answers = graded_set(path)
        reps, counts = judged(answers)
        if path == CORPUS:
            sets.update(corpus_sets(answers, reps, counts=counts))
        else:
            name = {GRADED: "graded", FRESH: "fresh"}.get(path, path.stem)
            ids = tuple(str(a["id"]) for a in answers)
            sets[name] = Scored(name, ids, tuple(float(a["grade"]) for a in answers),
                                tuple(reps), counts=tuple(counts))  # fmt: skip
    for bs in blind if not paths else ():
        if (scored := blind_set(bs)) is not None:
            sets[scored.name] = scored
    return sets


def main(argv: list[str], blind: Sequence[BlindSet] = BLIND_SETS) -> int:
    tuning = "--tune" in argv
    sets = measure([Path(x) for x in argv if x != "--tune"], blind)
    held_out = {bs.name for bs in blind if bs.held_out}
    for s in sets.values():
        # A set still held out gives its figures only: it is the final measurement.
        if "(first 85)" not in s.name and s.name not in held_out:
            print(f"\n{s.name}: {len(s.ids)} answers (coach grade; frag: the corpus's fragment "
                  "grade)")  # fmt: skip
            _table(s.ids, s.grades, s.reports, s.fragment)
    print(f"\nThe rubric's grade against the coach's (target: Spearman >= {TARGET} on "
          "held-out).\nProtocol total: core + (strong + follow-ups) / 2, before hazards; "
          "fragment: the corpus's own grades.")  # fmt: skip
    print(f"  {'set':<38}{'n':>4}  {'rho':>5}  {'tau-b':>5}  {'total rho':>9}  "
          f"{'total tau-b':>11}  {'fragment rho':>12}  {'coverage rho':>12}  "
          f"{'protocol rho':>12}  {'protocol tau-b':>14}")  # fmt: skip
    for name, s in sets.items():
        f = s.figures()
        cells = (f"{_fmt(f['spearman'])}  {_fmt(f['tau_b'])}  {_fmt(f['total_spearman']):>9}  "
                 f"{_fmt(f['total_tau_b']):>11}  {_fmt(f['fragment_spearman']):>12}  "
                 f"{_fmt(f['coverage_spearman']):>12}  {_fmt(f['protocol_spearman']):>12}  "
                 f"{_fmt(f['protocol_tau_b']):>14}")  # fmt: skip
        print(f"  {name:<38}{len(s.ids):>4}  {cells}")
    print("  protocol: the coach's protocol counted from the readings (sim/interview/protocol.py)"
          ", a measurement beside the rubric's grade")  # fmt: skip
    print(f"  constants: UNSOUND_PENALTY {rubric.UNSOUND_PENALTY}, CREDIT_HALF "
          f"{rubric.CREDIT_HALF}, COVERAGE_WEIGHT {rubric.COVERAGE_WEIGHT}")  # fmt: skip
    if tuning and "tuning" in sets:
        tune(sets)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
