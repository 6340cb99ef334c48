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
# Edge path: bottom loop, up, top loop, then the three remaining vertical edges; -1 is a gap.
_EDGE_PATH = np.array([0, 1, 3, 2, 0, 4, 5, 7, 6, 4, -1, 1, 5, -1, 3, 7, -1, 2, 6, -1])
# The 12 edges as corner pairs differing in one bit.
_EDGES = np.array([(a, a | 1 << b) for a in range(8) for b in range(3) if not a >> b & 1])


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


def clip_to_view(lo: np.ndarray, hi: np.ndarray, ranges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Box bounds clipped to the view (infinite sides end on the axes)."""
    return np.clip(lo, ranges[:, 0], ranges[:, 1]), np.clip(hi, ranges[:, 0], ranges[:, 1])


def sides_inside(lo: np.ndarray, hi: np.ndarray, ranges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which sides of each box (n x D, lower and upper) lie inside the view, i.e. are not cut by clipping."""
    return lo >= ranges[:, 0], hi <= ranges[:, 1]


def box_kinds(lo: np.ndarray, hi: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray, ranges: np.ndarray,
              wide: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Masks of boxes wholly in the view, cut by it (drawn by their sides in the view), and too wide to draw.

    A box cut by the view whose clipped extent exceeds ``wide`` of the view's span on some axis is too
    wide: its sides would be lines across the whole plot, and early on, when every box is far larger
    than the view, ten of them criss-cross it; it is not drawn, and the figure says how many.
    (Bounds ``lo``/``hi`` clipped, ``lo_in``/``hi_in`` from `sides_inside` before clipping.)
    """
    whole = (lo_in & hi_in).all(axis=1)
    big = ((hi - lo) > wide * (ranges[:, 1] - ranges[:, 0])).any(axis=1)
    return whole, ~whole & ~big, ~whole & big


def outside(points: np.ndarray, ranges: np.ndarray, inset: float = 0.015) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points (n x D) outside the view: their mask, their positions pulled just inside the view's edge
    (``inset`` of the span), and the axis and side (+1 above, -1 below) of the largest overshoot, as
    n x 2 integers, so that a marker at the edge can point towards where the point really is."""
    span = ranges[:, 1] - ranges[:, 0]
    over = np.maximum((points - ranges[:, 1]) / span, (ranges[:, 0] - points) / span)
    over = np.where(np.isfinite(points), over, -np.inf)
    mask = (over > 0).any(axis=1)
    pulled = np.clip(points, ranges[:, 0] + inset * span, ranges[:, 1] - inset * span)
    axis = np.argmax(over, axis=1)
    side = np.where(points[np.arange(len(points)), axis] > ranges[axis, 1], 1, -1)
    return mask, pulled, np.column_stack([axis, side])


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


def open_rectangles(lo: np.ndarray, hi: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The sides of rectangles that lie inside the view (``sides_inside``), as segments with NaN gaps.

    A box cut by the view's edge keeps only its sides in the view: drawing the cut sides would trace the
    axes themselves, and ten such boxes pile up into a haze over the whole plot.
    """
    n = lo.shape[0]
    gap = np.full(n, np.nan)
    x = np.stack([np.column_stack(c) for c in ([lo[:, 0], hi[:, 0], gap], [lo[:, 0], hi[:, 0], gap],
                                               [lo[:, 0], lo[:, 0], gap], [hi[:, 0], hi[:, 0], gap])], axis=1)
    y = np.stack([np.column_stack(c) for c in ([lo[:, 1], lo[:, 1], gap], [hi[:, 1], hi[:, 1], gap],
                                               [lo[:, 1], hi[:, 1], gap], [lo[:, 1], hi[:, 1], gap])], axis=1)
    keep = np.column_stack([lo_in[:, 1], hi_in[:, 1], lo_in[:, 0], hi_in[:, 0]])
    return x[keep].ravel(), y[keep].ravel()


def cuboid_vertices(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Corners of n cuboids, (8 n) x 3, box b owning rows 8 b .. 8 b + 7."""
    return np.where(_CORNERS[None, :, :], hi[:, None, :], lo[:, None, :]).reshape(-1, 3)


def cuboid_edges(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The 12 edges of each cuboid as one 3-D polyline with NaN gaps, (20 n) x 3."""
    corners = cuboid_vertices(lo, hi).reshape(-1, 8, 3)
    path = corners[:, np.maximum(_EDGE_PATH, 0), :]
    path[:, _EDGE_PATH < 0, :] = np.nan
    return path.reshape(-1, 3)


def open_cuboid_edges(lo: np.ndarray, hi: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray) -> np.ndarray:
    """The edges of cuboids whose two faces both lie inside the view, as 3-D segments with NaN gaps."""
    corners = cuboid_vertices(lo, hi).reshape(-1, 8, 3)
    face_in = np.stack([lo_in, hi_in], axis=2)  # n x 3 axes x 2 sides
    keep = np.ones((lo.shape[0], len(_EDGES)), dtype=bool)
    for e, (a, b) in enumerate(_EDGES):
        for ax in range(3):
            if _CORNERS[a, ax] == _CORNERS[b, ax]:  # the edge lies on the face (ax, that side)
                keep[:, e] &= face_in[:, ax, int(_CORNERS[a, ax])]
    seg = np.concatenate([corners[:, _EDGES[:, 0], None, :], corners[:, _EDGES[:, 1], None, :],
                          np.full((lo.shape[0], len(_EDGES), 1, 3), np.nan)], axis=2)
    return seg[keep].reshape(-1, 3)


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
    """Effective front (upper-right convex chain, MOL-TS Def. 5) of 2-D maximised means, display orientation."""
    if means.shape[0] == 0:
        return np.empty((0, 2))
    return means[pareto.upper_hull_2d(means)] * signs


def hull_facets(means: np.ndarray) -> np.ndarray:
    """Efficient facets (F x 3 row indices of ``means``) of the 3-D convex hull (MOL-TS Sec. 3.4)."""
    if means.shape[0] < 4:
        return np.empty((0, 3), dtype=np.int64)
    return pareto.efficient_facets_3d(means)
