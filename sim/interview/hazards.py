"""Hazards said in words: the wrong practices the question's field warns of that no plan field holds.

Most wrong practices land in a plan field, and the rubric judges them there: no reserve
(``reserve=0``), a recipe change after one spike (the rollback playbook), decontamination
refused, a run call held by product. Four have no field, so a prose answer that says them
read as nothing and cost nothing, whatever a coach thinks of them:

- **nobody owns it**: ownership shared by everyone ("everyone owns everything", "the whole
  team shares ownership"), left to someone unnamed ("someone could look after the budget,
  I'm not sure who"), or refused ("we will not set up owners"). The question's first hint
  is to give every risk an owner.
- **nothing agreed in advance**: deciding as things come ("we will fix things as they come
  up", "figure the rest out as we go", "decide then"). The question asks for levers agreed
  before anything slips.
- **ship on the benchmarks**: public benchmarks as the ship criterion ("we ship as soon as
  the public benchmarks look strong", "benchmarks are enough to decide the ship",
  "whatever the product evals say"). This is the trap of the third follow-up.
- **no gate before the run**: gates refused ("there is no gate after data prep", "we skip
  the ablation gate", "we go straight to the big run").

:func:`hazards_in` finds them in a text, sentence by sentence, never in a negated clause
("we never ship on the benchmarks alone" is no hazard) and never in a sentence that
describes a risk's consequence rather than the plan ("the cluster idles while nobody
decides" is a consequence). The prose reader shows each as a reading (``hazard:<id>=yes``,
measured on the labelled corpus); the rubric reads them afresh from the candidate's own
words each time (the prose answer, every text of the plan, a follow-up's reason) and
judges each as an unsound claim of its item (:data:`sim.interview.weights.CLAIM_WEIGHTS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sim.interview.clauses import negated, sentences


@dataclass(frozen=True)
class Hazard:
    """One hazard: the rubric item whose claim it is, what it says, and how it is said.

    ``said`` patterns find the hazard where it is not negated; ``self_negating`` patterns
    carry their own negation ("no owners", "not sure who") and count as they stand.
    """

    id: str
    item: str
    label: str
    said: tuple[re.Pattern[str], ...] = ()
    self_negating: tuple[re.Pattern[str], ...] = ()


_ANYONE = r"(?:everyone|everybody|all\s+of\s+us|the\s+(?:whole|entire)\s+team|the\s+team\s+as\s+a\s+whole)"
_OWN = r"(?:owns?|share[sd]?\s+(?:the\s+)?ownership|is\s+responsible|are\s+responsible|in\s+charge)"
_COMES = (r"(?:as\s+we\s+go|as\s+(?:they|things|it|problems|issues)\s+(?:come|comes|arise|arises|"
          r"happen|happens)(?:\s+up)?|when\s+(?:they|things|it|problems|issues)\s+(?:come|comes)\s+up)")  # fmt: skip
_SHIP = r"(?:ship|launch|release|go\s+live)\w*"
_BENCH = r"(?:public\s+)?(?:benchmark|leaderboard|mmlu)\w*"

HAZARDS: dict[str, Hazard] = {
    h.id: h
    for h in (
        Hazard(
            "no_owner", "owners", "nobody owns the risks: ownership shared by all or left unnamed",
            said=(
                re.compile(rf"\b{_ANYONE}\s+(?:(?!who\b)\w+\s+){{0,3}}?{_OWN}\b"),
                re.compile(r"\b(?:shared|collective|joint)\s+ownership\b|"
                           r"\bown(?:s|ed)?\s+(?:it\s+|them\s+)?collectively\b|"
                           r"\beveryone'?s\s+(?:job|responsibility|problem)\b"),
                re.compile(r"\b(?:someone|somebody)\s+(?:on\s+the\s+team\s+)?(?:could|will|can|"
                           r"should|would|might)\s+(?:own|look\s+after|handle|take\s+care\s+of|"
                           r"track)\b"),
            ),
            self_negating=(
                re.compile(r"\bnot\s+sure\s+who\b"),
                re.compile(r"\b(?:no|without)\s+(?:named\s+|clear\s+|single\s+|fixed\s+)?owners\b"),
                re.compile(r"\b(?:not|never)\s+(?:set\s+up|assign|name|appoint)\s+(?:any\s+)?"
                           r"owners\b"),
            ),
        ),
        Hazard(
            "ad_hoc", "levers", "nothing agreed in advance: decided as things come",
            said=(
                re.compile(rf"\b(?:decide|figure|work|sort|fix|handle|deal|react|improvise|"
                           rf"adjust|adapt)\w*\b[^.;]{{0,40}}\b{_COMES}"),
                re.compile(r"\b(?:handle|deal\s+with|fix|tackle)\w*\s+whatever\s+(?:comes|"
                           r"happens)\b"),
                re.compile(r"\b(?:figure|work|sort)\w*\s+(?:it|things|the\s+rest)\s+out\b"
                           r"(?!\s+(?:before|in\s+advance|up\s+front|ahead))"),
                re.compile(r"\bdecide\s+then\b|\bplay\s+it\s+by\s+ear\b|\bwing\s+it\b"),
            ),
        ),
        Hazard(
            "ship_on_benchmarks", "objective", "the public benchmarks decide the ship call",
            said=(
                re.compile(rf"\b(?:when|once|as\s+soon\s+as)\b[^.;]{{0,80}}\b{_BENCH}[^.;]{{0,50}}"
                           rf"\b{_SHIP}"),
                re.compile(rf"\b{_SHIP}\s+(?:\w+\s+){{0,2}}(?:as\s+soon\s+as|when|once)\b[^.;]{{0,60}}"
                           rf"\b{_BENCH}"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,3}}?(?:are|is)\s+enough\b"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,2}}?(?:tell|decide|show)\w*\s+(?:\w+\s+)?"
                           r"(?:when|whether|if)\b"),
                re.compile(rf"\b(?:strong|good|great|high)\s+{_BENCH}\s+mean\w*\b[^.;]{{0,20}}\b"
                           rf"{_SHIP}"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,2}}(?:are|is|look\w*)\s+(?:\w+\s+)?"
                           rf"(?:strong|good|great|high)\b[^.;]{{0,12}}\b(?:so|then)\b"
                           rf"[^.;]{{0,15}}\b{_SHIP}"),
                re.compile(rf"\b(?:lean|rel[yi]\w*|go)\w*\s+(?:on|by)\s+(?:the\s+)?{_BENCH}\s+"
                           r"to\s+decide\b"),
                re.compile(r"\bwhatever\s+the\s+product\s+evals?\s+say\b|"
                           r"\bproduct\s+evals?\s+(?:will\s+)?(?:catch\s+up|always\s+lag|"
                           r"are\s+(?:useful\s+)?colou?r|are\s+(?:a\s+)?nice\s+to\s+have)\b"),
            ),
        ),
        Hazard(
            "no_gate", "gates", "no gate before the main run",
            said=(
                re.compile(r"\b(?:skip|drop|forgo|avoid)\w*\s+(?:the\s+|any\s+|a\s+)?"
                           r"(?:\w+\s+)?(?:gate|review|go\s*/?\s*no\s*go)s?\b"),
                re.compile(r"\b(?:straight|directly|right)\s+(?:in)?to\s+the\s+(?:main|big|full|"
                           r"real)\s+run\b"),
            ),
            self_negating=(
                re.compile(r"\b(?:no(?![\s/]+go\b)|without\s+(?:a|any))\s+(?:\w+\s+){0,2}?(?:gate|go\s*/?\s*"
                           r"no\s*go)s?\b(?![-\s]*(?:keeper|way))"),
                re.compile(r"\b(?:not|never)\s+(?:set\s+up|have|hold|run|do)\s+(?:any\s+)?"
                           r"(?:\w+\s+){0,3}?(?:gates?|reviews?)\b"),
            ),
        ),
    )
}  # fmt: skip

#: A sentence about what a risk does when it strikes ("if nobody makes a call the run sits
#: there burning money", "the cluster idles while nobody decides") describes the risk, not
#: the plan: no hazard is read in it.
CONSEQUENCE = re.compile(
    r"\b(?:if|when|while|unless)\s+(?:nobody|no\s+one|someone|everyone)\b|"
    r"\b(?:nobody|no\s+one)\s+(?:decides|acts|makes|owns\s+it\b)"
)


def _low(s: str) -> str:
    return s.lower().replace("-", " ").replace("’", "'")


def _said(low: str, h: Hazard) -> re.Match[str] | None:
    for p in h.self_negating:
        m = p.search(low)
        if m is not None and not negated(low, m.start(), refusals=False):
            return m
    for p in h.said:
        for m in p.finditer(low):
            if not negated(low, m.start(), refusals=False):
                return m
    return None


def hazards_in(text: str) -> list[tuple[str, str]]:
    """Each hazard ``text`` states, with the sentence that states it, in order, once each."""
    found: dict[str, str] = {}
    for s in sentences(text):
        low = _low(s)
        if CONSEQUENCE.search(low):
            continue
        for h in HAZARDS.values():
            if h.id not in found and _said(low, h):
                found[h.id] = s
    return list(found.items())


def stated(texts: Iterable[str]) -> dict[str, str]:
    """The hazards the candidate's texts state, each with the first sentence stating it."""
    out: dict[str, str] = {}
    for text in texts:
        for hid, s in hazards_in(text):
            out.setdefault(hid, s)
    return out
