"""``sim audit``: free lunches and cliffs, found where they are and not where they are not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.audit import FREE_LUNCH, INERT, NOT_SETTLED, PAYS, TRADE_OFF, audit, judge_practice
from sim.audit.cliffs import SPENDS, _cliffs, grid, numeric_levers
from sim.audit.practices import practices
from sim.scenario.levers import BY_NAME
from sim.scenario.loading import load_scenario, with_overrides

ROOT = Path(__file__).resolve().parent.parent
SEVEN_B = ROOT / "scenarios" / "assistant_7b.yaml"


@pytest.fixture(scope="module")
def base():
    return load_scenario(SEVEN_B)


def row(mean: float, verdict: str = "clear") -> dict[str, object]:
    return {"mean": mean, "verdict": verdict}


def test_a_possible_loss_the_worlds_cannot_yet_tell_is_not_a_free_lunch(base) -> None:
    # Faster for sure, but 4 points less often successful on average, not yet known (a
    # rare defect the gates stop shows in a few worlds): not settled, not a free lunch.
    possible = {"schedule_days": row(-2.9), "success": {**row(-0.04, "not yet known"),
                                                        "margin": 0.01}}  # fmt: skip
    assert judge_practice(possible, base, False) == (NOT_SETTLED, ("schedule_days",), ())
    # The same loss under its margin matters to nobody: the removal is a free lunch.
    small = {"schedule_days": row(-2.9), "success": {**row(-0.004, "not yet known"),
                                                     "margin": 0.01}}  # fmt: skip
    assert judge_practice(small, base, False)[0] == FREE_LUNCH


def test_a_removal_clearly_cheaper_and_worse_at_nothing_is_a_free_lunch(base) -> None:
    cheaper = {"cost_usd": row(-50_000.0), "success": row(-0.01, "not yet known")}
    assert judge_practice(cheaper, base, False) == (FREE_LUNCH, ("cost_usd",), ())
    worse = {"cost_usd": row(50_000.0), "success": row(-0.2)}
    assert judge_practice(worse, base, False) == (PAYS, (), ("cost_usd", "success"))
    both = {"cost_usd": row(-50_000.0), "success": row(-0.2)}
    assert judge_practice(both, base, False)[0] == TRADE_OFF
    unclear = {"cost_usd": row(-50_000.0, "not yet known"), "success": row(0.0, "alike")}
    assert judge_practice(unclear, base, False)[0] == NOT_SETTLED
    assert judge_practice(cheaper, base, True)[0] == INERT


def test_every_practice_is_a_pair_that_differs_from_the_scenario_on_one_side(base) -> None:
    built = practices(base)
    ids = [p.id for p in built]
    assert len(ids) == len(set(ids))
    for p in built:
        assert hasattr(p, "with_"), p  # the 7B can be audited on every practice
        assert p.with_ != p.without, p.id
        assert base in (p.with_, p.without), p.id


def frames(values: list[float], n: int = 30, noise: float = 0.0) -> list[pd.DataFrame]:
    rng = np.random.default_rng(1)
    shared = rng.normal(0.0, noise, n)  # the same worlds at every point
    return [pd.DataFrame({"schedule_days": v + shared}) for v in values]


def test_a_step_far_steeper_than_its_neighbours_is_a_cliff() -> None:
    xs = list(range(8))
    smooth = [100.0 + x for x in xs]
    assert _cliffs("add_core_staff", "schedule_days", xs, frames(smooth, noise=2.0)) == []
    jump = [100.0 + x + (20.0 if x >= 5 else 0.0) for x in xs]
    found = _cliffs("add_core_staff", "schedule_days", xs, frames(jump, noise=2.0))
    assert [(c.start, c.end, c.kind) for c in found] == [(4.0, 5.0, "cliff")]
    assert found[0].change == pytest.approx(21.0)


def test_planned_scope_that_grows_with_a_spending_lever_is_a_reversal() -> None:
    assert set(SPENDS) == {"reserve_fraction", "ablation_fraction", "data_investment_usd"}
    xs = [0.0, 0.01, 0.02, 0.03, 0.04]
    tokens = [4000.0, 3990.0, 3980.0, 4200.0, 4190.0]  # scope comes back as the reserve grows
    df = [pd.DataFrame({"tokens_planned_b": [t] * 30}) for t in tokens]
    found = _cliffs("reserve_fraction", "tokens_planned_b", xs, df)
    assert [(c.start, c.end) for c in found] == [(0.02, 0.03)]
    falling = [pd.DataFrame({"tokens_planned_b": [4000.0 - 100 * i] * 30}) for i in range(5)]
    assert _cliffs("reserve_fraction", "tokens_planned_b", xs, falling) == []


def test_every_numeric_lever_is_swept_over_its_range_in_its_steps() -> None:
    levers = {lv.name for lv in numeric_levers()}
    assert {"reserve_fraction", "ablation_fraction", "data_investment_usd"} <= levers
    assert "decontaminate" not in levers and "strategy" not in levers
    reserve = grid(BY_NAME["reserve_fraction"])
    assert reserve[0] == 0.0 and reserve[-1] == 0.25 and len(reserve) == 26
    assert grid(BY_NAME["add_core_staff"]) == (0, 1, 2, 3, 4, 5, 6)


@pytest.mark.parametrize("seed", [0, 5])
def test_practices_that_pay_in_the_model_are_found_to_pay(base, seed: int) -> None:
    report = audit(
        base, 80, seed, cliffs=False,
        only=("product_evals_early", "safety_from_start", "owner:hardware"),
    )  # fmt: skip
    verdicts = {r.id: r.verdict for r in report.results}
    assert verdicts == {"owner:hardware": PAYS, "product_evals_early": PAYS,
                        "safety_from_start": PAYS}  # fmt: skip
    for r in report.results:  # both arms' scope is reported
        assert r.scope["tokens_b_with"] > 0 and r.scope["tokens_b_without"] > 0


def test_a_practice_the_model_gives_no_effect_is_inert(base) -> None:
    # A budget no world ever overruns, owned by a team with no work of its own: its owner's
    # weekly look never finds a slip and its watch takes no one from any work, so leaving
    # the budget risk unowned changes no world at all.
    rich = with_overrides(base, {"objective.budget.people_usd": 30_000_000,
                                 "objective.budget.compute_usd": 5_000_000,
                                 "incidents.budget_cut.enabled": False})  # fmt: skip
    report = audit(rich, 40, 0, cliffs=False, only=("owner:budget",))
    assert [r.verdict for r in report.results] == [INERT]


SHIPPED = sorted(p.stem for p in (ROOT / "scenarios").glob("*.yaml"))

#: What the audit still finds on the shipped scenarios (120 worlds, seed 0), each a limit
#: of the model measured and written down in docs/model.md ("Audit", "The findings left
#: open"). As the calibration's gap rows: a finding not listed fails, and so does a listed
#: one no longer found, so a fix cannot leave a stale entry and nothing new hides here.
KNOWN_LIMITS: dict[tuple[str, str], str] = {
    ("adapt_open_base_70b", "cliff reserve_fraction tokens_planned_b"): (
        "the adaptation's 5B tokens barely move the adapted model's loss, so the set-up fit "
        "cuts them to their floor first (5B -> 2.5B, saving $12k) once any gap opens"
    ),
    ("followup_benchmarks_vs_product", "free lunch owner:contamination"): (
        "owned by the three-person evaluation team, critical in every phase, its reviews "
        "cost 1.1-1.2 days for 0.4 points of ifeval, under the 1-point margin"
    ),
    ("followup_loss_spike", "free lunch gates:all"): (
        "the release gate (0.3) finds a defect in 2% of worlds and its review puts 0.7 days "
        "on the evaluation team's critical path; the other two gates save $32k and $57k"
    ),
    ("followup_loss_spike", "cliff data_investment_usd success"): (
        "the first $50K of data work buys the most effective tokens (one-stage law), and "
        "the targets sit where that step carries 23 points of worlds over them, 7 the next"
    ),
}


def findings(name: str) -> dict[str, str]:
    """The audit's free lunches and cliffs on a shipped scenario, each with its figures."""
    report = audit(load_scenario(ROOT / "scenarios" / f"{name}.yaml"), 120, 0, cliffs=True)
    out = {
        f"free lunch {r.id}": ", ".join(f"{m} {r.rows[m]['mean']:+.3g}" for m in r.gains)
        for r in report.free_lunches
    }
    for c in report.cliffs:
        out[f"{c.kind} {c.lever} {c.metric}"] = (
            f"{c.start:g} -> {c.end:g}: {c.change:+.3g} "
            f"(neighbours {c.neighbours:.3g}, typical {c.typical:.3g})"
        )
    return out


@pytest.mark.parametrize("name", SHIPPED)
def test_no_shipped_scenario_has_a_free_lunch_or_a_cliff_beyond_its_known_limits(
    name: str,
) -> None:
    # The CI check of the model's first rule on every scenario the product ships (issue
    # 24.12 checked the 7B alone; the other five held 5 free lunches and 4 cliffs, 1 free
    # lunch and 1 cliff of them fixed by mechanisms and 2 cliffs by the set-up fit in
    # engine 20): no good practice is cheaper or faster to drop at no loss, and no step of
    # a numeric lever moves an outcome far more than its neighbours, but for the limits
    # listed with why. What is found is printed.
    found = findings(name)
    known = {key for (scenario, key) in KNOWN_LIMITS if scenario == name}
    assert set(found) == known, {"new": {k: v for k, v in found.items() if k not in known},
                                 "no longer found": sorted(known - set(found))}  # fmt: skip


@pytest.mark.parametrize("seed", [3])  # seed 0: the shipped scenarios' audit above
@pytest.mark.parametrize("lever", ["reserve_fraction", "data_investment_usd", "add_core_staff"])
def test_the_budget_fit_leaves_no_cliff_on_the_7b(base, lever: str, seed: int) -> None:
    # Issue 24.1: with whole rounds, a reserve of 17% -> 18% cut a round (-8.0 days,
    # -$297k against neighbours of 0.3 days and $27k), and data work $100k -> $150k and
    # added staff 5 -> 6 did the same. A shorter last round closes exactly the gap.
    from sim.audit.cliffs import sweep

    _, found = sweep(base, BY_NAME[lever], 30, seed)
    assert not found, [(c.metric, c.kind, c.start, c.end) for c in found]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sim", "audit", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_the_command_prints_json_and_exits_1_on_a_free_lunch() -> None:
    out = cli(str(SEVEN_B), "--reps", "60", "--only", "gates:all", "--json")
    data = json.loads(out.stdout)
    assert [p["id"] for p in data["practices"]] == ["gates:all"]
    assert out.returncode == (1 if data["counts"][FREE_LUNCH] else 0)
    assert data["passed"] is (out.returncode == 0)
    ok = cli(str(SEVEN_B), "--reps", "40", "--only", "product_evals_early")
    assert ok.returncode == 0, ok.stderr
    assert "Product evals built early" in ok.stdout and "pays" in ok.stdout


def test_bad_options_are_clear_errors_with_exit_2() -> None:
    unknown = cli(str(SEVEN_B), "--only", "owner:hardwear")
    assert unknown.returncode == 2 and "owner:hardware" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    few = cli(str(SEVEN_B), "--reps", "3")
    assert few.returncode == 2 and "--reps 3" in few.stderr
    missing = cli("nope.yaml")
    assert missing.returncode == 2 and "nope.yaml" in missing.stderr


def test_an_override_reaches_the_audited_scenario(base) -> None:
    changed = with_overrides(base, {"levers.reserve_fraction": 0.0})
    reserve = next(p for p in practices(changed) if p.id == "reserve_fraction")
    assert reserve.without is changed and reserve.with_.levers.reserve_fraction == 0.10


@pytest.mark.parametrize("seed", [5])  # seed 0: test_no_shipped_scenario_has_a_free_lunch...
def test_the_70b_adaptation_has_no_free_lunch(seed: int) -> None:
    # Engine 19 found two on the adaptation (every gate, extra data work): its quality
    # rested on the base model's tokens, so the data the gates and the data work protect
    # bought nothing. Its rounds now train on the fine-tuning set (docs/model.md, "The
    # fine-tuning set"): a defect left in spoils them, data work makes them worth more.
    # On seed 5 engines 19 and 20 find one more, owning the tokenizer-and-config risk
    # (-1.1 days): a checkpoint risk the data does not touch, left open (docs/model.md,
    # "Audit"). The gates and the data work are checked on both seeds.
    adapt = load_scenario(ROOT / "scenarios" / "adapt_open_base_70b.yaml")
    report = audit(adapt, 120, seed, cliffs=False)
    found = [
        f"{r.id}: " + ", ".join(f"{m} {r.rows[m]['mean']:+.3g}" for m in r.gains)
        for r in report.free_lunches
        if seed == 0 or r.id != "owner:tokenizer_config"
    ]
    assert not found, found
    verdicts = {r.id: r for r in report.results}
    gates = [r.id for r in report.results if r.id.startswith("gate")]
    assert len(gates) == 4, gates  # each of the three gates, and all of them
    for pid in (*gates, "data_investment_usd"):
        assert verdicts[pid].verdict in (PAYS, TRADE_OFF, NOT_SETTLED), verdicts[pid]
    # Data work on the fine-tuning set clearly raises the chance of meeting the targets.
    assert "success" in verdicts["data_investment_usd"].losses, verdicts["data_investment_usd"]
