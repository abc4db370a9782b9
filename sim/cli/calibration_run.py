"""How ``calibrate`` shows its figures: a table on a wide terminal, lines on a narrow one.

Imported in the command's body (:mod:`sim.cli.calibration`), so its ``--help`` does not
load the model.
"""

from __future__ import annotations

from collections.abc import Callable

from sim.calibration import CalibrationRow
from sim.cli.common import stdout, table
from sim.cli.tables import compact, money, number, percent

#: How a value of each unit is written (the unit itself is named beside the figure).
_WRITE: dict[str, Callable[[float], str]] = {
    "share of peak": percent,
    "share of wall time": percent,
    "share of compute": percent,
    "USD": money,
    "USD per GPU-hour": money,
    "FLOPs": lambda v: f"{v:.3g}",
    "GPU-hours": compact,
    "tokens": compact,
}


def _value(value: float, unit: str) -> str:
    return _WRITE.get(unit, number)(value)


def _published(row: CalibrationRow) -> str:
    if isinstance(row.published, tuple):
        low, high = row.published
        return f"{_value(low, row.unit)}–{_value(high, row.unit)}"
    return _value(row.published, row.unit)


#: Narrower than this, each figure is two or three lines of text instead of a table row.
WIDE = 120


def _show_narrow(rows: list[CalibrationRow]) -> None:
    stdout.print("Calibration: published figures and the model", style="bold", highlight=False)
    for r in rows:
        mark = "ok " if r.within else "OFF"
        stdout.print(f"{mark} {r.name}", markup=False, highlight=False)
        stdout.print(
            f"    published {_published(r)}, model {_value(r.model, r.unit)}, tolerance "
            f"{r.tolerance.describe()} ({r.unit}; {r.source})",
            markup=False,
            highlight=False,
            style="dim" if r.within else None,
        )


def show(rows: list[CalibrationRow]) -> None:
    """Each figure beside the model, as a table when the terminal is wide, else as lines."""
    if stdout.width < WIDE:
        _show_narrow(rows)
    else:
        _show_table(rows)
    for r in rows:
        if r.gap:
            stdout.print(f"known gap — {r.name}: {r.gap}", markup=False, highlight=False)
    met = sum(r.within for r in rows)
    stdout.print(f"{met} of {len(rows)} figures within tolerance (docs/model.md, 'Calibration').")


def _show_table(rows: list[CalibrationRow]) -> None:
    cells = (
        (
            f"{r.name}\n  {r.unit} · {r.source}",
            _published(r),
            _value(r.model, r.unit),
            r.tolerance.describe(),
            "yes" if r.within else "NO",
        )
        for r in rows
    )
    table(
        "Calibration: published figures and the model",
        cells,
        ("figure (unit · source)", "published", "model", "tolerance", "within"),
    )
