"""Gate reviews (sim/engine/review.py): a gate's strength is paid for in its teams' time.

The detection law and its calibration, the rule for strength 1.0, the review as work of
the team that owns each risk (through ``Staff.work``), and the direction on common
random numbers: a stronger gate catches more defects and costs more days and person-days.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pytest

from sim.designs import apply_delta
from sim.engine.incidents import DefectBook
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.engine.review import (
    INSPECTION_DETECTION,
    INSPECTION_PERSON_HOURS,
    MAX_DETECTION,
    REVIEW_SCALE_PERSON_DAYS,
    WORK_HOURS_PER_PERSON_DAY,
    detection,
    review_effort,
    review_person_days,
    review_strength,
)
from sim.engine.rng import Streams
from sim.intervals import paired_difference
from sim.scenario.catalog import resolve
from sim.scenario.loading import load_scenario, with_overrides
from sim.scenario.problems import ScenarioError
from sim.scenario.spec import Scenario
from tests.mechanisms import SEEDS, same_scope, scope_line
from tests.tiny import DATA, TRAIN, model, tiny

AUDIT = {"id": "audit", "after": "prepare", "catches": ["data_quality"], "strength": 0.6}


def reviews(m: ProjectModel, gate_id: str) -> list[dict[str, Any]]:
    """The data of the gate's review events in a finished play."""
    return [e.data for e in m.recording.trace if e.kind == "gate" and e.data.get("gate") == gate_id]


# --- the law -------------------------------------------------------------------------------


def test_the_effort_law_inverts_the_detection_law_with_diminishing_returns() -> None:
    for p in (0.0, 0.1, 0.3, 0.6, 0.9, 0.95):
        assert detection(review_person_days(p)) == pytest.approx(p, abs=1e-12)
    steps = [review_person_days(p + 0.1) - review_person_days(p) for p in (0.0, 0.3, 0.6, 0.8)]
    assert all(b > a for a, b in zip(steps, steps[1:], strict=False)), steps
    assert review_person_days(0.0) == 0.0


def test_the_scale_reproduces_the_published_inspection() -> None:
    """A formal inspection's effort (Weller: 50 person-hours) finds Jones's 60%."""
    inspection = INSPECTION_PERSON_HOURS / WORK_HOURS_PER_PERSON_DAY
    assert detection(inspection) == pytest.approx(INSPECTION_DETECTION)
    assert review_person_days(INSPECTION_DETECTION) == pytest.approx(inspection)
    assert REVIEW_SCALE_PERSON_DAYS == pytest.approx(6.82, abs=0.01)


def test_strength_one_is_read_as_the_most_any_review_catches() -> None:
    assert review_strength(1.0) == review_strength(MAX_DETECTION) == MAX_DETECTION
    assert review_person_days(1.0) == review_person_days(MAX_DETECTION)
    assert math.isfinite(review_person_days(1.0))
    assert review_person_days(1.0) == pytest.approx(-REVIEW_SCALE_PERSON_DAYS * math.log(0.01))


def test_a_defect_whose_draw_is_above_the_cap_escapes_a_gate_of_strength_one() -> None:
    s = tiny(
        incidents__defects=[{"kind": "data_quality", "probability": 1.0}],
        plan__gates=[{**AUDIT, "strength": 1.0}],
    )
    org = ProjectModel(s).org
    found = []
    for draw in (0.5, 0.989, 0.991, 0.999):
        b = DefectBook.draw(s, Streams.for_replication(0, 0))
        b.defects[0].gate_draws["audit"] = draw
        found.append(bool(b.gate(s.plan.gates[0], org, 0.0, legal_engaged=True)))
    assert found == [True, True, False, False]


def test_effort_adds_up_per_kind_for_each_reviewing_team() -> None:
    per_kind = review_person_days(0.8)
    effort = review_effort(0.8, ["data", "evals", "data"])
    assert effort == pytest.approx({"data": 2 * per_kind, "evals": per_kind})
    assert review_effort(0.0, ["data"]) == {}


# --- the review as work --------------------------------------------------------------------


def test_the_review_is_work_of_each_kinds_risk_owner_beside_the_phase() -> None:
    """The reviewers work through the phase, sharing their people with its other work.

    The next phase waits only for what the review adds to the phase: less than the review's
    own days, since the teams read the work as it comes, but more than nothing, since the
    data team reviews beside its own pipeline work.
    """
    gate = {**AUDIT, "catches": ["data_quality", "tokenizer_config"], "strength": 0.9}
    base = model(tiny(plan__gates=[]))
    base.env.run()
    m = model(tiny(plan__gates=[gate]))
    m.env.run()
    (review,) = reviews(m, "audit")
    per_kind = review_person_days(0.9)
    assert review["person_days"] == pytest.approx({DATA: per_kind, TRAIN: per_kind})
    # The data team's two people, busy with the pipeline too, take longer than their share.
    assert review["days"] > per_kind / 2.0
    delay = phase_start(m, "ablations") - phase_start(base, "ablations")
    assert 0.0 < delay < review["days"]
    assert m.finish_day is not None and base.finish_day is not None
    assert m.finish_day > base.finish_day


def phase_start(m: ProjectModel, phase: str) -> float:
    return next(span.start for span in m.recording.phase_spans if span.phase == phase)


def test_a_review_done_while_its_team_waits_holds_nothing() -> None:
    """The training team waits for the data before its recipe work: a light review of the
    config fits in that wait and moves no phase (its people were paid anyway)."""
    gate = {**AUDIT, "catches": ["tokenizer_config"], "strength": 0.3}
    base = model(tiny(plan__gates=[]))
    base.env.run()
    m = model(tiny(plan__gates=[gate]))
    m.env.run()
    (review,) = reviews(m, "audit")
    assert review["person_days"] == pytest.approx({TRAIN: review_person_days(0.3)})
    assert phase_start(m, "ablations") == pytest.approx(phase_start(base, "ablations"))


def test_more_people_on_the_reviewing_team_review_faster() -> None:
    days = []
    for headcount in (2, 6):
        teams = [{"id": TRAIN, "headcount": 4, "core": True}, {"id": DATA, "headcount": headcount}]
        m = model(tiny(plan__gates=[AUDIT], org__teams=teams))
        m.env.run()
        days.append(reviews(m, "audit")[0]["days"])
    assert days[1] < days[0]


def test_an_early_gate_spends_nothing_on_a_risk_nobody_owns() -> None:
    m = model(tiny(plan__gates=[AUDIT], org__risk_owners__data_quality=None))
    m.env.run()
    assert reviews(m, "audit") == []
    late = {**AUDIT, "id": "late", "after": "evaluation"}
    m = model(tiny(plan__gates=[late], org__risk_owners__data_quality=None))
    m.env.run()
    (review,) = reviews(m, "late")  # the holder of data_fix looks at a late gate
    assert review["person_days"] == pytest.approx({TRAIN: review_person_days(0.6)})


def test_a_gate_owner_does_the_whole_review() -> None:
    gate = {**AUDIT, "catches": ["data_quality", "tokenizer_config"], "owner": TRAIN}
    m = model(tiny(plan__gates=[gate]))
    m.env.run()
    (review,) = reviews(m, "audit")
    assert review["person_days"] == pytest.approx({TRAIN: 2 * review_person_days(0.6)})


def test_a_gate_owner_must_be_a_team() -> None:
    with pytest.raises(ScenarioError) as err:
        tiny(plan__gates=[{**AUDIT, "owner": "nobody_here"}])
    assert err.value.problems[0].path == "plan.gates.0.owner"


def test_a_gate_of_strength_one_ends_its_review() -> None:
    m = model(tiny(plan__gates=[{**AUDIT, "strength": 1.0}]))
    m.env.run()
    (review,) = reviews(m, "audit")
    assert review["person_days"] == pytest.approx({DATA: review_person_days(MAX_DETECTION)})
    assert m.finished and math.isfinite(float(review["days"]))


# --- the direction, on common random numbers ----------------------------------------------

#: Worlds a seed and arm (about 3 s a seed for both arms of the 7B project).
REPS = 200
#: A people line no arm runs out of: no scope is cut to pay for a review (equal scope).
RICH = {"objective.budget.people_usd": 20_000_000}


@dataclass
class Arm:
    caught: np.ndarray
    review_person_days: np.ndarray
    review_days: np.ndarray
    rows: list[dict[str, Any]]

    def col(self, key: str) -> np.ndarray:
        return np.array([float(r[key]) for r in self.rows])


def play(s: Scenario, gate_id: str, seed: int) -> Arm:
    caught: list[int] = []
    pd_: list[float] = []
    days: list[float] = []
    rows: list[dict[str, Any]] = []
    for rep in range(REPS):
        m = ProjectModel(s, seed=seed, replication=rep)
        m.env.run()
        caught.append(sum(1 for d in m.defects.defects if d.found_at == gate_id))
        done = reviews(m, gate_id)
        pd_.append(sum(sum(r["person_days"].values()) for r in done))
        days.append(sum(float(r["days"]) for r in done))
        rows.append(outcome_row(m))
    return Arm(np.array(caught), np.array(pd_), np.array(days), rows)


def above_zero(a: np.ndarray, b: np.ndarray, what: str) -> None:
    d = paired_difference(a.astype(float), b.astype(float))
    assert d["low"] > 0, f"{what}: {d['mean']:.3g} [{d['low']:.3g}, {d['high']:.3g}]"


@pytest.mark.parametrize("seed", SEEDS)
def test_a_stronger_gate_catches_more_and_costs_more_days_and_person_days(seed: int) -> None:
    base = with_overrides(load_scenario(resolve("assistant_7b")), RICH)
    weak = apply_delta(base, {"plan.gates.ablation_gate.strength": 0.5})
    strong = apply_delta(base, {"plan.gates.ablation_gate.strength": 0.95})
    a, b = play(weak, "ablation_gate", seed), play(strong, "ablation_gate", seed)
    above_zero(a.caught, b.caught, "defects the gate caught")
    above_zero(a.review_person_days, b.review_person_days, "review person-days")
    above_zero(a.review_days, b.review_days, "review days")
    # The schedule and the project's person-days are not asserted: the review runs beside
    # the ablations, and the defects the stronger gate catches before the run no longer
    # cost days (and every team's salary days) later.
    # Equal scope: with a people line no arm runs out of, no world cuts scope to pay for
    # the review. The tokens trained still differ by design: a defect the weaker gate
    # misses is found later, and continued training on the fixed data adds tokens.
    ta, tb = pd.DataFrame(a.rows), pd.DataFrame(b.rows)
    assert ta["scope_cuts"].max() == 0 and tb["scope_cuts"].max() == 0, scope_line(ta, tb)
    same_scope(ta, tb, why="defects the weaker gate misses are trained past later")
