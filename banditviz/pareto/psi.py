"""Gaps and complexities of Pareto set identification (PSI): LinPSI Sec. 2.1; RAMGapE Sec. 2."""

from __future__ import annotations

import numpy as np

from . import kernels
from .dominance import pareto_mask
from .means import as_means


def psi_gaps(means, front: np.ndarray | None = None) -> np.ndarray:
    """Identification gaps Delta_i of Pareto set identification (LinPSI Sec. 2.1, eq. (1); vectorised).

    With M(i,j) = max_c (mu_i - mu_j)(c) and m(i,j) = -M(i,j): a dominated arm gets
    Delta*_i = max_j m(i,j); a Pareto arm gets delta*_i = min_{j != i} [M(i,j) ^ (M(j,i)_+ + (Delta*_j)_+)]
    (with the j-index fix, our decision (LinPSI)).  A single arm gets +inf.  ``front``: the Pareto mask of
    ``means`` when the caller has it already.
    """
    mu = as_means(means)
    return kernels.psi_gaps(mu, pareto_mask(mu) if front is None else front)  # compiled (tested vs numpy)


def psi_complexity(gaps, h: int | None = None) -> dict[str, float]:
    """Complexities of LinPSI Sec. 2.1, eq. (2) from gaps sorted ascending: H1 = sum Delta_(i)^-2,
    H2 = max_i i Delta_(i)^-2, and with ``h``: H1_lin / H2_lin over the h smallest gaps.

    A zero gap gives +inf; an infinite gap contributes 0.
    """
    try:
        g = np.asarray(gaps, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"gaps: cannot be read as a float array ({exc})") from None
    if g.ndim != 1 or g.size == 0:
        raise ValueError(f"gaps: expected a non-empty 1-D array, got shape {g.shape}")
    if np.isnan(g).any() or (g < 0).any():
        raise ValueError("gaps: must be >= 0 and not NaN")
    g = np.sort(g)
    with np.errstate(divide="ignore"):
        inv2 = 1.0 / g**2
    ranks = np.arange(1, g.size + 1)
    out = {"H1": float(inv2.sum()), "H2": float((ranks * inv2).max())}
    if h is not None:
        if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or not 1 <= h <= g.size:
            raise ValueError(f"h: must be an integer in [1, {g.size}], got {h!r}")
        out["H1_lin"] = float(inv2[:h].sum())
        out["H2_lin"] = float((ranks[:h] * inv2[:h]).max())
    return out
