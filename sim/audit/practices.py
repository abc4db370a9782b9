"""The good practices the docs claim, each as a pair of designs: with it and without it.

Every practice is built from the scenario as it stands. Where the scenario already
follows it, "with" is the scenario and "without" removes it; where it does not, "with"
adds it (at the debrief's default: a 10% reserve, 5% ablations, 2% of the budget on
data work, the risk given to the holder of the decision it feeds) and "without" is the
scenario. The changes are the debrief's own interventions where one exists
(:mod:`sim.play.lessons.catalog`), so the audit and the debrief test the same thing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sim.designs import apply_delta
from sim.engine.decisions import POLICIES
from sim.play.lessons.catalog import (
    ABLATIONS_ON,
    DATA_WORK_SHARE,
    RESERVE_ON,
    RISK_TAKER,
    RISK_WORDS,
)
from sim.scenario.levers import LEVERS
from sim.scenario.spec import RISK_KINDS, Scenario
from sim.scenario.vocabulary import words


@dataclass(frozen=True)
class Practice:
    """One practice: the design that follows it and the one that does not."""

    id: str
    #: The practice, as the start of a sentence ("Owning the hardware risk").
    label: str
    #: What removing it means here ("left unowned", "0 instead of 10%").
    removal: str
    with_: Scenario
    without: Scenario


@dataclass(frozen=True)
class Skipped:
    """A practice the scenario cannot be audited on, and why."""

    id: str
    why: str


Built = Practice | Skipped


def _pair(
    s: Scenario,
    pid: str,
    label: str,
    removal: str,
    on: Mapping[str, Any] | None,
    off: Mapping[str, Any] | None,
) -> Practice:
    """``on`` / ``off``: the delta that makes the practice hold / not hold (None: as is)."""
    with_ = apply_delta(s, on) if on else s
    without = apply_delta(s, off) if off else s
    return Practice(pid, label, removal, with_, without)


def owners(s: Scenario) -> list[Built]:
    """Each risk owned: by its owner, or (unowned) by the holder of the decision it feeds."""
    out: list[Built] = []
    for risk in RISK_KINDS:
        path = f"org.risk_owners.{risk}"
        owner = s.org.risk_owners.get(risk)  # type: ignore[call-overload]
        label = f"Owning the {RISK_WORDS.get(risk, risk)} risk"
        if owner is not None:
            out.append(_pair(s, f"owner:{risk}", label, f"left unowned (not {words(owner)})", None,
                             {path: None}))  # fmt: skip
            continue
        taker = s.org.decision_rights.get(RISK_TAKER[risk])  # type: ignore[call-overload]
        if taker is None:
            out.append(Skipped(f"owner:{risk}", "unowned, and nobody holds the decision it feeds"))
            continue
        out.append(_pair(s, f"owner:{risk}", label, f"unowned (as the scenario has it; "
                         f"with: {words(taker)})", {path: taker}, None))  # fmt: skip
    return out


def gates(s: Scenario) -> list[Built]:
    """Each gate of the plan, and every gate at once."""
    if not s.plan.gates:
        return [Skipped("gates", "the plan has no gates")]
    out: list[Built] = []
    kept = [g.model_dump() for g in s.plan.gates]
    for i, g in enumerate(s.plan.gates):
        rest = kept[:i] + kept[i + 1 :]
        name = words(g.id)
        name = name if name.endswith("gate") else f"{name} gate"
        out.append(
            _pair(
                s,
                f"gate:{g.id}",
                f"The {name}",
                f"removed (strength {g.strength:g})",
                None,
                {"plan.gates": rest},
            )
        )
    if len(s.plan.gates) > 1:
        out.append(_pair(s, "gates:all", "Every gate", f"all {len(kept)} removed", None,
                         {"plan.gates": []}))  # fmt: skip
    return out


#: Practices that are one switch of the levers (the registry's checkboxes: each is the
#: practice when on).
FLAGS: tuple[tuple[str, str], ...] = tuple(
    (lv.name, lv.label) for lv in LEVERS if lv.widget == "checkbox"
)


def flags(s: Scenario) -> list[Built]:
    out: list[Built] = []
    for lever, label in FLAGS:
        on = bool(getattr(s.levers, lever))
        out.append(_pair(s, lever, label, "off" if on else "off (as the scenario has it)",
                         None if on else {f"levers.{lever}": True},
                         {f"levers.{lever}": False} if on else None))  # fmt: skip
    return out


def _amount(s: Scenario, lever: str, default: float, label: str, fmt: Callable[[float], str]
            ) -> Built:  # fmt: skip
    now = float(getattr(s.levers, lever))
    path = f"levers.{lever}"
    if now > 0:
        return _pair(s, lever, label, f"0 instead of {fmt(now)}", None, {path: 0.0})
    return _pair(s, lever, label, f"0 (as the scenario has it; with: {fmt(default)})",
                 {path: default}, None)  # fmt: skip


def amounts(s: Scenario) -> list[Built]:
    """A reserve, ablations and extra data work."""
    data = round(DATA_WORK_SHARE * s.objective.budget.total_usd, -3)
    return [
        _amount(s, "reserve_fraction", RESERVE_ON, "A budget reserve", lambda v: f"{v:.0%}"),
        _amount(s, "ablation_fraction", ABLATIONS_ON, "Ablations before the run",
                lambda v: f"{v:.0%}"),
        _amount(s, "data_investment_usd", data, "Extra data work", lambda v: f"${v:,.0f}"),
    ]  # fmt: skip


def playbook(s: Scenario) -> list[Built]:
    """Responses agreed in advance: the scenario's playbook, else the textbook's."""
    book = {k: list(v) for k, v in s.levers.playbook.items()}
    if book:
        return [_pair(s, "playbook", "A playbook agreed in advance",
                      f"none (decided on the spot; not {len(book)} entries)", None,
                      {"levers.playbook": {}})]  # fmt: skip
    textbook = {k: list(v) for k, v in POLICIES["textbook"].items()}
    return [_pair(s, "playbook", "A playbook agreed in advance",
                  "none (as the scenario has it; with: the textbook's)",
                  {"levers.playbook": textbook}, None)]  # fmt: skip


#: Every family of practices, in the order the audit prints them.
FAMILIES: tuple[Callable[[Scenario], list[Built]], ...] = (owners, gates, flags, amounts, playbook)


def practices(s: Scenario) -> list[Built]:
    """Every practice the audit compares with its removal on ``s``."""
    return [p for family in FAMILIES for p in family(s)]
