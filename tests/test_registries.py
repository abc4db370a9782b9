"""One place for each rule: the phases, inject kinds, outcome columns and the model's words.

Each registry is checked against the code that acts on it, and the source is scanned for
a second spelling of the list (a literal naming several of its entries).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from sim.compare.analysis import LEVER_RANGES
from sim.compare.sweep import parse_axis
from sim.designs import apply_delta
from sim.engine import injects, phases
from sim.engine.budget import SCOPE_RESPONSES
from sim.engine.compute import planned_compute_usd
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.interview.plan import LeverPlan
from sim.interview.rubric import model_compute_usd
from sim.metrics import BY_KEY, FAMILIES, HEADLINE, is_outcome_column
from sim.play.game import INJECTIONS
from sim.scenario.levers import BY_NAME, INTERVIEW_LEVERS, LEVERS, STRUCTURED, docs_rows
from sim.scenario.loading import load_scenario
from sim.scenario.spec import (
    DECISION_KINDS,
    DECISION_OPTIONS,
    DEFECT_KINDS,
    INJECT_KINDS,
    INJECTS,
    LINK_KINDS,
    PHASES,
    RISK_KINDS,
    RUN_KINDS,
    Levers,
    ScriptedIncident,
)
from sim.scenario.vocabulary import DECISION_TITLES, OPTION_HELP, decision_title, option_help
from sim.tabletop.authoring import RAISES
from ui.common import LEVER_WIDGETS
from ui.compare.sweep import catalog
from ui.interview.part2 import PLAN_LEVERS

ROOT = Path(__file__).resolve().parent.parent


def test_every_phase_has_its_steps_in_order() -> None:
    assert tuple(phases.STEPS) == PHASES


def test_every_inject_kind_is_registered_once_and_applied() -> None:
    assert tuple(INJECTS) == INJECT_KINDS
    assert set(injects.APPLY) == set(INJECT_KINDS)
    assert INJECTIONS == {k: i.params for k, i in INJECTS.items()}
    assert RAISES == {k: i.raises for k, i in INJECTS.items()}
    assert {i.raises for i in INJECTS.values()} - {None} <= set(DECISION_KINDS)
    assert RUN_KINDS == ("loss_spike", "hardware_failure", "data_defect")
    assert {i.risk for i in INJECTS.values()} <= set(RISK_KINDS)


def test_run_progress_follows_the_registry() -> None:
    for kind, spec in INJECTS.items():
        data = {"kind": kind, "run_progress": 0.5}
        if spec.during_run:
            ScriptedIncident.model_validate(data)
        else:
            with pytest.raises(ValueError, match="run_progress applies only to"):
                ScriptedIncident.model_validate(data)


def test_every_option_and_decision_has_the_models_words() -> None:
    options = {o for kind in DECISION_OPTIONS.values() for o in kind}
    assert set(OPTION_HELP) == options
    assert all("\n" not in text and text.endswith(".") for text in OPTION_HELP.values())
    assert set(DECISION_TITLES) == set(DECISION_KINDS)
    assert option_help("ship") == OPTION_HELP["ship"] and option_help("nope") == ""
    assert decision_title("budget") == DECISION_TITLES["budget"]
    assert decision_title("new_kind") == "New kind"
    # A label says what an option does, never whether it is wise; ids stay for saved plays.
    from sim.scenario.vocabulary import OPTION_LABELS, option_words

    assert set(OPTION_LABELS) <= options
    judging = ("overreact", "panic", "wise", "mistake", "wrong", "right call")
    assert not any(j in option_words(o) for o in options for j in judging)
    # Every option reads as the action it takes: no identifier read aloud ("rollback skip"),
    # and no two options of a decision read alike.
    assert option_words("rollback_skip") == "roll back and skip the batches"
    for kind, offered in DECISION_OPTIONS.items():
        said = [option_words(o) for o in offered]
        assert len(set(said)) == len(said), kind
        assert all("_" not in w and w == w.lower() for w in said), said
    assert {"rollback skip", "pause investigate", "use reserve", "accept overrun",
            "extra round", "accept slip"}.isdisjoint(option_words(o) for o in options)  # fmt: skip
    # Why a decision offers fewer options: sim/play/unavailable.py (tests/test_unavailable.py).


def test_outcome_rows_hold_registered_columns_only() -> None:
    s = load_scenario("assistant_7b")
    m = ProjectModel(s, seed=1)
    m.env.run()
    row = outcome_row(m)
    unknown = [c for c in row if not is_outcome_column(c)]
    assert not unknown, f"outcome columns missing from sim.metrics: {unknown}"
    missing = [k for k in BY_KEY if k not in row]
    assert not missing, f"sim.metrics names columns the outcome row lacks: {missing}"
    for prefix in FAMILIES:
        if prefix not in ("critical_handoff:", "scope:"):  # only when one was critical / cut
            assert any(c.startswith(prefix) for c in row), prefix


def test_one_planned_compute_formula() -> None:
    s = load_scenario("assistant_7b")
    m = ProjectModel(s, seed=0)
    # The plan's bill agrees with the engine's own run and round prices before any fitting;
    # the engine's run is a little dearer (checkpoint pauses, throughput not yet tuned).
    run_usd = m.plan.tokens_scenario * m.plan.usd_per_token
    rounds = s.model.post_training_rounds * m.plan.round_compute_usd
    expected = (run_usd + rounds) * (1.0 + s.levers.ablation_fraction)
    assert expected >= planned_compute_usd(s) == pytest.approx(expected, rel=0.05)
    assert model_compute_usd.__code__.co_names.count("planned_compute_usd") == 1
    # A round is priced in compute.py; the engine reads its hours and price from there.
    users = [
        p.relative_to(ROOT).as_posix()
        for p in sorted((ROOT / "sim").rglob("*.py"))
        if "post_training_round_gpu_hours(" in p.read_text(encoding="utf-8")
    ]
    assert users == ["sim/engine/compute.py", "sim/engine/plan.py"]


# --- no second spelling ---------------------------------------------------------------------

#: (what, its entries, how many in one literal make a copy, where it may be spelled)
LISTS = (
    ("phases", set(PHASES), 4, {"sim/scenario/spec.py"}),
    ("inject kinds", set(INJECT_KINDS), 3, {"sim/scenario/spec.py"}),
    ("outcome columns", {m.key for m in HEADLINE}, 4, {"sim/metrics.py", "sim/engine/outcome.py"}),
    ("levers", set(BY_NAME), 3, {"sim/scenario/levers.py"}),
    # The organisation chart's style per link kind is the one other table of them.
    ("link kinds", set(LINK_KINDS), 3, {"sim/scenario/spec.py", "sim/engine/org.py"}),
)


def _literals(tree: ast.AST) -> list[tuple[int, set[str]]]:
    out = []
    for node in ast.walk(tree):
        items: list[ast.expr | None] = []
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            items = list(node.elts)
        elif isinstance(node, ast.Dict) and all(isinstance(v, ast.Constant) for v in node.values):
            items = list(node.keys)  # a table of words or colours (not a dispatch table)
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "Literal":
            inner = node.slice
            items = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        words: set[str] = set()
        for item in items:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                words.add(item.value)
            elif isinstance(item, ast.Tuple) and item.elts:  # (key, label) pairs
                first = item.elts[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    words.add(first.value)
        out.append((getattr(node, "lineno", 0), words))
    return out


@pytest.mark.parametrize("what,entries,enough,home", LISTS, ids=[x[0] for x in LISTS])
def test_no_second_spelling_of_a_registry(
    what: str, entries: set[str], enough: int, home: set[str]
) -> None:
    copies = []
    for path in sorted([*(ROOT / "sim").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        if rel in home:
            continue
        for line, words in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            if len(words & entries) >= enough:
                copies.append(f"{rel}:{line}: {sorted(words & entries)}")
    assert not copies, f"{what} spelled again (read them from the registry):\n" + "\n".join(copies)


# --- levers: one registry, every surface derived ------------------------------------------


def test_every_lever_is_registered_once() -> None:
    assert [lv.name for lv in LEVERS] == [f for f in Levers.model_fields if f not in STRUCTURED]
    assert len({lv.label for lv in LEVERS}) == len(LEVERS)
    for lever in LEVERS:
        assert lever.help.endswith(".") and lever.why and lever.sweep, lever.name
        # The sensitivity range lies inside the field's bounds and validates.
        low, high = lever.bounds
        for end in (lever.low, lever.high):
            assert (low is None or end >= low) and (high is None or end <= high), lever.name
        if lever.options:
            assert {lever.low, lever.high} <= set(lever.options), lever.name
        assert lever.needs is None or lever.needs.removeprefix("levers.") in BY_NAME


def test_every_lever_reaches_every_surface() -> None:
    s = load_scenario("assistant_7b")
    adapts = s.model_copy(update={"model": s.model.model_copy(update={"base_model": "open"})})
    missing = {
        "app widgets": set(BY_NAME) - {w.name for w in LEVER_WIDGETS},
        "sensitivity and optimize": set(BY_NAME) - {r.name for r in LEVER_RANGES},
        "sweep catalog": {lv.path for lv in LEVERS} - {p for p, _ in catalog(adapts).values()},
        "interview plan": set(INTERVIEW_LEVERS) - set(LeverPlan.model_fields),
        "interview form": set(INTERVIEW_LEVERS) - {*PLAN_LEVERS, "ablation_fraction"},
    }
    assert not any(missing.values()), {k: v for k, v in missing.items() if v}
    labels = {label for label in catalog(adapts)}
    assert {lv.label for lv in LEVERS} <= labels  # the sweep says what the app says
    for name in INTERVIEW_LEVERS:  # the plan's bounds are the scenario's
        assert LeverPlan.model_fields[name].metadata == BY_NAME[name].field.metadata, name


def test_sweep_values_and_ranges_validate_on_a_scenario() -> None:
    s = load_scenario("assistant_7b")
    for lever in LEVERS:
        if lever.name == "strategy":
            continue  # needs a base model
        values = parse_axis(f"{lever.path}={lever.sweep}").values
        assert len(values) >= 2, lever.name
        for value in (*values, lever.low, lever.high):
            apply_delta(s, {lever.path: value})


def test_the_docs_table_is_the_registrys() -> None:
    text = (ROOT / "docs" / "levers.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| [`")]
    written = [r for r in rows if not r.startswith("| [`playbook`]")]
    assert written == docs_rows(), "paste sim.scenario.levers.docs_rows() into docs/levers.md"


def test_lists_of_the_spec_are_read_from_the_spec() -> None:
    assert SCOPE_RESPONSES == tuple(
        o for o in DECISION_OPTIONS["budget"] if o not in ("use_reserve", "accept_overrun")
    )
    assert LINK_KINDS == ("handoff", "communication", "reporting")
    assert set(DEFECT_KINDS) == {"data_quality", "contamination", "licensing", "tokenizer_config"}


def test_no_copy_of_a_decisions_options() -> None:
    """A literal listing a kind's options in their order is a copy (a policy ranks them)."""
    copies = []
    for path in sorted([*(ROOT / "sim").rglob("*.py"), *(ROOT / "ui").rglob("*.py")]):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if rel == "sim/scenario/spec.py" or not isinstance(node, ast.Tuple | ast.List):
                continue
            words = tuple(e.value for e in node.elts if isinstance(e, ast.Constant))
            for kind, options in DECISION_OPTIONS.items():
                if len(options) > 1 and words == options:
                    copies.append(f"{rel}:{node.lineno}: DECISION_OPTIONS[{kind!r}]")
    assert not copies, "\n".join(copies)
