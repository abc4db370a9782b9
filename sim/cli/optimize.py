"""``optimize``: search the design space for the designs that best meet the objective.

The command and its options; the search (Optuna, the model) is imported in its body
(:mod:`sim.cli.optimize_run`), so its ``--help`` starts at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, Stopped, UserError, emit_json, guarded, stdout, table
from sim.cli.runs import EXECUTOR, SCHEDULER, SEED, SET, WORKERS
from sim.cli.tables import Col, money, percent
from sim.format import pp_signed
from sim.glossary import methods_line, used
from sim.metrics import label
from sim.names import CHOICE_FAMILIES, OBJECTIVES
from sim.scenario.loading import load_scenario


def _write(folder: Path, file: str, name: str, base_source: str, changes: Any) -> str:
    from sim.designs import DesignFile, design_yaml

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(design_yaml(DesignFile(name, base_source, changes)), encoding="utf-8")
    return str(path)


def _save(result: dict[str, Any], base_source: str, folder: Path, cheaper: bool) -> list[str]:
    """The recommendation and the best designs when one beats the baseline; else nothing.

    ``cheaper`` adds the frontier's designs that cost less than the baseline.
    """
    out = []
    rec = result.get("recommended")
    if rec and rec["beats_baseline"]:
        out.append(_write(folder, "recommended.yaml", "Search recommendation", base_source,
                          rec["changes"]))  # fmt: skip
        for i, d in enumerate(result["top"], start=1):
            name = f"Search best {i} (trial {d['trial']})"
            out.append(_write(folder, f"best-{i}.yaml", name, base_source, d["changes"]))
    if cheaper:
        for i, p in enumerate(result["cheaper"], start=1):
            name = f"Search frontier, cheaper {i} (trial {p['trial']})"
            out.append(_write(folder, f"cheaper-{i}.yaml", name, base_source, p["changes"]))
    return out


def _worth(w: dict[str, Any] | None) -> str:
    """A change's worth on the objective, a chance: in percentage points."""
    if not w:
        return "not measured"
    return f"{pp_signed(w['mean'])} ({100 * w['low']:+.1f} to {pp_signed(w['high'])})"


def _joined(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _print_recommended(result: dict[str, Any], say: Any) -> None:
    rec = result.get("recommended")
    if not rec:
        return
    p = rec["pruning"]
    say(
        f"Recommended: {len(rec['each'])} of the {p['changes_before']} changes of trial "
        f"{p['from_trial']} pay (pruned on {p['worlds']} fresh worlds, seed {p['seed']}; "
        "each change's worth below is on the confirmation's worlds):"
    )
    for ch in rec["each"]:
        say(f"  - {ch['what']}: {_worth(ch['worth'])}; {ch['why']}")
    if rec["dropped"]:
        say(f"  dropped {len(rec['dropped'])} (worth when dropped): " + "; ".join(
            f"{d['what']} ({_worth(d['worth'])})" for d in rec["dropped"][:6]
        ) + ("; ..." if len(rec["dropped"]) > 6 else ""))  # fmt: skip
    for line in rec.get("verdict", []):
        say(f"  {line}")


def _nothing(result: dict[str, Any], saved: list[str], asked: bool, say: Any) -> None:
    obj = result["objective"]
    offers = ", ".join(
        f"trial {p['trial']} ({label(obj).lower()} {p[obj]:.0%}, {money(p['cost_usd_mean'])})"
        for p in result["cheaper"][:3]
    )
    what = f"saved {len(saved)} cheaper frontier designs" if saved else "saved nothing"
    if not asked:
        what = "nothing to save"
    offer = (
        f"; cheaper on the frontier: {offers} (--save DIR --save-cheaper writes them)"
        if offers
        else "; no cheaper design on the frontier"
    )
    say(f"{result['nothing_better']}: {what}{offer}.")


def _print(result: dict[str, Any]) -> None:
    say = lambda line: stdout.print(line, markup=False, highlight=False)  # noqa: E731
    obj = result["objective"]
    counts = result["search"]["counts"]
    rungs = result["rungs"]
    say(
        f"{result['trials']} trials ({', '.join(f'{n} {k}' for k, n in counts.items())}); each "
        f"trial played {_joined([str(n) for n in rungs])} worlds in turn (rungs), the weaker "
        f"stopped (pruned) after each; seed {result['seed']}. The best confirmed on "
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
    _print_recommended(result, say)
    table(
        "Baseline and the best designs (fresh worlds)",
        rows,
        ("design", label(obj), "cost (mean)", "schedule P50", "changes"),
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
        ("trial", label(obj), "cost (mean)"),
        text_columns=0,
    )
    imp = result["importance"]["params"][:8]
    if imp:
        table(
            f"Which changes mattered to the {label(obj).lower()} (on/off, paired on common worlds)",
            [
                (
                    str(p["rank"]),
                    p["what"],
                    pp_signed(p["importance"]),
                    f"{100 * p['low']:+.1f} to {pp_signed(p['high'])}",
                )
                for p in imp
            ],
            ("rank", Col("change", text=True), "worth", "95% interval"),
            text_columns=0,
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
        help="Write the recommendation (recommended.yaml) and the best designs "
        "(best-1.yaml...) into DIR, when one beats the baseline.",
    ),
    save_cheaper: bool = typer.Option(
        False,
        "--save-cheaper",
        help="With --save: also write the frontier's designs that cost less than the "
        "baseline (cheaper-1.yaml...).",
    ),
    screen: bool = typer.Option(
        True,
        "--screen/--no-screen",
        help="First try each change alone on the baseline's worlds and start the search "
        "from those that pay (default on).",
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
        screen=screen,
    )
    try:
        found = search(base, s, as_json)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        result = report(found, confirmed(found))
    except KeyboardInterrupt:
        kept = f"study {study!r} keeps its trials" if study else "nothing was saved"
        raise Stopped(
            f"after its {trials} trials, while confirming the best designs on fresh worlds", kept
        ) from None
    saved = _save(result, scenario.name, save, save_cheaper) if save is not None else []
    result["saved"] = saved
    if as_json:
        emit_json(result)
        return
    _print(result)
    say = lambda line: stdout.print(line, markup=False, highlight=False)  # noqa: E731
    if result["nothing_better"]:
        _nothing(result, saved, save is not None, say)
    if saved:
        names = ", ".join(Path(path).name for path in saved)
        say(f"Saved {len(saved)} design file{'s' if len(saved) != 1 else ''} in {save}: {names}.")
    elif save is not None and not result["nothing_better"]:  # that line said so already
        say(f"--save {save}: nothing written there (no design to save).")
    from sim.compare.analysis import METHOD_NAMES

    say(methods_line(*METHOD_NAMES))
    say(used("rung", "world", "scope", "points", "percentage-points", "interval"))


def register(app: typer.Typer) -> None:
    app.command()(guarded(optimize))
