"""App latency in Chromium: time to first motion of the Watch page, and from pressing Run to the new figure.

Time to first motion: from the page's first paint to the first change of the drawn figure (the first screen
plays by itself), on a first visit (fresh browser context; the server's run cache already warm from an
earlier visit) and on a reload (the browser holds the app's scripts), for the default page and the 3D run.
Target: under 2 s.

Two settings: the default Watch run (preset "default", pareto_ucb1, T = 2,000, 200 snapshots) and a 3D run
(preset "default_3d", same algorithm and horizon). Each press uses a fresh seed, so nothing comes from the
cache. The reference is the same work done in this process without the app (run + animate + JSON): the
ratio is the cost of the app around the engine and the figure (websocket, React, Plotly drawing).
Target: under 2 s for the default run.
"""

from __future__ import annotations

import importlib.util
import shutil
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

import banditviz
from banditviz import figures

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)  # the browser tests' server harness (free port, health check, clean stop)
_spec = importlib.util.spec_from_file_location("watch_player", ROOT / "tests" / "browser" / "test_watch_player.py")
player_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(player_tests)  # the Watch player test's probes (first paint, first motion)

# Every frame's drawn data (the figure autoplays, so the data on screen changes without a new run).
FIGURE_FRAMES = ("() => { const f = document.querySelector('.js-plotly-plot')?._transitionData?._frames;"
                 " return f ? JSON.stringify(f.map(g => [g.name, (g.data || []).map(t => [t.x, t.y])])) : null; }")
IDLE = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
SETTINGS = {"default (2D)": "default", "3D": "default_3d"}
PRESSES = 3


def reference(preset: str, seed: int) -> float:
    """Seconds for the same run and figure in this process, without the app."""
    start = time.perf_counter()
    trace = banditviz.run(banditviz.preset(preset), "pareto_ucb1", 2000, seed, snapshots=200)
    figures.animate(trace).to_json()
    return time.perf_counter() - start


def press_run(page, seed: int) -> float:
    """Seconds from the click on Run to the redrawn figure, with the script finished."""
    old = page.evaluate(FIGURE_FRAMES)
    page.get_by_role("spinbutton", name="Seed").fill(str(seed))
    start = time.perf_counter()
    page.get_by_role("button", name="Run").click()
    page.wait_for_function(f"(old) => ![null, old].includes(({FIGURE_FRAMES})())", arg=old, timeout=120_000)
    page.wait_for_function(IDLE, timeout=120_000)
    return time.perf_counter() - start


def first_motion(page, url: str, reload: bool) -> float:
    """Seconds from the first paint to the first change of the drawn Watch figure."""
    if reload:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function("() => window.__firstMotion !== null && window.__firstMotion !== undefined",
                           timeout=120_000)
    return (page.evaluate("() => window.__firstMotion") - page.evaluate(player_tests.FIRST_PAINT)) / 1000


def motion_report(browser, url: str, setting: str) -> None:
    """Median time to first motion of the page at ``url`` over three first visits and three reloads (printed)."""
    probe = f"document.addEventListener('DOMContentLoaded', {player_tests.MOTION_PROBE})"
    warmup = browser.new_page(viewport={"width": 1366, "height": 768})
    warmup.goto(url)
    warmup.wait_for_selector(".js-plotly-plot", timeout=120_000)  # the server's cache now holds the run
    warmup.close()
    first, again = [], []
    for _ in range(PRESSES):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        page.add_init_script(probe)
        first.append(first_motion(page, url, reload=False))
        again.append(first_motion(page, url, reload=True))
        context.close()
    for label, times in (("first visit", first), ("reload", again)):
        t = statistics.median(times)
        verdict = "met" if t < 2 else "NOT met"
        print(f"time to first motion after first paint, {label}, {setting}: {t:.2f} s (target 2 s: {verdict})")


def main() -> int:
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    results = {}
    with harness.streamlit_server() as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=harness.CHROMIUM_ARGS)
        for label, preset in SETTINGS.items():
            motion_report(browser, f"{url}/?preset={preset}&alg=pareto_ucb1&T=2000&seed=0", label)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        for label, preset in SETTINGS.items():
            page.goto(f"{url}/?preset={preset}&alg=pareto_ucb1&T=2000&seed=0")
            page.wait_for_selector(".js-plotly-plot", timeout=120_000)
            page.wait_for_function(IDLE, timeout=120_000)
            page.get_by_text("Algorithm, parameters, horizon and seed").click()
            seeds = range(101, 101 + PRESSES)
            app = statistics.median(press_run(page, s) for s in seeds)
            ref = statistics.median(reference(preset, s) for s in seeds)
            results[label] = (app, ref)
        browser.close()
    print(f"{'setting':<14} {'Run -> figure (s)':>18} {'engine+figure alone (s)':>24} {'ratio':>6}")
    for label, (app, ref) in results.items():
        print(f"{label:<14} {app:>18.2f} {ref:>24.2f} {app / ref:>6.2f}")
    default = results["default (2D)"][0]
    print(f"default run: {default:.2f} s against a target of 2 s -> {'met' if default < 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
