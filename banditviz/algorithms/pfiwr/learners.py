"""PFIwR (Kim, Iyengar & Zeevi, Algorithm 1) and the PFIMulti baseline of Auer et al. (2016), as run in PFIwR Sec. 5.3.

PFIwR (PFIwR Alg. 1): forced exploration (uniform over the undetermined arms A) for t <= T0, then pulls from the
empirical Pareto set of A U P (exploitation, our decision: uniform over that front by default, estimates of
round t-1).  Every round it updates the estimator and applies the classification rules of Auer et al.
with the scalar width w = 2 c_beta sigma beta_t (eq. 12), shared by every arm and objective:

    C  = {k in A  : m_hat(k, k') <= w for all k' in A}
    P1 = {k in C  : M_hat_eps(k, k') >= w for all k' in C \\ {k}}        (our decision)
    P2 = {k in P1 : M_hat_eps(k', k) >= w for all k' in C \\ P1}
    P <- P U P2,  A <- C \\ P2;  stop when A is empty and answer P.

Estimator: the doubly-robust estimator (10) equals ridge regression on the selected arms with
regulariser p lambda_t, lambda_t = 4 log(6 d L t^2 / delta) (PFIwR Sec. 4.1, proved there and checked against the
literal path of `literal` in the tests).  Rounds are dropped with probability (1-p)^rho_t, redrawn
every round (PFIwR Sec. 4.1); rho_t follows the corrected rule by default (our decision).  y_hat_k = x_bar_k^T
theta_hat with x_bar_k the running mean of arm k's raw contexts over rounds 1..t (PFIwR Sec. 4.1): on a linear
instance with ``context_noise`` (contexts x_k + r U_{k,t}, PFIwR Sec. 2) the estimator uses the pulled arm's
context of that round and x_bar_k the running mean; with fixed contexts x_bar_k = x_k; fixed-mean instances
use one-hot contexts (d = K, PFIwR Sec. 5).

Width presets (our decision): ``practical`` (c_beta = 0.005, T0 = 10 d) and ``theory`` (c_beta = 1, T0 of
Algorithm 1); the ``c_beta`` and ``T0`` parameters override them when > 0.  beta is multiplied by the
instance's noise scale sigma (our decision); S (a bound on max_l ||theta_l||_2, our decision) is a parameter.

Defaults and guarantee (measured, README "Calibration"): the default stays the paper's practical width, the one
its experiments use, but the delta guarantee of Theorem 4.2 needs c_beta = 1 and S >= max_l ||theta_l||_2, so
every run with c_beta < 1 or a small S carries a "no guarantee here" warning (`banditviz.guarantees`). With
c_beta = 0.005 the width is far below the ridge estimate's shrinkage bias (p lambda_t / (n_k + p lambda_t) of
the mean on one-hot contexts): on the "default" preset every seed stops within 140-300 rounds with a
wrong front, and on ``psi_synthetic`` (sigma = 0.25) the classification fires right after T0 = 10 d = 80.
Every arm shares the one scalar width of eq. (12), so an arm pulled 6 times and one pulled 40 times show the
same half-width: that is the paper's rule (a bound uniform over contexts), not a bug. With the theory width the
runs are correct but do not stop within the app's horizons (beta_t >= 11 at t = 2000 on ``pfi_sensitivity``).

PFIMulti (PFIwR Sec. 5.3, [EXTERNAL] reconstruction): pulls every arm of A once per round n (index order), uses
the sample means and beta(n) = c_beta sigma sqrt(2 ln(4 K L n^2 / delta) / n) with the same three rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import words
from ...pareto import pareto_mask
from ..base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED, Algorithm, Param, Problem, RoundState, register
from ..identification import BATCHES, ID_KINDS, EmpiricalIdentifier, dominance_matrix, features_of, fmt_set
from ._loop import PfiwrLoop
from .core import (
    beta_t,
    classify,
    drop_count,
    dropped_rounds,
    explore_size,
    lambda_t,
    pfimulti_beta,
    pick_dropped,
    rho_t,
    t0_theory,
)

PAPER = "Kim, Iyengar & Zeevi (Pareto front identification with regret minimization)"
WIDTH_PRESETS = {"practical": 0.005, "theory": 1.0}


def _events(arms: np.ndarray, C: np.ndarray, P2: np.ndarray, yhat: np.ndarray, w: float, eps: float) -> list[str]:
    """Sentences for the arms eliminated (with a witness) and accepted this round (accuracy ``eps``)."""
    out = []
    Mm = dominance_matrix(yhat)
    for i in np.flatnonzero(~C):
        j = int(np.argmin(Mm[i]))
        out.append(f"arm {arms[i]} rejected: arm {arms[j]}'s box lies above its box in every objective "
                   f"(margin {-Mm[i, j]:.4g} > width {w:.4g})")
    out += [f"arm {arms[i]} accepted: no undetermined arm can beat it by more than the accuracy eps = {eps:g}, and "
            "it is not needed to rule out the others" for i in np.flatnonzero(P2)]
    return out


def _theta_norm(instance: Any) -> float:
    """max_l ||theta_l||_2 of the linear model PFIwR fits: theta itself, or the means for one-hot contexts."""
    theta = instance.theta if instance.kind == "linear" else instance.means
    return float(np.sqrt((np.asarray(theta) ** 2).sum(axis=0)).max())


def _pfiwr_guarantee(instance: Any, params: dict[str, Any]) -> list[str]:
    """Theorem 4.2 (PFIwR): the delta guarantee needs the width beta_t itself (c_beta = 1) and S >= ||theta_l||."""
    out = []
    c_beta = params["c_beta"] or WIDTH_PRESETS[params["width"]]
    if c_beta < 1:
        out.append(f"c_beta = {c_beta:g} shrinks the width beta_t of Theorem 4.2 {1 / c_beta:g}-fold (the paper's "
                   "practical tightening for its own experiments), so the delta = "
                   f"{params['delta']:g} guarantee does not hold; measured on the presets, most runs stop with a "
                   "wrong front (README, calibration)")
    norm = _theta_norm(instance)
    if params["S"] < norm:
        kind = "theta" if instance.kind == "linear" else "the means (one-hot contexts)"
        out.append(f"S = {params['S']:g} is below max_l ||theta_l||_2 = {norm:.3g} of {kind}, so beta_t does not "
                   "bound the ridge estimate's error (Theorem 4.2 needs S >= ||theta_l||_2)")
    return out


@register("pfiwr", paper=PAPER, task="identify", kinds=ID_KINDS, recommends_every_round=True,
          params=(Param("eps", 0.1, "accuracy: arms within eps of the front may be returned", low=1e-9, high=100.0),
                  Param("delta", 0.1, "confidence", low=1e-9, high=0.5),
                  Param("p", 0.5, "sampling parameter of the estimator (IPW weight, rho_t, T0)", low=0.01, high=0.99),
                  Param("S", 1.0, "bound on max_l ||theta_l||_2 used in beta_t", low=1e-6, high=1e6),
                  Param("width", "practical", "practical (c_beta 0.005, T0 10 d) or theory (c_beta 1, T0 of Alg. 1)",
                        choices=("practical", "theory")),
                  Param("c_beta", 0.0, "multiplier of beta_t (0: from the width preset)", low=0.0, high=100.0),
                  Param("T0", 0, "forced-exploration rounds (0: from the width preset)", low=0, high=10_000_000),
                  Param("rho_rule", "corrected", "rho_t rule (our decision)", choices=("corrected", "paper")),
                  Param("select_rule", "uniform_front", "how to pick within the empirical front after T0",
                        choices=("uniform_front", "round_robin_front", "least_pulled_front"))),
          summary="Forced exploration, then pulls from the empirical front; eliminates and accepts with one width.",
          loop=PfiwrLoop(), guarantee=_pfiwr_guarantee)
class PFIwR(Algorithm):
    """PFIwR (Algorithm 1) with the fast, exact form of estimator (10)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        p = self.params
        self.X = features_of(problem)
        self.one_hot = problem.context is None  # fixed means: one-hot contexts, a diagonal Gram matrix
        self.problem = problem
        self.moving = problem.params.get("context_noise", 0) > 0  # contexts drawn afresh every round
        self.K, self.L, self.d = problem.K, problem.L, self.X.shape[1]
        self.xsum = np.zeros((self.K, self.d))
        self.hist_x = np.zeros((1024, self.d))
        self.sigma = problem.sigma
        self.rng, self.rng_est = rng, rng.spawn(1)[0]
        self.c_beta = p["c_beta"] or WIDTH_PRESETS[p["width"]]
        theory_T0 = t0_theory(self.d, self.L, p["delta"], p["p"])
        self.T0 = p["T0"] or (10 * self.d if p["width"] == "practical" else theory_T0)
        self.G = np.zeros((self.d, self.d))
        self.eye = np.eye(self.d)
        self.B = np.zeros((self.d, self.L))
        self.hist_arm = np.zeros(1024, dtype=np.int64)
        self.hist_y = np.zeros((1024, self.L))
        self.counts = np.zeros(self.K, dtype=np.int64)
        self.yhat = np.zeros((self.K, self.L))
        self.theta = np.zeros((self.d, self.L))
        self.A = np.arange(self.K)
        self.cand, self.pos_A, self.front = self.A, self.A, self.A
        self.P: list[int] = []
        self.status = np.full(self.K, ACTIVE, dtype=np.int8)
        self.t, self.rr, self.width = 0, 0, np.inf
        self.lam, self.kept = float("nan"), 1.0
        self.reg = np.ones(self.d) if self.one_hot else self.eye  # regularised Gram matrix (its diagonal if one-hot)
        self.done, self.recommendation = False, tuple(range(self.K))
        self.last: int | None = None
        self.pulled_from: np.ndarray | None = None
        self.events: list[str] = []

    def select(self, t: int) -> int:
        self.t = t
        if t <= self.T0:
            self.pulled_from = None
            return int(self.A[self.rng.integers(len(self.A))])
        front = self.front
        self.pulled_from = front
        rule = self.params["select_rule"]
        if rule == "uniform_front":
            arm = int(front[self.rng.integers(len(front))])
        elif rule == "round_robin_front":
            arm, self.rr = int(front[self.rr % len(front)]), self.rr + 1
        else:
            arm = int(front[np.argmin(self.counts[front])])
        return arm

    def _why(self) -> str:
        """Why the last arm was pulled (built only for snapshots)."""
        if self.pulled_from is None:
            return (f"forced exploration ({words.rounds(1, int(self.T0))}): arm {self.last} drawn uniformly from the "
                    "undetermined arms")
        front = fmt_set(self.pulled_from)
        return f"exploitation: arm {self.last} from the empirical Pareto set {front} of the candidates"

    def _candidates(self) -> np.ndarray:
        """A_{t-1} U P_{t-1}, sorted (never the eliminated arms, our decision)."""
        return np.union1d(self.A, np.asarray(self.P, dtype=np.int64))

    def drops(self, t: int) -> int:
        """How many rounds estimator (10) leaves out at round t (`drop_count`)."""
        return drop_count(t, self.params["p"], self.params["delta"], self.params["rho_rule"], self.rng_est)

    def _kept_sums(self, t: int, n_drop: int) -> tuple[np.ndarray, np.ndarray]:
        """G and B without ``n_drop`` rounds drawn uniformly from 1..t; on one-hot contexts the diagonal of G
        (the pull counts) and B (per-arm reward sums)."""
        if n_drop == 0:
            return (self.counts if self.one_hot else self.G), self.B
        idx = pick_dropped(t, n_drop, self.rng_est)
        if self.one_hot:
            dropped = np.zeros((self.K, self.L))
            np.add.at(dropped, self.hist_arm[idx], self.hist_y[idx])
            return self.counts - np.bincount(self.hist_arm[idx], minlength=self.K), self.B - dropped
        Xd = self.hist_x[idx] if self.moving else self.X[self.hist_arm[idx]]
        return self.G - Xd.T @ Xd, self.B - Xd.T @ self.hist_y[idx]

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.absorb(arm, reward)
        self.estimate(self.t, self.drops(self.t))
        self.classify()

    def absorb(self, arm: int, reward: np.ndarray) -> None:
        """Round t's pull into the history, the counts and the sufficient statistics G and B."""
        t = self.t
        if t > len(self.hist_arm):
            self.hist_arm = np.resize(self.hist_arm, 2 * t)
            self.hist_y = np.resize(self.hist_y, (2 * t, self.L))
            if self.moving:
                self.hist_x = np.resize(self.hist_x, (2 * t, self.d))
        self.hist_arm[t - 1], self.hist_y[t - 1] = arm, reward
        self.counts[arm] += 1
        self.last = arm
        if self.one_hot:
            self.B[arm] += reward
            return
        if self.moving:  # this round's contexts: the pulled one enters G and B, all enter x_bar
            context = np.asarray(self.problem.context, dtype=float)
            self.xsum += context
            self.X = self.xsum / t
            self.hist_x[t - 1] = x = context[arm]
        else:
            x = self.X[arm]
        self.G += np.outer(x, x)
        self.B += np.outer(x, reward)

    def estimate(self, t: int, n_drop: int) -> None:
        """theta_hat (ridge with regulariser p lambda_t on the kept rounds), y_hat and the width beta_t.

        On one-hot contexts the Gram matrix is diagonal and the ridge solution is per arm,
        y_hat_k = sum of Y / (n_k + p lambda_t) (PFIwR Sec. 5): an exact division, no linear solve."""
        pr = self.params
        self.lam = lam = lambda_t(t, self.d, self.L, pr["delta"])
        G, B = self._kept_sums(t, n_drop)
        self.kept = 1 - n_drop / t if n_drop else 1.0
        if self.one_hot:
            self.reg = G + pr["p"] * lam
            self.theta = self.yhat = B / self.reg[:, None]
        else:
            self.reg = G + pr["p"] * lam * self.eye
            self.theta = np.linalg.solve(self.reg, B)
            self.yhat = self.X @ self.theta
        self.width = self.c_beta * self.sigma * beta_t(t, pr["delta"], self.d, self.L, self.K, pr["p"], pr["S"])

    def classify(self) -> None:
        """Step 2 of Algorithm 1 on this round's estimates, then the empirical front where round t + 1 pulls."""
        beta = self.width
        A, cand, pos = self.A, self.cand, self.pos_A
        Mm = dominance_matrix(self.yhat[cand])
        C, P1, P2 = classify(self.yhat[A], 2 * beta, self.params["eps"],
                             Mm if len(pos) == len(cand) else Mm[pos][:, pos])
        changed = not (C.all() and not P2.any())
        self.events = _events(A, C, P2, self.yhat[A], 2 * beta, self.params["eps"]) if changed else []
        self.status[A[~C]] = REJECTED
        self.status[A[C]] = np.where(P2[C], ACCEPTED, np.where(P1[C], CANDIDATE, ACTIVE))
        self.P += A[P2].tolist()
        self.A = A[C & ~P2]
        if changed:
            self.cand = self._candidates()
            self.pos_A = np.searchsorted(self.cand, self.A)
            Mm = dominance_matrix(self.yhat[self.cand])
        # empirical Pareto set of A_t U P_t on this round's estimates: where round t + 1 pulls (our decision)
        self.front = self.cand[~((Mm <= 0) & (Mm.T > 0)).any(axis=1)]
        if len(self.A) == 0:
            self.done = True
            self.recommendation = tuple(sorted(self.P))
            self.events.append(f"stop: no undetermined arm is left; recommended Pareto set: {fmt_set(self.P)}")
        elif len(self.events):
            self.recommendation = tuple(sorted(self.P + self.A.tolist()))

    def state(self) -> RoundState:
        pr = self.params
        extras = {
            "phase": "explore" if self.t <= self.T0 else "exploit", "round": self.t, "T0": float(self.T0),
            "beta_t": float(self.width), "c_beta": self.c_beta, "theta_hat": self.theta.T.copy(),
            "lambda_t": self.lam, "kept_fraction": self.kept,
            "rho_t": rho_t(max(self.t, 1), pr["delta"], pr["p"], pr["rho_rule"]),
            "explore_size": explore_size(max(self.t, 1), self.d, self.L, pr["delta"], pr["p"]),
            "lambda_min": float(self.reg.min() if self.one_hot else np.linalg.eigvalsh(self.reg)[0]),
            "accepted": tuple(self.P),
        }
        return RoundState(t=self.t, estimates=self.yhat.copy(), lower=self.yhat - self.width,
                          upper=self.yhat + self.width, status=self.status.copy(),
                          front=tuple(int(a) for a in self.front), pulled=self.last, counts=self.counts.copy(),
                          extras=extras, events=((self._why(),) if self.last is not None else ()) + tuple(self.events))


def _pfimulti_guarantee(instance: Any, params: dict[str, Any]) -> list[str]:
    """Auer et al. (2016): the delta guarantee holds for their width (c_beta = 1), not a tightened one."""
    if params["c_beta"] < 1:
        return [f"c_beta = {params['c_beta']:g} < 1 tightens Auer et al.'s width, so the delta = "
                f"{params['delta']:g} guarantee does not hold"]
    return []


@register("pfimulti", paper="Auer, Chiang, Ortner & Drugan (AISTATS 2016), baseline of PFIwR", task="identify",
          kinds=ID_KINDS, recommends_every_round=True,
          params=(Param("eps", 0.1, "accuracy: arms within eps of the front may be returned", low=0.0, high=100.0),
                  Param("delta", 0.1, "confidence", low=1e-9, high=0.5),
                  Param("c_beta", 1.0, "multiplier of beta(n) (tightening)", low=1e-6, high=100.0)),
          summary="Samples every undetermined arm each round; same elimination and acceptance rules as PFIwR.",
          loop=BATCHES, guarantee=_pfimulti_guarantee)
class PFIMulti(EmpiricalIdentifier):
    """PFIMulti (Auer et al. 2016, Algorithm 1), context-free."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.recommendation = tuple(range(self.K))
        self.start_batch(self.active)

    def display_half(self) -> np.ndarray:
        n = np.maximum(self.counts, 1)
        b = [pfimulti_beta(int(k), self.K, self.L, self.params["delta"]) for k in n]
        return self.params["c_beta"] * self.sigma * np.array(b)

    def end_batch(self) -> None:
        n, A = self.batch, self.active
        beta = self.params["c_beta"] * self.sigma * pfimulti_beta(n, self.K, self.L, self.params["delta"])
        mu = self.sample_means()[A]
        C, P1, P2 = classify(mu, 2 * beta, self.params["eps"])
        self.events += _events(A, C, P2, mu, 2 * beta, self.params["eps"])
        self.status[A[~C]] = REJECTED
        self.status[A[C]] = np.where(P2[C], ACCEPTED, np.where(P1[C], CANDIDATE, ACTIVE))
        self.accepted += A[P2].tolist()
        self.active = A[C & ~P2]
        self.extras.update(phase="explore", beta=beta)
        if len(self.active) == 0:
            self.finish(self.accepted, "no undetermined arm is left")
        else:
            self.recommendation = tuple(sorted(self.accepted + self.active.tolist()))
            self.start_batch(self.active)


@register("uniform_estimator", paper=PAPER + ", Fig. 1", task="regret", kinds=ID_KINDS,
          params=(Param("estimator", "pfiwr", "pfiwr: estimator (10), i.e. ridge with p lambda_t; ridge: ridge "
                        "with lam", choices=("pfiwr", "ridge")),
                  Param("p", 0.5, "sampling parameter of estimator (10)", low=0.01, high=0.99),
                  Param("delta", 0.1, "confidence in lambda_t and rho_t of estimator (10)", low=1e-9, high=0.5),
                  Param("lam", 1.0, "regulariser of the ridge estimator", low=1e-6, high=1e6)),
          summary="Pulls arms uniformly at random and estimates theta (PFIwR Fig. 1: estimator (10) against ridge).")
class UniformEstimator(Algorithm):
    """PFIwR Sec. 5.1 (Fig. 1): data collected by uniformly random arms, theta estimated every round by
    estimator (10) (ridge on the pulled contexts with p lambda_t, rounds dropped as in `dropped_rounds`,
    corrected rho_t) or by the conventional ridge estimator with regulariser ``lam`` (PFIwR Sec. 4.1:
    A_t = sum x x^T + I, so lam = 1 by default).

    The paper does not state the policy, p, delta or lam of Fig. 1; ours (uniform arms, p = 0.5, delta = 0.1,
    lam = 1) are our decisions. Both estimators draw arms from the policy stream and drops from a stream of
    their own, so on one seed they see the same arms, contexts and rewards. The engine records
    ``estimation_error`` = ||theta_hat - theta||_2 (Frobenius over the L objectives) every round.
    """

    reports_estimate = True

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.problem = problem
        self.K, self.L, self.d = problem.K, problem.L, features_of(problem).shape[1]
        self.rng, self.rng_est = rng, rng.spawn(1)[0]
        self.G, self.B = np.zeros((self.d, self.d)), np.zeros((self.d, self.L))
        self.eye = np.eye(self.d)
        self.hist_x, self.hist_y = np.zeros((1024, self.d)), np.zeros((1024, self.L))
        self.xsum = np.zeros((self.K, self.d))
        self.theta = np.zeros((self.d, self.L))
        self.counts = np.zeros(self.K, dtype=np.int64)
        self.t, self.last = 0, None

    def select(self, t: int) -> int:
        self.t = t
        return int(self.rng.integers(self.K))

    def update(self, arm: int, reward: np.ndarray) -> None:
        t, pr = self.t, self.params
        if t > len(self.hist_x):
            self.hist_x = np.resize(self.hist_x, (2 * t, self.d))
            self.hist_y = np.resize(self.hist_y, (2 * t, self.L))
        context = features_of(self.problem)  # this round's contexts (the same every round on fixed contexts)
        self.xsum += context
        x = self.hist_x[t - 1] = context[arm]
        self.hist_y[t - 1] = reward
        self.counts[arm] += 1
        self.last = arm
        self.G += np.outer(x, x)
        self.B += np.outer(x, reward)
        if pr["estimator"] == "ridge":
            self.theta = np.linalg.solve(self.G + pr["lam"] * self.eye, self.B)
            return
        idx = dropped_rounds(t, pr["p"], pr["delta"], "corrected", self.rng_est)
        Xd = self.hist_x[idx]
        reg = self.G - Xd.T @ Xd + pr["p"] * lambda_t(t, self.d, self.L, pr["delta"]) * self.eye
        self.theta = np.linalg.solve(reg, self.B - Xd.T @ self.hist_y[idx])

    def state(self) -> RoundState:
        yhat = self.xsum / max(self.t, 1) @ self.theta  # x_bar_k^T theta_hat (PFIwR Sec. 4.1)
        return RoundState(t=self.t, estimates=yhat, lower=yhat.copy(), upper=yhat.copy(),
                          status=np.full(self.K, ACTIVE, dtype=np.int8),
                          front=tuple(int(a) for a in np.flatnonzero(pareto_mask(yhat))),
                          pulled=self.last, counts=self.counts.copy(),
                          extras={"theta_hat": self.theta.T.copy(), "estimator": self.params["estimator"]},
                          events=(f"arm {self.last} drawn uniformly at random",) if self.last is not None else ())
