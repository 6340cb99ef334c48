"""The two small LPs of the effective Pareto front and gap (MOL-TS Def. 5, 6), solved in compiled code (numba) by a
dense two-phase simplex: a few microseconds where HiGHS through Python takes ~100 us, and callable from compiled loops.

Both LPs have L + 1 rows and a few dozen columns, so a dense tableau is the simple choice. Both are homogeneous in
the data, so they are solved on the data scaled by a power of two to magnitude ~1 (`unit_exponent`). Dantzig's rule,
and Bland's rule (the lowest-index improving column, the lowest-index basic variable on ratio ties) once pivots
stall, rule out cycling on the degenerate vertices that ties and repeated points create. The value is an LP optimum like
HiGHS's, equal to it up to rounding (tested against HiGHS on random and degenerate inputs); an unusual outcome (an
iteration cap, a phase 1 that does not reach zero) returns NaN, and the caller then asks HiGHS (`lp.minimise`).
"""

from __future__ import annotations

import math

import numba
import numpy as np

_EPS = 1e-12  # pivot and reduced-cost tolerance, relative to the data's magnitude


@numba.njit(cache=True)
def _pivot(T, basis, p, j):
    """Make column j basic in row p (every other row, the objective row last included); element by element, with
    no temporary row."""
    n = T.shape[1]
    d = T[p, j]
    for k in range(n):
        T[p, k] /= d
    for i in range(T.shape[0]):
        f = T[i, j]
        if i != p and f != 0.0:
            for k in range(n):
                T[i, k] -= f * T[p, k]
    basis[p] = j


@numba.njit(cache=True)
def _optimise(T, basis, ncols, eps, cap):
    """Simplex on tableau T (last row: reduced costs, last column: values) over columns < ncols, maximising: the
    largest reduced cost enters, or after 8 degenerate pivots in a row the lowest improving index (Bland's rule,
    which cannot cycle); False if the iteration cap is reached."""
    m = T.shape[0] - 1
    rhs = T.shape[1] - 1
    stalled = 0  # degenerate pivots in a row: Dantzig's rule until a few, then Bland's (no cycling)
    for _ in range(cap):
        j = -1
        for k in range(ncols):
            if T[m, k] > eps and (j < 0 or (stalled < 8 and T[m, k] > T[m, j])):
                j = k
                if stalled >= 8:
                    break
        if j < 0:
            return True
        p, best = -1, 0.0
        for i in range(m):
            if T[i, j] > eps:
                ratio = T[i, rhs] / T[i, j]
                if p < 0 or ratio < best - eps or (ratio <= best + eps and basis[i] < basis[p]):
                    p, best = i, ratio
        if p < 0:  # unbounded: not one of our LPs
            return False
        stalled = stalled + 1 if best <= eps else 0
        _pivot(T, basis, p, j)
    return False


@numba.njit(cache=True)
def maximise(A, b, c):
    """max c.x s.t. A x = b, x >= 0 (two phases, Bland's rule); NaN when the simplex does not end normally."""
    m, n = A.shape
    scale = 1.0
    for i in range(m):
        scale = max(scale, abs(b[i]))
        for j in range(n):
            scale = max(scale, abs(A[i, j]))
    eps = _EPS * scale
    T = np.zeros((m + 1, n + m + 1))
    basis = np.empty(m, np.int64)
    for i in range(m):
        sign = -1.0 if b[i] < 0 else 1.0
        for j in range(n):
            T[i, j] = sign * A[i, j]
        T[i, n + i] = 1.0
        T[i, -1] = sign * b[i]
        basis[i] = n + i
    for j in range(n):  # phase 1: maximise minus the sum of the artificial variables
        for i in range(m):
            T[m, j] += T[i, j]
    for i in range(m):
        T[m, -1] += T[i, -1]  # minus the objective, sum(b), as every row of the tableau keeps it
    cap = 50 * (n + m)
    if not _optimise(T, basis, n, eps, cap) or T[m, -1] > eps * m:  # the artificial variables cannot reach zero
        return np.nan
    for i in range(m):  # drive the artificial variables left at zero out of the basis (or keep a redundant row)
        if basis[i] >= n:
            for j in range(n):
                if abs(T[i, j]) > eps:
                    _pivot(T, basis, i, j)
                    break
    T[m, :] = 0.0  # phase 2: reduced costs of c in the current basis
    for j in range(n):
        T[m, j] = c[j]
    for i in range(m):
        f = c[basis[i]] if basis[i] < n else 0.0
        if f != 0.0:
            for k in range(T.shape[1]):
                T[m, k] -= f * T[i, k]
    if not _optimise(T, basis, n, eps, cap):
        return np.nan
    return -T[m, -1]


@numba.njit(cache=True)
def slack_value(U, target):
    """The additive-DEA slack LP of MOL-TS Def. 5: max 1's s.t. sum_b beta_b u_b - s = target, beta in the simplex,
    s >= 0 (solved on the data scaled to magnitude ~1: `unit_exponent`)."""
    n, L = U.shape
    e = unit_exponent(U, target)
    A = np.zeros((L + 1, n + L))
    b = np.empty(L + 1)
    c = np.zeros(n + L)
    for j in range(L):
        for k in range(n):
            A[j, k] = math.ldexp(U[k, j], -e)
        A[j, n + j] = -1.0
        b[j] = math.ldexp(target[j], -e)
        c[n + j] = 1.0
    A[L, :n] = 1.0
    b[L] = 1.0
    return math.ldexp(maximise(A, b, c), e)


@numba.njit(cache=True)
def unit_exponent(U, target):
    """The e with max(|U|, |target|) in [2^(e - 1), 2^e) (0 for all zeros). Both LPs are homogeneous in the data:
    scaled by 2^-e (exact, a power of two), their optimum is scaled by 2^-e. They are solved so, on data of magnitude
    ~1: on data of magnitude 1e-4 or 1e5 the tableau's entries outgrew the pivot tolerance, and ~0.3% of degenerate
    LPs (ties, grids) ended at a wrong optimum or at none (against HiGHS)."""
    m = 0.0
    for v in U.ravel():
        m = max(m, abs(v))
    for v in target:
        m = max(m, abs(v))
    return math.frexp(m)[1] if m > 0 else 0


@numba.njit(cache=True)
def gap_value(U, target):
    """The effective gap LP of MOL-TS Def. 6: max s s.t. sum_b beta_b u_b - s 1 >= target, beta in the simplex,
    with s >= 0 (the optimum is >= 0 whenever some row of U weakly dominates ``target``, as a Pareto row does for
    any arm; otherwise phase 1 fails and the result is NaN), on the data scaled to magnitude ~1 (`unit_exponent`)."""
    n, L = U.shape
    e = unit_exponent(U, target)
    A = np.zeros((L + 1, n + 1 + L))  # columns: beta (n), s, the surplus of each objective (L)
    b = np.empty(L + 1)
    c = np.zeros(n + 1 + L)
    for j in range(L):
        for k in range(n):
            A[j, k] = math.ldexp(U[k, j], -e)
        A[j, n] = -1.0
        A[j, n + 1 + j] = -1.0
        b[j] = math.ldexp(target[j], -e)
    A[L, :n] = 1.0
    b[L] = 1.0
    c[n] = 1.0
    return math.ldexp(maximise(A, b, c), e)
