"""Clause-level reading for the prose reader: negation scope, number binding, order, pivots.

The prose reader (:mod:`sim.interview.prose`) finds *cues* (a concept's words) in a
sentence; this module says what the sentence does with them:

- :func:`negated`: whether a cue stands in the scope of a negation ("not", "never", "no",
  "without", "won't", "rather than", and, for levers and gates, the refusal verbs "skip",
  "avoid", "forgo", "drop"). The scope of a negator runs to the end of its clause; two
  negators cancel ("we never skip the overlap scan").
- :func:`bind_numbers`: each number bound to the noun nearest it *within its segment*
  (a stretch between commas, semicolons and "and"), never to a noun in another segment,
  so "Ablations 8%, reserve 12%" binds 8% to ablations and "at 40% MFU" binds 40% to MFU.
- :func:`bind_numbers` also reads a *respectively* list: two or more nouns joined by
  "and" or commas, then as many numbers joined the same way ("reserve and ablations at
  10% and 5%", "10% and 5% for the reserve and the ablations respectively"): the numbers
  bind to the nouns in the order said.
- :func:`ordered`: options in the order the sequence words put them ("first …, then …",
  "only then …", "… after …" reverses the two sides).
- :func:`split_long`: a transcript without punctuation cut at its discourse markers into
  pieces short enough to read one claim at a time; :func:`sentences` the answer's
  sentences.
- :func:`term_list`: a list of terms with no sentence in it (keyword stuffing), which
  states nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sim.interview.vocabulary import Number, numbers

#: Grammatical negators. "no more than", "not only" and "go/no-go" are limits or names.
NOT = re.compile(
    r"\b(?:not|never|nor|neither|none|without|cannot)\b|n't\b|\bno\b(?![-\s/]go\b)|"
    # the same spelled without the apostrophe, as transcripts do
    r"\b(?:dont|doesnt|didnt|wont|wouldnt|shouldnt|isnt|arent|wasnt|werent|havent)\b",
    re.I,
)
NOT_EXCEPT = re.compile(
    r"\b(?:no|not)\s+(?:more|later|less|fewer|earlier|matter)\s+(?:than\b)?|\bnot\s+only\b"
    r"|\bno\s+(?:later|sooner)\b|\bno\s+doubt\b|\bwhether\s+or\s+not\b|\bif\s+not\b"
    r"|\bno\s+wait\b|\bif\s+that\s+is\s+not\b|\bnot\s+enough\b"
    # "baseline it against 600 graded notes": a measure compared, not a refusal
    r"|\b(?:baselin|measur|judg|scor|test|evaluat|grad|benchmark|compar|check|rat)\w*\s+"
    r"(?:\w+\s+){0,2}?against\b",
    re.I,
)
#: Refusal verbs: negate a lever or a gate ("skip the ablations"), not a playbook option.
REFUSE = re.compile(
    r"\b(?:skip(?:s|ping|ped)?|avoid(?:s|ing|ed)?|forgo(?:es|ing)?|forego|drop(?:s|ping|ped)?|"
    r"refus(?:e|es|ing|ed)|against|no\s+need|waste\s+of\s+time|pointless)\b",
    re.I,
)
#: What ends a negator's scope.
BOUNDARY = re.compile(
    r"[,;:.!?()\n]|\s[-–—]\s|\b(?:but|however|although|though|whereas|instead|then|because|"
    r"since|while|so\s+that|so\s+(?=we\b)|unless|otherwise|and\s+(?=(?:we|i|they|the|our)\b)|rather\s+than|"
    r"instead\s+of)\b",
    re.I,
)
#: A clause with a subject of its own starting inside a sentence with no punctuation ("we
#: would not roll back we just keep training"): a personal subject right after a word that
#: does not take a clause as its object ("think", "that", "if" do: "I do not think we
#: need …" keeps its negation over what follows).
NEW_SUBJECT = re.compile(r"(?<=[a-z] )(?:i|we|they)(?= (?!(?:and|or|but)\b)[a-z])", re.I)
#: "… and <a noun> <a finite verb>": a second clause with a subject of its own ("we do not
#: start the big run and ablations get 7%"); its clause starts at the noun.
AND_CLAUSE = re.compile(
    r"\band\s+(?=(?:the\s+|our\s+|a\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:is|are|was|were|will|get|gets|"
    r"goes|takes|has|have|owns?|decides?|runs|watches|keeps|needs|should|must|can)\b)",
    re.I,
)
#: Words after which a subject continues the clause (a complement, a condition, a question).
TAKES_CLAUSE = frozenset(
    "that think thinks thought believe believes say says said guess suppose expect hope "
    "if whether when once unless because since so where what how why who which as than "
    "and or but do does did can could will would should must may might not never".split()
)
#: "rather than X", "instead of X": X is what is not done.
PIVOT_NOT = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.I)
#: Where a number's segment ends.
SEGMENT = re.compile(r"[,;()\n]|\.(?!\d)|\s[-–—]\s|\band\b|\bwith\b|\bplus\b", re.I)
#: What may stand between a noun and its number when the two are bound tight
#: ("reserve: 15%", "compute at $1.8M", "12% reserve", "8% for ablations").
TIGHT = re.compile(
    r"^[\s:=~]*(?:(?:at|of|is|are|was|comes?\s+to|to|about|around|roughly|approximately|"
    r"some|maybe|for|on|in|into|the|a|an|our|share|budget|fraction|get|gets|goes\s+to|"
    r"go\s+to|takes?|share\s+of)[\s:=~]+)*$",
    re.I,
)
#: Discourse markers a spoken transcript turns on ("so", "okay", "and then the …").
MARKERS = re.compile(
    r"\b(?:so|okay|ok|um+|uh+|also|anyway|next|right|alright|now|secondly|thirdly|finally|"
    r"and\s+(?:the|our|we|i|for|on)|for\s+the|on\s+the)\b",
    re.I,
)
#: Where a sentence ends: after . ! ? or ; followed by space, or at a line break.
SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
#: Longest piece read as one sentence (words); longer pieces are cut at their markers.
LONG_WORDS = 45
#: Hard cap on a piece's words when it has no marker at all.
PIECE_WORDS = 40
#: Hard cap on a piece's characters (a plan's texts keep at most 2,000).
PIECE_CHARS = 1_000


def normalise(text: str) -> str:
    """``text`` with zero-width and direction marks removed and compatibility forms folded.

    Accents on Latin letters are folded ("réserve" reads as "reserve"); combining marks
    on other scripts stay. Emoji and other scripts pass through and simply match nothing.
    """
    text = unicodedata.normalize("NFKD", text)
    out: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cf", "Co", "Cs") or (cat == "Mn" and out and out[-1].isascii()):
            continue
        out.append(ch)
    text = unicodedata.normalize("NFKC", "".join(out))
    return text.replace("’", "'").replace("‘", "'")


def clause_start(text: str, at: int) -> int:
    """Where the clause holding character ``at`` starts.

    After the last boundary before it, or at a subject that opens a clause of its own
    (:data:`NEW_SUBJECT`, :data:`AND_CLAUSE`).
    """
    start = 0
    for m in BOUNDARY.finditer(text, 0, at):
        start = m.end()
    for m in AND_CLAUSE.finditer(text, start):
        if m.end() >= at:
            break
        start = m.end()
    for m in NEW_SUBJECT.finditer(text, start):
        if m.start() >= at:
            break
        before = text[: m.start()].split()
        if m.start() > start and before and before[-1].lower() not in TAKES_CLAUSE:
            start = m.start()
    return start


#: What ends a verb's object: a sentence stop, a turn, or a clause with its own subject.
OBJECT_END = re.compile(r"[;.!?]|\b(?:but|because|since|whereas|although|though)\b", re.I)


def clause_end(text: str, at: int) -> int:
    """Where the clause holding character ``at`` ends, for reading a verb's object.

    At a stop or a turn, or where a clause with a subject of its own starts; a list joined
    by commas or "and" stays whole ("decides the budget, the schedule and the ship call").
    """
    end = len(text)
    m = OBJECT_END.search(text, at)
    if m is not None:
        end = m.start()
    a = AND_CLAUSE.search(text, at, end)
    if a is not None:
        end = a.start()
    for m in NEW_SUBJECT.finditer(text, at, end):
        before = text[: m.start()].split()
        if before and before[-1].lower() not in TAKES_CLAUSE:
            return m.start()
    return end


def negated(text: str, at: int, refusals: bool = True) -> bool:
    """Whether the cue at character ``at`` of ``text`` is in a negation's scope.

    ``refusals`` also counts the refusal verbs ("skip", "avoid", "drop"): right for levers
    and gates, wrong for playbook options, where "skip the batches" is the option itself.
    """
    start = clause_start(text, at)
    head = text[start:at]
    pivots = [m.end() for m in PIVOT_NOT.finditer(text, 0, at)]
    if pivots and not BOUNDARY.search(text[pivots[-1] : at].replace("rather than", "")):
        # "… rather than X": X is the thing not done.
        return True
    spared = NOT_EXCEPT.sub(" ", head)
    count = len(NOT.findall(spared))
    if refusals:
        count += len(REFUSE.findall(spared))
    return count % 2 == 1


@dataclass(frozen=True)
class Bound:
    """A number and the noun it belongs to (``None``: no noun near it)."""

    number: Number
    noun: str | None
    sure: bool


def _segments(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for m in SEGMENT.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return [(a, b) for a, b in out if b > a]


#: What joins the members of a coordinated list ("A and B", "A, B and C", "A & B").
JOIN = re.compile(r"^\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:the\s+|our\s+|a\s+)?$", re.I)
#: What may stand between a list of nouns and its list of numbers, either way round.
LIST_GAP = re.compile(
    r"^[\s:=~]*(?:(?:at|of|is|are|get|gets|go\s+to|set\s+to|take|will\s+be|would\s+be|"
    r"should\s+be|come\s+to|about|around|roughly|approximately|for|to|towards?|on|into|the|our|"
    r"respectively|share|shares|each)[\s:=~,]+)*$",
    re.I,
)


#: A head noun after a noun used as a modifier: "ablation budget", "reserve pool".
HEAD_NOUN = re.compile(r"\s+(?:budget|share|fraction|pool|line|allocation|spend|slice)\b", re.I)


def _runs(items: Sequence[tuple[int, int, object]], text: str) -> list[list[int]]:
    """Indexes of the items' maximal runs joined by :data:`JOIN` (two or more)."""
    runs: list[list[int]] = []
    for i in range(len(items)):
        if runs and runs[-1][-1] == i - 1 and JOIN.match(text[items[i - 1][1] : items[i][0]] + " "):
            runs[-1].append(i)
        else:
            runs.append([i])
    return [r for r in runs if len(r) >= 2]


def _respectively(
    text: str, spots: Sequence[tuple[int, int, str]], nums: Sequence[Number]
) -> dict[int, str]:
    """Numbers (by index) bound in order to a list of as many distinct nouns beside them.

    A number in a list beside a list of nouns that cannot be paired maps to ``""``.
    """
    nouns: list[tuple[int, int, object]] = []
    for a, b, noun in sorted(spots, key=lambda x: (x[0], -x[1])):
        if nouns and a < nouns[-1][1]:
            continue  # a shorter word inside one already taken ("ablation" in "ablations")
        while b < len(text) and text[b].isalpha():
            b += 1  # to the word's end ("ablation" in "ablations")
        head = HEAD_NOUN.match(text, b)
        if head is not None:
            b = head.end()  # the phrase's head noun ("the ablation budget and the reserve")
        nouns.append((a, b, noun))
    # A noun right after its own number ("40% utilisation") is bound already: no list's.
    ends = {n.span[1] for n in nums}
    nouns = [x for x in nouns if not any(text[e : x[0]].strip() == "" for e in ends if e <= x[0])]
    figures: list[tuple[int, int, object]] = [(n.span[0], n.span[1], i) for i, n in enumerate(nums)]
    out: dict[int, str] = {}
    if _runs(nouns, text):
        for fr in _runs(figures, text):
            for f in fr:
                out[int(str(figures[f][2]))] = ""  # a list beside a list: unsure unless paired
    for nr in _runs(nouns, text):
        keys = [str(nouns[i][2]) for i in nr]
        if len(set(keys)) != len(keys):
            continue
        for fr in _runs(figures, text):
            if len(fr) != len(nr):
                continue
            first_n, last_n = nouns[nr[0]], nouns[nr[-1]]
            first_f, last_f = figures[fr[0]], figures[fr[-1]]
            gap = (
                text[last_n[1] : first_f[0]] if last_n[1] <= first_f[0]
                else text[last_f[1] : first_n[0]] if last_f[1] <= first_n[0] else None
            )  # fmt: skip
            if gap is not None and LIST_GAP.match(gap + " "):
                for noun, f in zip(keys, fr, strict=True):
                    out[int(str(figures[f][2]))] = noun
    return out


def bind_numbers(text: str, nouns: Mapping[str, Iterable[str]], unit: str) -> list[Bound]:
    """Each number of ``unit`` in ``text`` with its noun (a key of ``nouns``).

    A list of numbers beside a list of as many nouns binds in order, surely
    ("reserve and ablations at 10% and 5%"); one it cannot pair is unsure. Otherwise a
    number binds to the noun nearest it in its own segment; a tie is unsure. A number
    alone in its segment borrows the noun of the whole sentence only when the sentence has
    exactly one such number and one noun, and that binding is unsure.
    """
    low = text.lower().replace("-", " ")
    spots: list[tuple[int, int, str]] = []
    for noun, words in nouns.items():
        for w in words:
            # a noun written "re:…" is a pattern ("keep … back"); the others are words
            word = w[3:] if w.startswith("re:") else re.escape(w)
            for m in re.finditer(rf"(?<![a-z]){word}", low):
                spots.append((m.start(), m.end(), noun))
    nums = [n for n in numbers(text) if n.unit == unit]
    listed = _respectively(text, spots, nums)
    out: list[Bound] = []
    for i, n in enumerate(nums):
        if listed.get(i):
            out.append(Bound(n, listed[i], True))
            continue
        seg = next(((a, b) for a, b in _segments(text) if a <= n.span[0] < b), (0, len(text)))
        near, tight = [], set()
        for a, b, noun in spots:
            if seg[0] <= a < seg[1]:
                between = text[b : n.span[0]] if b <= n.span[0] else text[n.span[1] : a]
                gap = n.span[0] - b if b <= n.span[0] else a - n.span[1]
                near.append((max(gap, 0), noun))
                if TIGHT.match(between):
                    tight.add(noun)
        near.sort()
        if len(tight) == 1:
            out.append(Bound(n, tight.pop(), True))
            continue
        if near:
            tie = len(near) > 1 and near[1][0] == near[0][0] and near[1][1] != near[0][1]
            out.append(Bound(n, near[0][1], not tie))
            continue
        nouns_said = {noun for _, _, noun in spots}
        if len(nums) == 1 and len(nouns_said) == 1:
            out.append(Bound(n, nouns_said.pop(), False))
        else:
            out.append(Bound(n, None, False))
    # A list of numbers beside a list of nouns the reader cannot pair: asked, not guessed.
    return [Bound(b.number, b.noun, b.sure and listed.get(i) != "") for i, b in enumerate(out)]


AFTER = re.compile(r"\b(?:only\s+after|after|once)\b", re.I)
BEFORE = re.compile(r"\bbefore\b", re.I)
#: "after that", "after we …": the next step, not the step before.
FORWARD = re.compile(r"\s*(?:that|this|which|we|wards|,)", re.I)


def ordered(text: str, hits: Sequence[tuple[int, str]]) -> tuple[list[str], bool]:
    """Options (found at character positions) in the order said, and whether that is sure.

    Sequence words in order of appearance give the order; "B after A" and "B once A"
    put A first. An "after" or "before" the reader cannot place makes the order unsure.
    """
    seen: dict[str, int] = {}
    for at, option in sorted(hits):
        seen.setdefault(option, at)
    order = sorted(seen, key=lambda o: seen[o])
    sure = True
    if len(order) == 2:
        a, b = order
        between = text[seen[a] : seen[b]]
        after = AFTER.search(between)
        if after and not FORWARD.match(between[after.end() :]):
            order = [b, a]
    elif len(order) > 2 and any(
        not FORWARD.match(text, m.end()) for m in AFTER.finditer(text, seen[order[0]])
    ):
        sure = False  # "after that" and "after we …" go on forward: only a bare "after" turns back
    return order, sure


def split_long(sentence: str) -> list[str]:
    """A sentence of more than :data:`LONG_WORDS` words cut at its discourse markers."""
    words = sentence.split()
    if len(words) <= LONG_WORDS:
        return _by_chars(sentence)
    cuts = [m.start() for m in MARKERS.finditer(sentence) if m.start() > 0]
    pieces, start = [], 0
    for c in cuts:
        if len(sentence[start:c].split()) >= 4:
            pieces.append(sentence[start:c].strip())
            start = c
    pieces.append(sentence[start:].strip())
    out: list[str] = []
    for p in pieces:
        w = p.split()
        if len(w) <= 2 * PIECE_WORDS:
            out.append(p)
            continue
        out.extend(" ".join(w[i : i + PIECE_WORDS]) for i in range(0, len(w), PIECE_WORDS))
    return [c for p in out for c in _by_chars(p) if c]


def _by_chars(piece: str) -> list[str]:
    """A piece cut into stretches of at most :data:`PIECE_CHARS` characters."""
    if len(piece) <= PIECE_CHARS:
        return [piece]
    return [piece[i : i + PIECE_CHARS].strip() for i in range(0, len(piece), PIECE_CHARS)]


def sentences(text: str) -> list[str]:
    """The answer's sentences; a long one without punctuation cut at its discourse markers."""
    out = []
    for s in SENTENCE.split(normalise(text)):
        for piece in split_long(s.strip()):
            if len(re.findall(r"[^\W\d_]+|\d+", piece)) >= 2:
                out.append(piece.strip())
    return out


#: Where the items of a list of terms part: commas, semicolons, slashes, bullets, "and".
_ITEM = re.compile(r"[,;/|•·]|\s[-–—]\s|\band\b", re.I)
#: What makes an item more than a bare term: a number, or a binding (":", "→", "(").
_BOUND = re.compile(r"\d|[%$:→>(=]")
#: A subject or a finite verb: a sentence that has one says something of its terms.
_CLAUSE_WORD = re.compile(
    r"\b(?:we|i|they|our|you|he|she|it|is|are|was|were|will|would|should|must|can|owns|"
    r"decides|keeps|holds|watches|has|have)\b|"
    r"n't\b|\b\w+(?:s|ed)\s+(?:the|a|an|every|each|its|their)\b",
    re.I,
)
#: A list of terms needs this many items, this share of them bare (no number or binding).
TERM_LIST_ITEMS, TERM_LIST_BARE = 6, 0.8
#: An item of a term list is a few words at most.
TERM_WORDS = 3
#: A run of this many words with no verb, no punctuation and no number is a list of terms,
#: when fewer than this share of its words are articles, prepositions or pronouns.
TERM_RUN_WORDS = 12
TERM_RUN_FUNCTION = 0.15
_FUNCTION_WORDS = frozenset(
    "the a an of on in to for with when if as at by from her his its their my our your "
    "this that these those who which what where while before after until".split()
)
#: A keyword salad: this many words or more, at most this share of them distinct (real
#: sentences of the corpora stay above 0.6).
SALAD_WORDS, SALAD_SHARE = 8, 0.5


def term_list(sentence: str) -> bool:
    """Whether ``sentence`` is a list of terms with no sentence in it (keyword stuffing).

    "dedup, overlap scan, proxy runs, reserve, rollback, …" binds nothing to anything, so
    it states nothing.

    Six items or more, four in five of them bare terms of at most three words (no number,
    no "x: y" or "x → y"), and no subject or finite verb anywhere; or a keyword salad, the
    same few words over and over, whatever they are. A terse list of numbers
    ("reserve 12%, ablations 7%, …") or of bindings ("data lead: dedup rates, …") is no
    term list, and neither is a list a sentence carries ("the data team watches dedup,
    filter rates, …").
    """
    words = re.findall(r"[a-z0-9']+", sentence.lower())
    if len(words) >= SALAD_WORDS and len(set(words)) <= SALAD_SHARE * len(words):
        return True  # the same few words over and over ("rollback legal owner rollback …")
    items = [i.strip(" .!?-*\t") for i in _ITEM.split(sentence)]
    items = [i for i in items if i]
    if _CLAUSE_WORD.search(sentence):
        return False
    if (
        len(items) == 1
        and len(words) >= TERM_RUN_WORDS
        and not _BOUND.search(sentence)
        and sum(1 for w in words if w in _FUNCTION_WORDS) < TERM_RUN_FUNCTION * len(words)
    ):
        # a run of nouns with no verb and no punctuation ("dedup overlap scan …"); a
        # sentence has its articles and prepositions ("the lead rolls back on her own when
        # the loss jumps")
        return True
    if len(items) < TERM_LIST_ITEMS:
        return False
    bare = [i for i in items if not _BOUND.search(i) and len(i.split()) <= TERM_WORDS]
    return len(bare) >= TERM_LIST_BARE * len(items)


def has_clause(sentence: str) -> bool:
    """Whether ``sentence`` has a subject or a finite verb (a fragment has neither)."""
    return _CLAUSE_WORD.search(sentence) is not None


def bare_term(sentence: str) -> bool:
    """A sentence that is a term alone: a few words, no number, no binding, no verb."""
    words = sentence.strip(" .!?-*\t").split()
    return (
        0 < len(words) <= TERM_WORDS
        and not _BOUND.search(sentence)
        and not _CLAUSE_WORD.search(sentence)
    )


def term_lines(sentences: Sequence[str]) -> bool:
    """Whether an answer is a list of terms, one per line ("dedup", "overlap scan", …).

    Six sentences or more, four in five of them bare terms.
    """
    return len(sentences) >= TERM_LIST_ITEMS and sum(
        map(bare_term, sentences)
    ) >= TERM_LIST_BARE * len(sentences)
