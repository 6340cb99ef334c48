"""An algorithm of your own, the way banditviz wants it: copy this file and change the rules.

Run it from Python (``import greedy_pareto`` registers it), check it (``banditviz.check_algorithm("greedy_pareto")``),
or load it into the CLI and the app: ``BANDITVIZ_PLUGINS=greedy_pareto`` with this folder on ``PYTHONPATH``, or
``python -m banditviz run --plugin greedy_pareto --algorithm greedy_pareto``.

Epsilon-greedy on the Pareto front of the sample means: each arm once, then with probability epsilon a uniformly
random arm, else a uniformly random arm of the empirical Pareto front.
"""

import numpy as np

from banditviz import ACTIVE, CANDIDATE, Algorithm, Param, RoundState, register


@register("greedy_pareto", paper="example (banditviz README)", task="regret", kinds=("means",),
          params=(Param("epsilon", 0.1, "probability of a uniformly random arm", 0.0, 1.0),))
class GreedyPareto(Algorithm):
    """Epsilon-greedy on the empirical Pareto front."""

    def reset(self, problem, rng):
        self.K, self.L, self.rng = problem.K, problem.L, rng
        self.counts = np.zeros(problem.K, dtype=np.int64)
        self.sums = np.zeros((problem.K, problem.L))
        self.t = 0

    def select(self, t):  # t = 1, 2, ...: the round
        self.t = t
        if t <= self.K:
            return t - 1  # each arm once
        if self.rng.random() < self.params["epsilon"]:
            return int(self.rng.integers(self.K))
        return int(self.rng.choice(self._front()))

    def update(self, arm, reward):  # reward: read-only, one value per objective (larger is better)
        self.counts[arm] += 1
        self.sums[arm] += reward

    def _front(self):
        means = self.sums / np.maximum(self.counts, 1)[:, None]
        return [i for i in range(self.K)
                if not any((means[j] >= means[i]).all() and (means[j] > means[i]).any() for j in range(self.K))]

    def state(self):  # called at snapshot rounds only; must not change what the algorithm does next
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(self.counts[:, None] > 0, self.sums / self.counts[:, None], np.nan)
        front = tuple(self._front())
        status = np.full(self.K, ACTIVE, dtype=np.int64)
        status[list(front)] = CANDIDATE
        return RoundState(t=self.t, estimates=means, lower=np.full_like(means, np.nan),
                          upper=np.full_like(means, np.nan), status=status, front=front, pulled=None,
                          counts=self.counts.copy())
