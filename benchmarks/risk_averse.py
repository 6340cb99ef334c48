"""Pulls per second of RAMGapEc: the compiled fast path (`banditviz.experiments.ramgape.fast_run`) against the engine
(`banditviz.simulate.run`, numpy per round) in the same process. Target: >= 10^5 pulls/s.

Cases: Table 2 (K = 100, epsilon = 0.1) and Experiment 2.2 (Table 3 pattern 46, epsilon = 0). CPU time is
reported (the machine is shared), after one warm-up call that loads or compiles the numba kernel.

    .venv/bin/python benchmarks/risk_averse.py
"""

from __future__ import annotations

import time

from banditviz import preset, run
from banditviz.experiments.ramgape import fast_run


def rate(fn, samples_of) -> tuple[float, int]:
    t0 = time.process_time()
    out = fn()
    dt = time.process_time() - t0
    n = samples_of(out)
    return n / dt, n


def main() -> None:
    fast_run(preset("risk_averse_table1"), "ramgape_c", 1000)  # warm-up: load/compile the kernel
    cases = [("Table 2 (K=100), eps=0.1", preset("risk_averse_table2"), {}, 2_000, 1_000_000),
             ("Exp 2.2 (pattern 46), eps=0", preset("risk_averse_table3", pattern=46), {"epsilon": 0.0},
              20_000, 5_000_000)]
    for label, inst, params, n_engine, n_fast in cases:
        engine, ne = rate(lambda i=inst, n=n_engine, p=params: run(i, "ramgape_c", n, seed=0, snapshots=0, **p),
                          lambda tr: tr.rounds)
        fast, nf = rate(lambda i=inst, n=n_fast, p=params: fast_run(i, "ramgape_c", n, seed=0, **p),
                        lambda r: r.samples)
        print(f"{label:28s} engine {engine:>10,.0f} pulls/s ({ne:,} pulls)   fast {fast:>12,.0f} pulls/s "
              f"({nf:,} pulls)   ratio {fast / engine:6.0f}x   target 1e5: {'met' if fast >= 1e5 else 'MISSED'}")


if __name__ == "__main__":
    main()
