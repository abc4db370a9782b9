"""Follow-up answers in prose: the calls read in order, negated calls never read, and the
read calls played on the design exactly as the form plays them."""

from __future__ import annotations

import pytest

from sim.engine.decisions import reference_decider
from sim.interview.followups import find_world, followup_scenario, start_followup
from sim.interview.plan import InterviewPlan
from sim.interview.prose_followups import play_read_followup, read_followup
from sim.play.game import Game
from tests import interview_plans as plans


@pytest.mark.parametrize(
    ("fid", "text", "calls"),
    [
        ("loss_spike", "We roll back to the last good checkpoint and skip the batches. "
         "If it spikes again we pause and investigate.", ("rollback_skip", "pause_investigate")),
        ("loss_spike", "I would not roll back; we pause the run and investigate first.",
         ("pause_investigate",)),
        ("budget_cut", "First use the reserve, then cut ablations, and only then run fewer "
         "post-training rounds.", ("use_reserve", "cut_ablations", "fewer_post_training_rounds")),
        ("benchmarks_vs_product", "Not ready: we fix the data and retune before we ship.",
         ("fix_data_and_retune", "ship")),
    ],
)  # fmt: skip
def test_the_calls_are_read_in_the_order_said(fid: str, text: str, calls: tuple[str, ...]) -> None:
    read = read_followup(fid, text)
    assert read.calls == calls
    assert all(r.sentence in text for r in read.readings)


def test_a_hold_without_a_how_is_read_as_unsure() -> None:
    read = read_followup("benchmarks_vs_product", "No, I would hold the release for now.")
    assert read.calls == ("extra_round",) and read.unsure


def test_nothing_read_means_not_played() -> None:
    assert read_followup("loss_spike", "The weather is nice today.").calls == ()
    assert play_read_followup(InterviewPlan(), "loss_spike", ()) is None


@pytest.mark.slow
def test_the_read_calls_are_played_as_the_candidates() -> None:
    result = play_read_followup(InterviewPlan(), "loss_spike", ("pause_investigate",))
    assert result is not None and result.id == "loss_spike"
    assert result.mine and result.mine[0].choice == "pause_investigate"
    assert all(a.choice != "pause_investigate" for a in result.alternatives)


def test_the_budget_cut_asks_at_the_cut_not_at_an_earlier_weekly_look() -> None:
    """The budget owner's weekly look may meet a slip before the cut (engine 17); that
    call is the playbook's, and the candidate is asked at the cut itself.

    Before this rule the first budget decision of every world was the weekly look's, so
    the cut's situation "arose" in none of the worlds searched on the strong design. Since
    engine 19 a weekly look opens an episode only for a slip past the owner's tolerance,
    in some worlds only: the test plays the first world where one comes before the cut.
    """
    scenario = followup_scenario(plans.strong(), "budget_cut")
    first, count = find_world(scenario, "budget_cut", seeds=5)
    assert first is not None and count >= 1
    auto = reference_decider(scenario.levers.playbook)
    for seed in range(first, first + 20):
        game = Game(scenario, seed, then=auto)
        game.play_to_end(auto)
        budget = [d for d in game.model.recording.decisions if d.kind == "budget"]
        if budget and "cut_usd" not in budget[0].context:
            break  # a weekly look's slip comes first in this world
    else:
        pytest.fail("no world of 20 where a weekly look's slip comes before the cut")
    live = start_followup(scenario, "budget_cut", seed)
    assert live.pending is not None and live.pending.kind == "budget"
    assert "cut_usd" in live.pending.context, "the candidate's first call is the cut's"
    assert live.pending.day > budget[0].day
