"""App latency: time from pressing Run on the Watch page to the new figure being drawn, measured in Chromium.

Two settings: the default Watch run (preset "default", pareto_ucb1, T = 2,000, 200 snapshots) and a 3D run
(preset "default_3d", same algorithm and horizon). Each press uses a fresh seed, so nothing comes from the
cache. The reference is the same work done in this process without the app (run + animate + JSON): the
ratio is the cost of the app around the engine and the figure (websocket, React, Plotly drawing).
Target (app issue): under 2 s for the default run.
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

# Every frame's drawn data (the figure autoplays, so the data on screen changes without a new run).
FIGURE_FRAMES = ("() => JSON.stringify(document.querySelector('.js-plotly-plot')._transitionData._frames"
                 ".map(f => [f.name, (f.data || []).map(t => [t.x, t.y])]))")
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
    page.wait_for_function(f"(old) => ({FIGURE_FRAMES[6:]}) !== old", arg=old, timeout=120_000)
    page.wait_for_function(IDLE, timeout=120_000)
    return time.perf_counter() - start


def main() -> int:
    executable = shutil.which("chromium") or "/usr/bin/chromium"
    results = {}
    with harness.streamlit_server() as (url, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=harness.CHROMIUM_ARGS)
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
