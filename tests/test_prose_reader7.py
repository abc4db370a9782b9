"""The prose reader's rules of 2026-12-05 (third session) for two practices people state in
many words: safety and legal from the start (or only at the end), and product evals built
early. Each rule on sentences written for this test (none copied from a corpus file), with
negated, hedged and look-alike variants that must read as nothing, the opposite, or be
asked.

- *Early*, as people say it: week one, the first month, kickoff, from inception, the first
  checkpoint, at data preparation, "before we train anything", "before any tuning".
- *Safety* in more words: compliance, red-teaming, security review, trust and safety.
- *Only at the end*: "we bring legal in at the end", "safety testing happens before launch,
  once the model is finished" reads the lever off; a sentence about what a late finding
  does ("a safety finding at the end blocks the launch") states no plan and reads nothing.
- *Product evals named by what they are made of*: "600 physician-graded notes", "a set of
  real chats", "an internal test suite", built early, are the product's evals.
- *A measure compared is no refusal*: "we baseline it against 600 graded notes".
"""

from __future__ import annotations

import pytest

from tests.test_prose_reader4 import _sure, _unsure


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        # safety and legal early, in other words
        ("Compliance and red-teaming from week one, not at the end.",
         {"safety_from_start=on"}, {"safety_from_start=off"}),
        ("Our security review sits in from the first month.", {"safety_from_start=on"}, set()),
        ("Trust and safety are in the kickoff meeting, not the launch review.",
         {"safety_from_start=on"}, {"safety_from_start=off"}),
        ("The red team starts at the first checkpoint.", {"safety_from_start=on"}, set()),
        ("Legal checks every source at data preparation rather than at launch.",
         {"safety_from_start=on"}, {"safety_from_start=off"}),
        ("I would not bring compliance in from week one.", {"safety_from_start=off"},
         {"safety_from_start=on"}),
        # only at the end
        ("We bring safety and legal in at the end for sign-off.", {"safety_from_start=off"},
         {"safety_from_start=on"}),
        ("Safety testing happens before launch, once the model is finished.",
         {"safety_from_start=off"}, set()),
        ("We do not bring legal in at the end, they sit in from kickoff.",
         {"safety_from_start=on"}, {"safety_from_start=off"}),
        # a risk described, not a plan: nothing of the lever
        ("A safety finding at the end blocks the launch for weeks.", set(),
         {"safety_from_start=off", "safety_from_start=on"}),
        # product evals named by what they are made of
        ("We baseline it against 600 physician-graded notes that we build in the first month.",
         {"product_evals_early=on"}, {"product_evals_early=off"}),
        ("Success is 90% on 1,200 real chats the evals team labels before we train anything.",
         {"product_evals_early=on"}, set()),
        ("The evals lead builds a customer-facing eval suite before training begins.",
         {"product_evals_early=on"}, set()),
        ("I am against building a test set of real chats early.", {"product_evals_early=off"},
         {"product_evals_early=on"}),
        # look-alikes: real data or real tasks with no set to judge by
        ("We clean real data before training.", set(),
         {"product_evals_early=on", "product_evals_early=off"}),
        ("Ablations on real tasks before training.", set(),
         {"product_evals_early=on", "product_evals_early=off"}),
    ],
)  # fmt: skip
def test_early_practices_in_many_words(text: str, read: set[str], not_read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)
    assert not (not_read & (sure | _unsure(text))), (text, sure)


def test_a_hedged_late_safety_plan_is_asked_not_read() -> None:
    text = "Maybe we bring legal in at launch for sign-off."
    assert "safety_from_start=off" in _unsure(text)
    assert "safety_from_start=off" not in _sure(text)


@pytest.mark.parametrize(
    ("said", "refused", "key"),
    [
        ("Compliance and red-teaming from week one.",
         "No compliance or red-teaming from week one.", "safety_from_start=on"),
        ("We build 600 physician-graded notes in the first month.",
         "We won't build 600 physician-graded notes in the first month.",
         "product_evals_early=on"),
        ("Legal reviews every source at data preparation.",
         "Legal never reviews sources at data preparation.", "safety_from_start=on"),
    ],
)  # fmt: skip
def test_negating_the_practice_never_earns_its_credit(said: str, refused: str, key: str) -> None:
    """The practice said earns it; the same said and refused never does (issue 25)."""
    assert key in _sure(said), _sure(said)
    assert key not in _sure(refused) | _unsure(refused), _sure(refused)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # the ship call on the product's own set, named by what it is
        ("I decide the ship call on the claims-set result.", True),
        ("I call the release on the 900-question set.", True),
        ("Ship = me, on the A/B.", True),
        ("I own go-live on the physician score.", True),
        ("I decide the release, on the partner-graded clauses.", True),
        ("The decision to launch is mine, going by those product evals.", True),
        # public, overall or refused: no credit
        ("We ship on the benchmark score.", False),
        ("We ship on 5 benchmark results.", False),
        ("We launch on the overall score.", False),
        ("We will not ship on the chat score alone.", False),
        ("We ship with a reserve.", False),
    ],
)  # fmt: skip
def test_the_ship_call_on_the_products_own_set(text: str, read: bool) -> None:
    key = "practice:ship_on_product_evals=yes"
    assert (key in _sure(text)) is read, (text, _sure(text))
    if not read:
        assert key not in _unsure(text), text
