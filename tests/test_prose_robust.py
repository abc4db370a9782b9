"""No text crashes the prose reader, and negating a statement never earns its credit.

Any text (long sentences, no punctuation, 10,000 words, emoji, other scripts, direction
and zero-width marks, combining marks) gets a reading or a clear message, and the plan
read from it saves and loads. A statement that earns a reading, negated or refused in
any of the ways people say it, never earns that reading.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.interview.content import with_texts
from sim.interview.plan import parse_plan, plan_json
from sim.interview.prose import PROSE_MAX, TEXT_MAX, read_answer, sentences
from sim.interview.rubric import judge

WORDS = (
    "the data team owns data quality and watches dedup rates reserve 12% ablations 8% "
    "if the budget is cut we first use the reserve then cut ablations legal owns licensing "
    "rather than over at the cost of not never skip $380,000 compute people gate after "
    "data prep with sampled audits loss spike roll back pause investigate I decide ship"
).split()
ODD = st.sampled_from(
    ["🚀", "数据团队", "فريق البيانات", "\u200f", "\u202b", "\u200b", "\u200d", "\u0301",
     "e\u0301", "ß", "İ", "\ufeff", "\x00", "\t", "—", "…", "\u2028", "%", "$", "-", ":"]
)  # fmt: skip
PIECES = st.lists(st.one_of(st.sampled_from(WORDS), ODD, st.text(max_size=12)), max_size=400)
SEPS = st.sampled_from([" ", "", ". ", ", ", "\n", " \u200b", "; "])


def _holds(text: str) -> None:
    read = read_answer(text)
    assert parse_plan(plan_json(read.plan)) == read.plan  # the plan saves and loads
    said = set(sentences(text[:PROSE_MAX]))
    for r in read.readings:
        assert r.sentence in said and len(r.sentence) <= TEXT_MAX and r.key
    assert read.readings or read.messages or not text.strip()
    # The rubric judges the plan and any text in a form's box (hazards, affirmed words).
    judge(read.plan)
    judge(with_texts(read.plan, {"tracking": text[:TEXT_MAX], "role.research": text[:TEXT_MAX]}))


@settings(max_examples=60, deadline=None)
@given(PIECES, SEPS)
def test_no_text_crashes_the_reader(pieces: list[str], sep: str) -> None:
    _holds(sep.join(pieces))


@pytest.mark.parametrize(
    "text",
    [
        # The crash of issue 25: an owner and a warning in a sentence over 2,000 characters.
        "The data team owns data quality and watches dedup rates " + "on every shard " * 200,
        "the data team owns data quality with " + "x" * 3_000,
        ("so the data team owns data quality and they watch dedup rates and the evals team "
         "owns contamination with overlap scans and we keep a 12 percent reserve ") * 40,
        "🚀 The data team owns data quality 🎉 and watches dedup rates 👀. Reserve 12% 💰.",
        "数据团队负责数据质量。我们保留12%的预算。The evals team owns contamination.",
        "\u202bفريق البيانات مسؤول\u202c. The data team owns data quality\u200f.",
        "The da\u200bta team ow\u200dns data quality. Re\u0301serve 12%.",
        "x" * 19_000,
    ],
)  # fmt: skip
def test_hard_texts_get_a_reading_or_a_message(text: str) -> None:
    _holds(text)


def test_ten_thousand_words_without_punctuation_are_read_with_a_message() -> None:
    words = ("the data team owns data quality and we keep a 12 percent reserve so " * 700).split()
    text = " ".join(words[:10_000])
    start = time.perf_counter()
    read = read_answer(text)
    assert time.perf_counter() - start < 30
    assert "owner:data_quality=data" in {r.key for r in read.readings}
    assert any(f"{PROSE_MAX:,}" in m for m in read.messages)
    assert len(read.plan.prose) <= PROSE_MAX


def test_accents_and_invisible_marks_do_not_hide_a_reading() -> None:
    keys = {
        r.key
        for r in read_answer("The da\u200bta team owns data quality. Re\u0301serve 12%.").readings
    }
    assert {"owner:data_quality=data", "reserve=0.12"} <= keys


# --- negation ---------------------------------------------------------------------------------

#: (subject, base verb, verb as said, the rest, the reading the statement earns).
STATEMENTS = [
    ("we", "run", "run", "n-gram overlap scans against every eval set", "decontaminate=on"),
    ("we", "hold", "hold", "a data review gate after data prep with dedup rates and "
     "sampled audits", "gate:prepare=yes"),
    ("we", "keep", "keep", "a 12% reserve", "reserve=0.12"),
    ("we", "spend", "spend", "8% of the compute on ablations", "ablation=0.08"),
    ("the data team", "own", "owns", "data quality and watches dedup rates",
     "owner:data_quality=data"),
    ("if the loss spikes we", "roll", "roll", "back to the last good checkpoint",
     "playbook:rollback=rollback_skip"),
    ("we", "build", "build", "product evals from real tickets before training",
     "product_evals_early=on"),
    ("legal and safety", "get", "get", "involved from day one", "safety_from_start=on"),
    ("the training lead", "make", "makes", "the call on a rollback", "right:rollback=pretraining"),
    ("I", "decide", "decide", "the ship call", "right:ship=product"),
    ("engineers", "sit", "sit", "embedded in the research team", "engineering_embedded=on"),
    ("we", "protect", "protect", "quality rather than the date", "tradeoff=quality>schedule"),
    ("if the budget is cut we", "use", "use", "the reserve and then cut ablations",
     "playbook:budget=use_reserve>cut_ablations"),
    # Added 2026-12-04: each of these was read when negated before (tracking, the role, the
    # dollar estimate, why late is expensive, the product use, the early warning).
    ("the TPM", "track", "tracks", "weekly burn against the forecast", "tracking=yes"),
    ("research", "own", "owns", "the data mix, the architecture and the experiments",
     "role:research=yes"),
    ("we", "estimate", "estimate", "compute at $380,000", "compute_usd=380000"),
    ("a defect found late", "throw", "throws", "the compute away and forces a restart of "
     "everything downstream", "late=yes"),
    ("support agents", "use", "use", "the model to draft replies to tickets", "product_use=yes"),
    ("the data team owns data quality and", "watch", "watches", "dedup rates",
     "warning:data_quality=yes"),
    ("we", "pretrain", "pretrain", "from scratch because no open base model reaches the target",
     "strategy=pretrain"),
    ("leadership", "decide", "decides", "on the budget", "right:budget=leadership"),
    ("if the schedule slips we", "cut", "cut", "post-training rounds and then accept the slip",
     "playbook:schedule=cut_post_training_rounds>accept_slip"),
    ("we", "hold", "hold", "an ablation gate before the main run with 1B proxy runs",
     "gate:ablations=yes"),
    ("I", "ship", "ship", "only once the product evals clear their threshold",
     "practice:ship_on_product_evals=yes"),
]  # fmt: skip
#: Hazards said in words (sim/interview/stated.py): negated, each says the sound practice.
HAZARDS = [
    ("we", "fix", "fix", "things as they come up", "hazard:ad_hoc=yes"),
    ("we", "ship", "ship", "as soon as the public benchmarks look strong",
     "hazard:ship_on_benchmarks=yes"),
    ("we", "skip", "skip", "the ablation gate", "hazard:no_gate=yes"),
    ("we", "go", "go", "straight to the main run", "hazard:no_gate=yes"),
    ("we", "share", "share", "ownership of every risk", "hazard:no_owner=yes"),
]  # fmt: skip
NEGATORS = ["do not", "don't", "will not", "won't", "would not", "wouldn't", "never",
            "should not", "cannot", "do not ever"]  # fmt: skip
FILLER = ["The weather is fine.", "We meet on Mondays.", "", "Honestly it is a hard project."]


def _keys(text: str) -> set[str]:
    return {r.key for r in read_answer(text).readings}


@pytest.mark.parametrize(("subject", "base", "said", "rest", "key"), STATEMENTS + HAZARDS)
def test_each_statement_earns_its_reading(
    subject: str, base: str, said: str, rest: str, key: str
) -> None:
    assert key in _keys(f"{subject} {said} {rest}.")


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(STATEMENTS),
    st.sampled_from(NEGATORS),
    st.sampled_from(FILLER),
    st.sampled_from(FILLER),
    st.booleans(),
)
def test_negating_a_statement_never_earns_its_reading(
    statement: tuple[str, str, str, str, str], negator: str, before: str, after: str, spoken: bool
) -> None:
    subject, base, _, rest, key = statement
    text = f"{before} {subject} {negator} {base} {rest}. {after}"
    if spoken:  # a transcript: no capitals, no punctuation
        text = text.lower().replace(".", " ")
    read = read_answer(text)
    assert key not in {r.key for r in read.readings}
    plan = read.plan
    assert not plan.levers.decontaminate or key != "decontaminate=on"
    assert not plan.budget.tracking or key != "tracking=yes"
    assert plan.budget.compute_usd == 0 or key != "compute_usd=380000"
    assert plan.budget.reserve_fraction == 0.0 or key != "reserve=0.12"
    assert plan.owner("data_quality") is None or not key.startswith("owner:")


def test_negating_any_statement_in_any_way_never_earns_its_reading() -> None:
    """Every statement, every negator, written and spoken: exhaustively, not sampled."""
    for subject, base, _, rest, key in STATEMENTS:
        for negator in NEGATORS:
            for text in (f"{subject} {negator} {base} {rest}.",
                         f"{subject} {negator} {base} {rest}".lower()):  # fmt: skip
                assert key not in _keys(text), text


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I would skip the ablations entirely, and there is no gate after them.",
         "gate:ablations=yes"),
        ("We will not spend time on overlap scans.", "decontaminate=on"),
        ("I would not roll back to a checkpoint when the loss spikes.",
         "playbook:rollback=rollback_skip"),
        ("No reserve: every dollar goes into the main run, not 12% held back.", "reserve=0.12"),
        ("We skip the data review gate after data prep with sampled audits.",
         "gate:prepare=yes"),
        ("Rather than keep a 10% reserve, we put it all in the run.", "reserve=0.1"),
        ("Engineering works from a ticket queue, separate from research.",
         "engineering_embedded=on"),
    ],
)  # fmt: skip
def test_refusals_never_earn_the_reading(text: str, key: str) -> None:
    assert key not in _keys(text)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(HAZARDS),
    st.sampled_from(NEGATORS),
    st.sampled_from(FILLER),
    st.booleans(),
)
def test_negating_a_hazard_never_reads_the_hazard(
    statement: tuple[str, str, str, str, str], negator: str, before: str, spoken: bool
) -> None:
    """ "We do not fix things as they come up" says the practice: no hazard is read."""
    subject, base, _, rest, key = statement
    text = f"{before} {subject} {negator} {base} {rest}."
    if spoken:
        text = text.lower().replace(".", " ")
    assert key not in _keys(text)
