"""The debrief's "What this play shows": the lessons whose counterfactual moved this play.

Every number comes from :mod:`sim.play.lessons.check`; this module only lays it out.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from sim.format import usd_signed
from sim.glossary import method_footnote, term_help
from sim.play.lessons.check import (
    CONFIDENCE,
    EQUAL_SCOPE,
    MATERIAL_BUDGET_SHARE,
    MATERIAL_DAYS,
    MATERIAL_SCORE,
    Finding,
    LessonReport,
    grouped,
)
from sim.play.lessons.words import OUTSIDE_LEAD
from ui.common import usd


def _change(value: float) -> str:
    """A change in dollars, signed in ASCII (sim.format): +$410k, -$1.19M."""
    return usd_signed(value)


def _scope(f: Finding) -> str:
    b, a = f.base, f.alt
    return (
        f"{b.tokens_b:,.0f}B → {a.tokens_b:,.0f}B tokens; "
        f"{b.post_training_rounds} → {a.post_training_rounds} rounds; "
        f"cut {usd(b.scope_cut_usd)} → {usd(a.scope_cut_usd)}"
    )


def _equal(f: Finding) -> str:
    """The equal-scope comparison in figures, or why there is none."""
    e = f.equal
    if e is None:
        return "same cuts" if f.moved else ""
    days, cost = e.diff("schedule_days"), e.diff("cost_usd")
    score = e.diff("quality")
    confirmed = ", ".join(e.confirmed) or "nothing beyond noise"
    return f"{days:+.1f} days, {_change(cost)}, {100 * score:+.1f} points ({confirmed})"


def findings_table(findings: tuple[Finding, ...]) -> pd.DataFrame:
    """One row per counterfactual: its differences on this world and both arms' scope."""
    return pd.DataFrame(
        {
            "counterfactual": [f.label for f in findings],
            "Δ schedule (days)": [round(f.diff("schedule_days"), 1) for f in findings],
            "Δ cost": [_change(f.diff("cost_usd")) for f in findings],
            "Δ mean target score (points of 100)": [
                round(100 * f.diff("quality"), 1) for f in findings
            ],
            "verdict": [f.verdict for f in findings],
            "Δ loss": [round(f.diff("loss"), 4) for f in findings],
            "scope (play → counterfactual)": [_scope(f) for f in findings],
            "at equal scope": [_equal(f) for f in findings],
            "lesson": [f.title for f in findings],
        }
    )


#: Lessons drawn in full; the rest (smaller effects) wait in an expander.
TOP_LESSONS = 6


def _text(line: str) -> str:
    """A line as Markdown text: its dollar signs are money, not mathematics."""
    return line.replace("$", "\\$")


def _lesson(title: str, findings: list[Finding], seen: set[str] | None = None) -> str:
    """A lesson's title, each finding's headline, and its notes beneath it, smaller.

    Why this world lies outside the range is the same world's reason for every line, so
    once shown (``seen``) it is not repeated under later lines.
    """
    rows = []
    seen = set() if seen is None else seen
    for f in findings:
        rows.append(f"- {_text(f.line)}.")
        rows += [f"    - :small[{_text(note)}]" for note in f.notes if note not in seen]
        seen.update(n for n in f.notes if n.startswith(OUTSIDE_LEAD))
    return f"**{title}.**\n" + "\n".join(rows)


#: The method the rule names, in a footnote with a link (sim/glossary.py's METHODS).
METHOD_FOOTNOTE = method_footnote("Paired differences and Holm's correction")


def rule(report: LessonReport) -> str:
    return (
        f"Each line is one lesson's counterfactual replayed on this world (same seed, the "
        f"same injects, your answers where the same decision comes up, the rest by the "
        f"playbook), kept only when it moved at least {MATERIAL_DAYS:g} day, "
        f"{MATERIAL_BUDGET_SHARE:.1%} of the budget, {100 * MATERIAL_SCORE:g} points of the "
        f"mean target score (out of 100) or a quality target here, and the paired "
        f"{CONFIDENCE:.0%} interval over {report.neighbours} excludes zero the same way, "
        f"adjusted for the {report.tests} differences tested together¹ (there every "
        f"decision is the playbook's, the person's on the spot where it is silent). Tokens, "
        f"post-training rounds and scope cuts of both arms are in the table; where the cuts "
        f"differ, the notes also give the comparison {EQUAL_SCOPE}. {report.replays} "
        f"replays in {report.seconds:.1f} s.  \n¹ {METHOD_FOOTNOTE}"
    )


def show_lessons(report: LessonReport | None) -> None:
    st.subheader("What this play shows", help=term_help("similar-worlds"))
    if report is None:
        st.caption("The lessons were not checked for this play.")
        return
    if not report.shown:
        st.caption("No lesson's counterfactual moved this play's outcome beyond noise.")
    groups = grouped(report.shown)
    seen: set[str] = set()
    for title, findings in groups[:TOP_LESSONS]:
        st.markdown(_lesson(title, findings, seen))
    if len(groups) > TOP_LESSONS:
        rest = groups[TOP_LESSONS:]
        with st.expander(f"{len(rest)} more lessons that moved this play (smaller effects)"):
            for title, findings in rest:
                st.markdown(_lesson(title, findings, seen))
    st.caption(rule(report))
    with st.expander(f"Every lesson's counterfactual in figures ({len(report.findings)} checked)"):
        st.dataframe(
            findings_table(report.findings),
            hide_index=True,
            width="stretch",
            column_config={
                "counterfactual": st.column_config.TextColumn(width="medium"),
                "verdict": st.column_config.TextColumn(width="medium"),
            },
        )
        if report.skipped:
            st.caption(
                "Not applicable here: "
                + "; ".join(f"{iv.replace('_', ' ')} ({why})" for iv, _, why in report.skipped)
                + "."
            )
    quiet = report.unmoved
    if quiet:
        with st.expander(f"Checked, no measurable effect here ({len(quiet)})"):
            st.markdown("\n".join(f"- {_text(f.label)} ({f.verdict})." for f in quiet))
