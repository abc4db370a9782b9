"""The after-action report as a document, in the order of HSEEP's AAR/IP template.

Its renderings (Markdown, HTML, Word, PDF) come from that one document model.

Every piece of text a person typed (names, rationales, comments, hot-wash items) goes in
as plain text; each renderer escapes it for its format (:mod:`sim.tabletop.report.document`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.scenario.vocabulary import words
from sim.tabletop.effects import MARGIN, DecisionEffect
from sim.tabletop.report.document import Block, Bullets, Heading, Para, Table
from sim.tabletop.report.document import to_docx as docx_bytes
from sim.tabletop.report.document import to_html as page
from sim.tabletop.report.document import to_markdown as md
from sim.tabletop.report.document import to_pdf as pdf_bytes
from sim.tabletop.report.findings import Finding, chance_words
from sim.tabletop.report.hseep import (
    CAPABILITIES,
    MISSION_AREAS,
    OBJECTIVES,
    RATINGS,
    element_of,
)
from sim.tabletop.report.montecarlo import Arm, MonteCarlo
from sim.tabletop.report.report import (
    AfterActionReport,
    CapabilityAnalysis,
    ObjectiveAnalysis,
)
from sim.tabletop.report.versus import figure

#: The report's top-level sections, in order (the export tests check each is there).
SECTIONS = (
    "Exercise overview",
    "Objectives and capabilities",
    "Analysis of objectives and capabilities",
    "Improvement plan",
    "Timeline",
    "Decisions and their effect",
    "Appendix: participants",
    "Appendix: audit log",
)


def _dist(d: dict[str, float], money: bool) -> str:
    f = (lambda v: f"${v / 1e6:,.2f}M") if money else (lambda v: f"{v:,.0f}")
    return f"{f(d['p10'])} / {f(d['p50'])} / {f(d['p90'])}"


def _played(r: AfterActionReport) -> str:
    if r.stopped_day >= r.finish_day:
        return f"The room played the project to its end, on day {r.finish_day:.1f}."
    return (
        f"The room played to day {r.stopped_day:.1f}; from there the scenario's playbook played "
        f"the project to its end, on day {r.finish_day:.1f}."
    )


def _overview(r: AfterActionReport) -> list[Block]:
    o = r.overview
    ended = r.ended.strftime("%Y-%m-%d %H:%M UTC") if r.ended else f"still {r.status}"
    orgs = sorted({p.organisation for p in r.participants if p.organisation})
    poc = ", ".join(x for x in (o.get("poc_name"), o.get("poc_organisation"), o.get("poc_contact"))
                    if x) or "Facilitator (not recorded)"  # fmt: skip
    scope = o.get("scope") or (
        f"A discussion-based tabletop exercise of “{r.scenario}”: the room held the roles of "
        "the project's organisation and made its calls as injects arrived. " + _played(r)
    )
    dates = (
        f"{r.opened.strftime('%Y-%m-%d %H:%M UTC')} to {ended}" if r.opened else "not opened yet"
    )
    used = [CAPABILITIES[c] for c in r.exercised]
    areas = [a for a in MISSION_AREAS if any(c.mission_area == a for c in used)]
    return [
        Heading(2, "Exercise overview"),
        Table(
            ("item", "details"),
            (
                ("Exercise name", r.title),
                ("Exercise dates", dates),
                ("Scope", scope),
                ("Mission areas", ", ".join(areas) or "none exercised yet"),
                ("Threat or hazard", "; ".join(r.hazards) or "no inject delivered yet"),
                (
                    "Scenario",
                    f"{r.scenario} (seed {r.seed}; room {r.room_code}, exercise {r.exercise_id})",
                ),
                ("Scenario narrative", r.narrative or r.scenario),
                ("Capabilities", "; ".join(c.name for c in used) or "none exercised yet"),
                ("Objectives", "; ".join(name for name, _ in OBJECTIVES.values())),
                ("Sponsor", o.get("sponsor") or "not recorded"),
                ("Participating organisations", ", ".join(orgs) or "not recorded"),
                ("Point of contact", poc),
                (
                    "Participants",
                    f"{sum(p.status == 'seated' for p in r.participants)} seated, "
                    f"{sum(p.status != 'seated' for p in r.participants)} removed",
                ),
            ),
        ),  # fmt: skip
    ]


def _objectives(r: AfterActionReport) -> list[Block]:
    mc = r.montecarlo
    rows = []
    for a in r.analysis:
        caps = ", ".join(c.name for c in a.capabilities)
        met = "; ".join(f"{o.name}: {o.result} ({'met' if o.met else 'missed'})"
                        for o in a.results)  # fmt: skip
        gap = mc.versus.chances.get(a.id) if mc.versus else None
        rows.append((a.name, caps, met, _chance(mc.room, a.id), _chance(mc.playbook, a.id),
                     figure(a.id, gap) if gap else ""))  # fmt: skip
    return [
        Heading(2, "Objectives and capabilities"),
        Para(
            f"Each objective, the capabilities it tests, its result in the room's own play, "
            f"and its chance over {mc.reps} simulated worlds (the scenario's randomness, the "
            f"exercise's {mc.scripted_incidents} scripted incidents at the points they struck, "
            "common random numbers) with the room's way of deciding (each call answered as the "
            "room answered it, later calls of a kind as the room most often did) and with the "
            "scenario's playbook."
        ),
        Table(
            (
                "objective",
                "capabilities tested",
                "in the room's play",
                "chance (room)",
                "chance (playbook)",
                "room minus playbook, same worlds",
            ),
            tuple(rows),
        ),
        Table(
            ("over the simulated worlds", "room", "playbook"),
            (
                (
                    "Finish day, P10 / P50 / P90",
                    _dist(mc.room.days, False),
                    _dist(mc.playbook.days, False),
                ),
                (
                    "Cost, P10 / P50 / P90",
                    _dist(mc.room.cost_usd, True),
                    _dist(mc.playbook.cost_usd, True),
                ),
                (
                    "Chance of meeting every objective",
                    f"{mc.room.p_success:.0%}",
                    f"{mc.playbook.p_success:.0%}",
                ),
                *(
                    (f"Chance of meeting {e}", f"{p:.0%}", f"{mc.playbook.p_eval.get(e, 0.0):.0%}")
                    for e, p in mc.room.p_eval.items()
                ),
            ),
        ),  # fmt: skip
    ]


def _chance(arm: Arm, objective: str) -> str:
    lo, hi = arm.p_met_interval.get(objective, (0.0, 1.0))
    return f"{arm.p_met[objective]:.0%} ({lo:.0%} to {hi:.0%})"


def references(r: AfterActionReport) -> dict[tuple[str, str, str], str]:
    """A reference for each area for improvement: objective.capability.item.

    As HSEEP's improvement plan cites them: 1.2.1 is objective 1, the second capability
    shown under it, its first area for improvement.
    """
    refs: dict[tuple[str, str, str], str] = {}
    for n, a in enumerate(r.analysis, 1):
        for m, c in enumerate(_shown(r, a), 1):
            for k, f in enumerate(c.improvements, 1):
                refs.setdefault(_key(f.capability, f.source, f.text), f"{n}.{m}.{k}")
    return refs


def _key(capability: str, source: str, text: str) -> tuple[str, str, str]:
    return (capability, source, text)


def _shown(r: AfterActionReport, a: ObjectiveAnalysis) -> list[CapabilityAnalysis]:
    """The objective's capabilities the exercise exercised (the others are only named)."""
    return [c for c in a.capabilities if c.id in r.exercised]


def _finding_lines(
    items: Sequence[Finding], refs: dict[tuple[str, str, str], str] | None = None
) -> list[Block]:
    out: list[Block] = []
    for f in items:
        ref = (refs or {}).get(_key(f.capability, f.source, f.text))
        head = f"{ref} " if ref else ""
        out.append(Para(head + f.text + (f" Owner: {f.owner}." if f.owner else "")))
        details = []
        if f.root_cause:
            details.append(f"Root cause: {f.root_cause}")
        if f.corrective_action:
            details.append(f"Corrective action: {f.corrective_action}")
        details += [f"Behind it: {e}" for e in f.evidence]
        if f.quantified:
            details.append(f"Monte Carlo: {f.quantified}")
        if details:
            out.append(Bullets(tuple(details)))
    return out


def _capability(c: CapabilityAnalysis, refs: dict[tuple[str, str, str], str]) -> list[Block]:
    rating = f"{c.rating}: {RATINGS[c.rating]}" if c.rating else "not rated"
    out: list[Block] = [
        Heading(4, f"Capability: {c.name}"),
        Para(f"{c.description} Rating from the expected actions: {rating}.", quiet=True),
        Heading(5, "Strengths"),
        *(_finding_lines(c.strengths) or [Para("None recorded.", quiet=True)]),
        Heading(5, "Areas for improvement"),
        *(_finding_lines(c.improvements, refs) or [Para("None recorded.", quiet=True)]),
    ]
    if c.decisions:
        out.append(Table(("day", "decision", "role", "by", "chose"), tuple(
            (f"{d.day:.1f}", d.key, d.role, d.by, words(d.choice))
            for d in c.decisions)))  # fmt: skip
    if c.expected:
        out.append(Table(("inject", "expected", "incident day", "answered by", "rating"), tuple(
            (e.inject, e.action,
             "" if e.incident_day is None else f"{e.incident_day:.1f}",
             f"{e.answered_by}: {words(e.answered_choice or '')}" if e.answered_by else "",
             (e.rating or ("checked" if e.choice else "not rated")))
            for e in c.expected)))  # fmt: skip
    return out


def _analysis(
    r: AfterActionReport, a: ObjectiveAnalysis, n: int, others: Sequence[Finding]
) -> list[Block]:
    refs = references(r)
    out: list[Block] = [
        Heading(3, f"Objective {n}: {a.name}"),
        Para(f"Met when {a.meaning}. {chance_words(r.montecarlo, a.id)}"),
    ]  # fmt: skip
    idle = [c.name for c in a.capabilities if c.id not in r.exercised]
    if idle:
        out.append(Para("Not exercised: " + "; ".join(idle) + ".", quiet=True))
    for c in _shown(r, a):
        out += _capability(c, refs)
    if others:
        out += [Heading(4, "Other observations"), *_finding_lines(others)]
    return out


def _plan(r: AfterActionReport) -> list[Block]:
    refs = references(r)
    rows = tuple(
        (refs.get(_key(p.capability, p.source, p.issue), ""), p.objective, p.issue,
         p.corrective_action,
         CAPABILITIES[p.capability].name if p.capability in CAPABILITIES else "",
         element_of(p.source), p.organisation, p.poc, p.start.isoformat() if p.start else "",
         p.completion.isoformat(), "in the plan" if p.item_id is not None else "proposed")
        for p in r.plan
    )  # fmt: skip
    return [
        Heading(2, "Improvement plan"),
        Para("Issues the hot wash raised or the facilitator adopted (in the plan), and those the "
             "report proposes from its findings (proposed): each with the reference of its "
             "area for improvement in the analysis, its corrective action, capability and "
             "capability element (planning, organization, equipment, training, exercises), "
             "the primary responsible organisation (the role that owns the capability, with "
             "its holder's organisation), point of contact, and start and completion dates."),
        Table(("ref", "objective", "issue / area for improvement", "corrective action",
               "capability", "capability element", "primary responsible organisation",
               "point of contact", "start", "completion", "status"),
              rows or (("", "", "no areas for improvement", "", "", "", "", "", "", "", ""),)),
    ]  # fmt: skip


def _kind_rows(mc: MonteCarlo) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (words(k.kind), ", ".join(words(c) for c in k.room_choices), words(k.playbook_choice),
         figure("days", k.versus.days), figure("cost_usd", k.versus.cost_usd),
         "; ".join(f"{OBJECTIVES[o][0]}: {figure(o, row)}" for o, row in k.versus.chances.items()),
         k.versus.verdict)
        for k in mc.by_kind
    )  # fmt: skip


def _effect_rows(effects: Sequence[DecisionEffect]) -> tuple[tuple[str, ...], ...]:
    rows = []
    for e in effects:
        top = max(e.alternatives, key=lambda a: a.impact, default=None)
        if top is None:
            rows.append((f"{e.day:.1f}", e.role, words(e.choice), "(no other option)",
                         "", "", "", "only option"))  # fmt: skip
            continue
        verdict = (
            f"{words(top.option)} did better here"
            if top.impact > MARGIN
            else ("about as good here" if top.impact > -MARGIN else "the best call here")
        )
        rows.append((f"{e.day:.1f}", e.role, words(e.choice), words(top.option),
                     f"{top.delta_schedule_days:+.1f}", f"{top.delta_cost_usd:+,.0f}",
                     f"{top.delta_quality:+.3f}", verdict))  # fmt: skip
    return tuple(rows)


def document(r: AfterActionReport) -> list[Block]:
    """The report as blocks, in the order of an HSEEP after-action report."""
    met = sum(o.met for o in r.objectives)
    unplaced = [f for f in (*r.strengths, *r.improvements) if f.capability not in CAPABILITIES]
    blocks: list[Block] = [
        Heading(1, f"After-action report and improvement plan: {r.title}"),
        Para(f"{_played(r)} Objectives met in the room's play: {met} of {len(r.objectives)}. "
             f"Strengths: {len(r.strengths)}; areas for improvement: {len(r.improvements)}. "
             f"Each verdict on the room's calls compares them with the playbook's over "
             f"{r.montecarlo.reps} simulated worlds (common random numbers); a replay of the "
             "exercise's own world with one decision changed is shown only as an "
             "illustration.", quiet=True),
        *_overview(r),
        *_objectives(r),
        Heading(2, "Analysis of objectives and capabilities"),
    ]  # fmt: skip
    for n, a in enumerate(r.analysis, 1):
        blocks += _analysis(r, a, n, unplaced if n == len(r.analysis) else ())
    blocks += _plan(r)
    blocks += [
        Heading(2, "Timeline"),
        Table(("day", "what", "title", "detail", "who"),
              tuple((f"{e.day:.1f}", e.kind, e.title, e.detail, e.who) for e in r.timeline)
              or (("", "", "nothing happened", "", ""),)),
        Heading(2, "Decisions and their effect"),
        Para(f"Each kind of call where the room left the playbook, over {r.montecarlo.reps} "
             "simulated worlds: the room's way of deciding minus the same with only that kind "
             "answered by the playbook, on the same worlds (95% intervals; negative days and "
             "dollars are sooner and cheaper). The verdict reads only differences that are "
             "clear after Holm's adjustment over the measures; it is the basis of every "
             "finding on a call."),
        Table(("kind", "room's calls", "playbook's", "change in finish", "change in cost",
               "change in each objective's chance", "verdict"),
              _kind_rows(r.montecarlo)
              or (("", "every call was the playbook's or had one option", "", "", "", "",
                   "nothing to judge"),)),
        Heading(3, "One world, as an illustration"),
        Para("Each row sets the choice made against the strongest other option in the "
             "exercise's own world only (one draw of the scenario's randomness): what that "
             "option would have changed there (days and dollars: negative is sooner and "
             "cheaper; quality: the mean score on the target evals). One world shows how a "
             "call can play out; it is no verdict."),
        Table(("day", "role", "chose", "best other option", "change in days",
               "change in cost (USD)", "change in quality", "in this world"),
              _effect_rows(r.decisions) or (("", "", "no decisions", "", "", "", "", ""),)),
    ]  # fmt: skip
    for e in r.decisions:
        blocks.append(Para(f"Day {e.day:.1f}, {e.role}, by {e.by}: {words(e.choice)}. "
                           f"Situation: {e.summary}. Rationale: {e.rationale}"))  # fmt: skip
    if r.lessons:
        blocks += [Heading(3, "What the play showed"),
                   Bullets(tuple(f"{t}: {ev}" for t, ev in r.lessons))]  # fmt: skip
    blocks += [
        Heading(2, "Appendix: participants"),
        Table(("player", "organisation", "roles", "status"),
              tuple((p.name, p.organisation, p.roles, p.status) for p in r.participants)
              or (("nobody joined", "", "", ""),)),
        Heading(2, "Appendix: audit log"),
        Table(("when (UTC)", "play day", "what", "who", "summary"),
              tuple((e.at, f"{e.day:.1f}", e.kind, e.actor, e.summary) for e in r.audit))
        if r.audit else Para("The audit log is kept by the facilitator.", quiet=True),
    ]  # fmt: skip
    return blocks


def _title(r: AfterActionReport) -> str:
    return f"After-action report: {r.title}"


def to_markdown(r: AfterActionReport, shift: int = 0) -> str:
    return md(document(r), shift)


def to_html(r: AfterActionReport) -> str:
    return page(document(r), _title(r))


def author(r: AfterActionReport) -> str:
    """The document's author: the facilitator's organisation, else the point of contact."""
    o = r.overview
    return o.get("poc_organisation") or o.get("poc_name") or "Exercise facilitator"


def to_docx(r: AfterActionReport) -> bytes:
    return docx_bytes(document(r), _title(r), author(r))


def to_pdf(r: AfterActionReport) -> bytes:
    return pdf_bytes(document(r), _title(r), author(r))
