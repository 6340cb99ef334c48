"""The effective Pareto front C* and the effective Pareto gap (MOL-TS Def. 5, 6), exactly and without most LPs.

`effective_pareto_mask` and `effective_gap` (every arm), `gaps_of` and `effective_gap_of` (one arm, for contextual
runs whose means change every round), `front_rows` (the Pareto arms and their distinct rows, the support of both).

Exactness of the effective front (MOL-TS Def. 5) and of the effective gap (MOL-TS Def. 6)
---------------------------------------------------------------------------------
The reference for both is a linear programme (``_effective_mask_lp``, ``_effective_gap_lp``). The fast
paths are exact, not heuristic:

* L = 2: Andrew's monotone chain over the Pareto points, collinear points kept (MOL-TS Def. 5);
  the gap is the dual ``min_w max_b w.(mu_b - mu_a)`` evaluated at the chain's edge normals
  and the two simplex vertices, which contain every breakpoint of that convex piecewise-linear function.
* L >= 3 membership: every decision is backed by a *certificate* checked in floating point with an
  explicit rounding margin, and only undecided arms go to the LP.  A strictly positive weight ``w``
  bounds the additive-DEA slack of any arm by ``(max_b w.mu_b - w.mu_a) / min(w)`` (in), and an
  explicit convex combination of arms that dominates ``mu_a`` by a total slack > tol is a feasible LP
  point (out).  For L = 3 the region of weights supporting the arm on the weight triangle
  (`weight_region`, half-plane clipping) proposes both certificates for every arm the others leave
  (after the bank alone up to `_REGION_FRONT` Pareto rows), so the LP sees only a rounding band.
  Beyond the bank (for L = 3, only past `_REGION_FRONT` rows), candidate weights come from the Qhull facet normals and
  the sums of facet normals around each hull vertex; candidate mixtures come from shooting rays
  ``mu_a + t * d`` (d a 0/1 direction, all-ones first) through the hull or from pairs of arms.  The
  LP, when still needed, runs over the hull's vertices only, by the compiled simplex (`slack_value`; HiGHS if it
  fails): on Fig. 12's Watch run (K = 200, L = 8) HiGHS's 22,812 LPs took 33 of the run's 41 s.
* L in {3, 4} gap: the minimum of the convex piecewise-linear dual over the simplex sits at a vertex
  of the simplex's subdivision by the hull's normal fan.  Those vertices are, for every subset S of
  objectives, the non-negative facet normals of the projection onto S (simplex vertices for |S| = 1,
  chain edge normals for |S| = 2, Qhull facets for |S| >= 3).  L >= 5 falls back to the LP, skipped
  when a weight bound meets the Pareto-gap lower bound.

The hulls are taken of the Pareto points plus a few artificial points strictly dominated by all of
them (a "floor"): this keeps Qhull full-dimensional on flat or tiny inputs without changing the
efficient faces, because a strictly dominated point never maximises a non-negative weighting.
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numba
import numpy as np
from scipy.spatial import ConvexHull

from . import kernels, lp, simplex, weight_region
from .dominance import SMALL_FRONT, pareto_mask, unique_rows
from .hulls import chain_normals, floor_hull, pareto_2d_sorted, upper_chain
from .means import BLOCK, as_means, check_tol, margin, round_err, scale

_BANK_SIZE = 256


_PAIR_WORK = 2**22  # largest (candidates x support^2 x L) for the pairwise-mixture exclusion test
# L = 3: up to this many distinct Pareto rows the weight region follows the bank directly (its O(n) per arm beat
# Qhull's call: 0.06-0.43 vs 0.42-0.72 ms at n = 20-100); beyond, it takes only what Qhull's certificates leave
# (n = 200-1000 spheres: 1.1-38 ms vs 1.4-116 ms region first; CPU, /tmp measurement noted in the commit)
_REGION_FRONT = 128


@lru_cache(maxsize=16)
def _bank(L: int) -> np.ndarray:
    """Fixed bank of strictly positive weights (rows sum to 1): the uniform weight, Dirichlet(1) draws,
    and for every subset S of objectives the weights 1_S + eps * 1 (eps = 1e-3, 3e-2), which certify
    the extreme arms (e.g. the best arm of one objective) that random weights rarely single out."""
    rng = np.random.default_rng(20251122 + L)
    corners = [np.array(S, float) + eps for S in itertools.product((0, 1), repeat=L) if any(S)
               for eps in (1e-3, 3e-2)] if L <= 8 else []
    w = np.vstack([np.full((1, L), 1.0)] + [c[None, :] for c in corners]
                  + [rng.dirichlet(np.ones(L), size=_BANK_SIZE)])
    w = w / w.sum(axis=1, keepdims=True)
    w = w[(w > 0).all(axis=1)]
    w.setflags(write=False)
    return w


def _normalise_weights(W: np.ndarray, strict: bool) -> np.ndarray:
    """Rows scaled to sum 1, keeping rows that are (strictly, if ``strict``) positive."""
    if W.shape[0] == 0:
        return W
    s = W.sum(axis=1)
    ok = s > 0
    W = W[ok] / s[ok, None]
    if strict:
        return W[W.min(axis=1) > 0]
    W = W[W.min(axis=1) >= -1e-9]
    return np.clip(W, 0.0, None) / np.clip(W, 0.0, None).sum(axis=1, keepdims=True)


def _unit_scaled(points: np.ndarray, target: np.ndarray):
    """``(points, target, e)`` with both scaled by 2^-e (exact) to magnitude in [1/2, 1): both LPs are homogeneous in
    the data, so their optimum on the scaled data times 2^e is the optimum, and HiGHS's absolute feasibility
    tolerance (`lp.FEASIBILITY`) is relative to the data (at magnitude 1e6 it found no optimum within 1e-9). The same
    exponent as `simplex.unit_exponent`, computed apart on purpose: these LPs are the simplex's reference, and the
    test that solves the simplex unscaled (patching `unit_exponent`) must leave the reference scaled."""
    top = max(np.abs(points).max(initial=0.0), np.abs(target).max(initial=0.0))
    e = int(np.frexp(top)[1])
    return np.ldexp(points, -e), np.ldexp(target, -e), e


def _slack_lp(points: np.ndarray, target: np.ndarray) -> float:
    """Additive-DEA slack LP of MOL-TS Def. 5: max 1's s.t. sum_b beta_b mu_b - s = target, beta in simplex (solved
    on the data scaled to magnitude ~1: `_unit_scaled`)."""
    points, target, e = _unit_scaled(points, target)
    n, L = points.shape
    A_eq = np.zeros((L + 1, n + L))
    A_eq[:L, :n] = points.T
    A_eq[:L, n:] = -np.eye(L)
    A_eq[L, :n] = 1.0
    b_eq = np.concatenate([target, [1.0]])
    return -math.ldexp(lp.minimise(np.concatenate([np.zeros(n), -np.ones(L)]), A_eq, b_eq, b_eq,
                                   np.zeros(n + L), np.full(n + L, np.inf)), e)


@numba.njit(cache=True)
def slack_value(points, target):
    """The optimum of the slack LP (`_slack_lp`) by the compiled simplex (`simplex.slack_value`), or by HiGHS (object
    mode) if it fails."""
    slack = simplex.slack_value(points, target)
    if np.isnan(slack):
        with numba.objmode(slack="float64"):
            slack = _slack_lp(points, target)
    return slack


def _effective_mask_lp(means, tol: float = 1e-9) -> np.ndarray:
    """Reference: one additive-DEA slack LP per Pareto arm over the Pareto arms (MOL-TS Def. 5).

    An arm is in C* iff it is Pareto optimal and its optimal total slack is <= tol * max(1, max|mu|).
    """
    mu = as_means(means)
    tol_abs = check_tol(tol) * scale(mu)
    P = pareto_mask(mu)
    support = mu[P]
    out = np.zeros(mu.shape[0], dtype=bool)
    for a in np.flatnonzero(P):
        out[a] = _slack_lp(support, mu[a]) <= tol_abs
    return out


def _certify_in(U: np.ndarray, W: np.ndarray, member: np.ndarray, tol_abs: float, err: float) -> None:
    """Mark in ``member`` the arms of U certified in C* by a strictly positive weight row of W (sum 1).

    For w > 0 the LP slack of a is at most (max_b w.mu_b - w.mu_a) / min(w); a row certifies a when
    that bound, with a rounding margin, is <= tol_abs.  Only arms not yet in ``member`` are examined.
    """
    for s in range(0, W.shape[0], BLOCK):
        rows = np.flatnonzero(~member)
        if rows.size == 0:
            return
        Wb = W[s:s + BLOCK]
        S = U @ Wb.T
        h = S.max(axis=0)
        ok = (h[None, :] - S[rows] + err <= tol_abs * Wb.min(axis=1)[None, :]).any(axis=1)
        member[rows[ok]] = True


def _barycentric(V: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Affine coordinates (m, L) of points Y (m, L) on the simplices with vertex rows V (m, L, L)."""
    E = np.swapaxes(V[:, 1:, :] - V[:, :1, :], 1, 2)  # (m, L, L-1): edge vectors as columns
    rhs = Y - V[:, 0, :]
    try:  # normal equations: cheap, and exact enough because the result is verified by the caller
        G = np.swapaxes(E, 1, 2) @ E
        coef = np.linalg.solve(G, (np.swapaxes(E, 1, 2) @ rhs[:, :, None]))[:, :, 0]
    except np.linalg.LinAlgError:  # a degenerate (flat) facet somewhere in the batch
        coef = np.einsum("mij,mj->mi", np.linalg.pinv(E), rhs)
    return np.concatenate([1.0 - coef.sum(axis=1, keepdims=True), coef], axis=1)


def _certify_out(U: np.ndarray, idx: np.ndarray, hull: ConvexHull, dirs: np.ndarray, tol_abs: float,
                 err: float) -> np.ndarray:
    """Arms U[idx] certified outside C* by an explicit dominating mixture (a feasible LP point).

    For each direction d >= 0 (rows of ``dirs``) the ray mu_a + t * d leaves the hull through a facet;
    the barycentric weights of the exit point on that facet's vertices (floor vertices replaced by a
    real arm, which dominates them) give a mixture y >= mu_a (up to rounding).  If the total slack
    sum(y - mu_a) exceeds tol_abs for some d, so does the LP optimum.
    """
    n, L = U.shape
    out = np.zeros(idx.size, dtype=bool)
    N, off = hull.equations[:, :L], hull.equations[:, L]
    step = max(1, 2**22 // max(1, N.shape[0]))  # bound the (candidates x facets) block
    if idx.size > step:
        for s in range(0, idx.size, step):
            out[s:s + step] = _certify_out(U, idx[s:s + step], hull, dirs, tol_abs, err)
        return out
    if idx.size == 0:
        return out
    X = U[idx]
    real = hull.points.copy()
    real[n:] = U[0]  # every real arm dominates every floor point, so the mixture only gets better
    base = X @ N.T + off[None, :]  # (m, F), <= 0 inside the hull
    for d in dirs:
        up = N @ d
        use = np.flatnonzero(up > 1e-12)
        rows = np.flatnonzero(~out)
        if use.size == 0 or rows.size == 0:
            continue
        T = -base[np.ix_(rows, use)] / up[None, use]
        k = T.argmin(axis=1)
        t = T[np.arange(rows.size), k]
        f = use[k]
        beta = _barycentric(hull.points[hull.simplices[f]], X[rows] + t[:, None] * d[None, :])
        good = beta.min(axis=1) >= -1e-9
        beta = np.clip(beta, 0.0, None)
        beta /= beta.sum(axis=1, keepdims=True)
        mix = np.einsum("mi,mij->mj", beta, real[hull.simplices[f]])
        slack = mix - X[rows]
        ok = good & (t > 0) & (slack.min(axis=1) >= -err) & (slack.sum(axis=1) > tol_abs + L * err)
        out[rows[ok]] = True
    return out


@lru_cache(maxsize=16)
def _directions(L: int) -> np.ndarray:
    """Non-zero 0/1 vectors of length L, the all-ones vector first, then by decreasing support."""
    d = np.array(list(itertools.product((1.0, 0.0), repeat=L)))[:-1]
    d = d[np.argsort(-d.sum(axis=1), kind="stable")]
    d.setflags(write=False)
    return d


def _effective_unique(U: np.ndarray, tol_abs: float) -> np.ndarray:
    """Membership in C* of distinct, mutually non-dominated points U (n, L), L >= 2."""
    n, L = U.shape
    if n == 1:
        return np.ones(1, dtype=bool)
    if L == 2:
        out = np.zeros(n, dtype=bool)
        order = pareto_2d_sorted(U)  # all of U, sorted by objective 1
        out[order[upper_chain(U[order], tol_abs)]] = True
        return out
    err = round_err(U)
    member = np.zeros(n, dtype=bool)
    _certify_in(U, _bank(L), member, tol_abs, err)
    decided = member.copy()
    support = U
    if not decided.all() and L <= 4 and n >= 2 and not (L == 3 and n <= _REGION_FRONT):
        hull = floor_hull(U)
        if hull is not None:
            N = hull.equations[:, :L]
            # sums of facet normals around each vertex lie in its normal cone: all of them, or only
            # those with no component below -alpha; then the strictly positive facet normals
            flat = hull.simplices.ravel()
            low = N.min(axis=1)
            for alpha in (np.inf, 0.0, 0.1, 0.3):
                acc = np.zeros((hull.points.shape[0], L))
                np.add.at(acc, flat, np.repeat(np.where((low >= -alpha)[:, None], N, 0.0), L, axis=0))
                _certify_in(U, _normalise_weights(acc[:n], strict=True), member, tol_abs, err)
            _certify_in(U, _normalise_weights(N[low > 0], strict=True), member, tol_abs, err)
            decided = member.copy()
            rest = np.flatnonzero(~decided)
            dirs = _directions(L)
            decided[rest[_certify_out(U, rest, hull, dirs[:1], tol_abs, err)]] = True
            # the real hull vertices span the same free-disposal hull as U, hence the same LP optimum
            verts = hull.vertices[hull.vertices < n]
            if verts.size:
                support = U[verts]
            rest = np.flatnonzero(~decided)
            if rest.size * support.shape[0] ** 2 * L > _PAIR_WORK:  # too many pairs: other 0/1 rays
                decided[rest[_certify_out(U, rest, hull, dirs[1:], tol_abs, err)]] = True
    rest = np.flatnonzero(~decided)
    if L == 3:  # the region of supporting weights on the triangle decides all but a rounding band
        verdict = weight_region.effective_rows(U, rest, tol_abs, err)
        member[rest[verdict == 1]] = True
        decided[rest[verdict >= 0]] = True
    elif rest.size and rest.size * support.shape[0] ** 2 * L <= _PAIR_WORK:
        decided[rest[kernels.pairs_certify_out(U, rest, support, tol_abs, err)]] = True
    for a in np.flatnonzero(~decided):
        member[a] = slack_value(np.vstack([support, U[a]]), U[a]) <= tol_abs
    return member


def effective_pareto_mask(means, tol: float = 1e-9) -> np.ndarray:
    """Boolean K-vector: arm in the effective Pareto front C* (MOL-TS Def. 5 / App. A eq. 4).

    An arm is in C* iff no convex combination of the other arms Pareto-dominates it, i.e. iff it is an
    efficient point of the convex hull: arms on an efficient face are in, merely weakly efficient arms
    are out.  Exact: it agrees with the additive-DEA LP (``_effective_mask_lp``; total slack
    <= ``tol * max(1, max|mu|)``), using the L = 2 monotone chain or certificates + LP (module doc).
    """
    mu = as_means(means)
    tol = check_tol(tol)
    if mu.shape[1] == 2 and mu.shape[0] <= SMALL_FRONT:
        out = effective_mask_2d(mu, tol)
        if out.size:
            return out
    tol_abs = tol * scale(mu)
    P = pareto_mask(mu)
    if mu.shape[1] == 1:
        return P
    U, inv = unique_rows(mu[P])
    out = np.zeros(mu.shape[0], dtype=bool)
    out[P] = _effective_unique(U, tol_abs)[inv]
    return out


@numba.njit(cache=True)
def effective_mask_2d(mu: np.ndarray, tol: float) -> np.ndarray:
    """`effective_pareto_mask` of L = 2 means in one compiled call (MOL-TS's loop takes it every round): the Pareto
    rows (`kernels.nondominated`) in lexicographic order (`kernels.distinct_row_order`), which for distinct, mutually
    non-dominated 2-D rows is objective 1 ascending (two such rows with equal objective 1 are equal), through
    `upper_chain`. Empty when two Pareto rows are equal (the caller's np.unique decides). Plain loops, no fancy
    indexing: numba compiles it in about a second on a fresh clone."""
    K = mu.shape[0]
    pareto = kernels.nondominated(mu)
    front, n, top = np.empty(K, dtype=np.int64), 0, 1.0
    for k in range(K):
        top = max(top, abs(mu[k, 0]), abs(mu[k, 1]))
        if pareto[k]:
            front[n] = k
            n += 1
    U = np.empty((n, 2))
    for i in range(n):
        U[i, 0], U[i, 1] = mu[front[i], 0], mu[front[i], 1]
    order = kernels.distinct_row_order(U) if n > 1 else np.zeros(1, dtype=np.int64)
    out = np.zeros(K if order.size else 0, dtype=np.bool_)
    if order.size:
        S = np.empty((n, 2))
        for i in range(n):
            S[i, 0], S[i, 1] = U[order[i], 0], U[order[i], 1]
        for c in upper_chain(S, tol * top):
            out[front[order[c]]] = True
    return out


def _gap_lp(points: np.ndarray, target: np.ndarray) -> float:
    """max s s.t. sum_b beta_b mu_b - s * 1 >= target, beta in the simplex (MOL-TS Def. 6), clipped at 0 (solved on
    the data scaled to magnitude ~1: `_unit_scaled`)."""
    points, target, e = _unit_scaled(points, target)
    n, L = points.shape
    c = np.zeros(n + 1)
    c[-1] = -1.0
    A = np.zeros((L + 1, n + 1))
    A[:L, :n] = -points.T
    A[:L, n] = 1.0
    A[L, :n] = 1.0
    lhs = np.append(np.full(L, -np.inf), 1.0)
    rhs = np.append(-target, 1.0)
    lb = np.append(np.zeros(n), -np.inf)
    return max(0.0, -math.ldexp(lp.minimise(c, A, lhs, rhs, lb, np.full(n + 1, np.inf)), e))


def _effective_gap_lp(means) -> np.ndarray:
    """Reference: Delta^EPR of every arm by one LP over all arms (MOL-TS Def. 6)."""
    mu = as_means(means)
    return np.array([_gap_lp(mu, mu[a]) for a in range(mu.shape[0])])


def _dual_gaps(mu: np.ndarray, support: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``min_{w in W} [max_b w.support_b - w.mu_a]`` for each row a of mu."""
    out = np.full(mu.shape[0], np.inf)
    for s in range(0, W.shape[0], BLOCK):
        Wb = W[s:s + BLOCK]
        h = (support @ Wb.T).max(axis=0)
        out = np.minimum(out, (h[None, :] - mu @ Wb.T).min(axis=1))
    return out


def _fan_weights(U: np.ndarray) -> np.ndarray | None:
    """Superset of the vertices of the simplex's subdivision by the normal fan of conv(U) (L <= 4).

    For every subset S of objectives: the non-negative facet normals of the projection of U onto S,
    embedded with zeros elsewhere.  None when a Qhull call fails.
    """
    n, L = U.shape
    out = [np.eye(L)]
    for r in range(2, L + 1):
        for S in itertools.combinations(range(L), r):
            proj = U[:, S] if r < L else U
            pu = np.unique(proj, axis=0)
            if r == 2:
                w = chain_normals(pu)
            else:
                if r < L:  # U itself is already Pareto optimal
                    pu = pu[pareto_mask(pu)]
                if pu.shape[0] < 2:
                    continue
                hull = floor_hull(pu)
                if hull is None:
                    return None
                w = _normalise_weights(hull.equations[:, :r], strict=False)
            full = np.zeros((w.shape[0], L))
            full[:, S] = w
            out.append(full)
    return np.vstack(out)


def _snap(g: np.ndarray, mu: np.ndarray) -> np.ndarray:
    g = np.maximum(g, 0.0)
    g[g <= round_err(mu)] = 0.0
    return g


def effective_gap(means) -> np.ndarray:
    """Effective Pareto gaps Delta^EPR of every arm (MOL-TS Def. 6 and eq. 1).

    ``Delta_a = max_{beta in simplex} min_l (sum_b beta_b mu_b - mu_a)_l
    = min_{w in simplex} [max_b w.mu_b - w.mu_a]``; e.g. arms (2,0), (0,2), (1,.9) give 0.05 for the
    third.  Exact: evaluated at the vertices of the fan subdivision for L <= 4, by LP for L >= 5.
    """
    mu = as_means(means)
    K, L = mu.shape
    if L == 1:
        return mu.max() - mu[:, 0]
    U = unique_rows(mu[pareto_mask(mu)])[0]
    if L == 2:
        W = np.vstack([np.eye(2), chain_normals(U)])
        return _snap(_dual_gaps(mu, U, W), mu)
    W = _fan_weights(U) if L <= 4 else None
    if W is not None:
        return _snap(_dual_gaps(mu, U, W), mu)
    err = round_err(mu)
    return np.array([_gap_one(U, mu[a], err)[1] for a in range(K)])


@lru_cache(maxsize=16)
def gap_weights(L: int) -> np.ndarray:
    """The upper bounds of `gap_bounded`: the simplex's vertices, the uniform weight and the bank's weights of the
    subsets of objectives (not its Dirichlet draws: where these few do not settle a gap, the compiled simplex costs
    less than scanning 256 more)."""
    W = np.vstack([np.eye(L), _bank(L)[:-_BANK_SIZE]])
    W.setflags(write=False)
    return W


def _gap_one(U: np.ndarray, target: np.ndarray, err: float) -> tuple[float, float]:
    """(Pareto-gap lower bound, Delta^EPR) of ``target`` against the distinct Pareto rows ``U``: `gap_bounded`."""
    return gap_bounded(U, target, gap_weights(len(target)), err)


def front_rows(mu: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The Pareto arms of ``mu`` (indices), their distinct rows U (`unique_rows`: lexicographic order), each Pareto
    arm's row of U and max(1, max |mu|): one compiled call (`kernels.front_rows`) up to `SMALL_FRONT` arms when
    no two Pareto rows are equal, else step by step (same values)."""
    if mu.shape[0] <= SMALL_FRONT:
        out = kernels.front_rows(mu)
        if out[1].shape[0]:
            return out
    front = np.flatnonzero(pareto_mask(mu))
    U, row = unique_rows(mu[front])
    return front, U, row, scale(mu)


def gaps_of(means, arm: int) -> tuple[float, float]:
    """(Delta^PR, Delta^EPR) of one arm (MOL-TS Def. 3, 6), for contextual runs where the means change every round.

    Pareto-gap lower bound and weight-bank upper bound first (enough whenever the arm is the unique
    maximiser of a bank weighting or is beaten by a single arm), else one small LP over the Pareto arms. For
    L >= 3 the lower bound is Delta^PR itself (its maximum over the arms is reached on the front).
    """
    mu = as_means(means)
    K, L = mu.shape
    if isinstance(arm, bool) or not isinstance(arm, (int, np.integer)) or not 0 <= int(arm) < K:
        raise ValueError(f"arm: must be an integer in [0, {K}), got {arm!r}")
    arm = int(arm)
    if L >= 3:
        lb, gap = gaps_of_compiled(mu, arm, gap_weights(L))
        return float(lb), float(gap)
    pareto_gap = float(np.maximum(0.0, (mu - mu[arm]).min(axis=1).max()))
    if L == 1:
        return pareto_gap, float(mu[:, 0].max() - mu[arm, 0])
    U = unique_rows(mu[pareto_mask(mu)])[0]
    W = np.vstack([np.eye(2), chain_normals(U)])
    return pareto_gap, float(_snap(_dual_gaps(mu[arm:arm + 1], U, W), mu)[0])


def effective_gap_of(means, arm: int) -> float:
    """Delta^EPR of one arm (MOL-TS Def. 6): `gaps_of`'s second value."""
    return gaps_of(means, arm)[1]


_margin = numba.njit(cache=True)(margin)


@numba.njit(cache=True)
def gap_bounded(U, target, W, err):
    """(Pareto-gap lower bound, Delta^EPR) of ``target`` against the distinct Pareto rows ``U``: the lower bound
    against the upper bound of the weights ``W`` (`kernels.settled_gap`; equal up to the rounding margin ``err``
    whenever the arm is the unique maximiser of a weighting or is beaten by a single arm), the LP only if they differ
    (`_gap_by_lp`)."""
    lb, gap = kernels.settled_gap(U, target, W, err)
    return lb, gap if not np.isnan(gap) else _gap_by_lp(U, target, lb, err)


@numba.njit(cache=True)
def _gap_by_lp(U, target, lb, err):
    """Delta^EPR of ``target`` by the LP over the distinct Pareto rows ``U``: the compiled simplex
    (`simplex.gap_value`), or HiGHS (`_gap_lp`, in object mode) if it fails; its optimum is taken as 0 within the
    rounding margin (as the bounds' is) and never below the lower bound ``lb`` (so Delta^PR <= Delta^EPR holds
    exactly, MOL-TS L122)."""
    gap = simplex.gap_value(U, target)
    if np.isnan(gap):
        with numba.objmode(gap="float64"):
            gap = _gap_lp(U, target)
    return 0.0 if gap <= err else max(gap, lb)


@numba.njit(cache=True)
def gaps_of_compiled(mu, arm, W):
    """`gaps_of` for L >= 3, compiled (also called by compiled loops); ``W`` = `gap_weights(L)`. The bounds over
    every arm settle the gap as they would over the Pareto rows (`kernels.settled_gap`); the Pareto rows are found
    only for the LP when they do not (`front_rows` through object mode when two Pareto rows are equal: np.unique
    decides). On the learners' pulls in MOL-TS's main setting, 9.5 -> 3.7 us a round for MOL-TS, 11.0 -> 6.4 for
    MOL-UCB (`benchmarks/molts_loop.py`)."""
    err = _margin(mu.shape[1], kernels.magnitude(mu))
    lb, gap = kernels.settled_gap(mu, mu[arm], W, err)
    if not np.isnan(gap):
        return lb, gap
    U = kernels.front_rows(mu)[1]
    if U.shape[0] == 0:
        with numba.objmode(U="float64[:, :]"):
            U = front_rows(mu)[1]
    return lb, _gap_by_lp(U, mu[arm], lb, err)
