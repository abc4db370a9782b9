"""The three follow-ups answered in prose: the candidate's calls read, then played like the form's.

:func:`read_followup` reads a spoken answer to one follow-up into the calls it makes, in
the order it makes them ("roll back to the last good checkpoint; if it spikes again,
pause and investigate" is ``rollback_skip`` then ``pause_investigate``), each with its
:class:`~sim.interview.prose.Reading` (the sentence it came from, and whether the reader
is unsure). A negated call is never read as the call ("I would not roll back").

:func:`play_read_followup` plays those calls on the candidate's design exactly as the
form's follow-up does (:mod:`sim.interview.followups`): the same world search, the same
game, the candidate's calls taken in order wherever the follow-up's decision waits, the
playbook for the rest, and the same :class:`~sim.interview.plan.FollowupResult`. Readings
marked unsure should be confirmed (or corrected) first; pass the confirmed calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sim.interview.clauses import clause_start, negated, normalise, ordered
from sim.interview.followups import (
    FOLLOWUPS,
    find_world,
    followup_result,
    followup_scenario,
    situation,
    start_followup,
    unplayable_result,
)
from sim.interview.plan import FollowupResult, InterviewPlan
from sim.interview.prose import Reading, read_answer, sentences

#: The words for each call a follow-up asks for, by the follow-up's decision kind.
CALL_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "rollback": {
        "rollback_skip": ("roll back", "rollback", "rolling back", "rolls back", "rolled back",
                          "go back to the", "go back or", "revert", "restore the last",
                          "last good checkpoint", "skip the batch", "skip those batch",
                          "skip the bad batch", "go back to the checkpoint",
                          "going back to the", "back to the last good", "rewind",
                          "skipping the batch", "skipping these batch", "skipping those batch",
                          "skip these batch", "reload the last good", "resume from the last good",
                          "skips the batch", "skips those batch", "skips the bad batch",
                          "reload the previous", "reloads the previous",
                          "checkpoint before the spike"),
        "pause_investigate": ("pause", "investigate", "stop the run", "halt", "diagnose",
                              "dig into", "look into", "root cause", "stop and look"),
        "continue": ("keep training", "train through", "train on", "carry on", "continue",
                     "wait it out", "ride it out", "let it recover", "keep going", "let it ride",
                     "see if it recover", "wait and see"),
        "overreact": ("change the recipe", "new recipe", "restart from scratch",
                      "rewrite the recipe", "start over", "recipe is wrong",
                      "recipe is unstable", "different recipe", "change it and restart",
                      "lower the learning rate", "lower learning rate", "reduce the learning rate",
                      "cut the learning rate", "new learning rate", "change the learning rate",
                      "new lr", "lower the lr", "change the lr", "change the hyperparameters"),
    },
    "budget": {
        "use_reserve": ("reserve", "contingency", "buffer"),
        "cut_ablations": ("ablation", "proxy run", "proxies", "sweep", "small runs",
                          "small scale runs", "pilot runs", "experiment budget",
                          "fewer experiments", "small experiments"),
        "reduce_tokens": ("fewer tokens", "less data", "train on fewer", "token budget",
                          "cut tokens", "smaller token", "reduce tokens", "reduce the tokens",
                          "fewer training tokens", "cut the tokens", "less tokens",
                          "fewer token", "then tokens", "shorter run", "train shorter"),
        "fewer_post_training_rounds": ("post training round", "fewer round",
                                       "rounds of post training", "fewer rlhf", "round less",
                                       "tuning round", "preference round", "rl round",
                                       "rlhf round", "sft round", "alignment round",
                                       "dpo round", "fewer fine tuning", "less fine tuning",
                                       "less post training", "post training scope", "round of rlhf",
                                       "round of sft", "round of dpo", "round of preference",
                                       "round of alignment", "round of fine tuning"),
        "smaller_eval_scope": ("eval scope", "fewer evals", "smaller eval", "shrink the eval",
                               "trim the eval", "cut the eval", "narrower eval", "fewer benchmark"),
        "fewer_hires": ("fewer hires", "hiring freeze", "freeze hiring", "not hire"),
        "smaller_cluster": ("smaller cluster", "fewer gpus", "fewer nodes"),
        "accept_overrun": ("overrun", "go over budget", "ask for more money", "exceed",
                           "going over budget", "go over the budget", "going over the budget"),
    },
    "ship": {
        "extra_round": ("another round", "extra round", "one more round", "more post training",
                        "another post training", "tuning round", "another tuning",
                        "more fine tuning", "another fine tuning", "more tuning"),
        "fix_data_and_retune": ("fix the data", "retune", "fix data", "clean the data",
                                "better data", "fixing the data", "tuning again", "tune again"),
        "ship": ("ship", "launch", "release", "go live"),
    },
}  # fmt: skip
#: Words that hold a release without saying how ("not ready", "hold"): read as one more
#: round, marked unsure.
HOLD = re.compile(r"\b(?:hold|not\s+ready|wait|delay|postpone|don't\s+ship|no\s+ship|no\b)", re.I)
#: The calls that hold a release, each saying how.
HOLDS = ("extra_round", "fix_data_and_retune")
#: Verbs that hold a release named after them ("hold the release", "delay the launch").
HOLD_VERB = re.compile(
    r"\b(?:hold(?:ing)?|delay(?:ing)?|postpon\w*|wait\w*\s+(?:on|with))\W+(?:\w+\W+)?$"
)


@dataclass(frozen=True)
class FollowupReading:
    """A follow-up answered in prose: the calls read in order, and what was read where."""

    id: str
    calls: tuple[str, ...]
    readings: tuple[Reading, ...]
    rationale: str

    @property
    def unsure(self) -> bool:
        """Whether any call needs the candidate's confirmation before it is played."""
        return any(r.unsure for r in self.readings)


#: A condition contrary to fact ("if the gap were within the noise", "had it been smaller"):
#: the call under it is the one not made.
COUNTERFACTUAL = re.compile(r"^\W*(?:if\b[^;.:]*\b(?:were|had\s+been)\b|had\s+\w+\s+been\b)", re.I)


#: A verb that spares what follows it ("we keep the tuning rounds", "protect the sweep"):
#: the call named after it within a few words is the one not made.
KEPT = re.compile(
    r"\b(?:keep(?:ing|s)?|protect(?:ing|s)?|spar(?:e|es|ing)|preserv(?:e|es|ing)|"
    r"hold(?:ing|s)?\s+on\s+to)\s+(?:\w+\s+){0,3}$"
)
#: ... unless it keeps it small ("keep the sweep small", "keep the run short"): a cut.
KEPT_SMALL = re.compile(
    r"\w*(?:\s+\w+){0,2}\s+(?:small|smaller|short|shorter|low|lower|down|lean|"
    r"minimal|to\s+a\s+minimum)\b"
)


def _spared(call: str, head: str, low: str, at: int) -> bool:
    """Whether the call's words at ``at`` follow a verb that spares them.

    ``head``: the clause before them. Keeping on training is the call to continue, never
    a refusal.
    """
    return call != "continue" and bool(KEPT.search(head)) and not KEPT_SMALL.match(low, at)


def _hits(kind: str, s: str) -> list[tuple[int, str, bool]]:
    """(position, call, negated) for each call's words found in ``s``."""
    low = normalise(s).lower().replace("-", " ")
    out = []
    for call, words in CALL_WORDS[kind].items():
        for w in words:
            for m in re.finditer(rf"(?<![a-z]){re.escape(w)}", low):
                neg = negated(low, m.start(), refusals=False)
                head = low[clause_start(low, m.start()) : m.start()]
                if call == "ship" and HOLD_VERB.search(head):
                    neg = True
                if _spared(call, head, low, m.start()):
                    neg = True  # "we keep the tuning rounds": what is spared is no cut
                if COUNTERFACTUAL.search(low[: m.start()]):
                    neg = True  # "if the gap were within the noise we'd ship": not this world
                out.append((m.start(), call, neg))
    return out


#: Two calls offered as alternatives, not chosen ("… if we go back or continue").
ALTERNATIVE = re.compile(r"\bor\s+(?:\w+\s+){0,2}$", re.I)


def _resumed(kind: str, said: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``said`` without a "keep going" that resumes after a rollback or a pause.

    "The training lead rolls back to the last good one and we keep going": the run goes on
    after the call; carrying on is no call of its own.
    """
    if kind != "rollback":
        return said
    first = min((at for at, c in said if c in ("rollback_skip", "pause_investigate")), default=None)
    return [(at, c) for at, c in said if not (c == "continue" and first is not None and at > first)]


def _alternatives(low: str, said: list[tuple[int, str]]) -> bool:
    """Whether two calls of a sentence are offered as alternatives joined by "or"."""
    spots = sorted(said)
    return any(
        a[1] != b[1] and ALTERNATIVE.search(low[a[0] : b[0]])
        for a, b in zip(spots, spots[1:], strict=False)
    )


def _confirm(readings: list[Reading], calls: list[str], order: Sequence[str], s: str) -> None:
    """A call read unsure that a later sentence names for sure is sure, from that sentence.

    It keeps its place in the order: "Not ready." holds the release without saying how
    (read as one more round, unsure); "we run one more round" confirms it, and "we fix the
    data and tune again" says which hold it was.
    """
    for i, r in enumerate(readings):
        named = r.value if r.value in order else None
        if r.unsure and named is None and r.value == "extra_round":
            named = next((c for c in order if c in HOLDS and c not in calls), None)
        if r.unsure and named is not None:
            readings[i] = Reading(r.field, named, s, key=r.key.rsplit("=", 1)[0] + "=" + named)
            calls[i] = named


def read_followup(fid: str, text: str) -> FollowupReading:
    """The calls a prose answer to follow-up ``fid`` makes, in order (negated calls left out)."""
    kind = FOLLOWUPS[fid].asks
    calls: list[str] = []
    readings: list[Reading] = []
    for s in sentences(text):
        hits = _hits(kind, s)
        named = {r.value for r in readings if not r.unsure}
        said = [(at, c) for at, c, neg in hits if not neg and c not in named]
        refused = {c for _, c, neg in hits if neg}
        said = [(at, c) for at, c in said if c not in refused]
        offered = _alternatives(normalise(s).lower().replace("-", " "), said)
        said = _resumed(kind, said)
        order, sure = ordered(s.lower(), said)
        sure = sure and not offered
        if kind == "ship" and not order and HOLD.search(s) and "ship" in refused | {"ship"}:
            order, sure = ["extra_round"], False
        if sure:
            _confirm(readings, calls, order, s)
        for c in order:
            if c in calls:
                continue
            calls.append(c)
            readings.append(Reading(f"call: {fid}", c, s, key=f"call:{fid}={c}", unsure=not sure))
    return FollowupReading(fid, tuple(calls), tuple(readings), text.strip()[:2_000])


def play_read_followup(
    plan: InterviewPlan, fid: str, calls: Sequence[str], rationale: str = ""
) -> FollowupResult | None:
    """The follow-up played on ``plan``'s design with ``calls`` as the candidate's, in order.

    Exactly the form's play: the first world where the situation arises, the candidate's
    next call wherever the follow-up's decision waits (the first of the remaining calls
    on offer), the playbook once the calls run out. None when no call was read (the
    follow-up stays not played); the design's own play when the situation never arises.
    """
    if not calls:
        return None
    scenario = followup_scenario(plan, fid)
    seed, _ = find_world(scenario, fid)
    if seed is None:
        return unplayable_result(scenario, fid)
    game = start_followup(scenario, fid, seed)
    seen = situation(game)
    left = list(calls)
    answered: list[str] = []
    while not game.finished and game.pending is not None and left:
        point = game.pending
        choice = next((c for c in left if c in point.options), None)
        if choice is None:
            break
        if len(left) > 1:  # the last call said stands for any later decision
            left.remove(choice)
        answered.append(point.key)
        game.decide(choice)
        game.advance()
    game.play_to_end()
    return followup_result(game, fid, seen, rationale, answered)


@dataclass(frozen=True)
class WordsAnswer:
    """A whole answer in words, read and played.

    The plan, every reading, and the readings the reader was unsure of that the candidate
    has not confirmed (left out of the plan, to be asked).
    """

    plan: InterviewPlan
    readings: tuple[Reading, ...]
    asked: tuple[Reading, ...]
    messages: tuple[str, ...] = ()
    #: The keys the candidate confirmed.
    confirmed: frozenset[str] = frozenset()


def answer_in_words(
    text: str,
    followups: Mapping[str, str] | None = None,
    confirmed: Iterable[str] = (),
    plan: InterviewPlan | None = None,
) -> WordsAnswer:
    """The answer ``text`` read into a plan and its follow-up answers played on its design.

    ``confirmed`` holds the keys of unsure readings the candidate confirmed (``reserve=0.12``,
    ``call:benchmarks_vs_product=extra_round``); only those enter the plan. A confirmed call
    the reader did not read (``call:FID=OPTION``) corrects that follow-up's first unsure
    call. Every other unsure reading is left out and returned in ``asked``: never guessed.
    """
    sure = set(confirmed)
    read = read_answer(text, plan, sure)
    p = read.plan
    readings, asked = list(read.readings), list(read.unsure)
    for fid, words in (followups or {}).items():
        if fid not in FOLLOWUPS:
            raise KeyError(fid)
        fr = read_followup(fid, words)
        said = {r.key for r in fr.readings}
        fixes = [k.partition("=")[2] for k in sure
                 if k.startswith(f"call:{fid}=") and k not in said]  # fmt: skip
        calls = []
        for r in fr.readings:
            readings.append(r)
            if not r.unsure or r.key in sure:
                calls.append(r.value)
            elif fixes:
                calls.append(fixes.pop(0))
            else:
                asked.append(r)
        played = play_read_followup(p, fid, calls, words.strip()[:2_000])
        if played is not None:
            p = p.with_followup(played)
    return WordsAnswer(p, tuple(readings), tuple(asked), read.messages, frozenset(sure))
