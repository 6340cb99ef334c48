"""Lexicographic order of arms (LexMOSLB Sec. 1) and the smallest trade-off lambda of its claim (5)."""

from __future__ import annotations

import numpy as np

from .means import as_means


def _as_vector(v, name: str) -> np.ndarray:
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: cannot be read as a float array ({exc})") from None
    if a.ndim != 1 or a.size == 0 or np.isnan(a).any():
        raise ValueError(f"{name}: expected a non-empty 1-D vector without NaN, got shape {a.shape}")
    return a


def _check_atol(atol: float) -> float:
    atol = float(atol)
    if not np.isfinite(atol) or atol < 0:
        raise ValueError(f"atol: must be a finite number >= 0, got {atol}")
    return atol


def lex_dominates(u, v, atol: float = 1e-12) -> bool:
    """True iff u lexicographically dominates v (LexMOSLB Sec. 1): at the first objective where they differ by
    more than ``atol``, u is larger.  Vectors equal within ``atol`` everywhere do not dominate."""
    atol = _check_atol(atol)
    a, b = _as_vector(u, "u"), _as_vector(v, "v")
    if a.shape != b.shape:
        raise ValueError(f"v: shape {b.shape} does not match u's {a.shape}")
    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        if x - y > atol:
            return True
        if y - x > atol:
            return False
    return False


def lex_order(means, atol: float = 1e-12) -> np.ndarray:
    """Arm indices sorted lexicographically best first (LexMOSLB Sec. 1); full ties by ascending index.

    Objective by objective, arms within ``atol`` of the best remaining value of their group tie and are
    ordered by the next objective; so the leading group is exactly ``lex_optimal``.
    """
    mu = as_means(means)
    atol = _check_atol(atol)
    K, L = mu.shape
    if atol == 0:
        return np.lexsort([np.arange(K)] + [-mu[:, l] for l in reversed(range(L))])
    groups = [np.arange(K)]
    for l in range(L):
        new: list[np.ndarray] = []
        for g in groups:
            if g.size == 1:
                new.append(g)
                continue
            g = np.sort(g)
            v = mu[g, l]
            o = np.argsort(-v, kind="stable")
            g, vals = g[o], v[o].tolist()
            start, leader = 0, vals[0]
            for k in range(1, len(vals)):
                if vals[k] < leader - atol:
                    new.append(g[start:k])
                    start, leader = k, vals[k]
            new.append(g[start:])
        groups = new
    return np.concatenate([np.sort(g) for g in groups])


def lex_optimal(means, atol: float = 1e-12) -> np.ndarray:
    """All lexicographically optimal arms (sorted indices): the cascade A_i = {a in A_{i-1} :
    mu^i(a) >= max_{A_{i-1}} mu^i - atol} of LexMOSLB Sec. 1."""
    mu = as_means(means)
    atol = _check_atol(atol)
    A = np.arange(mu.shape[0])
    for l in range(mu.shape[1]):
        v = mu[A, l]
        A = A[v >= v.max() - atol]
    return A


def lambda_min(means: np.ndarray, atol: float = 1e-12) -> tuple[float, np.ndarray]:
    """Smallest lambda satisfying claim (5) on a finite arm set (LexMOSLB Sec. 1, claim (5)), overall and per
    objective i >= 2.

    With g_j(x) = mu^j(x*) - mu^j(x): max over x and i >= 2 with -g_i(x) > 0 of -g_i(x) / max_{j<i} g_j(x);
    0 when no arm beats x* on any objective. ``per[i - 2]`` is the value for objective i.
    """
    mu = as_means(means)
    gaps = mu[lex_optimal(mu, atol=atol)[0]][None, :] - mu
    per = np.zeros(max(mu.shape[1] - 1, 0))
    for i in range(1, mu.shape[1]):
        gain = -gaps[:, i]
        lost = gaps[:, :i].max(axis=1)
        hit = gain > atol
        if hit.any():
            per[i - 1] = float((gain[hit] / lost[hit]).max())
    return (float(per.max()) if per.size else 0.0), per
