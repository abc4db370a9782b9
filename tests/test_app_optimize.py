"""The optimize page shows the pruned recommendation and the on/off importance."""

from __future__ import annotations

from tests.apptest import open_page


def test_a_small_search_shows_the_recommendation_or_says_nothing_beat_the_baseline():
    at = open_page("ui/compare/optimize.py", timeout=180)
    at.number_input(key="optimize_trials").set_value(5)
    at.number_input(key="optimize_reps").set_value(10)
    at.button(key="optimize_run").click().run()
    assert not at.exception, at.exception
    text = " ".join(m.value for m in at.markdown) + " ".join(i.value for i in at.info)
    subheads = [h.value for h in at.subheader]
    assert "Recommended: the changes that pay" in subheads or "baseline" in text, text[:500]
