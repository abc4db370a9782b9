"""``sweep`` and ``sensitivity``: grids over levers and one-at-a-time lever swings.

The commands and their options; what they run is imported in their bodies
(:mod:`sim.cli.analysis_run`), so their ``--help`` starts at once.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, check_args, emit_json, guarded, stdout, table
from sim.cli.runs import (
    EXECUTOR,
    POLICY,
    SCHEDULER,
    SEED,
    SET,
    WORKERS,
    check_worlds,
    where_run,
    with_design,
)
from sim.cli.tables import Col, difference, money, percent, with_unit
from sim.glossary import methods_line, used
from sim.metrics import BY_KEY, LABELS
from sim.names import PRESET_KEYS
from sim.scenario.loading import load_scenario
from sim.scenario.problems import suggestion
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import sentence

REPS = typer.Option(100, "--reps", help="Replications per grid point or lever setting.")
DESIGN = typer.Option(
    None,
    "--design",
    help=f"Apply a design to the scenario first: a preset ({', '.join(PRESET_KEYS)}) "
    "or a design YAML file.",
)
CSV = typer.Option(None, "--csv", help="Also write the table to this CSV file.")


def _base(scenario: Path, overrides: list[str] | None, design: str | None) -> Scenario:
    base = load_scenario(scenario, tuple(overrides or ()))
    return base if design is None else with_design(base, design)[1]


def _metric(base: Scenario, metric: str) -> str:
    known = [*BY_KEY, *(f"score:{e.id}" for e in base.objective.evals)]
    if metric not in known:
        raise UserError(
            f"--metric {metric!r} is not a results column; " + suggestion(metric, known, "one of")
        )
    return metric


def _axis_header(path: str) -> str:
    """An axis's column header in words.

    A lever by its label (``levers.reserve_fraction`` is "Budget reserve"), another field by
    its words (``org.teams.data.headcount``).
    """
    from sim.compare.editing import field_words

    return sentence(field_words(path))


def _points_by_index(path: str, value: Any) -> str:
    """An axis's setting at a grid point, as it reads (``0.1`` of the reserve is "10%")."""
    from sim.compare.editing import value_words

    return value_words(path, value)


def sweep(
    scenario: Path = typer.Argument(..., help="Base scenario YAML file."),
    grid: list[str] = typer.Option(
        ...,
        "--grid",
        metavar="PATH=V1,V2,...",
        help="One axis of the grid, e.g. levers.reserve_fraction=0,0.1,0.2 (repeatable).",
    ),
    design: str | None = DESIGN,
    reps: int = REPS,
    seed: int = SEED,
    workers: int | None = WORKERS,
    executor: str = EXECUTOR,
    scheduler: str | None = SCHEDULER,
    overrides: list[str] | None = SET,
    policy: str = POLICY,
    csv: Path | None = CSV,
    as_json: bool = JSON_OPTION,
) -> None:
    """Run every point of a grid over levers on the same replications; one row per point."""
    check_args(reps, workers, executor, policy)
    base = _base(scenario, overrides, design)
    check_worlds(reps, "sweep")
    from sim.cli.analysis_run import scope_notes, write_csv
    from sim.cli.runs_run import check_options, simulate
    from sim.compare.sweep import grid_designs, parse_axis, point_name, sweep_table

    w, ex = check_options(reps, workers, executor, policy)
    axes = [parse_axis(g) for g in grid]
    designs, points = grid_designs(base, axes)
    start = time.perf_counter()
    frames = simulate(designs, reps, seed, w, ex, scheduler, policy, as_json)
    seconds = time.perf_counter() - start
    result = sweep_table(frames, points, base)
    write_csv(result, csv)
    if as_json:
        emit_json(
            {
                "scenario": base.name,
                "reps": reps,
                "seed": seed,
                "axes": [{"path": a.path, "values": list(a.values)} for a in axes],
                "points": result.to_dict("records"),
                "seconds": seconds,
                "replications_per_second": reps * len(points) / seconds,
                **where_run(w, ex, scheduler),
            }
        )
        return
    rows = [
        (
            *(_points_by_index(a.path, r[a.path]) for a in axes),
            f"{r['schedule_days_mean']:.0f} ±{_half(r, 'schedule_days_mean'):.0f}",
            f"{r['schedule_days_p90']:.0f}",
            money(r["cost_usd_mean"]),
            money(r["cost_usd_p90"]),
            *(percent(r[k], 0) for k in ("p_on_time", "p_on_budget")),
            f"{percent(r['p_success'], 0)} ({100 * r['p_success_low']:.0f}–"
            f"{100 * r['p_success_high']:.0f})",
        )
        for r in result.to_dict("records")
    ]
    stdout.print(
        f"{base.name}: {len(points)} grid point{'s' if len(points) != 1 else ''} × {reps} "
        f"replications, seed {seed} ({seconds:.1f} s). Deadline "
        f"{base.objective.deadline_days:g} days, budget {money(base.objective.budget.total_usd)}.",
        markup=False,
        highlight=False,
    )
    headers = (
        *(_axis_header(a.path) for a in axes),
        "days", "days P90", "cost", "cost P90", "on time", "on budget", "all met",
    )  # fmt: skip
    table(
        "Grid: mean (± its 95% interval) and P90 of schedule and cost; share of worlds meeting "
        "each objective (all met with its 95% interval)",
        rows,
        headers,
        text_columns=0,
    )
    from sim.compare.editing import value_words

    said = {
        point_name(p): ", ".join(
            f"{_axis_header(k).lower()} {value_words(k, v)}" for k, v in p.items()
        )  # fmt: skip
        for p in points
    }
    first = next(iter(said))

    def plan(n: str) -> str:
        return "the first grid point's" if n == first else f"the {said[n]} plan"

    for line in scope_notes({n: frames[n] for n in said}, first, plan):
        stdout.print(line, markup=False, highlight=False)
    stdout.print(used("replication", "world", "interval", "p90", "scope"), markup=False,
                 highlight=False)  # fmt: skip


def _half(row: Any, key: str) -> float:
    return (float(row[f"{key}_high"]) - float(row[f"{key}_low"])) / 2


def _span(low: float, high: float, unit: str) -> str:
    """An interval of differences with the unit once: ``+45.1 to +58.8 pts``."""
    first, last = difference(low, unit), difference(high, unit)
    tail = last.split(" ", 1)[1] if " " in last else ""
    return f"{first.removesuffix(' ' + tail) if tail else first} to {last}"


def sensitivity(
    scenario: Path = typer.Argument(..., help="Base scenario YAML file."),
    metric: str = typer.Option(
        "schedule_days", "--metric", help="What to rank the levers by (a results column)."
    ),
    levers: list[str] | None = typer.Option(
        None,
        "--lever",
        metavar="PATH=LOW,HIGH",
        help="Swing this field between LOW and HIGH instead of the standard levers (repeatable).",
    ),
    design: str | None = DESIGN,
    reps: int = REPS,
    seed: int = SEED,
    workers: int | None = WORKERS,
    executor: str = EXECUTOR,
    scheduler: str | None = SCHEDULER,
    overrides: list[str] | None = SET,
    policy: str = POLICY,
    csv: Path | None = CSV,
    as_json: bool = JSON_OPTION,
) -> None:
    """Tornado: swing each lever over its range, one at a time, and rank by the effect."""
    check_args(reps, workers, executor, policy)
    base = _base(scenario, overrides, design)
    check_worlds(reps, "sensitivity")
    from sim.cli.analysis_run import lever_ranges, scope_notes, write_csv
    from sim.cli.runs_run import check_options, simulate
    from sim.compare.analysis import (
        BASE,
        metric_label,
        settings_as_is,
        tornado_designs,
        tornado_table,
    )

    w, ex = check_options(reps, workers, executor, policy)
    metric = _metric(base, metric)
    ranges = lever_ranges(levers)
    designs, skipped = tornado_designs(base, ranges)
    frames = simulate(designs, reps, seed, w, ex, scheduler, policy, as_json)
    result = tornado_table(frames, metric, ranges, seed, settings_as_is(base, ranges))
    write_csv(result, csv)
    out: dict[str, Any] = {
        "scenario": base.name,
        "metric": metric,
        "label": metric_label(metric),
        "reps": reps,
        "seed": seed,
        "base": float(frames["base"][metric].astype(float).mean()),
        "levers": result.to_dict("records"),
        "skipped": skipped,
        **where_run(w, ex, scheduler),
    }
    if as_json:
        emit_json(out)
        return
    from sim.compare.editing import field_words, plan_words, value_words

    unit = LABELS[metric].unit if metric in LABELS else ""
    rows = [
        (r["rank"], sentence(field_words(r["lever"])),
         f"{value_words(r['lever'], r['low'])} → {value_words(r['lever'], r['high'])}",
         difference(r["swing"], unit) + ("" if r["clear"] else "?"),
         _span(r["swing_low"], r["swing_high"], unit), percent(r["p_top3"], 0))
        for r in out["levers"]
    ]  # fmt: skip
    stdout.print(
        f"{base.name}: {out['label']}, base {with_unit(out['base'], unit)}; {reps} replications "
        f"per setting, seed {seed}. Ranked by the size of the swing (at high minus at low).",
        markup=False,
        highlight=False,
    )
    swing = f"swing ({unit})" if unit in ("days", "person-days") else (
        "swing (pp)" if unit in ("probability", "share") else "swing")  # fmt: skip
    table(
        "Levers, largest effect first",
        rows,
        ("rank", Col("lever", text=True), Col("low → high", text=True), swing,
         "95% interval", "top 3"),
        text_columns=0,
    )  # fmt: skip
    stdout.print(
        "swing: the mean at the high setting minus the mean at the low one, on the same worlds "
        "(--json and --csv give both means), with its 95% interval; ? marks a swing not "
        "clearly different from 0 (adjusted for the levers tried together). top 3: the chance "
        "the lever is truly among the three that move the metric most.",
        markup=False,
        highlight=False,
    )

    settings = {f"{r['lever']}={r[end]}": (r["lever"], r[end])
                for r in out["levers"] for end in ("low", "high")}  # fmt: skip

    def said(name: str) -> str:
        if name in settings:
            return plan_words(*settings[name])
        return "the base plan" if name == BASE else "the " + name + " plan"

    for line in scope_notes(frames, BASE, said):
        stdout.print(line, markup=False, highlight=False)
    stdout.print(methods_line("Paired differences and Holm's correction", "Bayesian bootstrap"),
                 markup=False, highlight=False)  # fmt: skip
    stdout.print(used("replication", "world", "interval", "scope"), markup=False,
                 highlight=False)  # fmt: skip
    for line in skipped:
        typer.echo(f"skipped {line}", err=True)


def register(app: typer.Typer) -> None:
    app.command()(guarded(sweep))
    app.command()(guarded(sensitivity))
