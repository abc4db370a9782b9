"""What ``optimize`` runs: its settings checked, and the search with a progress bar.

Imported in the command's body (:mod:`sim.cli.optimize`), so its ``--help`` does not load
Optuna or the model.
"""

from __future__ import annotations

import logging
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

from sim.cli.common import Stopped, UserError, progress_bar
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


class _NoInterruptedTrial(logging.Filter):
    """Optuna logs a trial stopped by Ctrl-C as failed, with its traceback: not news."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        text = str(record.msg)
        return not isinstance(exc, KeyboardInterrupt) and not (
            "KeyboardInterrupt" in text or text.endswith("failed with value None.")
        )


def search(base: Any, s: Settings, quiet: bool) -> Search:
    """Run the search, with a progress bar on stderr unless ``quiet``.

    Ctrl-C stops it at once: the stopped trial is dropped, a stored study keeps the
    trials that finished (the same command resumes it), and nothing else is saved.
    """
    import optuna  # its handler is made on first use; the filter goes there (children log)

    optuna.logging.get_logger("optuna")
    for handler in logging.getLogger("optuna").handlers:
        handler.addFilter(_NoInterruptedTrial())
    finished = ["before its first trial"]
    try:
        return _search(base, s, quiet, finished)
    except KeyboardInterrupt:
        kept = (
            f"study {s.study_name!r} keeps its finished trials (the same command resumes it)"
            if s.study_name
            else "nothing was saved"
        )
        raise Stopped(finished[0], kept) from None


def _search(base: Any, s: Settings, quiet: bool, finished: list[str]) -> Search:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with progress_bar(not quiet, *columns) as bar:
        task = bar.add_task("trials", total=s.trials) if bar else None
        screening = bar.add_task("each change alone", total=None) if bar else None
        best: list[float] = []

        def on_trial(r: TrialRecord, done: int, total: int) -> None:
            finished[0] = f"after {done} of {total} trials"
            if r.state == "complete" and r.value is not None:
                best.append(r.value)
            lead = f"best {s.objective} {max(best):.0%}" if best else "trials"
            if bar is not None and task is not None:
                bar.update(task, completed=done, description=lead)

        def on_screen(done: int, total: int) -> None:
            finished[0] = f"while trying each change alone ({done:,} of {total:,} worlds)"
            if bar is not None and screening is not None:
                bar.update(screening, completed=done, total=total)

        return run_search(base, s, on_trial, on_screen)
