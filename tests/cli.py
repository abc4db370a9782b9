"""Running ``python -m sim`` as a user would, for the command-line tests."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_sim(
    *args: str,
    columns: int | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """``python -m sim ARGS`` from the repository root; its exit code is the caller's to check.

    ``env`` replaces the environment (default: this process's); ``columns`` sets ``COLUMNS``.
    """
    environ = dict(os.environ if env is None else env)
    if columns is not None:
        environ["COLUMNS"] = str(columns)
    return subprocess.run(
        [sys.executable, "-m", "sim", *args],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )
