"""The literal estimator (6)-(10) of PFIwR (PFIwR Sec. 4.1), for the estimator inspector and tests.

It builds every object of the paper explicitly: pseudo-actions h_s(m) and N_s (7), artificial context
noise U on the unselected arms of the first |E_t| rounds (6), the IPW ridge estimate (8) solved as a
weighted least-squares problem, the doubly-robust pseudo-rewards (9) and the all-arm Gram matrix V_t of
the A.3 closed form of (10) (with the sum over k and + lambda_t I, our decision).  PFIwR Sec. 4.1 proves that the
result equals ridge regression on the selected arms with regulariser p lambda_t; `literal_estimate`
returns the pieces so that a test (or the app) can check it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class LiteralEstimate:
    """Output of `literal_estimate` (theta is d x L)."""

    theta: np.ndarray
    theta_ipw: np.ndarray
    kept: np.ndarray  # rounds s with N_s <= rho_t
    N: np.ndarray  # first pseudo-action index equal to a_s (rho_t + 1 when none)
    V: np.ndarray  # all-arm Gram matrix of (10), lambda_t I included
    X_tilde: np.ndarray  # t x K x d noise-augmented contexts


def unit_ball(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """n points uniform in the unit ball of R^d: g / ||g|| * u^(1/d)."""
    g = rng.normal(size=(n, d))
    return g / np.linalg.norm(g, axis=1, keepdims=True) * rng.random((n, 1)) ** (1 / d)


def literal_estimate(contexts: np.ndarray, actions: np.ndarray, rewards: np.ndarray, *, p: float, lam: float,
                     rho: int, n_explore: int, rng: np.random.Generator) -> LiteralEstimate:
    """Estimator (10) at round t = len(actions) from contexts (t x K x d), actions (t) and rewards (t x L)."""
    t, K, d = contexts.shape
    phi = np.full((t, K), (1 - p) / (K - 1))
    phi[np.arange(t), actions] = p
    h = np.stack([rng.choice(K, size=rho, p=phi[s]) for s in range(t)])  # h_s(m), m = 1..rho
    hit = h == actions[:, None]
    N = np.where(hit.any(axis=1), hit.argmax(axis=1) + 1, rho + 1)
    kept = N <= rho
    Xt = contexts.copy()
    for s in range(min(t, n_explore)):
        others = np.arange(K) != actions[s]
        Xt[s, others] += unit_ball(rng, K - 1, d)
    sel = Xt[np.arange(t), actions][kept]  # selected contexts (never perturbed)
    Y = rewards[kept]
    # (8): argmin sum (Y - x^T theta)^2 / phi_{a_s} + lam ||theta||^2, as a stacked least-squares problem
    A = np.vstack([sel / np.sqrt(p), np.sqrt(lam) * np.eye(d)])
    b = np.vstack([Y / np.sqrt(p), np.zeros((d, Y.shape[1]))])
    theta_ipw = np.linalg.lstsq(A, b, rcond=None)[0]
    # (9) at m = N_s: h_s(N_s) = a_s, so only the selected arm carries its reward
    Xk = Xt[kept]  # n x K x d
    pseudo = Xk @ theta_ipw  # n x K x L
    ak = actions[kept]
    rows = np.arange(len(ak))
    pseudo[rows, ak] = Y / p + (1 - 1 / p) * pseudo[rows, ak]
    V = np.einsum("nki,nkj->ij", Xk, Xk) + lam * np.eye(d)
    theta = np.linalg.solve(V, np.einsum("nki,nkl->il", Xk, pseudo))
    return LiteralEstimate(theta, theta_ipw, kept, N, V, Xt)
