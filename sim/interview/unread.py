"""What an answer read from words leaves empty, so the candidate knows what to add.

The parts the rubric asks for that no sure reading filled, before the answer is judged. The
reader finds about half of what a new author says (docs/interview.md, "The prose
reader, measured"); a part it missed is a part the candidate fills in Part 1 and Part 2,
never a verdict against them. Worked out from the readings and the plan they made, never
from the text again.
"""

from __future__ import annotations

from sim.interview.prose import ProseReading
from sim.scenario.spec import DECISION_KINDS, RISK_KINDS
from sim.scenario.vocabulary import words

#: Readings by the field they fill, in the order the question asks for them.
_PARTS: tuple[tuple[str, str], ...] = (
    ("challenge", "challenges, each with what it puts at risk"),
    ("late", "why a problem found late costs so much"),
    ("strategy", "build or adapt, and why"),
    ("product_use", "who uses the model, for what"),
    ("gate", "a gate before the expensive run, with what it checks"),
    ("compute_usd", "a compute estimate in dollars"),
    ("reserve", "a reserve (or that you keep none)"),
    ("ablation", "the share of compute for ablations"),
    ("tracking", "how spend is tracked, and by whom"),
    ("playbook", "what you do first when the budget is cut or the date slips"),
    ("role", "what the PM, research and engineering each own"),
    ("tradeoff", "a trade-off, and which way it goes"),
)


#: The fields of Part 1 (what makes it hard); the owners and rights come after them.
_PART1 = ("challenge", "late")


def _field(key: str) -> str:
    return key.split("=", 1)[0].split(":", 1)[0]


def not_read(read: ProseReading) -> list[str]:
    """The parts of the answer that no sure reading filled, each as a short line.

    Unsure readings count as not read until the candidate confirms them.
    """
    fields = {_field(r.key) for r in read.readings if not r.unsure}
    missing = [(field, label) for field, label in _PARTS if field not in fields]
    part1 = [label for field, label in missing if field in _PART1]
    part2 = [label for field, label in missing if field not in _PART1]
    plan = read.plan
    owned = [r for r in RISK_KINDS if plan.owner(r) is not None]
    unowned = [words(r) for r in RISK_KINDS if r not in owned]
    silent = [words(r) for r in owned if not plan.early_warning(r)]
    undecided = [words(k) for k in DECISION_KINDS if plan.right(k) is None]
    org = []
    if len(unowned) == len(RISK_KINDS):
        org.append("an owner for each risk, with its early warning")
    elif unowned:
        org.append(f"an owner for {len(unowned)} of the {len(RISK_KINDS)} risks: "
                   + ", ".join(unowned))  # fmt: skip
    if silent:
        org.append("an early warning for " + ", ".join(silent))
    if len(undecided) == len(DECISION_KINDS):
        org.append("who makes each call (" + ", ".join(undecided) + ")")
    elif undecided:
        org.append(f"who makes {len(undecided)} of the {len(DECISION_KINDS)} calls: "
                   + ", ".join(undecided))  # fmt: skip
    return part1 + org + part2
