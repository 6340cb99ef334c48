"""Incremental estimators shared by the algorithms: O(L) or O(d^2 L) work per round, never a refit.

* `RunningMeans`: per-arm counts, sums and sums of squares (empirical means and variances).
* `SharedRidge`: ridge regression with ONE Gram matrix shared by all L objectives (all objectives
  are observed for the same context, MOL-TS Sec. 4), kept as its inverse by
  Sherman-Morrison rank-one updates.
"""

from __future__ import annotations

import numpy as np


class RunningMeans:
    """Per-arm sufficient statistics (T_i, sum X, sum X^2) for vector or scalar rewards."""

    def __init__(self, K: int, L: int) -> None:
        self.counts = np.zeros(K, dtype=np.int64)
        self.sums = np.zeros((K, L))
        self.sumsq = np.zeros((K, L))
        self.means = np.full((K, L), np.nan)  # empirical means, NaN for arms never pulled

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.counts[arm] += 1
        self.sums[arm] += reward
        self.sumsq[arm] += reward * reward
        self.means[arm] = self.sums[arm] / self.counts[arm]

    @property
    def variances(self) -> np.ndarray:
        """Plug-in variances (divided by T_i, not T_i - 1); NaN for arms never pulled."""
        m = self.means
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.maximum(self.sumsq / self.counts[:, None] - m * m, 0.0)


class SharedRidge:
    """Ridge estimate theta_hat = V^{-1} Z with V = lam I + sum x x^T and Z = sum x r^T (d x L).

    ``V_inv`` is maintained by Sherman-Morrison; ``theta`` (d x L) is updated in place, so a round
    costs O(d^2 + d L) whatever the history length.
    """

    def __init__(self, d: int, L: int, lam: float = 1.0) -> None:
        if lam <= 0:
            raise ValueError(f"lam: ridge regulariser must be > 0, got {lam}")
        self.lam = lam
        self.V_inv = np.eye(d) / lam
        self.Z = np.zeros((d, L))
        self.theta = np.zeros((d, L))
        self.n = 0

    def update(self, x: np.ndarray, reward: np.ndarray) -> None:
        Vx = self.V_inv @ x
        denom = 1.0 + x @ Vx
        self.V_inv -= np.outer(Vx, Vx) / denom
        self.Z += np.outer(x, reward)
        # theta_new = V_new^{-1} Z_new, expanded so that no matrix product over Z is needed.
        self.theta += np.outer(Vx, reward - x @ self.theta) / denom
        self.n += 1

    def widths(self, X: np.ndarray) -> np.ndarray:
        """||x||_{V^{-1}} for each row of X (K x d)."""
        return np.sqrt(np.maximum(np.einsum("kd,de,ke->k", X, self.V_inv, X), 0.0))

    def predict(self, X: np.ndarray) -> np.ndarray:
        return X @ self.theta
