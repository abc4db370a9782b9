"""Shared AppTest helpers for the page tests."""

from __future__ import annotations

import os
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "app.py"


def load_scale() -> float:
    """How much slower than a quiet machine to allow a script run, 1 to 4.

    The larger of what scripts/test.sh measured when the suite started
    (``TRAININGROOM_TIMEOUT_SCALE``) and the load per CPU now: a machine that got busier
    while the suite ran still gets generous limits.
    """
    start = float(os.environ.get("TRAININGROOM_TIMEOUT_SCALE", "1") or 1)
    try:
        now = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        now = 1.0
    return min(4.0, max(1.0, start, now))


def open_page(path: str, timeout: float = 60) -> AppTest:
    """The whole app (navigation included), switched to the page ``path`` (e.g. ui/play/page.py).

    Every script run of the page may take ``timeout`` seconds times :func:`load_scale`.
    """
    at = AppTest.from_file(str(APP), default_timeout=timeout * load_scale())
    at.run()
    at.switch_page(path).run()
    assert not at.exception, at.exception
    return at
