"""The interview's three follow-up questions, played live on the candidate's own design.

Each follow-up puts the candidate's team, owners, decision rights, gates, reserve
and playbook into a world with its incident: their own world with a scripted loss
spike midway through the run; the shipped budget-cut world (a 70B run, where compute
is most of the bill, so a cut bites) with its scripted cut; their own world with
benchmark items leaked into the web data. It then finds a seed in which the
situation really arises on this design, and starts a
:class:`~sim.play.game.Game` in which only the follow-up's kind of decision waits for the
candidate; everything else follows the design's playbook (textbook where it is
silent). When the play ends, :func:`followup_result` records the candidate's calls,
the outcome, and each other option for their first call replayed in the same world.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from sim.engine.decisions import Decider, DecisionPoint, reference_decider
from sim.interview.plan import (
    Alternative,
    Caller,
    FollowupDecision,
    FollowupResult,
    InterviewPlan,
    plan_scenario,
)
from sim.play.debrief import quality_score
from sim.play.game import Game, counterfactual
from sim.scenario.loading import ScenarioError, with_overrides
from sim.scenario.spec import Scenario

#: Worlds searched for one where the follow-up's situation arises on the design.
SEARCH_SEEDS = 60
#: Share of the remaining compute budget the budget-cut follow-up takes away.
CUT_FRACTION = 0.4
#: Public benchmarks in this follow-up's world: leaked into web data, and what leaking adds.
LEAKED_CONTAMINATION = 0.6
LEAKED_GAIN = 0.2


@dataclass(frozen=True)
class Followup:
    id: str
    title: str
    question: str
    asks: str
    setup: str
    shape: Callable[[Scenario], dict[str, Any]]
    world: str | None = None
    #: Whether a decision of the asked kind, by its context, is the follow-up's situation.
    #: The budget cut's is a budget decision the cut opened: the budget owner's weekly
    #: look may meet a small slip on its own before the cut, and that is not the question.
    opens: Callable[[dict[str, Any]], bool] = lambda context: True

    def situation_at(self, kind: str, context: dict[str, Any]) -> bool:
        """Whether a decision of ``kind`` with ``context`` is this follow-up's situation."""
        return kind == self.asks and self.opens(context)


def _scripted(s: Scenario, incident: dict[str, Any]) -> list[dict[str, Any]]:
    current = json.loads(s.model_dump_json(by_alias=True))["incidents"]["scripted"]
    return [*current, incident]


def _spike_midway(s: Scenario) -> dict[str, Any]:
    note = "the follow-up's spike"
    return {
        # One spike, midway, so the question is about that call and not the run's noise.
        "incidents.loss_spikes.enabled": False,
        "incidents.scripted": _scripted(
            s, {"kind": "loss_spike", "run_progress": 0.5, "note": note}
        ),
    }


def _budget_cut(s: Scenario) -> dict[str, Any]:
    if any(i.kind == "budget_cut" for i in s.incidents.scripted):
        return {}
    day = round(s.objective.deadline_days / 4.0)
    return {
        "incidents.budget_cut.enabled": False,
        "incidents.scripted": _scripted(
            s, {"kind": "budget_cut", "day": day, "fraction": CUT_FRACTION}
        ),
    }


def _leaky_benchmarks(s: Scenario) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, e in enumerate(s.objective.evals):
        if e.kind == "public_benchmark":
            out[f"objective.evals.{i}.contamination"] = LEAKED_CONTAMINATION
            out[f"objective.evals.{i}.contamination_gain"] = LEAKED_GAIN
    return out


FOLLOWUPS: dict[str, Followup] = {
    f.id: f
    for f in (
        Followup(
            "loss_spike",
            "The loss spikes midway",
            "Midway through pretraining the loss spikes and checkpoint evals stall. What "
            "happens next, and who makes the call?",
            "rollback",
            "Your design in your world; one loss spike strikes at half the run's tokens, and "
            "no other spikes.",
            _spike_midway,
        ),
        Followup(
            "budget_cut",
            "Leadership cuts the compute budget",
            "Before the main run starts, leadership takes back 40% of the remaining "
            "compute budget. Which levers do you pull first, and what quality do you give up?",
            "budget",
            "Played on a 70B pretraining project, where compute is most of the bill, with "
            "your team, owners, rights, gates, reserve and playbook: on day 45 leadership "
            "cuts 40% of the remaining compute budget.",
            _budget_cut,
            world="followup_budget_cut.yaml",
            opens=lambda context: "cut_usd" in context,
        ),
        Followup(
            "benchmarks_vs_product",
            "Strong benchmarks, lagging product evals",
            "Public benchmark scores look strong but the product evals lag. Is the model "
            "ready to ship?",
            "ship",
            "Your design in your world, but 60% of the public benchmarks' items have leaked "
            "into the web data.",
            _leaky_benchmarks,
        ),
    )
}


#: The follow-up worlds are shipped as they are: a pretraining project with set objectives.
SHIPPED_WORLD = {"strategy": "pretrain", "objectives": "given", "budget": "all_in"}


def followup_scenario(plan: InterviewPlan, fid: str) -> Scenario:
    """The candidate's design in the follow-up's world, with the follow-up's incident."""
    f = FOLLOWUPS[fid]
    design = plan_scenario(plan)
    if f.world is not None:
        clar = {**plan.clarifications, **SHIPPED_WORLD, "product": "specialist"}
        try:
            design = plan_scenario(
                plan.model_copy(update={"base": f.world, "clarifications": clar})
            )
        except ScenarioError:
            pass  # a base with other teams: play it in the candidate's own world
    return with_overrides(design, f.shape(design))


class AskOnly:
    """Leave the follow-up's real choices to the person; the rest by playbook, then textbook.

    A real choice is one of the follow-up's situation (:meth:`Followup.situation_at`)
    with more than one option.
    """

    name = "playbook"

    def __init__(self, fid: str, playbook: Any) -> None:
        self.followup = FOLLOWUPS[fid]
        self.auto: Decider = reference_decider(playbook)

    def decide(self, point: DecisionPoint) -> str | None:
        if self.followup.situation_at(point.kind, point.context) and len(point.options) > 1:
            return None
        return self.auto.decide(point)


def _from_situation(decisions: list[Any], fid: str) -> list[Any]:
    """The decisions of the follow-up's kind from the first one of its situation on."""
    f = FOLLOWUPS[fid]
    asked = [d for d in decisions if d.kind == f.asks]
    start = next((i for i, d in enumerate(asked) if f.situation_at(d.kind, d.context)), None)
    return [] if start is None else asked[start:]


def arises(game: Game, fid: str) -> bool:
    """Whether the follow-up's situation came up in this play."""
    asked = _from_situation(game.model.recording.decisions, fid)
    if not asked:
        return False
    first = asked[0]
    if fid == "benchmarks_vs_product":
        kinds = {e.id: e.kind for e in game.scenario.objective.evals}
        lagging = any(kinds.get(e) == "product_eval" for e in first.context.get("missed", {}))
        return lagging and len(first.options) > 1
    return True


def find_world(scenario: Scenario, fid: str, seeds: int = SEARCH_SEEDS) -> tuple[int | None, int]:
    """The first seed whose play reaches the follow-up's situation, and how many of ``seeds`` do.

    Decisions are answered as the live game answers the ones it does not ask, so the
    situation comes up at the same point when the candidate plays that seed.
    """
    first, count = None, 0
    for seed in range(1, seeds + 1):
        game = Game(scenario, seed, then=reference_decider(scenario.levers.playbook))
        game.play_to_end(reference_decider(scenario.levers.playbook))
        if arises(game, fid):
            count += 1
            first = seed if first is None else first
    return first, count


def start_followup(scenario: Scenario, fid: str, seed: int) -> Game:
    """A game on the follow-up scenario, run to the first decision that waits for the candidate."""
    game = Game(scenario, seed, then=AskOnly(fid, scenario.levers.playbook))
    game.advance()
    return game


def situation(game: Game) -> dict[str, float]:
    """What the candidate sees at the waiting decision: eval scores, or the gap in dollars."""
    point = game.pending
    if point is None:
        return {}
    if point.kind == "ship":
        return {ev: round(r.score, 4) for ev, r in game.model.latest_evals.items()}
    if point.kind == "budget":
        return {"gap_usd": float(point.context.get("gap_usd", 0.0))}
    if point.kind == "rollback":
        return {"progress": float(point.context.get("progress", 0.0))}
    return {}


def unplayable_result(scenario: Scenario, fid: str) -> FollowupResult:
    """The record of a follow-up whose situation never arose: the design's own play, no calls."""
    game = Game(scenario, 1)
    game.play_to_end(reference_decider(scenario.levers.playbook))
    return followup_result(game, fid).model_copy(update={"decisions": [], "alternatives": []})


def _alternatives(game: Game, index: int, base: dict[str, Any]) -> list[Alternative]:
    log = game.current_log()
    rec = game.model.recording.decisions[index]
    out = []
    for option in rec.options:
        if option == rec.choice:
            continue
        row = counterfactual(log, index, option, game.scenario)
        out.append(
            Alternative(
                choice=option,
                delta_schedule_days=row["schedule_days"] - base["schedule_days"],
                delta_cost_usd=row["cost_usd"] - base["cost_usd"],
                delta_quality=quality_score(row) - quality_score(base),
                success=bool(row["success"]),
            )
        )
    return out


def _quality_given_up(game: Game, base: dict[str, Any]) -> float:
    """Quality of the same world without the cut, less the quality reached with it."""
    scripted = json.loads(game.scenario.model_dump_json(by_alias=True))["incidents"]["scripted"]
    calm = with_overrides(
        game.scenario,
        {
            "incidents.budget_cut.enabled": False,
            "incidents.scripted": [i for i in scripted if i["kind"] != "budget_cut"],
        },
    )
    policy = reference_decider(calm.levers.playbook)
    return quality_score(Game(calm, game.log.seed).play_to_end(policy)) - quality_score(base)


def eval_noise(scenario: Scenario, scores: dict[str, float]) -> dict[str, float]:
    """Each eval's sampling error at its measured score: sd sqrt(p(1-p)/items)."""
    items = {e.id: e.items for e in scenario.objective.evals}
    return {
        ev: math.sqrt(max(p * (1.0 - p), 0.0) / items[ev])
        for ev, p in scores.items()
        if ev in items
    }


def followup_result(
    game: Game,
    fid: str,
    seen: dict[str, float] | None = None,
    rationale: str = "",
    answered: Collection[str] | None = None,
) -> FollowupResult:
    """The finished follow-up as a record for the plan and the rubric.

    ``answered`` are the keys of the decisions the candidate made; the others of the
    follow-up's kind were made by the playbook. None: the decisions the game asked a
    person about (``by == "player"``).
    """
    out = game.outcome()
    asked = FOLLOWUPS[fid].asks
    mine = _from_situation(game.model.recording.decisions, fid)

    def caller(d: Any) -> Caller:
        said = d.key in answered if answered is not None else d.by == "player"
        return "candidate" if said else "playbook"

    decisions = [
        FollowupDecision(
            kind=d.kind,  # type: ignore[arg-type]
            day=d.day,
            owner=d.owner,
            latency_days=d.latency_days,
            options=list(d.options),
            choice=d.choice,
            by=caller(d),
        )
        for d in mine
    ]
    first = next((d for d in mine if caller(d) == "candidate"), mine[0] if mine else None)
    result: dict[str, Any] = {
        "id": fid,
        "seed": game.log.seed,
        "decisions": decisions,
        "rationale": rationale,
        "schedule_days": out["schedule_days"],
        "cost_usd": out["cost_usd"],
        "quality": quality_score(out),
        "on_time": bool(out["on_time"]),
        "on_budget": bool(out["on_budget"]),
        "success": bool(out["success"]),
        "situation": dict(seen or {}),
        "deadline_days": game.scenario.objective.deadline_days,
        "budget_usd": out["budget_usd"],
        "alternatives": _alternatives(game, first.index, out) if first is not None else [],
        "targets": {t.eval: t.threshold for t in game.scenario.objective.targets},
        "eval_noise": eval_noise(game.scenario, dict(seen or {})) if asked == "ship" else {},
    }
    if fid == "budget_cut":
        result["quality_given_up"] = _quality_given_up(game, out)
    if fid == "benchmarks_vs_product" and first is not None:
        result["shipped_with_gap"] = first.choice == "ship"
    return FollowupResult.model_validate(result)
