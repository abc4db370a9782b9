"""The lessons the mechanics carry (DESIGN.md's table), and how a play shows each one.

Each lesson names its mechanic and the direction its test proves; ``evidence``
looks at a finished play and says, in figures, where the play showed it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.engine.model import ProjectModel

Evidence = Callable[[ProjectModel], str | None]


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    mechanic: str
    direction: str
    evidence: Evidence


def _defects(m: ProjectModel, late: bool) -> str | None:
    found = [d for d in m.defects.defects if d.found]
    early = {"data_review", "ablation_gate"}
    picked = [d for d in found if (d.found_at not in early) == late]
    if not picked:
        return None
    where = ", ".join(
        f"{d.kind.replace('_', ' ')} at {d.found_at} (day {d.found_day:.0f})" for d in picked
    )
    return ("Found late: " if late else "Caught early: ") + where


def _spikes(m: ProjectModel) -> str | None:
    rolls = [d for d in m.decisions if d.kind == "rollback"]
    if not rolls:
        return None
    waited = sum(d.latency_days for d in rolls)
    return (
        f"{len(rolls)} loss spike decisions; {waited:.2f} days in total waiting for the call "
        f"to reach {rolls[0].owner}, with the cluster billed meanwhile"
    )


def _hardware(m: ProjectModel) -> str | None:
    run = m.run
    if run is None or run.stats.interruptions == 0:
        return None
    return (
        f"{run.stats.interruptions} interruptions; effective training time "
        f"{run.effective_training_time:.1%}; {run.lost_gpu_hours:,.0f} GPU-hours lost"
    )


def _unowned(m: ProjectModel) -> str | None:
    risks = m.org.unowned_risks()
    return f"Unowned risks: {', '.join(risks)}" if risks else None


def _budget(m: ProjectModel) -> str | None:
    responses = [d.choice for d in m.decisions if d.kind == "budget"]
    if not responses:
        return None
    return f"Budget responses, in order: {', then '.join(r.replace('_', ' ') for r in responses)}"


def _adapt(m: ProjectModel) -> str | None:
    if m.scenario.levers.strategy != "adapt":
        return None
    caps = [c.id for c in m.scenario.objective.capabilities if c.base_model_cap < 1.0]
    return f"Adapted a base model; capped capabilities: {', '.join(caps) or 'none'}"


def _benchmarks(m: ProjectModel) -> str | None:
    by_cap: dict[str, dict[str, float]] = {}
    for r in m.latest_evals.values():
        by_cap.setdefault(r.capability, {})[r.kind] = r.score
    gaps = [
        f"{cap}: benchmark {v['public_benchmark']:.2f} vs product {v['product_eval']:.2f}"
        for cap, v in by_cap.items()
        if "public_benchmark" in v
        and "product_eval" in v
        and v["public_benchmark"] - v["product_eval"] > 0.03
    ]
    return "; ".join(gaps) if gaps else None


def _safety(m: ProjectModel) -> str | None:
    late = [e for e in m.trace if e.kind == "safety" and "release-blocking" in e.summary]
    return f"A release-blocking safety finding at day {late[0].day:.0f}" if late else None


def _brooks(m: ProjectModel) -> str | None:
    hires = [
        e for e in m.trace if e.kind == "hire" and "join" in e.summary and "people" in e.summary
    ]
    return hires[0].summary + f" on day {hires[0].day:.0f}" if hires else None


def _silos(m: ProjectModel) -> str | None:
    n = m.incidents.get("handoff_rework", 0)
    embedded = m.scenario.levers.engineering_embedded
    if not n and embedded:
        return None
    parts = [f"{n} handoffs needed rework"] if n else []
    if not embedded:
        parts.append(f"infrastructure is {m.org.infra_distance_days():.1f} days from training")
    return "; ".join(parts)


def _data(m: ProjectModel) -> str | None:
    usd = m.scenario.levers.data_investment_usd
    return (
        f"${usd:,.0f} of extra data work gave {m.data_multiplier:.2f}x effective tokens"
        if usd
        else None
    )


def _overreact(m: ProjectModel) -> str | None:
    n = sum(1 for d in m.decisions if d.choice == "overreact")
    return (
        f"Overreacted to {n} spike(s): restarted with changes from an earlier checkpoint"
        if n
        else None
    )


def _focus(m: ProjectModel) -> str | None:
    s = m.scenario
    parts = []
    if s.levers.parallel_variants > 1:
        parts.append(f"{s.levers.parallel_variants} model variants split the cluster and attention")
    if s.org.politics_days > 0:
        parts.append(f"politics added {s.org.politics_days:g} days per decision hop")
    return "; ".join(parts) if parts else None


def _frontier(m: ProjectModel) -> str | None:
    n = m.scenario.model.novelty
    return f"Novelty {n:.1f}: wider effort and loss uncertainty" if n >= 0.5 else None


def _ablations(m: ProjectModel) -> str | None:
    caught = [d for d in m.defects.defects if d.found_at == "ablation_gate"]
    share = m.scenario.levers.ablation_fraction
    if caught:
        return (
            f"Ablations ({share:.0%} of run compute) caught {len(caught)} defect(s) before the run"
        )
    return None


def _scale(m: ProjectModel) -> str | None:
    big = [t.id for t in m.scenario.org.teams if not t.core and t.headcount >= 8]
    return f"Large teams where co-design isn't needed: {', '.join(big)}" if big else None


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "late_discovery",
        "Late discovery in a long run is expensive",
        "defects, gates, fix cost growing with progress",
        "a defect caught at an ablation gate costs far less than mid-run",
        lambda m: _defects(m, late=True),
    ),
    Lesson(
        "ablations",
        "Cheap experiments de-risk the expensive run",
        "ablation budget raises detection and narrows loss uncertainty",
        "more ablation budget lowers P90 cost and spread, up to a point",
        _ablations,
    ),
    Lesson(
        "checkpointing",
        "Hardware fails at scale; checkpointing trades overhead for lost work",
        "interruptions proportional to GPUs; checkpoint interval",
        "effective training time peaks at an interior checkpoint interval",
        _hardware,
    ),
    Lesson(
        "spike_response",
        "Loss spikes need a fast, owned response",
        "spike process, detection, decision latency along the org graph",
        "clear decision rights and a playbook waste less compute",
        _spikes,
    ),
    Lesson(
        "ownership",
        "Every risk needs an owner and an early warning",
        "unowned risks surface only at late gates",
        "unowned risks cost more time and money",
        _unowned,
    ),
    Lesson(
        "reserve_playbook",
        "Reserve and pre-agreed levers protect budget and schedule",
        "reserve fraction; ordered playbook",
        "reserve lowers P(over budget); a playbook beats ad hoc choices",
        _budget,
    ),
    Lesson(
        "build_vs_adapt",
        "Build versus adapt",
        "adapting a base model is cheaper and faster, capped on some capabilities",
        "adapt wins on time and cost, loses where the cap binds",
        _adapt,
    ),
    Lesson(
        "benchmarks_vs_product",
        "Public benchmarks are not product evals",
        "contamination and over-indexing inflate benchmarks only",
        "over-indexing raises the benchmark, not the product score",
        _benchmarks,
    ),
    Lesson(
        "safety_early",
        "Safety, legal and privacy from the start",
        "late engagement produces release-blocking findings",
        "late engagement slips the schedule",
        _safety,
    ),
    Lesson(
        "brooks",
        "Small core teams; coordination grows with size",
        "overhead grows with pairs of people; newcomers ramp up",
        "adding people late to the core makes it later",
        _brooks,
    ),
    Lesson(
        "silos",
        "Avoid silos; don't split engineering from training",
        "latency and rework on handoffs; distance lowers MFU, slows restarts",
        "a siloed design detects later and reworks more",
        _silos,
    ),
    Lesson(
        "scale_non_core",
        "Scale where co-design isn't needed",
        "data, eval and integration work scales with headcount",
        "headcount there helps; in the core it doesn't",
        _scale,
    ),
    Lesson(
        "data_work",
        "Data work is unglamorous and high-impact",
        "data quality multiplies effective tokens",
        "data investment beats equal spend on compute in quality per dollar",
        _data,
    ),
    Lesson(
        "dont_overreact",
        "Expect failed runs; don't overreact",
        "restart-with-changes versus rollback-and-skip",
        "overreacting costs more on average",
        _overreact,
    ),
    Lesson(
        "focus",
        "Fewer, focused models; no politics",
        "parallel variants split compute and attention; politics adds latency",
        "fewer, focused models do better",
        _focus,
    ),
    Lesson(
        "frontier",
        "Pushing the frontier costs about 10x repeating documented work",
        "novelty widens effort and uncertainty",
        "frontier scenarios have wider spreads",
        _frontier,
    ),
)


def lessons_shown(m: ProjectModel) -> list[tuple[Lesson, str]]:
    """The lessons this play shows, each with its evidence."""
    out = []
    for lesson in LESSONS:
        ev = lesson.evidence(m)
        if ev:
            out.append((lesson, ev))
    return out
