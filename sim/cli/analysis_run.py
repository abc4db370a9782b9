"""What ``sweep`` and ``sensitivity`` need of pandas and the model once they run.

Imported in the commands' bodies (:mod:`sim.cli.analysis`), so their ``--help`` does not
load pandas.
"""

from __future__ import annotations

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
