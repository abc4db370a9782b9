"""The debrief's lines as a person reads them: every lesson template, on every shipped scenario.

Each shipped scenario is played by its playbook on two seeds and checked with every
intervention of the catalog; every line a debrief would state (the headline and its notes)
and every label of a counterfactual checked without effect must read as plain English:

- a headline is one sentence of at most :data:`HEADLINE_WORDS` words that gives this
  world's figure and, separately, the range over the similar worlds;
- no internal identifier (``snake_case``, ``rollback#0``) and no bare engine option name;
- no doubled words or spaces, balanced brackets, a capital first letter, no line ending in
  a dangling conjunction, and no phrase from the old wording (``there still``, ``paired
  over``, ``of score``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from sim.play.game import Game
from sim.play.lessons.check import LessonReport, check_lessons
from sim.play.lessons.words import HEADLINE_WORDS
from sim.scenario.loading import load_scenario
from sim.scenario.spec import DECISION_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
SEEDS = (3, 11)

#: Identifiers a reader should never see: snake_case words, ``name#3``, ``scope:cut``.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\w#\d|\b[a-z]+:[a-z_]+\b")
OLD_WORDING = ("there still", "paired over", "of score", "not equal scope", "on this world")
OPTIONS = {o for options in DECISION_OPTIONS.values() for o in options if "_" in o}


@cache
def report(path: Path, seed: int) -> LessonReport:
    game = Game(load_scenario(path), seed=seed)
    game.play_to_end("playbook")
    return check_lessons(game.current_log(), worlds=20)


def problems(text: str, headline: bool) -> list[str]:
    found = []
    if IDENTIFIER.search(text):
        found.append(f"an identifier: {IDENTIFIER.search(text).group(0)!r}")  # type: ignore[union-attr]
    found += [f"old wording {w!r}" for w in OLD_WORDING if w in text]
    found += [f"an option name {o!r}" for o in OPTIONS if o in text]
    if re.search(r"\b(\w+) \1\b", text, flags=re.IGNORECASE):
        found.append("a doubled word")
    if "  " in text or " ," in text or " ." in text or "( " in text or " )" in text:
        found.append("stray spacing")
    if text.count("(") != text.count(")"):
        found.append("unbalanced brackets")
    if not text[:1].isupper() and text[:1] not in "$0123456789":
        found.append("no capital first letter")
    if re.search(r"\b(and|or|the|of|to|with|by)\W*$", text):
        found.append("a dangling last word")
    if headline:
        words = len(text.split())
        if words > HEADLINE_WORDS:
            found.append(f"{words} words (at most {HEADLINE_WORDS})")
        if text.count(". ") or ";" not in text and "over " not in text:
            found.append("not one sentence with this world's figure and the range")
        if "similar worlds" not in text:
            found.append("no range over the similar worlds")
    elif not text.endswith("."):
        found.append("a note that is not a full sentence")
    return found


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_line_a_debrief_states_reads_as_plain_english(path: Path) -> None:
    bad: list[str] = []
    shown = 0
    for seed in SEEDS:
        r = report(path, seed)
        for f in r.shown:
            shown += 1
            bad += [f"{f.intervention} headline: {p}: {f.line}" for p in problems(f.line, True)]
            for note in f.notes:
                bad += [f"{f.intervention} note: {p}: {note}" for p in problems(note, False)]
        for f in r.unmoved:
            bad += [f"{f.intervention} label: {p}: {f.label}" for p in problems(f.label, False)
                    if p != "a note that is not a full sentence"]  # fmt: skip
    assert shown, f"{path.stem}: no lesson was shown on seeds {SEEDS}; the test checks nothing"
    assert not bad, "\n".join(bad)


def test_the_checks_catch_what_they_look_for() -> None:
    """Each rule fires on a line that breaks it (so a pass above means something)."""
    good = (
        "Half the pretraining team (5 -> 2 people) would have saved $411k here; over 20 "
        "similar worlds, $126k to $320k on average"
    )
    assert problems(good, True) == []
    assert problems("Leaving budget_risk unowned; over 3 similar worlds, 1 day", True)
    assert problems("Choosing rollback#0 would have; over 3 similar worlds, 1 day", True)
    assert problems(good + " and " + "more " * 40, True)
    assert problems("the two plans differ (in scope.", False)
    assert problems("It would have saved there still 3 days.", False)
    assert problems("It chose pause_investigate.", False)
