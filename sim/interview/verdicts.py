"""Rubric items judged on consequences: the design's simulated outcome and the follow-ups.

- **How the design plays out**: the design's chance of meeting every objective against the
  scenario's own reference design, on the same simulated worlds (common random numbers),
  with the paired difference and its 95% interval.
- **The follow-ups**: only the calls the candidate made count (the rest were the
  playbook's); a follow-up not played counts as not done. The ship call is judged
  against the measured gap, the eval's sampling noise and the simulated trade-off (the
  other option replayed in the same world), not against one right answer.
"""

from __future__ import annotations

import json
import math

from sim.format import points
from sim.interview.checks import Check, Claim, Judgement, Status, check, claim, judged
from sim.interview.items import SOUND_SPIKE_CALLS, Answer
from sim.interview.plan import SECTIONS, FollowupResult, InterviewPlan, plan_scenario, plan_world
from sim.interview.provenance import confirmed, filled_sections
from sim.interview.risks import SCENARIO_PLAN, YOUR_DESIGN
from sim.interview.stated import stated_in
from sim.interview.vocabulary import find
from sim.scenario.vocabulary import option_words, words

#: The design is clearly worse than the reference when its paired interval lies below
#: zero; it earns nothing when it is also this many points (of P(all met)) below.
OUTCOME_FAR_BEHIND = 0.25
#: Gaps within one sampling sd are noise; from two sd on they are real.
NOISE_SD, CLEAR_SD = 1.0, 2.0
#: Shipping is the better trade when waiting is this many days later for less quality.
WAIT_DAYS, WAIT_QUALITY = 5.0, 0.01
HOLD_CALLS = ("extra_round", "fix_data_and_retune")


def _same_design(a: Answer) -> bool:
    mine = json.loads(plan_scenario(a.plan).model_dump_json(exclude={"name"}))
    ref = json.loads(plan_world(a.plan).model_dump_json(exclude={"name"}))
    return bool(mine == ref)


def outcome(a: Answer) -> Judgement:
    """The simulation's verdict: P(every objective met) against the reference's."""
    if not a.outcome or YOUR_DESIGN not in a.outcome or SCENARIO_PLAN not in a.outcome:
        return judged(status="not_run", note=["The design was not simulated (no outcome)"])
    mine, ref = a.outcome[YOUR_DESIGN], a.outcome[SCENARIO_PLAN]
    p, q = float(mine["p_success"]), float(ref["p_success"])
    paired = (mine.get("vs_reference") or {}).get("p_success")
    if paired is not None and paired.get("n", 0) > 1 and not math.isnan(paired["low"]):
        d, low, high = paired["mean"], paired["low"], paired["high"]
        width = f" (95% interval {low * 100:+.0f} to {high * 100:+.0f})"
    else:
        d, low, high, width = p - q, p - q, p - q, ""
    reps = int(mine.get("reps", 0))
    line = (f"Every objective met in {p:.0%} of {reps} simulated worlds; the scenario's own "
            f"design {q:.0%} on the same worlds: {d * 100:+.0f} points{width}")  # fmt: skip
    # Recomputed, not read from the file: the scenario's own design, unchanged, is nothing
    # of the candidate's unless every section of it was kept on purpose, with a reason
    # (whether or not the file still records that the button filled it).
    if _same_design(a) and (filled_sections(a.plan) or not all(
            confirmed(a.plan, s) for s in SECTIONS)):  # fmt: skip
        return judged(
            check("own", False, "simulation", line,
                  "This is the scenario's own design, unchanged: nothing of yours to credit"),
        )  # fmt: skip
    not_worse = high >= 0 and (p > 0 or q == 0)
    close = d >= -OUTCOME_FAR_BEHIND and (p > 0 or q == 0)
    verdict = (
        "not worse than the reference"
        if not_worse
        else "clearly worse than the reference"
        if close
        else "far behind the reference"
    )
    c = check("plays_out", not_worse, "simulation", f"{line}: {verdict}")
    status: Status = "met" if not_worse else "partly" if close else "missed"
    return judged(c, status=status, claims=_claims(c))


def _played(a: Answer, fid: str) -> FollowupResult | Judgement:
    """The follow-up as replayed from the candidate's calls, or why it earns nothing."""
    f = a.followup(fid)
    if f is None:
        why = a.stale(fid) or "Not played: a follow-up not played counts as not done"
        return judged(status="not_played", note=[why])
    if not f.decisions:
        return judged(
            status="did_not_arise",
            note=["The situation did not arise on your design in any world searched"],
        )
    if not f.mine:
        return judged(
            status="not_played", note=["Every call was made by the playbook, none by you"]
        )
    return f


def _claims(*checks: Check) -> list[Claim]:
    """A played call's checks as claims: the candidate said it, so each is sound or not.

    A content check failed (a reason that names too little) is thin, not wrong.
    """
    return [claim(c.name, c.passed, "; ".join(c.evidence), wrong=c.kind != "content")
            for c in checks]  # fmt: skip


def _auto_note(f: FollowupResult) -> list[str]:
    auto = [d.choice.replace("_", " ") for d in f.decisions if d.by != "candidate"]
    return [f"Made by your playbook afterwards, not by you: {' → '.join(auto)}"] if auto else []


def _alternative_lines(f: FollowupResult) -> list[str]:
    better = [a for a in f.alternatives if a.delta_schedule_days < -0.5 or a.delta_cost_usd < -1e4]
    return [
        f"{a.choice.replace('_', ' ')} would have changed schedule by "
        f"{a.delta_schedule_days:+.1f} days and cost by ${a.delta_cost_usd:+,.0f} "
        "(later calls by your playbook)"
        for a in better[:2]
    ]


def followup_spike(a: Answer) -> Judgement:
    f = _played(a, "loss_spike")
    if isinstance(f, Judgement):
        return f
    d = f.mine[0]
    checks = (
        check("sound", d.choice in SOUND_SPIKE_CALLS, "structure",
              f"You chose {option_words(d.choice)} as {words(d.owner)}"),
        check("fast", d.latency_days <= 1.0, "structure",
              f"The news reached {d.owner} in {d.latency_days:.1f} days"),
    )  # fmt: skip
    return judged(*checks, note=[*_alternative_lines(f), *_auto_note(f)], claims=_claims(*checks))


def followup_budget(a: Answer) -> Judgement:
    f = _played(a, "budget_cut")
    if isinstance(f, Judgement):
        return f
    first = f.mine[0]
    agreed_own = a.mine("playbook", "budget")
    agreed = next((o for o in a.plan.responses("budget") if o in first.options), None)
    followed = agreed is not None and agreed_own and first.choice == agreed
    lines = [
        "You pulled: " + " → ".join(d.choice.replace("_", " ") for d in f.mine),
        f"Your playbook's first lever on offer: {agreed.replace('_', ' ') if agreed else 'none'}"
        + ("" if agreed_own or agreed is None else " (the scenario's playbook, not yours)"),
    ]
    note = _auto_note(f)
    if f.quality_given_up is not None:
        note.append(f"Quality given up against the same world without the cut: "
                    f"{f.quality_given_up:+.3f}")  # fmt: skip
    checks = (
        check("agreed_order", followed, "structure", *lines),
        check(
            "on_budget",
            f.on_budget,
            "simulation",
            "The project ended " + ("on budget" if f.on_budget else "over budget"),
        ),
    )
    claims = _claims(*checks)
    if agreed is None or not agreed_own:
        # No order of the candidate's own to follow: the call breaks no agreement, and
        # agreeing none is the levers item's missed check, not a second wrong here.
        claims[0] = claim("agreed_order", False, claims[0].evidence, wrong=False)
    return judged(*checks, note=note, claims=claims)


def gaps(plan: InterviewPlan, f: FollowupResult) -> list[tuple[str, float, float]]:
    """Each product eval below its target when the call was made: (eval, gap, gap in sd)."""
    world = plan_world(plan)
    kinds = {e.id: e.kind for e in world.objective.evals}
    items = {e.id: e.items for e in world.objective.evals}
    targets = f.targets or {t.eval: t.threshold for t in world.objective.targets}
    out = []
    for ev, score in f.situation.items():
        bar = targets.get(ev)
        if bar is None or kinds.get(ev) != "product_eval" or score >= bar:
            continue
        sd = f.eval_noise.get(ev) or math.sqrt(max(score * (1 - score), 1e-6) / items.get(ev, 500))
        out.append((ev, bar - score, (bar - score) / sd))
    return out


def followup_ship(a: Answer) -> Judgement:
    f = _played(a, "benchmarks_vs_product")
    if isinstance(f, Judgement):
        return f
    choice = f.mine[0].choice
    shipped = choice == "ship"
    found = gaps(a.plan, f)
    worst = max((z for _, _, z in found), default=0.0)
    gap_lines = [
        f"{words(ev)}: {points(gap)} below its target, {z:.1f} sd of the eval's sampling noise"
        for ev, gap, z in found
    ] or ["No product eval was below its target"]
    if worst >= CLEAR_SD:
        reading = "a real gap, beyond the eval's noise"
    elif worst < NOISE_SD:
        reading = "within the eval's noise"
    else:
        reading = "borderline: between one and two sd"
    # Shipping because the public benchmarks look strong is the trap this follow-up sets,
    # whatever the gap turned out to be: the call was not read against the product evals.
    on_benchmarks = shipped and any(h == "ship_on_benchmarks" for h, _ in stated_in(f.rationale))
    fits_gap = not (shipped and worst >= CLEAR_SD) and not on_benchmarks
    trade = _trade_off(f, shipped)
    said = find(f.rationale, ("gap", "noise", "time", "quality", "product_evals"))
    reasoned = len(said.found) >= 2
    checks = (
        check("gap", fits_gap, "structure", *gap_lines,
              f"You chose {option_words(choice)} with the gap {reading}",
              "Your reason ships on the public benchmarks' strength, not on the product "
              "evals" if on_benchmarks else ""),
        check("trade_off", trade[0], "simulation", *trade[1]),
        check("reasoning", reasoned, "content",
              f"Your reason names: {', '.join(said.labels(said.found)) or 'nothing'}"
              + ("" if reasoned else " (say what the gap is, whether it is beyond the noise, "
                 "and what waiting costs)")),
    )  # fmt: skip
    return judged(*checks, note=_auto_note(f), claims=_claims(*checks))


def _trade_off(f: FollowupResult, shipped: bool) -> tuple[bool, list[str]]:
    """Whether the call stands against the other options replayed in the same world."""
    lines = []
    fits = True
    for alt in f.alternatives:
        lines.append(
            f"Instead, {alt.choice.replace('_', ' ')}: {alt.delta_schedule_days:+.1f} days, "
            f"quality {alt.delta_quality:+.3f}, every objective met: "
            f"{'yes' if alt.success else 'no'} (later calls by your playbook)"
        )
        if alt.success and not f.success:
            fits = False
        if (
            not shipped
            and alt.choice == "ship"
            and alt.delta_schedule_days <= -WAIT_DAYS
            and alt.delta_quality > -WAIT_QUALITY
            and alt.success >= f.success
        ):
            fits = False
            lines.append("Waiting bought little: shipping was much sooner for almost the same "
                         "quality")  # fmt: skip
    return fits, lines or ["No other option to compare"]
