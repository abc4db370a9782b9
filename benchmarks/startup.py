"""Start-up time of the command line, and what each command imports.

Usage: ``.venv/bin/python benchmarks/startup.py [runs]``

Times ``python -m sim --help`` and ``python -m sim validate assistant_7b`` in fresh
processes (fastest and median of ``runs``, beside a bare ``python -c pass``), then
lists the ten slowest imports of ``validate`` from ``python -X importtime``. The same
timings are in ``python -m sim bench --startup``. ``hyperfine`` gives the same figures
with more statistics: ``hyperfine -N 'python -m sim --help'``.
"""

from __future__ import annotations

import re
import subprocess
import sys

from sim.bench import startup


def slowest_imports(args: list[str], top: int = 10) -> list[tuple[int, str]]:
    """The ``top`` imports with the largest cumulative time (microseconds) for ``args``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "sim", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+\d+ \|\s+(\d+) \|( *)(\S+)", line)
        if match and len(match.group(2)) <= 3:  # top-level imports and their children
            rows.append((int(match.group(1)), match.group(2) + match.group(3)))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for command, t in startup(runs).items():
        print(f"{command:24} fastest {t['min'] * 1e3:6.0f} ms   median {t['median'] * 1e3:6.0f} ms")
    print("\nslowest imports of `validate assistant_7b` (cumulative):")
    for micros, name in slowest_imports(["validate", "assistant_7b"]):
        print(f"{micros / 1e3:8.1f} ms  {name}")


if __name__ == "__main__":
    main()
