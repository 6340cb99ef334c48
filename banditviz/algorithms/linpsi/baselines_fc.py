"""Fixed-confidence baselines of LinPSI Sec. 5, reconstructed from the authors' code ([EXTERNAL]).

* ``ape`` (B4, Kone et al. 2023): pairwise bonuses beta_ij = sigma sqrt(2 (2 C_g + ln(1 + ln T_i) +
  ln(1 + ln T_j)) (1/T_i + 1/T_j)), C_g = ln(1/delta)/2 + max(ln(ln(1/delta)/2), 0) (the code's empirical
  version, no union-bound term).  After one pull of every arm, each step computes h_i = min_j [M(i,j) -
  beta_ij], g_i = max_j [m(i,j) - beta_ij], stops when Z1 = min_{S(t)} h >= 0 and Z2 = min_{not S(t)}
  max(h, g) >= 0, else pulls b_t = argmax_{h_i <= 0} min_j [M(i,j) + beta_ij] and c_t = argmin_j [M(b_t,j) -
  beta_{b_t j}] (both, as the code; or the less sampled, as the APE paper).  The pairwise matrices are
  updated in the pulled arms' rows and columns only.  APE never discards arms; its status colours are
  display-only: accepted = h_i > 0 (confidently optimal), rejected = g_i > 0 (confidently dominated).
* ``pal_linear`` (B5): the authors' racing simplification of PAL with a linear model: every racing round
  pulls each active arm once, pools all data in a least-squares fit, and uses boxes mu_hat_i +- c_i with
  c_i = sqrt(beta_t x_i^T (V + 1e-6 I)^-1 x_i), beta_t = ln(K L t^2 pi^2 / (6 delta)) / 5.
* ``racing`` (B6, Auer et al. 2016): every round pulls each active arm once; rejects i if some active j has
  max(m(i,j), 0) > beta_ij; accepts the arms that no other can dominate and that are no longer needed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED, Param, Problem, RoundState, register
from ..identification import BATCHES, ID_KINDS, EmpiricalIdentifier, dominance_matrix, features_of, fmt_set
from . import _ape

DELTA = Param("delta", 0.01, "confidence: P(wrong answer) <= delta", low=1e-9, high=0.5)


def c_g(delta: float) -> float:
    """C_g(delta) = ln(1/delta)/2 + max(ln(ln(1/delta)/2), 0) (LinPSI Sec. 5 baselines)."""
    half = math.log(1 / delta) / 2
    return half + max(math.log(half), 0.0) if half > 0 else 0.0


def pair_bonus(sigma: float, cg: float, Ti: np.ndarray, Tj: np.ndarray) -> np.ndarray:
    """beta_ij for counts Ti, Tj (broadcast)."""
    li, lj = np.log1p(np.log(Ti)), np.log1p(np.log(Tj))
    return sigma * np.sqrt(2 * (2 * cg + li + lj) * (1 / Ti + 1 / Tj))


def dominated_in(Mm: np.ndarray) -> np.ndarray:
    """D[i, j]: j Pareto-dominates i, from M: i <= j everywhere (M(i,j) <= 0) and j > i somewhere (M(j,i) > 0)."""
    return (Mm <= 0) & (Mm.T > 0)


def _max_over_objectives(d: np.ndarray) -> np.ndarray:
    """max_c d[:, c] (much faster than d.max(axis=1) for a small number of columns)."""
    out = d[:, 0].copy()
    for c in range(1, d.shape[1]):
        np.maximum(out, d[:, c], out=out)
    return out


class RowMin:
    """Row minima (and their arg) of a square matrix that changes in a few rows and columns at a time.

    After rows and columns ``changed`` are rewritten, a row keeps its old minimum unless its argmin was a
    changed column or the row itself changed (then it is recomputed); other rows only compare the changed
    columns (`_ape.update_row_min`).  Exact: equals ``matrix.min(axis=1)`` after every `update`.
    """

    def __init__(self, matrix: np.ndarray) -> None:
        self.m = matrix
        self.arg = matrix.argmin(axis=1)
        self.val = matrix[np.arange(len(matrix)), self.arg]

    def update(self, changed: np.ndarray) -> None:
        _ape.update_row_min(self.m, self.val, self.arg, changed)


class _PairwiseBonus(EmpiricalIdentifier):
    """Display box of the pairwise-bonus algorithms: beta_ii / sqrt(2) (LinPSI Sec. 3)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.cg = c_g(self.params["delta"])
        super().reset(problem, rng)

    def display_half(self) -> np.ndarray:
        T = np.maximum(self.counts, 1).astype(float)
        return self.sigma * np.sqrt(2 * (2 * self.cg + 2 * np.log1p(np.log(T))) / T)


@register("ape", paper="Kone, Kaufmann & Richert (2023), as run in LinPSI (AISTATS 2025)", task="identify",
          kinds=ID_KINDS, recommends_every_round=True,
          params=(DELTA, Param("pull", "both", "pull both b_t and c_t (authors' code) or the less sampled "
                               "(APE paper)", choices=("both", "least_sampled"))),
          summary="Adaptive Pareto Exploration: pairwise confidence bonuses; pulls the most ambiguous pair.",
          loop=BATCHES)
class APE(_PairwiseBonus):
    """APE (fixed confidence)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.start_batch(np.arange(self.K))

    def _init_pairs(self) -> None:
        T = self.counts.astype(float)
        self.mu = self.sums / T[:, None]
        self.ell, self.inv = np.log1p(np.log(T)), 1 / T
        self.Mm = dominance_matrix(self.mu)
        beta = self.sigma * np.sqrt(2 * (2 * self.cg + self.ell[:, None] + self.ell) * (self.inv[:, None] + self.inv))
        self.H, self.P = self.Mm - beta, self.Mm + beta
        np.fill_diagonal(self.H, np.inf)
        np.fill_diagonal(self.P, np.inf)
        self.D = dominated_in(self.Mm)
        self.n_dom = self.D.sum(axis=1)
        self.hmin, self.pmin = RowMin(self.H), RowMin(self.P)

    def _update_pairs(self, arms: np.ndarray) -> None:
        """Rows and columns of M, H = M - beta, P = M + beta and the dominance matrix for the pulled arms
        (distinct, sorted; all at once: O(|arms| K L)), and the row minima of H and P."""
        n = self.counts[arms]
        self.mu[arms] = self.sums[arms] / n[:, None]
        self.ell[arms], self.inv[arms] = np.log1p(np.log(n)), 1.0 / n
        _ape.update_pairs(arms, self.mu, self.ell, self.inv, self.sigma, 2 * self.cg, self.Mm, self.H, self.P,
                              self.D, self.n_dom)
        self.hmin.update(arms)
        self.pmin.update(arms)

    def end_batch(self) -> None:
        if self.batch == 1:
            self._init_pairs()
        else:
            self._update_pairs(np.unique(self._arms))
        self.recommendation = tuple(np.flatnonzero(self.n_dom == 0).tolist())
        stop, z1, z2, b, c = _ape.decide(self.hmin.val, self.pmin.val, self.n_dom, self.H)
        if stop:
            self.finish(self.recommendation, f"both stopping statistics are at least 0 (Z1 = {z1:.4g}, Z2 = {z2:.4g})")
            return
        self._bc = (b, c)
        if self.params["pull"] == "both":
            self.start_batch(np.array([b, c]))
        else:
            self.start_batch(np.array([b if self.counts[b] <= self.counts[c] else c]))

    def _z(self) -> tuple[float, float]:
        """Stopping statistics Z1 = min_{S(t)} h_i and Z2 = min_{not S(t)} max(h_i, g_i) (+inf when empty)."""
        h, g, S = self.hmin.val, -self.pmin.val, self.n_dom == 0
        z1 = h[S].min() if S.any() else np.inf
        z2 = np.maximum(h, g)[~S].min() if (~S).any() else np.inf
        return float(z1), float(z2)

    def state(self) -> RoundState:
        if hasattr(self, "hmin"):
            h, g, S = self.hmin.val, -self.pmin.val, self.n_dom == 0
            self.status = np.where(h > 0, ACCEPTED, np.where(
                g > 0, REJECTED, np.where(S, CANDIDATE, ACTIVE))).astype(np.int8)
            z1, z2 = self._z()
            self.extras.update(phase="explore", Z1=z1, Z2=z2, h=h.copy(), g=g.copy())
            if self.event_round == self.t and not self.done:
                b, c = self._bc
                self.events = [f"stopping statistics Z1 = {z1:.4g}, Z2 = {z2:.4g} (APE stops when both are at least "
                               f"0); arm {b} is the most ambiguous arm, arm {c} its closest competitor"]
        return super().state()


class _Racing(_PairwiseBonus):
    """Racing rounds: pull every active arm once, then classify (shared by PAL and Racing)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.start_batch(self.active)

    def race(self, Mm: np.ndarray, reject_margin: np.ndarray, accept_margin: np.ndarray) -> None:
        """One classification step on the active arms (positions in ``self.active``).

        ``reject_margin[i, j] > 0``: j confidently dominates i, so i is rejected.  ``accept_margin[i, j] > 0``:
        j confidently cannot dominate i.  P1 = arms with a positive accept margin against every other
        surviving arm; P2 = the arms of P1 that no undecided arm can dominate either (all of P1 when
        every survivor is in P1).  Exact ties (measure zero) count as not confident."""
        A = self.active
        rej = (reject_margin > 0).any(axis=1)
        if rej.any():
            for i in np.flatnonzero(rej):
                j = int(np.argmax(reject_margin[i]))
                self.classify([], [A[i]], {int(A[i]): f"arm {A[j]}'s box dominates its box in every objective"})
            keep = ~rej
            A, accept_margin, Mm = A[keep], accept_margin[np.ix_(keep, keep)], Mm[np.ix_(keep, keep)]
        acc_m = accept_margin.copy()
        np.fill_diagonal(acc_m, np.inf)
        p1 = (acc_m > 0).all(axis=1)
        p2 = p1 if p1.all() else p1 & (acc_m[~p1] > 0).all(axis=0)
        if p2.any():
            self.classify(A[p2], [], {int(a): "no active arm can dominate it, and it is no longer needed to rule "
                                              "out the undecided arms" for a in A[p2]})
            self.accepted.extend(A[p2].tolist())
            A, Mm = A[~p2], Mm[np.ix_(~p2, ~p2)]
        self.active = A
        if len(A) == 0:
            self.finish(self.accepted, "no arm is left undecided")
            return
        front = A[~dominated_in(Mm).any(axis=1)]
        self.recommendation = tuple(sorted(set(self.accepted) | set(front.tolist())))
        self.start_batch(A)

    def pull_sentence(self, arm: int, batch: int, pos: int, size: int) -> str:
        which = "the only undecided arm" if size == 1 else f"{pos} of the {size} undecided arms"
        return f"batch {batch} of the race: arm {arm} pulled ({which}); accepted so far: {fmt_set(self.accepted)}"


@register("racing", paper="Auer, Chiang, Ortner & Drugan (AISTATS 2016), as run in LinPSI", task="identify",
          kinds=ID_KINDS, recommends_every_round=True, params=(DELTA,),
          summary="Auer et al.'s racing: samples every undecided arm; eliminates and accepts with pairwise bonuses.",
          loop=BATCHES)
class Racing(_Racing):
    """Racing (fixed confidence)."""

    def end_batch(self) -> None:
        A = self.active
        T = self.counts[A].astype(float)
        beta = pair_bonus(self.sigma, self.cg, T[:, None], T[None, :])
        mu = self.sample_means()
        Mm = dominance_matrix(mu[A])
        self.extras.update(phase="explore", beta=float(beta.max()))
        self.race(Mm, np.maximum(-Mm, 0) - beta, np.maximum(Mm, 0) - beta)


PAL_SIGMA_MAX = 1 / math.sqrt(10)  # the noise scale up to which the authors' PAL width covers PAL's own width


def _pal_linear_guarantee(instance: Any, params: dict[str, Any]) -> list[str]:
    """PAL (Zuluaga, Sergent, Krause & Pueschel 2013, Thm. 1; epsilon-PAL, Zuluaga, Krause & Pueschel 2016, Thm. 1):
    the boxes mu_hat(x) +- beta_t^(1/2) sigma_t(x), beta_t = 2 ln(L K pi^2 t^2 / (6 delta)), hold for every arm,
    objective and round with probability 1 - delta, sigma_t(x) being the posterior standard deviation. With a linear
    kernel and N(0, sigma^2) noise, sigma_t(x)^2 = sigma^2 x^T (sigma^2 I + V)^-1 x, about sigma^2 x^T V^-1 x.
    LinPSI (Kone, Kaufmann & Richert, App. I.1) runs PAL "with the same confidence bonus used in Zuluaga et al.
    (2016) (which are tuned empirically)": its code's half-width is sqrt(beta_t / 10 x^T V^-1 x), beta_t / 10 =
    ln(K L t^2 pi^2 / (6 delta)) / 5, with no sigma. Its ratio to PAL's width is 1 / (sigma sqrt(10)) whatever t, K,
    L and delta, so the decision: warn when sigma > 1 / sqrt(10) = 0.316 (a sub-Gaussian constant for Bernoulli or
    Beta noise). Measured (README, calibration): at sigma = 1, pfi_sensitivity 4 of 60 runs wrong at delta = 0.01
    (p = 0.003), pfi_mab 4 of 200 (2%, above delta; p = 0.14); at sigma <= 0.25 (psi_synthetic, psi_gap_example,
    pfi_toy, mol_ts_figure1) 0 of 20 each. At sigma = 0.5 (default, default_3d: width 0.63 of PAL's) 0 of 20 were
    wrong: the warning states the theorem's condition, not a measured failure (as GEGE-FC's does)."""
    sigma = instance.sigma
    if sigma <= PAL_SIGMA_MAX:
        return []
    return [f"the box half-width sqrt(beta_t x^T V^-1 x), beta_t = ln(K L t^2 pi^2 / (6 delta)) / 5 (the authors' "
            f"empirical tuning), ignores the noise: at sigma = {sigma:g} it is {1 / (sigma * math.sqrt(10)):.2g} times "
            "the width for which PAL's boxes hold (Zuluaga et al., beta_t = 2 ln(K L t^2 pi^2 / (6 delta)) times "
            f"sigma^2 x^T V^-1 x), so the delta = {params['delta']:g} guarantee does not hold (measured on "
            "pfi_sensitivity, sigma = 1: 4 of 60 runs wrong at delta = 0.01); APE and Racing scale their bonuses "
            "with sigma"]


@register("pal_linear", paper="Zuluaga et al. (2013), linear kernel, as in the code of LinPSI (AISTATS 2025)",
          task="identify", kinds=ID_KINDS, recommends_every_round=True, params=(DELTA,),
          summary="PAL (linear, as in the authors' code): racing with pooled least-squares boxes.",
          loop=BATCHES, guarantee=_pal_linear_guarantee)
class PALLinear(_Racing):
    """PAL with a linear kernel, the authors' racing simplification."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.X = features_of(problem)
        h = self.X.shape[1]
        self.V = np.zeros((h, h))
        self.b = np.zeros((h, problem.L))
        super().reset(problem, rng)

    def refresh_display(self) -> None:
        """Regression boxes mu_hat_i +- c_i of the arms active at the last racing round (others frozen)."""
        if hasattr(self, "box"):
            A, mu, c = self.box
            self.estimates[A] = mu
            self.lower[A], self.upper[A] = mu - c[:, None], mu + c[:, None]

    def absorb(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        super().absorb(arms, rewards)
        XA = self.X[arms]
        self.V += XA.T @ XA
        self.b += XA.T @ rewards

    def confidence_beta(self, t: int) -> float:
        """beta_t = ln(K L t^2 pi^2 / (6 delta)) / 5 at racing round t (the authors' code; the box half-width is
        sqrt(beta_t x^T V^-1 x), whatever the noise scale sigma)."""
        return math.log(self.K * self.L * t**2 * math.pi**2 / (6 * self.params["delta"])) / 5

    def end_batch(self) -> None:
        A = self.active
        try:
            theta = np.linalg.solve(self.V, self.b)
        except np.linalg.LinAlgError:  # features not spanning: minimum-norm least squares, as lstsq
            theta = np.linalg.lstsq(self.V, self.b, rcond=None)[0]
        mu = self.X @ theta
        beta_t = self.confidence_beta(self.batch)
        Vinv = np.linalg.inv(self.V + 1e-6 * np.eye(self.V.shape[0]))
        c = np.sqrt(beta_t * np.maximum(np.einsum("ij,jk,ik->i", self.X[A], Vinv, self.X[A]), 0))
        self.box = (A, mu[A], c)
        self.extras.update(phase="explore", beta_t=beta_t, theta_hat=theta)
        Mm = dominance_matrix(mu[A])
        cc = c[:, None] + c[None, :]
        rej = -Mm - cc
        np.fill_diagonal(rej, -np.inf)
        self.race(Mm, rej, Mm - cc)
