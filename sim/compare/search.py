"""Design search: Optuna's TPE over the design space, raced on common random numbers.

Every candidate plays the same worlds (replication *k* is the same world for each), in
rungs of successive halving: first ``rungs[0]`` worlds; Optuna's
:class:`~optuna.pruners.SuccessiveHalvingPruner` keeps the best third at each rung and
stops the rest, so poor candidates cost a few worlds and the best are measured on all
of them. A trial's worlds fan out on the process pool or Dask (one executor held open
over the search).

Reproducible: the sampler is TPE re-seeded from (seed, trial number) at every trial and
trials run one after another, so a search's trials depend only on the seed, the trial
budget and the history stored before them: a search stopped after 20 trials and resumed
to 40 draws the same 40 as one run to 40, on any executor and worker count. Trials live
in Optuna's RDB storage (SQLAlchemy), by default in the database of saved sessions.

The best few designs are then confirmed on fresh worlds (a held-out seed, so the chosen
design's numbers are not flattered by having been picked on the worlds that chose it),
side by side with the baseline through :func:`sim.compare.inference.compare_designs`.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import optuna
import pandas as pd
from optuna.distributions import BaseDistribution
from optuna.samplers import BaseSampler, TPESampler
from optuna.study import Study
from optuna.trial import FrozenTrial, Trial, TrialState

from sim.compare.screen import screen, seeds
from sim.compare.space import (
    Choice,
    Constraints,
    base_params,
    delta_for,
    search_space,
    violation,
    with_budget,
)
from sim.designs import Delta, apply_delta
from sim.intervals import MIN_WORLDS
from sim.metrics import PROBABILITY_KEYS
from sim.runner import ExecutorName, Progress, open_executor, run_on
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario

log = logging.getLogger(__name__)

#: What a search can maximise: the JSON key (``p_success``...) and the outcome column behind it.
OBJECTIVE_COLUMNS: dict[str, str] = dict(
    sorted(((p, c) for c, p in PROBABILITY_KEYS.items()), key=lambda pc: pc[1] != "success")
)
#: Successive halving keeps the best 1/ETA of the candidates at each rung.
ETA = 3
#: TPE's random start-up trials before it models the good and the bad ones.
STARTUP_TRIALS = 10
#: The confirmation's worlds come from this seed offset: fresh worlds, not the search's.
CONFIRM_SEED_OFFSET = 1_000_003
#: The outcome columns a trial keeps of its worlds (for the frontier and the chart).
KEPT = (*PROBABILITY_KEYS, "cost_usd", "schedule_days")


def screen_limit(trials: int) -> int:
    """How many of a search's trials the screen may fill: a third, so TPE keeps the rest."""
    return max(1, trials // 3)


def rungs(reps: int, eta: int = ETA) -> list[int]:
    """Worlds a candidate has played at each rung: ``r0, r0*eta, ...`` and then all ``reps``."""
    first = min(reps, max(MIN_WORLDS, math.ceil(reps / eta**2)))
    out = [first]
    while out[-1] * eta < reps:
        out.append(out[-1] * eta)
    if out[-1] < reps:
        out.append(reps)
    return out


class TrialSeededTPE(BaseSampler):
    """TPE seeded afresh from ``(seed, trial number)`` for each trial.

    TPE keeps no state but its random generator (it reads the history from the
    storage), so drawing trial *n* with a generator seeded by *n* makes a resumed search
    draw what an uninterrupted one would have.
    """

    def __init__(self, seed: int, **tpe: Any) -> None:
        self._seed, self._tpe, self._by_trial = seed, tpe, dict[int, TPESampler]()

    def _for(self, trial: FrozenTrial) -> TPESampler:
        if trial.number not in self._by_trial:
            self._by_trial = {
                trial.number: TPESampler(seed=self._seed * 100_003 + trial.number, **self._tpe)
            }
        return self._by_trial[trial.number]

    def infer_relative_search_space(
        self, study: Study, trial: FrozenTrial
    ) -> dict[str, BaseDistribution]:
        return self._for(trial).infer_relative_search_space(study, trial)

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        return self._for(trial).sample_relative(study, trial, search_space)

    def sample_independent(
        self,
        study: Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        return self._for(trial).sample_independent(study, trial, param_name, param_distribution)

    def before_trial(self, study: Study, trial: FrozenTrial) -> None:
        self._for(trial).before_trial(study, trial)

    def after_trial(
        self,
        study: Study,
        trial: FrozenTrial,
        state: TrialState,
        values: Sequence[float] | None,
    ) -> None:
        self._for(trial).after_trial(study, trial, state, values)


def suggest(trial: Trial, ch: Choice) -> Any:
    """The trial's value of one choice (Optuna's suggest_* by the choice's kind)."""
    if ch.kind == "int":
        return trial.suggest_int(ch.name, int(ch.low), int(ch.high))
    if ch.kind == "float":
        return trial.suggest_float(ch.name, ch.low, ch.high)
    return trial.suggest_categorical(ch.name, list(ch.options))


@dataclass(frozen=True)
class Settings:
    """A search's settings; ``trials`` is the study's total budget (a resume runs the rest)."""

    objective: str = "p_success"
    trials: int = 40
    reps: int = 90
    seed: int = 0
    confirm_reps: int = 200
    top: int = 3
    constraints: Constraints = Constraints()
    workers: int = 1
    executor: ExecutorName = "local"
    scheduler: str | None = None
    storage: str | None = None
    study_name: str | None = None
    #: Screen every single change on paired worlds first and enqueue those that pay alone.
    screen: bool = True

    def fingerprint(self, base: Scenario) -> dict[str, Any]:
        """What a stored study must share with this search to be resumed by it."""
        return {
            "scenario": base.name,
            "objective": self.objective,
            "reps": self.reps,
            "seed": self.seed,
            "constraints": self.constraints.as_json(),
            "screen": self.screen,
        }


@dataclass(frozen=True)
class TrialRecord:
    """One candidate as the search saw it, in trial order."""

    number: int
    state: str  # complete, pruned, infeasible, failed
    params: dict[str, Any]
    worlds: int
    value: float | None
    first_rung: float | None
    cost_usd: float | None
    schedule_days: float | None
    violation: float
    delta: Delta = field(default_factory=dict)
    #: Where the candidate came from: "baseline", the screen's words for a change that
    #: paid alone ("levers.x alone", "the 2 single changes that paid, together"), or "TPE".
    origin: str = "TPE"


@dataclass
class Search:
    """A finished (or stopped) search: its study, base, space and every trial."""

    base: Scenario
    settings: Settings
    space: list[Choice]
    study: Study
    records: list[TrialRecord]

    @property
    def rungs(self) -> list[int]:
        return rungs(self.settings.reps)


def _record(base: Scenario, t: FrozenTrial) -> TrialRecord:
    attrs = t.user_attrs
    v = float(attrs.get("violation", 0.0))
    if t.state == TrialState.COMPLETE:
        state = "complete"
    elif t.state == TrialState.PRUNED:
        state = "infeasible" if v > 0 or attrs.get("invalid") else "pruned"
    else:
        state = "failed"
    steps = sorted(t.intermediate_values)
    first = t.intermediate_values[steps[0]] if steps else None
    last = t.intermediate_values[steps[-1]] if steps else None
    try:
        delta = delta_for(base, t.params)
    except (KeyError, StopIteration):
        delta = {}
    return TrialRecord(
        t.number,
        state,
        dict(t.params),
        int(steps[-1]) if steps else 0,
        t.value if t.value is not None else last,
        first,
        attrs.get("cost_usd"),
        attrs.get("schedule_days"),
        v,
        delta,
        "baseline" if attrs.get("baseline") else str(attrs.get("screen", "TPE")),
    )


def _study(base: Scenario, s: Settings) -> Study:
    sampler = TrialSeededTPE(s.seed, n_startup_trials=STARTUP_TRIALS)
    first = rungs(s.reps)[0]
    pruner = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=first, reduction_factor=ETA, min_early_stopping_rate=0, bootstrap_count=0
    )
    name = s.study_name or f"search-{base.name}-{s.seed}"
    study = optuna.create_study(
        storage=s.storage,
        study_name=name,
        direction="maximize",
        sampler=sampler,
        pruner=pruner,
        load_if_exists=s.storage is not None,
    )
    wanted = s.fingerprint(base)
    stored = study.user_attrs.get("settings")
    if stored is None:
        study.set_user_attr("settings", wanted)
    elif stored != wanted:
        diffs = [
            f"{k}: stored {stored.get(k)!r}, asked {v!r}"
            for k, v in wanted.items()
            if stored.get(k) != v
        ]
        raise ValueError(f"study {name!r} was made for another search ({'; '.join(diffs)})")
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING, TrialState.WAITING)):
        if t.state == TrialState.RUNNING:  # left by a search that was stopped mid-trial
            study.tell(t.number, state=TrialState.FAIL)
    return study


def _objective(
    base: Scenario, space: list[Choice], s: Settings, pool: Executor | None
) -> Callable[[Trial], float]:
    column = OBJECTIVE_COLUMNS[s.objective]
    steps = rungs(s.reps)

    def evaluate(trial: Trial) -> float:
        params = {ch.name: suggest(trial, ch) for ch in space}
        try:
            design = apply_delta(base, delta_for(base, params), name=f"trial {trial.number}")
        except ScenarioError as exc:
            trial.set_user_attr("invalid", exc.problems[0].reason)
            trial.set_user_attr("violation", 1.0)
            trial.set_constraint("caps", 1.0)
            raise optuna.TrialPruned() from None
        v = violation(design, s.constraints)
        trial.set_user_attr("violation", v)
        trial.set_constraint("caps", v)  # TPE learns where the caps bind
        if v > 0:
            raise optuna.TrialPruned()
        frames: list[pd.DataFrame] = []
        done, value = 0, 0.0
        for k, worlds in enumerate(steps):
            batch = run_on(pool, {"d": design}, range(done, worlds), s.seed, workers=s.workers)
            frames.append(batch["d"][list(KEPT)])
            done = worlds
            df = pd.concat(frames, ignore_index=True)
            value = float(df[column].mean())
            trial.set_user_attr("cost_usd", float(df["cost_usd"].mean()))
            trial.set_user_attr("schedule_days", float(df["schedule_days"].median()))
            trial.report(value, worlds)
            if k < len(steps) - 1 and trial.should_prune():
                raise optuna.TrialPruned()
        return value

    return evaluate


OnTrial = Callable[[TrialRecord, int, int], None]


def run_search(
    base: Scenario,
    s: Settings,
    on_trial: OnTrial | None = None,
    on_screen: Progress | None = None,
) -> Search:
    """Search the design space of ``base`` under ``s.constraints``; resume a stored study.

    ``on_screen(done, total)`` follows the screen's worlds (each stage counts afresh).
    """
    if s.objective not in OBJECTIVE_COLUMNS:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVE_COLUMNS)}")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    base = with_budget(base, s.constraints.budget_usd)
    space = search_space(base, s.constraints)
    study = _study(base, s)
    counted = (TrialState.COMPLETE, TrialState.PRUNED)
    fresh = not study.trials
    done = len(study.get_trials(deepcopy=False, states=counted))
    remaining = max(0, s.trials - done)

    def callback(study: Study, trial: FrozenTrial) -> None:
        if on_trial is not None:
            finished = len(study.get_trials(deepcopy=False, states=counted))
            on_trial(_record(base, trial), finished, s.trials)

    with open_executor(s.executor, s.workers, s.scheduler) as pool:
        if fresh and s.screen:
            found = screen(
                base,
                space,
                OBJECTIVE_COLUMNS[s.objective],
                seed=s.seed,
                reps=s.reps,
                constraints=s.constraints,
                pool=pool,
                workers=s.workers,
                progress=on_screen,
            )
        else:
            found = []
        if fresh:  # after the screen: a search stopped during it starts afresh when resumed
            study.enqueue_trial(base_params(space), user_attrs={"baseline": True})
            for params, attrs in seeds(found, base_params(space), screen_limit(s.trials)):
                study.enqueue_trial(params, user_attrs=attrs)
        objective = _objective(base, space, s, pool)
        while remaining > 0:
            study.optimize(objective, n_trials=1, callbacks=[callback], catch=())
            remaining = s.trials - len(study.get_trials(deepcopy=False, states=counted))
    records = [_record(base, t) for t in sorted(study.trials, key=lambda t: t.number)]
    return Search(base, s, space, study, records)


# --- reading the search ------------------------------------------------------------------


def ranked(search: Search) -> list[TrialRecord]:
    """Candidates measured on all worlds, best first (ties: cheaper, then earlier)."""
    full = [r for r in search.records if r.state == "complete" and r.value is not None]
    return sorted(full, key=lambda r: (-(r.value or 0.0), r.cost_usd or 0.0, r.number))


def best_designs(search: Search, k: int | None = None) -> list[TrialRecord]:
    """The best ``k`` distinct designs that change something and did no worse than the baseline.

    Judged on the search's worlds; none when no candidate matched the baseline there.
    """
    k = search.settings.top if k is None else k
    out: list[TrialRecord] = []
    seen: list[Delta] = []
    floor = next(
        (
            r.value
            for r in search.records
            if not r.delta and r.value is not None and r.state == "complete"
        ),
        None,
    )
    for r in ranked(search):
        if floor is not None and (r.value or 0.0) < floor:
            break
        if not r.delta or r.delta in seen:
            continue
        seen.append(r.delta)
        out.append(r)
        if len(out) == k:
            break
    return out


def frontier(search: Search) -> list[TrialRecord]:
    """Candidates no other beats on both the objective and mean cost (all worlds played)."""
    full = ranked(search)
    out = []
    for r in full:
        dominated = any(
            (o.value or 0) >= (r.value or 0)
            and (o.cost_usd or 0) <= (r.cost_usd or 0)
            and ((o.value or 0) > (r.value or 0) or (o.cost_usd or 0) < (r.cost_usd or 0))
            for o in full
        )
        if not dominated:
            out.append(r)
    return sorted(out, key=lambda r: r.cost_usd or 0.0)


IMPORTANCE_METHOD = (
    "fANOVA (Optuna's FanovaImportanceEvaluator, a random forest's functional ANOVA) over "
    "every feasible candidate's objective on the first rung's worlds, which all of them played"
)


def importances(search: Search) -> dict[str, float]:
    """How much of the objective's variation across the search each choice explains.

    Every feasible trial played the first rung's worlds, so their values there compare
    like with like (pruned trials included, which the completed ones alone would not).
    """
    from optuna.importance import FanovaImportanceEvaluator, get_param_importances

    trials = {t.number: t for t in search.study.trials}
    points = [r for r in search.records if r.first_rung is not None and r.violation <= 0]
    if len(points) < 2 or len({r.first_rung for r in points}) < 2:
        return {}
    probe = optuna.create_study(direction="maximize")
    for r in points:
        t = trials[r.number]
        probe.add_trial(
            optuna.trial.create_trial(
                params=t.params, distributions=t.distributions, value=r.first_rung
            )
        )
    found = get_param_importances(
        probe, evaluator=FanovaImportanceEvaluator(seed=search.settings.seed)
    )
    return {k: float(v) for k, v in found.items()}


def confirm(
    search: Search,
    picked: Sequence[TrialRecord],
    pool: Executor | None = None,
    extra: Mapping[str, Delta] | None = None,
) -> tuple[dict[str, Scenario], dict[str, pd.DataFrame], int]:
    """The baseline, ``extra`` and ``picked`` on ``confirm_reps`` fresh worlds (held-out seed)."""
    s = search.settings
    designs = (
        {"baseline": search.base}
        | {k: apply_delta(search.base, d, name=k) for k, d in (extra or {}).items()}
        | {
            f"trial {r.number}": apply_delta(search.base, r.delta, name=f"trial {r.number}")
            for r in picked
        }
    )
    seed = s.seed + CONFIRM_SEED_OFFSET
    frames = run_on(pool, designs, range(s.confirm_reps), seed, workers=s.workers)
    return designs, frames, seed


def open_pool(s: Settings) -> Any:
    """The executor a search's confirmation runs on (the search's own settings)."""
    return open_executor(s.executor, s.workers, s.scheduler)


def summary_counts(search: Search) -> dict[str, int]:
    """How many candidates ended in each state."""
    out: dict[str, int] = {}
    for r in search.records:
        out[r.state] = out.get(r.state, 0) + 1
    return out


def trial_rows(search: Search) -> list[dict[str, Any]]:
    """Every trial as a flat row (for the JSON and the page's chart)."""
    return [
        {
            "trial": r.number,
            "state": r.state,
            "worlds": r.worlds,
            "value": r.value,
            "first_rung": r.first_rung,
            "cost_usd": r.cost_usd,
            "schedule_days": r.schedule_days,
            "violation": r.violation,
            "changes": len(r.delta),
            "origin": r.origin,
        }
        for r in search.records
    ]


def best_so_far(rows: Sequence[Mapping[str, Any]]) -> list[float | None]:
    """The best objective among completed trials, after each trial (for the live chart)."""
    out: list[float | None] = []
    best: float | None = None
    for row in rows:
        if row["state"] == "complete" and row["value"] is not None:
            best = row["value"] if best is None else max(best, row["value"])
        out.append(best)
    return out
