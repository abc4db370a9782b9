"""The benchmarks measure each set written blind when, and only when, it is present.

The sets of tests.prose_corpus.BLIND_SETS (corpus.yaml's format, coach grades in
coach_grades.yaml's) are written blind elsewhere; here the code path is tried on a
temporary set made of a few corpus answers, never on a real one.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.prose_corpus import BLIND_SETS, BlindSet, load

ROOT = Path(__file__).parents[1]
COACH = ROOT / "tests" / "data" / "prose_corpus" / "coach_grades.yaml"
IDS = ("bullets-01", "bullets-04", "neg-04", "wrong-03")


def _module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NAME = "held-out 9, made up for a test"


def _made_up(tmp_path: Path, held_out: bool = True) -> BlindSet:
    answers = [a for a in load() if a["id"] in IDS]
    grades = [g for g in yaml.safe_load(COACH.read_text(encoding="utf-8")) if g["id"] in IDS]
    assert len(answers) == len(grades) == len(IDS)
    path, graded = tmp_path / "heldout2.yaml", tmp_path / "heldout2_grades.yaml"
    path.write_text(yaml.safe_dump(answers, sort_keys=False), encoding="utf-8")
    graded.write_text(yaml.safe_dump(grades, sort_keys=False), encoding="utf-8")
    return BlindSet(NAME, path, graded, held_out)


def test_the_reader_benchmark_prints_held_out_2_only_when_present(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _module("prose_reader")
    bs = _made_up(tmp_path)
    assert bench.main([], blind=[bs]) == 0
    out = capsys.readouterr().out
    assert f"## {NAME}" in out
    assert f"{NAME}: {len(IDS)} answers" in out
    assert "development data" not in out
    rows = out.split(f"## {NAME}", 1)[1]
    assert "ALL" in rows and "reserve" in rows
    assert bench.main([], blind=[bs._replace(held_out=False)]) == 0
    assert "(looked at: development data)" in capsys.readouterr().out
    assert bench.main([], blind=[bs._replace(answers=tmp_path / "absent.yaml")]) == 0
    assert NAME not in capsys.readouterr().out


def test_the_ranking_benchmark_ranks_held_out_2_only_when_present(tmp_path: Path) -> None:
    bench = _module("rubric_ranking")
    bs = _made_up(tmp_path)
    graded = bs.grades
    scored = bench.blind_set(bs)
    assert scored is not None and scored.name == NAME
    assert scored.ids == IDS
    coach = bench.coach_grades(graded)
    assert scored.grades == tuple(float(coach[i]["grade"]) for i in IDS)
    assert scored.totals == tuple(bench.protocol_total(coach[i]) for i in IDS)
    figures = scored.figures()
    assert -1.0 <= figures["spearman"] <= 1.0 and -1.0 <= figures["tau_b"] <= 1.0
    assert bench.blind_set(bs._replace(answers=tmp_path / "absent.yaml")) is None
    assert bench.blind_set(bs._replace(grades=tmp_path / "absent.yaml")) is None
    # A graded set whose grades miss an answer is an error naming the file, not a guess.
    graded.write_text(yaml.safe_dump(yaml.safe_load(graded.read_text())[1:]), encoding="utf-8")
    with pytest.raises(SystemExit, match="heldout2_grades.yaml"):
        bench.blind_set(bs)


def test_every_blind_set_has_its_grades_and_a_name_of_its_own() -> None:
    """A set written blind comes with its coach grades, one per answer, and its own rows."""
    assert len({bs.name for bs in BLIND_SETS}) == len(BLIND_SETS)
    for bs in BLIND_SETS:
        answers, grades = load(bs.answers), yaml.safe_load(bs.grades.read_text("utf-8"))
        assert sorted(a["id"] for a in answers) == sorted(g["id"] for g in grades), bs.name
        assert all(g["grade"] in (1, 2, 3, 4, 5) for g in grades), bs.name
