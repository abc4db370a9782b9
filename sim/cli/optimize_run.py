"""What ``optimize`` runs: its settings checked, and the search with a progress bar.

Imported in the command's body (:mod:`sim.cli.optimize`), so its ``--help`` does not load
Optuna or the model.
"""

from __future__ import annotations

from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sim.cli.common import UserError, stderr
from sim.compare.search import OBJECTIVE_COLUMNS, Search, Settings, TrialRecord, run_search
from sim.compare.space import Constraints, check_constraints
from sim.intervals import MIN_WORLDS
from sim.scenario.problems import suggestion


def settings(base: Any, objective: str, c: Constraints, **kw: Any) -> Settings:
    """The search's settings, each option checked against what the search accepts."""
    if objective not in OBJECTIVE_COLUMNS:
        raise UserError(
            f"--objective {objective!r}: " + suggestion(objective, OBJECTIVE_COLUMNS, "one of")
        )
    problems = check_constraints(base, c)
    if problems:
        raise UserError("; ".join(problems))
    if kw["trials"] < 1:
        raise UserError(f"--trials must be at least 1, got {kw['trials']}")
    for opt in ("reps", "confirm_reps"):
        if kw[opt] < MIN_WORLDS:
            raise UserError(
                f"--{opt.replace('_', '-')} {kw[opt]} is too few: at least {MIN_WORLDS} worlds"
            )
    return Settings(objective=objective, constraints=c, **kw)


def search(base: Any, s: Settings, quiet: bool) -> Search:
    """Run the search, with a progress bar on stderr unless ``quiet``."""
    if quiet:
        return run_search(base, s)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=stderr, transient=True) as bar:
        task = bar.add_task("trials", total=s.trials)
        best: list[float] = []

        def on_trial(r: TrialRecord, done: int, total: int) -> None:
            if r.state == "complete" and r.value is not None:
                best.append(r.value)
            lead = f"best {s.objective} {max(best):.0%}" if best else "trials"
            bar.update(task, completed=done, description=lead)

        screening = bar.add_task("each change alone", total=None)

        def on_screen(done: int, total: int) -> None:
            bar.update(screening, completed=done, total=total)

        return run_search(base, s, on_trial, on_screen)
