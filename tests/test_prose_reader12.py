"""The prose reader's rules of 2026-12-05 (fifth session) for owners said in the ways a new
author says them, found by paraphrase probes (subjects x owning verbs x owned risks x how
the signal is said, written for the purpose; no corpus sentence). Each rule on sentences
written for this test, with negated and look-alike variants that must not read.

- *Owning verbs*: "has / takes ownership of", "is the DRI for", "keeps an eye on",
  "manages" (not a team or its people), "belongs to" (the holder after it), "the owner of X
  is Y", and "is the owner" with the owned thing in a head before ("For X, Y is the owner").
- *Teams named by their head*: "the head of data", "the head of research".
- *A person and an apposition*: "Priya, our data lead, owns …", "Sam (infra) owns …",
  "Marco, who runs infra, owns …": the apposition names the team.
- *The owned thing first, its owner after a mark*: "Hardware failures: the infra team",
  "Loss spikes -> the pretraining lead (grad norm)"; never a decision's head, a stage's
  cost or a cut ("fewer post-training rounds" names no owner).
- *A clause whose subject is a signal* goes on with the owner before it, after a semicolon
  or in the next sentence: "…; the early signal is failed-node counts".
- *A list of owners* under "one owner for each:".
"""

from __future__ import annotations

import pytest

from tests.test_prose_reader4 import _sure, _unsure


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # owning verbs
        ("The infra lead has ownership of node failures.", {"owner:hardware=infra"}),
        ("Our evals team takes full ownership of contamination.", {"owner:contamination=evals"}),
        ("The training team is the DRI for loss spikes.", {"owner:loss_spike=pretraining"}),
        ("The cluster team keeps an eye on the nodes.", {"owner:hardware=infra"}),
        ("The safety team manages licensing.", {"owner:licensing=safety_legal"}),
        ("Divergence belongs to the pretraining lead.", {"owner:loss_spike=pretraining"}),
        ("The owner of node failures is the platform team.", {"owner:hardware=infra"}),
        ("For contamination, the eval lead is the owner.", {"owner:contamination=evals"}),
        ("As for the GPUs, infra owns it.", {"owner:hardware=infra"}),
        # teams by their head
        ("The head of data owns corpus quality.", {"owner:data_quality=data"}),
        (
            "The head of research is accountable for training stability.",
            {"owner:loss_spike=pretraining"},
        ),
        # a person and an apposition
        ("Priya, our data lead, owns data quality.", {"owner:data_quality=data"}),
        ("Sam (infra) owns node failures.", {"owner:hardware=infra"}),
        ("Marco, who runs infra, is on the hook for GPU failures.", {"owner:hardware=infra"}),
        # the owned thing first
        ("Hardware failures: the infra team.", {"owner:hardware=infra"}),
        (
            "Loss spikes -> the pretraining lead (grad norm alerts).",
            {"owner:loss_spike=pretraining", "warning:loss_spike=yes"},
        ),
        ("Node failures: Marco, our infra lead.", {"owner:hardware=infra"}),
        # a signal as a subject
        (
            "The infra lead owns hardware failures; the early signal is failed-node counts.",
            {"owner:hardware=infra", "warning:hardware=yes"},
        ),
        (
            "The data lead owns corpus quality. Her first warning would be the dedup rate.",
            {"owner:data_quality=data", "warning:data_quality=yes"},
        ),
        # whose job it is, assigned, handled by, on someone
        ("Data quality would be the data lead's job.", {"owner:data_quality=data"}),
        ("Node failures are the infra team's problem.", {"owner:hardware=infra"}),
        ("Contamination is my responsibility.", {"owner:contamination=product"}),
        ("I would assign node failures to the infra lead.", {"owner:hardware=infra"}),
        ("Node failures are assigned to the platform team.", {"owner:hardware=infra"}),
        ("Contamination is handled by the evals team.", {"owner:contamination=evals"}),
        ("Corpus quality is on the data lead.", {"owner:data_quality=data"}),
        # the gap measured is the eval gap's signal
        (
            "The evals team owns the eval gap and reviews the gap between product and"
            " benchmark scores each morning.",
            {"owner:eval_gap=evals", "warning:eval_gap=yes"},
        ),
        # a question answered, a relative clause
        (
            "Who owns corpus quality? The data lead, watching dedup rates.",
            {"owner:data_quality=data", "warning:data_quality=yes"},
        ),
        ("Who owns contamination? I do.", {"owner:contamination=product"}),
        (
            "I'd want the data lead, who owns corpus quality, to read samples daily.",
            {"owner:data_quality=data"},
        ),
        # phrasings of non-native speakers
        ("For corpus quality I would put the data lead as owner.", {"owner:data_quality=data"}),
        ("We make data lead owner of quality.", {"owner:data_quality=data"}),
        ("Data team will be responsible to check quality.", {"owner:data_quality=data"}),
        ("Data team take care about quality.", {"owner:data_quality=data"}),
        ("Data lead is in charge for the quality.", {"owner:data_quality=data"}),
        ("The data lead would be the owner for the quality of data.", {"owner:data_quality=data"}),
        # pronouns: the nearest team before, or the one team of the sentence before
        (
            "and then for hardware its the infra team they own that and they watch node health",
            {"owner:hardware=infra", "warning:hardware=yes"},
        ),
        (
            "the evals people they own contamination they run the overlap scans",
            {"owner:contamination=evals", "warning:contamination=yes"},
        ),
        ("The infra team is great and I think they own the GPUs.", {"owner:hardware=infra"}),
        (
            "I spoke to the data lead. She owns corpus quality and reads samples daily.",
            {"owner:data_quality=data", "warning:data_quality=yes"},
        ),
        (
            "owners would be the data team for the crawl and the evals team for contamination",
            {"owner:data_quality=data", "owner:contamination=evals"},
        ),
        # one owner for each
        (
            "I'd put one owner on each: the data team for the dirty data, infra for the machines.",
            {"owner:data_quality=data", "owner:hardware=infra"},
        ),
    ],
)
def test_owners_said_as_new_authors_say_them(text: str, read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        # a team and its people are managed, not a risk
        ("The data lead manages the data team.", "owner:data_quality"),
        ("The infra lead manages a team of six engineers.", "owner:"),
        # negated, refused, nobody
        ("Nobody has ownership of data quality.", "owner:data_quality"),
        ("The infra lead doesn't manage hardware failures.", "owner:hardware"),
        ("For data quality, nobody is the owner.", "owner:data_quality"),
        ("Data quality: nobody, honestly.", "owner:data_quality"),
        # heads that are no owned risk with an owner after them
        ("Cost over quality once the cut comes: fewer post-training rounds.", "owner:"),
        ("- Data fix call: data lead", "owner:data_quality"),
        ("- Budget: exec sponsor signs off", "owner:budget"),
        ("Evaluation: leaked items inflate the scores.", "owner:"),
        ("Loss spikes: the training lead and infra.", "owner:loss_spike"),
        (
            "Each step has one owner: the data lead for cleaning, the evals lead for the product"
            " evals.",
            "owner:",
        ),
        # a signal subject with no owner before it, or a signal of another risk
        ("The early signal is the dedup rate.", "warning:"),
        ("The infra lead owns hardware failures. The early signal is the loss curve.", "warning:"),
        ("Corpus quality is not the data lead's job.", "owner:"),
        ("Quality is nobody's job.", "owner:"),
        ("The data lead's job is hard enough already.", "owner:"),
        ("The plan is on track for the data lead.", "owner:"),
        ("The evals team owns the gap between benchmarks and the product.", "warning:"),
        ("We have no owner for corpus quality.", "owner:"),
        ("Nobody is owner of corpus quality.", "owner:"),
        ("The product owner of the app decides features.", "owner:"),
        # a pronoun with no team before it is nobody's, and never the candidate's
        ("I think they own the GPUs.", "owner:"),
        ("The data lead and the infra lead are new. They own quality.", "owner:"),
        ("We have a data lead. She doesn't own quality.", "owner:"),
        ("no owners for corpus quality or the GPUs", "owner:"),
        # asked, not said; an indirect question; a past habit
        ("Should the data lead own corpus quality? I'm not sure.", "owner:"),
        ("Does infra own the GPUs?", "owner:"),
        ("The evals team asked who owns contamination.", "owner:"),
        ("The data lead used to own quality but now nobody does.", "owner:"),
        ("Who owns contamination? I don't know.", "owner:"),
        ("Who owns contamination? Not sure, maybe evals.", "owner:"),
        # a signal not watched; "product" with a determiner or before "evals"; no budget held
        ("The data lead owns corpus quality; language-ID is not something we track.", "warning:"),
        ("The infra lead owns the GPUs but nobody watches GPU temperatures.", "warning:"),
        ("The evals lead owns contamination.", "warning:"),
        ("The product owns corpus quality.", "owner:"),
        ("We want a good product.", "owner:"),
        ("Product evals decide the release.", "right:ship=product"),
        ("Nobody holds the budget.", "right:"),
        ("The PM holds the budget line.", "right:"),
        # an apposition that is no team, or is negated
        ("Priya, who doesn't run data, owns nothing.", "owner:"),
        ("Honestly, to be fair, owns data quality.", "owner:"),
    ],
)
def test_look_alikes_read_no_owner(text: str, not_read: str) -> None:
    said = _sure(text) | _unsure(text)
    assert not any(k.startswith(not_read) for k in said), (text, said)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("The training lead has the final say on a rollback.", "right:rollback=pretraining"),
        ("The cluster team has authority over rollbacks.", "right:rollback=infra"),
        ("The VP holds the last word on the release.", "right:ship=leadership"),
        ("The PM is the decision maker for the ship call.", "right:ship=product"),
        ("The data lead has the final say on whether to fix the data.", "right:data_fix=data"),
    ],
)
def test_the_final_say_is_a_decision_right(text: str, read: str) -> None:
    assert read in _sure(text), (text, _sure(text))


@pytest.mark.parametrize(
    "text",
    [
        "Nobody has the final say on rollbacks.",
        "The training lead doesn't have the final say on rollbacks.",
        "The training lead has the final say on the data mix.",
        "Who has the final say on rollbacks is still open.",
    ],
)
def test_no_final_say_reads_no_right(text: str) -> None:
    said = _sure(text)
    assert not any(k.startswith("right:rollback") for k in said), (text, said)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Rolling back is up to the training lead.", "right:rollback=pretraining"),
        ("It's up to the PM whether we ship.", "right:ship=product"),
        ("I'd leave rollbacks to the training lead.", "right:rollback=pretraining"),
        ("I'd delegate data fixes to the data lead.", "right:data_fix=data"),
        ("The decision to roll back rests with the training lead.", "right:rollback=pretraining"),
        ("Rollback authority sits with the training lead.", "right:rollback=pretraining"),
        ("The rollback call belongs to the training lead.", "right:rollback=pretraining"),
        ("The training lead gets the rollback call.", "right:rollback=pretraining"),
        ("The training lead can roll back without me.", "right:rollback=pretraining"),
        ("Ship/no-ship is my call.", "right:ship=product"),
        ("The go/no-go is mine.", "right:ship=product"),
        ("The training lead pulls the trigger on a rollback.", "right:rollback=pretraining"),
    ],
)
def test_rights_said_as_new_authors_say_them(text: str, read: str) -> None:
    assert read in _sure(text), (text, _sure(text))


@pytest.mark.parametrize(
    "text",
    [
        "It's not up to the PM whether we ship.",
        "Whether we ship isn't up to me.",
        "Ship/no-ship is not my call.",
        "I'd give the budget to the data team.",
        "The schedule is up to us.",
        "I would never leave rollbacks to the training lead.",
    ],
)
def test_rights_refused_or_no_decision_read_nothing(text: str) -> None:
    said = _sure(text)
    assert not any(k.startswith("right:") for k in said), (text, said)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("The data lead owns corpus quality and watches language-ID rates.", "data_quality"),
        (
            "The data lead owns corpus quality and reads 200 random documents a week.",
            "data_quality",
        ),
        (
            "The data lead owns corpus quality, with a small model trained on each mix.",
            "data_quality",
        ),
        ("The evals lead owns contamination and flags scores that look too good.", "contamination"),
        ("The legal team owns licensing and tracks takedown notices.", "licensing"),
        ("The infra lead owns the GPUs and watches GPU temperatures.", "hardware"),
        ("The training lead owns divergence and watches attention logit growth.", "loss_spike"),
        ("The evals lead owns the eval gap and tracks win rates on customer tasks.", "eval_gap"),
        ("The safety lead owns safety and tracks refusal rates on each checkpoint.", "safety"),
    ],
)
def test_signals_beside_the_vocabulary(text: str, read: str) -> None:
    assert f"warning:{read}=yes" in _sure(text), (text, _sure(text))


@pytest.mark.parametrize(
    ("text", "challenge"),
    [
        # a task handed over, or an owner made, states no cost
        ("Give data quality to the data team.", None),
        ("I give responsibility of data quality to data team.", None),
        ("We make the data lead owner of corpus quality.", None),
        # the same verbs stating what a risk does still read it
        ("Bad data gives us a weaker model.", "data_quality"),
        ("Bad data gives the training team a weaker model to tune.", "data_quality"),
        ("Contamination makes the scores lie.", "contamination"),
    ],
)
def test_handing_over_a_risk_is_no_challenge(text: str, challenge: str | None) -> None:
    said = {k for k in _sure(text) | _unsure(text) if k.startswith("challenge=")}
    assert said == ({f"challenge={challenge}"} if challenge else set()), (text, said)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # "product" alone as a subject, and the budget held
        ("Product decides rollbacks.", {"right:rollback=product"}),
        ("For speed, product makes the data-fix calls.", {"right:data_fix=product"}),
        ("Leadership holds the budget.", {"right:budget=leadership"}),
    ],
)
def test_product_alone_and_the_budget_held(text: str, read: set[str]) -> None:
    assert read <= _sure(text), (text, _sure(text))
