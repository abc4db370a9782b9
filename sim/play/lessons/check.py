"""Which lessons this play shows: each intervention replayed on the same world, beyond noise.

For a play (scenario + seed + decision log) every :class:`~sim.play.lessons.catalog.Intervention`
is replayed on the play's own world (same seed and replication, the facilitator's injects
at their days, the logged answers where the same decision comes up, the rest by the
scenario's playbook as the engine decides it, the person on the spot where it is silent).
A lesson is shown only when its difference is

- **material** on this world: at least :data:`MATERIAL_DAYS` days, :data:`MATERIAL_BUDGET_SHARE`
  of the budget, :data:`MATERIAL_SCORE` of the mean target score, or a quality target
  met or missed; and
- **not noise**: on :data:`NEIGHBOUR_WORLDS` neighbouring worlds (the next replications of
  the play's seed, common random numbers, the same injects; every decision there answered
  as ``sim run`` decides, since a log's answers belong to its own world) the paired 95%
  interval of that difference excludes zero on the same side, and the test stays below 5%
  after Holm's adjustment over every difference the report tests (so the lines shown hold
  together, not one by one).

Both arms' tokens trained, post-training rounds and scope cuts are reported. When the two
arms gave up different scope to fit the budget, the intervention is also compared at equal
scope: both scenarios with their plans funded in full (:func:`sim.designs.fund_full_plan`,
as the lesson tests do) and any later budget gap accepted as an overrun instead of cut, on
the same worlds and by the same rule (:func:`equal_scope`). docs/model.md, "Debrief".
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from sim import names
from sim.designs import apply_delta, fund_full_plan
from sim.intervals import holm
from sim.play.game import PlayLog
from sim.play.lessons.arms import Arm, run_arms
from sim.play.lessons.catalog import INTERVENTIONS, LESSONS_BY_ID, Change, Intervention, PlayFacts
from sim.play.lessons.measures import (
    CONFIDENCE,
    METRICS,
    Interval,
    Measure,
    NeighbourScope,
    measure,
    paired_interval,
    scope_cut_differs,
)
from sim.play.lessons.words import (
    body,
    by_eval,
    outside_note,
    scope_note,
    sentence,
    side_notes,
    unusual_world,
)
from sim.scenario.loading import ScenarioError, with_overrides

logger = logging.getLogger(__name__)

Progress = Callable[[int, int], None]

#: A schedule difference smaller than this (days) is not material.
MATERIAL_DAYS = 1.0
#: A cost difference smaller than this share of the total budget is not material.
MATERIAL_BUDGET_SHARE = 0.005
#: A difference in the mean measured score of the target evals smaller than this is not.
MATERIAL_SCORE = 0.005
#: Neighbouring worlds the noise check replays (the next replications of the play's seed).
NEIGHBOUR_WORLDS = names.NEIGHBOUR_WORLDS
#: Most neighbouring worlds a caller may ask for.
MAX_WORLDS = 200
#: Differences a headline names (the largest); the others go in a note beneath it.
HEADLINE_METRICS = 2
#: How a line names the equal-scope comparison.
EQUAL_SCOPE = "with both plans funded in full (nothing cut or added)"
#: The answers of the equal-scope arms (the lesson tests' fixed scope): a budget gap is an
#: overrun, never a cut; a ship is a ship, never an extra round; a slip is accepted.
FIXED_SCOPE: dict[str, list[str]] = {
    "budget": ["accept_overrun"],
    "ship": ["ship"],
    "schedule": ["accept_slip"],
}


def equal_scope(arm: Arm) -> Arm:
    """``arm`` with its plan's scope fixed: funded in full, nothing cut, no round added.

    The plan is funded at set-up (:func:`~sim.designs.fund_full_plan`) and the
    budget, ship and schedule decisions answer :data:`FIXED_SCOPE` (logged answers of those
    kinds do not hold), so what the arm trains is its plan, whatever it spends.
    """
    s = with_overrides(
        arm.scenario, {f"levers.playbook.{kind}": v for kind, v in FIXED_SCOPE.items()}
    )
    return replace(arm, scenario=fund_full_plan(s), afresh=(*arm.afresh, *FIXED_SCOPE))


def material(metric: str, diff: float, budget_usd: float) -> bool:
    """Whether a difference on one world is large enough to state."""
    if metric == "schedule_days":
        return abs(diff) >= MATERIAL_DAYS
    if metric == "cost_usd":
        return abs(diff) >= MATERIAL_BUDGET_SHARE * budget_usd
    if metric == "quality":
        return abs(diff) >= MATERIAL_SCORE
    return diff != 0  # quality_met: a target met or missed


def moved(base: Measure, alt: Measure, budget_usd: float) -> tuple[str, ...]:
    """The metrics whose difference on this world is material."""
    return tuple(m for m in METRICS if material(m, alt.value(m) - base.value(m), budget_usd))


# --- the noise rule ---------------------------------------------------------------------------


def paired_intervals(
    world: Mapping[str, float], base: Sequence[Measure], alt: Sequence[Measure]
) -> dict[str, Interval]:
    """The paired interval over the neighbours of each metric in ``world``."""
    return {
        m: paired_interval(
            [x.value(m) for x in base],
            [x.value(m) for x in alt],
            CONFIDENCE,
            binary=m == "quality_met",
        )
        for m in world
    }


def holm_confirmed(tests: Mapping[Any, tuple[Interval, float]]) -> set[Any]:
    """The tests that pass: interval beyond zero on the world's side, Holm-adjusted p small.

    ``tests`` maps a key to (paired interval, this world's difference). The family is all of
    them: the chance that any line shown is noise stays at most ``1 - CONFIDENCE``.
    """
    keys = list(tests)
    adjusted = holm([tests[k][0].p_value for k in keys], 1 - CONFIDENCE)
    return {
        k
        for k, p in zip(keys, adjusted, strict=True)
        if tests[k][0].excludes_zero_towards(tests[k][1]) and p < 1 - CONFIDENCE
    }


def confirm(
    world: Mapping[str, float], base: Sequence[Measure], alt: Sequence[Measure]
) -> tuple[dict[str, Interval], tuple[str, ...]]:
    """The noise rule for one comparison: paired intervals, and the metrics they confirm.

    ``world`` holds this world's difference (intervention minus play) of each moved metric;
    the family of Holm's adjustment is these metrics alone (a report adjusts over all of its
    comparisons at once).
    """
    paired = paired_intervals(world, base, alt)
    passed = holm_confirmed({m: (paired[m], world[m]) for m in world})
    return paired, tuple(m for m in METRICS if m in passed)


# --- findings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """Play against counterfactual: on this world, and over the neighbouring worlds."""

    base: Measure
    alt: Measure
    moved: tuple[str, ...]
    """Metrics whose difference on this world is material."""
    paired: Mapping[str, Interval]
    """Paired intervals over the neighbouring worlds (only for the moved metrics)."""
    confirmed: tuple[str, ...]
    """Moved metrics that pass the noise rule."""
    neighbour_scope: NeighbourScope | None = None

    def diff(self, metric: str) -> float:
        return self.alt.value(metric) - self.base.value(metric)

    @property
    def parts(self) -> list[tuple[str, float]]:
        return [(m, self.diff(m)) for m in self.confirmed]

    @property
    def shown_pairs(self) -> dict[str, Interval]:
        return {m: self.paired[m] for m in self.confirmed}

    def weight(self, metric: str, deadline_days: float, budget_usd: float) -> float:
        """One confirmed difference's size, to order what a line names first.

        Days and dollars as shares of their targets, score x 10 (the decision review's scale).
        """
        weights = {
            "schedule_days": 1.0 / deadline_days,
            "cost_usd": 1.0 / budget_usd,
            "quality": 10.0,
            "quality_met": 1.0,
        }
        return abs(self.diff(metric)) * weights[metric]

    def impact(self, deadline_days: float, budget_usd: float) -> float:
        """Size of the confirmed differences, to order the lines."""
        return sum(self.weight(m, deadline_days, budget_usd) for m in self.confirmed)

    def split(
        self, deadline_days: float, budget_usd: float
    ) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
        """The confirmed differences a headline names, and the rest (for a note).

        The headline takes the :data:`HEADLINE_METRICS` largest, in the metrics' order.
        """
        size = sorted(self.confirmed, key=lambda m: -self.weight(m, deadline_days, budget_usd))
        lead = set(size[:HEADLINE_METRICS])
        return [p for p in self.parts if p[0] in lead], [p for p in self.parts if p[0] not in lead]

    def as_dict(self) -> dict[str, Any]:
        return {
            "play": self.base.as_dict(),
            "intervention_arm": self.alt.as_dict(),
            "difference": {m: self.diff(m) for m in (*METRICS, "loss", "tokens_b")},
            "moved": list(self.moved),
            "confirmed": list(self.confirmed),
            "paired": {m: asdict(i) for m, i in self.paired.items()},
            "neighbour_scope": (
                None if self.neighbour_scope is None else asdict(self.neighbour_scope)
            ),
        }


@dataclass(frozen=True)
class Finding:
    """One intervention checked on this play: the world's difference and the noise check."""

    intervention: str
    lesson: str
    title: str
    label: str
    delta: Mapping[str, Any]
    answers: Mapping[str, Mapping[str, str]]
    afresh: tuple[str, ...]
    played: Comparison
    """At the play's budget: what would have happened."""
    equal: Comparison | None
    """At equal scope (nothing cut in either arm), when the arms' scope cuts differ."""
    scope: str | None
    """How the arms' scope differs on this world (None: equal scope)."""
    line: str
    """The headline: one sentence, this world's figure and the range over similar worlds."""
    deadline_days: float
    budget_usd: float
    notes: tuple[str, ...] = ()
    """Sentences beneath the line: scope, equal scope, each eval, why the figures differ."""

    # The play-budget comparison, which the line leads with.
    @property
    def base(self) -> Measure:
        return self.played.base

    @property
    def alt(self) -> Measure:
        return self.played.alt

    @property
    def moved(self) -> tuple[str, ...]:
        return self.played.moved

    @property
    def paired(self) -> Mapping[str, Interval]:
        return self.played.paired

    @property
    def confirmed(self) -> tuple[str, ...]:
        return self.played.confirmed

    @property
    def neighbour_scope(self) -> NeighbourScope | None:
        return self.played.neighbour_scope

    def diff(self, metric: str) -> float:
        return self.played.diff(metric)

    @property
    def shown(self) -> bool:
        return bool(self.played.confirmed) or bool(self.equal and self.equal.confirmed)

    @property
    def impact(self) -> float:
        """Size of the confirmed differences, to order the lines (equal scope if only it)."""
        lead = self.played if self.played.confirmed or self.equal is None else self.equal
        return lead.impact(self.deadline_days, self.budget_usd)

    @property
    def verdict(self) -> str:
        if self.played.confirmed:
            return "shown"
        if self.equal is not None and self.equal.confirmed:
            return "shown at equal scope"
        if not self.moved:
            return "no material change on this world"
        if any(i.excludes_zero_towards(-self.diff(m)) for m, i in self.paired.items()):
            return "moved the other way over the neighbouring worlds"
        if not self.paired:
            return "moved on this world; no neighbouring worlds checked"
        if any(i.excludes_zero_towards(self.diff(m)) for m, i in self.paired.items()):
            return "beyond noise alone, not after Holm's adjustment"
        return "within noise over the neighbouring worlds"

    def as_dict(self) -> dict[str, Any]:
        return {
            "intervention": self.intervention,
            "lesson": self.lesson,
            "title": self.title,
            "label": self.label,
            "change": dict(self.delta),
            "answers": {k: dict(v) for k, v in self.answers.items()},
            "decided_afresh": list(self.afresh),
            "shown": self.shown,
            "verdict": self.verdict,
            "line": self.line,
            "notes": list(self.notes),
            "impact": self.impact,
            **self.played.as_dict(),
            "scope": self.scope,
            "equal_scope": None if self.equal is None else self.equal.as_dict(),
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
    tests: int = 0
    """Differences tested on the neighbouring worlds (the Holm family)."""

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
                "adjustment": "Holm",
                "tests": self.tests,
            },
            "shown": [f.line for f in self.shown],
            "findings": [f.as_dict() for f in self.findings],
            "skipped": [
                {"intervention": i, "lesson": lesson, "reason": r} for i, lesson, r in self.skipped
            ],
        }


def grouped(findings: Sequence[Finding]) -> list[tuple[str, list[Finding]]]:
    """Findings under their lesson's title, lessons in the order of their first finding."""
    out: dict[str, list[Finding]] = {}
    for f in findings:
        out.setdefault(f.title, []).append(f)
    return list(out.items())


def _still(equal: Comparison, budget_usd: float) -> str | None:
    """What still differs between the equal-scope arms (rounds a ship decision added, say)."""
    note = scope_note(equal.base, equal.alt, budget_usd)
    return None if note is None else f"Even funded in full, {note[:1].lower()}{note[1:]}"


def _lower(label: str) -> str:
    return label[:1].lower() + label[1:]


def finding_line(
    label: str,
    played: Comparison,
    equal: Comparison | None,
    worlds: int,
    budget_usd: float,
    benchmarks: frozenset[str] = frozenset(),
    deadline_days: float = 1.0,
    unusual: str | None = None,
) -> tuple[str, tuple[str, ...]]:
    """The line a debrief states and its notes; ``("", ())`` when nothing passed the rule.

    The line is one sentence: this world's figure, then the range over the neighbouring
    worlds. The notes say what else a reader needs: why the two can differ, the scope, the
    comparison at equal scope, each target eval, failed runs. ``benchmarks``: the target
    evals that are public benchmarks (marked in the notes); ``unusual``: what set this
    world apart from the similar ones (:func:`~sim.play.lessons.words.unusual_world`), said
    when its figure lies outside their range.
    """
    notes: list[str] = []

    def _evals(c: Comparison) -> None:
        if "quality" in c.confirmed:
            notes.append(f"By target eval: {by_eval(c.base, c.alt, benchmarks)}.")

    def _lead(c: Comparison) -> tuple[list[tuple[str, float]], list[str]]:
        """The differences the headline names, and a note with the others (if any)."""
        lead, rest = c.split(deadline_days, budget_usd)
        more = [f"It also {body(rest, c.shown_pairs, worlds)}."] if rest else []
        outside = outside_note(c.parts, c.shown_pairs, unusual)
        return lead, more + ([outside] if outside else [])

    if played.confirmed:
        lead, more = _lead(played)
        line = sentence(label, lead, played.shown_pairs, worlds)
        notes += more
        _evals(played)
        side = side_notes(played.base, played.alt)
        if side:
            notes.append(f"Also different: {'; '.join(side)}.")
        scope = scope_note(played.base, played.alt, budget_usd)
        notes += [scope] if scope else []
        if equal is not None and equal.confirmed:
            there = body(equal.parts, equal.shown_pairs, worlds)
            notes.append(f"{EQUAL_SCOPE[:1].upper()}{EQUAL_SCOPE[1:]}, it would have {there}.")
            still = _still(equal, budget_usd)
            notes += [still] if still else []
        elif equal is not None:
            notes.append(
                f"{EQUAL_SCOPE[:1].upper()}{EQUAL_SCOPE[1:]}, no difference passes the noise rule."
            )
    elif equal is not None and equal.confirmed:
        lead, more = _lead(equal)
        there = body(lead, equal.shown_pairs, worlds)
        line = f"Funded in full, {_lower(label)} would have {there}"
        notes += more
        _evals(equal)
        still = _still(equal, budget_usd)
        notes += [still] if still else []
        notes.append(
            "Within the play's budget it only changed what was cut to fit, and no difference "
            "there passes the noise rule."
        )
    else:
        return "", ()
    missed = played.alt.injects_missed - played.base.injects_missed
    if missed > 0:
        notes.append(
            f"{missed} of the play's injects had nothing to strike in the counterfactual "
            f"(what they hit was not there)."
        )
    return line, tuple(notes)


# --- the check --------------------------------------------------------------------------------


@dataclass
class _Candidate:
    """An intervention replayed on the play's world (and, if scope cuts differ, funded)."""

    intervention: Intervention
    change: Change
    arm: Arm
    alt: Measure
    moved: tuple[str, ...]
    funded: Arm | None = None
    funded_alt: Measure | None = None
    funded_moved: tuple[str, ...] = ()


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
    check = _Check(log, worlds, workers, progress)
    report = check.run(tuple(interventions or INTERVENTIONS))
    if cacheable:
        _CACHE[key] = report
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return report


class _Check:
    """One lesson check of one play: the world's replays, then the neighbours'."""

    def __init__(self, log: PlayLog, worlds: int, workers: int, progress: Progress | None):
        self.log = log
        self.worlds = worlds
        self.workers = workers
        self.progress = progress
        self.started = time.perf_counter()
        self.scenario = log.scenario()
        self.choices = {d["key"]: d["choice"] for d in log.decisions}
        self.injections = tuple(log.injections)
        self.budget = self.scenario.objective.budget.total_usd
        self.deadline = self.scenario.objective.deadline_days
        self.benchmarks = frozenset(
            e.id for e in self.scenario.objective.evals if e.kind == "public_benchmark"
        )
        self.base_arm = Arm(self.scenario, self.choices, injections=self.injections)
        row = self.base_arm.play(log.seed, log.replication)
        self.base = measure(row, self.scenario)
        self.facts = PlayFacts(
            self.scenario, row, tuple((d["key"], d["choice"]) for d in log.decisions)
        )
        self.replays = 1
        self.done = 1
        self.total = 1
        self._funded_base: tuple[Arm, Measure] | None = None
        #: Differences tested on the neighbouring worlds (Holm's family), once known.
        self._tests = 0

    def tick(self, n: int = 1) -> None:
        self.done += n
        if self.progress:
            self.progress(min(self.done, self.total), self.total)

    def play(self, arm: Arm) -> Measure:
        self.replays += 1
        return measure(arm.play(self.log.seed, self.log.replication), arm.scenario)

    def run(self, interventions: tuple[Intervention, ...]) -> LessonReport:
        # Progress: every intervention's world first, then the neighbours (known after).
        self.total = 1 + len(interventions) * (1 + self.worlds) + self.worlds
        skipped: list[tuple[str, str, str]] = []
        candidates: list[_Candidate] = []
        for iv in interventions:
            made = self.candidate(iv)
            if isinstance(made, str):
                skipped.append((iv.id, iv.lesson, made))
            else:
                candidates.append(made)
            self.tick()
        neighbours = self.neighbours(candidates)
        findings = self.findings(candidates, neighbours)
        return LessonReport(
            tuple(findings),
            tuple(skipped),
            self.log.seed,
            self.log.replication,
            self.worlds,
            self.replays,
            time.perf_counter() - self.started,
            self._tests,
        )

    # --- this world ------------------------------------------------------------------------

    def candidate(self, iv: Intervention) -> _Candidate | str:
        """The intervention on the play's world, or why it does not apply."""
        change = iv.change(self.facts)
        if change is None:
            return iv.why_not
        try:
            scenario = apply_delta(self.scenario, change.delta) if change.delta else self.scenario
        except ScenarioError as exc:
            reason = "; ".join(f"{p.path}: {p.reason}" for p in exc.problems)
            return f"the change is not a valid design: {reason}"
        arm = Arm(scenario, self.choices, change.answers, self.injections, change.afresh)
        alt = self.play(arm)
        c = _Candidate(iv, change, arm, alt, moved(self.base, alt, self.budget))
        # Only neighbours can confirm an equal-scope difference: without them, none is made.
        if self.worlds and c.moved and scope_cut_differs(self.base, alt, self.budget):
            self.fund(c)
        return c

    def funded_base(self) -> tuple[Arm, Measure]:
        """The play at equal scope (:func:`equal_scope`), on this world (made once)."""
        if self._funded_base is None:
            arm = equal_scope(self.base_arm)
            self._funded_base = (arm, self.play(arm))
        return self._funded_base

    def fund(self, c: _Candidate) -> None:
        """The equal-scope pair: both arms with nothing cut to fit the budget."""
        base = self.funded_base()[1]
        c.funded = equal_scope(c.arm)
        c.funded_alt = self.play(c.funded)
        c.funded_moved = moved(base, c.funded_alt, self.budget)

    # --- the neighbouring worlds ------------------------------------------------------------

    def neighbours(self, candidates: list[_Candidate]) -> dict[str, list[Measure]]:
        """Every arm that moved, on the neighbouring worlds (keys: "" the play, "=" funded)."""
        arms: dict[str, Arm] = {}
        for c in candidates:
            if c.moved:
                arms[c.intervention.id] = c.arm
            if c.funded is not None and c.funded_moved:
                arms["=" + c.intervention.id] = c.funded
        reps = list(range(self.log.replication + 1, self.log.replication + 1 + self.worlds))
        if not arms or not reps:
            return {}
        arms[""] = self.base_arm
        if any(k.startswith("=") for k in arms):
            arms["="] = self.funded_base()[0]
        # Neighbours are decided as ``sim run`` decides: a log's answers belong to its world.
        arms = {k: replace(a, choices={}) for k, a in arms.items()}
        self.total = self.done + len(arms) * len(reps)
        self.tick(0)
        out = run_arms(arms, self.log.seed, reps, self.workers, self.tick)
        self.replays += len(arms) * len(reps)
        return out

    # --- the rule and the lines --------------------------------------------------------------

    def findings(
        self, candidates: list[_Candidate], neighbours: Mapping[str, list[Measure]]
    ) -> list[Finding]:
        """Paired intervals of every moved difference, Holm over all of them, then lines."""
        sides: dict[tuple[str, str], tuple[Measure, Measure, tuple[str, ...], str, str]] = {}
        for c in candidates:
            name = c.intervention.id
            sides[(name, "played")] = (self.base, c.alt, c.moved, "", name)
            if c.funded_alt is not None:
                base = self.funded_base()[1]
                sides[(name, "equal")] = (base, c.funded_alt, c.funded_moved, "=", "=" + name)
        paired: dict[tuple[str, str], dict[str, Interval]] = {}
        tests: dict[tuple[str, str, str], tuple[Interval, float]] = {}
        for key, (base, alt, moves, b, a) in sides.items():
            if not moves or a not in neighbours:
                paired[key] = {}
                continue
            world = {m: alt.value(m) - base.value(m) for m in moves}
            paired[key] = paired_intervals(world, neighbours[b], neighbours[a])
            tests.update({(*key, m): (paired[key][m], world[m]) for m in moves})
        passed = holm_confirmed(tests)
        self._tests = len(tests)

        def comparison(key: tuple[str, str]) -> Comparison:
            base, alt, moves, b, a = sides[key]
            scope = (
                NeighbourScope.of(neighbours[b], neighbours[a], self.budget)
                if a in neighbours
                else None
            )
            confirmed = tuple(m for m in METRICS if (*key, m) in passed)
            return Comparison(base, alt, moves, paired[key], confirmed, scope)

        out = []
        for c in candidates:
            iv = c.intervention
            played = comparison((iv.id, "played"))
            equal = comparison((iv.id, "equal")) if (iv.id, "equal") in sides else None
            lesson = LESSONS_BY_ID.get(iv.lesson)
            line, notes = finding_line(
                c.change.label,
                played,
                equal,
                self.worlds,
                self.budget,
                self.benchmarks,
                self.deadline,
                unusual_world(self.base, neighbours.get("", [])),
            )
            out.append(
                Finding(
                    intervention=iv.id,
                    lesson=iv.lesson,
                    title=lesson.title if lesson else iv.lesson,
                    label=c.change.label,
                    delta=dict(c.change.delta),
                    answers={k: dict(v) for k, v in c.change.answers.items()},
                    afresh=c.change.afresh,
                    played=played,
                    equal=equal,
                    scope=scope_note(self.base, c.alt, self.budget),
                    line=line,
                    notes=notes,
                    deadline_days=self.deadline,
                    budget_usd=self.budget,
                )
            )
        return out
