"""Model quality: scaling-law loss, capabilities, and the evals that measure them.

Equations and sources: docs/model.md, "Quality".
"""

from __future__ import annotations

# Chinchilla parametric fit (Hoffmann et al., 2022): L(N, D) = E + A / N^alpha + B / D^beta.
CHINCHILLA_E = 1.69
CHINCHILLA_A = 406.4
CHINCHILLA_B = 410.7
CHINCHILLA_ALPHA = 0.34
CHINCHILLA_BETA = 0.28


def chinchilla_loss(params: float, tokens: float) -> float:
    """Pretraining loss for ``params`` parameters trained on ``tokens`` (effective) tokens."""
    if params <= 0 or tokens <= 0:
        raise ValueError("params and tokens must be positive")
    return (
        CHINCHILLA_E
        + CHINCHILLA_A / params**CHINCHILLA_ALPHA
        + CHINCHILLA_B / tokens**CHINCHILLA_BETA
    )
