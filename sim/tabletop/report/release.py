"""The report players get after the end: without what is the facilitator's alone.

HSEEP keeps the exercise's evaluation material (the expected actions of each inject, the
evaluators' ratings) with the exercise staff, and the audit log names every attempt of
every person. Until the facilitator releases them, a player's copy of the report leaves
out the expected actions, the ratings, the strengths and areas for improvement found from
them (their text quotes the expected action), the plan rows they proposed, and the audit
log. Everything else (the room's decisions, their effects, the Monte Carlo, the hot
wash) is the room's own record.
"""

from __future__ import annotations

from dataclasses import replace

from sim.tabletop.report.findings import Finding
from sim.tabletop.report.report import AfterActionReport, CapabilityAnalysis, PlanRow

#: Where a finding comes from when it rests on an inject's expected action or choice.
FACILITATOR_SOURCES = ("inject ", "action ")


def facilitator_only(source: str) -> bool:
    """Whether a finding or a plan row with this source is the facilitator's alone."""
    return source.startswith(FACILITATOR_SOURCES)


def _kept(items: tuple[Finding, ...]) -> tuple[Finding, ...]:
    return tuple(f for f in items if not facilitator_only(f.source))


def _capability(c: CapabilityAnalysis) -> CapabilityAnalysis:
    return replace(c, rating=None, expected=(), strengths=_kept(c.strengths),
                   improvements=_kept(c.improvements))  # fmt: skip


def _plan(rows: tuple[PlanRow, ...]) -> tuple[PlanRow, ...]:
    return tuple(r for r in rows if r.item_id is not None or not facilitator_only(r.source))


def for_players(report: AfterActionReport) -> AfterActionReport:
    """``report`` without the facilitator-only parts."""
    analysis = tuple(
        replace(o, capabilities=tuple(_capability(c) for c in o.capabilities))
        for o in report.analysis
    )
    return replace(report, analysis=analysis, strengths=_kept(report.strengths),
                   improvements=_kept(report.improvements), plan=_plan(report.plan),
                   audit=())  # fmt: skip
