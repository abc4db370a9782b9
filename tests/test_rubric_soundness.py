"""Soundness beside coverage: the rubric credits what an answer says well within the items it
takes on and takes credit away for what it says wrong (docs/interview.md, "How well the
score ranks answers").

Claims come from each item's checks on the plan, never from answer ids: a terse sound
answer outranks a fluent wrong one, what a prose answer never said is no claim, a wrong
value the candidate did state is unsound, and a negated statement never earns the claim
the statement earns.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.interview.answers import model_texts
from sim.interview.content import with_texts as put
from sim.interview.plan import BudgetPlan, InterviewPlan
from sim.interview.prose import read_answer
from sim.interview.rubric import RubricReport, judge
from tests import interview_plans as plans
from tests.prose_corpus import BLIND_SETS
from tests.test_prose_robust import FILLER, NEGATORS, STATEMENTS

DATA = Path(__file__).parent / "data"
GRADED = DATA / "rubric_graded" / "answers.yaml"
FRESH = DATA / "rubric_graded" / "fresh.yaml"
CORPUS = DATA / "prose_corpus" / "corpus.yaml"
BENCH = Path(__file__).parents[1] / "benchmarks" / "rubric_ranking.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("rubric_ranking", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _judged(text: str) -> RubricReport:
    return judge(read_answer(text).plan)


def _sound(report: RubricReport) -> set[str]:
    return {c.name for c in report.claims if c.stance == "sound"}


def _unsound(report: RubricReport) -> set[str]:
    return {c.name for c in report.claims if c.stance == "unsound"}


#: Corpus answers the blind coach grades as sound and terse (3), and fluent wrong ones (1,
#: each with named hazards) they must beat.
TERSE_SOUND = ("mixed-04", "bullets-01", "bullets-04")
FLUENT_WRONG = ("wrong-01", "wrong-03", "fu-03", "nonnative-07")


def test_sound_terse_corpus_answers_outrank_fluent_wrong_ones() -> None:
    bench = _bench()
    by_id = {str(a["id"]): a for a in yaml.safe_load(CORPUS.read_text(encoding="utf-8"))}
    coach = bench.coach_grades()
    chosen = [by_id[i] for i in TERSE_SOUND + FLUENT_WRONG]
    grades = dict(zip([a["id"] for a in chosen], bench.reports(chosen), strict=True))
    for sound in TERSE_SOUND:
        assert coach[sound]["grade"] >= 3
        for wrong in FLUENT_WRONG:
            assert coach[wrong]["grade"] <= 1
            assert grades[sound].grade > grades[wrong].grade, (sound, wrong)
    # The terse answers say little, so their coverage is low; nothing they say is wrong
    # (a ship reason too thin to credit is no error).
    for sound in TERSE_SOUND:
        assert grades[sound].score < 0.2 and grades[sound].stances["unsound"] == 0


@pytest.mark.parametrize("path", [GRADED, FRESH], ids=["graded", "fresh"])
def test_the_graded_sets_sound_answers_outrank_their_fluent_wrong_partners(path: Path) -> None:
    """Each set's pairs; the fresh set's four were written blind, in four voices."""
    answers = {str(a["id"]): a for a in yaml.safe_load(path.read_text(encoding="utf-8"))}
    pairs = [(i, str(a["beats"])) for i, a in answers.items() if a.get("beats")]
    assert len(pairs) >= 3
    for sound, wrong in pairs:
        s, w = _judged(str(answers[sound]["text"])), _judged(str(answers[wrong]["text"]))
        assert s.grade > w.grade, (sound, wrong)
        # Not always strictly: a wrong answer whose errors the reader cannot read says
        # nothing unsound (fluent-wrong-benchmarks); it still says less that is sound.
        assert (s.soundness or 0.0) >= (w.soundness or 0.0), (sound, wrong)
        assert s.credit > w.credit, (sound, wrong)


def test_the_fluent_wrong_answer_is_judged_wrong_where_it_is_wrong() -> None:
    """No reserve, a recipe change after one spike, technical calls held by product."""
    text = str(next(a for a in yaml.safe_load(GRADED.read_text(encoding="utf-8"))
                    if a["id"] == "fluent-wrong-spike")["text"])  # fmt: skip
    wrong = _unsound(_judged(text))
    assert {"spike response", "right rollback", "right data_fix", "PM holds rollback"} <= wrong


def test_what_is_never_said_is_no_claim() -> None:
    """A prose answer naming only a reserve makes one claim; the unsaid levers make none."""
    report = _judged("We keep a 12% reserve.")
    assert [(c.name, c.stance) for c in report.claims] == [("reserve", "sound")]
    assert report.soundness == 1.0
    assert judge(InterviewPlan()).claims == () and judge(InterviewPlan()).soundness is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("We don't need a reserve; the estimate is solid.", "reserve"),
        ("Reserve we don't keep, it is not necessary.", "reserve"),
        ("I would skip the ablations entirely.", "ablation"),
        ("We will not spend time on overlap scans.", "decontaminate"),
        ("Engineering works from a ticket queue, separate from research.", "engineering_embedded"),
        ("After a single loss spike we restart from scratch with a new recipe.", "spike response"),
    ],
)
def test_a_refused_practice_is_an_unsound_claim(text: str, name: str) -> None:
    """Refusing a practice is said, and wrong: it ranks below saying nothing at all."""
    report = _judged(text)
    assert name in _unsound(report) and not _sound(report)
    assert report.grade < _judged("The weather is fine.").grade


@pytest.mark.parametrize(("reserve", "stance"), [(0.0, "unsound"), (0.4, "unsound"),
                                                 (0.12, "sound")])  # fmt: skip
def test_a_reserve_the_form_states_is_judged_whatever_its_value(
    reserve: float, stance: str
) -> None:
    plan = plans.strong().model_copy(update={"followups": []})
    b = plan.budget.model_dump()
    plan = plan.model_copy(update={"budget": BudgetPlan(**{**b, "reserve_fraction": reserve})})
    report = judge(plan)
    assert [c.stance for c in report.item("budget").claims if c.name == "reserve"] == [stance]
    if stance == "unsound":
        base = judge(plans.strong().model_copy(update={"followups": []}))
        assert report.grade < base.grade and (report.soundness or 0) < (base.soundness or 0)


def test_every_model_answer_is_a_sound_claim() -> None:
    """The texts the tool shows as model answers, in their boxes, make no thin claim."""
    plan = plans.strong().model_copy(update={"followups": []})
    report = judge(put(plan, model_texts(plan)))
    assert report.claims and all(c.stance == "sound" for c in report.claims), [
        (c.name, c.evidence) for c in report.claims if c.stance != "sound"
    ]
    assert report.soundness == 1.0


def test_the_known_plans_come_out_in_order_on_the_grade() -> None:
    g = {n: judge(getattr(plans, n)()).grade for n in ("strong", "mediocre", "weak", "filler")}
    assert g["strong"] > g["mediocre"] > g["weak"] > g["filler"]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(STATEMENTS),
    st.sampled_from(NEGATORS),
    st.sampled_from(FILLER),
    st.booleans(),
)
def test_a_negated_statement_never_earns_the_statements_claims(
    statement: tuple[str, str, str, str, str], negator: str, filler: str, spoken: bool
) -> None:
    subject, base, said, rest, _ = statement
    plain = _judged(f"{filler} {subject} {said} {rest}.")
    text = f"{filler} {subject} {negator} {base} {rest}."
    if spoken:
        text = text.lower().replace(".", " ")
    negated = _judged(text)
    # What the subject says by itself stands ("the data team owns data quality and does
    # not watch dedup rates" still names an owner): the claims of the negated part go.
    earned = _sound(plain) - _sound(_judged(f"{filler} {subject}."))
    assert earned, "the statement itself earns a sound claim"
    assert not earned & _sound(negated)
    assert negated.grade < plain.grade


#: A text of the form's boxes that says what is done, said and then negated: (slot, subject,
#: base verb, verb as said, the rest). Each was met negated before 2026-12-04.
SLOT_STATEMENTS = [
    ("warning.data_quality", "we", "watch", "watch",
     "dedup rates and sampled audits on every shard"),
    ("warning.loss_spike", "the training lead", "watch", "watches",
     "the loss and the gradient norm"),
    ("gate.data_review", "the review", "check", "checks", "dedup rates and sampled audits"),
    ("tracking", "the TPM", "track", "tracks", "weekly burn against the forecast"),
    ("role.research", "research", "own", "owns", "the recipe, the data mix and the experiments"),
    ("role.engineering", "engineering", "own", "owns", "the cluster, the pipeline and checkpoints"),
    ("product_use", "support agents", "use", "use", "it to draft replies to tickets"),
    ("late_discovery", "a defect found late", "throw", "throws",
     "the compute already spent away and forces a restart of everything downstream"),
]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SLOT_STATEMENTS), st.sampled_from(NEGATORS))
def test_a_negated_text_in_the_forms_box_never_earns_what_the_text_earns(
    statement: tuple[str, str, str, str, str], negator: str
) -> None:
    """The form's texts too: "the TPM does not track weekly burn" meets no tracking check."""
    slot, subject, base, said, rest = statement
    plan = plans.strong().model_copy(update={"followups": []})
    plain = judge(put(plan, {slot: f"{subject} {said} {rest}."}))
    negated = judge(put(plan, {slot: f"{subject} {negator} {base} {rest}."}))
    mine = {c.name for c in plain.claims if c.stance == "sound"} - _sound(negated)
    assert mine, "the text itself earns a sound claim the negated text does not"
    assert negated.credit < plain.credit and negated.grade <= plain.grade


def test_the_benchmark_ranks_every_set_the_coachs_way_round() -> None:
    """benchmarks/rubric_ranking.py: the grade ranks better than coverage on every set.

    The corpus against its blind coach grades by protocol (docs/interview.md, "How well
    the score ranks answers", quotes every figure; tests/test_rubric_weights.py holds them).
    """
    bench = _bench()
    # A set still held out is measured by the benchmark alone: no test holds it to a figure
    # (a test failing on it would be a reason to fit the rules to it).
    held_out = {bs.name for bs in BLIND_SETS if bs.held_out}
    for name, scored in bench.measure().items():
        if name in held_out:
            continue
        f = scored.figures()
        # On the blind sets of whole answers coverage alone already ranks well (held-out 3:
        # 0.90), so there the grade must not rank worse than coverage; on the corpus's
        # fragments and the graded sets, clearly better.
        margin = 0.0 if name in bench.BLIND_NAMES else 0.05
        assert f["spearman"] > f["coverage_spearman"] + margin, name
        assert f["spearman"] > (0.7 if "first 85" in name else 0.75), name
        assert f["tau_b"] > 0.55, name
