"""The budget as a plan: projected spend by line, priced scope options, fitting the plan.

A project lead plans spend by line (run compute, ablation compute, post-training
compute, a reserved cluster, people, data, annotation). When the plan does not fit —
at set-up, after a cut, or as spend runs ahead — the response acts on a budget line
that is over and on the scope that closes the gap most cheaply: fewer post-training
rounds, a smaller eval scope, fewer hires, a smaller cluster for longer, less ablation,
fewer tokens. Each option is priced with the model's own schedule and quality forecasts
(:mod:`sim.engine.forecast`): what it saves on every line (a token's price includes the
salaries of the days it takes) and what it costs in loss and target score. A cut never
removes more than the gap (the smallest step that closes it), and it is recorded, traced
and priced (:class:`~sim.engine.records.ScopeCut`), never silent. docs/model.md,
"Budget as a plan".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import simpy

from sim.engine import forecast
from sim.engine.novelty import expected_ablation_factor
from sim.engine.plan import ROUND_EPS
from sim.engine.project import Project
from sim.engine.records import ScopeCut, SetUpFit
from sim.engine.training import Steps
from sim.format import tokens as tokens_text
from sim.scenario.spec import DECISION_OPTIONS, PHASES
from sim.units import USD_TOLERANCE, over_usd

#: The budget plan's lines, and the scenario budget category each is paid from.
LINES: dict[str, str] = {
    "run_compute": "compute",
    "ablation_compute": "compute",
    "post_training_compute": "compute",
    "reserved_cluster": "compute",
    "people": "people",
    "data": "data_licensing",
    "annotation": "annotation",
}
#: Responses that give up scope (the budget decision's other options are the reserve and
#: accepting the overrun).
SCOPE_RESPONSES = tuple(
    o for o in DECISION_OPTIONS["budget"] if o not in ("use_reserve", "accept_overrun")
)
#: When a cut was made (``ScopeCut.when``): fitting the plan, or a slip in the forecast (a
#: leadership cut's answer says the cut instead).
AT_SET_UP = "at set-up"
ON_FORECAST = "on the current forecast"
#: No cut trains fewer tokens than this share of the scenario's plan.
TOKEN_FLOOR_SHARE = 0.5
#: A cut to tokens is offered until the run is this far through its target.
TOKEN_CUT_UNTIL = 0.95
#: No smaller cluster keeps fewer than this share of the scenario's GPUs.
CLUSTER_FLOOR_SHARE = 0.5
#: Shares of the cluster's nodes a smaller cluster may give up, tried in turn.
CLUSTER_CUTS = (0.125, 0.25, 0.375, 0.5)
#: A smaller eval scope keeps this share of the evaluation work and of every eval's items.
EVAL_SCOPE_SHARE = 0.5


def rounds_words(rounds: float) -> str:
    """A plan's rounds as read: 4, 3.4 (a shorter last round), or 3.96.

    Two decimals where one would read as a whole number ("from 4 to 4.0 rounds" says
    nothing).
    """
    if abs(rounds - round(rounds)) < 0.005:
        return f"{rounds:.0f}"
    one = f"{rounds:.1f}"
    return f"{rounds:.2f}" if one.endswith(".0") else one


# --- projected spend ---------------------------------------------------------------------


def round_cost(m: Project) -> tuple[float, float]:
    """(annotation, compute) dollars of one post-training round (compute 0 on a reservation)."""
    s = m.scenario
    annotation = s.objective.budget.annotation_usd / max(1, s.model.post_training_rounds)
    reserved = m.reservation.holds()
    return annotation, 0.0 if reserved else m.plan.round_compute_usd


def ablation_compute_usd(m: Project, factor: float | None = None) -> float:
    """On-demand price of the ablation campaign (expected reruns unless ``factor`` is given).

    Ablations cost ``ablation_fraction`` of the compute they de-risk: the run and the
    planned post-training rounds.
    """
    base = m.plan.tokens * m.plan.usd_per_token + m.plan.rounds * m.plan.round_compute_usd
    if factor is None:
        factor = expected_ablation_factor(m.scenario.model.novelty)
    return m.plan.ablations * base * factor


def licences(m: Project) -> list[tuple[str, float]]:
    """Data spend committed when preparation starts: licences, extra data work, base model."""
    s = m.scenario
    out = [("data licences", s.objective.budget.data_licensing_usd)]
    if s.levers.data_investment_usd:
        out.append(("extra data work", s.levers.data_investment_usd))
    if s.levers.strategy == "adapt" and s.model.base_model is not None:
        out.append(("base model licence", s.model.base_model.license_usd))
    return out


def projected_lines(m: Project, by_phase: dict[str, float] | None = None) -> dict[str, float]:
    """Spent so far plus what the current plan still needs, by budget line.

    ``by_phase``: the forecast's :func:`~sim.engine.forecast.days_by_phase` now, when
    the caller has it already.
    """
    spent = m.ledger.line_totals
    out = {line: spent.get(line, 0.0) for line in LINES}
    if by_phase is None:
        by_phase = forecast.days_by_phase(m)
    annotation, round_compute = round_cost(m)
    rounds_left = max(0, m.plan.rounds - m.plan.rounds_done)
    out["annotation"] += rounds_left * annotation
    out["post_training_compute"] += rounds_left * round_compute
    reserved = m.reservation.holds()
    run = m.run
    if not reserved:
        left = m.plan.tokens if run is None else max(0.0, run.target_tokens - run.tokens)
        out["run_compute"] += left * m.plan.usd_per_token
        if m.recording.phase in ("setup", "prepare"):
            out["ablation_compute"] += ablation_compute_usd(m)
    else:
        held = sum(by_phase[p] for p in ("ablations", "training", "post_training"))
        unpaid = m.reservation.unpaid_days()
        out["reserved_cluster"] += (held + unpaid) * m.plan.run_facts.usd_per_day
    # People: the payroll per day over the forecast days, what it cost since salaries were
    # last charged, and the planned hires from the day they join.
    days = sum(by_phase.values())
    now = m.env.now
    per_day = m.staff.payroll_per_day()
    out["people"] += per_day * (days + now - m.staff.charged_to)
    if m.plan.hires:
        join = max(now, m.scenario.levers.add_core_staff_day)
        rate = m.staff.teams[m.org.training_team].spec.usd_per_person_day
        out["people"] += m.plan.hires * rate * max(0.0, now + days - join)
    if m.recording.phase == "setup":
        out["data"] += sum(usd for _, usd in licences(m))
    return out


def projected_spend(m: Project) -> float:
    """Spent so far plus what the current plan still needs."""
    return sum(projected_lines(m).values())


def budget_gap(m: Project) -> float:
    """Projected spend over the budget less the reserve still held."""
    return _gap(m, projected_lines(m))


def _gap(m: Project, lines: dict[str, float]) -> float:
    """Projected spend (``lines``: by budget line) over the budget less the reserve held."""
    return sum(lines.values()) - (m.ledger.budget_usd - m.plan.reserve_left)


def projected_by_category(m: Project) -> dict[str, float]:
    return _by_category(projected_lines(m))


def _by_category(lines: dict[str, float]) -> dict[str, float]:
    out: dict[str, float] = {}
    for line, usd in lines.items():
        out[LINES[line]] = out.get(LINES[line], 0.0) + usd
    return out


def allowances(m: Project) -> dict[str, float]:
    """What each budget category may spend: its line less its share of the reserve, less cuts."""
    b = m.scenario.objective.budget
    keep = 1.0 - m.scenario.levers.reserve_fraction
    cuts = b.total_usd - m.ledger.budget_usd
    return {
        "compute": b.compute_usd * keep - cuts,
        "people": b.people_usd * keep,
        "data_licensing": b.data_licensing_usd * keep,
        "annotation": b.annotation_usd * keep,
    }


def over_categories(m: Project, spend: dict[str, float] | None = None) -> set[str]:
    """Budget categories whose projected spend (``spend``: by category) is over allowance."""
    allowed = allowances(m)
    if spend is None:
        spend = projected_by_category(m)
    return {c for c, usd in spend.items() if over_usd(usd - allowed[c])}


class Outlook(NamedTuple):
    """The current plan's forecast: spend by line and category, days left, quality.

    One forecast of days serves them all; every option priced at one moment is priced
    against the same outlook (the plan is put back after each try). A named tuple, as
    :class:`ScopeOption`: a play makes a few hundred of them, and a frozen dataclass
    costs several times as much to make.
    """

    lines: dict[str, float]
    spend: dict[str, float]
    days: float
    loss: float
    score: float

    def gap(self, m: Project) -> float:
        """Projected spend over the budget less the reserve still held (:func:`budget_gap`)."""
        return _gap(m, self.lines)


def outlook(m: Project) -> Outlook:
    """The plan's :class:`Outlook` now."""
    by_phase = forecast.days_by_phase(m)
    return _outlook(m, by_phase, projected_lines(m, by_phase))


def _outlook(m: Project, by_phase: dict[str, float], lines: dict[str, float]) -> Outlook:
    """The :class:`Outlook` of the forecast ``by_phase`` and the spend ``lines`` it gives."""
    loss = forecast.planned_loss(m)  # the score at the planned loss: worked out once
    return Outlook(
        lines, _by_category(lines), sum(by_phase.values()), loss, forecast.planned_score(m, loss)
    )


# --- scope options -----------------------------------------------------------------------


class ScopeOption(NamedTuple):
    """A cut to the plan, sized to a gap and priced with the model's own forecasts."""

    response: str
    what: str
    saves: dict[str, float]
    loss: float
    score: float
    days: float
    at_risk: bool
    change: Callable[[], None]
    #: The plan's :class:`Outlook` with the cut made, at the moment it was priced: the
    #: outlook after :func:`apply_scope` while nothing else has moved (same moment, no
    #: other change in between).
    after: Outlook

    @property
    def saves_usd(self) -> float:
        return sum(self.saves.values())

    def price(self, gap: float) -> float:
        """Target score given up per dollar of the gap it closes (lower is cheaper)."""
        return -self.score / max(USD_TOLERANCE, min(gap, self.saves_usd))

    def as_dict(self) -> dict[str, Any]:
        return {
            "response": self.response,
            "what": self.what,
            "saves_usd": self.saves_usd,
            "loss": self.loss,
            "score": self.score,
            "days": self.days,
        }


def _priced(
    m: Project,
    base: Outlook,
    response: str,
    what: str,
    change: Callable[[], None],
    risk: Callable[[], float] | None = None,
) -> ScopeOption:
    """Price ``change`` against ``base`` (the outlook now) by trying it and putting it back."""
    before = m.plan.state()
    risk0 = risk() if risk else 0.0
    change()
    after = outlook(m)
    risk1 = risk() if risk else 0.0
    m.restore_plan(before)
    saves = {c: base.spend[c] - after.spend[c] for c in base.spend}
    return ScopeOption(
        response,
        what,
        saves,
        after.loss - base.loss,
        after.score - base.score - (risk1 - risk0),
        after.days - base.days,
        risk is not None,
        change,
        after,
    )


def _ablations(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    f = m.plan.ablations
    if m.recording.phase not in ("setup", "prepare") or f <= 0:
        return None
    full = _priced(m, base, "cut_ablations", "", lambda: m.plan.set_ablations(0.0))
    keep = f * max(0.0, 1.0 - gap / full.saves_usd) if full.saves_usd > gap else 0.0
    what = "no ablations" if keep <= 0 else f"ablations from {f:.0%} to {keep:.1%} of the compute"

    def at_risk() -> float:
        # A wider loss forecast: its expected absolute error, read as score.
        loss = forecast.planned_loss(m)
        spread = forecast.loss_at_risk(m, m.plan.ablations)
        return forecast.planned_score(m) - forecast.planned_score(m, loss + spread)

    return _priced(m, base, "cut_ablations", what, lambda: m.plan.set_ablations(keep), at_risk)


def _tokens(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    run = m.run
    target = run.target_tokens if run is not None else m.plan.tokens
    done = run.tokens if run is not None else 0.0
    if run is not None and done >= TOKEN_CUT_UNTIL * target:
        return None
    floor = max(done, TOKEN_FLOOR_SHARE * m.plan.tokens_scenario)
    most = target - floor
    if most <= 0:
        return None
    full = _priced(m, base, "reduce_tokens", "", lambda: m.plan_tokens(floor))
    if full.saves_usd <= USD_TOLERANCE:
        return None
    cut = most * min(1.0, gap / full.saves_usd)
    new = target - cut
    what = f"the run from {tokens_text(target)} to {tokens_text(new)} tokens"
    return _priced(m, base, "reduce_tokens", what, lambda: m.plan_tokens(new))


def _rounds(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    # The round under way (or the first) is kept whole; later rounds may be cut in part.
    keep_at_least = max(1.0, math.floor(m.plan.rounds_done) + 1.0)
    most = m.plan.rounds - keep_at_least
    if most <= ROUND_EPS:
        return None
    planned = m.plan.rounds
    step = min(1.0, most)
    one = _priced(
        m, base, "fewer_post_training_rounds", "", lambda: m.plan.set_rounds(planned - step)
    )
    if one.saves_usd <= USD_TOLERANCE:
        return None
    # A round's dollars are linear in its share: cut exactly the gap's worth of rounds.
    n = min(most, step * gap / one.saves_usd)
    what = f"post-training from {rounds_words(planned)} to {rounds_words(planned - n)} rounds"
    return _priced(
        m, base, "fewer_post_training_rounds", what, lambda: m.plan.set_rounds(planned - n)
    )


def _eval_scope(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    if m.plan.eval_scope < 1.0 or m.recording.phase in ("evaluation", "release", "done"):
        return None
    what = f"the evaluation campaign and eval sets to {EVAL_SCOPE_SHARE:.0%}"
    return _priced(
        m,
        base,
        "smaller_eval_scope",
        what,
        lambda: m.plan.set_eval_scope(EVAL_SCOPE_SHARE),
        lambda: forecast.measurement_error(m, m.plan.eval_scope),
    )


def _hires(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    planned = m.plan.hires
    if planned <= 0 or m.env.now >= m.scenario.levers.add_core_staff_day:
        return None
    one = _priced(m, base, "fewer_hires", "", lambda: m.plan.set_hires(planned - 1))
    if one.saves_usd <= USD_TOLERANCE:
        return None
    n = min(planned, math.ceil(gap / one.saves_usd))
    what = f"planned hires from {planned} to {planned - n}"
    return _priced(m, base, "fewer_hires", what, lambda: m.plan.set_hires(planned - n))


def _cluster(m: Project, gap: float, base: Outlook) -> ScopeOption | None:
    if m.run is not None or m.recording.phase in PHASES[PHASES.index("training") :]:
        return None
    per_node = m.scenario.cluster.gpus_per_node
    nodes = m.plan.gpus // per_node
    floor = math.ceil(CLUSTER_FLOOR_SHARE * m.scenario.cluster.gpus / per_node)
    best: ScopeOption | None = None
    for share in CLUSTER_CUTS:
        keep = max(floor, nodes - max(1, round(share * nodes)))
        if keep >= nodes:
            continue
        gpus = keep * per_node
        what = f"the cluster from {m.plan.gpus:,} to {gpus:,} GPUs, for longer"
        option = _priced(m, base, "smaller_cluster", what, partial(m.plan.set_cluster, gpus))
        if best is None or option.saves_usd > best.saves_usd:
            best = option
        if option.saves_usd >= gap:
            return option
    return best


PRICERS: dict[str, Callable[[Project, float, Outlook], ScopeOption | None]] = {
    "cut_ablations": _ablations,
    "reduce_tokens": _tokens,
    "fewer_post_training_rounds": _rounds,
    "smaller_eval_scope": _eval_scope,
    "fewer_hires": _hires,
    "smaller_cluster": _cluster,
}


def scope_option(
    m: Project, response: str, gap: float, base: Outlook | None = None
) -> ScopeOption | None:
    """``response`` sized to ``gap`` and priced, if it applies now and saves on a line over.

    ``base``: the plan's :func:`outlook` now, when the caller has it already.
    """
    if base is None:
        base = outlook(m)
    option = PRICERS[response](m, gap, base)
    if option is None or not over_usd(option.saves_usd):
        return None
    over = over_categories(m, base.spend)
    if over and not any(over_usd(option.saves.get(c, 0.0)) for c in over):
        return None
    return option


def scope_options(m: Project, gap: float, base: Outlook | None = None) -> list[ScopeOption]:
    """Every scope option that applies now, cheapest first (score given up per dollar)."""
    if base is None:
        base = outlook(m)
    options = [o for r in SCOPE_RESPONSES if (o := scope_option(m, r, gap, base)) is not None]
    return sorted(options, key=lambda o: (o.price(gap), -o.saves_usd))


def apply_scope(m: Project, option: ScopeOption, when: str) -> None:
    """Make the cut and record it."""
    option.change()
    m.record_scope_cut(
        ScopeCut(
            day=m.env.now,
            response=option.response,
            when=when,
            what=option.what,
            saves_usd=option.saves_usd,
            loss=option.loss,
            score=option.score,
            days=option.days,
            at_risk=option.response in ("cut_ablations", "smaller_eval_scope"),
        )
    )


# --- fitting the plan, and the budget responses --------------------------------------------


def fit_plan_to_budget(m: Project) -> None:
    """At set-up, cut scope until the plan fits the budget less the reserve.

    Cheapest first (the least target score given up per dollar of the gap closed, each
    option priced by the forecasts), each cut sized to what is still over. The playbook's
    ``budget`` entry orders the responses to a slip during the play, not the plan's
    sizing: sized in the playbook's order, the 7B cut its ablations before a cheaper
    post-training round, and its chance of meeting every objective fell from 0.41 to
    0.08 between reserves of 16% and 18% (issue 24.1). The fit reads only the scenario
    (the plan, the budget, the teams on day 0 and expected values, never a replication's
    draws), so it is made once
    per scenario and process (``ScenarioFacts.set_up_fit``) and its plan, cuts and trace
    copied into every later replication: the same numbers at a fraction of the cost.
    """
    known = m.facts.set_up_fit
    if known is None:
        m.facts.set_up_fit = known = _fit(m)
    else:
        m.restore_plan(known.plan)
    m.plan.fitted(known.plan, known.cuts)
    m.recording.copy_in(known.trace, known.incidents)


def _fit(m: Project) -> SetUpFit:
    """Fit the plan on ``m`` (a fresh play at set-up) and return what it did, undone.

    The caller puts what it recorded back, as for any later replication.
    """
    cuts, mark = len(m.plan.scope_cuts), m.recording.mark()
    _fit_plan(m)
    trace, incidents = m.recording.take_since(mark)
    return SetUpFit(m.plan.state(), m.plan.take_cuts_since(cuts), trace, incidents)


def _fit_plan(m: Project) -> None:
    """Close the set-up gap slice by slice, each from the option cheapest at that point.

    Each slice (at most :data:`FIT_SLICE_SHARE` of the budget) goes to the option that
    gives up the least target score per dollar with the plan as the slices before it
    left it: the marginal price, which rises as an option is cut deeper (the first
    post-training round cut costs less than the third), so a larger gap is shared out
    between the options instead of switching from one whole option to another. Sized
    whole, a 1-point larger reserve turned "4 to 3.2 rounds" into "4.00T to 3.55T tokens"
    (the budget-cut follow-up, 13% to 14%: -454B tokens, +7.6 days; ``sim audit``). Each
    option used is then made as one cut, sized to the dollars its slices took; what is
    left over (a cut sized whole is priced again) is closed the same way, at most
    :data:`FIT_PASSES` times.
    """
    for _ in range(FIT_PASSES):
        start = m.plan.state()
        taken = _slices(m)
        if not taken:
            break
        m.restore_plan(start)
        for response, usd in taken.items():
            option = scope_option(m, response, usd)
            if option is not None:
                apply_scope(m, option, AT_SET_UP)
    if over_usd(gap := budget_gap(m)):
        m.recording.trace_event(
            "plan",
            f"The plan is ${gap:,.0f} over its budget less the reserve, with no scope left to cut",
            "budget",
            {"gap_usd": gap},
        )


#: The set-up fit closes its gap in slices of at most this share of the budget (0.5%: a
#: half of the reserve lever's 1-point step, so one step of the reserve moves at most
#: three slices from one option to another).
FIT_SLICE_SHARE = 0.005
#: Passes of the set-up fit (the second closes what the first's cuts, sized whole, left).
FIT_PASSES = 3
#: At most this many slices (a guard: a slice always closes part of the gap or ends it).
FIT_MAX_SLICES = 1000


def _slices(m: Project) -> dict[str, float]:
    """Cut the plan slice by slice until it fits; the dollars each response's slices saved.

    The cuts are made on the plan (not recorded); the caller puts the plan back and makes
    one recorded cut per response.
    """
    size = FIT_SLICE_SHARE * m.ledger.budget_usd
    taken: dict[str, float] = {}
    for _ in range(FIT_MAX_SLICES):
        base = outlook(m)
        gap = base.gap(m)
        if not over_usd(gap):
            break
        step = min(gap, size)
        options = {o.response: o for o in scope_options(m, step, base)}
        if not options:
            break
        order = sorted(options, key=lambda r: options[r].price(step))
        pick = options[_closest(order, options, step)]
        pick.change()
        taken[pick.response] = taken.get(pick.response, 0.0) + pick.saves_usd
    return taken


#: A step that saves more than this many times the gap is passed over for a later option
#: that closes the gap without overshooting.
OVERSHOOT = 2.0


def _closest(order: list[str], options: dict[str, ScopeOption], gap: float) -> str:
    """The first response in ``order``, unless it removes far more than the gap.

    A whole post-training round can save ten times a small gap; then the first later
    option that closes the gap without overshooting is taken instead.
    """
    first = options[order[0]]
    if first.saves_usd <= OVERSHOOT * gap:
        return order[0]
    for r in order[1:]:
        # Continuous cuts are sized by a linear forecast: closing 90% is closing it.
        if 0.9 * gap <= options[r].saves_usd <= OVERSHOOT * gap:
            return r
    return order[0]


def budget_cut(m: Project, fraction: float | None = None) -> Steps:
    s = m.scenario
    share = s.incidents.budget_cut.fraction if fraction is None else fraction
    remaining_compute = max(0.0, s.objective.budget.compute_usd - m.ledger.totals["compute"])
    amount = share * remaining_compute
    m.ledger.cut_budget(amount)
    m.recording.count_incident("budget_cut")
    m.recording.trace_event(
        "budget_cut", f"Leadership cut ${amount:,.0f} of compute budget", "budget"
    )
    yield from close_budget_gap(m, f"after a ${amount:,.0f} cut", {"cut_usd": amount})


def budget_watch(m: Project, tolerance: float = 0.0) -> Steps:
    """The forecast is compared with the budget (at each phase boundary, and on a new bill).

    An episode opens when the gap exceeds what the last episode left decided
    (``Plan.gap_decided``: nothing once it closed the gap, the overrun it
    accepted) by more than ``tolerance`` dollars: nothing at a phase boundary or on a
    new bill, :data:`BUDGET_TOLERANCE_SHARE` of the budget at the owner's weekly look.
    """
    # Spend only (most looks find no gap); the episode's outlook from the same forecast.
    by_phase = forecast.days_by_phase(m)
    lines = projected_lines(m, by_phase)
    gap = _gap(m, lines)
    if over_usd(gap - m.plan.gap_decided - tolerance):
        m.recording.count_incident("budget_slip")
        yield from close_budget_gap(m, ON_FORECAST, {}, _outlook(m, by_phase, lines))


#: Days between the budget owner's looks at the forecast between phase boundaries: the
#: weekly status review (docs/model.md, "Budget responses and the budget watch").
BUDGET_LOOK_DAYS = 7.0
#: Between phase boundaries the owner manages by exception: a weekly look opens a budget
#: episode only when the gap has grown past what was last decided by more than this
#: share of the budget (a cost tolerance, as PRINCE2's; set to the reserve lever's step
#: of 1% of the budget; an assumption, docs/model.md, "Budget responses and the budget
#: watch").
BUDGET_TOLERANCE_SHARE = 0.01


def owner_watch(m: Project) -> Steps:
    """The budget's owner also compares the forecast with the budget every week.

    Nobody owning the budget, the forecast is read only at the phase boundaries, so a slip
    that grows inside a phase (interruptions, a slow team) is met later, with fewer and
    dearer options left. A look while another decision waits, or while a budget response
    is under way, is skipped; a look opens an episode only for a material growth of the
    gap (:data:`BUDGET_TOLERANCE_SHARE`).
    """
    if m.org.owner("budget") is None:
        return
    try:
        while not m.finished:
            yield m.env.timeout(BUDGET_LOOK_DAYS)
            if m.finished or m.pending is not None or m.budget_open:
                continue
            yield from budget_watch(m, BUDGET_TOLERANCE_SHARE * m.ledger.budget_usd)
    except simpy.Interrupt:
        return  # the project is done: the owner stops looking (no look after the release)


def close_budget_gap(
    m: Project, why: str, context: dict[str, Any], base: Outlook | None = None
) -> Steps:
    """Apply the budget responses one by one until the plan fits the budget again.

    The options on offer are the reserve, the scope options that apply (cheapest first,
    each sized to the gap) and accepting the overrun; each once per episode. ``base``:
    the plan's :func:`outlook` now, when the caller has it already.
    """
    with m.budget_response():
        yield from _close_gap(m, why, context, base)


def _close_gap(m: Project, why: str, context: dict[str, Any], now: Outlook | None) -> Steps:
    """The episode's loop; ``now``: the plan's outlook at this moment, if known.

    Each answer is made at a later moment than the look that priced it (the decision
    takes time) and is carried out as the look priced it (:func:`_respond`); when the
    gap is still open after it, the next round starts from a fresh forecast.
    """
    used: set[str] = set()
    while over_usd(gap := (base := outlook(m) if now is None else now).gap(m)):
        priced = [o for o in scope_options(m, gap, base) if o.response not in used]
        options = [o.response for o in priced]
        if over_usd(m.plan.reserve_left) and "use_reserve" not in used:
            options.insert(0, "use_reserve")
        looked = _priced_on(m)
        choice = yield from m.decide(
            "budget",
            detected_by=m.org.owner("budget") or m.org.decider("budget"),
            summary=f"Plan is ${gap:,.0f} over the budget {why}",
            context={"gap_usd": gap, "priced": [o.as_dict() for o in priced], **context},
            options=(*options, "accept_overrun"),
        )
        used.add(choice)
        if choice == "accept_overrun":
            m.recording.trace_event("budget", f"Budget response: accept an overrun of ${gap:,.0f}")
            m.plan.decide_gap(gap)  # decided: a look reopens it only once it grows
            return
        as_priced = {o.response: o for o in priced} if _priced_on(m) == looked else {}
        now, current = _respond(m, choice, why, base, as_priced)
        if not current and over_usd(now.gap(m)):
            now = None  # still over after the look's answer: the next round looks again
    m.plan.decide_gap(0.0)  # the gap is closed


def _priced_on(m: Project) -> tuple[Any, ...]:
    """What a look's pricing of a cut rests on: the phase, the plan's scope and its progress.

    While none of it has moved, a cut priced at the look is carried out as priced when the
    answer arrives; otherwise it is priced again then.
    """
    run = m.run
    return (m.recording.phase, m.plan.state(), m.plan.rounds_done, run and run.tokens)


def _respond(
    m: Project, choice: str, why: str, look: Outlook, as_priced: dict[str, ScopeOption]
) -> tuple[Outlook, bool]:
    """Carry out ``choice`` as the look (``look``, its outlook) priced it.

    The reserve released is the gap the look found (the reserve moves the gap, not the
    forecast); a cut is the look's, when nothing it was priced on has moved
    (``as_priced`` holds it), else priced again now. Returns the outlook with the answer
    made, and whether it is of this moment (``False``: the look's).
    """
    if choice == "use_reserve":
        used = min(look.gap(m), m.plan.reserve_left)  # what the look asked for
        m.plan.use_reserve(used)
        m.recording.trace_event("budget", f"Budget response: ${used:,.0f} of the reserve released")
        return look, False
    option = as_priced.get(choice)
    if option is not None:
        apply_scope(m, option, why)
        return option.after, False
    base = outlook(m)
    option = scope_option(m, choice, base.gap(m), base)
    if option is None:
        return base, True
    apply_scope(m, option, why)
    return option.after, True
