"""Estimated Pareto fronts of runs and their empirical attainment surfaces across seeds.

The estimated front of a run (our decision, the same for every algorithm so that algorithms compare on one
footing): at the end of the run, the sample mean of each pulled arm's observed reward vectors, and among those
the vectors no other one Pareto-dominates. It is defined for instances whose arms keep their means (kinds
``means`` and ``linear``; contextual arms change every round, and risk-averse arms observe one scalar).

Across n runs, the k-attainment surface is the boundary of the objective vectors that at least k of the n
estimated fronts weakly dominate; the p% surface takes k = ceil(n p / 100) (Fonseca, Guerreiro, Lopez-Ibanez &
Paquete, "On the computation of the empirical attainment function", EMO 2011, Section 2; computed by moocore).
The 50% surface is the median front, the 25% and 75% surfaces bound the middle half of the runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import moocore
import numpy as np

from .instances import Instance
from .simulate import run
from .trace import Trace

FRONT_KINDS = ("means", "linear")
PERCENTILES = (25, 50, 75)


def has_estimated_front(instance: Instance) -> bool:
    return instance.kind in FRONT_KINDS


def final_estimates(trace: Trace) -> np.ndarray:
    """(K, L) sample means of each arm's rewards over the run; rows of arms never pulled are NaN."""
    if not has_estimated_front(trace.instance):
        raise ValueError(f"instance: estimated fronts need kind {' or '.join(FRONT_KINDS)}, "
                         f"got {trace.instance.kind!r}")
    K = trace.instance.K
    counts = np.bincount(trace.arms, minlength=K).astype(float)
    sums = np.zeros((K, trace.rewards.shape[1]))
    np.add.at(sums, trace.arms, trace.rewards)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sums / counts[:, None]


def estimated_front(trace: Trace) -> np.ndarray:
    """(n, L) final estimates of the pulled arms that no other pulled arm's estimate Pareto-dominates."""
    est = final_estimates(trace)
    est = est[~np.isnan(est).any(axis=1)]
    if est.shape[0] == 0:
        return est
    return est[moocore.is_nondominated(est, maximise=True, keep_weakly=True)]


def run_fronts(instance: Instance, algorithms: Iterable[tuple[str, dict]], seeds: Sequence[int],
               horizon: int) -> dict[str, list[np.ndarray]]:
    """The estimated front of every (algorithm, seed) run (same runs as a sweep: same seeds, same noise)."""
    if not has_estimated_front(instance):
        raise ValueError(f"instance: estimated fronts need kind {' or '.join(FRONT_KINDS)}, got {instance.kind!r}")
    return {name: [estimated_front(run(instance, name, horizon, seed, snapshots=0, **params)) for seed in seeds]
            for name, params in algorithms}


def attainment_surfaces(fronts: Sequence[np.ndarray], percentiles: Sequence[float] = PERCENTILES
                        ) -> dict[float, np.ndarray]:
    """Per percentile p, the points (maximised) of the p% attainment surface of ``fronts`` (one per run).

    A surface's points are mutually non-dominated; the vectors they weakly dominate are exactly those that
    at least ceil(n p / 100) of the n fronts weakly dominate.
    """
    fronts = [np.asarray(f, dtype=float) for f in fronts]
    if not fronts or any(f.ndim != 2 or f.shape[0] == 0 for f in fronts) or len({f.shape[1] for f in fronts}) != 1:
        raise ValueError("fronts: give one non-empty (n, L) array per run, all with the same L")
    if any(not 0 < p <= 100 for p in percentiles):
        raise ValueError(f"percentiles: each must be in (0, 100], got {list(percentiles)}")
    sets = np.repeat(np.arange(1, len(fronts) + 1), [f.shape[0] for f in fronts])
    eaf = moocore.eaf(-np.vstack(fronts), sets, percentiles=list(percentiles))  # moocore minimises
    return {p: -eaf[eaf[:, -1] == p, :-1] for p in percentiles}
