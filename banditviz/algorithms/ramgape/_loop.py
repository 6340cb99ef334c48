"""Compiled (numba) round loop of the risk-averse algorithms (`banditviz.algorithms.ramgape.learners`, RAMGapE Sec. 3):
their `Loop`.

The kernel plays any of them with the same rules, tie-breaks and floating-point expressions as the engine classes,
and draws every arm's samples from the engine's own per-arm streams (`banditviz.rewards.RewardBuffer`), so it and
the round-by-round engine agree pull for pull (tested). `RiskLoop.record` records, at
requested sample counts ("checkpoints"), the empirical Pareto set and the sufficient statistics instead of a
per-round log: RAMGapE's Experiment 2 (epsilon = 0) needs 10^7 - 3*10^7 samples per run
(`banditviz.experiments.ramgape`).

Per round the kernel costs O(K^2) comparisons with early exit for D_hat plus O(K |D_hat|) for the gap
index (each Pareto arm scans every arm, each dominated arm only the Pareto arms), instead of the engine's
dense K x K matrices.

`RiskLoop.play` is `banditviz.simulate.run`'s loop for runs without snapshots (sweeps, Compare, the CLI): the same
kernel also logs every pull and sample and D_hat where it changes, which is all a `Trace` needs (tested bit for bit).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from ...pareto.mean_variance import hvi_reference
from ..base import Algorithm, Played
from .core import Checkpoints

# the kernel's rules, one per learner (RAMGapEb and RAMGapEc share one)
RAMGAPE_RULE, ROUND_ROBIN_RULE, DE_ROUND_ROBIN_RULE, LIE_ROUND_ROBIN_RULE, RA_LUCB_RULE, XI_LCB_RULE, HVI_RULE, \
    EGP_RULE = range(8)
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


def _drive(code: int, alg: Algorithm, rewards: Any, horizon: int, cps: np.ndarray, record: bool) -> tuple:
    """The kernel played for ``alg`` (reset) up to ``horizon`` samples: its state, the final statistics (n, s1, s2),
    the checkpoints' records and, with ``record``, the log (arms, samples, change rounds, D_hats)."""
    K, fc = alg.K, alg.regime == "confidence"
    C = cps.size
    n = np.zeros(K, dtype=np.int64)
    s1, s2, mu, xi = np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K)
    beta, V = np.full(K, np.inf), np.zeros(K)
    arg, dlist = np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.int64)
    Dh, seen = np.zeros(K, dtype=np.bool_), np.zeros(K, dtype=np.bool_)
    work = np.zeros(K)
    buf, pos, avail = rewards.buf[:, :, 0], rewards.pos, rewards.avail
    st = np.array([0, 1, -1, -1, 0, 0, 0, -1, 0], dtype=np.int64)
    out = (np.zeros((C, K), dtype=np.bool_), np.zeros((C, K), dtype=np.int64), np.zeros((C, K)), np.zeros((C, K)))
    size = horizon if record else 0
    log = [np.empty(size, dtype=np.int64), np.empty(size), np.empty(min(size, 64), dtype=np.int64),
           np.zeros((min(size, 64), K), dtype=np.bool_)]
    a = 0.0 if fc else float(alg.a)
    delta = float(alg.delta) if fc else 1.0
    while why := _kernel(code, fc, K, alg.init_pulls, horizon, float(alg.eps), delta, a, alg.alpha,
                          alg.rho, hvi_reference(alg.rho)[1], n, s1, s2, mu, xi, beta, V, arg, Dh, dlist, seen,
                          work, buf, pos, avail, st, cps, *out, *log):
        if why == 2:  # the change log is full: twice as long
            log[2] = np.concatenate([log[2], np.empty_like(log[2])])
            log[3] = np.concatenate([log[3], np.zeros_like(log[3])])
            continue
        rewards.refill(int(st[_PENDING]))
    return st, (n, s1, s2), out, log


class RiskLoop:
    """The `Loop` of one risk-averse algorithm (``code``: one of the ``*_RULE`` constants): runs without snapshots."""

    compiled = True

    def __init__(self, code: int) -> None:
        self.code = code

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind == "distributions" and snapshots == 0

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """The arms and samples of every round and the recommendation changes ``(first round, D_hat)``. Leaves
        ``alg.done`` and ``alg.recommendation`` as the round-by-round loop would; the rest of ``alg``'s state is not
        kept (no snapshots are drawn from it)."""
        st, _, _, (arms, samples, chg_t, chg_dh) = _drive(self.code, alg, rewards, horizon, np.empty(0, np.int64),
                                                          record=True)
        t, c = int(st[_T]), int(st[_NCHG])
        changes = [(int(chg_t[i]), tuple(int(a) for a in np.flatnonzero(chg_dh[i]))) for i in range(c)]
        alg.done = bool(st[_DONE])
        alg.recommendation = changes[-1][1] if changes else None
        return Played(arms[:t], samples[:t, None], [], changes)

    def record(self, alg: Algorithm, rewards: Any, horizon: int, checkpoints: np.ndarray) -> Checkpoints:
        """``alg`` (reset) played for at most ``horizon`` samples, recording D_hat and the statistics at
        ``checkpoints`` (distinct sample counts in [1, horizon], ascending) instead of a per-round log."""
        st, (n, s1, s2), out, _ = _drive(self.code, alg, rewards, horizon, checkpoints, record=False)
        done = int(st[_CP])
        return Checkpoints(samples=int(st[_T]), stopped=bool(st[_DONE]), counts=n, sums=s1, sumsq=s2,
                           last_arm=int(st[_LAST]), checkpoints=checkpoints[:done], fronts=out[0][:done],
                           cp_counts=out[1][:done], cp_sums=out[2][:done], cp_sumsq=out[3][:done])
