"""Ctrl-C stops every long command at once: one line, exit 130, no traceback.

Each command runs in its own session, as under a terminal; once its workers are up and
it has worked a while, SIGINT goes to the whole process group (what a terminal's Ctrl-C
does), and the time to exit is measured. The runs are far longer than the wait, so the
signal always lands mid-work.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli import ROOT

#: Seconds from SIGINT to exit that a stop must beat. The goal is 2 s; the bound allows
#: for a machine whose two cores are shared with other jobs (measured on it: 0.7-2.2 s).
BOUND = 6.0

LONG: dict[str, tuple[list[str], int]] = {
    # name: (arguments, processes besides the command's own when its workers are up)
    "run": (["run", "assistant_7b", "--reps", "20000", "--workers", "2"], 2),
    "run serial": (["run", "assistant_7b", "--reps", "20000", "--workers", "1"], 0),
    "compare": (
        ["compare", "assistant_7b", "--design", "small_core", "--reps", "8000", "--workers", "2"],
        2,
    ),
    "sweep": (
        [
            "sweep",
            "assistant_7b",
            "--grid",
            "levers.reserve_fraction=0,0.1,0.2",
            "--reps",
            "5000",
            "--workers",
            "2",
        ],
        2,
    ),  # fmt: skip
    "sensitivity": (["sensitivity", "assistant_7b", "--reps", "1000", "--workers", "2"], 2),
    "optimize": (["optimize", "assistant_7b", "--trials", "200", "--workers", "2"], 2),
    "run on dask": (
        ["run", "assistant_7b", "--reps", "40000", "--workers", "2", "--executor", "dask"],
        2,
    ),
}


def _session(sid: int) -> list[int]:
    """The processes of session ``sid`` (the command and everything it started)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:  # the fields after the name: state, ppid, pgrp, session
                pids.append(int(entry.name))
    return pids


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def interrupt(args: list[str], helpers: int) -> tuple[float, subprocess.Popen[str], str, str]:
    """Start ``python -m sim ARGS``, Ctrl-C it mid-work; seconds to exit, the process, output."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
        env={**os.environ, "COLUMNS": "80"},
    )
    start = time.monotonic()
    # Working: its workers are up and have spent more than a start-up's CPU time.
    while time.monotonic() - start < 120 and proc.poll() is None:
        others = [pid for pid in _session(proc.pid) if pid != proc.pid]
        busy = sum(_cpu_seconds(pid) for pid in others) if helpers else _cpu_seconds(proc.pid)
        if len(others) >= helpers and busy > 2.0 * max(1, helpers):
            break
        time.sleep(0.1)
    time.sleep(1.0)
    assert proc.poll() is None, f"{args} finished before the signal: make the run longer"
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    return time.monotonic() - sent, proc, out, err


@pytest.mark.parametrize("name", list(LONG))
def test_ctrl_c_stops_a_long_command_at_once_with_one_line(name: str) -> None:
    args, helpers = LONG[name]
    seconds, proc, out, err = interrupt(args, helpers)
    summary = (
        f"{name}: exit {proc.returncode} {seconds:.1f} s after SIGINT; stdout {out[-300:]!r}; "
        f"stderr {err[-1500:]!r}"
    )
    print(summary)
    assert proc.returncode == 130, summary
    assert seconds < BOUND, summary
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, summary
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, summary  # off a terminal there is no bar, only the line
    assert lines[0].startswith(f"stopped by Ctrl-C: {args[0]} "), summary
    assert lines[0].endswith("nothing was saved."), summary
    assert out == "", summary
    if args[0] != "optimize":  # "... run after 1,200 of 20,000 replications; ..."
        done, total = lines[0].split(" after ", 1)[1].split(" replications", 1)[0].split(" of ")
        assert 0 <= int(done.replace(",", "")) < int(total.replace(",", "")), summary
    for _ in range(20):  # the workers end with the command
        if not _session(proc.pid):
            break
        time.sleep(0.1)
    assert not _session(proc.pid), f"{name}: processes left running: {_session(proc.pid)}"


def test_a_stopped_dask_run_quiets_every_distributed_logger_dask_configured() -> None:
    """Dask's config gives distributed.client a level of its own (WARNING): quieting the
    parent alone let its "Couldn't gather 1 keys" through after a Ctrl-C, now and then."""
    import logging

    import distributed  # noqa: F401  (its import configures its loggers)

    from sim.runner import _quiet_loggers

    children = [n for n in logging.root.manager.loggerDict if n.startswith("distributed.")]
    assert "distributed.client" in children
    saved = {n: logging.getLogger(n).level for n in [*children, "distributed"]}
    try:
        _quiet_loggers("distributed")
        for name in ["distributed", *children]:
            assert logging.getLogger(name).getEffectiveLevel() == logging.CRITICAL, name
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
