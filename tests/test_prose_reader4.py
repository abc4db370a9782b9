"""The prose reader's rules added on 2026-12-05 (branch reader4), each on sentences written
for this test (none copied from a corpus file), with negated and refused variants that must
read as nothing or as asked.

Each case gives a text, the keys the reader must read sure, and the keys it must not read
sure (read unsure, asked, is allowed only where the case says so).
"""

from __future__ import annotations

import pytest

from sim.interview.prose import read_answer
from sim.interview.prose_followups import read_followup


def _sure(text: str) -> set[str]:
    return {r.key for r in read_answer(text).readings if not r.unsure}


def _unsure(text: str) -> set[str]:
    return {r.key for r in read_answer(text).readings if r.unsure}


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        # two negations cancel: a reserve is kept, none is refused
        ("We will never start the run without a reserve.", set(), {"reserve=0"}),
        ("We do not need a reserve for this project.", {"reserve=0"}, set()),
        # a holder named to be set aside holds nothing
        (
            "Rollbacks are decided by the pretraining lead, not by the PM and not by the VP.",
            {"right:rollback=pretraining"},
            {"right:rollback=product", "right:rollback=leadership"},
        ),
        # a claim denied inside the hazard's own words
        (
            "The launch decision is mine, and I never base it on the public leaderboard.",
            set(),
            {"hazard:ship_on_benchmarks=yes"},
        ),
        (
            "The launch decision rests on the public benchmarks, nothing else.",
            {"hazard:ship_on_benchmarks=yes"},
            set(),
        ),
        # strategies weighed as a question, or set aside, are no choice
        ("Pretrain or adapt?", set(), {"strategy=adapt", "strategy=pretrain"}),
        ("Training our own model from scratch would be overkill.", set(), {"strategy=pretrain"}),
        # the budget is no risk named by "cost" or "cut" alone
        ("The main risks and what each would cost.", set(), {"challenge=budget"}),
        (
            "The compute estimate may be too optimistic, so we run out of money mid-run.",
            {"challenge=budget"},
            set(),
        ),
        # "our own" is no owning verb
        (
            "Building our own tokenizer would cost a month we do not have.",
            set(),
            {"owner:tokenizer_config=product"},
        ),
        # owning a decision is a decision right, not a risk owned
        (
            "The finance director owns budget changes.",
            {"right:budget=leadership"},
            {"owner:budget=leadership"},
        ),
        # tracking needs a tracking verb
        (
            "Data fixes go to the leadership group because they are spending decisions.",
            set(),
            {"tracking=yes"},
        ),
        (
            "The program manager reviews GPU spend against the forecast every week.",
            {"tracking=yes"},
            set(),
        ),
        # trade-offs: "over" a span is none; the dimension nearest "over" is protected
        ("Salaries come to $2M over twelve months.", set(), {"tradeoff=cost>schedule"}),
        (
            "We hold back a ten percent reserve and, in short, quality over speed.",
            {"tradeoff=quality>schedule"},
            {"tradeoff=cost>schedule"},
        ),
        (
            "I would rather spend the reserve than ship a model with a lower score.",
            {"tradeoff=quality>cost"},
            {"tradeoff=schedule>cost"},
        ),
        # a decision named is no playbook response
        (
            "On a loss spike, the pretraining lead decides rollbacks.",
            set(),
            {"playbook:rollback=rollback_skip"},
        ),
        # a playbook step said as the sequence goes
        (
            "If we slip: first bring in two more engineers, then cut a tuning round, then "
            "move the date.",
            {"playbook:schedule=add_core_staff>cut_post_training_rounds>accept_slip"},
            set(),
        ),
        # refusing the order ("not first") keeps the option
        (
            "If the budget is cut we do not cut tokens first: the reserve goes, then the "
            "proxies, then tokens.",
            {"playbook:budget=use_reserve>cut_ablations>reduce_tokens"},
            set(),
        ),
        # a share cut to or by a figure is a response, not the plan's share
        (
            "If the budget is cut, the reserve goes first, then ablations down to 2%.",
            set(),
            {"ablation=0.02"},
        ),
        # a tie between the data and one specific risk names the specific one
        (
            "Test questions from the benchmarks leaked into our web data, so the scores "
            "overstate the model.",
            {"challenge=contamination"},
            {"challenge=data_quality"},
        ),
        # consequences said as what the risk does to the model
        (
            "A tokenizer that splits Thai words badly caps the quality of the whole run.",
            {"challenge=tokenizer_config"},
            set(),
        ),
        (
            "A tokenizer that splits Thai words badly does not cap the quality of the run.",
            set(),
            {"challenge=tokenizer_config"},
        ),
    ],
)
def test_a_rule_reads_what_the_sentence_says(text: str, read: set[str], not_read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)
    assert not (not_read & sure), (text, sure)


def test_a_step_the_reader_cannot_read_makes_the_order_asked() -> None:
    text = (
        "When the schedule slips: first renegotiate scope with the sales team, then cut a "
        "post-training round, then move the date."
    )
    assert not any(k.startswith("playbook:") for k in _sure(text))
    assert "playbook:schedule=cut_post_training_rounds>accept_slip" in _unsure(text)


def test_another_holder_inside_the_object_makes_the_right_asked() -> None:
    text = "Rollbacks the training lead decides alone, the data fixes the data lead."
    assert "right:data_fix=pretraining" not in _sure(text)


def test_a_follow_up_call_offered_as_an_alternative_is_asked() -> None:
    r = read_followup("loss_spike", "The VP will decide on Monday whether we go back or continue.")
    assert r.readings and all(x.unsure for x in r.readings)


def test_carrying_on_after_a_rollback_is_no_call_of_its_own() -> None:
    r = read_followup("loss_spike", "We roll back to the last good checkpoint and keep going.")
    assert r.calls == ("rollback_skip",)
    r = read_followup("loss_spike", "We keep going and watch the loss.")
    assert r.calls == ("continue",)
