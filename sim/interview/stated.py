"""What the candidate's words state that no plan field holds: four hazards and one practice.

Most practices land in a plan field, and the rubric judges them there: no reserve
(``reserve=0``), a recipe change after one spike (the rollback playbook), decontamination
refused, a run call held by product. Some have no field, so a prose answer that said them
read as nothing and earned or cost nothing, whatever a coach thinks of them. The hazards
(wrong practices the question's field warns of):

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

And its sound counterpart, the practice:

- **ship on the product evals**: the ship call rests on the product evals ("I decide the
  ship call based on the product evals", "I'd only ship once the product evals clear
  their threshold").

:func:`stated_in` finds them in a text, sentence by sentence, never in a negated clause
("we never ship on the benchmarks alone" is no hazard) and never in a sentence that
describes a risk's consequence or argues for the practice ("the cluster idles while
nobody decides", "without a gate we would find defects late"). The prose reader shows
each as a reading (``hazard:<id>=yes``, ``practice:<id>=yes``, measured on the labelled
corpus); the rubric reads them afresh from the candidate's own words each time (the prose
answer, every text of the plan, a follow-up's reason) and judges each as a claim of its
item, unsound for a hazard and sound for the practice
(:data:`sim.interview.weights.CLAIM_WEIGHTS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sim.interview.clauses import NOT, NOT_EXCEPT, negated, sentences


@dataclass(frozen=True)
class Stated:
    """One thing said in words: its item, whether it is sound, what it says, how it is said.

    ``said`` patterns find it where it is not negated; ``self_negating`` patterns carry
    their own negation ("no owners", "not sure who") and count as they stand.
    """

    id: str
    item: str
    sound: bool
    label: str
    said: tuple[re.Pattern[str], ...] = ()
    self_negating: tuple[re.Pattern[str], ...] = ()

    @property
    def kind(self) -> str:
        """``practice`` or ``hazard``: the reading's key and the claim's name start with it."""
        return "practice" if self.sound else "hazard"

    @property
    def key(self) -> str:
        """The reading's key in the reader's output vocabulary (``hazard:no_owner=yes``)."""
        return f"{self.kind}:{self.id}=yes"


_ANYONE = (
    r"(?:everyone|everybody|all\s+of\s+us|(?:the\s+)?(?:whole|entire)\s+team|all\s+the\s+team|"
    r"the\s+team\s+as\s+a\s+whole)"
)
_OWN = (
    r"(?:owns?|owners?\s+of|share[sd]?\s+(?:the\s+)?(?:ownership|responsibility)|"
    r"feels?\s+(?:a\s+sense\s+of\s+)?ownership|(?:is|are)\s+(?:responsible|"
    r"accountable)|in\s+charge|decides?|makes?\s+the\s+(?:\w+\s+)?calls?)"
)
#: What may stand between "everyone" and its owning verb ("everyone on the team really owns").
_FILL = (
    r"(?:on\s+the\s+team|in\s+the\s+team|here|together|jointly|collectively|really|just|"
    r"should|will|would|must|can|could|is|are|be|equally|also)"
)
_COMES = (
    r"(?:as\s+we\s+go|as\s+(?:they|things|it|problems|issues)\s+(?:come|comes|arise|arises|"
    r"happen|happens)(?:\s+up)?|when\s+(?:they|things|it|problems|issues)\s+(?:come|comes)\s+up|"
    r"when\s+(?:they|it|that|things)\s+(?:happens?|arises?|hits?))"
)
_SHIP = r"(?:ship|launch|release|go\s+live)\w*"
_BENCH = r"(?:public\s+)?(?:benchmark|leaderboard|mmlu)\w*"
#: The product's own evaluation in the words people use for it (not a public benchmark,
#: not an overall or average figure).
_NOT_OURS = (
    r"(?!(?:public|benchmark|leaderboard|mmlu|gsm8k|humaneval|open|external|overall|average|"
    r"final|total|aggregate|headline|loss|eval\s+loss)\b)"
)
_PRODUCT_SET = (
    rf"{_NOT_OURS}(?:(?:in\s+product|product|customer|user|client|internal)\s+evals?\b|"
    r"(?:\w+\s+)?(?:graded|judged|rated|labell?ed)\s+\w+|"
    rf"(?:[\d,]+\s+{_NOT_OURS})?\w+\s+(?:score|scores|ratings|result|results|set|suite)\b|"
    r"a\s?/\s?b\b)"
)

STATED: dict[str, Stated] = {
    h.id: h
    for h in (
        Stated(
            "no_owner", "owners", False,
            "nobody owns the risks: ownership shared by all or left unnamed",
            said=(
                re.compile(rf"\b{_ANYONE}\s+(?:{_FILL}\s+){{0,4}}?{_OWN}\b"),
                re.compile(r"\b(?<!\bour\s)(?<!\btheir\s)(?<!\bmy\s)(?:owns?|owners?|responsib\w*|"
                           r"accountab\w*)\b[^.;]{0,40}\btogether\b"),
                re.compile(r"\b(?:shared|collective|joint)\s+ownership\b|"
                           r"\bshar(?:e|es|ing)\s+(?:the\s+)?ownership\b|"
                           r"\bown(?:s|ed)?\s+(?:\w+\s+){0,2}?collectively\b|"
                           r"\beveryone'?s\s+(?:job|responsibility|problem)\b"),
                re.compile(r"\bwhoever\b[^.;]{0,40}\b(?:fix|deal|handle|own|pick|take|look|watch|"
                           r"catch|free|available|around|on\s+call)\w*|\banyone\s+(?:can|could|will|may)\s+(?:pick|take|own|handle|"
                           r"fix|deal)\w*"),
                re.compile(r"\b(?:ownership|responsibilit\w*|accountabilit\w*)\b[^.;]{0,30}\b(?:is|are|be)\s+"
                           r"(?:fluid|shared|collective|joint|everyone'?s|flexible)\b"),
                re.compile(r"\b(?:assign|name|pick|choose|appoint)\w*\s+(?:the\s+)?owners?\s+later\b|"
                           r"\bwe\s+all\s+(?:\w+\s+){0,2}?(?:own|watch|keep\s+an\s+eye|look\s+after|"
                           r"monitor|take\s+care)\b|"
                           r"\b(?:take\s+care\s+of|handle|look\s+after|watch)\w*\s+(?:\w+\s+){0,2}?"
                           r"together\b"),
                re.compile(r"\b(?:someone|somebody)\s+(?:\w+\s+)?(?:on\s+the\s+team\s+)?(?:could|will|"
                           r"can|should|would|might)\s+(?:own|look\s+after|handle|take\s+care\s+of|"
                           r"track|decide|make\s+the\s+(?:\w+\s+)?call)\b"),
                # held by all: "responsibility sits with everybody who touches the data"
                re.compile(rf"\b(?:sits?|lies|rests?|is|are)\s+with\s+{_ANYONE}\b"),
            ),
            self_negating=(
                re.compile(r"\bnot\s+sure\s+who\b|\b(?:owners?|who\s+is\s+responsible)\b[^.;]{0,40}\b"
                           r"(?:we\s+(?:will|'ll)\s+see|tbd|to\s+be\s+(?:decided|named|agreed))\b|"
                           r"\b(?:figure|work|sort)\w*\s+out\s+who\s+(?:owns|is\s+responsible|does)\b"),
                re.compile(r"\b(?:no|without)\s+(?:named\s+|clear\s+|single\s+|fixed\s+)?owners\b"),
                re.compile(r"\b(?:not|never)\s+(?:set\s+up|assign|name|appoint)\s+(?:any\s+)?"
                           r"(?:\w+\s+)?owners\b"),
            ),
        ),
        Stated(
            "ad_hoc", "levers", False, "nothing agreed in advance: decided as things come",
            self_negating=(
                re.compile(r"(?:n't|\bnot|\bnever|\bdont)\s+(?:\w+\s+)?plan\s+(?:\w+\s+){0,2}?"
                           r"(?:for|ahead|in\s+advance)\b|"
                           r"\b(?:no|without\s+a)\s+playbook\b|\bno\s+point\s+(?:in\s+)?planning\b|"
                           r"\b(?:rather\s+than|instead\s+of)\s+(?:a\s+|any\s+)?(?:detailed\s+|fixed\s+|"
                           r"formal\s+)?(?:plan|playbook)\b"),
            ),
            said=(
                re.compile(rf"\b(?:decide|figure|work|sort|fix|handle|deal|react|improvise|"
                           rf"adjust|adapt|discuss|talk|think)\w*\b[^.;]{{0,40}}\b{_COMES}"),
                re.compile(r"\b(?:handle|deal\s+with|decide|fix|sort|discuss|talk\s+about|react)\w*\s+"
                           r"(?:\w+\s+){0,4}?(?:if|when)\s+"
                           r"(?:they|it|things)\s+(?:happen|happens|come|comes|arise|arises)\b|"
                           r"\bcross\s+that\s+bridge\b|\bsee\s+what\s+happens\b|"
                           r"\btake\s+(?:things|it|them)\s+as\s+(?:they|it)\s+comes?\b|\bimprovis\w*|"
                           r"\bon\s+the\s+fly\b"),
                re.compile(r"\b(?:handle|deal\s+with|fix|tackle)\w*\s+whatever\s+(?:comes|"
                           r"happens)\b"),
                re.compile(r"\b(?:figure|work|sort)\w*\s+(?:it|things|the\s+rest)\s+out\b"
                           r"(?!\s+(?:before|in\s+advance|up\s+front|ahead))"),
                re.compile(r"\bdecide\s+then\b|\bplay\w*\s+(?:it\s+|things\s+)?by\s+ear\b|"
                           r"\bwing\s+it\b"),
                re.compile(r"\b(?:think|decide|figure|deal|handle|talk|judg)\w*\s+(?:\w+\s+){0,3}?"
                           r"(?:in\s+(?:that|the)\s+moment|at\s+the\s+time|on\s+the\s+day)\b"),
            ),
        ),
        Stated(
            "ship_on_benchmarks", "objective", False, "the public benchmarks decide the ship call",
            said=(
                re.compile(rf"\b(?:when|once|as\s+soon\s+as)\b[^.;]{{0,80}}\b{_BENCH}[^.;]{{0,50}}"
                           rf"\b{_SHIP}"),
                re.compile(rf"\b{_SHIP}[\s:]+(?:\w+\s+){{0,2}}(?:as\s+soon\s+as|when|once)\b[^.;]{{0,60}}"
                           rf"\b{_BENCH}"),
                # the release judged by looking at the benchmarks, no product eval named
                re.compile(rf"^(?![^.;]*\b(?:product|users?|customers?)\b)[^.;]*?\b{_SHIP}\b"
                           rf"[^.;]{{0,40}}?\b(?:look\w*\s+at|go\w*\s+by|judg\w*\s+(?:it\s+)?(?:on|by))"
                           rf"\b[^.;]{{0,30}}?\b{_BENCH}"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,3}}?(?:are|is)\s+enough\s+(?:to|for)\s+"
                           rf"(?:\w+\s+){{0,2}}?(?:{_SHIP}|the\s+(?:ship|launch|release|go))"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,2}}?(?:tell|decide|show)\w*\s+(?:\w+\s+)?"
                           r"(?:when|whether|if)\b"),
                re.compile(rf"\b(?:strong|good|great|high)\s+{_BENCH}\s+mean\w*\b[^.;]{{0,20}}\b"
                           rf"{_SHIP}"),
                re.compile(rf"\b{_BENCH}\s+(?:\w+\s+){{0,2}}(?:are|is|look\w*)\s+(?:\w+\s+)?"
                           rf"(?:strong|good|great|high)\b[^.;]{{0,12}}\b(?:so|then)\b"
                           rf"[^.;]{{0,15}}(?:\b{_SHIP}|\b(?:it'?s|it\s+is|we'?re|we\s+are)\s+ready\b)"),
                re.compile(rf"\b(?:ship|launch|release)\w*\s+(?:criteri\w+|gate|signal|bar|decision)\b"
                           rf"[^.;]{{0,50}}?\b{_BENCH}|"
                           rf"\b{_BENCH}[\s,]+(?:\w+[\s,]+){{0,3}}?(?:is|are)\s+(?:the|our)\s+(?:\w+\s+){{0,2}}?"
                           rf"(?:criteri\w+|gate|signal|bar)\s+(?:for|to|of)\s+(?:{_SHIP}|the\s+(?:ship|"
                           r"launch|release))"),
                re.compile(rf"\b(?:lean|rel[yi]\w*|go)\w*\s+(?:on|by)\s+(?:the\s+)?{_BENCH}\s+"
                           r"to\s+decide\b"),
            ),
            # the product evals set aside: seen before concessives are blanked
            self_negating=(
                re.compile(r"\bwhatever\s+the\s+product\s+evals?\s+(?:say|show|tell)\b|"
                           r"\bproduct\s+evals?\s+(?:will\s+)?(?:catch\s+up|always\s+lag|"
                           r"are\s+(?:useful\s+)?colou?r|are\s+(?:a\s+)?nice\s+to\s+have)\b"),
            ),
        ),
        Stated(
            "no_gate", "gates", False, "no gate before the main run",
            said=(
                re.compile(r"\b(?:skip|drop|forgo|avoid)\w*\s+(?:the\s+|any\s+|a\s+)?"
                           r"(?:\w+\s+)?(?:gate|review|go\s*/?\s*no\s*go)s?\b"),
                re.compile(r"\b(?:straight|directly|right)\s+(?:from\s+(?:the\s+)?(?:data\s+)?(?:collection|"
                           r"prep\w*|assembly|gathering|data|crawl\w*|scrap\w*)\s+)?(?:in)?to\s+"
                           r"(?:the\s+)?(?:main|big|full|real)\s+(?:run|training)\b|"
                           r"\b(?:start|kick\w*\s+off|launch|begin)\w*\s+(?:the\s+)?(?:main|big|full)\s+run\s+"
                           r"(?:right\s+away|immediately|straight\s+away|at\s+once|directly)\b|"
                           r"\b(?:just|simply)\s+(?:start|begin|kick\s+off)\s+(?:training|the\s+(?:main\s+|"
                           r"big\s+)?run)\b|"
                           r"\b(?:start|begin|kick\w*\s+off)\w*\s+(?:pre)?training\s+(?:right\s+away|"
                           r"immediately|straight\s+away|at\s+once)\b|"
                           r"\bgates?\s+(?:would\s+)?slow\s+(?:us|the\s+project|things)\s+down\b"),
            ),
            self_negating=(
                re.compile(r"\b(?:no(?![\s/]+go\b)|without\s+(?:a|any))\s+(?:\w+\s+){0,2}?(?:gate|go\s*/?\s*"
                           r"no\s*go)s?\b(?![-\s]*(?:keeper|way))|"
                           r"\bwithout\s+(?:a|any)\s+(?:\w+\s+)?review\s+(?:stage|step|gate)\b"),
                re.compile(r"\b(?:not|never)\s+(?:set\s+up|have|hold|run|do)\s+(?:any\s+)?"
                           r"(?:\w+\s+){0,3}?(?:gates?|reviews?)\b"),
                # "Gates: none", "Gate: n/a"
                re.compile(r"^\W*(?:\w+\s+)?gates?\s*:\s*(?:none|nothing|n/?a)\b|"
                           r"^\W*(?:\w+\s+)?gates?\s*:\s*no\s*(?:[.;,!]|$)"),
                # "rather than formal gates, we trust …" (and no gate kept before it)
                re.compile(r"^(?:(?!\bgate|\breview|\bgo\s*/?\s*no).)*?\b(?:rather\s+than|instead\s+of)\s+"
                           r"(?:\w+\s+){0,2}?(?:gates?|reviews?|go\s*/?\s*no\s*gos?)\b"),
                re.compile(r"\bno\s+(?!go\b)(?:\w+\s+)?reviews?(?:\s+meetings?)?\b(?!\s+of\s+(?:the\s+)?(?:budget|"
                           r"spend|cost|burn))|\bno\s+go[\s/]+no\s+go\b|"
                           r"\brather\s+not\s+slow\w*[^.;]{0,30}\b(?:gates?|reviews?)\b"),
            ),
        ),
        Stated(
            "ship_on_product_evals", "objective", True,
            "the ship call rests on the product evals",
            said=(
                re.compile(rf"\b{_SHIP}\b[^.;]{{0,60}}?\b(?:based\s+on|rests?\s+on|depends?\s+on|"
                           r"gated\s+on|on|by|once|when|if|against|after)\s+(?:the\s+|our\s+)?"
                           r"product\s+evals?\b"),
                # the product's own set named by what it is ("on the 900 question set", "with
                # the chat score", "going by the clinician ratings", "on the A/B"), never a
                # public or an overall figure
                re.compile(rf"\b{_SHIP}\b[^.;:]{{0,50}}?\b(?:based\s+on|rests?\s+on|"
                           r"depends?\s+on|gated\s+on|judged\s+(?:only\s+)?on|on|by|going\s+by|"
                           r"with|against|waits?\s+for|look\w*\s+at)\s+"
                           rf"(?:the\s+|our\s+|those\s+|these\s+)?{_PRODUCT_SET}"),
            ),
        ),
    )
}  # fmt: skip

#: A sentence about what a risk does when it strikes ("if nobody makes a call the run sits
#: there burning money", "the cluster idles while nobody decides") describes the risk, not
#: the plan: no hazard is read in it.
CONSEQUENCE = re.compile(
    r"\b(?:if|when|while|unless)\s+(?:nobody|no\s+one|someone|everyone)\b|"
    r"\b(?:nobody|no\s+one)\s+(?:decides|acts|makes|owns\s+it\b)|"
    # a counterfactual ("without a gate we would find defects late") or a double negative
    # ("no gate is skipped") argues for the practice
    r"\b(?:without|no)\s+(?:a|an|any)?\s*\w+(?:\s+\w+){0,8}?\s+(?:we|it|they|you)\s+"
    r"(?:would|could|might)\b|\bno\s+\w+(?:\s+\w+)?\s+(?:is|are|gets?|will\s+be)\s+"
    r"(?:skipped|dropped|left\s+out)\b"
)


def _low(s: str) -> str:
    return s.lower().replace("-", " ").replace("’", "'")


#: A concessive names what a decision does not rest on ("launch when the product evals say
#: it is ready, whatever the public benchmarks say"): blanked before a ``said`` pattern is
#: looked for (the self-negating patterns see it: "whatever the product evals say" is one).
CONCESSIVE = re.compile(
    r"\b(?:whatever|regardless\s+of|irrespective\s+of|no\s+matter\s+(?:what|how))\s+"
    r"(?:\w+\s+){0,4}?(?:says?|said|shows?|tells?|looks?|do|does)\b|"
    r"\b(?:regardless|irrespective)\s+of\s+(?:the\s+)?(?:\w+\s+){0,3}\w+"
)


def _denied_within(said: str) -> bool:
    """Whether a stretch a ``said`` pattern found holds a negation of its own.

    "The ship decision is mine, and I do not take it on the leaderboard", "the benchmark
    is not telling if …": the claim the pattern spans is denied inside it.
    """
    return len(NOT.findall(NOT_EXCEPT.sub(" ", said))) % 2 == 1


def _said(low: str, h: Stated) -> re.Match[str] | None:
    for p in h.self_negating:
        m = p.search(low)
        if m is not None and not negated(low, m.start(), refusals=False):
            return m
    low = CONCESSIVE.sub(lambda m: " " * len(m.group(0)), low)
    for p in h.said:
        for m in p.finditer(low):
            if not negated(low, m.start(), refusals=False) and not _denied_within(m.group(0)):
                return m
    return None


def stated_in(text: str) -> list[tuple[str, str]]:
    """Each thing of :data:`STATED` that ``text`` states, with its sentence, in order, once each."""
    found: dict[str, str] = {}
    for s in sentences(text):
        low = _low(s)
        if CONSEQUENCE.search(low):
            continue
        for h in STATED.values():
            if h.id not in found and _said(low, h):
                found[h.id] = s
    return list(found.items())


def stated(texts: Iterable[str]) -> dict[str, str]:
    """What the candidate's texts state of :data:`STATED`, each with the first sentence."""
    out: dict[str, str] = {}
    for text in texts:
        for hid, s in stated_in(text):
            out.setdefault(hid, s)
    return out
