"""Answer in prose: a spoken answer read into a plan with the rubric's own vocabulary.

The reader must find the challenges, owners, gates, numbers, playbook order, roles,
strategy and trade-offs a transcript states; filler prose reads as nothing and earns no
content item; the plan it reads is judged like a structured plan and ranks above a thin
structured answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.interview.plan import InterviewPlan, parse_plan, plan_json
from sim.interview.prose import read_prose, sentences
from sim.interview.rubric import ITEMS, judge
from tests import interview_plans as plans

SPOKEN = (Path(__file__).parent / "data" / "spoken_answer.txt").read_text(encoding="utf-8")
CONTENT = {s.id for s in ITEMS if s.content}


@pytest.fixture(scope="module")
def read() -> InterviewPlan:
    return read_prose(SPOKEN, InterviewPlan(candidate="ada"))[0]


def test_the_reader_finds_what_the_answer_says(read: InterviewPlan) -> None:
    assert read.candidate == "ada" and read.prose == SPOKEN
    assert {c.risk for c in read.challenges} >= {
        "data_quality",
        "tokenizer_config",
        "hardware",
        "loss_spike",
        "contamination",
        "eval_gap",
    }
    assert read.owner("data_quality") == "data" and read.owner("hardware") == "infra"
    assert "overlap" in read.early_warning("contamination")
    assert read.right("rollback") == "pretraining" and read.right("ship") == "product"
    assert read.responses("budget") == [
        "use_reserve",
        "cut_ablations",
        "fewer_post_training_rounds",
    ]
    assert read.responses("rollback")[0] == "rollback_skip"
    assert {g.after for g in read.gates} == {"prepare", "ablations"}
    assert read.budget.reserve_fraction == pytest.approx(0.12)
    assert read.budget.compute_usd == 380_000 and read.budget.people_usd == 5_400_000
    assert read.levers.ablation_fraction == pytest.approx(0.08)
    assert read.levers.decontaminate and read.levers.safety_from_start
    assert read.strategy == "pretrain" and "licence" in read.strategy_reason
    assert [(t.protect, t.give_up) for t in read.tradeoffs] == [("quality", "schedule")]
    assert read.roles.research.startswith("Research owns")
    assert "drafts answers" in read.objective.product_use


def test_every_reading_points_at_its_sentence() -> None:
    _, readings = read_prose(SPOKEN)
    said = set(sentences(SPOKEN))
    assert readings and all(r.sentence in said for r in readings)


def test_the_read_plan_is_judged_like_a_structured_one(read: InterviewPlan) -> None:
    report = judge(read)
    assert report.score > judge(plans.weak()).score
    assert report.item("owners").status == "partly"  # three risks were never given an owner
    assert parse_plan(plan_json(read)) == read  # it saves and loads like any plan


FILLER = st.lists(
    st.sampled_from("lorem ipsum dolor sit amet the weather is nice today my cat likes "
                    "sunny afternoons and blue guitars".split()),
    min_size=3, max_size=40,
).map(" ".join)  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(st.lists(FILLER, min_size=1, max_size=8).map(". ".join))
def test_filler_prose_reads_as_nothing_and_earns_no_content(text: str) -> None:
    plan, readings = read_prose(text)
    assert readings == []
    report = judge(plan)
    assert [i.id for i in report.items if i.id in CONTENT and i.status != "missed"] == []
