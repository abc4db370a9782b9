"""A whole practice session as Markdown.

The answer, the simulated outcome, the follow-ups (the candidate's calls told apart from
the playbook's) and the rubric with its evidence.

Model answers (with the worked compute estimate) are written only once the attempt has
been handed in, like the debrief on the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.interview.answers import model_answers
from sim.interview.followups import FOLLOWUPS
from sim.interview.plan import (
    CLARIFICATION_BY_ID,
    STAGES,
    FollowupResult,
    InterviewPlan,
    effective_strategy,
)
from sim.interview.provenance import filled_sections
from sim.interview.rubric import PARTS, STATUS_LABEL, RubricReport
from sim.scenario.spec import DECISION_KINDS, RISK_KINDS
from sim.scenario.vocabulary import option_words, words


def _outcome_table(outcome: dict[str, Any]) -> list[str]:
    lines = [
        "| design | finish P50 (days) | cost P50 | on time | on budget | quality met | all met |",
        "|:--|--:|--:|--:|--:|--:|--:|",
    ]
    for name, s in outcome.items():
        lines.append(
            f"| {name} | {s['schedule_days']['p50']:.0f} | ${s['cost_usd']['p50']:,.0f} | "
            f"{s['p_on_time']:.0%} | {s['p_on_budget']:.0%} | {s['p_quality_met']:.0%} | "
            f"{s['p_success']:.0%} |"
        )
    return lines


def _soundness_line(report: RubricReport) -> str:
    """What the answer says, judged: its soundness and the grade beside the coverage score."""
    return " ".join(f"{name}: **{figure}**, {words}." for name, figure, words in
                    report.standing()[1:])  # fmt: skip


def plan_lines(plan: InterviewPlan) -> list[str]:
    """The answer itself, as Markdown lines: the prose if any, Part 1 and Part 2."""
    lines = []
    if plan.prose:
        quoted = "\n".join(f"> {line}" if line else ">" for line in plan.prose.splitlines())
        lines += ["## The answer as spoken", "", quoted, ""]
    lines += ["## Part 1: what makes it hard", ""]
    for c in plan.challenges:
        hits = ", ".join(c.hits) or "?"
        lines.append(f"- **{STAGES[c.stage]}: {c.title}** ({hits}). {c.consequence}".rstrip())
    if plan.late_discovery:
        lines += ["", f"Why late is expensive: {plan.late_discovery}"]
    lines += ["", "## Part 2: the plan", "", "| risk | owner | early warning |", "|:--|:--|:--|"]
    for r in RISK_KINDS:
        rp = plan.risks.get(r)  # type: ignore[call-overload]
        lines.append(
            f"| {r} | {plan.owner(r) or '**nobody**'} | {rp.early_warning if rp else ''} |"
        )
    rights = ", ".join(f"{k}: {plan.decision_rights.get(k, '—')}" for k in DECISION_KINDS)  # type: ignore[call-overload]
    lines += ["", f"**Decision rights.** {rights}", "", "**Gates.**"]
    lines += [
        f"- {g.id} after {g.after}: {', '.join(g.catches)}. {g.experiment}" for g in plan.gates
    ]
    b = plan.budget
    lines += [
        "",
        f"**Budget estimate.** compute ${b.compute_usd:,.0f}, people ${b.people_usd:,.0f}, "
        f"data licensing ${b.data_licensing_usd:,.0f}, annotation ${b.annotation_usd:,.0f}; "
        f"reserve {b.reserve_fraction:.0%}. Tracking: {b.tracking or '—'}",
        "",
        "**Playbook.** "
        + "; ".join(f"{k}: {' → '.join(v)}" for k, v in plan.levers.playbook.items()),
        "",
        f"**Strategy.** {effective_strategy(plan)}. {plan.strategy_reason}",
        "",
        "**Roles.** "
        + "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in plan.roles.model_dump().items() if v),
        "",
        "**Trade-offs.** "
        + "; ".join(f"protect {t.protect}, give up {t.give_up}: {t.text}" for t in plan.tradeoffs),
    ]
    return lines


def _followup_lines(followups: Sequence[FollowupResult]) -> list[str]:
    lines = []
    for f in followups:
        lines.append(f"### {FOLLOWUPS[f.id].title}")
        lines += ["", f"*{FOLLOWUPS[f.id].question}*", ""]
        if not f.decisions:
            lines += ["The situation did not arise on this design.", ""]
            continue
        calls = " → ".join(option_words(d.choice) for d in f.mine) or "nothing"
        auto = " → ".join(option_words(d.choice) for d in f.decisions if d.by != "candidate")
        who = f.decisions[0]
        lines.append(
            f"The {words(who.owner)} team held the call ({who.latency_days:.1f} days to reach "
            "them). You chose "
            f"**{calls}**"
            + (f"; your playbook then chose {auto}" if auto else "")
            + f". The project finished on day {f.schedule_days:.0f} for "
            f"${f.cost_usd:,.0f}; every objective met: {'yes' if f.success else 'no'}."
        )
        if f.rationale:
            lines.append(f"Reasoning: {f.rationale}")
        if f.alternatives:
            lines.append("Other first calls, replayed in the same world (later calls by your "
                         "playbook):")  # fmt: skip
        for a in f.alternatives:
            lines.append(
                f"- instead, {a.choice.replace('_', ' ')}: {a.delta_schedule_days:+.1f} days, "
                f"${a.delta_cost_usd:+,.0f}, quality {a.delta_quality:+.3f}"
            )
        lines.append("")
    return lines


def session_markdown(
    plan: InterviewPlan, report: RubricReport, title: str = "Interview practice"
) -> str:
    """A whole practice session: the answer, the simulated outcome, follow-ups and the rubric."""
    lines = [f"# {title}", ""]
    if plan.candidate:
        lines += [f"Candidate: {plan.candidate}", ""]
    lines += [
        f"**Rubric score: {report.score:.0%}** "
        f"({report.counts.get('met', 0)} met, {report.counts.get('partly', 0)} partly met, "
        f"{report.counts.get('missed', 0)} missed)",
        "",
        _soundness_line(report),
        "",
        "## Clarifying answers",
        "",
    ]
    for qid, oid in plan.clarifications.items():
        q = CLARIFICATION_BY_ID[qid]
        lines.append(f"- {q.question} **{q.option(oid).label}.**")
    left = filled_sections(plan)
    if left:
        lines += [
            "",
            "Filled from the scenario's own org chart and not made yours (no credit): "
            + ", ".join(left)
            + ".",
        ]
    lines += ["", *plan_lines(plan)]
    if report.outcome:
        lines += ["", "## Simulated outcome", "", *_outcome_table(report.outcome)]
    if report.followups:  # as the rubric replayed them, never the plan's stored records
        lines += ["", "## Follow-ups, played on the design", "", *_followup_lines(report.followups)]
    lines += ["", "## Rubric", ""]
    answers = model_answers(plan, report.followups) if report.revealed else {}
    for part in PARTS:
        lines += [f"### {part}", ""]
        for item in (i for i in report.items if i.part == part):
            lines.append(f"- **{item.title}: {STATUS_LABEL[item.status]}.**")
            lines += [f"  - {e}" for e in item.evidence]
            lines += [f"  - *Wrong:* {c.evidence or c.name}" for c in item.claims
                      if c.stance == "unsound"]  # fmt: skip
            if item.status != "met":
                lines.append(f"  - *A strong answer:* {item.strong}")
            if item.id in answers:
                body = answers[item.id].replace("\n", "\n    ")
                lines.append(f"  - *Model answer for this project:* {body}")
        lines.append("")
    if not report.revealed:
        lines += ["Model answers are added once the attempt is handed in.", ""]
    return "\n".join(lines).rstrip() + "\n"
