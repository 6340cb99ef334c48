"""Lexicographic multi-objective bandits (task "lexicographic", LexMOSLB).

* ``mte2lo``: Multiple Trade-off between Exploration and Exploitation under Lexicographic Ordering
  (Alg. 3) with the LOAF filter (Alg. 2, eqs. 17-18); input lambda of claim (5).
* ``ste2lo``: Single Trade-off ... (Alg. 1): one threshold epsilon, then the chain filter (eq. 15).
* ``pf_lex``: PF-LEX (Hüyük & Tekin 2021, LexMOSLB Sec. 2.2): sample means, threshold epsilon, chain filter (eq. 11).
* ``oful``: OFUL (Abbasi-Yadkori et al. 2011, LexMOSLB Sec. 2.1) on objective 1 only, the paper's
  single-objective baseline.

The linear learners read the arm features from ``problem.context`` (K x d; on a "means" instance they use
the one-hot embedding x_k = e_k of LexMOSLB Sec. 4 [DECISION]); they keep one ridge estimate per objective with ONE
Gram matrix (`SharedRidge`), so each arm has one width w_t(x) = gamma_t ||x||_{V_t^-1} shared by all
objectives (eq. 13) and its confidence region is a hyper-cube. Every radius is multiplied by the width
scale c (default 0.1, LexMOSLB Sec. 3 [DECISION]); the thresholds epsilon, 2^-s, 1/sqrt(T) and the LOAF coefficients
are not scaled. All algorithms know the horizon T = ``problem.horizon`` and R = ``problem.sigma``.

Decisions where the paper is silent (our decisions): the arm played when "some" width exceeds the threshold is
the widest one, lowest index on ties (P5; options "first" and "random"); argmax ties go to the lowest
index within 1e-12 (1 + |max|) (P6); LOAF receives the threshold as W (P10; option "actual_max");
V_t = I + sum x x^T (P2); MTE2LO's stage loop is uncapped in the paper and capped at 64 stages here (P9),
which no horizon up to 1e7 can reach.

`RoundState` (``state()``) describes the decision of the last round ``t``: estimates, per-objective
intervals ``lower``/``upper`` (K x L, estimate -/+ the shared width) and filters are the ones the arm was
chosen with (before that round's update); ``counts`` include round t's pull. Status: CANDIDATE = in the
final set of the last filter cascade run that round (the chain filter of STE2LO / PF-LEX, the last LOAF of
MTE2LO), REJECTED = removed by a filter that round, ACTIVE = no filter ran that round (an exploration
round of STE2LO / PF-LEX, a stage-1 exploration of MTE2LO, every OFUL round). ``front`` is the final
filtered set (empty if no filter ran). Extras: ``stage`` ("exploration" / "exploitation"),
``filtered_sets`` (per objective, the arms surviving the filter at that objective: a list of L tuples,
empty if no filter ran), ``chosen_objective`` (0-based index of the objective whose highest UCB was
played, when the round exploited), ``widths``, ``radius`` (gamma_t, beta_t or alpha_t after the scale),
``threshold`` (epsilon, 2^-s or 1/sqrt(T)), ``x_hat`` (per objective, the arm of highest UCB in the last
cascade), ``rounds_by_branch`` (rounds so far per branch, the psi sets of LexMOSLB Sec. 3); STE2LO / PF-LEX add
``chain_intervals`` (the union interval [L, U] of each objective's chain); MTE2LO adds ``stage_index`` s,
``branch`` ("explore@s" or "final"), ``stage_sets`` (D_t,1, ..., D_t,s), ``loaf_sets`` (each LOAF's
per-objective sets, one list per LOAF run) and ``cut_levels`` (each LOAF's u^i(x_hat^i) - c_i W).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import limits, words
from ...pareto import lambda_min
from ...presets.lexmoslb import suggested_lambda
from .._linear_loop import MTE2LO_RULE, OFUL_RULE, PF_LEX_RULE, STE2LO_RULE, LinearLoop
from ..base import ACTIVE, CANDIDATE, REJECTED, Algorithm, Param, Problem, RoundState, register
from ..estimators import RunningMeans, SharedRidge
from .core import (
    Cascade,
    branch_name,
    chain_filter,
    gamma_radius,
    loaf,
    loaf_coefficients,
    oful_alpha,
    pf_lex_beta,
    pf_lex_epsilon,
    ste2lo_epsilon,
    tied_argmax,
)

PAPER = "Multiobjective Stochastic Linear Bandits under Lexicographic Ordering (LexMOSLB)"
MAX_STAGES = 64
CONTEXTUAL_LAMBDA = 0.1  # MTE2LO lambda on a contextual instance (no fixed means for lambda_min)

SCALE = Param("width_scale", 0.1, "multiplicative scale c of the confidence radius (paper tunes it in [1e-3, 1])",
              low=1e-4, high=10.0)
DELTA = Param("delta", 0.01, "confidence level delta of the radius", low=1e-9, high=0.5)
WIDTH_MODE = Param("width_mode", "scaled", "'scaled': c times the paper's radius; 'constant': the radius is c",
                   choices=("scaled", "constant"))
EXPLORE_ARM = Param("explore_arm", "widest", "arm played when some width exceeds the threshold (P5)",
                    choices=("widest", "first", "random"))
POOL = Param("pool", "full", "chain intermediates: every arm ('full', literal) or only the current candidates",
             choices=("full", "candidates"))


def _epsilon_param(rule: str) -> Param:
    return Param("epsilon", None, f"exploration threshold; None means the paper's {rule}", low=1e-9, high=10.0)


@dataclass
class Decision:
    """What the algorithm computed to choose the arm of round ``t`` (the material of `RoundState`)."""

    t: int
    arm: int
    explored: bool
    threshold: float
    estimates: np.ndarray
    widths: np.ndarray
    radius: float
    cascades: list[Cascade] = field(default_factory=list)
    stage: int | None = None

    @property
    def branch(self) -> str:
        """Branch of the round (`branch_name`)."""
        return branch_name(self.explored, self.stage)


class _Lexicographic(Algorithm):
    """Shared contract plumbing: horizon, pull counts, the too-wide-arm rule and `RoundState`."""

    L_est: int | None = None  # objectives estimated (None: all)

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.problem = problem
        self.K, self.L, self.T, self.R = problem.K, problem.L, problem.horizon, problem.sigma
        self.rng = rng
        self.counts = np.zeros(self.K, dtype=np.int64)
        self.everyone = list(range(self.K))
        self.last: Decision | None = None
        self.tally: dict[str, int] = {}  # rounds per branch: |psi(T, eps)|, or |psi_s(T)| and |psi_0(T)| (Sec. 3)

    def _scaled(self, radius: float) -> float:
        c = self.params["width_scale"]
        return c if self.params["width_mode"] == "constant" else c * radius

    def _too_wide(self, widths: list[float], candidates: list[int], threshold: float) -> int | None:
        """An arm of ``candidates`` whose width exceeds ``threshold`` (P5), or None if there is none."""
        rule = self.params["explore_arm"]
        if rule == "widest":
            arm = tied_argmax(widths, candidates)
            return arm if widths[arm] > threshold else None
        wide = [k for k in candidates if widths[k] > threshold]
        if not wide:
            return None
        return wide[0] if rule == "first" else wide[int(self.rng.integers(len(wide)))]

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.counts[arm] += 1
        branch = self.last.branch  # type: ignore[union-attr]
        self.tally[branch] = self.tally.get(branch, 0) + 1

    # ------------------------------------------------------------------ RoundState
    def state(self) -> RoundState:
        dec = self.last
        if dec is None:
            nan = np.full((self.K, self.L), np.nan)
            return RoundState(t=0, estimates=nan, lower=nan, upper=nan, status=np.full(self.K, ACTIVE, np.int8),
                              front=(), pulled=None, counts=self.counts.copy(), events=("no round played yet",))
        est = np.full((self.K, self.L), np.nan)
        est[:, : dec.estimates.shape[1]] = dec.estimates
        status = np.full(self.K, ACTIVE, dtype=np.int8)
        front: tuple[int, ...] = ()
        filtered: list[tuple[int, ...]] = []
        if dec.cascades:
            status[:] = REJECTED
            front = dec.cascades[-1].survivors
            status[list(front)] = CANDIDATE
            filtered = list(dec.cascades[-1].sets)
        extras = {
            "stage": "exploration" if dec.explored else "exploitation",
            "filtered_sets": filtered,
            "widths": dec.widths.copy(),
            "radius": dec.radius,
            "threshold": dec.threshold,
            "x_hat": dec.cascades[-1].x_hat if dec.cascades else (),
            "rounds_by_branch": dict(self.tally),
        }
        if not dec.explored:
            extras["chosen_objective"] = self._chosen_objective()
        extras.update(self._extras(dec))
        return RoundState(
            t=dec.t, estimates=est, lower=est - dec.widths[:, None], upper=est + dec.widths[:, None], status=status,
            front=front, pulled=dec.arm, counts=self.counts.copy(), extras=extras, events=tuple(self._events(dec)),
        )

    def _chosen_objective(self) -> int:
        return self.L - 1

    def _extras(self, dec: Decision) -> dict:
        return {}

    def _events(self, dec: Decision) -> list[str]:
        raise NotImplementedError

    def _name(self, i: int) -> str:
        return self.problem.objective_names[i]

    def _describe(self, c: Cascade) -> str:
        """One sentence per filter run: per objective, the arm with the highest upper confidence bound (UCB), the
        cut and the arms removed."""
        parts, before = [], c.start
        for i, (kept, best, (lo, hi)) in enumerate(zip(c.sets, c.x_hat, c.bounds, strict=True)):
            removed = [k for k in before if k not in kept]
            rule = f"cut at UCB >= {lo:.4g}" if c.kind == "loaf" else f"chained intervals cover [{lo:.4g}, {hi:.4g}]"
            ucb = "upper confidence bound (UCB)" if i == 0 else "UCB"
            parts.append(f"{self._name(i)}: arm {best} has the highest {ucb}, {rule}, "
                         f"removed {words.arm_set(removed)}")
            before = kept
        head = f"LOAF, the lexicographic filter with width W = {c.W:.4g}," if c.kind == "loaf" else "The chain filter"
        return f"{head} on arms {words.arm_set(c.start)}: " + "; ".join(parts) + f"; kept {words.arm_set(c.survivors)}."


class _Linear(_Lexicographic):
    """Ridge estimates (eq. 12) and widths gamma ||x||_{V^-1} (eq. 13) from the arm features."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.one_hot = None
        if problem.kind == "means":
            if self.K > limits.MAX_DIM:
                raise ValueError(f"number of arms K: the one-hot embedding of a 'means' instance needs K <= "
                                 f"{limits.MAX_DIM}, got {self.K}; use a linear instance")
            self.one_hot = np.eye(self.K)
        self.ridge: SharedRidge | None = None  # built when the features (and d) are known
        # fixed features (one-hot arms, or a linear instance without context noise): the ridge keeps their
        # estimates and widths incrementally
        self.fixed = problem.kind == "means" or (problem.kind == "linear" and not problem.params.get("context_noise"))
        if self.one_hot is not None or problem.context is not None:  # fixed features: validate them now
            self.X = self._features()

    def _features(self) -> np.ndarray:
        X = self.one_hot if self.one_hot is not None else self.problem.context
        if self.ridge is None:
            if X is None or X.ndim != 2 or X.shape[0] != self.K:
                raise ValueError(f"problem.context: must be a K x d feature matrix with K = {self.K}")
            self.d = int(X.shape[1])
            self.ridge = SharedRidge(self.d, self.L_est or self.L, features=X if self.fixed else None)
        return X

    def _linear(self, radius_of_d: Callable[[int], float]) -> tuple[np.ndarray, np.ndarray, float]:
        """y_hat (K x L_est), widths (K) and the radius for this round's features."""
        self.X = self._features()
        radius = radius_of_d(self.d)
        seen = None if self.fixed else self.X
        return self.ridge.predict(seen), radius * self.ridge.widths(seen), radius

    def update(self, arm: int, reward: np.ndarray) -> None:
        super().update(arm, reward)
        self.leverage = self.ridge.update(self.X[arm], np.asarray(reward)[: self.ridge.theta.shape[1]])


class _SingleThreshold(_Lexicographic):
    """STE2LO / PF-LEX: explore while some width exceeds epsilon, else chain-filter and play x_hat^m."""

    def _choose(self, t: int, est: np.ndarray, w: np.ndarray, radius: float, epsilon: float) -> int:
        widths = w.tolist()
        arm = self._too_wide(widths, self.everyone, epsilon)
        dec = Decision(t, -1, arm is not None, epsilon, est, w, radius)
        if arm is None:
            cascade = chain_filter((est - w[:, None]).T.tolist(), (est + w[:, None]).T.tolist(), self.everyone,
                                   self.params["pool"])
            dec.cascades.append(cascade)
            arm = cascade.x_hat[-1]
        dec.arm = arm
        self.last = dec
        return arm

    def _extras(self, dec: Decision) -> dict:
        return {"chain_intervals": list(dec.cascades[0].bounds) if dec.cascades else []}

    def _events(self, dec: Decision) -> list[str]:
        if dec.explored:
            return [f"Arm {dec.arm}{_width_says(dec.widths[dec.arm])} exceeds the threshold epsilon = "
                    f"{dec.threshold:.4g}, so it is played to shrink its intervals (exploration)."]
        return [f"Every width is at most the threshold epsilon = {dec.threshold:.4g}.", self._describe(dec.cascades[0]),
                _exploit(dec.arm, self._name(self.L - 1))]


def _exploit(arm: int, objective: str) -> str:
    return (f"Arm {arm}, the highest upper confidence bound on {objective} among the survivors, is played "
            "(exploitation).")


def _width_says(width: float) -> str:
    """How an explanation names an arm's width: an infinite width means the arm has no data yet."""
    return " has not been pulled yet: its width (unbounded)" if np.isinf(width) else f"'s width {width:.4g}"


@register("ste2lo", paper=PAPER, task="lexicographic", kinds=("linear", "means", "contextual"),
          params=(_epsilon_param("d^(2/3) (K T)^(-1/3)"), SCALE, DELTA, WIDTH_MODE, EXPLORE_ARM, POOL),
          summary="Explores while some width exceeds epsilon, then filters arms by chained intervals, "
                  "objective by objective.", loop=LinearLoop(STE2LO_RULE))
class STE2LO(_SingleThreshold, _Linear):
    """STE2LO (Alg. 1): gamma_t = c (R sqrt(d ln(m (1 + t) / delta)) + 1), threshold epsilon (eq. 15)."""

    def select(self, t: int) -> int:
        est, w, radius = self._linear(lambda d: self._scaled(gamma_radius(t, d, self.L, self.params["delta"], self.R)))
        return self._choose(t, est, w, radius, self.params["epsilon"] or ste2lo_epsilon(self.d, self.K, self.T))


@register("pf_lex", paper="Hüyük & Tekin (2021), as baseline in " + PAPER, task="lexicographic",
          kinds=("means", "linear"),
          params=(_epsilon_param("(K T)^(-1/3)"), SCALE, DELTA, WIDTH_MODE, EXPLORE_ARM, POOL),
          summary="Sample means per arm; explores while some width exceeds epsilon, then chain-filters.",
          loop=LinearLoop(PF_LEX_RULE))
class PFLEX(_SingleThreshold):
    """PF-LEX: w(a) = beta_t sqrt((1 + N) / N^2), infinite at N = 0 (so the first K rounds are a round robin)."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.stats = RunningMeans(self.K, self.L)
        self.epsilon = self.params["epsilon"] or pf_lex_epsilon(self.K, self.T)

    def select(self, t: int) -> int:
        radius = self._scaled(pf_lex_beta(t, self.K, self.L, self.params["delta"], self.R))
        n = self.stats.counts
        seen = n > 0
        safe = np.maximum(n, 1)
        w = np.where(seen, radius * np.sqrt((1 + n) / safe**2), np.inf)
        est = np.where(seen[:, None], self.stats.sums / safe[:, None], 0.0)
        return self._choose(t, est, w, radius, self.epsilon)

    def update(self, arm: int, reward: np.ndarray) -> None:
        super().update(arm, reward)
        self.stats.update(arm, reward)

    def state(self) -> RoundState:
        st = super().state()
        if self.last is not None:
            unseen = np.flatnonzero(np.isinf(self.last.widths))
            st.estimates[unseen] = np.nan
        return st


def _mte2lo_guarantee(instance: Any, params: dict[str, Any]) -> list[str]:
    """Proposition 1 (LexMOSLB): LOAF keeps the lexicographically optimal arm only if lambda >= lambda_min."""
    lam = params["lam"]
    if instance.means is None:
        return [f"lambda = {CONTEXTUAL_LAMBDA if lam is None else lam:g} is not checked against claim (5): on a "
                "contextual instance the smallest valid lambda depends on the contexts drawn each round, so "
                "Proposition 1 may not keep the optimal arm in the LOAF filter"]
    smallest = lambda_min(instance.means)[0]
    lam = suggested_lambda(instance.means) if lam is None else lam
    if lam < smallest:
        return [f"lambda = {lam:g} is below this instance's smallest valid lambda (lambda_min = {smallest:.4g}, "
                "claim (5)), so Proposition 1 no longer guarantees that the optimal arm survives the LOAF filter"]
    return []


@register("mte2lo", paper=PAPER, task="lexicographic", kinds=("linear", "means", "contextual"),
          params=(Param("lam", None, "trade-off lambda of claim (5), known in advance (empty: the instance's "
                        "suggested lambda, the paper's for Table 1, else the smallest valid one)", low=0.0, high=1e3),
                  SCALE, DELTA, WIDTH_MODE, EXPLORE_ARM,
                  Param("W_mode", "threshold", "W given to LOAF: the stage threshold (paper) or the actual "
                        "largest width", choices=("threshold", "actual_max"))),
          summary="Stages s = 1, 2, ...: plays an arm wider than 2^-s, or LOAF-filters and halves the threshold; "
                  "once all widths are below 1/sqrt(T), plays the best UCB of the last objective.",
          loop=LinearLoop(MTE2LO_RULE), guarantee=_mte2lo_guarantee)
class MTE2LO(_Linear):
    """MTE2LO (Alg. 3) with LOAF (Alg. 2); records the stage sets D_{t,s} and the cut levels of each LOAF.

    lambda is prior knowledge (LexMOSLB, input of Alg. 3). Left empty it is the instance's suggested value
    (``problem.params["lambda"]``: the paper's for Table 1, else lambda_min of claim (5)); a contextual
    instance has no fixed means to compute it from, so it falls back to CONTEXTUAL_LAMBDA (the smaller of the
    paper's two values, decision ours) and the run says that claim (5) is not checked.
    """

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        lam = self.params["lam"]
        self.lam = problem.params.get("lambda", CONTEXTUAL_LAMBDA) if lam is None else lam
        self.coefficients = loaf_coefficients(self.lam, self.L)
        self.root = 1.0 / math.sqrt(self.T)

    def select(self, t: int) -> int:
        est, w, radius = self._linear(lambda d: self._scaled(gamma_radius(t, d, self.L, self.params["delta"], self.R)))
        widths, upper = w.tolist(), (est + w[:, None]).T.tolist()
        dec = Decision(t, -1, True, math.nan, est, w, radius)
        self.last = dec
        candidates = self.everyone
        for s in range(1, MAX_STAGES + 1):
            dec.stage = s
            largest = max(map(widths.__getitem__, candidates))
            if largest <= self.root:  # line 6-8: final LOAF, play the best UCB of objective m
                dec.explored, dec.threshold = False, self.root
                dec.cascades.append(loaf(upper, candidates, self.coefficients, self._W(self.root, largest)))
                dec.arm = dec.cascades[-1].x_hat[-1]
                return dec.arm
            arm = self._too_wide(widths, candidates, 2.0**-s)  # lines 9-10
            if arm is not None:
                dec.threshold, dec.arm = 2.0**-s, arm
                return arm
            cascade = loaf(upper, candidates, self.coefficients, self._W(2.0**-s, largest))  # lines 11-13
            dec.cascades.append(cascade)
            candidates = list(cascade.survivors)
        raise RuntimeError(f"MTE2LO: no arm chosen after {MAX_STAGES} stages (widths {widths})")

    def _W(self, threshold: float, largest: float) -> float:
        return threshold if self.params["W_mode"] == "threshold" else largest

    def _extras(self, dec: Decision) -> dict:
        sets = [tuple(self.everyone)] + [c.survivors for c in dec.cascades]
        return {
            "stage_index": dec.stage,
            "branch": dec.branch,
            "stage_sets": sets[: dec.stage],
            "loaf_sets": [list(c.sets) for c in dec.cascades],
            "cut_levels": [[lo for lo, _ in c.bounds] for c in dec.cascades],
            "lambda": self.lam,
            "lambda_coefficients": list(self.coefficients),
        }

    def _events(self, dec: Decision) -> list[str]:
        out = []
        for s, cascade in enumerate(dec.cascades, start=1):
            if s < dec.stage:
                out.append(f"Stage {s}: every arm left is at most {2.0**-s:.4g} wide (this stage's threshold, halved "
                           "at each stage), so the LOAF filter runs and the threshold halves.")
            else:
                out.append(f"Stage {s}: every arm left is at most {self.root:.4g} wide (the last threshold: one over "
                           "the square root of the horizon).")
            out.append(self._describe(cascade))
        if dec.explored:
            out.append(f"Stage {dec.stage}: arm {dec.arm}{_width_says(dec.widths[dec.arm])} exceeds this stage's "
                       f"threshold {dec.threshold:.4g}, so it is played (exploration).")
        else:
            out.append(_exploit(dec.arm, self._name(self.L - 1)))
        return out


@register("oful", paper="Abbasi-Yadkori et al. (2011), as baseline in " + PAPER, task="lexicographic",
          kinds=("linear", "means", "contextual"),
          params=(SCALE, DELTA, WIDTH_MODE,
                  Param("S_norm", 1.0, "bound S on ||theta|| in the OFUL radius", low=0.0, high=100.0)),
          summary="Single-objective OFUL on objective 1 only: ignores the lower-priority objectives.",
          loop=LinearLoop(OFUL_RULE))
class OFUL(_Linear):
    """OFUL on objective 1: UCB <theta_hat, x> + alpha_t ||x||_{V^-1}, alpha_t from ln det V (LexMOSLB Sec. 2.1).

    Only objective 1 is estimated (the other columns of the intervals are NaN); no filter runs, so every
    arm stays ACTIVE and ``stage`` is "exploitation" (optimism in the face of uncertainty).
    """

    L_est = 1

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        self.logdet = 0.0

    def select(self, t: int) -> int:
        est, w, radius = self._linear(
            lambda d: self._scaled(oful_alpha(self.logdet, self.params["delta"], self.R, self.params["S_norm"])))
        arm = tied_argmax((est[:, 0] + w).tolist(), self.everyone)
        self.last = Decision(t, arm, False, math.nan, est, w, radius)
        return arm

    def update(self, arm: int, reward: np.ndarray) -> None:
        super().update(arm, reward)
        self.logdet += math.log1p(self.leverage)  # det(V + x x') = det(V) (1 + x' V^{-1} x)

    def _chosen_objective(self) -> int:
        return 0

    def _events(self, dec: Decision) -> list[str]:
        return [f"Arm {dec.arm} has the highest upper confidence bound on {self._name(0)}, with confidence radius "
                f"{dec.radius:.4g}; the other objectives are ignored."]
