"""``play``, ``replay`` and ``debrief``: one play of a scenario, saved, replayed, priced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, guarded, stdout, table
from sim.engine.decisions import POLICY_NAMES
from sim.play.debrief import make_debrief
from sim.play.game import Game, PlayError, PlayLog, replay
from sim.scenario.loading import load_scenario

HEADLINE = ("schedule_days", "cost_usd", "on_time", "on_budget", "quality_met", "success")


def _read_play(path: Path) -> PlayLog:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text") from None
    try:
        return PlayLog.from_json(text, str(path))
    except PlayError as exc:
        raise UserError(str(exc)) from None


def _print_outcome(title: str, row: dict[str, Any]) -> None:
    table(title, [(k, row[k]) for k in HEADLINE], ("outcome", "value"))


def play(
    scenario: Path = typer.Argument(..., help="Scenario YAML file."),
    seed: int = typer.Option(0, "--seed", help="Which world (seed) to play."),
    policy: str = typer.Option(
        "playbook", "--policy", help=f"Who decides: {', '.join(POLICY_NAMES)}."
    ),
    save: Path | None = typer.Option(None, "--save", help="Write the play (JSON) here."),
    overrides: list[str] | None = typer.Option(None, "--set", help="PATH=VALUE (repeatable)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Play one world of a scenario with a policy deciding; optionally save the play."""
    if policy not in POLICY_NAMES:
        raise UserError(f"--policy must be one of {', '.join(POLICY_NAMES)}, got {policy!r}")
    game = Game(load_scenario(scenario, tuple(overrides or ())), seed=seed)
    row = game.play_to_end(policy)
    if save is not None:
        try:
            save.write_text(game.save(), encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{save}: cannot write: {exc.strerror}") from None
    decisions = [d.as_dict() for d in game.model.decisions]
    if as_json:
        emit_json({"outcome": row, "decisions": decisions, "saved": str(save) if save else None})
        return
    _print_outcome(f"{game.scenario.name}, seed {seed}, decided by {policy}", row)
    table(
        "Decisions",
        [(d["key"], round(d["day"], 1), d["owner"], d["choice"]) for d in decisions],
        ("decision", "day", "who", "choice"),
    )


def replay_command(
    play_file: Path = typer.Argument(..., help="A saved play (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Replay a saved play to its outcome (identical to the original, on the same engine)."""
    log = _read_play(play_file)
    row = replay(log)
    notice = log.version_notice()
    if as_json:
        emit_json({"outcome": row, "engine_version": log.engine_version, "notice": notice})
    else:
        if notice:
            stdout.print(f"Note: {notice}", markup=False, highlight=False)
        _print_outcome(f"Replay of {play_file}", row)


def debrief(
    play_file: Path = typer.Argument(..., help="A saved play (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Each decision against every other option, replayed in the same world."""
    report = make_debrief(_read_play(play_file))
    best = report.most_mattered
    if as_json:
        emit_json(
            {
                "outcome": report.outcome,
                "most_mattered": best.key if best else None,
                "decisions": [
                    {
                        "key": d.key,
                        "day": d.day,
                        "owner": d.owner,
                        "choice": d.choice,
                        "alternatives": [a.__dict__ for a in d.alternatives],
                    }
                    for d in report.decisions
                ],
                "lessons": [{"id": i, "title": t, "evidence": e} for i, t, e in report.lessons],
            }
        )
        return
    rows = [
        (d.key, d.choice, a.choice, a.delta_schedule_days, a.delta_cost_usd, a.delta_quality)
        for d in report.decisions
        for a in d.alternatives
    ]
    table(
        "Had you chosen otherwise",
        rows,
        ("decision", "chose", "instead", "Δ days", "Δ USD", "Δ quality"),
    )
    if best is not None:
        stdout.print(
            f"The decision that mattered most: {best.key} on day {best.day:.0f}", markup=False
        )
    for _, title, evidence in report.lessons:
        stdout.print(f"- {title}: {evidence}", markup=False)


def register(app: typer.Typer) -> None:
    app.command()(guarded(play))
    app.command("replay")(guarded(replay_command))
    app.command()(guarded(debrief))
