"""Read scenario YAML safely and turn every problem into ``FILE:LINE: field.path: reason``.

YAML is read with ruamel in round-trip mode (YAML 1.2, keeps line numbers), after
refusing what could hurt: files over 1 MiB, tags that construct objects, alias
anchors (alias bombs), empty files and documents that are not a mapping.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pydantic import ValidationError
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedKeyMap, CommentedKeySeq, CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError

from sim.scenario import catalog
from sim.scenario.hints import explain_syntax, schema_reason
from sim.scenario.problems import Problem, ScenarioError, closest, suggestion
from sim.scenario.spec import Scenario, reference_problems, reference_problems_in

MAX_BYTES = 1 << 20


def _yaml() -> YAML:
    y = YAML(typ="rt", pure=True)
    y.allow_duplicate_keys = False
    return y


#: Deeper nesting than any scenario needs; refused before ruamel's recursive composer sees it.
MAX_DEPTH = 64

_OPENERS = {
    "BlockMappingStartToken",
    "BlockSequenceStartToken",
    "FlowMappingStartToken",
    "FlowSequenceStartToken",
}
_CLOSERS = {"BlockEndToken", "FlowMappingEndToken", "FlowSequenceEndToken"}


def _unsafe_reason(token: Any, previous: str) -> str | None:
    name = type(token).__name__
    if name in ("AnchorToken", "AliasToken"):
        return "YAML anchors and aliases are not allowed"
    if name == "TagToken":
        handle, suffix = token.value
        return f"YAML tags are not allowed ({handle or ''}{suffix or ''})"
    if name == "ScalarToken" and previous == "KeyToken" and token.plain and token.value == "<<":
        return "YAML merge keys (<<) are not allowed"
    return None


def _refuse_unsafe(text: str, source: str) -> None:
    """Refuse anchors/aliases, tags, merge keys and deep nesting before parsing fully."""
    previous, depth = "", 0
    try:
        for token in _yaml().scan(io.StringIO(text)):
            name = type(token).__name__
            depth += (name in _OPENERS) - (name in _CLOSERS)
            reason = _unsafe_reason(token, previous)
            if reason is None and depth > MAX_DEPTH:
                reason = f"YAML nested deeper than {MAX_DEPTH} levels"
            if reason is not None:
                mark = token.start_mark
                raise ScenarioError([Problem(source, mark.line + 1, _path_at(text, mark), reason)])
            previous = name
    except MarkedYAMLError as exc:
        raise _syntax_problem(exc, text, source) from None
    except ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        reason = f"character #x{exc.character:04x} is not allowed in YAML"
        raise ScenarioError([Problem(source, line, "", reason)]) from None


def _syntax_problem(exc: MarkedYAMLError, text: str, source: str) -> ScenarioError:
    if isinstance(exc, DuplicateKeyError):
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        path = _path_at(text, mark) if mark is not None else ""
        return ScenarioError([Problem(source, line, path, (exc.problem or "").strip())])
    plain = explain_syntax(exc, text)
    if plain is not None:
        mark = SimpleNamespace(line=plain.line, column=plain.column)
        reason = plain.reason
    else:
        mark = exc.problem_mark or exc.context_mark
        reason = (exc.problem or exc.context or "cannot read it").strip()
    line = mark.line + 1 if mark is not None else None
    path = _path_at(text, mark) if mark is not None else ""
    return ScenarioError([Problem(source, line, path, f"YAML syntax error: {reason}")])


def _path_at(text: str, mark: Any) -> str:
    """The dotted path of the node being read at ``mark``, from YAML parse events.

    Used to name the field at a YAML-level problem (syntax error, duplicate key,
    refused anchor or tag); parsing stops at ``mark`` or at the first error.
    """
    frames: list[list[Any]] = []  # [is_mapping, current key or item index, expecting a key]
    path = ""

    def finished() -> None:
        if frames and frames[-1][0]:
            frames[-1][2] = not frames[-1][2]

    try:
        for event in _yaml().parse(io.StringIO(text)):
            start = event.start_mark
            if (start.line, start.column) > (mark.line, mark.column):
                break
            name = type(event).__name__
            if name in ("ScalarEvent", "AliasEvent", "MappingStartEvent", "SequenceStartEvent"):
                if frames and frames[-1][0] and frames[-1][2]:
                    frames[-1][1] = event.value if name == "ScalarEvent" else "?"
                elif frames and not frames[-1][0]:
                    frames[-1][1] += 1
                path = ".".join(str(f[1]) for f in frames if f[1] not in (None, -1))
                if name == "MappingStartEvent":
                    frames.append([True, None, True])
                elif name == "SequenceStartEvent":
                    frames.append([False, -1, False])
                else:
                    finished()
            elif name in ("MappingEndEvent", "SequenceEndEvent") and frames:
                frames.pop()
                finished()
    except YAMLError:
        pass
    return path


def _whole_file(source: str, reason: str) -> ScenarioError:
    # Problems with the file as a whole point at line 1, so every problem reads FILE:LINE.
    return ScenarioError([Problem(source, 1, "", reason)])


def _complex_key_line(text: str) -> int | None:
    """The 1-based line of the first key that is a mapping or a list, if any."""
    try:
        stack = [_yaml().compose(text)]
    except (YAMLError, ValueError, RecursionError):
        return None  # the load that follows reports it
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    return int(key.start_mark.line) + 1
                stack.append(value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return None


def _has_complex_key(data: Any) -> bool:
    if isinstance(data, dict):
        return any(
            isinstance(k, CommentedKeyMap | CommentedKeySeq) or _has_complex_key(v)
            for k, v in data.items()
        )
    return isinstance(data, list) and any(_has_complex_key(v) for v in data)


def _refuse_complex_keys(text: str, source: str) -> None:
    line = _complex_key_line(text)
    if line is not None:
        raise ScenarioError(
            [Problem(source, line, "", "a key must be a name, not a mapping or list")]
        )


def parse_yaml(text: str, source: str) -> CommentedMap:
    """Parse scenario YAML text into a round-trip mapping, refusing unsafe input."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise _whole_file(source, "file is larger than 1 MiB")
    if not text.strip():
        raise _whole_file(source, "file is empty")
    _refuse_unsafe(text, source)
    try:
        data = _yaml().load(text)
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:
        # TypeError: a key that is a mapping inside a list cannot be hashed.
        _refuse_complex_keys(text, source)
        if isinstance(exc, MarkedYAMLError):
            raise _syntax_problem(exc, text, source) from None
        # ValueError: e.g. an integer with more digits than Python converts.
        raise _whole_file(source, f"cannot read YAML: {exc}") from None
    if _has_complex_key(data):
        _refuse_complex_keys(text, source)
    if data is None:
        raise _whole_file(source, "file holds no document")
    if not isinstance(data, CommentedMap):
        kind = "list" if isinstance(data, list) else "scalar"
        raise ScenarioError(
            [Problem(source, 1, "", f"a scenario must be a mapping at the top, not a {kind}")]
        )
    return data


def _steps(data: Any, loc: tuple[Any, ...]) -> list[int | None]:
    """The 1-based line of each step of ``loc`` that exists in ``data``, in order."""
    node, lines = data, []
    for key in loc:
        if isinstance(node, CommentedMap):
            # Keys were turned into strings on validation; match ``1`` or ``null`` keys too.
            found = [k for k in node if k == key or str(k) == str(key)]
            if not found:
                break
            position = node.lc.key(found[0])
            lines.append(position[0] + 1 if position else None)
            node = node[found[0]]
        elif isinstance(node, CommentedSeq) and isinstance(key, int) and 0 <= key < len(node):
            lines.append(node.lc.item(key)[0] + 1)
            node = node[key]
        else:
            break
    return lines


def line_of(data: Any, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the deepest node of ``loc`` that exists in ``data``."""
    lines = [line for line in _steps(data, loc) if line is not None]
    if lines:
        return lines[-1]
    return 1 if isinstance(data, CommentedMap) else None


def _split(path: str) -> tuple[Any, ...]:
    return tuple(int(p) if re.fullmatch(r"[0-9]+", p) else p for p in path.split(".") if p)


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
        _refuse_unsafe(raw, source)
        value = _plain(_yaml().load(raw)) if raw.strip() else ""
    except ScenarioError as exc:
        # The value is one line of YAML: report it against the override, without a line.
        raise ScenarioError([Problem(source, None, path, p.reason) for p in exc.problems]) from None
    except MarkedYAMLError as exc:
        reason = f"cannot read value: {(exc.problem or exc.context or '').strip()}"
        raise ScenarioError([Problem(source, None, path, reason)]) from None
    except (YAMLError, ValueError, RecursionError) as exc:
        raise ScenarioError([Problem(source, None, path, f"cannot read value: {exc}")]) from None
    return Override(path=path, value=value, text=text)


def _bad_override(ov: Override, reason: str) -> ScenarioError:
    return ScenarioError([Problem(f"--set {ov.text}", None, ov.path, reason)])


def item_ids(items: list[Any]) -> list[Any]:
    """Each list item's ``id`` (None where it has none), by index."""
    return [item.get("id") if isinstance(item, dict) else None for item in items]


def _item_by_id(items: list[Any], key: str, ov: Override) -> int:
    """The index of the list item whose ``id`` is ``key`` (``plan.gates.release_eval``)."""
    ids = item_ids(items)
    if key in ids:
        return ids.index(key)
    named = [str(i) for i in ids if i is not None]
    hint = suggestion(key, named, "ids") if named else "give an index from 0"
    raise _bad_override(ov, f"no list item {key!r}; {hint}")


def apply_override(data: dict[str, Any], ov: Override) -> None:
    """Set ``ov.path`` in ``data`` (creating mappings on the way), in place."""
    keys = _split(ov.path)
    node: Any = data
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        if isinstance(node, list):
            if not isinstance(key, int):
                key = _item_by_id(node, str(key), ov)
            if not 0 <= key < len(node):
                raise _bad_override(ov, f"no list item {key}")
        elif isinstance(node, dict):
            key = str(key)
            if not last and node.get(key) is None:
                node[key] = {}
        else:
            raise _bad_override(ov, f"{keys[depth - 1]!r} is not a mapping or a list")
        if last:
            node[key] = ov.value
        else:
            node = node[key]


def _misspelt_keys(errors: list[Any]) -> set[tuple[Any, ...]]:
    """The required keys an unknown key beside them is a misspelling of (``deadlin_days``)."""
    out: set[tuple[Any, ...]] = set()
    for err in errors:
        if err["type"] != "extra_forbidden" or not err["loc"]:
            continue
        parent = tuple(err["loc"][:-1])
        missing = [e["loc"][-1] for e in errors if e["type"] == "missing"
                   and tuple(e["loc"][:-1]) == parent]  # fmt: skip
        out |= {(*parent, key) for key in closest(str(err["loc"][-1]), map(str, missing), n=1)}
    return out


def _validate(
    data: CommentedMap | dict[str, Any],
    source: str,
    lines_from: CommentedMap | None,
    overrides: tuple[Override, ...] = (),
) -> Scenario:
    def locate(loc: tuple[Any, ...]) -> tuple[str, int | None]:
        dotted = ".".join(str(p) for p in loc)
        for ov in overrides:
            inside = dotted == ov.path or dotted.startswith(ov.path + ".")
            # An unknown key the override itself added (``--set foo.bar=1`` fails at ``foo``).
            added = ov.path.startswith(dotted + ".") and (
                lines_from is None or len(_steps(lines_from, loc)) < len(loc)
            )
            if inside or added:
                return f"{source} (--set {ov.text})", None
        return source, (line_of(lines_from, loc) if lines_from is not None else None)

    plain = _plain(data)
    problems: list[Problem] = []
    scenario: Scenario | None = None
    try:
        scenario = Scenario.model_validate(plain, context={"defer_references": True})
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        misspelt = _misspelt_keys(errors)
        for err in errors:
            # pydantic marks a bad mapping key with a trailing "[key]"; the key names it already.
            loc = tuple(p for p in err["loc"] if p != "[key]")
            if err["type"] == "missing" and loc in misspelt:
                continue  # the unknown key's "did you mean" already names it
            where, line = locate(loc)
            reason = schema_reason(Scenario, err)
            problems.append(Problem(where, line, ".".join(str(p) for p in loc), reason))
    # Reference problems in the same pass, except where the schema already found one.
    refs = reference_problems(scenario) if scenario else reference_problems_in(plain)
    seen = [p.path for p in problems]
    for path, reason in refs:
        if any(path == s or path.startswith(s + ".") for s in seen):
            continue
        where, line = locate(_split(path))
        problems.append(Problem(where, line, path, reason))
    if problems or scenario is None:
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
        try:
            apply_override(plain, ov)
        except ScenarioError as exc:
            # Name the file too: the same override can fit one scenario and not another.
            where = f"{source} (--set {ov.text})"
            problems = [Problem(where, None, p.path, p.reason) for p in exc.problems]
            raise ScenarioError(problems) from None
    return _validate(plain, source, data, parsed)


def _read_file(p: Path, source: str) -> bytes:
    try:
        if p.is_dir():
            raise _whole_file(source, "is a directory, not a file")
        if not p.is_file():
            # A FIFO or device could block or never end.
            if p.exists():
                raise _whole_file(source, "not a regular file")
            raise _whole_file(source, "no such file" + catalog.did_you_mean(source))
        with p.open("rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _whole_file(source, f"cannot read: {exc.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise _whole_file(source, "file is larger than 1 MiB")
    return raw


def load_scenario(path: str | Path, overrides: tuple[str, ...] = ()) -> Scenario:
    """Load and validate a scenario file, or a shipped scenario by name (``assistant_7b``).

    Raises :class:`ScenarioError` on any problem.
    """
    source = str(path)
    raw = _read_file(catalog.resolve(path), source)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        reason = f"file is not UTF-8 text (byte 0x{raw[exc.start]:02x})"
        raise ScenarioError([Problem(source, line, "", reason)]) from None
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
    y.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    y.dump(json.loads(scenario.model_dump_json(by_alias=True)), buf)
    return buf.getvalue()
