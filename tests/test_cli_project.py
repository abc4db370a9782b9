"""The run, compare and bench commands as a user calls them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sim import native
from tests.cli import run_sim

ROOT = Path(__file__).resolve().parent.parent
BASE = str(ROOT / "scenarios" / "assistant_7b.yaml")
OTHER = str(ROOT / "scenarios" / "followup_benchmarks_vs_product.yaml")
STATS = {"mean", "p10", "p50", "p90"}


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, timeout=300)


def test_run_json_has_every_interface_key() -> None:
    out = sim("run", BASE, "--reps", "12", "--seed", "4", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in ("schedule_days", "cost_usd", "effort_person_days"):
        assert set(d[key]) == STATS
    for key in ("p_on_time", "p_on_budget", "p_quality_met", "p_success"):
        assert 0.0 <= d[key] <= 1.0
    assert d["scenario"] and d["reps"] == 12 and d["seed"] == 4
    assert set(d["training_run"]) >= {"interruptions", "effective_training_time", "lost_gpu_hours"}
    assert set(d["quality"]["reasoning"]) == {"public_benchmark", "product_eval"}
    assert "gsm8k" in d["quality"]["reasoning"]["public_benchmark"]
    assert "support_reasoning" in d["quality"]["reasoning"]["product_eval"]
    assert isinstance(d["incidents"], dict) and "loss_spike" in d["incidents"]


def test_run_set_override_changes_the_result() -> None:
    a = json.loads(sim("run", BASE, "--reps", "8", "--workers", "1", "--json").stdout)
    b = json.loads(
        sim(
            "run",
            BASE,
            "--reps",
            "8",
            "--workers",
            "1",
            "--json",
            "--set",
            "levers.strategy=adapt",
        ).stdout
    )
    assert b["schedule_days"]["mean"] != a["schedule_days"]["mean"]


def test_compare_json_has_paired_differences_and_a_verdict() -> None:
    out = sim("compare", BASE, OTHER, "--reps", "10", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    other = Path(OTHER).stem
    diff = d["paired"][other]["schedule_days"]
    assert diff["low"] <= diff["mean"] <= diff["high"]
    assert diff["verdict"] in ("clear", "alike", "not yet known")
    assert diff["method"].startswith("paired t")
    chance = d["paired"][other]["success"]
    assert {"b_only", "a_only", "p_value", "p_adjusted", "margin"} <= set(chance)
    assert d["primary"] == "success" and d["adjustment"]["method"] == "holm"
    assert set(d["best"]["chance_best"]) == set(d["designs"])
    p90 = d["intervals"][other]["schedule_days"]["p90"]
    assert p90["low"] <= p90["value"] and "within_80" in d["intervals"][other]
    assert d["verdict"][other] and all(isinstance(s, str) for s in d["verdict"][other])


def test_compare_prints_verdicts_a_table_and_the_best_design() -> None:
    out = sim("compare", BASE, OTHER, "--reps", "10", "--workers", "1")
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "verdict" in text and "Best on all objectives met:" in text
    assert "Primary metric: all objectives met" in text


def test_compare_takes_presets_and_design_files_applied_to_the_baseline(tmp_path: Path) -> None:
    design = tmp_path / "mine.yaml"
    design.write_text("name: More reserve\nchanges:\n  levers.reserve_fraction: 0.2\n")
    out = sim("compare", BASE, "--design", "large_siloed", "--design", str(design),
              "--reps", "16", "--workers", "1", "--json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert list(d["designs"]) == ["assistant_7b", "large_siloed", "More reserve"]
    siloed = d["verdict"]["large_siloed"]
    assert any(line.startswith("Scope: large_siloed") for line in siloed)
    assert any("quality targets" in line for line in siloed), "the page's metrics, too"
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: Bad\nchanges:\n  levers.reserve_fraction: 0.1\n  levers.nope: 1\n")
    out = sim("compare", BASE, "--design", str(bad), "--reps", "4")
    assert out.returncode == 2 and f"{bad}:4: levers.nope: " in out.stderr
    assert "Traceback" not in out.stderr
    out = sim("compare", BASE, "--reps", "4")
    assert out.returncode == 2 and "at least two designs" in out.stderr
    out = sim("compare", BASE, OTHER, "--reps", "4")
    assert out.returncode == 2 and "--reps 4 is too few for compare" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    for bad, message in (
        (["--primary", "speed"], "--primary must be one of"),
        (["--margin", "schedule_days=-1"], "must be above 0"),
        (["--margin", "speed=1"], "expected METRIC=X"),
        (["--precision", "0"], "--precision must be above 0"),
    ):
        out = sim("compare", BASE, OTHER, "--reps", "10", *bad)
        assert out.returncode == 2 and message in out.stderr, out.stderr


def test_compare_with_funded_plans_trains_the_same_run() -> None:
    out = sim("compare", BASE, "--design", "large_siloed", "--fund-plans",
              "--reps", "16", "--workers", "1", "--json")  # fmt: skip
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    tokens = [d["designs"][n]["tokens_b"]["mean"] for n in ("assistant_7b", "large_siloed")]
    assert abs(tokens[1] / tokens[0] - 1.0) < 0.02
    assert not any(line.startswith("Scope") for line in d["verdict"]["large_siloed"])
    later = d["paired"]["large_siloed"]["schedule_days"]
    assert later["mean"] > 0, "the same run takes the large siloed org longer"


def test_bench_reports_the_ratio_against_bare_simpy() -> None:
    out = sim("bench", BASE, "--reps", "10", "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["ratio"] == pytest.approx(
        d["bare_simpy_events_per_second"] / d["model_events_per_second"]
    )
    assert d["replications_per_second"] > 0 and d["workers"] == 1
    # Model events count the run's settled steps; the SimPy events are the rest of them.
    assert 0 < d["simpy_events_per_replication"] <= d["events_per_replication"]
    # A replication's cost in bare-SimPy events, and which engine ran (sim/native.py).
    assert d["bare_events_per_replication"] == pytest.approx(
        d["bare_simpy_events_per_second"] / d["replications_per_second_serial"]
    )
    assert d["engine"] == ("compiled" if native.running_compiled() else "python")


def test_bench_prints_the_two_speed_measures_and_the_engine() -> None:
    out = sim("bench", "assistant_7b", "--reps", "5", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "Engine: " in out.stdout
    assert "A 7B replication costs" in out.stdout and "bare-SimPy events' time" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("run", BASE, "--reps", "0"),
        ("run", BASE, "--workers", "0"),
        ("run", BASE, "--executor", "spark"),
        ("run", BASE, "--policy", "coin"),
        ("run", BASE, "--set", "cluster.gpus=-3"),
        ("run", "no/such/file.yaml"),
        ("compare", BASE),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(args: tuple[str, ...]) -> None:
    out = sim(*args, "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip() and "Traceback" not in out.stderr


def test_play_saves_a_play_that_replays_and_debriefs(tmp_path: Path) -> None:
    play_file = tmp_path / "play.json"
    spike = str(ROOT / "scenarios" / "followup_loss_spike.yaml")
    played = sim("play", spike, "--seed", "3", "--save", str(play_file), "--json")
    assert played.returncode == 0, played.stderr
    outcome = json.loads(played.stdout)["outcome"]
    replayed = json.loads(sim("replay", str(play_file), "--json").stdout)
    assert replayed["outcome"] == outcome
    assert replayed["matches"] and replayed["verdict"].startswith("Matches the saved play")
    # A play whose log says another answer than the world reaches is named where it differs.
    log = json.loads(play_file.read_text())
    first = log["decisions"][0]
    log["decisions"][0] = {**first, "key": first["key"] + "x"}
    play_file.write_text(json.dumps(log))
    changed = json.loads(sim("replay", str(play_file), "--json").stdout)
    assert not changed["matches"] and "at decision 1" in changed["verdict"], changed["verdict"]
    report = json.loads(sim("debrief", str(play_file), "--json").stdout)
    assert report["decisions"] and report["most_mattered"]
    assert any(d["alternatives"] for d in report["decisions"])


def test_a_broken_play_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    out = sim("replay", str(bad))
    assert out.returncode == 2 and "bad.json:" in out.stderr and "Traceback" not in out.stderr


def test_a_play_whose_scenario_no_longer_validates_exits_2(tmp_path: Path) -> None:
    # A saved play embeds its scenario; one that a later model refuses (a misspelt key,
    # here) is named with its line and a suggestion by replay and debrief alike.
    play_file = tmp_path / "play.json"
    spike = str(ROOT / "scenarios" / "followup_loss_spike.yaml")
    assert sim("play", spike, "--seed", "3", "--save", str(play_file), "--json").returncode == 0
    log = json.loads(play_file.read_text())
    log["scenario_yaml"] = log["scenario_yaml"].replace("strength:", "strenght:", 1)
    play_file.write_text(json.dumps(log))
    for command in ("replay", "debrief"):
        out = sim(command, str(play_file))
        assert out.returncode == 2, (command, out.stderr)
        assert "Traceback" not in out.stderr and "play.json:" in out.stderr
        assert "did you mean 'strength'" in out.stderr
