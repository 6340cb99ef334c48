"""LexMOSLB's experiments: the calibration convention of its Sec. 4 (S5) and our decision, for reproducing its numbers.

The engine (`banditviz.simulate`) draws noise per (arm, pull index). The spec's calibration instead draws
one N(0, 1) row per ROUND, ``numpy.random.default_rng(seed).standard_normal((T, m))``, shared by all
algorithms; its tables (LexMOSLB Sec. 4) were produced that way. `round_noise_run` replays that convention on any
fixed-means instance so that the reproduction tests and the Papers page can compare with LexMOSLB Sec. 4 exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import limits
from ..instances import Instance
from ..metrics import lexicographic_regrets
from ..simulate import make_problem, resolve


def round_noise_run(instance: Instance, algorithm: str, horizon: int, seed: int, **params: Any) -> np.ndarray:
    """Arms pulled in rounds 1..horizon when round t's reward is mu(x_t) + sigma * noise[t - 1] (LexMOSLB Sec. 4)."""
    spec = resolve(algorithm, instance)
    if instance.kind not in ("means", "linear") or instance.noise != "gaussian":
        raise ValueError("instance: the round-indexed noise convention needs fixed means and Gaussian noise")
    horizon = limits.check_int("horizon", horizon, 1, limits.MAX_HORIZON)
    alg = spec.make(**params)
    alg.reset(make_problem(instance, horizon, instance.features), np.random.default_rng(seed))
    means = np.asarray(instance.means)
    noise = instance.sigma * np.random.default_rng(seed).standard_normal((horizon, instance.L))
    arms = np.empty(horizon, dtype=np.int64)
    for t in range(1, horizon + 1):
        arm = alg.select(t)
        arms[t - 1] = arm
        alg.update(arm, means[arm] + noise[t - 1])
    return arms


def general_regret(instance: Instance, arms: np.ndarray) -> np.ndarray:
    """R^i(T) = sum_t <theta^i, x* - x_t> for every objective i (eq. 4), from the true means."""
    regrets = lexicographic_regrets(np.asarray(instance.means))
    return np.array([regrets[f"lex_regret_{i + 1}"][arms].sum() for i in range(instance.L)])
