"""Golden back-tests: a seeded run of each shipped scenario against its stored summary.

When a model change is meant to move these numbers, regenerate them with
``python tests/golden/update.py`` and say why in the commit.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.golden.update import golden_summary

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def assert_close(actual: Any, expected: Any, path: str = "") -> None:
    if isinstance(expected, dict):
        assert set(actual) == set(expected), f"{path}: keys differ"
        for k in expected:
            assert_close(actual[k], expected[k], f"{path}.{k}")
    elif isinstance(expected, list):
        assert len(actual) == len(expected), f"{path}: lengths differ"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            assert_close(a, e, f"{path}[{i}]")
    elif isinstance(expected, float) and isinstance(actual, float):
        assert math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-9), (
            f"{path}: {actual} != {expected}"
        )
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_seeded_summary_matches_the_stored_golden(path: Path) -> None:
    golden = ROOT / "tests" / "golden" / f"{path.stem}.json"
    assert golden.exists(), f"no golden summary for {path.name}: run python tests/golden/update.py"
    actual = json.loads(json.dumps(golden_summary(path), sort_keys=True))
    assert_close(actual, json.loads(golden.read_text()))
