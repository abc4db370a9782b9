"""What the Compare and Sweep pages share: running designs batch by batch with progress,
keeping what finished, caching each batch, and downloads.

A run is split into batches of replications. Each batch is cached with
``st.cache_data`` on the designs' JSON, the seed and its replication range, so
reopening a page, asking for more replications, or resuming after a cancel
recomputes nothing already done. The finished batches also live in
``st.session_state`` under the page's key: if the user clicks something while a run
is going (Streamlit then stops the script), the next run of the page still has them.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from sim.compare.sweep import combine, run_batch
from sim.glossary import term_help
from sim.runner import default_workers
from sim.scenario.spec import Scenario

#: Replications per batch: at least this many, and about a tenth of the run.
MIN_BATCH, MAX_BATCH = 10, 250


@dataclass
class RunState:
    """The finished part of a run: its signature, the batches done and the target."""

    signature: str
    target: int
    done: int = 0
    batches: tuple[Mapping[str, pd.DataFrame], ...] = ()

    @property
    def complete(self) -> bool:
        return self.done >= self.target

    def frames(self) -> dict[str, pd.DataFrame]:
        return combine(list(self.batches))


def designs_json(designs: Mapping[str, Scenario]) -> str:
    """The designs as one JSON text: the cache key and the signature of a run."""
    return json.dumps(
        {name: sc.model_dump(mode="json", by_alias=True) for name, sc in designs.items()}
    )


def signature(designs: Mapping[str, Scenario], seed: int) -> str:
    text = f"{designs_json(designs)}|{seed}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@st.cache_data(show_spinner=False, max_entries=400)
def _batch(text: str, seed: int, start: int, stop: int, _workers: int) -> dict[str, pd.DataFrame]:
    designs = {name: Scenario.model_validate(data) for name, data in json.loads(text).items()}
    return run_batch(designs, seed, start, stop, workers=_workers)


def cached_batch(designs: Mapping[str, Scenario], seed: int) -> Any:
    """A ``(start, stop) -> frames`` function for ``sim.compare.sequential``, cached per batch."""
    text = designs_json(designs)
    return lambda start, stop: _batch(text, seed, start, stop, app_workers())


def store_run(
    key: str, designs: Mapping[str, Scenario], seed: int, frames: Mapping[str, pd.DataFrame]
) -> RunState:
    """Keep a finished run (a sequential one, say) as this page's run state."""
    done = len(next(iter(frames.values())))
    state = RunState(signature(designs, seed), done, done, (dict(frames),))
    st.session_state[key] = state
    return state


def batch_size(reps: int) -> int:
    return max(MIN_BATCH, min(MAX_BATCH, reps // 10))


def app_workers() -> int:
    """Parallel workers the app uses: two at most, to leave the server responsive."""
    return min(2, default_workers())


def saved_run(key: str, designs: Mapping[str, Scenario], seed: int) -> RunState | None:
    """The stored run of these designs and seed, if this page has one."""
    state = st.session_state.get(key)
    if isinstance(state, RunState) and state.signature == signature(designs, seed):
        return state
    return None


def run_designs_live(
    key: str, designs: Mapping[str, Scenario], reps: int, seed: int, what: str
) -> RunState:
    """Run (or resume) ``reps`` replications of every design with a progress bar.

    Replications already done for the same designs and seed are kept; the state is
    saved after every batch, so a cancelled run keeps what finished.
    """
    state = saved_run(key, designs, seed) or RunState(signature(designs, seed), reps)
    state.target = reps
    if state.done > reps:  # fewer replications than before: keep the first ``reps``
        first = {name: df[df["rep"] < reps] for name, df in state.frames().items()}
        state = RunState(state.signature, reps, reps, (first,))
    text, size, total = designs_json(designs), batch_size(reps), reps * len(designs)
    with st.status(f"Running {what}…", expanded=True) as status:
        bar = st.progress(
            state.done / reps, text=f"{state.done * len(designs):,} of {total:,} replications"
        )
        while state.done < reps:
            stop = min(reps, state.done + size)
            batch = _batch(text, seed, state.done, stop, app_workers())
            state = RunState(state.signature, reps, stop, (*state.batches, batch))
            st.session_state[key] = state
            bar.progress(stop / reps, text=f"{stop * len(designs):,} of {total:,} replications")
        status.update(
            label=f"Finished {what}: {total:,} replications", state="complete", expanded=False
        )
    st.session_state[key] = state
    return state


def running(prefix: str) -> bool:
    return bool(st.session_state.get(f"{prefix}_running"))


def _set_running(prefix: str, value: bool) -> None:
    st.session_state[f"{prefix}_running"] = value


def run_controls(prefix: str, label: str, ready: bool, default_reps: int) -> tuple[int, int]:
    """Replications, seed and a Run button that turns into Stop while the run goes."""
    busy = running(prefix)
    row = st.columns([1, 1, 2], vertical_alignment="bottom")
    reps = int(row[0].number_input(
        "Replications per design", 10, 10_000, default_reps, 10, key=f"{prefix}_reps",
        disabled=busy,
        help="Each replication is one world: the same incidents strike every design in it. "
        + term_help("replication"),
    ))  # fmt: skip
    seed = int(row[1].number_input("Seed", 0, 2**31 - 1, 0, key=f"{prefix}_seed", disabled=busy))
    run, stop = row[2].columns([3, 1])
    run.button(
        label, key=f"{prefix}_run_button", type="primary", disabled=busy or not ready,
        on_click=_set_running, args=(prefix, True), icon=":material/play_arrow:",
    )  # fmt: skip
    stop.button(
        "Stop", key=f"{prefix}_stop", on_click=_set_running, args=(prefix, False),
        icon=":material/stop:", disabled=not busy,
    )  # fmt: skip
    return reps, seed


def run_if_asked(
    prefix: str, key: str, designs: Mapping[str, Scenario], reps: int, seed: int, what: str
) -> None:
    """Run when the Run button was pressed; Stop (or any click) keeps what finished."""
    if not running(prefix):
        return
    st.caption("Stop keeps the replications that have finished; Run again resumes from them.")
    run_designs_live(key, designs, reps, seed, what)
    _set_running(prefix, False)
    st.rerun()


def partial_notice(state: RunState) -> None:
    if not state.complete:
        st.warning(
            f"The run stopped after {state.done:,} of {state.target:,} replications per design; "
            "everything below uses those. Press the run button again to finish it: the "
            "finished replications are kept.",
            icon=":material/pause_circle:",
        )


def downloads(stem: str, table: pd.DataFrame, summary: Mapping[str, Any], key: str) -> None:
    """CSV of the table and JSON of the summary, side by side."""
    left, right = st.columns(2)
    left.download_button(
        "Download the table (CSV)", table.to_csv(index=False), f"{stem}.csv", "text/csv",
        key=f"{key}_csv", icon=":material/download:", width="stretch", on_click="ignore",
    )  # fmt: skip
    right.download_button(
        "Download the summary (JSON)", json.dumps(_plain(summary), indent=2),
        f"{stem}.json", "application/json", key=f"{key}_json", icon=":material/download:",
        width="stretch", on_click="ignore",
    )  # fmt: skip


def _plain(value: Any) -> Any:
    """JSON-safe: numpy scalars as Python numbers, NaN and infinities as null."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
