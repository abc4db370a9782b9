"""``play``, ``replay`` and ``debrief``: one play of a scenario, saved, replayed, priced.

The commands and their options; the game and the debrief are imported in their bodies
(:mod:`sim.cli.plays_run`), so their ``--help`` starts at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from sim.cli.common import JSON_OPTION, UserError, emit_json, fmt, guarded, stdout, table
from sim.cli.tables import Col, difference, money, percent, with_unit
from sim.glossary import used
from sim.metrics import HEADLINE, LABELS, label
from sim.names import NEIGHBOUR_WORLDS, POLICY_NAMES
from sim.scenario.loading import load_scenario
from sim.scenario.problems import suggestion
from sim.scenario.spec import Scenario
from sim.scenario.vocabulary import decision_title, option_help, option_words, words

#: How ``debrief`` ranks decisions (sim.play.debrief.impact), in words.
RANKING = (
    "Impact ranks each alternative by what it would have changed, in one number: days saved "
    "as a share of the deadline + dollars saved as a share of the budget + 10 × the gain in "
    "mean target-eval score + 1 if it turns the outcome into success (-1 if the reverse). "
    "Positive means the alternative would have done better. A decision's size is its "
    "largest |impact|; the one that mattered most has the largest."
)


def decision_name(key: str) -> str:
    """A decision's key as a person reads it: ``rollback#1`` is "rollback 2" (the second)."""
    kind, _, n = key.partition("#")
    return f"{words(kind)} {int(n) + 1}" if n.isdigit() else words(kind)


def _days(value: float) -> str:
    """A change in days to a tenth (a hundredth when a tenth would read as none): ``+1.5``."""
    return f"{value:+.2f}" if 0 < abs(value) < 0.05 else f"{value:+.1f}"


def _print_outcome(title: str, row: dict[str, Any], scenario: Scenario | None = None) -> None:
    if scenario is not None:
        objective = scenario.objective
        stdout.print(
            f"Deadline {objective.deadline_days:g} days; budget "
            f"{money(objective.budget.total_usd)} (reserve "
            f"{percent(scenario.levers.reserve_fraction, 0)}).",
            markup=False,
            highlight=False,
        )
    rows = [
        (
            label(k),
            fmt(row[k]) if LABELS[k].kind == "probability" else with_unit(row[k], LABELS[k].unit),
        )
        for k in (m.key for m in HEADLINE)
    ]
    table(title, rows, ("outcome", "value"))


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
    from sim.engine.decisions import POLICY_NAMES as known
    from sim.play.game import Game

    if policy not in known:
        raise UserError(f"--policy {policy!r}: " + suggestion(policy, known, "one of"))
    game = Game(load_scenario(scenario, tuple(overrides or ())), seed=seed)
    row = game.play_to_end(policy)
    if save is not None:
        try:
            save.write_text(game.save(), encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{save}: cannot write: {exc.strerror}") from None
    decisions = [d.as_dict() for d in game.model.recording.decisions]
    if as_json:
        emit_json({"outcome": row, "decisions": decisions, "saved": str(save) if save else None})
        return
    _print_outcome(f"{game.scenario.name}, world {seed}, decided by {policy}", row, game.scenario)
    table(
        "Decisions",
        [
            (
                decision_name(d["key"]),
                f"{d['day']:.1f}",
                words(d["owner"]),
                option_words(d["choice"]),
            )
            for d in decisions
        ],  # fmt: skip
        ("decision", "day", Col("who", text=True), Col("choice", text=True)),
    )
    for choice in dict.fromkeys(d["choice"] for d in decisions):
        stdout.print(f"- {option_words(choice)}: {option_help(choice)}", markup=False)
    stdout.print(used("world", "playbook"), markup=False, highlight=False)


def replay_command(
    play_file: Path = typer.Argument(..., help="A saved play (JSON)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Replay a saved play to its outcome (identical to the original, on the same engine)."""
    from sim.cli.plays_run import read_play
    from sim.play.game import Game

    log = read_play(play_file)
    saved = [dict(d) for d in log.decisions]
    game = Game.from_log(log)
    row = game.play_to_end()
    played = [{"key": d.key, "choice": d.choice} for d in game.model.recording.decisions]
    matches, verdict = replay_verdict(saved, played)
    notice = log.version_notice()
    if as_json:
        emit_json({"outcome": row, "engine_version": log.engine_version, "notice": notice,
                   "matches": matches, "verdict": verdict})  # fmt: skip
    else:
        if notice:
            stdout.print(f"Note: {notice}", markup=False, highlight=False)
        _print_outcome(f"Replay of {play_file}", row, game.scenario)
        stdout.print(verdict, markup=False, highlight=False)


def replay_verdict(saved: list[dict[str, str]], played: list[dict[str, str]]) -> tuple[bool, str]:
    """Whether a replay took every decision of the saved play, in order; else where not."""
    for i, (was, now) in enumerate(zip(saved, played, strict=False)):
        if was != now:
            return False, (
                f"Differs from the saved play at decision {i + 1}: saved {was['key']} → "
                f"{was['choice']}, replayed {now['key']} → {now['choice']}."
            )
    if len(played) < len(saved):
        return False, (
            f"Differs from the saved play: it recorded {len(saved)} decisions, the replay "
            f"reached {len(played)} (the first not reached: {saved[len(played)]['key']})."
        )
    extra = len(played) - len(saved)
    tail = f"; the playbook answered the {extra} after them" if extra else ""
    return True, f"Matches the saved play: its {len(saved)} decisions, in order{tail}."


def debrief(
    play_file: Path = typer.Argument(..., help="A saved play (JSON)."),
    worlds: int = typer.Option(
        NEIGHBOUR_WORLDS,
        "--worlds",
        help="Neighbouring worlds behind each lesson's noise check (2 to 200).",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Each decision against every other option, replayed in the same world.

    Then the lessons whose counterfactual moved this play beyond noise (see --worlds).
    """
    from sim.cli.plays_run import print_lessons, read_play
    from sim.play.debrief import make_debrief
    from sim.play.lessons.check import MAX_WORLDS

    if not 2 <= worlds <= MAX_WORLDS:
        raise UserError(f"--worlds must be between 2 and {MAX_WORLDS}, got {worlds}")
    report = make_debrief(read_play(play_file), worlds=worlds)
    best = report.most_mattered
    check = report.lesson_report
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
                "lesson_check": check.as_dict() if check else None,
            }
        )
        return
    rows: list[tuple[str, ...]] = []
    for d in report.decisions:
        rows.append((f"{decision_name(d.key)}, day {d.day:.0f}: {words(d.owner)} chose "
                     f"{option_words(d.choice)}", "", "", "", ""))  # fmt: skip
        for k, a in enumerate(sorted(d.alternatives, key=lambda a: -abs(a.impact))):
            mark = " ◀" if d is best and k == 0 else ""
            rows.append(
                (
                    f"  → {option_words(a.choice)}",
                    _days(a.delta_schedule_days),
                    difference(a.delta_cost_usd, "USD"),
                    f"{100 * a.delta_quality:+.2f}",
                    f"{a.impact:+.3f}{mark}",
                )
            )
    table(
        "Had you chosen otherwise (same world; + means more days, dollars or quality points "
        "out of 100)",
        rows,
        ("decision → instead", "Δ days", "Δ cost", "Δ quality", "impact"),
    )
    stdout.print(RANKING, markup=False, highlight=False)
    if best is not None:
        top = max(best.alternatives, key=lambda a: abs(a.impact))
        stdout.print(
            f"The decision that mattered most: {decision_name(best.key)} on day {best.day:.0f} "
            f"({decision_title(best.kind)} {words(best.owner)} chose "
            f"{option_words(best.choice)}; "
            f"{option_words(top.choice)} instead has "
            f"impact {top.impact:+.3f}, marked ◀).",
            markup=False,
        )
    if check is not None:
        print_lessons(check)
    stdout.print(used("world", "similar-worlds", "counterfactual", "points", "scope"),
                 markup=False, highlight=False)  # fmt: skip


def register(app: typer.Typer) -> None:
    app.command()(guarded(play))
    app.command("replay")(guarded(replay_command))
    app.command()(guarded(debrief))
