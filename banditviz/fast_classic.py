"""Compiled (numba) round loop of the classic baselines (`banditviz.algorithms.classic`), used by `simulate.run`.

`play` runs Uniform, Pareto UCB1, Pareto TS and multi-objective epsilon-greedy with the engine class's
own state: the kernel updates the algorithm's `RunningMeans` arrays in place with the same
floating-point expressions, in the same order, as the Python methods, and draws

* the rewards from the engine's per-arm streams (`Environment.draws` turned into rewards by
  `Environment.observe`, buffered a stretch at a time), so the n-th pull of an arm gets the engine's n-th reward;
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

import numba
import numpy as np

from . import fast_noise
from .algorithms.base import Algorithm, RoundState
from .environment import BLOCK, Environment
from .fast_pareto import nondominated

CODES = {"uniform": 0, "pareto_ucb1": 1, "pareto_ts": 2, "mo_epsilon_greedy": 3}
KINDS = ("means", "linear")
CHUNK_FLOATS = 1 << 20  # rewards buffered over all arms (8 MB)
FIRST_GRAIN = 16  # a first refill is a multiple of this: a short run over many arms draws ~its rounds, not 256 an arm
_T, _PENDING = range(2)  # kernel state slots: next round, arm chosen but not yet pulled (-1: none)


def supports(algorithm: str, kind: str) -> bool:
    """True when `play` runs ``algorithm`` on instances of ``kind``."""
    return algorithm in CODES and kind in KINDS


@numba.njit(cache=True)
def _front(vec, K, L, idx):
    """Indices of the rows of ``vec`` (K x L) that no other row Pareto-dominates (`pareto.pareto_mask`), in order."""
    return _listed(nondominated(vec), K, idx)


@numba.njit(cache=True)
def _listed(mask, K, idx):
    """The indices where ``mask`` holds, ascending, into ``idx``; returns how many."""
    n = 0
    for a in range(K):
        if mask[a]:
            idx[n] = a
            n += 1
    return n


@numba.njit(cache=True)
def pick(rng, idx, n):
    """``front[rng.integers(len(front))]``; numpy draws nothing for ``integers(1)``."""
    return idx[rng.integers(0, n)] if n > 1 else idx[0]


@numba.njit(cache=True)
def _select(code, t, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, means, vec, idx):
    """The arm of round ``t`` (the ``select`` methods of `banditviz.algorithms.classic`)."""
    if code == 0:
        return (t - 1) % K
    if t <= K:
        return t - 1
    if code == 1:  # Pareto UCB1: means + sqrt(2 ln(t (L K)^(1/4)) / n_i)
        for a in range(K):
            r = math.sqrt(lg2[t] / counts[a])
            for j in range(L):
                vec[a, j] = means[a, j] + r
        return pick(rng, idx, _front(vec, K, L, idx))
    if code == 2:  # Pareto TS: one posterior sample per arm and objective, in row order
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


@numba.njit(cache=True)
def _take(arm, pos, avail, st):
    """Row of ``arm``'s next buffered reward (advanced past it); -1 when the buffer is empty: the arm is then kept
    pending in ``st``, for the caller to refill its buffer and call the kernel again."""
    if pos[arm] >= avail[arm]:
        st[_PENDING] = arm
        return -1
    st[_PENDING] = -1
    pos[arm] += 1
    return pos[arm] - 1


@numba.njit(cache=True, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(code, stop, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, sumsq, means, vec, idx,
            buf, pos, avail, arms, rewards, st):
    """Play rounds st[_T] .. stop - 1; return 1 when the chosen arm's buffer is empty (refill it, call again)."""
    while st[_T] < stop:
        t = st[_T]
        arm = st[_PENDING]
        if arm < 0:
            arm = _select(code, t, K, L, eps, sigma, gaussian, lg2, rng, counts, sums, means, vec, idx)
        p = _take(arm, pos, avail, st)
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
        st[_T] = t + 1
    return 0


@numba.njit(cache=True)
def _gather(arms, start, buf, pos, avail, out):
    """Rows ``start..`` of ``out``: each arm's next buffered reward, in order; returns where an arm's buffer ran
    out (refill it and call again), or len(arms)."""
    for i in range(start, len(arms)):
        a = arms[i]
        if pos[a] >= avail[a]:
            return i
        out[i] = buf[a, pos[a]]
        pos[a] += 1
    return len(arms)


@numba.njit(cache=True)
def _refill_size(avail, chunk, first):
    """Doubling refills, the first one ``first`` rows, none over ``chunk``."""
    return min(chunk, 2 * avail if avail else first)


@numba.njit(cache=True)
def _gather_normal(arms, buf, pos, avail, out, streams, sigma, means, chunk, first):
    """`_gather` of every row, an arm whose buffer runs out refilled on the spot from its Gaussian stream
    (`fast_noise.fill`, what `Environment.fill` draws)."""
    for i in range(len(arms)):
        a = arms[i]
        if pos[a] >= avail[a]:
            avail[a] = _refill_size(avail[a], chunk, first)
            fast_noise.fill(streams, a, buf[a, :avail[a]], sigma, means[a])
            pos[a] = 0
        out[i] = buf[a, pos[a]]
        pos[a] += 1


class Rewards:
    """The engine's rewards of every arm, buffered (doubling refills, up to a chunk of whole blocks)."""

    def __init__(self, env: Environment, horizon: int, expected: int | None = None) -> None:
        """``expected``: the rounds the run is likely to last (default ``horizon``; less for a run that may stop)."""
        K, R = env.instance.K, env.instance.reward_dim
        self.env = env
        self.chunk = max(BLOCK, min(CHUNK_FLOATS // (K * R), horizon + BLOCK) // BLOCK * BLOCK)
        self.first = min(self.chunk, -(-(expected or horizon) // (K * FIRST_GRAIN)) * FIRST_GRAIN)
        self.buf = np.empty((K, self.chunk, R))
        self.pos = np.zeros(K, dtype=np.int64)
        self.avail = np.zeros(K, dtype=np.int64)

    def refill(self, arm: int) -> None:
        """Doubling refills, the first one an equal share of the expected rounds: short runs draw little."""
        size = _refill_size(int(self.avail[arm]), self.chunk, self.first)
        self.env.fill(arm, self.buf[arm, :size])
        self.pos[arm], self.avail[arm] = 0, size

    def take_many(self, arms: np.ndarray) -> np.ndarray:
        """The rewards of pulling ``arms`` in order (the same as one `Environment.pull` each)."""
        out = np.empty((len(arms), self.buf.shape[2]))
        env = self.env
        if env.normal_streams is not None:
            _gather_normal(arms, self.buf, self.pos, self.avail, out, env.normal_streams, env.instance.sigma,
                           env.means, self.chunk, self.first)
            return out
        i = _gather(arms, 0, self.buf, self.pos, self.avail, out)
        while i < len(arms):
            self.refill(int(arms[i]))
            i = _gather(arms, i, self.buf, self.pos, self.avail, out)
        return out

    def take(self, arm: int) -> np.ndarray:
        """The next reward of ``arm`` (for rounds played in Python)."""
        if self.pos[arm] >= self.avail[arm]:
            self.refill(arm)
        self.pos[arm] += 1
        return self.buf[arm, self.pos[arm] - 1].copy()


def play(alg: Algorithm, env: Environment, horizon: int, snap_at: np.ndarray
         ) -> tuple[np.ndarray, np.ndarray, list[RoundState]]:
    """Arms, rewards and snapshots of ``alg`` (a reset classic algorithm) played for ``horizon`` rounds.

    Rounds in ``snap_at`` are played by ``alg`` itself and followed by ``alg.state()``; the others by the kernel.
    """
    inst = env.instance
    K, L = inst.K, inst.L
    stats = alg.stats
    code = CODES[alg.spec.name]
    gaussian = code == 2 and alg.prior == "gaussian"
    lg2 = 2 * np.log(np.maximum(np.arange(horizon + 1), 1) * (L * K) ** 0.25)  # ParetoUCB1.radius, per round
    eps = float(alg.params.get("epsilon", 0.0))
    vec, idx = np.empty((K, L)), np.empty(K, dtype=np.int64)
    rew = Rewards(env, horizon)
    arms, rewards = np.empty(horizon, dtype=np.int64), np.empty((horizon, inst.reward_dim))
    st = np.array([1, -1], dtype=np.int64)
    states = []
    for stop in [*snap_at.tolist(), horizon + 1]:
        while _kernel(code, stop, K, L, eps, float(alg.sigma), gaussian, lg2, env.policy_rng, stats.counts,
                      stats.sums, stats.sumsq, stats.means, vec, idx, rew.buf, rew.pos, rew.avail, arms, rewards, st):
            rew.refill(int(st[_PENDING]))
        if stop <= horizon:
            arm = int(alg.select(stop))
            reward = rew.take(arm)
            alg.update(arm, reward)
            arms[stop - 1], rewards[stop - 1] = arm, reward
            states.append(alg.state())
            st[_T] = stop + 1
    return arms, rewards, states
