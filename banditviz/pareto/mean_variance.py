"""The (mean, mean-variance risk) plane of risk-averse Pareto set identification (RAMGapE): its ground truth.

Arms have scalar rewards on [0, 1]; the objectives are the mean mu (maximise) and the scaled
mean-variance risk xi = (sigma^2 - rho mu) / (3 + rho) (minimise), RAMGapE Sec. 2. An `Instance` of kind
"distributions" stores them maximised as columns (mu, -xi); the functions here take (mu, xi).

* Strict dominance ``j > i  <=>  mu_j > mu_i and xi_j < xi_i`` (l.61) and the Pareto set D+.
* The gaps Delta_i of Eq. 1 (RAMGapE Sec. 2). They equal `banditviz.pareto.psi_gaps` of the points (mu, -xi)
  whenever no two arms tie on a coordinate (weak and strict dominance then agree; tested); with ties
  only the strict version here is the paper's, so it is computed directly.
* Simple regret r_S = max_{i in S delta D+} Delta_i (RAMGapE Eq. 2-3), the per-round metric of the
  "risk-averse" task (`banditviz.metrics` registers it: the model does not import the engine), and the two
  epsilon-Pareto checks of RAMGapE Sec. 2 (tolerance: our decision).
* The HVI reference point. (The learners' widths and constants are in `banditviz.algorithms.ramgape.core`.)
"""

from __future__ import annotations

import numpy as np

from ..instances import Instance
from .hypervolume import hypervolume

DEFAULT_RHO = 0.01


def alpha(rho: float) -> float:
    """Risk scale alpha = 1 / (3 + rho) used in all experiments (l.194)."""
    return 1.0 / (3.0 + rho)


def objectives(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    """True (mu, xi) of a "distributions" instance (xi un-negated)."""
    if instance.kind != "distributions":
        raise ValueError(f"instance: the risk-averse task needs kind 'distributions', got {instance.kind!r}")
    m = instance.means
    return np.array(m[:, 0]), -np.array(m[:, 1])


def xi_from_moments(mean: np.ndarray, second: np.ndarray, rho: float) -> np.ndarray:
    """xi_hat = alpha (mu2_hat - mu_hat^2 - rho mu_hat) with the plug-in variance clipped at 0 (RAMGapE Sec. 2)."""
    var = np.maximum(second - mean * mean, 0.0)
    return alpha(rho) * (var - rho * mean)


def strict_dominance(mu: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """Boolean (K, K): ``D[j, i]`` iff j strictly dominates i (mu_j > mu_i and xi_j < xi_i), l.61."""
    mu, xi = np.asarray(mu, float), np.asarray(xi, float)
    return (mu[:, None] > mu[None, :]) & (xi[:, None] < xi[None, :])


def pareto_mask(mu: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """D+ as a boolean K-vector: arms no other arm strictly dominates."""
    return ~strict_dominance(mu, xi).any(axis=0)


def gaps(mu: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """Delta_i of Eq. 1 (Kone et al. 2024 form): dominated arms first, then Pareto arms; empty min = +inf."""
    mu, xi = np.asarray(mu, float), np.asarray(xi, float)
    dom = strict_dominance(mu, xi)
    P = ~dom.any(axis=0)
    M = np.maximum(mu[:, None] - mu[None, :], xi[None, :] - xi[:, None])  # M[i, j] = M(i, j); m(i, j) = -M[i, j]
    out = np.full(len(mu), np.inf)
    for i in np.flatnonzero(~P):
        out[i] = (-M[i])[P & dom[:, i]].max()
    sub = np.flatnonzero(~P)
    for i in np.flatnonzero(P):
        others = P.copy()
        others[i] = False
        first = np.minimum(M[i, others], M[others, i]).min(initial=np.inf)
        second = (np.maximum(M[sub, i], 0.0) + out[sub]).min(initial=np.inf)
        out[i] = min(first, second)
    return out


def truth(instance: Instance) -> tuple[np.ndarray, np.ndarray]:
    """(D+ mask, Delta) of an instance, cached on it."""
    def compute() -> tuple[np.ndarray, np.ndarray]:
        mu, xi = objectives(instance)
        return pareto_mask(mu, xi), gaps(mu, xi)
    return instance._cached("risk_truth", compute)


def pareto_set(instance: Instance) -> tuple[int, ...]:
    """The true Pareto set D+ (0-based arm indices) with the paper's strict dominance."""
    return tuple(int(i) for i in np.flatnonzero(truth(instance)[0]))


def regret_of_mask(S: np.ndarray, P: np.ndarray, delta: np.ndarray) -> float:
    """r_S = max_{i in S symmetric-difference D+} Delta_i, 0 if S = D+ (Eq. 2-3)."""
    wrong = np.asarray(S, bool) != P
    return float(delta[wrong].max()) if wrong.any() else 0.0


def simple_regret(instance: Instance, recommendation: tuple[int, ...] | None) -> dict[str, float]:
    """Per-round metric of the "risk-averse" task: ``{"simple_regret": r_S}`` (no recommendation = empty set)."""
    P, delta = truth(instance)
    S = np.zeros(instance.K, dtype=bool)
    if recommendation:
        S[list(recommendation)] = True
    return {"simple_regret": regret_of_mask(S, P, delta)}



def is_eps_pareto(S: tuple[int, ...] | list[int], mu: np.ndarray, xi: np.ndarray, eps: float,
                  strict: bool = True) -> bool:
    """Whether S is an epsilon-Pareto set (RAMGapE Sec. 2; tolerance: our decision).

    ``strict=True``: l.71-72 (no member is eps-dominated; every non-member is eps-dominated, i.e.
    mu_i <= mu_j - eps and xi_i >= xi_j + eps). ``strict=False``: the relaxed second condition of the
    proof of Theorem B.11 (mu_i <= mu_j + eps and xi_i >= xi_j - eps). Decision: j ranges over j != i in
    both conditions (with j = i and eps = 0 the literal text would reject every set).
    """
    mu, xi = np.asarray(mu, float), np.asarray(xi, float)
    K = len(mu)
    inside = np.zeros(K, dtype=bool)
    inside[list(S)] = True
    other = ~np.eye(K, dtype=bool)
    eps_dom = (mu[:, None] <= mu[None, :] - eps) & (xi[:, None] >= xi[None, :] + eps) & other  # [i, j]
    if eps_dom[inside].any():
        return False
    s = eps if strict else -eps
    covered = (mu[:, None] <= mu[None, :] - s) & (xi[:, None] >= xi[None, :] + s) & other
    return bool(covered[~inside].any(axis=1).all())


def precision_recall_f1(S: tuple[int, ...], truth_set: tuple[int, ...]) -> tuple[float, float, float]:
    """Extras (not in the paper): precision, recall and F1 of S against D+."""
    hit = len(set(S) & set(truth_set))
    p = hit / len(S) if S else 0.0
    r = hit / len(truth_set) if truth_set else 0.0
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def front_hypervolume(mu: np.ndarray, xi: np.ndarray, S: tuple[int, ...], rho: float) -> float:
    """Extra (not in the paper): area dominated by the arms S in the (mu, xi) plane, relative to
    the HVI reference point (0, 0.25 / (3 + rho)) (`banditviz.pareto.hypervolume` on (mu, -xi))."""
    r_mu, r_xi = hvi_reference(rho)
    idx = list(S)
    points = np.column_stack([np.asarray(mu, float)[idx], -np.asarray(xi, float)[idx]]).reshape(len(idx), 2)
    return hypervolume(points, (r_mu, -r_xi))


def hvi_reference(rho: float) -> tuple[float, float]:
    """HVI-Pareto reference point (R_mu, R_xi) = (0, 0.25 / (3 + rho)), l.778."""
    return 0.0, 0.25 * alpha(rho)
