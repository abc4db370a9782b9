"""Whose choice is it: the candidate's, or the scenario's, filled in by the org-chart button.

"Start from the scenario's own org chart" copies the scenario's owners, rights, gates,
reserve, ablation budget, playbook and levers into the plan and records each section in
``plan.scenario_filled``. A value in such a section stays *the scenario's* (it runs in the
simulation, but earns no rubric credit) until the candidate changes it, or confirms the
section with a reason that names something (``plan.confirmed``).
"""

from __future__ import annotations

from functools import lru_cache

from sim.interview.content import reason_ok
from sim.interview.plan import SECTIONS, InterviewPlan, world_plan


@lru_cache(maxsize=32)
def _reference(base: str, clarifications: tuple[tuple[str, str], ...]) -> InterviewPlan:
    return world_plan(InterviewPlan(base=base, clarifications=dict(clarifications)))


def reference(plan: InterviewPlan) -> InterviewPlan:
    """The scenario's own choices for the plan's world, written as a plan."""
    return _reference(plan.base, tuple(sorted(plan.clarifications.items())))


def confirmed(plan: InterviewPlan, section: str) -> bool:
    """Whether the candidate kept ``section`` on purpose, with a reason that says something."""
    return reason_ok({str(k): v for k, v in plan.confirmed.items()}.get(section, ""))


def _value(plan: InterviewPlan, section: str, key: str | None) -> object:
    if section == "owners":
        return plan.owner(key or "")
    if section == "rights":
        return plan.right(key or "")
    if section == "gates":
        gate = next((g for g in plan.gates if g.id == key), None)
        return None if gate is None else gate.model_dump(exclude={"experiment"})
    if section == "reserve":
        return plan.budget.reserve_fraction
    if section == "ablation":
        return plan.levers.ablation_fraction
    if section == "playbook":
        return plan.responses(key or "")
    return getattr(plan.levers, key or "")


def scenarios(plan: InterviewPlan, section: str, key: str | None = None) -> bool:
    """Whether the value at ``section`` (and ``key``) is the scenario's, not the candidate's.

    True when the button filled the section, the value still equals the scenario's, and
    the section was not confirmed with a reason.
    """
    if section not in SECTIONS:
        raise ValueError(f"unknown section {section!r}")
    if section not in {str(s) for s in plan.scenario_filled} or confirmed(plan, section):
        return False
    return _value(plan, section, key) == _value(reference(plan), section, key)


def filled_sections(plan: InterviewPlan) -> list[str]:
    """Sections the button filled that are still entirely or partly the scenario's."""
    return [str(s) for s in plan.scenario_filled if not confirmed(plan, str(s))]
