"""Sweep speed: seed-rounds per second of Pareto UCB1 (K=20, L=2, T=10^4, 200 seeds).

* serial: `banditviz.sweep(..., batch=False)`, every round through the Python classes (the reference,
  timed on the first SERIAL_SEEDS seeds and extrapolated to 200);
* compiled: `banditviz.sweep(..., backend="serial")`, every run in the compiled loop of
  `banditviz.algorithms.classic._loop` (the numpy seed axis it replaced ran ~400-530k seed-rounds/s here), all 200
  seeds;
* processes: `banditviz.sweep(..., backend="processes")`, compiled jobs on every local core, all 200 seeds.

The three tables agree on the seeds they share (checked here). Targets: compiled >= 10x
serial, and the whole 200-seed sweep under 10 s. The machine may be shared: CPU seconds of this process
are printed next to wall seconds (not for processes: the workers are the forkserver's children), since
wall time on a loaded machine says more about the neighbours than about the code.
"""

from __future__ import annotations

import os
import resource
import time

import pandas as pd

import banditviz
from banditviz.instances import uniform_box

INSTANCE = uniform_box(20, 2, seed=0, sigma=0.5)
HORIZON = 10_000
SEEDS = 200
SERIAL_SEEDS = 6


def timed(**kwargs) -> tuple[float, float, pd.DataFrame]:
    """Wall seconds, CPU seconds of this process and the table of one sweep."""
    seeds = kwargs.pop("seeds", SEEDS)
    wall, cpu = time.perf_counter(), _cpu()
    table = banditviz.sweep({"box": INSTANCE}, "pareto_ucb1", seeds, HORIZON, **kwargs)
    return time.perf_counter() - wall, _cpu() - cpu, table


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def main() -> None:
    workers = os.cpu_count() or 1
    print(f"Pareto UCB1, K={INSTANCE.K}, L={INSTANCE.L}, T={HORIZON:,}, {SEEDS} seeds, {workers} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    serial_wall, serial_cpu, serial = timed(seeds=SERIAL_SEEDS, batch=False)
    compiled_wall, compiled_cpu, compiled = timed(backend="serial")
    proc_wall, _, proc = timed(backend="processes", workers=workers)
    pd.testing.assert_frame_equal(compiled[compiled.seed < SERIAL_SEEDS], serial)
    pd.testing.assert_frame_equal(proc, compiled)
    scale = SEEDS / SERIAL_SEEDS
    rows = [("serial (engine, reference)", serial_wall * scale, serial_cpu * scale),
            ("compiled (one process)", compiled_wall, compiled_cpu),
            (f"processes ({workers}, compiled)", proc_wall, None)]
    print(f"  {'':<28} {'seed-rounds/s':>14} {'vs serial':>9}   200 seeds: {'wall s':>7} {'cpu s':>7}")
    for name, wall, cpu in rows:
        print(f"  {name:<28} {SEEDS * HORIZON / wall:>14,.0f} {rows[0][1] / wall:>8.1f}x   "
              f"{'':>10} {wall:7.1f} {'-' if cpu is None else f'{cpu:.1f}':>7}")
    wall_ratio, cpu_ratio = rows[0][1] / compiled_wall, rows[0][2] / compiled_cpu
    best = min(compiled_wall, proc_wall)
    print(f"target compiled >= 10x serial: {wall_ratio:.1f}x wall, {cpu_ratio:.1f}x cpu  "
          f"{'OK' if min(wall_ratio, cpu_ratio) >= 10 else 'MISSED'}")
    print(f"target 200-seed sweep < 10 s: {best:.1f} s wall ({compiled_cpu:.1f} s cpu compiled)  "
          f"{'OK' if best < 10 else 'MISSED (wall)'}")


if __name__ == "__main__":
    main()
