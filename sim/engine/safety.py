"""Safety, legal and privacy issues: latent from the start, found by reviews, dearer when late.

A project carries a Poisson number of latent issues (``incidents.safety.issues_mean``): some
sit in the data (personal data, content that may not be used), the rest show only in the
trained model's behaviour. A review finds each issue it can see with chance
``review_strength``. Engaged from the start (``levers.safety_from_start`` and a ``safety``
owner), the safety team reviews the data in ``prepare`` and the model when training ends;
otherwise there is one review, at release. A fix costs more the later it comes: from
``fix_days_early`` in ``prepare`` to ``fix_days_late`` at release, growing by the same factor
at every phase (the cost-of-change curve: Boehm). docs/model.md, "Safety".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.engine.rng import Streams
from sim.engine.signals import entity_stream
from sim.scenario.spec import PHASES, Scenario
from sim.units import Days

#: Reviews of an engaged safety team: after these phases (the release review always runs).
EARLY_REVIEWS: dict[str, str] = {"prepare": "data", "training": "model"}


@dataclass
class SafetyIssue:
    """One latent issue: where it shows, and the draws of the reviews that may find it."""

    index: int
    in_data: bool
    review_draws: dict[str, float]
    found_at: str | None = None

    def visible_after(self, phase: str) -> bool:
        """Data issues show from the start; behaviour issues once the model is trained."""
        return self.in_data or PHASES.index(phase) >= PHASES.index("training")


@dataclass
class SafetyBook:
    """A play's latent safety, legal and privacy issues."""

    issues: list[SafetyIssue] = field(default_factory=list)

    @classmethod
    def draw(cls, s: Scenario, streams: Streams) -> SafetyBook:
        sf = s.incidents.safety
        if not sf.enabled:
            return cls()
        rng = entity_stream(streams, "safety", "issues")
        count = int(rng.poisson(sf.issues_mean))
        book = cls()
        for i in range(count):
            own = entity_stream(streams, "safety", f"issue{i}")
            in_data = float(own.random()) < sf.data_share
            draws = {phase: float(own.random()) for phase in (*EARLY_REVIEWS, "release")}
            book.issues.append(SafetyIssue(i, in_data, draws))
        return book

    def review(self, after: str, strength: float) -> list[SafetyIssue]:
        """Issues a review after phase ``after`` finds (and marks found)."""
        found = []
        for issue in self.issues:
            if issue.found_at is None and issue.visible_after(after):
                if issue.review_draws[after] < strength:
                    issue.found_at = after
                    found.append(issue)
        return found

    @property
    def shipped(self) -> int:
        """Issues nobody found: they reach the product."""
        return sum(1 for i in self.issues if i.found_at is None)


def fix_days(s: Scenario, phase: str) -> Days:
    """Days to fix an issue found after ``phase``: early fix times the growth per phase."""
    sf = s.incidents.safety
    k = PHASES.index(phase)
    last = len(PHASES) - 1
    if sf.fix_days_early <= 0:
        return sf.fix_days_late * k / last
    return float(sf.fix_days_early * (sf.fix_days_late / sf.fix_days_early) ** (k / last))
