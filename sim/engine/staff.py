"""A play's teams at work: pieces of work paced by their team, forecasts of work, salaries.

Each team shares its people over the work it has on hand (:mod:`sim.engine.teams`); a
piece of work keeps its pace until its team changes, which wakes it to read the pace
again. People without a task of their own make uncoordinated changes that may force
rework. docs/model.md, "Teams".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from typing import Any

import simpy

from sim.engine.facts import ScenarioFacts
from sim.engine.recording import Recording
from sim.engine.records import Ledger
from sim.engine.rng import Streams
from sim.engine.teams import (
    RAMP_DAYS,
    TeamState,
    output_on,
    seniority_factor,
    watching,
    work_item,
)
from sim.scenario.spec import ROLE_CO_DESIGN, Scenario
from sim.scenario.vocabulary import sentence, work_words
from sim.units import Days, PersonDays, TeamId, Usd

#: Longest step of a workstream before its team's pace is read again while newcomers ramp up
#: (or while the team has nobody).
WORK_STEP_DAYS = 2.0
#: Share of the upstream effort redone on rework (and of a work item's own, on noise rework).
REWORK_SHARE = 0.15
#: Person-days of people on a team's work without a task of their own ("doing stuff") per
#: uncoordinated change that forces rework, on average.
NOISE_PERSON_DAYS = 150.0
#: Below this many person-days a day a team is treated as empty in forecasts.
MIN_FORECAST_RATE = 1e-6


class Staff:
    """The teams of one play, the work they have on hand, and their salaries."""

    def __init__(
        self,
        s: Scenario,
        facts: ScenarioFacts,
        env: simpy.Environment,
        streams: Streams,
        ledger: Ledger,
        recording: Recording,
    ) -> None:
        self._env, self._streams, self._ledger, self._recording = env, streams, ledger, recording
        #: Whether draws (noise rework) happen at all (``incidents.variability``).
        self._variability = s.incidents.variability
        #: Days before a departed person's replacement joins (forecasts of an empty team).
        self._replacement_days = s.incidents.departures.replacement_days
        self._salary_notes = facts.salary_notes
        # Co-design teams split their people over the variants; the flagship gets 1 / v.
        attention = 1.0 / s.levers.parallel_variants
        # In the order of their ids, so every sum over teams (salaries, effort) is the same
        # whatever the order of the scenario's list (common random numbers by identity).
        self.teams = {
            t.id: TeamState(
                t,
                attention=attention if t.id in facts.org.core else 1.0,
                watching=watching(len(facts.org.risks_owned_by(t.id))),
            )
            for t in sorted(s.org.teams, key=lambda t: t.id)
        }
        #: The processes whose work waits on each team's pace (woken when the team changes).
        self._paced: dict[TeamId, list[simpy.Process]] = {tid: [] for tid in self.teams}
        #: Counts every change of any team's people: what is read off them below is kept
        #: while it holds (``_people_read``, ``_payroll``).
        self._changes = 0
        self._people_read: dict[tuple[TeamId, ...] | None, tuple[Any, Days | None]] = {}
        self._payroll: Usd | None = None
        self._people_read_at = 0
        for tid, team in self.teams.items():
            team.on_change = self._waker(tid)
            team.on_people = self._people_moved
        #: Forecast days of work at today's pace, for the moment ``_work_days_at``.
        self._work_days: dict[tuple[TeamId, int, float, float], Days] = {}
        self._work_days_at: Days = -1.0
        #: The same for teams with nobody ramping up, whose pace holds while their version does.
        self._steady_work_days: dict[tuple[TeamId, int, float, float], Days] = {}
        #: Forecast days of a phase's work (sim/engine/forecast.py), by the phase, the plan's
        #: evaluation scope and the versions of the teams that do it (none ramping up).
        self.phase_days: dict[tuple[str, float, tuple[int, ...]], Days] = {}
        #: Forecast days of the phases from one on, in order (forecast.phases_work_days), by
        #: the first, the plan's evaluation scope and the staff's :meth:`version`.
        self.phases_days: dict[tuple[int, float, int], tuple[Days, ...]] = {}
        #: The same two while one of the teams ramps up, for the moment ``_phase_days_at``.
        self._phase_days_now: dict[tuple[str, float, tuple[int, ...]], Days] = {}
        self._phases_days_now: dict[tuple[int, float, int], tuple[Days, ...]] = {}
        self._phase_days_at: Days = -1.0
        #: Pieces of work each team has started (names the noise draw of unnamed work).
        self._work_count: dict[TeamId, int] = {}
        #: Day up to which salaries are in the ledger.
        self.charged_to: Days = 0.0

    def work(
        self,
        team_id: TeamId,
        effort: PersonDays,
        co_design: float = ROLE_CO_DESIGN["general"],
        key: str | None = None,
    ) -> Generator[simpy.Event, Any, None]:
        """Do ``effort`` person-days of work needing ``co_design`` with ``team_id``'s people.

        The team shares its people over the work it has on hand (sim/engine/teams.py). The
        pace holds until the team changes (work taken or finished, a join, a departure),
        which wakes the work to read it again; while a newcomer ramps up it is read every
        ``WORK_STEP_DAYS`` at most (at the start of each step, as before). People
        without a task of their own meanwhile make uncoordinated changes: when the work is
        done, the chance that one forces rework is ``1 - exp(-surplus person-days /
        NOISE_PERSON_DAYS)``, drawn from the work's own stream (``key``: its id).
        """
        team = self.teams[team_id]
        env = self._env
        rate_of, timeout, paced = team.rate, env.timeout, self._paced[team_id]
        item = work_item(effort, co_design)
        team.take(item, env.now)
        surplus_at_start = team.surplus_person_days(env.now)
        remaining, reworked = effort, False
        me = env.active_process
        if me is None:
            raise RuntimeError("work runs inside a SimPy process")
        try:
            while remaining > 1e-9:
                start = env.now
                rate = rate_of(item, start)
                if rate <= 0:
                    dt = WORK_STEP_DAYS  # nobody to do it: look again later
                elif team.ramping(start):
                    dt = min(WORK_STEP_DAYS, remaining / rate)  # the pace grows day by day
                else:
                    dt = remaining / rate  # a steady pace until the team changes
                paced.append(me)
                try:
                    yield timeout(dt)
                    done = rate * dt
                except simpy.Interrupt:  # the team changed: the pace so far, then again
                    done = rate * (env.now - start)
                finally:
                    if me in paced:
                        paced.remove(me)
                remaining = remaining - done if done < remaining - 1e-9 else 0.0
                if remaining <= 0.0 and not reworked:
                    reworked = True
                    noise = team.surplus_person_days(env.now) - surplus_at_start
                    if noise > 0 and self._noise_reworks(team_id, key, noise):
                        remaining += REWORK_SHARE * effort
        finally:
            team.drop(item, env.now)

    def _waker(self, tid: TeamId) -> Callable[[], None]:
        """What ``tid`` calls when it changes: its waiting work reads its pace again."""
        paced = self._paced[tid]

        def wake() -> None:
            me = self._env.active_process
            for proc in [p for p in paced if p is not me]:
                paced.remove(proc)
                if proc.is_alive:
                    proc.interrupt("the team changed")

        return wake

    def _noise_reworks(self, team_id: TeamId, key: str | None, noise: PersonDays) -> bool:
        """Whether ``noise`` person-days of people without a task forced rework on the work.

        A draw, so never without variability (as handoff rework).
        """
        if not self._variability:
            return False
        n = self._work_count[team_id] = self._work_count.get(team_id, 0) + 1
        u = self._streams.entity_uniform("noise", key or f"{team_id}#{n}")
        if u >= 1.0 - math.exp(-noise / NOISE_PERSON_DAYS):
            return False
        self._recording.count_incident("noise_rework")
        self._recording.trace_event(
            "rework",
            f"{sentence(work_words(key or team_id))}: uncoordinated changes by people without "
            "a task forced rework",
            team_id,
        )
        return True

    def versions(self, team_ids: tuple[TeamId, ...]) -> tuple[tuple[int, ...], bool]:
        """The teams' versions, and whether a newcomer on one of them is still ramping up.

        A forecast that reads only these teams' paces holds while their versions do, or,
        while one ramps up (its pace moves day by day), for the moment only (as
        :meth:`work_days`' answers do). A newcomer whose ramp-up is over works at a full
        head's pace from then on (``TeamState.productive_share``), so the pace holds again.
        """
        versions, newest = self._read_people(team_ids)
        return versions, newest is not None and self._env.now - newest < RAMP_DAYS

    def version(self) -> tuple[int, bool]:
        """The sum of every team's version, and whether a newcomer is ramping up.

        A team's version only grows, so the sum moves whenever any team's people change: a
        forecast that reads only the teams' paces holds while it does not, or, while one
        ramps up, for the moment only (as :meth:`versions`' answers do).
        """
        total, newest = self._read_people(None)
        return total, newest is not None and self._env.now - newest < RAMP_DAYS

    def _read_people(self, team_ids: tuple[TeamId, ...] | None) -> tuple[Any, Days | None]:
        """The versions of ``team_ids`` (None: their sum over every team) and their newest newcomer.

        The newest newcomer's join day is None when there is none; both are kept until a
        team's people change. Someone ramps up exactly when the newest newcomer does:
        ``now - d`` is smallest for the largest ``d`` (subtraction rounds monotonically),
        as ``TeamState.ramping`` reads.
        """
        self._forget_changed()
        known = self._people_read.get(team_ids)
        if known is not None:
            return known
        teams = self.teams
        chosen = teams.values() if team_ids is None else [teams[t] for t in team_ids]
        joins = [max(t.newcomers) for t in chosen if t.newcomers]
        newest = max(joins) if joins else None
        versions = [t.version for t in chosen]
        read = (sum(versions) if team_ids is None else tuple(versions)), newest
        self._people_read[team_ids] = read
        return read

    def payroll_per_day(self) -> Usd:
        """What every team's people cost a day, kept until a team's people change.

        :meth:`salaries_per_day`, summed as the budget forecast sums it.
        """
        self._forget_changed()
        per_day = self._payroll
        if per_day is None:
            per_day = 0.0
            for t in self.teams.values():
                per_day += (t.veterans + len(t.newcomers)) * t.spec.usd_per_person_day
            self._payroll = per_day
        return per_day

    def _people_moved(self) -> None:
        """A team's people changed (``TeamState.on_people``)."""
        self._changes += 1

    def _forget_changed(self) -> None:
        """Forget what was read off the teams' people if a team has changed since."""
        if self._people_read_at != self._changes:
            self._people_read.clear()
            self._payroll = None
            self._people_read_at = self._changes

    def phase_memo(self, ramping: bool) -> dict[tuple[str, float, tuple[int, ...]], Days]:
        """Where forecasts of a phase's days are kept: for good, or for this moment only."""
        if not ramping:
            return self.phase_days
        self._new_moment()
        return self._phase_days_now

    def phases_memo(self, ramping: bool) -> dict[tuple[int, float, int], tuple[Days, ...]]:
        """Where forecasts of the phases still to come are kept: for good, or for the moment."""
        if not ramping:
            return self.phases_days
        self._new_moment()
        return self._phases_days_now

    def _new_moment(self) -> None:
        """Forget the forecasts kept for an earlier moment (while someone ramps up)."""
        now = self._env.now
        if self._phase_days_at != now:
            self._phase_days_now.clear()
            self._phases_days_now.clear()
            self._phase_days_at = now

    def work_days(self, team_id: TeamId, effort: PersonDays, co_design: float) -> Days:
        """Rough days for ``team_id`` to do ``effort`` of work alone at today's pace (forecasts)."""
        team = self.teams[team_id]
        now = self._env.now
        # Forecasts price many plans at one moment: the same question, the same answer. A
        # team whose newcomers (if any) are done ramping up keeps its pace until its people
        # change (its version), so the answer holds across moments; while one ramps up,
        # only for the moment.
        key = (team_id, team.version, effort, co_design)
        if team.ramping(now):
            if self._work_days_at != now:
                self._work_days.clear()
                self._work_days_at = now
            memo = self._work_days
        else:
            memo = self._steady_work_days
        known = memo.get(key)
        if known is not None:
            return known
        days = memo[key] = self.solo_work_days(team, effort, co_design, now)
        return days

    def solo_work_days(
        self, team: TeamState, effort: PersonDays, co_design: float, now: Days
    ) -> Days:
        """:meth:`work_days` worked out afresh (no forecast kept)."""
        item = work_item(effort, co_design)
        rate = team.solo_rate(item, now)
        if rate > MIN_FORECAST_RATE:
            if not team.ramping(now):
                return effort / rate
            # Today's pace of a team whose newcomers are still ramping understates it: a
            # newcomer on day one does almost nothing, and effort / rate forecast rounds of
            # a thousand days. Take the sooner of today's pace and waiting for the ramp-ups
            # to finish, then the settled pace.
            settle = max(d + RAMP_DAYS for d in team.newcomers) - now
            settled = team.solo_rate(item, now + settle)
            return min(effort / rate, settle + effort / max(settled, MIN_FORECAST_RATE))
        # Nobody on the team now (a departure not yet replaced): the work waits for the
        # replacement, then goes at one settled person's pace.
        one = output_on(1.0, item, seniority_factor(team.spec.seniority))
        return self._replacement_days + effort / max(one, MIN_FORECAST_RATE)

    def salaries_per_day(self) -> Usd:
        """What every team's people cost a day, at today's headcounts."""
        return sum(t.headcount * t.spec.usd_per_person_day for t in self.teams.values())

    def charge_salaries(self) -> None:
        """Bring every team's salaries up to now in the ledger."""
        now = self._env.now
        notes = self._salary_notes
        charge = self._ledger.charge
        for tid, team in self.teams.items():
            charge(now, "people", team.cost_usd(team.accrue_person_days(now)), notes[tid])
        self.charged_to = now
