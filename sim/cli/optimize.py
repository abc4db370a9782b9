"""``optimize``: search the design space for the designs that best meet the objective.

The command and its options; the search (Optuna, the model) is imported in its body
(:mod:`sim.cli.optimize_run`), so its ``--help`` starts at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stdout, table
from sim.cli.runs import EXECUTOR, SCHEDULER, SEED, SET, WORKERS
from sim.cli.tables import money, percent
from sim.names import CHOICE_FAMILIES, OBJECTIVES
from sim.scenario.loading import load_scenario


def _save(result: dict[str, Any], base_source: str, folder: Path) -> list[str]:
    from sim.designs import DesignFile, design_yaml

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i, d in enumerate(result["top"], start=1):
        path = folder / f"best-{i}.yaml"
        name = f"Search best {i} (trial {d['trial']})"
        path.write_text(design_yaml(DesignFile(name, base_source, d["changes"])), encoding="utf-8")
        out.append(str(path))
    return out


def _print(result: dict[str, Any]) -> None:
    say = lambda line: stdout.print(line, markup=False, highlight=False)  # noqa: E731
    obj = result["objective"]
    counts = result["search"]["counts"]
    say(
        f"{result['trials']} trials ({', '.join(f'{n} {k}' for k, n in counts.items())}), worlds "
        f"per rung {result['rungs']}, seed {result['seed']}; confirmed on "
        f"{result['confirm_reps']} fresh worlds."
    )
    rows = []
    for d in [result["baseline"], *result["top"]]:
        rows.append(
            (
                d["name"],
                percent(d[obj]),
                money(d["cost_usd"]["mean"]),
                f"{d['schedule_days']['p50']:.0f} d",
                str(len(d.get("changes", {}))),
            )
        )
    table(
        "Baseline and the best designs (fresh worlds)",
        rows,
        ("design", obj, "cost (mean)", "schedule P50", "changes"),
    )
    for d in result["top"]:
        say(f"{d['name']} changes:")
        for line in d["changes_in_words"]:
            say(f"  - {line}")
        for line in d["verdict"]:
            say(f"  {line}")
    table(
        "Trade-off frontier (search worlds)",
        [(str(p["trial"]), percent(p[obj]), money(p["cost_usd_mean"])) for p in result["frontier"]],
        ("trial", obj, "cost (mean)"),
    )
    imp = result["importance"]["params"][:8]
    if imp:
        table(
            "Which choices mattered most",
            [(p["choice"], f"{p['importance']:.2f}", p["what"]) for p in imp],
            ("choice", "importance", "what it is"),
            text_columns=1,
        )
        say(f"Importance: {result['importance']['method']}.")


def optimize(
    scenario: Path = typer.Argument(
        ..., help="Base scenario YAML file (its design is the baseline)."
    ),
    objective: str = typer.Option(
        "p_success", "--objective", help=f"What to maximise: {', '.join(OBJECTIVES)}."
    ),
    budget: float | None = typer.Option(
        None,
        "--budget",
        metavar="USD",
        help="The project's total budget (the people line takes the difference).",
    ),
    max_headcount: int | None = typer.Option(
        None, "--max-headcount", metavar="N", help="At most N people over all teams."
    ),
    people_budget: float | None = typer.Option(
        None,
        "--people-budget",
        metavar="USD",
        help="Payroll cap: headcount x day rate x deadline days.",
    ),
    fix_team: list[str] | None = typer.Option(
        None, "--fix-team", metavar="ID", help="Keep this team's headcount (repeatable)."
    ),
    fix_right: list[str] | None = typer.Option(
        None, "--fix-right", metavar="KIND", help="Keep who holds this decision right (repeatable)."
    ),
    only: list[str] | None = typer.Option(
        None,
        "--only",
        metavar="FAMILY",
        help="Search only this family of choices (repeatable): "
        + ", ".join(CHOICE_FAMILIES)
        + "; the rest stay as the base has them.",
    ),
    trials: int = typer.Option(
        40, "--trials", help="Candidates the study tries in all (a resume runs the rest)."
    ),
    reps: int = typer.Option(
        90, "--reps", help="Worlds a candidate that survives every rung plays."
    ),
    confirm_reps: int = typer.Option(
        200,
        "--confirm-reps",
        help="Fresh worlds the best designs and the baseline are confirmed on.",
    ),
    top: int = typer.Option(3, "--top", help="How many best designs to confirm and show."),
    seed: int = SEED,
    workers: int | None = WORKERS,
    executor: str = EXECUTOR,
    scheduler: str | None = SCHEDULER,
    storage: str | None = typer.Option(
        None,
        "--storage",
        metavar="URL",
        help="SQLAlchemy URL of the study's database ('default': the saved-sessions database).",
    ),
    study: str | None = typer.Option(
        None,
        "--study",
        metavar="NAME",
        help="Name of the study, to stop and resume it (stored in --storage, default the "
        "saved-sessions database).",
    ),
    save: Path | None = typer.Option(
        None,
        "--save",
        metavar="DIR",
        help="Write the best designs as design files best-1.yaml... into DIR.",
    ),
    overrides: list[str] | None = SET,
    as_json: bool = JSON_OPTION,
) -> None:
    """Search the design space for the designs that best meet the objective."""
    from sim.cli.optimize_run import search, settings
    from sim.cli.runs_run import check_options
    from sim.compare.search_report import confirmed, report
    from sim.compare.space import Constraints, excluded_families
    from sim.storage import database_url

    w, ex = check_options(1, workers, executor, "playbook")
    base = load_scenario(scenario, tuple(overrides or ()))
    url = database_url() if storage == "default" or (study and not storage) else storage
    try:
        exclude = excluded_families(only or ())
    except ValueError as exc:
        raise UserError(str(exc)) from None
    c = Constraints(
        budget_usd=budget,
        max_headcount=max_headcount,
        people_budget_usd=people_budget,
        fixed_teams=tuple(fix_team or ()),
        fixed_rights=tuple(fix_right or ()),
        exclude=exclude,
    )
    s = settings(
        base,
        objective,
        c,
        trials=trials,
        reps=reps,
        confirm_reps=confirm_reps,
        top=top,
        seed=seed,
        workers=w,
        executor=ex,
        scheduler=scheduler,
        storage=url,
        study_name=study,
    )
    try:
        found = search(base, s, as_json)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    result = report(found, confirmed(found))
    if save is not None:
        result["saved"] = _save(result, scenario.name, save)
    if as_json:
        emit_json(result)
        return
    _print(result)
    for path in result.get("saved", []):
        stdout.print(f"saved {path}", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(guarded(optimize))
