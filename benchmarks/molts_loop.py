"""Speed of the compiled loop of the MOL learners on contextual instances (`banditviz.algorithms._contextual_loop`)
in the MOL-TS paper's main setting (preset "mol_ts_main", K = 50, d = 5, L = 4, both regrets recorded), against the
Python classes (`simulate.run(..., compiled=False)`) in the same process.

For MOL-TS, MOL-TS (M = 1), MOL-UCB and MOL-epsilon-greedy: rounds per CPU second of `simulate.run` with the loop
(T = 20,000) and through the Python classes (T = 2,000), medians of interleaved repeats, and the ratio. Then where a
compiled round goes: each compiled step timed alone on this instance's contexts (the learner's state fixed at
V^{-1} = I / 100 and theta_hat = theta, a late round), in microseconds per round. Last, the per-round metric on each
learner's own pulls (`pareto.gaps_of_compiled`, the contexts replayed from the run's seed) against the code before
(`_front_first_gaps`: the Pareto rows found first, every weight's support over all of them) in the same process.

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
from banditviz.environment import Environment
from banditviz.pareto import effective, kernels

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
    thetas, mu, win = np.empty((L, M, d)), np.empty((K, L)), np.empty((0, L), np.int64)  # no winners, as the loop
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


@numba.njit
def _front_first_gaps(mu, arm, W):
    """Reference: `pareto.gaps_of_compiled` before it settled the gap over every arm, with the weights' full scan:
    the Pareto rows first, then every weight's support over them."""
    L = mu.shape[1]
    _, U, _, scale = kernels.front_rows(mu)
    err, target = effective._margin(L, scale), mu[arm]
    lb = 0.0
    for b in range(U.shape[0]):
        lb = max(lb, np.min(U[b] - target))
    ub = np.inf
    for k in range(W.shape[0]):
        support = -np.inf
        for b in range(U.shape[0]):
            support = max(support, kernels._score(U[b], W[k]))
        ub = min(ub, support - kernels._score(target, W[k]))
    if ub <= err:
        return lb, 0.0
    if ub <= lb + err:
        return lb, lb
    return lb, effective._gap_by_lp(U, target, lb, err)


@numba.njit
def _replayed_metric(rng, kind, theta, W, arms, reference):
    """Sum of the effective gaps of ``arms``, each on its round's contexts drawn anew from ``rng``."""
    K, (d, L) = 50, theta.shape
    X, means, total = np.empty((K, d)), np.empty((K, L)), 0.0
    for t in range(arms.size):
        draw_contexts(rng, kind, X)
        linear_predictions(X, theta, means)
        if reference == 1:
            total += _front_first_gaps(means, arms[t], W)[1]
        elif reference == 0:
            total += pareto.gaps_of_compiled(means, arms[t], W)[1]
    return total


def metric_of_pulls(repeats: int) -> None:
    """Microseconds per round of the metric on each learner's pulls (T = 20,000, seed 0), now and before."""
    theta, W, kind = np.ascontiguousarray(INSTANCE.theta), pareto.gap_weights(INSTANCE.L), CONTEXTS.index(
        INSTANCE.context)
    print("  the effective gap of each pull (us per round, CPU; contexts replayed and subtracted):")
    for name in LEARNERS:
        arms = np.asarray(banditviz.run(INSTANCE, name, FAST_T, 0, snapshots=0).arms, dtype=np.int64)
        _replayed_metric(Environment(INSTANCE, 0).context_rng, kind, theta, W, arms[:1], 0)  # compiled
        cost, totals = {}, {}
        for reference in (2, 1, 0) * repeats:  # 2: the contexts alone
            start = time.process_time()
            totals[reference] = _replayed_metric(Environment(INSTANCE, 0).context_rng, kind, theta, W, arms, reference)
            cost.setdefault(reference, []).append(time.process_time() - start)
        assert totals[0] == totals[1], name  # the same gaps
        base = float(np.median(cost[2]))
        now, before = ((float(np.median(cost[r])) - base) / FAST_T * 1e6 for r in (0, 1))
        print(f"    {name:<15} {now:5.2f} (before: {before:5.2f}; {before / now:4.1f}x)")


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
    metric_of_pulls(args.repeats)


if __name__ == "__main__":
    main()
