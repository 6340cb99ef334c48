"""A classroom at once: N concurrent browser sessions against one `streamlit run app.py`.

Each session opens its own link (its own generated instance and seed) and waits for its Watch run to
finish. The test checks that every session shows its own result (the cumulative regrets the package
computes for that instance and seed: no cross-talk through caches), that no page shows an error, and
that the server's memory stays bounded; it prints the peak RSS and the 95th-percentile time to a finished
Watch run. CI runs it with BANDITVIZ_LOAD_SESSIONS=6 (the default); by hand:
``BANDITVIZ_LOAD_SESSIONS=30 .venv/bin/python -m pytest -m load -s tests/load``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import numpy as np
import pytest

import banditviz
from banditviz.instances import uniform_box

pytestmark = pytest.mark.load
ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("browser_harness", ROOT / "tests" / "browser" / "conftest.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)  # the browser tests' server harness (free port, health check, clean stop)

SESSIONS = int(os.environ.get("BANDITVIZ_LOAD_SESSIONS", "6"))
HORIZON = 1500
PER_SESSION_TIMEOUT_S = 60 + 10 * SESSIONS
MAX_SERVER_RSS_MB = 1500 + 40 * SESSIONS
ERRORS = "[data-testid='stException'], [data-testid='stAlertContentError']"


def session_link(base: str, i: int) -> tuple[str, str]:
    """Session i's link and the outcome text its run must show (computed here, outside the app)."""
    args = {"K": 6 + i % 5, "L": 2, "seed": 100 + i}
    inst = uniform_box(**args)
    trace = banditviz.run(inst, "pareto_ucb1", HORIZON, seed=i)
    expected = (f"cumulative Pareto regret {trace.metrics['pareto_regret'].sum():.4g}, "
                f"cumulative effective Pareto regret {trace.metrics['effective_regret'].sum():.4g}")
    link = (f"{base}/?gen=uniform_box&gp={quote(json.dumps(args, separators=(',', ':')))}"
            f"&alg=pareto_ucb1&T={HORIZON}&seed={i}")
    return link, expected


def rss_mb(pid: int) -> float:
    """Resident memory of the server process and its children, in MB (Linux /proc)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().split()
            if int(entry.name) == pid or int(stat[4]) == pid:  # the process itself, or its process group
                total += int(stat[23]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total / 2**20


class PeakMemory(threading.Thread):
    """Samples the server's RSS every 0.2 s until stopped."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self._stop_event = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            self.peak = max(self.peak, rss_mb(self.pid))
            self._stop_event.wait(0.2)

    def stop(self) -> float:
        self._stop_event.set()
        self.join()
        return self.peak


async def one_session(browser, link: str, expected: str) -> tuple[float, str, list[str]]:
    """Open ``link`` in a fresh context; return seconds to the finished run, the outcome text, errors."""
    # reduced motion: the run's playback would hold a core of this machine that a class's own machines would spend
    context = await browser.new_context(viewport={"width": 1400, "height": 900},
                                        reduced_motion=harness.motion_option(False))
    page = await context.new_page()
    try:
        start = time.perf_counter()
        await page.goto(link, timeout=PER_SESSION_TIMEOUT_S * 1000)
        outcome = page.get_by_text(f"Played {HORIZON:,} rounds")
        await outcome.wait_for(timeout=PER_SESSION_TIMEOUT_S * 1000)
        elapsed = time.perf_counter() - start
        text = await outcome.inner_text()
        errors = await page.locator(ERRORS).all_inner_texts()
        return elapsed, text, errors
    finally:
        await context.close()


async def classroom(url: str, links: list[tuple[str, str]]) -> list[tuple[float, str, list[str]]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=harness.chromium_executable(),
                                          headless=True, args=harness.CHROMIUM_ARGS)
        try:
            return await asyncio.gather(*(one_session(browser, link, exp) for link, exp in links))
        finally:
            await browser.close()


def test_concurrent_sessions_get_their_own_results_in_bounded_memory():
    if harness.chromium_executable() is None:
        pytest.skip("Debian's chromium is not installed (make test installs it)")
    with harness.streamlit_server() as (url, pid):
        links = [session_link(url, i) for i in range(SESSIONS)]
        memory = PeakMemory(pid)
        memory.start()
        started = time.perf_counter()
        # A thread of its own: the browser tests' sync Playwright may hold this thread's event loop.
        with ThreadPoolExecutor(max_workers=1) as pool:
            results = pool.submit(asyncio.run, classroom(url, links)).result()
        wall = time.perf_counter() - started
        peak = memory.stop()
    times = np.array([r[0] for r in results])
    p95 = float(np.percentile(times, 95))
    print(f"\n{SESSIONS} concurrent sessions: all finished in {wall:.1f} s; time to a finished Watch run: "
          f"median {np.median(times):.1f} s, 95th percentile {p95:.1f} s; server peak RSS {peak:.0f} MB")
    for (_, text, errors), (_, expected) in zip(results, links, strict=True):
        assert not errors, errors
        assert expected in text, (expected, text)
    assert len({text for _, text, _ in results}) == len({exp for _, exp in links})
    assert peak < MAX_SERVER_RSS_MB, f"server peak RSS {peak:.0f} MB"
