"""Means arrays of the Pareto geometry: validation (`as_means`) and the rounding margins of comparisons.

Every objective is **maximised**; ``means`` is a float array of shape (K, L) (K arms, L objectives).
"""

from __future__ import annotations

import numpy as np

_EPS = np.finfo(float).eps


BLOCK = 1024  # row block for the O(K^2) kernels (bounds memory at K x 1024)


def as_means(means, *, allow_inf: bool = False) -> np.ndarray:
    """Return ``means`` as a float64 (K, L) array; ValueError("means: ...") if it is not one.

    Rejects non-2-D input, K = 0 or L = 0, NaN and (unless ``allow_inf``) infinite values.
    """
    try:
        arr = np.asarray(means, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"means: cannot be read as a float array ({exc})") from None
    if arr.ndim != 2:
        raise ValueError(f"means: expected a 2-D array of shape (K, L), got {arr.ndim}-D shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"means: expected at least one arm and one objective, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError("means: contains NaN")
    if not allow_inf and np.isinf(arr).any():
        raise ValueError("means: contains an infinite value")
    return np.ascontiguousarray(arr)


def check_tol(tol: float) -> float:
    tol = float(tol)
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol: must be a finite number >= 0, got {tol}")
    return tol


def scale(mu: np.ndarray) -> float:
    return max(1.0, float(np.abs(mu).max()))


def round_err(mu: np.ndarray) -> float:
    """Bound on the rounding error of ``w.mu_b - w.mu_a`` for weights summing to 1."""
    return margin(mu.shape[1], scale(mu))


def margin(L: int, scale: float) -> float:
    """The rounding margin (`round_err`) of L objectives whose largest magnitude is ``scale`` (at least 1)."""
    return 8.0 * L * _EPS * scale
