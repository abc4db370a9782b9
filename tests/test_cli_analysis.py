"""``sweep`` and ``sensitivity`` as a user runs them: JSON, tables, CSV and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.designs import DesignFile, design_yaml

ROOT = Path(__file__).resolve().parents[1]
BASE = str(ROOT / "scenarios" / "assistant_7b.yaml")
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_sweep_json_is_one_object_on_stdout_and_csv_the_same_table(tmp_path: Path) -> None:
    csv = tmp_path / "grid.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "sim", "sweep", BASE, "--reps", "10", "--workers", "1",
         "--grid", "levers.reserve_fraction=0,0.2", "--grid", "org.teams.pretraining.headcount=3,6",
         "--csv", str(csv), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"scenario", "reps", "seed", "axes", "points", "seconds", "workers"} <= set(out)
    assert [a["path"] for a in out["axes"]] == [
        "levers.reserve_fraction",
        "org.teams.pretraining.headcount",
    ]
    assert len(out["points"]) == 4
    assert {"schedule_days_p90", "cost_usd_mean", "p_success"} <= set(out["points"][0])
    table = pd.read_csv(csv)
    assert len(table) == 4
    assert table["p_success"].tolist() == pytest.approx([p["p_success"] for p in out["points"]])


def test_sweep_prints_a_table_with_a_preset_applied() -> None:
    code, out, _ = run(
        "sweep", BASE, "--reps", "10", "--workers", "1", "--design", "many_variants",
        "--grid", "levers.parallel_variants=1,2",
    )  # fmt: skip
    assert code == 0
    assert "Many model variants at once" in out and "parallel" in out
    assert "points × 10 replications" in " ".join(out.split())


def test_sensitivity_json_ranks_a_no_effect_lever_last(tmp_path: Path) -> None:
    code, out, _ = run(
        "sensitivity", BASE, "--reps", "10", "--workers", "1", "--json",
        "--lever", "levers.add_core_staff_day=10,150",
        "--lever", "levers.safety_from_start=false,true",
    )  # fmt: skip
    assert code == 0
    result = json.loads(out)
    assert result["metric"] == "schedule_days" and result["label"] == "Schedule (days)"
    levers = [r["lever"] for r in result["levers"]]
    assert levers == ["levers.safety_from_start", "levers.add_core_staff_day"]
    assert result["levers"][-1]["swing"] == 0.0
    first, last = result["levers"]
    assert first["swing_low"] <= first["swing"] <= first["swing_high"] and first["clear"]
    assert last["p_top3"] == 0.0 and not last["clear"]


def test_sensitivity_table_with_a_design_file(tmp_path: Path) -> None:
    design = tmp_path / "siloed.yaml"
    design.write_text(
        design_yaml(DesignFile("Siloed", "assistant_7b.yaml", {"org.politics_days": 1.5}))
    )
    code, out, err = run(
        "sensitivity", BASE, "--reps", "10", "--workers", "1", "--design", design,
        "--metric", "success", "--lever", "levers.reserve_fraction=0,0.2",
    )  # fmt: skip
    assert code == 0, err
    assert "Siloed" in out and "Budget reserve" in out and "All objectives met" in out
    assert "0% → 20%" in out and "levers." not in out and "fraction" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sweep", BASE, "--grid", "levers.reserve_fraction=0,0.9"], "reserve_fraction=0.9:"),
        (["sweep", BASE, "--grid", "levers.nope=1"], "levers.nope"),
        (["sweep", BASE, "--grid", "org.teams.ghost.headcount=2"], "no item with id 'ghost'"),
        (["sweep", BASE, "--grid", "levers.reserve_fraction"], "PATH=VALUE"),
        (["sweep", BASE, "--grid", "levers.reserve_fraction=0.1", "--reps", "0"], "--reps"),
        (["sweep", BASE, "--grid", "levers.reserve_fraction=0.1", "--design", "flat"], "preset"),
        (["sensitivity", BASE, "--metric", "speed"], "--metric 'speed' is not a results column"),
        (["sensitivity", BASE, "--metric", "scedule_days"], "did you mean 'schedule_days'?"),
        (["sensitivity", BASE, "--lever", "levers.reserve_fraction=0,0.1,0.2"], "exactly two"),
        (["sensitivity", BASE, "--executor", "slurm"], "--executor"),
        (["sweep", BASE, "--grid", "levers.reserve_fraction=0.1", "--csv", "/no/such/dir/x.csv",
          "--reps", "10", "--workers", "1"], "cannot write"),
        (["sweep", BASE, "--grid", "levers.reserve_fraction=0.1", "--reps", "9"],
         "--reps 9 is too few for sweep: its intervals need at least 10 worlds"),
        (["sensitivity", BASE, "--reps", "5"], "--reps 5 is too few for sensitivity"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err and out == ""
