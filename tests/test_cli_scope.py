"""Scope is named where a result shows it: sweep, sensitivity and compare say when a plan
did less (fewer tokens or post-training rounds), so doing less never reads as speed."""

from __future__ import annotations

import pytest

from sim.cli.analysis_run import scope_notes
from sim.compare.sweep import grid_designs, parse_axis, point_name
from sim.runner import run_designs
from sim.scenario.loading import load_scenario
from tests.cli import run_sim


@pytest.mark.parametrize("seed", [0, 1])
def test_a_plan_that_does_less_is_named_with_its_scope(seed: int) -> None:
    base = load_scenario("assistant_7b")
    designs, points = grid_designs(base, [parse_axis("levers.reserve_fraction=0,0.25")])
    frames = run_designs(designs, 60, seed, workers=1)
    low, high = (point_name(p) for p in points)
    rounds = {n: frames[n]["post_training_rounds"].mean() for n in (low, high)}
    assert rounds[high] < 0.9 * rounds[low], rounds  # the larger reserve cuts post-training
    lines = scope_notes(frames, low, lambda n: f"the {n} plan")
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"Scope differs: the {high} plan did ") and "doing less" in lines[0]
    said = f"did {rounds[high]:.1f} post-training rounds on average, not {rounds[low]:.1f} ("
    assert said in lines[0], lines[0]
    # The same design against itself: nothing to say.
    assert scope_notes({low: frames[low], "copy": frames[low]}, low, str) == []


def test_sweep_output_names_the_scope_cut() -> None:
    out = run_sim(
        "sweep", "assistant_7b", "--grid", "levers.reserve_fraction=0,0.25", "--reps", "40",
        "--workers", "1", columns=80,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "Scope differs: the budget reserve 25% plan did" in text, out.stdout
    assert "(the first grid point's)" in text, out.stdout
    assert all(len(line) <= 80 for line in out.stdout.splitlines())
