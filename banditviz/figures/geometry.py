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
# A whole cuboid's edges as one path: bottom loop, up, top loop, then the three remaining vertical edges; -1 a gap.
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
    """Fixed axis ranges (D x 2) for a whole animation: every finite estimate of the run (points: N x D) and the
    truth are inside, so that nothing the learner estimates is ever off the picture; padded by ``pad`` of the span on
    each side. (A box is wider than the view early on: it is drawn clipped, its cut sides marked, `cut_marks`.)"""
    cols = []
    for d in range(points.shape[1]):
        v = points[:, d]
        parts = [v[np.isfinite(v)]]
        if truth is not None:
            parts.append(truth[:, d])
        allv = np.concatenate(parts)
        allv = allv if allv.size else np.array([0.0, 1.0])
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


def widths(lo: np.ndarray, hi: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """Each clipped box's largest extent as a share of the view's span on that axis (0 to 1)."""
    return ((hi - lo) / (ranges[:, 1] - ranges[:, 0])).max(axis=1) if lo.size else np.zeros(lo.shape[0])


def cut_marks(points: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray, ranges: np.ndarray, inset: float = 0.012
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where boxes continue past the view: one mark per side the view cuts (``lo_in``/``hi_in``, `sides_inside`), on
    the view's edge (``inset`` of the span inside it) in line with the box's estimate (``points``, n x D, inside the
    view): each arm's marks stand apart even when the view cuts many boxes alike. Returns the marks' positions
    (m x D), their (axis, side) as m x 2 integers (side +1: past the upper edge, -1: the lower one) and the box each
    belongs to."""
    span = ranges[:, 1] - ranges[:, 0]
    pos, where, owner = [], [], []
    for axis in range(points.shape[1]):
        for side, inside, edge in ((-1, lo_in, ranges[axis, 0] + inset * span[axis]),
                                   (1, hi_in, ranges[axis, 1] - inset * span[axis])):
            boxes = np.flatnonzero(~inside[:, axis])
            at = points[boxes].copy()
            at[:, axis] = edge
            pos.append(at)
            where.append(np.tile([axis, side], (boxes.size, 1)))
            owner.append(boxes)
    return (np.concatenate(pos).reshape(-1, points.shape[1]), np.concatenate(where).reshape(-1, 2).astype(np.int64),
            np.concatenate(owner).astype(np.int64))


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


def _chains(present: tuple[bool, ...]) -> list[int]:
    """A rectangle's corners (0..3, counter-clockwise from the lower left) tracing its sides ``present`` (side k
    runs from corner k to corner k + 1) as the fewest polylines, -1 ending each."""
    if all(present):
        return [0, 1, 2, 3, 0, -1]
    start = (present.index(False) + 1) % 4  # begin just after a missing side: every run is whole
    out, run = [], []
    for k in (start + i for i in range(4)):
        if present[k % 4]:
            run = run or [k % 4]
            run.append((k + 1) % 4)
        elif run:
            out += run + [-1]
            run = []
    return out + (run + [-1] if run else [])


_OPEN = {bits: np.array(_chains(tuple(bool(bits >> k & 1) for k in range(4))), dtype=np.int64) for bits in range(16)}


def open_rectangles(lo: np.ndarray, hi: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The sides of rectangles that lie inside the view (``sides_inside``), as polylines with NaN gaps (a side in
    view continues into the next one in a single line: a whole box is one closed loop).

    A box cut by the view's edge keeps only its sides in the view (it is open where it continues): drawing the cut
    sides would trace the axes themselves, and ten such boxes pile up into a haze over the whole plot.
    """
    corners = np.stack([np.column_stack(c) for c in ([lo[:, 0], lo[:, 1]], [hi[:, 0], lo[:, 1]],
                                                     [hi[:, 0], hi[:, 1]], [lo[:, 0], hi[:, 1]])], axis=1)
    sides = np.column_stack([lo_in[:, 1], hi_in[:, 0], hi_in[:, 1], lo_in[:, 0]])  # bottom, right, top, left
    bits = sides.astype(np.int64) @ (1 << np.arange(4))
    parts = [np.empty((0, 2))]
    for b in np.unique(bits):
        idx = _OPEN[int(b)]
        if idx.size:
            pts = corners[bits == b][:, np.maximum(idx, 0), :].copy()
            pts[:, idx < 0, :] = np.nan
            parts.append(pts.reshape(-1, 2))
    xy = np.concatenate(parts)
    return xy[:, 0], xy[:, 1]


def cuboid_vertices(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Corners of n cuboids, (8 n) x 3, box b owning rows 8 b .. 8 b + 7."""
    return np.where(_CORNERS[None, :, :], hi[:, None, :], lo[:, None, :]).reshape(-1, 3)


def open_cuboid_edges(lo: np.ndarray, hi: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """The edges of cuboids whose two faces both lie inside the view, as 3-D polylines with NaN gaps, and the cuboid
    each row belongs to: a cuboid the view cuts is open on its cut faces (each remaining edge its two ends and a gap);
    a whole one is a single path of 20 rows (`_EDGE_PATH`)."""
    corners = cuboid_vertices(lo, hi).reshape(-1, 8, 3)
    face_in = np.stack([lo_in, hi_in], axis=2)  # n x 3 axes x 2 sides
    whole = face_in.all(axis=(1, 2))
    keep = np.ones((lo.shape[0], len(_EDGES)), dtype=bool)
    for e, (a, b) in enumerate(_EDGES):
        for ax in range(3):
            if _CORNERS[a, ax] == _CORNERS[b, ax]:  # the edge lies on the face (ax, that side)
                keep[:, e] &= face_in[:, ax, int(_CORNERS[a, ax])]
    keep &= ~whole[:, None]
    seg = np.concatenate([corners[:, _EDGES[:, 0], None, :], corners[:, _EDGES[:, 1], None, :],
                          np.full((lo.shape[0], len(_EDGES), 1, 3), np.nan)], axis=2)
    path = corners[whole][:, np.maximum(_EDGE_PATH, 0), :]
    path[:, _EDGE_PATH < 0, :] = np.nan
    owner = np.broadcast_to(np.arange(lo.shape[0])[:, None], keep.shape)[keep]
    return (np.concatenate([path.reshape(-1, 3), seg[keep].reshape(-1, 3)]),
            np.concatenate([np.repeat(np.flatnonzero(whole), len(_EDGE_PATH)), np.repeat(owner, 3)]))


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
