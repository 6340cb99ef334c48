"""Compiled (numba) kernels of `banditviz.pareto`: the O(K^2) PSI gaps (LinPSI Sec. 2.1, eq. (1)), the Pareto
mask of a few arms, the order of distinct rows, and the certificates and bounds of the effective Pareto front and
gap (MOL-TS Def. 5, 6) that spare most of their LPs.

The PSI gaps, the mask and the row order only subtract pairs of entries and compare them, with the operations
`banditviz.pareto.psi_gaps` describes: no sum is reassociated, so their values equal the numpy (and moocore)
formulations' exactly (tested against them). The certificates sum L products in their own order: each carries a
rounding margin (``err``) that covers any order, and decides only what it proves; the rest goes to the LP."""

from __future__ import annotations

import math

import numba
import numpy as np


@numba.njit(cache=True)
def psi_gaps(mu: np.ndarray, front: np.ndarray) -> np.ndarray:
    """`pareto.psi_gaps` given the Pareto mask: Delta*_i = max(0, max_j -M(i, j)) off the front and
    min_{j != i} min(M(i, j), max(M(j, i), 0) + Delta*_j) on it, with M(i, j) = max_c (mu_i - mu_j)(c).

    A zero gap is +0.0 (numpy's vectorised maxima could give -0.0: same value, but "-0" in a sentence)."""
    K, L = mu.shape
    M = np.empty((K, K))
    dstar = np.zeros(K)
    for i in range(K):
        for j in range(K):
            m = mu[i, 0] - mu[j, 0]
            for c in range(1, L):
                x = mu[i, c] - mu[j, c]
                m = m if m >= x else x
            M[i, j] = m
            if -m > dstar[i]:
                dstar[i] = -m
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


@numba.njit(cache=True)
def _dominates(mu: np.ndarray, b: int, a: int) -> bool:
    """Row b >= row a in every objective and > in one (maximised)."""
    gt = False
    for j in range(mu.shape[1]):
        if mu[b, j] < mu[a, j]:
            return False
        if mu[b, j] > mu[a, j]:
            gt = True
    return gt


@numba.njit(cache=True)
def nondominated(mu: np.ndarray) -> np.ndarray:
    """`pareto.pareto_mask` by comparing pairs (maximised; duplicates all kept; infinities compare as numbers).

    Only comparisons, so the mask is moocore's exactly; without moocore's call overhead it is the cheaper one
    for small K (`pareto.SMALL_FRONT`). From L = 3 rows visited by decreasing sum (`nondominated_in`; sorted by
    insertion, cheaper than numba's argsort here): 15.7 -> 9.7 us on MOL-TS's sampled vectors at K = 100, L = 4 (34
    on the front), 2.7 -> 2.0 us at K = 50, L = 4 (10 on the front), 0.75 -> 0.65 us at K = 16, L = 3."""
    order = np.arange(mu.shape[0])
    if mu.shape[1] <= 2:  # fronts of a few arms: sorting costs more than it saves (0.22 -> 0.34 us at K = 10, L = 2)
        return nondominated_in(mu, order, None)
    sums = np.empty(mu.shape[0])
    sort_by_sum(mu, order, sums)
    return nondominated_in(mu, order, sums)


@numba.njit(cache=True)
def _may_dominate(key, b: int, a: int) -> bool:
    """False when ``key`` rules out that row b dominates row a (`nondominated_in`); True without a key."""
    if key is None:
        return True
    return not key[b] < key[a]


@numba.njit(cache=True)
def row_sums(mu: np.ndarray, sums: np.ndarray) -> None:
    """Each row's sum into ``sums``, in objective order from 0.0."""
    for k in range(mu.shape[0]):
        t = 0.0
        for j in range(mu.shape[1]):
            t += mu[k, j]
        sums[k] = t


@numba.njit(cache=True)
def nondominated_in(mu: np.ndarray, order: np.ndarray, key: np.ndarray) -> np.ndarray:
    """`nondominated`, visiting the rows in ``order`` (a permutation): the same mask whatever the order. ``key``: a
    value per row that dominance never lowers (b dominates a => key_b >= key_a), such as the `row_sums`
    (floating-point addition is monotone), or None.

    An archive of the rows not dominated so far: each row is compared with the archive only, joins it unless a
    member dominates it, and evicts the members it dominates. Every row seen is in the archive or dominated by a
    member (dominance is transitive), so the final archive is the front. O(K |front|) comparisons instead of up
    to K^2: 6.2 -> 3.3 us at K = 100, L = 4 (28 on the front), equal at K = 10 (`benchmarks/pareto.py`); rows by
    decreasing sum first leave fewer to compare and evict. A row whose key is below another's does not dominate it,
    so it is not compared for that (a NaN key compares false: the rows are compared); by decreasing sum, a row is
    compared for eviction only with members of equal sum.
    """
    K = mu.shape[0]
    archive = np.empty(K, dtype=np.int64)
    n = 0
    for a in order:
        beaten = False
        for m in range(n):
            b = archive[m]
            if _may_dominate(key, b, a) and _dominates(mu, b, a):
                beaten = True
                break
        if beaten:
            continue
        kept = 0
        for m in range(n):
            b = archive[m]
            if not (_may_dominate(key, a, b) and _dominates(mu, a, b)):
                archive[kept] = b
                kept += 1
        archive[kept] = a
        n = kept + 1
    out = np.zeros(K, dtype=np.bool_)
    for m in range(n):
        out[archive[m]] = True
    return out


@numba.njit(cache=True)
def sort_by_sum(mu: np.ndarray, order: np.ndarray, sums: np.ndarray) -> None:
    """Re-sort the permutation ``order`` in place by decreasing row sum of ``mu`` (into ``sums``: `row_sums`), by
    insertion: a few steps when the order is nearly sorted already, as from one round to the next of a learner."""
    row_sums(mu, sums)
    for i in range(1, len(order)):
        a = order[i]
        j = i - 1
        while j >= 0 and sums[order[j]] < sums[a]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = a


@numba.njit(cache=True)
def cone_weight(U: np.ndarray, a: int, steps: int = 64) -> np.ndarray:
    """A weight w > 0 (summing to 1) under which row ``a`` of ``U`` scores at least as well as every row, searched
    by perceptron steps (w += the normalised direction u_a - u_b of the row b it loses to most, kept >= 1e-4):
    a candidate only, which the caller checks with its certificate; the last iterate when none is found. The
    directions u_a - u_r and their lengths do not change with w: taken once, not at every step (a quarter less time
    on MOL-TS's sampled fronts, the same weights bit for bit)."""
    n, L = U.shape
    w = np.full(L, 1.0 / L)
    D, length = np.empty((n, L)), np.empty(n)
    for r in range(n):
        norm = 0.0
        for j in range(L):
            D[r, j] = U[a, j] - U[r, j]
            norm += D[r, j] * D[r, j]
        length[r] = math.sqrt(norm)
    for _ in range(steps):
        worst, b = 0.0, -1
        for r in range(n):
            s = 0.0
            for j in range(L):
                s += w[j] * D[r, j]
            if length[r] > 0.0 and s / length[r] < worst:
                worst, b = s / length[r], r
        if b < 0:
            return w
        total = 0.0
        for j in range(L):
            w[j] = max(w[j] + 0.5 * D[b, j] / length[b] / L, 1e-4)
            total += w[j]
        for j in range(L):
            w[j] /= total
    return w


@numba.njit(cache=True)
def successive_reject(gaps: np.ndarray, front: np.ndarray) -> tuple[int, bool]:
    """EGE-SR's decision (LinPSI Sec. 5, baseline B2) from the active arms' empirical gaps and Pareto mask:
    ``(i, accept)``, the empirically optimal arm with the largest gap (accepted) unless a dominated arm's largest
    gap is at least as large (that arm, rejected); the first position on ties (numpy's argmax)."""
    i1, i2 = -1, -1
    for i in range(len(gaps)):
        if front[i]:
            if i1 < 0 or gaps[i] > gaps[i1]:
                i1 = i
        elif i2 < 0 or gaps[i] > gaps[i2]:
            i2 = i
    if i1 < 0 or (i2 >= 0 and gaps[i2] >= gaps[i1]):
        return i2, False
    return i1, True


@numba.njit(cache=True)
def bank_certifies(U: np.ndarray, a: int, W: np.ndarray, tol_abs: float, err: float) -> bool:
    """Some strictly positive weight row w of ``W`` (rows summing to 1) certifies row ``a`` of ``U`` in the effective
    front: (max_b w.u_b - w.u_a + err) <= tol_abs min(w) (MOL-TS Def. 5, the weighted-sum bound).

    A weight is dropped at its first row over the bound (`_weight_gap`: the full scan's answer, as rounding is
    monotone), its rows visited from the one that failed the weight before (a row scoring above u_a for one weight
    mostly does for the next): two scores instead of |U| for most failing weights."""
    first = 0
    for k in range(W.shape[0]):
        within, _, first = _weight_gap(U, U[a], W[k], err, tol_abs * W[k].min(), first)
        if within:
            return True
    return False


@numba.njit(cache=True)
def _score(u: np.ndarray, w: np.ndarray) -> float:
    """w.u, summed in objective order."""
    s = 0.0
    for j in range(len(u)):
        s += u[j] * w[j]
    return s


@numba.njit(cache=True)
def pair_mixture_dominates(U: np.ndarray, a: int, tol_abs: float, err: float) -> bool:
    """Is row ``a`` of ``U`` beaten, beyond the tolerance, by a mixture of two rows (an explicit point of MOL-TS
    Def. 5's LP)? For each pair (b, c) the betas with beta (u_b - u_c) >= u_a - u_c in every objective form an
    interval; its midpoint gives the candidate mixture, kept if it beats u_a by more than ``err`` in every objective
    and by more than tol_abs + L err in total (margins for the rounding of these sums).

    Pairs with an objective where neither row is above u_a are skipped (for L <= 62, by bit masks): the interval is
    then empty (lo >= 1 or hi <= 0, floating-point subtraction and division being monotone) or, where u_b = u_c = u_a
    there, the mixture's slack is a few roundings of |u_a| <= err; so the answer is the one every pair gives, at
    ~1/3 of the cost on MOL-TS's fronts (K = 100, L = 4)."""
    n, L = U.shape
    above = np.zeros(n, dtype=np.int64)  # bit j: u_b > u_a in objective j
    if L <= 62:
        for b in range(n):
            for j in range(L):
                if U[b, j] > U[a, j]:
                    above[b] |= 1 << j
    full = (1 << L) - 1 if L <= 62 else 0
    for b in range(n):
        for c in range(n):
            if above[b] | above[c] == full and pair_beats(U, a, b, c, tol_abs, err):
                return True
    return False


@numba.njit(cache=True)
def pair_beats(U: np.ndarray, a: int, b: int, c: int, tol_abs: float, err: float) -> bool:
    """Does the candidate mixture of rows b and c (`pair_mixture_dominates`) beat row a beyond the tolerance?"""
    L = U.shape[1]
    lo, hi, _ = _interval(U[b], U[c], U[a])
    if not lo < hi:
        return False
    beta = (lo + hi) / 2
    low, total = np.inf, 0.0
    for j in range(L):
        slack = beta * U[b, j] + (1 - beta) * U[c, j] - U[a, j]
        low = min(low, slack)
        total += slack
    return low > err and total > tol_abs + L * err


@numba.njit(cache=True)
def _interval(u_b: np.ndarray, u_c: np.ndarray, x: np.ndarray) -> tuple[float, float, float]:
    """The betas in [0, 1] with beta u_b + (1 - beta) u_c >= x in every objective, as (lo, hi) (lo > hi: none), and
    sum(u_b - u_c), the slope of the mixture's total in beta."""
    lo, hi, rise = 0.0, 1.0, 0.0
    for j in range(x.size):
        diff = u_b[j] - u_c[j]
        need = x[j] - u_c[j]
        rise += diff
        if diff > 0:
            lo = max(lo, need / diff)
        elif diff < 0:
            hi = min(hi, need / diff)
        elif need > 0:
            return 1.0, 0.0, rise
    return lo, hi, rise


@numba.njit(cache=True)
def pairs_certify_out(U: np.ndarray, idx: np.ndarray, support: np.ndarray, tol_abs: float, err: float) -> np.ndarray:
    """Which rows U[idx] are beaten, beyond the tolerance, by a mixture of two ``support`` rows (an explicit point of
    MOL-TS Def. 5's LP, so outside C*): for each pair (b, c) the lambdas with lambda u_b + (1 - lambda) u_c >= u_a
    form an interval and the total slack is linear in lambda, so the best lambda is an end of it (`_end_beats`).
    Each row stops at its first certifying pair."""
    out = np.zeros(idx.size, dtype=np.bool_)
    n = support.shape[0]
    for i in range(idx.size):
        x = U[idx[i]]
        for b in range(n):
            for c in range(n):
                if _end_beats(support, x, b, c, tol_abs, err):
                    out[i] = True
                    break
            if out[i]:
                break
    return out


@numba.njit(cache=True)
def _end_beats(support: np.ndarray, x: np.ndarray, b: int, c: int, tol_abs: float, err: float) -> bool:
    """Does the mixture of rows b and c at the end of its feasible interval with the larger total slack (the upper
    end when sum(u_b - u_c) > 0) beat ``x`` by at least -err in every objective and by more than tol_abs + L err in
    total (margins for the rounding of these sums)?"""
    L = support.shape[1]
    lo, hi, rise = _interval(support[b], support[c], x)
    if not lo <= hi:
        return False
    lam = hi if rise > 0 else lo
    low, total = np.inf, 0.0
    for j in range(L):
        slack = lam * (support[b, j] - support[c, j]) - (x[j] - support[c, j])
        low = min(low, slack)
        total += slack
    return low >= -err and total > tol_abs + L * err


@numba.njit(cache=True)
def settled_gap(U: np.ndarray, target: np.ndarray, W: np.ndarray, err: float) -> tuple[float, float]:
    """(lower bound, gap) when the Pareto-gap lower bound and the weights' upper bound settle the effective gap of
    ``target`` up to the rounding margin ``err`` (gap NaN when they do not): 0 when the upper bound is <= err, else the
    lower bound when the upper bound is within err of it. The lower bound is the Pareto gap max(0, max_b min_l (u_b -
    target)_l), the upper bound the least max_b w.u_b - w.target over the weight rows w (MOL-TS Def. 6).

    The weights are taken in order until the value is known (0 needs one weight <= err; when the lower bound exceeds
    err, no weight can reach err), and a weight is dropped at its first row b with w.u_b - w.target above the bound
    it must meet (`_weight_gap`): the value of the full scan, as rounding is monotone. Both bounds are the same over
    all arms as over the Pareto rows (a dominated row scores no more than its dominator under weights >= 0, in
    floating point too), so callers may pass every arm's means and find the front only when this does not settle."""
    n, L = U.shape
    lb = 0.0
    for b in range(n):
        m = U[b, 0] - target[0]
        for j in range(1, L):
            m = min(m, U[b, j] - target[j])
        lb = max(lb, m)
    bound, reached, first = lb + err, False, 0  # reached: some weight's upper bound is <= lb + err
    for k in range(W.shape[0]):
        within, gap, first = _weight_gap(U, target, W[k], 0.0, bound, first)
        if not within:
            continue
        if gap <= err:
            return lb, 0.0
        if lb > err:
            return lb, lb
        reached, bound = True, err  # lb is the value unless a later weight reaches err
    return lb, lb if reached else np.nan


@numba.njit(cache=True)
def _weight_gap(U: np.ndarray, target: np.ndarray, w: np.ndarray, err: float, bound: float,
                first: int) -> tuple[bool, float, int]:
    """Is max_b w.u_b - w.target + ``err`` <= ``bound``? (True, max_b w.u_b - w.target, first) if so, else (False,
    inf, the row over it): the rows visited from row ``first`` on and the weight dropped at the first row over the
    bound, the full scan's answer since rounding is monotone (a larger score never gives a smaller difference)."""
    s = _score(target, w)
    best = -np.inf
    for b in range(first, U.shape[0]):
        v = _score(U[b], w) - s
        if v + err > bound:
            return False, np.inf, b
        best = max(best, v)
    for b in range(first):
        v = _score(U[b], w) - s
        if v + err > bound:
            return False, np.inf, b
        best = max(best, v)
    return True, best, first


@numba.njit(cache=True)
def front_rows(mu: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """`pareto.front_rows` in one call: the Pareto arms, their distinct rows U in lexicographic order, each Pareto
    arm's row of U, and max(1, max |mu|); U empty when two Pareto rows are equal (the caller's np.unique decides)."""
    front = np.flatnonzero(nondominated(mu))
    scale = magnitude(mu)
    U = mu[front]
    row = np.zeros(len(front), dtype=np.int64)
    if len(front) > 1:
        order = distinct_row_order(U)
        if order.size == 0:
            return front, U[:0], row, scale
        U = U[order]
        row[order] = np.arange(len(front))
    return front, U, row, scale


@numba.njit(cache=True)
def magnitude(mu: np.ndarray) -> float:
    """max(1, max |mu|): `pareto.means.scale`, compiled."""
    scale = 1.0
    for i in range(mu.shape[0]):
        for j in range(mu.shape[1]):
            scale = max(scale, abs(mu[i, j]))
    return scale


@numba.njit(cache=True)
def distinct_row_order(x: np.ndarray) -> np.ndarray:
    """The rows of ``x`` in ascending lexicographic order (first column first: ``np.lexsort(x.T[::-1])``), by
    insertion; empty when two rows are equal by value (-0.0 == 0.0) or a value is NaN, where the caller's
    ``np.unique`` decides."""
    n, L = x.shape
    for i in range(n):
        for j in range(L):
            if np.isnan(x[i, j]):
                return np.empty(0, dtype=np.int64)
    order = np.arange(n)
    for i in range(1, n):
        a = order[i]
        k = i - 1
        while k >= 0:
            b = order[k]
            j = 0
            while j < L and x[b, j] == x[a, j]:
                j += 1
            if j == L:
                return np.empty(0, dtype=np.int64)
            if x[b, j] < x[a, j]:
                break
            order[k + 1] = b
            k -= 1
        order[k + 1] = a
    return order
