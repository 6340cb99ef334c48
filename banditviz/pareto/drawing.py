"""Fronts to draw: the effective front's 2-D chain and 3-D efficient facets (MOL-TS Def. 5, Sec. 3.4) and the
Pareto front's 2-D staircase."""

from __future__ import annotations

import numpy as np

from .dominance import pareto_mask
from .effective import effective_pareto_mask
from .hulls import floor_hull, pareto_2d_sorted
from .means import as_means, scale


def _require_L(mu: np.ndarray, L: int, fn: str) -> None:
    if mu.shape[1] != L:
        raise ValueError(f"means: {fn} needs L = {L} objectives, got shape {mu.shape}")


def upper_hull_2d(means, tol: float = 1e-9) -> np.ndarray:
    """Indices of the effective front C* (L = 2), ordered by objective 1 ascending (MOL-TS Def. 5).

    This is the monotone upper-right chain to draw as "the effective front"; collinear arms are kept and
    duplicated vectors all appear (adjacent, by index).  Same set as ``effective_pareto_mask``.
    """
    mu = as_means(means)
    _require_L(mu, 2, "upper_hull_2d")
    idx = np.flatnonzero(effective_pareto_mask(mu, tol))
    order = np.lexsort((idx, -mu[idx, 1], mu[idx, 0]))
    return idx[order]


def efficient_facets_3d(means) -> np.ndarray:
    """Triangles (F, 3) of arm indices: facets of the 3-D convex hull with strictly positive outward
    normal, i.e. the efficient part of the hull to draw as a mesh (MOL-TS Sec. 3.4).

    Returns an empty (0, 3) array for fewer than 4 arms or affinely flat (coplanar) arms; never raises
    on such degenerate input.  Duplicated vectors are represented by their lowest index.
    """
    mu = as_means(means)
    _require_L(mu, 3, "efficient_facets_3d")
    empty = np.empty((0, 3), dtype=np.int64)
    if mu.shape[0] < 4 or np.linalg.matrix_rank(mu[1:] - mu[0], tol=1e-12 * scale(mu)) < 3:
        return empty
    P = np.flatnonzero(pareto_mask(mu))
    U, first = np.unique(mu[P], axis=0, return_index=True)
    hull = floor_hull(U)
    if hull is None:
        return empty
    N = hull.equations[:, :3]
    nrm = N / np.linalg.norm(N, axis=1, keepdims=True)
    keep = (nrm.min(axis=1) > 1e-12) & (hull.simplices < U.shape[0]).all(axis=1)
    if not keep.any():
        return empty
    return P[first[hull.simplices[keep]]].astype(np.int64)


def pareto_staircase_2d(means) -> tuple[np.ndarray, np.ndarray]:
    """Staircase polyline (x, y) of the Pareto front of 2-D (estimated) means, objective 1 ascending.

    Maximisation: between consecutive front points p_i, p_{i+1} the line drops from (x_i, y_i) to the
    corner (x_i, y_{i+1}) and then runs to p_{i+1}, tracing the boundary of the dominated region.  It
    starts and ends at the extreme front points (no extension to infinity); a single point gives
    length-1 arrays.
    """
    mu = as_means(means)
    _require_L(mu, 2, "pareto_staircase_2d")
    U = np.unique(mu, axis=0)
    F = U[pareto_2d_sorted(U)]
    x = np.repeat(F[:, 0], 2)[:-1]
    y = np.repeat(F[:, 1], 2)[1:]
    return x, y
