"""Regenerate the golden summaries: ``python tests/golden/update.py``.

Run it deliberately, when a model change is meant to move the numbers, and say
why in the commit message; ``tests/test_golden.py`` compares against these files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from sim.runner import run_replications  # noqa: E402
from sim.scenario.loading import load_scenario  # noqa: E402
from sim.summary import summarize_runs  # noqa: E402

REPS, SEED = 20, 11


def golden_summary(path: Path) -> dict[str, object]:
    s = load_scenario(path)
    return summarize_runs(run_replications(s, REPS, SEED), s, SEED)


def main() -> None:
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        out = HERE / f"{path.stem}.json"
        out.write_text(json.dumps(golden_summary(path), indent=2, sort_keys=True) + "\n")
        print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
