"""The parts a rubric verdict is made of: checks with their evidence, and how they grade.

Each rubric item runs a few :class:`Check` s. A check is *content* (what a text says,
judged by :mod:`sim.interview.content`), *structure* (a choice, a number, a
cross-reference), or *simulation* (how the design or a call played out). An item marked
as a content item earns nothing unless one of its content checks passes, so filler or
misplaced text can never carry it on structure alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Stance = Literal["sound", "thin", "unsound"]
Status = Literal["met", "partly", "missed", "not_played", "did_not_arise", "not_run"]
CheckKind = Literal["content", "structure", "simulation"]
STATUS_LABEL: dict[str, str] = {
    "met": "met",
    "partly": "partly met",
    "missed": "missed",
    "not_played": "not played",
    "did_not_arise": "did not arise",
    "not_run": "not run",
}
#: Points per status. A follow-up not played counts as not done; one whose situation never
#: arose on the design, or a simulation not run, is left out of the score.
POINTS: dict[str, float] = {"met": 1.0, "partly": 0.5, "missed": 0.0, "not_played": 0.0}


@dataclass(frozen=True)
class Check:
    """One thing an item looks for: passed or not, and the lines that show why."""

    name: str
    passed: bool
    kind: CheckKind
    evidence: tuple[str, ...]


def check(name: str, passed: bool, kind: CheckKind, *evidence: str) -> Check:
    return Check(name, bool(passed), kind, tuple(e for e in evidence if e))


@dataclass(frozen=True)
class Claim:
    """One thing the candidate said that an item's checks judge, and how it stands.

    *sound*: what was said is right; *unsound*: it is wrong (no reserve, a recipe change
    after one spike, shipping over a real product-eval gap, a right held far from the work,
    a practice refused); *thin*: it was said but says too little to credit. What the
    candidate did not say is no claim at all: it counts for coverage, never for soundness.
    """

    name: str
    stance: Stance
    evidence: str = ""


def claim(name: str, sound: bool, evidence: str = "", *, wrong: bool = True) -> Claim:
    """A claim: sound when ``sound``, else unsound (``wrong``) or thin (not ``wrong``)."""
    return Claim(name, "sound" if sound else "unsound" if wrong else "thin", evidence)


@dataclass(frozen=True)
class Judgement:
    """An item's status (None: grade from the checks), its checks, and the claims they judge."""

    checks: tuple[Check, ...]
    status: Status | None = None
    note: tuple[str, ...] = ()
    claims: tuple[Claim, ...] = ()


def judged(
    *checks: Check,
    status: Status | None = None,
    note: Sequence[str] = (),
    claims: Sequence[Claim] = (),
) -> Judgement:
    return Judgement(tuple(checks), status, tuple(note), tuple(claims))


def grade(checks: Sequence[Check], partly_from: int = 1) -> Status:
    """Met when every check passes, partly met from ``partly_from`` passes, else missed."""
    passed = sum(c.passed for c in checks)
    if passed == len(checks):
        return "met"
    return "partly" if passed >= partly_from else "missed"


def names(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "none"
