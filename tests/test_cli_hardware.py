"""The ``compute`` and ``cluster`` commands, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from sim.engine.compute import ComputeEstimate
from tests.cli import run_sim

ROOT = Path(__file__).resolve().parents[1]
STATISTIC = {"mean", "p10", "p50", "p90"}
#: The names are pinned in tests/test_compute.py; the CLI must emit every one.
COMPUTE_KEYS = {f.name for f in fields(ComputeEstimate)}
CLUSTER_STATISTICS = {
    "interruptions",
    "unexpected_interruptions",
    "planned_interruptions",
    "effective_training_time",
    "mean_hours_between_interruptions",
    "lost_gpu_hours",
}


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, timeout=120)


def sim_json(*args: str) -> dict[str, Any]:
    done = sim(*args, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)  # the whole of stdout is one JSON object
    assert isinstance(result, dict)
    return result


@pytest.fixture(scope="module")
def llama3() -> dict[str, Any]:
    return sim_json("cluster", "--gpus", "16384", "--days", "54", "--seed", "11")


# --- numbers with suffixes -----------------------------------------------------------------


# (the size parser's own tests are in test_cli_sizes.py)


# --- compute -------------------------------------------------------------------------------


def test_compute_deepseek_v3() -> None:
    result = sim_json(
        "compute", "--params", "671B", "--active-params", "37B", "--tokens", "14.8T",
        "--gpus", "2048", "--gpu", "h800", "--mfu", "0.3464",
    )  # fmt: skip
    assert COMPUTE_KEYS <= set(result)
    assert result["flops"] == pytest.approx(6 * 37e9 * 14.8e12)
    assert result["expected_gpu_hours"] == pytest.approx(2_664e3, rel=0.10)
    assert result["cost_usd"] == pytest.approx(5.328e6, rel=0.10)
    assert result["inputs"]["usd_per_gpu_hour"] == 2.0


def test_compute_accepts_plain_numbers_and_options() -> None:
    result = sim_json(
        "compute", "--params", "7e9", "--tokens", "2e12", "--gpus", "256",
        "--usd-per-gpu-hour", "3", "--failure-rate", "5", "--checkpoint-minutes", "20",
        "--restart-minutes", "10",
    )  # fmt: skip
    assert result["inputs"]["checkpoint_minutes"] == 20
    assert result["cost_usd"] == pytest.approx(3 * result["expected_gpu_hours"])
    assert 0 < result["effective_training_time"] < 1


def test_compute_table() -> None:
    done = sim("compute", "--params", "7B", "--tokens", "2T", "--gpus", "256")
    assert done.returncode == 0, done.stderr
    assert "GPU-hours with interruptions" in done.stdout and "GPU-h │" in done.stdout


# --- cluster -------------------------------------------------------------------------------


def test_cluster_json_shape(llama3: dict[str, Any]) -> None:
    for key in CLUSTER_STATISTICS:
        assert set(llama3[key]) == STATISTIC, key
    assert llama3["best_checkpoint_minutes"] > 0
    # Without --checkpoint-minutes the run uses the best interval.
    assert llama3["checkpoint_minutes"] == llama3["best_checkpoint_minutes"]
    assert 0 < llama3["analytic_effective_training_time"] <= 1


def test_cluster_reproduces_llama3(llama3: dict[str, Any]) -> None:
    # 54 days on 16,384 H100: 419 unexpected, 466 interruptions in all, >90% effective.
    assert llama3["unexpected_interruptions"]["mean"] == pytest.approx(419, rel=0.10)
    assert llama3["interruptions"]["mean"] == pytest.approx(466, rel=0.10)
    assert llama3["effective_training_time"]["mean"] > 0.90


def test_cluster_same_seed_same_output() -> None:
    args = ("cluster", "--gpus", "1024", "--days", "10", "--reps", "20", "--seed", "5", "--json")
    first, again = sim(*args), sim(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == again.stdout


def test_cluster_table_with_every_option() -> None:
    done = sim(
        "cluster", "--gpus", "1024", "--days", "5", "--gpus-per-node", "4", "--failure-rate", "5",
        "--planned-per-day", "1", "--checkpoint-minutes", "30", "--checkpoint-write-minutes", "1",
        "--restart-minutes", "8", "--reps", "60", "--seed", "2",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Effective training time" in done.stdout and "%" in done.stdout
    assert "Best interval (most effective time)" in done.stdout
    assert "a checkpoint every 30 min" in done.stdout


def test_cluster_manual_share_slows_each_restart_by_its_people() -> None:
    from sim.engine.reliability import MANUAL_FIX_MINUTES, ON_CALL_WAIT_MINUTES

    common = ("cluster", "--gpus", "992", "--days", "10", "--params", "175B", "--reps", "5")
    llama = sim_json(*common)["inputs"]["restart_minutes"]
    opt = sim_json(*common, "--manual-share", "0.333")["inputs"]["restart_minutes"]
    people = ON_CALL_WAIT_MINUTES + MANUAL_FIX_MINUTES
    assert opt - llama == pytest.approx((0.333 - 3 / 466) * people)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (("compute", "--params", "lots", "--tokens", "1T", "--gpus", "8"), "--params"),
        (("compute", "--params", "7B", "--tokens", "-1T", "--gpus", "8", "--json"), "--tokens"),
        (("compute", "--params", "7B", "--tokens", "1T", "--gpus", "0", "--json"), "gpus"),
        (("compute", "--params", "7B", "--tokens", "1T", "--gpus", "8", "--gpu", "tpu"), "GPU"),
        (("compute", "--params", "7B", "--tokens", "1T", "--gpus", "8", "--mfu", "2"), "mfu"),
        (("compute", "--params", "7B", "--tokens", "1T", "--gpus", "eight", "--json"), "gpus"),
        (("compute", "--params", "7B", "--tokens", "1T"), "gpus"),
        (("cluster", "--gpus", "-8", "--days", "5", "--json"), "gpus"),
        (("cluster", "--gpus", "8", "--days", "0"), "days"),
        (("cluster", "--gpus", "8", "--days", "5", "--restart-minutes", "-1"), "restart"),
        (("cluster", "--gpus", "8", "--days", "5", "--reps", "0", "--json"), "reps"),
        (("cluster", "--gpus", "8", "--days", "5", "--manual-share", "0.3"), "--params"),
        (
            ("cluster", "--gpus", "8", "--days", "5", "--params", "7B", "--manual-share", "2"),
            "--manual-share",
        ),
    ],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...], message: str) -> None:
    done = sim(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
