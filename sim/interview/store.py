"""Past interview-practice sessions: saved, listed and loaded, so a candidate sees progress.

One table, ``interview_sessions``, in the app's database (:mod:`sim.storage`: a SQLite
file in the user's data directory unless ``DATABASE_URL`` says otherwise). A row keeps
the whole plan as JSON, the rubric report, the Markdown export and the headline numbers
(score, counts, the design's chance of meeting every objective) for listing and charts.
"""

from __future__ import annotations

import builtins
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pandas as pd
from sqlalchemy import DateTime, Engine, Float, Integer, String, Text, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from sim.interview.plan import InterviewPlan, PlanError, parse_plan, plan_json
from sim.interview.rubric import POINTS, RubricReport
from sim.storage import make_engine

YOUR_DESIGN = "Your design"


class Base(DeclarativeBase):
    """The practice store's own metadata (other features keep their own tables)."""


class PracticeSessionRow(Base):
    __tablename__ = "interview_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    candidate: Mapped[str] = mapped_column(String(100), index=True, default="")
    score: Mapped[float] = mapped_column(Float)
    met: Mapped[int] = mapped_column(Integer)
    partly: Mapped[int] = mapped_column(Integer)
    missed: Mapped[int] = mapped_column(Integer)
    p_success: Mapped[float | None] = mapped_column(Float, nullable=True)
    minutes: Mapped[float | None] = mapped_column(Float, nullable=True)
    plan_json: Mapped[str] = mapped_column(Text)
    report_json: Mapped[str] = mapped_column(Text)
    markdown: Mapped[str] = mapped_column(Text)


@dataclass(frozen=True)
class SessionSummary:
    """A saved session as a list shows it."""

    id: int
    saved_at: datetime
    candidate: str
    score: float
    met: int
    partly: int
    missed: int
    p_success: float | None
    minutes: float | None


@dataclass(frozen=True)
class SavedSession:
    """A saved session in full: the summary, the plan, the report and the Markdown."""

    summary: SessionSummary
    plan: InterviewPlan
    report: dict[str, Any]
    markdown: str


def _attempt(plan: str | InterviewPlan) -> dict[str, Any]:
    """A plan (or its saved text) as data, every field written out, less its hand-in stamp.

    The same attempt, handed in or not, saved whole (before 2026-12-03) or only its set keys.
    """
    if isinstance(plan, str):
        try:
            plan = parse_plan(plan)
        except PlanError:
            return {"unreadable": plan}
    data = plan.model_dump(mode="json")
    data.pop("judged_at", None)
    return dict(data)


def _summary(row: PracticeSessionRow) -> SessionSummary:
    saved = row.saved_at if row.saved_at.tzinfo else row.saved_at.replace(tzinfo=UTC)
    return SessionSummary(
        row.id,
        saved,
        row.candidate,
        row.score,
        row.met,
        row.partly,
        row.missed,
        row.p_success,
        row.minutes,
    )


class PracticeStore:
    """Save, list and load practice sessions through SQLAlchemy."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or make_engine()
        Base.metadata.create_all(self.engine)

    def save(
        self,
        plan: InterviewPlan,
        report: RubricReport,
        markdown: str,
        minutes: float | None = None,
        saved_at: datetime | None = None,
    ) -> int:
        """Store a finished session; returns its id."""
        design = (report.outcome or {}).get(YOUR_DESIGN) or {}
        row = PracticeSessionRow(
            saved_at=saved_at or datetime.now(UTC),
            candidate=plan.candidate,
            score=report.score,
            met=report.counts.get("met", 0),
            partly=report.counts.get("partly", 0),
            missed=report.counts.get("missed", 0),
            p_success=design.get("p_success"),
            minutes=minutes,
            plan_json=plan_json(plan),
            report_json=json.dumps(report.to_dict()),
            markdown=markdown,
        )
        with Session(self.engine) as session, session.begin():
            session.add(row)
            session.flush()
            return row.id

    def list(self, candidate: str | None = None, limit: int = 200) -> list[SessionSummary]:
        """Saved sessions, newest first (one candidate's when ``candidate`` is given)."""
        query = select(PracticeSessionRow).order_by(
            PracticeSessionRow.saved_at.desc(), PracticeSessionRow.id.desc()
        )
        if candidate is not None:
            query = query.where(PracticeSessionRow.candidate == candidate)
        with Session(self.engine) as session:
            return [_summary(r) for r in session.scalars(query.limit(limit))]

    def load(self, session_id: int) -> SavedSession:
        """One session in full; ``KeyError`` when there is none with that id."""
        with Session(self.engine) as session:
            row = session.get(PracticeSessionRow, session_id)
            if row is None:
                raise KeyError(f"no saved practice session {session_id}")
            return SavedSession(
                _summary(row),
                parse_plan(row.plan_json, f"session {session_id}"),
                json.loads(row.report_json),
                row.markdown,
            )

    def delete(self, session_id: int) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(PracticeSessionRow, session_id)
            if row is not None:
                session.delete(row)

    def revealed_estimates(
        self, candidate: str, besides: InterviewPlan | None = None
    ) -> builtins.list[float]:
        """The model's compute figures earlier judged debriefs of ``candidate`` showed.

        ``besides``: leave out the sessions of this very attempt (its own figure is no copy).
        """
        query = select(PracticeSessionRow.report_json, PracticeSessionRow.plan_json).where(
            PracticeSessionRow.candidate == candidate
        )
        own = _attempt(besides) if besides is not None else None
        with Session(self.engine) as session:
            shown = [
                json.loads(report).get("model_compute_usd")
                for report, plan in session.execute(query)
                if own is None or _attempt(plan) != own
            ]
        return [float(x) for x in shown if x]

    def item_progress(self, candidate: str | None = None) -> pd.DataFrame:
        """One row per attempt and rubric item, oldest first: its status and points.

        Points are 1, ½ or 0 (None where the item was left out of that attempt's score).
        """
        rows = list(reversed(self.list(candidate)))
        records = []
        with Session(self.engine) as session:
            for k, r in enumerate(rows):
                row = session.get(PracticeSessionRow, r.id)
                report = json.loads(row.report_json) if row is not None else {}
                for item in report.get("items", []):
                    records.append(
                        (k + 1, r.id, item["id"], item["part"], item["title"], item["status"],
                         POINTS.get(item["status"]))
                    )  # fmt: skip
        columns = ["attempt", "id", "item", "part", "title", "status", "points"]
        return pd.DataFrame(records, columns=columns)

    def progress(self, candidate: str | None = None) -> pd.DataFrame:
        """One row per attempt, oldest first: attempt number, when, score, counts, P(success)."""
        rows = list(reversed(self.list(candidate)))
        columns = ["attempt", "id", "saved_at", "candidate", "score", "met", "partly", "missed"]
        frame = pd.DataFrame(
            [
                (k + 1, r.id, r.saved_at, r.candidate, r.score, r.met, r.partly, r.missed)
                for k, r in enumerate(rows)
            ],
            columns=columns,
        )
        frame["p_success"] = pd.Series([r.p_success for r in rows], dtype=float)
        return frame
