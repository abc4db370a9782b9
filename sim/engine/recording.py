"""What a play records as it goes: its trace, decisions, incidents, phases and critical path.

The entries are the flat records of :mod:`sim.engine.records`; a :class:`Recording` keeps
them in order, and the budget plan takes out and copies in what its set-up fit recorded
(made once per scenario, copied into every replication). docs/model.md, "What is
recorded".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import simpy

from sim.engine.records import DecisionRecord, PhaseSpan, TraceEvent
from sim.scenario.spec import PHASES, Workstream
from sim.scenario.vocabulary import sentence, words
from sim.units import Days, TeamId

#: Where a recording stands: its trace's length and its incident counts (:meth:`Recording.mark`).
RecordMark = tuple[int, Counter[str]]


class Recording:
    """What a play records as it goes: its trace, decisions, incidents, phases and critical path."""

    __slots__ = (
        "_decided",
        "_env",
        "critical_handoffs",
        "critical_teams",
        "decisions",
        "finished_at",
        "incidents",
        "phase",
        "phase_spans",
        "review_days",
        "phase_start",
        "trace",
    )

    def __init__(self, env: simpy.Environment) -> None:
        self._env = env
        self.trace: list[TraceEvent] = []
        self.decisions: list[DecisionRecord] = []
        #: How many of ``decisions`` are of each kind (what names a decision's key).
        self._decided: Counter[str] = Counter()
        self.incidents: Counter[str] = Counter()
        #: The phase under way ("setup" before the first, "done" after the last).
        self.phase = "setup"
        #: Day the current phase began.
        self.phase_start: Days = 0.0
        self.phase_spans: list[PhaseSpan] = []
        #: Day each workstream finished.
        self.finished_at: dict[str, float] = {}
        #: Teams and handoffs on the chain of work that set a phase's end (criticality index).
        self.critical_teams: set[TeamId] = set()
        self.critical_handoffs: set[tuple[TeamId, TeamId]] = set()
        #: Calendar days each gate's review took, beside its phase's work.
        self.review_days: dict[str, Days] = {}

    def trace_event(
        self, kind: str, summary: str, team: str | None = None, data: dict[str, Any] | None = None
    ) -> None:
        self.trace.append(TraceEvent(self._env.now, kind, summary, team, data or {}))

    def count_incident(self, kind: str) -> None:
        self.incidents[kind] += 1

    def add_decision(self, record: DecisionRecord) -> None:
        self.decisions.append(record)
        self._decided[record.kind] += 1

    def decided(self, kind: str) -> int:
        """How many decisions of ``kind`` are recorded so far."""
        return self._decided[kind]

    def enter_phase(self, phase: str) -> None:
        """Close the current phase's span and begin ``phase`` now."""
        now = self._env.now
        if self.phase in PHASES:
            self.phase_spans.append(PhaseSpan(self.phase, self.phase_start, now))
        self.phase, self.phase_start = phase, now
        self.trace_event("phase", f"{sentence(words(phase))} begins")

    def work_finished(self, work_id: str) -> None:
        self.finished_at[work_id] = self._env.now

    def note_critical_chain(
        self,
        phase: str,
        ws: list[Workstream],
        by_id: dict[str, Workstream],
        ended: dict[str, float],
        extra_teams: dict[str, TeamId],
    ) -> None:
        """Note which chain of a phase's work set its end: the last to finish, back upstream.

        ``ended``: the day each of the phase's built-in activities ended, by label;
        ``extra_teams``: the team of each.
        """
        finished_at = self.finished_at
        last_ws = max(ws, key=lambda w: finished_at[w.id], default=None)
        last_extra = max(ended, key=lambda k: ended[k], default=None)
        ws_end = finished_at[last_ws.id] if last_ws else -1.0
        if last_extra is not None and ended[last_extra] >= ws_end:
            self.critical_teams.add(extra_teams[last_extra])
            self.trace_event("critical", f"{sentence(words(phase))}: the {last_extra} set the pace")
            return
        w = last_ws
        in_phase = {x.id for x in ws}
        while w is not None:
            self.critical_teams.add(w.owner)
            deps = [by_id[d] for d in w.depends_on if d in in_phase and d in finished_at]
            up = max(deps, key=lambda d: finished_at[d.id], default=None)
            if up is not None and up.owner != w.owner:
                self.critical_handoffs.add((up.owner, w.owner))
            w = up

    # --- what a step of the play recorded, taken out and copied in ----------------------------

    def mark(self) -> RecordMark:
        """Where the record stands now (:meth:`take_since` returns what came after)."""
        return len(self.trace), Counter(self.incidents)

    def take_since(
        self, mark: RecordMark
    ) -> tuple[tuple[TraceEvent, ...], tuple[tuple[str, int], ...]]:
        """Remove the trace entries and incident counts recorded since ``mark``; return them."""
        length, counts = mark
        trace = tuple(self.trace[length:])
        incidents = tuple((self.incidents - counts).items())
        del self.trace[length:]
        self.incidents.clear()
        self.incidents.update(counts)
        return trace, incidents

    def copy_in(
        self, trace: tuple[TraceEvent, ...], incidents: tuple[tuple[str, int], ...]
    ) -> None:
        """Add copies of ``trace`` and the ``incidents`` counts (another play's, made alike)."""
        for e in trace:
            self.trace.append(TraceEvent(e.day, e.kind, e.summary, e.team, dict(e.data)))
        for kind, n in incidents:
            self.incidents[kind] += n
