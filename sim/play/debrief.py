"""The debrief of a play: what each decision cost, against every other option, same world.

Each alternative is a counterfactual replay with the same seed and the same
injects; the difference in schedule, cost and quality is the decision's effect.
The lessons the play shows come from :mod:`sim.play.lessons.check`: one counterfactual
per lesson on the same world, stated only when it moved beyond noise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.play.game import Game, PlayLog, counterfactual
from sim.play.lessons.check import NEIGHBOUR_WORLDS, LessonReport, check_lessons
from sim.runner import default_workers

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Alternative:
    choice: str
    schedule_days: float
    cost_usd: float
    quality: float
    success: bool
    delta_schedule_days: float
    delta_cost_usd: float
    delta_quality: float
    impact: float


@dataclass(frozen=True)
class DecisionReview:
    index: int
    key: str
    kind: str
    day: float
    owner: str
    latency_days: float
    summary: str
    choice: str
    alternatives: tuple[Alternative, ...]

    @property
    def impact(self) -> float:
        return max((abs(a.impact) for a in self.alternatives), default=0.0)


@dataclass(frozen=True)
class Debrief:
    outcome: dict[str, Any]
    decisions: tuple[DecisionReview, ...]
    lessons: tuple[tuple[str, str, str], ...] = field(default_factory=tuple)
    """``(lesson id, title, line)`` of every lesson shown, largest effect first."""
    lesson_report: LessonReport | None = None
    """Every lesson's counterfactual, shown or not (None when the check was not run)."""

    @property
    def most_mattered(self) -> DecisionReview | None:
        return max(self.decisions, key=lambda d: d.impact, default=None)


def quality_score(row: dict[str, Any]) -> float:
    """Mean measured score over the target evals (one number to compare plays by)."""
    scores = [v for k, v in row.items() if k.startswith("score:")]
    return sum(scores) / len(scores) if scores else 0.0


def impact(row: dict[str, Any], base: dict[str, Any], deadline: float, budget: float) -> float:
    """Signed size of a change: schedule and cost as shares of their targets, quality x 10.

    Positive means the alternative would have done better.
    """
    return (
        (base["schedule_days"] - row["schedule_days"]) / deadline
        + (base["cost_usd"] - row["cost_usd"]) / budget
        + 10.0 * (quality_score(row) - quality_score(base))
        + (float(row["success"]) - float(base["success"]))
    )


def make_debrief(
    log: PlayLog,
    progress: Progress | None = None,
    *,
    lessons: bool = True,
    worlds: int = NEIGHBOUR_WORLDS,
    workers: int | None = None,
) -> Debrief:
    """Every decision against its other options, and (``lessons``) the lessons that moved.

    ``progress(done, total)`` counts replays over both parts; the lesson check's total is
    known only once it has replayed the play's own world, so ``total`` may shrink once.
    The neighbouring worlds fan out over ``workers`` processes (default: one a core, as
    ``sim run``); the report is the same whatever their number.
    """
    workers = default_workers() if workers is None else workers
    game = Game.from_log(log)
    base = game.play_to_end()
    log = game.current_log()
    m = game.model
    deadline = m.scenario.objective.deadline_days
    budget = m.scenario.objective.budget.total_usd
    reviews = []
    total = sum(len(d.options) - 1 for d in m.recording.decisions)
    done = 0
    for rec in m.recording.decisions:
        alts = []
        for option in rec.options:
            if option == rec.choice:
                continue
            row = counterfactual(log, rec.index, option, m.scenario)
            alts.append(
                Alternative(
                    option,
                    row["schedule_days"],
                    row["cost_usd"],
                    quality_score(row),
                    bool(row["success"]),
                    row["schedule_days"] - base["schedule_days"],
                    row["cost_usd"] - base["cost_usd"],
                    quality_score(row) - quality_score(base),
                    impact(row, base, deadline, budget),
                )
            )
            done += 1
            if progress:
                progress(done, total + (1 if lessons else 0))
        summary = next(
            (
                e.summary
                for e in m.recording.trace
                if e.kind == "decision" and abs(e.day - rec.day) < 1e-9
            ),
            "",
        )
        reviews.append(
            DecisionReview(
                rec.index,
                rec.key,
                rec.kind,
                rec.day,
                rec.owner,
                rec.latency_days,
                summary,
                rec.choice,
                tuple(alts),
            )
        )
    if not lessons:
        return Debrief(base, tuple(reviews))

    def lesson_progress(n: int, of: int) -> None:
        if progress:
            progress(done + n, total + of)

    report = check_lessons(log, worlds=worlds, workers=workers, progress=lesson_progress)
    shown = tuple((f.lesson, f.title, f.line) for f in report.shown)
    return Debrief(base, tuple(reviews), shown, report)
