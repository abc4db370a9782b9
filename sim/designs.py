"""Org designs as deltas: a base scenario plus dotted-path changes, diffable and shareable.

A *delta* maps dotted paths to values, like ``--set``. Items of a list that carry an
``id`` (teams, workstreams, evals) may be named by it instead of by position, so a
delta reads ``org.teams.pretraining.headcount: 10`` and fits any base that has a
``pretraining`` team; a path naming an id the list lacks, with a mapping as its value,
adds that item, and ``org.links.+`` with a list appends those items. Everything is
validated exactly like a scenario file.

The presets are the essay's org designs (seeds/003: "how to manage AI training
organizations"): each is a function of the base, because "twice the core" depends on
how big the core is.
"""

from __future__ import annotations

import copy
import io
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from sim.engine.budget import AT_SET_UP, ON_FORECAST, projected_spend
from sim.engine.model import ProjectModel
from sim.scenario.loading import (
    Problem,
    ScenarioError,
    item_ids,
    parse_yaml,
    with_overrides,
)
from sim.scenario.spec import Scenario

Delta = dict[str, Any]
#: The last step of a path that appends a list of items: ``org.links.+: [...]``.
APPEND = "+"

#: Links that carry work or talk (not management lines) in a siloed org are this much slower.
SILO_LATENCY_FACTOR = 3.0
#: Days of politics per decision hop in a large org with territorial teams.
SILO_POLITICS_DAYS = 1.0
#: Latency of a working link inside a team that sits in one room.
ONE_ROOM_LATENCY_DAYS = 0.25
#: People doing long-term research, kept apart or folded into the core.
RESEARCHERS = 6


# --- applying and diffing deltas -----------------------------------------------------------


def _data(scenario: Scenario) -> dict[str, Any]:
    return json.loads(scenario.model_dump_json(by_alias=True))  # type: ignore[no-any-return]


def _bad(path: str, reason: str, source: str = "<design>") -> ScenarioError:
    return ScenarioError([Problem(source, None, path, reason)])


def with_source(exc: ScenarioError, source: str) -> ScenarioError:
    """The same problems, said to come from ``source`` (a design file, a ``--grid`` value)."""
    return ScenarioError([Problem(source, None, p.path, p.reason) for p in exc.problems])


def _resolve(data: dict[str, Any], path: str, value: Any) -> tuple[str, Any]:
    """The index-addressed path (and value) that ``with_overrides`` understands.

    Also applies the change to ``data``, so later paths see items added before them.
    """
    keys = path.split(".")
    node: Any = data
    done: list[str] = []
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        if isinstance(node, list):
            if key == APPEND and last and isinstance(value, list):
                node.extend(copy.deepcopy(value))
                return ".".join(done), copy.deepcopy(node)
            if not key.isdigit():
                ids = item_ids(node)
                if key in ids:
                    key = str(ids.index(key))
                elif last and isinstance(value, Mapping):
                    # A new item: the whole list becomes the override.
                    node.append({"id": key, **copy.deepcopy(dict(value))})
                    return ".".join(done), copy.deepcopy(node)
                else:
                    where = ".".join(done) or "the scenario"
                    raise _bad(path, f"no item with id {key!r} in {where}")
            if int(key) >= len(node):
                raise _bad(path, f"no list item {key}")
            done.append(key)
            if last:
                node[int(key)] = value
            else:
                node = node[int(key)]
        elif isinstance(node, dict):
            done.append(key)
            if last:
                node[key] = value
            else:
                if node.get(key) is None:
                    node[key] = {}
                node = node[key]
        else:
            raise _bad(path, f"{'.'.join(done)!r} is not a mapping or a list")
    return ".".join(done), value


def concrete(base: Scenario, delta: Mapping[str, Any]) -> Delta:
    """``delta`` with ids turned into list positions of ``base`` (``with_overrides`` paths)."""
    data = _data(base)
    out: Delta = {}
    for path, value in delta.items():
        if not isinstance(path, str) or not path or any(not p for p in path.split(".")):
            raise _bad(str(path), "empty field path")
        resolved, new = _resolve(data, path, value)
        out[resolved] = new
    return out


def apply_delta(base: Scenario, delta: Mapping[str, Any], name: str | None = None) -> Scenario:
    """``base`` with ``delta`` applied and validated; ``name`` renames the result."""
    changes = concrete(base, delta)
    if name is not None:
        changes["name"] = name
    return with_overrides(base, changes) if changes else base


def _diff(old: Any, new: Any, path: str, out: Delta) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict) and set(old) == set(new):
        for key in new:
            _diff(old[key], new[key], f"{path}.{key}" if path else key, out)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) <= len(new):
        old_ids, new_ids = item_ids(old), item_ids(new)
        kept, added = new[: len(old)], new[len(old) :]
        by_id = (
            None not in new_ids and len(set(new_ids)) == len(new) and old_ids == new_ids[: len(old)]
        )
        if by_id or all(isinstance(x, dict) for x in old + kept):
            for i, (a, b) in enumerate(zip(old, kept, strict=True)):
                _diff(a, b, f"{path}.{new_ids[i] if by_id else i}", out)
            if by_id:
                for item in added:
                    out[f"{path}.{item['id']}"] = {k: v for k, v in item.items() if k != "id"}
            elif added:
                out[f"{path}.{APPEND}"] = added
            return
    out[path] = new


def diff(base: Scenario, design: Scenario) -> Delta:
    """The delta that turns ``base`` into ``design`` (teams named by id where they can be)."""
    out: Delta = {}
    _diff(_data(base), _data(design), "", out)
    return out


# --- equal scope -----------------------------------------------------------------------------

#: Added to a line of the budget to lift it out of reach while the plan is projected.
_UNBOUNDED_USD = 1e12


#: Worlds played to check that a funded plan is not cut after a slip, and the most rounds
#: of raising the budget by what they still cut.
FUND_WORLDS = 20
FUND_ROUNDS = 4


def full_plan_budget_usd(s: Scenario) -> float:
    """The total budget at which the plan is not cut to fit, at set-up or after a slip.

    First the plan's projected spend at set-up over one minus the reserve (docs/model.md,
    "Budget as a plan"; it depends on the scenario alone). The forecast at set-up does not
    see handoffs, politics or slow decisions, so an org that slips would still cut its
    plan later: the design is then played on ``FUND_WORLDS`` worlds (seed 0) and the budget
    raised by the most any of them cut after a slip, until none does (at most
    ``FUND_ROUNDS`` times). Cuts that answer a leadership budget cut are that incident's
    lesson and stay.
    """
    lifted = with_overrides(
        s, {"objective.budget.people_usd": s.objective.budget.people_usd + _UNBOUNDED_USD}
    )
    keep = 1.0 - s.levers.reserve_fraction
    need = projected_spend(ProjectModel(lifted, seed=0)) / keep
    for _ in range(FUND_ROUNDS):
        trial = _with_total(s, need)
        short = 0.0
        for k in range(FUND_WORLDS):
            m = ProjectModel(trial, seed=0, replication=k)
            m.env.run()
            slips = [c for c in m.plan.scope_cuts if c.when in (AT_SET_UP, ON_FORECAST)]
            short = max(short, sum(c.saves_usd for c in slips))
        if short <= 0:
            break
        need += short / keep
    return need


def _with_total(s: Scenario, total: float) -> Scenario:
    """``s`` with its people line raised so the budget is at least ``total``."""
    extra = total - s.objective.budget.total_usd
    if extra <= 0:
        return s
    people = math.ceil(s.objective.budget.people_usd + extra) + 1.0
    return with_overrides(s, {"objective.budget.people_usd": people})


def fund_full_plan(s: Scenario) -> Scenario:
    """``s`` with its people line raised, if need be, so its plan is not cut to fit.

    The budget is one envelope, so a design with a bigger payroll has its run cut to pay
    for it. Funding every design's full plan compares the organisations on the runs they
    planned (equal scope) instead; what each costs then shows in the cost.
    """
    return _with_total(s, full_plan_budget_usd(s))


# --- design files ----------------------------------------------------------------------------


@dataclass(frozen=True)
class DesignFile:
    """A user's design: a name, the base scenario it was made from, and its changes.

    ``lines`` gives, for a design read from a file, the line of each change (by its path as
    written) and, under ``""``, the line of ``changes:`` itself.
    """

    name: str
    base: str
    changes: Delta
    lines: Mapping[str, int] = field(default_factory=dict)

    def apply(self, base: Scenario, source: str = "<design>") -> Scenario:
        """The design on ``base``; a problem names ``source`` and the line of its change."""
        try:
            return apply_delta(base, self.changes, name=self.name)
        except ScenarioError as exc:
            raise ScenarioError(
                [
                    Problem(source, self.line_of(p.path, base), p.path, p.reason)
                    for p in exc.problems
                ]
            ) from None

    def line_of(self, path: str, base: Scenario) -> int | None:
        """The line of the change behind a problem at ``path`` (a written or resolved path)."""
        if path in self.lines:
            return self.lines[path]
        best, line = -1, self.lines.get("")
        for written, value in self.changes.items():
            try:
                [resolved] = concrete(base, {written: value})
            except ScenarioError:
                continue
            if (path == resolved or path.startswith(resolved + ".")) and len(resolved) > best:
                best, line = len(resolved), self.lines.get(written, line)
        return line


HEADER = (
    "# A TrainingRoom design: changes to a base scenario, as dotted paths (like --set).\n"
    "# Teams can be named by id: org.teams.pretraining.headcount.\n"
)


def design_yaml(design: DesignFile) -> str:
    """The design as a YAML document."""
    buf = io.StringIO()
    y = YAML(typ="safe", pure=True)
    y.default_flow_style = False
    y.sort_base_mapping_type_on_output = False  # type: ignore[assignment]
    doc = {"name": design.name, "base": design.base, "changes": dict(design.changes)}
    y.dump(json.loads(json.dumps(doc)), buf)
    return HEADER + buf.getvalue()


def load_design(text: str, source: str = "<design>") -> DesignFile:
    """Read a design YAML document (safely, as scenario files are read)."""
    doc = parse_yaml(text, source)

    def line(mapping: CommentedMap, key: str) -> int | None:
        try:
            return int(mapping.lc.key(key)[0]) + 1
        except (KeyError, TypeError, AttributeError):
            return None

    def bad(key: str, reason: str, at: int | None) -> ScenarioError:
        return ScenarioError([Problem(source, at if at is not None else 1, key, reason)])

    unknown = sorted(str(k) for k in doc if k not in ("name", "base", "changes"))
    if unknown:
        raise bad(
            unknown[0], "unknown key; a design has name, base and changes", line(doc, unknown[0])
        )
    changes = doc.get("changes")
    if not isinstance(changes, CommentedMap) or not changes:
        raise bad(
            "changes", "a mapping of dotted paths to values is required", line(doc, "changes")
        )
    lines = {str(k): line(changes, k) for k in changes}
    lines[""] = line(doc, "changes")
    name, base = doc.get("name", "My design"), doc.get("base", "")
    for key, value in (("name", name), ("base", base)):
        if not isinstance(value, str):
            raise bad(key, "must be text", line(doc, key))
    plain = json.loads(json.dumps(changes))
    return DesignFile(
        name=name,
        base=base,
        changes=plain,
        lines={k: v for k, v in lines.items() if v is not None},
    )


# --- presets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A named org design from the essay, as a function from a base to its delta."""

    key: str
    title: str
    rationale: str
    changes: Callable[[Scenario], Delta]

    def apply(self, base: Scenario) -> Scenario:
        return apply_delta(base, self.changes(base), name=f"{self.title} ({base.name})")


def _core_ids(base: Scenario) -> list[str]:
    """The teams doing co-design work (derived from the plan; ``Team.core`` is not read)."""
    return base.co_design_team_ids


def _core_sizes(base: Scenario) -> dict[str, int]:
    core = set(_core_ids(base))
    return {t.id: t.headcount for t in base.org.teams if t.id in core}


def _working_links(base: Scenario) -> list[int]:
    return [i for i, link in enumerate(base.org.links) if link.kind != "reporting"]


def _largest_outside_core(base: Scenario) -> str | None:
    core = set(_core_ids(base))
    others = [t for t in base.org.teams if t.id not in core and not t.evergreen]
    return max(others, key=lambda t: t.headcount).id if others else None


def _small_core(base: Scenario) -> Delta:
    core = set(_core_ids(base))
    delta: Delta = {f"org.teams.{t}.headcount": min(n, 5) for t, n in _core_sizes(base).items()}
    for i in _working_links(base):
        link = base.org.links[i]
        if link.source in core or link.target in core:
            delta[f"org.links.{i}.latency_days"] = min(link.latency_days, ONE_ROOM_LATENCY_DAYS)
    for t in base.org.teams:
        if t.territorial:
            delta[f"org.teams.{t.id}.territorial"] = False
    delta.update(
        {
            "levers.engineering_embedded": True,
            "levers.parallel_variants": 1,
            "org.politics_days": 0.0,
        }
    )
    return delta


def _siloed(base: Scenario) -> Delta:
    delta: Delta = {f"org.teams.{t}.headcount": n * 2 for t, n in _core_sizes(base).items()}
    for i in _working_links(base):
        latency = base.org.links[i].latency_days
        delta[f"org.links.{i}.latency_days"] = round(latency * SILO_LATENCY_FACTOR, 3)
    territory = _largest_outside_core(base)
    if territory is not None:
        delta[f"org.teams.{territory}.territorial"] = True
    delta.update({"levers.engineering_embedded": False, "org.politics_days": SILO_POLITICS_DAYS})
    return delta


def _research_team(base: Scenario) -> str:
    return base.training_team_id


def _evergreen_apart(base: Scenario) -> Delta:
    team = "evergreen_research"
    links = [{"from": team, "to": _research_team(base), "kind": "communication"}]
    if "leadership" in base.team_ids:
        links.append({"from": team, "to": "leadership", "kind": "reporting"})
    return {
        f"org.teams.{team}": {
            "name": "Evergreen research",
            "headcount": RESEARCHERS,
            "seniority": 0.8,
            "evergreen": True,
        },
        f"org.links.{APPEND}": links,
    }


def _research_in_core(base: Scenario) -> Delta:
    team = next(t for t in base.org.teams if t.id == _research_team(base))
    ideas = [
        {"id": f"research_idea_{k + 1}", "team": team.id, "tested": False}
        for k in range(RESEARCHERS // 2)
    ]
    return {
        f"org.teams.{team.id}.headcount": team.headcount + RESEARCHERS,
        "org.contributions": [c.model_dump() for c in base.org.contributions] + ideas,
    }


def _many_variants(base: Scenario) -> Delta:
    delta: Delta = {f"org.teams.{t}.headcount": n + 2 for t, n in _core_sizes(base).items()}
    delta.update({"levers.parallel_variants": 3, "org.politics_days": 0.5})
    return delta


PRESETS: tuple[Preset, ...] = (
    Preset(
        "small_core",
        "Small core, engineering embedded",
        "The teams that settle architecture, data mix and recipe stay at about five people "
        "each and work as if in one room, with short links to the teams around them. The "
        "essay finds the labs that keep shipping strong models keep this core small even as "
        "the company grows, keep infrastructure engineers next to the researchers (they build "
        "the tools for the next model and need to hear what it needs), and train one model at "
        "a time with results, not territory, deciding.",
        _small_core,
    ),
    Preset(
        "large_siloed",
        "Large siloed org, engineering apart",
        "Twice the people in the core teams, engineering run as a separate department that "
        "hears from training only through management lines, working links three times "
        "slower, a day of politics on every hop a decision travels, and the largest team "
        "outside the core turned territorial: it forces a contribution of its own into the "
        "model and wants a say in every call. The essay's warning: big teams breed "
        "territory, signals from the people training the model travel upwards slowly, and "
        "an org that splits engineering from training or grows the core struggles to put "
        "the pieces together.",
        _siloed,
    ),
    Preset(
        "evergreen_apart",
        "Evergreen research kept apart",
        "A long-term research group sits beside the model team, inside research but not on "
        "the project's critical path: it talks to the training team and reports to "
        "leadership, and the project pays its salaries. Its findings count for the next "
        "model, and those that reach the training team before the run catch hidden defects. "
        "The essay's reasoning: language-model teams plan one or two models ahead, so "
        "long-term ideas need a home of their own to survive, and the model team stays "
        "small and focused.",
        _evergreen_apart,
    ),
    Preset(
        "research_in_core",
        "Evergreen research inside the model team",
        "The contrast to keeping research apart: the same researchers join the training "
        "team as core co-designers, and each pair of them pushes an idea into the model "
        "without the ablations that would have judged it. The essay warns against forcing "
        "individual contributions into the final model and against growing the core: every "
        "extra person adds coordination for everyone, and long-term work gets no home.",
        _research_in_core,
    ),
    Preset(
        "many_variants",
        "Many model variants at once",
        "Three variants trained side by side, each core team grown by two to staff them, and "
        "half a day of politics per decision hop as groups push their own variant. The "
        "essay names trying to ship too many models for each improvement as a failure mode: "
        "compute and attention split, and fewer, more capable models on a set schedule do "
        "better.",
        _many_variants,
    ),
)

PRESETS_BY_KEY: dict[str, Preset] = {p.key: p for p in PRESETS}


def preset(key: str) -> Preset:
    """The preset named ``key``; a ``ValueError`` lists the known ones otherwise."""
    try:
        return PRESETS_BY_KEY[key]
    except KeyError:
        raise ValueError(f"unknown design {key!r}; one of {', '.join(PRESETS_BY_KEY)}") from None
