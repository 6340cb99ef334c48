"""Engine speed: rounds per second of one `banditviz.run` of the classic baselines (K = 20, L = 2).

Each algorithm runs at T = 10^5 without snapshots (CLI, sweeps) and with 200 (the Watch page), compiled
(`simulate.run`'s default: the loop of `banditviz.algorithms.classic._loop`) and through the Python classes
(``compiled=False``, the previous engine and the reference; timed at T = 10^4), interleaved in this
process; medians of REPEATS runs. Also: the peak traced memory of a run and the ratio of the Python engine
against a naive reference that recomputes every arm's mean from the full history each round. The machine
is shared: absolute rounds/s are noisy, the ratios less so.
Targets: >= 200,000 rounds/s without snapshots, >= 50,000 with 200 snapshots.
"""

from __future__ import annotations

import statistics
import time
import tracemalloc

import numpy as np

import banditviz
from banditviz.environment import Environment
from banditviz.instances import uniform_box
from banditviz.pareto import pareto_mask

INSTANCE = uniform_box(20, 2, seed=0, sigma=0.5)
ALGORITHMS = ("uniform", "pareto_ucb1", "pareto_ts", "mo_epsilon_greedy")
REPEATS = 3


def rate(algorithm: str, horizon: int, snapshots: int, compiled: bool = True) -> float:
    """Median rounds/s of REPEATS runs (seeds 1, 2, ...)."""
    times = []
    for seed in range(1, REPEATS + 1):
        start = time.perf_counter()
        banditviz.run(INSTANCE, algorithm, horizon, seed, snapshots=snapshots, compiled=compiled)
        times.append(time.perf_counter() - start)
    return horizon / statistics.median(times)


def naive_pareto_ucb1(horizon: int, seed: int = 1) -> np.ndarray:
    """Pareto UCB1 recomputing the means from the whole history every round (the slow reference)."""
    env = Environment(INSTANCE, seed)
    rng = env.policy_rng
    K, L = INSTANCE.K, INSTANCE.L
    arms = np.empty(horizon, dtype=np.int64)
    rewards = np.empty((horizon, L))
    for t in range(1, horizon + 1):
        if t <= K:
            arm = t - 1
        else:
            hist_arms, hist = arms[: t - 1], rewards[: t - 1]
            counts = np.bincount(hist_arms, minlength=K)
            means = np.stack([hist[hist_arms == k].mean(axis=0) for k in range(K)])
            index = means + np.sqrt(2 * np.log(t * (L * K) ** 0.25) / counts)[:, None]
            front = np.flatnonzero(pareto_mask(index))
            arm = int(front[rng.integers(len(front))])
        arms[t - 1] = arm
        rewards[t - 1] = env.pull(arm)
    return arms


def main() -> None:
    print(f"K={INSTANCE.K}, L={INSTANCE.L}; rounds/s, medians of {REPEATS} runs")
    for name in ALGORITHMS:
        banditviz.run(INSTANCE, name, 100, 0)  # load the compiled kernels
    for snaps in (0, 200):
        for name in ALGORITHMS:
            fast, slow = rate(name, 100_000, snaps), rate(name, 10_000, snaps, compiled=False)
            target = 200_000 if snaps == 0 else 50_000
            print(f"  {name:<18} snapshots={snaps:>3}: compiled {fast:>10,.0f}  Python {slow:>8,.0f}  "
                  f"ratio {fast / slow:5.1f}x  target {target:,}: {'OK' if fast >= target else 'MISSED'}")
    tracemalloc.start()
    banditviz.run(INSTANCE, "pareto_ucb1", 100_000, 1, snapshots=200)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak traced memory, T=100,000 with 200 snapshots: {peak / 2**20:.1f} MiB")
    horizon = 5_000
    start = time.perf_counter()
    engine = banditviz.run(INSTANCE, "pareto_ucb1", horizon, seed=1, snapshots=0, compiled=False)
    python = time.perf_counter() - start
    start = time.perf_counter()
    arms = naive_pareto_ucb1(horizon)
    naive = time.perf_counter() - start
    print(f"  naive full-history reference, T={horizon:,}: {naive:.2f} s; Python engine {python:.2f} s "
          f"({naive / python:.1f}x); same arms: {np.array_equal(arms, engine.arms)}")


if __name__ == "__main__":
    main()
