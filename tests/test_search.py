"""Design search (sim.compare.search): finds a known better design, is reproducible, resumes."""

from __future__ import annotations

import pytest

from sim.compare.search import Settings, best_designs, run_search, rungs, trial_rows
from sim.compare.search_report import confirmed, report
from sim.compare.space import (
    Constraints,
    base_params,
    delta_for,
    excluded_families,
    search_space,
)
from sim.designs import apply_delta
from sim.scenario.loading import load_scenario
from tests.cli import run_sim

#: The small space of the tests: headcounts and risk owners only.
SMALL = Constraints(exclude=("levers.", "gate:", "playbook:", "right:", "org.politics_days"))


@pytest.fixture(scope="module")
def bad_base():
    """The 7B assistant with four risks unowned and 40 people in data: clearly poor."""
    s = load_scenario("scenarios/assistant_7b.yaml")
    return apply_delta(
        s,
        {
            "org.risk_owners.data_quality": None,
            "org.risk_owners.loss_spike": None,
            "org.risk_owners.hardware": None,
            "org.risk_owners.contamination": None,
            "org.teams.data.headcount": 40,
        },
        name="poorly run assistant",
    )


def test_rungs_grow_by_three_to_all_worlds():
    assert rungs(90) == [10, 30, 90]
    assert rungs(40) == [10, 30, 40]
    assert rungs(10) == [10]


def test_base_params_give_the_base(bad_base):
    space = search_space(bad_base, SMALL)
    assert delta_for(bad_base, base_params(space)) == {}
    assert {c.name.split(":")[0] for c in space} == {"headcount", "owner"}


@pytest.mark.parametrize("seed", [0, 7])
def test_search_finds_a_clearly_better_design(bad_base, seed):
    # Headcount of data and risk owners are searched; the other teams stay as they are.
    others = tuple(t for t in bad_base.team_ids if t != "data")
    c = Constraints(fixed_teams=others, exclude=SMALL.exclude)
    search = run_search(
        bad_base, Settings(trials=25, reps=30, seed=seed, confirm_reps=100, constraints=c)
    )
    assert search.records[0].delta == {}  # the baseline is trial 0
    best = best_designs(search)
    assert best, "no candidate matched the baseline"
    result = report(search, confirmed(search))
    # Confirmed on fresh worlds: the chosen design is clearly better, not just lucky.
    assert result["best"]["p_success"] > result["baseline"]["p_success"] + 0.15
    paired = result["best"]["paired"]["success"]
    assert paired["verdict"] == "clear" and paired["low"] > 0
    assert result["best"]["changes"]["org.teams.data.headcount"] < 40
    assert result["frontier"] and result["importance"]["params"]
    assert result["best"]["changes_in_words"]


def test_constraints_are_kept(bad_base):
    cap = sum(t.headcount for t in bad_base.org.teams)
    search = run_search(
        bad_base,
        Settings(
            trials=12,
            reps=10,
            seed=1,
            confirm_reps=10,
            constraints=Constraints(
                max_headcount=cap, fixed_teams=("data",), exclude=SMALL.exclude
            ),
        ),
    )
    for r in search.records:
        design = apply_delta(bad_base, r.delta)
        if r.state in ("complete", "pruned"):
            assert sum(t.headcount for t in design.org.teams) <= cap
        assert "org.teams.data.headcount" not in r.delta


def _signature(search):
    return [
        (row["trial"], row["state"], row["worlds"], row["value"]) for row in trial_rows(search)
    ] + [(r.number, sorted(r.params.items())) for r in search.records]


def test_same_seed_same_search_on_any_executor(bad_base):
    settings = Settings(trials=10, reps=30, seed=3, confirm_reps=10, constraints=SMALL)
    serial = _signature(run_search(bad_base, settings))
    pool = _signature(run_search(bad_base, Settings(**{**settings.__dict__, "workers": 2})))
    assert serial == pool
    dask = _signature(
        run_search(bad_base, Settings(**{**settings.__dict__, "workers": 2, "executor": "dask"}))
    )
    assert serial == dask


def test_a_stopped_search_resumes_to_the_same_trials(bad_base, tmp_path):
    url = f"sqlite:///{tmp_path / 'sessions.sqlite3'}"
    whole = Settings(trials=14, reps=30, seed=5, confirm_reps=10, constraints=SMALL)
    straight = _signature(run_search(bad_base, whole))
    part = Settings(**{**whole.__dict__, "trials": 6, "storage": url, "study_name": "resume"})
    first = run_search(bad_base, part)
    assert len(first.records) == 6
    resumed = run_search(bad_base, Settings(**{**part.__dict__, "trials": 14}))
    assert _signature(resumed) == straight
    with pytest.raises(ValueError, match="another search"):
        run_search(bad_base, Settings(**{**part.__dict__, "seed": 6}))


def test_optimize_command_json_and_saved_designs_run_in_compare(tmp_path):
    import json
    import subprocess
    import sys

    run = [sys.executable, "-m", "sim"]
    out = subprocess.run(
        [
            *run,
            "optimize",
            "scenarios/assistant_7b.yaml",
            "--trials",
            "6",
            "--reps",
            "10",
            "--confirm-reps",
            "10",
            "--workers",
            "1",
            "--save",
            str(tmp_path),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    assert {"baseline", "best", "frontier", "importance"} <= set(result)
    assert 0.0 <= result["baseline"]["p_success"] <= 1.0
    for path in result.get("saved", []):
        cmp = subprocess.run(
            [
                *run,
                "compare",
                "scenarios/assistant_7b.yaml",
                "--design",
                path,
                "--reps",
                "10",
                "--workers",
                "1",
                "--json",
            ],
            capture_output=True,
            text=True,
        )
        assert cmp.returncode == 0, cmp.stderr
    bad = subprocess.run(
        [*run, "optimize", "scenarios/assistant_7b.yaml", "--fix-team", "nope"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "no such team" in bad.stderr and "Traceback" not in bad.stderr


def test_only_a_family_of_choices_is_searched(bad_base):
    gates = search_space(bad_base, Constraints(exclude=excluded_families(["gate"])))
    assert gates and {ch.name.partition(":")[0] for ch in gates} == {"gate"}
    both = search_space(bad_base, Constraints(exclude=excluded_families(["gate", "levers"])))
    assert {ch.name.split(":")[0].split(".")[0] for ch in both} == {"gate", "levers"}
    assert "org.politics_days" not in {ch.name for ch in both}
    everything = search_space(bad_base, Constraints(exclude=excluded_families([])))
    assert everything == search_space(bad_base)
    with pytest.raises(ValueError, match="no such family"):
        excluded_families(["gates"])


def test_optimize_refuses_an_unknown_family_with_exit_2():
    out = run_sim("optimize", "assistant_7b", "--only", "gates", "--trials", "1")
    assert out.returncode == 2, out.stderr
    assert "--only 'gates': no such family" in out.stderr and "gate," in out.stderr
    assert "Traceback" not in out.stderr
