"""sim.engine.injects: each inject kind at the current time of a play, and its refusals."""

from __future__ import annotations

import pytest

from sim.engine.injects import APPLY, InjectError, apply_inject
from sim.engine.model import ProjectModel
from sim.scenario.spec import INJECT_KINDS
from tests.tiny import DATA, TRAIN, model, run_until


def in_training(m: ProjectModel, share: float = 0.2) -> None:
    run_until(m, lambda: m.run is not None and m.run.tokens >= share * m.run.target_tokens)


def test_every_kind_has_its_function() -> None:
    assert set(APPLY) == set(INJECT_KINDS)
    with pytest.raises(InjectError, match="unknown inject 'meteor'"):
        apply_inject(model(), "meteor", {})


@pytest.mark.parametrize("kind", ["loss_spike", "hardware_failure"])
def test_run_injects_need_a_running_run(kind: str) -> None:
    m = model()
    with pytest.raises(InjectError, match="no training run is in progress"):
        apply_inject(m, kind, {})
    assert all(e.kind != "inject" for e in m.recording.trace)


def test_a_loss_spike_strikes_at_the_runs_next_step() -> None:
    m = model()
    in_training(m)
    assert m.run is not None
    day = m.env.now
    apply_inject(m, "loss_spike", {})
    assert m.recording.trace[-1].summary == "Facilitator injected loss spike"
    assert m.recording.incidents["injected_loss_spike"] == 1
    run_until(m, lambda: m.run is not None and m.run.stats.spikes == 1)
    spike = next(e for e in m.recording.trace if e.kind == "loss_spike")
    assert spike.day - day <= 1.0 + 1e-9  # within one step of the run
    run_until(m, lambda: bool(m.recording.decisions))
    assert m.recording.decisions[0].kind == "rollback"


def test_a_hardware_failure_interrupts_the_run() -> None:
    m = model()
    in_training(m)
    apply_inject(m, "hardware_failure", {})
    m.env.run()
    assert m.run is not None and m.run.stats.unexpected == 1
    assert m.recording.incidents["hardware_interruption"] == 1


def test_a_budget_cut_takes_its_share_of_the_compute_not_yet_spent() -> None:
    m = model()
    in_training(m)
    spent, budget = m.ledger.totals["compute"], m.ledger.budget_usd
    apply_inject(m, "budget_cut", {"fraction": 0.5})
    m.env.step()  # the cut's process starts
    compute = m.scenario.objective.budget.compute_usd
    assert m.ledger.budget_usd == pytest.approx(budget - 0.5 * (compute - spent))
    with pytest.raises(InjectError, match="fraction must be in"):
        apply_inject(m, "budget_cut", {"fraction": 1.5})


def test_a_departure_takes_one_person_from_the_named_team() -> None:
    m = model()
    run_until(m, lambda: m.env.now > 1.0)
    apply_inject(m, "departure", {"team": DATA})
    m.env.step()
    assert m.staff.teams[DATA].headcount == 1 and m.staff.teams[TRAIN].headcount == 4
    with pytest.raises(InjectError, match="unknown team 'nobody'"):
        apply_inject(m, "departure", {"team": "nobody"})


def test_a_data_defect_before_the_run_is_found_now_and_fixed() -> None:
    m = model()
    run_until(m, lambda: m.env.now > 1.0)
    apply_inject(m, "data_defect", {"kind": "tokenizer_config"})
    (d,) = m.defects.defects
    assert d.found and d.found_at == "discovery" and d.kind == "tokenizer_config"
    m.env.run()
    assert d.fixed and m.recording.incidents["defect_tokenizer_config"] == 1


def test_a_data_defect_during_the_run_is_raised_by_the_run_loop() -> None:
    m = model()
    in_training(m)
    now = m.env.now
    apply_inject(m, "data_defect", {})
    (d,) = m.defects.defects
    assert not d.found and d.monitor_day == now
    run_until(m, lambda: d.found)
    assert d.found_at == "run monitoring" and d.found_day == pytest.approx(now, abs=1.0)


def test_scripted_injects_are_traced_but_not_counted_as_a_facilitators() -> None:
    m = model()
    run_until(m, lambda: m.env.now > 1.0)
    apply_inject(m, "departure", {"team": DATA}, scripted=True)
    assert m.recording.trace[-1].summary == "Scripted incident: departure"
    assert m.recording.trace[-1].data == {"team": DATA}
    assert not [k for k in m.recording.incidents if k.startswith("injected_")]
