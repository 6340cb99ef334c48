"""RAMGapE's experiments beyond `simulate.run`'s traces (RAMGapE Sec. 4): runs of up to `MAX_SAMPLES` samples.

* `fast_run`: a run in the compiled loop of the risk-averse algorithms (the `record` of their loop) that keeps, at
  requested sample counts ("checkpoints"), the empirical Pareto set and the sufficient statistics instead of a
  per-round trace: Experiment 2 (epsilon = 0) needs 10^7 - 3*10^7 samples per run. A fast run and `simulate.run`
  with the same seed agree pull for pull (tested on short runs).
* `experiment2_trace`: the app-facing entry of Experiment 2, a `Trace` of snapshots only (no per-round arrays),
  shipped or computed once and cached under ``~/.cache/banditviz``; `state_from_stats` draws its snapshots.
* `regret_curves`: the per-trial simple regret of Experiments 3 and 4.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import trim_mean

from .. import limits, simulate
from ..algorithms.base import ALGORITHMS, RoundState
from ..algorithms.ramgape.core import Checkpoints
from ..environment import Environment
from ..instances import Instance, preset
from ..pareto import mean_variance
from ..rewards import RewardBuffer
from ..trace import Trace

MAX_SAMPLES = 300_000_000  # safety cap of a fixed-confidence run (A13)


@dataclass(kw_only=True)
class FastRun(Checkpoints):
    """Result of `fast_run`: what the compiled loop recorded (the final statistics and, per checkpoint reached, D_hat
    and the statistics; the stopping time is the last checkpoint when the algorithm stopped) and what it ran."""

    instance: Instance
    algorithm: str
    params: dict[str, Any]
    seed: int

    @property
    def recommendation(self) -> tuple[int, ...]:
        seen = self.counts > 0
        mean = np.where(seen, self.sums / np.maximum(self.counts, 1), -np.inf)
        second = self.sumsq / np.maximum(self.counts, 1)
        xi = np.where(seen, mean_variance.xi_from_moments(mean, second, self.instance.rho), np.inf)
        return tuple(int(i) for i in np.flatnonzero(mean_variance.pareto_mask(mean, xi) & seen))

    def simple_regret(self) -> np.ndarray:
        """r of D_hat at every recorded checkpoint (RAMGapE Eq. 2-3)."""
        P, delta = mean_variance.truth(self.instance)
        return np.array([mean_variance.regret_of_mask(f, P, delta) for f in self.fronts])



def fast_run(instance: Instance, algorithm: str, horizon: int, seed: int = 0,
             checkpoints: np.ndarray | list[int] | None = None, **params: Any) -> FastRun:
    """Play ``algorithm`` for at most ``horizon`` samples (the fixed-budget n / fixed-confidence cap).

    ``checkpoints``: sample counts (1..horizon) at which to record D_hat and the statistics; the stopping
    time is always recorded when a fixed-confidence algorithm stops.
    """
    spec = simulate.resolve(algorithm, instance)
    if not hasattr(spec.loop, "record"):
        able = sorted(name for name, s in ALGORITHMS.items() if hasattr(s.loop, "record"))
        raise ValueError(f"algorithm: fast runs support {able}, not {spec.name!r}")
    horizon = limits.check_int("horizon", horizon, 1, MAX_SAMPLES)
    seed = limits.check_int("seed", seed, 0, limits.MAX_SEED)
    p = spec.validate(params)
    alg = spec.make(**params)
    env = Environment(instance, seed)
    alg.reset(simulate.make_problem(instance, horizon, None), env.policy_rng)  # validates rho, a, the regime
    cps = np.unique(np.asarray([] if checkpoints is None else checkpoints, dtype=np.int64))
    if cps.size and (cps[0] < 1 or cps[-1] > horizon):
        raise ValueError(f"checkpoints: must lie in [1, horizon = {horizon}]")
    reached = spec.loop.record(alg, RewardBuffer(env, horizon, expected=1), horizon, cps)
    return FastRun(instance=instance, algorithm=spec.name, params=p, seed=seed, **vars(reached))



# ---------------------------------------------------------------------- snapshots and Experiment 2
def state_from_stats(instance: Instance, algorithm: str, t: int, counts: np.ndarray, sums: np.ndarray,
                     sumsq: np.ndarray, pulled: int | None = None, horizon: int = MAX_SAMPLES,
                     **params: Any) -> RoundState:
    """The engine's `RoundState` for given sufficient statistics (snapshots of fast runs).

    m_t / p_t are the pair the next selection would use (the fast kernel does not record the past pair).
    """
    spec = simulate.resolve(algorithm, instance)
    alg = spec.make(**params)
    alg.reset(simulate.make_problem(instance, horizon, None), np.random.default_rng(0))
    alg.restore(t, counts, sums, sumsq, pulled)
    return alg.state()


def geometric_checkpoints(first: int, last: int, n: int) -> np.ndarray:
    """About ``n`` distinct sample counts spaced geometrically between ``first`` and ``last``."""
    return np.unique(np.geomspace(first, last, n).round().astype(np.int64))


EXP2_PATTERNS = (10, 46)
EXP2_ALGORITHMS = ("ramgape_c", "ra_lucb", "de_round_robin", "ra_round_robin")


SHIPPED_DIR = Path(__file__).parent / "ramgape_exp2"  # small precomputed traces in the repo


def cache_dir() -> Path:
    return Path(os.environ.get("BANDITVIZ_CACHE", Path.home() / ".cache" / "banditviz"))


def experiment2_filename(pattern: int, algorithm: str, seed: int, snapshots: int, cap: int) -> str:
    return f"risk_exp2_p{pattern}_{algorithm}_s{seed}_n{snapshots}_cap{cap}.npz"


def experiment2_trace(pattern: int = 46, algorithm: str = "ramgape_c", seed: int = 1, snapshots: int = 200,
                      cap: int = MAX_SAMPLES, refresh: bool = False) -> Trace:
    """Experiment 2 (epsilon = 0, delta = 0.05, rho = 0.01) on Table 3 pattern 10 or 46, as snapshots.

    Read from `SHIPPED_DIR` (RAMGapEc's two default traces are committed there, written by
    ``benchmarks/precompute_experiment2.py --ship``) or from `cache_dir()`; otherwise computed with `fast_run`
    (10^7 - 5*10^7 samples: seconds to a minute of CPU) and cached there. The `Trace` has no per-round
    arrays, ``stopped_at`` is the stopping time and ``info`` holds the simple regret at each snapshot.
    """
    if pattern not in EXP2_PATTERNS:
        raise ValueError(f"pattern: Experiment 2 uses patterns {list(EXP2_PATTERNS)}, got {pattern!r}")
    if algorithm not in EXP2_ALGORITHMS:
        raise ValueError(f"algorithm: Experiment 2 compares {list(EXP2_ALGORITHMS)}, got {algorithm!r}")
    name = experiment2_filename(pattern, algorithm, seed, snapshots, cap)
    path = cache_dir() / name
    for found in (SHIPPED_DIR / name, path):
        if found.exists() and not refresh:
            return Trace.load(found)
    inst = preset("risk_averse_table3", pattern=pattern)
    params: dict[str, Any] = {"epsilon": 0.0}
    cps = geometric_checkpoints(2 * inst.K, cap, snapshots - 1)
    run = fast_run(inst, algorithm, cap, seed, cps, **params)
    states = [state_from_stats(inst, algorithm, int(t), c, s, q, **params)
              for t, c, s, q in zip(run.checkpoints, run.cp_counts, run.cp_sums, run.cp_sumsq, strict=True)]
    states[-1].pulled = run.last_arm
    trace = Trace(instance=inst, algorithm=algorithm, params=run.params, seed=seed, horizon=cap,
                  arms=np.zeros(0, dtype=np.int64), rewards=np.zeros((0, 1)), metrics={}, snapshots=states,
                  recommendation=run.recommendation, stopped_at=run.samples if run.stopped else None,
                  info={"experiment": 2, "pattern": pattern, "samples": run.samples, "fast_run": True,
                        "snapshot_simple_regret": run.simple_regret()})
    path.parent.mkdir(parents=True, exist_ok=True)
    trace.save(path)
    return trace


# ---------------------------------------------------------------------- experiment helpers
@dataclass
class RegretCurves:
    """Per-trial simple regret on a grid of sample counts (Experiments 3 and 4) and final pull counts."""

    t: np.ndarray
    regret: np.ndarray  # (trials, len(t))
    counts: np.ndarray  # (trials, K) at n

    def trimmed(self) -> np.ndarray:
        """The paper's average: per-round 25%-trimmed mean across trials (l.188)."""
        return trim_mean(self.regret, 0.25, axis=0)

    def auc(self, K: int) -> float:
        """100 x sum of the trimmed curve over the grid points t > 2K (our AUC summary of RAMGapE Sec. 4)."""
        return float(100 * self.trimmed()[self.t > 2 * K].sum())

    def pareto_share(self, pareto: tuple[int, ...]) -> float:
        """Mean fraction of the n samples spent on D+ (l.208)."""
        return float((self.counts[:, list(pareto)].sum(axis=1) / self.counts.sum(axis=1)).mean())


def regret_curves(instance: Instance, algorithm: str, n: int, seeds: range | list[int], step: int = 100,
                  **params: Any) -> RegretCurves:
    """Fixed-budget runs of n samples, one per seed, with the simple regret every ``step`` samples."""
    grid = np.arange(step, n + 1, step)
    runs = [fast_run(instance, algorithm, n, seed, grid, **params) for seed in seeds]
    return RegretCurves(grid, np.array([r.simple_regret() for r in runs]), np.array([r.counts for r in runs]))
