"""A decision with fewer options than its kind says why, on every shipped scenario.

Every shipped scenario is played to the end under several policies and seeds; every
decision the engine raised with fewer options than its kind has must carry a reason for
each missing option (sim/play/unavailable.py raises where it has no rule), in plain words.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from sim.play.game import Game
from sim.play.unavailable import earlier_decisions, fewer_options_note, reasons
from sim.scenario.loading import load_scenario
from sim.scenario.spec import DECISION_OPTIONS

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
SEEDS = (1, 7, 23)
POLICIES = ("playbook", "aggressive", "overreact", "cautious")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\w#\d")


@cache
def played(path: Path, seed: int, policy: str) -> Game:
    game = Game(load_scenario(path), seed=seed)
    game.play_to_end(policy)
    return game


@pytest.mark.slow
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_decision_with_fewer_options_says_why(path: Path) -> None:
    fewer = 0
    bad: list[str] = []
    for seed in SEEDS:
        for policy in POLICIES:
            m = played(path, seed, policy).model
            history = earlier_decisions(m)
            for i, rec in enumerate(m.recording.decisions):
                missing = set(DECISION_OPTIONS[rec.kind]) - set(rec.options)
                kind, summary, _ = history[i]
                why = reasons(rec.kind, rec.options, rec.context, summary, history[:i])
                if set(why) != missing:
                    bad.append(f"{rec.key}: missing {sorted(missing)}, reasons {why}")
                note = fewer_options_note(rec.kind, rec.options, rec.context, summary, history[:i])
                if missing:
                    fewer += 1
                    if not note.startswith("Not offered here: ") or IDENTIFIER.search(note):
                        bad.append(f"{rec.key}: {note!r}")
                    if len(note.split()) >= 40:
                        bad.append(f"{rec.key}: {len(note.split())} words: {note!r}")
                elif note:
                    bad.append(f"{rec.key}: a note with every option offered: {note!r}")
    assert not bad, "\n".join(bad)
    assert fewer, f"{path.stem}: no decision lost an option; the test checks nothing"


def test_each_rule_names_its_reason() -> None:
    """Each kind's rule, on the context the engine gives it (could fail on a wrong rule)."""
    ship = ("ship",)
    assert "budget" in reasons("ship", ship, {}, "", [])["extra_round"]
    three = [("ship", "", "extra_round")] * 3
    assert "3 extra" in reasons("ship", ship, {}, "", three)["extra_round"]
    forced = reasons("rollback", ("overreact",), {"rollbacks_into_instability": 3})
    assert set(forced) == {"rollback_skip", "continue", "pause_investigate"}
    assert "recipe" in forced["continue"]
    assert set(
        reasons("data_fix", ("fix_and_continue", "fix_and_restart"), {"defect": "licensing"})
    ) == {"accept"}
    with pytest.raises(ValueError):
        reasons("data_fix", ("fix_and_continue",), {"defect": "dedup"})
    assert (
        "none to cut"
        in reasons("schedule", ("add_core_staff", "accept_slip"), {})["cut_post_training_rounds"]
    )
    why = "Plan is $1 over the budget after a cut"
    earlier = [("budget", why, "use_reserve")]
    out = reasons("budget", ("cut_ablations", "accept_overrun"), {}, why, earlier)
    assert out["use_reserve"] == "already used on this gap"
    assert out["reduce_tokens"].startswith("saves nothing")
    assert (
        reasons("budget", ("cut_ablations", "accept_overrun"), {}, why, [])["use_reserve"]
        == "the reserve is spent"
    )
    assert reasons("ship", DECISION_OPTIONS["ship"], {}) == {}
