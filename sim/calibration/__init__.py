"""Published figures beside what the model gives for the same inputs (``sim calibrate``).

Every row takes a figure from a public source (the references are in docs/model.md,
"Calibration") and computes the same quantity with the engine's own functions and
defaults (:mod:`sim.calibration.figures`) or by playing a whole project built from a
published project's inputs (:mod:`sim.calibration.projects`), so a change to a default
or an equation shows up here. A row states its tolerance; rows the model does not meet
carry ``gap``, a short reason, and docs/model.md says what that gap means for a play.
Rows that would only restate an input (a default price, ``OPTIMAL_ROUNDS``) are left out.
"""

from __future__ import annotations

from sim.calibration.figures import (
    CalibrationRow,
    Tolerance,
    adaptation_rows,
    benchmark_rows,
    chinchilla_rows,
    compute_optimal_params,
    deepseek_implied_mfu,
    deepseek_rows,
    llama3_reliability_rows,
    llama3_throughput_rows,
    olmo2_rows,
    post_training_rows,
    probe_scenario,
    spike_rows,
    team_rows,
)
from sim.calibration.projects import project_rows

__all__ = [
    "CalibrationRow",
    "Tolerance",
    "calibration_rows",
    "compute_optimal_params",
    "deepseek_implied_mfu",
    "probe_scenario",
]


def calibration_rows(reps: int = 100, seed: int = 0) -> list[CalibrationRow]:
    """Every calibration row; ``reps`` and ``seed`` drive the simulated rows.

    ``reps`` Llama 3 windows; the whole-project rows play their scenarios with ``seed``.
    """
    if reps < 1:
        raise ValueError(f"reps must be at least 1, got {reps}")
    if seed < 0:
        raise ValueError(f"seed must be zero or more, got {seed}")
    return [
        *deepseek_rows(),
        *llama3_throughput_rows(),
        *olmo2_rows(),
        *llama3_reliability_rows(reps, seed),
        *chinchilla_rows(),
        *spike_rows(),
        *team_rows(),
        *post_training_rows(),
        *benchmark_rows(),
        *adaptation_rows(),
        *project_rows(seed),
    ]
