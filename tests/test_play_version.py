"""Saved plays say which engine played them; a replay by another engine says so (issue 15.1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sim.engine import ENGINE_VERSION
from sim.play.game import UNVERSIONED, Game, PlayLog, replay
from sim.scenario.loading import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def saved() -> str:
    game = Game(load_scenario("assistant_7b"), seed=2)
    game.play_to_end()
    return game.save()


def test_a_saved_play_carries_the_engine_version() -> None:
    data = json.loads(saved())
    assert data["engine_version"] == ENGINE_VERSION
    assert PlayLog.from_json(saved()).version_notice() is None


def test_an_older_play_replays_with_a_notice(tmp_path: Path) -> None:
    data = json.loads(saved())
    del data["engine_version"]  # saved before plays carried one
    log = PlayLog.from_json(json.dumps(data))
    assert log.engine_version == UNVERSIONED
    notice = log.version_notice()
    assert notice and ENGINE_VERSION in notice and UNVERSIONED in notice
    assert replay(log)["schedule_days"] > 0  # it still replays
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, "-m", "sim", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "saved by engine version" in done.stdout
    as_json = subprocess.run(
        [sys.executable, "-m", "sim", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    out = json.loads(as_json.stdout)
    assert out["engine_version"] == UNVERSIONED and out["notice"] == notice
