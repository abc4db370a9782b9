"""The prose reader's rules of 2026-12-05 (fifth session) for gates, the reserve and the
ablation share, spend tracking and the playbook said in many words. Each rule on sentences
written for this test (none copied from a corpus file), with negated, refused and look-alike
variants that must not read.

- *Gates*: the small experiments an ablations gate decides on in the words people use
  ("small tuning runs", "a pilot-run review", "1B runs", "proxies", "the scaling fit"), the
  data gate's phase as "after prep", "a data-readiness review", "an intake review"; two
  gates in one clause, each with its own evidence; a gate said as a condition on the main
  run with no gate word ("we don't launch the big run until …", "no main run before …",
  "the full run starts only if …", "if they fail we don't start", "No fit, no big run"); the
  evidence in the next clause; items under a head of gates or after a semicolon; a gate
  that names no phase after a sentence that names one.
- *The reserve and the ablation share*: the small experiments by their other names
  ("sweeps", "small runs", "small experiments", "pilot runs"); a share kept back or aside
  ("we keep 12% back", "keep 15 percent of the budget aside"), "per cent", "a tenth", a
  floor ("not keep less than a 12% reserve"); refusals as a head ("Reserve: none"),
  "nothing held back", "a reserve is not needed", coordinated ("no reserve and no
  ablations") or beside another share's number.
- *Spend tracked*: the spend and a verb of looking at it in one clause ("burn vs
  forecast", "burn checked weekly", "look every week at how much we spent").
- *Playbooks*: one response said alone after the condition it answers ("if we slip, we move
  the date"); a recipe change as the overreaction ("restart with a lower learning rate");
  "add two engineers", "drop a round", "before the launch date"; with no cue, a word both
  kinds share goes with the kind whose own option is nearest; an option judged ("adding
  people late only makes it later") is not chosen; a hedge before an option asks.
- *Product evals early*: "before the first training run"; "they" after a semicolon stands
  for the product evals the clause before named.
"""

from __future__ import annotations

import time

import pytest

from sim.interview.prose import read_answer
from tests.test_prose_reader4 import _sure


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # the small experiments in other words
        (
            "Before the expensive run there are two gates: a data review with a sampled audit, "
            "and a go/no-go where small pretraining runs must beat last year's model.",
            {"gate:prepare=yes", "gate:ablations=yes"},
        ),
        (
            "A go/no-go follows a handful of small LoRA runs on the contract set.",
            {"gate:ablations=yes"},
        ),
        ("Gate two: the 1B runs have to track the scaling fit.", {"gate:ablations=yes"}),
        (
            "We hold a pilot-run review where four recipes compete on the graded set.",
            {"gate:ablations=yes"},
        ),
        # the data gate's phase in other words
        (
            "After prep there's a gate: a sampled audit and the licence report.",
            {"gate:prepare=yes"},
        ),
        ("An intake review checks dedup rates and consent for every source.", {"gate:prepare=yes"}),
        # two gates in one clause, each with its evidence
        (
            "First a data readiness review with the dedup report, then 1B runs, and only then "
            "the main run.",
            {"gate:prepare=yes", "gate:ablations=yes"},
        ),
        # a condition on the main run, no gate word
        (
            "We won't kick off the big run until the 300M and 1B proxy runs sit on the scaling "
            "curve.",
            {"gate:ablations=yes"},
        ),
        ("No full run before the small experiments beat the baseline.", {"gate:ablations=yes"}),
        (
            "The full fine-tune begins only if the pilot beats the base model on our tickets.",
            {"gate:ablations=yes"},
        ),
        (
            "If the small runs do not beat the base model, we don't start the main run.",
            {"gate:ablations=yes"},
        ),
        (
            "We check a thousand sampled documents and the licence list after cleaning, and if "
            "that fails we don't begin.",
            {"gate:prepare=yes"},
        ),
        (
            "Toy models on the final mix must land on the scaling law. No fit, no big run.",
            {"gate:ablations=yes"},
        ),
        (
            "We wouldn't start the main training job before a data review of licences.",
            {"gate:prepare=yes"},
        ),
        # the evidence in the next clause
        (
            "A formal review follows data preparation, and its bar is a clean sampled audit.",
            {"gate:prepare=yes"},
        ),
        # items of a list of gates
        (
            "Gates: after prep, a sampled audit and a PII scan; then proxy runs and a scaling fit.",
            {"gate:prepare=yes", "gate:ablations=yes"},
        ),
        (
            "Our gates.\nAfter data prep: a sampled audit and the licence list.\n"
            "After ablations: 500M proxies and a scaling fit.",
            {"gate:prepare=yes", "gate:ablations=yes"},
        ),
        # a gate naming no phase takes the sentence before's
        (
            "Ablations run on 1B models first. Gate: the best mix must beat the baseline.",
            {"gate:ablations=yes"},
        ),
    ],
)
def test_gates_in_other_words(text: str, read: set[str]) -> None:
    assert read <= _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        # negated and refused
        "We start the main run right away, without waiting for proxy runs.",
        "We won't run proxy runs before the main run.",
        "We will not gate the main run on the small runs.",
        "I don't think we need a go/no-go after the pilot runs.",
        "Rather than waiting until the proxy runs match the scaling fit, we launch the main run.",
        "There is no go/no-go before the main run; the small runs just inform the recipe.",
        "We skip the proxy runs and go straight to the big run.",
        "No gates.\nAfter prep: a sampled audit and the licence list.",
        # look-alikes: a share, a small team, a metric, a spend review, a condition with
        # no evidence, a product pilot, a final model
        "Small runs take 6% of compute.",
        "A small review team checks the contracts once a quarter.",
        "We review proxy metrics for the product every week.",
        "Proxy runs are 5% of compute. I review the burn every week.",
        "We don't start the main run until the budget is signed.",
        "Nothing starts until legal signs off.",
        "Gate: data review before training; small runs take 5% of compute.",
        "Ablations get 5% of compute. The go/no-go is with the sponsor.",
        "A pilot with fifty customers comes before the full launch, and a review of feedback.",
        "The 70B model must beat the baseline at the release gate.",
        "We'd have milestone reviews when data prep ends, after the ablations, and at launch.",
    ],
)
def test_gates_not_read(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("gate:")}


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        # the small experiments by their other names
        (
            "About 7% of compute goes to the sweeps and 11% stays in reserve.",
            {"ablation=0.07", "reserve=0.11"},
            set(),
        ),
        ("The small experiments get 4 per cent of the GPU budget.", {"ablation=0.04"}, set()),
        ("Pilot runs: 5% of compute.", {"ablation=0.05"}, set()),
        # a share kept back or aside, a fraction in words, a floor
        ("We keep 12% back for surprises.", {"reserve=0.12"}, set()),
        ("I'd keep roughly 15 percent of the budget aside.", {"reserve=0.15"}, set()),
        ("We hold back a tenth of the money.", {"reserve=0.1"}, set()),
        ("We build a 10% cushion into the plan.", {"reserve=0.1"}, set()),
        ("I would not keep less than a 12% reserve.", {"reserve=0.12"}, set()),
        # refused outright
        ("Reserve: none.", {"reserve=0"}, set()),
        ("Ablations: skip, the recipe is proven.", {"ablation=0"}, set()),
        ("Compute $1M, ablations 4%, and no reserve.", {"reserve=0", "ablation=0.04"}, set()),
        (
            "Every dollar goes into the main run, with no reserve and no ablations.",
            {"reserve=0", "ablation=0"},
            set(),
        ),
        ("A reserve is not needed when the plan is good.", {"reserve=0"}, set()),
        ("We don't make ablations, the recipe is known.", {"ablation=0"}, set()),
        # look-alikes: a share set aside for a purpose, a score, a share of the data
        ("For ablations we set aside 8% of compute.", {"ablation=0.08"}, {"reserve=0.08"}),
        ("Our pilot reaches 70% on the graded set.", set(), {"ablation=0.5", "ablation=0.7"}),
        ("A pilot on 10% of the data must beat the base model.", set(), {"ablation=0.1"}),
        # negated, or a number in the refusal's own stretch
        ("We never plan without a reserve; ablations 5%.", {"ablation=0.05"}, {"reserve=0"}),
        ("We do not keep a reserve above 12%.", set(), {"reserve=0", "reserve=0.12"}),
        ("No reserve beyond 10%.", set(), {"reserve=0"}),
        ("I would not keep 12% back.", set(), {"reserve=0.12"}),
    ],
)
def test_shares_in_other_words(text: str, read: set[str], not_read: set[str]) -> None:
    got = _sure(text)
    assert read <= got
    assert not (not_read & got)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Spend vs plan, weekly, with the TPM.", True),
        ("I check the burn every week.", True),
        ("Every Monday I look at how much we spent.", True),
        ("The program manager puts the burn in front of leadership every Friday.", True),
        ("The TPM compares each month what we spent with the plan.", True),
        # negated, a spend that is not looked at, no cadence
        ("We don't check the spend weekly.", False),
        ("The data lead checks dedup rates every week and we spend 5% on ablations.", False),
        ("We spend a week checking the data.", False),
        ("I look at the burn.", False),
    ],
)
def test_spend_tracked_in_other_words(text: str, read: bool) -> None:
    assert ("tracking=yes" in _sure(text)) is read


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # one response said alone, after a condition it answers
        ("If we fall behind, we add three engineers.", {"playbook:schedule=add_core_staff"}),
        ("If the schedule slips, we move the launch date.", {"playbook:schedule=accept_slip"}),
        ("When we slip we don't hire late; we move the date.", {"playbook:schedule=accept_slip"}),
        ("If the budget is cut, we dip into the reserve.", {"playbook:budget=use_reserve"}),
        # a recipe change is the overreaction
        (
            "When the loss spikes, we stop and restart with a smaller learning rate.",
            {"playbook:rollback=overreact"},
        ),
        (
            "If the loss blows up, we scrap the recipe and start over.",
            {"playbook:rollback=overreact"},
        ),
        # a round dropped, the date after
        (
            "If the budget is cut, we spend the reserve first and then drop a tuning round.",
            {"playbook:budget=use_reserve>fewer_post_training_rounds"},
        ),
        (
            "If we slip, a tuning round goes before the launch date.",
            {"playbook:schedule=cut_post_training_rounds>accept_slip"},
        ),
        # a word both kinds share goes with the nearest kind's own option
        (
            "On a slip we descope a tuning round and then move the date, and on a cut we use the "
            "reserve and then shrink the eval scope.",
            {"playbook:budget=use_reserve>smaller_eval_scope"},
        ),
    ],
)
def test_playbooks_in_other_words(text: str, read: set[str]) -> None:
    assert read <= _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        "If we slip, we won't move the date.",
        # a condition on money is no cue of its own (the cues taken out stay out)
        "If money gets tight, we spend the reserve first and then drop a tuning round.",
        "We never go over budget, so the reserve stays untouched.",
        "Set the learning rate to 3e-4 with a short warmup.",
        "If the loss spikes, we look at the learning rate schedule before anything else.",
        "First we set the reserve at 10%, then tuning rounds start in week 12.",
        "If the proxies look good, we use the reserve for a bigger run, then an extra round.",
        "If the data is late, we add two engineers to the data team.",
        "When the budget is approved, we hire two engineers and then book the cluster.",
        # hedged: asked, not read
        "If the budget is cut, we could maybe use the reserve.",
    ],
)
def test_playbooks_not_read(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("playbook:")}


def test_a_single_option_beside_a_refused_one_is_asked() -> None:
    text = "If the schedule slips we do not cut tuning rounds and then accept the slip."
    assert not {k for k in _sure(text) if k.startswith("playbook:")}


def test_a_judged_option_is_not_chosen() -> None:
    got = _sure("If we slip, adding two engineers late only makes it later, so we move the date.")
    assert "playbook:schedule=accept_slip" in got
    assert not {k for k in got if "add_core_staff" in k}


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (
            "Success is judged on 800 analyst-graded queries we collect before the first training "
            "run.",
            True,
        ),
        (
            "We don't wait for launch to write product evals; they exist before training starts.",
            True,
        ),
        ("We write product evals at the end; they exist before launch.", False),
        ("They exist before training starts.", False),
    ],
)
def test_product_evals_early_in_other_words(text: str, read: bool) -> None:
    assert ("product_evals_early=on" in _sure(text)) is read


def test_new_rules_stay_linear() -> None:
    from sim.interview import prose

    texts = [
        "if " + "not the small " * 3000 + "we",
        "no " * 5000 + "main run",
        "keep " + "12% " * 3000 + "of",
        " ".join(["small"] * 5000) + " runs",
        "the main " + "big " * 5000 + "run starts only",
        "only if " + "we " * 5000,
    ]
    patterns = [prose.GATE_CONDITION, prose.SMALL_RUNS, prose.PREPARE_CUE, prose.SPENT,
                prose.LOOK_AT, prose.CADENCE, prose.AT_LEAST, prose.NO_BEFORE,
                *prose.REFUSED_SHARE.values()]  # fmt: skip
    for text in texts:
        start = time.perf_counter()
        for p in patterns:
            list(p.finditer(text))
        assert time.perf_counter() - start < 1.0
    run = ", ".join(
        f"if the small runs do not beat the base we don't start the main run until {i}"
        for i in range(300)
    )
    start = time.perf_counter()
    read_answer(run + ".")
    assert time.perf_counter() - start < 30
