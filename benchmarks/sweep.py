"""Sweep speed: seed-rounds per second of Pareto UCB1 (K=20, L=2, T=10^4, 200 seeds).

* serial: `banditviz.sweep(..., batch=False)`, every seed through the engine one by one (the reference,
  timed on the first SERIAL_SEEDS seeds and extrapolated to 200);
* batched: `banditviz.sweep(..., backend="serial")`, seeds as a leading numpy axis, all 200 seeds;
* processes: `banditviz.sweep(..., backend="processes")`, batched jobs on every local core, all 200 seeds.

The three tables agree on the seeds they share (checked here). Targets (issue 8): batched >= 10x
serial, and the whole 200-seed sweep under 10 s.
"""

from __future__ import annotations

import os
import time

import pandas as pd

import banditviz
from banditviz.instances import uniform_box

INSTANCE = uniform_box(20, 2, seed=0, sigma=0.5)
HORIZON = 10_000
SEEDS = 200
SERIAL_SEEDS = 6


def timed(**kwargs) -> tuple[float, pd.DataFrame]:
    seeds = kwargs.pop("seeds", SEEDS)
    start = time.perf_counter()
    table = banditviz.sweep({"box": INSTANCE}, "pareto_ucb1", seeds, HORIZON, **kwargs)
    return time.perf_counter() - start, table


def main() -> None:
    workers = os.cpu_count() or 1
    print(f"Pareto UCB1, K={INSTANCE.K}, L={INSTANCE.L}, T={HORIZON:,}, {SEEDS} seeds, {workers} cores")
    serial_dt, serial = timed(seeds=SERIAL_SEEDS, batch=False)
    batched_dt, batched = timed(backend="serial")
    proc_dt, proc = timed(backend="processes", workers=workers)
    pd.testing.assert_frame_equal(batched[batched.seed < SERIAL_SEEDS], serial)
    pd.testing.assert_frame_equal(proc, batched)
    serial_rate = SERIAL_SEEDS * HORIZON / serial_dt
    rows = [("serial (engine, reference)", serial_rate, SEEDS * HORIZON / serial_rate),
            ("batched (one process)", SEEDS * HORIZON / batched_dt, batched_dt),
            (f"processes ({workers}, batched)", SEEDS * HORIZON / proc_dt, proc_dt)]
    for name, rate, total in rows:
        print(f"  {name:<28} {rate:>11,.0f} seed-rounds/s  {rate / serial_rate:6.1f}x  "
              f"200 seeds in {total:6.1f} s")
    speedup = rows[1][1] / serial_rate
    best = min(batched_dt, proc_dt)
    print(f"target batched >= 10x serial: {speedup:.1f}x  {'OK' if speedup >= 10 else 'MISSED'}")
    print(f"target 200-seed sweep < 10 s: {best:.1f} s  {'OK' if best < 10 else 'MISSED'}")


if __name__ == "__main__":
    main()
