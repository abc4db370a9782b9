"""``rubric``: judge an interview plan (PLAN.json) against the question's rubric."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from sim.cli.common import JSON_OPTION, USAGE_EXIT, UserError, emit_json, guarded, stdout, table

PlanArgument = Annotated[
    str, typer.Argument(metavar="PLAN.json", help="An interview plan saved by the app.")
]
REPS = typer.Option(40, "--reps", help="Replications of the simulated outcome (0: skip it).")
SEED = typer.Option(0, "--seed", help="Seed of the common random numbers.")
LLM = typer.Option(
    False, "--llm",
    help="Also ask the language model named by TRAININGROOM_LLM_BASE_URL and "
    "TRAININGROOM_LLM_MODEL for a note per item (never part of the score).",
)  # fmt: skip


@guarded
def rubric(
    plan_file: PlanArgument,
    reps: int = REPS,
    seed: int = SEED,
    json_output: bool = JSON_OPTION,
    llm: bool = LLM,
) -> None:
    """Judge PLAN.json item by item (met, partly met, missed) beside its simulated outcome."""
    from sim.interview.llm_judge import ENV_BASE_URL, ENV_MODEL, llm_config, llm_notes
    from sim.interview.plan import PlanError, load_plan
    from sim.interview.risks import compare_designs
    from sim.interview.rubric import judge

    if reps < 0:
        raise UserError(f"--reps must be 0 or more, got {reps}")
    config = llm_config() if llm else None
    if llm and config is None:
        raise UserError(f"--llm needs {ENV_BASE_URL} and {ENV_MODEL} in the environment")
    try:
        plan = load_plan(plan_file)
    except PlanError as exc:
        for p in exc.problems:
            typer.echo(str(p), err=True)
        raise typer.Exit(USAGE_EXIT) from None
    outcome = compare_designs(plan, reps, seed) if reps else None
    report = judge(plan, outcome)
    data = report.to_dict()
    if config is not None:
        notes = llm_notes(plan, report, config)
        data["llm"] = {"model": notes.model, "notes": notes.notes, "error": notes.error}
    if json_output:
        emit_json(data)
        return
    _print(data)


STYLE = {"met": "green", "partly": "yellow", "missed": "red", "not_played": "red",
         "did_not_arise": "dim", "not_run": "dim"}  # fmt: skip


def _print(data: dict[str, Any]) -> None:
    from sim.interview.rubric import STATUS_LABEL

    t = Table(title=f"Rubric: score {data['score']:.0%}", title_justify="left", show_lines=True)
    for column in ("item", "verdict", "evidence"):
        t.add_column(column, justify="left", overflow="fold")
    for i in data["items"]:
        verdict = f"[{STYLE[i['status']]}]{STATUS_LABEL[i['status']]}[/]"
        t.add_row(f"{i['part']}: {i['title']}", verdict, "\n".join(f"• {e}" for e in i["evidence"]))
    stdout.print(t)
    if data["outcome"]:
        table(
            "Simulated outcome (same worlds for every design)",
            [
                (name, s["schedule_days"]["p50"], s["cost_usd"]["p50"], s["p_success"])
                for name, s in data["outcome"].items()
            ],
            ("design", "finish P50 (days)", "cost P50 (USD)", "P(all objectives met)"),
        )
    llm = data.get("llm")
    if llm:
        if llm["error"]:
            stdout.print(f"Language model {llm['model']}: {llm['error']}")
        else:
            table(
                f"Notes from {llm['model']} (beside the verdicts; not part of the score)",
                list(llm["notes"].items()),
                ("item", "note"),
            )
    stdout.print("Items not met say what a strong answer adds: use --json to read them.")


def register(app: typer.Typer) -> None:
    """Add ``rubric`` to the app."""
    app.command("rubric", no_args_is_help=True)(rubric)
