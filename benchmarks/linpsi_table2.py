"""LinPSI Table 2 (App. I.1): the runtime of one GEGE run at each of the paper's sizes [K, h, d], fixed confidence
(delta = 0.1) and fixed budget (T = 500), averaged over 50 runs as in the paper.

The paper does not give its instances. Ours (our decision): K unit-norm features in R^h with uniform entries and
d correlated objectives Theta = 3 (v 1^T + 0.2 N(0, 1)) (independent objectives would make most arms Pareto optimal
with tiny gaps, and GEGE's fixed-confidence schedule is not scale-invariant), sigma = 0.5, seed 2. Each run is GEGE
alone with its rewards (`banditviz.simulate.drive`: no regret metrics), in CPU seconds of this process. Runtimes
depend on the machine (the paper's: an ARM laptop), so the Papers page shows them beside the paper's and gives no
verdict. Writes ``banditviz/results/linpsi_table2.json``.

    .venv/bin/python benchmarks/linpsi_table2.py [--runs 50]
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import banditviz as bv
from banditviz.instances import Instance
from banditviz.reproduce import RESULTS_DIR
from banditviz.simulate import drive

SIZES = ((10, 2, 2), (50, 8, 2), (100, 8, 4), (200, 8, 8), (500, 8, 8))  # [K, h, d] of LinPSI Table 2
PAPER_MS = {(10, 2, 2): (6, 217), (50, 8, 2): (7, 464), (100, 8, 4): (545, 791), (200, 8, 8): (768, 1139),
            (500, 8, 8): (1013, 2425)}  # (GEGE delta = 0.1, GEGE T = 500), ms


def instance(K: int, h: int, d: int, seed: int = 2) -> Instance:
    rng = np.random.default_rng(seed)
    X = rng.random((K, h))
    v = rng.normal(size=h)
    theta = 3 * (v[:, None] + 0.2 * rng.normal(size=(h, d)))
    return Instance.from_linear(X / np.linalg.norm(X, axis=1, keepdims=True), theta, sigma=0.5)


def per_run(inst: Instance, name: str, params: dict, horizon: int, runs: int) -> tuple[float, float]:
    """(CPU ms per run, mean samples per run)."""
    spec = bv.get_algorithm(name)
    drive(spec.make(**params), inst, horizon, 0)  # compile and warm up
    start = time.process_time()
    samples = [drive(spec.make(**params), inst, horizon, seed) for seed in range(runs)]
    return 1000 * (time.process_time() - start) / runs, float(np.mean(samples))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=50)
    args = ap.parse_args()
    rows = []
    for K, h, d in SIZES:
        inst = instance(K, h, d)
        fc, samples = per_run(inst, "gege_fc", {"delta": 0.1}, 5_000_000, args.runs)
        fb, _ = per_run(inst, "gege_fb", {"budget": 500}, 500, args.runs)
        paper_fc, paper_fb = PAPER_MS[(K, h, d)]
        rows.append({"[K, h, d]": f"[{K}, {h}, {d}]", "GEGE delta = 0.1, paper (ms)": paper_fc,
                     "GEGE delta = 0.1, ours (ms)": round(fc, 1), "its samples (ours)": round(samples),
                     "GEGE T = 500, paper (ms)": paper_fb, "GEGE T = 500, ours (ms)": round(fb, 1)})
        print(rows[-1], flush=True)
    out = {"machine": f"{platform.machine()}, {platform.processor() or platform.system()}",
           "runs": args.runs, "rows": rows}
    (RESULTS_DIR / "linpsi_table2.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
