"""The prose reader's labelled corpus (tests/data/prose_corpus): loading, the split, scoring.

A reading is scored by its key in the reader's output vocabulary. Sure readings are
correct (in the answer's gold) or wrong; unsure readings (the reader asks the candidate)
are counted apart, as right or wrong guesses, and earn no recall until confirmed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from sim.interview.prose import read_answer
from sim.interview.prose_followups import read_followup

CORPUS = Path(__file__).parent / "data" / "prose_corpus" / "corpus.yaml"
#: A second held-out set, written blind after the first half had been looked at (same
#: format as corpus.yaml); optional: measured only when present.
HELDOUT2 = CORPUS.with_name("heldout2.yaml")


class BlindSet(NamedTuple):
    """A set written and graded blind (corpus.yaml's format, grades in coach_grades.yaml's)."""

    name: str
    answers: Path
    grades: Path
    #: Still held out: nobody has looked at its readings while changing the reader or the
    #: rubric. The benchmarks never list its errors or its answers one by one.
    held_out: bool


#: Every set written blind, in the order written; a benchmark measures each one present.
BLIND_SETS = (
    # Measured once on 2026-12-05, then looked at (its misses drove that day's rules).
    BlindSet("held-out 2, written blind 2026-12-05", HELDOUT2,
             CORPUS.with_name("heldout2_grades.yaml"), held_out=False),
    # Measured once on 2026-12-05, then looked at (its misses drove that day's last rules).
    BlindSet("held-out 3, written blind 2026-12-05", CORPUS.with_name("heldout3.yaml"),
             CORPUS.with_name("heldout3_grades.yaml"), held_out=False),
    # Held out, but their aggregate rows steered two choices of the fourth session
    # (docs/interview.md, "The playbook cues taken out again"): development figures since,
    # their errors still unlisted.
    BlindSet("held-out 4, written blind 2026-12-05", CORPUS.with_name("heldout4.yaml"),
             CORPUS.with_name("heldout4_grades.yaml"), held_out=True),
    # Written and graded blind in the session after held-out 4 (HELDOUT5.md).
    BlindSet("held-out 5, written blind 2026-12-05", CORPUS.with_name("heldout5.yaml"),
             CORPUS.with_name("heldout5_grades.yaml"), held_out=True),
    # Written and graded blind in the fourth session (HELDOUT6.md); measured once with that
    # session's last reader.
    BlindSet("held-out 6, written blind 2026-12-05", CORPUS.with_name("heldout6.yaml"),
             CORPUS.with_name("heldout6_grades.yaml"), held_out=True),
    # Written and graded blind in the fifth session (HELDOUT7.md); measured once with that
    # session's last reader.
    BlindSet("held-out 7, written blind 2026-12-05", CORPUS.with_name("heldout7.yaml"),
             CORPUS.with_name("heldout7_grades.yaml"), held_out=True),
)  # fmt: skip
FOLLOWUP_IDS = ("loss_spike", "budget_cut", "benchmarks_vs_product")


def load(path: Path = CORPUS) -> list[dict[str, Any]]:
    """The answers of a corpus file (``corpus.yaml`` unless ``path`` says another)."""
    return list(yaml.safe_load(path.read_text(encoding="utf-8")) or [])


def split_of(answer_id: str) -> str:
    """``tuning`` or ``held-out``, fixed by the id's hash (never by what the reader does)."""
    return "tuning" if hashlib.sha256(answer_id.encode()).digest()[0] % 2 == 0 else "held-out"


def text_of(answer: dict[str, Any]) -> str:
    return str(answer.get("join", " ")).join(s["text"] for s in answer["statements"])


def field_of(key: str) -> str:
    return key.split("=", 1)[0].split(":", 1)[0]


@dataclass
class Tally:
    """Per field: gold readings, sure right, sure wrong, unsure right, unsure wrong."""

    gold: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    wrong: Counter[str] = field(default_factory=Counter)
    unsure_right: Counter[str] = field(default_factory=Counter)
    unsure_wrong: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def add(self, answer_id: str, gold: set[str], sure: set[str], unsure: set[str]) -> None:
        for k in gold:
            self.gold[field_of(k)] += 1
        for k in sure:
            (self.right if k in gold else self.wrong)[field_of(k)] += 1
            if k not in gold:
                self.errors.append(f"{answer_id}: wrong {k}")
        for k in unsure - sure:
            (self.unsure_right if k in gold else self.unsure_wrong)[field_of(k)] += 1
        for k in gold - sure - unsure:
            self.errors.append(f"{answer_id}: missed {k}")

    def precision(self, f: str | None = None) -> float:
        r = sum(self.right.values()) if f is None else self.right[f]
        w = sum(self.wrong.values()) if f is None else self.wrong[f]
        return r / (r + w) if r + w else 1.0

    def recall(self, f: str | None = None) -> float:
        g = sum(self.gold.values()) if f is None else self.gold[f]
        r = sum(self.right.values()) if f is None else self.right[f]
        return r / g if g else 1.0


def score(answers: list[dict[str, Any]]) -> Tally:
    tally = Tally()
    for a in answers:
        read = read_answer(text_of(a))
        gold = {k for s in a["statements"] for k in s["gold"]}
        sure = {r.key for r in read.readings if not r.unsure}
        unsure = {r.key for r in read.readings if r.unsure}
        tally.add(a["id"], gold, sure, unsure)
        for fid, statements in (a.get("followups") or {}).items():
            text = str(a.get("join", " ")).join(s["text"] for s in statements)
            fr = read_followup(fid, text)
            fgold = {k for s in statements for k in s["gold"]}
            tally.add(
                f"{a['id']}/{fid}",
                fgold,
                {r.key for r in fr.readings if not r.unsure},
                {r.key for r in fr.readings if r.unsure},
            )
    return tally
