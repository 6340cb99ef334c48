"""Regret and identification metrics, computed from the truth (never seen by the learner).

* Per pulled arm: Pareto regret Delta^PR and effective Pareto regret Delta^EPR (MOL-TS Def. 3,
  Def. 6); for the lexicographic task, the general regret per objective R^i (LexMOSLB Sec. 1,
  eq. (4)) and the priority-based regret (eq. (1)); and the expected reward of every objective
  ``reward_i`` (the pulled arm's mean, objectives maximised; not for "distributions" instances, whose
  second objective is a risk), whose running sum is the cumulative reward per objective of LexMOSLB
  Fig. 2 and MOL-TS Fig. 2.
* Per recommendation: ``error`` (the recommended set is not the true Pareto set) for identification;
  ``simple_regret`` (`banditviz.pareto.mean_variance`) for the risk-averse task; both in `RECOMMENDATION_METRICS`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import pareto
from .instances import Instance
from .pareto import mean_variance


def arm_regrets(instance: Instance, task: str) -> dict[str, np.ndarray]:
    """Instantaneous regret (and expected reward per objective) of pulling each arm (K-vectors) of a
    fixed-means instance.

    The gaps are cached on the (immutable) instance, so many runs on one instance pay for them once.
    """
    out = {"pareto_regret": instance.pareto_gaps, "effective_regret": instance.effective_gaps}
    if task == "lexicographic":
        out.update(lexicographic_regrets(instance.means))
    if instance.kind != "distributions":
        out.update(objective_rewards(instance.means))
    return out


def objective_rewards(means: np.ndarray) -> dict[str, np.ndarray]:
    """``reward_i``: the mean of objective i of each arm (K-vectors), i = 1..L."""
    return {f"reward_{i + 1}": np.ascontiguousarray(means[:, i]) for i in range(means.shape[1])}


def pulled_regrets(means: np.ndarray, arm: int, task: str) -> dict[str, float]:
    """Instantaneous regrets of one pull when the means change every round (contextual)."""
    pareto_gap, effective_gap = pareto.gaps_of(means, arm)
    out = {"pareto_regret": pareto_gap, "effective_regret": effective_gap}
    if task == "lexicographic":
        out.update({k: float(v[arm]) for k, v in lexicographic_regrets(means).items()})
    out.update({f"reward_{i + 1}": float(means[arm, i]) for i in range(means.shape[1])})
    return out


def lexicographic_regrets(means: np.ndarray, atol: float = 1e-12) -> dict[str, np.ndarray]:
    """General regret mu^i(x*) - mu^i(x) (eq. 4) and priority regret (eq. 1) of each arm, per objective."""
    best = means[pareto.lex_optimal(means, atol=atol)[0]]
    diff = best[None, :] - means
    equal_before = np.cumprod(np.abs(diff) <= atol, axis=1)  # [k, i]: equal on objectives 1..i
    gate = np.concatenate([np.ones((means.shape[0], 1)), equal_before[:, :-1]], axis=1)
    out = {}
    for i in range(means.shape[1]):
        out[f"lex_regret_{i + 1}"] = diff[:, i]
        out[f"priority_regret_{i + 1}"] = diff[:, i] * gate[:, i]
    return out


def identification_error(instance: Instance, recommendation: tuple[int, ...] | None) -> dict[str, float]:
    """1 when the recommended set differs from the true Pareto set (or there is none yet), else 0."""
    wrong = recommendation is None or set(recommendation) != set(instance.pareto_set)
    return {"error": float(wrong)}


RecommendationMetric = Callable[[Instance, "tuple[int, ...] | None"], dict[str, float]]
RECOMMENDATION_METRICS: dict[str, RecommendationMetric] = {"identify": identification_error,
                                                            "risk-averse": mean_variance.simple_regret}
