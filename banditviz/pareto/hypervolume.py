"""Hypervolume dominated by a set of points (L = 2 or 3, maximised)."""

from __future__ import annotations

import moocore
import numpy as np


def _hv2d(x: np.ndarray, y: np.ndarray, rx: float, ry: float) -> float:
    """Area dominated by points (x, y) (all > reference) above (rx, ry)."""
    order = np.lexsort((-y, -x))
    xs = x[order]
    cm = np.maximum.accumulate(y[order])
    steps = np.diff(np.concatenate([[ry], cm]))
    return float(((xs - rx) * steps).sum())


def hypervolume(points, ref) -> float:
    """Exact hypervolume dominated by ``points`` (n, L) relative to ``ref`` (L,), L in {2, 3}, maximised.

    Points not strictly better than ``ref`` in every objective contribute nothing.  2-D: sweep over
    objective 1 (as fast as moocore there); 3-D: moocore's dimension-sweep algorithm (Fonseca, Paquete &
    Lopez-Ibanez, "An improved dimension-sweep algorithm for the hypervolume indicator", CEC 2006), 5-600x
    faster than slabs of 2-D sweeps at K = 8-1000 (benchmarks/pareto.py).
    """
    try:
        P = np.asarray(points, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"points: cannot be read as a float array ({exc})") from None
    try:
        r = np.asarray(ref, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"ref: cannot be read as a float array ({exc})") from None
    if P.ndim != 2:
        raise ValueError(f"points: expected a 2-D array (n, L), got shape {P.shape}")
    L = P.shape[1]
    if L not in (2, 3):
        raise ValueError(f"points: hypervolume is implemented for L = 2 or 3 objectives, got L = {L}")
    if r.shape != (L,):
        raise ValueError(f"ref: expected shape ({L},) to match points, got {r.shape}")
    if not np.isfinite(P).all():
        raise ValueError("points: contains NaN or an infinite value")
    if not np.isfinite(r).all():
        raise ValueError("ref: contains NaN or an infinite value")
    P = P[(P > r[None, :]).all(axis=1)]
    if P.shape[0] == 0:
        return 0.0
    if L == 2:
        return _hv2d(P[:, 0], P[:, 1], r[0], r[1])
    return float(moocore.hypervolume(P, ref=r, maximise=True))
