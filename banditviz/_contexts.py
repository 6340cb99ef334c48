"""Compiled (numba) draws of a round's contexts and the means they imply: one implementation for the engine
(`environment.Environment`, `instances.sample_contexts`) and the compiled loop of the MOL learners on contextual
instances (`algorithms._contextual_loop`), so both see the same numbers.

The draws are numpy's: numba's `np.random.Generator` methods are ports of numpy's samplers and consume the bit
generator in the same way (tested equal, value by value). The row norms are summed as numpy's ``np.linalg.norm(g,
axis=1)`` sums them (its pairwise summation: a sequential sum below 8 terms, eight interleaved partial sums up to
128, and d <= `limits.MAX_DIM` = 64), so the contexts are the ones ``sample_contexts`` drew with numpy. The
means X theta are summed over d in order (`linear_predictions`, also the ridge's predictions): no BLAS, the same
bits on every machine.
"""

from __future__ import annotations

import numba
import numpy as np

CONTEXTS = ("uniform_ball", "unit_sphere", "gaussian_clipped")
BALL, SPHERE, CLIPPED = range(3)


@numba.njit(cache=True)
def pairwise_sum(x: np.ndarray) -> float:
    """numpy's pairwise sum of a 1-D array of at most 128 values (``np.add.reduce``'s order)."""
    n = x.size
    if n < 8:
        res = 0.0
        for i in range(n):
            res += x[i]
        return res
    r = x[:8].copy()
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += x[i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += x[i]
        i += 1
    return res


@numba.njit(cache=True)
def draw_contexts(rng: np.random.Generator, kind: int, out: np.ndarray) -> None:
    """``out`` (K x d) gets K contexts of ``kind`` (an index of `CONTEXTS`), as `instances.sample_contexts`
    describes: K d standard normals, then (uniform ball) K d uniforms."""
    K, d = out.shape
    g = rng.normal(0.0, 1.0, K * d)
    sq = np.empty(d)
    norms = np.empty(K)
    for k in range(K):
        for j in range(d):
            sq[j] = g[k * d + j] * g[k * d + j]
        norms[k] = np.sqrt(pairwise_sum(sq))
    if kind == BALL:
        u = rng.random(K * d)
    for k in range(K):
        if kind == BALL:
            top = u[k * d]
            for j in range(1, d):
                top = max(top, u[k * d + j])
        for j in range(d):
            if kind == SPHERE:
                out[k, j] = g[k * d + j] / norms[k]
            elif kind == CLIPPED:
                out[k, j] = g[k * d + j] / max(norms[k], 1.0)
            else:
                out[k, j] = g[k * d + j] / norms[k] * top


@numba.njit(cache=True)
def linear_predictions(X: np.ndarray, theta: np.ndarray, out: np.ndarray) -> None:
    """out = X theta, each entry summed over d in order from 0.0 (the means of a round, and the ridge's predictions),
    by `arm_dots`."""
    K, L = out.shape
    XT = np.ascontiguousarray(X.T)
    s = np.empty(K)
    for l_ in range(L):
        arm_dots(XT, theta[:, l_], s)
        out[:, l_] = s


@numba.njit(cache=True)
def arm_dots(XT: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """out[k] = x_k' w for the K arms of XT (d x K, the contexts transposed), summed over i in order from 0.0.

    The arms run innermost, so the compiler computes several arms' sums side by side (SIMD), each in that order: the
    same bits as one dot product at a time, ~3x faster at K = 50, d = 5 (`benchmarks/molts_loop.py`). The first
    term is added to 0.0 as the others are to the sum, in the same pass that starts the sum (not zeroed first)."""
    if XT.shape[0] == 0:
        out[:] = 0.0
    for i in range(XT.shape[0]):
        c, x = w[i], XT[i]
        if i == 0:
            for k in range(len(out)):
                out[k] = 0.0 + x[k] * c
        else:
            for k in range(len(out)):
                out[k] += x[k] * c
