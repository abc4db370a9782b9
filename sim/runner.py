"""Monte Carlo: replications fanned out over any ``concurrent.futures`` executor.

A replication is a plain top-level function ``(scenario, seed, rep) -> row``, so
a process pool and a Dask cluster run the same code. Replication *k* of every
design uses the same named random streams (common random numbers), and results
are ordered by replication, so the numbers do not depend on the executor or the
number of workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import hashlib
import logging
import math
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, Literal

import numpy as np
import pandas as pd

from sim.engine.decisions import Decider
from sim.engine.model import ProjectModel
from sim.engine.outcome import outcome_row
from sim.scenario.spec import Scenario

ExecutorName = Literal["local", "dask"]
Progress = Callable[[int, int], None]


def replicate(
    scenario: Scenario, seed: int, rep: int, policy: str | Decider = "playbook"
) -> dict[str, Any]:
    """Play replication ``rep`` of ``scenario`` to the end and return its outcome row.

    ``policy`` is a policy's name or a (picklable, stateless) decider.
    """
    model = ProjectModel(scenario, seed=seed, replication=rep, decider=policy, observed=False)
    model.env.run()
    row = outcome_row(model)
    row["rep"] = rep
    return row


def replicate_batch(
    scenario: Scenario, seed: int, reps: Sequence[int], policy: str | Decider = "playbook"
) -> list[dict[str, Any]]:
    """Several replications in one task (fewer round trips to the workers)."""
    return [replicate(scenario, seed, r, policy) for r in reps]


#: The most replications in one task (so the progress bar moves every second or so).
CHUNK_MAX = 100
#: The fewest in one task: a task's own cost (sending the scenario, making its frame) is
#: about half a replication's.
CHUNK_MIN = 4
#: Each task takes at most this share of what is left, per worker: tasks grow smaller
#: towards the end, so the workers finish together (guided self-scheduling).
CHUNK_SHARE = 0.5


def _chunks(reps: int, workers: int, designs: int = 1) -> list[list[list[int]]]:
    """Replication batches of each design (indices into its ``reps``), in the order queued.

    Guided self-scheduling: a task takes ``CHUNK_SHARE`` of the work still queued (over all
    designs) per worker, between ``CHUNK_MIN`` and ``CHUNK_MAX`` replications, so the first
    tasks are large (little overhead) and the last small (no worker waits long for another
    at the end). Serially (one worker) an eighth of the whole, so progress moves. Batches only
    group work; results are ordered by replication, so they never change the numbers.
    """
    out: list[list[list[int]]] = []
    left = reps * designs
    for _ in range(designs):
        batches, i = [], 0
        while i < reps:
            share = reps * designs / 8 if workers <= 1 else left * CHUNK_SHARE / workers
            size = max(CHUNK_MIN, min(CHUNK_MAX, math.ceil(share)))
            size = min(size, reps - i)
            batches.append(list(range(i, i + size)))
            i += size
            left -= size
        out.append(batches)
    return out


def _quiet_loggers(*roots: str) -> None:
    """Show nothing below CRITICAL from these loggers and every child that exists."""
    names = [
        name
        for name in list(logging.root.manager.loggerDict)
        if any(name == root or name.startswith(root + ".") for root in roots)
    ]
    for name in {*roots, *names}:
        logging.getLogger(name).setLevel(logging.CRITICAL)


@contextlib.contextmanager
def open_executor(
    executor: ExecutorName, workers: int, scheduler: str | None = None
) -> Iterator[Executor | None]:
    """A ``concurrent.futures`` executor: None (serial), a process pool, or Dask.

    When the work inside fails or is interrupted (Ctrl-C), the queued tasks are cancelled
    and the workers stopped at once rather than left to finish what nobody will read.
    """
    if executor == "dask":
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - depends on the extra
            raise RuntimeError(
                "the dask executor needs the dask extra: pip install 'trainingroom[dask]'"
            ) from exc
        if scheduler:
            client = Client(scheduler, timeout="20s")
            cluster = None
        else:
            with _interrupts_deferred():  # its workers are born ignoring Ctrl-C
                cluster = LocalCluster(
                    n_workers=workers, threads_per_worker=1, dashboard_address=None,
                    processes=True,
                )  # fmt: skip
                client = Client(cluster)
        dask_pool = client.get_executor()
        try:
            yield dask_pool
        except BaseException:
            with _uninterrupted():
                # Cancelling the pending futures makes the event loop log each one's
                # FutureCancelledError with a traceback, and a result in flight "Couldn't
                # gather": expected here, so not shown. Dask's config gives some children
                # (distributed.client, ...) levels of their own: each is set, not the parent.
                _quiet_loggers("tornado.application", "distributed")
                dask_pool.shutdown(wait=False)  # cancels every pending future
                if cluster is not None:
                    _end_workers(cluster)
            raise
        finally:
            with _uninterrupted():
                client.close()
                if cluster is not None:
                    cluster.close()
    elif workers <= 1:
        yield None
    else:
        pool = WorkerPool(workers)
        try:
            yield pool
        except BaseException:
            with _uninterrupted():
                pool.stop()
            raise
        pool.shutdown()


def _end_workers(cluster: Any) -> None:
    """End a local Dask cluster's worker processes now, mid-task (results not wanted).

    Each nanny is told not to restart its worker, then the worker is killed.
    """
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # the kills are expected
    for nanny in list(cluster.workers.values()):
        nanny.close_gracefully(reason="interrupted")
        if nanny.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(nanny.pid, signal.SIGKILL)


#: ``prctl(PR_SET_PDEATHSIG, ...)``: Linux's request to be sent a signal when the parent dies.
_PR_SET_PDEATHSIG = 1


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to its parent, which stops it (so no worker prints a traceback).

    On Linux the worker also asks to be ended with its parent: a parent stopped by SIGTERM
    or SIGKILL (a CI step's time limit, ``kill``) runs no clean-up, and its workers would
    otherwise go on computing replications nobody reads.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            pass  # no prctl: the parent's own stop() is all there is


@contextlib.contextmanager
def _uninterrupted() -> Iterator[None]:
    """A second Ctrl-C does not cut the clean-up short (main thread only; restored after)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Processes started inside ignore Ctrl-C; one pressed meanwhile waits till they are up.

    An ignored signal survives ``exec``, so only this process sees Ctrl-C and stops them;
    a Ctrl-C pressed meanwhile is held (blocked) and acted on once they have started.
    Main thread only; elsewhere a no-op.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: Seconds a stopped pool's workers get to end before they are killed.
STOP_WAIT = 3.0
#: Set once a pool was stopped mid-task: the process must then exit without waiting.
stuck = False


class WorkerPool(ProcessPoolExecutor):
    """A process pool whose workers ignore Ctrl-C and can be stopped mid-task."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers, initializer=_ignore_interrupts)
        context = self._mp_context
        if context is not None and context.get_start_method() == "fork":
            # Start the workers now, with what this process holds frozen: a forked worker
            # shares its parent's pages until it writes to them, and its garbage collector
            # would write to every object it inherited (copying the parent page by page).
            gc.freeze()
            try:
                self.submit(int).result()
            finally:
                gc.unfreeze()

    def stop(self) -> None:
        """Cancel the queued tasks and end the workers now (their results are not wanted).

        A replication writes nothing, so ending its process loses only its own row.
        """
        global stuck
        processes = list((self._processes or {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=STOP_WAIT)
            if process.is_alive():
                process.kill()
        # The pool sees its workers gone, fails what was queued and ends its own thread.
        # A worker ended while it held the pool's queues can leave that thread, or the
        # queues' feeder threads that the interpreter joins at exit, waiting for ever: so
        # ``stuck`` tells the command line to exit at once after its last line (nothing is
        # half-written: results are written only at the end).
        stuck = True
        self.shutdown(wait=False, cancel_futures=True)


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def run_replications(
    scenario: Scenario,
    reps: int,
    seed: int = 0,
    *,
    workers: int = 1,
    executor: ExecutorName = "local",
    scheduler: str | None = None,
    policy: str | Decider = "playbook",
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Run ``reps`` replications; one row per replication, ordered by ``rep``."""
    return run_designs(
        {"design": scenario},
        reps,
        seed,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        policy=policy,
        progress=progress,
    )["design"]


def run_designs(
    designs: dict[str, Scenario],
    reps: int,
    seed: int = 0,
    *,
    workers: int = 1,
    executor: ExecutorName = "local",
    scheduler: str | None = None,
    policy: str | Decider = "playbook",
    progress: Progress | None = None,
) -> dict[str, pd.DataFrame]:
    """Every design through the same ``reps`` replications (common random numbers)."""
    if reps < 1:
        raise ValueError("reps must be at least 1")
    with open_executor(executor, workers, scheduler) as pool:
        return run_on(pool, designs, range(reps), seed, workers=workers, policy=policy,
                      progress=progress)  # fmt: skip


def run_on(
    pool: Executor | None,
    designs: Mapping[str, Scenario],
    reps: Sequence[int],
    seed: int = 0,
    *,
    workers: int = 1,
    policy: str | Decider = "playbook",
    progress: Progress | None = None,
) -> dict[str, pd.DataFrame]:
    """Replications ``reps`` of every design on an open executor (None: here, serially).

    A search keeps one executor open over its trials and runs a candidate's worlds in
    stages (first 0-9, then 10-29...); replication *k* is the same world in every call.
    """
    reps = list(reps)
    plan = dict(zip(designs, _chunks(len(reps), workers, len(designs)), strict=True))
    chunks = {name: [[reps[i] for i in batch] for batch in plan[name]] for name in designs}
    total = len(reps) * len(designs)
    tables = {name: Columns(reps) for name in designs}
    finished = 0
    if pool is None:
        for name, sc in designs.items():
            for chunk in chunks[name]:
                tables[name].add(replicate_frame(sc, seed, chunk, policy))
                finished += len(chunk)
                if progress:
                    progress(finished, total)
    else:
        futures: dict[Future[pd.DataFrame], str] = {}
        for name, sc in designs.items():
            packed = PackedScenario(sc)
            for chunk in chunks[name]:
                futures[pool.submit(replicate_packed, packed, seed, chunk, policy)] = name
        for fut in as_completed(list(futures)):
            batch = fut.result()
            name = futures.pop(fut)  # the future lets go of its result
            tables[name].add(batch)
            finished += len(batch)
            if progress:
                progress(finished, total)
    frames = {}
    for name in designs:
        frames[name] = tables.pop(name).frame()
    return {name: frames[name] for name in designs}


def replicate_frame(
    scenario: Scenario, seed: int, reps: Sequence[int], policy: str | Decider = "playbook"
) -> pd.DataFrame:
    """A batch of replications as a columnar chunk (made where it ran: small to send back).

    A world's row is a dict only while it is made; what is kept is a column per outcome,
    so a 100,000-world comparison holds numbers, not 100,000 Python dicts per design.
    """
    return pd.DataFrame.from_records(replicate_batch(scenario, seed, reps, policy))


class PackedScenario:
    """A scenario pickled once by the parent, with a digest a worker knows it by.

    A worker unpickles each scenario once and keeps it (:func:`replicate_packed`), so its
    later tasks reuse the scenario's facts (``scenario_facts`` keys them by identity)
    instead of rebuilding them for every task.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.blob = pickle.dumps(scenario, protocol=pickle.HIGHEST_PROTOCOL)
        self.key = hashlib.blake2b(self.blob, digest_size=16).digest()

    def scenario(self) -> Scenario:
        with _UNPACKED_LOCK:
            known = _UNPACKED.get(self.key)
            if known is None:
                if len(_UNPACKED) >= UNPACKED_KEPT:
                    _UNPACKED.pop(next(iter(_UNPACKED)))
                known = _UNPACKED[self.key] = pickle.loads(self.blob)
            return known


#: Scenarios a worker has unpickled, by digest (the oldest let go first).
_UNPACKED: dict[bytes, Scenario] = {}
UNPACKED_KEPT = 16
_UNPACKED_LOCK = threading.Lock()


def replicate_packed(
    packed: PackedScenario, seed: int, reps: Sequence[int], policy: str | Decider = "playbook"
) -> pd.DataFrame:
    """:func:`replicate_frame` of a :class:`PackedScenario` (what a worker runs)."""
    return replicate_frame(packed.scenario(), seed, reps, policy)


#: Outcome columns that count events (zero where a world had none, absent from its row).
COUNTED = ("incident:", "critical_handoff:")
#: Outcome columns that flag a world (True, absent from its row where not: NaN in a table).
FLAGGED = ("scope:",)


class Columns:
    """One design's replications as columns, filled chunk by chunk as they arrive.

    Each column is one NumPy array of all the worlds, made when the first chunk arrives
    and filled in place, so a 100,000-world comparison never holds its chunks and their
    join at once (the peak stays near one table per design). The table is the one
    :func:`_combined` makes of the same chunks (ordered by replication, columns in the
    order they first appear, counts last and zero where absent, flags True or NaN); a
    chunk whose other columns or types differ from the first's (never in a shipped
    scenario) turns the collector into a list of chunks joined by :func:`_combined`, so
    the result is the same either way (tests/test_runner_columns.py).
    """

    def __init__(self, reps: Sequence[int]) -> None:
        self._reps = list(reps)
        self._at = {rep: i for i, rep in enumerate(self._reps)}
        ordered = all(a < b for a, b in zip(self._reps, self._reps[1:], strict=False))
        self._kinds: dict[str, Any] | None = None  # the first chunk's plain columns, types
        self._data: dict[str, Any] = {}
        self._flags: dict[str, Any] = {}
        self._counts: dict[str, Any] = {}
        self._filled: dict[int, tuple[int, list[str]]] = {}  # start: stop, its columns
        self._parts: list[pd.DataFrame] | None = None if ordered else []

    def add(self, part: pd.DataFrame) -> None:
        """One chunk of worlds (rows in the order of their replications)."""
        if self._parts is None and not self._fits(part):
            self._parts = self._as_parts()
        if self._parts is not None:
            self._parts.append(part)
            return
        n = len(self._reps)
        start = self._at[int(part["rep"].iloc[0])]
        stop = start + len(part)
        for c, kind in (self._kinds or {}).items():
            self._data.setdefault(c, np.empty(n, dtype=kind))[start:stop] = part[c].to_numpy()
        for c in part.columns:
            if c.startswith(COUNTED):
                values = part[c].fillna(0).astype("int64").to_numpy()
                self._counts.setdefault(c, np.zeros(n, dtype="int64"))[start:stop] = values
            elif c.startswith(FLAGGED):
                flags = self._flags.get(c)
                if flags is None:
                    flags = self._flags[c] = np.full(n, np.nan, dtype=object)
                flags[start:stop][part[c].to_numpy() == True] = True  # noqa: E712
        self._filled[start] = (stop, list(part.columns))

    def _fits(self, part: pd.DataFrame) -> bool:
        """Whether ``part`` can be written in place.

        Its reps in order and new; its flags True or missing; its other columns and their
        types the first chunk's, every one a NumPy number or truth value.
        """
        if not len(part) or "rep" not in part.columns:
            return False
        plain = COUNTED + FLAGGED
        kinds = {c: part[c].dtype for c in part.columns if not c.startswith(plain)}
        if self._kinds is None:
            self._kinds = kinds
        reps = part["rep"].to_numpy()
        first = self._at.get(int(reps[0]))
        flags = [part[c] for c in part.columns if c.startswith(FLAGGED)]
        return (
            all(isinstance(k, np.dtype) and k.kind in "biuf" for k in kinds.values())
            and list(kinds) == list(self._kinds)
            and all(self._widen(c, k) for c, k in kinds.items())
            and first is not None
            and first not in self._filled
            and self._reps[first : first + len(reps)] == reps.tolist()
            and all(((f == True) | f.isna()).all() for f in flags)  # noqa: E712
        )

    def _widen(self, column: str, kind: Any) -> bool:
        """Whether a chunk's ``kind`` of ``column`` fits, as the join would type it.

        The same type fits; whole numbers beside fractions make the column fractions (a
        sum over no decisions is a whole 0), as the join makes them.
        """
        assert self._kinds is not None
        have = self._kinds[column]
        if kind == have:
            return True
        numbers = {np.dtype("int64"), np.dtype("float64")}
        if {kind, have} != numbers:
            return False
        if have == np.dtype("int64"):
            self._kinds[column] = np.dtype("float64")
            if column in self._data:
                self._data[column] = self._data[column].astype("float64")
        return True

    def _as_parts(self) -> list[pd.DataFrame]:
        """The chunks written so far, as they came (to be joined by :func:`_combined`)."""
        whole = self._table(sort=False)
        self._data, self._flags, self._counts = {}, {}, {}
        return [
            whole.iloc[a:b][[c for c in columns if c in whole.columns]].reset_index(drop=True)
            for a, (b, columns) in sorted(self._filled.items())
        ]

    def _table(self, sort: bool = True) -> pd.DataFrame:
        """The columns as a table, in the order the chunks (by replication) first show them."""
        order: dict[str, None] = {}
        for _, (_, columns) in sorted(self._filled.items()):
            order.update(dict.fromkeys(columns))
        data = {**self._data, **self._counts}
        for c, flags in self._flags.items():
            data[c] = flags if pd.isna(flags).any() else flags.astype(bool)
        names = [c for c in order if not c.startswith(COUNTED)]
        counted = [c for c in order if c.startswith(COUNTED)]
        names += sorted(counted) if sort else counted
        return pd.DataFrame({c: data[c] for c in names}, copy=False)

    def frame(self) -> pd.DataFrame:
        """All the worlds: one row per replication, ordered by replication, counts last."""
        if self._parts is not None:
            return _combined(self._parts)
        if not self._filled:
            return pd.DataFrame()
        if sum(b - a for a, (b, _) in self._filled.items()) != len(self._reps):
            raise RuntimeError("replications are missing from a finished run")
        df = self._table()
        self._data, self._flags, self._counts = {}, {}, {}
        return df


def _combined(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """Chunks as one frame, ordered by replication, with sparse counts last.

    Sparse counts come in name order, zero where absent (a count no world of a chunk had
    is absent from that chunk). The chunks are let go of as soon as they are joined, and
    nothing is copied that is already in order, so the peak stays near one frame's size.
    """
    if not parts:
        return pd.DataFrame()
    parts.sort(key=lambda p: int(p["rep"].iloc[0]) if len(p) else -1)
    df = pd.concat(parts, ignore_index=True, sort=False)
    parts.clear()
    if not df["rep"].is_monotonic_increasing:
        df = df.sort_values("rep", kind="stable", ignore_index=True)
    counted = ("incident:", "critical_handoff:")
    sparse = sorted(c for c in df.columns if c.startswith(counted))
    order = [c for c in df.columns if not c.startswith(counted)] + sparse
    if order != list(df.columns):
        df = df[order]
    for c in sparse:
        if df[c].dtype != "int64":
            df[c] = df[c].fillna(0).astype("int64")
    return df
