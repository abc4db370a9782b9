"""The prose reader's strategy, grounding and colon-head rules of 2026-12-05 (second session),
each on sentences written for this test (none copied from a corpus file), with the everyday
senses of the same words that must read as nothing or be asked.

"Adapt" and "fine-tune" are everyday words: a sentence chooses the strategy only when it
names what is adapted (a model, weights, a checkpoint, a size, the other strategy); a bare
"we adapt" is asked; a fine-tune named as a phase is no strategy.
"""

from __future__ import annotations

import pytest

from tests.test_prose_reader4 import _sure, _unsure


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        ("We adapt quickly when things go wrong.", set(), {"strategy=adapt"}),
        ("I'd fine-tune the plan every week.", set(), {"strategy=adapt"}),
        ("Clean the data first, and only then fine-tune.", set(), {"strategy=adapt"}),
        ("Bad labels force another fine-tuning cycle.", set(), {"strategy=adapt"}),
        ("We adapt an open 70B model because it is four months sooner.", {"strategy=adapt"},
         set()),
        ("We'd start from a base checkpoint and continue pretraining on support tickets.",
         {"strategy=adapt"}, set()),
        ("Training our own from scratch is overkill when good open weights exist.",
         {"strategy=adapt"}, {"strategy=pretrain", "late=yes"}),
        ("Build or adapt: I'd take an open 8B model and tune it on our tickets, it is cheaper.",
         {"strategy=adapt"}, set()),
        ("Build or adapt: we pretrain, because no open model has our tokenizer.",
         {"strategy=pretrain"}, {"strategy=adapt"}),
        ("We would not start from an open model; we pretrain our own for licence control.",
         {"strategy=pretrain"}, {"strategy=adapt"}),
        ("Build or adapt?", set(), {"strategy=adapt", "strategy=pretrain"}),
        # the grounding still reads where a restart from scratch is the cost
        ("Found late, a data bug means the GPU hours are already spent and we retrain from "
         "scratch.", {"late=yes"}, set()),
        # a colon head naming a stage or a quantity is no owner
        ("Pretraining run: 2T tokens on 512 H100s.", set(),
         {"owner:data_quality=pretraining"}),
        ("Training phase: about 40 days.", set(), {"owner:data_quality=pretraining"}),
        ("Data team: dedup and filter rates.", {"owner:data_quality=data"}, set()),
        ("Infra: node health and ECC errors.", {"owner:hardware=infra"}, set()),
        # owners said as people say them, and the signal after the owned thing
        ("The infra team owns reliability and has a dashboard of node health.",
         {"owner:hardware=infra", "warning:hardware=yes"}, set()),
        ("Our pretraining lead owns stability, with alerts on loss and gradient norm.",
         {"owner:loss_spike=pretraining", "warning:loss_spike=yes"}, set()),
        ("The data team is owner of the corpus, they check duplicates and filter rates daily.",
         {"owner:data_quality=data", "warning:data_quality=yes"}, set()),
        ("Data quality is owned from data team, they read samples every week.",
         {"owner:data_quality=data", "warning:data_quality=yes"}, set()),
        ("The training lead has the pager for divergences.", {"owner:loss_spike=pretraining"},
         set()),
        ("Data lead: on the hook for corpus quality; dedup counts each week.",
         {"owner:data_quality=data"}, set()),
        # negated, nobody's, or no signal said
        ("Infra does not own reliability; nobody does yet.", set(), {"owner:hardware=infra"}),
        ("Nobody owns stability.", set(), {"owner:loss_spike=pretraining"}),
        ("Infra owns the cluster and reports to me.", {"owner:hardware=infra"},
         {"warning:hardware=yes"}),
        ("The data team owns the data and keeps me posted.", {"owner:data_quality=data"},
         {"warning:data_quality=yes"}),
    ],
)  # fmt: skip
def test_strategy_grounding_and_heads(text: str, read: set[str], not_read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)
    assert not (not_read & sure), (text, sure)


@pytest.mark.parametrize(
    "text",
    ["We adapt, because it is cheaper and faster.", "Honestly we'd just adapt and move on."],
)
def test_a_bare_adapt_is_asked_never_guessed(text: str) -> None:
    assert "strategy=adapt" in _unsure(text)
    assert "strategy=adapt" not in _sure(text)


def test_what_was_not_read_is_listed_and_what_was_read_is_not() -> None:
    from sim.interview.prose import read_answer
    from sim.interview.unread import not_read

    sparse = not_read(read_answer("We keep a 10% reserve."))
    assert "a reserve (or that you keep none)" not in sparse
    assert "an owner for each risk, with its early warning" in sparse
    assert "a compute estimate in dollars" in sparse
    assert sparse.index("challenges, each with what it puts at risk") < sparse.index(
        "an owner for each risk, with its early warning"
    )
    fuller = not_read(
        read_answer(
            "The data team owns data quality and watches dedup rates. The pretraining lead "
            "decides rollbacks. Compute is about $2M."
        )
    )
    assert "a compute estimate in dollars" not in fuller
    assert any(line.startswith("an owner for 9 of the 10 risks:") for line in fuller)
    assert any(line.startswith("who makes 4 of the 5 calls: data fix") for line in fuller)
    assert not any("early warning for data quality" in line for line in fuller)


def test_an_unsure_reading_is_not_counted_as_read_until_confirmed() -> None:
    from sim.interview.prose import read_answer
    from sim.interview.unread import not_read

    text = "We keep a reserve, and 12% is right."
    read = read_answer(text)
    assert "reserve=0.12" in {r.key for r in read.unsure}
    assert "a reserve (or that you keep none)" in not_read(read)
    confirmed = read_answer(text, confirmed=["reserve=0.12"])
    assert "a reserve (or that you keep none)" not in not_read(confirmed)


def test_a_sentence_of_many_heads_is_read_without_recursion() -> None:
    import sim.interview.prose as prose

    text = "build or adapt: " * 3000 + "we adapt an open model because it is cheaper."
    assert prose._Reader._strategy_of(None, text) == "adapt"  # type: ignore[arg-type]
    prose.read_answer(text)  # no exception, whatever it reads
