"""``run``, ``compare`` and ``bench``: Monte Carlo over whole projects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stderr, stdout, table
from sim.compare.analysis import design_verdict
from sim.compare.designs import PRESETS_BY_KEY, fund_full_plan, load_design
from sim.compare.runner import ExecutorName, default_workers, run_designs
from sim.compare.summary import paired, summarize_runs
from sim.engine.decisions import POLICY_NAMES
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Scenario

REPS = typer.Option(200, "--reps", help="Replications (Monte Carlo runs).")
SEED = typer.Option(0, "--seed", help="Seed of the common random numbers.")
WORKERS = typer.Option(None, "--workers", help="Parallel workers (default: CPU count).")
EXECUTOR = typer.Option("local", "--executor", help="local (process pool) or dask.")
SCHEDULER = typer.Option(None, "--scheduler", help="Dask scheduler address (with --executor dask).")
SET = typer.Option(None, "--set", help="Override a scenario field: PATH=VALUE (repeatable).")
POLICY = typer.Option("playbook", "--policy", help=f"Decider: {', '.join(POLICY_NAMES)}.")


def check_options(
    reps: int, workers: int | None, executor: str, policy: str
) -> tuple[int, ExecutorName]:
    if reps < 1:
        raise UserError(f"--reps must be at least 1, got {reps}")
    w = default_workers() if workers is None else workers
    if w < 1:
        raise UserError(f"--workers must be at least 1, got {w}")
    if executor not in ("local", "dask"):
        raise UserError(f"--executor must be local or dask, got {executor!r}")
    if policy not in POLICY_NAMES:
        raise UserError(f"--policy must be one of {', '.join(POLICY_NAMES)}, got {policy!r}")
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


def _print_summary(name: str, s: dict[str, Any]) -> None:
    rows = [
        (
            "Schedule (days)",
            s["schedule_days"]["mean"],
            s["schedule_days"]["p10"],
            s["schedule_days"]["p90"],
        ),
        ("Cost (USD)", s["cost_usd"]["mean"], s["cost_usd"]["p10"], s["cost_usd"]["p90"]),
        (
            "Effort (person-days)",
            s["effort_person_days"]["mean"],
            s["effort_person_days"]["p10"],
            s["effort_person_days"]["p90"],
        ),
        (
            "Effective training time",
            *(s["training_run"]["effective_training_time"][k] for k in ("mean", "p10", "p90")),
        ),
        ("Tokens trained (B)", *(s["tokens_b"][k] for k in ("mean", "p10", "p90"))),
        ("Post-training rounds", *(s["post_training_rounds"][k] for k in ("mean", "p10", "p90"))),
    ]
    table(
        f"{name}: {s['reps']} replications, seed {s['seed']}",
        rows,
        ("metric", "mean", "P10", "P90"),
    )
    probs = [
        (k.replace("p_", "P(").replace("_", " ") + ")", s[k])
        for k in ("p_on_time", "p_on_budget", "p_quality_met", "p_success")
    ]
    table("Objectives", probs, ("objective", "probability"))
    table(
        "Targets",
        [(t["eval"], t["threshold"], t["p_met"]) for t in s["targets"]],
        ("eval", "threshold", "P(met)"),
    )
    _print_scope(s["scope"])


def _print_scope(scope: dict[str, Any]) -> None:
    """What the plan gave up to fit the budget, so fewer tokens never read as speed."""
    rows: list[tuple[Any, ...]] = [
        ("Tokens planned (B)", scope["tokens_planned_b"]),
        ("Post-training rounds planned", scope["post_training_rounds_planned"]),
        ("Worlds with a scope cut", scope["p_cut"]),
    ]
    if scope["p_cut"] > 0:
        rows += [
            ("Mean dollars saved by cuts", scope["cut_usd"]["mean"]),
            ("Mean target score given up", -scope["cut_score"]["mean"]),
        ]
        rows += [(f"  cut: {k.replace('_', ' ')}", v) for k, v in scope["responses"].items()]
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
        _print_summary(sc.name, summary)


def with_design(base: Scenario, spec: str) -> tuple[str, Scenario]:
    """``base`` with a design applied: a preset's key, or a design YAML file; and its name."""
    if spec in PRESETS_BY_KEY:
        return spec, PRESETS_BY_KEY[spec].apply(base)
    path = Path(spec)
    if not path.is_file():
        raise UserError(
            f"--design {spec!r} is neither a preset ({', '.join(PRESETS_BY_KEY)}) nor a file"
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
    designs: dict[str, Scenario] = {}
    for name, scenario in loaded:
        while name in designs:
            name += "'"
        designs[name] = fund_full_plan(scenario) if fund_plans else scenario
    frames = simulate(designs, reps, seed, w, ex, scheduler, policy, as_json)
    names = list(designs)
    base = names[0]
    result: dict[str, Any] = {
        "reps": reps,
        "seed": seed,
        "baseline": base,
        "designs": {n: summarize_runs(frames[n], designs[n], seed) for n in names},
        "paired": {n: paired(frames[base], frames[n], designs[base]) for n in names[1:]},
        "verdict": {
            n: design_verdict(base, n, frames[base], frames[n], designs[base]) for n in names[1:]
        },
    }
    if as_json:
        emit_json(result)
        return
    for n in names:
        _print_summary(n, result["designs"][n])
    for n in names[1:]:
        rows = [(k, d["mean"], d["low"], d["high"]) for k, d in result["paired"][n].items()]
        for line in result["verdict"][n]:
            stdout.print(line, markup=False, highlight=False)
        table(
            f"{n} minus {base} (same replications)",
            rows,
            ("metric", "difference", "95% low", "95% high"),
        )


def bench(
    scenario: Path = typer.Argument(Path("scenarios/assistant_7b.yaml"), help="Scenario to time."),
    reps: int = typer.Option(200, "--reps"),
    workers: int | None = WORKERS,
    seed: int = SEED,
    as_json: bool = JSON_OPTION,
) -> None:
    """Measure the model's speed against a bare SimPy loop on this machine."""
    from sim.bench import bench as measure

    w, _ = check_options(reps, workers, "local", "playbook")
    result = measure(load_scenario(scenario), reps=reps, workers=w, seed=seed)
    if as_json:
        emit_json(result)
    else:
        table("Speed", [(k, v) for k, v in result.items() if k != "scenario"], ("measure", "value"))


def register(app: typer.Typer) -> None:
    app.command()(guarded(run))
    app.command()(guarded(compare))
    app.command()(guarded(bench))
