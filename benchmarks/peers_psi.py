"""Our identification runs against the authors' code of Kone et al. (GitHub ``cyrille-kone/linear_psi``) on the
fixed-budget NoC workload of its notebook: T = 3,995 pulls, Gaussian noise (sigma = 0.25 on every objective).

Not part of the tests, and not run where banditviz is developed (no copy of that repository there): give the
path of a local checkout whose C++ extension is built (``python setup.py build_ext --inplace`` in it). Their
code is imported from that path and called through its own interface (``lib.bandits.Gaussian``,
``cpp.policies.py_ege_sr`` / ``py_ege_sh``, ``lib.policies.GEGE.loop_fb``); nothing of it is copied here.

Each line: median wall time per run over SEEDS seeds, theirs and ours (`banditviz.run`, full trace with
regret metrics), same process, interleaved; ratio = theirs / ours. Targets: EGE-SR and EGE-SH at
least as fast as their C++ (ratio >= 1), GEGE >= 50x their Python.

Usage: ``.venv/bin/python benchmarks/peers_psi.py PATH/TO/linear_psi [path/to/noc_CM_log.csv]``
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

import banditviz

HORIZON, SIGMA, SEEDS = 3995, 0.25, 20


def median_seconds(call: Callable[[int], object]) -> float:
    times = []
    for seed in range(SEEDS):
        start = time.perf_counter()
        call(seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    from cpp.policies import py_ege_sh, py_ege_sr  # their C++ through Cython
    from lib.bandits import Gaussian
    from lib.policies import GEGE

    inst = banditviz.preset("noc", csv_path=sys.argv[2] if len(sys.argv) > 2 else None, sigma=SIGMA)
    theirs_bandit = Gaussian(np.array(inst.means), np.full(inst.L, SIGMA))
    X = np.array(inst.features)
    pairs = {
        "EGE-SR (their C++)": (lambda s: py_ege_sr(theirs_bandit).loop(s, HORIZON), "ege_sr", 1.0),
        "EGE-SH (their C++)": (lambda s: py_ege_sh(theirs_bandit).loop(s, HORIZON), "ege_sh", 1.0),
        "GEGE-FB (their Python)": (lambda s: GEGE(theirs_bandit, X).loop_fb(s, HORIZON), "gege_fb", 50.0),
    }
    print(f"NoC fixed budget: K={inst.K}, h={X.shape[1]}, T={HORIZON:,}, sigma={SIGMA}; medians of {SEEDS} seeds")
    for label, (theirs, ours, target) in pairs.items():
        banditviz.run(inst, ours, HORIZON, 0, snapshots=0)  # load compiled kernels once
        t_theirs = median_seconds(theirs)
        t_ours = median_seconds(lambda s, name=ours: banditviz.run(inst, name, HORIZON, s, snapshots=0))
        ratio = t_theirs / t_ours
        print(f"  {label:<24} {1e3 * t_theirs:8.1f} ms   ours ({ours}) {1e3 * t_ours:8.1f} ms   "
              f"ratio {ratio:6.1f}x   target >= {target:g}x {'OK' if ratio >= target else 'MISSED'}")


if __name__ == "__main__":
    main()
