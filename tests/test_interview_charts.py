"""The Interview page's item-by-item progress chart, checked on its data."""

from __future__ import annotations

import math

import pandas as pd

from ui.interview.charts import alternatives_figure, item_progress_figure


def test_item_progress_puts_each_item_on_a_row_and_each_attempt_in_a_column() -> None:
    items = pd.DataFrame(
        [(1, 1, "owners", "Part 2", "Owners", "missed", 0.0),
         (2, 2, "owners", "Part 2", "Owners", "met", 1.0),
         (1, 1, "breadth", "Part 1", "Breadth", "partly", 0.5),
         (2, 2, "breadth", "Part 1", "Breadth", "did_not_arise", None)],
        columns=["attempt", "id", "item", "part", "title", "status", "points"],
    )  # fmt: skip
    fig = item_progress_figure(items, {"breadth": "Breadth", "owners": "Owners"})
    heat = fig.data[0]
    assert list(heat.y) == ["Breadth", "Owners"]  # the rubric's order, not the frame's
    assert list(heat.x) == ["attempt 1", "attempt 2"]
    assert heat.z[1].tolist() == [0.0, 1.0]
    assert heat.z[0][0] == 0.5 and math.isnan(heat.z[0][1])  # left out: a grey gap
    assert heat.text[0][1] == "did_not_arise"


def test_the_alternatives_chart_says_later_calls_were_the_playbooks() -> None:
    fig = alternatives_figure(
        [{"choice": "ship", "delta_schedule_days": -3.0, "delta_cost_usd": -1e5,
          "delta_quality": -0.01}], "extra_round")  # fmt: skip
    assert "later calls by your playbook" in fig.layout.title.text
