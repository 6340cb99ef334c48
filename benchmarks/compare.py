"""Compare page, click to result: the app's cached sweep (`banditviz_app.runs.cached_sweep`) of its default
workloads, against the Python engine (every round through the algorithm classes) run in this process.

Workloads (3 algorithms x 50 seeds x T = 20,000, the Compare page's largest setting):

* classic family on preset "default" (Pareto UCB1, Pareto TS, MO epsilon-greedy): compiled round loops;
* identification family on preset "default" (GEGE fixed budget and confidence, PFIwR);
* risk-averse identification on preset "risk_averse_table1" (RAMGapE-c, RA-LUCB, RA round robin, fixed confidence;
  none stops within 20,000 samples there): the compiled loop of `banditviz.algorithms.ramgape._loop`;
* lexicographic family on preset "lexicographic_lambda_0.1" (STE2LO, MTE2LO, OFUL) and the MOL baselines on the
  linear MOL-TS preset "mol_ts_fig11" (MOL-UCB, MOL-epsilon-greedy; K = 100, L = 4): the compiled loop of the
  linear learners (`banditviz.algorithms._linear_loop`).

* MOL-TS with its baselines on the contextual main preset "mol_ts_main" (MOL-TS, MOL-UCB, MOL-epsilon-greedy;
  K = 50, d = 5, L = 4, contexts drawn every round, both regrets): the compiled loop of the MOL learners on
  contextual instances (`banditviz.algorithms._contextual_loop`); its reference on 1 seed (the Python engine plays a
  few thousand rounds a second there).

Each workload is timed as the app runs it (backend chosen by `runs.sweep_backend`: threads of the app's process
when every run is in a compiled loop, which releases the GIL; a cold cache: the median of REPEATS presses), and the
reference (`sweep(..., batch=False)`, serial) is timed on REFERENCE_SEEDS seeds and scaled to 50 (runs are
independent, so a sweep's time is the sum of its runs' times). The first press of a fresh process also loads the
compiled kernels from numba's on-disk cache: printed apart. The machine is shared (2 cores, several users):
absolute seconds are noisy, the ratios (same process, interleaved) much less so; CPU seconds of an in-process press
are what it would take on an idle core. Targets: < 2 s classic, identification and risk-averse, < 5 s linear,
< 10 s MOL-TS (issue 29).
"""

from __future__ import annotations

import os
import sys
import time

import banditviz
from banditviz_app import runs, state

SEEDS, HORIZON, REPEATS, REFERENCE_SEEDS = 50, 20_000, 3, 2
WORKLOADS = {  # family: preset, algorithms, target seconds
    "classic": ("default", ["pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"], 2.0),
    "identification": ("default", ["gege_fb", "gege_fc", "pfiwr"], 2.0),
    "risk-averse": ("risk_averse_table1", ["ramgape_c", "ra_lucb", "ra_round_robin"], 2.0),
    "lexicographic": ("lexicographic_lambda_0.1", ["ste2lo", "mte2lo", "oful"], 5.0),
    "linear (MOL)": ("mol_ts_fig11", ["mol_ucb", "mol_eps_greedy"], 5.0),
    "MOL-TS (contextual)": ("mol_ts_main", ["mol_ts", "mol_ucb", "mol_eps_greedy"], 10.0),
}
REFERENCE_SEEDS_OF = {"MOL-TS (contextual)": 1}  # workloads whose Python reference runs on fewer seeds


def press(inst_json: str, entries: tuple, seeds: int) -> tuple[float, float]:
    """Wall and CPU seconds (this process: the app's own when the sweep runs in-process) of one Compare press
    on a cold cache."""
    runs._SWEEPS.clear()
    start, cpu = time.perf_counter(), time.process_time()
    runs.cached_sweep(inst_json, entries, seeds, HORIZON)
    return time.perf_counter() - start, time.process_time() - cpu


def reference(inst: banditviz.Instance, names: list[str], seeds: int) -> tuple[float, float]:
    """Wall and CPU seconds of the Python engine on ``seeds`` seeds, scaled to SEEDS."""
    start, cpu = time.perf_counter(), time.process_time()
    banditviz.sweep(inst, names, seeds, HORIZON, batch=False)
    scale = SEEDS / seeds
    return (time.perf_counter() - start) * scale, (time.process_time() - cpu) * scale


def main() -> None:
    print(f"{SEEDS} seeds x T = {HORIZON:,}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    first = None
    chosen = sys.argv[1:] or list(WORKLOADS)  # e.g. `python benchmarks/compare.py lexicographic`
    for family, (preset, names, target) in ((f, WORKLOADS[f]) for f in chosen):
        inst = banditviz.preset(preset)
        inst_json, entries = state.compact_json(inst), runs.sweep_entries(names)
        if first is None:
            first = press(inst_json, entries, 1)[0]
            print(f"  first press of the process (1 seed, numba cache load included): {first:.2f} s")
        backend = runs.sweep_backend(inst.kind, names, SEEDS, HORIZON)
        app, app_cpu = sorted(press(inst_json, entries, SEEDS) for _ in range(REPEATS))[REPEATS // 2]
        ref_seeds = REFERENCE_SEEDS_OF.get(family, REFERENCE_SEEDS)
        ref, ref_cpu = reference(inst, names, ref_seeds)
        cpu = f"{app_cpu:.2f} s CPU" if backend in ("serial", "threads") else "CPU in the workers"
        print(f"  {family:<15} {', '.join(names)} on {preset!r}: app {app:6.2f} s wall ({cpu}; {backend}), "
              f"Python engine {ref:7.1f} s wall {ref_cpu:7.1f} s CPU (scaled from {ref_seeds} seeds), "
              f"ratio {ref / app:5.1f}x, target < {target:g} s {'OK' if app < target else 'MISSED'}")


if __name__ == "__main__":
    main()
