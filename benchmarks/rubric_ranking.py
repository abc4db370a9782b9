"""How well the rubric's score ranks whole answers against a coach's grades (Spearman).

Each answer is read by the prose reader into a plan, its follow-up answers (when the set
has them and the reader can read them) are played as the candidate's calls, and the
plan is judged without the simulation item. The Spearman rank correlation between the
rubric's scores and the coach's grades is printed, with each answer's grade and score.
Target: 0.85 or more (issue 25).

The set is the prose reader's labelled corpus, tests/data/prose_corpus/corpus.yaml,
when it is present (its tuning and held-out halves are also reported apart), else the
coach-graded set tests/data/rubric_graded/answers.yaml.

Usage: ``PYTHONPATH=. python benchmarks/rubric_ranking.py [PATH.yaml]``
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml
from scipy.stats import spearmanr

from sim.interview.plan import InterviewPlan
from sim.interview.replays import play_calls
from sim.interview.rubric import judge

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "prose_corpus" / "corpus.yaml"
GRADED = ROOT / "tests" / "data" / "rubric_graded" / "answers.yaml"
TARGET = 0.85


def graded_set(path: Path | None = None) -> tuple[Path, list[dict[str, Any]]]:
    """The answers to rank: ``path``, else the reader's corpus if present, else our own set."""
    path = path or (CORPUS if CORPUS.is_file() else GRADED)
    return path, list(yaml.safe_load(path.read_text(encoding="utf-8")))


def text_of(answer: dict[str, Any], part: Sequence[dict[str, Any]] | None = None) -> str:
    """An answer's text: its ``text``, or its statements joined as the corpus says."""
    if part is None and "text" in answer:
        return str(answer["text"])
    statements = answer["statements"] if part is None else part
    return str(answer.get("join", " ")).join(str(s["text"]) for s in statements)


def split_of(answer_id: str) -> str:
    """The reader corpus's half: by the first byte of sha256(id), even is tuning."""
    return "tuning" if hashlib.sha256(answer_id.encode()).digest()[0] % 2 == 0 else "held-out"


def _reader() -> Callable[[str], InterviewPlan]:
    """The prose reader's plan for a text, through its newest API.

    The seam for the reader's API (``read_answer(text).plan``, sure readings only); the
    older ``read_prose(text) -> (plan, readings)`` otherwise.
    """
    from sim.interview import prose

    read_answer = getattr(prose, "read_answer", None)
    if read_answer is not None:
        return lambda text: read_answer(text).plan  # type: ignore[no-any-return]
    return lambda text: prose.read_prose(text)[0]


def _with_followups(plan: InterviewPlan, answer: dict[str, Any]) -> InterviewPlan:
    """The answer's follow-up answers read as calls and played on the plan's design."""
    followups = answer.get("followups") or {}
    if not followups:
        return plan
    try:
        from sim.interview.prose_followups import read_followup  # type: ignore[import-not-found]
    except ImportError:
        return plan  # no reader for follow-up answers yet: they count as not played
    for fid, statements in followups.items():
        read = read_followup(fid, text_of(answer, statements))
        played = play_calls(plan, fid, tuple(read.calls), text_of(answer, statements))
        if played is not None:
            plan = plan.with_followup(played)
    return plan


def rubric_scores(answers: Sequence[dict[str, Any]]) -> list[float]:
    """The rubric's score of each answer, read from its prose (no simulation item)."""
    read = _reader()
    return [judge(_with_followups(read(text_of(a)), a)).score for a in answers]


def spearman(grades: Sequence[float], scores: Sequence[float]) -> float:
    rho = spearmanr(grades, scores).statistic
    return float(rho)


def main(argv: list[str]) -> int:
    path, answers = graded_set(Path(argv[0]) if argv else None)
    scores = rubric_scores(answers)
    grades = [float(a["grade"]) for a in answers]
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"{shown}: {len(answers)} answers")
    print(f"{'id':<28}{'grade':>6}{'score':>8}")
    for a, g, s in sorted(zip(answers, grades, scores, strict=True), key=lambda r: (r[1], r[2])):
        print(f"{a['id']:<28}{g:>6.0f}{s:>8.3f}")
    rho = spearman(grades, scores)
    print(f"\nSpearman (all): {rho:.3f}  (target >= {TARGET})")
    if path == CORPUS:
        for half in ("tuning", "held-out"):
            k = [i for i, a in enumerate(answers) if split_of(str(a["id"])) == half]
            part = spearman([grades[i] for i in k], [scores[i] for i in k])
            print(f"Spearman ({half}, {len(k)} answers): {part:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
