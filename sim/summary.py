"""Turn one design's replication table into the summary the CLI prints and the app draws."""

from __future__ import annotations

from typing import Any

import pandas as pd

from sim.distribution import joint_confidence, percentile_intervals, wilson
from sim.engine.records import COST_CATEGORIES
from sim.metrics import PROBABILITY_KEYS, QUANTITIES
from sim.scenario.spec import Scenario
from sim.stats import summarize


def summarize_runs(df: pd.DataFrame, scenario: Scenario, seed: int) -> dict[str, Any]:
    """The ``sim run --json`` object for one design."""
    out: dict[str, Any] = {"scenario": scenario.name, "reps": int(len(df)), "seed": seed}
    for m in QUANTITIES:
        out[m.key] = summarize(df[m.key])
    out["cost_by_category"] = {c: summarize(df[f"cost_{c}_usd"]) for c in COST_CATEGORIES}
    out["quality"] = quality_summary(df, scenario)
    out["targets"] = [
        {
            "capability": t.capability,
            "eval": t.eval,
            "threshold": t.threshold,
            "p_met": float(df[f"met:{t.eval}"].mean()),
        }
        for t in scenario.objective.targets
    ]
    for col, key in PROBABILITY_KEYS.items():
        out[key] = float(df[col].mean())
    out["incidents"] = {
        c.split(":", 1)[1]: float(df[c].mean())
        for c in sorted(df.columns)
        if c.startswith("incident:")
    }
    out["training_run"] = {
        "interruptions": summarize(df["run_interruptions"]),
        "effective_training_time": summarize(df["run_effective_training_time"]),
        "lost_gpu_hours": summarize(df["run_lost_gpu_hours"]),
        "wall_days": summarize(df["run_wall_days"]),
        "loss_spikes": summarize(df["run_spikes"]),
        "recipe_changes": summarize(df["run_recipe_changes"]),
        "failed_runs": summarize(df["run_failed_runs"]),
    }
    out["loss"] = summarize(df["loss"])
    out["tokens_b"] = summarize(df["tokens_b"])
    out["post_training_rounds"] = summarize(df["post_training_rounds"])
    out["scope"] = scope_summary(df)
    out["criticality"] = criticality(df)
    out["deadline_days"] = scenario.objective.deadline_days
    out["budget_usd"] = scenario.objective.budget.total_usd
    return out


def scope_summary(df: pd.DataFrame) -> dict[str, Any]:
    """What the plan gave up to fit its budget: how often, which cuts, their price."""
    responses = {
        c.split(":", 1)[1]: float(df[c].fillna(False).astype(bool).mean())
        for c in sorted(df.columns)
        if c.startswith("scope:")
    }
    return {
        # The plan as fitted to the budget at set-up (the same in every world).
        "tokens_planned_b": float(df["tokens_planned_b"].mean()),
        "post_training_rounds_planned": float(df["post_training_rounds_planned"].mean()),
        "p_cut": float((df["scope_cuts"] > 0).mean()),
        "cut_usd": summarize(df["scope_cut_usd"]),
        "cut_loss": summarize(df["scope_cut_loss"]),
        "cut_score": summarize(df["scope_cut_score"]),
        "responses": responses,
    }


def criticality(df: pd.DataFrame) -> dict[str, dict[str, float]]:
    """How often each team and handoff lay on the chain of work that set the finish date."""
    teams = {
        c.split(":", 1)[1]: float(df[c].mean()) for c in df.columns if c.startswith("critical:")
    }
    handoffs = {
        c.split(":", 1)[1]: float(df[c].mean())
        for c in df.columns
        if c.startswith("critical_handoff:")
    }
    return {"teams": teams, "handoffs": handoffs}


def quality_summary(df: pd.DataFrame, scenario: Scenario) -> dict[str, Any]:
    """Per capability, public benchmarks and product evals kept apart."""
    out: dict[str, Any] = {}
    for ev in scenario.objective.evals:
        cap = out.setdefault(ev.capability, {"public_benchmark": {}, "product_eval": {}})
        cap[ev.kind][ev.id] = summarize(df[f"score:{ev.id}"])
    return out


def interval_summary(df: pd.DataFrame) -> dict[str, Any]:
    """One design's statistics with their uncertainty.

    Order-statistic intervals on P10, P50 and P90, Wilson intervals on each chance, and
    the joint 80% statement's interval.
    """
    n = len(df)
    out: dict[str, Any] = {
        key: percentile_intervals(df[key].astype(float))
        for key in ("schedule_days", "cost_usd", "effort_person_days")
    }
    for col, key in PROBABILITY_KEYS.items():
        low, high = wilson(float(df[col].astype(bool).sum()), n)
        out[key] = {"value": float(df[col].mean()), "low": low, "high": high}
    out["within_80"] = joint_confidence(df, 0.8)
    return out
