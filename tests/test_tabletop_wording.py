"""Wording (issue 27.9): a forecast over budget is not a cut; a call with one option asks
for no rationale and says why there is one; the room reads "waiting to open" before the
facilitator opens it.
"""

from __future__ import annotations

from pathlib import Path

from sim.scenario.vocabulary import DECISION_TITLES
from sim.tabletop.views import decision_title, single_option_reason
from tests.test_app_tabletop import data_dir, ok, open_page, open_the_room

__all__ = ["data_dir"]


def test_a_forecast_over_budget_is_not_called_a_cut() -> None:
    forecast = decision_title("budget", "Plan is $120,000 over the budget on the current forecast")
    assert "forecast is over budget" in forecast and "cut" not in forecast
    cut = decision_title("budget", "Plan is $1,200,000 over the budget after a budget cut")
    assert cut == DECISION_TITLES["budget"]
    assert decision_title("rollback", "anything") == DECISION_TITLES["rollback"]


def test_one_option_says_why_and_asks_for_no_rationale() -> None:
    why = single_option_reason("budget", ["accept_overrun"])
    assert why and "Only accept overrun is open" in why and "no choice to explain" in why
    assert "no choice to explain" in (single_option_reason("rollback", ["continue"]) or "")
    assert single_option_reason("budget", ["use_reserve", "accept_overrun"]) is None


def test_the_badge_says_waiting_to_open_before_the_room_opens(data_dir: Path) -> None:
    at = open_page("ui/tabletop/facilitator.py")
    next(b for b in at.button if b.label == "Create the exercise").click()
    ok(at)
    heads = " ".join(m.value for m in at.markdown)
    assert "waiting to open" in heads and "running" not in heads
    open_the_room(at)
    heads = " ".join(m.value for m in at.markdown)
    assert "waiting to open" not in heads and "running" in heads
