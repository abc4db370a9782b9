"""The audit: no free lunch and no cliff, proved on a scenario (``sim audit``).

For each good practice the docs claim (:mod:`sim.audit.practices`: each owner, each gate,
early product evals, decontamination, safety from the start, embedded engineering, a
reserve, ablations, data work, the playbook), the design with it and the design without
it run through the same worlds (common random numbers) and are compared as ``sim
compare`` compares two designs: paired 95% intervals, Holm-adjusted, "clear" only when
clear and material. The removal is then:

- a **free lunch** when it is clearly better on something (cheaper, sooner, more often
  on target) and clearly worse on nothing: the model pays for dropping the practice;
- **pays** when the practice is clearly better on something and worse on nothing;
- a **trade-off** when each side is clearly better on something;
- **inert** when the two designs play every world identically (the practice does
  nothing in this model);
- **not settled** otherwise (nothing clear on these worlds).

Then every numeric lever is swept over its range for cliffs (:mod:`sim.audit.cliffs`).
Both arms' tokens trained and post-training rounds are reported (equal scope).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.audit.cliffs import Cliff, Sweep, numeric_levers, sweep
from sim.audit.practices import Practice, Skipped, practices
from sim.compare.inference import CLEAR, compared_metrics, paired
from sim.runner import run_designs
from sim.scenario.spec import Scenario

__all__ = ["AuditReport", "PracticeResult", "audit", "judge_practice"]

FREE_LUNCH, PAYS, TRADE_OFF, INERT, NOT_SETTLED = (
    "free lunch", "pays", "trade-off", "inert", "not settled",
)  # fmt: skip


@dataclass(frozen=True)
class PracticeResult:
    """A practice against its removal on the same worlds (B = without, A = with)."""

    id: str
    label: str
    removal: str
    verdict: str
    #: Outcomes the removal is clearly better on, and clearly worse on.
    gains: tuple[str, ...]
    losses: tuple[str, ...]
    #: Per outcome: the removal's mean change (without minus with), its interval, verdict.
    rows: dict[str, dict[str, Any]]
    #: Scope of both arms: tokens trained and post-training rounds (means over worlds).
    scope: dict[str, float]

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class AuditReport:
    scenario: str
    worlds: int
    seed: int
    results: tuple[PracticeResult, ...]
    skipped: tuple[Skipped, ...]
    sweeps: tuple[Sweep, ...] = ()
    cliffs: tuple[Cliff, ...] = ()
    sweep_worlds: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def free_lunches(self) -> tuple[PracticeResult, ...]:
        return tuple(r for r in self.results if r.verdict == FREE_LUNCH)

    @property
    def passed(self) -> bool:
        """No free lunch, no cliff and no reversal: the model's first rule holds here."""
        return not self.free_lunches and not self.cliffs

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "worlds": self.worlds,
            "seed": self.seed,
            "passed": self.passed,
            "counts": self.counts,
            "practices": [r.as_dict() for r in self.results],
            "skipped": [{"id": s.id, "why": s.why} for s in self.skipped],
            "sweep_worlds": self.sweep_worlds,
            "sweeps": [
                {
                    "lever": w.lever,
                    "values": list(w.values),
                    "means": {k: list(v) for k, v in w.means.items()},
                    "skipped": w.skipped,
                }
                for w in self.sweeps
            ],  # fmt: skip
            "cliffs": [c.as_dict() for c in self.cliffs],
        }


def _better(metric: str, mean: float, scenario: Scenario) -> bool:
    """Whether a change of ``mean`` in ``metric`` is for the better."""
    better = next(m.better for m in compared_metrics(scenario) if m.key == metric)
    return mean < 0 if better == "lower" else mean > 0


def judge_practice(rows: dict[str, dict[str, Any]], scenario: Scenario, identical: bool) -> tuple[
    str, tuple[str, ...], tuple[str, ...]
]:  # fmt: skip
    """The removal's verdict from its paired rows (B = without): verdict, gains, losses.

    A free lunch gains clearly and loses nothing that matters: no outcome is clearly worse,
    and none is worse on average by its margin or more while its worlds cannot yet tell
    (a rare, dear defect the practice prevents shows in a few worlds only; right before
    bold, such a removal is not settled until more worlds say whether the loss is real).
    """
    if identical:
        return INERT, (), ()
    gains: list[str] = []
    losses: list[str] = []
    possible: list[str] = []
    for metric, r in rows.items():
        mean = float(r.get("mean", 0.0))
        if mean == 0.0:
            continue
        better = _better(metric, mean, scenario)
        if r.get("verdict") == CLEAR:
            (gains if better else losses).append(metric)
        elif not better and abs(mean) >= float(r.get("margin", 0.0) or 0.0) > 0.0:
            possible.append(metric)
    if gains and not losses and possible:
        verdict = NOT_SETTLED
    elif gains and not losses:
        verdict = FREE_LUNCH
    elif losses and not gains:
        verdict = PAYS
    elif gains and losses:
        verdict = TRADE_OFF
    else:
        verdict = NOT_SETTLED
    return verdict, tuple(gains), tuple(losses)


def _scope(frames: dict[str, Any]) -> dict[str, float]:
    out: dict[str, float] = {}
    for arm in ("with", "without"):
        df = frames[arm]
        out[f"tokens_b_{arm}"] = float(df["tokens_b"].mean())
        out[f"post_training_rounds_{arm}"] = float(df["post_training_rounds"].mean())
    return out


def released(df: pd.DataFrame) -> pd.DataFrame:
    """Target scores as the product shows them after release, not as leaked items read.

    A removal that raises only a measured score gains nothing.
    """
    out = df.copy()
    for col in df.columns:
        if col.startswith("release:"):
            out["score:" + col.removeprefix("release:")] = df[col]
    return out


class Worlds:
    """Each design played once through the same worlds, however many practices it is an arm of.

    The scenario as it stands is one arm of nearly every practice (the side that follows
    it or the side that does not), so an audit plays it once, not once a practice. A
    design's frame does not depend on the designs run beside it (common random numbers).
    """

    def __init__(self, worlds: int, seed: int) -> None:
        self.worlds, self.seed = worlds, seed
        self._frames: dict[str, pd.DataFrame] = {}

    def frame(self, design: Scenario) -> pd.DataFrame:
        """``design``'s worlds, with the target scores as released (:func:`released`)."""
        key = design.model_dump_json()
        if key not in self._frames:
            df = run_designs({"design": design}, self.worlds, self.seed)["design"]
            self._frames[key] = released(df)
        return self._frames[key]


def compare_practice(
    p: Practice, worlds: int, seed: int, played: Worlds | None = None
) -> PracticeResult:
    """``p`` with and without, on the same ``worlds`` (``played``: designs already run)."""
    played = played or Worlds(worlds, seed)
    frames = {"with": played.frame(p.with_), "without": played.frame(p.without)}
    rows = paired(frames["with"], frames["without"], p.with_)
    keys = [m.key for m in compared_metrics(p.with_)]
    a, b = frames["with"], frames["without"]
    identical = all(
        np.array_equal(a[k].to_numpy(float), b[k].to_numpy(float)) for k in keys if k in a
    )
    verdict, gains, losses = judge_practice(rows, p.with_, identical)
    return PracticeResult(p.id, p.label, p.removal, verdict, gains, losses, rows, _scope(frames))


def chosen_by(option: str, practice_id: str) -> bool:
    """``--only``: a practice's id, or a family's prefix ending in ``:`` (``owner:``)."""
    return practice_id == option or (option.endswith(":") and practice_id.startswith(option))


def audit(
    scenario: Scenario,
    worlds: int = 200,
    seed: int = 0,
    *,
    sweep_worlds: int | None = None,
    cliffs: bool = True,
    only: Sequence[str] = (),
    progress: Callable[[str, int, int], None] | None = None,
) -> AuditReport:
    """Every practice against its removal, and (``cliffs``) every numeric lever swept.

    ``only``: practice ids (or families such as ``owner:``) to audit; all by default.
    ``progress(what, done, total)`` is called after each comparison and each sweep.
    """
    built = practices(scenario)
    chosen = [p for p in built if not only or any(chosen_by(o, p.id) for o in only)]
    todo = [p for p in chosen if isinstance(p, Practice)]
    levers = numeric_levers() if cliffs else ()
    total = len(todo) + len(levers)
    results, played = [], Worlds(worlds, seed)
    for i, p in enumerate(todo, 1):
        results.append(compare_practice(p, worlds, seed, played))
        if progress:
            progress(p.label, i, total)
    sweeps, found = [], []
    per_point = sweep_worlds or max(20, worlds // 4)
    for j, lever in enumerate(levers, len(todo) + 1):
        if lever.needs is not None:
            continue  # acts only through another lever the base may leave at 0
        w, c = sweep(scenario, lever, per_point, seed)
        sweeps.append(w)
        found += c
        if progress:
            progress(f"sweep {lever.name}", j, total)
    counts = {v: sum(r.verdict == v for r in results)
              for v in (FREE_LUNCH, PAYS, TRADE_OFF, INERT, NOT_SETTLED)}  # fmt: skip
    counts["cliffs"] = sum(c.kind == "cliff" for c in found)
    counts["reversals"] = sum(c.kind == "reversal" for c in found)
    return AuditReport(
        scenario.name, worlds, seed, tuple(results),
        tuple(p for p in chosen if isinstance(p, Skipped)),
        tuple(sweeps), tuple(found), per_point if cliffs else 0, counts,
    )  # fmt: skip
