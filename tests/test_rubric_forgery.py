"""Scores nobody can forge: every stored result in PLAN.json is recomputed, never trusted.

A follow-up record holds two things of the candidate's (their calls, their reason); every
other field is a result the rubric replays from the design and the calls. Each such field,
edited, leaves the score, every verdict and its evidence unchanged. An edited call is a
different answer and is judged exactly as if it had been played. ``judged_at`` added to a
file unlocks none of the model's figures, on the command line or in the judge.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.interview.plan import InterviewPlan, PlanError, parse_plan, plan_json
from sim.interview.replays import STALE, play_calls
from sim.interview.rubric import RubricReport, judge, model_compute_usd
from tests import interview_plans as plans

runner = CliRunner()
#: The candidate's own words and calls in a record; everything else is a result.
INPUTS = {"choice", "by", "rationale", "id"}


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        if not node:
            yield path, node
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(node, list):
        yield path, node
        for i, v in enumerate(node):
            yield from _leaves(v, (*path, i))
    else:
        yield path, node


def _forged(value: Any) -> list[Any]:
    """Values a forger would write instead of ``value``."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int | float):
        return [value * 3 + 7, 0]
    if isinstance(value, str):
        return ["forged", ""]
    if isinstance(value, list):
        return [[]]
    if isinstance(value, dict):
        return [{"support_tickets": 0.99}]
    return [None, True]


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = json.loads(json.dumps(doc))
    node = out
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return out


def _verdicts(report: RubricReport) -> Any:
    """Everything a forger could want raised: the score, the grade, every verdict, its
    evidence and the claims it judged."""
    return (report.score, report.grade,
            [(i.id, i.status, i.evidence, i.claims) for i in report.items])  # fmt: skip


def _calls_path(path: tuple[Any, ...]) -> bool:
    """The list of decisions, or one decision whole: editing it edits the calls."""
    return path[:1] == ("decisions",) and len(path) <= 2


def _edits(plan: InterviewPlan, calls: bool = False) -> Iterator[tuple[str, InterviewPlan]]:
    """Each single-field edit of the follow-up records: of the results, or (``calls``) of
    the list of calls itself."""
    doc = json.loads(plan_json(plan))
    for k, record in enumerate(doc["followups"]):
        for path, value in _leaves(record):
            if not path or any(p in INPUTS for p in path if isinstance(p, str)):
                continue
            if _calls_path(path) != calls:
                continue
            for forged in _forged(value):
                edited = _set(doc, ("followups", k, *path), forged)
                try:
                    yield ".".join(map(str, path)), parse_plan(json.dumps(edited))
                except PlanError:
                    continue  # the file is refused: nothing to score


@pytest.fixture(scope="module")
def strong() -> InterviewPlan:
    return plans.strong()


def test_every_stored_result_edited_leaves_every_verdict_unchanged(strong) -> None:
    honest = _verdicts(judge(strong))
    edited = 0
    for where, plan in _edits(strong):
        assert _verdicts(judge(plan)) == honest, where
        edited += 1
    assert edited > 100  # every field of every record was tried


def test_removing_calls_from_a_record_never_raises_the_score(strong) -> None:
    wrong = play_calls(strong, "loss_spike", ("continue",))  # an unsound call, really played
    assert wrong is not None
    base = strong.with_followup(wrong)
    honest = judge(base).score
    assert honest < 1.0
    edits = list(_edits(base, calls=True))
    assert edits
    for where, plan in edits:
        assert judge(plan).score <= honest, where


def test_the_issues_forged_file_scores_as_its_calls_played(strong) -> None:
    """The ship call changed, its replays and outcome edited, and judged_at removed."""
    doc = json.loads(plan_json(strong))
    ship = next(f for f in doc["followups"] if f["id"] == "benchmarks_vs_product")
    ship["decisions"][0]["choice"] = "extra_round"
    ship["success"] = ship["on_time"] = ship["on_budget"] = True
    for alt in ship["alternatives"]:
        alt.update(success=False, delta_schedule_days=30.0, delta_quality=-0.2)
    ship["situation"] = {"support_tickets": 0.5}
    doc["judged_at"] = None
    forged = parse_plan(json.dumps(doc))
    played = play_calls(strong, "benchmarks_vs_product", ("extra_round",), ship["rationale"])
    assert played is not None
    honest = strong.with_followup(played)
    assert _verdicts(judge(forged)) == _verdicts(judge(honest))
    assert judge(forged).item("followup_ship").status == "partly"
    assert judge(forged).score < 1.0


def test_a_call_that_is_no_option_is_not_played_and_earns_nothing(strong) -> None:
    f = strong.followup("loss_spike")
    assert f is not None
    bad = f.model_copy(update={"decisions": [f.mine[0].model_copy(update={"choice": "ship"})]})
    item = judge(strong.with_followup(bad)).item("followup_spike")
    assert item.status == "not_played" and STALE in item.evidence


def test_a_record_claiming_the_situation_never_arose_is_replayed(strong) -> None:
    f = strong.followup("loss_spike")
    assert f is not None
    hidden = strong.with_followup(f.model_copy(update={"decisions": []}))
    assert judge(hidden).item("followup_spike").status == "not_played"  # it does arise


def test_duplicate_records_count_once(strong) -> None:
    f = strong.followup("budget_cut")
    assert f is not None
    bad = f.model_copy(update={"decisions": [f.mine[0].model_copy(
        update={"choice": "accept_overrun"})]})  # fmt: skip
    doubled = strong.model_copy(update={"followups": [*strong.followups, bad]})
    assert _verdicts(judge(doubled)) == _verdicts(judge(strong))


def _cli(*args: str) -> Any:
    result = runner.invoke(app, ["rubric", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_the_command_line_scores_a_forged_file_as_the_honest_one(
    strong, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    doc = json.loads(plan_json(strong))
    for record in doc["followups"]:
        record.update(success=True, on_time=True, on_budget=True, quality=0.99, seed=7)
        record["alternatives"] = []
    honest, forged = tmp_path / "honest.json", tmp_path / "forged.json"
    honest.write_text(plan_json(strong), encoding="utf-8")
    forged.write_text(json.dumps(doc), encoding="utf-8")
    a = json.loads(_cli(str(honest), "--json", "--reps", "0").stdout)
    b = json.loads(_cli(str(forged), "--json", "--reps", "0").stdout)
    assert a["score"] == b["score"] and a["items"] == b["items"]
    assert b["followups"] == a["followups"]  # the replays, not the file's records


def test_judged_at_in_a_file_never_shows_the_models_figure(strong, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TRAININGROOM_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    never = strong.model_copy(update={"followups": [], "judged_at": "2026-01-01T09:00:00+00:00"})
    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(never), encoding="utf-8")
    figure = model_compute_usd(never)
    shown = {f"{figure:,.0f}", f"{round(figure, -3):,.0f}", f"{figure / 1e3:,.0f}"}
    for args in (("--reps", "0"), ("--json", "--reps", "0")):
        out = _cli(str(path), *args).stdout
        assert not any(s in out for s in shown), args
        assert "model_compute_usd" not in out
    data = json.loads(_cli(str(path), "--json", "--reps", "0", "--hand-in").stdout)
    assert data["revealed"] and data["model_compute_usd"] == pytest.approx(figure)
    table = _cli(str(path), "--reps", "0", "--hand-in").stdout
    assert f"${figure:,.0f}" in table


def _same_outcome() -> dict[str, Any]:
    """A simulated outcome in which the design and the scenario's own do alike."""
    from sim.interview.risks import SCENARIO_PLAN, YOUR_DESIGN

    paired = {"p_success": {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 60}}
    return {YOUR_DESIGN: {"p_success": 0.6, "reps": 60, "vs_reference": paired},
            SCENARIO_PLAN: {"p_success": 0.6, "reps": 60}}  # fmt: skip


def test_a_provenance_record_edited_away_credits_nothing_the_candidate_did_not_do() -> None:
    """``scenario_filled`` deleted from a file the org-chart button filled: the selections
    the button made then count as if the candidate had made them by hand (as many selects
    in the form would), but the tool's own gate texts are never the candidate's words, and
    the scenario's own design, unchanged, earns nothing for how it plays out."""
    button = plans.button_only()
    doc = json.loads(plan_json(button))
    doc.pop("scenario_filled")
    forged = parse_plan(json.dumps(doc))
    report = judge(forged, _same_outcome())
    assert report.item("outcome").status == "missed"
    assert not [c for c in report.item("gates").claims if c.name.startswith("experiment")]
    assert report.item("gates").status == "missed"
    by_hand = button.model_copy(update={"scenario_filled": []})
    assert _verdicts(report) == _verdicts(judge(by_hand, _same_outcome()))
    assert judge(button, _same_outcome()).item("outcome").status == "missed"


@pytest.mark.parametrize("key", ["outcome", "score", "grade", "model_compute_usd", "report",
                                 "revealed", "items"])  # fmt: skip
def test_a_file_carrying_a_result_is_refused(strong, key: str) -> None:
    """No result of the rubric's or the simulation's has a place in PLAN.json: a file that
    brings one is refused, naming the line and the field, never read."""
    doc = json.loads(plan_json(strong))
    doc[key] = 1.0
    with pytest.raises(PlanError, match=rf"PLAN.json:\d+: {key}: "):
        parse_plan(json.dumps(doc, indent=2))
