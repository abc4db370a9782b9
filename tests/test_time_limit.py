"""scripts/time_limit.py: the test step's time limit, counted at the machine's load.

Each case runs the script as scripts/test.sh does, on small commands, with the load fixed
(``TRAININGROOM_TIMEOUT_SCALE_FIXED``) so that the count is known.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "time_limit.py"


def _limit(budget: float, cap: float, code: str, scale: str = "1", grace: str = "30",
           ) -> tuple[int, str, float]:  # fmt: skip
    env = {
        **os.environ,
        "TRAININGROOM_TIMEOUT_SCALE_FIXED": scale,
        "TRAININGROOM_TIME_LIMIT_POLL": "0.1",
        "TRAININGROOM_TIME_LIMIT_GRACE": grace,
    }
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(budget), str(cap), sys.executable, "-c", code],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    return done.returncode, done.stderr, time.monotonic() - t0


def test_a_command_that_ends_keeps_its_exit_code() -> None:
    rc, err, _ = _limit(30, 60, "import sys; sys.exit(3)")
    assert rc == 3 and "stopping" not in err


def test_the_budget_strikes_with_sigterm_and_says_so() -> None:
    rc, err, took = _limit(1, 60, "import time; time.sleep(60)")
    assert rc == 124, err
    assert "1 s counted at the machine's load" in err and "stopping it" in err
    assert took < 30


def test_a_busy_machine_stretches_the_budget() -> None:
    # At four times the load, 1 s of budget takes about 4 s of wall time.
    rc, _, took = _limit(1, 60, "import time; time.sleep(60)", scale="4")
    assert rc == 124 and took >= 3.9


def test_the_wall_cap_holds_whatever_the_load() -> None:
    rc, err, took = _limit(100, 1.5, "import time; time.sleep(60)", scale="4")
    assert rc == 124 and "the cap of 2 s of wall time" in err and took < 30


def test_a_command_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
    rc, _, took = _limit(0.5, 60, code, grace="1")
    assert rc == 137 and took < 30


def test_the_whole_process_group_is_stopped(tmp_path: Path) -> None:
    # A grandchild (as the app or the browser a test starts) is stopped with its parent.
    pid_file = tmp_path / "pid"
    code = (
        "import subprocess, sys, time; "
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(60)"
    )
    rc, _, _ = _limit(1, 60, code)
    assert rc == 124
    grandchild = int(pid_file.read_text())
    for _ in range(100):
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the grandchild {grandchild} outlived the limit")
