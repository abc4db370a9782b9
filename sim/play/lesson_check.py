"""Which lessons this play shows: each intervention replayed on the same world, beyond noise.

For a play (scenario + seed + decision log) every :class:`~sim.play.lessons.Intervention`
is replayed on the play's own world (same seed and replication, the facilitator's injects
at their days, the logged answers where the same decision comes up, the rest by the
scenario's playbook as the engine decides it, ad hoc where the playbook is silent). A
lesson is shown only when its difference is

- **material** on this world: at least :data:`MATERIAL_DAYS` days, :data:`MATERIAL_BUDGET_SHARE`
  of the budget, :data:`MATERIAL_SCORE` of the mean target score, or a quality target
  met or missed; and
- **not noise**: on :data:`NEIGHBOUR_WORLDS` neighbouring worlds (the next replications of
  the play's seed, common random numbers, the same injects; every decision there answered
  by the scenario's playbook, ad hoc where it is silent, as ``sim run`` decides, since a
  log's answers belong to its own world) the paired 95% interval of that difference
  excludes zero on the same side.

Both arms' tokens trained and post-training rounds are reported (equal scope); a
difference in them is flagged, since part of the effect is then a scope cut.
docs/model.md, "Debrief", states the rule and its constants.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from scipy import stats

from sim.compare.designs import apply_delta
from sim.compare.runner import open_executor
from sim.engine.decisions import Decider, DecisionPoint, LogDecider, make_decider
from sim.play.game import Game, Injection, PlayError, PlayLog
from sim.play.lessons import INTERVENTIONS, LESSONS_BY_ID, Change, Intervention, PlayFacts
from sim.scenario.loading import ScenarioError
from sim.scenario.spec import Scenario

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]

#: A schedule difference smaller than this (days) is not material.
MATERIAL_DAYS = 1.0
#: A cost difference smaller than this share of the total budget is not material.
MATERIAL_BUDGET_SHARE = 0.005
#: A difference in the mean measured score of the target evals smaller than this is not.
MATERIAL_SCORE = 0.005
#: Neighbouring worlds the noise check replays (the next replications of the play's seed).
NEIGHBOUR_WORLDS = 30
#: Most neighbouring worlds a caller may ask for.
MAX_WORLDS = 200
#: Confidence of the paired interval (Student t over the neighbouring worlds).
CONFIDENCE = 0.95
#: Tokens trained that differ by more than this share, or any difference in post-training
#: rounds, make the two arms differ in scope.
SCOPE_TOKENS_SHARE = 0.005
#: Metrics compared, in the order a line states them.
METRICS = ("schedule_days", "cost_usd", "quality", "quality_met")


# --- one arm of a comparison ---------------------------------------------------------------


@dataclass(frozen=True)
class Measure:
    """What a line compares in one arm on one world (the objective's own measures)."""

    schedule_days: float
    cost_usd: float
    quality: float
    """Mean measured score of the target evals (what ``quality_met`` judges)."""
    quality_met: bool
    loss: float
    tokens_b: float
    post_training_rounds: int
    scores: tuple[tuple[str, float], ...]
    """Measured score of each target eval."""
    injects_missed: int = 0
    """The play's injects that found nothing to strike in this arm (see :meth:`Arm.play`)."""

    def value(self, metric: str) -> float:
        return float(getattr(self, metric))

    def as_dict(self) -> dict[str, Any]:
        return {
            "schedule_days": self.schedule_days,
            "cost_usd": self.cost_usd,
            "quality": self.quality,
            "quality_met": self.quality_met,
            "loss": self.loss,
            "tokens_b": self.tokens_b,
            "post_training_rounds": self.post_training_rounds,
            "scores": dict(self.scores),
            "injects_missed": self.injects_missed,
        }


def measure(row: Mapping[str, Any], scenario: Scenario) -> Measure:
    """The :class:`Measure` of an outcome row; quality over the scenario's targets."""
    scores = tuple(
        (t.eval, float(row.get(f"score:{t.eval}", 0.0))) for t in scenario.objective.targets
    )
    return Measure(
        schedule_days=float(row["schedule_days"]),
        cost_usd=float(row["cost_usd"]),
        quality=sum(v for _, v in scores) / len(scores) if scores else 0.0,
        quality_met=bool(row["quality_met"]),
        loss=float(row["loss"]),
        tokens_b=float(row["tokens_b"]),
        post_training_rounds=int(row["post_training_rounds"]),
        scores=scores,
        injects_missed=int(row.get("injects_missed", 0)),
    )


class Reanswer:
    """Wraps a decider: an answer listed in ``answers[kind]`` becomes the option it maps to."""

    name = "reanswer"

    def __init__(self, inner: Decider, answers: Mapping[str, Mapping[str, str]]) -> None:
        self.inner = inner
        self.answers = answers

    def decide(self, point: DecisionPoint) -> str | None:
        choice = self.inner.decide(point)
        return choice if choice is None else remap(point.kind, choice, point.options, self.answers)


def remap(
    kind: str, choice: str, options: Sequence[str], answers: Mapping[str, Mapping[str, str]]
) -> str:
    instead = answers.get(kind, {}).get(choice)
    return instead if instead is not None and instead in options else choice


@dataclass(frozen=True)
class Arm:
    """One side of a comparison, picklable: a scenario, the logged answers, the injects."""

    scenario: Scenario
    choices: Mapping[str, str]
    answers: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    injections: tuple[Injection, ...] = ()

    def play(self, seed: int, replication: int) -> dict[str, Any]:
        """Play this arm on world ``(seed, replication)`` to its outcome row.

        Logged answers hold where the same decision (``kind#n``) comes up with that option
        on offer; anything else is answered by the scenario's playbook, ad hoc where it is
        silent (the engine's ``playbook`` policy, as ``sim run`` decides). Each inject
        strikes at its day; one that no longer fits (a loss spike when no run is in
        progress) is left out and counted in the row's ``injects_missed``.
        """
        game = Game(self.scenario, seed, replication)
        playbook = make_decider(
            "playbook", self.scenario.levers.playbook, game.model.streams["decisions"]
        )
        auto = Reanswer(LogDecider(self.choices, playbook), self.answers)
        missed = 0
        for inj in sorted(self.injections, key=lambda i: i.day):
            _run_until(game, auto, inj.day)
            if game.finished:
                missed += 1
                continue
            try:
                game.inject(inj.kind, **inj.params)
            except PlayError:
                missed += 1
        row = game.play_to_end(auto)
        row["injects_missed"] = missed
        return row


def _run_until(game: Game, auto: Decider, day: float) -> None:
    """Advance to ``day``, answering every decision on the way with ``auto``."""
    while not game.finished:
        point = game.advance(until_day=day)
        if point is None:
            return
        game.decide(auto.decide(point) or point.options[0])


def play_worlds(arm: Arm, seed: int, reps: Sequence[int]) -> list[Measure]:
    """The arm on several worlds (one task for an executor)."""
    return [measure(arm.play(seed, r), arm.scenario) for r in reps]


# --- statistics -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """Paired difference (intervention minus play) over the neighbouring worlds."""

    mean: float
    low: float
    high: float
    n: int

    def excludes_zero_towards(self, sign: float) -> bool:
        """Whether the whole interval lies on ``sign``'s side of zero (never for sign 0)."""
        if sign == 0 or math.isnan(self.low):
            return False
        return (self.low > 0) if sign > 0 else (self.high < 0)


def paired_interval(base: Sequence[float], alt: Sequence[float]) -> Interval:
    """Student-t interval of the mean of ``alt - base`` at :data:`CONFIDENCE`."""
    d = np.asarray(alt, dtype=float) - np.asarray(base, dtype=float)
    n = int(d.size)
    mean = float(d.mean()) if n else math.nan
    if n < 2:
        return Interval(mean, math.nan, math.nan, n)
    sd = float(d.std(ddof=1))
    half = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def material(metric: str, diff: float, budget_usd: float) -> bool:
    """Whether a difference on one world is large enough to state."""
    if metric == "schedule_days":
        return abs(diff) >= MATERIAL_DAYS
    if metric == "cost_usd":
        return abs(diff) >= MATERIAL_BUDGET_SHARE * budget_usd
    if metric == "quality":
        return abs(diff) >= MATERIAL_SCORE
    return diff != 0  # quality_met: a target met or missed


def confirm(
    world: Mapping[str, float], base: Sequence[Measure], alt: Sequence[Measure]
) -> tuple[dict[str, Interval], tuple[str, ...]]:
    """The noise check: paired intervals over the neighbours, and the metrics they confirm.

    ``world`` holds this world's difference (intervention minus play) of each moved metric;
    a metric is confirmed when its paired interval excludes zero on that difference's side.
    """
    paired = {
        m: paired_interval([x.value(m) for x in base], [x.value(m) for x in alt]) for m in world
    }
    confirmed = tuple(
        m for m in METRICS if m in world and paired[m].excludes_zero_towards(world[m])
    )
    return paired, confirmed


# --- findings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One intervention checked on this play: the world's difference and the noise check."""

    intervention: str
    lesson: str
    title: str
    label: str
    delta: Mapping[str, Any]
    answers: Mapping[str, Mapping[str, str]]
    base: Measure
    alt: Measure
    moved: tuple[str, ...]
    """Metrics whose difference on this world is material."""
    paired: Mapping[str, Interval]
    """Paired intervals over the neighbouring worlds (only for the moved metrics)."""
    confirmed: tuple[str, ...]
    """Moved metrics whose paired interval excludes zero on the same side."""
    scope: str | None
    neighbour_scope: tuple[float, float, float, float] | None
    """Mean tokens (billions) and post-training rounds of play and intervention arms there."""
    line: str
    deadline_days: float
    budget_usd: float

    @property
    def shown(self) -> bool:
        return bool(self.confirmed)

    def diff(self, metric: str) -> float:
        return self.alt.value(metric) - self.base.value(metric)

    @property
    def impact(self) -> float:
        """Size of the confirmed differences, to order the lines.

        Days and dollars as shares of their targets, score x 10: the scale of the decision
        review's impact.
        """
        if not self.confirmed:
            return 0.0
        return (
            abs(self.diff("schedule_days"))
            / self.deadline_days
            * ("schedule_days" in self.confirmed)
            + abs(self.diff("cost_usd")) / self.budget_usd * ("cost_usd" in self.confirmed)
            + 10.0 * abs(self.diff("quality")) * ("quality" in self.confirmed)
            + abs(self.diff("quality_met")) * ("quality_met" in self.confirmed)
        )

    @property
    def verdict(self) -> str:
        if self.shown:
            return "shown"
        if not self.moved:
            return "no material change on this world"
        if any(i.excludes_zero_towards(-self.diff(m)) for m, i in self.paired.items()):
            return "moved the other way over the neighbouring worlds"
        if not self.paired:
            return "moved on this world; no neighbouring worlds checked"
        return "within noise over the neighbouring worlds"

    def as_dict(self) -> dict[str, Any]:
        return {
            "intervention": self.intervention,
            "lesson": self.lesson,
            "title": self.title,
            "label": self.label,
            "change": dict(self.delta),
            "answers": {k: dict(v) for k, v in self.answers.items()},
            "shown": self.shown,
            "verdict": self.verdict,
            "line": self.line,
            "impact": self.impact,
            "play": self.base.as_dict(),
            "intervention_arm": self.alt.as_dict(),
            "difference": {m: self.diff(m) for m in (*METRICS, "loss", "tokens_b")},
            "moved": list(self.moved),
            "confirmed": list(self.confirmed),
            "paired": {m: i.__dict__ for m, i in self.paired.items()},
            "scope": self.scope,
            "neighbour_scope": (
                None
                if self.neighbour_scope is None
                else dict(
                    zip(
                        (
                            "play_tokens_b",
                            "intervention_tokens_b",
                            "play_rounds",
                            "intervention_rounds",
                        ),
                        self.neighbour_scope,
                        strict=True,
                    )
                )  # fmt: skip
            ),
        }


@dataclass(frozen=True)
class LessonReport:
    """Every intervention checked on a play; ``shown`` are the lines a debrief states."""

    findings: tuple[Finding, ...]
    skipped: tuple[tuple[str, str, str], ...]
    """``(intervention, lesson, reason)`` of those that do not apply or did not validate."""
    seed: int
    replication: int
    worlds: int
    replays: int
    seconds: float

    @property
    def shown(self) -> tuple[Finding, ...]:
        """The lines to state, largest effect first (ties in registry order)."""
        return tuple(sorted((f for f in self.findings if f.shown), key=lambda f: -f.impact))

    @property
    def unmoved(self) -> tuple[Finding, ...]:
        """Checked, and no measurable effect here."""
        return tuple(f for f in self.findings if not f.shown)

    @property
    def neighbours(self) -> str:
        if not self.worlds:
            return "no neighbouring worlds"
        first = self.replication + 1
        return (
            f"{self.worlds} neighbouring worlds (replications {first} to "
            f"{first + self.worlds - 1} of seed {self.seed})"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "replication": self.replication,
            "worlds": self.worlds,
            "replays": self.replays,
            "seconds": self.seconds,
            "rule": {
                "material_days": MATERIAL_DAYS,
                "material_budget_share": MATERIAL_BUDGET_SHARE,
                "material_score": MATERIAL_SCORE,
                "confidence": CONFIDENCE,
            },
            "shown": [f.line for f in self.shown],
            "findings": [f.as_dict() for f in self.findings],
            "skipped": [
                {"intervention": i, "lesson": lesson, "reason": r} for i, lesson, r in self.skipped
            ],
        }


def grouped(findings: Sequence[Finding]) -> list[tuple[str, list[str]]]:
    """Lines under their lesson's title, lessons in the order of their first line."""
    out: dict[str, list[str]] = {}
    for f in findings:
        out.setdefault(f.title, []).append(f.line)
    return list(out.items())


# --- wording ----------------------------------------------------------------------------------


def short_usd(value: float) -> str:
    """Dollars, short: $1.20M, $410k, $950."""
    v = abs(value)
    if v >= 1e6:
        return f"${v / 1e6:,.2f}M"
    if v >= 1e4:
        return f"${v / 1e3:,.0f}k"
    return f"${v:,.0f}"


def _world_clause(metric: str, d: float) -> tuple[bool, str]:
    """(a saving?, words) for a difference on this world."""
    if metric == "schedule_days":
        return (d < 0, f"{abs(d):.1f} days" if d < 0 else f"{d:.1f} more days")
    if metric == "cost_usd":
        return (d < 0, short_usd(d) if d < 0 else f"{short_usd(d)} more")
    if metric == "quality":
        way = "raised" if d > 0 else "lowered"
        return (d > 0, f"{way} the target evals' mean score by {abs(d):.3f}")
    return (d > 0, "met every quality target" if d > 0 else "missed a quality target")


def _interval_words(metric: str, i: Interval, sign: float) -> str:
    low, high = sorted((abs(i.low), abs(i.high)))
    if metric == "schedule_days":
        return f"{low:.1f} to {high:.1f} days"
    if metric == "cost_usd":
        return f"{short_usd(low)} to {short_usd(high)}"
    if metric == "quality":
        return f"{low:.3f} to {high:.3f} of score"
    return f"P(quality met) {low:.0%} to {high:.0%} {'higher' if sign > 0 else 'lower'}"


def sentence(
    label: str,
    parts: Sequence[tuple[str, float]],
    paired: Mapping[str, Interval],
    worlds: int,
    by_eval: str = "",
) -> str:
    """``label`` would have saved/cost ... on this world (paired over N worlds: ...).

    ``by_eval`` (each target eval's change) follows the quality clause.
    """
    saved: list[str] = []
    cost: list[str] = []
    other: list[str] = []
    for metric, d in parts:
        good, words = _world_clause(metric, d)
        if metric == "quality" and by_eval:
            words += f" ({by_eval})"
        if metric in ("schedule_days", "cost_usd"):
            (saved if good else cost).append(words)
        else:
            other.append(words)
    clauses = []
    if saved:
        clauses.append("saved " + " and ".join(saved))
    if cost:
        clauses.append("cost " + " and ".join(cost))
    clauses += other
    body = clauses[0] if len(clauses) == 1 else ", ".join(clauses[:-1]) + " and " + clauses[-1]
    text = f"{label} would have {body} on this world"
    if paired:
        ranges = "; ".join(_interval_words(m, paired[m], d) for m, d in parts if m in paired)
        text += f" (paired over {worlds} worlds: {ranges})"
    return text


def scope_note(base: Measure, alt: Measure) -> str | None:
    """Says when the two arms trained different scopes (tokens or post-training rounds)."""
    tokens = alt.tokens_b - base.tokens_b
    rounds = alt.post_training_rounds - base.post_training_rounds
    if abs(tokens) <= SCOPE_TOKENS_SHARE * max(base.tokens_b, 1e-9) and rounds == 0:
        return None
    parts = []
    if abs(tokens) > SCOPE_TOKENS_SHARE * max(base.tokens_b, 1e-9):
        parts.append(f"{alt.tokens_b:,.0f}B tokens against {base.tokens_b:,.0f}B")
    if rounds:
        parts.append(
            f"{alt.post_training_rounds} post-training rounds against {base.post_training_rounds}"
        )
    cut = tokens < 0 or rounds < 0
    why = "part of the difference is a scope cut" if cut else "part of it is more scope"
    return f"not equal scope: {' and '.join(parts)}; {why}"


# --- the check --------------------------------------------------------------------------------


@dataclass
class _Candidate:
    intervention: Intervention
    change: Change
    arm: Arm
    base: Measure
    alt: Measure
    moved: tuple[str, ...]
    deadline_days: float
    budget_usd: float


_CACHE: OrderedDict[str, LessonReport] = OrderedDict()
_CACHE_SIZE = 16


def _cache_key(log: PlayLog, worlds: int) -> str:
    return hashlib.sha256(f"{worlds}\n{log.to_json()}".encode()).hexdigest()


def check_lessons(
    log: PlayLog,
    *,
    worlds: int = NEIGHBOUR_WORLDS,
    interventions: Sequence[Intervention] | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> LessonReport:
    """Every intervention on this play's world, and on ``worlds`` neighbours where it moved.

    With the default registry the report is cached by play (the same play gives the same
    report, so a second debrief of it costs nothing).
    """
    cacheable = interventions is None
    key = _cache_key(log, worlds) if cacheable else ""
    if cacheable and key in _CACHE:
        _CACHE.move_to_end(key)
        if progress:
            progress(1, 1)
        return _CACHE[key]
    report = _check(log, worlds, tuple(interventions or INTERVENTIONS), workers, progress)
    if cacheable:
        _CACHE[key] = report
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return report


def _check(
    log: PlayLog,
    worlds: int,
    interventions: tuple[Intervention, ...],
    workers: int,
    progress: Progress | None,
) -> LessonReport:
    started = time.perf_counter()
    scenario = log.scenario()
    choices = {d["key"]: d["choice"] for d in log.decisions}
    injections = tuple(log.injections)
    base_arm = Arm(scenario, choices, injections=injections)
    row = base_arm.play(log.seed, log.replication)
    base = measure(row, scenario)
    facts = PlayFacts(scenario, row, tuple((d["key"], d["choice"]) for d in log.decisions))
    budget = scenario.objective.budget.total_usd
    # Progress total: the play's world for every intervention, then (at most) every
    # neighbour for each; corrected once the world's differences are known.
    total = 1 + len(interventions) * (1 + worlds) + worlds
    done = 1
    replays = 1

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress:
            progress(min(done, total), total)

    skipped: list[tuple[str, str, str]] = []
    candidates: list[_Candidate] = []
    for iv in interventions:
        change = iv.change(facts)
        if change is None:
            skipped.append((iv.id, iv.lesson, iv.why_not))
            tick()
            continue
        try:
            alt_scenario = apply_delta(scenario, change.delta) if change.delta else scenario
        except ScenarioError as exc:
            reason = "; ".join(f"{p.path}: {p.reason}" for p in exc.problems)
            skipped.append((iv.id, iv.lesson, f"the change is not a valid design: {reason}"))
            tick()
            continue
        arm = Arm(alt_scenario, choices, change.answers, injections)
        alt = measure(arm.play(log.seed, log.replication), alt_scenario)
        replays += 1
        tick()
        moved = tuple(m for m in METRICS if material(m, alt.value(m) - base.value(m), budget))
        deadline = scenario.objective.deadline_days
        candidates.append(_Candidate(iv, change, arm, base, alt, moved, deadline, budget))

    checked = [c for c in candidates if c.moved]
    total = done + (worlds * (1 + len(checked)) if checked and worlds else 0)
    if progress:
        progress(done, total)
    reps = list(range(log.replication + 1, log.replication + 1 + worlds))
    neighbours: dict[str, list[Measure]] = {}
    if checked and reps:
        # Neighbours are decided as ``sim run`` decides: a log's answers belong to its world.
        arms = {"": replace(base_arm, choices={})} | {
            c.intervention.id: replace(c.arm, choices={}) for c in checked
        }
        neighbours = _run_arms(arms, log.seed, reps, workers, tick)
        replays += len(arms) * len(reps)
    findings = [_finding(c, neighbours, worlds) for c in candidates]
    return LessonReport(
        tuple(findings),
        tuple(skipped),
        log.seed,
        log.replication,
        worlds,
        replays,
        time.perf_counter() - started,
    )


def _run_arms(
    arms: dict[str, Arm], seed: int, reps: list[int], workers: int, tick: Callable[[int], None]
) -> dict[str, list[Measure]]:
    """Every arm on every neighbouring world; serial, or over a process pool."""
    out: dict[str, list[Measure]] = {}
    with open_executor("local", workers) as pool:
        if pool is None:
            for name, arm in arms.items():
                out[name] = []
                for r in reps:
                    out[name].extend(play_worlds(arm, seed, [r]))
                    tick(1)
        else:
            futures = {
                name: pool.submit(play_worlds, arm, seed, reps) for name, arm in arms.items()
            }
            for name, fut in futures.items():
                out[name] = fut.result()
                tick(len(reps))
    return out


def _finding(c: _Candidate, neighbours: Mapping[str, list[Measure]], worlds: int) -> Finding:
    iv, base, alt = c.intervention, c.base, c.alt
    paired: dict[str, Interval] = {}
    confirmed: tuple[str, ...] = ()
    scope_there = None
    if c.moved and iv.id in neighbours:
        b, a = neighbours[""], neighbours[iv.id]
        world = {m: alt.value(m) - base.value(m) for m in c.moved}
        paired, confirmed = confirm(world, b, a)
        scope_there = (
            float(np.mean([x.tokens_b for x in b])),
            float(np.mean([x.tokens_b for x in a])),
            float(np.mean([x.post_training_rounds for x in b])),
            float(np.mean([x.post_training_rounds for x in a])),
        )
    parts = [(m, alt.value(m) - base.value(m)) for m in confirmed]
    shown_pairs = {m: paired[m] for m in confirmed}
    by_eval = ", ".join(
        f"{ev} {score - dict(base.scores).get(ev, 0.0):+.3f}" for ev, score in alt.scores
    )
    line = sentence(c.change.label, parts, shown_pairs, worlds, by_eval) if parts else ""
    scope = scope_note(base, alt)
    if line and scope:
        line += f"; {scope}"
    missed = alt.injects_missed - base.injects_missed
    if line and missed > 0:
        line += f"; {missed} of the play's injects found nothing to strike there"
    lesson = LESSONS_BY_ID.get(iv.lesson)
    return Finding(
        intervention=iv.id,
        lesson=iv.lesson,
        title=lesson.title if lesson else iv.lesson,
        label=c.change.label,
        delta=dict(c.change.delta),
        answers={k: dict(v) for k, v in c.change.answers.items()},
        base=base,
        alt=alt,
        moved=c.moved,
        paired=paired,
        confirmed=confirmed,
        scope=scope,
        neighbour_scope=scope_there,
        line=line,
        deadline_days=c.deadline_days,
        budget_usd=c.budget_usd,
    )
