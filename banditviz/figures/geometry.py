"""Pure geometry for the figures: boxes, cuboids, interval strips, fronts and hulls as drawable arrays.

Everything here takes numpy arrays and returns numpy arrays (NaN rows separate polygons or segments,
which Plotly draws as gaps); nothing builds a Plotly object.  Fronts and hulls come from
`banditviz.pareto`, computed in the maximised orientation and only then flipped for display
(``signs`` is +1 for a maximised objective, -1 for a minimised one, `Instance.display`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import pareto

# The 8 corners of a cuboid, bit b of the corner index selecting lower (0) or upper (1) on axis b.
_CORNERS = np.array([[(c >> b) & 1 for b in range(3)] for c in range(8)], dtype=bool)
# 12 triangles (two per face) over those corners.
_TRIANGLES = np.array([
    [0, 1, 3], [0, 3, 2], [4, 5, 7], [4, 7, 6],  # z = lower, z = upper
    [0, 1, 5], [0, 5, 4], [2, 3, 7], [2, 7, 6],  # y = lower, y = upper
    [0, 2, 6], [0, 6, 4], [1, 3, 7], [1, 7, 5],  # x = lower, x = upper
])
# Edge path: bottom loop, up, top loop, then the three remaining vertical edges; -1 is a gap.
_EDGE_PATH = np.array([0, 1, 3, 2, 0, 4, 5, 7, 6, 4, -1, 1, 5, -1, 3, 7, -1, 2, 6, -1])


def seen(estimates: np.ndarray) -> np.ndarray:
    """Arms with a finite estimate in every drawn objective (the others are not drawn yet)."""
    return np.isfinite(estimates).all(axis=1)


def oriented_bounds(lower: np.ndarray, upper: np.ndarray, signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounds in display orientation: a minimised objective's lower bound becomes its upper one.

    NaN (unknown) bounds become infinite, i.e. unbounded on that side.
    """
    lo = np.where(np.isnan(lower), -np.inf, lower) * signs
    hi = np.where(np.isnan(upper), np.inf, upper) * signs
    return np.minimum(lo, hi), np.maximum(lo, hi)


def view_ranges(points: np.ndarray, truth: np.ndarray | None, pad: float = 0.08) -> np.ndarray:
    """Fixed axis ranges (D x 2) for a whole animation.

    Covers the truth and the central 96% of all finite estimates over the run (points: N x D), so
    that a wild first estimate from one noisy pull does not shrink everything else; padded by
    ``pad`` of the span on each side.
    """
    cols = []
    for d in range(points.shape[1]):
        v = points[:, d]
        v = v[np.isfinite(v)]
        parts = [np.quantile(v, [0.02, 0.98])] if v.size else []
        if truth is not None:
            parts.append(truth[:, d])
        allv = np.concatenate(parts) if parts else np.array([0.0, 1.0])
        lo, hi = float(allv.min()), float(allv.max())
        span = hi - lo if hi > lo else max(abs(hi), 1.0)
        cols.append((lo - pad * span, hi + pad * span))
    return np.array(cols)


def clip_to_view(lo: np.ndarray, hi: np.ndarray, ranges: np.ndarray, margin: float = 0.05):
    """Clip box bounds to the view extended by ``margin`` of its span (infinite sides run off-screen)."""
    span = ranges[:, 1] - ranges[:, 0]
    a, b = ranges[:, 0] - margin * span, ranges[:, 1] + margin * span
    return np.clip(lo, a, b), np.clip(hi, a, b)


def decimals_for(ranges: np.ndarray) -> int:
    """Decimals to keep so that rounding moves a point by at most 1e-4 of the smallest axis span."""
    span = float(np.min(ranges[:, 1] - ranges[:, 0]))
    return int(min(10, max(0, 4 - math.floor(math.log10(span))))) if span > 0 else 4


def rectangles(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed rectangles [lo, hi] (n x 2 each) as one polyline: 5 corners then a NaN gap per box."""
    n = lo.shape[0]
    x = np.column_stack([lo[:, 0], hi[:, 0], hi[:, 0], lo[:, 0], lo[:, 0], np.full(n, np.nan)])
    y = np.column_stack([lo[:, 1], lo[:, 1], hi[:, 1], hi[:, 1], lo[:, 1], np.full(n, np.nan)])
    return x.ravel(), y.ravel()


def cuboid_vertices(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Corners of n cuboids, (8 n) x 3, box b owning rows 8 b .. 8 b + 7."""
    return np.where(_CORNERS[None, :, :], hi[:, None, :], lo[:, None, :]).reshape(-1, 3)


def cuboid_triangles(n: int) -> np.ndarray:
    """Triangle indices (12 n) x 3 into `cuboid_vertices` of n cuboids."""
    return (_TRIANGLES[None, :, :] + 8 * np.arange(n)[:, None, None]).reshape(-1, 3)


def cuboid_edges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The 12 edges of each cuboid as one 3-D polyline with NaN gaps, (20 n) x 3."""
    corners = cuboid_vertices(lo, hi).reshape(-1, 8, 3)
    path = corners[:, np.maximum(_EDGE_PATH, 0), :]
    path[:, _EDGE_PATH < 0, :] = np.nan
    return path.reshape(-1, 3)


def vertical_segments(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vertical intervals [lo_i, hi_i] at abscissae x_i as one polyline with NaN gaps."""
    n = x.shape[0]
    xs = np.column_stack([x, x, np.full(n, np.nan)]).ravel()
    ys = np.column_stack([lo, hi, np.full(n, np.nan)]).ravel()
    return xs, ys


def staircase(means: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Pareto staircase of 2-D maximised means (n x 2) in display orientation, m x 2 (empty if n = 0)."""
    if means.shape[0] == 0:
        return np.empty((0, 2))
    x, y = pareto.pareto_staircase_2d(means)
    return np.column_stack([x, y]) * signs


def hull_chain(means: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Effective front (upper-right convex chain, 002 §2.4) of 2-D maximised means, display orientation."""
    if means.shape[0] == 0:
        return np.empty((0, 2))
    return means[pareto.upper_hull_2d(means)] * signs


def hull_facets(means: np.ndarray) -> np.ndarray:
    """Efficient facets (F x 3 row indices of ``means``) of the 3-D convex hull (002 §8)."""
    if means.shape[0] < 4:
        return np.empty((0, 3), dtype=np.int64)
    return pareto.efficient_facets_3d(means)
