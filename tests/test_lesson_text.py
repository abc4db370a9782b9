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
from sim.play.lessons.check import Finding, LessonReport, check_lessons
from sim.play.lessons.words import HEADLINE_WORDS, OUTSIDE_LEAD
from sim.play.lessons.words import _outside as _beyond
from sim.scenario.loading import load_scenario
from sim.scenario.spec import DECISION_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
SEEDS = (3, 11)

#: Identifiers a reader should never see: snake_case words, ``name#3``, ``scope:cut``.
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\w#\d|\b[a-z]+:[a-z_]+\b")
OLD_WORDING = ("there still", "paired over", "of score", "not equal scope", "on this world")
#: A decimal under 1 with two or more places that is not days or points: a 0-1 score.
SCORE_OUT_OF_ONE = re.compile(r"(?<![\d.$])0\.\d{2,}\b(?! (?:days?|points|pts|to \d))")
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
    score = SCORE_OUT_OF_ONE.search(text)
    if score:
        found.append(f"a score out of 1, not points of 100: {score.group(0)!r}")
    found += [f"{p} points (out of 100?)" for p in re.findall(r"(\d+(?:\.\d+)?) points", text)
              if float(p) > 100]  # fmt: skip
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


def _outside(f: Finding) -> bool:
    """Whether this world's figure lies outside the similar worlds' range, as the line writes
    them (sim.play.lessons.words: not by a rounding's width)."""
    return any(_beyond(m, d, f.played.shown_pairs[m]) for m, d in f.played.parts)


@pytest.mark.slow
def test_a_figure_outside_the_range_always_says_why() -> None:
    """The headline gives this world's figure and the similar worlds' range; where the first
    lies outside the second, a note beneath says why (what set this world apart, or that one
    world swings more than an average). Checked on every shipped scenario, both seeds."""
    outside = 0
    for path in SCENARIOS:
        for seed in SEEDS:
            for f in report(path, seed).shown:
                if f.played.confirmed and _outside(f):
                    outside += 1
                    assert any(n.startswith(OUTSIDE_LEAD) for n in f.notes), (path.stem, f.line)
    assert outside >= 3, f"only {outside} lines with a figure outside their range: checks little"


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
    assert problems("It raised quality by 0.087 of the mean target score.", False)
    assert problems("It raised quality by 870.0 points.", False)
    assert not problems("It saved 0.03 days and raised quality by 0.04 points.", False)
    assert not problems("It cost $0.25 more.", False)


def test_why_this_world_differs_is_said_in_plain_words() -> None:
    """The outside note names what set this world apart; a range that rounds to one figure
    reads "about"; a figure outside only by rounding is not called outside."""
    from sim.play.lessons.measures import Interval, Measure
    from sim.play.lessons.words import body, outside_note, unusual_world

    def m(spikes: int, cuts: int = 0) -> Measure:
        incidents = tuple((k, n) for k, n in (("loss_spike", spikes), ("budget_cut", cuts)) if n)
        return Measure(150.0, 7e6, 0.7, True, 2.0, 3000.0, 5, (), incidents=incidents)

    why = unusual_world(m(3), [m(1), m(0), m(1, 1), m(0)])
    assert why == "this world had 3 loss spikes, the similar worlds 0.5 on average"
    assert unusual_world(m(1), [m(1), m(1)]) is None
    assert unusual_world(m(0, 0), [m(0, 2), m(0, 2)]) == (
        "this world had no budget cuts, the similar worlds 2.0 on average"
    )
    wide = {"schedule_days": Interval(-3.0, -4.0, -2.0, 20)}
    note = outside_note([("schedule_days", -9.0)], wide, why)
    assert note is not None and note.endswith("3 loss spikes, the similar worlds 0.5 on average.")
    assert problems(note, False) == []
    assert outside_note([("schedule_days", -3.0)], wide, why) is None
    assert outside_note([("schedule_days", -4.04)], wide, why) is None  # reads -4.0
    tight = {"quality": Interval(0.005, 0.0049, 0.0051, 20)}
    text = body([("quality", 0.006)], tight, 20)
    assert "about 0.5 points" in text and "0.5 to 0.5" not in text
