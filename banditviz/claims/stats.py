"""The statistics the claims use: paired sign tests, one-sided Welch tests, a binomial test of an error rate against
delta, and the slope of a rate on log-log (or semi-log) axes with a bootstrap confidence interval.

Decisions (ours, fixed before the runs): tests are one-sided at level 0.05 unless a claim says otherwise; a slope is
the least-squares slope of log(mean) against log(x) over the points, and its 95% interval is the 2.5-97.5% percentile
range of the slopes refitted on 2,000 bootstrap resamples (the runs resampled within each point, or whole
instances across all points when the same instances give every point), drawn from ``default_rng(0)`` so the
interval is the same on every machine.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.05
REPS = 2000


def sign_test(a: np.ndarray, b: np.ndarray) -> tuple[int, int, float]:
    """(wins, pairs, one-sided p): how often ``a < b`` in paired values, and the sign test's p-value that it is
    not more often than half (ties count as losses)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    wins, n = int((a < b).sum()), len(a)
    return wins, n, float(stats.binomtest(wins, n, 0.5, alternative="greater").pvalue)


def welch_less(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided p-value of Welch's t-test that mean(a) < mean(b) (0 or 1 when both samples are constant to 1e-9)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    scale = max(np.abs(a).max(), np.abs(b).max(), 1.0)
    if np.ptp(a) <= 1e-9 * scale and np.ptp(b) <= 1e-9 * scale:  # constant (a deterministic algorithm's runs)
        return 0.0 if a.mean() < b.mean() else 1.0
    with warnings.catch_warnings():  # one nearly constant sample: scipy warns, the test is still right
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(stats.ttest_ind(a, b, equal_var=False, alternative="less").pvalue)


def errors_within(errors: int, runs: int, delta: float) -> float:
    """One-sided binomial p-value against "error rate <= delta" (small: more errors than delta allows)."""
    return float(stats.binomtest(errors, runs, delta, alternative="greater").pvalue)


@dataclass(frozen=True)
class Fit:
    """A slope fitted on log-log (or semi-log) axes: the points, their 95% intervals, the slope and its interval."""

    x: np.ndarray  # the varied quantity at each point
    y: np.ndarray  # the mean measured value at each point
    y_low: np.ndarray
    y_high: np.ndarray
    slope: float
    intercept: float  # of log(y) against log(x) (or x on a semi-log fit)
    low: float  # 95% bootstrap interval of the slope
    high: float
    runs: int
    log_x: bool = True

    def line(self, slope: float) -> np.ndarray:
        """y along the points of a line of ``slope`` through the fitted line's centre (for the theory's line)."""
        u = np.log(self.x) if self.log_x else self.x
        centre = float(np.mean(u))
        level = self.intercept + self.slope * centre
        return np.exp(level + slope * (u - centre))

    def text(self) -> str:
        return f"slope {self.slope:.3g} [{self.low:.3g}, {self.high:.3g}]"


def _ols(u: np.ndarray, v: np.ndarray) -> tuple[float, float]:
    slope, intercept = np.polyfit(u, v, 1)
    return float(slope), float(intercept)


def fit_points(x: Sequence[float], samples: Sequence[np.ndarray], log_x: bool = True, reps: int = REPS) -> Fit:
    """Slope of log(mean sample) against log(x) (or x), the runs of each point resampled independently."""
    x = np.asarray(x, float)
    u = np.log(x) if log_x else x
    samples = [np.asarray(s, float) for s in samples]
    means = np.array([s.mean() for s in samples])
    if np.any(means <= 0):
        raise ValueError("fit: every point needs a positive mean")
    slope, intercept = _ols(u, np.log(means))
    rng = np.random.default_rng(0)
    boot = np.empty((reps, len(samples)))
    for j, s in enumerate(samples):
        if np.isin(s, (0.0, 1.0)).all():  # success / failure runs: a resample's mean is Binomial(n, rate) / n
            boot[:, j] = rng.binomial(len(s), s.mean(), reps) / len(s)
        else:
            boot[:, j] = s[rng.integers(0, len(s), size=(reps, len(s)))].mean(axis=1)
    slopes = _boot_slopes(u, boot)
    lo_hi = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    return Fit(x, means, lo_hi[0], lo_hi[1], slope, intercept, *np.nanpercentile(slopes, [2.5, 97.5]),
               runs=sum(len(s) for s in samples), log_x=log_x)


def fit_paired(x: Sequence[float], matrix: np.ndarray, reps: int = REPS) -> Fit:
    """Slope of log(mean over rows) against log(x), where each row (an instance or a run) gives a value at every x:
    whole rows are resampled (MOL-TS's regret curve over its ten instances)."""
    x, matrix = np.asarray(x, float), np.asarray(matrix, float)
    u = np.log(x)
    means = matrix.mean(axis=0)
    slope, intercept = _ols(u, np.log(means))
    rng = np.random.default_rng(0)
    boot = matrix[rng.integers(0, len(matrix), size=(reps, len(matrix)))].mean(axis=1)
    slopes = _boot_slopes(u, boot)
    lo_hi = np.percentile(boot, [2.5, 97.5], axis=0)
    return Fit(x, means, lo_hi[0], lo_hi[1], slope, intercept, *np.nanpercentile(slopes, [2.5, 97.5]),
               runs=len(matrix))


def _boot_slopes(u: np.ndarray, boot: np.ndarray) -> np.ndarray:
    """OLS slopes of log(boot) rows against u (NaN for a resample with a non-positive mean)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(boot > 0, np.log(np.where(boot > 0, boot, 1.0)), np.nan)
    uc = u - u.mean()
    slopes = (logs - np.nanmean(logs, axis=1, keepdims=True)) @ uc / (uc @ uc)
    return np.where(np.isnan(logs).any(axis=1), np.nan, slopes)


def local_slope(x: Sequence[float], y: Sequence[float]) -> float:
    """Least-squares slope of log(y) against log(x): a bound's own slope over the points, its log factors included."""
    return _ols(np.log(np.asarray(x, float)), np.log(np.asarray(y, float)))[0]
