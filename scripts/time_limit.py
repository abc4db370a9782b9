"""Run a command under a time limit that counts a busy machine's seconds at their worth.

Usage: ``python scripts/time_limit.py BUDGET CAP COMMAND...`` (scripts/test.sh runs each
pytest step this way).

``BUDGET`` is in quiet-machine seconds: every few seconds the wall time that passed is
divided by the machine's load per CPU at that moment (from 1 to 4; a fixed
``TRAININGROOM_TIMEOUT_SCALE`` wins), so a step that starts on a quiet machine and grows
busy keeps the time it needs, and a step on a quiet machine is held to its budget. ``CAP``
is a limit in wall seconds that holds whatever the load: a hang still ends.

When a limit strikes, the command gets SIGTERM (pytest then fails the test it stood in and
prints its summary, tests/conftest.py), and SIGKILL 60 s later if it is still running.
The exit code is the command's own, 124 after SIGTERM or 137 after SIGKILL (as
coreutils' ``timeout``). At a terminal the command stays in the foreground, so Ctrl+C
reaches it; otherwise it runs in its own process group, which the signals reach whole
(the app and the browser a test started included).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

#: How often the load is read and the limit checked, and how long a stopped command gets
#: between SIGTERM and SIGKILL (the environment may shorten both, for the tests).
POLL_SECONDS = float(os.environ.get("TRAININGROOM_TIME_LIMIT_POLL", "5"))
GRACE_SECONDS = float(os.environ.get("TRAININGROOM_TIME_LIMIT_GRACE", "60"))


def load_scale() -> float:
    """How much slower than a quiet machine this one runs now: load per CPU, 1 to 4."""
    fixed = os.environ.get("TRAININGROOM_TIMEOUT_SCALE_FIXED", "")
    if fixed:
        return min(4.0, max(1.0, float(fixed)))
    cpus = len(os.sched_getaffinity(0)) or 1
    return min(4.0, max(1.0, os.getloadavg()[0] / cpus))


def _signal(child: subprocess.Popen[bytes], sig: int, group: bool) -> None:
    try:
        if group:
            os.killpg(child.pid, sig)
        else:
            child.send_signal(sig)
    except ProcessLookupError:
        pass


def run(budget: float, cap: float, command: list[str]) -> int:
    group = not sys.stdin.isatty()
    if not group:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the command's to handle
    child = subprocess.Popen(command, start_new_session=group)
    start = last = time.monotonic()
    counted = 0.0
    while True:
        try:
            return child.wait(timeout=POLL_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        now = time.monotonic()
        counted += (now - last) / load_scale()
        last = now
        if counted >= budget or now - start >= cap:
            break
    why = (
        f"{budget:.0f} s counted at the machine's load"
        if counted >= budget
        else f"the cap of {cap:.0f} s of wall time"
    )
    sys.stderr.write(
        f"\n{command[0]} ran {now - start:.0f} s of wall time ({counted:.0f} s counted at the "
        f"machine's load, load per CPU now {load_scale():.2f}) and reached {why}: stopping it.\n"
    )
    sys.stderr.flush()
    _signal(child, signal.SIGTERM, group)
    try:
        child.wait(timeout=GRACE_SECONDS)
        return 124
    except subprocess.TimeoutExpired:
        _signal(child, signal.SIGKILL, group)
        child.wait()
        return 137


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        sys.stderr.write(str(__doc__))
        return 2
    return run(float(argv[0]), float(argv[1]), argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
