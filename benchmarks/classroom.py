"""A class on one laptop: what each visitor costs the server, against today's page in the same run.

Light visitors (`tests/load/light_client.py`: Streamlit's own protocol over a websocket, no browser) open the landing
link (the default Watch run, already made once: a cached setting) together, 1, 10 and 30 of them, against two
servers one after the other: this tree's app, and the app of ``--reference`` (default: main before issue 30, the
page that serialised its figure in every session), both on this tree's engine. Reported: the server's CPU per
visitor (the server process and its children, from /proc), seconds until each visitor had its figure (median, 95th
percentile), and the ratio of the CPU per visitor to the reference's.

Then, on this tree's app: 30 visitors each press Run with a seed of their own (30 runs to make), and the memory per
idle session (30 sessions left open on the landing page). Last, where a visit's CPU went in the reference: the
figure serialised as ``st.plotly_chart`` does it, and the full garbage collection Streamlit runs after every script
run (``runner.postScriptGC``), each timed in this process.

Targets (issue 30, 2 cores): a cached visit <= 0.1 s of server CPU; 95th percentile to the figure under 5 s for 30
cached visitors and under 30 s for 30 different seeds; under 30 MB per idle session.
Run it under ``nice -n 19`` on a shared machine: the load average is printed with the numbers.

    .venv/bin/python benchmarks/classroom.py [--reference REF] [--sessions 1,10,30]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib.util
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import plotly.io  # noqa: E402

import banditviz  # noqa: E402
from banditviz import figures  # noqa: E402
from tests.load import classroom  # noqa: E402

_spec = importlib.util.spec_from_file_location("browser_harness", ROOT / "tests" / "browser" / "conftest.py")
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)  # the browser tests' server harness (free port, health check, clean stop)

REFERENCE = "a4475a7"  # main before issue 30: the figure serialised by st.plotly_chart in every session
TARGET_CPU, TARGET_CACHED_P95, TARGET_SEEDS_P95, TARGET_IDLE_MB = 0.1, 5.0, 30.0, 30.0


@contextlib.contextmanager
def app_of(ref: str) -> Iterator[Path]:
    """A directory holding the app (app.py, banditviz_app/, .streamlit/) as it was at ``ref``; the engine
    (``banditviz``) is this tree's, found through the installed package."""
    with tempfile.TemporaryDirectory(prefix="banditviz-ref-") as tmp:
        archive = subprocess.run(["git", "archive", ref, "app.py", "banditviz_app", ".streamlit"], cwd=ROOT,
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        yield Path(tmp)


def cached_visits(root: Path, sessions: list[int]) -> dict[int, classroom.Round]:
    """Per number of visitors, one round of that many opening the landing link together (made once before)."""
    rounds = {}
    with harness.streamlit_server(root) as (url, pid):
        first, _ = classroom.open_sessions(url, pid, [classroom.LANDING])
        classroom.close(first)
        for n in sessions:
            visitors, rounds[n] = classroom.open_sessions(url, pid, [classroom.LANDING] * n)
            classroom.close(visitors)
            time.sleep(0.5)
    return rounds


def seeds_and_memory(sessions: int) -> tuple[classroom.Round, float]:
    """``sessions`` visitors on the landing link each pressing Run with a seed of its own; then the memory per idle
    session (as many sessions left open on the landing page)."""
    with harness.streamlit_server() as (url, pid):
        idle = classroom.idle_mb_per_session(url, pid, sessions)
        visitors, opened = classroom.open_sessions(url, pid, [classroom.LANDING] * sessions)
        pressed = classroom.press_run(pid, visitors, opened.pages, [1000 + i for i in range(sessions)])
        classroom.close(visitors)
    return pressed, idle


def breakdown() -> tuple[float, float]:
    """CPU seconds, in this process, of serialising the landing figure as ``st.plotly_chart`` does (its dict, then
    Plotly's JSON) and of one full garbage collection with the app's modules loaded and nothing frozen."""
    for name in list(logging.root.manager.loggerDict):  # no "No runtime found" for the app's caches out of a server
        if name.startswith("streamlit"):
            logging.getLogger(name).setLevel(logging.ERROR)
    import banditviz_app.runs  # noqa: F401 (the server's modules, for the collection)

    trace = banditviz.run(banditviz.preset("default"), "pareto_ucb1", 2000, 0, snapshots=200)
    fig = figures.animate(trace, controls=False)
    start = time.thread_time()
    for _ in range(3):
        plotly.io.to_json(fig.to_dict(), validate=False)
    serialise = (time.thread_time() - start) / 3
    start = time.thread_time()
    for _ in range(3):
        gc.collect()
    return serialise, (time.thread_time() - start) / 3


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reference", default=REFERENCE, help="the commit of today's page (default %(default)s)")
    parser.add_argument("--sessions", default="1,10,30", help="numbers of visitors, comma-separated")
    args = parser.parse_args()
    sessions = [int(n) for n in args.sessions.split(",")]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")

    with app_of(args.reference) as old:
        reference = cached_visits(old, sessions)
    current = cached_visits(ROOT, sessions)
    print(f"\nlanding link, cached (default Watch run); today's page = the app at {args.reference}")
    print(f"{'visitors':>8} {'CPU/visitor now (s)':>20} {'today (s)':>10} {'ratio':>6} "
          f"{'to figure p50/p95 now (s)':>26} {'today (s)':>14}")
    for n in sessions:
        new, ref = current[n], reference[n]
        print(f"{n:>8} {new.cpu_per_session:>20.3f} {ref.cpu_per_session:>10.3f} "
              f"{new.cpu_per_session / ref.cpu_per_session:>6.2f} {new.p(50):>12.2f} / {new.p(95):<11.2f} "
              f"{ref.p(50):>6.2f} / {ref.p(95):.2f}")
    worst = max(r.cpu_per_session for r in current.values())
    print(f"CPU per cached visit: at most {worst:.3f} s (target {TARGET_CPU} s: {verdict(worst <= TARGET_CPU)})")
    if max(sessions) >= 30:
        p95 = current[max(sessions)].p(95)
        print(f"{max(sessions)} cached visitors: p95 to the figure {p95:.2f} s (target {TARGET_CACHED_P95} s: "
              f"{verdict(p95 < TARGET_CACHED_P95)})")

    n = max(sessions)
    pressed, idle = seeds_and_memory(n)
    print(f"\n{n} visitors press Run, each with its own seed: server CPU per session {pressed.cpu_per_session:.3f} s, "
          f"to the figure p50 {pressed.p(50):.2f} s, p95 {pressed.p(95):.2f} s (target {TARGET_SEEDS_P95} s: "
          f"{verdict(pressed.p(95) < TARGET_SEEDS_P95)})")
    print(f"memory per idle session ({n} open on the landing page): {idle:.1f} MB (target {TARGET_IDLE_MB} MB: "
          f"{verdict(idle < TARGET_IDLE_MB)})")

    serialise, collect = breakdown()
    print(f"\nwhere today's visit went (this process): serialising the figure as st.plotly_chart does "
          f"{serialise:.3f} s; one full garbage collection (Streamlit runs one after every script run) {collect:.3f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
