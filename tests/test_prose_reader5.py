"""The prose reader's rules added on 2026-12-05 (branch reader5), each on sentences written
for this test (none copied from a corpus file), with negated, hedged or weak variants that
must read as nothing or as asked.

Each case gives a text, the keys the reader must read sure, and the keys it must not read
sure; ``asked`` cases give keys that must be read unsure (asked of the candidate).
"""

from __future__ import annotations

import pytest

from sim.interview.prose import read_answer
from sim.interview.prose_followups import read_followup
from tests.test_prose_reader4 import _sure, _unsure


def _check(text: str, read: set[str], not_read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)
    assert not (not_read & sure), (text, sure)


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        # who may roll back is a decision right, not the response to a spike
        (
            "The pretraining lead decides when to roll back.",
            set(),
            {"playbook:rollback=rollback_skip"},
        ),
        (
            "The infra lead is empowered to roll back without asking anyone.",
            set(),
            {"playbook:rollback=rollback_skip"},
        ),
        (
            "On a loss spike we roll back to the last good checkpoint.",
            {"playbook:rollback=rollback_skip"},
            set(),
        ),
        # a date moved last, said as a gerund, is the slip accepted
        (
            "When we fall behind we cut a tuning round first, then add more engineers, and "
            "moving the date comes last.",
            {"playbook:schedule=cut_post_training_rounds>add_core_staff>accept_slip"},
            set(),
        ),
        # fine-tuning named as a phase or its rounds chooses no strategy
        ("A budget cut costs us two fine-tuning rounds.", set(), {"strategy=adapt"}),
        (
            "Everything from fine-tuning to the launch evals waits on the base.",
            set(),
            {"strategy=adapt"},
        ),
        ("We fine-tune an open base model on our tickets.", {"strategy=adapt"}, set()),
        # a strategy asked as a question is no choice
        ("Adapt an open base model?", set(), {"strategy=adapt"}),
        # "so we build" concludes the choice
        ("No open model handles our three languages, so we build.", {"strategy=pretrain"}, set()),
        ("We adapt nothing, we train from scratch.", {"strategy=pretrain"}, {"strategy=adapt"}),
        # the owner is the noun before "who", never the candidate named earlier
        (
            "I would hire a data person who owns data quality and samples shards weekly.",
            {"owner:data_quality=data"},
            {"owner:data_quality=product"},
        ),
        (
            "I would hire a data person who does not own data quality.",
            set(),
            {"owner:data_quality=product", "owner:data_quality=data"},
        ),
        # an owning verb's object ends where another subject's decision begins
        (
            "I own the roadmap, and leadership signs off any change to the budget.",
            {"right:budget=leadership"},
            {"owner:budget=product"},
        ),
        # "takes care of itself" owns nothing
        ("Get good people and staffing takes care of itself.", set(), {"owner:staffing=product"}),
        # the same subject's second verb says how its risk is watched, no second risk
        (
            "The evals team owns contamination and runs overlap checks against the product evals.",
            {"owner:contamination=evals"},
            {"owner:eval_gap=evals"},
        ),
        # a spend review is no gate; a phase named with no experiment is no gate
        (
            "Reserve 10%, ablations 6%, monthly spend review.",
            {"reserve=0.1", "ablation=0.06"},
            {"gate:ablations=yes"},
        ),
        ("There will be checkpoint meetings after the ablations.", set(), {"gate:ablations=yes"}),
        (
            "Gate: the main run waits until the proxy runs land on the scaling fit.",
            {"gate:ablations=yes"},
            set(),
        ),
        # a team's name is no cost mechanism; "post-training lead" is not the training lead
        (
            "The fine-tuning lead decides rollbacks.",
            {"right:rollback=post_training"},
            {"late=yes", "right:rollback=pretraining"},
        ),
        (
            "The post-training lead decides rollbacks.",
            {"right:rollback=post_training"},
            {"right:rollback=pretraining"},
        ),
        # a definition or an opening "so" states no consequence
        ("Success means 90% accuracy on real customer tickets.", set(), {"challenge=eval_gap"}),
        ("So yeah, the budget, you just have to be careful with it.", set(), {"challenge=budget"}),
        # the budget is no risk named by its own money words alone
        ("Salaries are outside our budget, so we leave them out.", set(), {"challenge=budget"}),
        ("Hard parts, ranked by how much money they burn.", set(), {"challenge=budget"}),
        (
            "An optimistic estimate means the budget runs out before tuning.",
            {"challenge=budget"},
            set(),
        ),
        # spam and scraped pages are the data's quality
        (
            "Half the scraped pages are spam, so the model learns less and we lose two weeks.",
            {"challenge=data_quality"},
            {"challenge=eval_gap"},
        ),
        # "Gate: no X before Y" keeps a gate; "Gates: none" refuses them
        (
            "Gate: no big run before the proxy runs match the scaling fit.",
            set(),
            {"hazard:no_gate=yes"},
        ),
        ("Gates: none.", {"hazard:no_gate=yes"}, set()),
    ],
)
def test_a_rule_reads_what_the_sentence_says(text: str, read: set[str], not_read: set[str]) -> None:
    _check(text, read, not_read)


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        # a ranked step the reader cannot read makes the whole order asked
        (
            "If the budget is cut: reserve first, experiments second, fewer tokens third.",
            "playbook:budget=use_reserve>reduce_tokens",
        ),
        (
            "If the budget is cut: first the reserve, second fewer tokens, third we renegotiate "
            "the cloud contract.",
            "playbook:budget=use_reserve>reduce_tokens",
        ),
        # a possibility is no response
        ("If product evals are below target we might ship anyway.", "playbook:ship=ship"),
        # both strategies named, neither concluded: the one the reader would pick is asked
        (
            "We adapt an open base model, and training from scratch would take a year.",
            "strategy=pretrain",
        ),
        # a figure given as one of two
        ("A reserve of 10 or 15% of compute.", "reserve=0.15"),
        # a hedged lever
        ("Maybe legal reviews the data sources early.", "safety_from_start=on"),
    ],
)
def test_a_weak_reading_is_asked_never_guessed(text: str, asked: str) -> None:
    assert asked in _unsure(text), (text, read_answer(text).readings)
    assert asked not in _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        "If the budget is cut: first the reserve, then the ablations, then fewer tokens.",
        "If product evals are below target we ship with a note.",
        "A reserve of 15% of compute.",
        "Legal reviews the data sources early.",
    ],
)
def test_the_plain_statement_is_read_sure(text: str) -> None:
    assert _sure(text), (text, read_answer(text).readings)
    assert not _unsure(text), (text, read_answer(text).readings)


def test_a_call_under_a_condition_contrary_to_fact_is_not_the_call() -> None:
    text = (
        "If the gap were inside the noise we would ship; it is twice the noise, so we fix "
        "the data and retune."
    )
    read = read_followup("benchmarks_vs_product", text)
    assert [r.key for r in read.readings if not r.unsure] == [
        "call:benchmarks_vs_product=fix_data_and_retune"
    ]
    plain = read_followup("benchmarks_vs_product", "The gap is inside the noise, so we ship.")
    assert "call:benchmarks_vs_product=ship" in {r.key for r in plain.readings if not r.unsure}


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        (
            "Owners: data lead (duplicate rate), infra (node health checks).",
            {"owner:data_quality=data", "warning:data_quality=yes", "owner:hardware=infra"},
            set(),
        ),
        (
            "Owners and signals: hardware, infra, node health; contamination, the evals lead, "
            "overlap scans.",
            {"owner:hardware=infra", "owner:contamination=evals"},
            set(),
        ),
        # an item naming two risks gives no owner; a team set aside owns nothing
        (
            "Owners: data lead (duplicate and toxicity rates).",
            set(),
            {"owner:data_quality=data", "owner:safety=data"},
        ),
        ("Owners: not the data lead (duplicate rate).", set(), {"owner:data_quality=data"}),
        # no head, no list: a sentence of teams and signals owns nothing
        (
            "Data lead (duplicate rate), infra (node health checks).",
            set(),
            {"owner:data_quality=data", "owner:hardware=infra"},
        ),
    ],
)
def test_a_list_of_owners_under_its_head(text: str, read: set[str], not_read: set[str]) -> None:
    _check(text, read, not_read)


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        (
            "The infra lead is accountable for hardware, with node health alerts.",
            {"owner:hardware=infra"},
            set(),
        ),
        ("The evals lead answers for contamination.", {"owner:contamination=evals"}, set()),
        ("Data quality sits with the data lead.", {"owner:data_quality=data"}, set()),
        (
            "The evals lead is not accountable for contamination.",
            set(),
            {"owner:contamination=evals"},
        ),
        # a clause of its own after ", and her …" names no second risk owned
        (
            "The data lead answers for data quality, and her signal is the toxicity rate.",
            {"owner:data_quality=data"},
            {"owner:safety=data"},
        ),
    ],
)
def test_more_owning_verbs(text: str, read: set[str], not_read: set[str]) -> None:
    _check(text, read, not_read)
