"""Peak memory of a large comparison: ``sim compare`` of a scenario against a design.

Runs ``python -m sim compare SCENARIO --design DESIGN --reps N --workers W --json`` as a
child process and samples, every 250 ms, the proportional resident memory (PSS: a page
shared by a forked worker and its parent counted once) of it and all its descendants
(from ``/proc``): the peak of their sum is what the machine had to hold at once. Also
prints the parent's own peak (``VmHWM``) and the wall and CPU seconds.

Usage: ``PYTHONPATH=. python benchmarks/compare_memory.py [worlds ...]``
(environment: ``SCENARIO`` default assistant_7b, ``DESIGN`` default large_siloed,
``WORKERS`` default 2). Linux only.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

MIB = 1024 * 1024


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(c) for c in task.read_text().split()]
        except OSError:
            continue
    return out


def _tree(pid: int) -> list[int]:
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo += _children(p)
    return seen


def _pss(pid: int) -> int:
    """Proportional set size: shared pages (a forked worker's) counted once over the tree."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return 0


def _hwm(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def measure(worlds: int) -> dict[str, float]:
    scenario = os.environ.get("SCENARIO", "scenarios/assistant_7b.yaml")
    design = os.environ.get("DESIGN", "large_siloed")
    workers = os.environ.get("WORKERS", "2")
    cmd = [sys.executable, "-m", "sim", "compare", scenario, "--design", design,
           "--reps", str(worlds), "--workers", workers, "--json"]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    peak_tree = peak_parent = hwm = 0
    while proc.poll() is None:
        pids = _tree(proc.pid)
        peak_tree = max(peak_tree, sum(_pss(p) for p in pids))
        peak_parent = max(peak_parent, _pss(proc.pid))
        hwm = max(hwm, _hwm(proc.pid))
        time.sleep(0.25)  # reading smaps costs CPU: not too often
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"sim compare failed with exit code {proc.returncode}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {
        "worlds": worlds,
        "peak_tree_mib": peak_tree / MIB,
        "peak_parent_mib": max(peak_parent, hwm) / MIB,
        "wall_s": wall,
        "cpu_s": cpu,
    }


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10_000]
    for worlds in sizes:
        r = measure(worlds)
        print(
            f"{worlds:>7} worlds x 2 designs: peak {r['peak_tree_mib']:.0f} MiB for the "
            f"process tree (parent {r['peak_parent_mib']:.0f} MiB), {r['wall_s']:.1f} s wall, "
            f"{r['cpu_s']:.1f} s CPU | load {os.getloadavg()[0]:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
