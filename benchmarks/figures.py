"""Figure build time and JSON size (issue 6 targets), against a naive reference in the same process.

Targets: the default Watch run (K = 10, L = 2, T = 2,000, 200 frames) under 2 MB of JSON and built in
under 0.5 s; a 3-D run with K = 30 under 5 MB.  The naive reference builds the same figure through
Plotly's validating constructors (``go.Figure(fig.to_dict())``), which is what `animate` avoids.

Run:  .venv/bin/python benchmarks/figures.py
"""

from __future__ import annotations

import sys
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


def main() -> None:
    print("figures benchmark (best of 3; the machine is shared, so compare ratios)")
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
