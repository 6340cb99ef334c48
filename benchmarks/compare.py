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

MOL-TS itself has no compiled loop (its uniform draw from the effective front solves LPs): its press is the
Python engine's time (`benchmarks/regret.py` gives its rounds per second).

Each workload is timed as the app runs it (backend chosen by `runs.sweep_backend`: threads of the app's process
when every run is in a compiled loop, which releases the GIL; a cold cache: the median of REPEATS presses), and the
reference (`sweep(..., batch=False)`, serial) is timed on REFERENCE_SEEDS seeds and scaled to 50 (runs are
independent, so a sweep's time is the sum of its runs' times). The first press of a fresh process also loads the
compiled kernels from numba's on-disk cache: printed apart. The machine is shared (2 cores, several users):
absolute seconds are noisy, the ratios (same process, interleaved) much less so; CPU seconds of an in-process press
are what it would take on an idle core. Targets: < 2 s classic, identification and risk-averse, < 5 s linear.

``python benchmarks/compare.py --defaults`` times instead the page's default workload of each family (issue 29:
< 5 s wall each): the current algorithm and the first others of its task that run on the instance, four in all
(`pages/compare.py`), 5 seeds, T = 2,000 (the app's default horizon), against the Python engine on all 5 seeds.
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
}
PAGE_SEEDS, PAGE_HORIZON, PAGE_TARGET = 5, 2_000, 5.0  # the Compare page's defaults (`pages/compare.py`)
PAGE_DEFAULTS = {  # family: preset, the current algorithm (the app's default for the kind, else the task's first)
    "classic": ("default", "pareto_ucb1"),
    "identification": ("default", "pfiwr"),
    "lexicographic": ("lexicographic_lambda_0.1", "ste2lo"),
    "risk-averse": ("risk_averse_table1", "ramgape_b"),
    "linear (MOL)": ("mol_ts_fig11", "mol_ts"),
    "contextual (MOL)": ("mol_ts_main", "mol_ts"),
}


def page_algorithms(kind: str, current: str) -> list[str]:
    """The Compare form's default algorithms: the current one and the others of its task for ``kind``, four in all."""
    task = banditviz.get_algorithm(current).task
    others = (n for n, s in banditviz.ALGORITHMS.items() if kind in s.kinds and s.task == task and n != current)
    return [current, *others][:4]


def page_defaults(chosen: list[str]) -> None:
    for family in chosen:
        preset, current = PAGE_DEFAULTS[family]
        inst = banditviz.preset(preset)
        names = page_algorithms(inst.kind, current)
        inst_json, entries = state.compact_json(inst), runs.sweep_entries(names)
        backend = runs.sweep_backend(inst.kind, names, PAGE_SEEDS, PAGE_HORIZON)
        first = _page_press(inst_json, entries, 1)  # the process's first press of these: numba's cache loaded
        app = _page_press(inst_json, entries, PAGE_SEEDS)
        start = time.perf_counter()
        banditviz.sweep(inst, names, PAGE_SEEDS, PAGE_HORIZON, batch=False)
        ref = time.perf_counter() - start
        print(f"  {family:<17} {', '.join(names)} on {preset!r}: app {app:6.2f} s wall ({backend}; the process's "
              f"first press, 1 seed: {first:.2f} s), Python engine {ref:6.2f} s, ratio {ref / app:5.1f}x, "
              f"target < {PAGE_TARGET:g} s {'OK' if app < PAGE_TARGET else 'MISSED'}")


def _page_press(inst_json: str, entries: tuple, seeds: int) -> float:
    """Wall seconds of one press of the page's default workload on a cold cache."""
    runs._SWEEPS.clear()
    start = time.perf_counter()
    runs.cached_sweep(inst_json, entries, seeds, PAGE_HORIZON)
    return time.perf_counter() - start


def press(inst_json: str, entries: tuple, seeds: int) -> tuple[float, float]:
    """Wall and CPU seconds (this process: the app's own when the sweep runs in-process) of one Compare press
    on a cold cache."""
    runs._SWEEPS.clear()
    start, cpu = time.perf_counter(), time.process_time()
    runs.cached_sweep(inst_json, entries, seeds, HORIZON)
    return time.perf_counter() - start, time.process_time() - cpu


def reference(inst: banditviz.Instance, names: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of the Python engine on REFERENCE_SEEDS seeds, scaled to SEEDS."""
    start, cpu = time.perf_counter(), time.process_time()
    banditviz.sweep(inst, names, REFERENCE_SEEDS, HORIZON, batch=False)
    scale = SEEDS / REFERENCE_SEEDS
    return (time.perf_counter() - start) * scale, (time.process_time() - cpu) * scale


def main() -> None:
    if sys.argv[1:2] == ["--defaults"]:  # e.g. `python benchmarks/compare.py --defaults risk-averse`
        print(f"The page's defaults, {PAGE_SEEDS} seeds x T = {PAGE_HORIZON:,}; {os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f}")
        page_defaults(sys.argv[2:] or list(PAGE_DEFAULTS))
        return
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
        ref, ref_cpu = reference(inst, names)
        cpu = f"{app_cpu:.2f} s CPU" if backend in ("serial", "threads") else "CPU in the workers"
        print(f"  {family:<15} {', '.join(names)} on {preset!r}: app {app:6.2f} s wall ({cpu}; {backend}), "
              f"Python engine {ref:7.1f} s wall {ref_cpu:7.1f} s CPU (scaled from {REFERENCE_SEEDS} seeds), "
              f"ratio {ref / app:5.1f}x, target < {target:g} s {'OK' if app < target else 'MISSED'}")


if __name__ == "__main__":
    main()
