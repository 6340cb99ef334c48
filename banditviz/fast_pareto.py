"""Compiled (numba) kernel of the O(K^2) PSI gaps of `banditviz.pareto` (LinPSI Sec. 2.1, eq. (1)).

It only subtracts pairs of entries and takes maxima and minima of those differences, with the operations
`banditviz.pareto.psi_gaps` describes: no sum is reassociated, so its values equal the numpy formulation's
exactly (tested against it).
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True)
def psi_gaps(mu: np.ndarray, front: np.ndarray) -> np.ndarray:
    """`pareto.psi_gaps` given the Pareto mask: Delta*_i = max(0, max_j -M(i, j)) off the front and
    min_{j != i} min(M(i, j), max(M(j, i), 0) + Delta*_j) on it, with M(i, j) = max_c (mu_i - mu_j)(c).

    A zero gap is +0.0 (numpy's vectorised maxima could give -0.0: same value, but "-0" in a sentence)."""
    K, L = mu.shape
    M = np.empty((K, K))
    for i in range(K):
        for j in range(K):
            m = mu[i, 0] - mu[j, 0]
            for c in range(1, L):
                x = mu[i, c] - mu[j, c]
                m = m if m >= x else x
            M[i, j] = m
    dstar = np.zeros(K)
    for i in range(K):
        for j in range(K):
            if -M[i, j] > dstar[i]:
                dstar[i] = -M[i, j]
    out = np.empty(K)
    for i in range(K):
        if not front[i]:
            out[i] = dstar[i]
            continue
        best = np.inf
        for j in range(K):
            if j != i:
                up = M[j, i] if M[j, i] >= 0.0 else 0.0
                x = up + dstar[j]
                x = M[i, j] if M[i, j] <= x else x
                if x < best:
                    best = x
        out[i] = best
    return out
