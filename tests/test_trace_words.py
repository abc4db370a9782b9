"""The play log as a person reads it: every line the engine writes, on every shipped scenario.

The Play page, the tabletop and the debrief show the engine's trace lines as they are, so
each must read as plain English: no ``snake_case`` identifier (a team, gate, eval, phase or
option), no engine option name that judges the choice (``overreact``), no score out of 1
where the page speaks in points of 100, and a capital first letter (issue 28.7).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from sim.play.game import Game
from sim.scenario.loading import load_scenario
from sim.scenario.vocabulary import (
    OPTION_LABELS,
    identifiers_in_words,
    review_words,
    sentence,
    words,
    work_words,
)
from tests.test_lesson_text import problems

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
#: Deciders that between them take every kind of decision and most options.
POLICIES = ("playbook", "overreact", "ad_hoc", "aggressive")
SEEDS = (1, 4)
#: Option names that are one word, yet no word of a plain sentence (``overreact`` judges the
#: choice); those with ``_`` are caught as identifiers, and ``accept`` or ``continue`` are
#: English.
JUDGING = tuple(o for o in OPTION_LABELS if "_" not in o and o not in ("accept", "continue"))
#: A final-loss change is a loss (nats), not a score: it keeps its three decimals.
LOSS = re.compile(r"loss [+-]\d\.\d+")


@cache
def lines(path: Path) -> dict[str, str]:
    """Each distinct trace line of the plays, with the play it came from."""
    out: dict[str, str] = {}
    scenario = load_scenario(path)
    for seed in SEEDS:
        for policy in POLICIES:
            game = Game(scenario, seed=seed)
            game.play_to_end(policy)
            for e in game.model.recording.trace:
                out.setdefault(e.summary, f"{policy}, seed {seed}, day {e.day:.0f}, {e.kind}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_play_log_line_reads_as_plain_english(path: Path) -> None:
    seen = lines(path)
    assert len(seen) >= 15, f"{path.stem}: only {len(seen)} distinct lines; the test checks little"
    bad = [
        f"{where}: {p}: {text}"
        for text, where in seen.items()
        for p in problems(LOSS.sub("loss", text), False)
        if p != "a note that is not a full sentence"
    ]
    bad += [f"{where}: option id {o!r}: {text}" for text, where in seen.items()
            for o in JUDGING if o in text.split()]  # fmt: skip
    assert not bad, "\n".join(bad)


def test_identifiers_read_as_words() -> None:
    assert words("safety_legal") == "safety and legal"
    assert words("overreact") == OPTION_LABELS["overreact"]
    assert words("math_word_problems") == "math word problems"
    assert review_words("data_review") == "data review"
    assert review_words("ablation_gate") == "ablation gate review"
    assert work_words("gate:ablation_gate/data") == "the data team's ablation gate review"
    assert work_words("fix:contamination") == "the contamination fix"
    assert work_words("ablation_runs") == "ablation runs"
    assert sentence("post-training begins") == "Post-training begins"
    assert identifiers_in_words("owner of data_quality") == "owner of data quality"
    assert identifiers_in_words("playbook: schedule") == "playbook: schedule"
    assert (identifiers_in_words("add_core_staff → accept_slip")
            == "add core staff → accept the later finish")  # fmt: skip
    assert identifiers_in_words("owner of safety_legal") == "owner of safety and legal"
