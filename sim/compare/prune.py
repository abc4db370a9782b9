"""Pruning a search's winner to the changes that pay, and what each change is worth.

A search's winner changes many things at once, most of them by chance (TPE's first trials
are random, and a change that does nothing costs the winner nothing). Greedy backward
elimination on fresh paired worlds (a seed of their own, neither the search's nor the
confirmation's) keeps only the changes that pay:

1. measure each change's worth in the current design: the objective with it minus without
   it, on the same worlds (Tango's paired interval and test, :func:`paired_proportion`);
2. walk the changes from the least worth up, and drop each one whose removal, from the
   design as it then stands, does not hurt beyond noise (not clear at :data:`ALPHA`);
3. repeat until a round drops nothing: every change left pays.

A change a team lead would question (:func:`doubt`: a team cut to one person, a decision
right moved farther from where its signals arise, a risk left unowned) must pay clearly,
at :data:`QUESTION_ALPHA`, and is reported with the reason and its worth. A right moved
*nearer* the work, or as near, is an ordinary change: where a kind's signals arise is
measured on the base's own worlds (:func:`signal_sources`), not assumed.

The importance of each change of the winner is measured the same way, on/off on common
worlds: its worth added alone to the baseline (first in Shapley's orders) and removed from
the winner (last), and their average with a paired interval (:func:`on_off`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from sim.compare.editing import readable_changes
from sim.compare.space import Constraints, violation
from sim.designs import Delta, apply_delta
from sim.engine.model import ProjectModel
from sim.engine.org import OrgGraph
from sim.intervals import ALPHA, paired_mean, paired_proportion
from sim.runner import run_on
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario
from sim.units import HOURS_PER_DAY

#: The pruning's worlds come from this seed offset: fresh, neither the search's worlds nor
#: the confirmation's (which then judge the pruned design without having chosen it).
PRUNE_SEED_OFFSET = 2_000_029
#: The bar for a change a team lead would question: clear at a fifth of the usual rate.
QUESTION_ALPHA = ALPHA / 5
#: The playbook is one field of the delta; pruning takes each decision kind's entry apart.
PLAYBOOK = "levers.playbook"
#: Worlds of the base played to find where each kind of decision's signals arise.
SOURCE_WORLDS = 20
#: A moved right is "farther from the work" when its signals take this much longer to reach
#: the new holder and be looked at than the base's holder (days): a quarter of a day, below
#: which the move changes no decision's timing by more than a working morning.
FARTHER_DAYS = 0.25


@dataclass(frozen=True)
class Change:
    """One change of a design: a delta path (``levers.playbook:KIND`` for a playbook entry)."""

    key: str
    value: Any
    words: str
    #: Why a team lead would question it; None when nobody would.
    doubt: str | None = None


@dataclass(frozen=True)
class Worth:
    """What a change adds to the objective: with it minus without it, on the same worlds."""

    mean: float
    low: float
    high: float
    p_value: float
    rough: bool
    n: int

    def pays(self, alpha: float = ALPHA) -> bool:
        """Clearly positive: the test is clear at ``alpha`` on enough differing worlds."""
        return self.mean > 0 and self.p_value < alpha and not self.rough

    def as_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "low": self.low,
            "high": self.high,
            "p_value": self.p_value,
            "rough": self.rough,
            "worlds": self.n,
        }


def worth(with_it: pd.Series, without: pd.Series) -> Worth:
    """The paired worth of a change on a 0/1 objective: P(with) - P(without)."""
    r = paired_proportion(without.to_numpy(float), with_it.to_numpy(float))
    return Worth(
        float(r["mean"]),
        float(r["low"]),
        float(r["high"]),
        float(r["p_value"]),
        bool(r["rough"]),
        int(r["n"]),
    )


# --- changes: a delta taken apart and put together ------------------------------------------


@lru_cache(maxsize=16)
def _sources(scenario_json: str) -> dict[str, dict[str, int]]:
    base = Scenario.model_validate_json(scenario_json)
    seen: dict[str, Counter[str]] = {}
    for rep in range(SOURCE_WORLDS):
        model = ProjectModel(base, seed=0, replication=rep, decider="playbook", observed=False)
        model.env.run()
        for d in model.recording.decisions:
            seen.setdefault(d.kind, Counter())[d.detected_by] += 1
    return {kind: dict(c) for kind, c in seen.items()}


def signal_sources(base: Scenario) -> dict[str, dict[str, int]]:
    """Where each kind of decision's signals arise, on the base's own worlds.

    Detecting team -> count over the base's first :data:`SOURCE_WORLDS` worlds under the
    playbook (cached per scenario).
    """
    return _sources(base.model_dump_json())


def reach_days(base: Scenario, kind: str, holder: str) -> float:
    """Mean days before ``holder`` sees a ``kind`` signal.

    The trip along the org graph from the teams that detect it (weighted by how often each
    does) and half the holder's watch interval, as the engine's decision latency counts
    them. A kind that never arose in the base's worlds is taken to arise with the team
    running training.
    """
    org = OrgGraph(base)
    sources = signal_sources(base).get(kind) or {org.training_team: 1}
    total = sum(sources.values())
    trip = sum(n * org.signal_latency(src, holder) for src, n in sources.items()) / total
    return trip + org.teams[holder].watch_hours / HOURS_PER_DAY / 2.0


def doubt(base: Scenario, key: str, value: Any) -> str | None:
    """Why a team lead would question this change of ``base``, or None."""
    if key.startswith("org.teams.") and key.endswith(".headcount") and int(value) == 1:
        team = key.removeprefix("org.teams.").removesuffix(".headcount")
        return f"cuts {team} to one person (a single point of failure)"
    if key.startswith("org.risk_owners.") and value is None:
        return f"leaves the {key.rsplit('.', 1)[1]} risk unowned"
    if key.startswith("org.decision_rights."):
        kind = key.rsplit(".", 1)[1]
        held = str(base.org.decision_rights[kind])  # type: ignore[index]
        before, after = reach_days(base, kind, held), reach_days(base, kind, str(value))
        if after - before <= FARTHER_DAYS:
            return None
        return (
            f"moves the {kind} right from {held} to {value}, farther from where its signals "
            f"arise ({after:.2g} days to reach and be seen, against {before:.2g})"
        )
    return None


def _words(base: Scenario, delta: Delta) -> str:
    try:
        return "; ".join(readable_changes(base, apply_delta(base, delta))) or str(delta)
    except ScenarioError:
        return ", ".join(f"{k} = {v}" for k, v in delta.items())


def changes_of(base: Scenario, delta: Mapping[str, Any]) -> list[Change]:
    """``delta`` as separate changes, each playbook entry apart, in the delta's order."""
    out: list[Change] = []
    for key, value in delta.items():
        if key != PLAYBOOK:
            out.append(Change(key, value, _words(base, {key: value}), doubt(base, key, value)))
            continue
        old = {str(k): list(v) for k, v in base.levers.playbook.items()}
        new = {str(k): list(v) for k, v in value.items()}
        for kind in sorted(set(old) | set(new)):
            if old.get(kind) != new.get(kind):
                one = combine(base, [Change(f"{PLAYBOOK}:{kind}", new.get(kind), "")])
                out.append(Change(f"{PLAYBOOK}:{kind}", new.get(kind), _words(base, one)))
    return out


def combine(base: Scenario, changes: Sequence[Change]) -> Delta:
    """The delta of a set of changes (playbook entries merged into one playbook)."""
    delta: Delta = {}
    playbook = {str(k): list(v) for k, v in base.levers.playbook.items()}
    touched = False
    for c in changes:
        if c.key.startswith(f"{PLAYBOOK}:"):
            kind = c.key.partition(":")[2]
            touched = True
            if c.value is None:
                playbook.pop(kind, None)
            else:
                playbook[kind] = list(c.value)
        else:
            delta[c.key] = c.value
    if touched:
        delta[PLAYBOOK] = playbook
    return delta


# --- pruning ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One test of the pruning: a change's worth in the design as it then stood."""

    round: int
    change: Change
    worth: Worth | None
    dropped: bool
    why: str


@dataclass
class Pruned:
    """The changes kept (each pays), those dropped, and the steps that decided it."""

    kept: list[Change]
    dropped: list[Change]
    steps: list[Step]
    seed: int
    reps: int
    designs_run: int
    #: The kept changes as one design delta.
    delta: Delta
    #: Each kept change's worth in the final design, on the pruning's worlds.
    final: dict[str, Worth | None] = field(default_factory=dict)


class _Worlds:
    """Designs played on one set of worlds, each set of changes once."""

    def __init__(
        self,
        base: Scenario,
        column: str,
        reps: int,
        seed: int,
        constraints: Constraints,
        pool: Executor | None,
        workers: int,
    ) -> None:
        self.base, self.column, self.reps, self.seed = base, column, reps, seed
        self.constraints, self.pool, self.workers = constraints, pool, workers
        self.frames: dict[frozenset[str], pd.Series] = {}

    def design(self, changes: Sequence[Change]) -> Scenario | str:
        """The validated design, or why it cannot be played (invalid, or breaks a cap)."""
        try:
            d = apply_delta(self.base, combine(self.base, changes), name="pruning")
        except ScenarioError as exc:
            return f"the design is not valid without it ({exc.problems[0].reason})"
        if violation(d, self.constraints) > 0:
            return "the design breaks the headcount or payroll cap without it"
        return d

    def play(self, many: Sequence[Sequence[Change]]) -> dict[frozenset[str], pd.Series | str]:
        """The objective column of each set of changes (or why it cannot be played)."""
        out: dict[frozenset[str], pd.Series | str] = {}
        todo: dict[str, Scenario] = {}
        names: dict[str, frozenset[str]] = {}
        for changes in many:
            key = frozenset(c.key for c in changes)
            if key in self.frames:
                out[key] = self.frames[key]
                continue
            d = self.design(changes)
            if isinstance(d, str):
                out[key] = d
                continue
            name = f"set {len(todo)}"
            todo[name], names[name] = d, key
        if todo:
            ran = run_on(self.pool, todo, range(self.reps), self.seed, workers=self.workers)
            for name, frame in ran.items():
                self.frames[names[name]] = frame[self.column].reset_index(drop=True)
                out[names[name]] = self.frames[names[name]]
        return out


def _key(changes: Sequence[Change]) -> frozenset[str]:
    return frozenset(c.key for c in changes)


def _bar(c: Change) -> float:
    return QUESTION_ALPHA if c.doubt else ALPHA


def _leave_one_out(w: _Worlds, current: list[Change]) -> dict[str, Worth | str]:
    sets = [current] + [[o for o in current if o is not c] for c in current]
    played = w.play(sets)
    now = played[_key(current)]
    assert not isinstance(now, str)
    out: dict[str, Worth | str] = {}
    for c in current:
        without = played[_key([o for o in current if o is not c])]
        out[c.key] = without if isinstance(without, str) else worth(now, without)
    return out


def prune(
    base: Scenario,
    delta: Mapping[str, Any],
    column: str,
    reps: int,
    seed: int,
    constraints: Constraints | None = None,
    pool: Executor | None = None,
    workers: int = 1,
) -> tuple[Pruned, dict[str, Any]]:
    """Greedy backward elimination of ``delta``'s changes on ``reps`` fresh worlds.

    Returns the pruning and the on/off importance of every change (:func:`on_off`), both
    measured on the same worlds.
    """
    w = _Worlds(base, column, reps, seed, constraints or Constraints(), pool, workers)
    everything = changes_of(base, delta)
    current = list(everything)
    steps: list[Step] = []
    rnd = 0
    while True:
        rnd += 1
        loo = _leave_one_out(w, current) if current else {}
        order = sorted(current, key=lambda c: _order(loo[c.key]))
        dropped_any = False
        for c in order:
            if c not in current:
                continue
            without = [o for o in current if o is not c]
            played = w.play([current, without])
            now, off = played[_key(current)], played[_key(without)]
            assert not isinstance(now, str)
            if isinstance(off, str):
                steps.append(Step(rnd, c, None, False, f"kept: {off}"))
                continue
            wv = worth(now, off)
            if wv.pays(_bar(c)):
                why = "kept: it pays" + (f", clearly, though it {c.doubt}" if c.doubt else "")
                steps.append(Step(rnd, c, wv, False, why))
                continue
            why = "dropped: its removal does not hurt beyond noise"
            if c.doubt and wv.pays(ALPHA):
                why = f"dropped: it {c.doubt}, and it does not pay clearly enough for that"
            steps.append(Step(rnd, c, wv, True, why))
            current = without
            dropped_any = True
        if not dropped_any or not current:
            back = _re_add(w, everything, current, rnd, steps)
            if back is None:
                break
            current = back
    final = _leave_one_out(w, current) if current else {}
    pruned = Pruned(
        kept=current,
        dropped=[c for c in everything if c not in current],
        steps=steps,
        seed=seed,
        reps=reps,
        designs_run=len(w.frames),
        delta=combine(base, current),
        final={k: (v if isinstance(v, Worth) else None) for k, v in final.items()},
    )
    return pruned, on_off(w, everything)


#: How many times a dropped change may come back (stepwise selection, both ways).
RE_ADD_ROUNDS = 3


def _re_add(
    w: _Worlds, everything: list[Change], current: list[Change], rnd: int, steps: list[Step]
) -> list[Change] | None:
    """A dropped change that pays once the changes masking it are gone, added back; or None.

    A change can look worthless beside a harmful one that is dropped after it, so the
    elimination is followed by a forward step: the dropped change that adds most, when it
    pays at its bar, comes back and the elimination runs again.
    """
    if sum(1 for st in steps if st.why.startswith("kept: added back")) >= RE_ADD_ROUNDS:
        return None
    out = [c for c in everything if c not in current]
    sets = [current] + [[*current, c] for c in out]
    played = w.play(sets)
    now = played[_key(current)]
    if isinstance(now, str):
        return None
    best: tuple[float, Change, Worth] | None = None
    for c in out:
        on = played[_key([*current, c])]
        if isinstance(on, str):
            continue
        wv = worth(on, now)
        if wv.pays(_bar(c)) and (best is None or wv.mean > best[0]):
            best = (wv.mean, c, wv)
    if best is None:
        return None
    steps.append(Step(rnd, best[1], best[2], False, "kept: added back, it pays without the rest"))
    return [c for c in everything if c in current or c is best[1]]


def _order(v: Worth | str) -> float:
    return float("inf") if isinstance(v, str) else v.mean


# --- importance: on/off on common worlds -----------------------------------------------------

ON_OFF_METHOD = (
    "paired on/off differences on common worlds: each change of the search's best design "
    "added alone to the baseline (first in Shapley's orders) and removed from the best "
    "design (last); ranked by their average, with a paired t interval over the worlds"
)


def on_off(w: _Worlds, everything: Sequence[Change]) -> dict[str, Any]:
    """Each change's on/off worth, alone on the baseline and in the winner; best first."""
    if not everything:
        return {"method": ON_OFF_METHOD, "params": []}
    rest = {c.key: [o for o in everything if o is not c] for c in everything}
    played = w.play([[], list(everything), *([c] for c in everything), *rest.values()])
    baseline, winner = played[frozenset()], played[_key(everything)]
    assert not isinstance(baseline, str) and not isinstance(winner, str)
    rows = []
    for c in everything:
        alone = played[_key([c])]
        off = played[_key(rest[c.key])]
        row: dict[str, Any] = {"choice": c.key, "what": c.words, "doubt": c.doubt}
        parts = []
        if not isinstance(alone, str):
            row["alone"] = worth(alone, baseline).as_json()
            parts.append(alone.to_numpy(float) - baseline.to_numpy(float))
        if not isinstance(off, str):
            row["in_best"] = worth(winner, off).as_json()
            parts.append(winner.to_numpy(float) - off.to_numpy(float))
        if not parts:
            continue
        avg = np.mean(parts, axis=0)
        r = paired_mean(np.zeros_like(avg), avg)
        row.update(importance=float(r["mean"]), low=float(r["low"]), high=float(r["high"]))
        rows.append(row)
    rows.sort(key=lambda r: -r["importance"])
    for i, r in enumerate(rows, start=1):
        r["rank"] = i
    return {"method": ON_OFF_METHOD, "params": rows}
