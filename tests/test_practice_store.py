"""Past practice sessions in a real SQLite file: save, list, load, progress, delete."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from sim.interview.markdown import session_markdown
from sim.interview.plan import InterviewPlan, world_plan
from sim.interview.risks import compare_designs
from sim.interview.rubric import judge
from sim.interview.store import PracticeStore
from sim.storage import database_url, make_engine
from tests import interview_plans as plans


@pytest.fixture
def store(tmp_path, monkeypatch) -> PracticeStore:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return PracticeStore(make_engine())


def _save(
    store: PracticeStore, plan: InterviewPlan, day: int, simulate: bool, reveal: bool = False
) -> int:
    report = judge(plan, compare_designs(plan, reps=3) if simulate else None, reveal=reveal)
    when = datetime(2026, 1, day, 9, 0, tzinfo=UTC)
    return store.save(plan, report, session_markdown(plan, report), minutes=40.0, saved_at=when)


def test_sessions_are_saved_in_the_data_dir_and_load_back(store, tmp_path) -> None:
    assert database_url().startswith(f"sqlite:///{tmp_path}")
    plan = world_plan(InterviewPlan(candidate="ada"))
    sid = _save(store, plan, 1, True)
    assert (tmp_path / "trainingroom.sqlite3").exists()
    saved = store.load(sid)
    assert saved.plan == plan
    assert saved.summary.candidate == "ada"
    assert saved.summary.p_success == saved.report["outcome"]["Your design"]["p_success"]
    assert saved.summary.minutes == pytest.approx(40.0)
    assert saved.markdown.startswith("# Interview practice")
    assert saved.report["score"] == pytest.approx(judge(plan).score)
    assert saved.summary.saved_at == datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def test_list_is_newest_first_and_filters_by_candidate(store) -> None:
    first = _save(store, InterviewPlan(candidate="ada"), 1, False)
    second = _save(store, world_plan(InterviewPlan(candidate="ada")), 2, False)
    other = _save(store, InterviewPlan(candidate="bob"), 3, False)
    assert [s.id for s in store.list()] == [other, second, first]
    assert [s.id for s in store.list("ada")] == [second, first]
    assert store.list("nobody") == []


def test_progress_across_attempts_is_oldest_first(store) -> None:
    attempts = [
        p.model_copy(update={"candidate": "ada"})
        for p in (plans.button_only(), plans.weak(), plans.mediocre(), plans.strong())
    ]
    for day, plan in enumerate(attempts, start=1):
        _save(store, plan, day, simulate=day == 4)
    progress = store.progress("ada")
    assert list(progress["attempt"]) == [1, 2, 3, 4]
    assert progress["score"].is_monotonic_increasing
    assert progress["p_success"].isna().tolist() == [True, True, True, False]
    assert store.progress("nobody").empty


def test_item_by_item_progress_over_attempts(store) -> None:
    for day, make in enumerate((plans.weak, plans.strong), start=1):
        _save(store, make().model_copy(update={"candidate": "ada"}), day, simulate=False)
    items = store.item_progress("ada")
    owners = items[items["item"] == "owners"].sort_values("attempt")
    assert owners["status"].tolist() == ["missed", "met"]
    assert owners["points"].tolist() == [0.0, 1.0]
    assert set(items["attempt"]) == {1, 2} and len(items) == 2 * len(set(items["item"]))


def test_a_judged_debrief_remembers_the_figure_it_showed(store) -> None:
    plan = plans.strong().model_copy(update={"candidate": "ada"})
    _save(store, plan, 1, simulate=False)
    assert store.revealed_estimates("ada") == []  # not handed in: nothing was shown
    handed = plan.model_copy(update={"judged_at": "2026-01-02T09:00:00+00:00"})
    _save(store, handed, 2, False, reveal=True)
    shown = store.revealed_estimates("ada")
    assert len(shown) == 1 and shown[0] > 0 and store.revealed_estimates("bob") == []
    # The attempt that showed it is no copy of itself; another attempt of ada's would be.
    assert store.revealed_estimates("ada", plan) == []
    assert store.revealed_estimates("ada", plans.weak()) == shown


def test_a_second_store_on_the_same_file_sees_the_sessions(store) -> None:
    sid = _save(store, InterviewPlan(candidate="ada"), 1, False)
    again = PracticeStore(make_engine())
    assert [s.id for s in again.list()] == [sid]


def test_load_and_delete(store) -> None:
    sid = _save(store, InterviewPlan(), 1, False)
    store.delete(sid)
    with pytest.raises(KeyError):
        store.load(sid)
    store.delete(sid)  # deleting twice is harmless
    assert store.list() == []


def test_a_session_saved_whole_is_still_the_same_attempt(store) -> None:
    """Sessions saved before PLAN.json kept only the keys set wrote every default: the same
    attempt, however it was written, is no copy of itself."""
    from sqlalchemy import update

    from sim.interview.store import PracticeSessionRow

    plan = plans.strong().model_copy(update={"candidate": "ada"})
    handed = plan.model_copy(update={"judged_at": "2026-01-02T09:00:00+00:00"})
    sid = _save(store, handed, 2, False, reveal=True)
    with store.engine.begin() as db:
        db.execute(update(PracticeSessionRow).where(PracticeSessionRow.id == sid)
                   .values(plan_json=handed.model_dump_json(indent=2)))  # fmt: skip
    assert store.revealed_estimates("ada", plan) == []
    assert len(store.revealed_estimates("ada", plans.weak())) == 1
