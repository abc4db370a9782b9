"""Browser-test harness: the real app in a real Chromium, driven by Playwright.

- The app runs once per session in a ``streamlit run`` subprocess on a free port
  (``app_url``), its output in ``test-artifacts/streamlit-PORT.log``.
- Playwright drives Debian's Chromium (``/usr/bin/chromium``, or
  ``TRAININGROOM_CHROMIUM``); Playwright's own browser downloads are not used.
- Every test in this folder carries the ``browser`` marker. Without Chromium the
  tests are skipped, unless ``TRAININGROOM_REQUIRE_BROWSER=1`` (set by
  ``scripts/test.sh`` and CI), where a missing browser or any skipped browser
  test makes the run fail.
- Waits scale with the machine's load: ``SHOWN`` (what a click should show) is 60 s
  times ``TRAININGROOM_TIMEOUT_SCALE`` (set by ``scripts/test.sh`` from the load average
  per CPU, 1 to 4; measured here when unset), and every Playwright wait and ``expect``
  defaults to it. Tests wait on what they need (a text, an enabled button, the app's
  ``notRunning`` script state), never on a fixed sleep.
- A test that fails (or is stopped by the time limit, tests/conftest.py) leaves a
  screenshot of every page it had open in ``test-artifacts/screenshots/failed-*.png``.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM = os.environ.get("TRAININGROOM_CHROMIUM", "/usr/bin/chromium")
REQUIRE_BROWSER = os.environ.get("TRAININGROOM_REQUIRE_BROWSER") == "1"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def timeout_scale() -> float:
    """How much slower than a quiet machine to allow: the load per CPU, from 1 to 4."""
    given = os.environ.get("TRAININGROOM_TIMEOUT_SCALE")
    if given:
        return min(4.0, max(1.0, float(given)))
    return min(4.0, max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1)))


SCALE = timeout_scale()
STARTUP_TIMEOUT_S = 60.0 * SCALE
#: The longest wait for a rerun, or for what a click or another browser's action shows.
RUN_TIMEOUT_MS = SHOWN = int(60_000 * SCALE)
expect.set_options(timeout=SHOWN)

_skipped: list[str] = []


# --- markers and the "a skip is not a pass" rule ---------------------------------------------


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call" and report.failed and "browser" in item.keywords:
        _screenshot_open_pages(item)
    return report


def _screenshot_open_pages(item: pytest.Item) -> None:
    """Every page the failed test had open, in every browser context (a test may make its own)."""
    funcargs = getattr(item, "funcargs", {})
    browser: Browser | None = funcargs.get("browser")
    page: Page | None = funcargs.get("page") or getattr(funcargs.get("app"), "page", None)
    if browser is None and page is not None:
        browser = page.context.browser
    if browser is None:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "-", item.nodeid.split("::")[-1])
    for c, context in enumerate(browser.contexts):
        for p, open_page in enumerate(context.pages):
            path = SCREENSHOTS / f"failed-{name}-{c}-{p}.png"
            try:
                open_page.screenshot(path=str(path), full_page=True, timeout=15_000)
            except Exception as exc:  # a page that died with the app: note it, go on
                path.with_suffix(".txt").write_text(f"no screenshot: {exc}\n")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "browser" in report.keywords:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if REQUIRE_BROWSER and _skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if REQUIRE_BROWSER and _skipped:
        terminalreporter.section("browser tests skipped", red=True, bold=True)
        terminalreporter.write_line(
            "TRAININGROOM_REQUIRE_BROWSER=1: a skipped browser test counts as a failure:",
            red=True,
        )
        for nodeid in _skipped:
            terminalreporter.write_line(f"  {nodeid}", red=True)


# --- the browser --------------------------------------------------------------------------


def _no_browser(reason: str) -> None:
    if REQUIRE_BROWSER:
        pytest.fail(f"{reason} (TRAININGROOM_REQUIRE_BROWSER=1, so this is a failure)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium instead of a Playwright-downloaded build."""
    if not os.access(CHROMIUM, os.X_OK):
        _no_browser(
            f"Chromium not found at {CHROMIUM}: apt-get install -y chromium "
            "(or set TRAININGROOM_CHROMIUM)"
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """No base URL: tests open the app by its full address (``app_url``).

    pytest-playwright asks for ``base_url``; without pytest-base-url installed, its own
    stand-in is a session fixture written as an instance method, which pytest 9 warns about
    (PytestRemovedIn10Warning) in every browser run. This one replaces it.
    """
    return None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 900}}


# --- the app ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return bool(response.read().decode().strip() == "ok")
    except (urllib.error.URLError, OSError):
        return False


@pytest.fixture(scope="session")
def app_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's data directory (its SQLite database): fresh, never the user's own."""
    return tmp_path_factory.mktemp("app-data")


@pytest.fixture(scope="session")
def app_url(app_data_dir: Path) -> Iterator[str]:
    """Start ``streamlit run app.py`` on a free port; yield its URL; stop it afterwards.

    The app's saved sessions go to a fresh data directory (``app_data_dir``).
    """
    port = _free_port()
    env = {**os.environ, "TRAININGROOM_DATA_DIR": str(app_data_dir)}
    env.pop("DATABASE_URL", None)
    url = f"http://127.0.0.1:{port}"
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"streamlit-{port}.log"
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        "--client.toolbarMode", "minimal",  # as scripts/app.sh: no developer "Deploy" button
    ]  # fmt: skip
    with log_path.open("w") as log:
        # Output to a file: a PIPE nobody reads can fill up and hang the server.
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not _healthy(url):
            if proc.poll() is not None:
                pytest.fail(
                    f"streamlit exited with code {proc.returncode} before it was healthy; "
                    f"{log_path}:\n{_tail(log_path)}"
                )
            if time.monotonic() > deadline:
                pytest.fail(
                    f"streamlit was not healthy within {STARTUP_TIMEOUT_S:g} s; "
                    f"{log_path}:\n{_tail(log_path)}"
                )
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# --- helpers for tests --------------------------------------------------------------------


def wait_for_app(page: Page, timeout_ms: int = RUN_TIMEOUT_MS) -> None:
    """Wait until the app is connected, its script has finished, and nothing is loading."""
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']",
        state="attached",
        timeout=timeout_ms,
    )
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-script-state='notRunning']",
        state="attached",
        timeout=timeout_ms,
    )
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=timeout_ms)


def assert_no_exception(page: Page) -> None:
    """Fail with the exception's text when the page shows a Streamlit exception box."""
    boxes = page.get_by_test_id("stException")
    if boxes.count():
        pytest.fail("the app shows an exception:\n" + "\n---\n".join(boxes.all_inner_texts()))


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page PNG as ``test-artifacts/screenshots/NAME.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # Streamlit scrolls inside its main container, so full_page alone captures only the
    # viewport: grow the viewport to the content's height for the shot, then restore it.
    size = page.viewport_size or {"width": 1400, "height": 900}
    content = page.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll("
        "\"[data-testid='stMain'], [data-testid='stSidebarContent']\"), e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], int(content))})
    try:
        wait_for_app(page)
        page.screenshot(path=str(path), full_page=True)
    finally:
        page.set_viewport_size(size)
    return path


class AppDriver:
    """The running app in one browser page, with the helpers above as methods."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url
        page.set_default_timeout(SHOWN)
        page.set_default_navigation_timeout(SHOWN)

    def open(self, path: str = "") -> AppDriver:
        self.page.goto(f"{self.url}/{path.lstrip('/')}")
        return self.wait()

    def wait(self) -> AppDriver:
        wait_for_app(self.page)
        return self

    def go_to(self, page_title: str) -> AppDriver:
        """Click a page in the sidebar navigation and wait for it to render."""
        nav = self.page.get_by_test_id("stSidebarNav")
        nav.get_by_role("link", name=page_title, exact=True).click()
        self.page.wait_for_url(f"**/{page_title.lower()}*", timeout=RUN_TIMEOUT_MS)
        return self.wait()

    def assert_no_exception(self) -> None:
        assert_no_exception(self.page)

    def click_when_enabled(self, target: Any) -> AppDriver:
        """Click ``target`` (a locator) once it is enabled: a rerun may still be committing
        the input that enables it. Then wait for the rerun the click starts."""
        expect(target).to_be_enabled(timeout=SHOWN)
        target.click()
        return self.wait()

    def fill_committed(self, target: Any, text: str, attempts: int = 3) -> AppDriver:
        """Fill ``target`` (an input or text area), move the focus on so Streamlit commits it,
        and wait for that rerun. A rerun that was already under way can redraw the field and
        drop what was typed; then fill it again (at most ``attempts`` times)."""
        for _ in range(attempts):
            target.fill(text)
            target.press("Tab")
            self.wait()
            if target.input_value() == text:
                return self
        raise AssertionError(f"the field kept losing its text after {attempts} fills: {text!r}")

    def screenshot(self, name: str) -> Path:
        return screenshot(self.page, name)


@pytest.fixture
def app(page: Page, app_url: str) -> AppDriver:
    """The app, ready to drive: ``app.open()``, ``app.go_to("Scenario")``, ``app.page``."""
    return AppDriver(page, app_url)
