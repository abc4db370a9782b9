"""Precision and recall of the prose reader, per field, on the labelled corpus.

Reads every answer of tests/data/prose_corpus/corpus.yaml (and its follow-up answers)
and prints, for the held-out half and the tuning half apart: per field, the gold
readings, the sure readings right and wrong, precision and recall, and the unsure
readings (asked, never guessed) right and wrong. Targets: precision >= 0.95 (a wrong
reading is worse than a missed one), recall >= 0.85.

Then every set written blind that is present (``tests.prose_corpus.BLIND_SETS``:
heldout2.yaml, heldout3.yaml, corpus.yaml's format), each as rows of its own; a set that
is absent prints nothing. A set still held out never has its errors listed.

Usage: ``PYTHONPATH=. python benchmarks/prose_reader.py [--errors] [--ids]``
(``--errors`` lists each wrong and missed reading of the tuning half only; ``--ids``
prints which answers fall in each half).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from tests.prose_corpus import BLIND_SETS, BlindSet, Tally, load, score, split_of


def table(name: str, t: Tally) -> str:
    fields = sorted(set(t.gold) | set(t.right) | set(t.wrong) | set(t.unsure_right)
                    | set(t.unsure_wrong))  # fmt: skip
    lines = [
        f"## {name}",
        f"{'field':<22}{'gold':>5}{'right':>6}{'wrong':>6}{'prec':>7}{'recall':>7}"
        f"{'unsure ok':>10}{'unsure x':>9}",
    ]
    for f in fields:
        lines.append(
            f"{f:<22}{t.gold[f]:>5}{t.right[f]:>6}{t.wrong[f]:>6}{t.precision(f):>7.2f}"
            f"{t.recall(f):>7.2f}{t.unsure_right[f]:>10}{t.unsure_wrong[f]:>9}"
        )
    lines.append(
        f"{'ALL':<22}{sum(t.gold.values()):>5}{sum(t.right.values()):>6}"
        f"{sum(t.wrong.values()):>6}{t.precision():>7.3f}{t.recall():>7.3f}"
        f"{sum(t.unsure_right.values()):>10}{sum(t.unsure_wrong.values()):>9}"
    )
    return "\n".join(lines)


def main(argv: list[str], blind: Sequence[BlindSet] = BLIND_SETS) -> int:
    answers = load()
    halves = {h: [a for a in answers if split_of(a["id"]) == h] for h in ("held-out", "tuning")}
    for h, part in halves.items():
        print(f"{h}: {len(part)} answers, {sum(len(a['statements']) for a in part)} statements")
        if "--ids" in argv:
            print("  " + " ".join(a["id"] for a in part))
    for h, part in halves.items():
        t = score(part)
        print()
        print(table(h, t))
        if "--errors" in argv and h == "tuning":
            print("\n".join(t.errors))
    print("\nThe first 85 answers alone (no batch), and without the said-in-words fields:")
    for h, part in halves.items():
        first = score([a for a in part if not a.get("batch")])
        print(
            f"  {h:<9} first 85: precision {first.precision():.3f}, recall {first.recall():.3f}"
            f"; all answers without hazard and practice: "
            + "precision {:.3f}, recall {:.3f}".format(*_without(score(part), SAID))
        )
    for bs in blind:
        if not bs.answers.is_file():
            continue
        part = load(bs.answers)
        t = score(part)
        print(f"\n{bs.name}: {len(part)} answers, "
              f"{sum(len(a['statements']) for a in part)} statements"
              + ("" if bs.held_out else " (looked at: development data)") + "\n")  # fmt: skip
        print(table(bs.name, t))
        print(
            f"  {bs.name} without hazard and practice: "
            + "precision {:.3f}, recall {:.3f}".format(*_without(t, SAID))
        )
    return 0


#: The fields of what is said in words with no plan field (added 2026-12-04).
SAID = ("hazard", "practice")


def _without(t: Tally, fields: tuple[str, ...]) -> tuple[float, float]:
    """Precision and recall over every field but ``fields``."""
    keep = [f for f in set(t.gold) | set(t.right) | set(t.wrong) if f not in fields]
    right, wrong = sum(t.right[f] for f in keep), sum(t.wrong[f] for f in keep)
    gold = sum(t.gold[f] for f in keep)
    return (right / (right + wrong) if right + wrong else 1.0, right / gold if gold else 1.0)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
