"""Precompute the Experiment 2 traces of the risk-averse paper (RAMGapE Sec. 4, Experiment 2) into the cache.

epsilon = 0, delta = 0.05, rho = 0.01; Table 3 pattern 10 (Exp 2.1, 6 Pareto arms) and pattern 46 (Exp 2.2,
2 Pareto arms); RAMGapEc, RA-LUCB, DE Round-Robin and Round-Robin. Each run takes 10^7 - 5*10^7 samples with
the compiled kernel (seconds to a minute of CPU each). The traces (200 snapshots, ~0.1 MB each) go to
``~/.cache/banditviz`` (or $BANDITVIZ_CACHE), where `banditviz.experiments.ramgape.experiment2_trace` -- the
function the app calls -- finds them; the app computes a missing one on first use. ``--ship`` also copies them
into ``banditviz/experiments/ramgape_exp2/`` (committed for RAMGapEc only: two files, ~0.2 MB).

    .venv/bin/python benchmarks/precompute_experiment2.py [--pattern 46] [--algorithm ramgape_c] [--seed 1] [--ship]
"""

from __future__ import annotations

import argparse
import shutil
import time

import numpy as np

from banditviz.experiments.ramgape import (
    EXP2_ALGORITHMS,
    EXP2_PATTERNS,
    MAX_SAMPLES,
    SHIPPED_DIR,
    cache_dir,
    experiment2_filename,
    experiment2_trace,
)
from banditviz.pareto import mean_variance


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pattern", type=int, choices=EXP2_PATTERNS, action="append")
    ap.add_argument("--algorithm", choices=EXP2_ALGORITHMS, action="append")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--refresh", action="store_true", help="recompute even if cached")
    ap.add_argument("--ship", action="store_true", help="also copy the traces into the package (SHIPPED_DIR)")
    args = ap.parse_args()
    for pattern in args.pattern or EXP2_PATTERNS:
        for alg in args.algorithm or EXP2_ALGORITHMS:
            t0 = time.process_time()
            tr = experiment2_trace(pattern, alg, seed=args.seed, refresh=args.refresh)
            last = tr.snapshots[-1]
            exact = set(tr.recommendation or ()) == set(mean_variance.pareto_set(tr.instance))
            print(f"pattern {pattern:2d} {alg:16s} stopped at {tr.info['samples']:>12,} samples "
                  f"(exact D+: {exact}) cpu {time.process_time() - t0:6.1f} s")
            print("    beta at stopping:", np.array2string(last.extras["beta"], precision=4))
            print("    pulls:           ", last.counts.tolist())
            if args.ship:
                name = experiment2_filename(pattern, alg, args.seed, 200, MAX_SAMPLES)
                SHIPPED_DIR.mkdir(exist_ok=True)
                shutil.copyfile(cache_dir() / name, SHIPPED_DIR / name)
    sizes = [p.stat().st_size for p in cache_dir().glob("risk_exp2_*.npz")]
    print(f"cache {cache_dir()}: {len(sizes)} traces, {sum(sizes) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
