"""Decision points and the deciders that answer them.

A decision point has options, an owner (from decision rights) and a latency (the
signal's trip along the org graph, plus deliberation when nothing was agreed in
advance). A :class:`Decider` answers: a playbook or named policy in Monte Carlo,
a person through :mod:`sim.play.game`. Returning ``None`` means "ask a person".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from sim.scenario.spec import DECISION_OPTIONS
from sim.units import Days, TeamId

#: Deliberation when a decision kind has no pre-agreed playbook entry (days), before politics.
AD_HOC_DELIBERATION_DAYS = 0.75

#: The ad hoc decider's random stream, or a callable that makes it when first needed
#: (a stream costs about 9 us to build, and most plays never decide ad hoc).
Rng = np.random.Generator | Callable[[], np.random.Generator]


@dataclass(slots=True)  # not frozen: frozen init is 3x slower (made at every decision)
class DecisionPoint:
    """A choice someone must make now."""

    index: int
    key: str
    kind: str
    day: Days
    options: tuple[str, ...]
    owner: TeamId
    detected_by: TeamId
    latency_days: Days
    summary: str
    context: dict[str, Any] = field(default_factory=dict)


class Decider(Protocol):
    """Answers decision points; ``None`` asks a person (the game pauses)."""

    name: str

    def decide(self, point: DecisionPoint) -> str | None: ...


def first_available(preferences: Sequence[str], options: Sequence[str]) -> str | None:
    """The first preferred option that is on offer."""
    for p in preferences:
        if p in options:
            return p
    return None


class PolicyDecider:
    """Ordered preferences per decision kind; options not listed fall back to ``fallback``."""

    def __init__(
        self,
        name: str,
        preferences: Mapping[Any, Sequence[str]],
        fallback: Decider | None = None,
    ) -> None:
        self.name = name
        self.preferences = {k: tuple(v) for k, v in preferences.items()}
        self.fallback = fallback

    def decide(self, point: DecisionPoint) -> str | None:
        choice = first_available(self.preferences.get(point.kind, ()), point.options)
        if choice is not None:
            return choice
        if self.fallback is not None:
            return self.fallback.decide(point)
        return point.options[-1]


class AdHocDecider:
    """No agreed order: whoever decides picks one of the options, seen here as chance."""

    name = "ad_hoc"

    def __init__(self, rng: Rng) -> None:
        self._rng = rng

    @property
    def rng(self) -> np.random.Generator:
        """The stream of choices; a callable one is made on the first ad hoc choice."""
        if not isinstance(self._rng, np.random.Generator):
            self._rng = self._rng()
        return self._rng

    def decide(self, point: DecisionPoint) -> str | None:
        return str(point.options[int(self.rng.integers(len(point.options)))])


#: Named built-in policies (docs/levers.md, "Policies").
POLICIES: dict[str, dict[str, tuple[str, ...]]] = {
    "cautious": {
        "rollback": ("pause_investigate", "rollback_skip"),
        "data_fix": ("fix_and_restart", "fix_and_continue"),
        "budget": ("use_reserve", "cut_ablations", "fewer_post_training_rounds", "reduce_tokens"),
        "ship": ("extra_round", "ship"),
        "schedule": ("accept_slip",),
    },
    "aggressive": {
        "rollback": ("continue", "rollback_skip"),
        "data_fix": ("accept", "fix_and_continue"),
        "budget": ("reduce_tokens", "fewer_post_training_rounds", "accept_overrun"),
        "ship": ("ship",),
        "schedule": ("cut_post_training_rounds", "accept_slip"),
    },
    "overreact": {
        "rollback": ("overreact",),
        "data_fix": ("fix_and_restart",),
        "budget": ("reduce_tokens", "cut_ablations", "fewer_post_training_rounds"),
        "ship": ("fix_data_and_retune", "extra_round", "ship"),
        "schedule": ("add_core_staff", "accept_slip"),
    },
    "textbook": {
        "rollback": ("rollback_skip",),
        "data_fix": ("fix_and_continue", "fix_and_restart"),
        "budget": ("use_reserve", "cut_ablations", "fewer_post_training_rounds", "reduce_tokens"),
        "ship": ("extra_round", "ship"),
        "schedule": ("cut_post_training_rounds", "accept_slip"),
    },
}


def reference_decider(playbook: Mapping[Any, Sequence[str]]) -> Decider:
    """The playbook where it speaks, the textbook policy where it is silent.

    Counterfactual replays answer decisions that never arose in the original play with
    this, so an alternative is judged on its own effect, not on a random later call.
    """
    return PolicyDecider(
        "playbook", playbook, fallback=PolicyDecider("textbook", POLICIES["textbook"])
    )


#: Names accepted by ``--policy`` and the app: the scenario's playbook, ad hoc, or a built-in.
POLICY_NAMES: tuple[str, ...] = ("playbook", "ad_hoc", *POLICIES)


def make_decider(name: str, playbook: Mapping[Any, Sequence[str]], rng: Rng) -> Decider:
    """Build a named decider. ``playbook`` answers what it covers; the rest is ad hoc."""
    ad_hoc = AdHocDecider(rng)
    if name == "playbook":
        return PolicyDecider("playbook", playbook, fallback=ad_hoc)
    if name == "ad_hoc":
        return ad_hoc
    if name in POLICIES:
        return PolicyDecider(name, POLICIES[name])
    raise ValueError(f"unknown policy {name!r}; one of {', '.join(POLICY_NAMES)}")


class LogDecider:
    """Answers from a decision log by key (``kind#n``), then hands over to ``then``.

    ``then`` is None for a live game (ask the person) or a policy for replays and
    counterfactuals, where later decisions may not exist in the log.
    """

    name = "log"

    def __init__(self, choices: Mapping[str, str], then: Decider | None) -> None:
        self.choices = dict(choices)
        self.then = then

    def decide(self, point: DecisionPoint) -> str | None:
        choice = self.choices.get(point.key)
        if choice is not None and choice in point.options:
            return choice
        return self.then.decide(point) if self.then is not None else None


def all_options(kind: str) -> tuple[str, ...]:
    return DECISION_OPTIONS[kind]
