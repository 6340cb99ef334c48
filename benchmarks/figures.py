"""Figure build time and JSON size against a naive reference in the same process.

Targets: the default Watch run (K = 10, L = 2, T = 2,000, 200 frames) under 2 MB of JSON and built in
under 0.5 s; a 3-D run with K = 30 under 5 MB.  The naive reference builds the same figure through
Plotly's validating constructors (``go.Figure(fig.to_dict())``), which is what `animate` avoids.

Playback: frames per second of the default 3-D Watch figure (default_3d, its default
algorithm, T = 2,000) stepped frame by frame in headless Chromium (software GL), each frame counted once the
browser has painted it (two animation frames later: WebGL scenes draw in requestAnimationFrame), with
``Plotly.animate`` and with ``Plotly.restyle`` of each frame's traces (what the Watch player does), at Plotly's
default WebGL resolution (plotGlPixelRatio 2) and at the app's (1, `banditviz_app.charts.CONFIG`); target >= 10
frames/s.  The reference in the same browser redraws each frame's whole figure with ``Plotly.react`` (what a
server round trip per frame costs at best).

Run:  .venv/bin/python benchmarks/figures.py [--fps-only]
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import plotly.graph_objects as go

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import banditviz as bv  # noqa: E402
from banditviz import figures, instances  # noqa: E402


def best_of(fn, repeat: int = 3, clock=time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def case(label: str, trace: bv.Trace, limit_mb: float, budget_s: float | None) -> None:
    figures.animate(trace)  # warm-up (lazy imports)
    build = best_of(lambda: figures.animate(trace))
    cpu = best_of(lambda: figures.animate(trace), clock=time.process_time)  # CPU time: robust to a busy machine
    fig = figures.animate(trace)
    size = len(fig.to_json()) / 1e6
    to_json = best_of(lambda: fig.to_json(), repeat=2)
    naive = best_of(lambda: go.Figure(fig.to_dict()), repeat=1)
    verdict = "ok" if size < limit_mb and (budget_s is None or cpu < budget_s) else "OVER"
    print(f"{label:42s} frames {len(fig.frames):3d}  build {build:6.3f} s wall, {cpu:6.3f} s CPU"
          f"{'' if budget_s is None else f' (budget {budget_s} s)'}  to_json {to_json:6.3f} s  "
          f"JSON {size:5.2f} MB (limit {limit_mb} MB)  naive validated build {naive:6.2f} s "
          f"(x{naive / build:5.1f})  {verdict}")


BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]
STEP_ALL = """async ([s, ratio]) => {
    const gd = document.getElementById('gd');
    const painted = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    await Plotly.newPlot(gd, s.data, s.layout, {responsive: false, plotGlPixelRatio: ratio});
    await Plotly.addFrames(gd, s.frames);
    const opts = {mode: 'immediate', transition: {duration: 0}, frame: {duration: 0, redraw: s.layout.meta.bv.redraw}};
    await Plotly.animate(gd, ['0'], opts);
    const t0 = performance.now();
    for (let n = 1; n < s.frames.length; n++) { await Plotly.animate(gd, [String(n)], opts); await painted(); }
    const step = (performance.now() - t0) / 1000;
    const t2 = performance.now();  // the same frames applied by Plotly.restyle of the frame's traces
    for (let n = 1; n < s.frames.length; n++) {
        const f = s.frames[n], keys = new Set(), upd = {};
        f.data.forEach(d => Object.keys(d).forEach(k => { if (k !== 'type') keys.add(k); }));
        keys.forEach(k => { upd[k] = f.data.map(d => d[k] === undefined ? null : d[k]); });
        await Plotly.restyle(gd, upd, f.traces);
        await painted();
    }
    const restyle = (performance.now() - t2) / 1000;
    const t1 = performance.now();  // reference: the whole figure of each frame redrawn by Plotly.react
    const base = s.data.map(t => ({...t}));
    for (let n = 1; n < s.frames.length; n++) {
        const f = s.frames[n];
        f.traces.forEach((k, i) => { base[k] = {...s.data[k], ...f.data[i]}; });
        await Plotly.react(gd, base.map(t => ({...t})), s.layout);
        await painted();
    }
    return [s.frames.length - 1, step, restyle, (performance.now() - t1) / 1000];
}"""


def browser_fps(fig: go.Figure, ratio: int) -> tuple[int, float, float, float]:
    """(frames stepped, seconds with Plotly.animate, with Plotly.restyle, with Plotly.react) in headless Chromium,
    WebGL drawn at ``ratio`` times the screen's resolution."""
    from playwright.sync_api import sync_playwright
    from plotly.offline import get_plotlyjs

    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "page.html"
        (Path(tmp) / "plotly.js").write_text(get_plotlyjs())
        page_path.write_text('<!doctype html><html><head><meta charset="utf-8"><script src="plotly.js"></script>'
                             '</head><body style="margin:0"><div id="gd"></div></body></html>')
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.set_default_timeout(600_000)
            page.goto(page_path.as_uri())
            n, step, restyle, react = page.evaluate(STEP_ALL, [json.loads(fig.to_json()), ratio])
            browser.close()
    return n, step, restyle, react


def fps_case() -> None:
    from banditviz_app import charts, state

    inst = bv.preset("default_3d")
    alg = state.default_algorithm(inst)
    fig = figures.animate(bv.run(inst, alg, state.DEFAULT_HORIZON, seed=0), controls=False, height=740)
    for ratio, who in ((2, "Plotly's default"), (charts.CONFIG["plotGlPixelRatio"], "the app's")):
        n, step, restyle, react = browser_fps(fig, ratio)
        print(f"3-D playback, default_3d, {alg}, T={state.DEFAULT_HORIZON}, {n} frames painted, plotGlPixelRatio "
              f"{ratio} ({who}): Plotly.animate {n / step:.1f} frames/s, Plotly.restyle of the frame's traces (the "
              f"player) {n / restyle:.1f} frames/s, reference Plotly.react of the whole figure {n / react:.1f} "
              f"frames/s; target >= 10: {'ok' if n / restyle >= 10 else 'SLOW'}")
    print(f"figure JSON {len(fig.to_json()) / 1e6:.2f} MB")


def main() -> None:
    print("figures benchmark (best of 3; the machine is shared, so compare ratios)")
    fps_case()
    if "--fps-only" in sys.argv:
        return
    for alg in ("pareto_ucb1", "pareto_ts"):
        case(f"default 2-D, {alg}, T=2000", bv.run(bv.preset("default"), alg, 2000, seed=0), 2.0, 0.5)
    case("uniform_box(30, 3), pareto_ucb1, T=2000",
         bv.run(instances.uniform_box(30, 3), "pareto_ucb1", 2000, seed=0), 5.0, None)
    case("default_3d, pareto_ts, T=2000", bv.run(bv.preset("default_3d"), "pareto_ts", 2000, seed=0), 5.0, None)
    frame_rows = []
    for seed in range(20):
        tr = bv.run(bv.preset("default"), "pareto_ucb1", 20000, seed=seed, snapshots=0)
        frame_rows.append(tr.to_frame()[["round", "pareto_regret"]].assign(algorithm="pareto_ucb1", seed=seed))
    import pandas as pd

    frame = pd.concat(frame_rows, ignore_index=True)
    t = best_of(lambda: figures.regret_curves(frame))
    print(f"regret_curves, 20 seeds x 20,000 rounds: {t:.3f} s, "
          f"JSON {len(figures.regret_curves(frame).to_json()) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
