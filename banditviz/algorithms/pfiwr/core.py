"""Formulas of PFIwR (Kim, Iyengar & Zeevi), pure functions shared by its learners and their compiled loop.

* `lambda_t` (Theorem 4.2), `rho_t`, `drop_count`, `pick_dropped`, `dropped_rounds` (the estimator's dropped rounds,
  Sec. 4.1), `explore_size`, `t0_theory` (Alg. 1), `beta_t` (eq. 12) and `pfimulti_beta` (Sec. 5.3, Auer et al.'s
  width);
* `pfi_gaps` (Sec. 3) and `pfi_success` (condition (3)): the truth's side, for scoring answers;
* `classify`: step 2 of Algorithm 1.
"""

from __future__ import annotations

import math

import numpy as np

from ...pareto import pareto_mask
from ..identification import dominance_matrix


def lambda_t(t: int, d: int, L: int, delta: float) -> float:
    """lambda_t = 4 log(6 d L t^2 / delta) (PFIwR Theorem 4.2)."""
    return 4 * math.log(6 * d * L * t * t / delta)


def explore_size(t: int, d: int, L: int, delta: float, p: float) -> int:
    """|E_t| = ceil(32 (d + 2) / (1 - p) log(6 d L t^2 / delta)) (Theorem 4.2)."""
    return math.ceil(32 * (d + 2) / (1 - p) * math.log(6 * d * L * t * t / delta))


def rho_t(t: int, delta: float, p: float, rule: str = "corrected") -> int:
    """Pseudo-action budget: ceil(log(6 t^3 / delta) / log(1/q)), q = 1 - p (corrected, our decision) or p (paper)."""
    q = 1 - p if rule == "corrected" else p
    return math.ceil(math.log(6 * t**3 / delta) / math.log(1 / q))


def drop_count(t: int, p: float, delta: float, rule: str, rng: np.random.Generator) -> int:
    """How many of the rounds 1..t estimator (10) leaves out at round t: round s is kept when one of its rho_t
    pseudo-actions (7) hits a_s, so each is dropped independently w.p. (1-p)^rho_t, redrawn every round (PFIwR
    Sec. 4.1). The first draw of the estimator's generator in a round."""
    q = (1 - p) ** rho_t(t, delta, p, rule)
    return int(rng.binomial(t, q)) if q > 0 else 0


def pick_dropped(t: int, n_drop: int, rng: np.random.Generator) -> np.ndarray:
    """0-based indices of ``n_drop`` of the rounds 1..t, uniformly without replacement."""
    if n_drop == 0:
        return np.zeros(0, dtype=np.int64)
    return rng.choice(t, n_drop, replace=False)


def dropped_rounds(t: int, p: float, delta: float, rule: str, rng: np.random.Generator) -> np.ndarray:
    """0-based indices of the rounds 1..t that estimator (10) leaves out at round t (`drop_count` of them)."""
    return pick_dropped(t, drop_count(t, p, delta, rule, rng), rng)


def t0_theory(d: int, L: int, delta: float, p: float) -> float:
    """Forced-exploration length of Algorithm 1: 128(d+2)/(1-p) {1 + ln(64(d+2)/(e(1-p)) sqrt(6 d L / delta))}."""
    c = (d + 2) / (1 - p)
    return 128 * c * (1 + math.log(64 * c / math.e * math.sqrt(6 * d * L / delta)))


def beta_t(t: int, delta: float, d: int, L: int, K: int, p: float, S: float) -> float:
    """Confidence width (12) with lambda_t of Theorem 4.2."""
    lam = lambda_t(t, d, L, delta)
    first = 8 * S * math.sqrt(math.log(6 * d * L * t * t / delta))
    second = 4 / p * math.sqrt(d * math.log((6 * L + 24 * L * t / lam) / delta))
    third = (5 * math.sqrt(8) * S + 4 / p * math.sqrt(2 * d) + 4) * math.sqrt(math.log(6 * K * L * t * t / delta))
    return (first + second + third) / math.sqrt(t)


def pfimulti_beta(n: int, K: int, L: int, delta: float) -> float:
    """Auer et al.'s width sqrt(2 ln(4 K L n^2 / delta) / n) (PFIwR Sec. 5.3, [EXTERNAL])."""
    return math.sqrt(2 * math.log(4 * K * L * n * n / delta) / n)


def pfi_gaps(means: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(Delta*, Delta+, Delta) of PFIwR Sec. 3: distance to the front (2), the Pareto arms' margin
    Delta+_k = min_{k' in P*, k' != k} min(M(k,k'), M(k',k)) (+inf alone, our decision; NaN off the front) and the
    problem complexity (5) Delta = min(min_{k not in P*} Delta*_k, min_{k in P*} Delta+_k)."""
    mu = np.asarray(means, dtype=float)
    Mm = dominance_matrix(mu)
    front = pareto_mask(mu)
    star = np.where(front, 0.0, np.maximum(0.0, -Mm[:, front]).max(axis=1))
    sym = np.maximum(0.0, np.minimum(Mm, Mm.T))[np.ix_(front, front)]
    np.fill_diagonal(sym, np.inf)
    plus = np.full(len(mu), np.nan)
    plus[front] = sym.min(axis=1)
    return star, plus, float(min(star[~front].min(initial=np.inf), plus[front].min()))


def pfi_success(means: np.ndarray, recommended: tuple[int, ...] | None, eps: float) -> bool:
    """Success condition (3): P* is contained in the answer and every extra arm has Delta*_k <= eps."""
    if recommended is None:
        return False
    star, _, _ = pfi_gaps(means)
    truth = set(np.flatnonzero(pareto_mask(means)).tolist())
    return truth <= set(recommended) and all(star[k] <= eps for k in set(recommended) - truth)


def classify(yhat: np.ndarray, w: float, eps: float, Mm: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 2 of Algorithm 1 on the estimates of the undetermined arms (rows of ``yhat``).

    Returns boolean masks over the rows: C (kept), P1, P2 (P1 and P2 are subsets of C).
    m_hat(k,k') = max(0, -M(k,k')) and M_hat_eps(k,k') = max(0, eps + M(k,k')) with M(k,k') = max_l (y_k - y_k');
    ``Mm`` may pass M(k,k') when already computed.
    """
    if Mm is None:
        Mm = dominance_matrix(yhat)
    C = (np.maximum(0.0, -Mm) <= w).all(axis=1)
    Me = np.maximum(0.0, eps + (Mm if C.all() else Mm[C][:, C]))
    np.fill_diagonal(Me, np.inf)
    ok = Me >= w
    p1 = ok.all(axis=1)
    p2 = p1 & ok[~p1].all(axis=0)
    P1, P2 = np.zeros_like(C), np.zeros_like(C)
    P1[C], P2[C] = p1, p2
    return C, P1, P2
