"""Write the saved plays of this engine: ``python tests/data/make_saved_plays.py [note]``.

Run it once per engine version, when a change is meant to move the numbers (with the
goldens, ``tests/golden/update.py``); ``tests/test_settled_run.py`` replays the plays it
saves and expects their numbers bit for bit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from sim.engine import ENGINE_VERSION  # noqa: E402
from tests.test_settled_run import digest, stepped_play  # noqa: E402

#: The plays saved: a frontier run and a 7B run, three injects each.
PLAYS = (("frontier_405b", 3), ("assistant_7b", 5))


def main(note: str) -> None:
    plays = []
    for name, seed in PLAYS:
        game, _ = stepped_play(name, seed)
        row = game.play_to_end()
        plays.append(
            {
                "play": json.loads(game.save()),
                "digest": digest(game.model),
                "schedule_days": row["schedule_days"],
                "cost_usd": row["cost_usd"],
                "events": row["events"],
            }
        )
    made = "Made by tests/data/make_saved_plays.py (stepped_play() of tests/test_settled_run.py)"
    out = HERE / f"plays_engine{ENGINE_VERSION}.json"
    text = {
        "note": f"Saved by engine version {ENGINE_VERSION} ({note}); tests/test_settled_run.py "
        f"replays them and expects these numbers bit for bit. {made}: "
        + " and ".join(f"{n} seed {s}" for n, s in PLAYS)
        + ", three injects each.",
        "plays": plays,
    }
    out.write_text(json.dumps(text, indent=1) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main(" ".join(sys.argv[1:]) or "see the commit")
