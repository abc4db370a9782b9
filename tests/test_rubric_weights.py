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


#: The rows of the table docs/interview.md quotes under 'Measured', by the benchmark's set.
ROWS = {"tuning": "corpus, tuning half", "held-out": "corpus, held-out half",
        "tuning (first 85)": "corpus, tuning half, first 85",
        "held-out (first 85)": "corpus, held-out half, first 85",
        "graded": "graded set", "fresh": "fresh set, written blind"}  # fmt: skip
#: The table's figure columns, in order, after the set's name and its answers.
COLUMNS = ("spearman", "tau_b", "total_spearman", "total_tau_b", "fragment_spearman",
           "coverage_spearman", "protocol_spearman", "protocol_tau_b")  # fmt: skip


def _quoted() -> dict[str, dict[str, float | None]]:
    """The figures of the table docs/interview.md quotes under 'Measured', row by row."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("### How well the score ranks answers", 1)[1].split("\n### ", 1)[0]
    out: dict[str, dict[str, float | None]] = {}
    for name, head in ROWS.items():
        m = re.search(r"^\| " + re.escape(head) + r" \|([^\n]*)\|$", section, re.M)
        assert m, name
        cells = [c.strip().strip("*") for c in m.group(1).split("|")]
        assert len(cells) == 1 + len(COLUMNS), (name, cells)
        out[name] = {k: None if c == "—" else float(c)
                     for k, c in zip(COLUMNS, cells[1:], strict=True)}  # fmt: skip
    return out


def test_the_docs_quote_the_benchmarks_figures() -> None:
    """benchmarks/rubric_ranking.py, recomputed: every figure the docs' table quotes, to
    0.001: the rubric's grade against the blind coach grades (Spearman and tau-b), against
    the protocol total, against the corpus's fragment grades, and the coverage score's."""
    bench = _bench()
    quoted = _quoted()
    sets = bench.measure()
    # The sets written blind are quoted in rows of their own.
    for name in bench.BLIND_NAMES:
        sets.pop(name, None)
    assert set(sets) == set(ROWS)
    for name, scored in sets.items():
        measured = scored.figures()
        for key in COLUMNS:
            want, got = quoted[name][key], measured[key]
            if want is None:
                assert got is None, (name, key)
            else:
                assert got == pytest.approx(want, abs=0.0015), (name, key)
    # The corpus is ranked against the blind coach grades, never the fragment grades.
    coach = bench.coach_grades()
    assert sets["held-out"].grades == tuple(float(coach[i]["grade"]) for i in sets["held-out"].ids)


def test_the_coach_grades_follow_their_protocol() -> None:
    """Every corpus answer has one blind grade, and each grade is what its counts give."""
    bench = _bench()
    coach = bench.coach_grades()
    answers = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    assert set(coach) == {str(a["id"]) for a in answers}
    for entry in coach.values():
        assert 0 <= entry["core"] <= 8 and 0 <= entry["strong"] <= 5
        assert 0 <= entry["followups"] <= 3 and str(entry["why"]).strip()
        assert entry["grade"] == bench.protocol_grade(entry), entry["id"]
    assert bench.protocol_total({"core": 4, "strong": 1, "followups": 2}) == 5.5
    assert bench.protocol_grade({"core": 6, "strong": 0, "followups": 0, "hazards": []}) == 4
    assert bench.protocol_grade({"core": 6, "strong": 0, "followups": 0,
                                 "hazards": ["no_reserve", "no_reserve"]}) == 3  # fmt: skip


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
