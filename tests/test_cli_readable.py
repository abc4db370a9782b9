"""Every command's table at 80 columns through a pipe: nothing cut, labels and units shown.

Each command runs in a subprocess with COLUMNS=80 and its stdout a pipe, as in a
default terminal or a CI log. A cut cell shows as rich's ellipsis; a raw column name
as snake_case.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from sim.cli.plays import decision_name
from sim.scenario.vocabulary import option_words
from tests.cli import run_sim

ROOT = Path(__file__).resolve().parent.parent
SNAKE_KEYS = re.compile(
    r"\b(schedule_days|cost_usd|effort_person_days|on_time|on_budget|quality_met|p_success|"
    r"effective_training_time|lost_gpu_hours)\b"
)


def sim(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, columns=columns)


def readable(done: subprocess.CompletedProcess[str], width: int = 80) -> str:
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.strip()
    too_wide = [line for line in out.splitlines() if len(line) > width]
    assert not too_wide, too_wide
    assert "…" not in out, "a cell was cut"
    assert not SNAKE_KEYS.search(out), SNAKE_KEYS.search(out)
    return out


@pytest.fixture(scope="module")
def saved_play(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("play") / "play.json"
    done = sim("play", "followup_loss_spike", "--seed", "0", "--save", str(path))
    readable(done)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("compute", "--params", "671B", "--active-params", "37B", "--tokens", "14.8T",
         "--gpus", "2048", "--gpu", "h800"),
        ("cluster", "--gpus", "16384", "--days", "54", "--reps", "5"),
        ("calibrate", "--reps", "3"),
        ("sensitivity", "assistant_7b", "--reps", "10", "--workers", "1",
         "--lever", "levers.reserve_fraction=0,0.2", "--lever", "levers.parallel_variants=1,3"),
        ("compare", "assistant_7b", "--design", "small_core", "--reps", "10", "--workers", "1"),
    ],
)  # fmt: skip
def test_tables_fit_80_columns_without_cutting(args: tuple[str, ...]) -> None:
    readable(sim(*args))


def test_run_shows_the_deadline_and_budget_above_labelled_results() -> None:
    out = readable(sim("run", "assistant_7b", "--reps", "4", "--workers", "1"))
    first = out.lstrip().splitlines()[0]
    assert first.startswith("Deadline 180 days; budget $") and "replications" in first
    for label in ("Schedule (days)", "Cost (USD)", "Effort (person-days)", "On budget",
                  "All objectives met"):  # fmt: skip
        assert label in out
    assert re.search(r"\$\d+\.\d\dM", out) and re.search(r"\d+\.\d%", out)


def test_run_writes_tokens_and_scope_cuts_in_their_units() -> None:
    # Found in the audit: tokens trained with no unit, the share of worlds with a cut as 0.0200,
    # dollars saved without a $, the score given up as 0.000204. This follow-up's plan does
    # not fit its budget, so every world cuts something.
    out = readable(sim("run", "followup_budget_cut", "--reps", "3", "--workers", "1"))
    assert re.search(r"│ Tokens trained +│ +[\d,]+B │", out)
    assert re.search(r"│ Tokens planned after the budget fit +│ +[\d,]+B │", out)
    assert re.search(r"│ Worlds with a scope cut +│ +100\.0% │", out)
    assert re.search(r"│ Mean dollars saved by cuts +│ +\$[\d,.]+[kM]? │", out)
    assert re.search(r"│ Mean target score given up +│ +\d+\.\d\d pts │", out)
    cuts = re.findall(r"│   cut: [a-z ]+ +│ +(.*?) │", out)
    assert cuts and all(re.fullmatch(r"\d+\.\d%", c) for c in cuts), cuts


def test_sweep_keeps_its_axis_headers_and_names_each_column_once() -> None:
    grid = (
        "--grid",
        "levers.reserve_fraction=0,0.1",
        "--grid",
        "levers.ablation_fraction=0.02,0.1",
    )
    args = ("sweep", "assistant_7b", *grid, "--reps", "10", "--workers", "1")
    out = readable(sim(*args))
    # At 80 columns a table, one row a grid point: each axis's setting once per row, in its
    # unit, never a block per point repeating "reserve fraction: 0" (issue 28.9).
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+%\s+\d+%\s", line)]
    assert len(rows) == 4 and {tuple(r[:2]) for r in rows} == {
        ("0%", "2%"), ("0%", "10%"), ("10%", "2%"), ("10%", "10%")}, out  # fmt: skip
    assert "fraction:" not in out and "levers." not in out
    wide = readable(sim(*args, columns=160), width=160)
    header = next(line for line in wide.splitlines() if "Budget reserve" in line)
    names = [cell.strip() for cell in header.strip("┃ ").split("┃")]
    assert len(names) == len(set(names)), names
    assert {"days P90", "cost P90", "Budget reserve", "Ablation budget"} <= set(names)


def test_play_and_replay_label_their_outcome(saved_play: Path) -> None:
    out = readable(sim("replay", str(saved_play)))
    assert "Deadline 200 days" in out and "Schedule (days)" in out and "Cost (USD)" in out


def test_debrief_keeps_option_names_whole_and_explains_its_ranking(saved_play: Path) -> None:
    out = readable(sim("debrief", str(saved_play)))
    report = json.loads(sim("debrief", str(saved_play), "--json").stdout)
    for decision in report["decisions"]:
        for alternative in decision["alternatives"]:
            assert f"→ {option_words(alternative['choice'])}" in out  # whole, on one line
    # Decisions and options in words: no key such as rollback#0, no identifier like
    # pause_investigate, and no option named for its judgement (overreact).
    rows = out.split("Impact ranks")[0]
    assert "#" not in rows and "overreact" not in rows, rows
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", rows), rows
    assert "Impact ranks each alternative" in out
    # The decision named is the one with the largest |impact| in its rows, and is marked.
    sizes = {
        d["key"]: max((abs(a["impact"]) for a in d["alternatives"]), default=0.0)
        for d in report["decisions"]
    }
    assert report["most_mattered"] == max(sizes, key=lambda k: sizes[k])
    name = decision_name(report["most_mattered"])
    assert f"The decision that mattered most: {name} on day" in out
    marked = [line for line in out.splitlines() if "◀" in line and "│" in line]
    assert len(marked) == 1
    biggest = max(
        (a for d in report["decisions"] for a in d["alternatives"]), key=lambda a: abs(a["impact"])
    )
    assert f"→ {option_words(biggest['choice'])}" in marked[0]
    assert f"{biggest['impact']:+.3f}" in marked[0]


def test_bench_reports_every_shipped_scenario_serial_and_parallel() -> None:
    done = sim("bench", "--reps", "2", "--workers", "1", "--json")
    assert done.returncode == 0, done.stderr
    d = json.loads(done.stdout)
    shipped = sorted(p.stem for p in (ROOT / "sim" / "scenario" / "shipped").glob("*.yaml"))
    assert sorted(r["name"] for r in d["scenarios"]) == shipped
    assert d["scenarios"][0]["name"] == "assistant_7b"
    for key in ("model_events_per_second", "bare_simpy_events_per_second", "ratio",
                "replications_per_second", "workers"):  # fmt: skip
        assert key in d
    assert d["model_events_per_second"] == d["scenarios"][0]["model_events_per_second"]
    for r in d["scenarios"]:
        assert r["events_per_replication"] > 0
        assert r["ratio"] == pytest.approx(
            d["bare_simpy_events_per_second"] / r["model_events_per_second"]
        )
        assert r["replications_per_second"] > 0 and r["replications_per_second_serial"] > 0
    frontier = next(r for r in d["scenarios"] if r["name"] == "frontier_405b")
    assert frontier["events_per_replication"] > d["scenarios"][0]["events_per_replication"]


def test_bench_table_and_startup_fit_80_columns() -> None:
    out = readable(sim("bench", "assistant_7b", "--reps", "2", "--workers", "1", "--startup"))
    assert "assistant 7b" in out and "validate assistant_7b" in out and " ms" in out


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "scenarios/assistant_7b.yaml"),
        ("compute", "--params", "7B", "--tokens", "4T", "--gpus", "256"),
        # Above 50 windows cluster has a progress bar: off a terminal it must print nothing.
        ("cluster", "--gpus", "1024", "--days", "5", "--reps", "60"),
        ("run", "assistant_7b", "--reps", "4", "--workers", "1"),
        ("sweep", "assistant_7b", "--grid", "levers.reserve_fraction=0,0.2", "--reps", "10",
         "--workers", "1"),
        ("calibrate", "--reps", "3"),
    ],
    ids=lambda a: a[0],
)  # fmt: skip
def test_tour_commands_write_nothing_stray_to_stderr(args: tuple[str, ...]) -> None:
    """Issue 28.9: five commands wrote a lone blank line to stderr (a progress bar off a
    terminal); through a pipe stderr holds only what a person should read, never a blank."""
    done = sim(*args)
    assert done.returncode == 0, done.stderr
    assert "\n\n" not in f"\n{done.stderr}" and not done.stderr.isspace(), repr(done.stderr)
    assert "Words used above" in done.stdout or args[0] in ("validate", "compute", "calibrate",
                                                            "cluster")  # fmt: skip


def test_outputs_point_to_the_glossary_and_name_methods_in_a_footnote() -> None:
    """Each command that uses world, replication, scope or points says where they are
    defined, and names its statistical methods in a footnote, not in its sentences."""
    out = readable(sim("compare", "assistant_7b", "--design", "small_core", "--reps", "10",
                       "--workers", "1"))  # fmt: skip
    assert "Methods: Student's t interval; Tango's score test" in out.replace("\n", " ")
    assert "Words used above (replication, world, scope" in out.replace("\n", " ")
    sentences = out.split("Methods:")[0]
    for name in ("Tango", "Holm", "Bayesian", "McNemar"):
        assert name not in sentences, name
    assert "Words used above (world" in readable(sim("play", "followup_loss_spike", "--seed", "0"))
