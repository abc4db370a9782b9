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


def test_percentile_whiskers_reach_the_seen_edge_and_a_missing_value_has_no_mark() -> None:
    p = {
        "p10": {"value": 10.0, "low": None, "high": 12.0},
        "p50": {"value": None, "low": None, "high": None},
        "p90": {"value": 30.0, "low": 28.0, "high": None},
    }
    marks = charts.percentile_marks(p, seen_low=8.0, seen_high=33.0)
    # (label, share, value, minus, plus): open ends drawn to what the worlds reached.
    assert marks == [("P10", 0.1, 10.0, 2.0, 2.0), ("P90", 0.9, 30.0, 2.0, 3.0)]
    p["p50"]["value"] = float("nan")
    assert [m[0] for m in charts.percentile_marks(p, 8.0, 33.0)] == ["P10", "P90"]


def test_the_s_curve_marks_every_percentile_of_a_real_sample() -> None:
    values = [float(v) for v in range(100, 140)]  # 40 worlds: intervals, some ends open
    fig = charts.ecdf_figure({"A": pd.DataFrame({"schedule_days": values})}, "schedule_days",
                             "Schedule", "days")  # fmt: skip
    marks = [t for t in fig.data if t.mode == "markers+text"]
    assert len(marks) == 1 and list(marks[0].text) == ["P10", "P50", "P90"]
    assert all(v >= 0 for v in (*marks[0].error_x.array, *marks[0].error_x.arrayminus))
    assert max(marks[0].x[i] + marks[0].error_x.array[i] for i in range(3)) <= 139.0


def test_a_limit_label_sits_at_the_foot_of_its_line_clear_of_the_p90_marks() -> None:
    """The deadline (or budget) label once sat at the top of its line, where the P90 marks
    and their labels are (share 0.9): with the deadline near P90 the two overlapped."""
    values = [float(v) for v in range(100, 140)]
    frame = {"A": pd.DataFrame({"schedule_days": values})}
    fig = charts.ecdf_figure(frame, "schedule_days", "Schedule", "days", 136.0, "deadline")
    (label,) = fig.layout.annotations
    marks = next(t for t in fig.data if t.mode == "markers+text")
    p90 = max(marks.y)
    # Paper coordinates: the axis runs from 0 to 1.02; a label is about 7% of the plot high.
    assert label.yref == "paper" and label.yanchor == "bottom"
    assert label.y + 0.07 < p90 / 1.02 - 0.05, (label.y, p90)
