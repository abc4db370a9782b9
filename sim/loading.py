"""Read scenario YAML safely and turn every problem into ``FILE:LINE: field.path: reason``.

YAML is read with ruamel in round-trip mode (YAML 1.2, keeps line numbers), after
refusing what could hurt: files over 1 MiB, tags that construct objects, alias
anchors (alias bombs), empty files and documents that are not a mapping.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from sim.scenario import Scenario, reference_problems

MAX_BYTES = 1 << 20


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located as precisely as we can."""

    source: str
    line: int | None
    path: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line is not None else self.source
        return f"{where}: {self.path or '(document)'}: {self.reason}"


class ScenarioError(Exception):
    """A scenario (file or overrides) is not valid; ``problems`` says where and why."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def _yaml() -> YAML:
    y = YAML(typ="rt", pure=True)
    y.allow_duplicate_keys = False
    return y


def _refuse_unsafe(text: str, source: str) -> None:
    """Refuse anchors/aliases and object-constructing tags before parsing fully."""
    y = _yaml()
    try:
        for token in y.scan(io.StringIO(text)):
            name = type(token).__name__
            line = token.start_mark.line + 1
            if name in ("AnchorToken", "AliasToken"):
                raise ScenarioError(
                    [Problem(source, line, "", "YAML anchors and aliases are not allowed")]
                )
            if name == "TagToken":
                raise ScenarioError(
                    [Problem(source, line, "", f"YAML tags are not allowed ({token.value!r})")]
                )
    except MarkedYAMLError as exc:
        raise _syntax_problem(exc, source) from None


def _syntax_problem(exc: MarkedYAMLError, source: str) -> ScenarioError:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    reason = (exc.problem or exc.context or "YAML syntax error").strip()
    return ScenarioError([Problem(source, line, "", f"YAML syntax error: {reason}")])


def parse_yaml(text: str, source: str) -> CommentedMap:
    """Parse scenario YAML text into a round-trip mapping, refusing unsafe input."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise ScenarioError([Problem(source, None, "", "file is larger than 1 MiB")])
    if not text.strip():
        raise ScenarioError([Problem(source, None, "", "file is empty")])
    _refuse_unsafe(text, source)
    try:
        data = _yaml().load(text)
    except MarkedYAMLError as exc:
        raise _syntax_problem(exc, source) from None
    except YAMLError as exc:
        raise ScenarioError([Problem(source, None, "", f"YAML error: {exc}")]) from None
    if data is None:
        raise ScenarioError([Problem(source, None, "", "file holds no document")])
    if not isinstance(data, CommentedMap):
        kind = type(data).__name__.replace("Commented", "").lower()
        raise ScenarioError(
            [Problem(source, 1, "", f"a scenario must be a mapping at the top, not a {kind}")]
        )
    return data


def line_of(data: Any, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the deepest node of ``loc`` that exists in ``data``."""
    node, line = data, None
    for key in loc:
        if isinstance(node, CommentedMap) and key in node:
            line = node.lc.key(key)[0] + 1
            node = node[key]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            line = node.lc.item(key)[0] + 1
            node = node[key]
        else:
            break
    if line is None and isinstance(data, CommentedMap):
        return 1
    return line


def _split(path: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in path.split(".") if p)


def _plain(value: Any) -> Any:
    """Round-trip YAML nodes to plain Python containers."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True)
class Override:
    """A ``--set PATH=VALUE`` override, parsed."""

    path: str
    value: Any
    text: str


def parse_override(text: str) -> Override:
    """Parse ``PATH=VALUE``; the value is read as a YAML scalar or flow collection."""
    source = f"--set {text}"
    if "=" not in text:
        raise ScenarioError([Problem(source, None, "", "expected PATH=VALUE")])
    path, raw = text.split("=", 1)
    path = path.strip()
    if not path or any(not part for part in path.split(".")):
        raise ScenarioError([Problem(source, None, path, "empty field path")])
    try:
        value = _plain(_yaml().load(raw)) if raw.strip() else ""
    except YAMLError as exc:
        raise ScenarioError([Problem(source, None, path, f"cannot read value: {exc}")]) from None
    return Override(path=path, value=value, text=text)


def apply_override(data: dict[str, Any], ov: Override) -> None:
    """Set ``ov.path`` in ``data`` (creating mappings on the way), in place."""
    keys = _split(ov.path)
    node: Any = data
    for depth, key in enumerate(keys[:-1]):
        if isinstance(node, list):
            if not isinstance(key, int) or not 0 <= key < len(node):
                raise ScenarioError(
                    [Problem(f"--set {ov.text}", None, ov.path, f"no list item {key}")]
                )
            node = node[key]
        else:
            if key not in node or not isinstance(node[key], dict | list):
                if key in node and depth < len(keys) - 1:
                    raise ScenarioError(
                        [Problem(f"--set {ov.text}", None, ov.path, f"{key!r} is not a mapping")]
                    )
                node[key] = {}
            node = node[key]
    last = keys[-1]
    if isinstance(node, list):
        if not isinstance(last, int) or not 0 <= last < len(node):
            raise ScenarioError([Problem(f"--set {ov.text}", None, ov.path, f"no list item {last}")])
        node[last] = ov.value
    else:
        node[last] = ov.value


def _validate(
    data: CommentedMap | dict[str, Any],
    source: str,
    lines_from: CommentedMap | None,
    overrides: tuple[Override, ...] = (),
) -> Scenario:
    def locate(loc: tuple[Any, ...]) -> tuple[str, int | None]:
        dotted = ".".join(str(p) for p in loc)
        for ov in overrides:
            if dotted == ov.path or dotted.startswith(ov.path + "."):
                return f"{source} (--set {ov.text})", None
        return source, (line_of(lines_from, loc) if lines_from is not None else None)

    try:
        scenario = Scenario.model_validate(_plain(data), context={"defer_references": True})
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            loc = tuple(err["loc"])
            where, line = locate(loc)
            problems.append(Problem(where, line, ".".join(str(p) for p in loc), err["msg"]))
        raise ScenarioError(problems) from None
    refs = reference_problems(scenario)
    if refs:
        problems = []
        for path, reason in refs:
            where, line = locate(_split(path))
            problems.append(Problem(where, line, path, reason))
        raise ScenarioError(problems)
    return scenario


def load_text(text: str, source: str = "<text>", overrides: tuple[str, ...] = ()) -> Scenario:
    """Validate scenario YAML text, with optional ``PATH=VALUE`` overrides."""
    data = parse_yaml(text, source)
    parsed = tuple(parse_override(o) for o in overrides)
    if not parsed:
        return _validate(data, source, data)
    plain = _plain(data)
    for ov in parsed:
        apply_override(plain, ov)
    return _validate(plain, source, data, parsed)


def load_scenario(path: str | Path, overrides: tuple[str, ...] = ()) -> Scenario:
    """Load and validate a scenario file; raises :class:`ScenarioError` on any problem."""
    p = Path(path)
    source = str(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise ScenarioError([Problem(source, None, "", "file is larger than 1 MiB")])
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ScenarioError([Problem(source, None, "", "no such file")]) from None
    except IsADirectoryError:
        raise ScenarioError([Problem(source, None, "", "is a directory, not a file")]) from None
    except OSError as exc:
        raise ScenarioError([Problem(source, None, "", f"cannot read: {exc.strerror}")]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError([Problem(source, None, "", "file is not UTF-8 text")]) from None
    return load_text(text, source, overrides)


def with_overrides(scenario: Scenario, overrides: dict[str, Any]) -> Scenario:
    """A new scenario with dotted-path overrides applied and fully re-validated."""
    data = json.loads(scenario.model_dump_json(by_alias=True))
    for path, value in overrides.items():
        apply_override(data, Override(path=path, value=value, text=f"{path}={value!r}"))
    return _validate(data, "<overrides>", None)


def scenario_yaml(scenario: Scenario) -> str:
    """The scenario as YAML text (aliases such as ``from``/``to`` kept)."""
    buf = io.StringIO()
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = False
    y.sort_base_mapping_type_on_output = False  # type: ignore[attr-defined]
    y.dump(json.loads(scenario.model_dump_json(by_alias=True)), buf)
    return buf.getvalue()
