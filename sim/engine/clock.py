"""A play's SimPy environment: it counts the model's events and bounds settled stretches.

The training run settles its steps and interruptions without a SimPy event each while
nothing else can happen before them (:meth:`PlayEnvironment.settle_window`): every other
process's next event is in the queue, so a stretch that ends before the earliest of them
changes nothing anyone else can see. The arithmetic of a settled step is the one its
event would have run, on the same clock values, so every number is the same; the settled
steps still count in :attr:`PlayEnvironment.events_processed`, so a saved play's inject,
recorded at an event count, lands where it did. docs/model.md, "Speed".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from heapq import heappush
from typing import Any

import simpy
from simpy.core import BoundClass
from simpy.events import NORMAL

from sim.units import Days

#: The event limit of a driver that sets none (an int, so settled steps count exactly).
NO_EVENT_LIMIT = 2**62


class PlayEnvironment(simpy.Environment):
    """A SimPy environment that counts the model's events and lets the run settle stretches.

    A stretch is settled only inside :meth:`run` (nobody looks between its events), or
    inside :meth:`settling` (a driver that steps the play and looks between steps says up
    to which day and event count it will not look). Stepped by hand, every step of the
    run is a SimPy event, as before.
    """

    def __init__(self, initial_time: Days = 0.0) -> None:  # a float, as compiled code keeps it
        super().__init__(initial_time)
        # SimPy binds env.timeout, env.process, ... to the instance, but only those its
        # own class defines, which a subclass's are not: bind the inherited ones too.
        for name, attr in vars(simpy.Environment).items():
            if isinstance(attr, BoundClass):
                setattr(self, name, getattr(self, name))
        #: The model's events: SimPy's, and the run's steps settled without one.
        self.events_processed = 0
        #: The part of ``events_processed`` settled without a SimPy event.
        self.events_settled = 0
        self._settle = False
        self._until_day: Days = math.inf
        self._until_event = NO_EVENT_LIMIT

    def step(self) -> None:
        self.events_processed += 1
        super().step()

    def run(self, until: Any = None) -> Any:
        """SimPy's ``run``; the run settles stretches meanwhile (nobody looks in between)."""
        was = self._settle
        self._settle = True
        try:
            return super().run(until)
        finally:
            self._settle = was

    @contextmanager
    def settling(self, until_day: Days = math.inf, until_event: float = math.inf) -> Iterator[None]:
        """Let the run settle while a driver steps, up to the driver's limits.

        No settled event after ``until_day`` and none past the ``until_event``-th, so the
        driver sees every state it stops at as the event-by-event play would show it.
        """
        saved = self._settle, self._until_day, self._until_event
        self._settle, self._until_day = True, until_day
        self._until_event = int(until_event) if until_event < NO_EVENT_LIMIT else NO_EVENT_LIMIT
        try:
            yield
        finally:
            self._settle, self._until_day, self._until_event = saved

    def settle_window(self) -> tuple[Days, Days, int]:
        """``(horizon, limit, events)``: how far the run may settle from now.

        An event may be settled if it falls before ``horizon`` (the next event of any
        other process, or ``limit``) and ``events`` (settled events left before a driver's
        event limit) is positive. An event at ``limit`` or later, or past the event
        budget, must be a SimPy event, and so must the event before it: a driver stops
        there and reads the clock.
        """
        if not self._settle:
            return -math.inf, -math.inf, 0
        limit = math.nextafter(self._until_day, math.inf)
        return min(self.peek(), limit), limit, self._until_event - self.events_processed - 1

    def count_settled(self, events: int) -> None:
        """``events`` steps of the model happened without a SimPy event."""
        self.events_processed += events
        self.events_settled += events

    def look_at(self, day: Days) -> None:
        """Bring the clock to ``day`` for a driver that looks there, when no event comes first.

        Nothing happens in between, so no number moves; the clock's own event is not one
        of the model's (``events_processed`` does not count it), so a saved play's injects,
        recorded at event counts, land where they did.
        """
        if self.now < day < self.peek():
            Arrival(self, day)
            super().step()

    def schedule_at(self, event: simpy.Event, day: Days) -> None:
        """Queue ``event`` at ``day`` itself (SimPy's ``schedule`` takes a delay from now)."""
        if day < self.now:
            raise ValueError(f"day {day} is before now ({self.now})")
        heappush(self._queue, (day, NORMAL, next(self._eid), event))


def timeout_at(env: simpy.Environment, day: Days) -> simpy.Event:
    """An event of ``env`` that fires exactly at ``day``, not at ``now + (day - now)`` rounded.

    SimPy schedules at ``now + delay``; the delay is nudged by ulps until that sum is
    ``day`` itself, so a stretch settled on the run's own clock ends on the same float.
    When no delay rounds to ``day`` (a tie in the last bit), a :class:`PlayEnvironment`
    queues an :class:`Arrival` at ``day`` directly; only it settles stretches.
    """
    now = env.now
    delay = day - now
    while now + delay < day:
        delay = math.nextafter(delay, math.inf)
    while delay > 0 and now + delay > day:
        delay = math.nextafter(delay, -math.inf)
    if now + delay == day:
        return env.timeout(delay)
    if isinstance(env, PlayEnvironment):
        return Arrival(env, day)
    raise ValueError(f"no delay from {now!r} rounds to {day!r}")


class Arrival(simpy.Event):
    """An event that fires at ``day`` exactly, triggered when made (as a timeout is)."""

    def __init__(self, env: PlayEnvironment, day: Days) -> None:
        super().__init__(env)
        self._ok = True
        self._value = None
        env.schedule_at(self, day)


def _settles_nothing() -> tuple[Days, Days, int]:
    """The settle window of a plain SimPy environment: every step is a SimPy event."""
    return -math.inf, -math.inf, 0


def _uncounted(events: int) -> None:
    """A plain SimPy environment counts no settled events."""


class Stretch:
    """A process's own clock while it settles steps nobody else can see.

    A step ending at ``t`` may be settled without a SimPy event when ``t < horizon`` and
    ``budget > 0``; the process then takes one from ``budget`` and moves its own clock to
    ``t`` (inlined by the run, its hottest lines). Otherwise ``wait(now, dt)`` is the SimPy
    event that takes it there. ``level(now)`` brings the environment's clock level with
    the process's before anything that reads it. Settled steps are counted as events
    when the process next waits. On a plain SimPy environment nothing is settled.
    """

    __slots__ = ("_count", "_start", "_window", "budget", "env", "horizon", "limit")

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self._window: Callable[[], tuple[Days, Days, int]] = getattr(
            env, "settle_window", _settles_nothing
        )
        self._count: Callable[[int], None] = getattr(env, "count_settled", _uncounted)
        self.horizon: Days = -math.inf
        self.limit: Days = -math.inf
        #: Steps the process may still settle; ``_start`` of them when it was last level.
        self.budget = self._start = 0
        self.level_again()

    def wait(self, now: Days, dt: Days) -> Iterator[simpy.Event]:
        """The SimPy event of a step from ``now`` (the process's clock) to ``now + dt``.

        The steps settled before it are counted; the last of them is taken as a SimPy
        event itself when this step crosses a driver's limit (the driver stops at that
        one and reads the clock).
        """
        env, settled = self.env, self._start - self.budget
        if not settled:
            yield env.timeout(dt)  # the clock is level with ``now``
        elif now + dt >= self.limit or self.budget <= 0:
            self._count(settled - 1)
            yield timeout_at(env, now)
            yield env.timeout(dt)
        else:
            self._count(settled)
            yield timeout_at(env, now + dt)
        self.level_again()

    def level(self, now: Days) -> Iterator[simpy.Event]:
        """Bring the environment's clock to ``now``: the last settled step as a SimPy event."""
        settled = self._start - self.budget
        if settled:
            self._count(settled - 1)
            yield timeout_at(self.env, now)
            self.level_again()

    def level_again(self) -> None:
        """The clock is level with the process's (after a SimPy event): read the window anew."""
        self.horizon, self.limit, self.budget = self._window()
        self._start = self.budget
