"""``validate`` and ``schema`` end to end: exit codes, the FILE:LINE: path: reason lines, JSON.

Each error class a scenario author can hit is one row of ERROR_CASES; the test writes the
broken file, runs ``validate`` and checks the exit code (2), the line, the field path and
the reason, and that no traceback escapes.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.cli.scenarios import schema_text
from sim.scenario.loading import MAX_BYTES
from sim.scenario.spec import Scenario

if TYPE_CHECKING:
    from conftest import ScenarioLines

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_FILE = ROOT / "docs" / "scenario.schema.json"
SHIPPED = sorted((ROOT / "scenarios").glob("*.yaml"))
PROBLEM_LINE = re.compile(r"^.+:\d+: \S+: .+$")

runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    # A user error ends in typer.Exit (SystemExit), never in another exception.
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- the error classes ----------------------------------------------------------------------

#: (file content, line, field path, a fragment of the reason); the path "" prints "(document)".
Case = tuple[str | bytes, int, str, str]
CaseMaker = Callable[["ScenarioLines", Scenario], Case]


def line_edit(pattern: str, new: str, offset: int, path: str, reason: str) -> CaseMaker:
    """A case that replaces the one line matching ``pattern``; the problem is ``offset`` below."""

    def make(lines: ScenarioLines, s: Scenario) -> Case:
        text, n = lines.replace(pattern, new)
        return text, n + offset, path, reason

    return make


#: Mistakes made by editing one line: (pattern, replacement, line offset, path, reason).
LINE_EDITS: dict[str, tuple[str, str, int, str, str]] = {
    "unknown_key": (
        "  gpus: .*",
        r"\g<0>\n  gpus_per_rack: 32",
        1,
        "cluster.gpus_per_rack",
        "unknown key 'gpus_per_rack'; did you mean 'gpus_per_node'? (valid keys: gpu, gpus, ",
    ),
    "unknown_top_level_key": (
        "name: .*",
        r"\g<0>\nauthor: me",
        1,
        "author",
        "unknown key 'author'; (valid keys: name, teaches, objective, ",
    ),
    "wrong_type": ("  gpus: .*", "  gpus: lots", 0, "cluster.gpus", "valid integer"),
    "list_for_a_number": (
        "  deadline_days: .*",
        "  deadline_days: [170]",
        0,
        "objective.deadline_days",
        "valid number",
    ),
    "unknown_choice": (
        "  gpu: .*",
        "  gpu: tpu_v5",
        0,
        "cluster.gpu",
        "unknown value 'tpu_v5'; (one of: a100, h100, h800, h200, b200)",
    ),
    "out_of_range": ("  mfu: .*", "  mfu: 1.5", 0, "cluster.mfu", "less than or equal to 1"),
    "out_of_range_lever": (
        "  reserve_fraction: .*",
        "  reserve_fraction: 0.9",
        0,
        "levers.reserve_fraction",
        "less than or equal to 0.5",
    ),
    "yaml_syntax_error": (
        "  mfu: .*",
        "  mfu: 0.4: 0.5",
        0,
        "cluster.mfu",
        "YAML syntax error: a second ': ' on the line of 'mfu': a value that holds ': ' must be "
        "in quotes",
    ),
    "yaml_bad_indentation": (
        "  mfu: .*",
        r"\g<0>\n    restart_minutes: 3",
        1,
        "cluster.mfu",
        "YAML syntax error",
    ),
    "duplicate_yaml_key": (
        "  gpus: .*",
        r"\g<0>\n  gpus: 512",
        1,
        "cluster.gpus",
        'duplicate key "gpus"',
    ),
    "unknown_team_owning_a_risk": (
        "    hardware: .*",
        "    hardware: nobody",
        0,
        "org.risk_owners.hardware",
        "unknown team",
    ),
    "unknown_playbook_option": (
        r"    rollback: \[.*",
        "    rollback: [panic]",
        0,
        "levers.playbook.rollback.0",
        "'panic'",
    ),
    "python_object_tag": (
        "name: .*",
        "name: !!python/object/apply:os.system [echo pwned]",
        0,
        "name",
        "YAML tags are not allowed (!!python/object/apply:os.system)",
    ),
}


def out_of_range_in_a_list_item(lines: ScenarioLines, s: Scenario) -> Case:
    team = s.org.teams[-1]
    i = len(s.org.teams) - 1
    text, n = lines.replace(rf"    - \{{id: {team.id},.*", f"    - {{id: {team.id}, headcount: 0}}")
    return text, n, f"org.teams.{i}.headcount", "greater than or equal to 1"


def missing_field(lines: ScenarioLines, s: Scenario) -> Case:
    text, _ = lines.replace("  tokens_b: .*", "")
    return text, lines.find("model:", text), "model.tokens_b", "Field required"


def duplicate_team_id(lines: ScenarioLines, s: Scenario) -> Case:
    team = s.org.teams[0].id
    text, n = lines.replace("  teams:", rf"\g<0>\n    - {{id: {team}, headcount: 1}}")
    # The copy goes first, so the original (now item 1, two lines down) is the repeat.
    return text, n + 2, "org.teams.1.id", f"duplicate id '{team}'"


def duplicate_workstream_id(lines: ScenarioLines, s: Scenario) -> Case:
    ws = s.plan.workstreams[0]
    new = f"    - {{id: {ws.id}, owner: {ws.owner}, phase: {ws.phase}, effort_person_days: 1}}"
    text, n = lines.replace("  workstreams:", rf"\g<0>\n{new}")
    return text, n + 2, "plan.workstreams.1.id", f"duplicate id '{ws.id}'"


def unknown_team_in_a_link(lines: ScenarioLines, s: Scenario) -> Case:
    link = s.org.links[0]
    pattern = rf"    - \{{from: {link.source}, to: {link.target},.*"
    text, n = lines.replace(pattern, f"    - {{from: finance, to: {link.target}, kind: handoff}}")
    return text, n, "org.links.0.from", "unknown team 'finance'"


def unknown_team_owning_a_workstream(lines: ScenarioLines, s: Scenario) -> Case:
    new = "    - {id: launch_party, owner: marketing, phase: release, effort_person_days: 2}"
    text, n = lines.replace("  workstreams:", rf"\g<0>\n{new}")
    return text, n + 1, "plan.workstreams.0.owner", "unknown team 'marketing'"


def unknown_workstream_dependency(lines: ScenarioLines, s: Scenario) -> Case:
    owner = s.org.teams[0].id
    new = (
        f"    - {{id: launch_party, owner: {owner}, phase: release, effort_person_days: 2,"
        " depends_on: [press_tour]}"
    )
    text, n = lines.replace("  workstreams:", rf"\g<0>\n{new}")
    return text, n + 1, "plan.workstreams.0.depends_on.0", "unknown workstream 'press_tour'"


def dependency_cycle(lines: ScenarioLines, s: Scenario) -> Case:
    owner = s.org.teams[0].id
    loop = (
        f"    - {{id: loop_a, owner: {owner}, phase: release, effort_person_days: 1,"
        " depends_on: [loop_b]}\n"
        f"    - {{id: loop_b, owner: {owner}, phase: release, effort_person_days: 1,"
        " depends_on: [loop_a]}"
    )
    text, n = lines.replace("  workstreams:", rf"\g<0>\n{loop}")
    return text, n, "plan.workstreams", "dependency cycle: loop_"


def risk_without_owner(lines: ScenarioLines, s: Scenario) -> Case:
    text, _ = lines.replace("    staffing: .*", "")
    return text, lines.find("  risk_owners:", text), "org.risk_owners", "'staffing' has no owner"


def file_over_one_mib(lines: ScenarioLines, s: Scenario) -> Case:
    return lines.text + "#" * MAX_BYTES + "\n", 1, "", "larger than 1 MiB"


def alias_bomb(lines: ScenarioLines, s: Scenario) -> Case:
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    rows += [
        f"{b}: &{b} [{', '.join(['*' + a] * 9)}]"
        for a, b in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    return "\n".join(rows) + "\n", 1, "a", "anchors and aliases are not allowed"


def empty_file(lines: ScenarioLines, s: Scenario) -> Case:
    return "", 1, "", "file is empty"


def list_document(lines: ScenarioLines, s: Scenario) -> Case:
    return "- name: a\n- name: b\n", 1, "", "must be a mapping at the top, not a list"


def scalar_document(lines: ScenarioLines, s: Scenario) -> Case:
    return "just a sentence\n", 1, "", "must be a mapping at the top, not a scalar"


def non_utf8_bytes(lines: ScenarioLines, s: Scenario) -> Case:
    text, n = lines.replace("name: .*", "name: Caf\u00e9 model")
    return text.encode("latin-1"), n, "", "not UTF-8"


ERROR_CASES: dict[str, CaseMaker] = {
    **{name: line_edit(*edit) for name, edit in LINE_EDITS.items()},
    "out_of_range_in_a_list_item": out_of_range_in_a_list_item,
    "missing_field": missing_field,
    "duplicate_team_id": duplicate_team_id,
    "duplicate_workstream_id": duplicate_workstream_id,
    "unknown_team_in_a_link": unknown_team_in_a_link,
    "unknown_team_owning_a_workstream": unknown_team_owning_a_workstream,
    "unknown_workstream_dependency": unknown_workstream_dependency,
    "dependency_cycle": dependency_cycle,
    "risk_without_owner": risk_without_owner,
    "file_over_one_mib": file_over_one_mib,
    "alias_bomb": alias_bomb,
    "empty_file": empty_file,
    "list_document": list_document,
    "scalar_document": scalar_document,
    "non_utf8_bytes": non_utf8_bytes,
}


def assert_reported(stderr: str, where: str, line: int, path: str, reason: str) -> None:
    """``stderr`` holds only problem lines, one of them ``where:line: path: ...reason...``."""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert lines and all(PROBLEM_LINE.match(x) for x in lines), stderr
    prefix = f"{where}:{line}: {path or '(document)'}: "
    hits = [x for x in lines if x.startswith(prefix)]
    assert hits, f"no line starting {prefix!r} in:\n{stderr}"
    assert any(reason in x for x in hits), f"{reason!r} not in {hits}"


@pytest.mark.parametrize("make", ERROR_CASES.values(), ids=list(ERROR_CASES))
def test_error_class_exits_2_with_located_problem(
    make: CaseMaker, scenario_lines: ScenarioLines, scenario: Scenario, tmp_path: Path
) -> None:
    content, line, path, reason = make(scenario_lines, scenario)
    bad = tmp_path / "bad.yaml"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content, encoding="utf-8")
    code, out, err = run("validate", bad)
    assert code == 2
    assert out == ""
    assert_reported(err, str(bad), line, path, reason)


def test_missing_file(tmp_path: Path) -> None:
    code, out, err = run("validate", tmp_path / "absent.yaml")
    assert (code, out) == (2, "")
    assert_reported(err, str(tmp_path / "absent.yaml"), 1, "", "no such file")


def test_directory(tmp_path: Path) -> None:
    code, out, err = run("validate", tmp_path)
    assert (code, out) == (2, "")
    assert_reported(err, str(tmp_path), 1, "", "is a directory")


def test_no_traceback_and_nothing_runs_from_the_real_command(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    bad = tmp_path / "tag.yaml"
    bad.write_text(f"name: !!python/object/apply:os.system [touch {marker}]\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sim", "validate", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{bad}:1: name: YAML tags are not allowed")
    assert not marker.exists()


# --- several files, JSON ----------------------------------------------------------------


def test_valid_file_prints_ok(scenario_path: Path) -> None:
    code, out, err = run("validate", scenario_path)
    assert (code, out, err) == (0, f"{scenario_path}: ok\n", "")


def test_every_file_is_reported(scenario_path: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("- not a mapping\n", encoding="utf-8")
    missing = tmp_path / "missing.yaml"
    code, out, err = run("validate", bad, scenario_path, missing)
    assert code == 2
    assert out == f"{scenario_path}: ok\n"
    assert_reported(err, str(bad), 1, "", "not a list")
    assert_reported(err, str(missing), 1, "", "no such file")


def test_json_when_valid(scenario_path: Path) -> None:
    code, out, err = run("validate", scenario_path, scenario_path, "--json")
    assert (code, err) == (0, "")
    entry = {"file": str(scenario_path), "valid": True, "problems": []}
    assert json.loads(out) == {"files": [entry, entry], "valid": True, "problems": []}


def test_json_when_invalid(scenario_path: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("", encoding="utf-8")
    code, out, err = run("validate", scenario_path, bad, "--json")
    assert code == 2
    report = json.loads(out)
    assert report["valid"] is False
    ok, broken = report["files"]
    assert ok == {"file": str(scenario_path), "valid": True, "problems": []}
    assert broken["file"] == str(bad) and broken["valid"] is False
    [problem] = broken["problems"]
    assert problem == {
        "source": str(bad),
        "line": 1,
        "path": "",
        "reason": "file is empty",
        "text": f"{bad}:1: (document): file is empty",
    }
    assert err == problem["text"] + "\n"


# --- --set ------------------------------------------------------------------------------


def test_set_valid_override(scenario_path: Path) -> None:
    code, out, _ = run("validate", scenario_path, "--set", "levers.reserve_fraction=0.2")
    assert (code, out) == (0, f"{scenario_path}: ok\n")


def test_set_is_validated_like_the_file(scenario_path: Path) -> None:
    code, out, err = run("validate", scenario_path, "--set", "cluster.gpus=-1")
    assert (code, out) == (2, "")
    assert err == (
        f"{scenario_path} (--set cluster.gpus=-1): cluster.gpus: "
        "Input should be greater than or equal to 1\n"
    )


@pytest.mark.parametrize(
    ("override", "path"),
    [
        ("levers.reserve=0.2", "levers.reserve"),
        ("budget.total_usd=1", "budget"),
        ("org.teams.42.headcount=3", "org.teams.42.headcount"),
    ],
)
def test_set_unknown_path(scenario_path: Path, override: str, path: str) -> None:
    code, out, err = run("validate", scenario_path, "--set", override)
    assert (code, out) == (2, "")
    assert err.startswith(f"{scenario_path} (--set {override}): {path}: ")


def test_set_last_one_wins(scenario_path: Path) -> None:
    code, _, _ = run(
        "validate", scenario_path, "--set", "cluster.gpus=-1", "--set", "cluster.gpus=8"
    )
    assert code == 0


def test_malformed_set_reported_once(scenario_path: Path) -> None:
    args = ("validate", scenario_path, scenario_path, "--set", "cluster.gpus")
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", "--set cluster.gpus: (document): expected PATH=VALUE\n")
    code, out, _ = run(*args, "--json")
    assert code == 2
    assert json.loads(out) == {
        "files": [],
        "valid": False,
        "problems": [
            {
                "source": "--set cluster.gpus",
                "line": None,
                "path": "",
                "reason": "expected PATH=VALUE",
                "text": "--set cluster.gpus: (document): expected PATH=VALUE",
            }
        ],
    }


# --- shipped scenarios --------------------------------------------------------------------


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_scenario_validates(path: Path) -> None:
    code, out, err = run("validate", path)
    assert (code, err) == (0, ""), err
    assert out == f"{path}: ok\n"


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_scenario_names_the_schema(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../docs/scenario.schema.json"


def test_minimal_example_in_the_docs_validates(tmp_path: Path) -> None:
    guide = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = guide[guide.index("## A minimal scenario") :]
    example = section[section.index("```yaml\n") + 8 : section.index("```\n", 8)]
    path = tmp_path / "minimal.yaml"
    path.write_text(example, encoding="utf-8")
    code, _, err = run("validate", path)
    assert (code, err) == (0, "")


# --- schema -------------------------------------------------------------------------------


def test_committed_schema_is_current() -> None:
    _, out, _ = run("schema")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == out, (
        "docs/scenario.schema.json is stale: run `python -m sim schema --output "
        "docs/scenario.schema.json` and commit it"
    )


def test_schema_is_one_json_object_with_or_without_json() -> None:
    code, plain, err = run("schema")
    assert (code, err) == (0, "")
    _, as_json, _ = run("schema", "--json")
    assert plain == as_json == schema_text()
    schema = json.loads(plain)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert set(schema["properties"]) == set(Scenario.model_fields)
    assert schema["additionalProperties"] is False
    # Aliases are the YAML spelling.
    assert {"from", "to"} <= set(schema["$defs"]["Link"]["properties"])


def test_schema_output_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    code, out, _ = run("schema", "--output", target)
    assert (code, out) == (0, f"wrote {target}\n")
    assert target.read_text(encoding="utf-8") == schema_text()
    code, out, _ = run("schema", "--output", target, "--json")
    assert code == 0 and json.loads(out)["output"] == str(target)


def test_schema_output_to_a_bad_place(tmp_path: Path) -> None:
    code, out, err = run("schema", "--output", tmp_path / "no" / "such" / "dir.json")
    assert (code, out) == (2, "")
    assert err.startswith("error: cannot write") and "Traceback" not in err


def test_schema_accepts_shipped_and_rejects_unknown_keys(scenario: Scenario) -> None:
    import jsonschema  # a dev dependency: the test runs wherever the suite does

    schema = json.loads(schema_text())
    data = json.loads(scenario.model_dump_json(by_alias=True))
    jsonschema.validate(data, schema)
    data["cluster"]["gpus_per_rack"] = 4
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
