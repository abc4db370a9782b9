"""The room's calls against the playbook's on the same simulated worlds, and the verdict.

Every finding on a call rests on this comparison and nothing smaller: the same
replications (common random numbers) played once with the room's calls and once with
the playbook's, at least :data:`FINDING_WORLDS` of them, and the paired difference of the
finish day, the cost and the chance of each objective, each with its 95% interval
(:func:`sim.intervals.paired_mean` for days and money, Tango's score interval,
:func:`sim.intervals.paired_proportion`, for chances). A difference is *clear* when its
test, Holm-adjusted over the measures compared, is below 5% and enough worlds carry it
(a row the interval module calls ``rough`` never is). The verdict reads only clear
differences: worse on some and better on none is "worse", the reverse "better", both a
"trade-off", neither "no clear difference". One replayed world (the exercise's own) may
be shown beside it as an illustration; it is never the basis of a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from sim import names
from sim.intervals import ALPHA, holm, paired_mean, paired_proportion
from sim.tabletop.report.hseep import OBJECTIVE_COLUMN, OBJECTIVES

#: Fewer worlds than this and no verdict is given on a call (issue 27.5: at least 100).
FINDING_WORLDS = names.TABLETOP_REPS
#: The verdicts, from the clear differences only.
VERDICTS = ("worse", "better", "trade-off", "no clear difference", "too few worlds")
#: The measures compared, and which way is worse (+1: more is worse).
MEASURES = {"days": 1, "cost_usd": 1}


@dataclass(frozen=True)
class Versus:
    """The room (B) minus the playbook (A) on the same ``reps`` worlds."""

    reps: int
    #: Finish day and cost: :func:`sim.intervals.paired_mean` rows (mean, low, high, ...).
    days: dict[str, Any]
    cost_usd: dict[str, Any]
    #: Each objective's chance: :func:`sim.intervals.paired_proportion` rows.
    chances: dict[str, dict[str, Any]]
    #: Holm-adjusted p-value of each measure ("days", "cost_usd", then each objective).
    adjusted: dict[str, float]

    def rows(self) -> dict[str, dict[str, Any]]:
        return {"days": self.days, "cost_usd": self.cost_usd, **self.chances}

    def clear(self, measure: str) -> bool:
        row = self.rows()[measure]
        return (
            self.reps >= FINDING_WORLDS
            and not row.get("rough", False)
            and self.adjusted.get(measure, 1.0) < ALPHA
            and (row["low"] > 0 or row["high"] < 0)
        )

    def worse_on(self) -> tuple[str, ...]:
        return tuple(m for m in self.rows() if self.clear(m) and _bad(m, self.rows()[m]["mean"]))

    def better_on(self) -> tuple[str, ...]:
        return tuple(
            m for m in self.rows() if self.clear(m) and not _bad(m, self.rows()[m]["mean"])
        )

    @property
    def verdict(self) -> str:
        if self.reps < FINDING_WORLDS:
            return "too few worlds"
        worse, better = self.worse_on(), self.better_on()
        if worse and better:
            return "trade-off"
        return "worse" if worse else "better" if better else "no clear difference"


def _bad(measure: str, mean: float) -> bool:
    """Whether a difference of ``mean`` in ``measure`` is the worse way."""
    return mean > 0 if measure in MEASURES else mean < 0


def compare(playbook: pd.DataFrame, room: pd.DataFrame) -> Versus:
    """``room`` minus ``playbook``, row k of each the same world."""
    days = paired_mean(playbook["schedule_days"], room["schedule_days"])
    cost = paired_mean(playbook["cost_usd"], room["cost_usd"])
    chances = {
        o: paired_proportion(playbook[c].astype(float), room[c].astype(float))
        for o, c in OBJECTIVE_COLUMN.items()
    }
    rows = {"days": days, "cost_usd": cost, **chances}
    adjusted = dict(zip(rows, holm([float(r["p_value"]) for r in rows.values()]), strict=True))
    return Versus(len(room), days, cost, chances, adjusted)


def label(measure: str) -> str:
    """A measure in words: "the finish", "the cost", "the chance to finish by the deadline"."""
    if measure == "days":
        return "the finish"
    if measure == "cost_usd":
        return "the cost"
    return f"the chance to {OBJECTIVES[measure][0].lower()}"


def figure(measure: str, row: dict[str, Any]) -> str:
    """One measure's paired difference with its 95% interval, in its unit."""
    if measure == "days":
        return (f"{row['mean']:+.1f} days (95% interval {row['low']:+.1f} to "
                f"{row['high']:+.1f})")  # fmt: skip
    if measure == "cost_usd":
        return f"{_usd(row['mean'])} (95% interval {_usd(row['low'])} to {_usd(row['high'])})"
    return (f"{row['mean'] * 100:+.0f} points (95% interval {row['low'] * 100:+.0f} to "
            f"{row['high'] * 100:+.0f})")  # fmt: skip


def _usd(v: float) -> str:
    sign = "-" if v < 0 else "+"
    return f"{sign}${abs(v):,.0f}"


def figures(v: Versus) -> str:
    """Every measure of ``v``: finish, cost, then each objective's chance."""
    return "; ".join(f"{label(m)} {figure(m, r)}" for m, r in v.rows().items())
