"""Compiled (numba) round loop of the classic baselines (`banditviz.algorithms.classic`): their `Loop`.

`ClassicLoop.play` runs Uniform, Pareto UCB1, Pareto TS and multi-objective epsilon-greedy with the engine class's
own state: the kernel updates the algorithm's `RunningMeans` arrays in place with the same
floating-point expressions, in the same order, as the Python methods, and draws

* the rewards from the engine's per-arm streams (`banditviz.rewards.RewardBuffer`), so the n-th pull of an arm gets
  the engine's n-th reward;
* the policy's randomness from the run's own policy `Generator`, which numba calls with numpy's own
  algorithms (PCG64 words, Lemire's bounded integers, the normal ziggurat, Beta via Gamma) on the same
  bit-generator state, in the engine's call order: ``integers(len(front))`` only when the front has two
  arms or more (numpy's ``integers(1)`` draws nothing), ``standard_normal`` K x L values in row order.

Snapshot rounds are played by the Python class itself (``select``/``update`` on the same arrays and
generator), so `RoundState`s, events included, are the engine's. Hence `simulate.run` returns the same
`Trace` bit for bit with or without this loop (tested on every algorithm, noise and prior).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from ...pareto.kernels import nondominated
from .._kernels import PENDING, ROUND, listed, pick, take
from ..base import Algorithm, Played

UNIFORM_RULE, PARETO_UCB1_RULE, PARETO_TS_RULE, EPSILON_GREEDY_RULE = range(4)  # the kernel's rules
KINDS = ("means", "linear")


@numba.njit(cache=True)
def _front(vec, K, L, idx):
    """Indices of the rows of ``vec`` (K x L) that no other row Pareto-dominates (`pareto.pareto_mask`), in order."""
    return listed(nondominated(vec), K, idx)


@numba.njit(cache=True)
def _select(code, t, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, means, vec, idx):
    """The arm of round ``t`` (the ``select`` methods of `banditviz.algorithms.classic`)."""
    if code == UNIFORM_RULE:
        return (t - 1) % K
    if t <= K:
        return t - 1
    if code == PARETO_UCB1_RULE:  # Pareto UCB1: means + sqrt(2 ln(t (L K)^(1/4)) / n_i)
        for a in range(K):
            r = math.sqrt(lg2[t] / counts[a])
            for j in range(L):
                vec[a, j] = means[a, j] + r
        return pick(rng, idx, _front(vec, K, L, idx))
    if code == PARETO_TS_RULE:  # Pareto TS: one posterior sample per arm and objective, in row order
        for a in range(K):
            n1 = counts[a] + 1
            for j in range(L):
                if gaussian:
                    vec[a, j] = sums[a, j] / n1 + sigma / math.sqrt(n1) * rng.standard_normal()
                else:
                    s = min(max(sums[a, j], 0.0), counts[a])
                    vec[a, j] = rng.beta(1 + s, n1 - s)
        return pick(rng, idx, _front(vec, K, L, idx))
    if rng.random() < eps:  # epsilon-greedy: explore
        return rng.integers(0, K) if K > 1 else 0
    return pick(rng, idx, _front(means, K, L, idx))


@numba.njit(cache=True, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(code, stop, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, sumsq, means, vec, idx,
            buf, pos, avail, arms, rewards, st):
    """Play rounds st[ROUND] .. stop - 1; return 1 when the chosen arm's buffer is empty (refill it, call again)."""
    while st[ROUND] < stop:
        t = st[ROUND]
        arm = st[PENDING]
        if arm < 0:
            arm = _select(code, t, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, means, vec, idx)
        p = take(arm, pos, avail, st)
        if p < 0:
            return 1
        counts[arm] += 1
        for j in range(L):
            x = buf[arm, p, j]
            sums[arm, j] += x
            sumsq[arm, j] += x * x
            means[arm, j] = sums[arm, j] / counts[arm]
            rewards[t - 1, j] = x
        arms[t - 1] = arm
        st[ROUND] = t + 1
    return 0


class ClassicLoop:
    """The `Loop` of one classic baseline (``code``: one of the ``*_RULE`` constants):
    fixed features, any number of snapshots."""

    compiled = True

    def __init__(self, code: int) -> None:
        self.code = code

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind in KINDS

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """Rounds in ``snap_at`` are played by ``alg`` itself and followed by ``alg.state()``; the others by the
        kernel."""
        K, L = alg.K, alg.L
        stats, code, rew = alg.stats, self.code, rewards
        gaussian = code == PARETO_TS_RULE and alg.prior == "gaussian"
        lg2 = 2 * np.log(np.maximum(np.arange(horizon + 1), 1) * (L * K) ** 0.25)  # ParetoUCB1.radius, per round
        eps = float(alg.params.get("epsilon", 0.0))
        vec, idx = np.empty((K, L)), np.empty(K, dtype=np.int64)
        arms, got = np.empty(horizon, dtype=np.int64), np.empty((horizon, rew.buf.shape[2]))
        st = np.array([1, -1], dtype=np.int64)
        states = []
        for stop in [*snap_at.tolist(), horizon + 1]:
            while _kernel(code, stop, K, L, eps, float(alg.sigma), gaussian, lg2, alg.rng, stats.counts, stats.sums,
                          stats.sumsq, stats.means, vec, idx, rew.buf, rew.pos, rew.avail, arms, got, st):
                rew.refill(int(st[PENDING]))
            if stop <= horizon:
                arm = int(alg.select(stop))
                reward = rew.take(arm)
                alg.update(arm, reward)
                arms[stop - 1], got[stop - 1] = arm, reward
                states.append(alg.state())
                st[ROUND] = stop + 1
        return Played(arms, got, states)
