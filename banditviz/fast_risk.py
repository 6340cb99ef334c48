"""Compiled (numba) runs of the risk-averse algorithms for long runs (RAMGapE Sec. 4, Exp. 2, A13).

`fast_run` plays any algorithm of `banditviz.algorithms.risk_averse` with the same rules, tie-breaks and
floating-point expressions as the engine classes, and draws every arm's samples from the engine's own
per-arm streams (`Environment.draws`, several blocks at a time), so a fast run and
`banditviz.simulate.run` with the same seed agree pull for pull (tested on short runs). It records, at
requested sample counts ("checkpoints"), the empirical Pareto set and the sufficient statistics, instead
of a per-round trace: Experiment 2 (epsilon = 0) needs 10^7 - 3*10^7 samples per run.

Per round the kernel costs O(K^2) comparisons with early exit for D_hat plus O(K |D_hat|) for the gap
index (each Pareto arm scans every arm, each dominated arm only the Pareto arms), instead of the engine's
dense K x K matrices.

`play` is `banditviz.simulate.run`'s loop for runs without snapshots (sweeps, Compare, the CLI): the same kernel
also logs every pull and sample and D_hat where it changes, which is all a `Trace` needs (tested bit for bit).
`experiment2_trace` is the app-facing entry of Experiment 2: a `Trace` of snapshots only (no per-round arrays),
computed once and cached under ``~/.cache/banditviz``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba
import numpy as np
from scipy.stats import trim_mean

from . import limits, risk, simulate  # simulate plays runs through `play`: names read on use
from .algorithms.base import Problem, RoundState
from .algorithms.risk_averse import RALUCB, _RAMGapE
from .environment import BLOCK, Environment
from .instances import Instance, preset
from .trace import Trace

CODES = {"ramgape_b": 0, "ramgape_c": 0, "ra_round_robin": 1, "de_round_robin": 2, "lie_round_robin": 3,
         "ra_lucb": 4, "xi_lcb": 5, "hvi_pareto": 6, "egp": 7}
MAX_SAMPLES = 300_000_000  # safety cap of a fixed-confidence run (A13)
CHUNK_FLOATS = 1 << 21  # samples buffered across all arms (16 MB)
# kernel state slots
_T, _I, _QUEUE, _PENDING, _CP, _DONE, _NINIT, _LAST, _NCHG = range(9)


@numba.njit(cache=True)
def _pareto(mu, xi, K, seen, Dh, dlist):
    """D_hat over the arms with ``seen`` (strict dominance); its members in index order into dlist."""
    h = 0
    for i in range(K):
        ok = seen[i]
        if ok:
            for j in range(K):
                if seen[j] and mu[j] > mu[i] and xi[j] < xi[i]:
                    ok = False
                    break
        Dh[i] = ok
        if ok:
            dlist[h] = i
            h += 1
    return h


@numba.njit(cache=True)
def _gap_index(mu, xi, b, K, V, arg, Dh, dlist, seen):
    """Eq. 4 and 7 exactly as `risk_averse.gap_index` computes them (same expressions, same tie-breaks)."""
    h = _pareto(mu, xi, K, seen, Dh, dlist)
    for i in range(K):
        best_j = 0
        if Dh[i]:
            best = -np.inf
            for j in range(K):
                if j != i:
                    x = min((mu[j] + b[j]) - (mu[i] - b[i]), (xi[i] + b[i]) - (xi[j] - b[j]))
                    if x > best:
                        best, best_j = x, j
        else:
            best = np.inf
            for k in range(h):
                j = dlist[k]
                if mu[j] > mu[i] and xi[j] < xi[i]:
                    x = max((mu[i] + b[i]) - (mu[j] - b[j]), (xi[j] + b[j]) - (xi[i] - b[i]))
                    if x < best:
                        best, best_j = x, j
        V[i] = best
        arg[i] = best_j


@numba.njit(cache=True)
def _width(T, fc, K, delta, a):
    if fc:
        if T < 2:
            return np.inf
        lg = math.log2(T)
        return math.sqrt(4.0 / T * math.log(8.0 * K * lg * lg / delta))
    return math.sqrt(a / T)


@numba.njit(cache=True)
def _argmax(x, K):
    best, bi = x[0], 0
    for i in range(1, K):
        if x[i] > best:
            best, bi = x[i], i
    return bi


@numba.njit(cache=True)
def _select(code, K, eps, r_xi, st, mu, xi, beta, V, arg, Dh, work):
    """The adaptive choice of each algorithm (the `_choose` methods of the engine classes)."""
    if code == 0 or code == 4:  # RAMGapE / RA-LUCB
        m = _argmax(V, K)
        p = arg[m]
        if code == 4:
            st[_QUEUE] = p
            return m
        return m if beta[m] >= beta[p] else p
    if code == 1:  # Round-Robin
        return st[_T] % K
    if code == 2 or code == 3:  # DE / LIE Round-Robin
        skip = _argmax(-V, K)
        while True:
            arm = (st[_I] - 1) % K
            st[_I] += 1
            if (code == 2 and (Dh[arm] or V[arm] > eps)) or (code == 3 and arm != skip):
                return arm
    if code == 5:  # xi-LCB
        for i in range(K):
            work[i] = -(xi[i] - beta[i])
        return _argmax(work, K)
    if code == 6:  # HVI-Pareto
        d, d2 = -1, -1
        for i in range(K):
            hv = (mu[i] - 0.0) * (r_xi - xi[i])
            if Dh[i] and (d < 0 or hv < work[0]):
                d, work[0] = i, hv
            if not Dh[i] and (d2 < 0 or hv > work[1]):
                d2, work[1] = i, hv
        st[_QUEUE] = d2
        return d
    for i in range(K):  # EGP: argmax beta - V_hat
        if Dh[i]:
            v = -np.inf
            for j in range(K):
                if j != i:
                    v = max(v, min(mu[i] - mu[j], xi[j] - xi[i]))
        else:
            v = np.inf
            for j in range(K):
                if j != i:
                    v = min(v, max(mu[j] - mu[i], xi[i] - xi[j]))
        work[i] = beta[i] - v
    return _argmax(work, K)


@numba.njit(cache=True)
def _record(arm, x, K, mu, xi, seen, Dh, dlist, st, arms, samples, chg_t, chg_dh):
    """Log round st[_T]'s pull and sample, and D_hat if it changed (during initialisation the engine recomputes
    it from the seen arms every round: so here)."""
    t = st[_T]
    arms[t - 1] = arm
    samples[t - 1] = x
    if st[_NINIT] < K:
        _pareto(mu, xi, K, seen, Dh, dlist)
    c = st[_NCHG]
    changed = c == 0
    for i in range(K):
        if changed:
            break
        changed = Dh[i] != chg_dh[c - 1, i]
    if changed:
        chg_t[c] = t
        chg_dh[c] = Dh
        st[_NCHG] = c + 1


@numba.njit(cache=True, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(code, fc, K, init_pulls, cap, eps, delta, a, alph, rho, r_xi, n, s1, s2, mu, xi, beta, V, arg, Dh,
            dlist, seen, work, buf, pos, avail, st, cps, cp_front, cp_n, cp_s1, cp_s2, arms, samples, chg_t, chg_dh):
    """Run until the algorithm stops, ``cap`` samples, or an arm's buffer runs dry (returns 1; refill it).

    With ``arms`` as long as ``cap`` (else empty), also record every pull and sample, and D_hat (the engine's
    recommendation of every round) where it changes: round ``chg_t[c]`` starts ``chg_dh[c]``; returns 2 when
    the change log is full (grow it, call again)."""
    record = len(arms) > 0
    while st[_T] < cap and st[_DONE] == 0:
        if record and st[_NCHG] >= len(chg_t):
            return 2
        arm = st[_PENDING]
        if arm < 0:
            if st[_QUEUE] >= 0:
                arm = st[_QUEUE]
                st[_QUEUE] = -1
            elif st[_NINIT] < K:
                arm = 0
                for i in range(1, K):
                    if n[i] < n[arm]:
                        arm = i
            else:
                arm = _select(code, K, eps, r_xi, st, mu, xi, beta, V, arg, Dh, work)
        if pos[arm] >= avail[arm]:
            st[_PENDING] = arm
            return 1
        st[_PENDING] = -1
        x = buf[arm, pos[arm]]
        pos[arm] += 1
        n[arm] += 1
        s1[arm] += x
        s2[arm] += x * x
        T = n[arm]
        mean = s1[arm] / T
        var = max(s2[arm] / T - mean * mean, 0.0)
        mu[arm] = mean
        xi[arm] = alph * (var - rho * mean)
        beta[arm] = _width(T, fc, K, delta, a)
        seen[arm] = True
        st[_T] += 1
        st[_LAST] = arm
        if T == init_pulls:
            st[_NINIT] += 1
        if st[_NINIT] == K:
            _gap_index(mu, xi, beta, K, V, arg, Dh, dlist, seen)
            if fc and st[_QUEUE] < 0 and V[_argmax(V, K)] < eps:
                st[_DONE] = 1
        if record:
            _record(arm, x, K, mu, xi, seen, Dh, dlist, st, arms, samples, chg_t, chg_dh)
        while st[_CP] < len(cps) and (cps[st[_CP]] == st[_T] or st[_DONE] == 1):
            c = st[_CP]
            if st[_NINIT] < K:
                _pareto(mu, xi, K, seen, Dh, dlist)
            cp_front[c] = Dh
            cp_n[c] = n
            cp_s1[c] = s1
            cp_s2[c] = s2
            cps[c] = st[_T]
            st[_CP] += 1
            if st[_DONE] == 1:
                break
    return 0


@dataclass
class FastRun:
    """Result of `fast_run`: the final statistics and, per recorded checkpoint (sample count), D_hat and stats.

    If the algorithm stopped, the last recorded checkpoint is the stopping time (later ones are dropped).
    """

    instance: Instance
    algorithm: str
    params: dict[str, Any]
    seed: int
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

    @property
    def recommendation(self) -> tuple[int, ...]:
        seen = self.counts > 0
        mean = np.where(seen, self.sums / np.maximum(self.counts, 1), -np.inf)
        xi = np.where(seen, risk.xi_from_moments(mean, self.sumsq / np.maximum(self.counts, 1), self.instance.rho),
                      np.inf)
        return tuple(int(i) for i in np.flatnonzero(risk.pareto_mask(mean, xi) & seen))

    def simple_regret(self) -> np.ndarray:
        """r of D_hat at every recorded checkpoint (RAMGapE Eq. 2-3)."""
        P, delta = risk.truth(self.instance)
        return np.array([risk.regret_of_mask(f, P, delta) for f in self.fronts])


def _chunk(K: int, horizon: int) -> int:
    """Samples buffered per arm: a multiple of the engine's BLOCK, at most CHUNK_FLOATS over all arms."""
    return max(BLOCK, min(CHUNK_FLOATS // K, horizon + BLOCK) // BLOCK * BLOCK)


def supports(algorithm: str, kind: str) -> bool:
    """True when `play` runs ``algorithm`` on instances of ``kind``."""
    return algorithm in CODES and kind == "distributions"


def _drive(name: str, alg: Any, env: Environment, horizon: int, cps: np.ndarray, record: bool) -> tuple:
    """The kernel played for ``alg`` (reset) on ``env`` up to ``horizon`` samples: its state, the final statistics
    (n, s1, s2), the checkpoints' records and, with ``record``, the log (arms, samples, change rounds, D_hats)."""
    K, fc = env.instance.K, alg.regime == "confidence"
    C = cps.size
    n = np.zeros(K, dtype=np.int64)
    s1, s2, mu, xi = np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K)
    beta, V = np.full(K, np.inf), np.zeros(K)
    arg, dlist = np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.int64)
    Dh, seen = np.zeros(K, dtype=np.bool_), np.zeros(K, dtype=np.bool_)
    work = np.zeros(K)
    chunk = _chunk(K, horizon)
    buf = np.empty((K, chunk))
    pos, avail = np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.int64)
    st = np.array([0, 1, -1, -1, 0, 0, 0, -1, 0], dtype=np.int64)
    out = (np.zeros((C, K), dtype=np.bool_), np.zeros((C, K), dtype=np.int64), np.zeros((C, K)), np.zeros((C, K)))
    size = horizon if record else 0
    log = [np.empty(size, dtype=np.int64), np.empty(size), np.empty(min(size, 64), dtype=np.int64),
           np.zeros((min(size, 64), K), dtype=np.bool_)]
    a = 0.0 if fc else float(alg.a)
    delta = float(alg.delta) if fc else 1.0
    while code := _kernel(CODES[name], fc, K, alg.init_pulls, horizon, float(alg.eps), delta, a, alg.alpha,
                          alg.rho, risk.hvi_reference(alg.rho)[1], n, s1, s2, mu, xi, beta, V, arg, Dh, dlist, seen,
                          work, buf, pos, avail, st, cps, *out, *log):
        if code == 2:  # the change log is full: twice as long
            log[2] = np.concatenate([log[2], np.empty_like(log[2])])
            log[3] = np.concatenate([log[3], np.zeros_like(log[3])])
            continue
        arm = int(st[_PENDING])
        size = min(chunk, 2 * avail[arm] or BLOCK)  # doubling refills: short runs draw little
        buf[arm, :size] = env.draws(arm, size)[:, 0]
        pos[arm], avail[arm] = 0, size
    return st, (n, s1, s2), out, log


def fast_run(instance: Instance, algorithm: str, horizon: int, seed: int = 0,
             checkpoints: np.ndarray | list[int] | None = None, **params: Any) -> FastRun:
    """Play ``algorithm`` for at most ``horizon`` samples (the fixed-budget n / fixed-confidence cap).

    ``checkpoints``: sample counts (1..horizon) at which to record D_hat and the statistics; the stopping
    time is always recorded when a fixed-confidence algorithm stops.
    """
    spec = simulate.resolve(algorithm, instance)
    if spec.name not in CODES:
        raise ValueError(f"algorithm: fast runs support {sorted(CODES)}, not {spec.name!r}")
    horizon = limits.check_int("horizon", horizon, 1, MAX_SAMPLES)
    seed = limits.check_int("seed", seed, 0, limits.MAX_SEED)
    p = spec.validate(params)
    alg = spec.make(**params)
    env = Environment(instance, seed)
    alg.reset(simulate.make_problem(instance, horizon, None), env.policy_rng)  # validates rho, a, the regime
    cps = np.unique(np.asarray([] if checkpoints is None else checkpoints, dtype=np.int64))
    if cps.size and (cps[0] < 1 or cps[-1] > horizon):
        raise ValueError(f"checkpoints: must lie in [1, horizon = {horizon}]")
    st, (n, s1, s2), out, _ = _drive(spec.name, alg, env, horizon, cps, record=False)
    done = int(st[_CP])
    return FastRun(instance=instance, algorithm=spec.name, params=p, seed=seed, samples=int(st[_T]),
                   stopped=bool(st[_DONE]), counts=n, sums=s1, sumsq=s2, last_arm=int(st[_LAST]),
                   checkpoints=cps[:done], fronts=out[0][:done], cp_counts=out[1][:done], cp_sums=out[2][:done],
                   cp_sumsq=out[3][:done])


def play(alg: Any, env: Environment, horizon: int) -> tuple[np.ndarray, np.ndarray, list[tuple[int, tuple]]]:
    """A run of ``alg`` (a reset risk-averse algorithm that `supports`) without snapshots, for `simulate.run`: the
    arms and samples of every round and the recommendation changes ``(first round, D_hat)``, as the engine's
    round-by-round loop gives them (tested bit for bit). Leaves ``alg.done`` and ``alg.recommendation`` as that
    loop would; the rest of ``alg``'s state is not kept (no snapshots are drawn from it)."""
    st, _, _, (arms, samples, chg_t, chg_dh) = _drive(alg.spec.name, alg, env, horizon, np.empty(0, np.int64),
                                                      record=True)
    t, c = int(st[_T]), int(st[_NCHG])
    changes = [(int(chg_t[i]), tuple(int(a) for a in np.flatnonzero(chg_dh[i]))) for i in range(c)]
    alg.done = bool(st[_DONE])
    alg.recommendation = changes[-1][1] if changes else None
    return arms[:t], samples[:t, None], changes


# ---------------------------------------------------------------------- snapshots and Experiment 2
def state_from_stats(instance: Instance, algorithm: str, t: int, counts: np.ndarray, sums: np.ndarray,
                     sumsq: np.ndarray, pulled: int | None = None, horizon: int = MAX_SAMPLES,
                     **params: Any) -> RoundState:
    """The engine's `RoundState` for given sufficient statistics (snapshots of fast runs).

    m_t / p_t are the pair the next selection would use (the fast kernel does not record the past pair).
    """
    spec = simulate.resolve(algorithm, instance)
    alg = spec.make(**params)
    problem: Problem = simulate.make_problem(instance, horizon, None)
    alg.reset(problem, np.random.default_rng(0))
    alg.stats.counts[:] = counts
    alg.stats.sums[:, 0], alg.stats.sumsq[:, 0] = sums, sumsq
    seen = counts > 0
    mean = np.where(seen, sums / np.maximum(counts, 1), np.nan)
    alg.mu, alg.xi = mean, risk.xi_from_moments(mean, sumsq / np.maximum(counts, 1), instance.rho)
    alg.beta = np.array([alg.width(int(c)) for c in counts])
    alg._refresh()
    alg.t, alg.last = t, pulled
    alg.recommendation = tuple(int(i) for i in np.flatnonzero(alg.Dh))
    if alg.initialised and isinstance(alg, _RAMGapE | RALUCB):
        alg._pair()
    return alg.state()


def geometric_checkpoints(first: int, last: int, n: int) -> np.ndarray:
    """About ``n`` distinct sample counts spaced geometrically between ``first`` and ``last``."""
    return np.unique(np.geomspace(first, last, n).round().astype(np.int64))


EXP2_PATTERNS = (10, 46)
EXP2_ALGORITHMS = ("ramgape_c", "ra_lucb", "de_round_robin", "ra_round_robin")


SHIPPED_DIR = Path(__file__).parent / "presets" / "risk_averse_exp2"  # small precomputed traces in the repo


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
