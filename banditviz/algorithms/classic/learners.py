"""Classic multi-objective bandit baselines on fixed mean vectors (task "regret").

* Uniform / round-robin allocation.
* Pareto UCB1 (Drugan & Nowé, "Designing multi-objective multi-armed bandits algorithms: a study",
  IJCNN 2013, Algorithm 2): index mu_hat_i + sqrt(2 ln(n (L |A*|)^{1/4}) / n_i) per objective, play
  uniformly at random among the arms whose index vectors are Pareto optimal. The size |A*| of the
  Pareto front is unknown to the learner; K, its upper bound, stands in for it (decision).
* Pareto Thompson sampling (Yahyaa & Manderick, "Thompson sampling for multi-objective multi-armed
  bandits problem", ESANN 2015): one posterior sample per arm and objective, play uniformly among the
  Pareto-optimal samples. Gaussian rewards: posterior N(S/(n+1), sigma^2/(n+1)) (prior N(0, sigma^2));
  Bernoulli rewards: Beta(1 + S, 1 + n - S).
* Multi-objective epsilon-greedy (Drugan & Nowé 2013, §III): with probability epsilon a uniform arm,
  otherwise a uniform arm of the empirical Pareto front.

Every algorithm first pulls each arm once (round robin), as in Drugan & Nowé's initialisation.
Decision (papers silent): the display box of epsilon-greedy and round-robin is the Hoeffding box
mu_hat +- sigma sqrt(2 ln t / n); Pareto TS shows mu_hat +- 2 posterior standard deviations.
"""

from __future__ import annotations

import numpy as np

from ...pareto import pareto_mask
from ..base import ACTIVE, CANDIDATE, Algorithm, Param, Problem, RoundState, register
from ..estimators import RunningMeans
from ._loop import EPSILON_GREEDY_RULE, PARETO_TS_RULE, PARETO_UCB1_RULE, UNIFORM_RULE, ClassicLoop

FIXED_KINDS = ("means", "linear")


class _Empirical(Algorithm):
    """Shared state of the classic baselines: running means, the round, the last pull."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        self.K, self.L, self.sigma = problem.K, problem.L, problem.sigma
        self.rng = rng
        self.stats = RunningMeans(self.K, self.L)
        self.t = 0
        self.last: int | None = None
        self.last_why = ""

    def update(self, arm: int, reward: np.ndarray) -> None:
        self.stats.update(arm, reward)
        self.last = arm

    def _initial(self, t: int) -> int | None:
        """Round-robin over the arms until each has one pull."""
        self.t = t
        if t <= self.K:
            self.last_why = f"initialisation: every arm is pulled once, arm {t - 1} now"
            return t - 1
        return None

    def _pick_front(self, vectors: np.ndarray, what: str, plural: str) -> int:
        """A uniform arm of the Pareto front of ``vectors`` (``what`` / ``plural``: one arm's vector, named)."""
        front = np.flatnonzero(pareto_mask(vectors))
        arm = int(front[self.rng.integers(len(front))])
        if len(front) == 1:
            self.last_why = f"arm {arm} is the only arm whose {what} is Pareto optimal"
        else:
            self.last_why = f"arm {arm} drawn uniformly from the {len(front)} arms whose {plural} are Pareto optimal"
        return arm

    def _hoeffding_radius(self) -> np.ndarray:
        n = np.maximum(self.stats.counts, 1)
        return self.sigma * np.sqrt(2 * np.log(max(self.t, 2)) / n)

    def _state(self, centre: np.ndarray, radius: np.ndarray, front_of: np.ndarray) -> RoundState:
        est = self.stats.means.copy()
        seen = self.stats.counts > 0
        front_mask = pareto_mask(np.where(seen[:, None], front_of, -np.inf)) & seen
        lower = np.where(seen[:, None], centre - radius[:, None], -np.inf)
        upper = np.where(seen[:, None], centre + radius[:, None], np.inf)
        status = np.where(front_mask, CANDIDATE, ACTIVE).astype(np.int8)
        return RoundState(
            t=self.t, estimates=est, lower=lower, upper=upper, status=status,
            front=tuple(int(i) for i in np.flatnonzero(front_mask)), pulled=self.last,
            counts=self.stats.counts.copy(), events=(self.last_why,) if self.last_why else (),
        )

    def state(self) -> RoundState:
        return self._state(self.stats.means, self._hoeffding_radius(), self.stats.means)


@register("uniform", paper="baseline (uniform allocation)", task="regret", kinds=FIXED_KINDS,
          summary="Round-robin: pulls the arms in turn, ignoring the rewards.", loop=ClassicLoop(UNIFORM_RULE))
class Uniform(_Empirical):
    """Round-robin allocation."""

    def select(self, t: int) -> int:
        self.t = t
        arm = (t - 1) % self.K
        self.last_why = f"every arm in turn: arm {arm} now"
        return arm


@register("pareto_ucb1", paper="Drugan & Nowé (IJCNN 2013)", task="regret", kinds=FIXED_KINDS,
          summary="Optimistic index per objective; plays a random arm of the index vectors' Pareto front.",
          loop=ClassicLoop(PARETO_UCB1_RULE))
class ParetoUCB1(_Empirical):
    """Pareto UCB1: index mu_hat + sqrt(2 ln(n (L K)^{1/4}) / n_i), uniform over the index front."""

    def radius(self) -> np.ndarray:
        n = np.maximum(self.stats.counts, 1)
        return np.sqrt(2 * np.log(max(self.t, 1) * (self.L * self.K) ** 0.25) / n)

    def select(self, t: int) -> int:
        arm = self._initial(t)
        if arm is not None:
            return arm
        return self._pick_front(self.stats.means + self.radius()[:, None], "optimistic index vector",
                               "optimistic index vectors")

    def state(self) -> RoundState:
        r = self.radius()
        return self._state(self.stats.means, r, self.stats.means + r[:, None])


@register("pareto_ts", paper="Yahyaa & Manderick (ESANN 2015)", task="regret", kinds=FIXED_KINDS,
          params=(Param("prior", "auto", "posterior family: 'gaussian', 'bernoulli', or 'auto' from the noise",
                        choices=("auto", "gaussian", "bernoulli")),),
          summary="One posterior sample per arm and objective; plays a random arm of the samples' Pareto front.",
          loop=ClassicLoop(PARETO_TS_RULE))
class ParetoTS(_Empirical):
    """Pareto Thompson sampling with Gaussian or Beta-Bernoulli posteriors."""

    def reset(self, problem: Problem, rng: np.random.Generator) -> None:
        super().reset(problem, rng)
        prior = self.params["prior"]
        if prior == "auto":
            prior = "bernoulli" if problem.noise in ("bernoulli", "beta") else "gaussian"
        self.prior = prior
        self.samples = np.full((self.K, self.L), np.nan)

    def _posterior_sd(self) -> np.ndarray:
        n = self.stats.counts
        if self.prior == "gaussian":
            return self.sigma / np.sqrt(n + 1)
        a, b = self._beta_posterior()
        return np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1))).max(axis=1)

    def _beta_posterior(self) -> tuple[np.ndarray, np.ndarray]:
        """Beta(1 + S, 1 + n - S), with S clipped to [0, n] for rewards outside {0, 1}."""
        n = self.stats.counts[:, None]
        s = np.clip(self.stats.sums, 0, n)
        return 1 + s, 1 + n - s

    def select(self, t: int) -> int:
        arm = self._initial(t)
        if arm is not None:
            return arm
        n = self.stats.counts[:, None]
        if self.prior == "gaussian":
            mean = self.stats.sums / (n + 1)
            self.samples = mean + self._posterior_sd()[:, None] * self.rng.standard_normal((self.K, self.L))
        else:
            self.samples = self.rng.beta(*self._beta_posterior())
        return self._pick_front(self.samples, "posterior sample", "posterior samples")

    def state(self) -> RoundState:
        drawn = np.where(np.isnan(self.samples), self.stats.means, self.samples)  # no draw yet: the means
        st = self._state(self.stats.means, 2 * self._posterior_sd(), drawn)
        st.extras["samples"] = drawn
        return st


@register("mo_epsilon_greedy", paper="Drugan & Nowé (IJCNN 2013)", task="regret", kinds=FIXED_KINDS,
          params=(Param("epsilon", 0.1, "probability of a uniformly random arm", low=0.0, high=1.0),),
          summary="With probability epsilon a random arm, otherwise a random arm of the empirical Pareto front.",
          loop=ClassicLoop(EPSILON_GREEDY_RULE))
class MOEpsilonGreedy(_Empirical):
    """Multi-objective epsilon-greedy."""

    def select(self, t: int) -> int:
        arm = self._initial(t)
        if arm is not None:
            return arm
        if self.rng.random() < self.params["epsilon"]:
            arm = int(self.rng.integers(self.K))
            self.last_why = f"exploration (probability {self.params['epsilon']:g}): arm {arm} drawn uniformly at random"
            return arm
        return self._pick_front(self.stats.means, "empirical mean", "empirical means")
