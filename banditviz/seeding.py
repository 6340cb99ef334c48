"""The seeds of a run's per-arm noise streams, for all arms at once.

`Environment` gives arm i the generator ``default_rng(noise.spawn(K)[i])`` (common random numbers). numpy hashes
each child `SeedSequence` in a Python-level loop, ~10 us a child with its generator, which at K = 259 (NoC) was
half of a short run. `words` computes the same PCG64 seeds for all K children with array operations: numpy's
documented SeedSequence hash (O'Neill's ``seed_seq`` design: the entropy words mixed into a pool of 4 words by a
stepped multiplicative hash, `_Hash`, and `_mix`; the pool hashed again into the generator's seed words), the same
for every child but its last entropy word. Tested equal to numpy's children, seed by seed.
"""

from __future__ import annotations

import numpy as np
from numpy.random.bit_generator import ISeedSequence

POOL = 4  # numpy's default pool size (words)
INIT_A, MULT_A = 0x43B0D7E5, 0x931E8875  # the pool's hash
INIT_B, MULT_B = 0x8B51F9DD, 0x58F38DED  # the output's hash
MIX_L, MIX_R = 0xCA01F9DD, 0x4973F715
MASK = 0xFFFFFFFF


class _Seeded(ISeedSequence):
    """Seed words already computed, handed to `numpy.random.PCG64` as a seed sequence would hand them."""

    def __init__(self, words: np.ndarray) -> None:
        self.words = words

    def generate_state(self, n_words: int, dtype=np.uint32) -> np.ndarray:
        if n_words != len(self.words) or np.dtype(dtype) != self.words.dtype:
            raise ValueError(f"n_words: {len(self.words)} words of {self.words.dtype} were computed")
        return self.words


def _words(value: int) -> list[int]:
    """A non-negative integer as little-endian 32-bit words (0 is one word), as SeedSequence reads it."""
    out = [value & MASK]
    value >>= 32
    while value:
        out.append(value & MASK)
        value >>= 32
    return out


class _Hash:
    """A hash constant stepped by every use: the same sequence for every child, so a scalar."""

    def __init__(self, init: int, mult: int) -> None:
        self.const, self.mult = init, mult

    def __call__(self, value: np.ndarray) -> np.ndarray:
        value = value ^ np.uint32(self.const)
        self.const = (self.const * self.mult) & MASK
        value = value * np.uint32(self.const)
        return value ^ (value >> np.uint32(16))


def _mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.uint32(MIX_L) * x - np.uint32(MIX_R) * y
    return out ^ (out >> np.uint32(16))


def children_words(parent: np.random.SeedSequence, n: int) -> np.ndarray:
    """(n, 4) uint64: the PCG64 seed words of ``parent.spawn(n)``'s children (``generate_state(4, np.uint64)``),
    for a parent of integer entropy and the default pool size."""
    if not _hashable(parent):
        raise ValueError("parent: an integer entropy and the default pool size are needed")
    run = _words(int(parent.entropy))
    run += [0] * (POOL - len(run))  # padded to the pool: the children have a spawn key
    for key in parent.spawn_key:
        run += _words(int(key))
    entropy = [np.full(n, w, dtype=np.uint32) for w in run] + [np.arange(n, dtype=np.uint32)]
    hashmix = _Hash(INIT_A, MULT_A)
    pool = [hashmix(entropy[i]) for i in range(POOL)]
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], hashmix(pool[src]))
    for src in range(POOL, len(entropy)):
        for dst in range(POOL):
            pool[dst] = _mix(pool[dst], hashmix(entropy[src]))
    out_hash = _Hash(INIT_B, MULT_B)
    state = np.stack([out_hash(pool[i % POOL]) for i in range(2 * POOL)], axis=1)  # 8 words, cycling the pool
    return np.ascontiguousarray(state.astype("<u4")).view("<u8").astype(np.uint64)


def _hashable(parent: np.random.SeedSequence) -> bool:
    return isinstance(parent.entropy, int | np.integer) and parent.pool_size == POOL


def words(parent: np.random.SeedSequence, n: int) -> np.ndarray:
    """(n, 4) uint64: the PCG64 seed words of ``parent.spawn(n)``'s children, for all n at once (by numpy's loop for
    a parent of other entropy than an integer)."""
    if not _hashable(parent):
        return np.array([c.generate_state(4, np.uint64) for c in parent.spawn(n)]).reshape(n, 4)
    return children_words(parent, n)


def generators(seed_words: np.ndarray) -> list[np.random.Generator]:
    """A PCG64 `Generator` for each row of seed words (a seed sequence's ``generate_state(4, np.uint64)``)."""
    return [np.random.Generator(np.random.PCG64(_Seeded(w))) for w in seed_words]
