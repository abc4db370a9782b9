"""What a person in the project sees at a moment of a play, as plain data and tidy frames.

The app's decision card and outcome dashboard draw these; nothing here imports
Streamlit or computes anything the engine did not record.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pandas as pd

from sim.engine.records import COST_CATEGORIES
from sim.play.game import Game
from sim.scenario.spec import PHASES


def snapshot(game: Game) -> dict[str, Any]:
    """The state of the play now: time, money, the run, the latest evals, the waiting decision."""
    m = game.model
    s = m.scenario
    obj = s.objective
    run = m.run
    spent = dict(m.ledger.totals)
    targets = {t.eval: t.threshold for t in obj.targets}
    view: dict[str, Any] = {
        "day": m.env.now,
        "phase": m.recording.phase,
        "deadline_days": obj.deadline_days,
        "days_left": obj.deadline_days - m.env.now,
        "budget_usd": m.ledger.budget_usd,
        "reserve_usd": m.ledger.reserve_usd,
        "reserve_left_usd": m.plan.reserve_left,
        "spent_usd": m.ledger.spent_usd,
        "spent_by_category": spent,
        "finished": m.finished,
        "run": None,
        "evals": {
            ev: {
                "kind": r.kind,
                "capability": r.capability,
                "score": r.score,
                "threshold": targets.get(ev),
            }
            for ev, r in m.latest_evals.items()
        },
        "decisions": [d.as_dict() for d in m.recording.decisions],
        "pending": game.pending.as_dict() if game.pending is not None else None,
        "post_training_rounds": m.plan.rounds_done,
        "post_training_rounds_planned": m.plan.rounds,
        "scope_cuts": [c.summary() for c in m.plan.scope_cuts],
    }
    if run is not None:
        view["run"] = {
            "label": run.label,
            "tokens_b": run.tokens / 1e9,
            "target_b": run.target_tokens / 1e9,
            "progress": min(1.0, run.tokens / max(run.target_tokens, 1.0)),
            "effective_training_time": run.effective_training_time,
            "interruptions": run.stats.interruptions,
            "spikes": run.stats.spikes,
            "lost_gpu_hours": run.lost_gpu_hours,
            "loss": run.loss_now(),
        }
    return view


def loss_frame(game: Game) -> pd.DataFrame:
    run = game.model.run
    rows = [asdict(p) for p in run.stats.curve] if run is not None else []
    return pd.DataFrame(rows, columns=["day", "tokens_b", "loss", "spike"])


def spend_frame(game: Game) -> pd.DataFrame:
    """Cumulative spend by category over time (long format), for a burn-up chart."""
    m = game.model
    entries = sorted(m.ledger.entries, key=lambda e: e.day)
    totals = dict.fromkeys(COST_CATEGORIES, 0.0)
    rows = [{"day": 0.0, "category": c, "usd": 0.0} for c in COST_CATEGORIES]
    for e in entries:
        totals[e.category] += e.usd
        rows.extend({"day": e.day, "category": c, "usd": totals[c]} for c in COST_CATEGORIES)
    return pd.DataFrame(rows, columns=["day", "category", "usd"])


def trace_frame(game: Game) -> pd.DataFrame:
    rows = [
        {"day": e.day, "kind": e.kind, "summary": e.summary, "team": e.team}
        for e in game.model.recording.trace
    ]
    return pd.DataFrame(rows, columns=["day", "kind", "summary", "team"])


def phase_frame(game: Game) -> pd.DataFrame:
    m = game.model
    spans = [asdict(p) for p in m.recording.phase_spans]
    if not m.finished and m.recording.phase in PHASES:
        spans.append(
            {"phase": m.recording.phase, "start": m.recording.phase_start, "end": m.env.now}
        )
    return pd.DataFrame(spans, columns=["phase", "start", "end"])


def quality_frame(game: Game) -> pd.DataFrame:
    """Latest scores per eval against their targets (public and product kept apart)."""
    view = snapshot(game)
    rows = [{"eval": ev, **info} for ev, info in view["evals"].items()]
    return pd.DataFrame(rows, columns=["eval", "kind", "capability", "score", "threshold"])
