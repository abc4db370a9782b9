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
        stdout.print(f"{mark} {r.name} [{r.basis}]", markup=False, highlight=False)
        stdout.print(
            f"    published {_published(r)}, model {_value(r.model, r.unit)}, tolerance "
            f"{r.tolerance.describe()} ({r.unit}; {r.source}); {r.basis}: {r.basis_why}",
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
    for line in headline(rows):
        stdout.print(line, markup=False, highlight=False)


#: What each basis means, in the words the summary uses.
BASIS_WORDS = {
    "test": "out-of-sample tests (nothing was set from them)",
    "fit": "fits (a constant was set from the figure: it shows the fit took)",
    "identity": "identities (they restate an input or another row: no evidence)",
}


def counts(rows: list[CalibrationRow]) -> dict[str, dict[str, int]]:
    """Rows and rows within tolerance, by basis (``--json``'s ``summary``)."""
    return {
        b: {
            "rows": sum(r.basis == b for r in rows),
            "within": sum(r.basis == b and r.within for r in rows),
        }
        for b in BASIS_WORDS
    }


def headline(rows: list[CalibrationRow]) -> list[str]:
    """The verdict counts only tests; fits and identities are listed beside it."""
    c = counts(rows)
    test = c["test"]
    lines = [
        f"Validated: {test['within']} of {test['rows']} {BASIS_WORDS['test']} within tolerance."
    ]
    for b in ("fit", "identity"):
        lines.append(f"Not evidence: {c[b]['within']} of {c[b]['rows']} {BASIS_WORDS[b]} met.")
    lines.append("Each row's basis and what was set from it: docs/model.md, 'Calibration'.")
    return lines


def _show_table(rows: list[CalibrationRow]) -> None:
    cells = (
        (
            f"{r.name}\n  {r.unit} · {r.source}\n  {r.basis}: {r.basis_why}",
            _published(r),
            _value(r.model, r.unit),
            r.tolerance.describe(),
            "yes" if r.within else "NO",
            r.basis,
        )
        for r in rows
    )
    table(
        "Calibration: published figures and the model",
        cells,
        ("figure (unit · source · basis)", "published", "model", "tolerance", "within", "basis"),
    )
