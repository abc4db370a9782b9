"""What a play records: flat, immutable facts, turned into tables only at the end."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from sim.units import Days, Usd

CostCategory = Literal["compute", "people", "data_licensing", "annotation"]
COST_CATEGORIES: tuple[CostCategory, ...] = ("compute", "people", "data_licensing", "annotation")


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
    """Money spent in one category at ``day``."""

    day: Days
    category: CostCategory
    usd: Usd
    note: str


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


class Ledger:
    """Spending by category against a budget that cuts can lower."""

    def __init__(self, budget_usd: Usd, reserve_usd: Usd) -> None:
        self.budget_usd = budget_usd
        self.reserve_usd = reserve_usd
        self.entries: list[LedgerEntry] = []
        self.totals: dict[CostCategory, Usd] = dict.fromkeys(COST_CATEGORIES, 0.0)

    def charge(self, day: Days, category: CostCategory, usd: Usd, note: str) -> None:
        if usd < 0:
            raise ValueError(f"negative charge {usd} for {note}")
        if usd == 0:
            return
        self.entries.append(LedgerEntry(day, category, usd, note))
        self.totals[category] += usd

    def cut_budget(self, usd: Usd) -> None:
        """Leadership takes ``usd`` away from the budget."""
        self.budget_usd -= usd

    @property
    def spent_usd(self) -> Usd:
        return sum(self.totals.values())

    def spent_by(self, day: Days) -> dict[str, Usd]:
        out: dict[str, Usd] = dict.fromkeys(COST_CATEGORIES, 0.0)
        for e in self.entries:
            if e.day <= day:
                out[e.category] += e.usd
        return out
