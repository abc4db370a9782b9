"""What a play records: flat, immutable facts, turned into tables only at the end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any, Literal

from sim.format import points_signed
from sim.format import usd as usd_text
from sim.units import Days, Usd

CostCategory = Literal["compute", "people", "data_licensing", "annotation"]
COST_CATEGORIES: tuple[CostCategory, ...] = ("compute", "people", "data_licensing", "annotation")
#: The budget plan's line a charge of each category belongs to unless it names one.
DEFAULT_LINE: dict[str, str] = {
    "compute": "run_compute",
    "people": "people",
    "data_licensing": "data",
    "annotation": "annotation",
}


@dataclass(slots=True)  # not frozen: made ~150 times a play, and frozen init is 3x slower
class TraceEvent:
    """Something that happened at ``day``: a phase boundary, an incident, a decision."""

    day: Days
    kind: str
    summary: str
    team: str | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)  # not frozen: made ~150 times a play, and frozen init is 3x slower
class LedgerEntry:
    """Money spent in one category at ``day`` (and the budget plan's line it belongs to)."""

    day: Days
    category: CostCategory
    usd: Usd
    note: str
    line: str = ""


@dataclass(slots=True)  # not frozen: made ~150 times a play, and frozen init is 3x slower
class LossPoint:
    """A point of the pretraining loss curve (tokens in billions)."""

    day: Days
    tokens_b: float
    loss: float
    spike: bool = False


@dataclass(frozen=True)
class PhaseSpan:
    phase: str
    start: Days
    end: Days


@dataclass(slots=True)  # not frozen: frozen init is 3x slower (made at every decision)
class DecisionRecord:
    """A decision as it was made: who, when, how long it took to reach them, what they chose."""

    index: int
    key: str
    kind: str
    day: Days
    raised_day: Days
    owner: str
    detected_by: str
    latency_days: Days
    options: tuple[str, ...]
    choice: str
    by: str
    context: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["options"] = list(self.options)
        return d


@dataclass(frozen=True)
class ScopeCut:
    """Scope given up to fit the budget: what, when, what it saved and what it cost.

    ``loss`` and ``score`` are the forecast change of the pretraining loss and of the mean
    target score (score: negative is worse); ``at_risk`` marks a cut whose cost is risk
    (forecast error, measurement error) rather than expected quality.
    """

    day: Days
    response: str
    when: str
    what: str
    saves_usd: Usd
    loss: float
    score: float
    days: float
    at_risk: bool = False

    def summary(self) -> str:
        cost = f"{points_signed(self.score)} quality"
        if abs(self.loss) >= 5e-4:
            cost = f"final loss {self.loss:+.3f}, " + cost
        if self.at_risk:
            cost = f"{cost} expected, more at risk"
        return f"Scope cut {self.when}: {self.what} (saves {usd_text(self.saves_usd)}; {cost})"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


#: A charge as the ledger keeps it: ``(day, category, usd, note, line)``.
Charge = tuple[Days, CostCategory, Usd, str, str]


class Ledger:
    """Spending by category against a budget that cuts can lower.

    Charges are kept as plain tuples (a frontier run makes thousands); :attr:`entries`
    turns them into :class:`LedgerEntry` records when someone reads them.
    """

    def __init__(self, budget_usd: Usd, reserve_usd: Usd, keep_entries: bool = True) -> None:
        self.budget_usd = budget_usd
        self.reserve_usd = reserve_usd
        #: Each charge, or None when the ledger keeps totals only (a batch replication
        #: nobody looks at: the totals are added in the same order, so the same numbers).
        self._charges: list[Charge] | None = [] if keep_entries else None
        self._entries: list[LedgerEntry] = []
        self.totals: dict[CostCategory, Usd] = dict.fromkeys(COST_CATEGORIES, 0.0)
        #: Spent by the budget plan's lines (sim.engine.budget.LINES).
        self.line_totals: dict[str, Usd] = {}

    @property
    def keep_entries(self) -> bool:
        """Whether each charge is kept, not only the totals."""
        return self._charges is not None

    @property
    def entries(self) -> list[LedgerEntry]:
        """Every charge so far, in the order it was made (read-only)."""
        if self._charges is None:
            raise RuntimeError("this play was not observed: its ledger keeps totals only")
        done = len(self._entries)
        if done < len(self._charges):
            self._entries.extend(LedgerEntry(*c) for c in self._charges[done:])
        return self._entries

    def charge(
        self, day: Days, category: CostCategory, usd: Usd, note: str, line: str = ""
    ) -> None:
        """Spend ``usd``; ``line`` defaults to the category's own line."""
        line = line or DEFAULT_LINE[category]
        _charge(self._charges, self.totals, self.line_totals, category, note, line, day, usd)

    def charger(
        self, category: CostCategory, note: str, line: str = ""
    ) -> Callable[[Days, Usd], None]:
        """:meth:`charge` with its category, note and line bound (for a charge every step)."""
        line = line or DEFAULT_LINE[category]
        return partial(_charge, self._charges, self.totals, self.line_totals, category, note, line)

    def open_line(
        self, category: CostCategory, line: str = ""
    ) -> tuple[str, Usd, Usd, Callable[[Charge], None] | None]:
        """Where charges made in a row on one category and line start (a run's settled stretch).

        Returns the line, the category's and the line's totals and where a charge is kept
        (None: totals only). The caller does what :meth:`charge` does for each, in order
        (a negative charge is an error, a zero one is skipped, the dollars are added to
        both totals one by one), and hands the totals back with :meth:`close_line` if it
        added any: the same records and the same sums.
        """
        line = line or DEFAULT_LINE[category]
        keep = None if self._charges is None else self._charges.append
        return line, self.totals[category], self.line_totals.get(line, 0.0), keep

    def close_line(self, category: CostCategory, line: str, total: Usd, line_total: Usd) -> None:
        """The totals of charges made since :meth:`open_line` (only if there were any)."""
        self.totals[category], self.line_totals[line] = total, line_total

    def cut_budget(self, usd: Usd) -> None:
        """Leadership takes ``usd`` away from the budget."""
        self.budget_usd -= usd

    @property
    def spent_usd(self) -> Usd:
        return sum(self.totals.values())

    def spent_by(self, day: Days) -> dict[str, Usd]:
        if self._charges is None:
            raise RuntimeError("this play was not observed: its ledger keeps totals only")
        out: dict[str, Usd] = dict.fromkeys(COST_CATEGORIES, 0.0)
        for when, category, usd, _, _ in self._charges:
            if when <= day:
                out[category] += usd
        return out


def _charge(
    charges: list[Charge] | None,
    totals: dict[CostCategory, Usd],
    line_totals: dict[str, Usd],
    category: CostCategory,
    note: str,
    line: str,
    day: Days,
    usd: Usd,
) -> None:
    """Record one charge of a ledger and add it to its category's and line's totals."""
    if usd < 0:
        raise ValueError(f"negative charge {usd} for {note}")
    if usd == 0:
        return
    if charges is not None:  # None: the ledger keeps totals only
        charges.append((day, category, usd, note, line))
    totals[category] += usd
    line_totals[line] = line_totals.get(line, 0.0) + usd


@dataclass(frozen=True)
class PlanState:
    """The parts of a play's plan that scope cuts change (sim/engine/budget.py)."""

    tokens: float
    rounds: float
    ablations: float
    eval_scope: float
    gpus: int
    hires: int


@dataclass(frozen=True)
class SetUpFit:
    """What fitting the plan to the budget at set-up did: the plan it left, what it recorded.

    The same for every replication of a scenario (the fit reads no draw), so it is made
    once (:attr:`sim.engine.facts.ScenarioFacts.set_up_fit`) and copied.
    """

    plan: PlanState
    cuts: tuple[ScopeCut, ...]
    trace: tuple[TraceEvent, ...]
    incidents: tuple[tuple[str, int], ...]
