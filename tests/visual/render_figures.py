"""Render every figure kind to HTML, open it in headless Chromium, press play, and screenshot it.

Run:  .venv/bin/python tests/visual/render_figures.py [name ...]
Writes ``artifacts/visual/<name>.html`` and, for animated figures, ``<name>_mid.png`` (2.5 s after
pressing play, then pause) and ``<name>_end.png`` (the last frame, jumped to as the slider would);
``<name>.png`` for static ones.  Look at the PNGs: they are what a class sees on a projector.
Needs Debian's chromium (never ``playwright install``); no network.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import banditviz as bv  # noqa: E402
from banditviz import figures, fronts, instances  # noqa: E402

OUT = ROOT / "artifacts" / "visual"
VIEWPORT = {"width": 1600, "height": 900}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def _runs_frame(instance: bv.Instance, algorithms: list[str], horizon: int, seeds: int) -> pd.DataFrame:
    rows = []
    for alg in algorithms:
        for seed in range(seeds):
            tr = bv.run(instance, alg, horizon, seed=seed, snapshots=0)
            df = tr.to_frame()[["round", "pareto_regret", "effective_regret"]]
            rows.append(df.assign(algorithm=alg, seed=seed))
    return pd.concat(rows, ignore_index=True)


def _watch(preset: str | bv.Instance, algorithm: str, horizon: int, seed: int = 0, **kw) -> Callable[[], go.Figure]:
    def build() -> go.Figure:
        inst = bv.preset(preset) if isinstance(preset, str) else preset
        return figures.animate(bv.run(inst, algorithm, horizon, seed=seed), **kw)
    return build


def animated() -> dict[str, Callable[[], go.Figure]]:
    """One animated figure per layout: 2-D, 3-D (K = 12 and K = 30), L > 3 pair, lexicographic, risk-averse."""
    out = {
        "watch_2d": _watch("default", "pareto_ucb1", 2000, seed=1),
        "watch_2d_ts": _watch("default", "pareto_ts", 2000, seed=2),
        "watch_3d": _watch("default_3d", "pareto_ucb1", 2000, seed=1),
        "watch_3d_k30": _watch(instances.uniform_box(30, 3), "mo_epsilon_greedy", 3000),
        "watch_pair_of_l4": _watch(instances.uniform_box(12, 4), "pareto_ucb1", 1500, objectives=(0, 2)),
    }
    if "ste2lo" in bv.ALGORITHMS:
        out["watch_lexicographic"] = _watch("lexicographic_lambda_0.1", "ste2lo", 3000, objectives=(0, 1, 2))
    if "ramgape_c" in bv.ALGORITHMS:
        out["watch_risk_averse"] = _watch("risk_averse_easy", "ramgape_c", 20000)
    if "mol_ts" in bv.ALGORITHMS:
        out["watch_contextual"] = _watch("mol_ts_2d", "mol_ts", 1000)
    if "gege_fc" in bv.ALGORITHMS and "psi_gap_example" in bv.PRESETS:
        out["watch_identify"] = _watch("psi_gap_example", "gege_fc", 20000)
    return out


def static() -> dict[str, Callable[[], go.Figure]]:
    return {k: (lambda k=k: _static(k)) for k in
            ("preview_2d", "preview_3d", "preview_risk_averse", "preview_contextual", "regret_curves",
             "regret_curves_log", "sample_complexity", "success_rate", "pull_counts", "attainment",
             "attainment_real")}


def _static(name: str) -> go.Figure:
    frame = _runs_frame(bv.preset("default"), ["pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"], 1000, 8) \
        if name.startswith("regret") else None
    rng = np.random.default_rng(0)
    sc = pd.DataFrame({"algorithm": np.repeat(["GEGE", "APE", "round robin"], 20), "seed": np.tile(range(20), 3),
                       "stopped_at": np.concatenate([rng.normal(m, m / 8, 20) for m in (3e3, 5e3, 9e3)]).round(),
                       "correct": rng.random(60) < np.repeat([0.95, 0.9, 0.7], 20)})
    tr = bv.run(bv.preset("default"), "pareto_ts", 2000, seed=1)
    builders = {
        "preview_2d": lambda: figures.instance_preview(bv.preset("default")),
        "preview_3d": lambda: figures.instance_preview(bv.preset("default_3d")),
        "preview_risk_averse": lambda: figures.instance_preview(bv.preset("risk_averse_easy")),
        "preview_contextual": lambda: figures.instance_preview(bv.preset("mol_ts_2d")),
        "regret_curves": lambda: figures.regret_curves(frame),
        "regret_curves_log": lambda: figures.regret_curves(frame, metric="effective_regret", log_x=True),
        "sample_complexity": lambda: figures.sample_complexity_chart(sc),
        "success_rate": lambda: figures.success_rate_chart(sc),
        "pull_counts": lambda: figures.pull_counts(tr),
        "attainment": lambda: figures.eaf_chart(fronts.run_fronts(
            bv.preset("default"), [("pareto_ucb1", {}), ("uniform", {}), ("mo_epsilon_greedy", {})], range(12), 400),
            bv.preset("default")),
        "attainment_real": lambda: figures.eaf_chart(fronts.run_fronts(
            bv.preset("disc_brake"), [("pareto_ucb1", {}), ("uniform", {})], range(12), 1500), bv.preset("disc_brake")),
    }
    return builders[name]()


def shoot(figs: dict[str, Callable[[], go.Figure]], animate_them: bool) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                    headless=True, args=ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(120_000)  # software WebGL redraws 3-D frames slowly
        for name, build in figs.items():
            fig = build()
            html = OUT / f"{name}.html"
            fig.write_html(html, include_plotlyjs="directory", auto_play=False,
                           config={"responsive": True})
            page.goto(html.as_uri())
            page.wait_for_selector(".main-svg", timeout=30000)
            page.wait_for_timeout(800)
            if not animate_them:
                page.screenshot(path=str(OUT / f"{name}.png"))
                print("wrote", name)
                continue
            page.locator("g.updatemenu-button").filter(has_text="play").first.click()
            page.wait_for_timeout(2500)
            page.locator("g.updatemenu-button").filter(has_text="pause").first.click()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(OUT / f"{name}_mid.png"))
            frames = len(fig.frames)
            page.evaluate("""n => { const gd = document.querySelector('.plotly-graph-div');
                return Plotly.animate(gd, [String(n - 1)], {mode: 'immediate', transition: {duration: 0},
                                                            frame: {duration: 0, redraw: true}}); }""", frames)
            page.wait_for_timeout(2500)
            page.screenshot(path=str(OUT / f"{name}_end.png"))
            print("wrote", name, "after", frames, "frames")
        browser.close()


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    t = time.time()
    anim = {k: v for k, v in animated().items() if not names or k in names}
    stat = {k: v for k, v in static().items() if not names or k in names}
    shoot(anim, animate_them=True)
    shoot(stat, animate_them=False)
    print(f"rendered {len(anim) + len(stat)} figures in {time.time() - t:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
