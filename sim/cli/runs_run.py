"""What ``run`` and ``compare`` do once they run: simulate designs, summarise, compare.

Imported only when a command runs (``sweep``, ``sensitivity`` and ``optimize`` use it
too), so the commands' ``--help`` needs none of the model, pandas or SciPy.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from sim.cli.common import Stopped, check_args, progress_bar, stdout, table
from sim.cli.tables import difference, money, percent, with_unit
from sim.compare.analysis import METHOD_NAMES, amount, best_line, comparison_json
from sim.compare.inference import Comparison
from sim.compare.sequential import Sequential
from sim.format import points, points_signed
from sim.glossary import methods_line, used
from sim.metrics import BY_KEY, LABELS, OBJECTIVES, PROBABILITY_KEYS, label
from sim.runner import ExecutorName, default_workers, run_designs
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import option_words, words


def check_options(
    reps: int, workers: int | None, executor: str, policy: str
) -> tuple[int, ExecutorName]:
    """The options checked (:func:`sim.cli.common.check_args`), workers defaulting to the CPUs."""
    check_args(reps, workers, executor, policy)
    return (default_workers() if workers is None else workers), executor  # type: ignore[return-value]


def simulate(
    designs: dict[str, Scenario],
    reps: int,
    seed: int,
    workers: int,
    executor: ExecutorName,
    scheduler: str | None,
    policy: str,
    quiet: bool,
) -> dict[str, Any]:
    run = partial(
        run_designs,
        designs,
        reps,
        seed,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        policy=policy,
    )
    total = reps * len(designs)
    finished = [0]
    columns = (TextColumn("replications"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with progress_bar(not quiet, *columns) as bar:
            task = bar.add_task("run", total=total) if bar else None

            def progress(done: int, _total: int) -> None:
                finished[0] = done
                if bar is not None and task is not None:
                    bar.update(task, completed=done)

            return run(progress=progress)
    except KeyboardInterrupt:
        raise Stopped(f"after {finished[0]:,} of {total:,} replications") from None


#: The rows of a run's summary: the metric's key and where its statistics sit in the JSON.
_SUMMARY_ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("schedule_days", ("schedule_days",)),
    ("cost_usd", ("cost_usd",)),
    ("effort_person_days", ("effort_person_days",)),
    ("run_effective_training_time", ("training_run", "effective_training_time")),
    ("tokens_b", ("tokens_b",)),
    ("post_training_rounds", ("post_training_rounds",)),
)


def _stats(s: dict[str, Any], where: tuple[str, ...]) -> dict[str, float]:
    node: Any = s
    for key in where:
        node = node[key]
    return dict(node)


def _difference(key: str, value: float) -> str:
    if key.startswith("score:"):
        return points_signed(value, 2)
    metric = LABELS.get(key)
    return difference(value, metric.unit if metric else "")


def assumptions(sc: Scenario, s: dict[str, Any]) -> str:
    """The targets and the run settings a summary was computed against, in one line."""
    objective = sc.objective
    workers = f", {s['workers']} workers" if s.get("workers") else ""
    return (
        f"Deadline {objective.deadline_days:g} days; budget {money(objective.budget.total_usd)} "
        f"(reserve {percent(sc.levers.reserve_fraction, 0)}); {s['reps']:,} replications, "
        f"seed {s['seed']}, decided by {s.get('policy', 'playbook')}{workers}."
    )


def print_summary(name: str, s: dict[str, Any], sc: Scenario) -> None:
    stdout.print(assumptions(sc, s), markup=False, highlight=False)
    rows = []
    for key, where in _SUMMARY_ROWS:
        unit = LABELS[key].unit
        stats = _stats(s, where)
        rows.append(
            (label(key), *(with_unit(stats[q], unit) for q in ("mean", "p10", "p50", "p90")))
        )
    table(name, rows, ("metric", "mean", "P10", "P50", "P90"))
    objective = sc.objective
    limits = {
        "on_time": f"within {objective.deadline_days:g} days",
        "on_budget": f"within {money(objective.budget.total_usd)}",
        "quality_met": "every target eval at its threshold",
        "success": "all three at once",
    }
    table(
        "Objectives",
        [
            (LABELS[k].label, limits[k], percent(s[PROBABILITY_KEYS[k]]))
            for k in (m.key for m in OBJECTIVES)
        ],
        ("objective", "meaning", "probability"),
        text_columns=2,
    )
    table(
        "Quality targets (scores in points out of 100)",
        [
            (words(t["eval"]), f"≥ {points(t['threshold'], 0)}", percent(t["p_met"]))
            for t in s["targets"]
        ],  # fmt: skip
        ("eval", "threshold", "chance met"),
    )
    _print_scope(s["scope"])


def print_run(name: str, s: dict[str, Any], sc: Scenario) -> None:
    """``run``'s summary, and where the words it used are defined."""
    print_summary(name, s, sc)
    stdout.print(used("replication", "world", "scope", "points"), markup=False, highlight=False)


def _print_scope(scope: dict[str, Any]) -> None:
    """What the plan gave up to fit the budget, so fewer tokens never read as speed."""
    rows: list[tuple[Any, ...]] = [
        (label("tokens_planned_b"), with_unit(scope["tokens_planned_b"], "billion tokens")),
        (label("post_training_rounds_planned"), f"{scope['post_training_rounds_planned']:.1f}"),
        ("Worlds with a scope cut", percent(scope["p_cut"])),
    ]
    if scope["p_cut"] > 0:
        rows += [
            ("Mean dollars saved by cuts", money(scope["cut_usd"]["mean"])),
            ("Mean target score given up", f"{-100 * scope['cut_score']['mean']:.2f} pts"),
        ]
        rows += [(f"  cut: {option_words(k)}", percent(v)) for k, v in scope["responses"].items()]
    table("Scope given up to fit the budget", rows, ("scope", "value"))


def compare_result(
    designs: dict[str, Scenario], frames: dict[str, Any], comparison: Comparison, seed: int
) -> dict[str, Any]:
    """The ``compare --json`` object: the one the compare page downloads too."""
    return comparison_json(designs, frames, comparison, seed)


def print_comparison(
    designs: dict[str, Scenario],
    result: dict[str, Any],
    comparison: Comparison,
    sequential: Sequential | None,
    frames: dict[str, Any],
) -> None:
    names = list(designs)
    base = names[0]
    for n in names:
        print_summary(n, result["designs"][n], designs[n])
    say = lambda line: stdout.print(line, markup=False, highlight=False)  # noqa: E731
    for n in names[1:]:
        for line in result["verdict"][n]:
            say(line)
        level = f"{100 * (1 - comparison.alpha):.1f}%".replace(".0%", "%")
        rows = [
            (label(k), *(_difference(k, d[q]) for q in ("mean", "low", "high")), d["verdict"])
            for k, d in result["paired"][n].items()
        ]
        table(
            f"{n} minus {base} (same replications)",
            rows,
            ("metric", "difference", f"{level} low", f"{level} high", "verdict"),
        )
    from sim.cli.analysis_run import scope_notes

    for line in scope_notes(frames, base, lambda n: n):
        say(line)
    say(comparison.adjustment_note())
    primary = comparison.primary
    name = BY_KEY[primary].label if primary in BY_KEY else primary
    unit = BY_KEY[primary].unit if primary in BY_KEY else "score"
    say(best_line(comparison.best, name, "±" + amount(comparison.best["margin"], unit)))
    if sequential is not None:
        say(sequential.note())
    say(methods_line(*METHOD_NAMES))
    say(used("replication", "world", "scope", "points", "percentage-points", "interval"))
