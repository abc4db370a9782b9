"""Editing operations on a design: teams, links, rights, gates, budget lines, playbook.

Each operation takes a validated :class:`Scenario` and returns a new one, validated the
same way as a scenario file (so a problem comes back as a :class:`ScenarioError` naming
the field). The design editor of the app calls these; it holds no rules of its own.

Which fields refer to a team (or a workstream, a gate...) is not listed here: the spec's
own reference check (:func:`sim.scenario.spec.reference_problems_in`) knows it. To find
what refers to team ``x``, the team is hidden and the check is asked which fields now
name an unknown team. A field the spec gains later (a contribution's team, say) is then
renamed and reported with no change here.
"""

from __future__ import annotations

import copy
import json
import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from sim.format import usd_exact
from sim.scenario.levers import BY_NAME as LEVER_BY_NAME
from sim.scenario.loading import with_overrides
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.spec import (
    DECISION_KINDS,
    DECISION_OPTIONS,
    PHASES,
    Scenario,
    reference_problems_in,
)
from sim.scenario.vocabulary import option_words, words

Data = dict[str, Any]

#: The lists whose items other fields refer to by id, and the noun the check uses.
REFERENCED: dict[str, str] = {
    "org.teams": "team",
    "plan.workstreams": "workstream",
    "objective.capabilities": "capability",
    "objective.evals": "eval",
}
#: What a gate after each phase stands on: the check or experiment that makes it see a
#: defect (docs/model.md, "Gates"), in the order of :data:`PHASES`.
GATE_EXPERIMENTS: dict[str, str] = dict(
    zip(
        PHASES,
        (
            "a review of the data and the config before any compute is spent",
            "the ablation experiments: its chance grows with levers.ablation_fraction",
            "checks of the checkpoints while the main run trains",
            "checks after the post-training rounds",
            "the evaluation campaign (late: it looks whether or not anyone owns the risk)",
            "the release review (late: it looks whether or not anyone owns the risk)",
        ),
        strict=True,
    )
)
#: What an id looks like (the spec's ``Identifier``).
ID_PATTERN = re.compile(r"[a-z][a-z0-9_\-]*")
#: A stand-in id no scenario uses, given to the item whose referrers are sought.
_HIDDEN = "zz-hidden-by-the-editor"


def _data(s: Scenario) -> Data:
    return json.loads(s.model_dump_json(by_alias=True))  # type: ignore[no-any-return]


def _bad(path: str, reason: str) -> ScenarioError:
    return ScenarioError([Problem("<design editor>", None, path, reason)])


def _node(data: Any, path: str) -> Any:
    for key in path.split(".") if path else ():
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


def _set(data: Any, path: str, value: Any) -> None:
    *head, last = path.split(".")
    parent = _node(data, ".".join(head))
    if isinstance(parent, list):
        parent[int(last)] = value
    else:
        parent[last] = value


def rebuilt(s: Scenario, data: Mapping[str, Any]) -> Scenario:
    """``data`` (a changed dump of ``s``) as a validated scenario; top-level parts as overrides."""
    old = _data(s)
    changes = {k: copy.deepcopy(v) for k, v in data.items() if old.get(k) != v}
    return with_overrides(s, changes) if changes else s


# --- references --------------------------------------------------------------------------


@dataclass(frozen=True)
class Reference:
    """A field that names an item: where (``path``, by list position) and in words."""

    path: str
    words: str


def _position(data: Data, list_path: str, ident: str) -> int:
    items = _node(data, list_path)
    for i, item in enumerate(items):
        if item.get("id") == ident:
            return i
    noun = REFERENCED.get(list_path, "item")
    known = ", ".join(str(x.get("id")) for x in items)
    raise _bad(list_path, f"no {noun} {ident!r} (there are: {known})")


def describe(data: Data, path: str) -> str:
    """A field path in words, list items named by their id: ``plan › workstreams › x › owner``."""
    parts: list[str] = []
    node: Any = data
    for key in path.split("."):
        if isinstance(node, list):
            node = node[int(key)]
            ident = node.get("id") if isinstance(node, dict) else None
            if ident is None and isinstance(node, dict) and "from" in node:
                ident = f"{node['from']} → {node['to']}"
            parts.append(str(ident if ident is not None else f"#{int(key) + 1}"))
        else:
            node = node.get(key) if isinstance(node, dict) else None
            parts.append(key.replace("_", " "))
    return " › ".join(parts)


def references(s: Scenario, list_path: str, ident: str) -> list[Reference]:
    """Every field of ``s`` that names item ``ident`` of ``list_path`` (a team, a workstream)."""
    noun = REFERENCED[list_path]
    data = _data(s)
    hidden = copy.deepcopy(data)
    _node(hidden, list_path)[_position(data, list_path, ident)]["id"] = _HIDDEN
    unknown = f"unknown {noun} {ident!r}"  # then "; did you mean ...? (teams: ...)"
    problems = reference_problems_in(hidden)
    paths = [path for path, reason in problems if reason.split(";")[0] == unknown]
    return [Reference(p, describe(data, p)) for p in paths]


def team_references(s: Scenario, team: str) -> list[Reference]:
    """What refers to ``team``: links, rights, risks, work, post-training, scripted incidents."""
    return references(s, "org.teams", team)


# --- teams ---------------------------------------------------------------------------------


def _check_id(path: str, ident: str) -> None:
    if not ID_PATTERN.fullmatch(ident):
        raise _bad(
            path,
            f"{ident!r} is not an id: use lower-case letters, digits, _ or -, "
            "starting with a letter (e.g. red_team)",
        )


def rename_item(s: Scenario, list_path: str, old: str, new: str) -> Scenario:
    """Item ``old`` of ``list_path`` renamed ``new``, and every field naming it with it."""
    if old == new:
        return s
    _check_id(f"{list_path}.{old}.id", new)
    data = _data(s)
    if new in [x.get("id") for x in _node(data, list_path)]:
        raise _bad(f"{list_path}.{new}", f"there is already a {REFERENCED[list_path]} {new!r}")
    for ref in references(s, list_path, old):
        _set(data, ref.path, new)
    _node(data, list_path)[_position(data, list_path, old)]["id"] = new
    return rebuilt(s, data)


def rename_team(s: Scenario, old: str, new: str) -> Scenario:
    """Team ``old`` renamed ``new`` everywhere it is referenced."""
    return rename_item(s, "org.teams", old, new)


def add_team(s: Scenario, team: str, **fields: Any) -> Scenario:
    """``s`` with a new team (``headcount`` defaults to 1, the rest to the spec's defaults)."""
    _check_id("org.teams", team)
    data = _data(s)
    if team in s.team_ids:
        raise _bad(f"org.teams.{team}", f"there is already a team {team!r}")
    data["org"]["teams"].append({"id": team, "headcount": 1, **fields})
    return rebuilt(s, data)


#: What removing a team does to each kind of reference when no one takes over: links
#: to or from it go, the risks it owned become unowned; the rest needs a new holder.
def _dropped(path: str) -> Literal["link", "risk", None]:
    if path.startswith("org.links."):
        return "link"
    if path.startswith("org.risk_owners."):
        return "risk"
    return None


def remove_team(s: Scenario, team: str, successor: str | None = None) -> Scenario:
    """``s`` without ``team``.

    Its links go. What else named it passes to ``successor``; without one, the risks it
    owned become unowned and anything that needs a team (a decision right, a workstream's
    owner...) is an error that lists each such field in words.
    """
    refs = team_references(s, team)
    if successor is not None and (successor == team or successor not in s.team_ids):
        raise _bad("org.teams", f"{successor!r} cannot take over from {team!r}: not another team")
    data = _data(s)
    needs = [r for r in refs if _dropped(r.path) is None]
    if needs and successor is None:
        raise ScenarioError(
            [
                Problem(
                    "<design editor>", None, r.path, f"{r.words} is {team!r}: name who takes over"
                )
                for r in needs
            ]
        )
    for ref in refs:
        kind = _dropped(ref.path)
        if kind == "link":
            continue
        _set(data, ref.path, successor if successor is not None or kind is None else None)
    dropped = {int(r.path.split(".")[2]) for r in refs if _dropped(r.path) == "link"}
    data["org"]["links"] = [x for i, x in enumerate(data["org"]["links"]) if i not in dropped]
    del data["org"]["teams"][_position(data, "org.teams", team)]
    if successor is not None:
        data["org"]["links"] = [x for x in data["org"]["links"] if x["from"] != x["to"]]
    return rebuilt(s, data)


def update_items(s: Scenario, list_path: str, rows: Sequence[Mapping[str, Any]]) -> Scenario:
    """The fields of a list's items replaced by ``rows`` (one per item, same order and ids).

    For a table of teams or gates edited in place; adding, removing and renaming items go
    through their own operations, so that what refers to them follows.
    """
    data = _data(s)
    items = _node(data, list_path)
    if len(rows) != len(items):
        raise _bad(list_path, f"expected {len(items)} rows, got {len(rows)}")
    for item, row in zip(items, rows, strict=True):
        if "id" in item and row.get("id", item["id"]) != item["id"]:
            raise _bad(f"{list_path}.{item['id']}.id", "rename an item with rename, not here")
        item.update({k: v for k, v in row.items() if k != "id"})
    return rebuilt(s, data)


def set_list(s: Scenario, list_path: str, items: Sequence[Mapping[str, Any]]) -> Scenario:
    """A whole list replaced (links, gates, budget lines): validated as a scenario is."""
    data = _data(s)
    _set(data, list_path, [dict(x) for x in items])
    return rebuilt(s, data)


def set_value(s: Scenario, path: str, value: Any) -> Scenario:
    """One field set (``org.decision_rights.ship``, ``levers.reserve_fraction``...), validated."""
    return with_overrides(s, {path: value})


def remove_item(s: Scenario, list_path: str, ident: str) -> Scenario:
    """An item with an id (a gate, a workstream...) removed; an error lists what names it."""
    data = _data(s)
    at = _position(data, list_path, ident)
    if list_path in REFERENCED:
        refs = references(s, list_path, ident)
        if refs:
            raise ScenarioError(
                [
                    Problem("<design editor>", None, r.path, f"{r.words} names {ident!r}")
                    for r in refs
                ]
            )
    del _node(data, list_path)[at]
    return rebuilt(s, data)


def add_item(s: Scenario, list_path: str, item: Mapping[str, Any]) -> Scenario:
    """An item appended to a list (a gate, a link, a workstream), validated."""
    data = _data(s)
    _node(data, list_path).append(dict(item))
    return rebuilt(s, data)


# --- the playbook: ranked responses ------------------------------------------------------


def playbook_add(s: Scenario, kind: str, option: str) -> Scenario:
    """``option`` appended, as the least preferred, to the playbook of decision ``kind``."""
    ranked = list(s.levers.playbook.get(kind, []))  # type: ignore[call-overload]
    if option in ranked:
        return s
    return set_value(s, f"levers.playbook.{kind}", [*ranked, option])


def playbook_remove(s: Scenario, kind: str, option: str) -> Scenario:
    """``option`` taken out of the playbook of ``kind`` (an empty kind is decided ad hoc)."""
    ranked = [o for o in s.levers.playbook.get(kind, []) if o != option]  # type: ignore[call-overload]
    book: dict[str, list[str]] = {k: list(v) for k, v in s.levers.playbook.items() if k != kind}
    if ranked:
        book[kind] = ranked
    return set_value(s, "levers.playbook", book)


def playbook_move(s: Scenario, kind: str, option: str, by: int) -> Scenario:
    """``option`` moved ``by`` places (negative: preferred sooner) in the playbook of ``kind``."""
    ranked = list(s.levers.playbook.get(kind, []))  # type: ignore[call-overload]
    if option not in ranked:
        raise _bad(f"levers.playbook.{kind}", f"{option!r} is not in the playbook of {kind!r}")
    at = ranked.index(option)
    to = max(0, min(len(ranked) - 1, at + by))
    ranked.insert(to, ranked.pop(at))
    return set_value(s, f"levers.playbook.{kind}", ranked)


def playbook_options(kind: str) -> tuple[str, ...]:
    """The responses decision ``kind`` offers (the spec's one list)."""
    return DECISION_OPTIONS[kind]


DECISIONS: tuple[str, ...] = DECISION_KINDS


# --- the fields of a part, for a generic table -----------------------------------------------


@dataclass(frozen=True)
class Column:
    """One editable field of a spec part: its key (alias), kind, choices and bounds."""

    key: str
    kind: Literal["int", "float", "bool", "text", "choice", "choices", "optional_float", "other"]
    description: str = ""
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    default: Any = None


def _bounds(metadata: Sequence[Any]) -> tuple[float | None, float | None]:
    low = high = None
    for m in metadata:
        for item in getattr(m, "metadata", [m]):  # an Annotated type's FieldInfo holds its own
            for attr in ("ge", "gt"):
                if getattr(item, attr, None) is not None:
                    low = float(getattr(item, attr))
            for attr in ("le", "lt"):
                if getattr(item, attr, None) is not None:
                    high = float(getattr(item, attr))
    return low, high


def _literal(tp: Any) -> tuple[str, ...] | None:
    return tuple(typing.get_args(tp)) if typing.get_origin(tp) is Literal else None


def column(key: str, info: FieldInfo) -> Column:
    """One field of a spec part as a table column (its kind read from the annotation)."""
    tp, metadata = info.annotation, list(info.metadata)
    args = typing.get_args(tp)
    optional = typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in args
    if optional:
        tp = next(a for a in args if a is not type(None))
        metadata += list(getattr(tp, "__metadata__", ()))
        tp = typing.get_args(tp)[0] if getattr(tp, "__metadata__", None) else tp
    low, high = _bounds(metadata)
    default = None if info.is_required() else info.get_default(call_default_factory=True)
    desc = info.description or ""
    if (choices := _literal(tp)) is not None:
        return Column(key, "choice", desc, choices, default=default)
    if typing.get_origin(tp) is list and (inner := _literal(typing.get_args(tp)[0])):
        return Column(key, "choices", desc, inner, default=default)
    kinds: dict[Any, Any] = {bool: "bool", int: "int", float: "float", str: "text"}
    kind = kinds.get(tp, "other")
    if optional and kind == "float":
        kind = "optional_float"
    return Column(key, kind, desc, (), low, high, default)


def columns(part: type[BaseModel]) -> list[Column]:
    """The fields of a spec part (``Team``, ``Gate``, ``Link``...) as table columns, in order."""
    return [column(info.alias or name, info) for name, info in part.model_fields.items()]


# --- a design's changes in words -----------------------------------------------------------


def _value_words(value: Any) -> str:
    if value is None:
        return "nobody"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):  # 76,700 rather than 7.67e+04; 0.12 as it is
        return f"{value:,.0f}" if abs(value) >= 1_000 else f"{value:,.4g}"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", then ".join(option_words(v) for v in value) if value else "(none)"
    if isinstance(value, dict) and all(isinstance(v, list) for v in value.values()):
        return "; ".join(f"{words(k)}: {_value_words(v)}" for k, v in value.items()) or "(none)"
    return str(value)


#: Where a change sits, in words: its path's first parts and how to name the rest.
_PLACES: dict[tuple[str, ...], str] = {
    ("org", "teams"): "teams",
    ("org", "risk_owners"): "owner of the {} risk",
    ("org", "decision_rights"): "who decides {}",
    ("levers", "playbook"): "{} playbook",
    ("plan", "gates"): "gates",
    ("plan", "workstreams"): "workstreams",
    ("org", "links"): "links between teams",
}
#: A list item's noun after its id: "post-training team headcount", "data review strength".
_ITEM_NOUN: dict[tuple[str, ...], str] = {
    ("org", "teams"): " team", ("plan", "workstreams"): " workstream", ("plan", "gates"): "",
}  # fmt: skip
#: Fields whose value names a team (its words, not its id).
_TEAM_VALUED = (("org", "risk_owners"), ("org", "decision_rights"))


def _where_words(where: list[str]) -> str:
    """A field of a design as a person reads it, never its dotted path.

    ``levers.reserve_fraction`` is "Budget reserve" (the lever registry's label),
    ``org.teams.post_training.headcount`` "post-training team: headcount",
    ``org.risk_owners.data_quality`` "owner of the data quality risk".
    """
    if len(where) == 2 and where[0] == "levers" and where[1] in LEVER_BY_NAME:
        lever = LEVER_BY_NAME[where[1]]
        if lever.label.startswith("…") and lever.needs:  # "…on day": the lever it goes with
            first = LEVER_BY_NAME[lever.needs.removeprefix("levers.")].label
            return f"{first}, {lever.label.lstrip('…')}"
        return lever.label
    place = _PLACES.get(tuple(where[:2]))
    rest = [words(w) for w in where[2:]]
    if place is None and len(where) == 2 and where[0] in ("org", "levers", "plan"):
        return words(where[1])  # org.politics_days: "politics days"
    if place is None:
        return " › ".join(words(w) for w in where)
    if "{}" in place:
        return " › ".join([place.format(rest[0]) if rest else place.format("").strip(), *rest[1:]])
    noun = _ITEM_NOUN.get(tuple(where[:2]))
    if noun is not None and len(rest) >= 2:
        return f"{rest[0]}{noun} " + " › ".join(rest[1:])
    return " › ".join([place, *rest])


def _setting_words(where: list[str], value: Any) -> str:
    """A value as the field it sits in reads it: a lever in its unit, a team by its words."""
    if len(where) == 2 and where[0] == "levers" and where[1] in LEVER_BY_NAME:
        unit = LEVER_BY_NAME[where[1]].unit
        if isinstance(value, int | float) and not isinstance(value, bool):
            if unit == "USD":
                return usd_exact(value)
            if unit.startswith("share"):
                return f"{100 * value:,.4g}%"
        if isinstance(value, str):
            return words(value)
    if tuple(where[:2]) in _TEAM_VALUED and isinstance(value, str):
        return words(value)
    if "playbook" in where and value == []:
        return "decided on the spot"
    return _value_words(value)


def field_words(path: str) -> str:
    """A dotted field path as a person reads it, for tables and chart axes.

    ``levers.reserve_fraction`` is "Budget reserve", ``org.politics_days`` "politics days".
    """
    return _where_words(path.split("."))


def value_words(path: str, value: Any) -> str:
    """A setting of the field at ``path`` as it reads: ``0.2`` of the reserve is "20%"."""
    return _setting_words(path.split("."), value)


def plan_words(path: str, value: Any) -> str:
    """The plan with one setting changed, for a sentence.

    "the budget reserve 25% plan", "the plan without product evals built early", "the
    checkpoint every 180 minutes plan".
    """
    name = field_words(path).split(" (")[0]
    name = name[:1].lower() + name[1:]
    if isinstance(value, bool):
        return f"the plan {'with' if value else 'without'} {name}"
    said = value_words(path, value)
    lever = LEVER_BY_NAME.get(path.removeprefix("levers."))
    unit = lever.unit if lever is not None else ""
    if unit in ("people", "variants"):  # a count goes first: "the 3 model variants ... plan"
        return f"the {said} {name} plan"
    if unit in ("minutes", "days"):
        said = f"{said} {unit}"
    return f"the {name} {said} plan"


def _by_id(items: list[Any]) -> dict[str, Any] | None:
    ids = [x.get("id") if isinstance(x, dict) else None for x in items]
    if None in ids or len(set(ids)) != len(ids):
        return None
    return {str(i): x for i, x in zip(ids, items, strict=True)}


def _walk(old: Any, new: Any, where: list[str], out: list[str]) -> None:
    said = _where_words(where)
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in dict.fromkeys([*old, *new]):
            _walk(old.get(key), new.get(key), [*where, key], out)
        return
    if isinstance(old, list) and isinstance(new, list):
        a, b = _by_id(old), _by_id(new)
        if a is not None and b is not None and (a or b):
            gone, added = [k for k in a if k not in b], [k for k in b if k not in a]
            if gone:
                out.append(f"{said}: removed {', '.join(words(k) for k in gone)}")
            if added:
                out.append(f"{said}: added {', '.join(words(k) for k in added)}")
            for k in a:
                if k in b:
                    _walk(a[k], b[k], [*where, k], out)
            return
        if old and isinstance(old[0], dict) or new and isinstance(new[0], dict):
            out.append(f"{said}: {len(old)} → {len(new)} items")
            return
    unset = "decided on the spot" if "playbook" in where else "nobody"
    shown = [unset if v is None else _setting_words(where, v) for v in (old, new)]
    out.append(f"{said}: {shown[0]} → {shown[1]}")


def readable_changes(base: Scenario, design: Scenario) -> list[str]:
    """What ``design`` changes from ``base``, one line per change, old → new.

    Items with ids (teams, workstreams, gates) are matched by id: a renamed team reads as
    one removed and one added, and the fields that name it change with it.
    """
    old, new = _data(base), _data(design)
    old.pop("name", None)
    new.pop("name", None)
    out: list[str] = []
    _walk(old, new, [], out)
    return out
