"""A parent stopped without clean-up (SIGKILL, a CI step's time limit) takes its workers along.

``WorkerPool``'s workers ask Linux (where CI and the app run) to end them when their parent
dies, so none goes on computing replications that nobody will read.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

PARENT = """
import time
from sim.runner import WorkerPool
pool = WorkerPool(2)
for _ in range(4):
    pool.submit(time.sleep, 600)
time.sleep(0.5)
print(" ".join(str(p) for p in pool._processes), flush=True)
time.sleep(600)
"""

#: Generous: the signal is sent at once, but a loaded machine may be slow to reap.
LIMIT_S = 60.0


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has ended; only its entry waits to be read


def test_workers_end_when_their_parent_is_killed() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True, cwd=os.getcwd()
    )
    try:
        assert parent.stdout is not None
        line = parent.stdout.readline()
        workers = [int(p) for p in line.split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers), line
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=LIMIT_S)
        deadline = time.monotonic() + LIMIT_S
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if _alive(p)]
        assert not left, f"workers {left} still running {LIMIT_S:.0f} s after their parent died"
    finally:
        if parent.poll() is None:
            parent.kill()
