"""Monte Carlo: replications fanned out over any ``concurrent.futures`` executor.

A replication is a plain top-level function ``(scenario, seed, rep) -> row``, so
a process pool and a Dask cluster run the same code. Replication *k* of every
design uses the same named random streams (common random numbers), and results
are ordered by replication, so the numbers do not depend on the executor or the
number of workers.
"""

from __future__ import annotations

import contextlib
import os
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
    """Replication batches: about eight tasks per worker over all designs, at most 200 each.

    Batches only group work; results are ordered by replication, so they never change
    the numbers.
    """
    size = max(1, min(200, reps * designs // max(1, workers * 8)))
    return [list(range(i, min(reps, i + size))) for i in range(0, reps, size)]


@contextlib.contextmanager
def open_executor(
    executor: ExecutorName, workers: int, scheduler: str | None = None
) -> Iterator[Executor | None]:
    """A ``concurrent.futures`` executor: None (serial), a process pool, or Dask."""
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
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, dashboard_address=None, processes=True
            )
            client = Client(cluster)
        try:
            yield client.get_executor()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    elif workers <= 1:
        yield None
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool


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
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in designs}
    finished = 0
    if pool is None:
        for name, sc in designs.items():
            for chunk in chunks:
                rows[name].extend(replicate_batch(sc, seed, chunk, policy))
                finished += len(chunk)
                if progress:
                    progress(finished, total)
    else:
        futures: dict[Future[list[dict[str, Any]]], str] = {}
        for name, sc in designs.items():
            for chunk in chunks:
                futures[pool.submit(replicate_batch, sc, seed, chunk, policy)] = name
        for fut in as_completed(futures):
            batch = fut.result()
            rows[futures[fut]].extend(batch)
            finished += len(batch)
            if progress:
                progress(finished, total)
    return {name: _frame(r) for name, r in rows.items()}


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows ordered by replication; sparse counts last, in name order, zero where absent."""
    rows = sorted(rows, key=lambda r: r["rep"])
    df = pd.DataFrame.from_records(rows)
    counted = ("incident:", "critical_handoff:")
    sparse = sorted(c for c in df.columns if c.startswith(counted))
    other = [c for c in df.columns if not c.startswith(counted)]
    df = df[other + sparse]
    df[sparse] = df[sparse].fillna(0).astype(int)
    return df.reset_index(drop=True)
