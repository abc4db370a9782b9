"""Fixtures shared by every test: the shipped 7B scenario as a path, text and object.

Keep this file small; fixtures for one area belong in a conftest.py in its subfolder.
"""

from __future__ import annotations

import os
import re
import signal
import threading
from collections.abc import Generator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import settings

from sim.scenario.loading import load_scenario
from sim.scenario.spec import Scenario

# Property tests: "ci" (what scripts/test.sh selects) draws the same examples on every run,
# so a pass or a failure there is reproducible; "dev" (the default) explores new examples
# each run (explore further with --hypothesis-seed=N for several N).
settings.register_profile("dev")
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


# --- a run stopped by its time limit still reports ------------------------------------------
# scripts/test.sh stops a pytest run that outlives its limit with SIGTERM. Instead of dying
# silently, the test that was running fails where it stood (its traceback, and in the
# browser tests its screenshots, are kept), and pytest stops and prints its summary.


class StoppedByTimeLimit(Exception):
    """SIGTERM (the time limit of scripts/test.sh) arrived while this test ran."""


_running: list[str] = []
STOP_REASON = "stopped by SIGTERM (the time limit of scripts/test.sh)"


def pytest_sessionstart(session: pytest.Session) -> None:
    worker = "PYTEST_XDIST_WORKER" in os.environ

    def stop(signum: int, frame: FrameType | None) -> None:
        if not worker:  # an xdist worker reports its test; its controller stops the run
            session.shouldstop = STOP_REASON
            dsession = session.config.pluginmanager.getplugin("dsession")
            if dsession is not None:
                dsession.shouldstop = STOP_REASON
        if _running:
            raise StoppedByTimeLimit(f"{_running[-1]} was running when the time limit struck")

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    _running.append(item.nodeid)
    try:
        return (yield)
    finally:
        _running.pop()


@pytest.fixture(scope="session")
def scenario_path() -> Path:
    """The shipped scenario every test can start from: scenarios/assistant_7b.yaml."""
    return SCENARIOS / "assistant_7b.yaml"


@pytest.fixture(scope="session")
def scenario_text(scenario_path: Path) -> str:
    return scenario_path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def scenario(scenario_path: Path) -> Scenario:
    """The loaded scenario; immutable, so one object serves the whole session."""
    return load_scenario(scenario_path)


class ScenarioLines:
    """Edit scenario YAML by whole lines (regexes) and find the line numbers of edits.

    Tests locate lines by pattern rather than by number, so they keep passing when
    someone edits the shipped scenario.
    """

    def __init__(self, text: str) -> None:
        self.text = text

    def find(self, pattern: str, text: str | None = None) -> int:
        """The 1-based number of the one line that ``pattern`` matches entirely."""
        found = list(re.finditer(rf"^(?:{pattern})$", self.text if text is None else text, re.M))
        assert len(found) == 1, f"{pattern!r} matches {len(found)} lines"
        return (self.text if text is None else text).count("\n", 0, found[0].start()) + 1

    def replace(self, pattern: str, new: str, text: str | None = None) -> tuple[str, int]:
        r"""Replace the one line ``pattern`` matches with ``new`` (``\g<0>`` is the old line).

        Returns the new text and the number of the line where ``new`` starts.
        """
        text = self.text if text is None else text
        line = self.find(pattern, text)
        return re.sub(rf"^(?:{pattern})$", new, text, count=1, flags=re.M), line


@pytest.fixture
def scenario_lines(scenario_text: str) -> ScenarioLines:
    return ScenarioLines(scenario_text)
