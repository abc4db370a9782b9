"""What the model says each risk costs when it strikes late and unowned, and how a design fares.

For Part 1, each risk is priced by a counterfactual Monte Carlo on common random
numbers: the same world in which the risk surely strikes, once with its owner and
early warning in place, once without them (no owner, the warning lever off). The
difference is the price of leaving it to chance. For Part 2, the candidate's design
runs beside reference designs through the same replications.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.intervals import paired_difference
from sim.interview.plan import InterviewPlan, plan_scenario, plan_world
from sim.runner import Progress, run_designs
from sim.scenario.loading import with_overrides
from sim.scenario.spec import Scenario
from sim.summary import summarize_runs

Overrides = dict[str, Any]
#: Replications behind a risk's price and a design's comparison (5-10 ms each).
RISK_REPS = 40
#: The simulated worlds behind every interview verdict, in the app and on the command line
#: alike (:func:`compare_designs`): the same count and seed, so a file gets one verdict.
DESIGN_REPS = 60
DESIGN_SEED = 0


def _dump(s: Scenario) -> dict[str, Any]:
    return dict(json.loads(s.model_dump_json(by_alias=True)))


def _defect_strikes(kind: str) -> Callable[[Scenario], Overrides]:
    def strike(s: Scenario) -> Overrides:
        defects = _dump(s)["incidents"]["defects"]
        known = [d for d in defects if d["kind"] == kind]
        if known:
            for d in known:
                d["probability"] = 1.0
        else:
            defects.append({"kind": kind, "probability": 1.0})
        return {"incidents.defects": defects}

    return strike


def _scripted(*incidents: dict[str, Any]) -> Callable[[Scenario], Overrides]:
    def strike(s: Scenario) -> Overrides:
        return {"incidents.scripted": [*_dump(s)["incidents"]["scripted"], *incidents]}

    return strike


def _without_playbook(s: Scenario, kind: str) -> dict[str, list[str]]:
    return {k: list(v) for k, v in s.levers.playbook.items() if k != kind}


def _departure(s: Scenario) -> Overrides:
    team = s.training_team_id
    return _scripted({"kind": "departure", "day": 30.0, "team": team})(s)


@dataclass(frozen=True)
class RiskProbe:
    """How a risk is made to strike, and what "late and unowned" means for it in the model."""

    risk: str
    strikes: str
    neglect: str
    strike: Callable[[Scenario], Overrides]
    neglected: Callable[[Scenario], Overrides]


def _unowned(risk: str, **levers: Any) -> Callable[[Scenario], Overrides]:
    def neglect(s: Scenario) -> Overrides:
        return {f"org.risk_owners.{risk}": None, **{f"levers.{k}": v for k, v in levers.items()}}

    return neglect


def _neglect_spikes(s: Scenario) -> Overrides:
    return {
        "org.risk_owners.loss_spike": None,
        "levers.playbook": _without_playbook(s, "rollback"),
    }


def _neglect_budget(s: Scenario) -> Overrides:
    return {
        "org.risk_owners.budget": None,
        "levers.reserve_fraction": 0.0,
        "levers.playbook": _without_playbook(s, "budget"),
    }


PROBES: dict[str, RiskProbe] = {
    p.risk: p
    for p in (
        RiskProbe("data_quality", "a data-quality defect is in the mix",
                  "nobody owns data quality, so only a late gate can catch it",
                  _defect_strikes("data_quality"), _unowned("data_quality")),
        RiskProbe("contamination", "benchmark items leak into the data",
                  "nobody owns contamination and nobody decontaminates",
                  _defect_strikes("contamination"), _unowned("contamination", decontaminate=False)),
        RiskProbe("licensing", "data with a licensing problem is in the mix",
                  "nobody owns licensing, so legal sees it only at sign-off",
                  _defect_strikes("licensing"), _unowned("licensing")),
        RiskProbe("tokenizer_config", "a tokenizer or config mistake is made",
                  "nobody owns the tokenizer and config, so only a late gate can catch it",
                  _defect_strikes("tokenizer_config"), _unowned("tokenizer_config")),
        RiskProbe("loss_spike", "the loss spikes midway through the run",
                  "nobody watches the loss and nothing is agreed on rollbacks",
                  _scripted({"kind": "loss_spike", "run_progress": 0.5}), _neglect_spikes),
        RiskProbe("hardware", "GPUs fail three times as often",
                  "nobody owns the cluster and engineering sits apart from training",
                  lambda s: {"cluster.failure_rate": 3 * s.cluster.failure_rate},
                  _unowned("hardware", engineering_embedded=False)),
        RiskProbe("eval_gap", "post-training drifts from what the product needs",
                  "nobody owns the eval gap and product evals come only at the end",
                  lambda s: {}, _unowned("eval_gap", product_evals_early=False)),
        RiskProbe("safety", "the model has a release-blocking safety issue",
                  "nobody owns safety, so the review happens at release",
                  lambda s: {"incidents.safety.issues_mean": 3.0},
                  _unowned("safety")),
        RiskProbe("budget", "leadership cuts 30% of the compute budget on day 60",
                  "nobody owns the budget, there is no reserve and no agreed response",
                  _scripted({"kind": "budget_cut", "day": 60.0, "fraction": 0.3}),
                  _neglect_budget),
        RiskProbe("staffing", "a core team member leaves on day 30",
                  "nobody owns staffing, so the replacement takes twice as long",
                  _departure, _unowned("staffing")),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Impact:
    """Mean change against the same worlds where the risk does not strike."""

    schedule_days: float
    cost_usd: float
    p_success: float
    quality: float
    clear: bool = True

    @property
    def hits(self) -> list[str]:
        """The dimensions this hurts: true quality, schedule, cost."""
        out = []
        if self.quality < -0.002:
            out.append("quality")
        if self.schedule_days > 0.5:
            out.append("schedule")
        if self.cost_usd > 10_000:
            out.append("cost")
        return out


@dataclass(frozen=True)
class RiskPrice:
    """What a risk costs when it strikes: late and unowned, and with its owner and warning."""

    risk: str
    strikes: str
    neglect: str
    reps: int
    late: Impact
    owned: Impact


def _true_quality(df: Any) -> Any:
    # True capability, not measured scores: a contaminated benchmark flatters the latter.
    cols = [c for c in df.columns if c.startswith("true:")]
    return df[cols].mean(axis=1)


def _impact(df: Any, calm: Any) -> Impact:
    pairs = [
        paired_difference(calm[c], df[c]) for c in ("schedule_days", "cost_usd", "success")
    ] + [paired_difference(_true_quality(calm), _true_quality(df))]
    # Clear: some 95% interval of a paired difference leaves out zero.
    clear = any(p["low"] > 0 or p["high"] < 0 for p in pairs if p["n"] > 1)
    schedule, cost, success, quality = (float(p["mean"]) for p in pairs)
    return Impact(schedule, cost, success, quality, clear)


def price_risk(world: Scenario, risk: str, reps: int = RISK_REPS, seed: int = 0) -> RiskPrice:
    """Price ``risk`` in ``world`` on common random numbers: calm, struck and owned, neglected."""
    probe = PROBES[risk]
    struck = with_overrides(world, probe.strike(world))
    neglected = with_overrides(struck, probe.neglected(struck))
    runs = run_designs({"calm": world, "owned": struck, "late": neglected}, reps, seed)
    calm = runs["calm"]
    return RiskPrice(
        risk,
        probe.strikes,
        probe.neglect,
        reps,
        _impact(runs["late"], calm),
        _impact(runs["owned"], calm),
    )


# --- the candidate's design beside reference designs --------------------------------------------

YOUR_DESIGN = "Your design"
SCENARIO_PLAN = "The scenario's own plan"
NEGLECTED = "Siloed, unowned, ad hoc"


def neglected_design(world: Scenario) -> Scenario:
    """A weak reference: nobody owns anything, no playbook or reserve, silos, late evals."""
    return with_overrides(
        world,
        {
            "org.risk_owners": dict.fromkeys(world.org.risk_owners),
            "levers.playbook": {},
            "levers.reserve_fraction": 0.0,
            "levers.ablation_fraction": 0.0,
            "levers.engineering_embedded": False,
            "levers.safety_from_start": False,
            "levers.product_evals_early": False,
            "levers.decontaminate": False,
        },
    )


def designs_for(plan: InterviewPlan) -> dict[str, Scenario]:
    world = plan_world(plan)
    return {
        YOUR_DESIGN: plan_scenario(plan),
        SCENARIO_PLAN: world,
        NEGLECTED: neglected_design(world),
    }


def summarize_designs(
    runs: dict[str, Any], designs: dict[str, Scenario], seed: int
) -> dict[str, dict[str, Any]]:
    """Each design's ``sim run --json`` summary, with paired differences from the reference.

    Every design but the reference adds ``vs_reference``: its paired difference from the
    scenario's own plan (same worlds) in the chance of meeting every objective, on time and
    on budget, with 95% intervals.
    """
    out = {name: summarize_runs(runs[name], designs[name], seed) for name in designs}
    ref = runs[SCENARIO_PLAN]
    for name in designs:
        if name != SCENARIO_PLAN:
            out[name]["vs_reference"] = {
                key: paired_difference(ref[col].astype(float), runs[name][col].astype(float))
                for key, col in (("p_success", "success"), ("p_on_time", "on_time"),
                                 ("p_on_budget", "on_budget"))
            }  # fmt: skip
    return out


def compare_designs(
    plan: InterviewPlan,
    reps: int = DESIGN_REPS,
    seed: int = DESIGN_SEED,
    progress: Progress | None = None,
) -> dict[str, dict[str, Any]]:
    """Each design's ``sim run --json`` summary, all on the same replications.

    :func:`sim.runner.run_designs` plays every design through the same ``reps``
    worlds (common random numbers), so the paired differences measure the design.
    """
    designs = designs_for(plan)
    runs = run_designs(designs, reps, seed, progress=progress)
    return summarize_designs(runs, designs, seed)
