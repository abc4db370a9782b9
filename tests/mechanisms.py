"""Shared helpers of the direction tests: paired intervals on common random numbers, and scope.

Every direction is checked on the test's seed and two others (``SEEDS``), on the same
worlds for both arms. ``same_scope`` reports the tokens trained and post-training rounds
of both arms and fails when a difference could come from a scope cut made to fit the
budget rather than from the mechanism the test names.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.intervals import paired_difference
from sim.runner import run_replications
from sim.scenario.loading import with_overrides
from sim.scenario.spec import Scenario

SEED = 2026
#: The test's seed and two others: a direction must hold on all three.
SEEDS = (SEED, 7, 11)


def runs(base: Scenario, reps: int, seed: int = SEED, **overrides: Any) -> pd.DataFrame:
    """``reps`` worlds of ``base`` with ``--set``-style overrides (``a__b`` for ``a.b``)."""
    s = with_overrides(base, {k.replace("__", "."): v for k, v in overrides.items()})
    return run_replications(s, reps, seed)


def higher(b: pd.Series, a: pd.Series, what: str = "") -> dict[str, float]:
    """Paired B - A; asserts the whole 95% interval is above zero."""
    d = paired_difference(a.astype(float), b.astype(float))
    assert d["low"] > 0, (
        f"{what}: expected B > A, got mean {d['mean']:.4g} [{d['low']:.4g}, {d['high']:.4g}]"
    )
    return d


def scope_line(a: pd.DataFrame, b: pd.DataFrame) -> str:
    return (
        f"tokens trained A {a['tokens_b'].mean():,.0f}B, B {b['tokens_b'].mean():,.0f}B; "
        f"post-training rounds A {a['post_training_rounds'].mean():.2f}, "
        f"B {b['post_training_rounds'].mean():.2f}; worlds with a scope cut "
        f"A {(a['scope_cuts'] > 0).mean():.0%}, B {(b['scope_cuts'] > 0).mean():.0%}"
    )


def same_scope(a: pd.DataFrame, b: pd.DataFrame, why: str | None = None) -> str:
    """Report both arms' scope; without ``why``, assert neither gave any up to its budget.

    Equal scope: no world of either arm cut scope to fit its budget, and both trained the
    same tokens (means within 1%). ``why`` says why the scope differs by design (the
    mechanism itself is a change of scope); the line is then only reported.
    """
    line = scope_line(a, b)
    print(line)  # pytest -s shows both arms' scope
    if why is None:
        assert a["scope_cuts"].max() == 0 and b["scope_cuts"].max() == 0, (
            f"a scope cut, not the mechanism, could make the difference: {line}"
        )
        ratio = b["tokens_b"].mean() / a["tokens_b"].mean()
        assert abs(ratio - 1.0) < 0.01, f"the arms trained different tokens: {line}"
    return line
