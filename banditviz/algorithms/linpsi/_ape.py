"""Compiled (numba) step of APE (Kone, Kaufmann & Richert 2023, as run in LinPSI Sec. 5, baseline B4), used by
`banditviz.algorithms.linpsi.baselines_fc.APE` after every pull of its most ambiguous pair.

The kernels rewrite the pulled arms' rows and columns of the pairwise matrices M, H = M - beta, P = M + beta and
of the dominance matrix, keep the row minima of H and P, and take APE's decision, with the numpy formulation's
operations in its order (no sum reassociated, the same tie-breaks), so a run is the numpy one's to the bit
(tested against it). The logarithms of the counts stay in numpy, whose ``log`` may differ from libm's in the last
bit.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def update_pairs(arms, mu, ell, inv, sigma, two_cg, Mm, H, P, D, n_dom):
    """Rows, then columns, of Mm, H, P and D for the (distinct, sorted) pulled ``arms``; ``n_dom[i]``: the
    number of arms dominating i.

    beta_ij = sigma sqrt(2 (2 C_g + ell_i + ell_j) (1/T_i + 1/T_j)), summed as (2 C_g + ell_r) + ell_i for a
    pulled arm r, and a column written after the rows: a pair of pulled arms takes its column's value, as the
    numpy assignments ``X[arms] = rows; X[:, arms] = cols.T`` do."""
    K, L = mu.shape
    r = len(arms)
    row, col, beta = np.empty((r, K)), np.empty((r, K)), np.empty((r, K))
    for k in range(r):
        a = arms[k]
        for i in range(K):
            d = mu[a, 0] - mu[i, 0]
            hi, lo = d, -d
            for c in range(1, L):
                d = mu[a, c] - mu[i, c]
                hi = hi if hi >= d else d
                lo = lo if lo >= -d else -d
            row[k, i], col[k, i] = hi, lo
            beta[k, i] = sigma * np.sqrt(2 * (two_cg + ell[a] + ell[i]) * (inv[a] + inv[i]))
    for k in range(r):
        a = arms[k]
        for i in range(K):
            Mm[a, i], H[a, i], P[a, i] = row[k, i], row[k, i] - beta[k, i], row[k, i] + beta[k, i]
    for k in range(r):
        a = arms[k]
        for i in range(K):
            Mm[i, a], H[i, a], P[i, a] = col[k, i], col[k, i] - beta[k, i], col[k, i] + beta[k, i]
            dominates = col[k, i] <= 0 and row[k, i] > 0 and i != a  # a dominates i
            n_dom[i] += np.int64(dominates) - np.int64(D[i, a])
            D[i, a] = dominates
    for k in range(r):
        a = arms[k]
        H[a, a] = P[a, a] = np.inf
        for i in range(K):
            D[a, i] = row[k, i] <= 0 and col[k, i] > 0 and i != a  # i dominates a
    for k in range(r):
        a = arms[k]
        n_dom[a] = D[a].sum()


@numba.njit(cache=True, nogil=True)
def update_row_min(m, val, arg, changed):
    """Row minima ``val`` (and their first argument ``arg``) of ``m`` after its rows and columns ``changed`` were
    rewritten: a row whose minimum sat in a changed column, or that changed itself, is searched again; the others
    only compare the changed columns."""
    K = len(val)
    redo = np.zeros(K, dtype=np.bool_)
    for a in changed:
        redo[a] = True
    for i in range(K):
        for a in changed:
            if arg[i] == a:
                redo[i] = True
    for a in changed:
        for i in range(K):
            if m[i, a] < val[i]:
                val[i], arg[i] = m[i, a], a
    for i in range(K):
        if redo[i]:
            best = 0
            for j in range(1, K):
                if m[i, j] < m[i, best]:
                    best = j
            val[i], arg[i] = m[i, best], best


@numba.njit(cache=True, nogil=True)
def decide(h, pmin, n_dom, H):
    """APE's stopping statistics and next pair: (stop, Z1, Z2, b_t, c_t).

    Z1 = min over the empirical front (n_dom = 0) of h_i, Z2 = min elsewhere of max(h_i, g_i), g_i = -pmin_i
    (+inf when empty), only computed when no arm has both h_i < 0 and g_i < 0 (then one of them is negative
    whatever the front: Z1 = Z2 = -inf is returned); b_t = the first argmax of pmin over h_i <= 0, c_t the first
    argmin of H[b_t]."""
    K = len(h)
    z1 = z2 = np.inf
    for i in range(K):
        g = -pmin[i]
        if (h[i] if h[i] >= g else g) < 0:
            z1 = z2 = -np.inf
            break
        if n_dom[i] == 0:
            z1 = min(z1, h[i])
        else:
            z2 = min(z2, h[i] if h[i] >= g else g)
    if z1 >= 0 and z2 >= 0:
        return True, z1, z2, -1, -1
    b = -1
    for i in range(K):
        if h[i] <= 0 and (b < 0 or pmin[i] > pmin[b]):
            b = i
    c = 0
    for j in range(1, K):
        if H[b, j] < H[b, c]:
            c = j
    return False, z1, z2, b, c
