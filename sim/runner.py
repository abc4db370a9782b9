"""Monte Carlo: replications fanned out over any ``concurrent.futures`` executor.

A replication is a plain top-level function ``(scenario, seed, rep) -> row``, so
a process pool and a Dask cluster run the same code. Replication *k* of every
design uses the same named random streams (common random numbers), and results
are ordered by replication, so the numbers do not depend on the executor or the
number of workers.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any, Literal

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


def _chunks(reps: int, workers: int, designs: int = 1) -> list[list[int]]:
    """Replication batches: about eight tasks per worker over all designs, 100 at most.

    At most 100, so the progress bar moves every second or so. Batches only group work;
    results are ordered by replication, so they never change the numbers.
    """
    size = max(1, min(100, reps * designs // max(1, workers * 8)))
    return [list(range(i, min(reps, i + size))) for i in range(0, reps, size)]


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


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to its parent, which stops it (so no worker prints a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    size = len(_chunks(len(reps), workers, len(designs))[0]) if reps else 1
    chunks = [reps[i : i + size] for i in range(0, len(reps), size)]
    total = len(reps) * len(designs)
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in designs}
    frames: dict[str, pd.DataFrame] = {}
    finished = 0
    if pool is None:
        for name, sc in designs.items():
            for chunk in chunks:
                parts[name].append(replicate_frame(sc, seed, chunk, policy))
                finished += len(chunk)
                if progress:
                    progress(finished, total)
            frames[name] = _combined(parts.pop(name))
    else:
        futures: dict[Future[pd.DataFrame], str] = {}
        for name, sc in designs.items():
            for chunk in chunks:
                futures[pool.submit(replicate_frame, sc, seed, chunk, policy)] = name
        for fut in as_completed(list(futures)):
            batch = fut.result()
            name = futures.pop(fut)  # the future lets go of its result
            parts[name].append(batch)
            finished += len(batch)
            if len(parts[name]) == len(chunks):
                # A design's worlds are all in (the first design's come first): join them
                # now, so its chunks are gone before the next design's are all held.
                frames[name] = _combined(parts.pop(name))
            if progress:
                progress(finished, total)
    frames.update((name, _combined(p)) for name, p in parts.items())  # no replications
    return {name: frames[name] for name in designs}


def replicate_frame(
    scenario: Scenario, seed: int, reps: Sequence[int], policy: str | Decider = "playbook"
) -> pd.DataFrame:
    """A batch of replications as a columnar chunk (made where it ran: small to send back).

    A world's row is a dict only while it is made; what is kept is a column per outcome,
    so a 100,000-world comparison holds numbers, not 100,000 Python dicts per design.
    """
    return pd.DataFrame.from_records(replicate_batch(scenario, seed, reps, policy))


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
