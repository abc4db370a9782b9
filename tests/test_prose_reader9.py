"""The prose reader's rules of 2026-12-05 (fourth session) for decision rights said in many
words. Each rule on sentences written for this test (none copied from a corpus file), with
negated and look-alike variants that must not read.

- *Verbs of calling and holding*: "calls rollbacks", "makes budget calls", "holds the ship
  decision", "signs the budget", "owns go/no-go", "owns launch.", "holds the purse
  strings", "says when we roll back".
- *A clause with no subject of its own* continues the sentence's first team (not "I"); a
  pronoun or a relative stands for the nearest team before it, never the candidate.
- *The decision is the holder's own*: "the decision to launch is mine", "would be mine",
  "the release call is also me", "that decision is theirs" (the team named before).
- *A decision passed to its holder*: "goes to", "comes to", "escalates to" (a decision by
  its noun, never a sum of money); "who decides X is Y".
- *An action done on one's own authority*: "rolls back alone", "without waiting for me",
  "has the authority to roll back".
- A committee, "nobody", "everyone", "together", or a negated subject holds nothing.
"""

from __future__ import annotations

import pytest

from tests.test_prose_reader4 import _sure, _unsure


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # verbs of calling and holding
        ("Our infra lead calls every rollback.", {"right:rollback=infra"}),
        ("The research lead calls data fixes, and I call the launch.",
         {"right:data_fix=pretraining", "right:ship=product"}),
        ("The tuning lead makes rollback calls during the RL phase.",
         {"right:rollback=post_training"}),
        ("The VP signs the budget each quarter.", {"right:budget=leadership"}),
        ("As PM I own go/no-go for the release.", {"right:ship=product"}),
        ("The CTO holds the purse strings.", {"right:budget=leadership"}),
        ("Our pretraining lead says when we roll back.", {"right:rollback=pretraining"}),
        # a clause with no subject continues the sentence's first team
        ("The pretraining lead watches gradient norms, pages on alerts, and holds the "
         "rollback decision.", {"right:rollback=pretraining"}),
        ("The pretraining lead, not me and not the VP, decides a rollback.",
         {"right:rollback=pretraining"}),
        ("The training lead watches the loss, and she decides every rollback.",
         {"right:rollback=pretraining"}),
        # the decision is the holder's own
        ("Since I am the PM, the decision to release is mine.", {"right:ship=product"}),
        ("The call on the launch would be mine.", {"right:ship=product"}),
        ("The launch decision is also me.", {"right:ship=product"}),
        # a decision passed to its holder
        ("Every data fix goes to the data lead first.", {"right:data_fix=data"}),
        ("Any rollback comes to me, and I hear the leads out.", {"right:rollback=product"}),
        ("Who decides a rollback is the research lead, with no meeting.",
         {"right:rollback=pretraining"}),
        # an action done on one's own authority
        ("The infra lead rolls back on her own, and she tells me the next morning.",
         {"right:rollback=infra"}),
        ("Our tuning lead rewinds to the last good checkpoint without waiting for me.",
         {"right:rollback=post_training"}),
        ("The data lead has the authority to pull a source the same day.",
         {"right:data_fix=data"}),
        ("Our research lead gets to roll back at night, and nobody wakes me.",
         {"right:rollback=pretraining"}),
        ("The infra lead is the one who says roll back, nobody else.", {"right:rollback=infra"}),
        # a holder keeps a decision; a turn names another holder
        ("I would keep the release decision, judged on our graded set.", {"right:ship=product"}),
        ("The launch call is mine, but the research lead decides on any rollback.",
         {"right:ship=product", "right:rollback=pretraining"}),
    ],
)  # fmt: skip
def test_decision_rights_in_many_words(text: str, read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)


def test_that_decision_is_theirs_names_the_team_before() -> None:
    """ "… is theirs" after a ";" is the team of the clause before: asked, never guessed."""
    text = "I don't make the research lead wait on a rollback; that decision is theirs."
    read = _sure(text) | _unsure(text)
    assert "right:rollback=pretraining" in read
    assert not any(k.endswith("=product") for k in read if k.startswith("right:"))


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # a list of rights, one a clause: "=", ":" or, inside a list, ","
        ("Who decides: rollback = research lead; data fix = data crew; release = me.",
         {"right:rollback=pretraining", "right:data_fix=data", "right:ship=product"}),
        ("4. Decisions mid-run: rollback, the infra lead; budget, the CTO; launch, me.",
         {"right:rollback=infra", "right:budget=leadership", "right:ship=product"}),
        # the candidate's remit as a list
        ("My role as the PM is the goal, the priorities and the launch decision; the "
         "researchers own the recipe.", {"right:ship=product"}),
        # a list of owners whose item names a call
        ("Owners: infra (node failures), research lead (divergence, rollback calls).",
         {"right:rollback=pretraining", "owner:hardware=infra"}),
        # a holder whose verb stands for the deciding verb before the ";"
        ("The VP does not make rollback calls; the research lead does.",
         {"right:rollback=pretraining"}),
    ],
)  # fmt: skip
def test_lists_and_remits_of_rights(text: str, read: set[str]) -> None:
    got = _sure(text) | _unsure(text)
    assert read <= got, (text, got)
    assert not any(k.startswith("right:") and k not in read for k in got), (text, got)


@pytest.mark.parametrize(
    "text",
    [
        # a plan's step, not a holder; a list's comma form outside a list
        "Budget, cut the ablations first.",
        "Rollback, then a short pause to look at the data.",
        # a remit negated, a remit naming no call
        "My job is not the ship call.",
        "My role is the objective and the trade-offs.",
        # an action merely done says nothing of who decided it
        "The infra lead rolls back to the last checkpoint.",
        "The tuning lead never rewinds alone.",
        "The data lead does not have the authority to pull a source.",
        # no one, everyone, together, a committee
        "Nobody calls rollbacks on their own.",
        "Everyone makes budget calls together.",
        "The steering committee calls every rollback.",
        "A change board chaired by the VP decides the budget.",
        # a sum, not a decision, passed on
        "The budget goes to the data team.",
        "Savings from the sweep go to the infra lead.",
        # negated holders
        "The decision to ship is not mine.",
        "The release call is never theirs.",
        "Rollbacks do not go to the VP.",
        # "I" framing a sentence is no subject of a later clause of its own
        "I would brief the VP, and after that calls the budget.",
        # a pronoun is never the candidate
        "I asked about spikes, and she calls every rollback.",
    ],
)
def test_lookalike_rights_read_nothing(text: str) -> None:
    read = {k for k in _sure(text) | _unsure(text) if k.startswith("right:")}
    assert not read, (text, read)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # options in a sequence of their own, with no cue (the cues said as a head or a
        # noun, "Cut:", "on a cut", "if money gets tight", were tried and taken out: on
        # three blind sets they read 3 playbooks more right and 3 more wrong)
        ("Cut: contingency, then the sweeps, then fewer tokens.",
         "playbook:budget=use_reserve>cut_ablations>reduce_tokens"),
        ("On a cut we spend the reserve and then the proxies.",
         "playbook:budget=use_reserve>cut_ablations"),
        # the options' new words, under the cues the reader knows
        ("If we slip, one RL round less, then push the date.",
         "playbook:schedule=cut_post_training_rounds>accept_slip"),
        ("If the budget is cut, the contingency goes first, then a round of fine-tuning.",
         "playbook:budget=use_reserve>fewer_post_training_rounds"),
        ("If we get squeezed, we use the buffer, then cut experiments.",
         "playbook:budget=use_reserve>cut_ablations"),
        ("If the budget is cut, the reserve goes before an RL round.",
         "playbook:budget=use_reserve>fewer_post_training_rounds"),
    ],
)  # fmt: skip
def test_playbooks_in_many_words(text: str, read: str) -> None:
    assert read in _sure(text), (text, _sure(text))


@pytest.mark.parametrize(
    "text",
    [
        # no cut and no slip: a reserve kept, a word that only looks like one
        "We keep a contingency and run the sweeps before the main run.",
        "The loss can slip a little after a restart, and we look at the proxies.",
        "We squeeze more out of the GPUs, then run the sweeps and the reserve checks.",
        # a cut or a slip said as a head or a noun is no cue of its own
        "If money gets tight, the contingency goes first, then a round of fine-tuning.",
    ],
)
def test_lookalike_playbooks_read_nothing(text: str) -> None:
    read = {k for k in _sure(text) | _unsure(text) if k.startswith("playbook:budget")
            or k.startswith("playbook:schedule")}  # fmt: skip
    assert not read, (text, read)


def test_a_further_step_on_a_condition_is_asked() -> None:
    """An order that ends before a step said on a condition is asked, not read sure."""
    text = ("If the budget is cut, the reserve takes the first half, the sweeps the rest, and "
            "if it is deeper, something else we agree then.")  # fmt: skip
    assert not any(k.startswith("playbook:budget") for k in _sure(text)), _sure(text)
    plain = "If the budget is cut, the reserve takes the first half, then the sweeps the rest."
    assert "playbook:budget=use_reserve>cut_ablations" in _sure(plain), _sure(plain)


@pytest.mark.parametrize(
    ("text", "warned"),
    [
        # the product's own eval scored at each checkpoint, or built from real use
        ("The evals lead owns the gap to real use and tracks the support-set score at each "
         "checkpoint.", True),
        ("Our eval team owns the eval gap, scoring every checkpoint on the graded tickets.",
         True),
        ("The evals lead owns the eval gap and builds the test set out of real chats.", True),
        # the owner alone, or a score not taken per checkpoint
        ("The evals lead owns the eval gap.", False),
        ("The evals lead owns the eval gap and reports the score to me.", False),
        ("The evals lead owns the eval gap and never builds tests from real chats.", False),
    ],
)  # fmt: skip
def test_an_eval_gap_signal_names_the_products_own_eval(text: str, warned: bool) -> None:
    sure = _sure(text)
    assert "owner:eval_gap=evals" in sure, (text, sure)
    assert ("warning:eval_gap=yes" in sure) is warned, (text, sure)
