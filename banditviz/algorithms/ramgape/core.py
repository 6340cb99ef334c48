"""Widths and constants of RAMGapE (Nonaga et al., Sec. 3), shared by its learners and their compiled loop: the
confidence widths of Eq. 9, the default a of Theorem B.7 and T* (our analysis of RAMGapEc); and `Checkpoints`, what
the compiled loop records of a long run (`_loop.RiskLoop.record`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

DEFAULT_DELTA = 0.05
DEFAULT_EPSILON = 0.1


def beta_fc(T: float, K: int, delta: float) -> float:
    """Fixed-confidence width sqrt((4 / T) ln(8 K (log2 T)^2 / delta)), Eq. 9; needs T >= 2."""
    if T < 2:
        raise ValueError(f"T: the fixed-confidence width needs T >= 2 pulls, got {T}")
    lg = math.log2(T)
    return math.sqrt(4.0 / T * math.log(8.0 * K * lg * lg / delta))


def beta_fb(T: float, a: float) -> float:
    """Fixed-budget width sqrt(a / T), Eq. 9."""
    return math.sqrt(a / T)


def default_a(n: int, K: int, eps: float) -> float:
    """a = (n - 2K) eps^2 / (16 K), the largest value Theorem B.7 allows (l.188, l.405-409)."""
    if n <= 2 * K:
        raise ValueError(f"horizon: the fixed-budget width needs a budget n > 2K = {2 * K}, got {n}")
    return (n - 2 * K) * eps * eps / (16.0 * K)


def t_star(K: int, eps: float, delta: float) -> int:
    """T* = max{T >= 2 : beta_fc(T) >= eps / 2} (our analysis): RAMGapEc pulls no arm more than T* + 1 times."""
    if eps <= 0:
        raise ValueError(f"epsilon: T* is finite only for epsilon > 0, got {eps}")
    lo, hi = 2, 4
    while beta_fc(hi, K, delta) >= eps / 2:
        lo, hi = hi, hi * 2
    while hi - lo > 1:  # beta_fc decreasing for T >= 2: beta(lo) >= eps/2 > beta(hi)
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if beta_fc(mid, K, delta) >= eps / 2 else (lo, mid)
    return lo


@dataclass
class Checkpoints:
    """A run of the compiled loop that keeps no log (`_loop.RiskLoop.record`): the samples drawn, whether the algorithm
    stopped, the final statistics, the last arm pulled and, at each checkpoint reached (a sample count; the stopping
    time when the algorithm stopped), D_hat and the statistics."""

    samples: int
    stopped: bool
    counts: np.ndarray
    sums: np.ndarray
    sumsq: np.ndarray
    last_arm: int
    checkpoints: np.ndarray
    fronts: np.ndarray
    cp_counts: np.ndarray
    cp_sums: np.ndarray
    cp_sumsq: np.ndarray
