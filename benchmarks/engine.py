"""Engine speed: rounds per second of Pareto UCB1 (K=20, L=2) through `banditviz.run`.

Prints rounds/s at T = 10^4 and 10^5 with and without snapshots (flat in T means a round costs the
same late as early), the peak traced memory of a run, and the ratio against a naive reference that
recomputes every arm's mean from the full reward history each round (run here, same process).
Target (core issue): >= 20,000 rounds/s without snapshots.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

import banditviz
from banditviz.environment import Environment
from banditviz.instances import uniform_box
from banditviz.pareto import pareto_mask

INSTANCE = uniform_box(20, 2, seed=0, sigma=0.5)


def timed_run(horizon: int, snapshots: int) -> float:
    start = time.perf_counter()
    banditviz.run(INSTANCE, "pareto_ucb1", horizon, seed=1, snapshots=snapshots)
    return time.perf_counter() - start


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
    print(f"Pareto UCB1, K={INSTANCE.K}, L={INSTANCE.L}")
    for horizon in (10_000, 100_000):
        for snaps in (0, 200):
            dt = timed_run(horizon, snaps)
            print(f"  T={horizon:>7,} snapshots={snaps:>3}: {dt:6.2f} s  {horizon / dt:9,.0f} rounds/s")
    tracemalloc.start()
    timed_run(100_000, 200)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak traced memory, T=100,000 with 200 snapshots: {peak / 2**20:.1f} MiB")
    horizon = 10_000
    fast = timed_run(horizon, 0)
    start = time.perf_counter()
    arms = naive_pareto_ucb1(horizon)
    slow = time.perf_counter() - start
    same = np.array_equal(arms, banditviz.run(INSTANCE, "pareto_ucb1", horizon, seed=1, snapshots=0).arms)
    print(f"  naive full-history reference, T={horizon:,}: {slow:.2f} s ({horizon / slow:,.0f} rounds/s); "
          f"engine {fast:.2f} s; ratio {slow / fast:.1f}x; same arms: {same}")


if __name__ == "__main__":
    main()
