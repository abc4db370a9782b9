"""The Play page's figure builders, checked in plain Python: each figure carries the data."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from sim.engine.records import COST_CATEGORIES
from sim.play.debrief import make_debrief
from sim.play.game import Game
from sim.play.views import (
    loss_frame,
    phase_frame,
    quality_frame,
    snapshot,
    spend_frame,
    trace_frame,
)
from sim.scenario.loading import load_scenario
from sim.scenario.spec import Levers
from ui.common import LEVER_WIDGETS
from ui.play import charts

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def finished() -> Game:
    game = Game(load_scenario(ROOT / "scenarios" / "assistant_7b.yaml"), seed=3)
    game.play_to_end("playbook")
    return game


def by_name(fig, name: str):
    return next(t for t in fig.data if t.name == name)


def test_loss_figure_marks_every_spike_and_drops_the_untrained_point() -> None:
    loss = pd.DataFrame(
        {
            "day": [0.0, 1.0, 2.0, 2.0, 3.0],
            "tokens_b": [0.0, 100.0, 200.0, 200.0, 300.0],
            "loss": [10.4, 2.3, 2.2, 2.55, 2.15],
            "spike": [False, False, False, True, False],
        }
    )
    fig = charts.loss_figure(loss, target_b=1000.0)
    line, spikes = by_name(fig, "loss"), by_name(fig, "loss spike")
    assert list(line.x) == [100.0, 200.0, 200.0, 300.0]
    assert list(spikes.x) == [200.0] and list(spikes.y) == [2.55]
    low, high = fig.layout.yaxis.range
    assert low < 2.15 and 2.55 < high < 10.4
    assert fig.layout.xaxis.range[1] >= 1000.0
    assert "1 spike" in fig.layout.title.text


def test_loss_figure_of_a_real_run(finished: Game) -> None:
    frame = loss_frame(finished)
    fig = charts.loss_figure(frame)
    assert len(by_name(fig, "loss spike").x) == int(frame["spike"].sum())


def test_spend_figure_stacks_categories_under_budget_and_reserve_lines(finished: Game) -> None:
    view = snapshot(finished)
    fig = charts.spend_figure(
        spend_frame(finished), view["budget_usd"], view["reserve_usd"], 170.0, view["day"]
    )
    stacked = [t for t in fig.data if t.stackgroup == "spend"]
    assert [t.name for t in stacked] == [c.replace("_", " ") for c in COST_CATEGORIES]
    assert sum(t.y[-1] for t in stacked) == pytest.approx(view["spent_usd"])
    assert list(by_name(fig, "budget").y) == [view["budget_usd"]] * 2
    reserve_line = by_name(fig, "budget minus reserve")
    assert list(reserve_line.y) == [view["budget_usd"] - view["reserve_usd"]] * 2
    assert any(shape.x0 == 170.0 for shape in fig.layout.shapes)  # the deadline


def test_evals_figure_keeps_public_benchmarks_and_product_evals_apart() -> None:
    quality = pd.DataFrame(
        {
            "eval": ["bench", "other_bench", "product"],
            "kind": ["public_benchmark", "public_benchmark", "product_eval"],
            "capability": ["a", "b", "a"],
            "score": [0.8, 0.5, 0.6],
            "threshold": [0.7, None, 0.65],
        }
    )
    fig = charts.evals_figure(quality)
    public, product = [t for t in fig.data if t.type == "bar"]
    assert list(public.x) == ["bench", "other_bench"] and public.xaxis == "x"
    assert list(product.x) == ["product"] and product.xaxis == "x2"
    assert list(public.marker.color) == [charts.GOOD, charts.NEUTRAL]
    assert list(product.marker.color) == [charts.BAD]
    targets = [t for t in fig.data if t.name == "target"]
    # In points out of 100, the unit of quality on every page.
    assert [[round(v, 6) for v in t.y] for t in targets] == [[70.0], [65.0]]
    assert [round(v, 6) for v in public.y] == [80.0, 50.0] and list(public.text) == ["80", "50"]
    assert "points of 100" in fig.layout.yaxis.title.text
    assert "1 of 2 targets met" in fig.layout.title.text


def test_timeline_shows_phases_incidents_and_decisions(finished: Game) -> None:
    phases, trace = phase_frame(finished), trace_frame(finished)
    fig = charts.timeline_figure(phases, trace, 170.0, finished.day)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == len(phases)
    assert [b.base[0] for b in bars] == list(phases["start"])
    decisions = by_name(fig, "decisions")
    assert len(decisions.x) == int((trace["kind"] == "decision").sum())
    incidents = by_name(fig, "incidents")
    kinds = {row[0] for row in incidents.customdata}
    assert kinds and not kinds & (charts.MILESTONES | {"decision"})
    assert {shape.x0 for shape in fig.layout.shapes} >= {170.0, finished.day}
    assert "finished on day" in fig.layout.title.text
    longest = (phases["end"] - phases["start"]).idxmax()
    assert f"longest phase {phases['phase'][longest].replace('_', ' ')}" in fig.layout.title.text


def test_money_figure_compares_spend_with_the_budget_by_category() -> None:
    spent = {"compute": 300.0, "people": 900.0, "data_licensing": 0.0, "annotation": 50.0}
    budget = {"compute": 400.0, "people": 1000.0, "data_licensing": 10.0, "annotation": 40.0}
    fig = charts.money_figure(spent, budget)
    assert list(by_name(fig, "spent").x) == [300.0, 900.0, 0.0, 50.0]
    assert list(by_name(fig, "budgeted").x) == [400.0, 1000.0, 10.0, 40.0]
    assert "72% on people" in fig.layout.title.text


def test_counterfactual_figure_has_one_bar_per_other_option(finished: Game) -> None:
    debrief = make_debrief(finished.current_log())
    alternatives = [a for review in debrief.decisions for a in review.alternatives]
    assert alternatives, "the seeded play has decisions with alternatives"
    frame = charts.counterfactual_frame(debrief.decisions)
    assert len(frame) == len(alternatives)
    fig = charts.counterfactual_figure(debrief.decisions)
    schedule, cost, quality = fig.data
    assert list(schedule.x) == [a.delta_schedule_days for a in alternatives]
    assert list(cost.x) == [a.delta_cost_usd for a in alternatives]
    # Quality in points out of 100, as everywhere on the Play page.
    wanted = [round(100 * a.delta_quality, 9) for a in alternatives]
    assert [round(v, 9) for v in quality.x] == wanted
    for value, color in zip(schedule.x, schedule.marker.color, strict=True):
        assert color == (charts.NEUTRAL if abs(value) < 1e-9 else
                         charts.GOOD if value < 0 else charts.BAD)  # fmt: skip
    for value, color in zip(quality.x, quality.marker.color, strict=True):
        assert color == (charts.NEUTRAL if abs(value) < 1e-9 else
                         charts.GOOD if value > 0 else charts.BAD)  # fmt: skip


def test_counterfactual_figure_without_decisions() -> None:
    fig = charts.counterfactual_figure(())
    assert all(len(t.x) == 0 for t in fig.data)


def test_set_up_widgets_use_the_lever_names() -> None:
    assert {w.name for w in LEVER_WIDGETS} == set(Levers.model_fields) - {"playbook"}


def test_evals_figure_of_a_real_play(finished: Game) -> None:
    quality = quality_frame(finished)
    fig = charts.evals_figure(quality)
    bars = [t for t in fig.data if t.type == "bar"]
    assert sum(len(b.x) for b in bars) == len(quality)
