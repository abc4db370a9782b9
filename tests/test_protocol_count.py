"""The coach's protocol counted from the reader's keys (sim/interview/protocol.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
import yaml

from sim.interview.prose import read_answer
from sim.interview.protocol import ProtocolCount, protocol_count

ROOT = Path(__file__).parents[1]
CORPUS = ROOT / "tests" / "data" / "prose_corpus" / "corpus.yaml"
COACH = ROOT / "tests" / "data" / "prose_corpus" / "coach_grades.yaml"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location(
        "rubric_ranking", ROOT / "benchmarks" / "rubric_ranking.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _count(text: str) -> ProtocolCount:
    return protocol_count(r.key for r in read_answer(text).readings if not r.unsure)


def test_the_bands_and_the_hazards_follow_the_protocol() -> None:
    assert ProtocolCount(0, 0, 0, frozenset()).grade == 1
    assert ProtocolCount(1, 0, 0, frozenset()).grade == 2
    assert ProtocolCount(4, 1, 2, frozenset()).total == 5.5
    assert ProtocolCount(4, 1, 2, frozenset()).grade == 3
    assert ProtocolCount(6, 0, 0, frozenset({"no_reserve"})).grade == 3
    assert ProtocolCount(1, 0, 0, frozenset({"a", "b"})).grade == 1


def test_items_count_what_was_said() -> None:
    terse = _count(
        "Noisy web data costs quality and weeks of retraining. GPU failures cost days. "
        "The data team owns data quality with dedup rates; infra owns hardware with node "
        "health checks. The training lead makes the rollback call within hours. "
        "Ablations get 6% of compute; reserve of 10%. Budget cut: first use the reserve, "
        "then cut ablations."
    )
    assert terse.core >= 5 and not terse.hazards
    assert _count("").grade == 1


@pytest.mark.parametrize(
    ("said", "negated"),
    [
        ("We keep a 12% reserve and the data team owns data quality with dedup rates.",
         "We do not keep a reserve and nobody owns data quality."),
        ("The training lead makes the rollback call.",
         "Leadership makes the rollback call."),
        ("We run n-gram overlap scans before training.",
         "We will not run overlap scans."),
    ],
)  # fmt: skip
def test_refusing_a_practice_never_counts_more_than_saying_it(said: str, negated: str) -> None:
    good, bad = _count(said), _count(negated)
    assert bad.total <= good.total
    assert bad.grade <= good.grade
    assert len(bad.hazards) >= len(good.hazards)


def test_the_count_agrees_with_the_blind_coach_on_the_corpus() -> None:
    """The protocol's item tests, written from its text and fitted to no set, give the
    blind coach's exact grade on 115 of the 127 corpus answers (2026-12-05); held here at
    six in seven so that a change to the reader that loses agreement shows."""
    bench = _bench()
    coach = {str(e["id"]): e for e in yaml.safe_load(COACH.read_text(encoding="utf-8"))}
    answers = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    same = sum(
        bench.counted(bench.words_of(a)).grade == coach[str(a["id"])]["grade"] for a in answers
    )
    assert same >= 6 / 7 * len(answers), same
