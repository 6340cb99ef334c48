"""Our MOL-UCB against the public MOSLB code (GitHub ``jicheng9617/moslb``, class ``moslb``: Pareto UCB for
multi-objective stochastic linear bandits) on the linear instance of MOL-TS's Figure 11 (K = 100, d = 10, L = 4).

Not part of the tests, and not run where banditviz is developed (no copy of that repository there): give the
path of a local checkout. Their class is imported from that path and driven through its own interface
(``reset``, ``take_action(contexts)``, ``update_params(context, reward)``) with the rewards of our
`Environment` (same seed, same noise); nothing of it is copied here.

Per horizon: wall seconds of one run each, theirs and ours (`banditviz.run`, full trace with regret
metrics), medians of SEEDS seeds, ratio = theirs / ours. Their update refits on the whole history, so their
cost per round grows with t; ours is incremental (Sherman-Morrison). Targets: >= 20x at
T = 1,000 and >= 100x at T = 8,000.

Usage: ``.venv/bin/python benchmarks/peers_moslb.py PATH/TO/moslb``
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np

import banditviz
from banditviz.environment import Environment

SEEDS = 3
TARGETS = {1_000: 20.0, 8_000: 100.0}


def theirs(moslb_class: type, inst: banditviz.Instance, horizon: int, seed: int) -> float:
    env = Environment(inst, seed)
    X = np.array(inst.features)
    alg = moslb_class(num_dim=inst.d, num_obj=inst.L)
    alg.reset()
    np.random.seed(seed)  # their arm choice draws from numpy's global generator
    start = time.perf_counter()
    for _ in range(horizon):
        arm = alg.take_action(X)
        alg.update_params(X[arm], env.pull(arm))
    return time.perf_counter() - start


def ours(inst: banditviz.Instance, horizon: int, seed: int) -> float:
    start = time.perf_counter()
    banditviz.run(inst, "mol_ucb", horizon, seed, snapshots=0)
    return time.perf_counter() - start


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    from moslb import moslb

    inst = banditviz.preset("mol_ts_fig11")
    print(f"MOL-UCB vs MOSLB's moslb on {inst.name!r} (K={inst.K}, d={inst.d}, L={inst.L}); medians of {SEEDS} seeds")
    ours(inst, 100, 0)
    for horizon, target in TARGETS.items():
        t_theirs = statistics.median(theirs(moslb, inst, horizon, s) for s in range(SEEDS))
        t_ours = statistics.median(ours(inst, horizon, s) for s in range(SEEDS))
        ratio = t_theirs / t_ours
        print(f"  T={horizon:>6,}: theirs {t_theirs:8.2f} s   ours {t_ours:6.3f} s   ratio {ratio:6.1f}x   "
              f"target >= {target:g}x {'OK' if ratio >= target else 'MISSED'}")


if __name__ == "__main__":
    main()
