"""A tiny scenario for the engine's unit tests: two teams, every mechanism off by default.

Tests turn on the one mechanism they look at with ``tiny(...)`` overrides (dotted paths,
validated like ``--set``), so a failure points at that mechanism, not at a whole play.
"""

from __future__ import annotations

from typing import Any

from sim.engine.model import ProjectModel
from sim.scenario.loading import with_overrides
from sim.scenario.spec import Scenario

TRAIN, DATA = "train", "data"

BASE: dict[str, Any] = {
    "name": "tiny",
    "objective": {
        "deadline_days": 400,
        "product_use": "unit tests",
        "budget": {"compute_usd": 2e6, "people_usd": 1e6, "annotation_usd": 1e5},
        "capabilities": [{"id": "cap", "loss_midpoint": 2.6}],
        "evals": [{"id": "ev", "kind": "product_eval", "capability": "cap"}],
        "targets": [{"capability": "cap", "eval": "ev", "threshold": 0.01}],
    },
    # About 20 days of training on 8 H100s.
    "model": {"params_b": 3.0, "tokens_b": 300.0, "post_training_rounds": 2,
              "round_person_days": 4.0, "round_days_min": 3.0},
    "cluster": {"gpus": 8},
    "org": {
        "teams": [
            {"id": TRAIN, "headcount": 4, "core": True},
            {"id": DATA, "headcount": 2},
        ],
        "links": [{"from": DATA, "to": TRAIN, "kind": "handoff", "latency_days": 1.0}],
        "risk_owners": {
            "data_quality": DATA, "contamination": DATA, "licensing": DATA,
            "tokenizer_config": TRAIN, "loss_spike": TRAIN, "hardware": TRAIN,
            "eval_gap": TRAIN, "safety": TRAIN, "budget": TRAIN, "staffing": TRAIN,
        },
        "decision_rights": {k: TRAIN for k in ("rollback", "data_fix", "budget", "ship",
                                               "schedule")},
    },
    "plan": {
        "workstreams": [
            {"id": "data_prep", "owner": DATA, "phase": "prepare", "effort_person_days": 4},
            {"id": "recipe", "owner": TRAIN, "phase": "prepare", "effort_person_days": 4,
             "depends_on": ["data_prep"]},
            {"id": "evals", "owner": TRAIN, "phase": "evaluation", "effort_person_days": 2},
        ],
    },
    "incidents": {
        "variability": False,
        "hardware": False,
        "loss_spikes": {"enabled": False},
        "departures": {"enabled": False},
        "safety": {"enabled": False},
    },
    "levers": {"reserve_fraction": 0.1, "ablation_fraction": 0.0},
}  # fmt: skip


def tiny(**overrides: Any) -> Scenario:
    """The tiny scenario with dotted-path overrides (``levers__ablation_fraction=0.1``)."""
    s = Scenario.model_validate(BASE)
    return with_overrides(s, {k.replace("__", "."): v for k, v in overrides.items()})


def model(s: Scenario | None = None, seed: int = 0, decider: str = "playbook") -> ProjectModel:
    return ProjectModel(s or tiny(), seed=seed, decider=decider)


def run_until(m: ProjectModel, done: Any, limit: int = 1_000_000) -> None:
    """Step the play until ``done()`` holds (or fail after ``limit`` events)."""
    for _ in range(limit):
        if done():
            return
        m.env.step()
    raise AssertionError("the condition never held")


def kinds(m: ProjectModel) -> list[str]:
    """The trace's event kinds, in order."""
    return [e.kind for e in m.recording.trace]
