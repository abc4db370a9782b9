"""What happens in each phase of a project, and the responses to found defects and cuts.

Each phase is a generator over a :class:`~sim.engine.project.Project`, named as in
:data:`~sim.scenario.spec.PHASES` (:data:`STEPS` maps each name to its function);
:class:`~sim.engine.model.ProjectModel` runs them in order. docs/model.md, "The phases".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Generator
from typing import Any

import simpy

from sim.engine.budget import (
    ablation_compute_usd,
    budget_gap,
    budget_watch,
    licences,
    round_cost,
)
from sim.engine.forecast import ablation_days, forecast_days
from sim.engine.incidents import BAKED_IN, IN_THE_EVALS, Defect
from sim.engine.novelty import ABLATION_RERUN_SHARE, effective_ablation_fraction
from sim.engine.plan import ROUND_EPS
from sim.engine.politics import FINDING_CATCH
from sim.engine.project import Project
from sim.engine.quality import (
    DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK,
    OVERLAP_SCAN_USD_PER_TRILLION,
    data_work_person_days,
)
from sim.engine.review import legal_engaged, review_strength
from sim.engine.safety import fix_days as safety_fix_days
from sim.engine.signals import read_figure
from sim.engine.training import Steps, TrainingRun
from sim.format import days as days_text
from sim.format import percent, points
from sim.scenario.spec import DECISION_OPTIONS, ROLE_CO_DESIGN, Gate
from sim.scenario.vocabulary import review_words, sentence, words
from sim.units import PersonDays, TeamId, later_than, over_usd

#: Caps on repeated responses to an eval gap.
MAX_EXTRA_ROUNDS = 3
#: After a run, continuing on fixed data costs this share of the run again.
CONTINUE_AFTER_FIX_SHARE = 0.25

#: Data work before a product-targeted retune after an eval gap (person-days).
RETUNE_DATA_PERSON_DAYS = 20.0
#: Extra effort of a release-blocking safety finding for post-training (a safety-tuning round).
SAFETY_TUNING_ROUNDS = 1
#: People of the safety team on a fix found by the model review (its days become work).
SAFETY_FIX_PEOPLE = 2.0
#: Defects fixed before any training: no right to train on unlicensed data, and no run
#: on a tokenizer or config that its checkpoint would carry (BAKED_IN).
FIX_BEFORE_TRAINING = frozenset({"licensing"}) | BAKED_IN


def prepare(m: Project) -> Steps:
    for note, usd in licences(m):
        m.ledger.charge(m.env.now, "data_licensing", usd, note)
    safety = m.org.owner("safety") or m.org.decider("ship")
    yield from m.run_workstreams(
        "prepare",
        ("safety review", safety, m.env.process(_early_safety(m))),
        ("contributions", m.org.training_team, m.env.process(_integrate_contributions(m))),
        ("data work", data_team(m), m.env.process(_data_work(m))),
    )


def data_team(m: Project) -> TeamId:
    """Who does the extra data work: the owner of the plan's data work, else of data quality."""
    for w in m.scenario.plan.workstreams:
        if w.role == "data":
            return w.owner
    return m.org.owner("data_quality") or m.org.training_team


def _data_work(m: Project) -> Steps:
    """Extra data work (``levers.data_investment_usd``) takes the data team's time too.

    Its person-days (:func:`~sim.engine.quality.data_work_person_days`) run beside the
    phase's workstreams, on the same people, before training can start.
    """
    effort = data_work_person_days(m.scenario.levers.data_investment_usd)
    if effort > 0:
        m.recording.trace_event(
            "data work", f"Extra data work: {effort:.0f} person-days", data_team(m)
        )
        yield from m.staff.work(data_team(m), effort, ROLE_CO_DESIGN["data"], "data work")
    yield from _decontaminate(m)


def _decontaminate(m: Project) -> Steps:
    """Decontamination (``levers.decontaminate``): the data team's days and the scan's CPU.

    The team scans the corpus for each public benchmark's items and removes them, after
    any extra data work and beside the phase's workstreams (docs/model.md,
    "Contamination").
    """
    s = m.scenario
    public = [e for e in s.objective.evals if e.kind == "public_benchmark"]
    if not s.levers.decontaminate or not public:
        return
    effort = DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK * len(public)
    scan = OVERLAP_SCAN_USD_PER_TRILLION * len(public) * m.plan.tokens / 1e12
    m.ledger.charge(m.env.now, "compute", scan, "benchmark overlap scan")
    m.recording.trace_event(
        "data work",
        f"Decontamination against {len(public)} public benchmarks: {effort:.0f} person-days",
        data_team(m),
    )
    yield from m.staff.work(data_team(m), effort, ROLE_CO_DESIGN["data"], "decontamination")


def _integrate_contributions(m: Project) -> Steps:
    """The training team folds the proposed contributions into the recipe (co-design work)."""
    effort = m.contributions.integration_person_days
    if effort > 0:
        yield from m.staff.work(
            m.org.training_team, effort, ROLE_CO_DESIGN["recipe"], "contributions"
        )


def safety_engaged(m: Project) -> bool:
    """Safety, legal and privacy engaged from the start (the lever and an owner of the risk)."""
    return m.scenario.levers.safety_from_start and m.org.owner("safety") is not None


def _early_safety(m: Project) -> Steps:
    """Safety and legal engaged from the start review the data: findings come early and cheap."""
    if not safety_engaged(m):
        return
    for _ in m.safety.review("prepare", m.scenario.incidents.safety.review_strength):
        m.recording.count_incident("safety_finding")
        m.recording.trace_event(
            "safety", "Data review found a safety or legal issue; fixed early", "safety"
        )
        yield m.env.timeout(safety_fix_days(m.scenario, "prepare"))


def _model_review(m: Project) -> None:
    """An engaged safety team reviews the model as training ends; fixes run beside post-training."""
    if not safety_engaged(m):
        return
    owner = m.org.owner("safety") or m.org.decider("ship")
    for issue in m.safety.review("training", m.scenario.incidents.safety.review_strength):
        m.recording.count_incident("safety_finding")
        m.recording.trace_event(
            "safety", "Model review found an issue; fixed during post-training", owner
        )
        effort = SAFETY_FIX_PEOPLE * safety_fix_days(m.scenario, "training")
        fix = m.staff.work(
            owner, effort, ROLE_CO_DESIGN["safety_review"], f"safety fix {issue.index}"
        )
        m.safety_work.append(m.env.process(fix))


def ablations(m: Project) -> Steps:
    """Ablation and scaling-law runs on a share of the cluster; failed recipes run again."""
    m.reservation.begin()
    reruns = m.draws.ablation_reruns
    factor = 1.0 + ABLATION_RERUN_SHARE * reruns
    days = ablation_days(m, factor)
    cost = ablation_compute_usd(m, factor)

    def experiments() -> Steps:
        if days > 0:
            if reruns:
                m.recording.count_incident("ablation_rerun")
                m.recording.trace_event(
                    "ablations",
                    f"{reruns} ablation campaign(s) failed and ran again (a novel recipe)",
                    m.org.training_team,
                )
            yield m.env.timeout(days)
            m.reservation.charge_compute(cost, "ablations and scaling-law runs", "ablation_compute")

    yield from m.run_workstreams(
        "ablations", ("ablation experiments", m.org.training_team, m.env.process(experiments()))
    )
    for c in m.contributions.judge(m.plan.ablations):
        verdict = "kept" if c.kept else "dropped: the experiments say it hurts"
        m.recording.trace_event(
            "contribution", f"{c.spec.id} ({c.spec.team}) {verdict}", c.spec.team
        )


def _research_findings(m: Project) -> Steps:
    """Findings of evergreen research that reached the training team catch hidden defects."""
    now = m.env.now
    for k, f in enumerate(m.findings):
        if f.delivered_day > now:
            break
        for d in m.defects.defects:
            if not d.hidden:
                continue
            u = m.streams.entity_uniform("research", f"finding{k}/{d.source.key}")
            if u < FINDING_CATCH:
                m.defects.mark_found(d, now, f"research from {f.team}")
                yield from handle_defect(m, d)


def training(m: Project) -> Steps:
    yield from _research_findings(m)
    label = "Adaptation run" if m.scenario.levers.strategy == "adapt" else "Main run"
    run = m.start_run(label)
    m.defects.start_monitoring(m.env.now, m.org)
    yield from m.run_workstreams(
        "training", ("training run", m.org.training_team, m.env.process(run.process()))
    )
    m.defects.stop_monitoring()
    m.end_run()
    _model_review(m)


def post_training(m: Project) -> Steps:
    yield from schedule_check(m)
    yield from m.run_workstreams(
        "post_training", ("post-training rounds", m.post_training_team, m.env.process(_rounds(m)))
    )
    m.reservation.end()


def _rounds(m: Project) -> Steps:
    while m.plan.rounds - m.plan.rounds_done > ROUND_EPS:
        yield from post_training_round(m, share=m.plan.round_share())


def post_training_round(
    m: Project, label: str = "post-training round", share: float = 1.0
) -> Steps:
    """A round: the team's work, at least ``round_days_min``, and its own compute.

    SFT, preference tuning and RL with rollouts run on a share of the cluster; the round
    lasts as long as the longest of the three. A shorter last round (``share`` < 1, a
    plan cut to fit its budget by part of a round) does that share of the work, the
    minimum days, the compute and the annotation: scope shrinks with the dollars cut.
    """
    s = m.scenario
    start = m.env.now
    effort = s.model.round_person_days * m.round_effort_multiplier() * share
    key = f"round{m.plan.round_index()}"
    yield from m.staff.work(m.post_training_team, effort, s.plan.post_training_co_design, key=key)
    rest = share * max(s.model.round_days_min, m.plan.round_compute_days()) - (m.env.now - start)
    if rest > 0:
        yield m.env.timeout(rest)
    annotation, _ = round_cost(m)
    m.ledger.charge(m.env.now, "annotation", share * annotation, label)
    m.reservation.charge_compute(share * m.plan.round_compute_usd, label, "post_training_compute")
    factor, spoilers = (
        m.defects.round_factor(start, m.env.now) if m.rounds_train_on_project_data else (1.0, ())
    )
    m.round_done(share, share * (1.0 - factor))
    done = (
        f"{m.plan.rounds_done:.0f}"
        if share == 1.0
        else f"{m.plan.rounds_done:.2g} (a shorter round)"
    )
    spoilt = ""
    if spoilers:
        kinds = " and ".join(words(d.kind) for d in spoilers)
        spoilt = (
            f"; trained on data with the {kinds} defect, it counts as {percent(factor)} of a round"
        )
    m.recording.trace_event(
        "round", f"{label.capitalize()} {done} done{spoilt}", m.post_training_team
    )


def schedule_check(m: Project, detected_by: TeamId | None = None) -> Steps:
    """The trade-off right weighs the forecast finish against the deadline (docs/model.md).

    At the start of post-training, and after an objective change (``detected_by``: who
    re-forecasts then; else the staffing owner watches the schedule).
    """
    s = m.scenario
    projected = m.env.now + forecast_days(m)
    deadline = s.objective.deadline_days
    if not later_than(projected, deadline):
        return
    m.recording.count_incident("schedule_slip")
    options = ["add_core_staff", "accept_slip"]
    if m.plan.rounds > 1:
        options.insert(0, "cut_post_training_rounds")
    choice = yield from m.decide(
        "schedule",
        detected_by=detected_by or m.org.owner("staffing") or m.org.decider("schedule"),
        summary=f"Forecast finish day {projected:.0f} is past the deadline (day {deadline:.0f})",
        context={"projected_day": projected, "deadline_day": deadline},
        options=tuple(options),
    )
    if choice == "cut_post_training_rounds":
        cut = (projected - deadline) / m.round_days()
        m.plan.set_rounds(max(1.0, m.plan.rounds - cut))
    elif choice == "add_core_staff":
        m.add_core_staff(max(2, s.levers.add_core_staff), "schedule decision")


def evaluation(m: Project) -> Steps:
    yield from m.run_workstreams("evaluation")


def ship_call(m: Project) -> Steps:
    """Evaluation's close, after its gates' verdicts: measure, then the eval-gap loop.

    Work redone for a changed objective comes first: the new objective's evals, and the
    post-training rounds whose gains it spoiled (sim/engine/objectives.py).
    """
    yield from objective_rework(m)
    m.measure_quality()
    yield from _eval_gap(m)


def objective_rework(m: Project) -> Steps:
    """Wait for the evaluation work an objective change redoes, then run its rounds again.

    Rounds lost during post-training are run again by its own loop; those lost later run
    here (never more than the plan still lacks).
    """
    under_way = [p for p in m.objective_work if p.is_alive]
    if under_way:
        yield simpy.AllOf(m.env, under_way)
    owed = m.plan.take_rounds_to_redo()
    while owed > ROUND_EPS:
        share = min(1.0, owed)
        yield from post_training_round(m, "post-training round redone for the new objective", share)
        owed -= share


def _eval_gap(m: Project) -> Steps:
    """The ship call: the results travel to the holder of ``ship``, who applies its rule to them.

    A missed target is raised by whoever watches the eval gap (:func:`_notice_eval_gap`);
    met results go from the team holding them. Either way the holder reads the scores as
    they reached it (:func:`scores_as_read`): "an extra round while a target is missed" is
    applied to what it reads, not to the truth, so a holder far from the evaluation ships
    some misses and runs extra rounds on some passes (docs/model.md, "Decisions close to the
    work"). Reading every target met, it ships after the news has reached it.
    """
    for call in itertools.count():
        missed = m.missed_targets()
        if missed:
            m.recording.count_incident("eval_gap")
            detected_by = yield from _notice_eval_gap(m)
        else:
            detected_by = _results_team(m)
        read, hops = scores_as_read(m, detected_by, call)
        thresholds = {t.eval: t.threshold for t in m.scenario.objective.targets}
        seen = {e: v for e, v in read.items() if v < thresholds[e]}
        holder = m.org.decider("ship")
        if not seen:
            yield m.env.timeout(m.decision_latency("ship", detected_by, ("ship",)))
            measured = (
                " (measured: "
                + ", ".join(f"{words(e)} {points(m.latest_evals[e].score)}" for e in missed)
                + ")"
                if missed
                else ""
            )
            m.recording.trace_event(
                "release call",
                f"{sentence(words(holder))} read every target as met and shipped: "
                + ", ".join(f"{words(e)} {points(v)}" for e, v in read.items())
                + measured,
                holder,
                {"read": _rounded(read), "hops": hops, "missed": missed},
            )
            return
        options = ["ship"]
        annotation, compute = round_cost(m)
        # An extra round costs its annotation, its compute and every salary of its days; the
        # plan pays it from what it has, not from the reserve still held back (the reserve
        # is for slips, released by the budget's holder when the forecast runs over).
        salaries = m.round_days() * m.staff.salaries_per_day()
        affordable = not over_usd(budget_gap(m) + annotation + compute + salaries)
        if m.plan.extra_rounds < MAX_EXTRA_ROUNDS and affordable:
            options = list(DECISION_OPTIONS["ship"])
        scores = {e: round(m.latest_evals[e].score, 3) for e in missed}
        choice = yield from m.decide(
            "ship",
            detected_by=detected_by,
            summary="Targets missed: "
            + ", ".join(f"{words(e)} {points(v)}" for e, v in seen.items()),
            context={"missed": scores, "read": _rounded(read), "hops": hops},
            options=tuple(options),
        )
        if choice == "ship":
            return
        m.plan.add_extra_round()
        if choice == "fix_data_and_retune":
            owner = m.org.owner("data_quality") or m.post_training_team
            key = f"retune{m.plan.extra_rounds}"
            yield from m.staff.work(owner, RETUNE_DATA_PERSON_DAYS, ROLE_CO_DESIGN["data"], key)
            m.plan.post_training_data_fixed()
        yield from post_training_round(m, "extra round")
        m.measure_quality()


def scores_as_read(m: Project, detected_by: TeamId, call: int) -> tuple[dict[str, float], int]:
    """The targets' scores as they reach the holder of ``ship``, and the hops they travelled.

    The team that measured them knows each to within its eval set's sampling error,
    ``sqrt(p (1 - p) / items)``; every hop to the holder keeps
    :data:`~sim.engine.signals.INFORMATION_KEPT_PER_HOP` of that precision
    (:func:`~sim.engine.signals.read_figure`). The draw is the reading's own (the
    ``reading`` stream, keyed by the ship call's number and the eval), so every org reads
    the same error, scaled by its distance; at the work itself it reads the measurement.
    """
    hops = m.org.signal_path(detected_by, m.org.decider("ship")).hops
    # Without variability the evals have no sampling error: exact wherever they are read.
    noisy = hops > 0 and m.scenario.incidents.variability
    evals = {e.id: e for e in m.scenario.objective.evals}
    read: dict[str, float] = {}
    for t in m.scenario.objective.targets:
        result = m.latest_evals.get(t.eval)
        if result is None:
            continue
        p = min(1.0, max(0.0, result.score))
        own = math.sqrt(p * (1.0 - p) / max(1.0, evals[t.eval].items * m.plan.eval_scope))
        if noisy:
            z = m.streams.entity_normals("reading", f"ship#{call}/{t.eval}")[0]
            read[t.eval] = read_figure(result.score, own, hops, z)
        else:
            read[t.eval] = result.score
    return read, hops


def _rounded(scores: dict[str, float]) -> dict[str, float]:
    return {e: round(v, 3) for e, v in scores.items()}


def _results_team(m: Project) -> TeamId:
    """Who holds the evaluation's results: the eval gap's owner, else the team that ran it."""
    owner = m.org.owner("eval_gap")
    if owner is not None:
        return owner
    evaluators = [w.owner for w in m.facts.in_phase["evaluation"]]
    return evaluators[0] if evaluators else m.org.decider("ship")


def _notice_eval_gap(m: Project) -> Generator[simpy.Event, Any, TeamId]:
    """Who raises a missed target, after how long (docs/model.md, "Eval gap loop").

    The owner of ``eval_gap`` reads the results as they come and raises the gap at once.
    Nobody owning it, the results sit with the team that ran the evaluation until the
    project's next routine look at them (a uniform share of ``org.eval_interval_days``,
    keyed by the gap's number), and that team raises it.
    """
    owner = m.org.owner("eval_gap")
    if owner is not None:
        return owner
    team = _results_team(m)
    u = m.streams.entity_uniform("signals", f"eval_gap#{m.recording.incidents['eval_gap']}")
    yield m.env.timeout(u * m.scenario.org.eval_interval_days)
    m.recording.trace_event(
        "signal", "Nobody owns the eval gap: missed targets seen at the routine review", team
    )
    return team


def release(m: Project) -> Steps:
    review = m.org.owner("safety") or m.org.decider("ship")
    yield from m.run_workstreams(
        "release", ("release review", review, m.env.process(_release_review(m)))
    )
    yield from objective_rework(m)


def _release_review(m: Project) -> Steps:
    s = m.scenario
    if m.safety_work:
        yield simpy.AllOf(m.env, m.safety_work)
    found = m.safety.review("release", s.incidents.safety.review_strength)
    for _ in found:
        m.recording.count_incident("safety_finding")
        m.recording.trace_event("safety", "Release review found a release-blocking issue", "safety")
        yield m.env.timeout(safety_fix_days(s, "release"))
    if found:
        for _ in range(SAFETY_TUNING_ROUNDS):
            yield from post_training_round(m, "safety tuning round")
    for d in m.defects.defects:
        if d.kind == "licensing" and d.hidden:
            m.defects.mark_found(d, m.env.now, "legal sign-off")
            yield from handle_defect(m, d)


def gates_after(m: Project, phase: str) -> Steps:
    """Each gate's verdict, once its phase's work and its review are done: what it caught."""
    legal = legal_engaged(m.scenario, m.org)
    for gate, effort in m.facts.gate_reviews[phase]:
        _note_review(m, gate, effort)
        ablations = effective_ablation_fraction(m.plan.ablations, m.scenario.model.novelty)
        for d in m.defects.gate(gate, m.org, ablations, legal):
            m.defects.mark_found(d, m.env.now, gate.id)
            yield from handle_defect(m, d)


def _note_review(m: Project, gate: Gate, effort: dict[TeamId, PersonDays]) -> None:
    """The trace line of a gate's review: its teams' person-days and the days it took."""
    if not effort:
        return
    days = m.recording.review_days.get(gate.id, 0.0)
    teams = ", ".join(f"{words(t)} {e:.1f}" for t, e in effort.items())
    m.recording.trace_event(
        "gate",
        f"{sentence(review_words(gate.id))}, set to catch "
        f"{percent(review_strength(gate.strength))} of the defects it looks for: {teams} "
        f"person-days over {days_text(days)} beside the phase's work",
        next(iter(effort)),
        {"gate": gate.id, "person_days": effort, "days": days},
    )


def fix_team(m: Project, d: Defect) -> str:
    """Who does the fix.

    The data team for data defects (even a licence problem legal found); the team
    owning the training config for tokenizer and config defects.
    """
    if d.kind == "tokenizer_config":
        return m.org.owner("tokenizer_config") or m.org.training_team
    return m.org.owner("data_quality") or m.org.decider("data_fix")


def fix_co_design(d: Defect) -> float:
    """Co-design a fix needs: recipe work for tokenizer and config, data work otherwise."""
    return ROLE_CO_DESIGN["recipe" if d.kind == "tokenizer_config" else "data"]


def fix_key(d: Defect) -> str:
    """The fix's own stream key (its noise draw): the defect source's identity."""
    return f"fix:{d.source.key}"


def handle_defect(m: Project, d: Defect) -> Steps:
    """A found defect: cheap to fix before the run, costlier the further the run has gone."""
    m.recording.count_incident(f"defect_{d.kind}")
    owner = m.org.owner(d.kind) or m.org.decider("data_fix")
    fixer = fix_team(m, d)
    where = d.found_at or "monitoring"
    m.recording.trace_event(
        "defect", f"{sentence(words(d.kind))} defect found ({words(where)})", owner
    )
    run = m.run
    if run is not None and m.run_finished and d.kind in IN_THE_EVALS:
        yield from _rescore(m, d)
        return
    if run is None:
        if d.kind in FIX_BEFORE_TRAINING:
            yield from m.staff.work(fixer, d.source.fix_person_days, fix_co_design(d), fix_key(d))
            m.defects.fix(d, m.env.now)
        else:
            # Nothing waits for the fix: a run that starts before it lands trains on the bad
            # data until then and trains back what it spoiled, as a fix during the run does,
            # but from a sooner start (docs/model.md, "Handling a found defect").
            m.env.process(_fix_in_background(m, d, fixer))
        return
    options: tuple[str, ...] = DECISION_OPTIONS["data_fix"]
    if d.kind == "licensing":
        options = ("fix_and_continue", "fix_and_restart")
    progress = run.tokens / max(run.target_tokens, 1.0)
    choice = yield from m.decide(
        "data_fix",
        detected_by=owner,
        summary=f"{d.kind.replace('_', ' ')} defect found with the run {progress:.0%} done",
        context={"defect": d.kind, "progress": progress, "found_at": where},
        options=options,
    )
    if choice == "accept":
        return
    during_run = not m.run_finished
    if choice == "fix_and_continue" and during_run:
        # Training goes on while the owner fixes the data; bad tokens accrue until then.
        m.env.process(_fix_in_background(m, d, fixer))
        return
    started = m.env.now
    yield from m.staff.work(fixer, d.source.fix_person_days, fix_co_design(d), fix_key(d))
    if during_run:
        run.bill(m.env.now - started, "cluster idle while the data was fixed")
    m.defects.fix(d, m.env.now)
    m.model_changed()
    if choice == "fix_and_restart":
        run.restart_from(0.0)
        m.defects.reset_tokens()
        if not during_run:
            m.plan.redo_rounds()
            yield from _retrain(m, run, run.target_tokens, "full retrain after late fix")
    elif not during_run:
        # Continued training repairs some of the damage, never more: the model can be no
        # better than a clean run of the plan (docs/model.md, "Late fixes").
        m.plan.cap_tokens(run.target_tokens * run.recipe_token_factor)
        d.affected_tokens *= 0.5
        extra = CONTINUE_AFTER_FIX_SHARE * run.target_tokens
        yield from _retrain(m, run, run.tokens + extra, "continued training on fixed data")


def _rescore(m: Project, d: Defect) -> Steps:
    """Contamination found after the run: drop the leaked items and measure again.

    The model is not trained again (what it saw is in its weights); the evaluation team
    runs the same overlap analysis as decontamination, against the benchmarks this time
    (``DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK`` each), and the calls read clean items.
    """
    team = m.org.owner(d.kind) or fix_team(m, d)
    public = sum(e.kind == "public_benchmark" for e in m.scenario.objective.evals)
    effort = DECONTAMINATION_PERSON_DAYS_PER_BENCHMARK * max(1, public)
    yield from m.staff.work(team, effort, ROLE_CO_DESIGN["evals"], fix_key(d))
    m.defects.fix(d, m.env.now)
    m.model_changed()
    m.recording.trace_event(
        "defect", "The leaked benchmark items are dropped and the model measured again", team
    )


def _fix_in_background(m: Project, d: Defect, owner: str) -> Steps:
    """The fix while the run trains on; then the run trains back what the bad data spoiled.

    Every token trained on the defect lost ``quality_penalty`` of its value, so the plan's
    effective tokens need ``quality_penalty * affected tokens`` more clean ones (the
    retraining share, paid in compute and calendar; docs/model.md, "Handling a found
    defect"). A run that ended before the fix landed keeps the damage.
    """
    yield from m.staff.work(owner, d.source.fix_person_days, fix_co_design(d), fix_key(d))
    m.defects.fix(d, m.env.now)
    m.model_changed()
    m.recording.trace_event(
        "defect", f"{sentence(words(d.kind))} fix is in; the run trains on clean data", owner
    )
    run = m.run
    if run is None or m.run_finished or run.tokens >= run.target_tokens:
        return
    if d.kind in BAKED_IN:
        # The checkpoint carries the defect: every token so far is trained again.
        m.recording.trace_event(
            "retrain",
            f"The run starts again from scratch: its {run.tokens / 1e9:,.0f}B tokens were "
            f"trained with the {d.kind.replace('_', ' ')} defect built in",
            owner,
        )
        m.recording.count_incident("retraining_share")
        run.restart_from(0.0)
        m.defects.reset_tokens()
        yield from budget_watch(m)
        return
    extra = retraining_tokens(d)
    if extra > 0:
        # Into the plan's tokens too, so a re-priced plan keeps it.
        m.plan_tokens(run.target_tokens + extra)
        m.recording.count_incident("retraining_share")
        m.recording.trace_event(
            "retrain",
            f"The run trains {extra / 1e9:,.0f}B more tokens to make up what the "
            f"{d.kind.replace('_', ' ')} defect spoiled",
            owner,
        )
        # The longer run is a plan change with a bill: the budget owner checks the
        # forecast now, not at the next phase boundary (docs/model.md, "Handling a found
        # defect"); a cut to tokens then trains back only what the budget affords.
        yield from budget_watch(m)


def retraining_tokens(d: Defect) -> float:
    """Clean tokens that make up a fixed defect's damage: its penalty times the tokens it spoiled.

    Effective tokens after ``E`` more clean ones are ``(T + E) - penalty * A``, the clean
    run's ``T`` at ``E = penalty * A`` (one defect; docs/model.md).
    """
    return d.source.quality_penalty * d.affected_tokens


def _retrain(m: Project, run: TrainingRun, target: float, note: str) -> Steps:
    m.recording.trace_event("retrain", note.capitalize())
    m.plan_tokens(target)
    yield m.env.process(run.process())
    if m.plan.rounds_done == 0:
        while m.plan.rounds - m.plan.rounds_done > ROUND_EPS:
            yield from post_training_round(m, "post-training round (redo)", m.plan.round_share())


def defect_found_during_run(m: Project, run: TrainingRun) -> Steps:
    for d in m.defects.due(m.env.now):
        m.defects.mark_found(d, m.env.now, "run monitoring")
        yield from handle_defect(m, d)


#: What closes a phase after its gates' verdicts: a release gate informs the ship call.
CLOSES: dict[str, Callable[[Project], Steps]] = {"evaluation": ship_call}

#: Each phase's steps, by name (the names of :data:`~sim.scenario.spec.PHASES`, a test checks).
STEPS: dict[str, Callable[[Project], Steps]] = {
    "prepare": prepare,
    "ablations": ablations,
    "training": training,
    "post_training": post_training,
    "evaluation": evaluation,
    "release": release,
}
