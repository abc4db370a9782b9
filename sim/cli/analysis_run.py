"""What ``sweep`` and ``sensitivity`` need of pandas and the model once they run.

Imported in the commands' bodies (:mod:`sim.cli.analysis`), so their ``--help`` does not
load pandas.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd

from sim.cli.common import UserError
from sim.compare.analysis import LEVER_RANGES, LeverRange
from sim.compare.sweep import parse_axis


def write_csv(frame: pd.DataFrame, path: Path | None) -> None:
    """Write ``frame`` to ``--csv PATH`` when one was given."""
    if path is None:
        return
    try:
        frame.to_csv(path, index=False)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


def lever_ranges(levers: list[str] | None) -> tuple[LeverRange, ...]:
    """The ``--lever PATH=LOW,HIGH`` swings, or the standard levers when none is given."""
    if not levers:
        return LEVER_RANGES
    out = []
    for text in levers:
        axis = parse_axis(text)
        if len(axis.values) != 2:
            raise UserError(f"--lever {text!r}: give exactly two values, LOW,HIGH")
        out.append(LeverRange(axis.path, *axis.values))
    return tuple(out)


#: A design whose mean tokens trained or post-training rounds differ from the reference's
#: by more than this share did another amount of work, and the output says so.
SCOPE_SHARE = 0.05


def tokens(billions: float) -> str:
    """Tokens in words a reader compares at a glance: ``3.3T``, ``800B``."""
    return f"{billions / 1000:.1f}T" if billions >= 1000 else f"{billions:.0f}B"


#: What a plan's scope is measured by: the column, and how to say an amount of it.
_SCOPE: tuple[tuple[str, Callable[[float], str]], ...] = (
    ("tokens_b", lambda v: f"trained {tokens(v)} tokens"),
    ("post_training_rounds", lambda v: f"did {v:.1f} post-training rounds"),
)


def _amount(said: str) -> str:
    """The amount alone of "trained 4.1T tokens" ("4.1T") or "did 4.5 post-training rounds"."""
    return said.split(" ", 2)[1]


def scope_notes(
    frames: Mapping[str, pd.DataFrame], reference: str, label: Callable[[str], str]
) -> list[str]:
    """A line for each design whose scope differs from ``reference``'s.

    Scope is the tokens trained and the post-training rounds done. A plan cut to fit
    the budget finishes sooner and costs less by doing less: a gain that reads as a
    better practice unless the output names the scope where it shows.
    """
    out = []
    for name, df in frames.items():
        if name == reference:
            continue
        said = []
        for column, words in _SCOPE:
            value = float(df[column].astype(float).mean())
            ref = float(frames[reference][column].astype(float).mean())
            if abs(value - ref) > SCOPE_SHARE * max(abs(ref), 1e-9):
                said.append(f"{words(value)} on average, not {_amount(words(ref))}")
                less = value < ref
        if said:
            out.append(
                f"Scope differs: {label(name)} " + " and ".join(said) + f" ({label(reference)}), "
                f"so part of its time and cost is {'doing less' if less else 'doing more'}."
            )
    return out
