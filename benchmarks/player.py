"""The Watch page in headless Chromium against the page of a reference commit, both served in this run.

Run:  .venv/bin/python benchmarks/player.py [--reference COMMIT] [--visits N] [--seconds S]

The reference (default: ``a4475a7``, main before the first-motion and 3-D playback work of issue 26) is checked out
in a temporary git worktree and served by a second ``streamlit run`` beside this checkout's, with the same Python;
the two are measured alternately, so that both see the same load on this shared machine, and reported as ratios
(this checkout / reference).

* **First visit** of the README's default link (``/``) at 1366x768: a fresh browser context each time (cold
  browser: no cached scripts), the server warm (the run already in its cache from an earlier visit). Times after the
  page's first paint: the first chart drawn (anything meaningful in the figure's place), the first animated chart
  drawn (the one the player plays), and the first motion (its drawn data first changes: the player's first frame).
  Also a run not yet in the server's cache (a seed never asked before): when the first chart is drawn while the run
  computes, and when the animation comes.
* **3-D playback** of ``default_3d`` (pareto_ucb1, T = 2,000) at each speed: frames drawn per second, counted as
  Plotly's ``plotly_afterplot`` events on the chart (each one a whole draw), while playing from the first round; the
  two players' scripts (this checkout's and the reference's `assets/player.js`) alternately in one page of this
  checkout's app (same figure, same moment).

Medians over the visits; the machine is shared (2 cores), so compare the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from banditviz.figures.playback import SPEEDS

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_app", ROOT / "benchmarks" / "app.py")
_app = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_app)
# the browser tests' server harness (free port, health check, clean stop) and the Watch player test's probes (`SPEED`)
harness, player_tests = _app.harness, _app.player_tests

REFERENCE = "a4475a7"
LAPTOP = {"width": 1366, "height": 768}
URL_3D = "/?preset=default_3d&alg=pareto_ucb1&T=2000&seed=0"
PLAYER = "banditviz/figures/assets/player.js"
# Times (performance.now()) of the first chart drawn, the first animated chart (one holding frames) drawn, and the
# first change of that chart's drawn data; read from Plotly's chart elements, not from the player.
PROBE = """() => {
  window.__t = {};
  const mark = (k) => { if (window.__t[k] === undefined) window.__t[k] = performance.now(); };
  let first;
  const look = () => {
    const gds = Array.from(document.querySelectorAll('.js-plotly-plot')).filter((gd) => gd.data && gd.data.length);
    if (gds.length) mark('chart');
    const gd = gds.find((g) => g._transitionData && g._transitionData._frames && g._transitionData._frames.length);
    if (gd) {
      mark('animated');
      const now = JSON.stringify(gd.data.map((t) => [t.x, t.y, t.z]));
      if (first === undefined) first = now;
      else if (now !== first) { mark('motion'); return; }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""
FIRST_PAINT = "() => performance.getEntriesByType('paint').find((e) => e.name === 'first-paint').startTime"
READY = "() => { const p = window.__bv && window.__bv.players.bv_watch; return !!(p && p.n); }"
# A player script run in the page as Streamlit runs it (inside the playback bar's element), replacing the player there.
SWAP = """(code) => {
  const host = document.querySelector('[data-bv-player="bv_watch"]').closest('[data-testid="stHtml"]');
  window.__bv.memory = {};
  const s = document.createElement('script');
  s.textContent = code;
  host.appendChild(s);
}"""


@contextlib.contextmanager
def reference_checkout(commit: str):
    """The app at ``commit`` in a temporary git worktree (removed afterwards)."""
    tmp = Path(tempfile.mkdtemp(prefix="bv_reference_"))
    path = tmp / "app"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), commit], check=True,
                   capture_output=True)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def served(root: Path):
    """``streamlit run`` of the app in ``root`` (its own ``banditviz`` comes first on the path: the script's
    folder)."""
    harness.ROOT = root
    with harness.streamlit_server() as (url, _):
        yield url


def first_visit(browser, url: str) -> dict[str, float]:
    """Seconds after the first paint to each mark of `PROBE`, in a fresh browser context."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.add_init_script(f"document.addEventListener('DOMContentLoaded', {PROBE})")
    page.goto(url)
    page.wait_for_function("() => window.__t && window.__t.motion !== undefined", timeout=180_000)
    paint, marks = page.evaluate(FIRST_PAINT), page.evaluate("() => window.__t")
    context.close()
    return {k: (v - paint) / 1000 for k, v in marks.items()}


def warm(browser, url: str) -> None:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    page.close()


def draw_rates(browser, url: str, players: dict[str, str], seconds: float, reps: int) -> dict:
    """(frames of the run, Plotly draws) per second at each speed, for each player script in ``players`` (name ->
    script), alternately in one page (the same figure, browser and moment: the machine's load varies by the minute),
    ``reps`` times each. A script replaces the page's player as a rerun does (run again in the bar's element). Each
    window ends before the run does (174 frames at the fastest speed's 20 ms last 3.5 s), or it would count a stopped
    player."""
    page = browser.new_page(viewport=LAPTOP)
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    page.wait_for_timeout(2000)
    n = page.evaluate("() => window.__bv.players.bv_watch.n")
    window = {label: int(1000 * min(seconds, (n - 1) * ms / 1000 - 0.6)) for label, ms in SPEEDS}
    rates = {name: {label: [] for label, _ in SPEEDS} for name in players}
    for _ in range(reps):
        for name, script in players.items():
            page.evaluate(SWAP, script)
            page.wait_for_function(READY, timeout=60_000)
            page.wait_for_timeout(500)
            for label, _ in SPEEDS:
                rates[name][label].append(tuple(page.evaluate(player_tests.SPEED, [label, window[label]])))
    page.close()
    return rates


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default=REFERENCE, help="the commit whose page is the reference")
    ap.add_argument("--visits", type=int, default=3, help="first visits (and 3-D plays) per page")
    ap.add_argument("--seconds", type=float, default=4.0, help="seconds played at each speed")
    args = ap.parse_args()
    apps = {}
    with contextlib.ExitStack() as stack:
        ref_root = stack.enter_context(reference_checkout(args.reference))
        apps["reference"] = stack.enter_context(served(ref_root))
        apps["this"] = stack.enter_context(served(ROOT))
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium", headless=True,
                                    args=harness.CHROMIUM_ARGS)
        for url in apps.values():
            warm(browser, url + "/")
            warm(browser, url + URL_3D)
        visits = {name: [] for name in apps}
        cold = {name: [] for name in apps}
        for k in range(args.visits):
            for name, url in apps.items():  # alternately, so that both see the same load
                visits[name].append(first_visit(browser, url + "/"))
                cold[name].append(first_visit(browser, url + f"/?seed={9000 + k}"))  # a run not in the cache
        scripts = {"this": (ROOT / PLAYER).read_text(), "reference": (ref_root / PLAYER).read_text()}
        rates = draw_rates(browser, apps["this"] + URL_3D, scripts, args.seconds, args.visits)
        browser.close()

    def med(rows: list[dict], key: str) -> float:
        return statistics.median(r[key] for r in rows)

    print(f"reference: {args.reference}; medians of {args.visits}; 1366x768, headless Chromium (software GL)")
    print(f"{'first visit of /, warm server (s after first paint)':<58} {'this':>7} {'ref':>7} {'ratio':>6}")
    for key, label in (("chart", "first chart drawn"), ("animated", "first animated chart drawn"),
                       ("motion", "first motion (player's first frame change)")):
        a, b = med(visits["this"], key), med(visits["reference"], key)
        print(f"  {label:<56} {a:>7.2f} {b:>7.2f} {a / b:>6.2f}")
    print(f"{'first visit, run not in the server cache (s)':<58}")
    for key, label in (("chart", "first chart drawn"), ("motion", "first motion")):
        a, b = med(cold["this"], key), med(cold["reference"], key)
        print(f"  {label:<56} {a:>7.2f} {b:>7.2f} {a / b:>6.2f}")
    print(f"{'3-D (default_3d) frames drawn per second, one page':<58} {'this':>7} {'ref':>7} {'ratio':>6}  (run/s)")
    drawn = {name: {label: statistics.median(r[1] for r in rs) for label, rs in by.items()}
             for name, by in rates.items()}
    for label, _ in SPEEDS:
        a, b = drawn["this"][label], drawn["reference"][label]
        run = statistics.median(r[0] for r in rates["this"][label])
        print(f"  {label:<56} {a:>7.1f} {b:>7.1f} {a / b:>6.2f}  ({run:.1f})")
    motion = med(visits["this"], "motion")
    print(f"first motion {motion:.2f} s after first paint (target 2 s: {'met' if motion <= 2 else 'NOT met'}); "
          f"3-D fast {drawn['this']['fast']:.1f}, fastest {drawn['this']['fastest']:.1f} drawn/s (target 10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
