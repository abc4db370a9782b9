"""A command line that starts quickly, forgives typos and explains what it read.

Start-up is checked by what a command imports (never by a time); typos by the
suggestions the errors carry; YAML mistakes by the line and the words reported.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import typing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import typer

import sim
import sim.cli
from sim import designs, intervals, names
from sim.cli import COMMANDS, load_command
from sim.compare import inference, search, sequential, space
from sim.engine import compute, decisions
from sim.play.lessons import check as lesson_check
from sim.scenario.loading import ScenarioError, load_scenario, load_text
from sim.scenario.spec import GpuType
from sim.tabletop.report import montecarlo
from tests.cli import run_sim

if TYPE_CHECKING:
    from conftest import ScenarioLines

ROOT = Path(__file__).resolve().parent.parent
HEAVY = (
    "pandas", "scipy", "sqlalchemy", "streamlit", "plotly", "simpy", "networkx", "numpy", "dask",
    "optuna",
)  # fmt: skip


def sim_run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_sim(*args, columns=80, timeout=300)


def loaded_after(code: str) -> set[str]:
    """The heavy packages imported once ``code`` has run in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return set(done.stdout.splitlines()[-1].split()) if done.stdout.strip() else set()


# --- start-up ----------------------------------------------------------------------------------


def test_importing_the_cli_imports_nothing_heavy() -> None:
    assert loaded_after("import sim.cli") == set()


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (["--help"], set()),
        (["--version"], set()),
        # Every command's --help and --version: only its options, never the model.
        *(([name, flag], set()) for name in COMMANDS for flag in ("--help", "--version")),
        (["validate", "scenarios/assistant_7b.yaml"], set()),
        (["schema"], set()),
        # A mistake in a long command's arguments or files is refused as fast as validate.
        (["run", "nonexistent.yaml"], set()),
        (["run", "assistant_7b", "--reps", "0"], set()),
        (["run", "assistant_7b", "--workers", "0"], set()),
        (["compare", "assistant_7b", "--design", "nope"], set()),
        (["compare", "assistant_7b", "assistant_7b", "--reps", "5"], set()),
        (
            ["sweep", "assistant_7b", "--grid", "levers.reserve_fraction=0,0.1", "--reps", "5"],
            set(),
        ),  # fmt: skip
        (["sensitivity", "nonexistent.yaml"], set()),
        (["sensitivity", "assistant_7b", "--policy", "nope"], set()),
        (
            ["compute", "--params", "7B", "--tokens", "2T", "--gpus", "8", "--json"],
            {"numpy", "simpy"},
        ),
    ],
)
def test_a_command_imports_only_what_it_needs(args: list[str], allowed: set[str]) -> None:
    code = (
        "import sys\nfrom sim.cli.common import run_app\nfrom sim.cli import app\n"
        f"sys.argv = ['sim', *{args!r}]\n"
        "try:\n    run_app(app)\nexcept SystemExit:\n    pass"
    )
    assert loaded_after(code) <= allowed


def test_the_names_help_shows_are_the_models_own() -> None:
    """``sim.names`` holds the model's defaults and a copy of its catalogues' names."""
    assert loaded_after("import sim.names") == set()
    # The defaults: the model reads them from sim.names.
    assert names.DEFAULT_PRIMARY is inference.DEFAULT_PRIMARY
    assert names.SEQUENTIAL_MAX_WORLDS is sequential.MAX_WORLDS
    assert names.MIN_WORLDS is intervals.MIN_WORLDS
    assert names.NEIGHBOUR_WORLDS is lesson_check.NEIGHBOUR_WORLDS
    assert names.TABLETOP_REPS is montecarlo.REPS
    # The names: each catalogue keeps its entries; the lists stay equal to them.
    assert names.GPU_NAMES == tuple(compute.GPUS) == typing.get_args(GpuType)
    assert names.POLICY_NAMES == decisions.POLICY_NAMES
    assert names.PRESET_KEYS == tuple(designs.PRESETS_BY_KEY)
    assert names.OBJECTIVES == tuple(search.OBJECTIVE_COLUMNS)
    assert names.CHOICE_FAMILIES == tuple(space.CHOICE_FAMILIES)


def test_the_command_table_matches_the_commands_the_modules_register() -> None:
    registered: dict[str, str] = {}
    for info in pkgutil.iter_modules(sim.cli.__path__):
        module = importlib.import_module(f"sim.cli.{info.name}")
        if hasattr(module, "register"):
            app = typer.Typer()
            module.register(app)
            for name in typer.main.get_group(app).commands:
                registered[name] = info.name
    assert registered == {name: module for name, (module, _) in COMMANDS.items()}
    for name, (_, short) in COMMANDS.items():
        help_text = load_command(name).help or ""
        assert help_text.split("\n\n")[0].strip() == short, name


def test_version_and_a_mistyped_command() -> None:
    done = sim_run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"trainingroom {sim.__version__}"
    typo = sim_run("valdate", "x.yaml")
    assert typo.returncode == 2 and "Did you mean 'validate'" in typo.stderr


# --- unknown names -----------------------------------------------------------------------------


def test_a_misspelt_lever_in_set_suggests_the_name_and_lists_them() -> None:
    done = sim_run("validate", "assistant_7b", "--set", "levers.reserv_fraction=0.1")
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert "levers.reserv_fraction: unknown key 'reserv_fraction'; " in line
    assert "did you mean 'reserve_fraction'?" in line
    assert "(valid keys: strategy, reserve_fraction, ablation_fraction," in line
    assert "Extra inputs" not in line


def test_a_misspelt_key_in_a_file_is_located_and_suggested(
    tmp_path: Path, scenario_lines: ScenarioLines
) -> None:
    text, line = scenario_lines.replace("  mfu: .*", "  mfus: 0.4")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    done = sim_run("validate", str(bad))
    assert done.returncode == 2
    assert f"{bad}:{line}: cluster.mfus: unknown key 'mfus'; did you mean 'mfu'?" in done.stderr


# --- YAML syntax in plain words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "new", "offset", "words"),
    [
        # One line indented less than its siblings.
        ("  mfu: .*", r"\g<0>\n restart_minutes: 3", 1, "the indentation does not line up"),
        # One line indented more than a sibling that already has a value.
        ("  mfu: .*", r"\g<0>\n    restart_minutes: 3", 1, "indented more than 'mfu'"),
        ("  mfu: .*", "  mfu:0.4", 0, "no space after the colon"),
        ("  mfu: .*", "\tmfu: 0.4", 0, "a tab character"),
        ("  mfu: .*", "  mfu: [0.4", 0, "not closed with ']'"),
        ("  mfu: .*", '  mfu: "0.4', 0, "a quote opened on this line is never closed"),
        ("  mfu: .*", "  mfu: @0.4", 0, "a value cannot begin with '@'"),
    ],
)
def test_yaml_syntax_errors_are_explained_at_the_line_to_fix(
    tmp_path: Path,
    scenario_lines: ScenarioLines,
    pattern: str,
    new: str,
    offset: int,
    words: str,
) -> None:
    text, line = scenario_lines.replace(pattern, new)
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    done = sim_run("validate", str(bad))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    [problem] = done.stderr.splitlines()
    assert problem.startswith(f"{bad}:{line + offset}: "), problem
    assert "YAML syntax error: " in problem and words in problem
    assert "<block" not in problem and "expected" not in problem


# --- every problem in one pass -----------------------------------------------------------------


def test_validate_reports_schema_and_reference_problems_together(
    tmp_path: Path, scenario_lines: ScenarioLines
) -> None:
    text, gpus_line = scenario_lines.replace("  gpus: .*", "  gpus: lots")
    lines = type(scenario_lines)(text)
    text, owner_line = lines.replace("    hardware: .*", "    hardware: nobody")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    done = sim_run("validate", str(bad), "--json")
    assert done.returncode == 2
    problems = json.loads(done.stdout)["files"][0]["problems"]
    found = {(p["line"], p["path"]) for p in problems}
    assert (gpus_line, "cluster.gpus") in found  # a schema problem
    assert (owner_line, "org.risk_owners.hardware") in found  # a reference problem


def test_a_reference_problem_under_a_schema_problem_is_not_repeated(
    tmp_path: Path, scenario_lines: ScenarioLines
) -> None:
    # Above the schema's limit, and not a whole number of nodes either: one problem, not two.
    text, _ = scenario_lines.replace("  gpus: .*", "  gpus: 1000001")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    done = sim_run("validate", str(bad))
    [problem] = done.stderr.splitlines()
    assert "cluster.gpus: Input should be less than or equal to 1000000" in problem


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (("run", "assistant_7b", "--policy", "playbok"), "did you mean 'playbook'?"),
        (("compare", "assistant_7b", "--design", "smal_core"), "did you mean 'small_core'?"),
        (("run", "assistant_7b", "--executor", "dsak"), "did you mean 'dask'?"),
        (("sensitivity", "assistant_7b", "--metric", "cost"), "did you mean 'cost_usd'?"),
    ],
)
def test_misspelt_option_values_suggest_the_closest(args: tuple[str, ...], hint: str) -> None:
    done = sim_run(*args)
    assert done.returncode == 2 and hint in done.stderr and "Traceback" not in done.stderr


# --- found in the audit ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("override", "words"),
    [
        # 7e9 billion parameters once ran for ever (a replication never ended).
        ("model.params_b=7e9", "7,000,000,000 billion is more than any training run "
         "(params_b counts billions, at most 100,000); did you mean 7?"),
        ("model.tokens_b=4e12", "(tokens_b counts billions, at most 10,000,000); did you mean "
         "4000?"),
        ("model.tokens_b=4T", "tokens_b counts billions: write 4000 for 4T"),
        ("model.params_b=7B", "params_b counts billions: write 7 for 7B"),
        ("cluster.gpus=16k", "write a plain number: 16000 for 16k"),
        ("levers.reserve_fraction=10%", "write the share as a fraction: 0.1 for 10%"),
    ],
)  # fmt: skip
def test_a_size_in_the_wrong_unit_is_refused_with_what_to_write(override: str, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario("assistant_7b", (override,))
    [problem] = info.value.problems
    assert words in problem.reason


def test_run_refuses_a_size_written_whole_at_once() -> None:
    done = run_sim("run", "assistant_7b", "--reps", "2", "--set", "model.params_b=7e9", timeout=60)
    assert done.returncode == 2 and "did you mean 7?" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_reference_suggests_the_closest_name(
    tmp_path: Path, scenario_lines: ScenarioLines
) -> None:
    text, line = scenario_lines.replace("    hardware: .*", "    hardware: infr")
    with pytest.raises(ScenarioError) as info:
        load_text(text, "bad.yaml")
    [problem] = info.value.problems
    assert problem.line == line
    assert problem.reason.startswith("unknown team 'infr'; did you mean 'infra'? (teams: ")


def test_a_misspelt_required_key_is_one_problem_not_two(scenario_lines: ScenarioLines) -> None:
    text, line = scenario_lines.replace("  deadline_days: (.*)", r"  deadlin_days: \1")
    with pytest.raises(ScenarioError) as info:
        load_text(text, "bad.yaml")
    [problem] = info.value.problems  # not also "objective.deadline_days: Field required"
    assert (problem.line, problem.path) == (line, "objective.deadlin_days")
    assert "did you mean 'deadline_days'?" in problem.reason
