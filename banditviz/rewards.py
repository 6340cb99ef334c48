"""The engine's rewards, buffered for the fast loops (`banditviz.algorithms.base.Loop`).

A `RewardBuffer` holds, per arm, the next rewards of the arm's stream (`Environment.fill`): the n-th reward taken
for an arm is the n-th reward the round-by-round engine's `Environment.pull` gives it, whatever the buffer's sizes.
A compiled loop reads ``buf[arm, pos[arm]]`` (K x chunk x reward dimension), advances ``pos[arm]`` and, when
``pos[arm] == avail[arm]``, returns to Python for `RewardBuffer.refill`; Python code calls `take` or `take_many`.
"""

from __future__ import annotations

import numba
import numpy as np

from . import _noise
from .environment import BLOCK, Environment

CHUNK_FLOATS = 1 << 20  # rewards buffered over all arms (8 MB)
FIRST_GRAIN = 16  # a first refill is a multiple of this: a short run over many arms draws ~its rounds, not 256 an arm


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
    (`_noise.fill`, what `Environment.fill` draws)."""
    for i in range(len(arms)):
        a = arms[i]
        if pos[a] >= avail[a]:
            avail[a] = _refill_size(avail[a], chunk, first)
            _noise.fill(streams, a, buf[a, :avail[a]], sigma, means[a])
            pos[a] = 0
        out[i] = buf[a, pos[a]]
        pos[a] += 1


class RewardBuffer:
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
