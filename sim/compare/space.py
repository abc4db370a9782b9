"""The design space a search explores, read off a base scenario, and the user's constraints.

Each :class:`Choice` is one decision a design makes: a team's headcount, who holds a
decision right, who owns a risk, a gate's strength, a lever (from the tornado's
:data:`~sim.compare.analysis.LEVER_RANGES`, the one list of lever ranges), and the first
response of each decision kind's playbook. :func:`delta_for` turns the values of the
choices into a design delta (``sim.designs``), so a candidate is "base + changes"
like any other design and can be saved as a design file.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sim.compare.analysis import LEVER_RANGES
from sim.designs import Delta, apply_delta
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import DECISION_KINDS, DECISION_OPTIONS, RISK_KINDS, Scenario

#: A risk left unowned, as a choice's value (Optuna's choices are plain values).
NOBODY = "(nobody)"
#: A playbook kept as the base has it, and one left to the holder (no entry).
AS_IS, AD_HOC = "(as is)", "(ad hoc)"
#: Headcounts searched: from one person to twice the base's (at least four more).
HEADCOUNT_HIGH, HEADCOUNT_EXTRA = 2.0, 4
#: A gate's strength is searched this far either side of the base's.
GATE_SPREAD = 0.3


@dataclass(frozen=True)
class Choice:
    """One decision of a design: its name (an Optuna parameter), kind and range."""

    name: str
    kind: Literal["int", "float", "categorical"]
    base: Any
    low: float = 0.0
    high: float = 0.0
    options: tuple[Any, ...] = ()
    words: str = ""


#: The families of choices, by the prefix of their names (``--only`` picks among them).
CHOICE_FAMILIES: dict[str, str] = {
    "headcount": "headcount:",
    "right": "right:",
    "owner": "owner:",
    "gate": "gate:",
    "levers": "levers.",
    "playbook": "playbook:",
}


def excluded_families(only: Sequence[str]) -> tuple[str, ...]:
    """The ``Constraints.exclude`` prefixes that leave only the families ``only`` (all if empty).

    Politics stays out as by default.
    """
    unknown = [f for f in only if f not in CHOICE_FAMILIES]
    if unknown:
        raise ValueError(
            f"--only {unknown[0]!r}: no such family of choices "
            f"(one of {', '.join(CHOICE_FAMILIES)})"
        )
    rest = [prefix for f, prefix in CHOICE_FAMILIES.items() if only and f not in only]
    return ("org.politics_days", *rest)


@dataclass(frozen=True)
class Constraints:
    """What the user holds fixed or caps; ``budget_usd`` sets the project's total budget."""

    budget_usd: float | None = None
    max_headcount: int | None = None
    people_budget_usd: float | None = None
    fixed_teams: tuple[str, ...] = ()
    fixed_rights: tuple[str, ...] = ()
    #: Choices (by name prefix: ``gate:``, ``levers.``, ``playbook:``...) left out. Politics
    #: is out by default: it is the culture the design lives in, not a choice it makes.
    exclude: tuple[str, ...] = ("org.politics_days",)

    def as_json(self) -> dict[str, Any]:
        return {
            "budget_usd": self.budget_usd,
            "max_headcount": self.max_headcount,
            "people_budget_usd": self.people_budget_usd,
            "fixed_teams": list(self.fixed_teams),
            "fixed_rights": list(self.fixed_rights),
            "exclude": list(self.exclude),
        }


def with_budget(base: Scenario, budget_usd: float | None) -> Scenario:
    """``base`` with its total budget set to ``budget_usd`` (the people line takes the change)."""
    if budget_usd is None:
        return base
    b = base.objective.budget
    people = max(0.0, budget_usd - (b.total_usd - b.people_usd))
    return apply_delta(base, {"objective.budget.people_usd": float(people)})


def check_constraints(base: Scenario, c: Constraints) -> list[str]:
    """Constraints that cannot hold on ``base``, in words (empty when all can)."""
    out = []
    for team in c.fixed_teams:
        if team not in base.team_ids:
            out.append(f"--fix-team {team!r}: no such team (teams: {', '.join(base.team_ids)})")
    for kind in c.fixed_rights:
        if kind not in DECISION_KINDS:
            out.append(
                f"--fix-right {kind!r}: no such decision (one of {', '.join(DECISION_KINDS)})"
            )
    if c.budget_usd is not None:
        b = base.objective.budget
        other = b.total_usd - b.people_usd
        if c.budget_usd <= other:
            out.append(
                f"--budget {c.budget_usd:,.0f}: the compute, data and annotation lines alone "
                f"come to {other:,.0f} USD; give more"
            )
    if c.max_headcount is not None:
        floor = sum(t.headcount for t in base.org.teams if t.id in c.fixed_teams) + sum(
            1 for t in base.org.teams if t.id not in c.fixed_teams
        )
        if c.max_headcount < floor:
            out.append(f"--max-headcount {c.max_headcount}: the teams need at least {floor} people")
    return out


def _excluded(name: str, c: Constraints) -> bool:
    return any(name.startswith(prefix) for prefix in c.exclude)


def _lever_choices(base: Scenario) -> list[Choice]:
    out = []
    for r in LEVER_RANGES:
        try:
            apply_delta(base, {r.path: r.low})
            apply_delta(base, {r.path: r.high})
        except ScenarioError:
            continue  # e.g. strategy 'adapt' on a base without a base model
        value = _at(base, r.path)
        if isinstance(r.low, bool) or isinstance(r.low, str):
            options = tuple(dict.fromkeys([value, r.low, r.high]))
            out.append(Choice(r.path, "categorical", value, options=options, words=r.why))
        elif isinstance(r.low, int):
            low, high = min(r.low, value), max(r.high, value)
            out.append(Choice(r.path, "int", value, low, high, words=r.why))
        else:
            flow, fhigh = min(r.low, value), max(r.high, value)
            out.append(
                Choice(r.path, "float", float(value), float(flow), float(fhigh), words=r.why)
            )
    return out


def _at(s: Scenario, path: str) -> Any:
    node: Any = s
    for key in path.split("."):
        node = getattr(node, key)
    return node


def search_space(base: Scenario, c: Constraints = Constraints()) -> list[Choice]:
    """Every choice the search may make on ``base`` under ``c``, in a fixed order."""
    teams = tuple(base.team_ids)
    out: list[Choice] = []
    for t in base.org.teams:
        if t.id in c.fixed_teams:
            continue
        high = max(math.ceil(t.headcount * HEADCOUNT_HIGH), t.headcount + HEADCOUNT_EXTRA)
        out.append(
            Choice(
                f"headcount:{t.id}",
                "int",
                t.headcount,
                1,
                high,
                words=f"people in {t.name or t.id}",
            )
        )
    for kind in DECISION_KINDS:
        if kind in c.fixed_rights:
            continue
        holder = base.org.decision_rights[kind]  # type: ignore[index]
        out.append(
            Choice(
                f"right:{kind}",
                "categorical",
                holder,
                options=teams,
                words=f"who holds the {kind} decision",
            )
        )
    for risk in RISK_KINDS:
        owner = base.org.risk_owners.get(risk)  # type: ignore[call-overload]
        out.append(
            Choice(
                f"owner:{risk}",
                "categorical",
                owner or NOBODY,
                options=(*teams, NOBODY),
                words=f"who owns the {risk} risk",
            )
        )
    for g in base.plan.gates:
        weak = round(max(0.0, g.strength - GATE_SPREAD), 4)
        strong = round(min(1.0, g.strength + GATE_SPREAD), 4)
        out.append(
            Choice(
                f"gate:{g.id}",
                "float",
                g.strength,
                weak,
                strong,
                words=f"strength of the {g.id} gate (after {g.after})",
            )
        )
    out += _lever_choices(base)
    for kind in DECISION_KINDS:
        options = (AS_IS, AD_HOC, *DECISION_OPTIONS[kind])
        out.append(
            Choice(
                f"playbook:{kind}",
                "categorical",
                AS_IS,
                options=options,
                words=f"first response of the {kind} playbook",
            )
        )
    return [ch for ch in out if not _excluded(ch.name, c)]


def base_params(space: Sequence[Choice]) -> dict[str, Any]:
    """The values of the choices that give the base itself."""
    return {ch.name: ch.base for ch in space}


def _playbook(base: Scenario, kind: str, first: str) -> list[str] | None:
    ranked = list(base.levers.playbook.get(kind, []))  # type: ignore[call-overload]
    if first == AS_IS:
        return ranked or None
    if first == AD_HOC:
        return None
    rest = [o for o in (ranked or DECISION_OPTIONS[kind]) if o != first]
    return [first, *rest]


def delta_for(base: Scenario, params: Mapping[str, Any]) -> Delta:
    """The design delta of a candidate: only what differs from ``base``."""
    delta: Delta = {}
    playbook: dict[str, list[str]] = {k: list(v) for k, v in base.levers.playbook.items()}
    for name, value in params.items():
        kind, _, key = name.partition(":")
        if kind == "headcount":
            team = next(t for t in base.org.teams if t.id == key)
            if int(value) != team.headcount:
                delta[f"org.teams.{key}.headcount"] = int(value)
        elif kind == "right":
            if value != base.org.decision_rights[key]:  # type: ignore[index]
                delta[f"org.decision_rights.{key}"] = value
        elif kind == "owner":
            owner = None if value == NOBODY else value
            if owner != base.org.risk_owners.get(key):  # type: ignore[call-overload]
                delta[f"org.risk_owners.{key}"] = owner
        elif kind == "gate":
            g = next(g for g in base.plan.gates if g.id == key)
            if round(float(value), 4) != g.strength:
                delta[f"plan.gates.{key}.strength"] = round(float(value), 4)
        elif kind == "playbook":
            ranked = _playbook(base, key, value)
            if ranked is None:
                playbook.pop(key, None)
            else:
                playbook[key] = ranked
        else:
            current = _at(base, name)
            new = round(float(value), 4) if isinstance(current, float) else value
            if new != current:
                delta[name] = new
    if playbook != {str(k): list(v) for k, v in base.levers.playbook.items()}:
        delta["levers.playbook"] = playbook
    return delta


def design_for(base: Scenario, params: Mapping[str, Any], name: str) -> Scenario:
    """The candidate ``params`` as a validated scenario named ``name``."""
    return apply_delta(base, delta_for(base, params), name=name)


def violation(design: Scenario, c: Constraints) -> float:
    """How far a design breaks the caps (headcount, people budget); zero or less: within."""
    worst = 0.0
    if c.max_headcount is not None:
        total = sum(t.headcount for t in design.org.teams)
        worst = max(worst, (total - c.max_headcount) / c.max_headcount)
    if c.people_budget_usd is not None:
        worst = max(worst, (payroll_usd(design) - c.people_budget_usd) / c.people_budget_usd)
    return worst


def payroll_usd(s: Scenario) -> float:
    """What the teams cost over the deadline: headcount times day rate times deadline days."""
    per_day = sum(t.headcount * t.usd_per_person_day for t in s.org.teams)
    return per_day * s.objective.deadline_days
