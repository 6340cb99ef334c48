"""Pareto dominance, the Pareto front and the Pareto gap (MOL-TS Def. 1-3), and the distinct rows of a front."""

from __future__ import annotations

import moocore
import numpy as np

from . import kernels
from .means import BLOCK, as_means


def dominated_by(means) -> np.ndarray:
    """Boolean (K, K) matrix: ``D[i, j]`` iff arm j Pareto-dominates arm i (MOL-TS Def. 1).

    ``mu_j >= mu_i`` in every objective and ``>`` in at least one; identical vectors never dominate each
    other, so the diagonal is False.  Infinite entries are allowed (they compare as usual).
    """
    mu = as_means(means, allow_inf=True)
    K, L = mu.shape
    ge = np.ones((K, K), dtype=bool)
    gt = np.zeros((K, K), dtype=bool)
    for l in range(L):
        col = mu[:, l]
        ge &= col[None, :] >= col[:, None]
        gt |= col[None, :] > col[:, None]
    return ge & gt


def _finite_order(mu: np.ndarray) -> np.ndarray:
    """``mu`` with each column's infinities replaced by finite values just outside its finite range.

    Dominance only compares entries within a column, so this order-preserving map changes no comparison;
    moocore's filter needs it (it misorders rows with -inf in some columns).
    """
    if np.isfinite(mu).all():
        return mu
    out = mu.copy()
    for col in out.T:
        finite = col[np.isfinite(col)]
        low, high = (finite.min() - 1.0, finite.max() + 1.0) if finite.size else (-1.0, 1.0)
        col[col == -np.inf], col[col == np.inf] = low, high
    return out


SMALL_FRONT = 128  # arms up to which `pareto_mask` compares pairs in compiled code


def pareto_mask(means) -> np.ndarray:
    """Boolean K-vector: arm not Pareto-dominated by any other arm (MOL-TS Def. 2; duplicates all kept).

    Infinite entries are allowed (e.g. ``-inf`` for arms not yet observed).  Up to `SMALL_FRONT` arms by a
    compiled comparison of pairs (`kernels.nondominated`: 2-6x faster there, moocore's call costs ~30 us),
    beyond by moocore's ``is_nondominated`` (keeping weakly non-dominated duplicates): 10-200x faster than
    blockwise numpy comparisons at K = 259-1000 (benchmarks/pareto.py). Same mask either way.
    """
    mu = as_means(means, allow_inf=True)
    if mu.shape[0] <= SMALL_FRONT:
        return kernels.nondominated(mu)
    return moocore.is_nondominated(_finite_order(mu), maximise=True, keep_weakly=True)


def _maxmin_rows(mu: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``max_b min_l (mu[b, l] - mu[a, l])`` for each a in ``rows`` (a (n, L) array)."""
    out = np.empty(rows.shape[0])
    for s in range(0, rows.shape[0], BLOCK):
        blk = rows[s:s + BLOCK]
        m = mu[None, :, 0] - blk[:, 0, None]
        for l in range(1, mu.shape[1]):
            np.minimum(m, mu[None, :, l] - blk[:, l, None], out=m)
        out[s:s + BLOCK] = m.max(axis=1)
    return out


def pareto_gap(means) -> np.ndarray:
    """Pareto sub-optimality gaps ``Delta^PR_a = max(0, max_b min_l (mu_b - mu_a))`` (MOL-TS Def. 3).

    Zero for every Pareto-optimal arm, but also for weakly dominated arms (e.g. (1, .5) next to (1, .7)):
    never derive front membership from a zero gap.
    """
    mu = as_means(means)
    return np.maximum(0.0, _maxmin_rows(mu, mu))


def unique_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(x, axis=0, return_inverse=True)`` (rows sorted ascending, inverse as a 1-D array).

    When the rows are distinct (as with continuous means, at every round of a contextual run) the result
    is one compiled insertion sort (`kernels.distinct_row_order`: ``np.lexsort``'s order, lexicographic by
    value, first column first), far cheaper than ``np.unique`` on small arrays; rows equal by value (ties, or -0.0
    vs 0.0) go through ``np.unique``.
    """
    if x.shape[0] > 1:
        order = kernels.distinct_row_order(x)
        if order.size:
            inv = np.empty(x.shape[0], dtype=np.intp)
            inv[order] = np.arange(x.shape[0])
            return x[order], inv
    u, inv = np.unique(x, axis=0, return_inverse=True)
    return u, np.asarray(inv).reshape(-1)
