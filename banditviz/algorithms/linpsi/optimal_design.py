"""Optimal experimental design for the linear identification algorithms (LinPSI Sec. 2.2).

* `subspace_basis`: orthonormal basis B of span{x_i : i in S} from an SVD, with the rank tolerance of
  LinPSI Sec. 2.2 (the authors' ``compute_B_h``); projected features are x~_i = B^T x_i.
* `g_optimal_design`: the G-optimal design argmin_w max_i ||x~_i||^2_{(V^w)^-1}, computed as the equivalent
  D-optimal design (Kiefer-Wolfowitz, LinPSI Sec. 2.2, eq. (4)) by Frank-Wolfe / Fedorov-Wynn on log det
  with away steps,
  stopped by the KW certificate max_i g_i <= (1 + tol) m.  Each iteration is a rank-one update of
  (V^w)^-1 and of the leverages g, so it costs O(|S| m) (full refresh every 64 iterations).
  `cached_design` memoises it (the first round's design is the same in every run).
* `round_design`: integer allocation of N pulls: ``efficient`` apportionment (Pukelsheim 2006, ch. 12;
  exactly N pulls, LinPSI Sec. 3.1, App. H option 2, the default) or the authors' ``ceil`` (s_i = ceil(N w_i)).
* `span_estimate`: the projected least-squares estimator of eq. (3), Theta = B (B^T V B)^-1 B^T X^T Y,
  from per-arm pull counts and reward sums (sufficient statistics).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

PRUNE = 1e-4  # weights below PRUNE * max(w) are dropped before rounding (LinPSI Sec. 3.1, App. H)
_CACHE: OrderedDict[tuple, tuple[np.ndarray, float]] = OrderedDict()
_CACHE_SIZE = 64


def subspace_basis(X: np.ndarray) -> np.ndarray:
    """Orthonormal basis (h x m) of the row span of X (n x h); m = numerical rank (LinPSI Sec. 2.2 tolerance)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"features: must be a non-empty 2-D array, got shape {X.shape}")
    U, s, _ = np.linalg.svd(X.T, full_matrices=False)
    if s.size == 0 or s[0] == 0:
        return np.zeros((X.shape[1], 0))
    tol = max(100 * s[0] * max(X.shape) * np.finfo(float).eps, 1e-9)
    return U[:, s > tol]


def leverages(Xt: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """g_i = x~_i^T (sum_j w_j x~_j x~_j^T)^-1 x~_i for every row of Xt (inf if the matrix is singular)."""
    V = Xt.T @ (weights[:, None] * Xt)
    try:
        Vinv = np.linalg.inv(V)
    except np.linalg.LinAlgError:
        return np.full(Xt.shape[0], np.inf)
    if not np.all(np.isfinite(Vinv)) or np.linalg.cond(V) > 1e12:
        return np.full(Xt.shape[0], np.inf)
    return np.einsum("ij,jk,ik->i", Xt, Vinv, Xt)


def _line_step(g: float, m: int) -> float:
    """Exact maximiser of log det((1 - a) V + a x x^T) over a, for g = x^T V^-1 x (LinPSI Sec. 2.2, eq. (4))."""
    return (g / m - 1.0) / (g - 1.0)


def g_optimal_design(Xt: np.ndarray, tol: float = 1e-3, max_iter: int = 100_000) -> tuple[np.ndarray, float]:
    """G-optimal (= D-optimal) design weights over the rows of Xt (n x m, rows spanning R^m).

    Returns (w, ratio) with ratio = max_i g_i / m, the Kiefer-Wolfowitz certificate (1 at the optimum);
    ratio <= 1 + tol unless ``max_iter`` was reached.  Starts from the uniform design, so a set of m
    linearly independent vectors gets the uniform (optimal) design at once.
    """
    Xt = np.asarray(Xt, dtype=float)
    n, m = Xt.shape
    if m == 0:
        return np.full(n, 1.0 / n), 1.0
    if tol <= 0:
        raise ValueError(f"tol: must be > 0, got {tol}")
    w = np.full(n, 1.0 / n)
    Vinv = np.linalg.inv(Xt.T @ (w[:, None] * Xt))
    g = np.einsum("ij,jk,ik->i", Xt, Vinv, Xt)
    for it in range(max_iter):
        if it % 64 == 63:  # refresh against the drift of the rank-one updates
            Vinv = np.linalg.inv(Xt.T @ (w[:, None] * Xt))
            g = np.einsum("ij,jk,ik->i", Xt, Vinv, Xt)
        k = int(np.argmax(g))
        if g[k] <= (1 + tol) * m:
            break
        support = np.flatnonzero(w > 0)
        j = int(support[np.argmin(g[support])])
        if g[k] - m >= m - g[j] or w[j] >= 1.0:  # Frank-Wolfe (toward) step
            idx, a = k, _line_step(g[k], m)
        else:  # away step: shrink the worst support point, at most until its weight is 0
            cap = w[j] / (1.0 - w[j])
            a = -cap if g[j] <= 1.0 else max(_line_step(g[j], m), -cap)
            idx = j
        x = Xt[idx]
        u = Vinv @ x
        gx = float(x @ u)
        c = a / (1.0 - a)
        denom = 1.0 + c * gx
        proj = Xt @ u
        Vinv = (Vinv - (c / denom) * np.outer(u, u)) / (1.0 - a)
        g = (g - (c / denom) * proj * proj) / (1.0 - a)
        w *= 1.0 - a
        w[idx] += a
        if a < 0 and w[idx] <= 1e-15 * n:
            w[idx] = 0.0
        w = np.maximum(w, 0.0)
    g = leverages(Xt, w)
    return w / w.sum(), float(g.max() / m)


def cached_design(Xt: np.ndarray, tol: float = 1e-3) -> tuple[np.ndarray, float]:
    """`g_optimal_design` memoised on (Xt, tol): a run's first round (all arms) is the same in every run."""
    Xt = np.ascontiguousarray(Xt, dtype=float)
    key = (Xt.shape, Xt.tobytes(), float(tol))
    if key in _CACHE:
        _CACHE.move_to_end(key)
    else:
        _CACHE[key] = g_optimal_design(Xt, tol)
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    w, ratio = _CACHE[key]
    return w.copy(), ratio


def _spanning_support(Xt: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Weights with entries below PRUNE * max(w) set to 0, unless that would lose the span."""
    keep = w >= PRUNE * w.max()
    m = Xt.shape[1]
    if m and np.linalg.matrix_rank(Xt[keep]) < m:
        keep = w > 0
    out = np.where(keep, w, 0.0)
    return out / out.sum()


def round_design(w: np.ndarray, N: int, Xt: np.ndarray, rule: str = "efficient") -> np.ndarray:
    """Integer pull counts for design ``w`` over the rows of Xt (LinPSI Sec. 3.1, App. H).

    ``efficient``: exactly N pulls by efficient apportionment, then, if the pulled arms do not span,
    one pull moved to each missing arm of a basis (needs N >= m).  ``ceil``: s_i = ceil(N w_i) after
    pruning, at least N pulls (the authors' rule).
    """
    if rule not in ("efficient", "ceil"):
        raise ValueError(f"rounding: must be 'efficient' or 'ceil', got {rule!r}")
    m = Xt.shape[1]
    if N < max(m, 1):
        raise ValueError(f"N: at least {max(m, 1)} pulls are needed to span the active arms, got {N}")
    w = _spanning_support(Xt, np.asarray(w, dtype=float))
    if rule == "ceil":
        return np.ceil(N * w - 1e-9).astype(np.int64)
    supp = np.flatnonzero(w > 0)
    s = np.zeros(len(w), dtype=np.int64)
    s[supp] = np.ceil((N - len(supp) / 2) * w[supp]).astype(np.int64)
    while s.sum() < N:
        s[supp[np.argmin(s[supp] / w[supp])]] += 1
    while s.sum() > N:
        s[supp[np.argmax((s[supp] - 1) / w[supp])]] -= 1
    return _ensure_span(Xt, s)


def _ensure_span(Xt: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Move single pulls from the most-pulled arms to arms needed to span (rarely triggered)."""
    m = Xt.shape[1]
    if m == 0 or np.linalg.matrix_rank(Xt[s > 0]) == m:
        return s
    s = s.copy()
    chosen: list[int] = []
    for i in np.argsort(-s, kind="stable"):
        if np.linalg.matrix_rank(Xt[chosen + [int(i)]]) > len(chosen):
            chosen.append(int(i))
        if len(chosen) == m:
            break
    for i in chosen:
        if s[i] == 0:
            s[np.argmax(s)] -= 1
            s[i] = 1
    return s


def rounding_ratio(Xt: np.ndarray, counts: np.ndarray) -> float:
    """rho = max_i ||x~_i||^2_{V_N^-1} N / m for the allocation ``counts`` (LinPSI Sec. 3.1, App. H; <= 1 + 6 kappa)."""
    N, m = int(counts.sum()), Xt.shape[1]
    return float(leverages(Xt, counts.astype(float)).max() * N / m) if m else 1.0


def span_estimate(X: np.ndarray, B: np.ndarray, counts: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """Theta_hat = B (B^T V B)^-1 B^T sum_i x_i S_i^T (eq. 3): V = sum_i T(i) x_i x_i^T, S_i the reward sums.

    ``X`` is K x h, ``counts`` K, ``sums`` K x L; only arms with counts > 0 contribute.
    """
    XB = X @ B
    V = XB.T @ (counts[:, None] * XB)
    return B @ np.linalg.solve(V, XB.T @ sums)


def pull_sequence(arms: np.ndarray, counts: np.ndarray, limit: int | None = None) -> np.ndarray:
    """Interleave ``counts[i]`` pulls of ``arms[i]`` smoothly (our decision for LinPSI): pull j of arm i sits at
    position (j + 1/2) / counts[i] of the batch, so the animation shows the design progressively.

    A batch larger than ``limit`` (the pulls a run can still make) is shrunk to ``limit`` pulls in the
    same proportions: the run ends inside it anyway, and memory stays bounded whatever the allocation.
    """
    arms = np.asarray(arms)
    counts = np.asarray(counts, dtype=np.int64)
    if limit is not None and counts.sum() > limit:
        counts = np.floor(counts / counts.sum() * limit).astype(np.int64)
        counts[np.argmax(counts)] += limit - counts.sum()
    keep = counts > 0
    arms, counts = arms[keep], counts[keep]
    reps = np.repeat(np.arange(len(arms)), counts)
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    within = np.arange(reps.size) - starts
    order = np.argsort((within + 0.5) / counts[reps], kind="stable")
    return arms[reps[order]]
