"""Plain words for what a scenario author got wrong: YAML syntax, unknown keys, bad choices.

The parser's and pydantic's own messages ("expected <block end>, but found
'<block mapping start>'", "Extra inputs are not permitted") name what the machine
expected; these name what the author should do, at the line where it is to be done,
and suggest the closest valid names.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sim.scenario.counts import ascii_digits, read_count
from sim.scenario.problems import suggestion

# --- YAML syntax ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Syntax:
    """A YAML syntax problem in plain words: the 0-based line and column, and what to do."""

    line: int
    column: int
    reason: str


_KEY_VALUE = re.compile(r"^(\s*)(- )?([^\s:#][^:#]*?):(\s|$)")
_GLUED_COLON = re.compile(r"^\s*(- )?[A-Za-z_][\w-]*:\S")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _previous_content(lines: list[str], index: int) -> int | None:
    """The index of the closest line above ``index`` that holds more than a comment."""
    for i in range(index - 1, -1, -1):
        stripped = lines[i].strip()
        if stripped and not stripped.startswith("#"):
            return i
    return None


def _key(line: str) -> str | None:
    match = _KEY_VALUE.match(line)
    return match.group(3).strip() if match else None


def _has_value(line: str) -> bool:
    """Whether a ``key: value`` line has a value after its colon (not only a comment)."""
    match = _KEY_VALUE.match(line)
    if not match:
        return False
    rest = line[match.end() :].split(" #", 1)[0].strip()
    return bool(rest) and not rest.startswith("#")


def _mapping_value_here(lines: list[str], line: int, column: int) -> Syntax:
    """``mapping values are not allowed here``: a colon where the parser was inside a value."""
    text = lines[line] if line < len(lines) else ""
    if text[:column].count(": ") >= 1 and _key(text) is not None:
        return Syntax(
            line,
            column,
            f"a second ': ' on the line of {_key(text)!r}: a value that holds ': ' must be "
            'in quotes, for example "a: b"',
        )
    above = _previous_content(lines, line)
    if above is not None and _GLUED_COLON.match(lines[above]):
        return Syntax(
            above,
            _indent(lines[above]),
            "no space after the colon: write 'key: value' (YAML reads 'key:value' as one "
            "piece of text)",
        )
    if (
        above is not None
        and _key(lines[above]) is None
        and not lines[above].strip().startswith("-")
    ):
        return Syntax(
            above,
            _indent(lines[above]),
            f"{lines[above].strip()!r} is not a 'key: value' pair: add the colon and a space",
        )
    before = _previous_content(lines, above) if above is not None else None
    if (
        above is not None
        and before is not None
        and _indent(lines[above]) < _indent(text) == _indent(lines[before])
    ):
        # The line above is the odd one out: its neighbours agree on the indentation.
        return Syntax(
            above,
            _indent(lines[above]),
            f"the indentation does not line up: this line begins in column "
            f"{_indent(lines[above]) + 1}, but the keys around it begin in column "
            f"{_indent(text) + 1}; indent it like them",
        )
    if above is not None and _indent(text) > _indent(lines[above]) and _has_value(lines[above]):
        return Syntax(
            line,
            _indent(text),
            f"indented more than {_key(lines[above])!r} on the line above, which already has "
            f"a value: line it up with {_key(lines[above])!r}, or remove that value to nest "
            "this line under it",
        )
    return Syntax(line, column, "a colon where a value was expected: put the value in quotes")


def _block_end(lines: list[str], exc: Any, found: str) -> Syntax:
    """``expected <block end>, but found ...``: a line that does not line up with its block."""
    mark, context = exc.problem_mark, exc.context_mark
    text = lines[mark.line] if mark.line < len(lines) else ""
    if found == "'-'" or found == "'<block sequence start>'":
        return Syntax(
            mark.line,
            mark.column,
            "a list item ('- ...') where the keys of a mapping were expected: a list is the "
            "value of a key ('key:' and then its '- ' items indented below it)",
        )
    if found == "'<scalar>'" and ("'" in text or '"' in text):
        return Syntax(
            mark.line,
            mark.column,
            "text after a closing quote: inside single quotes write an apostrophe as '' "
            "(for example 'it''s'), or quote the whole value with double quotes",
        )
    keys_at = context.column if context is not None else None
    where = (
        f"the keys of the block that starts on line {context.line + 1} begin in column "
        f"{keys_at + 1}"
        if keys_at is not None
        else "the lines above it do not"
    )
    return Syntax(
        mark.line,
        mark.column,
        f"the indentation does not line up: this line begins in column {_indent(text) + 1}, "
        f"but {where}; indent it like the keys it belongs with",
    )


def _flow_unclosed(exc: Any, closer: str) -> Syntax:
    start = exc.context_mark or exc.problem_mark
    return Syntax(
        start.line,
        start.column,
        f"a '{'[' if closer == ']' else '{'}' opened here is not closed with '{closer}' "
        "before the next key: close it, and separate its items with commas",
    )


_OPEN_QUOTE = re.compile(r'^\s*(- +)?([^\s:#][^:#]*?: +)?"([^"\\]|\\.)*$')


def _unclosed_quote(lines: list[str], last: int) -> Syntax | None:
    """A value that opens a double quote and does not close it on its line, up to ``last``."""
    for i, line in enumerate(lines[: last + 1]):
        unmatched = (line.count('"') - line.count('\\"')) % 2 == 1
        if unmatched and _OPEN_QUOTE.match(line):
            return Syntax(i, _indent(line), "a quote opened on this line is never closed: close it")
    return None


def explain_syntax(exc: Any, text: str) -> Syntax | None:
    """Plain words for a ruamel ``MarkedYAMLError``, or None when no explanation fits."""
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return None
    lines = _lines(text)
    quote = _unclosed_quote(lines, mark.line)
    if quote is not None:
        return quote
    if problem == "mapping values are not allowed here":
        return _mapping_value_here(lines, mark.line, mark.column)
    if problem.startswith("expected <block end>, but found "):
        return _block_end(lines, exc, problem.removeprefix("expected <block end>, but found "))
    found = re.fullmatch(r"found character '(.+)' that cannot start any token", problem)
    if found and found.group(1) == "\\t":
        return Syntax(
            mark.line,
            mark.column,
            "a tab character: YAML indents with spaces only; replace the tab with spaces",
        )
    if found:
        char = found.group(1)
        return Syntax(
            mark.line,
            mark.column,
            f'a value cannot begin with {char!r}: put the value in quotes, for example "{char}..."',
        )
    if "quoted scalar" in context and exc.context_mark is not None:
        start = exc.context_mark
        return Syntax(
            start.line, start.column, "a quote opened on this line is never closed: close it"
        )
    for closer in ("]", "}"):
        if problem.startswith(f"expected ',' or '{closer}'"):
            return _flow_unclosed(exc, closer)
    if "single document" in context:
        return Syntax(
            mark.line,
            mark.column,
            "'---' starts a second document; a scenario is one document: remove the line",
        )
    if "could not find expected ':'" in problem:
        start = exc.context_mark or mark
        if start.line < len(lines) and _GLUED_COLON.match(lines[start.line]):
            return Syntax(
                start.line,
                _indent(lines[start.line]),
                "no space after the colon: write 'key: value' (YAML reads 'key:value' as one "
                "piece of text)",
            )
        return Syntax(
            start.line, start.column, "a line without 'key: value' inside a mapping: add the colon"
        )
    return None


# --- schema errors --------------------------------------------------------------------------


def _unwrap(annotation: Any) -> list[Any]:
    """The types an annotation may hold (through Optional, unions and ``Annotated``)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin is typing.Union or origin is types.UnionType:
        return [t for arg in typing.get_args(annotation) for t in _unwrap(arg)]
    return [annotation]


def _step(annotation: Any, key: Any) -> Any:
    """The annotation one step down ``key`` (a field, a list index or a mapping key)."""
    for option in _unwrap(annotation):
        origin = typing.get_origin(option)
        if isinstance(option, type) and issubclass(option, BaseModel):
            for name, field in option.model_fields.items():
                if key in (name, field.alias):
                    return field.annotation
        elif origin is list and isinstance(key, int):
            return typing.get_args(option)[0]
        elif origin is dict:
            return typing.get_args(option)[1]
    return None


def field_names(root: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the mapping at ``loc`` accepts (aliases where a field has one), in order."""
    annotation: Any = root
    for key in loc:
        annotation = _step(annotation, key)
        if annotation is None:
            return []
    for option in _unwrap(annotation):
        if isinstance(option, type) and issubclass(option, BaseModel):
            return [f.alias or name for name, f in option.model_fields.items()]
    return []


def _in_billions(field: str) -> bool:
    return field.endswith("_b")


def _number_hint(field: str, value: Any) -> str | None:
    """What to write instead of a count with a unit (``4T``) or a percentage (``10%``)."""
    if not isinstance(value, str):
        return None
    percent = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*%\s*", ascii_digits(value))
    if percent:
        return f"write the share as a fraction: {float(percent.group(1)) / 100:g} for {value}"
    count = read_count(value)
    if count is None or count.negative:
        return None
    if _in_billions(field):
        return f"{field} counts billions: write {_whole(count.value / 1e9, '')} for {value}"
    return f"write a plain number: {_whole(count.value, '')} for {value}"


def _whole(value: float, sep: str = ",") -> str:
    """``7,000,000,000`` rather than ``7e+09``; with ``sep=""`` as YAML reads a number."""
    if float(value).is_integer() and abs(value) < 1e18:
        return f"{int(value):,}".replace(",", sep)
    return f"{value:g}"


def _too_large(field: str, value: Any, limit: Any) -> str | None:
    """A count in billions written whole (``params_b: 7000000000``): say so, and what was meant."""
    if not _in_billions(field) or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    meant = f"; did you mean {value / 1e9:g}?" if value / 1e9 >= 1e-3 else ""
    return (
        f"{_whole(value)} billion is more than any training run ({field} counts billions, "
        f"at most {_whole(limit)}){meant}"
    )


def schema_reason(root: type[BaseModel], error: Mapping[str, Any]) -> str:
    """A pydantic error's message, with the closest valid names where it names a wrong one."""
    loc = tuple(p for p in error["loc"] if p != "[key]")
    field = str(loc[-1]) if loc else ""
    if error["type"] in ("float_type", "int_type", "float_parsing", "int_parsing"):
        hint = _number_hint(field, error.get("input"))
        if hint:
            return f"{error['msg']}; {hint}"
    if error["type"] == "less_than_equal":
        reason = _too_large(field, error.get("input"), error.get("ctx", {}).get("le"))
        if reason:
            return reason
    if error["type"] == "extra_forbidden" and loc:
        names = field_names(root, loc[:-1])
        if names:
            return f"unknown key {loc[-1]!r}; " + suggestion(str(loc[-1]), names, "valid keys")
        return f"unknown key {loc[-1]!r}"
    if error["type"] == "literal_error":
        choices = re.findall(r"'((?:[^'\\]|\\.)*)'", str(error.get("ctx", {}).get("expected", "")))
        value = error.get("input")
        if choices and isinstance(value, str):
            what = "key" if error["loc"][-1:] == ("[key]",) else "value"
            return f"unknown {what} {value!r}; " + suggestion(value, choices, "one of")
    return str(error["msg"])
