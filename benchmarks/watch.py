"""Watch runs on the fast loops: one run with 200 snapshots (what the Watch page asks for, `runs.run_setting`) of
every algorithm of each family on the preset the app loads for it, through `simulate.run`'s fast loop (its
default) against the Python classes (``compiled=False``, the reference), interleaved in this process.

Families: classic on preset "default" (compiled, `algorithms.classic._loop`); identification on "default"
(compiled PFIwR, batch-wise GEGE); lexicographic on "lexicographic_lambda_0.1" and MOL-TS with its baselines on
"mol_ts_fig11" and on "default" (one-hot contexts; the linear learners' compiled loop, `algorithms._linear_loop`)
and on "mol_ts_main" (contexts drawn every round: `algorithms._contextual_loop`); risk-averse on "risk_averse_table1"
(`algorithms.ramgape._loop`; the fixed-confidence ones do not stop within these horizons there). Horizons: the app's
default T = 2,000 (`state.DEFAULT_HORIZON`) and a long Watch run, T = 20,000. The fast run is the median of
REPEATS (seeds 0, 1, 2), the reference one run (seed 0); each pair is checked to give the same arms.
The machine is shared (2 cores): absolute seconds are noisy, the ratios less so.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

import banditviz

FAMILIES = {  # family: preset, algorithms
    "classic": ("default", ["pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"]),
    "identification": ("default", ["pfiwr", "gege_fb", "gege_fc"]),
    "lexicographic": ("lexicographic_lambda_0.1", ["ste2lo", "mte2lo", "pf_lex", "oful"]),
    "linear (MOL)": ("mol_ts_fig11", ["mol_ts", "mol_ucb", "mol_eps_greedy"]),
    "means (MOL)": ("default", ["mol_ts", "mol_ucb", "mol_eps_greedy"]),
    "contextual (MOL)": ("mol_ts_main", ["mol_ts", "mol_ucb", "mol_eps_greedy"]),
    "risk-averse": ("risk_averse_table1", ["ramgape_b", "ramgape_c", "ra_lucb", "ra_round_robin", "de_round_robin",
                                           "lie_round_robin", "xi_lcb", "hvi_pareto", "egp"]),
}
HORIZONS, SNAPSHOTS, REPEATS = (2_000, 20_000), 200, 3


def seconds(inst: banditviz.Instance, name: str, horizon: int, seed: int, compiled: bool) -> tuple[float, np.ndarray]:
    start = time.perf_counter()
    trace = banditviz.run(inst, name, horizon, seed, snapshots=SNAPSHOTS, compiled=compiled)
    return time.perf_counter() - start, trace.arms


def main() -> None:
    print(f"Watch runs ({SNAPSHOTS} snapshots); {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for family in sys.argv[1:] or list(FAMILIES):  # e.g. `python benchmarks/watch.py "contextual (MOL)"`
        preset, names = FAMILIES[family]
        inst = banditviz.preset(preset)
        for name in names:
            spec = banditviz.get_algorithm(name)
            assert spec.loop is not None and spec.loop.supports(inst.kind, spec.defaults(), SNAPSHOTS), name
            for horizon in HORIZONS:
                fast = [seconds(inst, name, horizon, seed, True) for seed in range(REPEATS)]
                ref, arms = seconds(inst, name, horizon, 0, False)
                assert np.array_equal(arms, fast[0][1]), name
                app = statistics.median(t for t, _ in fast)
                print(f"  {family:<15} {name:<16} {preset!r:<28} T = {horizon:>6,}: fast {app:6.3f} s, "
                      f"Python classes {ref:6.2f} s, ratio {ref / app:6.1f}x")


if __name__ == "__main__":
    main()
