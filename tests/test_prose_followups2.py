"""Follow-up calls in the words people use (fourth session): each rule read where it is
said, and never where the call is spared, refused or only offered. Written for these tests,
not taken from the labelled corpora."""

from __future__ import annotations

import pytest

from sim.interview.prose_followups import read_followup


@pytest.mark.parametrize(
    ("fid", "text", "calls"),
    [
        # Post-training rounds by the kind of round, and "one round less".
        ("budget_cut", "Contingency first, then the sweep budget, then one SFT round less.",
         ("use_reserve", "cut_ablations", "fewer_post_training_rounds")),
        ("budget_cut", "The buffer, then the pilot runs, and a preference round after that.",
         ("use_reserve", "cut_ablations", "fewer_post_training_rounds")),
        # "after that" goes on forward, in a list of three as in a list of two.
        ("budget_cut", "The reserve goes first, the proxies next, and after that one DPO round.",
         ("use_reserve", "cut_ablations", "fewer_post_training_rounds")),
        ("budget_cut", "We would accept going over budget before touching the model.",
         ("accept_overrun",)),
        ("budget_cut", "Reserve first; after that a shorter run.",
         ("use_reserve", "reduce_tokens")),
        # A recipe changed after one spike, in its own words.
        ("loss_spike", "I'd lower the learning rate and start again from an early checkpoint.",
         ("overreact",)),
        ("loss_spike", "The recipe is unstable, so we change it and restart.", ("overreact",)),
        ("loss_spike", "She is going back to the checkpoint from this morning, skipping those "
         "batches.", ("rollback_skip",)),
        ("loss_spike", "We rewind to the last good checkpoint.", ("rollback_skip",)),
        # Fifth session: more words for the same calls (probes written for the purpose).
        ("loss_spike", "Let it ride for a few hundred steps and see if it recovers.",
         ("continue",)),
        ("loss_spike", "The training lead reloads the previous checkpoint and skips those "
         "batches.", ("rollback_skip",)),
        ("budget_cut", "Dip into the contingency, and if that's not enough cut a round of RLHF.",
         ("use_reserve", "fewer_post_training_rounds")),
        ("budget_cut", "Shrink the eval suite and drop one SFT round.",
         ("smaller_eval_scope", "fewer_post_training_rounds")),
        # Fixing the data and tuning again.
        ("benchmarks_vs_product", "Not ready; we are fixing the data and tuning again.",
         ("fix_data_and_retune",)),
    ],
)  # fmt: skip
def test_calls_in_many_words(fid: str, text: str, calls: tuple[str, ...]) -> None:
    read = read_followup(fid, text)
    assert read.calls == calls
    assert not read.unsure


def test_a_hold_then_named_is_sure_from_the_naming_sentence() -> None:
    text = "Not ready. We run another tuning round and measure again."
    read = read_followup("benchmarks_vs_product", text)
    assert read.calls == ("extra_round",)
    assert not read.unsure
    assert read.readings[0].sentence.startswith("We run another tuning round")


def test_a_hold_never_named_stays_unsure() -> None:
    read = read_followup("benchmarks_vs_product", "Not ready. We talk to the customer first.")
    assert read.calls == ("extra_round",) and read.unsure


@pytest.mark.parametrize(
    ("fid", "text", "calls"),
    [
        # What is kept, protected or spared is no cut.
        ("budget_cut", "We keep the tuning rounds; the reserve pays for the cut.",
         ("use_reserve",)),
        ("budget_cut", "Protect the sweep budget and release the contingency.", ("use_reserve",)),
        ("budget_cut", "We hold on to the reserve and cut the proxies.", ("cut_ablations",)),
        # ... unless it is kept small: that is a cut.
        ("budget_cut", "Reserve first, then keep the sweep small.",
         ("use_reserve", "cut_ablations")),
        # Keeping going is the call itself.
        ("loss_spike", "We would not roll back; we keep training and let it recover.",
         ("continue",)),
        # Negated in the new words.
        ("loss_spike", "I would not lower the learning rate; we roll back and skip the batches.",
         ("rollback_skip",)),
        ("budget_cut", "We will not go over the budget: reserve, then the small runs.",
         ("use_reserve", "cut_ablations")),
    ],
)  # fmt: skip
def test_spared_and_refused_calls_are_not_read(fid: str, text: str, calls: tuple[str, ...]) -> None:
    assert read_followup(fid, text).calls == calls


def test_a_bare_after_still_makes_a_long_order_unsure() -> None:
    """ "X after Y" turns the order back: with three calls the reader cannot place it."""
    read = read_followup(
        "budget_cut", "The reserve, then fewer tuning rounds after the ablations are cut."
    )
    assert read.unsure
