"""Speed of the compiled loop of the MOL learners on contextual instances (`banditviz.algorithms._contextual_loop`)
in the MOL-TS paper's main setting (preset "mol_ts_main", K = 50, d = 5, L = 4, both regrets recorded), against the
Python classes (`simulate.run(..., compiled=False)`) in the same process.

For MOL-TS, MOL-TS (M = 1), MOL-UCB and MOL-epsilon-greedy: rounds per CPU second of `simulate.run` with the loop
(T = 20,000) and through the Python classes (T = 2,000), medians of interleaved repeats, and the ratio. Then where a
compiled round goes: each compiled step timed alone on this instance's contexts (the learner's state fixed at
V^{-1} = I / 100 and theta_hat = theta, a late round), in microseconds per round.

The machine is shared (2 cores, several users): CPU seconds, ratios in the same process. Target: >= 50,000 rounds/s.
Usage: ``python benchmarks/molts_loop.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np

import banditviz
from banditviz import pareto
from banditviz._contexts import CONTEXTS, draw_contexts, linear_predictions
from banditviz.algorithms.molts.front import EffectiveFrontSampler, draw_effective
from banditviz.algorithms.molts.sampling import cholesky_lower, optimistic_scores, sample_thetas
from banditviz.pareto import kernels

LEARNERS = ["mol_ts", "mol_ts_m1", "mol_ucb", "mol_eps_greedy"]
INSTANCE = banditviz.preset("mol_ts_main", seed=0)
FAST_T, SLOW_T = 20_000, 2_000


def rate(name: str, horizon: int, compiled: bool, seed: int) -> float:
    """Rounds per CPU second of one `simulate.run`."""
    start = time.process_time()
    banditviz.run(INSTANCE, name, horizon, seed, snapshots=0, compiled=compiled)
    return horizon / (time.process_time() - start)


@numba.njit
def _steps(step, rng, theta, W, bank, M, n):
    """Rounds of the compiled steps up to ``step``: 0 contexts and means, 1 + the metric of a front arm (Pareto and
    effective gap), 2 + MOL-TS's samples and scores, 3 + its draw from the effective front."""
    K, L, d = 50, theta.shape[1], theta.shape[0]
    X, means, S, V = np.empty((K, d)), np.empty((K, L)), np.zeros((d, d)), np.eye(d) / 100
    thetas, mu, win = np.empty((L, M, d)), np.empty((K, L)), np.empty((K, L), np.int64)
    acc = 0.0
    for i in range(n):
        draw_contexts(rng, 0, X)
        linear_predictions(X, theta, means)
        if step == 1:
            front = kernels.front_rows(means)[0]
            acc += pareto.gaps_of_compiled(means, front[i % front.size], W)[1]
        if step >= 2:
            z = rng.standard_normal(L * M * d).reshape((L, M, d))
            cholesky_lower(V, S)
            sample_thetas(theta, S, z, 0.8, thetas)
            optimistic_scores(X, thetas, mu, win)
        if step == 3:
            acc += draw_effective(mu, rng, bank)
    return acc


def breakdown(rounds: int = 5000) -> list[tuple[str, float]]:
    """Microseconds per round of each compiled step (`_steps`), CPU time."""
    assert INSTANCE.context == CONTEXTS[0]
    theta = np.ascontiguousarray(INSTANCE.theta)
    W, bank, M = pareto.gap_weights(INSTANCE.L), EffectiveFrontSampler(INSTANCE.L).bank, 10
    totals = []
    for step in range(4):
        _steps(step, np.random.default_rng(0), theta, W, bank, M, 10)
        start = time.process_time()
        _steps(step, np.random.default_rng(1), theta, W, bank, M, rounds)
        totals.append((time.process_time() - start) / rounds * 1e6)
    names = ["contexts and means", "metric (Pareto + effective gap of a front arm)", "MOL-TS samples and scores",
             "MOL-TS draw from the effective front"]
    base = [totals[0], totals[1] - totals[0], totals[2] - totals[0], totals[3] - totals[2]]
    return list(zip(names, base, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{INSTANCE.name}: K={INSTANCE.K}, d={INSTANCE.d}, L={INSTANCE.L}; load average {os.getloadavg()[0]:.1f}")
    for name in LEARNERS:
        rate(name, 200, True, 0)  # numba's cache loaded
        fast, slow = [], []
        for r in range(args.repeats):
            fast.append(rate(name, FAST_T, True, r))
            slow.append(rate(name, SLOW_T, False, r))
        f, s = float(np.median(fast)), float(np.median(slow))
        print(f"  {name:<15} compiled loop {f:9,.0f} rounds per CPU second (T = {FAST_T:,}), Python classes "
              f"{s:7,.0f} (T = {SLOW_T:,}); ratio {f / s:5.1f}x; target >= 50,000: {'OK' if f >= 50_000 else 'MISSED'}",
              flush=True)
    print("  where a compiled round goes (us per round, CPU):")
    for what, us in breakdown():
        print(f"    {what:<50} {us:6.1f}")


if __name__ == "__main__":
    main()
