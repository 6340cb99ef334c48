"""Formulas of MOL-TS (Park, Ann & Oh), pure functions shared by its learners and the compiled loop of the linear
learners (`banditviz.algorithms._linear_loop`): the confidence radius c_{1,t}(delta) of Alg. 1 and the sample count M of
Theorem 2.
"""

from __future__ import annotations

import math

ANTI_CONCENTRATION = 0.15  # p of Lemma 1: P(N(0,1) >= 1) >= 0.15


def confidence_radius(t: int, d: int, L: int, lam: float = 1.0, delta: float = 0.05, R: float = 1.0) -> float:
    """c_{1,t}(delta) = R sqrt(d log((1 + (t-1)/(lam d)) / (delta/L))) + sqrt(lam) (MOL-TS Alg. 1)."""
    if t < 1:
        raise ValueError(f"t: round must be >= 1, got {t}")
    return c1_formula(t, d, L, lam, delta, R)


def c1_formula(t: int, d: int, L: int, lam: float, delta: float, R: float) -> float:
    """The formula of `confidence_radius` without the check (also compiled by `banditviz.algorithms._linear_loop`)."""
    return R * math.sqrt(d * math.log((1 + (t - 1) / (lam * d)) / (delta / L))) + math.sqrt(lam)


def theorem2_samples(L: int) -> int:
    """M = ceil(1 - log L / log(1 - p)) with p = 0.15 (Theorem 2): 1, 6, 10, 14 for L = 1, 2, 4, 8."""
    if L < 1:
        raise ValueError(f"L: number of objectives must be >= 1, got {L}")
    return math.ceil(1 - math.log(L) / math.log(1 - ANTI_CONCENTRATION))
