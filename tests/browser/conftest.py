"""A real ``streamlit run app.py`` on a free localhost port, and headless Debian chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.console import SEEN, ConsoleLog
from tests.browser.steps import IDLE, again, holds_in_page, motion_option

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
FAILURES = ROOT / "artifacts" / "failures"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"streamlit did not answer at {url} within {timeout} s")


@contextlib.contextmanager
def streamlit_server(root: Path = ROOT, port: int | None = None, env: dict[str, str] | None = None
                     ) -> Iterator[tuple[str, int]]:
    """``streamlit run app.py`` (of ``root``: the repository, or a copy of the app of another commit) on a free
    localhost port (or ``port``) in its own process group, with ``env`` added to its environment (Streamlit's options
    as ``STREAMLIT_...`` variables); stops exactly that group.

    Yields the server's URL and its process id (the load tests read its memory)."""
    port = port or free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", str(root / "app.py"), "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def served() -> Iterator[tuple[str, int]]:
    """The shared server's URL and process id."""
    with streamlit_server() as running:
        yield running


@pytest.fixture(scope="session")
def server(served) -> str:
    return served[0]


@pytest.fixture()
def fresh_server() -> Iterator[str]:
    """A server of its own that no session has reached yet (for what only a first load can show: Streamlit's legacy
    pages/ mode lasts until some session reaches `st.navigation`). Costs a few seconds: use it sparingly."""
    with streamlit_server() as (url, _pid):
        yield url


def children_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by the processes below ``pid`` (its worker processes), from /proc."""
    parents, times = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        child = int(stat.parent.name)
        parents[child], times[child] = int(fields[1]), int(fields[11]) + int(fields[12])
    below, frontier = set(), {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - below
        below |= frontier
    return sum(times[c] for c in below) / os.sysconf("SC_CLK_TCK")


@pytest.fixture()
def worker_cpu(served):
    """``worker_cpu()``: CPU seconds used so far by the shared server's worker processes."""
    return lambda: children_cpu_seconds(served[1])


def chromium_executable() -> str | None:
    """Debian's headless shell of chromium (package chromium-headless-shell: the same version's build for headless use,
    the one Playwright itself runs headless), else Debian's full chromium, else None. The shell costs less: a Watch
    page load took 6.3 s of the browser's CPU against 9.4 s by the full browser run headless (3 loads each, idle),
    and the browser tests are mostly the browser's CPU."""
    for executable in (shutil.which("chromium-headless-shell"), shutil.which("chromium"), "/usr/bin/chromium"):
        if executable and Path(executable).exists():
            return executable
    return None


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = chromium_executable()
    if executable is None:
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def console_log() -> Iterator[ConsoleLog]:
    """Fails a browser test on any console error, uncaught page error or off-machine request in the contexts it
    opened."""
    log = ConsoleLog()
    yield log
    assert not log.errors, "\n".join(log.errors)


@pytest.fixture()
def new_context(browser, console_log, request):
    """``new_context(width, height, touch=False, motion=False)``: a fresh browser context (its own session), watched
    for console errors; ``touch``: a phone's (touch events, a mobile viewport); ``motion``: see `motion_option`. When
    the test fails, each of its pages is saved as it stood (`failure_shots`)."""
    contexts = []

    def make(width: int = 1600, height: int = 1000, touch: bool = False, motion: bool = False):
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
                                      reduced_motion=motion_option(motion))
        console_log.watch(context)
        contexts.append(context)
        return context

    yield make
    report = getattr(request.node, "call_report", None)
    if report is not None and report.failed:
        failure_shots(request.node.name, [page for context in contexts for page in context.pages])
    for context in contexts:
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep the test's own report (its call phase) on the item, for `new_context` to see whether it failed; a failed
    test's report lists the browser's errors seen since its setup began, in any context (`SEEN`)."""
    report = yield
    if report.when == "call":
        item.call_report = report
    if report.failed and report.when == "call":
        errors = SEEN[getattr(item, "seen_from", 0):]
        report.sections.append(("browser errors while the test ran", "\n".join(errors) or "none"))
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    item.seen_from = len(SEEN)


def failure_shots(test: str, pages: list) -> None:
    """Screenshots of a failed test's pages under artifacts/failures, and each page's address and the page's
    state in the log (a failure under load is seldom reproduced at will)."""
    FAILURES.mkdir(parents=True, exist_ok=True)
    for i, page in enumerate(pages):
        path = FAILURES / f"{test}_{i}.png"
        try:
            page.screenshot(path=str(path), timeout=10_000)
            idle = page.evaluate(IDLE)
            print(f"{test}: page {i} at {page.url} ({'idle' if idle else 'a script running'}) saved as {path}")
        except Exception as exc:  # a page that closed or hung: the test's own error says more
            print(f"{test}: page {i} could not be saved ({exc.__class__.__name__})")


@pytest.fixture()
def page(new_context):
    return new_context().new_page()


def shot(page, name: str, height: int | None = None) -> Path:
    """Save a screenshot under artifacts/screenshots; ``height`` enlarges the viewport first (Streamlit scrolls
    inside its own container, so a full-page screenshot needs a tall viewport)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if height is not None:
        size = page.viewport_size
        page.set_viewport_size({"width": size["width"], "height": height})
        page.wait_for_timeout(800)
        page.screenshot(path=str(path))
        page.set_viewport_size(size)
    else:
        page.screenshot(path=str(path))
    return path


def submit_run(page, values: dict[str, str], until: str) -> None:
    """Type ``values`` into the number fields named by its keys, leaving each (Streamlit takes a number field's value
    when it loses focus), and click Run, until the address bar holds ``until``. A late rerun that redraws the form
    can drop the typed value or the click (a fresh-clone run: seed 5 typed, the run never came): the whole step is
    done again."""
    def act() -> None:
        for name, value in values.items():
            field = page.get_by_role("spinbutton", name=name)
            field.fill(value)
            field.press("Tab")
        page.get_by_role("button", name="Run", exact=True).click()

    again(page, act, holds_in_page(page, "(t) => location.search.includes(t)", until), f"Run with {values}")


@pytest.fixture()
def run_form():
    """The `submit_run` function, for the tests."""
    return submit_run


@pytest.fixture()
def screenshot():
    """The `shot` function, for the tests (conftest modules are not imported by name)."""
    return shot
