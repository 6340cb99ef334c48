"""Fixed-budget baselines of LinPSI Sec. 5, reconstructed from the authors' code ([EXTERNAL]).

They ignore the features and use per-arm sample means.  Decision (as for GEGE): the budget T is the
``budget`` parameter, or the engine's horizon when it is 0.

* ``ege_sh`` (B1, Kone et al. 2024): ceil(log2 K) rounds; round r pulls every active arm
  floor(T / (|A_r| ceil(log2 K))) times, CUMULATIVE means (the C++ version, our decision), keeps the
  ceil(|A_r|/2) smallest empirical gaps with GEGE's tie-break key (our decision).  Needs T >= K ceil(log2 K).
* ``ege_sr`` (B2): successive rejects with n_k = ceil((T - K) / (lbar (K + 1 - k))), lbar = 1/2 + sum_{i=2}^K
  1/i; each phase accepts the empirically optimal arm with the largest gap or rejects the dominated one
  with the largest gap (reject on ties).  Needs T > K.
* ``uniform_identify`` (B3): floor(T/K) round-robin sweeps, the remaining pulls on distinct uniformly random
  arms; answer = empirical Pareto set of the sample means (refreshed after every sweep).  Needs T >= K.
"""

from __future__ import annotations

import math

import numpy as np

from ...pareto import pareto_mask
from ...pareto.kernels import nondominated, psi_gaps, successive_reject
from ..base import Problem, register
from ..identification import BATCHES, BUDGET, ID_KINDS, EmpiricalIdentifier, fmt_set, halving_order

EGE = "Kone, Kaufmann & Richert (2024), as run in LinPSI (AISTATS 2025)"


def _budget(alg: EmpiricalIdentifier, problem: Problem, minimum: int, rule: str) -> int:
    T = int(alg.params["budget"]) or int(problem.horizon)
    if T < minimum:
        raise ValueError(f"budget: {type(alg).__name__} needs T >= {minimum} ({rule}), got {T}")
    return T


class _EmpiricalGapElimination(EmpiricalIdentifier):
    """EGE-SH and EGE-SR: their decisions rank the active arms by empirical gap."""

    def gaps(self, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(empirical gaps, empirical Pareto set) of the active arms' sample means ``mu`` (`empirical_gaps`; the
        compiled mask and gaps called directly: EGE-SR decides K - 1 times a run)."""
        front = nondominated(mu)
        return psi_gaps(mu, front), front


@register("ege_sh", paper=EGE, task="identify", kinds=ID_KINDS, params=(BUDGET,), recommends_every_round=True,
          summary="Empirical Gap Elimination with Sequential Halving: halves the active arms every round.",
          loop=BATCHES)
class EGESequentialHalving(_EmpiricalGapElimination):
    """EGE-SH (fixed budget), cumulative means."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.R = max(1, math.ceil(math.log2(self.K)))
        self.T = _budget(self, problem, self.K * self.R, "K ceil(log2 K)")
        self._plan()

    def _plan(self) -> None:
        p = self.T // (len(self.active) * self.R)
        self.extras.update(phase="explore", pulls_per_arm=p, active=self.active.copy())
        self.start_batch(np.tile(self.active, p))

    def end_batch(self) -> None:
        A = self.active
        mu = self.sample_means()[A]
        gaps, S = self.gaps(mu)
        n_keep = math.ceil(len(A) / 2)
        out = np.sort(halving_order(A, gaps, S)[n_keep:])
        stay = ("the arm with the smallest empirical gap stays" if n_keep == 1
                else f"the {n_keep} arms with the smallest empirical gaps stay")
        self.events.append(f"batch {self.batch} ended: empirical Pareto set {fmt_set(A[S])}; {stay} active")
        guess = tuple(sorted(set(self.accepted) | set(A[S].tolist())))
        acc, rej = A[out][S[out]], A[out][~S[out]]
        rank = "not the smallest" if n_keep == 1 else f"not among the {n_keep} smallest"
        why = "its empirical gap {:.4g} is " + rank
        reasons = dict(zip(A[out].tolist(), map(why.format, gaps[out].tolist()), strict=True))
        self.accepted.extend(acc.tolist())
        self.classify(acc, rej, reasons)
        self.active = np.delete(A, out)
        if len(self.active) <= 1 or self.batch >= self.R:
            self.finish(set(self.accepted) | set(self.active.tolist()), f"all {self.batch} halving batches are done")
        else:
            self.recommendation = guess
            self._plan()


@register("ege_sr", paper=EGE, task="identify", kinds=ID_KINDS, params=(BUDGET,), recommends_every_round=True,
          summary="Empirical Gap Elimination with Successive Rejects: classifies one arm per phase.",
          loop=BATCHES)
class EGESuccessiveRejects(_EmpiricalGapElimination):
    """EGE-SR (fixed budget)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.T = _budget(self, problem, self.K + 1, "T > K")
        lbar = 0.5 + np.sum(1.0 / np.arange(2, self.K + 1))
        k = np.arange(1, self.K)
        self.n_k = np.concatenate([[0], np.ceil((self.T - self.K) / (lbar * (self.K + 1 - k)))]).astype(np.int64)
        self.phase = 0
        self._next()

    def _next(self) -> None:
        """Plan the next phase with at least one pull, classifying arms of zero-pull phases on the way."""
        while not self.done:
            self.phase += 1
            p = int(self.n_k[self.phase] - self.n_k[self.phase - 1])
            if p > 0:
                self.extras.update(phase="explore", pulls_per_arm=p, active=self.active.copy())
                self.start_batch(np.tile(self.active, p))
                return
            self._decide()

    def _decide(self) -> None:
        A = self.active
        gaps, S = self.gaps(self.sums[A] / self.counts[A, None])  # every active arm is pulled in phase 1
        out, accept = successive_reject(gaps, S)
        arm = int(A[out])
        kind = "empirically optimal" if accept else "dominated"
        reason = {arm: f"largest empirical gap ({gaps[out]:.4g}) among the {kind} arms in phase {self.phase}"}
        self.classify([arm] if accept else [], [] if accept else [arm], reason)
        if accept:
            self.accepted.append(arm)
        self.active = np.delete(A, out)
        if self.phase >= self.K - 1:
            self.finish(set(self.accepted) | set(self.active.tolist()), f"all {self.K - 1} phases are done")
        else:
            self.recommendation = tuple(sorted(set(self.accepted) | set(A[S].tolist())))

    def end_batch(self) -> None:
        self._decide()
        self._next()


@register("uniform_identify", paper="baseline (uniform allocation, LinPSI Sec. 5 baselines B3)", task="identify",
          kinds=ID_KINDS, params=(BUDGET,), recommends_every_round=True,
          summary="Uniform allocation of the budget; answers the empirical Pareto set of the sample means.",
          loop=BATCHES)
class UniformIdentify(EmpiricalIdentifier):
    """Round-robin sweeps, then the remainder on distinct random arms."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.T = _budget(self, problem, self.K, "T >= K")
        self.sweeps = self.T // self.K
        self.extras.update(phase="explore", sweeps=self.sweeps)
        self.start_batch(np.arange(self.K))

    def end_batch(self) -> None:
        mu = self.sample_means()
        front = np.flatnonzero(pareto_mask(mu))
        self.recommendation = tuple(int(a) for a in front)
        spent = int(self.counts.sum())
        if spent >= self.T:
            self.finish(front, f"the budget of {self.T} pulls is spent")
        elif self.batch < self.sweeps:
            self.start_batch(np.arange(self.K))
        else:
            self.start_batch(np.sort(self.rng.choice(self.K, self.T - spent, replace=False)))
