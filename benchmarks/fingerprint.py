"""Fingerprint many replications bit for bit, to prove a speed change moves no number.

Hashes every replication's outcome row, trace, ledger, loss curve, decision log and
phase spans (floats by their exact ``repr``) over all shipped scenarios, every policy
and two seeds. Run it before and after a change and compare the printed digests.

Usage: ``PYTHONPATH=. python benchmarks/fingerprint.py [reps] [--events]``
(``--events`` also hashes the SimPy event count, which a change may lower on purpose).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from sim.engine.decisions import POLICY_NAMES
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.scenario.loading import load_scenario

SEEDS = (0, 7)


def _play(model: ProjectModel, with_events: bool) -> list[Any]:
    model.env.run()
    row = outcome_row(model)
    events = row.pop("events")
    run = model.run
    curve = [(p.day, p.tokens_b, p.loss, p.spike) for p in run.stats.curve] if run else []
    return [
        sorted(row.items()),
        [(t.day, t.kind, t.summary, t.team, sorted(t.data.items())) for t in model.recording.trace],
        [(e.day, e.category, e.usd, e.note) for e in model.ledger.entries],
        curve,
        [d.as_dict() for d in model.recording.decisions],
        [(s.phase, s.start, s.end) for s in model.recording.phase_spans],
        events if with_events else None,
    ]


def fingerprint(reps: int, with_events: bool = False) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(Path("scenarios").glob("*.yaml")):
        scenario = load_scenario(path)
        digest = hashlib.sha256()
        for policy in POLICY_NAMES:
            for seed in SEEDS:
                for rep in range(reps):
                    model = ProjectModel(scenario, seed=seed, replication=rep, decider=policy)
                    digest.update(repr(_play(model, with_events)).encode())
        out[path.stem] = digest.hexdigest()[:16]
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    reps = int(args[0]) if args else 20
    for name, digest in fingerprint(reps, "--events" in sys.argv).items():
        print(f"{name:36} {digest}")


if __name__ == "__main__":
    main()
