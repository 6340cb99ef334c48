"""Compiled helpers the fast loops share (`banditviz.algorithms.base.Loop`): reading the engine's reward buffer and
drawing an arm as numpy's ``Generator`` does.

A loop kernel keeps its state in an int64 array ``st`` whose first two slots are `ROUND` (the next round) and
`PENDING` (an arm chosen whose buffer ran out, to pull once the loop has refilled it; -1: none).
"""

from __future__ import annotations

import numba

ROUND, PENDING = range(2)


@numba.njit(cache=True)
def listed(mask, K, idx):
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
def take(arm, pos, avail, st):
    """Row of ``arm``'s next buffered reward (advanced past it); -1 when the buffer is empty: the arm is then kept
    pending in ``st[PENDING]``, for the caller to refill its buffer and call the kernel again."""
    if pos[arm] >= avail[arm]:
        st[PENDING] = arm
        return -1
    st[PENDING] = -1
    pos[arm] += 1
    return pos[arm] - 1
