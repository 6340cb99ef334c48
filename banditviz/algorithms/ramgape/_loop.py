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

`RiskLoop.play` is `banditviz.simulate.run`'s loop: the same kernel also logs every pull and sample and D_hat where
it changes, which is all a `Trace` without snapshots needs (sweeps, Compare, the CLI). With snapshots (Watch), the
class plays the snapshot rounds itself: brought to the kernel's state (`_RiskAverse.resume`: the statistics, from
which it recomputes what its ``update`` computes with the same expressions, the last arm, the queued arm and the
round-robin counter), it plays the round and draws its `RoundState`, and the kernel takes the class's state back.
The round the algorithm stops in is known only once played: the kernel keeps the state slots and the pulled arm's
statistics from before each round, takes that round back (its sample back into the buffer) and the class plays it.
Hence the same `Trace` bit for bit, snapshots included (tested on every algorithm, regime and stop).
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
            dlist, seen, work, buf, pos, avail, st, prev, prevf, cps, cp_front, cp_n, cp_s1, cp_s2, arms, samples,
            chg_t, chg_dh):
    """Run until the algorithm stops, ``cap`` samples, or an arm's buffer runs dry (returns 1; refill it).
    ``prev`` and ``prevf`` keep the state slots and the pulled arm's statistics (s1, s2, mu, xi, beta) as they were
    before the last round (`_Run.undo`).

    With ``arms`` as long as ``cap`` (else empty), also record every pull and sample, and D_hat (the engine's
    recommendation of every round) where it changes: round ``chg_t[c]`` starts ``chg_dh[c]``; returns 2 when
    the change log is full (grow it, call again)."""
    record = len(arms) > 0
    while st[_T] < cap and st[_DONE] == 0:
        if record and st[_NCHG] >= len(chg_t):
            return 2
        arm = st[_PENDING]
        if arm < 0:
            prev[:] = st
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
        prevf[0], prevf[1], prevf[2], prevf[3], prevf[4] = s1[arm], s2[arm], mu[arm], xi[arm], beta[arm]
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


class _Run:
    """The kernel's arrays for one run of ``alg`` (reset) on ``rewards`` of at most ``horizon`` samples: statistics,
    index, state slots, the checkpoints' records and, with ``record``, the log (arms, samples, change rounds,
    D_hats)."""

    def __init__(self, code: int, alg: Algorithm, rewards: Any, horizon: int, cps: np.ndarray, record: bool) -> None:
        K, C = alg.K, cps.size
        self.code, self.alg, self.rewards, self.cps = code, alg, rewards, cps
        self.n = np.zeros(K, dtype=np.int64)
        self.s1, self.s2, self.mu, self.xi = np.zeros(K), np.zeros(K), np.zeros(K), np.zeros(K)
        self.beta, self.V = np.full(K, np.inf), np.zeros(K)
        self.arg, self.dlist = np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.int64)
        self.Dh, self.seen = np.zeros(K, dtype=np.bool_), np.zeros(K, dtype=np.bool_)
        self.work = np.zeros(K)
        self.st = np.array([0, 1, -1, -1, 0, 0, 0, -1, 0], dtype=np.int64)
        self.prev, self.prevf = self.st.copy(), np.zeros(5)
        self.out = (np.zeros((C, K), dtype=np.bool_), np.zeros((C, K), dtype=np.int64), np.zeros((C, K)),
                    np.zeros((C, K)))
        size = horizon if record else 0
        self.log = [np.empty(size, dtype=np.int64), np.empty(size), np.empty(min(size, 64), dtype=np.int64),
                    np.zeros((min(size, 64), K), dtype=np.bool_)]

    def play(self, cap: int) -> None:
        """The kernel played until the algorithm stops or ``cap`` samples."""
        alg, fc, rewards = self.alg, self.alg.regime == "confidence", self.rewards
        a = 0.0 if fc else float(alg.a)
        delta = float(alg.delta) if fc else 1.0
        while why := _kernel(self.code, fc, alg.K, alg.init_pulls, cap, float(alg.eps), delta, a, alg.alpha,
                              alg.rho, hvi_reference(alg.rho)[1], self.n, self.s1, self.s2, self.mu, self.xi,
                              self.beta, self.V, self.arg, self.Dh, self.dlist, self.seen, self.work,
                              rewards.buf[:, :, 0], rewards.pos, rewards.avail, self.st, self.prev, self.prevf,
                              self.cps, *self.out, *self.log):
            if why == 2:  # the change log is full: twice as long
                self._grow()
                continue
            rewards.refill(int(self.st[_PENDING]))

    def _grow(self) -> None:
        self.log[2] = np.concatenate([self.log[2], np.empty_like(self.log[2])])
        self.log[3] = np.concatenate([self.log[3], np.zeros_like(self.log[3])])

    def undo(self) -> int:
        """Take back the kernel's last round (its sample back into the buffer: nothing refilled it since); returns
        that round."""
        t, arm = int(self.st[_T]), int(self.st[_LAST])
        self.rewards.pos[arm] -= 1
        self.n[arm] -= 1
        self.s1[arm], self.s2[arm], self.mu[arm], self.xi[arm], self.beta[arm] = self.prevf
        self.seen[arm] = self.n[arm] > 0
        self.st[:] = self.prev
        return t

    def to_class(self) -> None:
        """``alg`` as the round-by-round engine leaves it after the rounds the kernel played (`resume`)."""
        st = self.st
        t = int(st[_T])
        self.alg.resume(t, self.n, self.s1, self.s2, int(st[_LAST]) if t else None, int(st[_QUEUE]), int(st[_I]))

    def from_class(self, t: int, arm: int, sample: float) -> None:
        """The kernel's arrays and log after round ``t``, played by ``alg`` itself (pulled ``arm``, got ``sample``)."""
        alg, st = self.alg, self.st
        self.n[arm], self.s1[arm], self.s2[arm] = alg.stats.counts[arm], alg.stats.sums[arm, 0], alg.stats.sumsq[arm, 0]
        self.mu[arm], self.xi[arm], self.beta[arm], self.seen[arm] = alg.mu[arm], alg.xi[arm], alg.beta[arm], True
        self.V[:], self.arg[:], self.Dh[:] = alg.V, alg.arg, alg.Dh
        st[_T], st[_LAST], st[_PENDING], st[_DONE] = t, arm, -1, alg.done
        st[_NINIT] = np.count_nonzero(self.n >= alg.init_pulls)
        st[_QUEUE] = alg.queue[0] if alg.queue else -1
        st[_I] = getattr(alg, "I", st[_I])
        arms, samples, chg_t, chg_dh = self.log
        arms[t - 1], samples[t - 1] = arm, sample
        c = int(st[_NCHG])
        if c == 0 or not np.array_equal(chg_dh[c - 1], self.Dh):
            if c == len(chg_t):
                self._grow()
            self.log[2][c], self.log[3][c] = t, self.Dh
            st[_NCHG] = c + 1


class RiskLoop:
    """The `Loop` of one risk-averse algorithm (``code``: one of the ``*_RULE`` constants): any number of snapshots."""

    compiled = True

    def __init__(self, code: int) -> None:
        self.code = code

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind == "distributions"

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """The arms and samples of every round, the recommendation changes ``(first round, D_hat)`` and the
        snapshots. The rounds of ``snap_at`` and, when there are snapshots, the round the algorithm stops in are
        played by ``alg`` itself and followed by ``alg.state()``: the kernel plays up to the round before, ``alg`` is
        brought to the kernel's state (`resume`), plays the round, and the kernel takes its state back. The stopping
        round, known only once played, is played by the kernel, taken back (`_Run.undo`) and played again by ``alg``.
        Leaves ``alg.done`` and ``alg.recommendation`` as the round-by-round loop would; the rest of ``alg``'s state
        is that of the last round it played."""
        run = _Run(self.code, alg, rewards, horizon, np.empty(0, np.int64), record=True)
        states = []
        for stop in [*snap_at.tolist(), horizon + 1]:
            run.play(stop - 1)
            if run.st[_DONE]:
                if not len(snap_at):
                    break
                stop = run.undo()
            elif stop > horizon:
                break
            run.to_class()
            arm = int(alg.select(stop))
            sample = rewards.take(arm)
            alg.update(arm, sample)
            states.append(alg.state())
            run.from_class(stop, arm, float(sample[0]))
            if alg.done:
                break
        arms, samples, chg_t, chg_dh = run.log
        t, c = int(run.st[_T]), int(run.st[_NCHG])
        changes = [(int(chg_t[i]), tuple(int(a) for a in np.flatnonzero(chg_dh[i]))) for i in range(c)]
        alg.done = bool(run.st[_DONE])
        alg.recommendation = changes[-1][1] if changes else None
        return Played(arms[:t], samples[:t, None], states, changes)

    def record(self, alg: Algorithm, rewards: Any, horizon: int, checkpoints: np.ndarray) -> Checkpoints:
        """``alg`` (reset) played for at most ``horizon`` samples, recording D_hat and the statistics at
        ``checkpoints`` (distinct sample counts in [1, horizon], ascending) instead of a per-round log."""
        run = _Run(self.code, alg, rewards, horizon, checkpoints, record=False)
        run.play(horizon)
        st, out = run.st, run.out
        done = int(st[_CP])
        return Checkpoints(samples=int(st[_T]), stopped=bool(st[_DONE]), counts=run.n, sums=run.s1, sumsq=run.s2,
                           last_arm=int(st[_LAST]), checkpoints=checkpoints[:done], fronts=out[0][:done],
                           cp_counts=out[1][:done], cp_sums=out[2][:done], cp_sumsq=out[3][:done])
