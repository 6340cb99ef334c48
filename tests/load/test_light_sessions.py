"""A class of 30 against one `streamlit run app.py`, measured at the server: light visitors (Streamlit's protocol
over a websocket, `light_client.Visitor`), no browser per student.

30 sessions open the landing link together (its run made once, by the first visitor), then each presses Run with a
seed of its own. Checked: every session gets its own figure and outcome (its seed's, as the package computes it
outside the app) and its own link; a page that waits for its figure says what it waits for; an idle session costs
the server under 30 MB; a cached visit costs it less CPU than serialising the landing figure once costs this process
(`serialising_cpu`: 0.16 s, where a visit costs 0.11 s, on a machine where a bound of 0.1 s failed). Printed: CPU
per session, seconds until each had its figure (median, 95th percentile), memory per idle session. The timings'
targets are measured by ``benchmarks/classroom.py`` (with today's page as reference); by hand: ``.venv/bin/python -m
pytest -s tests/load``.
"""

from __future__ import annotations

import hashlib
import threading
import time

import pytest

import banditviz
from banditviz import figures
from banditviz_app import charts, runs, state
from tests.browser.conftest import streamlit_server
from tests.load import classroom
from tests.load.light_client import Visitor, figure_title

pytestmark = pytest.mark.load
SESSIONS = 30
SEEDS = [1000 + i for i in range(SESSIONS)]
WAIT_WORDS = ("The server is busy", "Running pareto_ucb1", "being made for another visitor")


def outcome(seed: int) -> str:
    """The outcome sentence the Watch page must show for the landing run with ``seed`` (computed outside the app)."""
    trace = banditviz.run(banditviz.preset("default"), "pareto_ucb1", 2000, seed=seed)
    return (f"cumulative Pareto regret {trace.metrics['pareto_regret'].sum():.4g}, "
            f"cumulative effective Pareto regret {trace.metrics['effective_regret'].sum():.4g}")


def serialising_cpu() -> float:
    """CPU seconds of this process to serialise the landing figure for the browser (`charts.prepare`), warm: the
    least of three."""
    q = classroom.LANDING
    trace = banditviz.run(banditviz.preset(q["preset"]), q["alg"], int(q["T"]), seed=int(q["seed"]), snapshots=200)
    fig = figures.animate(trace, controls=False, height=runs.WATCH_HEIGHT)
    costs = []
    for _ in range(3):
        start = time.process_time()
        charts.prepare(fig)
        costs.append(time.process_time() - start)
    return min(costs)


def visit(url: str) -> dict:
    """A visit to the landing link: its page and when (perf_counter) it had its figure."""
    v = Visitor(url, classroom.LANDING)
    page = v.open()
    v.close()
    return {"page": page, "at": page.figure_clock}


def waited(page) -> bool:
    """Whether the page said, before its figure came, that it waits for it."""
    return any(w in text for text in page.before_figure for w in WAIT_WORDS)


def shown(page) -> str:
    return " ".join(page.texts()).replace("\\", "")  # markdown escapes undone


def test_thirty_light_sessions_get_their_own_figures_cheaply():
    with streamlit_server() as (url, pid):
        idle = classroom.idle_mb_per_session(url, pid, SESSIONS)
        visitors, opened = classroom.open_sessions(url, pid, [classroom.LANDING] * SESSIONS)
        late = {}  # one more visitor on the landing link while the 30 runs are being made
        meanwhile = threading.Thread(target=lambda: (time.sleep(1.0), late.update(visit(url))))
        started = time.perf_counter()
        meanwhile.start()
        pressed = classroom.press_run(pid, visitors, opened.pages, SEEDS)
        meanwhile.join()
        classroom.close(visitors)
    print(f"\n{SESSIONS} light sessions on the landing link (cached): server CPU per session "
          f"{opened.cpu_per_session:.3f} s, to the figure median {opened.p(50):.2f} s, p95 {opened.p(95):.2f} s; "
          f"then each pressing Run with its own seed: CPU per session {pressed.cpu_per_session:.3f} s, to the figure "
          f"median {pressed.p(50):.2f} s, p95 {pressed.p(95):.2f} s; memory per idle session {idle:.1f} MB")

    landing = {hashlib.sha1(p.figure.spec.encode()).hexdigest() for p in opened.pages}
    assert len(landing) == 1 and all(p.query in (None, state.to_query(state.default_setting())) for p in opened.pages)
    assert all(outcome(0) in shown(p) for p in opened.pages[:3])
    for seed, page in zip(SEEDS, pressed.pages, strict=True):
        assert f"seed={seed}" in page.query and f"seed {seed}" in figure_title(page), (seed, page.query)
        assert outcome(seed) in shown(page), seed
        if page.figure_at > 1.0:  # it waited: its page said for what, before the figure came
            assert waited(page), page.before_figure
    assert len({hashlib.sha1(p.figure.spec.encode()).hexdigest() for p in pressed.pages}) == SESSIONS
    # a figure already made does not wait for the others' runs: it came before the last of them, without waiting
    assert late["at"] - started < max(pressed.to_figure) and not waited(late["page"])
    assert idle < 30.0
    # CPU (not wall) time: the landing figure is never serialised again
    assert opened.cpu_per_session < serialising_cpu()
