"""sim.engine.incidents: defects drawn up front, gates, monitoring, spoiled tokens, cuts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.engine.incidents import (
    DefectBook,
    ablation_detection,
    draw_budget_cut,
    draw_departure_gaps,
)
from sim.engine.org import OrgGraph
from sim.engine.rng import Streams
from sim.engine.signals import monitoring_days
from sim.scenario.spec import Gate, Scenario
from tests.tiny import DATA, tiny

DEFECTS = [
    {"kind": "data_quality", "probability": 1.0, "quality_penalty": 0.2},
    {"kind": "licensing", "probability": 1.0},
    {"kind": "tokenizer_config", "probability": 0.0},
]


GATES = [
    {"id": "early", "after": "prepare", "catches": ["data_quality", "licensing"], "strength": 1.0},
    {"id": "abl", "after": "ablations", "catches": ["data_quality"], "strength": 1.0},
    {"id": "late", "after": "evaluation", "catches": ["data_quality"], "strength": 1.0},
]


def scenario(**overrides: object) -> Scenario:
    return tiny(incidents__defects=DEFECTS, plan__gates=GATES, **overrides)


def gate(s: Scenario, gate_id: str) -> Gate:
    return next(g for g in s.plan.gates if g.id == gate_id)


def book(s: Scenario, seed: int = 0) -> DefectBook:
    return DefectBook.draw(s, Streams.for_replication(seed, 0))


def test_presence_is_drawn_per_source_and_is_the_same_for_the_same_streams() -> None:
    s = scenario()
    a, b = book(s), book(s)
    assert [d.present for d in a.defects] == [True, True, False]
    assert [(d.present, d.gate_draws, d.monitor_draw) for d in a.defects] == [
        (d.present, d.gate_draws, d.monitor_draw) for d in b.defects
    ]


def test_ablation_detection_grows_from_zero_and_saturates() -> None:
    assert ablation_detection(0.0) == 0.0
    assert 0 < ablation_detection(0.02) < ablation_detection(0.1) < 1.0
    assert ablation_detection(0.5) == pytest.approx(1.0, abs=1e-4)


def test_an_early_gate_sees_only_owned_risks_a_late_gate_sees_all() -> None:
    unowned = scenario(org__risk_owners__data_quality=None)
    org = OrgGraph(unowned)
    b = book(unowned)
    early = [d.kind for d in b.gate(gate(unowned, "early"), org, 0.0, legal_engaged=True)]
    assert early == ["licensing"]  # the data risk has no owner to look for it early
    late = b.gate(gate(unowned, "late"), org, 0.0, legal_engaged=True)
    assert [d.kind for d in late] == ["data_quality"]


def test_licensing_is_found_early_only_with_legal_engaged() -> None:
    s = scenario()
    org, b = OrgGraph(s), book(s)
    without = [d.kind for d in b.gate(gate(s, "early"), org, 0.0, legal_engaged=False)]
    with_legal = [d.kind for d in b.gate(gate(s, "early"), org, 0.0, legal_engaged=True)]
    assert (without, with_legal) == (["data_quality"], ["data_quality", "licensing"])


def test_an_ablation_gate_needs_an_ablation_budget() -> None:
    s = scenario()
    org, b = OrgGraph(s), book(s)
    assert b.gate(gate(s, "abl"), org, 0.0, legal_engaged=True) == []
    assert len(b.gate(gate(s, "abl"), org, 0.5, legal_engaged=True)) == 1


def test_monitoring_finds_owned_hidden_defects_in_time_order() -> None:
    s = scenario()
    org, b = OrgGraph(s), book(s)
    b.start_monitoring(10.0, org)
    dq, lic, _tok = b.defects
    # The owner's metrics show the defect after its draw of watching (sim/engine/signals.py).
    assert org.owner("data_quality") == DATA
    assert dq.monitor_day == pytest.approx(
        10.0 + monitoring_days(org, "data_quality", dq.monitor_draw)
    )
    assert math.isfinite(dq.monitor_day)
    assert lic.monitor_day == math.inf  # licences do not show in training metrics
    assert b.next_detection(10.0) == dq.monitor_day
    assert b.due(dq.monitor_day - 1e-3) == [] and b.due(dq.monitor_day) == [dq]
    b.mark_found(dq, dq.monitor_day, "run monitoring")
    assert (dq.found, dq.found_at, dq.hidden) == (True, "run monitoring", False)
    assert b.next_detection(dq.monitor_day) == math.inf
    b.stop_monitoring()
    assert all(d.monitor_day == math.inf for d in b.defects)


def test_spoiled_tokens_lower_the_effective_share_until_fixed() -> None:
    s = scenario()
    b = book(s)
    dq, lic, _tok = b.defects
    b.accrue(100.0)
    assert dq.affected_tokens == lic.affected_tokens == 100.0  # both present, half the tokens
    penalty = lic.source.quality_penalty
    assert b.token_factor(200.0) == pytest.approx((1 - 0.2 * 0.5) * (1 - penalty * 0.5))
    dq.fixed = True
    b.accrue(100.0)
    assert dq.affected_tokens == 100.0  # a fixed defect spoils no more tokens
    b.reset_tokens()
    assert b.token_factor(200.0) == 1.0
    assert b.licensing_active() and not b.contamination_active()


def test_budget_cut_and_departure_draws() -> None:
    sure = tiny(incidents__budget_cut={"enabled": True, "probability": 1.0,
                                       "earliest_day": 30.0, "latest_day": 40.0})  # fmt: skip
    cut = draw_budget_cut(sure, np.random.default_rng(3))
    assert cut.happens and 30.0 <= cut.day <= 40.0
    never = tiny(incidents__budget_cut={"enabled": False, "probability": 1.0})
    assert not draw_budget_cut(never, np.random.default_rng(3)).happens
    gaps = draw_departure_gaps(sure, Streams.for_replication(3, 0), horizon=5)
    assert list(gaps) == [t.id for t in sure.org.teams]
    assert all(len(g) == 5 and min(g) > 0 for g in gaps.values())
