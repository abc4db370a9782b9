"""Answer in prose: read a spoken answer (written or pasted) into a plan the model can run.

The reader splits the answer into sentences (a transcript without punctuation is cut at
its discourse markers, :func:`sim.interview.clauses.split_long`) and looks in each, with
the same vocabulary the rubric uses (:mod:`sim.interview.vocabulary`), for:

- challenges: a sentence about one risk that says what it costs (time, money, quality);
- why late is expensive: a sentence that gives two of the mechanisms;
- owners and early warnings: the team that is the *subject* of an owning verb ("the data
  lead owns data quality", "our eval folks run the overlap scans"; "I" is the candidate,
  the PM), the risks in its object, and a signal that can reveal them;
- decision rights: the subject of a deciding verb and the kind of decision in its object;
- gates: a gate, review or go/no-go after data preparation or the ablations, what it
  looks for, and the sentence as its experiment; never a negated one;
- numbers: each percentage and dollar amount bound to the noun beside it (reserve,
  ablations, compute, people, licensing, annotation), never to a noun of another clause,
  so "at 40% MFU" is no reserve; a reserve or ablations refused outright ("we don't need
  a reserve") as none, which the rubric judges unsound;
- the playbook: responses to a budget cut, a slip, a spike or a ship call, in the order
  the sequence words give, leaving out what is refused ("we never reduce tokens");
- levers (on, or off when refused), roles, the strategy and its reason, trade-offs with
  their direction from "rather than", "instead of", "over" and "at the cost of", and the
  product use.

Each :class:`Reading` carries its sentence, its key in the reader's output vocabulary and
whether the reader is unsure; unsure readings do not enter the plan until confirmed.
Measured on the labelled corpus in tests/data/prose_corpus (benchmarks/prose_reader.py).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sim.interview.clauses import (
    BOUNDARY,
    NOT,
    NOT_EXCEPT,
    REFUSE,
    TAKES_CLAUSE,
    bare_term,
    bind_numbers,
    clause_end,
    clause_start,
    has_clause,
    negated,
    ordered,
    sentences,
    term_lines,
    term_list,
)
from sim.interview.content import DIMENSIONS, METHODS, SIGNALS, affirmed, topic
from sim.interview.plan import (
    CATALOGUE,
    BudgetPlan,
    Challenge,
    GatePlan,
    InterviewPlan,
    LeverPlan,
    ObjectivePlan,
    RiskPlan,
    RolesPlan,
    TradeOff,
    base_scenario,
)
from sim.interview.stated import STATED, stated_in
from sim.interview.vocabulary import CONCEPTS, Text, find, phrases_named
from sim.scenario.spec import RISK_KINDS

WATCH = re.compile(r"\b(?:with|watch(?:es|ing)?|runs|using|through|via|tracks)\s+", re.I)
CLAUSE = re.compile(r",\s*and\s+|;\s*")
#: Where a gate sentence turns to a second gate ("after data prep (…) and after the ablations").
GATE_CLAUSE = re.compile(r",\s*and\s+|;\s*|\band\s+(?=(?:after|before)\b)")
#: The longest text any plan field keeps (the plan's own limit).
TEXT_MAX = 2_000
#: The longest answer read: the plan keeps the prose up to this length.
PROSE_MAX = 20_000
#: The candidate's own team when "I" is the subject: the question makes them the PM.
CANDIDATE_TEAM = "product"
#: How people name each team of the shipped scenarios, as the subject of a sentence.
TEAM_WORDS: dict[str, tuple[str, ...]] = {
    "leadership": ("leadership", "exec", "executive", "vp", "cto", "ceo", "sponsor",
                   "steering", "director", "board", "leadership group"),
    "product": ("product team", "product manager", "pm", "product lead", "head of product"),
    "pretraining": ("pretraining", "pre training", "training lead", "training team",
                    "research lead", "pretraining lead", "pretraining team", "pretrain lead",
                    "pretrain team",
                    "training workstream", "training crew", "training group",
                    "head of training", "head of research", "research team"),
    "infra": ("infra", "infrastructure", "sre", "cluster team", "platform team", "ops team"),
    "data": ("data team", "data engineer", "data lead", "data people", "data folks",
             "data person", "data crew", "data workstream", "data group", "data squad",
             "head of data", "data manager"),
    "post_training": ("post training", "alignment team", "fine tuning team", "alignment",
                      "tuning lead", "tuning team", "fine tuning lead", "alignment lead"),
    "evals": ("evals", "eval team", "evaluation team", "eval folks", "eval people",
              "eval lead", "evaluation", "eval crew", "evals crew"),
    "safety_legal": ("legal", "safety team", "privacy team", "safety and legal", "counsel",
                     "lawyers", "privacy", "licensing team", "licensing folks", "licensing lead",
                     "safety lead", "head of safety", "trust and safety"),
}  # fmt: skip
#: A consequence stated: the risk leads to a cost ("so quality falls short", "-> days lost").
CAUSE = re.compile(
    r"\s>|->|→|=>|\b(?:so|means?|meaning|costs?|lose|loses|losing|lost|falls?\s+short|spoils?|"
    r"inflates?|interrupts?|diverges?|makes?|gives?|forces?|wastes?|hurts?|breaks?|"
    r"leads?\s+to|result(?:s|ing)?\s+in|paid\s+twice|idles?|"
    # what a risk does to the run, the model or the launch
    r"fails?|misses|underperforms?|caps?|capped|burns?(?!\s+in\b)|burning|eats?|halts?|blocks?|pulled|"
    r"retrain\w*|overstat\w*|stalls?|dilutes?|run\s+out|runs\s+out|wasted|"
    r"billed|lie|lies|degrad\w*|undertrained|drifts?|abandons?|turns?\s+\w+\s+into|"
    # the same verbs in their other forms, and more verbs of damage (2026-12-05, fifth session)
    r"costing|meant|inflated|lying|lowers|lowered|lowering|ruin\w*|depress\w*|"
    r"disappoint\w*|translat\w*\s+into|turns?\s+into|halted|halting|"
    r"blows?\s+(?:through|up)|blow(?:s|ing|n)?\s+(?:the|our|through\s+the)\s+budget|"
    r"stop(?:s|ped|ping)?\s+(?:the\s+|our\s+)?(?:launch|release|project|product|run)|"
    r"(?:is|are)\s+stopping|learns?\s+less|learning\s+(?:less|bad|wrong)|garbage(?!\s+in\b)|"
    r"shortfall|run\s+dry|runs\s+dry|paying\s+for\s+nothing|thrown\s+away|"
    r"no\s+money\s+left|keeps?\s+billing)\b"
)
#: The verbs of CAUSE that only ever state a cost ("makes", "gives", "so" do other work too).
COST_VERB = re.compile(
    r"\b(?:means?|meaning|costs?|lose|loses|losing|lost|spoils?|wastes?|forces?|"
    r"leads?\s+to|result(?:s|ing)?\s+in)\b"
)
#: The object of an owning verb that is a decision ("rollback calls", "budget changes").
DECISION_OWNED = re.compile(
    r"\s*(?:the\s+|all\s+|every\s+|each\s+)?(?:(?:rollback|ship|launch|release|budget|schedule|"
    r"data\s+fix)\w*\s+(?:calls?|decisions?|changes?)|go\s+live)\b"
)
#: Where the object of an owning verb ends and what is watched begins.
WATCH_AT = re.compile(
    r"\b(?:with|watch\w*|runs?|using|via|through|who|checking|tracking|monitor\w*|make|"
    r"reports?|reporting|flags?|alerts?|pages?|"
    r"making|builds?|sampl\w*|look\w*|has|have|keeps?|checks?|scans?|reads?|reviews?|"
    r"signs?|triggers?|dashboards?|pagers?)\b|[(:;]|(?:,\s*|\band\s+)(?:they|she|he)\b|"
    r",\s*(?=(?:[a-z0-9]+\s+){0,3}(?:scan|check|audit|alert|rate))|"
    # a second predicate of the same subject: ", rolls back on …", "and greps the shards"
    r"(?:,\s*(?:and\s+)?|\s+and\s+)(?=[a-z]+s\s+(?:on|to|the|a|an|back|it|its|their|every|each|in|with|"
    r"for|off|up|out|all|over|our|its|their|his|her|my)\b)"
)
#: A decontamination step (an overlap scan), as opposed to the leak it looks for.
SCAN = re.compile(
    r"\b(?:overlap|n\s?grams?|\d+\s?grams?|decontaminat\w*|canar\w*|contamination\s+"
    r"(?:scan|check)\w*|exact\s+match\w*)\b"
)
#: An owning verb that says how a risk is watched, when its subject is the verb's before.
WATCHING = re.compile(r"(?:watch|monitor|runs|tracks|covers|run\b)")
#: A team named by its stage and a head noun ("the post-training lead", "fine-tuning team").
TEAM_NAME = re.compile(
    r"\b(?:post\s+training|fine\s+tuning|pre\s?training|training|tuning|data|evals?|"
    r"alignment|infra)\s+(?:lead|team|folks|people|owner|engineer)s?\b"
)
#: A head naming a stage or a quantity, not a team ("Pretraining run: 2T tokens").
NOT_A_TEAM = re.compile(
    r"\b(?:runs?|phases?|stages?|steps?|budget|costs?|plan|mix|pipeline|schedule|timeline|"
    r"tokens?|days?|weeks?|gpus?|compute)\b"
)
#: What may stand between a subject and its verb ("the lead also owns", "legal should own").
BEFORE_VERB = re.compile(r"(?:\s+(?:[a-z]+ly|also|would|should|will|can))?\s*$")
#: A determiner before a subject.
DETERMINER = re.compile(r"\b(?:the|our|a|an|their)\s+$")
#: A list of owners under a head: "Owners: …", "3. Owners and first signals: …".
#: Also a head that gives each risk its owner ("every risk gets an owner: …"; not "each
#: step has one owner", whose items are steps).
OWNER_LIST = re.compile(
    r"(?:^\W*(?:\d+[.)]\s*|[a-z][.)]\s+)?(?:[^:]{0,60}\brisks?\b[^:]{0,40}\b)?owners?\b[^:]{0,60}:"
    # "I'm putting one owner on each:", "a single owner for every one of them:"
    r"|^[^:]{0,40}\b(?:one|a\s+single|an)\s+owners?\s+(?:for|per|on|to)\s+(?:each|every|all)\b"
    r"[^:]{0,30}:)\s*(.+)$"
)
#: A head that gives no one a risk ("nobody is the owner: …").
NO_OWNER = re.compile(r"\b(?:nobody|no\s?one|no\s+owner|not\s+(?:an?\s+|the\s+)?owner)\b")
#: "I" (the candidate) as a subject.
ME = re.compile(r"(?<![a-z'])(?:i|me|myself|i'm|i'll|i'd)(?![a-z'])")
#: "our own", "on their own": the adjective, no owning verb.
POSSESSIVE = (
    r"(?<!\bour\s)(?<!\btheir\s)(?<!\bmy\s)(?<!\byour\s)(?<!\bits\s)(?<!\bhis\s)"
    r"(?<!\bher\s)"
)
OWN_VERB = re.compile(
    rf"\b{POSSESSIVE}(?:owns?|owned\s+(?:by|from)|is\s+responsible|are\s+responsible|responsible\s+(?:for|of|to)|"
    # "is owner of", "has the pager for", "on the hook for" (the holder before it)
    r"(?:is|are)\s+(?:the\s+)?owners?\s+of|has\s+the\s+pager\s+for|on\s+the\s+hook\s+for|"
    # "has the responsibility for", "have responsibility of", "carries benchmark leakage"
    r"(?:has|have)\s+(?:the\s+)?responsibilit(?:y|ies)\s+(?:for|of)|carr(?:y|ies)(?=\s+(?:the\s+)?[a-z])|"
    r"in\s+charge\s+(?:of|for)|looks?\s+after|handles?|watch(?:es)?|monitors?|runs|covers|"
    r"(?<=they\s)run|(?<=they\s)watch|tracks|takes?\s+care\s+(?:of|about)(?!\s+(?:itself|themselves))|"
    # "is accountable for", "answers for", "sits with the data lead" (the holder after it)
    r"(?:is\s+|are\s+)?(?:accountable|answerable)\s+for|answers\s+for|"
    r"(?:sits?|rests?|lies)\s+with|"
    # "has / takes ownership of", "is the DRI for", "the point person on", "keeps an eye on"
    r"(?:has|have|had|takes?|took|taking)\s+(?:full\s+|clear\s+|the\s+)?ownership\s+(?:of|for|over)|"
    r"(?:is|are)\s+(?:the\s+)?(?:dri|point\s+person|go\s?to\s+person)\s+(?:for|on|of)|"
    r"keeps?\s+an\s+eye\s+on|manag(?:es|e)(?=\s+(?!(?:the\s+|a\s+|our\s+|their\s+|his\s+|her\s+)?"
    r"(?:[a-z]+\s+)?(?:team|people|staff|group|crew|engineers|researchers|folks|squad|org)\b))|"
    # the holder after the verb: "belongs to the infra lead", "the owner of X is the lead"
    r"belongs?\s+to|belonging\s+to|(?<=\bthe\s)owners?\s+(?:of|for)|"
    # "we make the data lead owner of quality", "I'd put the data lead as owner"
    r"(?<=[a-z]\s)(?<!\bthe\s)(?<!\bis\s)(?<!\bare\s)owners?\s+(?:of|for)|as\s+(?:the\s+)?owner\b|"
    # "handled by the evals team", "assigned to the infra lead", "falls on the data lead"
    r"(?:handled|managed|covered|watched|monitored)\s+by|assigned\s+to|"
    r"(?:is|are|sits?|falls?|lands?)\s+(?:squarely\s+)?on(?=\s+(?:the\s+|our\s+|my\s+)?[a-z]+\s+"
    r"(?:lead|team|folks|people|head|owner)\b)|"
    # "For data quality, the data lead is the owner": the owned thing in the head before
    r"(?:is|are)\s+(?:the\s+)?(?:owners?|dri|one\s+accountable|one\s+responsible)"
    r"(?=\s*(?:[.;,!?)]|$|\band\b|\bhere\b|\bthere\b)))\b",
    re.I,
)
#: A subject named by a person and an apposition: "Priya, our data lead, owns …", "Marco
#: (infra) owns …", "Sam, who runs the cluster team, owns …": the apposition names the team.
APPOSITIVE = re.compile(
    r"(?:^|[.;!?]\s+)[^\w(]*[a-z][\w']*(?:\s+[a-z][\w']*){0,2}\s*"
    r"(?:,\s*([^,;:.()]{2,60}?)\s*,|\(\s*([^()]{2,60}?)\s*\))\s*$"
)
#: The thing owned said first, in a head before the owner's clause: "For data quality, the
#: data lead is the owner", "As for hardware, infra owns it".
FOR_HEAD = re.compile(r"(?:^|[.;!?]\s+)[^\w]*(?:and\s+)?(?:as\s+)?for\s+([^,;:.]{3,80}?),\s*$")
#: The owned thing first, then its owner after a mark: "Hardware failures: infra",
#: "Loss spikes -> the pretraining lead, watching grad norm" ("->" reads " >" once lowered).
OWNED_HEAD = re.compile(r"^\W*([a-z][a-z\s']{2,60}?)\s*(?::|\s>|→|=|\s[–—]\s)\s*(.+)$")
#: Owning verbs whose holder comes after them ("owned by", "sits with", "belongs to",
#: "handled by", "assigned to", "falls on"): the object is what came before.
HOLDER_AFTER = ("owned by", "owned from", "sit", "rest", "lies", "belong", "handled", "managed",
                "covered", "watched", "monitored", "assigned", "is on", "are on", "falls",
                "lands")  # fmt: skip
#: A question asked, not an owner said: "Does infra own the GPUs?".
QUESTION = re.compile(
    r"^\W*(?:should|would|could|does|do|did|is|are|can|shall|will|who|whom|"
    r"which|why|how|what)\b"
)
#: A subject that holds nothing now: an indirect question, or a past habit.
NOT_HELD = re.compile(
    r"\b(?:ask\w*|wonder\w*|know|knows|unclear|clear|decide\w*|sure|figure\s+out|see|debate\w*)"
    r"\s+(?:who|whom|which\s+team)\s*$|\bused\s+to\s*$"
)
#: Whose job a risk is: "X is the data lead's job", "X would be my responsibility".
POSSESSED = re.compile(
    r"([^;:.]{3,80}?)\s+(?:is|are|would\s+be|will\s+be|becomes?)\s+(?:squarely\s+|entirely\s+|"
    r"clearly\s+)?((?:the\s+|our\s+)?(?:[a-z]+\s+){0,2}?[a-z]+'s|my|their)\s+(?:job|responsibility|"
    r"problem|area|remit|domain|baby|to\s+own)\b"
)
#: Assigned in the active voice: "I'd assign node failures to the infra lead".
ASSIGNED = re.compile(r"\bassign(?:s|ed|ing)?\s+([^;:.]{3,80}?)\s+to\s+([^;:.,]{2,40})")
#: Words that may stand beside a team's words in an owner said alone ("our data lead").
OWNER_FILLER = frozenset(
    "the our their a an my your lead leads team head manager folks people person owner "
    "group crew squad engineer engineers".split()
)
#: A clause whose subject is a signal: "the early signal is …", "her first warning would be …".
SIGNAL_SUBJECT = re.compile(
    r"^\W*(?:and\s+)?(?:the|her|his|their|its|our|my|a|an|that\s+team's|the\s+team's)\s+"
    r"(?:(?:early|earliest|first|leading|main|key|best|usual)\s+)?(?:warning\s+)?"
    r"(?:signals?|warnings?|indicators?|tells?|alarms?|tripwires?|triggers?|canar(?:y|ies)|"
    r"metrics?\s+to\s+watch)\s+(?:\w+\s+){0,3}?"
    r"(?:is|are|would\s+be|will\s+be|=|:)\s"
)
#: A decision named as a noun ("rollbacks", "data fixes", "the ship", "release").
DECISION_NOUN = r"(?:rollback|roll\s+back|data\s+fix|release|ship|launch|budget|schedule)\w*"
DECIDE_VERB = re.compile(
    r"\b(?:decides?|deciding|makes?\s+the\s+(?:[a-z]+\s+){0,4}?calls?|calls?\s+the|"
    r"(?<!\bat\s)(?<!\bthe\s)(?<!\bbefore\s)(?<!\buntil\s)signs?\s+off|approves?|has\s+the\s+say|owns?\s+the\s+[a-z\s]{0,20}calls?|"
    r"owns?\s+(?:every|each|the)\s+(?:rollback|ship|launch|release|budget|schedule)|"
    # "owns rollback calls end to end", "owns budget changes", "owns go-live"
    r"owns?\s+(?:all\s+)?(?:rollback|ship|launch|release|budget|schedule|data\s+fix)\w*\s+"
    r"(?:calls?|decisions?|changes?)|owns?\s+(?:the\s+)?go\s+live|"
    # a list whose last item is a call: "I own the objective, the trade-offs and the ship call"
    r"owns?\s+(?:the\s+[a-z'-]+(?:\s+[a-z'-]+){0,3}?(?:,\s+(?:and\s+)?|\s+and\s+))+"
    r"the\s+(?:rollback|ship|launch|release|budget|"
    r"schedule)\s+(?:calls?|decisions?)|"
    # "calls rollbacks", "makes rollback calls", "holds the rollback decision": the
    # decision named as the object of a verb of calling or holding, with no "the"
    rf"calls?\s+(?:all\s+|every\s+|each\s+|any\s+)?{DECISION_NOUN}|"
    rf"(?:makes?|holds?|keeps?)\s+(?:all\s+|every\s+|each\s+|any\s+|the\s+)?{DECISION_NOUN}\s+"
    r"(?:calls?|decisions?)|"
    # "owns go/no-go for launch", "owns ship." (the bare decision ending its clause),
    # "holds the purse strings" (the budget)
    r"owns?\s+(?:the\s+)?go\s*/?\s*no\s+go|owns?\s+(?:ship|launch|release)(?=\s*(?:[,;.]|$))|"
    r"(?:owns?|holds?|controls?)\s+the\s+purse(?:\s+strings)?|"
    # "leadership holds the budget", "finance controls the budget"
    r"(?:holds?|controls?)\s+the\s+budget(?!\s+(?:risk|line|forecast|numbers))|"
    # "says when we roll back", "is the one who says roll back": the say over an action
    r"says?\s+(?:when|whether|if)\s+(?:we\s+|to\s+)?(?=roll\s+back|ship|launch|release)|"
    r"says?\s+(?=roll\s+back\b)|signs?\s+(?=(?:the\s+|each\s+|every\s+)?(?:budget|release|launch))|"
    # "has the final say on", "has (the) authority over", "is the decision maker for"
    r"(?:has|have|holds?|gets?)\s+(?:the\s+)?(?:final|last)\s+(?:say|word|call)|"
    r"(?:has|have|holds?)\s+(?:the\s+|full\s+|final\s+|sole\s+)?(?:authority|veto)\s+(?:over|on|for)|"
    r"(?:is|are)\s+(?:the\s+)?(?:final\s+)?decision\s+makers?\s+(?:for|on|about)|"
    # "gets the rollback call", "pulls the trigger on a rollback"
    r"gets?\s+the\s+(?:[a-z]+\s+){0,2}?(?:call|decision|say)|pulls?\s+the\s+trigger\s+on)\b",
    re.I,
)
DECISION_WORDS: dict[str, tuple[str, ...]] = {
    "rollback": ("rollback", "roll back", "rolling back", "loss spike", "spike", "rewind"),
    "data_fix": ("data fix", "data defect", "fix the data", "patch the data",
                 "patches the data"),
    "budget": ("budget", "spend", "purse"),
    "schedule": ("schedule", "deadline", "slip", "date"),
    "ship": ("ship", "launch", "release", "go live", "no go"),
}  # fmt: skip
#: The decision said to be the holder's own: "the call is mine", "the decision to ship is
#: mine", "would be mine", "the ship decision is also me", "that call is theirs" (group 1),
#: "is the training lead's call" (group 2).
MINE = re.compile(
    r"\b(?:call|decision|say|go\s*/?\s*no\s+go)(?:\s+(?:to|on|about|over|for)\s+[a-z]+(?:\s+[a-z]+)?)?\s+"
    r"(?:is|are|would\s+be|will\s+be|stays?)\s+(?:also\s+|always\s+|then\s+)?"
    r"(mine|my\s+own|me|theirs|hers|his)\b|"
    r"\bmy\s+(?:call|decision)\b|(?:is|are)\s+(?:the\s+)?([a-z\s]+?)'s\s+(?:call|decision)\b"
)
#: A decision up to its holder: "is up to the training lead (whether we roll back)".
UP_TO = re.compile(
    r"\b(?:is|are|'s|would\s+be|will\s+be|stays?)\s+(?:entirely\s+|completely\s+|fully\s+)?"
    r"up\s+to\s+([^,;]+?)(?:\s+(?:whether|when|if|to\s+decide)\s+(.+))?\s*(?:[,;.]|$)"
)
#: A decision handed to its holder: "leave rollbacks to the lead", "delegate X to Y".
LEFT_TO = re.compile(
    r"\b(?:leave|leaves|left|delegat(?:e|es|ed|ing)|hand(?:s|ed)?(?:\s+over)?|entrust\w*|"
    r"give|gives|gave)\s+([^;:.]{3,60}?)\s+to\s+([^;:.]{2,60})"
)
#: A decision that is passed to its holder: "rollbacks go to the leadership group",
#: "every data fix comes to me", "escalates to the VP".
GOES_TO = re.compile(
    r"\b(?:goes|go|went|comes?|came|escalat(?:e|es|ed))\s+(?:straight\s+|directly\s+)?to\s+(.+)$"
)
#: What may be passed to a holder: a decision by its noun, never a sum ("the budget goes to
#: the data team" gives money, not a say).
CALLED = re.compile(
    r"\b(?:rollbacks?|roll\s+backs?|data\s+fix(?:es)?|restarts?|calls?|decisions?|"
    r"go\s*/?\s*no\s+go)\b"
)
#: The action of a decision: rolling back, rewinding, pausing a run, pulling a source,
#: fixing the data, shipping.
ACTION = re.compile(
    r"\b(?:roll(?:s|ed|ing)?\s+back|rewind(?:s|ing)?|revert(?:s|ing)?|"
    r"pull(?:s|ing)?\s+(?:a|the|any)\s+(?:source|shard|dataset)s?|"
    r"(?:fix|fixes|fixing|patch|patches|patching)\s+the\s+data)\b"
)
#: A right to act given before the action ("has the authority to", "is empowered to",
#: "gets to").
AUTHORITY = re.compile(
    r"\b(?:(?:has|have)\s+the\s+(?:authority|right|power|mandate)|(?:is|are)\s+"
    r"(?:empowered|authori[sz]ed|allowed|free|trusted)|gets?)\s+to\s+$"
)
#: An action done with no one else's say, after it ("on their own (authority)", "alone",
#: "themselves", "without a meeting", "without waiting for me", "no meeting").
ALONE = re.compile(
    r"\b(?:on\s+(?:their|her|his|its|my)\s+own(?:\s+authority)?|alone|themselves|herself|"
    r"himself|without\s+(?:a\s+|any\s+)?(?:meeting|escalation|escalating|asking|waiting|"
    r"sign\s+off|approval|permission|a\s+vote|me\b|checking|consulting)|no\s+meeting|"
    r"no\s+(?:escalation|sign\s+off|approval)\s+(?:needed|required))\b"
)
#: A sentence whose decisions are no one's or everyone's ("nobody", "together", "the
#: group"); the leadership group is a team.
MANY = re.compile(
    r"\b(?:(?:no\s?one|nobody)(?!\s+else)|everyone|everybody|someone|together|"
    r"(?<!leadership\s)group)\b"
)
#: A head naming the list of rights that follows ("5. Calls during the run:", "Who decides:").
RIGHTS_HEAD = re.compile(
    r"^\W*(?:\d+[.)]\s*)?[a-z\s]*\b(?:calls?|decisions?|decides|rights?)\b[^:]*:\s*"
)
#: A holder and a bare auxiliary standing for a verb said before ("the lead does.").
ELIDED = re.compile(r"^\W*((?:[a-z]+\s+){0,3}[a-z]+)\s+(?:does|do|will|can)\b\s*(?:[,.]|$)")
#: A decision named as a call of its kind ("the ship call", "release decision").
OWNED_CALL = re.compile(rf"\b{DECISION_NOUN}\s+(?:calls?|decisions?)\b|\bgo\s*/?\s*no\s+go\b")
#: A holder that is a body of many, whose decisions are no one team's ("the steering
#: committee", "a change board chaired by the sponsor").
COMMITTEE = re.compile(r"\b(?:committee|council|panel|forum|change\s+board|working\s+group)\b")
#: A post-training round dropped, said with a verb ("drop a round", "descope a tuning round",
#: "shorten post-training"); an option word written "re:…" is a pattern.
ROUND_CUT = (
    r"re:(?:drop\w*|cut\w*|skip\w*|los\w*|descop\w*|trim\w*)\s+(?:a|one|the\s+last|the\s+final)"
    r"\s+(?:[a-z]+\s+)?round",
    r"re:(?:shorten\w*|trim\w*|less)\s+(?:the\s+)?post\s+training",
)
#: The words for each playbook option, by decision kind.
OPTION_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "budget": {"use_reserve": ("reserve", "contingency", "the buffer"),
               "cut_ablations": ("ablation", "proxies", "proxy run", "sweeps", "small runs",
                                 "fewer experiments", "less experiments", "trim experiments",
                                 "cut experiments"),
               "reduce_tokens": ("fewer tokens", "reduce tokens", "cut tokens", "token"),
               "fewer_post_training_rounds": ("post training round", "fewer round",
                                              "tuning round", "preference round", "rlhf round",
                                              "rl round", "round of post training",
                                              "round of fine tuning", "round less", *ROUND_CUT),
               "smaller_eval_scope": ("eval scope", "fewer evals", "smaller eval"),
               "accept_overrun": ("overrun",)},
    "schedule": {"cut_post_training_rounds": ("post training round", "cut round",
                                              "fewer round", "tuning round", "preference round",
                                              "rlhf round", "rl round", "round of post training",
                                              "round of fine tuning", "round less", *ROUND_CUT),
                 "add_core_staff": ("add staff", "add people", "add core", "hire",
                                    "more staff", "add more people", "core engineer",
                                    "more engineers", "add engineers", "extra engineers",
                                    # "add two engineers", "adding a couple of people"
                                    r"re:add\w*\s+(?:[a-z0-9]+\s+){1,3}?(?:engineer|people|"
                                    r"staff|hands|headcount)"),
                 "accept_slip": ("accept the slip", "move the date", "accept a slip",
                                 "accept the delay", "slip the date", "accept slip",
                                 "take the slip", "push the date", "move the launch",
                                 "then the date", "moving the date", "pushing the date",
                                 "slipping the date",
                                 # "a round goes before the (launch) date (does)"
                                 r"re:before\s+the\s+(?:launch\s+)?date")},
    "rollback": {"rollback_skip": ("roll back", "rollback", "skip the batch",
                                   "last good checkpoint"),
                 "pause_investigate": ("pause", "investigate"),
                 "continue": ("train on", "keep training", "carry on"),
                 "overreact": ("change the recipe", "new recipe", "from scratch",
                               # a recipe change: "restart with a lower learning rate", "fix
                               # the learning rate and warmup", "scrap the recipe"
                               r"re:(?:lower\w*|reduc\w*|cut\w*|chang\w*|fix\w*|tweak\w*|"
                               r"adjust\w*|new|another|different|safer|smaller|scrap\w*)\s+"
                               r"(?:the\s+|a\s+)?"
                               r"(?:learning\s+rate|lr|warmup|recipe|hyper\s?parameter|settings)",
                               r"re:start\w*\s+(?:the\s+run\s+|it\s+|everything\s+)?over")},
    "ship": {"extra_round": ("another round", "extra round"),
             "fix_data_and_retune": ("fix the data", "retune"), "ship": ("ship",)},
}  # fmt: skip
PLAYBOOK_CUES: dict[str, re.Pattern[str]] = {
    "budget": re.compile(
        r"budget\s+(?:is\s+|gets\s+|was\s+)?cut|cut\s+(?:to\s+)?the\s+budget|over\s+budget|"
        r"budget\s+slip|cut\s+in\s+the\s+budget"
    ),
    "schedule": re.compile(
        r"schedule\s+(?:is\s+)?slip|we\s+slip|slipping|behind\s+schedule|we\s+run\s+late|"
        r"we\s+are\s+late|falls?\s+behind"
    ),
    "rollback": re.compile(
        r"loss\s+spike|spikes?\b|diverg|loss\s+(?:is\s+|keeps\s+)?(?:jump|explod|blow)\w*"
    ),
    "ship": re.compile(r"\blag|product\s+evals?\s+(?:are\s+)?below|below\s+target"),
}
#: A reserve or an ablation budget refused outright, with no number of its own ("we don't
#: need a reserve", "reserve we don't keep", "skip the ablations", "ablations are a luxury
#: we skip"): read as none. Not a gate refused ("skip the ablation gate"), and not a number
#: negated ("we do not keep a 12% reserve" says nothing of a 10% one).
REFUSED_SHARE: dict[str, re.Pattern[str]] = {
    "reserve_fraction": re.compile(
        r"\b(?:no|zero|without\s+(?:a|any))\s+(?:[a-z]+\s+)?(?:reserve|contingency)\b|"
        r"(?:n't|\bnot|\bnever)\s+(?:need|keep|hold|have|set\s+aside)\s+(?:a\s+|any\s+)?"
        r"(?:[a-z]+\s+)?(?:reserve|contingency)\b|"
        r"\b(?:reserve|contingency)\s+(?:we|i)\s+(?:do\s+not|don't|never|are\s+not|aren't|am\s+not|"
        r"will\s+not|won't)\s+(?:keep|need|hold|want|plan)\w*\b|"
        # a head answered "none", nothing kept back, a reserve said to be needless
        r"\b(?:reserve|contingency)\s*[:=]\s*(?:none|zero|nil|no\b|0\b)|"
        r"\bnothing\s+(?:is\s+)?(?:held|kept|set|put)\s+(?:back|aside)\b|"
        r"\b(?:reserve|contingency)\s+(?:is|are)\s+(?:not|n't)\s+(?:needed|necessary|required)\b|"
        r"\b(?:reserve|contingency)\s+(?:isn't|aren't)\s+(?:needed|necessary|required)\b"
    ),
    "ablation_fraction": re.compile(
        r"\b(?:skip|drop|no|zero|without)\s+(?:the\s+|any\s+)?ablations?\b(?!\s+(?:gate|review))|"
        r"(?:n't|\bnot|\bnever)\s+(?:do|run|need|make|want|plan|bother\s+with)\s+(?:any\s+)?"
        r"ablations?\b(?!\s+(?:gate|review))|"
        r"\bablations?\s+are\s+(?:a\s+luxury|a\s+waste|pointless)|"
        r"\bablations?\s*[:=]\s*(?:none|zero|nil|no\b|0\b|skip)"
    ),
}
#: Where a refused share's own stretch ends (a refusal beside another share's number, as in
#: "ablations 5%, and no reserve", is still one).
SHARE_STRETCH = re.compile(r"[,;(]|\band\b|\bbut\b")
#: A refusal coordinated before this one ("with no reserve and no ablations"): its negator
#: does not cancel the next one's.
NO_BEFORE = re.compile(r"\b(?:no|zero)\s+[a-z]+(?:\s+[a-z]+)?\s*(?:,\s*)?(?:and|or|,)\s+$")
#: "not hold less than a 10% reserve": a floor, not a refusal.
AT_LEAST = re.compile(r"\b(?:not|never)\s+(?:[a-z]+\s+){1,2}?(?:less|fewer|lower)\s+than\b")
#: A share changed to a figure ("ablations down to 3%"): a response to a cut, not the plan's
#: share; asked.
CHANGED_TO = re.compile(
    r"\b(?:down|cut|drop\w*|reduc\w*|trim\w*|lower\w*)\s+(?:it\s+)?to\s*$|"
    r"\b(?:cut|reduc\w*|drop\w*|grow\w*|increas\w*|rais\w*|overrun\w*)\s+(?:\w+\s+)?by\s*$"
)
#: A number given as one of two ("10 or 15%", "10 to 15%", "10-15%").
NUMBER_CHOICE = re.compile(r"\d\s*%?\s*(?:or|to|-|–)\s*$")
#: A hedge: the speaker is not committing ("maybe", "I think", "not sure").
HEDGE = re.compile(r"\b(?:maybe|perhaps|not\s+sure)\b")

#: When a practice starts early, as people say it (read in a sentence that names the
#: practice; a negation before it refuses it).
EARLY_WORDS = (
    "early", "before training", "from day one", "from the start", "up front", "upfront",
    "before the training", "from the beginning", "from the first day", "from day 1",
    "day one", "week one", "week 1", "first week", "first month", "kickoff", "kick-off",
    "kick off", "from inception", "from the outset", "at the outset", "at intake",
    "at data prep", "data preparation", "first checkpoint", "first tuning round",
    "first sft", "first post-training round", "built first", "in the core team",
)  # fmt: skip
#: "before we train anything", "before any tuning", "before anything trains",
#: "before the first token is trained", "before pretraining".
EARLY_BEFORE = re.compile(
    r"\bbefore\s+(?:(?:we|you|they|anyone)\s+)?(?:(?:start|begin)\w*\s+)?"
    r"(?:(?:any|the|a)\s+)?(?:single\s+|first\s+)?(?:pre\s?)?(?:train|tun|sft\b|first\s+token)|"
    r"\bbefore\s+anything\s+(?:is\s+)?(?:pre\s?)?train"
)
#: Who looks after safety and the law, in the words people use for them.
SAFETY_WORDS = ("safety", "legal", "privacy", "compliance", "red team", "red-team",
                "red teaming", "red-teaming", "security review", "trust and safety")  # fmt: skip
#: Only at the end: a practice brought in late.
LATE = re.compile(
    r"\b(?:at|near|towards?|by)\s+the\s+end\b|\b(?:at|before|near)\s+(?:the\s+)?"
    r"(?:launch|release|go[\s-]?live)\b|\blaunch\s+(?:stage|review|checklist)\b|"
    r"\brelease\s+candidate\b|\bonce\s+(?:the\s+)?model\s+is\s+(?:finished|done|trained)\b"
)
#: Who comes in when: the plan, not a risk's description.
BROUGHT_IN = re.compile(
    r"\b(?:bring|brings|brought|involve\w*|come\s+in|comes\s+in|join\w*|happens?|"
    r"sign\w*\s+off|sign[\s-]?off|test\w*|review\w*|(?:we|i)\s*'?d?\s+(?:add|call))\b"
)
#: An evaluation set the product's own data makes (what product evals are, in other words).
EVAL_SET = re.compile(
    r"\b(?:real|held\s?out|proxy|\w+\s(?:graded|judged|rated|labell?ed|annotated)|graded|"
    r"judged|rated|labell?ed|annotated)\b[^.;]{0,60}?\b(?:sets?|suites?|tasks|tickets|chats|"
    r"notes|summaries|conversations|claims|contracts|drafts|queries|questions|sessions|cases)\b|"
    r"\b(?:customer|user|client|in\s+product|internal|our\s+own)\b[\w\s]{0,20}?\b(?:evals?|"
    r"eval\s+(?:suite|set)|test\s+(?:set|suite))\b"
)
#: The set is for judging: a word of testing or grading in the sentence.
EVAL_CUE = re.compile(
    r"\b(?:set|suite|bar|graded|judged|rated|labell?ed|annotated|evals?|test|tests|score|"
    r"scores|baseline|pass|judge)\b"
)
#: Engineering kept apart from training: a ticket queue, a team separate from research.
SILO = re.compile(
    r"\bticket\s+(?:queue|system)s?\b|\bseparate\s+from\s+(?:the\s+)?(?:research|training)\b|"
    r"\bover\s+the\s+wall\b"
)
#: What tracking spend does to it: "tracks burn against the forecast", "reviews spend monthly".
TRACK_VERB = re.compile(
    r"\b(?:track\w*|review\w*|report\w*|compar\w*|monitor\w*|watch\w*|against|reconcil\w*|"
    r"check\w*\s+(?:in\s+)?on|flag\w*)\b"
)
#: Spend looked at on a cadence, said in other words (reader only): the spend ("spent", "the
#: costs"), a verb of looking or showing right beside it ("burn vs forecast", "burn checked",
#: "look … how much we spend", "put the burn in front of everyone"), and the cadence ("every
#: Monday").
SPENT = re.compile(r"\b(?:burn\w*|spen[dt]\w*|costs?|money)\b")
LOOK_AT = re.compile(
    r"\b(?:vs|versus|check(?:s|ed|ing)?|look(?:s|ed|ing)?|present\w*|shar(?:e|es|ed|ing)|"
    r"publish\w*|in\s+front\s+of)\b"
)
CADENCE = re.compile(
    r"\b(?:every|each|per)\s+(?:monday|tuesday|wednesday|thursday|friday|month|sprint|"
    r"fortnight|two\s+weeks)\b|\bfortnightly\b"
)
SEQUENCE = re.compile(r"\b(?:first|then|next|after\s+that|afterwards|finally|last(?:ly)?)\b")


#: A decision named as what someone decides, not done: "decides rollbacks", "rollback calls",
#: "decides to roll back", "is empowered to roll back" (who may, not what is done).
DECIDED = re.compile(
    r"\b(?:decides?|deciding|calls?|approves?|owns?)\s+(?:on\s+)?(?:the\s+|any\s+|every\s+|each\s+)?"
    r"(?:rollbacks?|roll\s+backs?)\b|\b(?:rollback|roll\s+back)\s+(?:calls?|decisions?|rights?)\b|"
    r"\b(?:decides?|deciding|decision|call|empowered|authori[sz]ed|allowed|free|entitled|"
    r"right|power|authority|say)\s+(?:on\s+)?(?:whether\s+|when\s+)?(?:to\s+)?(?:roll\s+back|rollback)\b"
)
#: The words that open a step of a sequence ("first …, then …", "… > …").
STEP = re.compile(r"\b(?:first|then|next|after\s+that|finally|lastly)\b|>|→")
#: Words a step may hold besides its option ("then, if we are still late, …").
STEP_FILLER = frozenset(
    "a an the and if we are is still late only then first next finally lastly after that "
    "goes go it its our of to as needed at all last resort".split()
)


def _unknown_step(low: str, spans: list[tuple[int, int]]) -> bool:
    """Whether a step of a sequence holds no option the reader knows.

    "First add two core engineers, then cut a round, then move the date": a step the
    reader cannot read would be dropped silently, so the whole order is asked instead.
    """
    marks = [m for m in STEP.finditer(low)]
    for m, nxt in zip(marks, marks[1:] + [None], strict=False):
        end = nxt.start() if nxt is not None else len(low)
        stop = re.search(r"[;:.!?]", low[m.end() : end])
        end = m.end() + stop.start() if stop else end
        if any(m.end() <= a < end for a, _ in spans):
            continue
        words = [w for w in re.findall(r"[a-z]+", low[m.end() : end]) if w not in STEP_FILLER]
        if len(words) >= 2:
            return True
    return False


#: A word that ranks an item of a sequence, before or after it ("second, fewer ablations",
#: "experiments second", "the date is the last resort").
ORDINAL = re.compile(
    r"\b(?:first|second|third|fourth|fifth|next|then|finally|last(?:ly)?|last\s+resort)\b"
)
#: Where one item of a listed sequence ends and the next begins.
ITEM_SPLIT = re.compile(r"[,;:.!?]|\bthen\b|\band\b")


#: A further step on a condition ("and if it's deeper, …", "if that is not enough, …").
FURTHER = re.compile(
    r"\bif\s+(?:it'?s|it\s+is|that'?s|that\s+is|the\s+\w+\s+is|it\s+goes)\s+(?:any\s+)?"
    r"(?:deeper|bigger|larger|more|worse|further|not\s+enough|still\s+short)|"
    r"\bif\s+(?:that|it)\s+(?:is\s+not|isn't|does\s+not|doesn't)\s+(?:enough|cover)"
)


def _further_step(low: str, hits: list[tuple[int, str]]) -> bool:
    """Whether a step on a condition follows the last option read, naming none.

    "… the rest comes out of ablations, and if it's deeper, one more thing": the order
    read would end before a step said; asked instead.
    """
    if not hits:
        return False
    last = max(a for a, _ in hits)
    return FURTHER.search(low, last) is not None


#: An option said as the subject of what it would do ("adding people late only makes it
#: later", "cutting tokens hurts"): judged, not chosen.
JUDGED = re.compile(
    r"\s+(?:[a-z]+\s+){0,2}?(?:late\s+)?(?:only\s+|just\s+|always\s+)?(?:makes?|made|slows?|"
    r"hurts?|backfires?|never\s+(?:helps?|works?))\b"
)
#: A condition a playbook's cue stands in ("if we slip", "when the budget is cut").
IF_CUE = re.compile(r"\b(?:if|when|whenever|once|should|in\s+case)\b")
#: A possibility, not a plan: "could", "might", "may" just before an option.
MAYBE = re.compile(r"\b(?:could|might|may)\s+(?:\w+\s+)?$")


def _unknown_item(low: str, spans: list[tuple[int, int]]) -> bool:
    """Whether a ranked item after the first option read holds no option the reader knows.

    "Contingency first, experiments second, a tuning round third": "experiments second" is
    ranked but read as no option, so the order read would drop a step; asked instead.
    """
    if not spans:
        return False
    start = min(a for a, _ in spans)
    bounds = [start] + [m.end() for m in ITEM_SPLIT.finditer(low, start)] + [len(low)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        piece = low[a:b]
        if not ORDINAL.search(piece) or any(a <= x < b for x, _ in spans):
            continue
        words = [w for w in re.findall(r"[a-z]+", ORDINAL.sub(" ", piece))
                 if w not in STEP_FILLER and w not in ("thing", "step", "one")]  # fmt: skip
        if words:
            return True
    return False


def _option(word: str) -> str:
    """An option word as a pattern: "re:…" is one already, any other is a phrase."""
    return word[3:] if word.startswith("re:") else re.escape(word)


def _exclusive(kind: str, option: str) -> bool:
    """Whether an option's words belong to this decision kind alone."""
    words = set(OPTION_WORDS[kind][option])
    return not any(
        words & set(ws) for k, opts in OPTION_WORDS.items() if k != kind for ws in opts.values()
    )


ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "product_manager": ("as pm", "as the pm", "product manager", "my job", "as product", "pm:"),
    "research": ("research",),
    "engineering": ("engineering", "engineer"),
    "program_management": ("program manag", "tpm", "program lead"),
}
#: Where a sentence of roles parts into one clause a role.
ROLE_PART = re.compile(
    r";|,\s*(?:and\s+|while\s+|whereas\s+)?(?=(?:and\s+)?(?:i|research|engineering|program|"
    r"the\s+(?:tpm|program|product|research|engineering))\b)|"
    r"\s+(?:and|while|whereas)\s+(?=(?:research|engineering|program\s+manag|the\s+tpm)\b)"
)
#: A verb of doing a role's work, after its subject ("owns", "sets", "is choosing", "runs").
ROLE_VERB = re.compile(
    r"\b(?:own|owns|owning|sets?|setting|makes?|making|picks?|picking|chooses?|choosing|"
    r"designs?|designing|runs?|running|keeps?|keeping|handles?|handling|drives?|driving|"
    r"decides?|deciding|defines?|defining|is\s+responsible\s+for|are\s+responsible\s+for|"
    r"(?<=job\s)is|(?<=role\s)is|(?<=part\s)is|(?<=job\s)as|(?<=pm\s)is|(?<=this\s)is)\b"
)
#: A role's scope in words its concept leaves to others (reader only): the PM's goals,
#: research's model and experiments' design, program management's reports and risks.
ROLE_MORE: dict[str, re.Pattern[str]] = {
    "product_manager": re.compile(r"\b(?:goals?|the\s+why|the\s+what)\b"),
    "research": re.compile(r"\b(?:designs?\s+)?the\s+model\b|\bthe\s+experiments?\b"),
    "engineering": re.compile(r"\bthe\s+(?:platform|training\s+stack|serving)\b"),
    "program_management": re.compile(r"\b(?:reports?|the\s+risks?|the\s+dependencies)\b"),
}
#: The subject of a role's clause: the role named, or the candidate (the PM) as "I" or
#: "my job / role / part (as PM)".
ROLE_SUBJECT: dict[str, re.Pattern[str]] = {
    "product_manager": re.compile(
        r"^\W*(?:and\s+)?(?:(?:as\s+(?:the\s+)?(?:pm|product\s+manager)\s*,?\s*)?i(?:'d|\s+would)?"
        r"(?:\s+\w+ly)?(?:\s+see)?\s+(?:my\s+(?:own\s+)?job\s+)?|"
        r"(?:my|the)\s+(?:own\s+)?(?:job|role|part)(?:\s+in\s+all\s+this)?(?:\s+as\s+"
        r"(?:the\s+)?(?:pm|product\s+manager))?\s+|"
        r"(?:the\s+)?(?:pm|product\s+manager)\s+)$"
    ),
    "research": re.compile(r"^\W*(?:and\s+)?(?:the\s+)?research(?:\s+team)?\s+(?:is\s+)?$"),
    "engineering": re.compile(r"^\W*(?:and\s+)?(?:the\s+)?engineering(?:\s+team)?\s+(?:is\s+)?$"),
    "program_management": re.compile(
        r"^\W*(?:and\s+)?(?:the\s+)?(?:program\s+management|program\s+manager|tpm)\s+(?:is\s+)?$"
    ),
}
#: The scope concept each role's sentence must name twice ("the recipe, the data mix").
ROLE_SCOPE = {
    "product_manager": "pm_scope",
    "research": "research_scope",
    "engineering": "engineering_scope",
    "program_management": "program_scope",
}
#: A role is read when the sentence starts with it ("Research owns …", "As PM I …").
ROLE_AT = 24
GATE_PHASES: dict[str, tuple[str, ...]] = {
    "prepare": ("data review", "after data prep", "before the ablations", "before ablations",
                "data gate",
                "after the data prep", "data preparation"),
    "ablations": ("ablation", "proxy run", "scaling law", "before the main run"),
}  # fmt: skip
#: A review of spend, not a gate ("weekly burn review", "monthly budget review").
SPEND_REVIEW = re.compile(r"\b(?:burn|spend|budget|cost|finance|financial)\s+reviews?\b", re.I)
GATE_WORDS = (
    "gate",
    "go no go",
    "go/no-go",
    "review",
    "checkpoint",
    "milestone",
    "before the main run",
)
#: A gate named in a sentence makes it a plan, not a challenge; "the last checkpoint" is
#: what a failure loses, not a gate.
CHALLENGE_NOT_GATE = tuple(w for w in GATE_WORDS if w != "checkpoint")
#: The small experiments an ablations gate decides on, in the words people use for them
#: ("small tuning runs", "a pilot-run review", "1B runs", "proxies", "the scaling fit"): the
#: phase and its evidence at once. A bare "pilot" counts only beside the main run it gates.
SMALL_RUNS = re.compile(
    r"\b(?:(?:small|smaller|tiny|mini|pilot|proxy|toy)\s+(?:[a-z0-9]+\s+){0,2}?"
    r"(?:runs?|models?|experiments?)|proxy\s+stages?|proxies|"
    r"\d+(?:\.\d+)?\s?[mb]\s+(?:[a-z]+\s+)?runs?|(?:[1-3](?:\.\d)?b|\d{2,3}m)\s+models?|"
    r"scaling(?:\s+law)?\s+(?:fit|curve|law|prediction)s?|scaling\s+laws?)\b"
)
PILOT = re.compile(r"\bpilots?\b")
#: The expensive run a gate holds back ("the main run", "the big training", "the full
#: fine-tune", "the cluster", "the full budget").
MAIN_RUN = (
    r"(?:(?:the|a|any|our)\s+)?(?:(?:main|big|full|large|real|final|expensive|production)\s+"
    r"(?:[a-z0-9]+\s+)?(?:run|training|fine\s?tune|tuning|pretraining|job|budget|spend)s?|"
    r"(?:the\s+)?cluster)"
)
MAIN_RUN_AT = re.compile(rf"\b{MAIN_RUN}\b")
#: A gate said as a condition on the main run, with no gate word: "we don't launch the big
#: run until …", "no main run (starts) before / unless …", "the full run starts only if …",
#: "only if they match the curve we go", "if it fails we don't begin", "nothing scales up
#: until …", "No fit, no big run". Its negators are the condition's, not a refusal.
GATE_CONDITION = re.compile(
    r"(?:\b(?:not|never)|n't|\b(?:dont|wont|wouldnt))\s+(?:[a-z]+\s+){0,2}?"
    r"(?:start|begin|launch|kick\s+off|go\s+(?:into|ahead)|commit|touch|scale|proceed|move\s+to)"
    rf"\w*\s+(?:on\s+|with\s+|to\s+|up\s+)?{MAIN_RUN}\b[^.;:]{{0,60}}?"
    r"\b(?:until|till|before|unless|without)\b|"
    rf"\bno\s+{MAIN_RUN}\s+(?:(?:starts?|begins?|goes\s+ahead|launch\w*|happens?)\s+)?"
    r"(?:until|till|before|unless|without)\b|"
    r"\bnothing\s+(?:[a-z]+\s+){0,2}?(?:until|till|before|unless)\b|"
    rf"\b{MAIN_RUN}\s+(?:[a-z]+\s+){{0,2}}?(?:starts?|begins?|goes\s+ahead|launch\w*|"
    r"happens?|proceeds?)\s+only\s+(?:if|when|once|after)\b|"
    r"\bonly\s+(?:if|when|once|after)\b[^.;:]{0,80}?\b(?:we|i)\s+(?:go|start|launch|begin|"
    r"proceed|commit|scale)\b|"
    r"\bif\b[^.;:]{0,80}?(?:\bfail\w*|\bnot\b|n't)[^.;:]{0,60}?\b(?:we|i)\s+"
    r"(?:do\s+not|don't|dont|will\s+not|won't|wont|never|cannot|can't)\s+(?:[a-z]+\s+)?"
    r"(?:start|begin|launch|go|proceed|commit|scale)\w*|"
    rf"\bno\s+[a-z]+(?:\s+[a-z]+)?,\s*no\s+{MAIN_RUN}"
)
#: A data-preparation gate's phase in other words ("after prep", "a data-readiness review",
#: "an intake review", "after cleaning").
PREPARE_CUE = re.compile(
    r"\bafter\s+(?:the\s+)?(?:data\s+)?(?:prep|preparation|cleaning|curation)\b|"
    r"\bdata\s+[a-z]+\s+(?:review|gate)\b|\b(?:readiness|intake)\s+(?:review|gate)\b"
)
#: A head that opens a list of gates ("6. Gates.", "Gates:"), said alone.
GATES_HEAD = re.compile(r"^\W*(?:\d+[.)]\s*)?(?!(?:no|zero)\b)(?:[a-z]+\s+)?gates?\s*[.:]?\s*$")
#: A list item under it that names its phase ("After ablations: …", "Gate 2: …").
GATE_ITEM = re.compile(r"^\W*(?:(?:after|before)\s+[a-z\s]{1,30}?:|gate\s+\w+\s*:)")
#: The next item of gates after a semicolon ("…; after ablations (…)", "…; then proxy runs").
GATE_NEXT = re.compile(r"^\W*(?:(?:and\s+)?then\s|(?:after|before)\s|gate\s+\w+\s*:)")
#: The gate words that name a gate alone ("review" and "checkpoint" have other uses).
GATE_NAMED = ("gate", "go no go", "go/no-go", "milestone")
STAGE_OF_RISK: dict[str, str] = {
    "data_quality": "data", "contamination": "evaluation", "licensing": "safety_legal",
    "tokenizer_config": "sizing", "loss_spike": "stability", "hardware": "cluster",
    "eval_gap": "post_training", "safety": "safety_legal", "budget": "sizing",
    "staffing": "sizing",
}  # fmt: skip
#: Where a challenge is first seen: a cue, then the phase it names.
FIRST = re.compile(
    r"\b(?:first\s+(?:seen|shows?|visible|notice\w*|caught|catch\w*|spot\w*|see\w*|appears?|"
    r"shows\s+up)|earliest|"
    r"shows?\s+up|shows?\s+first|seen\s+first|visible)\b"
)
PHASE_WORDS = {
    "prepare": ("data prep", "preparation", "prepar", "data review", "before training",
                "before the run", "audit"),
    "ablations": ("ablation", "proxy", "small run", "pilot"),
    "training": ("training run", "mid run", "during training", "in training", "the run",
                 "training"),
    "post_training": ("post training", "fine tun", "rlhf"),
    "evaluation": ("evaluation", "eval"),
    "release": ("release", "sign off", "launch"),
}  # fmt: skip


def first_seen(text: str) -> str | None:
    """The phase a text says a problem first shows at (None: it does not say)."""
    low = text.lower().replace("-", " ")
    cue = FIRST.search(low)
    if cue is None:
        return None
    after = low[cue.end() :]
    spots = [(m.start(), phase) for phase, ws in PHASE_WORDS.items() for w in ws
             if (m := re.search(re.escape(w), after))]  # fmt: skip
    return min(spots)[1] if spots else None


#: Nouns a percentage binds to. Only reserve and ablations are plan fields; the others
#: hold a number that is no plan field ("40% MFU", "3% of the items leaked").
PERCENT_NOUNS: dict[str, tuple[str, ...]] = {
    "reserve": ("reserve", "contingency", "buffer", "held back", "hold back", "holdback",
                "back\\b", "contingencies", "cushion", "kept back", "for surprises",
                "for the surprises", "for unknowns",
                # a share kept back or aside ("we keep 10% back", "keep 12% of it aside"), not
                # one set aside for a purpose ("for ablations we set aside 8%")
                "re:(?:keep|kept|hold|held|set|put|leav|stay)\\w*\\s+(?:[^\\s.,;:]+\\s+){0,3}?"
                "(?:\\d[\\d.]*\\s?%|[a-z0-9.]+\\s+per\\s?cent)\\s+(?:[^\\s.,;:]+\\s+){0,4}?"
                "(?:back|aside)\\b"),
    # the small experiments in other words ("the sweeps", "small runs", "the pilots")
    "ablation": ("ablation", "proxy", "proxies", "sweep", "small run", "small experiment",
                 "smaller run", "pilot run", "pilots"),
    "other": ("mfu", "utili", "efficien", "uptime", "cut\\b", "failure", "leak", "items",
              "overlap", "contaminat", "per day", "attrition", "accuracy", "score",
              "target", "duplicate", "dedup", "tokens",
              # a share of the data is no share of the budget ("a pilot on 10% of the data")
              "of the data", "of our data", "of the corpus", "of the mix", "of the documents"),
}  # fmt: skip
#: Nouns a dollar amount binds to.
DOLLAR_NOUNS: dict[str, tuple[str, ...]] = {
    "compute_usd": ("compute", "gpu", "cluster bill", "main run"),
    "people_usd": ("people", "salar", "staff", "headcount", "team cost"),
    "data_licensing_usd": ("licens", "licenc", "data deal"),
    "annotation_usd": ("annotation", "label", "preference data"),
    "other": ("total", "budget", "reserve", "per hour", "an hour", "per gpu", "a day"),
}
DOLLAR_KEY = {
    "compute_usd": "compute_usd",
    "people_usd": "people_usd",
    "data_licensing_usd": "licensing_usd",
    "annotation_usd": "annotation_usd",
}
#: Words that mark each dimension of a trade-off.
DIM_WORDS: dict[str, tuple[str, ...]] = {
    "schedule": ("slip", "late", "week", "day", "month", "date", "deadline", "schedule",
                 "delay", "sooner", "time", "speed"),
    "cost": ("spend", "cost", "budget", "\\$", "money", "reserve", "dollar", "overrun", "cheap"),
    "quality": ("quality", "worse", "bar\\b", "score", "capabilit", "accuracy", "weaker",
                "below", "lower"),
}  # fmt: skip
#: A side of a trade-off phrased as a loss ("slip two weeks", "spend the reserve").
LOSS = re.compile(
    r"\b(?:slip\w*|spend\w*|spent|accept\w*|sacrific\w*|give\s+up|giving\s+up|lose|losing|"
    r"miss\w*|delay\w*|cut\w*|overrun|go\s+over|below|drop\w*|burn\w*|use\s+the\s+reserve|"
    r"late)\b"
)
PROTECT = re.compile(
    r"\b(?:protect\w*|keep\w*|hold\w*|prioriti[sz]\w*|favou?r\w*|guard\w*|preserv\w*|"
    r"defend\w*|put|non\s+negotiable)\b"
)
GIVE = re.compile(
    r"\b(?:give\s+up|sacrific\w*|trade\s+away|let\s+go|can\s+lose|absorb\w*|flex\w*|"
    r"move\s+the\s+(?:date|launch|deadline)|can\s+move|accept\w*)\b"
)
#: One side ranked above the other ("quality outranks the date", "X is more important than
#: Y"), or given for it ("trade two weeks for quality", "give two weeks for quality", "give
#: up two weeks before we ship under the bar", "slip before we ship below the bar").
RANKED = re.compile(
    r"\b(?:outranks?|trumps?|comes?\s+(?:before|ahead\s+of)|(?:is|are)\s+more\s+important\s+than|"
    r"matters?\s+more\s+than|wins?\s+over)\b"
)
GIVEN_FOR = re.compile(
    r"\b(?:trad(?:e|es|ing)|giv(?:e|es|ing)(?:\s+up)?|spend\w*)\s+(?!up\b)(.+?)\s+(?:for|before)\s+(.+)"
)
SLIP_BEFORE = re.compile(
    r"\b(slip\w*|delay\w*|(?:move|push)\s+the\s+(?:date|launch))\b(.*?)\bbefore\b(.+)"
)
RATHER_THAN = re.compile(r"\brather\s+than\b|\binstead\s+of\b")
RATHER_X_THAN = re.compile(r"\brather\s+(?!than\b)(.+?)\bthan\b(.+)")
OVER = re.compile(r"(?<!\bgo\s)(?<!\bgoes\s)(?<!\bwent\s)(?<!\bbe\s)(?<!\bis\s)\bover\b")
#: "over" a stretch of time or a thing's life, or at a clause's end ("a tenth over."): no side.
SPAN = re.compile(
    r"\s*(?:[,;:.!?]|$)|\s+(?:the\s+|a\s+|an\s+|its\s+|our\s+|\d+\s*|one\s+|two\s+|three\s+|"
    r"four\s+|five\s+|six\s+|seven\s+|eight\s+|nine\s+|ten\s+|twelve\s+|several\s+|"
    r"a\s+few\s+)?(?:\w+\s+)?(?:days?|weeks?|months?|quarters?|years?|run|project|period|"
    r"life(?:time)?|course|fleet|budget|plan|forecast)\b"
)
COST_OF = re.compile(r"\bat\s+the\s+(?:cost|expense|price)\s+of\b")
SCRATCH = re.compile(
    # what is built from scratch is the model, not a set, a tokenizer or a pipeline ("we build
    # the eval set from scratch", "train a tokenizer from scratch")
    r"\b(?:pretrain\w*|train\w*|build\w*|doing\s+pretrain)\b(?:(?!eval|test|sets?\b|suite|"
    r"tokeni|pipeline|data|classifier|reward|judge|dashboard|tool|harness|benchmark|process|"
    r"plan\b|team)[^.;]){0,30}\bfrom\s+scratch\b|"
    r"\bwe\s+pretrain\b|\bpretrain(?:ing)?\s+our\s+own\b|"
    # "we would pretrain rather than adapt", "Pretrain, not adapt:", "Pretrain:"
    r"\b(?:we|i)(?:\s+(?:would|will|should|must|shall)|'d|'ll)\s+pretrain\b(?!\s+(?:a|an|the)\s+"
    r"(?:small|tiny|proxy|pilot)\b)|^\W*pretrain(?:\s+from\s+scratch)?\s*[,:;]"
)
#: Adapting a base model chosen; fine-tuning named as a phase or its rounds ("fewer
#: fine-tuning rounds", "from fine-tuning to evals", "the fine-tuning team") chooses nothing.
ADAPT = re.compile(
    r"\badapt(?:s|ing)?\b(?!\s+(?:quickly|fast|well|as\s+we\s+go|on\s+the\s+fly|accordingly|when|if|"
    r"to\s+(?:change|what|whatever|new|the\s+(?:situation|news|plan|schedule))))"
    # what is adapted is no model: "adapt the recipe", "adapting the schedule", "the data mix"
    r"(?!\s+(?:the\s+|our\s+|a\s+|this\s+|that\s+|its\s+)?(?:data\s+|training\s+)?(?:recipe|plan|"
    r"schedule|mix|process|approach|timeline|budget|roadmap|playbook|hyperparameter|learning\s+rate|"
    r"org|team|date|scope|priorit|estimate|forecast|tokeni|eval|prompt|strategy))|"
    r"(?<!\bfrom\s)\bfine\s+tun(?:e|ed|ing)\b(?!\s+(?:rounds?|runs?|steps?|cycles?|"
    r"stages?|phases?|data|sets?|team|lead|work|jobs?|passe?s?|budget|to\b|(?:the|our|a|this|"
    r"that|my)\s+(?:plan|process|schedule|budget|approach|estimate|forecast|org|team|playbook)|"
    # a model of the post-training, not the base: "fine-tune the reward model"
    r"(?:the|a|an|our)\s+(?:\w+\s+)?(?:reward|classifier|judge|critic|grader)))|"
    r"\bcontinu(?:e|ed|ing)\s+pretrain\w*|"
    r"\b(?:start\w*|build\w*)\s+(?:from|on\s+top\s+of|on)\s+(?:an?\s+|the\s+)?(?:open[\s-]weights?|"
    r"open\s+(?:\d+(?:\.\d+)?b\s+)?(?:base\s+)?(?:model|checkpoint)|base\s+(?:model|checkpoint)|pretrained\s+(?:model|"
    r"checkpoint)|llama|mistral|qwen)|"
    r"\b(?:take|use|pick|start\s+with|go\s+with)\s+(?:an?\s+|the\s+)?(?:\w+\s+){0,2}?(?:open[\s-]"
    r"weights?|open\s+(?:\d+b\s+)?(?:base\s+)?model|base\s+model|pretrained\s+model|llama|mistral|"
    r"qwen)(?=.*\b(?:tun\w*|adapt\w*|train\w*\s+it|post\s?train\w*))"
)
#: What an adaptation adapts: a sentence that says "adapt" with none of these may mean
#: anything ("we adapt the plan"), so the reading is asked, never taken as the strategy.
MODEL_NOUN = re.compile(
    r"\b(?:models?|weights|checkpoints?|base|llama\w*|mistral|qwen|open[\s-]weights?|"
    r"continu\w*\s+pretrain\w*|from\s+scratch|from\s+zero|pretrain\w*|build|"
    r"\d+(?:\.\d+)?\s?b)\b"
)
#: A strategy said on a condition right after it ("we'd pretrain only if we had the data").
CONDITIONAL = re.compile(r"\s+(?:\w+\s+){0,3}?(?:only\s+if|if|unless)\b")
#: A choice said as what it would be, then turned from ("… would be faster, but …").
WOULD_BUT = re.compile(r"\b(?:would|could|might)\s+(?:\w+\s+){0,4}?[^.;]{0,60},\s*but\b")
#: A strategy word in a purpose or a method ("To fine-tune …, I'd …", "how to adapt …").
PURPOSE = re.compile(r"^\W*(?:in\s+order\s+)?to\s+$|.*\bhow\s+to\s+$")
#: Pretraining and a fine-tune in sequence: the fine-tune is the phase after pretraining.
PHASED = re.compile(
    r"(?<!continued\s)(?<!continue\s)\bpre\s?train\w*\b[^.;]{0,40}\b(?:then|after(?:wards)?|next|"
    r"followed\s+by)\b|\b(?:after|once|following)\s+(?:the\s+)?pre\s?train\w*"
)
#: A model to adapt named ("good open weights exist", "a strong base model").
OPEN_MODEL = re.compile(
    r"\b(?:open[\s-]weights?|open\s+(?:base\s+)?models?|base\s+models?|pretrained\s+models?|"
    r"existing\s+models?|llama\w*|mistral|qwen)\b"
)
#: The two strategies weighed as a question, no choice made ("build or adapt", "do we
#: pretrain or not").
WEIGHED = re.compile(
    r"\b(?:build|pretrain\w*|train\s+from\s+scratch)\s+or\s+(?:adapt|fine\s+tun\w*|not)\b|"
    r"\badapt\w*\s+or\s+(?:build|pretrain\w*)\b"
)
#: A strategy named to be set aside ("… would be vanity here", "… is overkill").
DISMISSED = re.compile(
    r"[^.;,]{0,40}?\b(?:would|will|is|'s|seems?)\s+(?:be\s+)?(?:\w+\s+)?(?:vanity|overkill|a\s+waste|"
    r"wasteful|pointless|unnecessary|madness|a\s+mistake|a\s+luxury|out\s+of\s+the\s+question|"
    r"not\s+worth|too\s+(?:expensive|slow|costly|risky))\b"
)


_HEAD_END = re.compile(r"[^.;:?]{0,3}[:?]\s*(?=\S)")


def _after_head(low: str) -> str:
    """A sentence without its "Build or adapt:" head (the question, not the choice)."""
    weighed = WEIGHED.search(low)
    head = _HEAD_END.match(low, weighed.end()) if weighed else None
    return low[head.end() :] if head is not None else low


def _both_strategies(low: str) -> bool:
    """Whether a sentence names both strategies, neither concluded by a "so …" (CHOSEN)."""
    if CHOSEN.search(low):
        return False
    scratch = SCRATCH.search(low)
    adapt = ADAPT.search(low)
    if adapt and re.match(r"\s+(?:nothing|no\b)", low[adapt.end() :]):
        return False  # "we adapt nothing, we train from scratch"
    if adapt and adapt.group(0).startswith("fine") and PHASED.search(low) \
            and not OPEN_MODEL.search(low):  # fmt: skip
        return False  # "we pretrain, then fine-tune it on chats": a phase, not the other
    return bool(scratch and adapt and not negated(low, scratch.start(), refusals=False)
                and not negated(low, adapt.start(), refusals=False))  # fmt: skip


#: The strategy a sentence concludes with ("…, so pretrain", "which is why we adapt").
CHOSEN = re.compile(
    r"\b(?:so|therefore|thus|hence|which\s+is\s+why|that\s+is\s+why)\s+(?:we\s+|i\s+)?"
    r"(?:should\s+|will\s+|would\s+|must\s+)?(pretrain|adapt|fine\s+tune|build(?!\s+on\b))\b"
)


@dataclass(frozen=True)
class Reading:
    """One thing read from the answer: the field, what was read, and the sentence.

    ``key`` is the reading in the reader's output vocabulary (``field=value``, e.g.
    ``reserve=0.12``, ``owner:data_quality=data``, ``playbook:budget=use_reserve>cut_ablations``;
    docs/interview.md lists them), the form the labelled corpus is scored in. ``unsure``
    readings are the reader's guesses: ask the candidate to confirm them, never judge on
    them unconfirmed.
    """

    field: str
    value: str
    sentence: str
    key: str = ""
    unsure: bool = False


def _low(s: str) -> str:
    return s.lower().replace("-", " ").replace("’", "'")


def _spots(low: str, words: Iterable[str]) -> list[int]:
    return sorted(m.start() for w in words for m in re.finditer(rf"(?<![a-z]){w}", low))


def _early_at(sentence: str) -> int:
    """Where the sentence first says a practice starts early, or -1."""
    spots = _spots(_low(sentence), (re.escape(w) for w in EARLY_WORDS))
    before = EARLY_BEFORE.search(_low(sentence))
    spots += [before.start()] if before else []
    return min(spots) if spots else -1


def _first_at(sentence: str, words: Iterable[str]) -> int:
    hits = _spots(_low(sentence), (re.escape(w) for w in words))
    return hits[0] if hits else -1


def _has(t: Text, words: Iterable[str]) -> bool:
    return any(t.has(w) for w in words)


#: A holder set aside: from a negator to the end of its stretch ("not by me", "nor the VP").
NOT_ALTERNATIVE = re.compile(r"\b(?:not|never|nor)\b[^,;:.]*")


#: A clause's words before its verb that name no subject of their own: a conjunction, an
#: adverb, a modal, a pronoun or a relative ("and also", "she", "be the one who").
SUBJECTLESS = re.compile(
    r"\W*(?:(?:and|also|then|so|but|she|he|they|who|be|is|are|the|one|can|could|should|will|"
    r"would|may|must|always|alone|[a-z]+ly)\W+)*\W*"
)
#: A personal pronoun or a relative standing for a team named before it.
PRONOUN = re.compile(r"\b(?:she|he|they|who)\b")


def _first_team_stretch(before: str, teams: Iterable[str]) -> str:
    """The stretch of ``before`` up to the end of the first team it names ("" if none)."""
    first = _team_in(before, teams, nearest=False)
    if first is None:
        return ""
    for end in range(1, len(before) + 1):
        if _team_in(before[:end], teams, nearest=False) == first:
            return before[:end]
    return before


#: "product" alone ending a subject ("…, product makes the calls", "product (the PM)").
BARE_PRODUCT = re.compile(
    r"(?<![a-z'])(?<!\bthe\s)(?<!\bour\s)(?<!\ba\s)(?<!\bthis\s)(?<!\byour\s)(?<!\bmy\s)"
    r"(?<!\btheir\s)product(?:\s*\([^()]{1,30}\))?\s*(?:also\s+|alone\s+)?$"
)


@functools.cache
def _team_words(team: str) -> re.Pattern[str]:
    """Where ``team``'s words start in a text, with the longest word at each start.

    A shorter word of the same team at the same start lies inside the longest, so it
    neither keeps nor sets aside another team's word that the longest would not
    (:func:`_team_in`).
    """
    words = sorted(TEAM_WORDS.get(team, ()) or (team.replace("_", " "),), key=len, reverse=True)
    alts = [re.escape(w) + (r"(?![a-z])" if len(w) <= 3 else "") for w in words]
    return re.compile(rf"(?<![a-z])(?=({'|'.join(alts)}))")


def _team_in(part: str, teams: Iterable[str], nearest: bool = True) -> str | None:
    """The team a stretch of text names, or the candidate for "I".

    ``nearest``: the last named (a subject is the team right before its verb: "so the way
    I see it the data team owns …"); otherwise the first.
    """
    # "by the training lead, not by me and not by the director": who is named only to be
    # set aside holds nothing.
    low = NOT_ALTERNATIVE.sub(lambda m: " " * len(m.group(0)), _low(part))
    found = []
    spans = [
        (m.start(), m.start() + len(m.group(1)), team)
        for team in teams
        for m in _team_words(team).finditer(low)
    ]
    # "the post-training lead": "training lead" inside it (or starting inside it) names no
    # other team.
    for a, b, team in spans:
        if not any(t2 != team and (a2 < a < b2 or (a2 <= a and b <= b2 and (a2, b2) != (a, b)))
                   for a2, b2, t2 in spans):  # fmt: skip
            found.append((a, team))
    firsts: dict[str, int] = {}
    for a, team in sorted(found):
        firsts.setdefault(team, a)
    found = [(a, team) for team, a in firsts.items()]
    me = ME.search(low)
    if me and CANDIDATE_TEAM in teams:
        found.append((me.start(), CANDIDATE_TEAM))
    # "…, product makes the rollback calls": a bare "product" that ends the stretch is the
    # subject of the verb after it (never "product evals" or "the product's users")
    bare = BARE_PRODUCT.search(low)
    if bare and CANDIDATE_TEAM in teams and not any(t == CANDIDATE_TEAM for _, t in found):
        found.append((bare.start(), CANDIDATE_TEAM))
    if not found:
        return None
    return (max(found) if nearest else min(found))[1]


#: A cause word that links no risk to a cost: a sentence opened by "so" ("so yeah, …"),
#: a definition ("done means 85% accuracy", "success means …").
NO_CAUSE = re.compile(
    r"^\W*so\b|\b(?:done|success|good|finished|winning|the\s+target|the\s+goal|"
    r"the\s+bar)\s+means?\b|"
    # a task handed to someone, or someone made its owner: "give data quality to the data
    # team", "make the data lead owner of quality"
    r"\b(?:give|gives|gave)(?=\s+(?:[a-z']+\s+){0,6}?to\s+(?:the\s+|our\s+|a\s+)?[a-z]+\s+"
    r"(?:lead|team|folks|people|engineer|group|owner)s?\b)|"
    r"\b(?:make|makes|made)(?=\s+(?:[a-z']+\s+){0,4}?(?:owners?|responsible|accountable|"
    r"in\s+charge)\b)"
)


#: A negator that describes the risk, not its cost: nobody catches it, it is not noticed, a
#: source used without consent ("a spike nobody catches overnight turns into …", "if they
#: are not caught within hours", "training on them without consent could force a retrain").
UNSEEN = re.compile(
    r"\b(?:nobody|no\s+one|not|never|n't|(?:do|does|did)nt)\s+(?:\w+\s+)?(?:catch\w*|caught|"
    r"sees?|seen|notic\w*|watch\w*|own(?:s|ed)?|reacts?|check\w*|spots?|spotted|detect\w*)\b|"
    r"\bwithout\s+(?:(?:their|the|a|an|any|proper|clear)\s+)?(?:consent|permission|"
    r"licen[cs]es?|rights|clearance|anyone\s+notic\w*)\b"
)
#: "drops" said of a thing that fails ("a node dropped almost daily") refuses nothing.
DROPPED = re.compile(
    r"\b(?:nodes?|gpus?|machines?|hosts?|connections?|jobs?|throughput|mfu|score|quality|"
    r"loss|accuracy)\s+(?:\w+\s+)?drop\w*"
)


def _consequence(low: str) -> bool:
    """Whether a sentence states a consequence it does not negate or refuse.

    Any consequence said and not negated in its own clause counts ("… are not caught
    within hours" is the risk; "ruin a run" its cost); a negator that describes the risk
    (:data:`UNSEEN`) negates no cost.
    """
    blank = {m.end() for m in NO_CAUSE.finditer(low)}
    if REFUSE.search(NOT_EXCEPT.sub(" ", DROPPED.sub(" ", low))):
        return False
    for cause in CAUSE.finditer(low):
        if cause.end() in blank:
            continue
        head = low[clause_start(low, cause.start()) : cause.start()]
        # what follows the cause word in its clause, up to a condition ("so the model does
        # not learn less" negates it; "… if nobody is on call" is the risk's condition)
        tail = low[cause.end() :]
        tail = tail[: min(clause_end(low, cause.end()) - cause.end(),
                          *(m.start() for m in TAIL_END.finditer(tail)))]  # fmt: skip
        # a negator there counts when a cost follows it ("no retrain is forced"); "… so
        # they are not telling us …" is the cost said in the negative, "retrain without
        # it" a cost of its own
        tail = UNSEEN.sub(" ", NOT_EXCEPT.sub(" ", tail))
        negators = len(NOT.findall(UNSEEN.sub(" ", NOT_EXCEPT.sub(" ", head))))
        negators += sum(1 for m in NOT.finditer(tail)
                        if m.group(0) != "without" and CAUSE.search(tail, m.end()))  # fmt: skip
        if negators % 2 == 0:
            return True
    return False


#: Where a consequence's clause gives way to its condition or its reason.
TAIL_END = re.compile(
    r"[,;:.]|\b(?:if|when|unless|until|before|after|because|since|while|and|but|so|which|"
    r"where|as)\b|$"
)


#: An amount of money in words ("700 thousand dollar", "2 million euros"): an estimate.
MONEY = re.compile(r"\d\s*(?:k|m|thousand|million|billion)?\s*(?:dollars?|usd|euros?|eur)\b", re.I)
#: Where a sentence parts into clauses that may each name a risk and its cost.
CHALLENGE_PART = re.compile(
    r";|,\s*(?:and|plus|but)\s+|\s+and\s+(?=(?:an?|the|any|every|our|your)\s)|"
    # a spoken list's next item ("… finding out second the cluster you lose a node …")
    r"(?<!\bthe)\s(?=(?:second(?:ly)?|third(?:ly)?|fourth|fifth|the\s+(?:second|third|next|other)\s+"
    r"(?:thing|one|risk|problem|issue))\b)"
)
#: The words of a clause that hold its subject.
SUBJECT_WORDS = 6
#: A stage named as a head ("Data:", "c) Cluster:", "The first challenge is data:").
RISK_HEAD = re.compile(r"^[^:;.]{1,60}?:")
#: A clause whose subject is a person says what people do, not what a risk does.
PERSONAL = re.compile(r"^\W*(?:we|i|you|they|he|she|it|this|that|which|who|nobody)\b")


#: Words that name a risk only weakly as a clause's subject: "the loss" is the curve that
#: shows a spike, "a restart policy" no safety policy, "people" whoever they are, "a leak"
#: a privacy leak as well as a benchmark's.
WEAK_SUBJECT = re.compile(r"\b(?:loss|polic(?:y|ies)|people|leaks?)\b")


def _subject_risk(part: str) -> str | None:
    """The risk a clause's subject names: its head ("Data: …"), else its first words.

    A clause opened by a person ("we only noticed when the evals …") names none, nor a weak
    word alone (:data:`WEAK_SUBJECT`: "… and the loss looks healthy while quality stalls").
    """
    head = RISK_HEAD.match(part)
    rest = part
    if head is not None and len(head.group(0).split()) <= SUBJECT_WORDS:
        said = _risk_said(head.group(0), Text.of(head.group(0)))
        if said is not None:
            return said
        rest = part[head.end() :]
    if PERSONAL.match(_low(rest)):
        return None
    rest = _low(rest)
    cause = next((m for m in CAUSE.finditer(rest) if rest[: m.start()].strip()), None)
    subject = rest[: cause.start()] if cause is not None else rest
    subject = WEAK_SUBJECT.sub(" ", " ".join(subject.split()[:SUBJECT_WORDS]))
    said = _risk_said(subject, Text.of(subject))
    if said is None:
        return next((r for pat, r in OWNED_AS if pat.search(subject)), None)
    return said if _named_apart_from_cost(subject, said) else None


def _costs_said(s: str, risk: str, dims: tuple[str, ...]) -> bool:
    """Whether ``s`` says what ``risk`` costs.

    A cost beyond the risk's own words, a consequence not negated, and the risk named by
    more than the cost.
    """
    return bool(
        dims
        # the budget's own words are money: its cost must be named beyond them
        and (_costs_beyond(s, risk) or (not _vague(_low(s)) and risk != "budget"))
        and _named_apart_from_cost(s, risk)
        and _consequence(_low(s))
    )


def _risk_said(s: str, t: Text) -> str | None:
    """The one risk a sentence is about, a tie settled by its head or its subject.

    "Data: … the model learns less and misses the target" names the data by its head; "the
    GPUs fail … and each failure *costs* us hours" names hardware, not the budget: what
    comes before the consequence is the risk, what follows says what it costs.
    """
    tied = _tied(t)
    if not tied:
        return None  # no risk named at all: no part of it names one either
    risk = _settled(tied)
    if risk is not None:
        if risk == "staffing":
            # "people" is also whom the model fails ("fails journalists, who ask about local
            # people"): the staff named after the consequence are not the risk
            said = _said_before_cost(_low(s))
            return said if said is not None and said != "budget" else risk
        return risk
    head = RISK_HEAD.match(s)
    if head is not None and len(head.group(0).split()) <= 6:
        said = _risk_of(Text.of(head.group(0))) or next(
            (r for pat, r in OWNED_AS if pat.search(_low(head.group(0)))), None
        )
        if said is not None and said in tied:
            return said
    said = _said_before_cost(_low(s))
    if said is not None:
        return said
    # the risk the sentence names first, within its first words ("a spike nobody owns
    # leaves the cluster idle": the spike, not the cluster it idles), before any word of
    # what it costs, and never the budget, whose words are money
    words = _low(s).split()
    for n in range(1, min(len(words), FIRST_WORDS) + 1):
        prefix = Text.of(" ".join(words[:n]))
        if _costs(prefix):
            return None
        first = [r for r in _tied(prefix) if r != "budget"]
        if first:
            return first[0] if len(first) == 1 else None
    return None


#: How far into a sentence its first risk is looked for, when its words tie.
FIRST_WORDS = 8


def _said_before_cost(low: str) -> str | None:
    """The risk named before the sentence's first cost verb, or else its first cause word."""
    for verbs in (COST_VERB, CAUSE):
        cause = next((m for m in verbs.finditer(low) if low[: m.start()].strip()), None)
        said = _risk_of(Text.of(low[: cause.start()])) if cause is not None else None
        if said is not None:
            return said
    return None


#: Risks whose words name the medium other risks live in (data, evals, users).
GENERIC_RISKS = frozenset(("data_quality", "eval_gap"))
#: Risks that are something found in the data or the eval sets.
LIVES_IN_DATA = frozenset(("contamination", "licensing"))


def _risk_of(t: Text) -> str | None:
    tied = _tied(t)
    return _settled(tied) if tied else None


#: A risk's words the shared vocabulary leaves out (reader only): "GPUs" is no stem of
#: "GPU" to the stemmer; chips and accelerators are the hardware, shards the data.
RISK_WORDS: dict[str, tuple[str, ...]] = {
    "hardware": ("=gpus", "=chips", "=accelerators"),
    "data_quality": ("=shard", "=shards"),
}


def _tied(t: Text) -> list[str]:
    """The risks a text names most (several when tied; none when it names none)."""
    scores = {r: sum(phrases_named(t, c) for c in topic(r)) for r in RISK_KINDS}
    for r, words in RISK_WORDS.items():
        scores[r] += sum(1 for w in words if t.has(w))
    best = max(scores, key=lambda r: scores[r])
    if scores[best] <= 0:
        return []
    return [r for r, v in scores.items() if v == scores[best]]


def _settled(tied: list[str]) -> str | None:
    """The one risk of those a text names equally, or None when it cannot be trusted.

    "the benchmarks leaked into the web data": the data and the evals are where a leak or
    an unlicensed source lives, so a tie with one of those names it.
    """
    if len(tied) == 1:
        return tied[0]
    if len(tied) == 2 and len(set(tied) & GENERIC_RISKS) == 1:
        other = next(r for r in tied if r not in GENERIC_RISKS)
        if other in LIVES_IN_DATA:
            return other
    return None


#: What an owner is said to own, in words the risks' own vocabulary leaves to others:
#: "owns stability" is the loss spikes, "owns reliability" the hardware (reader only: the
#: rubric's concepts do not move).
OWNED_AS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:training\s+)?(?:stability|instabilit\w*|divergences?|blow\s?ups?)\b"),
     "loss_spike"),
    (re.compile(r"\b(?:reliability|uptime|infrastructure|the\s+(?:cluster|nodes|gpus|fleet|"
                r"machines|servers|hosts))\b"), "hardware"),
    (re.compile(r"\b(?:provenance|consent|the\s+licen[cs]es?|every\s+licen[cs]e)\b"), "licensing"),
    # "owns quality", "the archive's quality", "the quality of the mix": the quality of what
    # goes in, unless it is the model's or its answers'
    (re.compile(r"(?<!model\s)(?<!model's\s)(?<!answer\s)(?<!output\s)(?<!response\s)"
                r"(?<!product\s)\bquality\b(?!\s+(?:bar|target|of\s+(?:the\s+)?"
                r"(?:model|answers?|outputs?|responses?|product)))"), "data_quality"),
)  # fmt: skip


#: A signal in words the risks' signals leave to others (reader only, as OWNED_AS): every
#: source checked, audited or signed off before use is a licence audit.
SIGNALED_AS: dict[str, re.Pattern[str]] = {
    "licensing": re.compile(
        r"\b(?:check\w*|audit\w*|vet\w*|signs?\s+off|signing\s+off|clear\w*|verif\w*|"
        r"approv\w*)\s+(?:(?:on|of|off)\s+)?(?:each|every|all|any)\s+(?:[a-z]+\s+)?"
        r"(?:sources?|providers?|datasets?|repos?|vendors?|suppliers?)\b"
        r"|\btakedown\s+(?:notices?|requests?)\b"
    ),
    # the product's own eval named by its score, taken at each checkpoint ("reports the
    # claims-set score on every checkpoint", "scoring every checkpoint on both"), or built
    # from real use ("builds the tests from what our users ask", "out of real tickets")
    "eval_gap": re.compile(
        r"\b(?:reports?|reporting|scor\w*|tracks?|tracking|measur\w*|runs?|running)\s+"
        r"(?:(?:the|our|its|their)\s+)?(?:[a-z]+\s+){0,3}?(?:score|set|suite|evals?|rating)s?\s+"
        r"(?:on|for|at|after)\s+(?:each|every)\s+(?:checkpoint|epoch)|"
        r"\bscor\w*\s+(?:each|every)\s+checkpoint|"
        r"\bbuild\w*\s+(?:(?:a|the|our|its|their)\s+)?(?:[a-z]+\s+){0,2}?(?:test\s+sets?|tests|"
        r"evals?|suites?)\s+(?:(?:out\s+)?of|from|with)\s+(?:real|actual|what\s+(?:our\s+)?"
        r"(?:customers?|users?|clients?))|"
        # the gap itself measured: "the gap between product and benchmark scores"
        r"\b(?:gap|difference|delta|spread)\s+between\s+(?:the\s+|our\s+)?(?:(?:product|customer|"
        r"user|internal)\w*|benchmark\w*|public)(?:\s+[a-z]+)?\s+(?:and|vs\.?|versus)\s+(?:the\s+|our\s+)?"
        r"(?:[a-z]+\s+)?(?:scores?|numbers|results|metrics)\b|"
        # the product's own measures: win rates on customer tasks, ratings by its users, a
        # golden set of real questions
        r"\b(?:win\s+rates?|(?:customer|user|support|clinician|lawyer|agent)\w*\s+(?:\w+\s+)?ratings?|"
        r"golden\s+sets?\s+(?:of|from)\s+real)\b"
    ),
    # a data signal beside the vocabulary's: language identification, toxicity or junk
    # rates of the data, documents read by hand, a small model trained on each mix
    "data_quality": re.compile(
        r"\b(?:language\s+id\w*|lang\s?id|toxicity\s+(?:filter\s+)?rates?|"
        r"(?:read|reads|reading)\s+(?:of\s+)?(?:\d+\s+)?(?:random\s+|sampled\s+)?(?:documents|docs|pages)|"
        r"(?:small|1b|proxy|tiny)\s+models?\s+trained\s+on\s+(?:each|every)\s+(?:mix|version|batch))\b"
    ),
    # a leak shows as a score too good to be true or a jump on one benchmark
    "contamination": re.compile(
        r"\b(?:too\s+good|suspicious(?:ly)?\s+(?:\w+\s+)?(?:jumps?|gains?|high)|"
        r"jumps?\s+on\s+(?:one|a\s+single)\s+benchmark)\b"
    ),
    "hardware": re.compile(
        r"\bgpu\s+(?:temperatures?|temps?|thermals?)\b|\bthermal\s+(?:alerts?|throttl\w*)"
    ),
    # instabilities seen before the loss moves: logits or activations growing, NaNs
    "loss_spike": re.compile(
        r"\b(?:(?:attention\s+)?logits?\s+(?:growth|norms?)|activation\s+norms?|nans?\s+alerts?|"
        r"nan\s+checks?|loss\s+scale)\b"
    ),
    "safety": re.compile(r"\brefusal\s+rates?\b"),
}


def _signals(rest: str, risk: str) -> bool:
    """Whether an owner's sentence, its owned words set aside, names a signal of ``risk``."""
    text = affirmed(rest)
    if find(text, SIGNALS[risk]).found:
        return True
    extra = SIGNALED_AS.get(risk)
    return extra is not None and extra.search(" ".join(text.raw)) is not None


def _risks_in(part: str) -> list[str]:
    """The risks an object names, one per item of a list ("data quality, contamination and …")."""
    out = []
    for item in re.split(r",|\band\b|;", part):
        r = _risk_of(Text.of(item))
        if r is None:
            r = next((risk for pat, risk in OWNED_AS if pat.search(item)), None)
        if r and r not in out:
            out.append(r)
    return out


#: A noun that names a measured quantity: an owned object that is one is watched
#: ("owns that failure rate", "owns the loss curve").
MEASURE = re.compile(
    r"\b(?:rates?|ratios?|counts?|numbers|metrics?|scores?|curves?|alarms?|alerts?|"
    r"dashboards?|z\s?scores?|kpis?|percent(?:age)?s?)\b"
)
#: Where the items of an owned object part: "spikes, loss and grad-norm alarms".
OBJECT_ITEM = re.compile(r",|;|\band\b|\bplus\b|[()+]")


def _risk_words_blanked(head: str) -> str:
    """An owned object with the words that only name its risks blanked.

    The risk's own words are no warning ("owns the hardware"); what the object says of a
    risk it has already named is ("owns spikes, loss and grad-norm alarms": the loss and
    its alarms are how spikes show), and so is an item that is a measured quantity ("owns
    that failure rate"). An item that names no risk of its own is kept when it names a
    signal of those named, or nothing of any risk; risk words without a risk are blanked.
    A negator stays, as it still negates what is watched ("owns data quality and does not
    watch dedup").
    """
    named: set[str] = set()
    out, at = [], 0
    for m in [*OBJECT_ITEM.finditer(head), None]:
        end = m.start() if m else len(head)
        item = head[at:end]
        risks = set(_risks_in(item))
        signal = MEASURE.search(item) or (
            not risks - named and (_names_signal(item, named) or not _names_topic(item))
        )
        named.update(risks)
        out.append(item if signal else _blank_words(item))
        if m is not None:
            out.append(m.group(0))
            at = m.end()
    return "".join(out)


def _names_signal(text: str, risks: Iterable[str]) -> bool:
    t = Text.of(text)
    return any(find(t, SIGNALS[r]).found for r in risks)


def _names_topic(text: str) -> bool:
    t = Text.of(text)
    return any(phrases_named(t, f"topic_{r}") for r in RISK_KINDS)


def _blank_words(text: str) -> str:
    """``text`` with every word but a negator blanked, its length kept."""
    return re.sub(
        r"\S+",
        lambda m: (
            m.group(0)
            if NOT.fullmatch(m.group(0)) or m.group(0).endswith("n't")
            else " " * len(m.group(0))
        ),
        text,
    )


def _signal_clause(s: str) -> str:
    """The part of an ownership sentence that says what is watched ("… with loss alerts")."""
    m = WATCH.search(s)
    return (s[m.end() :].strip() if m else s)[:TEXT_MAX]


def _title(risk: str) -> str:
    stage = STAGE_OF_RISK[risk]
    return next((title for title, r in CATALOGUE[stage] if r == risk), risk.replace("_", " "))


def _concept_at(s: str, concept: str) -> int:
    words = [w.lstrip("=") for w in CONCEPTS[concept].phrases]
    return _first_at(s, words)


def _fraction(x: float) -> str:
    return f"{round(x, 4):g}"


class _Reader:
    def __init__(
        self, plan: InterviewPlan, text: str, confirmed: frozenset[str] = frozenset()
    ) -> None:
        self.plan = plan
        self.confirmed = confirmed
        self.teams = base_scenario(plan.base).team_ids
        self.readings: list[Reading] = []
        self.update: dict[str, object] = {}
        self.challenges: dict[str, Challenge] = {}
        self.risks: dict[str, RiskPlan] = {}
        self.rights: dict[str, str] = {}
        self.gates: dict[str, GatePlan] = {}
        #: A head of gates said alone ("6. Gates."): the items after it are gate sentences.
        self.gate_head = False
        #: The sentence before, as the gate reader saw it.
        self.gate_before = ""
        self.budget: dict[str, object] = {}
        self.levers: dict[str, object] = {}
        self.playbook: dict[str, list[str]] = {}
        self.roles: dict[str, str] = {}
        self.tradeoffs: list[TradeOff] = []
        #: The clause before this one when a semicolon joined them ("When we slip we will not
        #: add staff late; we cut …"), else "".
        self.joined = ""
        #: A list of owners under its head ("Owners: …;") goes on after a semicolon.
        self.listing = False
        #: The risks the sentence before gave an owner without a warning.
        self.owned: list[str] = []
        #: The decisions a question asked the holder of ("Who decides the rollback?").
        self.asked: str | None = None
        #: The sentence before this one ("The data lead is new. She owns quality.").
        self.before = ""
        #: The risks a question asked the owner of ("Who owns data quality?").
        self.asked_owner: list[str] = []
        #: The risk of the challenge the sentence before named, if it named one.
        self.last_challenge: str | None = None
        said = sentences(text)
        listed = term_lines(said)  # a list of terms, one a line: each alone states nothing
        for s in said:
            if not (listed and bare_term(s)):
                self.sentence(s, Text.of(s))
            # A clause ending in ";" and the next are one sentence: context carries over.
            self.joined = s if s.rstrip().endswith(";") else ""
            self.before = s

    def note(self, field: str, value: str, sentence: str, key: str, unsure: bool = False) -> None:
        self.readings.append(
            Reading(field, value, sentence[:TEXT_MAX], key, unsure and key not in self.confirmed)
        )

    def sure(self, key: str, sure: bool) -> bool:
        """Whether a reading enters the plan: read sure, or confirmed by the candidate."""
        return sure or key in self.confirmed

    def sentence(self, s: str, t: Text) -> None:
        if term_list(s):
            return  # a list of terms binds nothing to anything: it states nothing
        self._elided_warning(s)
        risk = _risk_said(s, t)
        dims = _costs(t)
        # A sentence that says why late discovery costs (the grounding) is read as that,
        # not as one risk's challenge: "found late, a data defect means a restart".
        before = len(self.readings)
        self._late(s, t)
        self._owners(s)
        self._rights(s)
        self._gate(s, t)
        self._numbers(s, t)
        self._playbook(s)
        self._levers(s, t)
        self._role(s, t)
        self._strategy(s, t)
        self._tradeoff(s)
        self._stated(s)
        decides = DECIDE_VERB.search(_low(s))
        # "… while nobody decides" says what the risk costs; "the lead decides" is a plan.
        nobody = decides is not None and re.search(
            r"\b(?:nobody|no\s+one|no\s+body)\s+$", _low(s)[: decides.start()]
        )
        plan_sentence = (len(self.readings) > before or "$" in s or bool(MONEY.search(s))
                         or bool(decides and not nobody))  # fmt: skip
        if risk is None and not plan_sentence and self.last_challenge is not None:
            # "… each restart loses days; first seen during training": where the challenge
            # just named first shows, said in the next sentence without naming it again.
            risk = self.last_challenge if first_seen(s) is not None else None
        self.last_challenge = None
        if (
            risk in self.challenges
            and self.challenges[risk].earliest_signal is None
            and not plan_sentence
            and (phase := first_seen(s)) is not None
        ):
            # A risk already named, and later where it first shows ("… first shows in the
            # ablations"): the phase joins the challenge.
            self.challenges[risk] = self.challenges[risk].model_copy(
                update={"earliest_signal": phase}
            )
            self.note("first seen at", phase, s, f"first_seen:{risk}={phase}")
        if (
            risk
            and risk not in self.challenges
            and not plan_sentence
            and not _has(Text.of(FIRST.split(_low(s))[0]), CHALLENGE_NOT_GATE)
            and _costs_said(s, risk, dims)
        ):
            self._challenge(risk, dims, s)
        if not plan_sentence and not _has(Text.of(FIRST.split(_low(s))[0]), CHALLENGE_NOT_GATE):
            # A sentence of two risks, each with its own cost ("a bad mix costs the run, and
            # a spike nobody watches burns the cluster overnight"): each clause is read.
            parts = CHALLENGE_PART.split(s)
            for part in parts if len(parts) > 1 else ():
                pt = Text.of(part)
                r = _risk_said(part, pt)
                # the clause's own subject names its risk ("…, and a spike nobody watches
                # burns …"); a risk named later in it only says what the first one costs
                # ("…, and a model tuned on them writes text that users abandon")
                if (r and r not in self.challenges and _subject_risk(part) == r
                        and _costs_said(part, r, _costs(pt))):  # fmt: skip
                    self._challenge(r, _costs(pt), s)
            if risk in self.challenges and self.challenges[risk].consequence == s[:TEXT_MAX]:
                self.last_challenge = risk  # the sentence's own risk, not a clause's
        if (
            "product_use" not in self.update
            and find(affirmed(s), ("product_use", "product_task")).missing == ()
        ):
            self.update["product_use"] = s
            self.note("product use", s, s, "product_use=yes")

    def _challenge(self, risk: str, dims: tuple[str, ...], s: str) -> None:
        """``risk`` named as a challenge by ``s``, with what it costs (``dims``)."""
        hits = [k for k, d in DIMENSIONS.items() if d in dims]
        phase = first_seen(s)
        self.challenges[risk] = Challenge(
            stage=STAGE_OF_RISK[risk], title=_title(risk), risk=risk,  # type: ignore[arg-type]
            hits=hits, consequence=s[:TEXT_MAX], earliest_signal=phase,  # type: ignore[arg-type]
        )  # fmt: skip
        self.note("challenge", f"{_title(risk)} ({', '.join(hits)})", s, f"challenge={risk}")
        if phase is not None:
            self.note("first seen at", phase, s, f"first_seen:{risk}={phase}")
        self.last_challenge = risk

    def _elided_warning(self, s: str) -> None:
        """A fragment after a semicolon names the signal of the owner before it.

        "Training lead owns loss spikes; loss and grad-norm alerts.": the second clause has
        no subject or verb of its own, so it is the first one's object continued.
        """
        owned, self.owned = self.owned, []
        # "…; the early signal is the dedup rate", "Her first warning would be …": a clause
        # whose subject is a signal goes on with the owner before (joined or not).
        if not SIGNAL_SUBJECT.match(_low(s)) and (not self.joined or has_clause(s)):
            return
        for risk in owned:
            old = self.risks.get(risk)
            if old is None or old.early_warning or not find(affirmed(s), SIGNALS[risk]).found:
                continue
            self.risks[risk] = old.model_copy(update={"early_warning": s[:TEXT_MAX]})
            self.note(f"early warning for {risk}", s, self.joined + " " + s, f"warning:{risk}=yes")

    def _stated(self, s: str) -> None:
        """Hazards and practices said in words that no plan field holds.

        :mod:`sim.interview.stated`; shown as readings, and the rubric reads them afresh
        from the prose it keeps.
        """
        said = {r.key for r in self.readings}
        for sid, _ in stated_in(s):
            key = STATED[sid].key
            if key not in said:
                self.note(STATED[sid].kind, STATED[sid].label, s, key)

    def _late(self, s: str, t: Text) -> None:
        if "late_discovery" in self.update:
            return
        # "the post-training lead decides rollbacks" names a team and a decision: no cost.
        plain = DECIDED.sub(" ", TEAM_NAME.sub(" ", _low(s)))
        # "Building from scratch is a waste": a strategy set aside, neither a redo nor sunk.
        for m in reversed(list(SCRATCH.finditer(plain))):
            dismissed = DISMISSED.match(plain, m.end())
            if dismissed is not None:
                plain = plain[: m.start()] + " " + plain[dismissed.end() :]
        # "the compute spent cannot be recovered" says it is lost, and negates nothing after
        plain = UNRECOVERED.sub("is lost", plain)
        text = affirmed(plain, refusals=True)
        said = set(find(text, ("sunk_compute", "redo", "downstream")).found)
        said |= {m for m, words in LATE_MORE.items() if any(text.has(w) for w in words)}
        if not find(text, ("downstream",)).found and not (
            "redo" in said or any(text.has(w) for w in ("thrown away", "throw away", "wasted"))
        ):
            said.discard("downstream")  # the rounds named, but nothing of them lost or redone
        if len(said) >= 2:
            self.update["late_discovery"] = s[:TEXT_MAX]
            self.note("why late is expensive", s, s, "late=yes")

    def _own(self, risk: str, team: str, s: str, rest: str, unsure: bool) -> None:
        old = self.risks.get(risk, RiskPlan())
        if old.owner is not None:
            return
        warning = _signal_clause(s) if _signals(rest, risk) else ""
        if self.sure(f"owner:{risk}={team}", not unsure):
            self.risks[risk] = RiskPlan(owner=team, early_warning=warning)  # type: ignore[arg-type]
        self.note(f"owner of {risk}", team + (" with an early warning" if warning else ""), s,
                  f"owner:{risk}={team}", unsure)  # fmt: skip
        if warning:
            self.note(f"early warning for {risk}", warning, s, f"warning:{risk}=yes", unsure)
        elif not unsure:
            self.owned.append(risk)

    def _owners(self, s: str) -> None:
        """Owners: the subject of each owning verb, the risks of its object."""
        low = _low(s)
        asked, self.asked_owner = self.asked_owner, []
        if QUESTION.match(low) and s.rstrip().endswith("?"):
            # "Should the data lead own quality?": asked, not said; "Who owns X?" is
            # answered by a next sentence that opens with its owner ("The data lead.")
            who = re.match(rf"^\W*who\s+(?:{OWN_VERB.pattern})(.*)\?\W*$", low)
            self.asked_owner = _risks_in(who.group(who.lastindex or 0)) if who else []
            return
        if asked:
            holder = re.split(r"[,;(]|\s(?:with|watching|who|by|through|via)\b", low)[0]
            team = _team_in(holder, self.teams) if len(holder.split()) <= 4 else None
            if team is not None and not re.search(
                r"n't|\b(?:not|no|nobody|unclear|maybe)\b", holder
            ):
                for risk in asked:
                    self._own(risk, team, s, low, unsure=False)
                return
        verbs = list(OWN_VERB.finditer(low))
        colon = re.match(r"^\W*([a-z\s]+?):\s*(.+)$", low)
        # "Evals team: contamination, overlap scans" names an owner; "Evaluation: leaked
        # items inflate the scores, so …" names a stage and what its risk costs.
        if (not verbs and colon is not None and len(colon.group(1).split()) <= 4
                and _team_in(colon.group(1), self.teams) and not NOT_A_TEAM.search(colon.group(1))
                and not _consequence(colon.group(2))):  # fmt: skip
            self._owner_of(colon.group(1), colon.group(2), s)
        if not verbs:
            self._owned_head(low, s)
            if colon is None:
                self._spoken_owners(low, s)
        self._possessed(low, s)
        # A list of owners under its head; a clause after its ";" goes on with the list.
        listed = OWNER_LIST.match(low)
        if listed is not None and NO_OWNER.search(low[: listed.start(1)]):
            listed = None
        items = listed.group(1) if listed else low if self.listing and not verbs else None
        self.listing = items is not None and s.rstrip().endswith(";")
        # A verb in the head ("Owners, with what each one watches: …") is not an item's.
        at = listed.start(1) if listed else 0
        if items is not None and not any(v.start() >= at for v in verbs):
            self._owner_list(items, s)
        for i, m in enumerate(verbs):
            start = self._subject_start(low, m.start())
            if negated(low[start:], m.start() - start, refusals=False):
                continue
            before = low[verbs[i - 1].end() : m.start()] if i else ""
            if (
                i
                and WATCHING.match(m.group(0))
                and re.fullmatch(r"[^;.]*\band\s+(?:also\s+)?", before)
                and _team_in(before, self.teams) is None
                and _risks_in(WATCH_AT.split(before)[0])
            ):
                # "owns contamination and runs overlap checks against every product eval":
                # the same subject's second verb says how the risk is watched, not another one.
                continue
            end = len(low)
            if i + 1 < len(verbs):
                nxt = self._subject_start(low, verbs[i + 1].start())
                end = nxt if nxt > m.end() else verbs[i + 1].start()
            # "I own the objective, and the sponsor signs off the budget": the object ends
            # where another subject's decision begins.
            decide = next((d for d in DECIDE_VERB.finditer(low, m.end()) if d.start() > m.end()),
                          None)  # fmt: skip
            if decide is not None and decide.start() < end:
                cut = clause_start(low, decide.start())
                end = cut if cut > m.end() else decide.start()
            if m.group(0).startswith(HOLDER_AFTER):
                self._owner_of(low[m.end() : end], low[start : m.start()], s)
                continue
            subject = low[start : m.start()]
            if NOT_HELD.search(subject):
                continue  # "asked who owns it", "used to own it": nobody holds it now
            subject = self._owning_subject(low, start, subject, colon)
            obj = self._owned_object(low, start, m, low[m.end() : end])
            # "…, and her early signal is dedup and toxicity rates": a clause of its own.
            obj = re.split(r",?\s+and\s+(?:her|his|their|its|my|our)\s", obj)[0]
            if DECISION_OWNED.match(obj):
                continue  # "owns rollback calls": a decision right (:meth:`_rights`), no risk
            if _team_in(subject, self.teams) is None:
                by = re.search(r"\b(?:is|are)\s+(?:the\s+)?(.+)$|\bby\s+(.+)$", obj)
                inverted = (by.group(1) or by.group(2)) if by else None
                if by and inverted and _team_in(inverted, self.teams):
                    subject, obj = inverted, obj[: by.start()]
            # a clause opened at its team is read alone: a negator before it reaches
            # neither the verb nor what is watched
            self._owner_of(subject, obj, s, start if start > clause_start(low, m.start()) else 0)

    def _owning_subject(
        self, low: str, start: int, subject: str, colon: re.Match[str] | None
    ) -> str:
        """The subject of an owning verb, its team found where the clause does not name it.

        A pronoun takes the nearest team before it, never the candidate who speaks of them
        ("the infra team, they own that", "I think they own it"), or, opening the sentence,
        the one team of the sentence before; a relative its noun ("the data lead, who owns
        …"); a colon's head ("Data lead: on the hook for …"); a person their apposition
        ("Priya, our data lead, owns …").
        """
        pron = re.search(
            r"(?:^|\s)(?:they|she|he)(?:\s+(?:would|will|should|also|can))?\s*$", subject
        )
        if pron is not None and _team_in(ME.sub(" ", subject), self.teams) is None:
            before = ME.sub(" ", low[: start + pron.start()])
            if _team_in(before, self.teams) is not None:
                subject = before
            elif not low[: start + pron.start()].strip(" ,"):
                named = {t for t in self.teams if _team_words(t).search(_low(self.before))}
                subject = _low(self.before) if len(named) == 1 else ""
            else:
                subject = ""
        if re.fullmatch(r"\s*(?:who|that|which)\s*", subject):
            ante = re.search(r"((?:[a-z']+\s+){0,4}[a-z']+)\s*,?\s*$", low[:start])
            subject = ante.group(1) if ante else subject
        if colon is not None and _team_in(subject, self.teams) is None:
            subject = colon.group(1)
        if _team_in(subject, self.teams) is None and re.fullmatch(
            r"[\s,]*(?:(?:is|are|will|would|should|can|also|be)\b[\s,]*)*", subject
        ):
            app = APPOSITIVE.search(low, 0, start)
            if app is not None and not negated(app.group(0), 0):
                subject = app.group(1) or app.group(2)
        return subject

    def _owned_object(self, low: str, start: int, m: re.Match[str], obj: str) -> str:
        """What an owning verb (``m``) owns; the thing said before, where its object names none.

        "responsible to check quality" (the verb after "to" set aside); an owned "that" or
        "it" takes the "for X" said before ("for hardware it's the infra team, they own
        that"); so does an object with no risk under a head ("For hardware, the infra lead
        is the owner") or after "as owner" ("For quality I'd put the data lead as owner").
        """
        if m.group(0).endswith(" to"):
            obj = re.sub(r"^\s*[a-z]+\s+", " ", obj)
        if re.search(r"^\s*(?:that|it|this|them|those)\b", obj) and not _risks_in(
            obj.split(",")[0]
        ):
            said_for = re.search(
                r"\bfor\s+([^,;:.]{3,40}?)(?=\s+(?:it'?s|its|is|i|we)\b|,)", low[: m.start()]
            )
            if said_for is not None:
                obj = said_for.group(1)
        if not _risks_in(obj.split(",")[0]) and not re.match(r"\s*(?:of|for)\b", obj):
            head = FOR_HEAD.search(low, 0, start)
            said_for = re.search(r"\bfor\s+([^,;:.]{3,40}?)(?=\s+(?:i|we)\b|,|$)", low[: m.start()])
            if head is not None:
                obj = head.group(1)
            elif said_for is not None and m.group(0).startswith("as"):
                obj = said_for.group(1)
        return obj

    def _spoken_owners(self, low: str, s: str) -> None:
        """A list of owners said without marks, an item starting at each team.

        "owners would be the data team for the crawl and the evals team for contamination":
        after "owners", a team starts an item once the item before holds its "for".
        """
        head = re.search(r"\bowners?\b(?:\s+(?:are|would\s+be|will\s+be|is|then|like))?\s+", low)
        if head is None or NO_OWNER.search(low[: head.end()]):
            return
        rest = low[head.end() :]
        starts = sorted({mm.start() for t in self.teams for mm in _team_words(t).finditer(rest)})
        # an item starts at a team only where the item before already holds its "for"
        cuts = [0]
        for at in starts:
            if at > cuts[-1] and re.search(r"\bfor\b", rest[cuts[-1] : at]):
                cuts.append(at)
        items = [rest[a:b] for a, b in zip(cuts, [*cuts[1:], len(rest)], strict=True)]
        if sum(bool(re.search(r"\bfor\b", i)) for i in items) >= 2:
            self._owner_list("; ".join(items), s)

    def _possessed(self, low: str, s: str) -> None:
        """The owner said as whose job it is, or as whom it is assigned to.

        "Data quality is the data lead's job", "hardware failures would be infra's
        problem", "contamination is my responsibility", "I'd assign node failures to the
        infra lead"; negated ("is not the data lead's job") or held by nobody, nothing.
        """
        for m in POSSESSED.finditer(low):
            obj, who = m.group(1), m.group(2)
            if negated(low[: m.end()], m.start(2)) or NO_OWNER.search(who):
                continue
            who = "me" if who == "my" else who  # "my responsibility": the candidate's
            self._owner_of(who, obj[clause_start(obj, len(obj)) :], s)
        for m in ASSIGNED.finditer(low):
            if not negated(low, m.start()):
                self._owner_of(m.group(2), m.group(1), s)

    def _owned_head(self, low: str, s: str) -> None:
        """The owned thing first, its owner after a mark: "Hardware failures: the infra team".

        Only a head that names one risk and no team, and an owner said in a few words that
        name one team (what follows a comma may name its signal); a head that names a stage
        or a cost ("Evaluation: leaked items inflate the scores") gives nothing.
        """
        m = OWNED_HEAD.match(low)
        # a head naming a decision ("Data fix call: the data lead") gives a right, no risk
        if (m is None or _team_in(m.group(1), self.teams) is not None
                or re.search(rf"\b{DECISION_NOUN}|\b(?:calls?|decisions?|sign\s?off)\b",
                             m.group(1))):  # fmt: skip
            return
        risks = _risks_in(m.group(1))
        pieces = re.split(r"[,;(]|\s[–—-]\s|\bwho\b|\bwatch", m.group(2))
        owner = pieces[0]
        if len(pieces) > 1 and len(owner.split()) <= 2 and _team_in(owner, self.teams) is None:
            owner = pieces[1]  # "Hardware: Marco, our infra lead"
        if (len(risks) != 1 or _consequence(m.group(2)) or negated(m.group(2), 0)
                or NO_OWNER.search(owner)):  # fmt: skip
            return
        teams = {t for t in self.teams if _team_in(owner, (t,)) is not None}
        if len(teams) != 1:
            return
        team = teams.pop()
        # the owner in a few words: its team's words, a determiner, a name ("fewer
        # post-training rounds" names a cut, not the post-training team)
        left = owner
        for w in sorted(TEAM_WORDS.get(team, ()), key=len, reverse=True):
            left = re.sub(rf"(?<![a-z]){re.escape(w)}(?![a-z])", " ", left)
        if len([w for w in re.findall(r"[a-z']+", left) if w not in OWNER_FILLER]) <= 1:
            self._own(risks[0], team, s, m.group(2), unsure=False)

    def _owner_list(self, items: str, s: str) -> None:
        """A list of owners under an "Owners:" head, each a team and what it owns or watches.

        "Owners: data lead (dedup rate), infra (node health)", "Owners and signals: data,
        the data lead, dedup rates; hardware, infra, node health": each item names one
        team, and one risk by its name or by its signal once the team's words are set aside
        ("data lead" names the data team, not the data's quality). An item naming two teams
        or two risks (a tie) gives nothing.
        """
        for part in self._owner_items(items):
            teams = {t for t in self.teams if _team_in(part, (t,)) is not None}
            if len(teams) != 1:
                continue
            team = teams.pop()
            words = TEAM_WORDS.get(team, ()) or (team.replace("_", " "),)
            rest = _low(part)
            for w in sorted(words, key=len, reverse=True):
                rest = re.sub(rf"(?<![a-z]){re.escape(w)}(?![a-z])", " ", rest)
            t = Text.of(ME.sub(" ", rest))
            named = [r for r in RISK_KINDS if any(phrases_named(t, c) for c in topic(r))]
            # two risks named: whose is it? (unless one is where the other lives)
            risk = _settled(named) if named else next(
                (r for pat, r in OWNED_AS if pat.search(rest)), None)  # fmt: skip
            if risk is not None and not negated(rest, 0):
                self._own(risk, team, part.strip(), part, unsure=False)

    def _subject_start(self, low: str, at: int) -> int:
        """Where the clause of the owning verb at ``at`` starts: at its team, when named.

        A transcript runs its clauses together ("… at data prep not at the end infra owns
        hardware"): a team right before an owning verb is its subject and opens a clause
        of its own, so a negator before it does not reach it; unless the word before the
        team takes a clause ("I don't think the data lead owns it" stays negated).
        """
        start = clause_start(low, at)
        verb = BEFORE_VERB.search(low, start, at)
        near = verb.start() if verb else at
        spots = [w.start() for w in re.finditer(r"\b[a-z]", low[start:near])][-3:]
        team = next((start + p for p in reversed(spots)
                     if self._names_team(low[start + p : near])), None)  # fmt: skip
        if team is None:
            return start
        det = DETERMINER.search(low, start, team)
        team = det.start() if det else team
        words = low[start:team].split()
        if words and words[-1] not in TAKES_CLAUSE:
            return team
        return start

    def _names_team(self, words: str) -> bool:
        return _team_in(words, self.teams) is not None and not NOT_A_TEAM.search(words)

    def _owner_items(self, items: str) -> list[str]:
        """The items of a list of owners, each with one team.

        Items that hold commas are parted by semicolons ("data lead, dup rate per shard;
        infra, node failures"); a stretch that names no team goes with the item before it
        ("the data lead for cleaning, judged by the dedup rate"), or the first item's team
        after it ("tokenizer, the pretraining lead, fertility").
        """
        out: list[str] = []
        for group in re.split(r";\s*(?![^()]*\))", items):
            parts = re.split(r",\s*(?![^()]*\))", group)
            merged: list[str] = []
            for part in parts:
                if merged and (_team_in(part, self.teams) is None
                               or _team_in(merged[-1], self.teams) is None):  # fmt: skip
                    merged[-1] += ", " + part
                else:
                    merged.append(part)
            out += merged
        return out

    def _owner_of(self, subject: str, obj: str, s: str, said_from: int = 0) -> None:
        """The team of ``subject`` owns the risks of ``obj``, read for signals in ``s``.

        ``said_from``: where the owner's own clause starts in ``s`` (a transcript's clause
        opened at its team), so that a negator before it does not mask its signal.
        """
        who = re.search(r"((?:\S+\s+){0,4}\S+)\s+(?:who|that)\s*$", subject)
        if who is not None:
            # "I would want a data person who owns …": the subject of "owns" is the noun
            # before "who", never a team named earlier in the sentence.
            subject = who.group(1)
        team = _team_in(subject, self.teams)
        if team is None:
            return
        if re.search(r"\b(?:no\s?one|nobody|everyone|everybody|someone|maybe)\b", subject):
            return
        w = WATCH_AT.search(obj)
        head = obj[: w.start()] if w else obj
        said = _low(s)[said_from:]
        rest = said.replace(head, _risk_words_blanked(head), 1) if head.strip() else said
        for risk in _risks_in(head):
            self._own(risk, team, s, rest, unsure=False)

    def _rights(self, s: str) -> None:
        """Decision rights: who decides (a subject, "by X", "X's call", "mine") and on what.

        Every deciding verb of a sentence gives its own subject the decisions of its own
        object ("the training lead makes the call on a rollback leadership decides on the
        budget and I decide the ship call" gives three holders); a question "Who decides
        X?" is answered by a next sentence that opens with its holder ("The training lead.").
        """
        # "ship/no-ship is my call": the ship call, not a negated ship
        low = re.sub(r"\b(?:ship|launch|release)\s*/\s*no\s+(?:ship|launch|release)\b", "ship call",
                     _low(s))  # fmt: skip
        asked, self.asked = self.asked, None
        # "together" makes any decision of its sentence shared; "nobody", "everyone", a
        # group hold nothing, and say nothing of another clause's holder ("…, and nobody
        # pages me" leaves the lead's rollback hers)
        if re.search(r"\btogether\b", low):
            return
        question = re.match(rf"^\W*who\s+(?:{DECIDE_VERB.pattern})(.*)\?\W*$", low)
        if question is not None:
            self.asked = question.group(question.lastindex or 0)
            return
        found = (self._on_own_authority(low) + self._decider(low) + self._listed_right(low)
                 + self._my_job(low) + self._owned_calls(low))  # fmt: skip
        if not found:
            found = self._elided_right(low)
        if not found and asked is not None:
            holder = re.split(r"[,;(]|\s(?:on|with|after|within|based|by|fast)\b", low)[0]
            if len(holder.split()) <= 4 and _team_in(holder, self.teams) is not None:
                found = [(holder, asked)]
        for subject, what in found:
            if not MANY.search(subject + " " + what):
                self._right(subject, what, low, s)

    def _right(self, subject: str, what: str, low: str, s: str) -> None:
        team = _team_in(subject, self.teams)
        if team is None or COMMITTEE.search(subject):
            return
        kinds = [k for k, words in DECISION_WORDS.items() if _first_at(what, words) >= 0]
        borrowed = False
        if not kinds:
            # "On a spike the team swarms, but the training lead makes the call": the call's
            # kind is named in an earlier clause. Borrowed when it names one kind only, unsure.
            before = low[: max(0, low.find(subject))] if subject else ""
            kinds = [k for k, words in DECISION_WORDS.items() if _first_at(before, words) >= 0]
            kinds, borrowed = (kinds, True) if len(kinds) == 1 else ([], False)
        # "… the tuning lead is deciding alone, the data fix the data lead": another holder
        # named inside the object may hold what follows it; asked, not guessed. What the call
        # rests on ("… based on the product evals") names no holder.
        basis = re.sub(r"\b(?:based\s+on|on|with|against|using|from)\b[^,;]*", " ", what)
        other = _team_in(basis, self.teams, nearest=False)
        shared = other is not None and other != team
        for kind in kinds:
            if kind in self.rights:
                continue
            key = f"right:{kind}={team}"
            if self.sure(key, not borrowed and not shared):
                self.rights[kind] = team
            self.note(f"decision right: {kind}", team, s, key, borrowed or shared)

    def _decider(self, low: str) -> list[tuple[str, str]]:
        """(who, on what) for each decision right a sentence gives."""
        colon = re.match(r"^\W*([a-z\s]+?)\s*(?:call|decision)s?\s*:\s*(.+)$", low)
        if colon is not None:
            return [(colon.group(2), colon.group(1))]
        # "Rollback and data fixes: the pretraining lead, within hours": the decisions, then
        # their holder, named first after the colon (what follows it qualifies the call).
        listed = re.match(r"^\W*([a-z\s,]+?)\s*:\s*(.+)$", low)
        if listed is not None and any(_first_at(listed.group(1), ws) >= 0
                                      for ws in DECISION_WORDS.values()):  # fmt: skip
            holder = re.split(r",|\(|\s(?:on|with|after|within|based|by)\s", listed.group(2))[0]
            # The holder is all there is before its qualifiers ("the pretraining lead",
            # "leadership", "me (PM)"), never a team word inside a plan ("cut post-training
            # rounds" names no holder).
            if (
                len(holder.split()) <= 4
                and _team_in(holder, self.teams) is not None
                and re.match(r"^\s*(?:the\s+|our\s+|me\b|i\b|my\b)?\s*[a-z]", holder)
                and not re.match(
                    r"^\s*(?:cut|use|add|accept|move|pause|roll|skip|ship|hold|"
                    r"run|spend|keep|fewer|reduce|first|then)\b",
                    holder,
                )
            ):
                return [(holder, listed.group(1))]
        # "For the schedule, the decision is from leadership", "the ship call rests with me".
        held = re.search(
            r"\b(?:decisions?|calls?|say|authority|rights?|power)(?:\s+(?:to|on|about|over|for)\s+"
            r"[a-z]+(?:\s+[a-z]+)?)?\s+(?:is|are|comes?|rests?|lies|sits?|belongs?)\s+"
            r"(?:from|with|up\s+to|to)\s+(.+)$", low)  # fmt: skip
        if held is not None and not negated(low, held.start(), refusals=False):
            return [(held.group(1), low[: held.end(0) - len(held.group(1))])]
        # "Rolling back is up to the training lead", "it's up to the PM whether we ship"
        up_to = UP_TO.search(low)
        if up_to is not None and not negated(low, up_to.start(), refusals=False):
            what = low[: up_to.start()] + " " + (up_to.group(2) or "")
            if any(_first_at(what, ws) >= 0 for ws in DECISION_WORDS.values()):
                return [(up_to.group(1), what)]
        # "I'd leave rollbacks to the training lead", "delegate data fixes to the data lead"
        left = LEFT_TO.search(low)
        if left is not None and CALLED.search(left.group(1)) and not negated(low, left.start()):
            return [(re.split(r"[,;(]|\s(?:because|since|and|who)\b", left.group(2))[0],
                     left.group(1))]  # fmt: skip
        passive = re.search(r"\b(?:decided|signed\s+off|approved|made|called)\s+by\s+(.+)$", low)
        if passive is not None and not negated(low, passive.start(), refusals=False):
            return [(passive.group(1), low[: passive.start()])]
        mine = MINE.search(low)
        if mine is not None and not negated(low, mine.start(), refusals=False):
            who = mine.group(2) or "i"
            if mine.group(1) in ("theirs", "hers", "his"):
                # "that call is theirs": the team named before, never the candidate
                who = next((ME.sub(" ", b) for b in (low[: mine.start()], _low(self.joined))
                            if _team_in(ME.sub(" ", b), self.teams) is not None), "")  # fmt: skip
            # the decision is named before the holder, or in the clause before the ";"
            what = low[: mine.start()] + " " + low[mine.start() : mine.end()]
            if not any(_first_at(what, ws) >= 0 for ws in DECISION_WORDS.values()):
                what += " " + _low(self.joined)
            # "…, but the training lead is deciding about rollback": a turn after it
            # may name another holder, read by its own verb
            turn = BOUNDARY.search(low, mine.end())
            rest = low[turn.end() :] if turn is not None else ""
            return [(who, what)] + [
                (rest[: v.start()], rest[v.start() :])
                for v in DECIDE_VERB.finditer(rest)
                if _team_in(rest[: v.start()], self.teams) and not negated(rest, v.start())
            ][:1]
        gone = GOES_TO.search(low)
        if gone is not None and not negated(low, gone.start(), refusals=False):
            holder = re.split(r"[,;(]|\s(?:because|since|for|and|who|on|after)\b", gone.group(1))[0]
            if CALLED.search(low[: gone.start()]):
                return [(holder, low[: gone.start()])]
        cleft = re.match(rf"^\W*who\s+(?:{DECIDE_VERB.pattern})(.*?)\s+is\s+(.+)$", low)
        if cleft is not None:
            last = cleft.lastindex or 0
            return [(re.split(r"[,;(]", cleft.group(last))[0], cleft.group(max(last - 1, 0)))]
        verbs = list(DECIDE_VERB.finditer(low))
        out = []
        for i, m in enumerate(verbs):
            if negated(low, m.start(), refusals=False):
                continue
            start = clause_start(low, m.start())
            subject = self._subject_of(low, start, m.start())
            end = len(low)
            if i + 1 < len(verbs):
                # This verb's object ends where the next verb's subject begins.
                nxt = verbs[i + 1].start()
                between = low[m.end() : nxt]
                end = max(clause_start(low, nxt), m.end() + self._subject_at(between))
            end = min(end, clause_end(low, m.end()))
            head = re.match(r"^\W*([a-z\s]+?):", low)
            what = low[m.start() : end] + (
                " " + head.group(1) if head and head.end() <= start else ""
            )
            out.append((subject, what))
        return out

    def _listed_right(self, low: str) -> list[tuple[str, str]]:
        """A list of rights, one a clause: "rollback = the training lead;", "ship, me.".

        A decision named alone, then its holder after "=", ":" or "," (the list's items are
        parted by semicolons, so each is a sentence of its own); the comma form only inside
        a list (after a clause ending in ";" or a head naming calls or decisions).
        """
        body = RIGHTS_HEAD.sub("", low)
        in_list = body != low or bool(self.joined)
        item = re.match(rf"^\W*((?:the\s+)?{DECISION_NOUN}(?:\s+(?:calls?|decisions?))?)\s*"
                        r"(=|:|,|->|→)\s*(.+)$", body)  # fmt: skip
        if item is None or (item.group(2) == "," and not in_list):
            return []
        holder = re.split(r"[,;(]|\s(?:on|with|after|within|based|by)\b", item.group(3))[0]
        if len(holder.split()) > 4 or not re.match(r"^\s*(?:the\s+|our\s+|me\b|i\b|my\s+)?[a-z]",
                                                   holder):  # fmt: skip
            return []
        return [(holder, item.group(1))]

    def _my_job(self, low: str) -> list[tuple[str, str]]:
        """The candidate's own remit named as a list holds the calls named in it.

        "My job as PM is the objective, the trade-offs and the ship call": the ship call.
        """
        job = re.search(r"\bmy\s+(?:own\s+)?(?:job|role|remit|part)\b([^;.]*)", low)
        if job is None or negated(low, job.end(), refusals=False):
            return []
        calls = [c.group(0) for c in OWNED_CALL.finditer(job.group(1))]
        return [("i", c) for c in calls]

    def _owned_calls(self, low: str) -> list[tuple[str, str]]:
        """A list of owners whose item names a call gives its team the call.

        "Owners: …, training lead (loss alerts, rollback call)": the risk and the call.
        """
        listed = OWNER_LIST.match(low)
        if listed is None or NO_OWNER.search(low[: listed.start(1)]):
            return []
        out = []
        for part in self._owner_items(listed.group(1)):
            teams = {t for t in self.teams if _team_in(part, (t,)) is not None}
            call = OWNED_CALL.search(part)
            if len(teams) == 1 and call is not None and not negated(part, call.start()):
                out.append((part, call.group(0)))
        return out

    def _elided_right(self, low: str) -> list[tuple[str, str]]:
        """A holder whose verb stands for the deciding verb of the clause before the ";".

        "Nobody outside the team calls a rollback; the lead does.": that clause's own holder
        is set aside, the new one holds its decision.
        """
        elided = ELIDED.match(low)
        before = _low(self.joined)
        verb = DECIDE_VERB.search(before)
        if elided is None or verb is None or not before:
            return []
        return [(elided.group(1), before[verb.start() :])]

    def _on_own_authority(self, low: str) -> list[tuple[str, str]]:
        """Who acts on a decision with no one else's say holds it.

        "The training lead rolls back on their own", "can pause a run alone", "rewinds
        without waiting for me", "has the authority to roll back", "is empowered to roll
        back": the action of a decision done alone, or by a right given, is its holder's
        call. An action merely done ("the lead rolls back to the checkpoint") says nothing
        of who decided it.
        """
        out = []
        for m in ACTION.finditer(low):
            if negated(low, m.start(), refusals=False):
                continue
            start = clause_start(low, m.start())
            given = AUTHORITY.search(low[start : m.start()])
            # to the end of its stretch: "pause a run alone, the data lead can …"
            alone = ALONE.search(re.split(r"[,;.:()]", low[m.end() :])[0])
            if given is None and alone is None:
                continue
            at = start + given.start() if given else m.start()
            kind = "data fix" if re.search(r"pull|fix|patch", m.group(0)) else "rollback"
            out.append((self._subject_of(low, start, at), kind))
        return out

    def _subject_of(self, low: str, start: int, at: int) -> str:
        """The subject of the verb at ``at``, whose clause starts at ``start``.

        A clause with no subject of its own continues the sentence's first one ("The
        training lead owns spikes, watches the loss, and decides rollbacks"; "The training
        lead, not me, decides"; "- Tuning lead: drift; calls the rollback" after the head
        before its colon); a pronoun ("she decides", "they decide") or a relative ("the one
        who decides") stands for the nearest team named before it.
        """
        subject = low[start:at]
        if _team_in(subject, self.teams) is not None or not SUBJECTLESS.fullmatch(subject):
            return subject
        before = low[:start] if start else _low(self.joined)
        pronoun = PRONOUN.search(subject) is not None
        if pronoun:
            return ME.sub(" ", before)  # "she", "they": never the candidate
        # the sentence's first team; not "I", which frames what others do ("I'd have the
        # lead …, and decide …" leaves the deciding to the lead)
        opening = _first_team_stretch(before, self.teams)
        return "" if ME.search(opening) else opening

    def _subject_at(self, between: str) -> int:
        """Where the last team named in ``between`` starts (its length if none is named)."""
        spots = [
            at
            for team in self.teams
            for at in _spots(_low(between), (re.escape(w) for w in
                                             TEAM_WORDS.get(team, ()) or (team.replace("_", " "),)))
        ] + [m.start() for m in ME.finditer(_low(between))]  # fmt: skip
        return max(spots) if spots else len(between)

    def _gate(self, s: str, t: Text) -> None:
        said = s
        # "a weekly burn review" tracks spend: no gate.
        s = SPEND_REVIEW.sub(lambda m: " " * len(m.group(0)), s)
        t = Text.of(s)
        low = _low(s)
        before, self.gate_before = self.gate_before, low
        # Under a head of gates ("6. Gates." then "After ablations: …"), or after a clause
        # naming gates that a semicolon joined to this one, an item is a gate sentence.
        listed = bool(self.gate_head and GATE_ITEM.match(low)) or bool(
            self.joined
            and GATE_NEXT.match(low)
            and _has(Text.of(SPEND_REVIEW.sub(" ", self.joined)), GATE_WORDS)
        )
        self.gate_head = bool(GATES_HEAD.match(low) or listed and self.gate_head)
        cond = GATE_CONDITION.search(low)
        if cond is not None:
            # "we don't launch the big run until …": the condition's negators say what waits
            # for the gate, not that a gate is refused.
            blank = NOT.sub(lambda m: " " * len(m.group(0)), s[cond.start() : cond.end()])
            s = s[: cond.start()] + blank + s[cond.end() :]
            t = Text.of(s)
        if not (_has(t, GATE_WORDS) or cond or listed):
            return
        named = [w for w in GATE_WORDS if w != "before the main run"]
        if ("%" in s or "$" in s) and not (_has(t, named) or cond or listed):
            # "We spend 10% of the compute on ablations before the main run" allocates a
            # share to a phase: when it happens, not a decision taken on what it finds.
            return
        if (
            not self._gate_cues(_low(s), s)
            and (cond or _has(t, GATE_NAMED))
            and len(self._gate_cues(before, before)) == 1
        ):
            # A gate that names no phase takes the one the sentence before named ("Ablations
            # on 1B models, 5% of compute. Gate B: the mix must beat the baseline.").
            self._gate_clause(f"{before} {s}", Text.of(f"{before} {s}"), said, shown=said)
            return
        cuts = [0, *(x for m in GATE_CLAUSE.finditer(s) for x in m.span()), len(s)]
        spans = list(zip(cuts[::2], cuts[1::2], strict=True))
        for i, (a, b) in enumerate(spans):
            # What a gate checks may follow in the next clause ("a readiness review after
            # data prep, and the exit criteria are a clean sampled audit …").
            after = s[slice(*spans[i + 1])] if i + 1 < len(spans) else ""
            after = "" if self._gate_cues(_low(after), s) else after
            self._gate_clause(s[a:b], Text.of(s[a:b]), said, after, said[a:b])

    def _gate_cues(self, low: str, sentence: str) -> list[tuple[int, str]]:
        """Where a clause first names each gate's phase, in order of position."""
        out = []
        prepare = _first_at(low, GATE_PHASES["prepare"])
        said = PREPARE_CUE.search(low)
        if said is not None and (prepare < 0 or said.start() < prepare):
            prepare = said.start()
        if prepare >= 0:
            out.append((prepare, "prepare"))
        # "before the ablations" names the data gate's phase, not the ablations'.
        rest = re.sub(r"before\s+(?:the\s+)?ablations", lambda m: " " * len(m[0]), low)
        spots = [_first_at(rest, GATE_PHASES["ablations"])]
        spots += [m.start() for m in (SMALL_RUNS.search(rest),) if m is not None]
        if MAIN_RUN_AT.search(_low(sentence)):
            spots += [m.start() for m in (PILOT.search(rest),) if m is not None]
        spots = [a for a in spots if a >= 0]
        if spots:
            out.append((min(spots), "ablations"))
        return sorted(out)

    def _gate_clause(
        self, c: str, t: Text, sentence: str, after: str = "", shown: str = ""
    ) -> None:
        low = _low(c)
        at = _first_at(c, [w.replace("/", " ").replace("-", " ") for w in GATE_WORDS])
        if at >= 0 and negated(low, at):
            return
        cues = self._gate_cues(low, sentence)
        for i, (cue, phase) in enumerate(cues):
            if phase in self.gates or negated(low, cue):
                continue
            # Two phases in one clause ("a data review with sampled audits, then 1B proxy
            # runs"): each reads its evidence from its own stretch.
            part = low if len(cues) == 1 else low[: cues[1][0]] if i == 0 else low[cue:]
            # The evidence is named apart from the phase ("milestone reviews after the
            # ablations" names a phase and no experiment run at it).
            apart = Text.of(re.sub(r"(?<![a-z])ablation\w*", " ", part)) \
                if phase == "ablations" else Text.of(part)  # fmt: skip
            catches = [k for k, m in METHODS.items() if find(apart, m).found]
            if (
                not catches
                and phase == "ablations"
                and (
                    SMALL_RUNS.search(part)
                    or PILOT.search(part)
                    and MAIN_RUN_AT.search(_low(sentence))
                )
            ):
                # small runs, proxies or a scaling fit are the experiment itself
                catches = [k for k, m in METHODS.items() if "proxy_runs" in m]
            if not catches and len(cues) == 1 and after:
                more = Text.of(f"{' '.join(apart.raw)} {after}")
                catches = [k for k, m in METHODS.items() if find(more, m).found]
            if catches:
                self.gates[phase] = GatePlan(
                    id=f"{phase}_gate",
                    after=phase,  # type: ignore[arg-type]
                    catches=catches,
                    experiment=(shown or c)[:TEXT_MAX],
                )  # type: ignore[arg-type]
                self.note(f"gate after {phase}", ", ".join(catches), sentence, f"gate:{phase}=yes")
                # an item that named a gate ("After data prep: …") heads the items after it
                self.gate_head = self.gate_head or GATE_ITEM.match(_low(sentence)) is not None

    def _numbers(self, s: str, t: Text) -> None:
        low = _low(s)
        for b in bind_numbers(low, PERCENT_NOUNS, "%"):
            field = {"reserve": "reserve_fraction", "ablation": "ablation_fraction"}.get(
                b.noun or ""
            )
            floor = AT_LEAST.sub(lambda m: " " * len(m[0]), low)
            if field is None or negated(floor, b.number.span[0], refusals=False):
                continue
            store = self.budget if field == "reserve_fraction" else self.levers
            if field in store:
                continue
            value = min(0.5, b.number.value)
            # "10 or 15%", "10 to 15%": a range or a choice, not a figure; asked.
            sure = b.sure and not CHANGED_TO.search(low[: b.number.span[0]]) \
                and not NUMBER_CHOICE.search(low[: b.number.span[0]])  # fmt: skip
            if self.sure(f"{b.noun}={_fraction(value)}", sure):
                store[field] = value
            name = "reserve" if field == "reserve_fraction" else "ablation budget"
            self.note(name, f"{value:.0%}", s, f"{b.noun}={_fraction(value)}", not sure)
        for field, refused in REFUSED_SHARE.items():
            store = self.budget if field == "reserve_fraction" else self.levers
            said = refused.search(low)
            if field in store or said is None:
                continue
            # a number in the refusal's own stretch says what the share is ("we do not keep
            # a reserve above 12%"); one beside it is another share's
            begin = max([0] + [m.end() for m in SHARE_STRETCH.finditer(low, 0, said.start())])
            end = next((m.start() for m in SHARE_STRETCH.finditer(low, said.end())), len(low))
            if re.search(r"%|\bper\s?cent", low[begin:end]):
                continue
            head = NO_BEFORE.sub(" ", low[clause_start(low, said.start()) : said.start()])
            if len(NOT.findall(NOT_EXCEPT.sub(" ", head))) % 2:
                continue  # "I would never plan without a reserve": two negations cancel
            store[field] = 0.0
            noun = "reserve" if field == "reserve_fraction" else "ablation"
            self.note(f"{noun} refused", "none", s, f"{noun}=0")
        for b in bind_numbers(low, DOLLAR_NOUNS, "$"):
            if b.noun not in DOLLAR_KEY or b.noun in self.budget:
                continue
            if negated(low, b.number.span[0], refusals=False):
                continue  # "we do not estimate compute at $380,000" says what it is not
            if self.sure(f"{DOLLAR_KEY[b.noun]}={b.number.value:.0f}", b.sure):
                self.budget[b.noun] = b.number.value
            self.note(f"{b.noun.removesuffix('_usd').replace('_', ' ')} estimate",
                      f"${b.number.value:,.0f}", s,
                      f"{DOLLAR_KEY[b.noun]}={b.number.value:.0f}", not b.sure)  # fmt: skip
        if (
            find(t, ("burn_forecast",)).found
            and find(t, ("cadence", "owner_role")).found
            and TRACK_VERB.search(low)
            and "tracking" not in self.budget
            and not negated(low, max(0, _concept_at(s, "burn_forecast")))
        ):
            self.budget["tracking"] = s[:TEXT_MAX]
            self.note("how spend is tracked", s, s, "tracking=yes")
        elif "tracking" not in self.budget and (
            find(t, ("cadence", "owner_role")).found or CADENCE.search(low)
        ):
            # the spend is what is looked at: the two in one clause, a few words apart
            looks = [v.span() for p in (LOOK_AT, TRACK_VERB) for v in p.finditer(low)]
            if any(
                abs(a - m.start()) <= 40
                and not BOUNDARY.search(low, min(b, m.end()), max(a, m.start()))
                and not negated(low, m.start())
                for m in SPENT.finditer(low)
                for a, b in looks
            ):
                self.budget["tracking"] = s[:TEXT_MAX]
                self.note("how spend is tracked", s, s, "tracking=yes")

    def _playbook(self, s: str) -> None:
        low = _low(s)
        # "she decides rollbacks", "the rollback call": a decision named, not a response.
        low = DECIDED.sub(lambda m: " " * len(m.group(0)), low)
        for kind, cue in PLAYBOOK_CUES.items():
            if kind in self.playbook:
                continue
            hits, spans = [], []
            for option, words in OPTION_WORDS[kind].items():
                for w in words:
                    for m in re.finditer(rf"(?<![a-z]){_option(w)}(?:s|es)?(?![a-z])", low):
                        spans.append(m.span())
                        # "adding people late only makes it later": judged, not chosen
                        if not negated(low, m.start(), refusals=False) and not JUDGED.match(
                            low, m.end()
                        ):
                            hits.append((m.start(), option))
            blank = list(low)
            for a, b in spans:
                blank[a:b] = " " * (b - a)
            here = cue.search("".join(blank))
            cue_at = here or (cue.search(_low(self.joined)) if self.joined else None)
            exclusive = sorted((a, o) for a, o in hits if _exclusive(kind, o))
            # the other kind's own options said in the sentence (a budget's, a slip's)
            others = [
                m.start()
                for k in ("budget", "schedule")
                if k != kind
                for o, ws in OPTION_WORDS[k].items()
                if _exclusive(k, o)
                for m in re.finditer(rf"(?<![a-z])(?:{'|'.join(map(_option, ws))})", low)
            ]
            if cue_at is None and not (
                kind in ("budget", "schedule")
                and len({o for _, o in exclusive}) >= 2
                and SEQUENCE.search(low, exclusive[0][0], exclusive[-1][0])
            ):
                continue  # no cue: the options must stand in a sequence of their own
            if cue_at is None:
                # With no cue, a word both kinds share goes with the kind whose own option is
                # nearest it ("we descope a tuning round and then move the date, and we draw
                # the reserve and then shrink the eval scope": the round is the slip's).
                hits = [
                    (a, o)
                    for a, o in hits
                    if _exclusive(kind, o)
                    or min(abs(a - x) for x, _ in exclusive)
                    <= min((abs(a - x) for x in others), default=len(low))
                ]
            # Refused when every mention is negated: "we won't cut tokens first …, and fewer
            # tokens only after that" refuses the order, not the option.
            said = {o for _, o in hits}
            refused = {
                o
                for o, ws in OPTION_WORDS[kind].items()
                if o not in said
                and any(negated(low, a, False) for a in _spots(low, map(_option, ws)))
            }
            hits = [(a, o) for a, o in hits if o not in refused]
            options, sure = ordered(low, hits)
            sure = sure and not _unknown_step(low, spans) and not _further_step(low, hits)
            if kind in ("budget", "schedule"):
                sure = sure and not _unknown_item(low, spans)
            # "we could ship something that lags": a possibility, not the response; asked.
            sure = sure and not any(
                MAYBE.search(low[max(0, a - 24) : a]) or HEDGE.search(low, max(0, a - 24), a)
                for a, _ in hits
            )
            if len(options) == 1 and kind in ("budget", "schedule") and cue_at is not None:
                # One response said alone ("if we slip, we move the date"; "…; we move the
                # date."): read where the cue is a condition it answers, said before it.
                said_in = "".join(blank) if here else _low(self.joined)
                single = (
                    IF_CUE.search(said_in, max(0, cue_at.start() - 40), cue_at.start())
                    and not negated(said_in, cue_at.start())
                    and (here is None or min(a for a, _ in hits) > cue_at.end())
                )
                if not single:
                    continue
                # beside a response refused ("we do not cut rounds and then accept the slip"):
                # the negation may reach it too; asked
                sure = sure and not any(negated(low, a, False) for a, _ in spans)
            if len(options) >= (1 if kind in ("rollback", "ship") else 2) or (
                len(options) == 1 and cue_at is not None
            ):
                if self.sure(f"playbook:{kind}={'>'.join(options)}", sure):
                    self.playbook[kind] = options
                self.note(f"playbook: {kind}", " → ".join(options), s,
                          f"playbook:{kind}={'>'.join(options)}", not sure)  # fmt: skip

    def _lever(self, name: str, label: str, s: str, at: int) -> None:
        if name in self.levers:
            return
        on = not negated(_low(s), at)
        key = f"{name}={'on' if on else 'off'}"
        # "I'd maybe have legal check the licences early, I think": hedged; asked.
        low = _low(s)
        hedged = HEDGE.search(low, max(0, low.rfind(".", 0, at) + 1, at - 80), at) is not None
        if self.sure(key, not hedged):
            self.levers[name] = on
        self.note(label, "on" if on else "off", s, key, hedged)

    def _levers(self, s: str, t: Text) -> None:
        low = _low(s)
        scan = SCAN.search(low)
        if scan is not None:
            self._lever("decontaminate", "decontaminate", s, scan.start())
        early = _early_at(s)
        if early >= 0 and find(t, ("product_evals",)).found:
            at = max(early, _concept_at(s, "product_evals"))
            self._lever("product_evals_early", "product evals early", s, min(at, early))
        elif early >= 0 and (built := EVAL_SET.search(low)) and EVAL_CUE.search(low):
            # "a set of 1,500 real claims we assemble before training": the product's own
            # evaluation, named by what it is made of.
            self._lever("product_evals_early", "product evals early", s, min(built.start(), early))
        elif (
            early >= 0
            and re.match(r"\W*(?:they|these|those|both)\b", low)
            and find(Text.of(self.joined), ("product_evals",)).found
        ):
            # "…build product evals; they exist before training starts": the clause before
            # the semicolon names what "they" are.
            self._lever("product_evals_early", "product evals early", s, early)
        if _has(t, SAFETY_WORDS):
            if early >= 0:
                self._lever("safety_from_start", "safety from the start", s, early)
            elif (
                (late := LATE.search(low)) is not None
                and not negated(low, late.start())
                and BROUGHT_IN.search(low) is not None
            ):
                # "we bring legal and safety in at the end": only at release. Only where the
                # sentence says who comes in when ("a safety finding at the end is blocking
                # the launch" describes a risk, not the plan: nothing read of the lever).
                self._late_safety(s, low)
        embed = _first_at(s, ("embed", "same team", "sit with"))
        if embed >= 0 and _has(t, ("engineer", "infra")):
            self._lever("engineering_embedded", "engineering embedded", s, embed)
        silo = SILO.search(_low(s))
        if (
            silo is not None
            and "engineering_embedded" not in self.levers
            and _has(t, ("engineer", "infra"))
            and not negated(_low(s), silo.start())
        ):
            self.levers["engineering_embedded"] = False
            self.note("engineering embedded", "off", s, "engineering_embedded=off")

    def _late_safety(self, s: str, low: str) -> None:
        if "safety_from_start" in self.levers:
            return
        sure = not HEDGE.search(low)  # "maybe bring legal in at launch": asked
        if self.sure("safety_from_start=off", sure):
            self.levers["safety_from_start"] = False
        self.note("safety from the start", "off", s, "safety_from_start=off", not sure)

    def _role(self, s: str, t: Text) -> None:
        # Negated where it says who owns what ("research does not own the data mix, …"),
        # and not in a later clause ("…, not the cluster" leaves the role read). A role
        # named before a colon and a list of its scope owns it without the verb ("PM: the
        # objective, the trade-offs and the ship call"), as the form's role boxes are read.
        own = _concept_at(s, "ownership")
        listed = re.match(r"^\W*([a-z\s]{1,30}):", _low(s)) is not None
        if (find(t, ("ownership",)).found or listed) and not (own >= 0 and negated(_low(s), own)):
            at = {r: _first_at(s, w) for r, w in ROLE_WORDS.items()}
            said = sorted((i, r) for r, i in at.items() if 0 <= i < ROLE_AT and r not in self.roles)
            if said and phrases_named(t, ROLE_SCOPE[said[0][1]]) >= 2:
                self._role_read(said[0][1], s)
        # A sentence of roles, one a clause ("I own the objective and the release; research
        # owns the recipe and the data mix, and engineering runs the cluster and the
        # pipeline"): each clause opened by its role and a verb of doing its work.
        for part in ROLE_PART.split(s):
            low = _low(part).strip()
            verb = ROLE_VERB.search(low)
            if verb is None or negated(low, verb.start()):
                continue
            role = next((r for r, pat in ROLE_SUBJECT.items() if pat.match(low[: verb.start()])),
                        None)  # fmt: skip
            # two things of the role's scope, each an item of its own ("the objective and the
            # release"), not a condition on one ("decides ship, on product evals")
            items = [i for i in re.split(r",|\band\b|&|\bplus\b", low[verb.end() :])
                     if not re.match(r"\s*(?:on|by|with|for|from|based|using|via|at)\b", i)
                     and (phrases_named(Text.of(i), ROLE_SCOPE[role or "research"])
                          or ROLE_MORE[role or "research"].search(i))]  # fmt: skip
            if role is not None and role not in self.roles and len(items) >= 2:
                self._role_read(role, s)

    def _role_read(self, role: str, s: str) -> None:
        self.roles[role] = s[:TEXT_MAX]
        self.note(f"role: {role.replace('_', ' ')}", s, s, f"role:{role}=yes")

    def _strategy(self, s: str, t: Text) -> None:
        if not find(t, ("base_model",)).found:
            return
        if "strategy" in self.update:
            # The strategy named in passing first ("FLOPs for adapting the base model"), its
            # reason given later: the later sentence, naming a criterion, is the reason.
            if not find(Text.of(str(self.update["strategy_reason"])), ("adapt_criterion",)).found \
                    and find(t, ("adapt_criterion",)).found and self._strategy_of(s) == \
                    self.update["strategy"]:  # fmt: skip
                self.update["strategy_reason"] = s[:TEXT_MAX]
            return
        said = self._strategy_of(s)
        if said is None:
            return
        # Both strategies named, neither concluded nor set aside ("we adapt …, and training
        # from scratch would cost us months"): one is weighed against the other; asked.
        # "Adapt" with no model in the sentence ("we adapt, since it's cheaper") is asked too.
        key, weighed = f"strategy={said}", _both_strategies(_after_head(_low(s)))
        # "Adapting an open model would be faster, but …": said as what it would be, then
        # turned from; asked, never taken
        weighed = weighed or bool(WOULD_BUT.search(_low(s)))
        if said == "adapt" and not MODEL_NOUN.search(_low(s)):
            if not re.search(r"\badapt", _low(s)):
                return  # "the full fine-tune", "only then fine-tune": a phase, no strategy
            weighed = True
        if self.sure(key, not weighed):
            self.update["strategy"] = said
            self.update["strategy_reason"] = s[:TEXT_MAX]
        self.note("strategy", said, s, key, weighed)

    def _strategy_of(self, s: str) -> str | None:
        """The strategy a sentence chooses (``pretrain`` or ``adapt``), if it chooses one."""
        low = _low(s)
        # "Build or adapt: I'd take a licensed open base model …": the question is the head,
        # the choice follows it (every head, however many).
        while (rest := _after_head(low)) != low:
            low = rest
        if re.search(r"\b(?:restart\w*|start\s+over|retrain\w*)\b[^.;]{0,30}from\s+scratch", low):
            return None
        if WEIGHED.search(low) or low.rstrip().endswith("?"):
            return None  # "Build or adapt.", "do we pretrain or not": the choice asked, not made
        scratch = SCRATCH.search(low)
        if scratch and CONDITIONAL.match(low, scratch.end()):
            scratch = None  # "we'd pretrain only if we had the data": no choice made
        if scratch and DISMISSED.match(low, scratch.end()):
            scratch = None  # "pretraining from scratch would be vanity here": set aside
            if OPEN_MODEL.search(low):
                return "adapt"  # "… is a waste when good open weights exist": the other one
        adapt = next((m for m in ADAPT.finditer(low) if not negated(low, m.start(), False)), None)
        if adapt and DISMISSED.match(low, adapt.end()):
            adapt = None
        if adapt and (
            PURPOSE.match(low[: adapt.start()])
            or (
                adapt.group(0).startswith("fine")
                and PHASED.search(low)
                and not OPEN_MODEL.search(low)
            )
        ):
            # "To fine-tune a model efficiently, I'd use LoRA": a method, no choice; "after
            # pretraining we fine-tune it on chats": the fine-tune is a phase of pretraining
            adapt = None
        chosen = CHOSEN.search(low)
        if chosen is not None and not negated(low, chosen.start(1), refusals=False):
            # "Adapting the open base model caps a target, so pretrain": what the sentence
            # concludes is the choice; the other is the alternative it weighs.
            return "pretrain" if chosen.group(1).startswith(("pre", "build")) else "adapt"
        if scratch and not negated(low, scratch.start(), refusals=False):
            return "pretrain"
        return "adapt" if adapt else None

    def _tradeoff(self, s: str) -> None:
        # "rather slip than cut the evals, and rather spend the reserve than slip more":
        # each clause its own trade-off
        for part in TRADEOFF_PART.split(_low(s)):
            if len(self.tradeoffs) >= 3:
                return
            found = _direction(part)
            if found is None or any((t.protect, t.give_up) == found for t in self.tradeoffs):
                continue
            protect, give = found
            self.tradeoffs.append(TradeOff(protect=protect, give_up=give, text=s[:TEXT_MAX]))  # type: ignore[arg-type]
            value = f"protect {protect}, give up {give}"
            self.note("trade-off", value, s, f"tradeoff={protect}>{give}")

    def result(self) -> InterviewPlan:
        p = self.plan
        levers = LeverPlan(**{**self.levers, "playbook": self.playbook})  # type: ignore[arg-type]
        budget = BudgetPlan(**self.budget)  # type: ignore[arg-type]
        objective = ObjectivePlan(product_use=str(self.update.get("product_use", ""))[:200],
                                  targets=list(p.objective.targets))  # fmt: skip
        rest = {k: v for k, v in self.update.items() if k != "product_use"}
        return InterviewPlan(
            candidate=p.candidate, base=p.base, clarifications=dict(p.clarifications),
            challenges=list(self.challenges.values()), risks=self.risks,  # type: ignore[arg-type]
            decision_rights=self.rights, gates=list(self.gates.values()),  # type: ignore[arg-type]
            budget=budget, levers=levers, roles=RolesPlan(**self.roles),
            tradeoffs=self.tradeoffs, objective=objective, **rest,  # type: ignore[arg-type]
        ).model_copy(update={"prose": self.plan.prose})  # fmt: skip


#: Consequence words that state no cost by themselves ("… would hurt").
VAGUE_CAUSE = frozenset(("hurt", "hurts"))


def _vague(low: str) -> bool:
    """Whether every consequence a sentence states is a vague one ("would hurt")."""
    return all(m.group(0) in VAGUE_CAUSE for m in CAUSE.finditer(low))


def _costs_beyond(s: str, risk: str) -> bool:
    """Whether ``s`` names a cost (time, money, quality) beyond the words naming ``risk``.

    "A budget cut of 40% would hurt" names the budget and no cost of it: "budget" and
    "cut" name the risk, so the money they also mean is no consequence, and "hurt" says
    none either (:func:`_vague`).
    """
    low = _low(s)
    for w in CONCEPTS[f"topic_{risk}"].phrases:
        low = re.sub(rf"(?<![a-z]){re.escape(w.lstrip('='))}[a-z]*", " ", low)
    return bool(_costs(Text.of(low)))


#: The mechanisms of late discovery in words the rubric's concepts leave to others (reader
#: only): compute paid for and lost, work done again, the rounds that sat on the checkpoint.
UNRECOVERED = re.compile(
    r"\b(?:cannot|can't|can\s+not|won't|will\s+not|never)\s+(?:be\s+)?(?:recovered|undone|"
    r"refunded|(?:got|gotten|get)\s+back)\b"
)
LATE_MORE: dict[str, tuple[str, ...]] = {
    "sunk_compute": ("already paid", "=is =lost", "=are =lost", "=is =sunk",
                     "double cost", "paid twice", "pay twice"),
    "redo": ("=done =again", "=do =again", "=doing =again", "rebuilt", "rebuild"),
    "downstream": ("tuning rounds", "tuning round", "=sft", "preference tuning",
                   "instruction tuning", "distillation", "on that checkpoint",
                   "on a bad base", "on a bad checkpoint", "eval work"),
}  # fmt: skip
#: What a risk costs said as what it does to the run, the bill or the model, beside the
#: rubric's own words for time, money and quality (the rubric's concepts stay as they are:
#: these words read a challenge's consequence, not an answer's).
RISK_COSTS: dict[str, tuple[str, ...]] = {
    "time": ("=hours", "=overnight", "=quarter", "=years", "retrain", "=weekend",
             "train again", "=restarts", "=halt", "=halts", "stop the launch",
             "stops the launch", "stop the release", "stopped the release"),
    "money": ("=billed", "=burns", "=burning", "wasted", "run out of money", "compute bill",
              "=run out", "=runs out", "=burned", "=burnt", "=billing", "blow the budget",
              "blow through", "paying for nothing", "no money left", "=dry"),
    "quality": ("underperform", "=fails", "=fail", "junk", "=wrong", "overstate", "=stalls",
                "undertrained", "=bland", "look better", "=capped", "=caps", "=cap",
                "learns less", "learn less", "=learning =bad", "=lie", "=lies", "=lying",
                "=inflated", "disappoint", "shortfall", "ceiling", "stop trusting",
                "=abandon", "=abandons", "not happy", "=misleading", "looks fine"),
}  # fmt: skip


def _costs(t: Text) -> tuple[str, ...]:
    """The dimensions (time, money, quality) a sentence says a risk costs."""
    found = set(find(t, ("time", "money", "quality")).found)
    found |= {d for d, words in RISK_COSTS.items() if any(t.has(w) for w in words)}
    return tuple(d for d in ("time", "money", "quality") if d in found)


def _named_apart_from_cost(s: str, risk: str) -> bool:
    """Whether ``s`` names ``risk`` by more than the word "cost".

    "Risks and what they cost", "so it is double cost": a cost says what a risk does, and
    names the budget as a risk only beside a word of its own (budget, estimate, overrun);
    "cut" alone is a response ("cut tuning rounds"), not the risk.
    """
    low = re.sub(r"\b(?:cost|cut)\w*", " ", _low(s))
    if risk == "budget":
        low = CAUSE.sub(" ", low)  # "how much money they burn": what a risk costs, no risk
    return _risk_of(Text.of(low)) == risk or any(
        phrases_named(Text.of(low), c) for c in topic(risk)
    )


def _dim(part: str, last: bool = False) -> str | None:
    """The dimension a side of a trade-off names (the first named, or the last), if one."""
    spots = [(at[-1] if last else at[0], d) for d, ws in DIM_WORDS.items()
             if (at := _spots(part, ws))]  # fmt: skip
    if not spots:
        return None
    return (max(spots) if last else min(spots))[1]


#: Where a sentence of trade-offs parts into one a clause.
TRADEOFF_PART = re.compile(r";|,\s*and\s+(?=[^,;]*\brather\b)")
#: A side that puts the model in users' hands ("ship a model that leaks a name", "hand the
#: agents a worse assistant", "cut the evals"): what it risks is quality.
SHIPPED = re.compile(
    r"\b(?:ship\w*|launch\w*|releas\w*|hand\w*|put\w*\s+(?:a|an|the)\b|cut\w*\s+(?:the\s+)?"
    r"evals?|skip\w*\s+(?:the\s+)?evals?|model\s+(?:\w+\s+){0,3}?(?:likes?|trusts?|uses?)\s+less)\b"
)
#: A side said as being late ("launch two weeks late", "a late launch").
LATE_SIDE = re.compile(r"\blate\b|\bslip\w*|\bdelay\w*|\bmove\s+the\s+(?:date|launch|deadline)\b")


def _side_dim(part: str) -> str | None:
    """The dimension a side of a trade-off names, or quality for a side that ships."""
    return _dim(part) or ("quality" if SHIPPED.search(part) else None)


def _sides(a: str, b: str, a_is_chosen: bool) -> tuple[str, str] | None:
    """(protect, give up) from a chosen side and an avoided side, by how each is phrased."""
    da, db = _side_dim(a), _side_dim(b)
    if da is None or db is None or da == db:
        return None
    chosen, avoided = (a, b) if a_is_chosen else (b, a)
    dc, dv = (da, db) if a_is_chosen else (db, da)
    if NOT.search(NOT_EXCEPT.sub(" ", chosen)):
        return None  # "we do not protect X rather than Y": no direction can be trusted
    if PROTECT.search(chosen) and not LOSS.search(chosen):
        return dc, dv
    if LOSS.search(chosen):
        return dv, dc
    return None


def _direction(low: str) -> tuple[str, str] | None:
    """(protect, give up) of a trade-off sentence, or None if it states none clearly."""
    m = RATHER_X_THAN.search(low)
    if m is not None:
        # The avoided side ends with its clause ("rather slip than cut the evals, and …").
        return _sides(m.group(1), re.split(r"[,;:]|\band\b", m.group(2))[0], a_is_chosen=True)
    m = RATHER_THAN.search(low)
    if m is not None:
        before = low[: m.start()]
        after = low[m.end() :]
        if not before.strip(" ,"):
            avoided, _, chosen = after.partition(",")
            return _sides(chosen, avoided, a_is_chosen=True)
        return _sides(before, re.split(r"[,;:]", after)[0], a_is_chosen=True)
    ranked = _ranked(low)
    if ranked is not None:
        return ranked
    m = COST_OF.search(low)
    if m is not None:
        da, db = _dim(low[: m.start()]), _dim(re.split(r"[,;:]", low[m.end() :])[0])
        return (da, db) if da and db and da != db else None
    for m in OVER.finditer(low):
        before, after = low[: m.start()], low[m.end() :]
        if SPAN.match(after):
            continue  # "$3.5M over nine months", "1.5 days over the run": a span, no choice
        before = before.rstrip(" ,")  # "take a late launch, …, over a weaker model"
        head = before[clause_start(before, len(before)) :]
        da = _dim(head, last=True)
        db = _side_dim(re.split(r"[,;:]", after)[0][:30])
        if da and db and da != db and not re.search(r"\b(?:go|goes|went|run|running)\s*$", head):
            # "I'd take a late launch over a weaker model": the side taken as a loss gives
            return (db, da) if LATE_SIDE.search(before) and da == "schedule" else (da, db)
    parts = re.split(r"[,;:]|\band\b", low)
    kept = [p for p in parts if PROTECT.search(p) and _dim(p)]
    given = [p for p in parts if GIVE.search(p) and _dim(p)]
    if kept and given and kept[0] != given[0]:
        da, db = _dim(kept[0]), _dim(given[0])
        return (da, db) if da and db and da != db else None
    return None


def _ranked(low: str) -> tuple[str, str] | None:
    """(protect, give up) of a side ranked above the other, or given for it."""
    m = RANKED.search(low)
    if m is not None:
        before = low[clause_start(low, m.start()) : m.start()]
        da = _dim(before, last=True)
        db = _side_dim(re.split(r"[,;:]", low[m.end() :])[0])
        if da and db and da != db and not NOT.search(NOT_EXCEPT.sub(" ", before)):
            return da, db
    m = GIVEN_FOR.search(low)
    if m is not None:
        given = _dim(m.group(1))
        kept = _dim(re.split(r"[,;:]", m.group(2))[0])
        if given and kept and given != kept:
            head = NOT_EXCEPT.sub(" ", low[clause_start(low, m.start()) : m.start()])
            # "we don't trade quality for the date": the side not given is the one kept
            return (given, kept) if len(NOT.findall(head)) % 2 else (kept, given)
    m = SLIP_BEFORE.search(low)
    if m is not None and not NOT.search(NOT_EXCEPT.sub(" ", low[: m.start()])):
        kept = _side_dim(re.split(r"[,;:]", m.group(3))[0])
        if kept is not None and kept != "schedule":
            return kept, "schedule"
    return None


@dataclass(frozen=True)
class ProseReading:
    """A prose answer read: the plan, every reading with its sentence, and any messages."""

    plan: InterviewPlan
    readings: tuple[Reading, ...]
    messages: tuple[str, ...] = ()

    @property
    def unsure(self) -> tuple[Reading, ...]:
        """The readings the candidate must confirm or correct before the plan is judged."""
        return tuple(r for r in self.readings if r.unsure)


def read_answer(
    text: str, plan: InterviewPlan | None = None, confirmed: Iterable[str] = ()
) -> ProseReading:
    """A prose answer read on ``plan``'s world. Never raises on any text.

    ``confirmed``: keys of unsure readings the candidate confirmed; those enter the plan
    (and are no longer unsure). Every other unsure reading stays out of it: the reader
    asks, never guesses. An answer over :data:`PROSE_MAX` characters is read up to there,
    and a message says so.
    """
    messages = []
    if len(text) > PROSE_MAX:
        messages.append(
            f"The answer is {len(text):,} characters long; only the first {PROSE_MAX:,} were "
            "read and kept. Shorten it, or put the rest in the parts of the form."
        )
        text = text[:PROSE_MAX]
    base = (plan or InterviewPlan()).model_copy(update={"prose": text})
    reader = _Reader(base, text, frozenset(confirmed))
    if text.strip() and not reader.readings:
        messages.append("Nothing in it could be read as part of a plan.")
    return ProseReading(reader.result(), tuple(reader.readings), tuple(messages))


def read_prose(text: str, plan: InterviewPlan | None = None) -> tuple[InterviewPlan, list[Reading]]:
    """The plan read from a prose answer (on ``plan``'s world), and what was read where."""
    read = read_answer(text, plan)
    return read.plan, list(read.readings)
