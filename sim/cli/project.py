"""``run``, ``compare`` and ``bench``: Monte Carlo over whole projects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stderr, stdout, table
from sim.cli.tables import difference, money, percent, with_unit
from sim.compare.analysis import amount, best_line, comparison_lines
from sim.compare.designs import PRESETS_BY_KEY, fund_full_plan, load_design
from sim.compare.inference import (
    DEFAULT_PRIMARY,
    Comparison,
    compare_designs,
    margins_for,
    metric_keys,
)
from sim.compare.runner import ExecutorName, default_workers, run_designs
from sim.compare.sequential import MAX_WORLDS, Sequential, batch_runner, run_sequential
from sim.compare.summary import interval_summary, paired_summary, summarize_runs
from sim.engine.decisions import POLICY_NAMES
from sim.intervals import MIN_WORLDS
from sim.metrics import BY_KEY, LABELS, OBJECTIVES, PROBABILITY_KEYS, label
from sim.scenario.loading import load_scenario
from sim.scenario.problems import suggestion
from sim.scenario.spec import Scenario

REPS = typer.Option(200, "--reps", help="Replications (Monte Carlo runs).")
SEED = typer.Option(0, "--seed", help="Seed of the common random numbers.")
WORKERS = typer.Option(None, "--workers", help="Parallel workers (default: CPU count).")
EXECUTOR = typer.Option("local", "--executor", help="local (process pool) or dask.")
SCHEDULER = typer.Option(None, "--scheduler", help="Dask scheduler address (with --executor dask).")
SET = typer.Option(None, "--set", help="Override a scenario field: PATH=VALUE (repeatable).")
POLICY = typer.Option("playbook", "--policy", help=f"Decider: {', '.join(POLICY_NAMES)}.")
PRIMARY = typer.Option(
    DEFAULT_PRIMARY, "--primary",
    help="The metric the comparison is about (verdicts adjust it over designs only; the best "
    "design and --precision use it): success, schedule_days, cost_usd, quality_met, ...",
)  # fmt: skip
MARGIN = typer.Option(
    None, "--margin", metavar="METRIC=X",
    help="The smallest difference in METRIC that matters (repeatable), in its unit: days, "
    "USD, a chance as a fraction (0.01 is one percentage point). Defaults: 1 day, 1 point, "
    "1% of the budget, 1% of the baseline's effort, 0.01 of a score.",
)  # fmt: skip


def check_worlds(reps: int, what: str) -> None:
    """Refuse a run too small for the intervals it would print."""
    if reps < MIN_WORLDS:
        raise UserError(
            f"--reps {reps} is too few for {what}: its intervals need at least {MIN_WORLDS} "
            f"worlds (replications); try --reps {max(MIN_WORLDS, 200 if what == 'compare' else 40)}"
        )


def parse_margins(texts: list[str] | None, keys: list[str]) -> dict[str, float]:
    """``--margin METRIC=X`` options as a dict, each checked."""
    out: dict[str, float] = {}
    for text in texts or ():
        metric, sep, value = text.partition("=")
        metric = metric.strip()
        if not sep or metric not in keys:
            raise UserError(
                f"--margin {text!r}: expected METRIC=X with METRIC one of {', '.join(keys)}"
            )
        try:
            out[metric] = float(value)
        except ValueError:
            raise UserError(f"--margin {text!r}: {value.strip()!r} is not a number") from None
        if not out[metric] > 0:
            raise UserError(f"--margin {text!r}: the margin must be above 0")
    return out



def check_options(
    reps: int, workers: int | None, executor: str, policy: str
) -> tuple[int, ExecutorName]:
    if reps < 1:
        raise UserError(f"--reps must be at least 1, got {reps}")
    w = default_workers() if workers is None else workers
    if w < 1:
        raise UserError(f"--workers must be at least 1, got {w}")
    if executor not in ("local", "dask"):
        raise UserError(
            f"--executor {executor!r}: " + suggestion(executor, ("local", "dask"), "one of")
        )
    if policy not in POLICY_NAMES:
        raise UserError(f"--policy {policy!r}: " + suggestion(policy, POLICY_NAMES, "one of"))
    return w, executor  # type: ignore[return-value]


def where_run(workers: int, executor: ExecutorName, scheduler: str | None) -> dict[str, Any]:
    """What the JSON says about where the replications ran (a Dask cluster sizes itself)."""
    return {"workers": None if scheduler else workers, "executor": executor, "scheduler": scheduler}


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
    if quiet:
        return run_designs(
            designs,
            reps,
            seed,
            workers=workers,
            executor=executor,
            scheduler=scheduler,
            policy=policy,
        )
    columns = (TextColumn("replications"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task("run", total=reps * len(designs))
        return run_designs(
            designs,
            reps,
            seed,
            workers=workers,
            executor=executor,
            scheduler=scheduler,
            policy=policy,
            progress=lambda done, total: bar.update(task, completed=done),
        )


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
        return f"{100 * value:+.2f} pts"
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


def _print_summary(name: str, s: dict[str, Any], sc: Scenario) -> None:
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
        "Targets",
        [(t["eval"], f"≥ {t['threshold']:.2f}", percent(t["p_met"])) for t in s["targets"]],
        ("eval", "threshold", "P(met)"),
    )
    _print_scope(s["scope"])


def _print_scope(scope: dict[str, Any]) -> None:
    """What the plan gave up to fit the budget, so fewer tokens never read as speed."""
    rows: list[tuple[Any, ...]] = [
        (label("tokens_planned_b"), with_unit(scope["tokens_planned_b"], "billion tokens")),
        ("Post-training rounds planned", scope["post_training_rounds_planned"]),
        ("Worlds with a scope cut", percent(scope["p_cut"])),
    ]
    if scope["p_cut"] > 0:
        rows += [
            ("Mean dollars saved by cuts", money(scope["cut_usd"]["mean"])),
            ("Mean target score given up", f"{-100 * scope['cut_score']['mean']:.2f} pts"),
        ]
        rows += [
            (f"  cut: {k.replace('_', ' ')}", percent(v)) for k, v in scope["responses"].items()
        ]
    table("Scope given up to fit the budget", rows, ("scope", "value"))


def run(
    scenario: Path = typer.Argument(..., help="Scenario YAML file."),
    reps: int = REPS,
    seed: int = SEED,
    workers: int | None = WORKERS,
    executor: str = EXECUTOR,
    scheduler: str | None = SCHEDULER,
    overrides: list[str] | None = SET,
    policy: str = POLICY,
    as_json: bool = JSON_OPTION,
) -> None:
    """Play a scenario many times and summarise schedule, cost, quality and risks."""
    w, ex = check_options(reps, workers, executor, policy)
    sc = load_scenario(scenario, tuple(overrides or ()))
    frames = simulate({"design": sc}, reps, seed, w, ex, scheduler, policy, as_json)
    summary = summarize_runs(frames["design"], sc, seed)
    summary.update(where_run(w, ex, scheduler), policy=policy)
    if as_json:
        emit_json(summary)
    else:
        _print_summary(sc.name, summary, sc)


def with_design(base: Scenario, spec: str) -> tuple[str, Scenario]:
    """``base`` with a design applied: a preset's key, or a design YAML file; and its name."""
    if spec in PRESETS_BY_KEY:
        return spec, PRESETS_BY_KEY[spec].apply(base)
    path = Path(spec)
    if not path.is_file():
        raise UserError(
            f"--design {spec!r} is neither a file nor a preset; "
            + suggestion(spec, PRESETS_BY_KEY, "presets")
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the design file: {exc}") from None
    design = load_design(text, str(path))
    return design.name or path.stem, design.apply(base, str(path))


def compare(
    scenarios: list[Path] = typer.Argument(
        ..., help="Scenario files (designs); the first is the baseline."
    ),
    design_specs: list[str] | None = typer.Option(
        None,
        "--design",
        help="Also compare a design applied to the first scenario: a preset "
        f"({', '.join(PRESETS_BY_KEY)}) or a design YAML file. Repeatable.",
    ),
    fund_plans: bool = typer.Option(
        False,
        "--fund-plans",
        help="Raise each design's people budget so its planned run is not cut to fit "
        "(compare at equal scope; the budget is one envelope).",
    ),
    primary: str = PRIMARY,
    margin: list[str] | None = MARGIN,
    precision: float | None = typer.Option(
        None, "--precision", metavar="X",
        help="Add worlds in batches (doubling from --reps) until every design's difference "
        "from the baseline on --primary is known to ±X (in its unit), or shown alike.",
    ),  # fmt: skip
    max_reps: int = typer.Option(
        MAX_WORLDS, "--max-reps", help="With --precision: the most worlds to run."
    ),
    reps: int = REPS,
    seed: int = SEED,
    workers: int | None = WORKERS,
    executor: str = EXECUTOR,
    scheduler: str | None = SCHEDULER,
    overrides: list[str] | None = SET,
    policy: str = POLICY,
    as_json: bool = JSON_OPTION,
) -> None:
    """Run designs through the same incidents (common random numbers) and compare them."""
    if len(scenarios) + len(design_specs or ()) < 2:
        raise UserError("compare needs at least two designs: scenario files or --design")
    w, ex = check_options(reps, workers, executor, policy)
    loaded = [(p.stem, load_scenario(p, tuple(overrides or ()))) for p in scenarios]
    loaded += [with_design(loaded[0][1], spec) for spec in design_specs or ()]
    check_worlds(reps, "compare")
    designs: dict[str, Scenario] = {}
    for name, scenario in loaded:
        while name in designs:
            name += "'"
        designs[name] = fund_full_plan(scenario) if fund_plans else scenario
    names = list(designs)
    base = names[0]
    keys = metric_keys(designs[base])
    if primary not in keys:
        raise UserError(f"--primary must be one of {', '.join(keys)}, got {primary!r}")
    margins = parse_margins(margin, keys)
    sequential: Sequential | None = None
    if precision is not None:
        if not precision > 0:
            raise UserError(f"--precision must be above 0, got {precision}")
        if max_reps < reps:
            raise UserError(f"--max-reps ({max_reps}) must be at least --reps ({reps})")
        batch = batch_runner(designs, seed, workers=w, executor=ex, scheduler=scheduler,
                             policy=policy)  # fmt: skip
        sequential = run_sequential(
            batch, designs[base], reps, precision, primary=primary, margins=margins,
            max_worlds=max_reps, seed=seed,
            on_look=None if as_json else lambda n, why: stderr.print(f"{n:,} worlds: {why}"),
        )  # fmt: skip
        frames, comparison = sequential.frames, sequential.comparison
    else:
        frames = simulate(designs, reps, seed, w, ex, scheduler, policy, as_json)
        comparison = compare_designs(frames, designs[base], primary=primary, margins=margins,
                                     seed=seed)  # fmt: skip
    result = compare_result(designs, frames, comparison, seed)
    if sequential is not None:
        result["sequential"] = sequential.summary()
    if as_json:
        emit_json(result)
        return
    print_comparison(designs, result, comparison, sequential)


def compare_result(
    designs: dict[str, Scenario], frames: dict[str, Any], comparison: Comparison, seed: int
) -> dict[str, Any]:
    """The ``compare --json`` object (DESIGN.md's keys first, then what this adds)."""
    names = list(designs)
    base = names[0]
    return {
        "reps": comparison.worlds,
        "seed": seed,
        "baseline": base,
        "designs": {n: summarize_runs(frames[n], designs[n], seed) for n in names},
        "paired": paired_summary(comparison),
        "verdict": comparison_lines(comparison, frames, designs[base]),
        "primary": comparison.primary,
        "margins": margins_for(designs[base], frames[base],
                               {r["metric"]: r["margin"] for r in
                                next(iter(comparison.tables.values())).to_dict("records")}),
        "alpha": comparison.alpha,
        "adjustment": {"method": "holm", **comparison.families,
                       "note": comparison.adjustment_note()},
        "best": comparison.best,
        "intervals": {n: interval_summary(frames[n]) for n in names},
    }  # fmt: skip


def print_comparison(
    designs: dict[str, Scenario],
    result: dict[str, Any],
    comparison: Comparison,
    sequential: Sequential | None,
) -> None:
    names = list(designs)
    base = names[0]
    for n in names:
        _print_summary(n, result["designs"][n], designs[n])
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
    say(comparison.adjustment_note())
    primary = comparison.primary
    name = BY_KEY[primary].label if primary in BY_KEY else primary
    unit = BY_KEY[primary].unit if primary in BY_KEY else "score"
    say(best_line(comparison.best, name, "±" + amount(comparison.best["margin"], unit)))
    if sequential is not None:
        say(sequential.note())


def bench(
    scenario: str | None = typer.Argument(
        None, help="Scenario to time (file or shipped name); default: every shipped scenario."
    ),
    reps: int = typer.Option(200, "--reps", help="Replications per scenario and per timing."),
    workers: int | None = WORKERS,
    seed: int = SEED,
    startup: bool = typer.Option(
        False, "--startup", help="Also time the command line's own start-up (--help, validate)."
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Measure the model's speed against a bare SimPy loop on this machine."""
    from sim.bench import bench_all
    from sim.bench import startup as time_startup
    from sim.scenario.catalog import shipped_names

    w, _ = check_options(reps, workers, "local", "playbook")
    names = [scenario] if scenario else shipped_names()
    # The 7B assistant first: the top-level JSON keys are the first scenario's.
    names.sort(key=lambda n: n != "assistant_7b")
    scenarios = {name: load_scenario(name) for name in names}
    result = bench_all(scenarios, reps=reps, workers=w, seed=seed)
    if startup:
        result["startup_seconds"] = time_startup()
    if as_json:
        emit_json(result)
        return
    stdout.print(
        f"Bare SimPy: {result['bare_simpy_events_per_second']:,.0f} events per CPU second. "
        f"{reps} replications per scenario, serial (CPU time) and on {w} workers (wall "
        "time); ratio = cost of one model event in bare SimPy events. The run settles most "
        "of its steps without a SimPy event (simpy/rep: the events that went through SimPy).",
        markup=False,
        highlight=False,
    )
    table(
        "Speed of each scenario",
        [
            (
                r["name"].replace("_", " "),  # wraps at 80 columns without cutting a name
                f"{r['events_per_replication']:,.0f}",
                f"{r['simpy_events_per_replication']:,.0f}",
                f"{r['model_events_per_second']:,.0f}",
                f"{r['ratio']:.1f}×",
                f"{r['replications_per_second_serial']:,.1f}",
                f"{r['replications_per_second']:,.1f}",
            )
            for r in result["scenarios"]
        ],
        ("scenario", "events/rep", "simpy/rep", "events/s", "ratio", "reps/s serial",
         f"reps/s ×{w}"),
    )  # fmt: skip
    if startup:
        table(
            "Start-up of python -m sim (fresh processes)",
            [
                (cmd, f"{t['min'] * 1e3:,.0f} ms", f"{t['median'] * 1e3:,.0f} ms")
                for cmd, t in result["startup_seconds"].items()
            ],
            ("command", "fastest", "median"),
        )


def register(app: typer.Typer) -> None:
    app.command()(guarded(run))
    app.command()(guarded(compare))
    app.command()(guarded(bench))
