"""Effective-front membership for L = 3 without an LP: the region of supporting weights on the triangle (MOL-TS Def. 5).

The LP of MOL-TS Def. 5 (002 §2.4: max 1's s.t. sum_b beta_b u_b - s = u_a, beta in the simplex, s >= 0) has the
dual min_{w >= 1} max_b w.(u_b - u_a), so its optimum is at most tol iff some weight v in the *open* simplex has
v.(u_b - u_a) <= tol min_j v_j for every row b (put w = v / min(v)), i.e. v.(u_b - u_a - tol e_j) <= 0 for every b
and j. For L = 3 those are 3 (n - 1) half-planes of the weight triangle (w3 = 1 - w1 - w2): the arm is in C* iff
their intersection, clipped from the triangle one half-plane at a time (Sutherland-Hodgman on one convex polygon,
O(n x polygon size)), meets the open triangle. tol = 0 gives the weighted-sum theorem of the spec, tol > 0 the LP's
decision "total slack <= tol_abs" exactly.

Floating point: the clipping only proposes; every decision is a certificate checked with the rounding margin ``err``
(`pareto.margin`), as the other certificates of `pareto.effective` and `molts.front` are:

* in: the mean of the polygon's vertices, a strictly positive weight v with max_b v.u_b - v.u_a + err <= tol min(v)
  (`kernels.bank_certifies`), which bounds the LP optimum by tol;
* out: when a half-plane leaves no vertex of the polygon, the vertex least outside it (the polygon's minimiser of
  g.v, an optimal basis of that 2-D LP) lies on two edges, and those two half-planes with this one have no common
  point on the *closed* triangle (Helly's theorem in the plane). Their Farkas multipliers, lambda >= 0 with
  sum_k lambda_k g_k = (1, 1, 1) (Cramer's rule), weight at most three rows b: with Lambda the multipliers' sum over
  rows, the mixture beta_b = lambda_b / Lambda exceeds u_a by >= 1 / Lambda in every objective and by > tol in total;
  it is checked as `kernels.pair_mixture_dominates` checks its mixtures (every objective > err, total > tol + L err),
  a feasible LP point beyond the tolerance;
* otherwise (-1) the caller runs the LP: an optimum within the rounding margin of tol, a region touching the
  triangle's edge only (a weakly efficient arm, where the open and the closed triangle differ), a region so thin or
  so near an edge that no weight clears the margin, or a degenerate vertex whose multipliers are not >= 0.
"""

from __future__ import annotations

import numba
import numpy as np

from .kernels import bank_certifies


@numba.njit(cache=True)
def _normal(U, a, tol_abs, k, g):
    """Into g, the normal of half-plane k (g.v <= 0): k < 3 the triangle's side v_k >= 0, else row b = (k - 3) // 3
    and objective j = (k - 3) % 3: u_b - u_a - tol e_j."""
    if k < 3:
        g[:] = 0.0
        g[k] = -1.0
        return
    b, j = (k - 3) // 3, (k - 3) % 3
    for i in range(3):
        g[i] = U[b, i] - U[a, i]
    g[j] -= tol_abs


@numba.njit(cache=True)
def _clip(V, E, m, s, k, V2, E2):
    """Clip the convex polygon V[:m] (edge i from vertex i to i + 1 lies on half-plane E[i]) by the half-plane where
    the vertices' values s[:m] are <= 0, the new edge labelled k, into V2, E2; returns the new vertex count."""
    out = 0
    for i in range(m):
        nx = (i + 1) % m
        si, sn = s[i], s[nx]
        if si <= 0.0:
            V2[out, 0], V2[out, 1], V2[out, 2] = V[i, 0], V[i, 1], V[i, 2]
            E2[out] = k if (sn > 0.0 and si == 0.0) else E[i]
            out += 1
        if (si < 0.0 < sn) or (sn < 0.0 < si):  # the edge crosses the line: its crossing point
            t = si / (si - sn)
            for c in range(3):
                V2[out, c] = V[i, c] + t * (V[nx, c] - V[i, c])
            E2[out] = k if si < 0.0 else E[i]
            out += 1
    return out


@numba.njit(cache=True)
def _farkas_out(U, a, tol_abs, err, labels):
    """Is row a beaten beyond the tolerance by the mixture the Farkas multipliers of three half-planes give?"""
    G = np.empty((3, 3))
    g = np.empty(3)
    for c in range(3):
        _normal(U, a, tol_abs, labels[c], g)
        G[:, c] = g
    c0, c1, c2 = G[:, 0], G[:, 1], G[:, 2]
    x12, x20, x01 = np.cross(c1, c2), np.cross(c2, c0), np.cross(c0, c1)
    det = c0[0] * x12[0] + c0[1] * x12[1] + c0[2] * x12[2]
    if det == 0.0:
        return False
    lam = np.array([x12.sum(), x20.sum(), x01.sum()]) / det  # G lam = (1, 1, 1) by Cramer's rule
    n, L = U.shape
    beta = np.zeros(n)
    for c in range(3):
        if lam[c] < 0.0:
            return False
        if labels[c] >= 3:
            beta[(labels[c] - 3) // 3] += lam[c]
    total_w = beta.sum()
    if not total_w > 0.0:
        return False
    low, total = np.inf, 0.0
    for j in range(L):
        y = 0.0
        for b in range(n):
            if beta[b] > 0.0:
                y += beta[b] / total_w * U[b, j]
        low = min(low, y - U[a, j])
        total += y - U[a, j]
    return low > err and total > tol_abs + L * err


@numba.njit(cache=True)
def effective_by_region(U, a, tol_abs, err):
    """Membership of row ``a`` of the distinct, mutually non-dominated rows ``U`` (n, 3) in C*: 1 in, 0 out (each
    certified, module doc), -1 undecided (run the LP)."""
    cap = 6 + 3 * U.shape[0]
    return _decide(U, a, tol_abs, err, np.empty((cap, 3)), np.empty((cap, 3)), np.empty(cap, np.int64),
                   np.empty(cap, np.int64), np.empty(cap))


@numba.njit(cache=True)
def _decide(U, a, tol_abs, err, V, V2, E, E2, s):
    """`effective_by_region` with work arrays of at least 3 + 3 n rows."""
    n = U.shape[0]
    if n == 1:
        return 1
    V[:3] = 0.0
    for i in range(3):
        V[i, i] = 1.0
    E[0], E[1], E[2] = 2, 0, 1  # edge e1 -> e2 lies on v3 = 0, and so on
    m = 3
    for b in range(n):
        if b == a:
            continue
        d0, d1, d2 = U[b, 0] - U[a, 0], U[b, 1] - U[a, 1], U[b, 2] - U[a, 2]
        for j in range(3):
            deepest, low, high = -1, np.inf, -np.inf
            for i in range(m):
                s[i] = V[i, 0] * d0 + V[i, 1] * d1 + V[i, 2] * d2 - tol_abs * V[i, j]
                if s[i] < low:
                    deepest, low = i, s[i]
                high = max(high, s[i])
            if high <= 0.0:  # the polygon lies inside this half-plane
                continue
            k = 3 + 3 * b + j
            if low > 0.0:  # all outside: the two edges of the vertex least outside, and this half-plane
                labels = np.array([E[(deepest - 1) % m], E[deepest], k])
                return 0 if _farkas_out(U, a, tol_abs, err, labels) else -1
            m = _clip(V, E, m, s, k, V2, E2)
            V, V2, E, E2 = V2, V, E2, E
    return 1 if _centroid_certifies(U, a, V, m, tol_abs, err) else -1


@numba.njit(cache=True)
def _centroid_certifies(U, a, V, m, tol_abs, err):
    """Does the mean of the vertices V[:m] (a weight in the open triangle unless the polygon lies on its edge)
    certify row a in C* (`kernels.bank_certifies`)?"""
    w = np.zeros((1, 3))
    for i in range(m):
        w[0] += V[i]
    w /= w.sum()
    return w.min() > 0.0 and bank_certifies(U, a, w, tol_abs, err)


@numba.njit(cache=True)
def effective_rows(U, rows, tol_abs, err):
    """`effective_by_region` of each row index in ``rows`` (int8: 1 in, 0 out, -1 undecided)."""
    cap = 6 + 3 * U.shape[0]
    V, V2, E, E2, s = np.empty((cap, 3)), np.empty((cap, 3)), np.empty(cap, np.int64), np.empty(cap, np.int64), \
        np.empty(cap)
    out = np.empty(rows.size, np.int8)
    for i in range(rows.size):
        out[i] = _decide(U, rows[i], tol_abs, err, V, V2, E, E2, s)
    return out
