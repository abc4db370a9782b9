"""The outcome of a play: headline metrics as a flat row, plus the full record for plays."""

from __future__ import annotations

from typing import Any

from sim.engine.model import ProjectModel
from sim.engine.records import COST_CATEGORIES
from sim.units import later_than, over_usd


def outcome_row(m: ProjectModel) -> dict[str, Any]:
    """Flat, picklable facts of one finished replication (one row of a results table)."""
    if not m.finished or m.finish_day is None:
        raise RuntimeError("the play has not finished")
    s = m.scenario
    obj = s.objective
    ledger = m.ledger
    plan = m.plan.set_up
    row: dict[str, Any] = {
        "schedule_days": m.finish_day,
        "cost_usd": ledger.spent_usd,
        "budget_usd": ledger.budget_usd,
        "effort_person_days": sum(t.person_days(m.finish_day) for t in m.staff.teams.values()),
        "reserve_used_usd": max(0.0, ledger.spent_usd - (ledger.budget_usd - ledger.reserve_usd)),
        "tokens_b": (m.run.tokens if m.run else 0.0) / 1e9,
        # The plan as fitted to the budget at set-up (the scenario's, when nothing was cut).
        "tokens_planned_b": (plan.tokens if plan else m.plan.tokens_scenario) / 1e9,
        "loss": m.current_loss(m.run.tokens if m.run else 0.0),
        "post_training_rounds": m.plan.rounds_done,
        "post_training_rounds_planned": plan.rounds if plan else s.model.post_training_rounds,
        "scope_cuts": len(m.plan.scope_cuts),
        "scope_cut_usd": sum(c.saves_usd for c in m.plan.scope_cuts),
        "scope_cut_loss": sum(c.loss for c in m.plan.scope_cuts),
        "scope_cut_score": sum(c.score for c in m.plan.scope_cuts),
        "exploration_multiplier": m.exploration,
        "decisions": len(m.recording.decisions),
        "research_findings": sum(1 for f in m.findings if f.day <= m.finish_day),
        "contributions_kept": sum(1 for c in m.contributions.items if c.kept),
        "contribution_loss": m.contributions.loss_shift(),
        "safety_issues_shipped": m.safety.shipped,
        "decision_latency_days": sum(d.latency_days for d in m.recording.decisions),
        "events": m.env.events_processed,
    }
    for cat in COST_CATEGORIES:
        row[f"cost_{cat}_usd"] = ledger.totals[cat]
    met_all = True
    for ev, res in m.latest_evals.items():
        row[f"score:{ev}"] = res.score
        row[f"true:{ev}"] = res.true_score
        row[f"release:{ev}"] = res.released
    for t in obj.targets:
        # Met is judged on what the product shows after release, not on a benchmark's
        # leaked or overfitted items (docs/model.md, "Contamination").
        met = t.eval in m.latest_evals and m.latest_evals[t.eval].released >= t.threshold
        row[f"met:{t.eval}"] = met
        met_all = met_all and met
    row["on_time"] = not later_than(m.finish_day, obj.deadline_days)
    row["on_budget"] = not over_usd(ledger.spent_usd - ledger.budget_usd)
    row["quality_met"] = met_all
    row["success"] = row["on_time"] and row["on_budget"] and met_all
    run = m.run
    row["run_interruptions"] = run.stats.interruptions if run else 0
    row["run_effective_training_time"] = run.effective_training_time if run else 1.0
    row["run_lost_gpu_hours"] = run.lost_gpu_hours if run else 0.0
    row["run_wall_days"] = run.stats.wall_days if run else 0.0
    row["run_spikes"] = run.stats.spikes if run else 0
    row["run_recipe_changes"] = run.stats.recipe_changes if run else 0
    row["run_failed_runs"] = run.stats.failed_runs if run else 0
    for cut in m.plan.scope_cuts:
        row[f"scope:{cut.response}"] = True
    for kind, n in m.recording.incidents.items():
        row[f"incident:{kind}"] = n
    for team in s.org.teams:
        row[f"critical:{team.id}"] = team.id in m.recording.critical_teams
    for a, b in sorted(m.recording.critical_handoffs):
        row[f"critical_handoff:{a}>{b}"] = True
    return row
