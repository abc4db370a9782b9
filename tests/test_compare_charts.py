"""Compare charts: a limit shared by every design is one grey line; limits that differ (a
funded plan's budget, another scenario's deadline) are one line per design, in its colour."""

from __future__ import annotations

import pandas as pd

from ui.compare import charts


def frames() -> dict[str, pd.DataFrame]:
    return {
        "A": pd.DataFrame({"schedule_days": [100.0, 120.0], "cost_usd": [5e6, 6e6]}),
        "B": pd.DataFrame({"schedule_days": [110.0, 130.0], "cost_usd": [7e6, 8e6]}),
    }


def lines(fig) -> list[tuple[float, str]]:  # type: ignore[no-untyped-def]
    out = []
    for shape in fig.layout.shapes:
        value = shape.x0 if shape.x0 == shape.x1 and shape.xref == "x" else shape.y0
        out.append((float(value), shape.line.color))
    return out


def test_a_shared_limit_is_one_grey_line() -> None:
    fig = charts.ecdf_figure(frames(), "schedule_days", "Schedule", "days",
                             {"A": 180.0, "B": 180.0}, "deadline")  # fmt: skip
    assert lines(fig) == [(180.0, charts.LIMIT)]
    assert [a.text for a in fig.layout.annotations] == ["deadline"]


def test_limits_that_differ_are_drawn_per_design_in_its_colour() -> None:
    palette = charts.colors(["A", "B"])
    fig = charts.joint_figure(frames(), {"A": 180.0, "B": 180.0}, {"A": 5.5e6, "B": 9e6})
    assert (5.5, palette["A"]) in lines(fig) and (9.0, palette["B"]) in lines(fig)
    assert (180.0, charts.LIMIT) in lines(fig)
    texts = [a.text for a in fig.layout.annotations]
    assert "budget: A" in texts and "budget: B" in texts
    # Each design's share on time and on budget is judged against its own budget.
    names = [t.name for t in fig.data]
    assert names == ["A: 50% on time and on budget", "B: 100% on time and on budget"]
