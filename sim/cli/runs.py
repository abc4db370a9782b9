"""``run``, ``compare`` and ``bench``: Monte Carlo over whole projects.

The commands and their options; what they run (the model, pandas, SciPy) is imported in
their bodies (:mod:`sim.cli.runs_run`), so their ``--help`` starts at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.common import (
    JSON_OPTION,
    UserError,
    check_args,
    emit_json,
    guarded,
    stderr,
    stdout,
    table,
)
from sim.names import (
    DEFAULT_PRIMARY,
    MIN_WORLDS,
    POLICY_NAMES,
    PRESET_KEYS,
    SEQUENTIAL_MAX_WORLDS,
)
from sim.scenario.loading import load_scenario
from sim.scenario.problems import suggestion
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import words

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


def where_run(workers: int, executor: str, scheduler: str | None) -> dict[str, Any]:
    """What the JSON says about where the replications ran (a Dask cluster sizes itself)."""
    return {"workers": None if scheduler else workers, "executor": executor, "scheduler": scheduler}


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
    check_args(reps, workers, executor, policy)
    sc = load_scenario(scenario, tuple(overrides or ()))
    from sim.cli.runs_run import check_options, print_run, simulate
    from sim.summary import summarize_runs

    w, ex = check_options(reps, workers, executor, policy)
    frames = simulate({"design": sc}, reps, seed, w, ex, scheduler, policy, as_json)
    summary = summarize_runs(frames["design"], sc, seed)
    summary.update(where_run(w, ex, scheduler), policy=policy)
    if as_json:
        emit_json(summary)
    else:
        print_run(sc.name, summary, sc)


def with_design(base: Scenario, spec: str) -> tuple[str, Scenario]:
    """``base`` with a design applied: a preset's key, or a design YAML file; and its name."""
    path = Path(spec)
    if spec not in PRESET_KEYS and not path.is_file():  # refused before the model loads
        raise UserError(
            f"--design {spec!r} is neither a file nor a preset; "
            + suggestion(spec, PRESET_KEYS, "presets")
        )
    from sim.designs import PRESETS_BY_KEY, load_design

    if spec in PRESETS_BY_KEY:
        return spec, PRESETS_BY_KEY[spec].apply(base)
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
        f"({', '.join(PRESET_KEYS)}) or a design YAML file. Repeatable.",
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
        None,
        "--precision",
        metavar="X",
        help="Add worlds in batches (doubling from --reps) until every design's difference "
        "from the baseline on --primary is known to ±X (in its unit), or shown alike.",
    ),  # fmt: skip
    max_reps: int = typer.Option(
        SEQUENTIAL_MAX_WORLDS, "--max-reps", help="With --precision: the most worlds to run."
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
    check_args(reps, workers, executor, policy)
    # The JSON names a design by its file's stem or its preset's key; a person reads words.
    named = (lambda n: n) if as_json else words
    loaded = [(named(p.stem), load_scenario(p, tuple(overrides or ()))) for p in scenarios]
    loaded += [
        (named(name), design)
        for name, design in (with_design(loaded[0][1], spec) for spec in design_specs or ())
    ]
    check_worlds(reps, "compare")
    from sim.cli.runs_run import check_options, compare_result, print_comparison, simulate
    from sim.compare.inference import compare_designs, metric_keys
    from sim.compare.sequential import Sequential, batch_runner, run_sequential
    from sim.designs import fund_full_plan

    w, ex = check_options(reps, workers, executor, policy)
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
    print_comparison(designs, result, comparison, sequential, frames)


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
    from sim.cli.runs_run import check_options
    from sim.scenario.catalog import shipped_names

    w, _ = check_options(reps, workers, "local", "playbook")
    names = [scenario] if scenario else shipped_names()
    # The 7B assistant first: the top-level JSON keys are the first scenario's.
    names.sort(key=lambda n: n != "assistant_7b")
    scenarios = {name: load_scenario(name) for name in names}
    if not as_json:
        stderr.print(_bench_forecast(scenarios, reps, w, seed), markup=False, highlight=False)
    result = bench_all(scenarios, reps=reps, workers=w, seed=seed)
    if startup:
        result["startup_seconds"] = time_startup()
    if as_json:
        emit_json(result)
        return
    engine = (
        "compiled by mypyc (sim/native.py)"
        if result["engine"] == "compiled"
        else "Python (no current build: python -m sim.native build)"
    )
    stdout.print(
        f"Engine: {engine}. "
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
        ("scenario", "events/rep", "simpy/rep", "events/s", "ratio", "reps/s serial (CPU)",
         f"reps/s ×{w} (wall)"),
    )  # fmt: skip
    for line in _bench_targets(result["scenarios"]):
        stdout.print(line, markup=False, highlight=False)
    if startup:
        table(
            "Start-up of python -m sim (fresh processes)",
            [
                (cmd, f"{t['min'] * 1e3:,.0f} ms", f"{t['median'] * 1e3:,.0f} ms")
                for cmd, t in result["startup_seconds"].items()
            ],
            ("command", "fastest", "median"),
        )


def _bench_forecast(scenarios: dict[str, Scenario], reps: int, workers: int, seed: int) -> str:
    """How long ``bench`` will take, from two timed replications of each scenario.

    Each scenario plays about min(reps, 100) replications for its event rate, ``reps``
    serially and ``reps`` on the workers; the bare SimPy loop adds about a second, and
    each scenario's worker pool about another.
    """
    import time

    from sim.runner import replicate

    start = time.perf_counter()
    per_rep = 0.0
    for sc in scenarios.values():
        t = time.perf_counter()
        replicate(sc, seed, 1)  # the first builds the scenario's facts: not counted
        t = time.perf_counter()
        replicate(sc, seed, 2)
        per_rep += time.perf_counter() - t
    seconds = per_rep * (min(reps, 100) + reps + reps / workers) + 1.0 + len(scenarios)
    seconds += time.perf_counter() - start
    return (
        f"Timing {len(scenarios)} scenario{'s' if len(scenarios) != 1 else ''} × {reps} "
        f"replications, serially then on {workers} workers: about {seconds:,.0f} s "
        "(--reps fewer is faster)."
    )


def register(app: typer.Typer) -> None:
    app.command()(guarded(run))
    app.command()(guarded(compare))
    app.command()(guarded(bench))


def _bench_targets(rows: list[dict[str, Any]]) -> list[str]:
    """Issue 23's two speed measures, when the run timed the scenarios they name."""
    by = {r["name"]: r for r in rows}
    lines = []
    small, frontier = by.get("assistant_7b"), by.get("frontier_405b")
    if small:
        lines.append(
            f"A 7B replication costs {small['bare_events_per_replication']:,.0f} bare-SimPy "
            "events' time (serial CPU)."
        )
    if small and frontier:
        share = frontier["replications_per_second_serial"] / small["replications_per_second_serial"]
        lines.append(f"The frontier runs at {share:.2f} of the 7B's replications per second.")
    return lines
