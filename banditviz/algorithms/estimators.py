"""Incremental estimators shared by the algorithms: O(L) or O(d^2 L) work per round, never a refit.

* `RunningMeans`: per-arm counts, sums and sums of squares (empirical means and variances).
* `SharedRidge`: ridge regression with ONE Gram matrix shared by all L objectives (all objectives
  are observed for the same context, MOL-TS Sec. 4), kept as its inverse by
  Sherman-Morrison rank-one updates.
"""

from __future__ import annotations

import numba
import numpy as np

from .._contexts import arm_dots, linear_predictions


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
    costs O(d^2 + d L) whatever the history length. With ``features`` (the K x d arm features, when they
    never change: a linear instance without context noise, or the one-hot arms of a "means" instance), the
    predictions X theta_hat and the squared widths x_k' V^{-1} x_k of every arm are kept too, by the same
    rank-one step (O(K (d + L)) instead of recomputing O(K d^2)); ``predict()`` and ``widths()`` without an
    argument read them. The arithmetic is the compiled kernel `ridge_update` (explicit loops, fixed order: no
    BLAS, the same numbers on every machine and in the compiled round loops of `banditviz.algorithms._linear_loop`).
    """

    def __init__(self, d: int, L: int, lam: float = 1.0, features: np.ndarray | None = None) -> None:
        if lam <= 0:
            raise ValueError(f"lam: ridge regulariser must be > 0, got {lam}")
        self.lam = lam
        self.V_inv = np.eye(d) / lam
        self.Z = np.zeros((d, L))
        self.theta = np.zeros((d, L))
        self.n = 0
        self.features = np.zeros((0, d)) if features is None else np.ascontiguousarray(features, dtype=float)
        self.pred = np.zeros((len(self.features), L))
        self.sq_widths = np.empty(len(self.features))
        quadratic_forms(self.features, self.V_inv, self.sq_widths)
        self.work = np.empty((2, max(d, L)))  # V^{-1} x and the residuals

    def update(self, x: np.ndarray, reward: np.ndarray) -> float:
        """Add the observation (x, reward); returns x' V^{-1} x before the update (the leverage)."""
        self.n += 1
        return ridge_update(self.V_inv, self.theta, self.Z, np.ascontiguousarray(x, dtype=float),
                            np.ascontiguousarray(reward, dtype=float), self.features, self.pred, self.sq_widths,
                            self.work)

    def widths(self, X: np.ndarray | None = None) -> np.ndarray:
        """||x||_{V^{-1}} for each row of X (K x d); the fixed features' kept values when X is None."""
        if X is None:
            q = self.sq_widths
        else:
            q = np.empty(len(X))
            quadratic_forms(np.ascontiguousarray(X, dtype=float), self.V_inv, q)
        return np.sqrt(np.maximum(q, 0.0))

    def predict(self, X: np.ndarray | None = None) -> np.ndarray:
        """X theta_hat (K x L); the fixed features' kept values when X is None."""
        if X is None:
            return self.pred.copy()
        out = np.empty((len(X), self.theta.shape[1]))
        linear_predictions(np.ascontiguousarray(X, dtype=float), self.theta, out)
        return out


@numba.njit(cache=True, error_model="numpy")  # no zero-division check per division: 1 + x' V^{-1} x >= 1
def ridge_update(V_inv, theta, Z, x, r, X, pred, q, work):
    """One Sherman-Morrison step of `SharedRidge` in place; returns x' V^{-1} x before it.

    V^{-1} -= (V^{-1} x)(V^{-1} x)' / (1 + x' V^{-1} x); theta += V^{-1} x (r - theta' x)' / (1 + x' V^{-1} x),
    which is V_new^{-1} Z_new without a product over Z; for each fixed feature row x_k, with g_k = x_k' V^{-1} x:
    pred_k += g_k (r - theta' x) / (1 + x' V^{-1} x) and q_k -= g_k^2 / (1 + x' V^{-1} x).
    """
    d, L = theta.shape
    Vx = work[0]
    for i in range(d):
        s = 0.0
        for j in range(d):
            s += V_inv[i, j] * x[j]
        Vx[i] = s
    lev = 0.0
    for i in range(d):
        lev += x[i] * Vx[i]
    denom = 1.0 + lev
    resid = work[1]
    for l_ in range(L):
        s = 0.0
        for i in range(d):
            s += x[i] * theta[i, l_]
        resid[l_] = r[l_] - s
    for i in range(d):
        for j in range(d):
            V_inv[i, j] -= Vx[i] * Vx[j] / denom
        for l_ in range(L):
            Z[i, l_] += x[i] * r[l_]
            theta[i, l_] += Vx[i] * resid[l_] / denom
    for k in range(X.shape[0]):
        g = 0.0
        for i in range(d):
            g += X[k, i] * Vx[i]
        q[k] -= g * g / denom
        for l_ in range(L):
            pred[k, l_] += g * resid[l_] / denom
    return lev


@numba.njit(cache=True, error_model="numpy")
def quadratic_forms(X, V_inv, out):
    """out_k = x_k' V^{-1} x_k for each row x_k of X: sum_i x_ki (sum_j V_ij x_kj), both sums in order from 0.0, the
    inner one by `arm_dots` (the arms side by side), the outer one likewise."""
    XT = np.ascontiguousarray(X.T)
    u = np.empty(X.shape[0])
    out[:] = 0.0
    for i in range(X.shape[1]):
        arm_dots(XT, V_inv[i], u)
        x = XT[i]
        for k in range(len(u)):
            out[k] += x[k] * u[k]
