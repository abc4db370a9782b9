"""The words TrainingRoom uses, defined once: the app's Glossary page and docs/glossary.md.

Both are written from :data:`TERMS` (``python -m sim.glossary > docs/glossary.md``; a test
checks the file equals :func:`markdown`), so the page and the doc cannot disagree. Pages
link a term's first use with :func:`term_help` (a tooltip that links here) and every
command's ``--help`` ends with :func:`cli_epilog`. The statistical methods the tools use
are named in :data:`METHODS`, a footnote with a link each, not in the sentences.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

#: Where the app serves the glossary (its ``url_path`` in app.py).
PAGE_URL = "glossary"
#: The same text in the repository.
DOC_PATH = "docs/glossary.md"


@dataclass(frozen=True)
class Term:
    id: str
    """The anchor: ``/glossary#world``."""
    name: str
    meaning: str
    """One or two plain sentences."""


TERMS: tuple[Term, ...] = (
    Term(
        "world",
        "World",
        "One possible run of the project: one draw of every random event (loss spikes, "
        "hardware failures, data defects, budget cuts, eval noise). A play is one world; "
        "the same seed gives the same world.",
    ),
    Term(
        "replication",
        "Replication",
        "One world simulated for a summary. A summary over 1,000 replications is the "
        "project played in 1,000 different worlds.",
    ),
    Term(
        "similar-worlds",
        "Similar worlds",
        "The worlds a debrief lesson is checked on besides the play's own: the same "
        "scenario and choices, other random draws. One world can land outside the range "
        "they give, because one world's incidents (a second loss spike, an early budget "
        "cut) swing more than an average of many does.",
    ),
    Term(
        "common-random-numbers",
        "Common random numbers",
        "Two designs are compared in the same worlds: the same incidents strike both, so "
        "a difference between them is the designs' doing, not luck.",
    ),
    Term(
        "success",
        "Chance all objectives are met",
        "The share of worlds that finish by the deadline, within the budget and with "
        "every quality target reached (written P(success) in the data).",
    ),
    Term(
        "points",
        "Points",
        "Quality is in points out of 100: a measured eval score of 0.713 reads 71.3 pts, "
        "and a change in quality is in points too (-0.7 pts).",
    ),
    Term(
        "percentage-points",
        "Percentage points (pp)",
        "The difference between two percentages: from 40% to 43% is +3.0 pp.",
    ),
    Term(
        "scope",
        "Scope",
        "What the project trains and measures: tokens trained, post-training rounds, "
        "eval campaign, hires. A plan that does less can finish sooner and cheaper; the "
        "tools say when scope differed.",
    ),
    Term(
        "scope-cut",
        "Scope cut",
        "Scope given up to fit the budget (fewer tokens, fewer ablations, a smaller eval "
        "campaign...), chosen at set-up or at a budget decision.",
    ),
    Term(
        "reserve",
        "Reserve",
        "The share of the budget held back for surprises. A budget decision can release "
        "it; money in reserve is not planned for work.",
    ),
    Term(
        "gate",
        "Gate",
        "A check between phases (an ablation gate, an eval gate) where defects can be "
        "caught before they cost more later.",
    ),
    Term(
        "decision-right",
        "Decision right",
        "The team that decides a kind of decision (a loss spike, the budget, shipping). "
        "News travels to it along the org chart, which takes time.",
    ),
    Term(
        "playbook",
        "Playbook",
        "Answers agreed in advance for each kind of decision, in order of preference.",
    ),
    Term(
        "counterfactual",
        "Counterfactual",
        "The same world replayed with one thing changed (another option, another lever); "
        "the difference is that change's effect.",
    ),
    Term(
        "interval",
        "Interval",
        "A range that holds the true value with 95% confidence, given the worlds run. "
        "More worlds make it narrower.",
    ),
    Term(
        "p90",
        "P90",
        "The value 90% of worlds stay under: a cautious figure for schedule or cost.",
    ),
    Term(
        "margin",
        "Margin",
        "How far a result is inside its target (days under the deadline, dollars under "
        "the budget); negative means missed.",
    ),
    Term(
        "rung",
        "Rung",
        "One step of the search in Optimize: every design still in the running is tried "
        "on more worlds, and the weaker ones drop out before the next rung.",
    ),
    Term(
        "lever",
        "Lever",
        "A setting you choose for the project (reserve share, ablation budget, team "
        "sizes...); a design is one choice of every lever.",
    ),
    Term(
        "inject",
        "Inject",
        "An event a tabletop facilitator or a scenario adds on a given day (a budget cut, "
        "a hardware outage) to see how the organisation responds.",
    ),
    Term(
        "mfu",
        "MFU",
        "Model FLOPs utilisation: the share of the GPUs' peak arithmetic the training run "
        "turns into model progress. Large runs report about 35 to 55 percent.",
    ),
    Term(
        "effective-training-time",
        "Effective training time",
        "The share of the run's wall time spent making progress, after failures, restarts "
        "and checkpoints. Llama 3's 405B run reported above 90 percent.",
    ),
)
TERMS_BY_ID: dict[str, Term] = {t.id: t for t in TERMS}

#: The statistical methods the tools use: ``(name, what for, link)``.
METHODS: tuple[tuple[str, str, str], ...] = (
    (
        "Paired differences and Holm's correction",
        "debrief lessons and compare: a difference is stated only when it passes a test "
        "that holds the chance of any false line under 5%",
        "https://en.wikipedia.org/wiki/Holm%E2%80%93Bonferroni_method",
    ),
    (
        "Student's t interval",
        "compare and debrief lessons: the interval of a mean difference in days, dollars or "
        "points over the same worlds",
        "https://en.wikipedia.org/wiki/Student%27s_t-distribution#Confidence_intervals",
    ),
    (
        "Tango's score test",
        "compare: whether two designs differ in a chance (on time, all objectives met), from "
        "the worlds where one meets it and the other does not",
        "https://doi.org/10.1002/(SICI)1097-0258(19980430)17:8%3C891::AID-SIM780%3E3.0.CO;2-B",
    ),
    (
        "McNemar's test",
        "debrief lessons: whether a yes-or-no outcome (a target met) moved",
        "https://en.wikipedia.org/wiki/McNemar%27s_test",
    ),
    (
        "Order-statistic interval",
        "compare and sweep: the 95% interval of a percentile (P10, P50, P90), read from the "
        "sorted worlds alone, whatever their distribution",
        "https://en.wikipedia.org/wiki/Order_statistic",
    ),
    (
        "Wilson score interval",
        "compare and sweep: the 95% interval of a chance (on time, on budget, all met)",
        "https://en.wikipedia.org/wiki/Binomial_proportion_confidence_interval#Wilson_score_interval",
    ),
    (
        "Dvoretzky-Kiefer-Wolfowitz band",
        "the S-curves: how far the curve of finish days or costs can be from the truth",
        "https://en.wikipedia.org/wiki/Dvoretzky%E2%80%93Kiefer%E2%80%93Wolfowitz_inequality",
    ),
    (
        "Bayesian bootstrap",
        "compare: the chance each design is the best one",
        "https://en.wikipedia.org/wiki/Bootstrapping_(statistics)#Bayesian_bootstrap",
    ),
    (
        "fANOVA",
        "optimize: which levers matter most across the designs tried",
        "https://proceedings.mlr.press/v32/hutter14.html",
    ),
)


def term_help(term_id: str) -> str:
    """A tooltip for a term's first use on a page: its meaning and a link to the page."""
    t = TERMS_BY_ID[term_id]
    return f"**{t.name}**: {t.meaning} [Glossary](/{PAGE_URL}#{t.id})"


def term_link(term_id: str, text: str | None = None) -> str:
    """A markdown link to a term on the app's Glossary page."""
    t = TERMS_BY_ID[term_id]
    return f"[{text or t.name.lower()}](/{PAGE_URL}#{t.id})"


def method_footnote(name: str) -> str:
    """A footnote naming a method with its link: ``[Holm's correction](https://...): ...``."""
    for method, why, link in METHODS:
        if method == name:
            return f"[{method}]({link}): {why}."
    raise KeyError(name)


def used(*term_ids: str) -> str:
    """The last line of a command's output: where the words it used are defined.

    ``used("world", "rung")`` is "Words used above (world, rung): docs/glossary.md, or the
    app's Glossary page."; the terms are checked against :data:`TERMS`.
    """
    names = ", ".join(TERMS_BY_ID[t].name.lower() for t in term_ids)
    return f"Words used above ({names}): {DOC_PATH}, or the app's Glossary page."


def methods_line(*names: str) -> str:
    """A command's footnote naming the statistical methods it used, with where to read up.

    The sentences above it give only the figures (p-values, intervals); the methods are
    named once, here: "Methods: McNemar's test; Holm's correction (docs/glossary.md...)".
    """
    known = [m for m, _, _ in METHODS]
    for name in names:
        if name not in known:
            raise KeyError(name)
    return f"Methods: {'; '.join(names)} ({DOC_PATH}, Statistical methods)."


def methods_note(*names: str) -> str:
    """The app's footnote naming the methods a chart or table used, each with its link."""
    links = dict((m, link) for m, _, link in METHODS)
    return "Methods: " + "; ".join(f"[{n}]({links[n]})" for n in names) + "."


def cli_epilog(command: str) -> str:
    """The last lines of a command's ``--help``."""
    return (
        "Words such as world, replication, scope, points and interval are defined in "
        f"{DOC_PATH} (the app's Glossary page)."
    )


def markdown() -> str:
    """The whole glossary as markdown: docs/glossary.md and the app's page."""
    lines = [
        "# Glossary",
        "",
        "<!-- Written by `python -m sim.glossary > docs/glossary.md` from sim/glossary.py;",
        "     edit the terms there (tests/test_glossary.py checks this file). -->",
        "",
        "The words TrainingRoom's app, command line and reports use, in plain terms. The app "
        "shows the same text on its Glossary page.",
        "",
    ]
    for t in TERMS:
        lines += [f'<a id="{t.id}"></a>', f"**{t.name}.** {t.meaning}", ""]
    lines += ["## Statistical methods", ""]
    lines += [f"- [{name}]({link}): {why}." for name, why, link in METHODS]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
