"""``rubric``: judge an interview plan (PLAN.json) against the question's rubric.

The verdicts are recomputed from the plan's decisions: the follow-ups are replayed from
the candidate's calls and the design is simulated on the same worlds the app uses
(:data:`sim.interview.risks.DESIGN_REPS`, :data:`~sim.interview.risks.DESIGN_SEED`). The
model's own figures are shown only with ``--hand-in``, which saves the attempt to the
practice store as the app's hand-in does, so a later attempt copying them is flagged.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from sim.cli.common import JSON_OPTION, USAGE_EXIT, UserError, emit_json, guarded, stdout, table
from sim.cli.tables import Col

PlanArgument = Annotated[
    str,
    typer.Argument(
        metavar="PLAN.json",
        help="An interview plan saved by the app (with --prose: a text answer).",
    ),
]
PROSE = typer.Option(
    False, "--prose",
    help="PLAN.json is an answer in words (a text file): read it into a plan, show every "
    "reading with its sentence, and judge it. Unsure readings are left out until confirmed.",
)  # fmt: skip
FOLLOWUP = typer.Option(
    None, "--followup", metavar="FOLLOWUP=FILE",
    help="With --prose: a follow-up answered in words (loss_spike, budget_cut, "
    "benchmarks_vs_product), read as your calls and played on your design. Repeatable.",
)  # fmt: skip
CONFIRM = typer.Option(
    None, "--confirm", metavar="KEY",
    help="With --prose: confirm an unsure reading by its key (reserve=0.12), or correct a "
    "follow-up's unsure call (call:budget_cut=use_reserve). Repeatable.",
)  # fmt: skip
CONFIRMED = typer.Option(
    None, "--confirmed", metavar="FILE",
    help="With --prose: a file of confirmed reading keys, one a line (# starts a comment).",
)  # fmt: skip
REPS = typer.Option(
    None, "--reps", show_default="the app's worlds",
    help="Replications of the simulated outcome (0: skip it).",
)  # fmt: skip
SEED = typer.Option(None, "--seed", show_default="the app's seed",
                    help="Seed of the common random numbers.")  # fmt: skip
HAND_IN = typer.Option(
    False, "--hand-in",
    help="Hand the attempt in: show the model's own figures (its compute estimate) and save "
    "the attempt to the practice store, as the app's hand-in does.",
)  # fmt: skip
LLM = typer.Option(
    False, "--llm",
    help="Also ask the language model named by TRAININGROOM_LLM_BASE_URL and "
    "TRAININGROOM_LLM_MODEL for a note per item (never part of the score).",
)  # fmt: skip


@guarded
def rubric(
    plan_file: PlanArgument,
    reps: int | None = REPS,
    seed: int | None = SEED,
    json_output: bool = JSON_OPTION,
    llm: bool = LLM,
    hand_in: bool = HAND_IN,
    prose: bool = PROSE,
    followup: list[str] | None = FOLLOWUP,
    confirm: list[str] | None = CONFIRM,
    confirmed: str | None = CONFIRMED,
) -> None:
    """Judge PLAN.json item by item (met, partly met, missed) beside its simulated outcome."""
    from sim.interview.llm_judge import ENV_BASE_URL, ENV_MODEL, llm_config, llm_notes
    from sim.interview.plan import PlanError, load_plan
    from sim.interview.risks import DESIGN_REPS, DESIGN_SEED, compare_designs
    from sim.interview.rubric import judge

    reps = DESIGN_REPS if reps is None else reps
    seed = DESIGN_SEED if seed is None else seed
    if reps < 0:
        raise UserError(f"--reps must be 0 or more, got {reps}")
    config = llm_config() if llm else None
    if llm and config is None:
        raise UserError(f"--llm needs {ENV_BASE_URL} and {ENV_MODEL} in the environment")
    words = None
    if prose:
        words = _read_words(plan_file, followup or [], [*(confirm or []), *_keys(confirmed)])
        plan = words.plan
    elif followup or confirm or confirmed:
        raise UserError("--followup, --confirm and --confirmed go with --prose")
    else:
        try:
            plan = load_plan(plan_file)
        except PlanError as exc:
            for p in exc.problems:
                typer.echo(str(p), err=True)
            raise typer.Exit(USAGE_EXIT) from None
    outcome = compare_designs(plan, reps, seed) if reps else None
    report = judge(plan, outcome, _revealed(plan), reveal=hand_in)
    if hand_in:
        _save(plan, report)
    data = report.to_dict()
    if words is not None:
        data["readings"] = [_reading(r, words) for r in words.readings]
        data["asked"] = [r.key for r in words.asked]
        data["messages"] = list(words.messages)
    if config is not None:
        notes = llm_notes(plan, report, config)
        data["llm"] = {"model": notes.model, "notes": notes.notes, "error": notes.error}
    if json_output:
        emit_json(data)
        return
    if words is not None:
        _print_words(plan_file, words)
    _print(data, report)


def _text(path: str, what: str) -> str:
    from pathlib import Path

    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read {what}: {exc}") from None


def _keys(path: str | None) -> list[str]:
    """Confirmed reading keys from a file, one a line; blank lines and # comments skipped."""
    if path is None:
        return []
    lines = (
        line.split("#", 1)[0].strip() for line in _text(path, "confirmed readings").splitlines()
    )
    return [line for line in lines if line]


def _read_words(path: str, followups: list[str], confirmed: list[str]) -> Any:
    from sim.interview.followups import FOLLOWUPS
    from sim.interview.prose_followups import answer_in_words

    answers = {}
    for spec in followups:
        fid, sep, file = spec.partition("=")
        if not sep or fid not in FOLLOWUPS:
            raise UserError(
                f"--followup {spec}: expected FOLLOWUP=FILE with FOLLOWUP one of "
                + ", ".join(FOLLOWUPS)
            )
        answers[fid] = _text(file, f"the {fid} answer")
    return answer_in_words(_text(path, "the answer"), answers, confirmed)


def _reading(r: Any, words: Any) -> dict[str, Any]:
    status = (
        "asked" if r in words.asked
        else "corrected" if r.unsure
        else "confirmed" if r.key in words.confirmed
        else "read"
    )  # fmt: skip
    return {"field": r.field, "value": r.value, "key": r.key, "sentence": r.sentence,
            "status": status}  # fmt: skip


def _print_words(path: str, words: Any) -> None:
    shown = {"read": "read", "asked": "unsure: left out", "corrected": "corrected by you",
             "confirmed": "confirmed by you"}  # fmt: skip
    table(
        f"What was read from {path} (each reading beside its sentence)",
        [(r.field, r.value, shown[_reading(r, words)["status"]], r.sentence)
         for r in words.readings],
        ("read as", Col("value", text=True), Col("reading", text=True),
         Col("from the sentence", text=True)),
    )  # fmt: skip
    for m in words.messages:
        stdout.print(m)
    if words.asked:
        stdout.print(
            f"{len(words.asked)} readings are unsure and were left out, never guessed. Confirm "
            "one with --confirm KEY (or list keys in a file for --confirmed): "
            + ", ".join(r.key for r in words.asked)
        )


def _revealed(plan: Any) -> list[float]:
    """The model's figures earlier hand-ins showed this candidate (to flag a copy)."""
    from sqlalchemy.exc import SQLAlchemyError

    from sim.interview.store import PracticeStore

    if not plan.candidate:
        return []
    try:
        return PracticeStore().revealed_estimates(plan.candidate, plan)
    except SQLAlchemyError:
        return []


def _save(plan: Any, report: Any) -> None:
    from datetime import UTC, datetime

    from sqlalchemy.exc import SQLAlchemyError

    from sim.interview.markdown import session_markdown
    from sim.interview.store import PracticeStore

    handed = plan.model_copy(update={"judged_at": datetime.now(UTC).isoformat()})
    try:
        PracticeStore().save(handed, report, session_markdown(handed, report))
    except SQLAlchemyError as exc:
        typer.echo(f"The attempt was not saved to the practice store: {exc}", err=True)


STYLE = {"met": "green", "partly": "yellow", "missed": "red", "not_played": "red",
         "did_not_arise": "dim", "not_run": "dim"}  # fmt: skip


def _said(claims: list[dict[str, Any]]) -> str:
    """An item's claims in a few words under its verdict: how many right, thin, wrong."""
    n = {s: sum(c["stance"] == s for c in claims) for s in ("sound", "thin", "unsound")}
    parts = [f"{n['sound']} right"] if n["sound"] else []
    parts += [f"{n['thin']} thin"] if n["thin"] else []
    parts += [f"[red]{n['unsound']} wrong[/]"] if n["unsound"] else []
    return ("\n" + ", ".join(parts)) if parts else ""


def _print(data: dict[str, Any], report: Any) -> None:
    from sim.interview.rubric import STATUS_LABEL

    grade = f"grade {data['grade']:.2f}"
    t = Table(title=f"Rubric: score {data['score']:.0%}, {grade}", title_justify="left",
              show_lines=True)  # fmt: skip
    for column in ("item", "verdict", "evidence"):
        t.add_column(column, justify="left", overflow="fold")
    for i in data["items"]:
        verdict = f"[{STYLE[i['status']]}]{STATUS_LABEL[i['status']]}[/]" + _said(i["claims"])
        t.add_row(
            f"{i['part']}: {i['title']}",
            verdict,
            "\n".join(
                [f"• {e}" for e in i["evidence"]]
                + [
                    f"• Wrong: {c['evidence'] or c['name']}"
                    for c in i["claims"]
                    if c["stance"] == "unsound"
                ]  # fmt: skip
            ),
        )
    stdout.print(t)
    table("What the answer covers, and how sound it is", list(report.standing()),
          ("measure", "figure", Col("what it says", text=True)))  # fmt: skip
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
