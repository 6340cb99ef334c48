"""What the browser draws on Watch is what was computed, at every frame a person reaches.

For each task family (2-D, 3-D, interval strips, a contextual run, races in 2-D and 3-D), the page is driven as a
person does (autoplay then pause, a step, the slider, the keys End and Home, play to the end, a rerun of the page)
and after each move the drawn state is read from the browser (`drawn.read`: SVG marks and WebGL objects, not the
figure's JSON) and compared with the frame computed here in Python from the same setting (`drawn.mismatches`),
together with the round the page says (the explanation's "Round N", the slider, the round label), the explanation's
sentences and the per-arm table of that round. The checker is shown able to fail: the same chart drawn with
Plotly's fast path (``Plotly.animate`` without redraw, which the player used before) is rejected.
"""

from __future__ import annotations

import random
import urllib.parse

import numpy as np
import pytest

import banditviz
from banditviz import figures
from banditviz.figures.objective_space import CUT_LABEL
from banditviz_app import runs, state
from tests.browser import drawn
from tests.browser.console import ConsoleLog
from tests.browser.steps import CONTROLS, IDLE, motion_option, open_expander, settle
from tests.browser.test_journeys_browser import go, pick, toggled
from tests.browser.test_watch_player import CHART, DRAWN, LAPTOP, SLIDER, STATE

pytestmark = pytest.mark.browser

READY = "() => { const p = window.__bv && window.__bv.players.bv_watch; return !!(p && p.n); }"
# What the page says about the round on screen: the explanation, the per-arm table, the bar's label and slider (each
# empty while a rerun has not drawn it yet, so that a poll goes on through a rerun).
ON_SCREEN = """() => {
  const ex = document.querySelector('.bv-explain'), tb = document.querySelector('.bv-table tbody');
  const slider = document.querySelector('.bv-bar input[type=range]'), bar = document.querySelector('.bv-round');
  return {at: ex ? ex.querySelector('.bv-at').textContent : '', phase: ex ? ex.querySelector('.bv-phase').textContent
          : '', said: ex ? Array.from(ex.querySelectorAll('li'), (li) => li.textContent) : [],
          rows: tb ? Array.from(tb.rows, (r) => Array.from(r.cells, (c) => c.textContent)) : [],
          slider: slider ? Number(slider.value) : null, label: bar ? bar.textContent : '',
          playing: !!((window.__bv && window.__bv.players.bv_watch) || {}).playing};
}"""
FAMILIES = {
    "regret": "preset=default&alg=pareto_ucb1",
    "regret_3d": "preset=default_3d&alg=pareto_ucb1",
    "identify": "preset=default&alg=pfiwr",
    "identify_fc": "preset=default&alg=gege_fc",
    "risk_averse": "preset=risk_averse_table1&alg=ramgape_c",
    "lexicographic": "preset=lexicographic_lambda_0.1&alg=mte2lo",
    "contextual": "preset=mol_ts_2d&alg=mol_ts",
    "race": "preset=default&alg=pareto_ucb1&race=pareto_ts",
    "race_3d": "preset=default_3d&alg=pareto_ucb1&race=pareto_ts",
    "race_presenting": "preset=default&alg=pfiwr&race=pareto_ucb1&present=1",
}
RERUN = ("regret", "regret_3d", "race")  # families also checked after a rerun of the page that keeps the run


def computed(query: str) -> tuple[dict, dict]:
    """The Watch figure of a link, built here from the same setting as the app builds it (its trace data do not
    depend on the height): the figure as a dict, and its meta (rounds, sentences, table of each frame)."""
    q = dict(urllib.parse.parse_qsl(query))
    setting = state.from_query(q)

    def trace(alg: str, params: dict):
        return banditviz.run(setting.instance, alg, setting.horizon, setting.seed, snapshots=200, **params)

    first = trace(setting.algorithm, setting.params)
    present = q.get("present") == "1"
    if "race" in q:
        fig = figures.race(first, trace(q["race"], {}), controls=False, height=runs.WATCH_HEIGHT, present=present)
    else:
        fig = figures.animate(first, controls=False, height=runs.WATCH_HEIGHT, present=present)
    return fig.to_dict(), fig.layout.meta["bv"]


def cell(v) -> str:
    """A table value as the player writes it."""
    if isinstance(v, bool):
        return "yes" if v else ""
    if v is None:
        return ""
    if isinstance(v, (int, float)):
        return str(int(v)) if float(v).is_integer() else f"{v:.3f}"
    return str(v)


def spans(fig: dict) -> dict:
    return {k: np.array([np.ptp(fig["layout"][k][a + "axis"]["range"]) for a in "xyz"])
            for k in ("scene", "scene2") if k in fig["layout"]}


def disagreements(page, fig: dict, meta: dict) -> tuple[int | None, list[str]]:
    """The frame the page says is on screen (its explanation's round) and every way the page disagrees with it."""
    said = page.evaluate(ON_SCREEN)
    rounds = meta["rounds"]
    at = said["at"].removeprefix("Round ").strip()
    if not at.isdigit() or int(at) not in rounds:
        return None, [f"the explanation says {said['at']!r}"]
    frame = rounds.index(int(at))
    out = [] if said["slider"] == frame else [f"the slider is at frame {said['slider']}, the explanation at {frame}"]
    if not said["label"].startswith(f"round {rounds[frame]} "):
        out.append(f"the bar says {said['label']!r} at round {rounds[frame]}")
    if said["said"] != meta["explain"][frame]:
        out.append(f"the explanation says {said['said']}, round {rounds[frame]} says {meta['explain'][frame]}")
    if said["phase"] != (meta["phase"][frame] if meta.get("phase") else ""):
        out.append(f"the phase says {said['phase']!r}")
    want_rows = [[cell(v) for v in row] for row in meta["table"]["rows"][frame]]
    if said["rows"] != want_rows:
        out.append(f"the table shows {said['rows'][:2]}..., round {rounds[frame]} has {want_rows[:2]}...")
    out += drawn.mismatches(drawn.expected_traces(fig, frame), drawn.read(page, CHART), spans(fig))
    return frame, out


def assert_one_round(page, fig: dict, meta: dict, want: int | None = None, timeout: float = 20.0) -> int:
    """Polls until the chart, the explanation, the table and the bar all show one round (frame ``want`` if given):
    the frame. Fails with every disagreement seen last."""
    deadline = page.evaluate("() => performance.now()") + timeout * 1000
    while True:
        frame, bad = disagreements(page, fig, meta)
        if want is not None and frame != want:
            bad = [f"frame {frame} on screen, {want} expected"] + bad
        if not bad:
            return frame
        if page.evaluate("() => performance.now()") > deadline:
            raise AssertionError("\n".join(bad[:12]))
        page.wait_for_timeout(250)


def press(page, label: str) -> None:
    page.locator(".bv-bar button", has_text=label).click()


def pause(page) -> None:
    if page.evaluate(ON_SCREEN)["playing"]:
        press(page, "pause")
    page.wait_for_function("() => !window.__bv.players.bv_watch.playing")


@pytest.fixture(scope="module")
def tab(browser):
    context = browser.new_context(viewport=LAPTOP, reduced_motion=motion_option(True))  # autoplay, then pause
    log = ConsoleLog()
    log.watch(context)
    page = context.new_page()
    yield page, log.errors
    context.close()


def drive(page, fig: dict, meta: dict, rng: random.Random) -> None:
    """Drives a playing page as a person does, checking the round on screen after each move (`assert_one_round`):
    pause, a step each way, the slider twice, the keys End and Home, pause again, and play to the end at the fastest
    speed. Also drives an exported run (tests/browser/test_export_browser.py)."""
    n = len(meta["rounds"])
    pause(page)
    frame = assert_one_round(page, fig, meta)
    press(page, "step ▶")
    frame = assert_one_round(page, fig, meta, min(frame + 1, n - 1))
    press(page, "◀ step")
    assert_one_round(page, fig, meta, max(frame - 1, 0))
    for want in sorted(rng.sample(range(1, n - 1), 2)):
        page.locator(SLIDER).fill(str(want))
        assert_one_round(page, fig, meta, want)
    page.evaluate("() => document.activeElement.blur()")  # the keys act when no text field has the focus
    page.keyboard.press("End")
    assert_one_round(page, fig, meta, n - 1)
    page.keyboard.press("Home")  # restart: plays from the first round
    page.wait_for_function("() => window.__bv.players.bv_watch.playing")
    page.wait_for_timeout(rng.randint(200, 900))
    pause(page)
    assert_one_round(page, fig, meta)
    page.locator(".bv-bar select").select_option("fastest")
    press(page, "play")  # to the end
    page.wait_for_function("() => !window.__bv.players.bv_watch.playing", timeout=60_000)
    assert_one_round(page, fig, meta, n - 1)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_frame_reached_is_drawn_as_computed(tab, server, family):
    page, errors = tab
    query = f"{FAMILIES[family]}&T=2000&seed=0"
    fig, meta = computed(query)
    n = len(meta["rounds"])
    rng = random.Random(family)
    page.goto(f"{server}/?{query}")
    page.wait_for_function(READY, timeout=90_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(rng.randint(300, 1500))  # autoplay (a first visit) or not: stop somewhere
    drive(page, fig, meta, rng)
    if family in RERUN:  # a rerun that keeps the run (the Task menu changed, no Run): the same round stays
        page.locator(SLIDER).fill(str(n // 3))
        assert_one_round(page, fig, meta, n // 3)
        open_expander(page, CONTROLS)
        pick(page, "Task", "Identify the Pareto front")
        settle(page)
        page.wait_for_timeout(600)  # the rerun's elements settle
        assert_one_round(page, fig, meta, n // 3)
    assert errors == [], errors


def test_the_checker_rejects_a_chart_drawn_by_plotlys_fast_path(tab, server):
    """A broken drawing is caught: frames applied by ``Plotly.animate`` without redraw (the player before) leave
    the pulls' colours of the first frame and an emptied trace's marks (2-D), and leave the WebGL objects as they
    were (3-D)."""
    page, _ = tab
    for family in ("regret", "regret_3d"):
        query = f"{FAMILIES[family]}&T=2000&seed=0"
        fig, meta = computed(query)
        n = len(meta["rounds"])
        page.goto(f"{server}/?{query}")
        page.wait_for_function(READY, timeout=90_000)
        pause(page)
        page.evaluate("() => window.__bv.players.bv_watch.dispose()")  # the page's player stops drawing
        page.evaluate("""(f) => Plotly.animate(document.querySelector('.st-key-bv_watch .js-plotly-plot'), [String(f)],
          {frame: {duration: 0, redraw: false}, transition: {duration: 0}, mode: 'immediate'})""", n - 1)
        page.wait_for_function(f"() => ({DRAWN})().includes({n - 1})", timeout=30_000)  # its positions are drawn
        bad = drawn.mismatches(drawn.expected_traces(fig, n - 1), drawn.read(page, CHART), spans(fig))
        assert bad, family
        print(family, "fast path:", len(bad), "mismatches, e.g.", bad[:3])


def watch_page(new_context, server: str, query: str):
    """A laptop's page of a fresh session on the Watch link ``query``, its player ready and the page idle."""
    page = new_context(**LAPTOP).new_page()
    page.goto(f"{server}/?{query}")
    page.wait_for_function(READY, timeout=90_000)
    page.wait_for_function(IDLE, timeout=60_000)
    return page


# Plotly refuses the next n draws (n < 0: every one), as a chart being replaced or a broken draw would.
REFUSE = """(n) => {
  const P = window.Plotly;
  if (!P.__bvReact) P.__bvReact = P.react;
  window.__bvRefuse = n;
  P.react = function (...args) {
    if (window.__bvRefuse === 0) return P.__bvReact.apply(this, args);
    window.__bvRefuse -= 1;
    return Promise.reject(new Error('refused by the test'));
  };
}"""


def test_a_refused_draw_never_leaves_the_words_ahead_of_the_picture(new_context, console_log, server):
    """A draw Plotly refuses once is tried again: the chart, the explanation, the table and the bar reach the round
    asked for. A chart that keeps refusing keeps the round it shows, and so does the rest of the page; the console
    says which round was not drawn. Before, a refused draw was swallowed: the page said the next round beside the
    chart of the last, and stayed so."""
    query = f"{FAMILIES['regret']}&T=2000&seed=0"
    fig, meta = computed(query)
    page = watch_page(new_context, server, query)
    frame = assert_one_round(page, fig, meta)
    page.evaluate(REFUSE, 1)
    press(page, "step ▶")
    frame = assert_one_round(page, fig, meta, frame + 1)
    assert console_log.errors == []
    page.evaluate(REFUSE, -1)
    press(page, "step ▶")
    page.wait_for_function("() => window.__bvRefuse < -2")  # refused twice: asked and tried again
    page.wait_for_timeout(1_000)  # a later look (every 500 ms) would not move the page on either
    assert_one_round(page, fig, meta, frame)
    refused = f"banditviz player: round {meta['rounds'][frame + 1]} (frame {frame + 1}) was not drawn"
    assert console_log.errors and all(refused in e for e in console_log.errors), console_log.errors
    console_log.errors.clear()  # the errors this test caused, checked
    page.evaluate(REFUSE, 0)
    press(page, "step ▶")
    assert_one_round(page, fig, meta, frame + 1)


CAMERA = """() => { const e = document.querySelector('.st-key-bv_watch .js-plotly-plot')._fullLayout.scene._scene
  .getCamera().eye; return [e.x, e.y, e.z]; }"""


def test_the_round_on_screen_stays_when_the_chart_is_drawn_again(new_context, server):
    """The run stays where the person left it when its chart is drawn again: presentation mode turned on (paused) and
    off (playing: it plays on), the chart drawn anew by Streamlit for the same run (a visit to another page and back,
    here forced by giving the chart an equal copy of its frames' words), and a visit to another page and back. Before,
    each of them could send the run back to round 1 and stop it (the player took the same run at another height, or
    its chart drawn again, for another run)."""
    query = f"{FAMILIES['regret']}&T=2000&seed=0"
    fig, meta = computed(query)
    page = watch_page(new_context, server, query)
    page.locator(SLIDER).fill("80")
    assert_one_round(page, fig, meta, 80)
    toggled(page, page.locator("[data-testid='stMain']").get_by_text("Presentation mode"), True)
    assert_one_round(page, *computed(query + "&present=1"), 80)
    now = page.evaluate(STATE)
    assert (now["frame"], now["playing"]) == (80, False), now
    press(page, "play")
    page.wait_for_function("() => window.__bv.players.bv_watch.frame > 82")
    toggled(page, page.locator("[data-testid='stMain']").get_by_text("Presentation mode"), False)
    page.wait_for_function(READY)
    now = page.evaluate(STATE)
    assert now["playing"] and now["frame"] > 82, now
    pause(page)
    frame = assert_one_round(page, fig, meta)
    page.evaluate("""() => { const gd = document.querySelector('.st-key-bv_watch .js-plotly-plot');
      gd.layout.meta = JSON.parse(JSON.stringify(gd.layout.meta)); }""")  # the same run's chart, drawn again
    page.wait_for_timeout(1_200)  # the player looks every 500 ms
    assert_one_round(page, fig, meta, frame)
    for title in ("Design", "Compare"):
        go(page, title)
        go(page, "Watch")
        page.wait_for_function(READY, timeout=90_000)
        assert_one_round(page, fig, meta, frame)


def test_a_3d_run_turns_while_it_plays(new_context, server):
    """A person turns a 3-D run by dragging it while it plays, and the turn stays as the run plays on and when it
    is paused and stepped. Before, every frame drawn during the drag turned the scene back."""
    page = watch_page(new_context, server, f"{FAMILIES['regret_3d']}&T=2000&seed=0")
    page.locator(".bv-bar select").select_option("slow")
    press(page, "play")
    box = page.locator(CHART).first.bounding_box()
    x, y = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.6
    start, first = page.evaluate(CAMERA), page.evaluate(STATE)["frame"]
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(20):
        page.mouse.move(x + 8 * k, y - 2 * k)
        page.wait_for_timeout(60)
    page.mouse.up()
    turned = page.evaluate(CAMERA)
    assert np.abs(np.subtract(turned, start)).max() > 0.05, (start, turned)
    page.wait_for_function(f"() => window.__bv.players.bv_watch.frame > {first + 2}")  # frames drawn since the turn
    pause(page)
    press(page, "step ▶")
    page.wait_for_timeout(500)
    assert np.allclose(page.evaluate(CAMERA), turned, atol=1e-6), (turned, page.evaluate(CAMERA))


def _boxes_drawn(page, snapshot, arms_seen) -> list[str]:
    """Every arm with a pull has its box on screen, read from the SVG: its box clipped to the view is a drawn fill
    (unless it covers the whole view), each of its sides in the view lies on a drawn outline, and each side the view
    cuts has a drawn triangle on the view's edge in line with its estimate. Returns what is missing."""
    got = drawn.read(page, CHART)
    by_name = {}
    for t in got:
        by_name.setdefault(t["name"], []).append(t)
    ax = next(t for t in got if t["name"] == "estimated mean")
    x, y = ax["x"], ax["y"]
    px = lambda v, a, up: ((a["range"][1] - v) if up else (v - a["range"][0])) / np.ptp(a["range"]) * a["length"]  # noqa: E731
    fills = [sub for t in by_name["confidence box"] for f in t.get("fills", []) for sub in drawn.parse_path(f["d"])]
    lines = [sub for t in by_name["confidence box"] for ln in t.get("lines", []) for sub in drawn.parse_path(ln["d"])]
    segs = drawn._segments(lines)
    marks = np.array([p["at"] for t in by_name[CUT_LABEL] for p in t.get("points", [])]).reshape(-1, 2)
    missing = []
    r = np.array([x["range"], y["range"]])
    for arm in arms_seen:
        lo, hi = snapshot.lower[arm, :2], snapshot.upper[arm, :2]
        lo, hi = np.where(np.isnan(lo), -np.inf, lo), np.where(np.isnan(hi), np.inf, hi)
        cl, ch = np.clip(lo, r[:, 0], r[:, 1]), np.clip(hi, r[:, 0], r[:, 1])
        corners = np.array([[px(cl[0], x, False), px(cl[1], y, True)], [px(ch[0], x, False), px(ch[1], y, True)]])
        inside = (lo >= r[:, 0], hi <= r[:, 1])
        if any(inside[0]) or any(inside[1]):
            box = np.array([[corners[0, 0], corners[0, 1]], [corners[1, 0], corners[0, 1]],
                            [corners[1, 0], corners[1, 1]], [corners[0, 0], corners[1, 1]]])
            if not any(len(f) >= 4 and all(np.hypot(*(f[:, None, :] - c).T).min() <= drawn.TOL_PX for c in box)
                       for f in fills):
                missing.append(f"arm {arm}: no fill over its clipped box {np.round(box, 1).tolist()}")
        sides = [(inside[0][1], corners[0], [corners[1, 0], corners[0, 1]]),  # bottom: lower y in view
                 (inside[1][1], [corners[0, 0], corners[1, 1]], corners[1]),  # top
                 (inside[0][0], corners[0], [corners[0, 0], corners[1, 1]]),  # left
                 (inside[1][0], [corners[1, 0], corners[0, 1]], corners[1])]  # right
        for keep, a, b in sides:
            if keep:
                pts = drawn._samples(np.array([[*a, *b]]))
                if (drawn._distance(pts, segs) > drawn.TOL_PX).any():
                    missing.append(f"arm {arm}: a side in the view not outlined")
        est = snapshot.estimates[arm, :2]
        ex, ey = px(est[0], x, False), px(est[1], y, True)
        for cut, along_x in ((not inside[0][0], False), (not inside[1][0], False), (not inside[0][1], True),
                             (not inside[1][1], True)):
            if cut and not (np.abs(marks[:, 0 if along_x else 1] - (ex if along_x else ey)) <= drawn.TOL_PX).any():
                missing.append(f"arm {arm}: a cut side has no triangle in line with its estimate")
    return missing


def test_every_box_is_on_screen_from_the_first_round(tab, server):
    """Rounds 1 to 10 of the landing run (and the same rounds 3-D): every arm pulled so far has its confidence box on
    screen, read from the drawn SVG against the trace's bounds clipped to the drawn view (not the figure's data)."""
    page, _ = tab
    query = f"{FAMILIES['regret']}&T=2000&seed=0"
    setting = state.from_query(dict(urllib.parse.parse_qsl(query)))
    trace = banditviz.run(setting.instance, setting.algorithm, setting.horizon, setting.seed, snapshots=200)
    page.goto(f"{server}/?{query}")
    page.wait_for_function(READY, timeout=90_000)
    pause(page)
    for frame in range(10):
        page.locator(SLIDER).fill(str(frame))
        snap = trace.snapshots[frame]
        seen = np.flatnonzero(np.isfinite(snap.estimates).all(axis=1))
        assert len(seen) == frame + 1
        deadline = 20
        while True:
            missing = _boxes_drawn(page, snap, seen)
            if not missing or deadline <= 0:
                break
            page.wait_for_timeout(250)
            deadline -= 0.25
        assert missing == [], (frame, missing)
