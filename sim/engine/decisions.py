"""Decision points and the deciders that answer them.

A decision point has options, an owner (from decision rights) and a latency (the
signal's trip along the org graph, plus deliberation when nothing was agreed in
advance). A :class:`Decider` answers: a playbook or named policy in Monte Carlo,
a person through :mod:`sim.play.game`. Returning ``None`` means "ask a person".
Where nothing was agreed, :class:`HumanDecider` stands for the holder deciding on the
spot: a noisy, loss-averse reading of the model's own forecasts (sim/engine/judgement.py).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from sim.engine.signals import reading_widening
from sim.scenario.spec import DECISION_OPTIONS
from sim.units import Days, TeamId

#: Deliberation when a decision kind has no pre-agreed playbook entry (days), before politics.
AD_HOC_DELIBERATION_DAYS = 0.75
#: Losses weigh this many times as much as gains of the same size (Tversky and Kahneman
#: 1992, median loss-aversion coefficient): a change from the status quo must gain clearly.
LOSS_AVERSION = 2.25
#: Log-spread of a person's reading of a forecast at the work; it widens with every hop the
#: news travelled to them (second-hand information is vaguer: ``reading_widening``).
READING_SIGMA = 0.3
#: Doing nothing, for each decision kind: what an undecided holder ends up with.
STATUS_QUO: dict[str, str] = {
    "rollback": "continue",
    "data_fix": "accept",
    "budget": "accept_overrun",
    "ship": "ship",
    "schedule": "accept_slip",
}
#: The trade-off right's response to an objective change: doing nothing keeps the work done.
OBJECTIVE_STATUS_QUO = "keep_work"

#: A keyed random stream for a decision (``key`` is the decision's ``kind#n``).
StreamFor = Callable[[str], np.random.Generator]


@dataclass(frozen=True, slots=True)
class Forecast:
    """What the model forecasts an option does, relative to the status quo."""

    days: float
    """Days added to the finish."""
    usd: float
    """Dollars added to the spend, salaries aside (days carry those)."""
    quality: float
    """Change of the mean true score of the targeted capabilities (0 to 1)."""


@dataclass(frozen=True)
class Outlook:
    """The forecasts of the options on offer and the rates to weigh them with."""

    options: dict[str, Forecast]
    usd_per_day: float
    """What a day of the finish costs: the project's salaries per day."""
    usd_per_score: float
    """What a whole unit of mean target score is worth to the holder."""


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
    #: The model's forecast of each option, made on demand (deciders that need it call it).
    outlook: Callable[[], Outlook] | None = None
    #: Hops of the org graph between the detecting team and the holder: what the holder
    #: reads of the work, it reads this far from it (sim/engine/signals.py).
    hops: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The point's facts as plain data (the outlook is a call into the live play, left out)."""
        return {
            "index": self.index,
            "key": self.key,
            "kind": self.kind,
            "day": self.day,
            "options": self.options,
            "owner": self.owner,
            "detected_by": self.detected_by,
            "latency_days": self.latency_days,
            "summary": self.summary,
            "context": copy.deepcopy(self.context),
            "hops": self.hops,
        }


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


class HumanDecider:
    """The holder deciding on the spot, with partial information and a status-quo bias.

    The holder reads the model's forecast of each option (days, dollars, quality, weighed in
    dollars by the outlook's rates) with lognormal noise of log-spread ``READING_SIGMA``, wider
    by ``reading_widening(hops)`` the further the holder is from the work (the same law every
    holder reads the work's figures by), counts losses ``LOSS_AVERSION`` times as heavily as
    gains, and takes the option of highest value; doing nothing (:data:`STATUS_QUO`) is worth
    zero, so a change must look clearly better. An option without a forecast is worth zero.
    """

    name = "ad_hoc"

    def __init__(self, stream_for: StreamFor) -> None:
        self._stream_for = stream_for

    def value(self, point: DecisionPoint, option: str, outlook: Outlook, z: list[float]) -> float:
        f = outlook.options.get(option)
        if f is None:
            return 0.0
        sigma = READING_SIGMA * reading_widening(point.hops)
        parts = (-f.days * outlook.usd_per_day, -f.usd, f.quality * outlook.usd_per_score)
        total = 0.0
        for part, zi in zip(parts, z, strict=True):
            seen = part * math.exp(sigma * zi - sigma * sigma / 2.0)
            total += seen if seen >= 0 else LOSS_AVERSION * seen
        return total

    def decide(self, point: DecisionPoint) -> str | None:
        options = point.options
        quo = status_quo(point.kind, options)
        if point.outlook is None:
            return quo if quo in options else options[0]
        outlook = point.outlook()
        z = self._stream_for(point.key).standard_normal(3 * len(options)).tolist()
        best, best_value = (quo if quo in options else options[0]), 0.0
        if best != quo:
            best_value = -math.inf
        for k, option in enumerate(options):
            if option == quo:
                continue
            v = self.value(point, option, outlook, z[3 * k : 3 * k + 3])
            if v > best_value:
                best, best_value = option, v
        return best


def status_quo(kind: str, options: Sequence[str]) -> str | None:
    """What doing nothing is at a decision of ``kind`` offering ``options`` (None: no such option).

    The trade-off right answers two questions: a slip (status quo: accept it) and an
    objective change (status quo: keep the work done against the old objective).
    """
    quo = STATUS_QUO.get(kind)
    if quo not in options and OBJECTIVE_STATUS_QUO in options:
        return OBJECTIVE_STATUS_QUO
    return quo


#: The earlier name of :class:`HumanDecider` (it picked uniformly at random).
AdHocDecider = HumanDecider


#: Named built-in policies (docs/levers.md, "Policies").
POLICIES: dict[str, dict[str, tuple[str, ...]]] = {
    "cautious": {
        "rollback": ("pause_investigate", "rollback_skip"),
        "data_fix": ("fix_and_restart", "fix_and_continue"),
        "budget": ("use_reserve", "cut_ablations", "fewer_post_training_rounds", "reduce_tokens"),
        "ship": ("extra_round", "ship"),
        "schedule": ("accept_slip", "rework"),
    },
    "aggressive": {
        "rollback": ("continue", "rollback_skip"),
        "data_fix": ("accept", "fix_and_continue"),
        "budget": ("reduce_tokens", "fewer_post_training_rounds", "accept_overrun"),
        "ship": ("ship",),
        "schedule": ("cut_post_training_rounds", "accept_slip", "keep_work"),
    },
    "overreact": {
        "rollback": ("overreact",),
        "data_fix": ("fix_and_restart",),
        "budget": ("reduce_tokens", "cut_ablations", "fewer_post_training_rounds"),
        "ship": ("fix_data_and_retune", "extra_round", "ship"),
        "schedule": ("add_core_staff", "accept_slip", "rework"),
    },
    "textbook": {
        "rollback": ("rollback_skip",),
        "data_fix": ("fix_and_continue", "fix_and_restart"),
        "budget": ("use_reserve", "cut_ablations", "fewer_post_training_rounds", "reduce_tokens"),
        "ship": ("extra_round", "ship"),
        "schedule": ("cut_post_training_rounds", "accept_slip", "rework"),
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


def make_decider(
    name: str, playbook: Mapping[Any, Sequence[str]], stream_for: StreamFor
) -> Decider:
    """Build a named decider. ``playbook`` answers what it covers; the rest is ad hoc."""
    ad_hoc = HumanDecider(stream_for)
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
