"""Compare page, its default workload of each family: the app's cached sweep (`banditviz_app.runs.cached_sweep`)
of the current algorithm and the first others of its task that run on the instance, four in all, 5 seeds, T = 2,000
(the form's defaults at the app's default horizon, `banditviz_app/pages/compare.py`), against the Python engine
(every round through the algorithm classes, serial) on the same 5 seeds, in this process.

Families: the current algorithm is the app's default for the instance kind (`state.DEFAULT_FOR_KIND`) where it is
of the family, else the family's first; the presets are the ones `benchmarks/compare.py` uses. Each family's first
press of the process (1 seed: numba's on-disk cache loaded) is printed apart. Target: < 5 s wall each (issue 29).
The machine is shared (2 cores): absolute seconds are noisy, the ratios less so.
"""

from __future__ import annotations

import os
import sys
import time

import banditviz
from banditviz_app import runs, state

SEEDS, HORIZON, TARGET = 5, 2_000, 5.0
FAMILIES = {  # family: preset, the current algorithm
    "classic": ("default", "pareto_ucb1"),
    "identification": ("default", "pfiwr"),
    "lexicographic": ("lexicographic_lambda_0.1", "ste2lo"),
    "risk-averse": ("risk_averse_table1", "ramgape_b"),
    "linear (MOL)": ("mol_ts_fig11", "mol_ts"),
    "contextual (MOL)": ("mol_ts_main", "mol_ts"),
}


def page_algorithms(kind: str, current: str) -> list[str]:
    """The form's default algorithms: the current one and the others of its task for ``kind``, four in all."""
    task = banditviz.get_algorithm(current).task
    others = (n for n, s in banditviz.ALGORITHMS.items() if kind in s.kinds and s.task == task and n != current)
    return [current, *others][:4]


def press(inst_json: str, entries: tuple, seeds: int) -> float:
    """Wall seconds of one press on a cold cache."""
    runs._SWEEPS.clear()
    start = time.perf_counter()
    runs.cached_sweep(inst_json, entries, seeds, HORIZON)
    return time.perf_counter() - start


def main() -> None:
    print(f"The Compare page's defaults, {SEEDS} seeds x T = {HORIZON:,}; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}")
    for family in sys.argv[1:] or list(FAMILIES):  # e.g. `python benchmarks/compare_defaults.py risk-averse`
        preset, current = FAMILIES[family]
        inst = banditviz.preset(preset)
        names = page_algorithms(inst.kind, current)
        inst_json, entries = state.compact_json(inst), runs.sweep_entries(names)
        backend = runs.sweep_backend(inst.kind, names, SEEDS, HORIZON)
        first = press(inst_json, entries, 1)
        app = press(inst_json, entries, SEEDS)
        start = time.perf_counter()
        banditviz.sweep(inst, names, SEEDS, HORIZON, batch=False)
        ref = time.perf_counter() - start
        print(f"  {family:<17} {', '.join(names)} on {preset!r}: app {app:6.2f} s wall ({backend}; the process's "
              f"first press, 1 seed: {first:.2f} s), Python engine {ref:6.2f} s, ratio {ref / app:5.1f}x, "
              f"target < {TARGET:g} s {'OK' if app < TARGET else 'MISSED'}")


if __name__ == "__main__":
    main()
