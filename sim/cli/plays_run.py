"""What ``replay`` and ``debrief`` need of the game once they run: a saved play, read.

Imported in the commands' bodies (:mod:`sim.cli.plays`), so their ``--help`` does not
load the model.
"""

from __future__ import annotations

from pathlib import Path

from sim.cli.common import UserError, stdout
from sim.glossary import DOC_PATH, METHODS
from sim.play.game import PlayError, PlayLog
from sim.play.lessons.check import LessonReport, grouped
from sim.play.lessons.words import OUTSIDE_LEAD


def read_play(path: Path) -> PlayLog:
    """The play saved in ``path``, its scenario checked; a user error if it cannot be."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path}: not UTF-8 text") from None
    try:
        log = PlayLog.from_json(text, str(path))
    except PlayError as exc:
        raise UserError(str(exc)) from None
    try:
        log.scenario()  # a play whose scenario no longer validates says so here, not later
    except PlayError as exc:
        raise UserError(f"{path}: {exc}") from None
    return log


def print_lessons(check: LessonReport) -> None:
    """The lessons this play shows beyond noise, and those checked without effect."""
    stdout.print(
        f"\nWhat this play shows: each lesson's counterfactual on this world, kept when it "
        f"moved beyond noise over {check.neighbours}, adjusted for its {check.tests} "
        f"tests together¹ ({check.replays} replays, {check.seconds:.1f} s).\n"
        f"¹ {METHODS[0][0]}: {DOC_PATH}, Statistical methods.",
        markup=False,
    )
    if not check.shown:
        stdout.print("No lesson moved this play's outcome beyond noise.", markup=False)
    seen: set[str] = set()  # why this world lies outside: the same for every line, said once
    for title, findings in grouped(check.shown):
        stdout.print(f"- {title}:", markup=False)
        for f in findings:
            stdout.print(f"    {f.line}.", markup=False)
            for note in f.notes:
                if note not in seen:
                    stdout.print(f"      · {note}", markup=False)
                if note.startswith(OUTSIDE_LEAD):
                    seen.add(note)
    quiet = check.unmoved
    if quiet:
        stdout.print(
            f"Checked, no measurable effect here ({len(quiet)}; `debrief --json` has each "
            f"one's figures):",
            markup=False,
        )
        for f in quiet:
            stdout.print(f"    {f.label}", markup=False)
