"""Screenshot animated figures at chosen rounds in headless Chromium (what a class sees on a projector).

Run:  .venv/bin/python tests/visual/shoot_rounds.py [name ...]
Writes ``artifacts/visual/rounds/<name>_r<round>.png`` at rounds 1, 10, 100 and the last (the frame at or
before each round, from ``fig.layout.meta["bv"]["rounds"]``), for the 2-D, 3-D, lexicographic, identify,
race and Learn-step-3 figures. The page loads the plotly.js bundled in the plotly package (no network;
kaleido is not needed). Needs Debian's chromium (never ``playwright install``).
"""

from __future__ import annotations

import bisect
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import banditviz as bv  # noqa: E402
from banditviz import figures, instances  # noqa: E402

OUT = ROOT / "artifacts" / "visual" / "rounds"
VIEWPORT = {"width": 1366, "height": 768}
HEIGHT = int(sys.argv.pop(1)) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 740
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PAGE = """<!doctype html><html><head><meta charset="utf-8"><script src="plotly.js"></script>
<style>body{margin:0;background:white}</style></head><body><div id="gd"></div></body></html>"""


def figure_builders() -> dict[str, Callable[[], go.Figure]]:
    def watch(preset, alg: str, T: int, seed: int = 0, **kw) -> Callable[[], go.Figure]:
        inst = bv.preset(preset) if isinstance(preset, str) else preset
        return lambda: figures.animate(bv.run(inst, alg, T, seed=seed), controls=False, height=740, **kw)

    def race() -> go.Figure:
        inst = bv.preset("default")
        return figures.race(bv.run(inst, "pareto_ucb1", 2000, seed=0), bv.run(inst, "uniform", 2000, seed=0),
                            controls=False, height=740)

    def learn_step3() -> go.Figure:
        return figures.animate(bv.run(bv.preset("default"), "uniform", 10, 0, snapshots=1), max_frames=2,
                               controls=False, height=740)

    return {"watch_2d": watch("default", "pareto_ucb1", 2000),
            "watch_3d": watch("default_3d", "pareto_ucb1", 2000),
            "watch_3d_k30": watch(instances.uniform_box(30, 3), "mo_epsilon_greedy", 2000),
            "watch_identify": watch("psi_gap_example", "gege_fc", 20000),
            "watch_lexicographic": watch("lexicographic_lambda_0.1", "mte2lo", 2000),
            "race_2d": race, "learn_step3": learn_step3}


def frame_at(rounds: list[int], t: int) -> int:
    return max(0, bisect.bisect_right(rounds, t) - 1)


def shoot(names: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "plotly.js").write_text(get_plotlyjs())
    (OUT / "page.html").write_text(PAGE)
    builders = figure_builders()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), headless=True, args=ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(120_000)
        for name in names or list(builders):
            fig = builders[name]()
            fig.update_layout(height=HEIGHT)
            spec = json.loads(fig.to_json())
            rounds = spec["layout"]["meta"]["bv"]["rounds"]
            page.goto((OUT / "page.html").as_uri())
            page.evaluate("""s => Plotly.newPlot('gd', s.data, s.layout, {responsive: true})
                                   .then(gd => Plotly.addFrames(gd, s.frames))""", spec)
            for t in sorted({1, 10, 100, rounds[-1]}):
                n = frame_at(rounds, t)
                page.evaluate("""n => Plotly.animate('gd', [String(n)], {mode: 'immediate',
                    transition: {duration: 0}, frame: {duration: 0, redraw: true}})""", n)
                page.wait_for_timeout(600)
                path = OUT / f"{name}_r{t}.png"
                page.screenshot(path=str(path))
                print("wrote", path.name, "frame", n, "round", rounds[n])
        browser.close()


if __name__ == "__main__":
    shoot(sys.argv[1:])
