"""The interview rubric: each item judged met, partly met or missed, with its evidence.

Items follow the question's rubric (seeds/000): what Part 1 and Part 2 should cover,
what a strong answer adds, how the design plays out in the simulation, and the three
follow-ups. Each item runs checks (:mod:`sim.interview.checks`): texts are judged for
what they say against the question they answer (:mod:`sim.interview.content`), choices
count only when they are the candidate's (:mod:`sim.interview.provenance`), and the
simulation's verdict scores the design and the calls (:mod:`sim.interview.verdicts`).
Every verdict carries its evidence: which concepts a text names, which it misses.

:func:`judge` returns a :class:`RubricReport`; :mod:`sim.interview.markdown` writes a
whole practice session as Markdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sim.interview import items as it
from sim.interview import verdicts as vd
from sim.interview.checks import POINTS, STATUS_LABEL, Check, Claim, Judgement, Status, grade
from sim.interview.items import Answer, model_compute_usd
from sim.interview.plan import FollowupResult, InterviewPlan
from sim.interview.weights import weighed

__all__ = [
    "ITEMS",
    "POINTS",
    "STATUS_LABEL",
    "RubricItem",
    "RubricReport",
    "judge",
    "model_compute_usd",
]

#: What one unsound claim takes away, against the one point a sound claim earns (tuned on
#: the prose corpus's tuning half only; docs/interview.md, "How well the score ranks").
UNSOUND_PENALTY = 1.5
#: Net sound claims at which the grade's soundness part is half way to full.
CREDIT_HALF = 10.0
#: The coverage score's share of the grade; the rest is the net sound claims.
COVERAGE_WEIGHT = 0.5

P1, P2, STRONG, SIMULATION, FOLLOW = (
    "Part 1", "Part 2", "Strong answer", "Simulation", "Follow-ups",
)  # fmt: skip
PARTS = (P1, P2, STRONG, SIMULATION, FOLLOW)


@dataclass(frozen=True)
class ItemSpec:
    """One rubric item: where it sits, how it is judged, and what a strong answer adds.

    ``content``: the item earns nothing unless one of its content checks passes.
    ``partly_from``: passed checks needed for "partly met" when the judge does not say.
    """

    id: str
    part: str
    title: str
    judge: Callable[[Answer], Judgement]
    strong: str
    content: bool = False
    partly_from: int = 1


@dataclass(frozen=True)
class RubricItem:
    id: str
    part: str
    title: str
    status: Status
    evidence: tuple[str, ...]
    strong: str
    checks: tuple[Check, ...] = ()
    content: bool = False
    #: What the candidate said that this item's checks judge (none: the item not taken on).
    claims: tuple[Claim, ...] = ()

    @property
    def soundness(self) -> float | None:
        """(sound - unsound) / claims, -1 to 1; None when the item was not taken on."""
        if not self.claims:
            return None
        sound = sum(c.stance == "sound" for c in self.claims)
        wrong = sum(c.stance == "unsound" for c in self.claims)
        return (sound - wrong) / len(self.claims)


@dataclass(frozen=True)
class RubricReport:
    items: tuple[RubricItem, ...]
    outcome: dict[str, Any] | None = None
    counts: dict[str, int] = field(default_factory=dict)
    revealed: bool = False
    model_compute_usd: float | None = None
    #: The follow-ups as the rubric replayed them from the candidate's calls.
    followups: tuple[FollowupResult, ...] = ()

    @property
    def score(self) -> float:
        """Share of the judged items met (partly met counts half; not played counts none).

        Items whose situation never arose, and the simulation when it was not run, are
        left out.
        """
        judged = [POINTS[i.status] for i in self.items if i.status in POINTS]
        return sum(judged) / len(judged) if judged else 0.0

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(c for i in self.items for c in i.claims)

    @property
    def credit(self) -> float:
        """Net weighed claims: sound weights less UNSOUND_PENALTY x unsound ones.

        The weights are :data:`sim.interview.weights.CLAIM_WEIGHTS`'s.
        """
        return sum(self.credits())

    def credits(self, penalty: float | None = None) -> tuple[float, ...]:
        """Each claim's part of the credit, item by item (``penalty``: UNSOUND_PENALTY)."""
        p = UNSOUND_PENALTY if penalty is None else penalty
        out = []
        for i in self.items:
            for c in i.claims:
                w = weighed(i.id, c)
                out.append(w * p if w < 0 else w)
        return tuple(out)

    @property
    def soundness(self) -> float | None:
        """Mean soundness of the items the answer takes on (None: it takes on none).

        Each item's is (sound - unsound) / its claims, so 1 when all it says is right, -1
        when all is wrong, 0 when it says nothing creditable; items it says nothing about
        are left out, so a terse sound answer scores as high as a long sound one.
        """
        s = [x for i in self.items if (x := i.soundness) is not None]
        return sum(s) / len(s) if s else None

    @property
    def grade(self) -> float:
        """The grade the ranking uses, 0 to 1: mostly net sound claims, a little coverage.

        ``COVERAGE_WEIGHT x score + (1 - COVERAGE_WEIGHT) x (1 + c / (|c| + CREDIT_HALF)) / 2``
        with ``c`` the :attr:`credit`: half marks for saying nothing, more for each sound
        claim (saturating), less for each unsound one.
        """
        c = self.credit
        sound = (1 + c / (abs(c) + CREDIT_HALF)) / 2
        return COVERAGE_WEIGHT * self.score + (1 - COVERAGE_WEIGHT) * sound

    @property
    def stances(self) -> dict[str, int]:
        """How many of the answer's claims are sound, thin and unsound."""
        cs = self.claims
        return {s: sum(c.stance == s for c in cs) for s in ("sound", "thin", "unsound")}

    def standing(self) -> tuple[tuple[str, str, str], ...]:
        """Coverage, soundness and grade side by side, each (name, figure, what it says).

        In plain words, for the command line's table, the page and the Markdown export alike.
        """
        n = self.stances
        said = f"{n['sound']} sound, {n['thin']} too thin to credit, {n['unsound']} wrong"
        if self.soundness is None:
            sound = ("Soundness", "none", "you said nothing the rubric can judge right or wrong")
        else:
            sound = ("Soundness", f"{self.soundness:+.0%}",
                     f"of what you said, {said} (+100%: all right; -100%: all wrong)")  # fmt: skip
        return (
            ("Coverage", f"{self.score:.0%}",
             "how much of the question you answered (partly met counts half)"),
            sound,
            ("Grade", f"{self.grade:.2f}",
             "0 to 1: mostly what you said right, less what you said wrong, a little "
             f"coverage; saying nothing is {(1 - COVERAGE_WEIGHT) / 2:.2f} (the ranking uses it)"),
        )  # fmt: skip

    def item(self, item_id: str) -> RubricItem:
        return next(i for i in self.items if i.id == item_id)

    def points(self) -> dict[str, float | None]:
        """Each item's points (None where it is left out of the score)."""
        return {i.id: POINTS.get(i.status) for i in self.items}

    def to_dict(self) -> dict[str, Any]:
        out = {
            "score": self.score,
            "soundness": self.soundness,
            "grade": self.grade,
            "counts": self.counts,
            "items": [asdict(i) for i in self.items],
            "outcome": self.outcome,
            "revealed": self.revealed,
            "followups": [f.model_dump(mode="json") for f in self.followups],
        }
        if self.revealed:
            out["model_compute_usd"] = self.model_compute_usd
        return out


ITEMS: tuple[ItemSpec, ...] = (
    ItemSpec("breadth", P1, "Breadth across the lifecycle", it.breadth,
             "Name at least one challenge in each of data, compute and infrastructure, training "
             "stability, post-training and evaluation, each with what it costs, so no stage is "
             "a blind spot.", content=True),
    ItemSpec("consequences", P1, "Each challenge tied to quality, time or money",
             it.consequences,
             "For every challenge, say what it does when it strikes: which targets slip, how "
             "many days, how much money.", content=True),
    ItemSpec("grounding", P1, "Technical grounding: why late is expensive", it.grounding,
             "Explain that a problem found after weeks of training throws that compute away "
             "and forces a restart or retrain, with everything built on it downstream redone, "
             "while the same problem found in a small ablation costs days; and know where each "
             "problem can first be seen.", content=True),
    ItemSpec("owners", P2, "Every risk has an owner and an early warning", it.owners,
             "One owning team per risk, with the earliest cheap signal that can reveal it: dedup "
             "rates and proxy-run losses for data, n-gram overlap scans for contamination, "
             "loss and gradient-norm alerts for spikes, product evals built before training "
             "for the eval gap.", content=True),
    ItemSpec("decision_rights", P2, "Clear decision rights while the run is going", it.rights,
             "The core training team calls rollbacks and data fixes within hours, on a response "
             "agreed in advance (roll back first); product and leadership hold money, dates and "
             "the ship call."),
    ItemSpec("gates", P2, "A phased plan with gates and cheap experiments", it.gates,
             "A data review and an ablation gate before the big run, thorough enough to catch "
             "what they look for, with small proxy runs, dedup audits and overlap scans that "
             "look for data, tokenizer and contamination problems.", content=True),
    ItemSpec("budget", P2, "Costs estimated, allocated, tracked and protected", it.budget,
             "Estimate compute from 6·N·D, GPU count and utilisation; allocate every category; "
             "review burn against forecast weekly, owned by program management; hold a reserve "
             "of 10-15%.", partly_from=2),
    ItemSpec("levers", P2, "Levers agreed before anything slips", it.levers,
             "An ordered list for a budget slip (reserve, then ablations, then post-training "
             "rounds, then tokens) and one for a schedule slip, signed off before the run."),
    ItemSpec("objective", STRONG, "Starts from a defined objective", it.objective,
             "Capabilities, each measured by a named eval with a threshold, for a stated product "
             "use, with product evals and not only public benchmarks.", content=True),
    ItemSpec("roles", STRONG, "The product manager's role apart from research, engineering "
             "and program management", it.roles,
             "The PM owns the objective, the trade-offs and the ship call; research owns the "
             "recipe; engineering the cluster and pipeline; program management the plan, "
             "dependencies and risk review.", content=True),
    ItemSpec("build_vs_adapt", STRONG, "Build versus adapt, reasoned", it.build_vs_adapt,
             "Pretrain only when no open base model can reach the targets or the licence, data "
             "or control needs rule adapting out; otherwise adapt, cheaper and sooner.",
             content=True),
    ItemSpec("tradeoffs", STRONG, "Explicit trade-offs among quality, time and cost",
             it.tradeoffs,
             "Say which of quality, time and cost you protect and which you give up, and where "
             "the line is, before anyone has to ask.", content=True),
    ItemSpec("safety", STRONG, "Safety, legal and privacy from the start", it.safety,
             "Safety, legal and privacy reviewers in from day one, a licence and privacy check "
             "on the data before the run, red-teaming before release rather than at it."),
    ItemSpec("outcome", SIMULATION, "How the design plays out", vd.outcome,
             "A design whose chance of meeting every objective is at least the scenario's own "
             "on the same simulated worlds."),
    ItemSpec("followup_spike", FOLLOW, "The loss spike: who calls it, and what next",
             vd.followup_spike,
             "The training lead rolls back to the last good checkpoint and skips the offending "
             "batches within hours, as agreed in advance; escalate only if spikes recur."),
    ItemSpec("followup_budget", FOLLOW, "The budget cut: levers in the agreed order",
             vd.followup_budget,
             "Pull the levers in the order agreed before the run, and say what quality that "
             "costs; stay on budget."),
    ItemSpec("followup_ship", FOLLOW, "Strong benchmarks, lagging product evals: ship?",
             vd.followup_ship,
             "Read the product-eval gap against the eval's noise: hold (another round, or fix "
             "the data) when the gap is real; when it is within the noise and waiting costs "
             "weeks for almost no quality, ship with the gap stated and accepted.",
             partly_from=2),
)  # fmt: skip


def _status(spec: ItemSpec, j: Judgement) -> Status:
    content = [c for c in j.checks if c.kind == "content"]
    if spec.content and content and not any(c.passed for c in content):
        return "missed"
    if j.status is not None:
        return j.status
    return grade(j.checks, spec.partly_from)


def judge(
    plan: InterviewPlan,
    outcome: dict[str, Any] | None = None,
    revealed_estimates: Sequence[float] = (),
    reveal: bool = False,
) -> RubricReport:
    """Judge every rubric item on ``plan`` (and its follow-ups, replayed from its calls).

    ``outcome`` is :func:`sim.interview.risks.compare_designs` (None: the simulation item
    is not run); ``revealed_estimates`` are the model's compute figures earlier debriefs
    of this candidate showed, so an estimate copied from them is flagged. ``reveal``: the
    attempt is being handed in by the caller now, so the model's own figures are shown;
    nothing in the plan (``judged_at`` included) decides it.
    """
    answer = Answer(plan, outcome, revealed_estimates, reveal)
    out = []
    for spec in ITEMS:
        j = spec.judge(answer)
        evidence = tuple(e for c in j.checks for e in c.evidence) + j.note
        out.append(
            RubricItem(
                spec.id, spec.part, spec.title, _status(spec, j), evidence, spec.strong,
                j.checks, spec.content, j.claims,
            )
        )  # fmt: skip
    counts = {s: sum(1 for i in out if i.status == s) for s in STATUS_LABEL}
    replays = answer.replays.results if answer.replays is not None else {}
    return RubricReport(
        tuple(out), outcome, counts, answer.reveal,
        answer.model_compute_usd if answer.reveal else None,
        tuple(replays[f.id] for f in plan.followups if f.id in replays),
    )  # fmt: skip
