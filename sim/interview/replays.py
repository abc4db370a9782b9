"""Follow-ups recomputed from the candidate's calls: nothing a plan file stores is trusted.

A played follow-up in PLAN.json is a record of what happened. Only two things in it are
the candidate's: the calls they made (in order) and the reason they wrote. Everything
else (the world's seed, the days, the owners and latencies, the options, the outcome,
the situation at the call, the other options replayed, the quality given up) follows
from the design, the calls and the engine, which is deterministic. So the rubric
replays every follow-up here and judges the replay; a hand-edited record cannot raise a
score. When the recorded calls no longer fit the design (it changed after the play, or
a call is not among the options at its point), the follow-up counts as not played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from sim.engine.decisions import reference_decider
from sim.interview.followups import (
    FOLLOWUPS,
    SEARCH_SEEDS,
    arises,
    followup_result,
    followup_scenario,
    situation,
    start_followup,
    unplayable_result,
)
from sim.interview.plan import FollowupResult, InterviewPlan
from sim.play.game import Game
from sim.scenario.spec import Scenario

#: Why a follow-up record was set aside: its calls do not fit the design as it is now.
STALE = (
    "Your recorded calls do not fit this design as it is now (it changed after you played, "
    "or the record was edited): play this follow-up again"
)


def calls(record: FollowupResult) -> tuple[str, ...]:
    """The candidate's calls in a record, in order: the only part of it that is theirs."""
    return tuple(d.choice for d in record.decisions if d.by == "candidate")


def first_world(scenario: Scenario, fid: str, seeds: int) -> int | None:
    """The first seed whose play reaches the follow-up's situation (as the app searches)."""
    for seed in range(1, seeds + 1):
        game = Game(scenario, seed, then=reference_decider(scenario.levers.playbook))
        game.play_to_end(reference_decider(scenario.levers.playbook))
        if arises(game, fid):
            return seed
    return None


def _play(
    plan: InterviewPlan, fid: str, made: tuple[str, ...], rationale: str = ""
) -> FollowupResult | None:
    scenario = followup_scenario(plan, fid)
    seed = first_world(scenario, fid, SEARCH_SEEDS)
    if seed is None:
        return unplayable_result(scenario, fid)
    game = start_followup(scenario, fid, seed)
    seen = situation(game)
    answered: list[str] = []
    pending = list(made)
    while game.pending is not None and pending:
        point = game.pending
        choice = pending.pop(0)
        if choice not in point.options:
            return None
        answered.append(point.key)
        game.decide(choice)
        game.advance()
    if pending:
        return None  # more calls recorded than the design ever asks for
    game.play_to_end()
    return followup_result(game, fid, seen, rationale, answered)


@dataclass(frozen=True)
class Replays:
    """Each follow-up replayed from the plan's calls, and the ones whose calls no longer fit."""

    results: dict[str, FollowupResult] = field(default_factory=dict)
    stale: dict[str, str] = field(default_factory=dict)

    def get(self, fid: str) -> FollowupResult | None:
        return self.results.get(fid)


def _design_key(plan: InterviewPlan) -> str:
    return plan.model_dump_json(exclude={"followups", "candidate", "judged_at", "prose"})


@lru_cache(maxsize=128)
def _replayed(
    design: str, fid: str, made: tuple[str, ...], rationale: str
) -> FollowupResult | None:
    return _play(InterviewPlan.model_validate_json(design), fid, made, rationale)


def play_calls(
    plan: InterviewPlan, fid: str, made: tuple[str, ...], rationale: str = ""
) -> FollowupResult | None:
    """The follow-up ``fid`` played on ``plan``'s design with the calls ``made``, in order.

    The world is the one the app plays (the first seed where the situation arises). Each
    decision that waits for the candidate takes the next call; once the calls run out, the
    design's playbook answers. None when a call is not an option at its point, or when
    there are more calls than decisions. Cached: the engine is deterministic.
    """
    return _replayed(_design_key(plan), fid, tuple(made), rationale)


def replay(plan: InterviewPlan, record: FollowupResult) -> FollowupResult | None:
    """``record`` recomputed on ``plan``'s design from its calls and reason (None: stale)."""
    if record.id not in FOLLOWUPS:
        return None
    return play_calls(plan, record.id, calls(record), record.rationale)


def replay_followups(plan: InterviewPlan) -> Replays:
    """Every follow-up of ``plan`` recomputed; none of the stored figures is read."""
    results: dict[str, FollowupResult] = {}
    stale: dict[str, str] = {}
    for record in plan.followups:
        if record.id in results or record.id in stale:
            continue  # the plan reads the first record of each follow-up; so does the rubric
        again = replay(plan, record)
        if again is None:
            stale[record.id] = STALE
        else:
            results[record.id] = again
    return Replays(results, stale)


def replayed_plan(plan: InterviewPlan) -> InterviewPlan:
    """``plan`` with each follow-up record replaced by its replay (stale ones dropped)."""
    r = replay_followups(plan)
    kept = [r.results[f.id] for f in plan.followups if f.id in r.results]
    return plan.model_copy(update={"followups": kept})
