"""Geometry shared by the effective front and its drawings: the 2-D Pareto points in order, their upper chain and its
edge normals, and a full-dimensional convex hull of a front (MOL-TS Def. 5)."""

from __future__ import annotations

import numba
import numpy as np
from scipy.spatial import ConvexHull

from .means import scale


def pareto_2d_sorted(pts: np.ndarray) -> np.ndarray:
    """Indices of the Pareto points of distinct 2-D points, sorted by objective 1 ascending."""
    x, y = pts[:, 0], pts[:, 1]
    order = np.lexsort((-y, -x))  # objective 1 descending, then objective 2 descending
    ys = y[order]
    prev = np.concatenate([[-np.inf], np.maximum.accumulate(ys)[:-1]])
    keep = order[ys > prev]
    return keep[::-1]


@numba.njit(cache=True)
def upper_chain(pts: np.ndarray, tol_abs: float) -> np.ndarray:
    """Monotone chain over 2-D Pareto points sorted by objective 1 ascending (objective 2 descending): the indices
    kept, in order (compiled: MOL-TS's loop takes it every round at L = 2).

    The middle point b of (a, b, c) is popped only when it lies below the line ac by more than
    ``tol_abs`` in the larger of its vertical / horizontal distances, which is the slack of the
    additive-DEA LP against that edge; collinear points are kept (MOL-TS Def. 5).
    """
    stack = np.empty(pts.shape[0], dtype=np.int64)
    top = 0
    for i in range(pts.shape[0]):
        cx, cy = pts[i, 0], pts[i, 1]
        while top >= 2:
            a, b = stack[top - 2], stack[top - 1]
            ax, ay, bx, by = pts[a, 0], pts[a, 1], pts[b, 0], pts[b, 1]
            cross = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
            if cross > tol_abs * min(cx - ax, ay - cy):
                top -= 1
            else:
                break
        stack[top] = i
        top += 1
    return stack[:top]


def chain_normals(pts: np.ndarray) -> np.ndarray:
    """Weights (rows summing to 1) normal to the edges of the exact upper chain of distinct 2-D points."""
    if pts.shape[0] < 2:
        return np.empty((0, 2))
    par = pts[pareto_2d_sorted(pts)]
    chain = par[upper_chain(par, 0.0)]
    if chain.shape[0] < 2:
        return np.empty((0, 2))
    d = np.diff(chain, axis=0)
    w = np.column_stack([-d[:, 1], d[:, 0]])
    w = w[(w > 0).all(axis=1)]
    return w / w.sum(axis=1, keepdims=True)


def floor_hull(X: np.ndarray) -> ConvexHull | None:
    """Convex hull of distinct points ``X`` (n, d) plus d + 1 points strictly dominated by all of them.

    The first n hull points are the rows of X; the floor makes the hull full-dimensional whatever X is,
    and changes no face whose normal is non-negative.  None if Qhull fails.
    """
    n, d = X.shape
    span = float(np.ptp(X, axis=0).max()) if n > 1 else 0.0
    if span <= 0:
        span = scale(X)
    base = X.min(axis=0) - span
    Z = np.vstack([base, base[None, :] - span * np.eye(d)])
    try:
        return ConvexHull(np.vstack([X, Z]))
    except Exception:  # QhullError, or a ValueError on pathological input: callers fall back to the LP
        return None
