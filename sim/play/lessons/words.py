"""How a lesson's line reads: its differences in days, dollars and score, and its scope.

"Owning the loss-spike risk would have saved 3.2 days and $410k here; averaged over 30
similar worlds, 2.1 to 4.0 days and $180k to $520k": a headline of at most
:data:`HEADLINE_WORDS` words, and notes beneath it for the scope, the equal-scope figure and
each eval. Only wording: every number comes from :mod:`sim.play.lessons.check`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sim.format import usd
from sim.play.lessons.measures import Interval, Measure, scope_cut_differs, tokens_differ
from sim.scenario.vocabulary import option_words


def short_usd(value: float) -> str:
    """Dollars, short and unsigned (the sentence says more or less): $1.20M, $410k, $950."""
    return usd(abs(value))


def _days(value: float) -> str:
    """Days to one decimal, or two when one would round a nonzero value to zero."""
    return f"{value:.2f}" if 0 < value < 0.05 else f"{value:.1f}"


#: A debrief line's headline is one sentence of at most this many words (under 40: read in
#: ten seconds); the details go in the notes beneath it.
HEADLINE_WORDS = 39


def points(score: float) -> str:
    """A score difference (0-1 scale) in points out of 100: ``2.6 points``."""
    v = abs(score) * 100
    return f"{v:.2f} points" if 0 < v < 0.05 else f"{v:.1f} points"


def _world_clause(metric: str, d: float) -> tuple[bool, str]:
    """(a saving?, words) for a difference on this world."""
    if metric == "schedule_days":
        return (d < 0, f"{_days(abs(d))} days" if d < 0 else f"{_days(d)} more days")
    if metric == "cost_usd":
        return (d < 0, short_usd(d) if d < 0 else f"{short_usd(d)} more")
    if metric == "quality":
        way = "raised" if d > 0 else "lowered"
        return (d > 0, f"{way} quality by {points(d)}")
    return (d > 0, "met every quality target" if d > 0 else "missed a quality target")


def _interval_words(metric: str, i: Interval, sign: float) -> str:
    low, high = sorted((abs(i.low), abs(i.high)))
    if metric == "schedule_days":
        a, b = _days(low), _days(high)
        return f"about {a} days" if a == b else f"{a} to {b} days"
    if metric == "cost_usd":
        a, b = short_usd(low), short_usd(high)
        return f"about {a}" if a == b else f"{a} to {b}"
    if metric == "quality":
        a, b = points(low), points(high)
        return f"about {a}" if a == b else f"{a.removesuffix(' points')} to {b}"
    way = "higher" if sign > 0 else "lower"
    return f"a {low:.0%} to {high:.0%} {way} chance of meeting the targets"


def _joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def by_eval(base: Measure, alt: Measure, benchmarks: frozenset[str] = frozenset()) -> str:
    """Each target eval's change in points: ``support tickets +1.1, ifeval ... -0.4 points``.

    ``benchmarks`` are the public benchmarks among them (contamination and focus inflate
    those only), marked so a line does not pass an inflated benchmark off as quality.
    """
    was = dict(base.scores)
    change = {ev: score - was.get(ev, 0.0) for ev, score in alt.scores}
    text = ", ".join(
        f"{ev.replace('_', ' ')}{' (public benchmark)' if ev in benchmarks else ''} {100 * d:+.1f}"
        for ev, d in change.items()
    )
    text += " points"
    bench = [d for ev, d in change.items() if ev in benchmarks]
    product = [d for ev, d in change.items() if ev not in benchmarks]
    if bench and product and sum(bench) / len(bench) > 0 >= max(product) - PRODUCT_FLAT:
        text += "; the public benchmarks rose, the product evals did not"
    return text


#: A product eval whose score moved less than this did not move (for the benchmark note).
PRODUCT_FLAT = 0.0005


def count(n: int, noun: str) -> str:
    """``1 failed run``, ``2 failed runs``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def body(
    parts: Sequence[tuple[str, float]],
    paired: Mapping[str, Interval],
    worlds: int,
    where: str = "here",
) -> str:
    """``saved 3.2 days and $410k here; averaged over 30 similar worlds, 2.1 to 4.0 ...``.

    The first figure is this world's (this play's); the range after it is the paired 95%
    interval of the mean difference over the neighbouring worlds, which one world can
    fall outside (:func:`outside_note` says so).
    """
    saved: list[str] = []
    cost: list[str] = []
    other: list[str] = []
    for metric, d in parts:
        good, words = _world_clause(metric, d)
        if metric in ("schedule_days", "cost_usd"):
            (saved if good else cost).append(words)
        else:
            other.append(words)
    clauses = []
    if saved:
        clauses.append("saved " + " and ".join(saved))
    if cost:
        clauses.append("cost " + " and ".join(cost))
    clauses += other
    text = f"{_joined(clauses)} {where}"
    if paired:
        ranges = [_interval_words(m, paired[m], d) for m, d in parts if m in paired]
        text += f"; averaged over {worlds} similar worlds, {_joined(ranges)}"
    return text


def sentence(
    label: str,
    parts: Sequence[tuple[str, float]],
    paired: Mapping[str, Interval],
    worlds: int,
) -> str:
    """``label`` would have saved/cost ... here; averaged over N similar worlds, ...."""
    return f"{label} would have {body(parts, paired, worlds)}"


#: Incidents a reader can picture, as singular nouns: what made this world unlike the others.
INCIDENT_WORDS: dict[str, str] = {
    "loss_spike": "loss spike",
    "hardware_interruption": "hardware failure",
    "budget_cut": "budget cut",
    "failed_run": "failed run",
    "safety_finding": "safety finding",
    "key_person_departure": "departure of a key person",
    "eval_gap": "missed eval target",
    "schedule_slip": "forecast past the deadline",
    "budget_slip": "forecast over budget",
    "recipe_change": "recipe change",
    "handoff_rework": "reworked handoff",
}


def _incident_noun(kind: str, n: int) -> str | None:
    if kind.startswith("defect_"):
        noun = kind.removeprefix("defect_").replace("_", " ") + " defect"
    elif kind in INCIDENT_WORDS:
        noun = INCIDENT_WORDS[kind]
    else:
        return None
    if n == 1:
        return f"one {noun}"
    head, sep, tail = noun.partition(" of ")
    return f"{n} {head}s{sep}{tail}" if sep else f"{n} {noun}s"


def unusual_world(world: Measure, similar: Sequence[Measure]) -> str | None:
    """What set this world apart from the similar ones, in plain words, if anything did.

    The incident kind whose count here differs most from its mean over ``similar`` (by at
    least one): "this world had 2 loss spikes, the similar worlds 0.4 on average".
    """
    if not similar:
        return None
    here = dict(world.incidents)
    kinds = {k for m in (world, *similar) for k, _ in m.incidents}
    best: tuple[float, str, int, float] | None = None
    for kind in sorted(kinds):
        n = here.get(kind, 0)
        mean = sum(dict(m.incidents).get(kind, 0) for m in similar) / len(similar)
        if _incident_noun(kind, max(n, 2)) is None or abs(n - mean) < 1:
            continue
        score = abs(n - mean) / max(mean, 0.5)
        if best is None or score > best[0]:
            best = (score, kind, n, mean)
    if best is None:
        return None
    _, kind, n, mean = best
    had = _incident_noun(kind, n) if n else f"no {str(_incident_noun(kind, 2))[2:]}"
    return f"this world had {had}, the similar worlds {mean:.1f} on average"


#: How the note on a figure outside the similar worlds' range begins.
OUTSIDE_LEAD = "This play's own figure lies outside the range"


def _outside(metric: str, d: float, i: Interval) -> bool:
    """Whether ``d`` lies outside ``i`` as the line writes them (not by a rounding's width)."""
    low, high = min(i.low, i.high), max(i.low, i.high)
    slack = {"schedule_days": 0.05, "quality": 0.0005}.get(metric, 0.005 * max(abs(low), abs(high)))
    return not low - slack <= d <= high + slack


def outside_note(
    parts: Sequence[tuple[str, float]], paired: Mapping[str, Interval], why: str | None = None
) -> str | None:
    """Why this world's figure can lie outside the range quoted beside it, when it does.

    ``why`` is what set this world apart (:func:`unusual_world`), said when known.
    """
    out = [m for m, d in parts if m in paired and _outside(m, d, paired[m])]
    if not out:
        return None
    if why:
        return f"{OUTSIDE_LEAD}, which is for the average world: {why}."
    return (
        f"{OUTSIDE_LEAD}: the range is for the average "
        "world, and a single world's incidents swing more than an average does."
    )


def _cut_words(m: Measure) -> str:
    cuts = ", ".join(option_words(c) for c in m.scope_cuts) or "nothing"
    return f"{cuts}, {short_usd(m.scope_cut_usd)}" if m.scope_cuts else cuts


def scope_note(base: Measure, alt: Measure, budget_usd: float) -> str | None:
    """A sentence on how the two arms' scopes differ and whether a scope cut is why.

    Scope is the tokens trained, the post-training rounds and the scope the engine cut to
    fit the budget (the outcome row's ``scope:RESPONSE`` and ``scope_cut_usd``); None when
    all three agree.
    """
    more_tokens = tokens_differ(base, alt)
    rounds = alt.post_training_rounds - base.post_training_rounds
    cut = scope_cut_differs(base, alt, budget_usd)
    if not (more_tokens or rounds or cut):
        return None
    parts = []
    if more_tokens:
        parts.append(f"{alt.tokens_b:,.0f}B tokens against {base.tokens_b:,.0f}B")
    if rounds:
        parts.append(
            f"{count(alt.post_training_rounds, 'post-training round')} against "
            f"{base.post_training_rounds}"
        )
    lead = f"The two plans differ in scope ({_joined(parts)})" if parts else ""
    if cut:
        who = "the counterfactual" if alt.scope_cut_usd > base.scope_cut_usd else "the play"
        why = (
            f"part of the difference is a cut to fit the budget, and {who} gave up more "
            f"(counterfactual: {_cut_words(alt)}; play: {_cut_words(base)})"
        )
        return f"{lead}: {why}." if lead else why[:1].upper() + why[1:] + "."
    return f"{lead}: the change itself did this, not a budget cut."


def side_notes(base: Measure, alt: Measure) -> list[str]:
    """What else moved that a line should name: failed runs, research findings for later."""
    notes = []
    if alt.failed_runs != base.failed_runs:
        notes.append(f"{count(alt.failed_runs, 'failed run')} against {base.failed_runs}")
    if alt.research_findings != base.research_findings:
        notes.append(
            f"{count(alt.research_findings, 'research finding')} for later models against "
            f"{base.research_findings}"
        )
    return notes
