"""Risk-averse Pareto set identification in the (mean, mean-variance) plane: RAMGapE and its baselines.

Nonaga, Tabata, Mizuno, Komatsuzaki, "Risk-Averse Best Arm Set Identification with Fixed Budget and
Fixed Confidence" (RAMGapE). Objectives: mean mu (maximise) and xi = (sigma^2 - rho mu)/(3 + rho)
(minimise); the learner is told rho through ``problem.params["rho"]``.

Shared machinery (RAMGapE Sec. 3): sufficient statistics (T_i, sum X, sum X^2), plug-in variance (÷T, clipped at 0,
A7), one width beta_i for both axes (square boxes, Eq. 8), fixed-confidence width
sqrt((4/T) ln(8K (log2 T)^2 / delta)) or fixed-budget width sqrt(a/T) with a = (n - 2K) eps^2/(16K) and
n = ``problem.horizon`` (Eq. 9), the gap index V_i (Eq. 4), m_t = argmax V_i and p_t its competitor (Eq. 6-7),
the empirical Pareto set D_hat (strict dominance, Def. 2.1), which every algorithm recommends every round.

Decisions (our decisions): ``init_pulls`` = 2 pulls per arm, in order 0..K-1 twice (A1); ties go to the lowest
index, and RAMGapE pulls m_t when T_m = T_p (A2); every fixed-confidence algorithm stops as soon as
V(t) < epsilon once all arms are initialised, checked after each sample (after each pair for RA-LUCB) (A4);
the engine's horizon is the fixed-budget n and the fixed-confidence safety cap (A13); two-pull algorithms
pull only the first arm when one sample of budget remains (the engine simply ends, A8); round robins visit
arm (I - 1) mod K with I = 1 first, so the first adaptive pull is arm 0 (A12). During initialisation D_hat is
taken over the arms pulled so far and V is undefined (NaN).

`RoundState` (after the update of round t): estimates (mu_hat, -xi_hat); square boxes lower/upper in that
orientation; status ACCEPTED (in D_hat, V_i < eps), REJECTED (not in D_hat, V_i < eps), CANDIDATE (in
D_hat, otherwise), ACTIVE (the rest) -- the display logic of Theorem B.11 (our drawing); ``front`` = D_hat.
Extras: "V" (gap indices with the current statistics, which the stopping rule and the next selection
use), "V_max", "m_t", "p_t" and "pulled_which" ("m", "p" or None) of the selection made at round t, "beta",
plus each baseline's own overlay (listed in its docstring).
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from ... import words
from ...pareto import mean_variance
from ..base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED, Algorithm, Param, Problem, RoundState, register
from ..estimators import RunningMeans
from ._loop import (
    DE_ROUND_ROBIN_RULE,
    EGP_RULE,
    HVI_RULE,
    LIE_ROUND_ROBIN_RULE,
    RA_LUCB_RULE,
    RAMGAPE_RULE,
    ROUND_ROBIN_RULE,
    XI_LCB_RULE,
    RiskLoop,
)
from .core import DEFAULT_DELTA, DEFAULT_EPSILON, beta_fb, beta_fc, default_a

PAPER = "Nonaga et al., Risk-Averse Best Arm Set Identification (RAMGapE)"
KINDS = ("distributions",)
CONFIDENCE, BUDGET = "confidence", "budget"


def gap_index(mu: np.ndarray, xi: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(V, arg, D_hat) of Eq. 4 and 7 for K >= 2 arms with boxes of half-width b (RAMGapE Sec. 3, vectorised O(K^2)).

    ``arg[i]`` is the arm realising V_i (so p_t = arg[m_t]); argmax/argmin break ties by lowest index.
    """
    dom = (mu[:, None] > mu[None, :]) & (xi[:, None] < xi[None, :])  # dom[j, i]: j dominates i
    Dh = ~dom.any(axis=0)
    up_mu, lo_mu, up_xi, lo_xi = mu + b, mu - b, xi + b, xi - b
    A = np.minimum(up_mu[None, :] - lo_mu[:, None], up_xi[:, None] - lo_xi[None, :])  # A[i, j]
    np.fill_diagonal(A, -np.inf)
    B = np.maximum(up_mu[:, None] - lo_mu[None, :], up_xi[None, :] - lo_xi[:, None])  # B[i, j]
    B = np.where(Dh[None, :] & dom.T, B, np.inf)  # only j in D_hat with j dominating i
    V = np.where(Dh, A.max(axis=1), B.min(axis=1))
    arg = np.where(Dh, A.argmax(axis=1), B.argmin(axis=1))
    return V, arg, Dh


def empirical_gaps(mu: np.ndarray, xi: np.ndarray, Dh: np.ndarray) -> np.ndarray:
    """EGP's V_hat (Alg. 9, l.782), verbatim (A9): in D_hat max_j min(mu_i - mu_j, xi_j - xi_i), else
    min_j max(mu_j - mu_i, xi_i - xi_j), over j != i."""
    lead = np.minimum(mu[:, None] - mu[None, :], xi[None, :] - xi[:, None])  # [i, j]
    np.fill_diagonal(lead, -np.inf)
    lag = np.maximum(mu[None, :] - mu[:, None], xi[:, None] - xi[None, :])
    np.fill_diagonal(lag, np.inf)
    return np.where(Dh, lead.max(axis=1), lag.min(axis=1))


def _set(arms: np.ndarray) -> str:
    return words.arm_set(np.flatnonzero(arms))


EPSILON = Param("epsilon", DEFAULT_EPSILON, "tolerance epsilon (fixed confidence: stop when V(t) < epsilon; "
                "fixed budget: sets a, and must then be > 0)", low=0.0, high=1.0)
EPSILON_FB = Param("epsilon", DEFAULT_EPSILON, "tolerance epsilon > 0 (sets a; 0 would make the width 0: "
                   "greedy)", low=0.0, high=1.0, low_open=True)
DELTA = Param("delta", DEFAULT_DELTA, "risk delta of the fixed-confidence width", low=1e-12, high=0.999)
A_PARAM = Param("a", None, "fixed-budget exploration constant a > 0 (empty: (n - 2K) eps^2 / (16 K), "
                "Theorem B.7)", low=0.0, high=1e6, low_open=True)
INIT = Param("init_pulls", 2, "pulls of every arm before adaptive sampling (2 in the paper)", low=2, high=100)
REGIME = Param("regime", CONFIDENCE, "fixed confidence (stop when V(t) < epsilon) or fixed budget (n = horizon)",
               choices=(CONFIDENCE, BUDGET))
FC_PARAMS = (EPSILON, DELTA, INIT)
FB_PARAMS = (EPSILON_FB, A_PARAM, INIT)
BOTH_PARAMS = (REGIME, EPSILON, DELTA, A_PARAM, INIT)


class _RiskAverse(Algorithm):
    """Shared state and machinery (RAMGapE Sec. 3); subclasses implement `_choose` (the adaptive selection)."""

    REGIME: ClassVar[str | None] = None  # fixed regime, or None to read the "regime" parameter
    PAIRED: ClassVar[bool] = False  # selects through the pair (m_t, p_t) of Eq. 6-7

    def __init__(self, **params) -> None:
        super().__init__(**params)
        if (self.REGIME or params.get("regime")) == BUDGET and params.get("epsilon") == 0:
            raise ValueError(f"{self.spec.name} parameter 'epsilon': the fixed budget needs epsilon > 0 (Theorem "
                             "B.7: a = (n - 2K) eps^2 / (16K), so the width sqrt(a / T) would be 0: greedy), got 0")

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        if "rho" not in problem.params:
            raise ValueError("problem: the risk-averse algorithms need rho in problem.params")
        self.K, self.rho = problem.K, float(problem.params["rho"])
        self.alpha = mean_variance.alpha(self.rho)
        self.regime = self.REGIME or self.params["regime"]
        self.eps = self.params["epsilon"]
        self.init_pulls = self.params["init_pulls"]
        if self.regime == CONFIDENCE:
            self.delta = self.params["delta"]
        else:
            a = self.params.get("a")
            self.a = default_a(problem.horizon, self.K, self.eps) if a is None else a
        self.stats = RunningMeans(self.K, 1)
        self.mu, self.xi = np.full(self.K, np.nan), np.full(self.K, np.nan)
        self.beta = np.full(self.K, np.inf)
        self.V, self.arg = np.full(self.K, np.nan), np.zeros(self.K, dtype=np.int64)
        self.Dh = np.zeros(self.K, dtype=bool)
        self.t, self.last = 0, None
        self.m = self.p = self.which = None
        self.queue: list[int] = []
        self.why: list[str] = []
        self.done, self.recommendation = False, None

    # ------------------------------------------------------------------ widths and index
    def width(self, T: int) -> float:
        """beta_i for T pulls (Eq. 9); +inf for an arm without the pulls the width needs."""
        if self.regime == CONFIDENCE:
            return beta_fc(T, self.K, self.delta) if T >= 2 else math.inf
        return beta_fb(T, self.a) if T >= 1 else math.inf

    @property
    def initialised(self) -> bool:
        return bool(self.stats.counts.min() >= self.init_pulls)

    def _refresh(self) -> None:
        """Recompute D_hat and (after initialisation) V, arg from the current statistics."""
        if self.initialised:
            self.V, self.arg, self.Dh = gap_index(self.mu, self.xi, self.beta)
            return
        seen = self.stats.counts > 0
        mu, xi = np.where(seen, self.mu, -np.inf), np.where(seen, self.xi, np.inf)
        self.Dh = mean_variance.pareto_mask(mu, xi) & seen
        self.V[:] = np.nan

    # ------------------------------------------------------------------ engine contract
    def select(self, t: int) -> int:
        self.t = t
        self.why = []
        if self.queue:
            arm = self.queue.pop()
            self.which = "p"
            self.why.append(f"arm {arm} pulled, the second of the pair")
            return arm
        counts = self.stats.counts
        if counts.min() < self.init_pulls:
            arm = int(np.argmin(counts))
            self.m = self.p = self.which = None
            self.why.append(f"initialisation: every arm is pulled {words.times(self.init_pulls)} first; arm {arm} now")
            return arm
        self.m = self.p = self.which = None
        return self._choose()

    def _choose(self) -> int:
        raise NotImplementedError

    def restore(self, t: int, counts: np.ndarray, sums: np.ndarray, sumsq: np.ndarray, pulled: int | None) -> None:
        """The state after round ``t`` given only the sufficient statistics (per arm: pulls, sum and sum of squares
        of the samples) and the last arm pulled: snapshots of runs played in the compiled loop, which keeps no
        more. m_t / p_t are then the pair the next selection would use (the loop does not record the past pair)."""
        self._load(counts, sums, sumsq)
        self.t, self.last = t, pulled
        self.recommendation = tuple(int(i) for i in np.flatnonzero(self.Dh))
        if self.initialised and self.PAIRED:
            self._pair()

    def resume(self, t: int, counts: np.ndarray, sums: np.ndarray, sumsq: np.ndarray, pulled: int | None,
               queued: int, I: int) -> None:
        """The state after round ``t`` as the round-by-round engine leaves it, from the compiled loop's sufficient
        statistics, last arm pulled, arm queued for the next round (-1: none) and round-robin counter I: runs with
        snapshots, whose snapshot rounds the class plays itself (`_loop.RiskLoop.play`). What only the state of a
        round describes (m_t, p_t, the sentences) is made by the next ``select``, but for the pair in flight."""
        self._load(counts, sums, sumsq)
        self.t, self.last = t, pulled
        self.recommendation = tuple(int(i) for i in np.flatnonzero(self.Dh)) if t else None
        self.queue = [queued] if queued >= 0 else []
        if self.queue:
            self._in_flight(pulled, queued)

    def _in_flight(self, first: int, second: int) -> None:
        """The pair chosen at the last round, whose ``second`` arm is pulled next (RA-LUCB, HVI-Pareto)."""

    def _load(self, counts: np.ndarray, sums: np.ndarray, sumsq: np.ndarray) -> None:
        """The statistics and what `update` computes from them (the same expressions): mu, xi, beta, D_hat, V."""
        self.stats.counts[:] = counts
        self.stats.sums[:, 0], self.stats.sumsq[:, 0] = sums, sumsq
        seen = counts > 0
        mean = np.where(seen, sums / np.maximum(counts, 1), np.nan)
        self.stats.means[:, 0] = mean
        self.mu, self.xi = mean, mean_variance.xi_from_moments(mean, sumsq / np.maximum(counts, 1), self.rho)
        self.beta = np.array([self.width(int(c)) for c in counts])
        self._refresh()

    def _pair(self) -> tuple[int, int]:
        """m_t (largest V_i, Eq. 6) and p_t (its competitor, Eq. 7), recorded for the state."""
        m = int(np.argmax(self.V))
        p = int(self.arg[m])
        self.m, self.p = m, p
        rel = "the arm that could still dominate it the most" if self.Dh[m] else "its closest empirical dominator"
        self.why.append(f"arm {m} has the largest gap index V = {self.V[m]:.4g} (how far its class, Pareto optimal "
                        f"or dominated, could still be wrong given the boxes); arm {p} is {rel}")
        return m, p

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.stats.update(arm, reward)
        self.last = arm
        T = int(self.stats.counts[arm])
        mean = self.stats.sums[arm, 0] / T
        var = max(self.stats.sumsq[arm, 0] / T - mean * mean, 0.0)
        self.mu[arm], self.xi[arm] = mean, self.alpha * (var - self.rho * mean)
        self.beta[arm] = self.width(T)
        self._refresh()
        self.recommendation = tuple(int(i) for i in np.flatnonzero(self.Dh))
        if self.regime == CONFIDENCE and not self.queue and self.initialised and self.V.max() < self.eps:
            self.done = True
            self.why.append(f"stop: every gap index is below the tolerance epsilon = {self.eps:g} (the largest is "
                            f"{self.V.max():.4g}); the empirical Pareto set {_set(self.Dh)} is returned")

    def state(self) -> RoundState:
        est = np.column_stack([self.mu, -self.xi])  # NaN for arms not pulled yet
        b = self.beta[:, None]
        small = self.V < self.eps  # NaN (initialisation) compares False
        status = np.where(self.Dh, np.where(small, ACCEPTED, CANDIDATE),
                          np.where(small, REJECTED, ACTIVE)).astype(np.int8)
        extras = {"V": self.V.copy(), "V_max": float(np.max(self.V)) if self.initialised else math.nan,
                  "m_t": self.m, "p_t": self.p, "pulled_which": self.which, "beta": self.beta.copy(),
                  "epsilon": self.eps, "regime": self.regime}
        extras.update(self._extras())
        return RoundState(t=self.t, estimates=est, lower=est - b, upper=est + b, status=status,
                          front=self.recommendation or (), pulled=self.last, counts=self.stats.counts.copy(),
                          extras=extras, events=tuple(self.why))

    def _extras(self) -> dict:
        return {}


def _register(name: str, rule: int, params: tuple[Param, ...], summary: str):
    """`register` with the family's common fields; ``rule``: the compiled loop's rule for the learner (`_loop`)."""
    return register(name, paper=PAPER, task="risk-averse", kinds=KINDS, params=params, summary=summary,
                    recommends_every_round=True, loop=RiskLoop(rule))


class _RAMGapE(_RiskAverse):
    """RAMGapE (Alg. 1-2): pull whichever of m_t, p_t has the wider box (fewer pulls); tie -> m_t."""

    PAIRED = True

    def _choose(self) -> int:
        m, p = self._pair()
        arm, self.which = (m, "m") if self.beta[m] >= self.beta[p] else (p, "p")
        if self.beta[m] == self.beta[p]:
            self.why.append(f"arm {arm} pulled: arms {m} and {p} have boxes of the same width "
                            f"({self.beta[m]:.4g}), and a tie goes to arm {m}")
        else:
            self.why.append(f"arm {arm} pulled: its box is the wider of the two (half-width {self.beta[arm]:.4g} "
                            f"against {self.beta[p if arm == m else m]:.4g})")
        return arm


@_register("ramgape_b", RAMGAPE_RULE, FB_PARAMS,
           "RAMGapEb (fixed budget): UGapE-style gap index on square (mu, xi) boxes; "
           "pulls the less-sampled of m_t and its competitor p_t for n = horizon samples.")
class RAMGapEb(_RAMGapE):
    """RAMGapEb, fixed budget: beta = sqrt(a / T_i), exactly n samples (Alg. 2, Eq. 9)."""

    REGIME = BUDGET


@_register("ramgape_c", RAMGAPE_RULE, FC_PARAMS,
           "RAMGapEc (fixed confidence): UGapE-style gap index on square (mu, xi) boxes; "
           "stops when every gap index is below epsilon.")
class RAMGapEc(_RAMGapE):
    """RAMGapEc, fixed confidence: beta = sqrt((4/T) ln(8K (log2 T)^2 / delta)), stop when V(t) < eps."""

    REGIME = CONFIDENCE


@_register("ra_round_robin", ROUND_ROBIN_RULE, BOTH_PARAMS,
           "Round-Robin (Alg. 3): pulls the arms in turn; fixed budget, or "
           "fixed confidence with RAMGapEc's stopping rule.")
class RoundRobin(_RiskAverse):
    """Round-Robin (Alg. 3): arm (t - 1) mod K; either regime."""

    def _choose(self) -> int:
        arm = (self.t - 1) % self.K
        self.why.append(f"every arm in turn: arm {arm} now")
        return arm


class _SkippingRoundRobin(_RiskAverse):
    """Round robin over I = 1, 2, ... that skips the arms `_skip` rejects (DE / LIE Round-Robin)."""

    SKIPPED: ClassVar[str] = ""  # why an arm is skipped, in words

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.I = 1
        self.skipped: list[int] = []

    def resume(self, t: int, counts: np.ndarray, sums: np.ndarray, sumsq: np.ndarray, pulled: int | None,
               queued: int, I: int) -> None:
        super().resume(t, counts, sums, sumsq, pulled, queued, I)
        self.I = I

    def _skip(self) -> np.ndarray:
        raise NotImplementedError

    def _choose(self) -> int:
        skip = self._skip()
        self.skipped = []
        while True:
            arm = (self.I - 1) % self.K
            self.I += 1
            if not skip[arm]:
                break
            self.skipped.append(arm)
        if self.skipped:
            self.why.append(f"{words.arms(self.skipped)} skipped ({self.SKIPPED})")
        self.why.append(f"every arm in turn: arm {arm} now")
        return arm

    def _extras(self) -> dict:
        return {"skipped": tuple(self.skipped), "skip_mask": self._skip() if self.initialised else None}


@_register("de_round_robin", DE_ROUND_ROBIN_RULE, FC_PARAMS,
           "DE Round-Robin (Alg. 4): round robin over D_hat and the arms whose gap "
           "index is still above epsilon; fixed confidence.")
class DERoundRobin(_SkippingRoundRobin):
    """DE Round-Robin (Alg. 4), fixed confidence; extras "skipped", "skip_mask" (the eliminated arms).

    Elimination is re-evaluated at every visit: active = D_hat or V_k > eps.
    """

    REGIME = CONFIDENCE
    SKIPPED = "eliminated: empirically dominated, with a gap index below the tolerance epsilon"

    def _skip(self) -> np.ndarray:
        return ~(self.Dh | (self.V > self.eps))


@_register("lie_round_robin", LIE_ROUND_ROBIN_RULE, FB_PARAMS,
           "LIE Round-Robin (Alg. 5): round robin that skips the arm with the "
           "smallest gap index; fixed budget.")
class LIERoundRobin(_SkippingRoundRobin):
    """LIE Round-Robin (Alg. 5), fixed budget; extras "skipped", "skip_mask" (the single argmin V_i arm)."""

    REGIME = BUDGET
    SKIPPED = "the arm with the smallest gap index: the most surely classified"

    def _skip(self) -> np.ndarray:
        mask = np.zeros(self.K, dtype=bool)
        mask[int(np.argmin(self.V))] = True
        return mask


@_register("ra_lucb", RA_LUCB_RULE, BOTH_PARAMS,
           "RA-LUCB (Alg. 6): pulls both m_t and its competitor p_t each iteration; "
           "either regime.")
class RALUCB(_RiskAverse):
    """RA-LUCB (Alg. 6): pulls m_t then p_t (both chosen before either is observed), 2 samples per iteration."""

    PAIRED = True

    def _in_flight(self, first: int, second: int) -> None:
        self.m, self.p = first, second

    def _choose(self) -> int:
        m, p = self._pair()
        self.queue = [p]
        self.which = "m"
        self.why.append(f"arm {m} pulled; its competitor, arm {p}, is pulled next")
        return m


@_register("xi_lcb", XI_LCB_RULE, FB_PARAMS,
           "xi-LCB (Alg. 7): pulls the arm with the lowest optimistic risk xi_hat - beta; "
           "fixed budget.")
class XiLCB(_RiskAverse):
    """xi-LCB (Alg. 7), fixed budget; extra "xi_lcb" (the index xi_hat - beta)."""

    REGIME = BUDGET

    def _choose(self) -> int:
        arm = int(np.argmin(self.xi - self.beta))
        self.why.append(f"arm {arm} has the lowest lower confidence bound on its risk "
                        f"({self.xi[arm] - self.beta[arm]:.4g})")
        return arm

    def _extras(self) -> dict:
        return {"xi_lcb": self.xi - self.beta}


@_register("hvi_pareto", HVI_RULE, FB_PARAMS,
           "HVI-Pareto (Alg. 8): pulls the empirical Pareto arm with the smallest and "
           "the dominated arm with the largest rectangle to the reference point; fixed budget.")
class HVIPareto(_RiskAverse):
    """HVI-Pareto (Alg. 8), fixed budget, no width in its rule; extras "hvi", "reference", "d_t", "d2_t".

    HVI_i = (mu_hat_i - R_mu)(R_xi - xi_hat_i) with (R_mu, R_xi) = (0, 0.25 / (3 + rho)). When D_hat = [K]
    only d_t is pulled (A8).
    """

    REGIME = BUDGET

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.d: int | None = None
        self.d2: int | None = None

    def _in_flight(self, first: int, second: int) -> None:
        self.d, self.d2 = first, second

    def hvi(self) -> np.ndarray:
        r_mu, r_xi = mean_variance.hvi_reference(self.rho)
        return (self.mu - r_mu) * (r_xi - self.xi)

    def _choose(self) -> int:
        h = self.hvi()
        d = int(np.argmin(np.where(self.Dh, h, np.inf)))
        self.d, self.d2 = d, None
        if not self.Dh.all():
            self.d2 = int(np.argmax(np.where(self.Dh, -np.inf, h)))
            self.queue = [self.d2]
        self.which = "m"
        self.why.append(f"arm {d} pulled: of the empirical Pareto arms, its rectangle to the reference point is the "
                        f"smallest (area HVI = {h[d]:.4g}, its hypervolume)"
                        + (f"; arm {self.d2}, the dominated arm with the largest, is pulled next"
                           if self.d2 is not None else ""))
        return d

    def _extras(self) -> dict:
        return {"hvi": self.hvi(), "reference": mean_variance.hvi_reference(self.rho),
                "d_t": self.d, "d2_t": self.d2}


@_register("egp", EGP_RULE, FB_PARAMS,
           "EGP (Alg. 9): pulls argmax of minus the empirical gap plus the width; fixed budget.")
class EGP(_RiskAverse):
    """EGP (Alg. 9), fixed budget: I(t) = argmax(-V_hat_i + beta_i); extras "V_hat", "score"."""

    REGIME = BUDGET

    def _scores(self) -> tuple[np.ndarray, np.ndarray]:
        v_hat = empirical_gaps(self.mu, self.xi, self.Dh)
        return v_hat, self.beta - v_hat

    def _choose(self) -> int:
        v_hat, score = self._scores()
        arm = int(np.argmax(score))
        self.why.append(f"arm {arm} has the largest score, its box half-width minus its empirical gap "
                        f"({score[arm]:.4g})")
        return arm

    def _extras(self) -> dict:
        if not self.initialised:
            return {}
        v_hat, score = self._scores()
        return {"V_hat": v_hat, "score": score}
