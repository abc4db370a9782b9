"""What each claim is worth (sim/interview/weights.py): one registry, a reason per entry,
bindings and orders counted as evidence of expertise, hazards costing more than silence,
and the benchmark's figures as docs/interview.md quotes them.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from sim.interview import weights as w
from sim.interview.answers import model_texts
from sim.interview.checks import Claim
from sim.interview.content import with_texts as put
from sim.interview.items import PRACTICES
from sim.interview.prose import read_answer
from sim.interview.rubric import ITEMS, RubricReport, judge
from tests import interview_plans as plans

ROOT = Path(__file__).parents[1]
CORPUS = ROOT / "tests" / "data" / "prose_corpus" / "corpus.yaml"
BENCH = ROOT / "benchmarks" / "rubric_ranking.py"
DOCS = ROOT / "docs" / "interview.md"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("rubric_ranking", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def _judged(text: str) -> RubricReport:
    return judge(read_answer(text).plan)


def _reports() -> list[RubricReport]:
    """Reports whose claims span every item: the known plans, the model answers, the corpus."""
    out = [judge(getattr(plans, n)()) for n in ("strong", "mediocre", "weak", "misplaced")]
    strong = plans.strong().model_copy(update={"followups": []})
    out.append(judge(put(strong, model_texts(strong))))
    answers = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    return out + _bench().reports(answers[::3])


def test_every_claim_has_one_weight_with_a_reason() -> None:
    ids = {spec.id for spec in ITEMS}
    for (item, kind), cw in w.CLAIM_WEIGHTS.items():
        assert item in ids, item
        assert cw.reason.endswith(".") and len(cw.reason) > 30, (item, kind)
        assert cw.sound >= 0 and cw.unsound >= 0
        assert cw.binds in ("", "a holder", "a number", "an order", "a threshold", "a phase")
    # The practices' weights sit under the item PRACTICES judges each with, none missing.
    practice = {k for (_, k) in w.CLAIM_WEIGHTS if k in PRACTICES}
    assert practice == set(PRACTICES)
    for name, (item, _) in PRACTICES.items():
        assert (item, name) in w.CLAIM_WEIGHTS
    seen = set()
    for report in _reports():
        for i in report.items:
            for c in i.claims:
                seen.add(next(k for k, v in w.CLAIM_WEIGHTS.items() if v is w.weight_of(i.id, c)))
    # Every entry the known plans, the model answers and a third of the corpus reach is used;
    # the ones they do not reach are named here so that a dead entry is noticed.
    unreached = set(w.CLAIM_WEIGHTS) - seen
    assert unreached <= {
        ("outcome", "own"), ("outcome", "plays_out"), ("budget", "estimate"),
        ("objective", "eval_focus"), ("build_vs_adapt", "strategy"), ("roles", "PM holds"),
        ("followup_budget", "agreed_order"), ("followup_budget", "on_budget"),
        ("objective", "targets"), ("grounding", "signal"),
    }, unreached  # fmt: skip


def test_a_claim_without_a_weight_is_an_error_not_a_guess() -> None:
    with pytest.raises(KeyError, match="no claim weight"):
        w.weight_of("owners", Claim("ownership of everything", "sound"))


def test_a_binding_earns_more_than_a_concept_and_an_order_more_than_one_lever() -> None:
    bound = w.weighed("budget", Claim("reserve", "sound", "Reserve: 12%"))
    named = w.weighed("budget", Claim("tracking", "sound", "names burn against forecast"))
    assert bound == pytest.approx(w.BINDING_WEIGHT * named) and bound > named
    one = w.weighed("levers", Claim("playbook budget", "sound", "budget: use reserve"))
    three = w.weighed(
        "levers", Claim("playbook budget", "sound", "budget: use reserve → cut ablations → "
                        "fewer post training rounds"))  # fmt: skip
    assert three == pytest.approx(one + 2 * w.ORDER_BONUS) and three > one
    assert w.weighed("budget", Claim("estimate", "thin", "not within 35%")) == 0.0


#: The hazards the seeds warn of by name: each costs more than its practice earns unbound.
HAZARDS = (
    ("budget", "reserve"), ("decision_rights", "spike response"), ("followup_spike", "sound"),
    ("followup_ship", "gap"), ("gates", "decontaminate"), ("objective", "product_evals_early"),
    ("objective", "targets"),
)  # fmt: skip


@pytest.mark.parametrize("key", HAZARDS, ids=[f"{i}:{k}" for i, k in HAZARDS])
def test_a_named_hazard_costs_more_than_silence_and_more_than_its_practice_earns(
    key: tuple[str, str],
) -> None:
    cw = w.CLAIM_WEIGHTS[key]
    assert cw.unsound >= 2.0 > cw.sound


@pytest.mark.parametrize(
    "hazard",
    [
        "We don't need a reserve; the estimate is solid.",
        "After a single loss spike we restart from scratch with a new recipe.",
        "We will not spend time on overlap scans.",
        "Engineering works from a ticket queue, separate from research.",
    ],
)
def test_confidently_wrong_grades_below_saying_nothing(hazard: str) -> None:
    assert _judged(hazard).grade < _judged("The weather is fine today.").grade


#: Written for this test, not taken from the corpus: terse and sound, against fluent and
#: wrong on the same topics (no reserve, a restart after one spike, shipping on
#: benchmarks, engineering as a ticket queue, no decontamination).
TERSE = (
    "- Training lead makes the rollback call.\n- Reserve 12%.\n"
    "- Budget cut: reserve first, then ablations.",
    "Data team owns data quality: dedup rates per shard. Ablations 6%. Gate after data prep: "
    "sampled audits.",
    "Evals team owns contamination with n-gram overlap scans. Product evals built before "
    "training. Ship call: me (PM).",
)
FLUENT = (
    "Honestly, I am confident the estimate is solid, so we don't need a reserve at all, and "
    "after a single loss spike we restart from scratch with a new recipe, because speed "
    "matters more than anything else in this business.",
    "We will not spend time on overlap scans, they slow everyone down, and engineering works "
    "from a ticket queue, separate from research, which keeps the teams focused on what "
    "they do best and lets us move very quickly towards launch.",
    "I would skip the ablations entirely since the recipe is well known, we don't need a "
    "reserve, and once the public benchmarks look strong we ship, because customers want "
    "the model as soon as possible and the numbers speak for themselves.",
)


@pytest.mark.parametrize("terse", TERSE, ids=["rights", "data", "evals"])
@pytest.mark.parametrize("fluent", FLUENT, ids=["reserve-spike", "scans-queue", "ablations"])
def test_a_new_sound_terse_answer_grades_above_a_new_fluent_wrong_one(
    terse: str, fluent: str
) -> None:
    t, f = _judged(terse), _judged(fluent)
    assert len(fluent) > 1.5 * len(terse)
    assert t.stances["unsound"] == 0 and f.stances["unsound"] >= 2
    assert t.grade > f.grade + 0.1 and t.credit > f.credit


def test_the_known_plans_keep_their_order_and_the_model_answers_are_sound() -> None:
    g = {n: judge(getattr(plans, n)()).grade for n in ("strong", "mediocre", "weak", "filler")}
    assert g["strong"] > g["mediocre"] > g["weak"] > g["filler"]
    assert judge(plans.misplaced()).grade < g["mediocre"]
    strong = plans.strong().model_copy(update={"followups": []})
    report = judge(put(strong, model_texts(strong)))
    assert all(c.stance == "sound" for c in report.claims) and report.credit > 0


def _quoted() -> dict[str, float]:
    """The rubric-grade column of the table docs/interview.md quotes under 'Measured'."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### How well the score ranks answers", 1)[1]
    rows = {"tuning": r"\| corpus, tuning half \|", "held-out": r"\| corpus, held-out half \|",
            "tuning (first 85)": r"\| corpus, tuning half, first 85 \|",
            "held-out (first 85)": r"\| corpus, held-out half, first 85 \|",
            "graded": r"\| graded set \|", "fresh": r"\| fresh set, written blind \|"}  # fmt: skip
    out = {}
    for name, head in rows.items():
        m = re.search(head + r"[^\n]*?\| \*{0,2}([0-9.]+)\*{0,2} \|\n", section)
        assert m, name
        out[name] = float(m.group(1))
    return out


def test_the_docs_quote_the_benchmarks_figures() -> None:
    """benchmarks/rubric_ranking.py, recomputed: the figures the docs quote, to 0.001."""
    bench = _bench()
    quoted = _quoted()
    _, answers = bench.graded_set(bench.CORPUS)
    reps = bench.reports(answers)
    for half in ("tuning", "held-out"):
        k = [i for i, a in enumerate(answers) if bench.split_of(str(a["id"])) == half]
        for name, chosen in (
            (half, k),
            (f"{half} (first 85)", [i for i in k if not answers[i].get("batch")]),
        ):
            rho = bench.spearman([answers[i]["grade"] for i in chosen],
                                 [reps[i].grade for i in chosen])  # fmt: skip
            assert rho == pytest.approx(quoted[name], abs=0.0015), name
    for name, path in (("graded", bench.GRADED), ("fresh", bench.FRESH)):
        _, graded = bench.graded_set(path)
        rho = bench.spearman([a["grade"] for a in graded], bench.rubric_scores(graded))
        assert rho == pytest.approx(quoted[name], abs=0.0015), name
    # Better than the figures committed on 2026-12-03 on the corpus it was measured on.
    assert quoted["tuning (first 85)"] > 0.728 and quoted["held-out (first 85)"] > 0.663
    assert quoted["graded"] >= 0.900


def test_the_docs_table_is_the_registrys() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### What each claim is worth", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and " | " in line
            and not line.startswith(("| item ", "|---"))]  # fmt: skip
    assert rows == w.docs_rows(), "paste sim.interview.weights.docs_rows() into docs/interview.md"


def test_a_run_risk_owned_by_a_business_team_is_owned_far_from_the_work() -> None:
    """Data quality given to the PM is unsound; the budget given to the PM is sound."""
    far = _judged("I own data quality. I own the budget risk.")
    stances = {c.name: c.stance for c in far.item("owners").claims}
    assert stances.get("owner data_quality") == "unsound"
    assert stances.get("owner budget") == "sound"
    near = _judged("The data team owns data quality. I own the budget risk.")
    assert {c.name: c.stance for c in near.item("owners").claims}["owner data_quality"] == "sound"
    assert near.grade > far.grade
