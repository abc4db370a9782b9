"""What ``audit`` prints: a table of practices, the free lunches, and the cliffs found."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sim import format as fmt
from sim.audit import FREE_LUNCH, AuditReport, PracticeResult, chosen_by
from sim.audit.practices import practices
from sim.cli.common import UserError, stderr, stdout, table
from sim.cli.runs import check_worlds
from sim.metrics import BY_KEY
from sim.scenario.problems import suggestion
from sim.scenario.spec import Scenario


def check_options(reps: int, sweep_reps: int | None) -> None:
    check_worlds(reps, "the audit's comparisons")
    if sweep_reps is not None and sweep_reps < 2:
        raise UserError(f"--sweep-reps {sweep_reps}: needs at least 2 worlds a point")


def check_only(scenario: Scenario, only: Sequence[str]) -> None:
    """Every ``--only`` names a practice of this scenario (an id, or a family: ``gate:``)."""
    ids = [p.id for p in practices(scenario)]
    for o in only:
        if not any(chosen_by(o, i) for i in ids):
            raise UserError(f"--only {o!r}: no such practice; " + suggestion(o, ids, "practices"))


def progress_line(what: str, done: int, total: int) -> None:
    stderr.print(f"[{done}/{total}] {what}", highlight=False)


def _signed(metric: str, value: float) -> str:
    """A change in ``metric``'s unit: dollars, days, points of a chance, rounds, tokens."""
    unit = BY_KEY[metric].unit if metric in BY_KEY else "score"
    signed: dict[str, Callable[[float], str]] = {
        "USD": fmt.usd_signed, "days": fmt.days_signed, "probability": fmt.pp_signed,
        "score": fmt.points_signed,
    }  # fmt: skip
    return signed[unit](value) if unit in signed else f"{value:+,.2f}"


def _change(metric: str, r: dict[str, Any] | None) -> str:
    if r is None:
        return fmt.DASH
    return f"{_signed(metric, float(r['mean']))} ({r.get('verdict', '')})"


def _why(r: PracticeResult) -> str:
    names = lambda ms: ", ".join(BY_KEY[m].label if m in BY_KEY else m for m in ms)  # noqa: E731
    parts = []
    if r.gains:
        parts.append(f"removal better on {names(r.gains)}")
    if r.losses:
        parts.append(f"worse on {names(r.losses)}")
    return "; ".join(parts) or "nothing clear"


def print_report(report: AuditReport) -> None:
    rows = [
        (r.label, r.removal, r.verdict, _change("cost_usd", r.rows.get("cost_usd")),
         _change("schedule_days", r.rows.get("schedule_days")),
         _change("success", r.rows.get("success")),
         f"{r.scope['tokens_b_with']:,.0f}B / {r.scope['tokens_b_without']:,.0f}B",
         f"{r.scope['post_training_rounds_with']:.2f} / "
         f"{r.scope['post_training_rounds_without']:.2f}")
        for r in report.results
    ]  # fmt: skip
    table(
        f"{report.scenario}: each practice against its removal ({report.worlds} worlds, "
        f"seed {report.seed}; change = without minus with)",
        rows,
        ["Practice", "Removal", "Verdict", "Cost", "Schedule", "All objectives",
         "Tokens with / without", "Rounds with / without"],
        text_columns=3,
    )  # fmt: skip
    for s in report.skipped:
        stdout.print(f"Not audited: {s.id}: {s.why}", highlight=False)
    lunches = report.free_lunches
    for r in lunches:
        stdout.print(f"FREE LUNCH: {r.label} — {r.removal}: {_why(r)}.", highlight=False)
    if report.cliffs:
        table(
            f"Cliffs and reversals ({report.sweep_worlds} worlds a point)",
            [(c.lever, c.metric, c.kind, f"{c.start:g} → {c.end:g}",
              f"{_signed(c.metric, c.change)} [{_signed(c.metric, c.low)}, "
              f"{_signed(c.metric, c.high)}]", _signed(c.metric, c.neighbours).lstrip("+"),
              _signed(c.metric, c.typical).lstrip("+")) for c in report.cliffs],
            ["Lever", "Outcome", "Kind", "Step", "Change [95%]", "Neighbours", "Median step"],
            text_columns=4,
        )  # fmt: skip
    elif report.sweeps:
        stdout.print(f"No cliff: {len(report.sweeps)} levers swept.", highlight=False)
    c = report.counts
    stdout.print(
        f"{len(report.results)} practices: {c.get('pays', 0)} pay, {c.get('trade-off', 0)} "
        f"trade-offs, {c.get(FREE_LUNCH, 0)} free lunches, {c.get('inert', 0)} inert, "
        f"{c.get('not settled', 0)} not settled; {c.get('cliffs', 0)} cliffs, "
        f"{c.get('reversals', 0)} reversals.",
        highlight=False,
    )
