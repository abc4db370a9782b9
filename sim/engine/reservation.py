"""The cluster's bill: a reservation paid every day from its start to its end, or jobs on demand.

With ``cluster.billing: reserved`` the cluster is reserved when the ablations start and
paid every day, idle days included, until post-training ends; meanwhile compute jobs
cost nothing more. On demand, each job pays its own bill. docs/model.md, "Budget as a
plan".
"""

from __future__ import annotations

import simpy

from sim.engine.plan import Plan
from sim.engine.recording import Recording
from sim.engine.records import Ledger
from sim.units import Days, Usd


class Reservation:
    """A play's reserved cluster (if its scenario reserves one) and its compute bills."""

    __slots__ = ("_env", "_ledger", "_plan", "_recording", "ended", "paid_to", "reserved", "start")

    def __init__(
        self,
        reserved: bool,
        env: simpy.Environment,
        ledger: Ledger,
        plan: Plan,
        recording: Recording,
    ) -> None:
        #: Whether the scenario reserves its cluster (``cluster.billing``).
        self.reserved = reserved
        #: Day the reservation began (None: not yet, or never).
        self.start: Days | None = None
        #: Day up to which the reservation is in the ledger.
        self.paid_to: Days = 0.0
        self.ended = False
        self._env, self._ledger, self._plan, self._recording = env, ledger, plan, recording

    def active(self) -> bool:
        """Whether a reservation pays for the cluster now (jobs then cost nothing more)."""
        return self.start is not None and not self.ended

    def holds(self) -> bool:
        """Whether a reservation pays for the cluster from now on (reserved and not ended)."""
        return self.reserved and not self.ended

    def unpaid_days(self) -> Days:
        """Days since the reservation was last charged (0 when none pays now)."""
        return self._env.now - self.paid_to if self.active() else 0.0

    def begin(self) -> None:
        """Reserve the cluster now, if the scenario reserves it and it is not reserved yet."""
        if self.reserved and self.start is None:
            self.start = self.paid_to = self._env.now
            self._recording.trace_event(
                "reservation", f"Cluster reserved: {self._plan.gpus:,} GPUs, paid every day"
            )

    def pay(self) -> None:
        """Charge the reserved cluster up to now, idle days included."""
        if not self.active():
            return
        now = self._env.now
        days = now - self.paid_to
        self._ledger.charge(
            now,
            "compute",
            days * self._plan.run_facts.usd_per_day,
            "reserved cluster",
            "reserved_cluster",
        )
        self.paid_to = now

    def end(self) -> None:
        if self.active():
            self.pay()
            self.ended = True
            self._recording.trace_event("reservation", "Cluster reservation ends")

    def charge_compute(self, usd: Usd, note: str, line: str) -> None:
        """An on-demand compute job's bill; nothing more while a reservation pays."""
        if not self.active():
            self._ledger.charge(self._env.now, "compute", usd, note, line)
