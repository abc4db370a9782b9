"""The coach's grading protocol, counted from what the prose reader read.

A coach grades a whole answer by a written protocol (tests/data/rubric_graded/FRESH.md,
with the rules fixed in tests/data/prose_corpus/README.md, "Coach grades by protocol"):
each of 16 items scores 0, ½ or 1 (8 core, 5 strong, 3 follow-ups); the total is
``core + (strong + follow-ups) / 2``; its band gives the grade (below 1 is 1, [1, 3) is
2, [3, 6) is 3, [6, 9) is 4, 9 and up is 5), one grade off per distinct hazard, never
below 1.

:func:`protocol_count` applies those written item tests to the reader's output keys
(:mod:`sim.interview.prose`'s vocabulary: ``challenge=…``, ``owner:…``, ``call:…``,
``hazard:…``), so each test is about *what was said*, never about how it was phrased. The
tests were written once from the protocol's text on 2026-12-05 and not fitted to any
graded set; ``benchmarks/rubric_ranking.py`` reports how this count ranks the coach's
grades beside the rubric's own grade (docs/interview.md, "How well the score ranks
answers"). It is a measurement, not the rubric's grade.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sim.interview.vocabulary import Text, find

#: The protocol's lifecycle areas, by the reader's risk kinds.
AREA = {
    "data_quality": "data", "tokenizer_config": "data", "contamination": "evaluation",
    "eval_gap": "evaluation", "licensing": "safety_legal", "safety": "safety_legal",
    "loss_spike": "stability", "hardware": "hardware", "budget": "budget",
    "staffing": "people",
}  # fmt: skip
#: Teams that do the technical work: a run call held by one is held near the work.
TECHNICAL = frozenset({"pretraining", "infra", "data", "evals", "post_training"})
#: The bands' lower edges (grade 2 from 1, 3 from 3, 4 from 6, 5 from 9).
BANDS = (1.0, 3.0, 6.0, 9.0)
#: A price said with a trade-off: a number, a span of time, money or the reserve.
PRICE = re.compile(r"\d|week|day|month|reserve|\$")


@dataclass(frozen=True)
class ProtocolCount:
    """The protocol's counts for one answer, and the grade they give."""

    core: float
    strong: float
    followups: float
    hazards: frozenset[str]

    @property
    def total(self) -> float:
        """The total before hazards: core + ½ (strong + follow-ups)."""
        return self.core + (self.strong + self.followups) / 2

    @property
    def grade(self) -> int:
        """The total's band, one grade off per distinct hazard, never below 1."""
        band = 1 + sum(self.total >= edge for edge in BANDS)
        return max(1, band - len(self.hazards))


def _step(full: bool, half: bool) -> float:
    return 1.0 if full else 0.5 if half else 0.0


def protocol_count(
    keys: Iterable[str], sentences: Mapping[str, str] | None = None
) -> ProtocolCount:
    """The protocol's counts from the reader's keys (sure or confirmed readings).

    ``sentences``: the sentence each of ``strategy``, ``tradeoff`` and
    ``call:benchmarks_vs_product`` was read from (its reason, its price, the gap's noise).
    """
    keys = list(dict.fromkeys(keys))
    said = {k: v.lower() for k, v in (sentences or {}).items()}
    values: dict[str, list[str]] = {}
    for k in keys:
        name, _, value = k.partition("=")
        values.setdefault(name, []).append(value)

    def share(name: str) -> bool:  # a share said, not refused
        return any(v != "0" for v in values.get(name, ()))

    challenges = values.get("challenge", [])
    areas = {AREA[r] for r in challenges if r in AREA}
    owned = [k.split("=")[0].partition(":")[2] for k in keys if k.startswith("owner:")]
    warned = [r for r in owned if f"warning:{r}" in values]
    rights = {n.partition(":")[2]: v[0] for n, v in values.items() if n.startswith("right:")}
    run_calls = [d for d in ("rollback", "data_fix") if rights.get(d) in TECHNICAL]
    estimates = [n for n in values if n.endswith("_usd")]
    costs = (
        "compute_usd" in values,
        len(estimates) + share("ablation") >= 2,
        "tracking" in values,
        share("reserve"),
    )
    levers = [v for n in ("playbook:budget", "playbook:schedule") for v in values.get(n, ())]
    core = sum((
        _step(len(areas) >= 4, len(areas) >= 2),  # breadth
        _step(len(challenges) >= 2, len(challenges) == 1),  # consequences
        _step("late" in values, False),  # grounding: the mechanism
        _step(len(warned) >= 2, bool(owned)),  # owners and early warnings
        _step(bool(run_calls), bool(rights) or "playbook:rollback" in values),  # rights
        _step(any(n.startswith("gate:") for n in values), share("ablation")),  # gates
        _step(sum(costs) >= 2, sum(costs) == 1),  # estimated, allocated, tracked, reserve
        _step(any(">" in v for v in levers), bool(levers)),  # levers in an order
    ))  # fmt: skip
    objective = ("product_use" in values) + (
        "practice:ship_on_product_evals" in values or "product_evals_early=on" in keys
    )
    pm = "role:product_manager" in values or "product" in rights.values()
    others = any(n.startswith("role:") and n != "role:product_manager" for n in values) or any(
        v != "product" for v in rights.values()
    )
    strategy = said.get("strategy", "")
    strong = sum((
        _step(objective == 2, objective == 1),
        _step(pm and others, pm or others),  # the PM's role apart from the others'
        _step("strategy" in values and bool(find(Text.of(strategy), ("adapt_criterion",)).found),
              "strategy" in values),  # build or adapt, with a reason tied to the target
        _step("tradeoff" in values and bool(PRICE.search(said.get("tradeoff", ""))),
              "tradeoff" in values),  # a trade-off with its price
        _step(False, "safety_from_start=on" in keys),  # safety and legal from the start
    ))  # fmt: skip
    spike = values.get("call:loss_spike", [])
    cut = values.get("call:budget_cut", [])
    ship = values.get("call:benchmarks_vs_product", [])
    cut_sound = bool(cut) and cut[0] != "accept_overrun"
    followups = sum((
        _step(bool(spike) and spike[0] in ("rollback_skip", "pause_investigate"), False),
        _step(cut_sound and len(cut) >= 2, cut_sound),
        _step(bool(ship) and ship[0] != "ship"
              and "nois" in said.get("call:benchmarks_vs_product", ""),
              bool(ship) and ship[0] != "ship"),  # the gap read against its noise
    ))  # fmt: skip
    rollback = values.get("playbook:rollback", [""])[0]
    budget = values.get("playbook:budget", [""])[0]
    hazards = {
        "no_reserve": "reserve=0" in keys,
        "restart_after_one_spike": (bool(spike) and spike[0] == "overreact")
        or rollback.startswith("overreact"),
        "ship_on_benchmarks_or_gap": "hazard:ship_on_benchmarks=yes" in keys
        or (bool(ship) and ship[0] == "ship"),
        "refuse_cheap_checks": "ablation=0" in keys
        or "decontaminate=off" in keys
        or "hazard:no_gate=yes" in keys,
        "run_calls_by_product_or_leadership": any(
            rights.get(d) in ("product", "leadership") for d in ("rollback", "data_fix")
        ),
        "owned_by_nobody_or_everybody": "hazard:no_owner=yes" in keys,
        "decide_as_it_comes": "hazard:ad_hoc=yes" in keys,
        "safety_only_at_release": "safety_from_start=off" in keys,
        "overrun_first": budget.startswith("accept_overrun")
        or (bool(cut) and cut[0] == "accept_overrun"),
    }
    return ProtocolCount(core, strong, followups, frozenset(h for h, on in hazards.items() if on))
