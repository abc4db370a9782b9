"""The benchmarks measure an optional second held-out set when, and only when, it is present.

tests/data/prose_corpus/heldout2.yaml (corpus.yaml's format) and heldout2_grades.yaml
(coach_grades.yaml's format) are written blind elsewhere; here the code path is tried on
a temporary file made of a few corpus answers, never on the real one.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.prose_corpus import load

ROOT = Path(__file__).parents[1]
COACH = ROOT / "tests" / "data" / "prose_corpus" / "coach_grades.yaml"
IDS = ("bullets-01", "bullets-04", "neg-04", "wrong-03")


def _module(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _made_up(tmp_path: Path) -> tuple[Path, Path]:
    answers = [a for a in load() if a["id"] in IDS]
    grades = [g for g in yaml.safe_load(COACH.read_text(encoding="utf-8")) if g["id"] in IDS]
    assert len(answers) == len(grades) == len(IDS)
    path, graded = tmp_path / "heldout2.yaml", tmp_path / "heldout2_grades.yaml"
    path.write_text(yaml.safe_dump(answers, sort_keys=False), encoding="utf-8")
    graded.write_text(yaml.safe_dump(grades, sort_keys=False), encoding="utf-8")
    return path, graded


def test_the_reader_benchmark_prints_held_out_2_only_when_present(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _module("prose_reader")
    path, _ = _made_up(tmp_path)
    assert bench.main([], heldout2=path) == 0
    out = capsys.readouterr().out
    assert f"## {bench.HELDOUT2_NAME}" in out
    assert f"{bench.HELDOUT2_NAME}: {len(IDS)} answers" in out
    rows = out.split(f"## {bench.HELDOUT2_NAME}", 1)[1]
    assert "ALL" in rows and "reserve" in rows
    assert bench.main([], heldout2=tmp_path / "absent.yaml") == 0
    assert "held-out 2" not in capsys.readouterr().out


def test_the_ranking_benchmark_ranks_held_out_2_only_when_present(tmp_path: Path) -> None:
    bench = _module("rubric_ranking")
    path, graded = _made_up(tmp_path)
    scored = bench.heldout2_set(path, graded)
    assert scored is not None and scored.name == bench.HELDOUT2_NAME
    assert scored.ids == IDS
    coach = bench.coach_grades(graded)
    assert scored.grades == tuple(float(coach[i]["grade"]) for i in IDS)
    assert scored.totals == tuple(bench.protocol_total(coach[i]) for i in IDS)
    figures = scored.figures()
    assert -1.0 <= figures["spearman"] <= 1.0 and -1.0 <= figures["tau_b"] <= 1.0
    assert bench.heldout2_set(tmp_path / "absent.yaml", graded) is None
    assert bench.heldout2_set(path, tmp_path / "absent.yaml") is None
    # A graded set whose grades miss an answer is an error naming the file, not a guess.
    graded.write_text(yaml.safe_dump(yaml.safe_load(graded.read_text())[1:]), encoding="utf-8")
    with pytest.raises(SystemExit, match="heldout2_grades.yaml"):
        bench.heldout2_set(path, graded)
