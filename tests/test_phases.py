"""sim.engine.phases: what each phase does, in order, on the tiny scenario."""

from __future__ import annotations

import pytest

from sim.engine import budget
from sim.engine.budget import round_cost
from sim.engine.forecast import ABLATION_CLUSTER_SHARE
from sim.engine.model import ProjectModel
from sim.scenario.spec import PHASES
from tests.tiny import DATA, TRAIN, kinds, model, run_until, tiny


def phase_starts(m: ProjectModel) -> dict[str, float]:
    """The day each phase began, by its id (the trace's words for it may change)."""
    return {span.phase: span.start for span in m.recording.phase_spans}


def test_phases_run_in_order_and_tile_the_schedule() -> None:
    m = model()
    m.env.run()
    assert [p.phase for p in m.recording.phase_spans] == list(PHASES)
    starts = [e.day for e in m.recording.trace if e.kind == "phase"]
    assert starts == sorted(starts) and len(starts) == len(PHASES) + 1  # and "done"
    assert kinds(m)[-1] == "release" and m.finish_day == m.env.now


def test_prepare_charges_the_licences_first_and_waits_for_the_handoff() -> None:
    s = tiny(objective__budget__data_licensing_usd=50_000.0, levers__data_investment_usd=20_000.0)
    m = model(s)
    m.env.run()
    first = m.ledger.entries[:2]
    assert [(e.day, e.category, e.note) for e in first] == [
        (0.0, "data_licensing", "data licences"),
        (0.0, "data_licensing", "extra data work"),
    ]
    # "recipe" (train) waits for "data_prep" (data), then one day of handoff latency.
    assert m.recording.finished_at["recipe"] > m.recording.finished_at["data_prep"] + 1.0
    assert ("data", "train") in m.recording.critical_handoffs


def test_ablations_take_their_share_of_the_cluster() -> None:
    s = tiny(levers__ablation_fraction=0.1)
    m = model(s)
    run_until(m, lambda: m.recording.phase == "training")
    span = m.recording.phase_spans[-1]
    run_days = m.plan.tokens / m.plan.run_facts.rate
    assert span.phase == "ablations"
    assert span.end - span.start == pytest.approx(0.1 * run_days / ABLATION_CLUSTER_SHARE)
    abl = [e for e in m.ledger.entries if e.note == "ablations and scaling-law runs"]
    # A share of the compute they de-risk: the run and the planned post-training rounds.
    derisked = m.plan.tokens * m.plan.usd_per_token + m.plan.rounds * m.plan.round_compute_usd
    assert len(abl) == 1 and abl[0].usd == pytest.approx(0.1 * derisked)


def test_training_starts_the_planned_run_and_post_training_runs_every_round() -> None:
    m = model()
    run_until(m, lambda: m.run is not None)
    assert m.run is not None and m.run.target_tokens == m.plan.tokens and not m.run_finished
    version = m.version
    m.env.run()
    assert m.run_finished and m.plan.rounds_done == m.plan.rounds == 2
    assert m.version == version + 1 + 2  # the run, then each round
    annotation, compute = round_cost(m)
    rounds = [e for e in m.ledger.entries if e.note == "post-training round"]
    assert [e.category for e in rounds] == ["annotation", "compute"] * 2
    assert rounds[0].usd == pytest.approx(annotation) and rounds[1].usd == pytest.approx(compute)
    # Each round takes at least its shortest calendar time.
    days = [e.day for e in m.recording.trace if e.kind == "round"]
    assert days[1] - days[0] >= m.scenario.model.round_days_min - 1e-9


def test_a_defect_caught_before_the_run_is_fixed_without_a_decision() -> None:
    s = tiny(
        incidents__defects=[{"kind": "data_quality", "probability": 1.0, "fix_person_days": 6}],
        plan__gates=[{"id": "audit", "after": "prepare", "catches": ["data_quality"],
                      "strength": 1.0}],
    )  # fmt: skip
    m = model(s)
    m.env.run()
    (d,) = m.defects.defects
    assert d.found_at == "audit" and d.fixed
    assert not [r for r in m.recording.decisions if r.kind == "data_fix"]
    # Nothing waited for the fix: the run started on the bad data and, once the fix
    # landed, trained back the spoiled share (the retraining share).
    assert m.run is not None and d.affected_tokens > 0
    assert m.plan.set_up is not None
    planned = m.plan.set_up.tokens
    assert m.run.target_tokens == pytest.approx(planned + 0.15 * d.affected_tokens)
    assert m.plan.tokens == m.run.target_tokens  # the plan carries it: a re-pricing keeps it
    assert m.run.tokens == pytest.approx(m.run.target_tokens)  # and it was trained
    assert m.recording.incidents["retraining_share"] == 1
    ablations = phase_starts(m)["ablations"]
    assert d.found_day is not None and d.found_day <= ablations  # found before; not waited for


def test_a_defect_found_in_the_run_goes_to_the_holder_of_the_data_fix_right() -> None:
    s = tiny(incidents__scripted=[{"kind": "data_defect", "run_progress": 0.3}])
    m = model(s)
    m.env.run()
    (d,) = m.defects.defects
    assert d.found_at == "run monitoring"  # the run loop raised it at its next check
    at_share = phase_starts(m)["training"] + 0.3 * m.plan.tokens / m.plan.run_facts.rate
    assert d.found_day == pytest.approx(at_share, rel=1e-6)
    (fix,) = [r for r in m.recording.decisions if r.kind == "data_fix"]
    assert fix.detected_by == DATA and fix.owner == TRAIN
    assert fix.day >= d.found_day  # type: ignore[operator]
    assert m.recording.incidents["defect_data_quality"] == 1


def test_a_tight_deadline_raises_the_schedule_decision_before_post_training() -> None:
    m = model(tiny(objective__deadline_days=20.0))
    m.env.run()
    (slip,) = [r for r in m.recording.decisions if r.kind == "schedule"]
    assert slip.raised_day >= phase_starts(m)["post_training"]
    assert m.recording.incidents["schedule_slip"] == 1


#: Each scope option, and the plan quantity it changes (sim/engine/budget.py).
SCOPE = {
    "cut_ablations": "ablations",
    "reduce_tokens": "tokens",
    "fewer_post_training_rounds": "rounds",
    "smaller_eval_scope": "eval_scope",
}


@pytest.mark.parametrize("response", sorted(SCOPE))
def test_each_scope_option_changes_its_part_of_the_plan_and_is_recorded(response: str) -> None:
    m = model(tiny(levers__ablation_fraction=0.1, model__post_training_rounds=4))
    gap = 0.05 * m.plan.tokens * m.plan.usd_per_token
    before = {k: getattr(m.plan, a) for k, a in SCOPE.items()}
    option = budget.PRICERS[response](m, gap, budget.outlook(m))  # whatever line is over
    assert option is not None and option.saves_usd > 0
    budget.apply_scope(m, option, "in a test")
    after = {k: getattr(m.plan, a) for k, a in SCOPE.items()}
    assert [k for k in SCOPE if before[k] != after[k]] == [response]
    assert after[response] < before[response]
    assert m.plan.tokens >= 0.5 * before["reduce_tokens"] and m.plan.rounds >= 1
    (cut,) = m.plan.scope_cuts
    assert (cut.response, cut.when) == (response, "in a test") and cut.saves_usd > 0


def test_a_budget_cut_closes_the_gap_with_the_playbook() -> None:
    s = tiny(
        objective__budget={"compute_usd": 20_000.0, "people_usd": 300_000.0},
        levers__reserve_fraction=0.2,
        incidents__budget_cut={"enabled": True, "probability": 1.0, "fraction": 0.9,
                               "earliest_day": 10.0, "latest_day": 10.0},
    )  # fmt: skip
    m = model(s)
    budget = m.ledger.budget_usd
    m.env.run()
    cut = next(e for e in m.recording.trace if e.kind == "budget_cut")
    assert cut.day == pytest.approx(10.0)
    assert m.ledger.budget_usd < budget and m.recording.incidents["budget_cut"] == 1
    budget_calls = [r for r in m.recording.decisions if r.kind == "budget"]
    assert any(r.raised_day == pytest.approx(10.0) for r in budget_calls), budget_calls


def test_a_tokenizer_defect_fixed_during_the_run_trains_the_run_again_from_scratch() -> None:
    # The checkpoint carries a tokenizer or config defect (BAKED_IN): once its fix lands,
    # every token trained so far is trained again; a clean-data top-up cannot undo it.
    s = tiny(
        incidents__defects=[{"kind": "tokenizer_config", "probability": 0.0,
                             "fix_person_days": 2}],
        incidents__scripted=[{"kind": "data_defect", "run_progress": 0.3,
                              "defect": "tokenizer_config"}],
        levers__playbook={"data_fix": ["fix_and_continue"]},
    )  # fmt: skip
    clean = model(tiny(incidents__defects=[]))
    clean.env.run()
    m = model(s)
    m.env.run()
    (d,) = [d for d in m.defects.defects if d.present]
    assert m.run is not None and d.fixed
    assert m.run.stats.restarts_from_scratch == 1 and m.recording.incidents["retraining_share"] == 1
    assert m.run.stats.lost_tokens >= 0.3 * m.run.target_tokens
    assert d.affected_tokens == 0.0  # nothing trained on the defect is left in the model
    assert m.run.stats.wall_days > clean.run.stats.wall_days + 0.3 * clean.run.stats.wall_days
