"""Compiled (numba) arithmetic of MOL-TS's optimistic sampling (Park, Ann & Oh, Alg. 1, Eq. 2), shared by the
learner (`learners.MOLTS`) and the compiled loops (`banditviz.algorithms._linear_loop.mol_ts_arm`).

Every sum runs in a fixed order in explicit loops (no LAPACK Cholesky, no BLAS product, no einsum), so the samples
are the same bits on every machine and in both places.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..._contexts import arm_dots


@numba.njit(cache=True, error_model="numpy")
def cholesky_lower(V_inv: np.ndarray, S: np.ndarray) -> bool:
    """S (d x d, lower triangular) with S S' = (V_inv + V_inv') / 2, by Cholesky-Banachiewicz; False when a pivot is
    not positive (the matrix is not positive definite)."""
    d = V_inv.shape[0]
    for i in range(d):
        for j in range(i + 1):
            s = 0.0
            for k in range(j):
                s += S[i, k] * S[j, k]
            a = (V_inv[i, j] + V_inv[j, i]) / 2
            if i == j:
                if not a - s > 0.0:
                    return False
                S[i, i] = math.sqrt(a - s)
            else:
                S[i, j] = (a - s) / S[j, j]
        for j in range(i + 1, d):
            S[i, j] = 0.0
    return True


@numba.njit(cache=True)
def sample_thetas(theta: np.ndarray, S: np.ndarray, z: np.ndarray, c: float, out: np.ndarray) -> None:
    """out[l, m] = theta_hat^(l) + S (c z[l, m]) ~ N(theta_hat^(l), c^2 S S') for standard normals z (L x M x d)."""
    L, M, d = z.shape
    for l_ in range(L):
        for m in range(M):
            for i in range(d):
                s = 0.0
                for j in range(i + 1):
                    s += (c * z[l_, m, j]) * S[i, j]
                out[l_, m, i] = theta[i, l_] + s


@numba.njit(cache=True)
def optimistic_scores(X: np.ndarray, thetas: np.ndarray, mu: np.ndarray, winner: np.ndarray) -> None:
    """mu[k, l] = max_m x_k' theta~[l, m] (MOL-TS Eq. 2) and winner[k, l] its first maximising m, unless ``winner``
    has no rows (the compiled loop, which keeps no winners: the maxima alone, side by side); the scores by
    `arm_dots` (each summed over d in order, the arms side by side)."""
    L, M, d = thetas.shape
    K = X.shape[0]
    XT = np.ascontiguousarray(X.T)
    s, best = np.empty(K), np.empty(K)
    keep = winner.shape[0] > 0
    for l_ in range(L):
        arm_dots(XT, thetas[l_, 0], best)
        if keep:
            winner[:, l_] = 0
        for m in range(1, M):
            arm_dots(XT, thetas[l_, m], s)
            if keep:
                for k in range(K):
                    if s[k] > best[k]:
                        best[k], winner[k, l_] = s[k], m
            else:
                for k in range(K):
                    best[k] = s[k] if s[k] > best[k] else best[k]
        mu[:, l_] = best
