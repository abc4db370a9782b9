"""Shared AppTest helpers for the page tests."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "app.py"


def open_page(path: str, timeout: float = 60) -> AppTest:
    """The whole app (navigation included), switched to the page ``path`` (e.g. ui/play/page.py)."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    at.switch_page(path).run()
    assert not at.exception, at.exception
    return at
