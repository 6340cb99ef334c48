"""Compare page, click to result: the app's cached sweep (`banditviz_app.runs.cached_sweep`) of its default
workloads, against the Python engine (every round through the algorithm classes) run in this process.

Workloads (3 algorithms x 50 seeds x T = 20,000, the Compare page's largest setting):

* classic family on preset "default" (Pareto UCB1, Pareto TS, MO epsilon-greedy): compiled round loops;
* identification family on preset "default" (GEGE fixed budget and confidence, PFIwR);
* linear regret family on preset "mol_ts_2d" (MOL-TS, MOL-UCB, MOL epsilon-greedy).

Each workload is timed as the app runs it (backend chosen by `runs.sweep_backend`, a cold cache: the
median of REPEATS presses), and the reference (`sweep(..., batch=False)`, serial) is timed on
REFERENCE_SEEDS seeds and scaled to 50 (runs are independent, so a sweep's time is the sum of its runs'
times). The first press of a fresh process also loads the compiled kernels from numba's on-disk cache:
printed apart. The machine is shared (2 cores, several users): absolute seconds are noisy, the ratios
(same process, interleaved) much less so. Targets (issue 17): < 2 s classic and identification, < 5 s linear.
"""

from __future__ import annotations

import os
import statistics
import time

import banditviz
from banditviz_app import runs, state

SEEDS, HORIZON, REPEATS, REFERENCE_SEEDS = 50, 20_000, 3, 2
WORKLOADS = {
    "classic": ("default", ["pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"], 2.0),
    "identification": ("default", ["gege_fb", "gege_fc", "pfiwr"], 2.0),
    "linear regret": ("mol_ts_2d", ["mol_ts", "mol_ucb", "mol_eps_greedy"], 5.0),
}


def press(inst_json: str, entries: tuple, seeds: int) -> float:
    """Seconds of one Compare press on a cold cache."""
    runs._SWEEPS.clear()
    start = time.perf_counter()
    runs.cached_sweep(inst_json, entries, seeds, HORIZON)
    return time.perf_counter() - start


def reference(inst: banditviz.Instance, names: list[str]) -> float:
    """Seconds of the Python engine on REFERENCE_SEEDS seeds, scaled to SEEDS."""
    start = time.perf_counter()
    banditviz.sweep(inst, names, REFERENCE_SEEDS, HORIZON, batch=False)
    return (time.perf_counter() - start) * SEEDS / REFERENCE_SEEDS


def main() -> None:
    print(f"{SEEDS} seeds x T = {HORIZON:,}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    first = None
    for family, (preset, names, target) in WORKLOADS.items():
        inst = banditviz.preset(preset)
        inst_json, entries = state.compact_json(inst), runs.sweep_entries(names)
        if first is None:
            first = press(inst_json, entries, 1)
            print(f"  first press of the process (1 seed, numba cache load included): {first:.2f} s")
        backend = runs.sweep_backend(inst.kind, names, SEEDS, HORIZON)
        app = statistics.median(press(inst_json, entries, SEEDS) for _ in range(REPEATS))
        ref = reference(inst, names)
        print(f"  {family:<15} {', '.join(names)} on {preset!r}: app {app:6.2f} s ({backend}), "
              f"Python engine {ref:7.1f} s (scaled from {REFERENCE_SEEDS} seeds), ratio {ref / app:5.1f}x, "
              f"target < {target:g} s {'OK' if app < target else 'MISSED'}")


if __name__ == "__main__":
    main()
