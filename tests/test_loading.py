"""The scenario loader: safe YAML, located problems, ``--set`` overrides, and fuzzing.

Every error class is also checked end to end through ``validate`` in test_cli_scenarios.py;
here the focus is what the loader returns: the Problem's source, line, path and reason.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from sim.scenario.loading import (
    MAX_BYTES,
    Problem,
    ScenarioError,
    line_of,
    load_scenario,
    load_text,
    parse_override,
    parse_yaml,
    scenario_yaml,
    with_overrides,
)
from sim.scenario.spec import Scenario

if TYPE_CHECKING:
    from conftest import ScenarioLines


def problems_of(text: str, overrides: tuple[str, ...] = ()) -> list[Problem]:
    with pytest.raises(ScenarioError) as info:
        load_text(text, "s.yaml", overrides)
    return info.value.problems


# --- problems are located -----------------------------------------------------------------


def test_valid_text_loads(scenario_text: str, scenario: Scenario) -> None:
    assert load_text(scenario_text) == scenario


def test_problem_prints_file_line_path_reason() -> None:
    assert str(Problem("a.yaml", 3, "cluster.gpus", "too few")) == "a.yaml:3: cluster.gpus: too few"
    assert str(Problem("a.yaml", 3, "a\nb", "x\ty")) == "a.yaml:3: a\\nb: x\\ty"
    assert str(Problem("a.yaml", 1, "", "file is empty")) == "a.yaml:1: (document): file is empty"
    assert str(Problem("--set x", None, "x", "bad")) == "--set x: x: bad"


def test_error_message_lists_every_problem(scenario_lines: ScenarioLines) -> None:
    text, _ = scenario_lines.replace("  mfu: .*", "  mfu: 2")
    text, _ = scenario_lines.replace("  gpu: .*", "  gpu: tpu", text)
    with pytest.raises(ScenarioError) as info:
        load_text(text, "s.yaml")
    assert str(info.value).splitlines() == [str(p) for p in info.value.problems]
    assert {p.path for p in info.value.problems} == {"cluster.mfu", "cluster.gpu"}


def test_bad_mapping_key_is_named_without_pydantic_marker(scenario_lines: ScenarioLines) -> None:
    text, line = scenario_lines.replace("    staffing: .*", "    staffing: null\n    fame: data")
    [p] = problems_of(text)
    assert (p.line, p.path) == (line + 1, "org.risk_owners.fame")
    assert p.reason.startswith("unknown key 'fame'; ") and "data_quality, " in p.reason


def test_keys_that_are_not_strings_are_located() -> None:
    text = "name: x\n7: seven\n"
    extra = [p for p in problems_of(text) if p.path == "7"]
    assert extra and extra[0].line == 2


def test_line_of_falls_back_to_the_deepest_existing_node() -> None:
    data = parse_yaml("a:\n  b:\n    - x\n    - y\n", "t")
    assert line_of(data, ("a", "b", 1)) == 4
    assert line_of(data, ("a", "b", 7)) == 2
    assert line_of(data, ("nope",)) == 1


# --- unsafe or unreadable input is refused ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "path", "reason"),
    [
        ("name: !!python/object/apply:os.system [ls]\n", 1, "name", "tags are not allowed"),
        ("name: x\nteaches: !custom y\n", 2, "teaches", "tags are not allowed"),
        ("a: &a [1, 2]\nb: *a\n", 1, "a", "anchors and aliases"),
        ("name: x\n<<: {teaches: y}\n", 2, "<<", "merge keys"),
        ("name: x\na: " + "[" * 100 + "]" * 100 + "\n", 2, None, "nested deeper"),
        ("name: x\nteaches: 'a\x07b'\n", 2, "", "#x0007"),
        ("- 1\n- 2\n", 1, "", "not a list"),
        ("just words\n", 1, "", "not a scalar"),
        ("", 1, "", "file is empty"),
        ("  \n\n", 1, "", "file is empty"),
        ("# only a comment\n", 1, "", "holds no document"),
        ("~\n", 1, "", "holds no document"),
        ("a: 1\n---\nb: 2\n", 2, None, "YAML syntax error"),
        ("name: 1" + "0" * 5000 + "\n", 1, "", "cannot read YAML"),
        ("name: x\nlevers:\n  ? {a: 1}\n  : 3\n", 3, "", "a key must be a name"),
        ("name: x\nlevers:\n  ? [a, {b: 1}]\n  : 3\n", 3, "", "a key must be a name"),
    ],
)
def test_unsafe_or_odd_yaml_is_refused(text: str, line: int, path: str | None, reason: str) -> None:
    [p] = problems_of(text)
    assert p.source == "s.yaml"
    assert p.line == line
    if path is not None:
        assert p.path == path
    assert reason in p.reason


def test_alias_bomb_is_refused_before_expansion() -> None:
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    [p] = problems_of("\n".join(rows) + "\n")
    assert (p.line, p.path) == (1, "a")
    assert "anchors and aliases" in p.reason


def test_text_over_one_mib_is_refused(scenario_text: str) -> None:
    [p] = problems_of(scenario_text + "#" * MAX_BYTES + "\n")
    assert (p.line, p.reason) == (1, "file is larger than 1 MiB")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda d: d / "absent.yaml", "no such file"),
        (lambda d: d, "is a directory, not a file"),
    ],
)
def test_unreadable_paths(tmp_path: Path, make: Any, reason: str) -> None:
    path = make(tmp_path)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    [p] = info.value.problems
    assert (p.source, p.line, p.path) == (str(path), 1, "")
    assert p.reason.startswith(reason)


def test_a_shipped_scenario_loads_by_name_and_a_near_miss_is_suggested(tmp_path: Path) -> None:
    by_name = load_scenario("assistant_7b")
    by_path = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "assistant_7b.yaml")
    assert by_name == by_path
    with pytest.raises(ScenarioError) as info:
        load_scenario("asistant_7b")
    [p] = info.value.problems
    assert "did you mean 'assistant_7b'?" in p.reason
    assert "frontier_405b" in p.reason  # the list of shipped names


def test_a_file_in_the_working_directory_wins_over_a_shipped_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = (Path(__file__).resolve().parents[1] / "scenarios" / "assistant_7b.yaml").read_text()
    (tmp_path / "assistant_7b").write_text(shipped.replace("name: ", "name: Mine ", 1))
    monkeypatch.chdir(tmp_path)
    assert load_scenario("assistant_7b").name.startswith("Mine")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="not a regular file"):
        load_scenario(fifo)


def test_file_over_one_mib_is_refused(tmp_path: Path, scenario_text: str) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(scenario_text + "#" * MAX_BYTES, encoding="utf-8")
    with pytest.raises(ScenarioError, match="larger than 1 MiB"):
        load_scenario(path)


def test_non_utf8_bytes_are_located(tmp_path: Path, scenario_lines: ScenarioLines) -> None:
    text, line = scenario_lines.replace("name: .*", "name: caf\u00e9 \u00e9t\u00e9")
    path = tmp_path / "latin.yaml"
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    [p] = info.value.problems
    assert p.line == line
    assert "not UTF-8" in p.reason and "0xe9" in p.reason


# --- overrides ------------------------------------------------------------------------------


def test_override_changes_the_field(scenario_text: str) -> None:
    s = load_text(scenario_text, "s.yaml", ("levers.reserve_fraction=0.2", "cluster.gpus=512"))
    assert (s.levers.reserve_fraction, s.cluster.gpus) == (0.2, 512)


def test_override_reads_yaml_values(scenario_text: str) -> None:
    s = load_text(
        scenario_text,
        "s.yaml",
        ("levers.playbook.rollback=[continue, overreact]", "org.risk_owners.hardware=null"),
    )
    assert s.levers.playbook["rollback"] == ["continue", "overreact"]
    assert s.org.risk_owners["hardware"] is None


def test_override_into_a_list_item(scenario_text: str, scenario: Scenario) -> None:
    s = load_text(scenario_text, "s.yaml", ("org.teams.0.headcount=9",))
    assert s.org.teams[0].headcount == 9
    assert s.org.teams[1:] == scenario.org.teams[1:]


def test_override_into_a_list_item_by_its_id(scenario_text: str, scenario: Scenario) -> None:
    """A list of items with ids is addressed by id as by index: ``org.teams.data``."""
    team = scenario.org.teams[1]
    s = load_text(scenario_text, "s.yaml", (f"org.teams.{team.id}.headcount=9",))
    assert s.org.teams[1].headcount == 9 and team.headcount != 9
    assert s.org.teams[:1] + s.org.teams[2:] == scenario.org.teams[:1] + scenario.org.teams[2:]


@pytest.mark.parametrize(
    ("override", "path", "reason"),
    [
        ("cluster.gpus=-1", "cluster.gpus", "greater than or equal to 1"),
        ("levers.nope=1", "levers.nope", "unknown key 'nope'; (valid keys: strategy, "),
        ("nope.deeper=1", "nope", "unknown key 'nope'"),
        (
            "levers.strategy=adapted",
            "levers.strategy",
            "did you mean 'adapt'? (one of: pretrain, adapt)",
        ),
        ("org.risk_owners.hardware=nobody", "org.risk_owners.hardware", "unknown team"),
        ("org.teams.99.headcount=3", "org.teams.99.headcount", "no list item 99"),
        ("org.teams.x.headcount=3", "org.teams.x.headcount", "no list item 'x'; (ids: "),
        ("org.teams.dta.headcount=3", "org.teams.dta.headcount", "did you mean 'data'?"),
        ("cluster.gpus.per_rack=3", "cluster.gpus.per_rack", "not a mapping or a list"),
        ("levers.playbook.rollback.0.x=1", "levers.playbook.rollback.0.x", "not a mapping"),
    ],
)
def test_bad_override_names_file_and_override(
    scenario_text: str, override: str, path: str, reason: str
) -> None:
    problems = problems_of(scenario_text, (override,))
    assert problems
    for p in problems:
        assert (p.source, p.line, p.path) == (f"s.yaml (--set {override})", None, path)
    assert reason in problems[0].reason


def test_problems_elsewhere_keep_their_file_lines(scenario_lines: ScenarioLines) -> None:
    text, line = scenario_lines.replace("  mfu: .*", "  mfu: 3")
    problems = problems_of(text, ("cluster.gpus=-1",))
    by_path = {p.path: p for p in problems}
    assert by_path["cluster.mfu"].line == line
    assert by_path["cluster.gpus"].source == "s.yaml (--set cluster.gpus=-1)"


@pytest.mark.parametrize(
    ("override", "reason"),
    [
        ("cluster.gpus", "expected PATH=VALUE"),
        ("=3", "empty field path"),
        ("cluster..gpus=3", "empty field path"),
        ("cluster.gpus=[1", "cannot read value"),
        ("cluster.gpus={a: 1, a: 2}", "cannot read value"),
        ("cluster.gpus=!!python/object:os.system 1", "tags are not allowed"),
        ("cluster.gpus=*x", "anchors and aliases"),
    ],
)
def test_malformed_override(override: str, reason: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_override(override)
    [p] = info.value.problems
    assert p.source == f"--set {override}" and p.line is None
    assert reason in p.reason and "\n" not in p.reason


def test_with_overrides_validates_like_the_file(scenario: Scenario) -> None:
    assert with_overrides(scenario, {"cluster.gpus": 512}).cluster.gpus == 512
    with pytest.raises(ScenarioError, match="cluster.gpus"):
        with_overrides(scenario, {"cluster.gpus": 0})


def test_scenario_yaml_round_trips(scenario: Scenario) -> None:
    assert load_text(scenario_yaml(scenario)) == scenario


# --- fuzzing: anything in, a Scenario or a ScenarioError out ----------------------------


def _dump(data: Any) -> str:
    import io

    buf = io.StringIO()
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = False
    y.dump(data, buf)
    return buf.getvalue()


def _plain_scenario() -> dict[str, Any]:
    text = (Path(__file__).resolve().parent.parent / "scenarios" / "assistant_7b.yaml").read_text()
    return json.loads(load_text(text).model_dump_json(by_alias=True, exclude_defaults=True))


PLAIN = _plain_scenario()

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _containers(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every mapping and list in ``node``."""
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    else:
        return []
    out = [path]
    for key, child in items:
        out += _containers(child, (*path, key))
    return out


CONTAINERS = _containers(PLAIN)


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    data = json.loads(json.dumps(PLAIN))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(CONTAINERS))
        node: Any = data
        for key in path:
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                break
        if not isinstance(node, dict | list) or not node:
            continue
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = draw(st.sampled_from(keys))
        action = draw(st.sampled_from(["delete", "replace", "insert"]))
        if action == "delete":
            del node[key]
        elif action == "replace":
            node[key] = draw(json_values.filter(lambda v, old=node[key]: type(v) is not type(old)))
        elif isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=10))] = draw(json_values)
        else:
            node.insert(key, draw(json_values))
    return data


def _load_or_scenario_error(text: str) -> None:
    try:
        assert isinstance(load_text(text, "fuzz.yaml"), Scenario)
    except ScenarioError as exc:
        assert exc.problems
        for p in exc.problems:
            assert p.source == "fuzz.yaml" and isinstance(p.line, int) and p.line >= 1
            assert "\n" not in str(p)


FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_N", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@FUZZ
@given(mutated_scenarios())
def test_mutated_scenario_loads_or_fails_cleanly(data: dict[str, Any]) -> None:
    _load_or_scenario_error(_dump(data))


@FUZZ
@given(st.text(max_size=200))
def test_random_text_loads_or_fails_cleanly(text: str) -> None:
    _load_or_scenario_error(text)


YAML_BITS = st.sampled_from(
    [":", "- ", "{", "}", "[", "]", "&a", "*a", "!!str", "<<: ", "\t", "'", '"', "? ", "\n  ", "#"]
)


@FUZZ
@given(st.data())
def test_text_spliced_into_scenario_loads_or_fails_cleanly(data: st.DataObject) -> None:
    text = _dump(PLAIN)
    at = data.draw(st.integers(0, len(text)))
    bit = data.draw(YAML_BITS | st.text(max_size=6))
    _load_or_scenario_error(text[:at] + bit + text[at:])


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_load_or_fail_cleanly(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.yaml"
        path.write_bytes(raw)
        try:
            load_scenario(path)
        except ScenarioError as exc:
            assert all(p.line is not None for p in exc.problems)


@FUZZ
@given(path=st.text(max_size=30), value=st.text(max_size=30))
@example(path="\u00b9", value="")  # a superscript digit: str.isdigit() but not int()
@example(path="objective.targets.\u0663.eval", value="x")  # Arabic-Indic three
def test_random_overrides_load_or_fail_cleanly(path: str, value: str) -> None:
    text = _dump(PLAIN)
    try:
        load_text(text, "fuzz.yaml", (f"{path}={value}",))
    except ScenarioError as exc:
        assert exc.problems
