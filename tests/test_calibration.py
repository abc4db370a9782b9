"""``sim calibrate``: each published figure is met within its tolerance, or is a stated gap."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.calibration import (
    CalibrationRow,
    Tolerance,
    calibration_rows,
    compute_optimal_params,
    deepseek_implied_mfu,
)
from sim.calibration.projects import project_rows
from sim.engine.compute import training_flops
from sim.engine.quality import (
    CHINCHILLA_A,
    CHINCHILLA_ALPHA,
    CHINCHILLA_B,
    CHINCHILLA_BETA,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rows() -> list[CalibrationRow]:
    return calibration_rows(reps=100, seed=0)


def by_name(rows: list[CalibrationRow], start: str) -> CalibrationRow:
    matches = [r for r in rows if r.name.startswith(start)]
    assert len(matches) == 1, [r.name for r in matches]
    return matches[0]


def test_every_row_is_within_its_tolerance_or_a_stated_gap(rows: list[CalibrationRow]) -> None:
    for row in rows:
        # A gap row that comes within tolerance has a stale note: remove it (and its docs).
        assert row.within != bool(row.gap), (row.name, row.published, row.model, row.gap)
        assert row.name and row.source and row.unit


def test_the_rows_the_brief_asks_for_are_there(rows: list[CalibrationRow]) -> None:
    for start in (
        "DeepSeek-V3 pre-training GPU-hours",
        "DeepSeek-V3 pre-training cost",
        "DeepSeek-V3 MFU implied",
        "Llama 3 MFU on 16,384 H100",
        "Llama 3: unexpected interruptions",
        "Llama 3: planned interruptions",
        "Llama 3: effective training time",
        "OLMo 2 7B",
        "OLMo 2 13B",
        "OLMo 2 32B",
        "Gopher (280B) loss minus Chinchilla",
        "Compute-optimal tokens per parameter",
        "PaLM 540B",
        "Coordination in a 10-person co-design team",
        "Schedule of a 29-person team",
        "Effort of a 29-person team",
        "Smallest core within 10%",
        "Rounds with the most post-training gain",
        "Tülu 3: calendar",
        "Frontier (novelty 1) over documented work",
        "BLOOM 176B: days to train",
        "BLOOM 176B: hours a stall",
        "OPT-175B: wall clock over compute days",
        "OPT-175B: recipe changes",
        "Llama 3 405B: effective training time over the whole run",
        "Llama 3 405B: share of runs restarted from scratch",
        "BioMed-RoBERTa",
        "DeepSeek-V3: post-training GPU-hours",
        "DeepSeek-V3: total GPU-hours, post-training included",
        "SmolLM3: share of GPU-hours",
    ):
        by_name(rows, start)


def test_no_row_only_restates_an_input(rows: list[CalibrationRow]) -> None:
    names = " ".join(r.name for r in rows)
    gone = ("default price", "OPTIMAL_ROUNDS", "(default failure_rate)", "Default cluster MFU")
    assert not [g for g in gone if g in names]


def test_project_rows_play_the_whole_engine(rows: list[CalibrationRow]) -> None:
    # A whole-project row compares an output of the engine, not a constant: it moves with
    # the seed of the plays.
    other = {r.name: r.model for r in project_rows(seed=5)}
    moved = [r.name for r in rows if r.name in other and r.model != other[r.name]]
    assert len(moved) >= 4, moved


def test_deepseek_implied_mfu_is_computed_from_the_report() -> None:
    flops = 6 * 37e9 * 14.8e12
    assert deepseek_implied_mfu() == pytest.approx(flops / (2_664e3 * 3_600 * 989e12))
    assert 0.34 < deepseek_implied_mfu() < 0.35


def test_olmo2_implied_tokens_reproduce_the_published_flops(rows: list[CalibrationRow]) -> None:
    for size, flops in (("7B", 1.8e23), ("13B", 4.6e23), ("32B", 1.3e24)):
        row = by_name(rows, f"OLMo 2 {size}")
        params = float(size[:-1]) * 1e9
        assert training_flops(params, row.model) == pytest.approx(flops)


def test_compute_optimum_matches_the_closed_form() -> None:
    # d/dN of L(N, C/6N) = 0 gives N = G (C/6)^(beta/(alpha+beta)),
    # with G = (alpha A / (beta B))^(1/(alpha+beta)).
    a, b = CHINCHILLA_ALPHA, CHINCHILLA_BETA
    g = (a * CHINCHILLA_A / (b * CHINCHILLA_B)) ** (1 / (a + b))
    for flops in (1e21, 5.88e23, 3.8e25):
        assert compute_optimal_params(flops) == pytest.approx(
            g * (flops / 6) ** (b / (a + b)), rel=1e-4
        )


def test_simulated_rows_are_reproducible() -> None:
    first = [r.model for r in calibration_rows(reps=5, seed=3)]
    again = [r.model for r in calibration_rows(reps=5, seed=3)]
    other = [r.model for r in calibration_rows(reps=5, seed=4)]
    assert first == again and first != other
    with pytest.raises(ValueError, match="reps"):
        calibration_rows(reps=0)


@pytest.mark.parametrize(
    "tolerance, published, model, holds",
    [
        (Tolerance("relative", 0.1), 100.0, 109.0, True),
        (Tolerance("relative", 0.1), 100.0, 89.0, False),
        (Tolerance("absolute", 0.01), 0.41, 0.404, True),
        (Tolerance("absolute", 0.01), 0.41, 0.395, False),
        (Tolerance("at_least"), 0.9, 0.9, True),
        (Tolerance("at_least"), 0.9, 0.89, False),
        (Tolerance("at_most"), 1.0, 1.2, False),
        (Tolerance("range"), (5.0, 7.0), 7.0, True),
        (Tolerance("range"), (5.0, 7.0), 8.0, False),
        (Tolerance("range", 1.0), (5.0, 7.0), 8.0, True),
    ],
)
def test_tolerance(tolerance: Tolerance, published: float, model: float, holds: bool) -> None:
    assert tolerance.holds(published, model) is holds
    assert tolerance.describe()


def test_a_range_tolerance_needs_a_range() -> None:
    with pytest.raises(ValueError, match="range"):
        Tolerance("range").holds(1.0, 1.0)


# --- the command ----------------------------------------------------------------------------------


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    wide = {**os.environ, "COLUMNS": "250"}  # rich wraps long names in a narrow terminal
    return subprocess.run(
        [sys.executable, "-m", "sim", "calibrate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=wide,
    )


def test_cli_json_is_one_object_with_the_rows(rows: list[CalibrationRow]) -> None:
    done = sim("--json", "--reps", "100", "--seed", "0")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) == {"rows", "summary", "reps", "seed"}
    assert result["summary"]["test"]["rows"] == sum(r.basis == "test" for r in rows)
    assert len(result["rows"]) == len(rows)
    for got, row in zip(result["rows"], rows, strict=True):
        assert set(got) == {
            "name",
            "source",
            "published",
            "model",
            "unit",
            "tolerance",
            "within",
            "basis",
            "basis_why",
            "note",
            "gap",
        }
        assert got["name"] == row.name and got["within"] is row.within
        assert math.isclose(got["model"], row.model, rel_tol=1e-12)


def test_cli_table_and_bad_input() -> None:
    done = sim("--reps", "3")
    assert done.returncode == 0, done.stderr
    assert "DeepSeek-V3" in done.stdout and "out-of-sample tests" in done.stdout
    bad = sim("--reps", "0")
    assert bad.returncode == 2 and "--reps" in bad.stderr and not bad.stdout


def test_every_row_says_what_it_is_evidence_of(rows: list[CalibrationRow]) -> None:
    from sim.calibration.figures import BASES

    for row in rows:
        assert row.basis in BASES and row.basis_why, row.name
    # Rows the issue named as restating inputs or fitted to their own figure are not tests.
    for start, basis in (
        ("Llama 3 MFU on 16,384", "identity"),
        ("DeepSeek-V3 days per trillion", "identity"),
        ("Llama 3: unexpected interruptions", "fit"),
        ("PaLM 540B", "fit"),
        ("Schedule of a 29-person team", "fit"),
    ):
        assert by_name(rows, start).basis == basis, start


def test_the_headline_counts_only_tests(rows: list[CalibrationRow]) -> None:
    from sim.cli.calibration_run import counts, headline

    c = counts(rows)
    assert sum(v["rows"] for v in c.values()) == len(rows)
    tests = [r for r in rows if r.basis == "test"]
    first = headline(rows)[0]
    assert f"{sum(r.within for r in tests)} of {len(tests)} out-of-sample tests" in first
    assert c["test"]["rows"] < len(rows) / 2  # most rows are fits or identities, and say so


def test_calibrate_and_cluster_give_the_same_llama3_figures() -> None:
    """`sim calibrate`'s Llama 3 rows are the windows `sim cluster --params 405B` simulates."""
    from sim.calibration.figures import LLAMA3_CLUSTER_ARGS

    reps, seed = 20, 3
    done = subprocess.run(
        [sys.executable, "-m", "sim", "cluster", *LLAMA3_CLUSTER_ARGS.split(), "--reps",
         str(reps), "--seed", str(seed), "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    cluster = json.loads(done.stdout)
    rows = calibration_rows(reps=reps, seed=seed)
    for start, key in (
        ("Llama 3: effective training time", "effective_training_time"),
        ("Llama 3: unexpected interruptions", "unexpected_interruptions"),
        ("Llama 3: planned interruptions", "planned_interruptions"),
    ):
        assert by_name(rows, start).model == pytest.approx(cluster[key]["mean"], rel=1e-12), key


def test_failed_runs_are_fitted_on_one_run_and_tested_on_others(rows: list[CalibrationRow]) -> None:
    """OPT-175B's logbook sets the constants; BLOOM and Llama 3 test them, unrefitted."""
    for start, basis in (
        ("OPT-175B: wall clock over compute days", "fit"),
        ("OPT-175B: recipe changes", "test"),
        ("BLOOM 176B: days to train", "test"),
        ("BLOOM 176B: hours a stall", "test"),
        ("Llama 3 405B: effective training time over the whole run", "test"),
        ("Llama 3 405B: share of runs restarted from scratch", "test"),
        ("BioMed-RoBERTa", "fit"),
    ):
        assert by_name(rows, start).basis == basis, start
    # The OPT fit took, and no Llama-3-like run restarts from scratch (10% before the fit).
    assert by_name(rows, "OPT-175B: wall clock over compute days").within
    assert by_name(rows, "Llama 3 405B: share of runs restarted from scratch").within


def test_the_whole_run_probes_simulate_the_windows_sim_cluster_does() -> None:
    """One run, one figure: a probe's run fails and restarts as `sim cluster` simulates it."""
    from sim.calibration.figures import llama3_spec
    from sim.calibration.projects import llama3_run_scenario, opt_scenario
    from sim.engine.facts import scenario_facts

    s = llama3_run_scenario()
    assert scenario_facts(s).run(s.model.params_b * 1e9).reliability == llama3_spec()
    s = opt_scenario()
    c = s.cluster
    done = subprocess.run(
        [sys.executable, "-m", "sim", "cluster", "--gpus", str(c.gpus), "--failure-rate",
         repr(c.failure_rate), "--manual-share", repr(c.manual_restart_share), "--params",
         "175B", "--days", "56", "--reps", "2", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    inputs = json.loads(done.stdout)["inputs"]
    run = scenario_facts(s).run(s.model.params_b * 1e9).reliability
    for key in ("failure_rate", "planned_per_day", "checkpoint_minutes",
                "checkpoint_write_minutes", "restart_minutes"):  # fmt: skip
        assert inputs[key] == pytest.approx(getattr(run, key), rel=1e-12), key
