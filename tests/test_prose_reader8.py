"""The prose reader's rules of 2026-12-05 (fourth session) for owners and their early
warnings said in many words. Each rule on sentences written for this test (none copied
from a corpus file), with negated and look-alike variants that must not read.

- *What the object says after the risk*: "owns X, Y and Z alarms": an item that names a
  risk already named, or a measured quantity ("that error rate", "the loss curve"), is how
  the risk is watched, not the risk's own words.
- *A second predicate ends the object*: ", rolls back on …", "and greps the shards for …".
- *Owning verbs*: "has (the) responsibility for/of", "carries".
- *Words the risks' vocabulary leaves out*: quality that is not the model's is data
  quality; "the machines" are the hardware; every source checked, vetted or signed off is
  a licence audit (reader only); leakage, dups, tokens per word, de-identification.
- *Lists of owners*: items that hold commas parted by semicolons, a stretch with no team
  of its own kept with its item, a head that gives each risk its owner.
- *Transcripts*: a team right before an owning verb opens its own clause, so a negator
  earlier in the run-on sentence does not reach it.
"""

from __future__ import annotations

import pytest

from tests.test_prose_reader4 import _sure, _unsure


@pytest.mark.parametrize(
    ("text", "read", "not_read"),
    [
        # the object goes on after the risk's own words: a signal
        ("The infra lead owns node failures, the health check alarms and swaps hosts.",
         {"owner:hardware=infra", "warning:hardware=yes"}, set()),
        ("Our training lead owns divergence, loss and gradient alerts.",
         {"owner:loss_spike=pretraining", "warning:loss_spike=yes"}, set()),
        ("The evals lead owns contamination, with the overlap numbers she posts weekly.",
         {"owner:contamination=evals", "warning:contamination=yes"}, set()),
        ("The infra team owns that gpu failure rate and posts it daily.",
         {"owner:hardware=infra", "warning:hardware=yes"}, set()),
        # the risk's own words alone, or a list of risks: no signal
        ("The infra lead owns the hardware.", {"owner:hardware=infra"},
         {"warning:hardware=yes"}),
        ("The data lead owns data quality, contamination and licensing.",
         {"owner:data_quality=data"}, {"warning:data_quality=yes"}),
        # a second predicate of the same subject ends the object
        ("The pretraining lead has the pager for divergence, sits on the loss curve, and "
         "restarts from the last checkpoint alone.",
         {"owner:loss_spike=pretraining", "warning:loss_spike=yes"},
         {"owner:hardware=pretraining"}),
        ("The evals lead owns leakage and greps our corpus for n-gram hits on each benchmark.",
         {"owner:contamination=evals", "warning:contamination=yes"}, set()),
        # owning verbs
        ("The data team has the responsibility for corpus quality, reading samples weekly.",
         {"owner:data_quality=data", "warning:data_quality=yes"}, set()),
        ("The pretraining lead has responsibility of the tokenizer and measures tokens per "
         "word in each language.",
         {"owner:tokenizer_config=pretraining", "warning:tokenizer_config=yes"}, set()),
        ("Our evals lead carries test set leakage, with an overlap scan on each release.",
         {"owner:contamination=evals", "warning:contamination=yes"}, set()),
        # words the risks' vocabulary leaves out
        ("The data crew owns quality and looks at samples from every shard.",
         {"owner:data_quality=data", "warning:data_quality=yes"}, set()),
        ("The infra lead is in charge of the machines.", {"owner:hardware=infra"}, set()),
        ("Our counsel owns consent and vets each dataset before ingestion.",
         {"owner:licensing=safety_legal", "warning:licensing=yes"}, set()),
        ("The privacy team owns de-identification, scanning every batch for PHI.",
         {"owner:licensing=safety_legal", "warning:licensing=yes"}, set()),
        # the model's quality is no data quality
        ("The evals lead owns model quality.", set(), {"owner:data_quality=evals"}),
    ],
)  # fmt: skip
def test_owners_and_signals_in_many_words(text: str, read: set[str], not_read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)
    assert not (not_read & (sure | _unsure(text))), (text, sure)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Owners, and the figure each keeps an eye on: data lead, dups per source; infra, "
         "node failures a week; evals lead, n-gram overlap with each test set.",
         {"owner:data_quality=data", "warning:data_quality=yes", "owner:hardware=infra",
          "warning:hardware=yes", "owner:contamination=evals", "warning:contamination=yes"}),
        ("Owners: data lead for shard quality (duplicate rates); evals lead for leakage of "
         "the test set (overlap scans, before each run).",
         {"owner:data_quality=data", "warning:data_quality=yes",
          "owner:contamination=evals", "warning:contamination=yes"}),
        ("Each risk has a single owner: the training lead for divergence, watching the "
         "gradient norm.",
         {"owner:loss_spike=pretraining", "warning:loss_spike=yes"}),
        ("Owners and signals: tokenizer, the pretraining lead, fertility on a sample; "
         "hardware, infra, node health.",
         {"owner:tokenizer_config=pretraining", "warning:tokenizer_config=yes",
          "owner:hardware=infra", "warning:hardware=yes"}),
    ],
)  # fmt: skip
def test_lists_of_owners(text: str, read: set[str]) -> None:
    sure = _sure(text)
    assert read <= sure, (text, sure)


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("Nobody is the owner: the data lead for the crawl, the training lead for divergence.",
         ("owner:", "warning:")),
        # a head of steps, not risks: its items are steps
        ("Every phase has one owner: the evals lead for the product evals.",
         ("owner:", "warning:")),
        ("Nobody owns the hardware, not even infra, and nobody watches node health.",
         ("owner:", "warning:")),
        ("The data lead does not own data quality and does not track dup rates.",
         ("owner:", "warning:")),
        ("I don't think the data lead carries corpus quality.", ("owner:", "warning:")),
        ("Legal owns licensing and does not check every source.", ("warning:",)),
        ("The training lead owns divergence rather than the loss alerts.", ("warning:",)),
        # a transcript: a clause taken by a verb keeps its negation
        ("i do not think the data lead owns data quality with dedup rates",
         ("owner:", "warning:")),
        ("we never said the infra team owns the cluster with node health checks",
         ("owner:", "warning:")),
    ],
)  # fmt: skip
def test_negated_and_lookalike_owners_read_nothing(text: str, fields: tuple[str, ...]) -> None:
    said = _sure(text) | _unsure(text)
    assert not {k for k in said if k.startswith(fields)}, (text, said)


def test_a_transcript_clause_opens_at_its_team() -> None:
    """A negator earlier in a run-on sentence does not reach the next team's clause."""
    text = (
        "legal owns consent and they vet every dataset at ingestion not at the end infra "
        "owns the cluster with node health checks and a burn in before the run"
    )
    sure = _sure(text)
    assert {"owner:hardware=infra", "warning:hardware=yes", "owner:licensing=safety_legal",
            "warning:licensing=yes"} <= sure, sure  # fmt: skip
