"""The prose reader's rules of 2026-12-05 (fifth session): challenges, roles, trade-offs,
hazards, late discovery and the strategy said in many words. Each rule on sentences written
for this test (none copied from a corpus file), with negated and look-alike variants that
must not read.

Challenges:

- *More verbs of damage, in every form*: "costing", "meant", "inflated", "lowers", "ruins",
  "depresses", "disappoints", "blows the budget", "stops the launch", "learns less",
  "shortfall", "runs dry", "thrown away"; and what they cost in words ("capped", "lie",
  "inflated", "learns less", "a weekend", "burned").
- *Any consequence not negated in its own clause*: the first cause word no longer decides
  alone; a negator that describes the risk ("a spike nobody catches", "if they are not
  caught", "without consent") negates no cost; a negator after the cause word counts when a
  cost follows it ("so no retrain is forced").
- *Two risks in one sentence, each with its cost*: each clause is read when its own subject
  names its risk ("a bad mix costs the run, and a spike nobody watches burns the cluster");
  a risk named later in a clause only says what the first one costs.
- *A tie settled by the head, the subject or the first risk named*: "Data: …", "the GPUs
  fail … and it costs", "a spike nobody owns leaves the cluster idle".
"""

from __future__ import annotations

import pytest

from sim.interview.clauses import term_list
from tests.test_prose_reader4 import _sure


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # more verbs of damage, in every form
        ("Stale forum data lowers the ceiling of everything trained after it.",
         "challenge=data_quality"),
        ("Unchecked configs ruin a run within a day.", "challenge=tokenizer_config"),
        ("Compute overruns blow through the budget, so post-training slips a month.",
         "challenge=budget"),
        ("When the key engineer quits, the project is stopping for a month.",
         "challenge=staffing"),
        ("Leaked test items in the crawl mean our scores are inflated.",
         "challenge=contamination"),
        ("Scraped pages full of duplicates: the model learns less per token.",
         "challenge=data_quality"),
        ("A node went down every night, which meant idle GPUs billing until morning.",
         "challenge=hardware"),
        # a negator that describes the risk negates no cost
        ("A loss spike nobody catches turns into a diverged run and a day of compute thrown "
         "away.",
         "challenge=loss_spike"),
        ("Loss spikes can ruin the run if they are not caught within hours.",
         "challenge=loss_spike"),
        ("Tuning on customer emails without consent could force a retrain.",
         "challenge=licensing"),
        # a consequence said in the negative is still one
        ("Public benchmarks drift from our users, so they are not telling us when the model "
         "is weaker for them.", "challenge=eval_gap"),
    ],
)  # fmt: skip
def test_challenges_in_more_words(text: str, read: str) -> None:
    assert read in _sure(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("A dirty mix costs the whole run, and a spike nobody watches burns the cluster "
         "overnight.", {"challenge=loss_spike"}),
        ("Poor data means we pay for tokens that teach nothing, and unreliable infrastructure "
         "means idle GPU-days we still pay for.", {"challenge=data_quality", "challenge=hardware"}),
        ("Tuning toward public benchmarks gives a model that scores well and helps users less, "
         "and leaked test items make the scores look better than they are.",
         {"challenge=eval_gap", "challenge=contamination"}),
        # a spoken list: the next item opens its own clause
        ("data first if the crawl is dirty the model is capped second the cluster you lose a "
         "node a day and each one costs hours", {"challenge=data_quality", "challenge=hardware"}),
    ],
)  # fmt: skip
def test_each_clause_names_its_own_challenge(text: str, read: set[str]) -> None:
    assert read <= _sure(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # a head names the risk of a tie
        ("Data: if it is dirty the model learns less and misses the target.",
         "challenge=data_quality"),
        # the risk named first, before what it costs
        ("A spike nobody owns leaves the cluster idle and billed all weekend.",
         "challenge=loss_spike"),
        ("A duplicated shard in the crawl means a retrain and weeks lost, and the evals only "
         "show it late.", "challenge=data_quality"),
        # the risks' words the stemmer misses: "GPUs", "chips", "shards"
        ("And at scale GPUs fail pretty often, so every restart costs us a few hours.",
         "challenge=hardware"),
        ("With thousands of chips, some fail every day, and the restarts add days.",
         "challenge=hardware"),
        ("Bad shards found mid-run mean a restart and weeks lost.", "challenge=data_quality"),
        # "people" after the consequence are whom the model fails, not the staff
        ("A model can shine on public benchmarks and still fail nurses, who ask about local "
         "people and rules the benchmarks never cover.", "challenge=eval_gap"),
    ],
)  # fmt: skip
def test_a_tie_settled_by_head_or_subject(text: str, read: str) -> None:
    assert read in _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        # negated consequences
        "We never lose days to hardware failures, because we checkpoint every hour.",
        "Node failures do not cost us much time.",
        "The data is checked, so the model does not learn less.",
        "We never train on documents without consent, so no retrain is forced.",
        "Dirty data does not lower the ceiling of the model.",
        "We will not blow the budget on compute.",
        "Benchmarks do not lie if they are clean.",
        # a proverb, an estimate, a refusal
        "People say garbage in, garbage out about data.",
        "The GPUs are costing us around 700 thousand dollars, and salaries 1.8 million.",
        "We drop the noisy shards, so the model learns less junk.",
        # "a leak" in a sentence about privacy is no benchmark leak
        "The second is privacy, because customer files cannot be used without consent, and a "
        "leak would halt the product.",
        # a clause whose subject is a person or a weak word names no risk of its own
        "Spam in one shard dilutes the mix, and we only noticed when the evals came back flat, "
        "so we lost three weeks.",
        "The data is clean, and a bad restart policy eats days.",
    ],
)
def test_lookalike_challenges_read_nothing_new(text: str) -> None:
    sure = _sure(text)
    if text.startswith("Spam"):
        assert "challenge=eval_gap" not in sure and "challenge=data_quality" in sure
    elif text.startswith("The second is privacy"):
        assert "challenge=contamination" not in sure and "challenge=licensing" in sure
    elif text.startswith("The data is clean"):
        assert "challenge=safety" not in sure
    else:
        assert not {k for k in sure if k.startswith("challenge")}


# --- roles: one a clause, opened by its role and a verb of doing its work ---------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("I own the objective and the release; research owns the architecture and the data mix.",
         {"role:product_manager=yes", "role:research=yes"}),
        ("Engineering runs the cluster and the pipeline.", {"role:engineering=yes"}),
        ("Research is choosing the recipe and the data mix, and engineering is running the "
         "cluster and the checkpoints.", {"role:research=yes", "role:engineering=yes"}),
        ("I'd see my job as setting the target and the trade-offs and making the ship call, "
         "while research picks the recipe and the experiments.",
         {"role:product_manager=yes", "role:research=yes"}),
        ("My role as PM is the what and the why: the objective, the trade-offs and the launch "
         "decision.", {"role:product_manager=yes"}),
        # the scope in words its concept leaves out: goals, the model, reports
        ("The product manager sets the goals and makes the trade-offs; research designs the "
         "model and the experiments.", {"role:product_manager=yes", "role:research=yes"}),
        ("The program manager owns the schedule and the weekly burn report.",
         {"role:program_management=yes"}),
    ],
)  # fmt: skip
def test_roles_one_a_clause(text: str, read: set[str]) -> None:
    assert read <= _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        "Research does not own the recipe and the data mix.",
        "I do not own the objective or the release.",
        # one thing of the scope and a condition on it
        "PM decides ship, on product evals.",
        "Engineering is slow, and the cluster and the pipeline are late.",
        # the candidate doing engineering's work is no PM's role
        "I run the cluster and the pipeline.",
        "Research runs the risk of missing the target and the launch.",
    ],
)
def test_lookalike_roles_read_nothing(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("role")}


# --- trade-offs in more forms -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # a side that ships the model risks quality
        ("We would rather slip two weeks than ship a weaker model.", "tradeoff=quality>schedule"),
        ("We would rather launch a month late than hand nurses a model that invents doses.",
         "tradeoff=quality>schedule"),
        # traded, given, ranked
        ("I'd trade two weeks for quality.", "tradeoff=quality>schedule"),
        ("We don't trade quality for the date.", "tradeoff=quality>schedule"),
        ("We would never give up quality for speed.", "tradeoff=quality>schedule"),
        ("Quality outranks the date for this launch.", "tradeoff=quality>schedule"),
        ("We slip before we ship below the bar.", "tradeoff=quality>schedule"),
        ("We spend the reserve before we slip the date.", "tradeoff=schedule>cost"),
        # the side taken as a loss gives, whatever "over" says
        ("I'd take a late launch, two weeks at most, over a model the agents like less.",
         "tradeoff=quality>schedule"),
        # kept and given in one clause or two
        ("Quality is non-negotiable, so we are willing to flex on the timeline.",
         "tradeoff=quality>schedule"),
        ("We protect quality and will absorb up to two weeks of slip.",
         "tradeoff=quality>schedule"),
    ],
)  # fmt: skip
def test_tradeoffs_in_more_forms(text: str, read: str) -> None:
    assert read in _sure(text)


def test_two_tradeoffs_in_one_sentence() -> None:
    assert {"tradeoff=quality>schedule", "tradeoff=schedule>cost"} <= _sure(
        "We would rather slip two weeks than cut the evals, and we'd spend the reserve rather "
        "than slip further."
    )


@pytest.mark.parametrize(
    "text",
    [
        "The date does not outrank quality.",
        "Nothing is more important than the date.",
        "We will not slip before we ship.",
        "We trade notes with the data team for a week.",
        "We cut the ablations before we touch the reserve.",
        "We'll spend a week for the launch review.",
    ],
)
def test_lookalike_tradeoffs_read_nothing(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("tradeoff")}


# --- why late is expensive, in more words ---------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Found late, the GPU hours are already paid, and the tuning rounds after it must be "
        "done again.",
        "The compute spent on a bad base cannot be recovered, and every tuning round on that "
        "checkpoint must be redone.",
        "If we find a defect late we must train again, so it is double cost.",
        "The compute is sunk, and the SFT and the preference tuning on a bad base get thrown away.",
    ],
)
def test_late_discovery_in_more_words(text: str) -> None:
    assert "late=yes" in _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        "Nothing is lost if we find it early, and no tuning round has to be done again.",
        "We do preference tuning after SFT, and the compute is already paid for by the grant.",
        "We paid for the cluster in advance and we do the SFT next.",
        "On a spike we restart from an early checkpoint, so the problem can't come back.",
    ],
)
def test_lookalike_late_reads_nothing(text: str) -> None:
    assert "late=yes" not in _sure(text)


# --- hazards said in more words ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("If the budget gets cut, we figure that out when it happens.", "hazard:ad_hoc=yes"),
        ("The rest we just play by ear.", "hazard:ad_hoc=yes"),
        ("There is no point planning the cut now.", "hazard:ad_hoc=yes"),
        ("Rather than a detailed plan, we stay nimble.", "hazard:ad_hoc=yes"),
        ("I would not assign individual owners to risks.", "hazard:no_owner=yes"),
        ("Everybody feels ownership of the outcome.", "hazard:no_owner=yes"),
        ("We'll figure out who owns what later.", "hazard:no_owner=yes"),
        ("The team owns quality collectively.", "hazard:no_owner=yes"),
        ("The whole team shares responsibility for the budget.", "hazard:no_owner=yes"),
        ("Who is responsible for each risk, we will see during the project.",
         "hazard:no_owner=yes"),
        ("We go straight from data collection into the main run.", "hazard:no_gate=yes"),
        ("We go directly to the big training, it is faster.", "hazard:no_gate=yes"),
        ("We start the main run without a separate review stage.", "hazard:no_gate=yes"),
        ("Ship: when MMLU beats the last release.", "hazard:ship_on_benchmarks=yes"),
        ("For the release I'd look at the public leaderboards.", "hazard:ship_on_benchmarks=yes"),
    ],
)  # fmt: skip
def test_hazards_in_more_words(text: str, read: str) -> None:
    assert read in _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        "We never figure things out when they happen; the playbook is agreed up front.",
        "We don't play it by ear: the order is written down.",
        "We share responsibility for the budget with finance.",
        "We go straight from the ablations into the main run once the gate passes.",
        "We never start the main run without a separate review stage.",
        "For the release I'd look at the product evals and the public leaderboards.",
    ],
)
def test_lookalike_hazards_read_nothing(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("hazard")}


# --- build or adapt: what the strategy words are said of ------------------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("We build on an open model.", "strategy=adapt"),
        ("We build on top of an open 8B model and tune it on our tickets.", "strategy=adapt"),
        ("We build from scratch.", "strategy=pretrain"),
        ("We train our own 7B from scratch.", "strategy=pretrain"),
        ("Rather than pretrain, we fine-tune an open model on our tickets.", "strategy=adapt"),
        ("We'd adapt if an open model reached the target, but none does, so we pretrain.",
         "strategy=pretrain"),
        # a modal or a bare head before "pretrain", the other strategy refused
        ("We would pretrain rather than adapt.", "strategy=pretrain"),
        ("Pretrain, not adapt: no open model fits our memory budget.", "strategy=pretrain"),
        # pretraining and then its fine-tune phase: one strategy, sure
        ("We pretrain on 1T tokens, then fine-tune the model on support chats.",
         "strategy=pretrain"),
    ],
)  # fmt: skip
def test_strategies_said(text: str, read: str) -> None:
    assert read in _sure(text)


@pytest.mark.parametrize(
    "text",
    [
        # what is adapted or built from scratch is no model
        "We are adapting the schedule to the new date.",
        "We'd adapt the recipe from the Llama paper.",
        "We adapt the data mix based on the ablations.",
        "Adapting the plan as we go is key.",
        "We build the eval set from scratch.",
        "We train a tokenizer from scratch for Thai.",
        # a model of the post-training, a phase after pretraining, a method
        "We fine-tune the reward model on preference data.",
        "After pretraining, we fine-tune the model on support chats.",
        "We fine-tune the model after pretraining, then run the evals.",
        "To fine-tune a model efficiently, I'd use LoRA adapters.",
        # a condition, a refusal
        "We'd adapt if the budget were cut.",
        "We'd pretrain only if we had the data.",
        "We would pretrain a small proxy model first to test the mix.",
        "We would not adapt an open model.",
        # said as what it would be, then turned from: asked, never sure
        "Adapting an open model would be faster, but no open model is licensed for our data.",
    ],
)
def test_lookalike_strategies_are_never_sure(text: str) -> None:
    assert not {k for k in _sure(text) if k.startswith("strategy")}


# --- a list of terms, a keyword salad, and a short sentence that is neither -------------------


def test_a_short_sentence_is_no_term_list() -> None:
    # twelve words with no comma: its articles and prepositions make it a sentence
    assert term_list("The training lead rolls back on her own when the loss jumps.") is False
    assert "right:rollback=pretraining" in _sure(
        "The training lead rolls back on her own when the loss jumps."
    )
    # a run of terms with no article or preposition still states nothing
    assert term_list("dedup overlap scan proxy runs reserve rollback gate owner budget spike alert")


@pytest.mark.parametrize(
    "text",
    [
        " ".join(["rollback safety legal owner"] * 3),
        " ".join(["rollback safety legal owner decides"] * 2),
        " ".join(["rollback safety legal owner decides"] * 40),
        " ".join(["rollback legal owns"] * 30),
        ", ".join(["rollback, safety, legal, owner"] * 5),
    ],
)
def test_a_keyword_salad_reads_nothing_sure(text: str) -> None:
    assert _sure(text) == set()
