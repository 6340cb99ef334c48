"""Compiled (numba) round loop of PFIwR on fixed-mean instances (`learners.PFIwR`): its `Loop`.

On one-hot contexts the PFIwR estimate is per arm, y_hat_k = B_k / (n_k + p lambda_t) (PFIwR Sec. 5), so a round
costs O(K^2 L) (the dominance matrix of the classification) and nothing grows with t: the kernel keeps the pull
counts and per-arm reward sums of the class's own arrays (rank-one, here one-entry, updates) and plays

* the policy's draws (``integers`` over the undetermined arms or the empirical front) from the run's policy
  `Generator` and the estimator's ``binomial`` drop count from the class's own estimator `Generator`, both
  called by numba with numpy's algorithms on the same bit-generator state, in the class's order;
* the rewards from the engine's per-arm streams (`banditviz.rewards.RewardBuffer`);
* the per-round constants (p lambda_t, beta_t, (1 - p)^rho_t) from the class's own Python functions,
  computed ahead in doubling stretches, so the floats are the same;
* the classification of Algorithm 1 step 2 when nothing changes (statuses of the candidates, the empirical
  front of A U P), with the same float expressions as `core.classify` and `dominance_matrix`.

A round in which some rounds are dropped (probability about delta / (6 t^2)), in which an arm is eliminated or
accepted (at most K per run: events are sentences), or that is a snapshot round, is finished by the class
itself (`PFIwR.estimate`, `PFIwR.classify`, or the whole round): `simulate.run` returns the same `Trace` bit
for bit with or without this loop (tested).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from .._kernels import pick
from ..base import ACTIVE, CANDIDATE, Algorithm, Played, RoundState
from .core import beta_t, lambda_t, rho_t

RULES = {"uniform_front": 0, "round_robin_front": 1, "least_pulled_front": 2}
# kernel state slots: next round, arm chosen but not yet pulled (-1: none), dropped rounds, round-robin counter,
# sizes of A, of A U P and of the empirical front, whether the pending pull explores
_T, _PENDING, _DROPS, _RR, _NA, _NCAND, _NFRONT, _NPREV = range(8)
_STOP, _REFILL, _CONSTANTS, _DROPPED, _CHANGED = range(5)  # why the kernel returned


@numba.njit(cache=True)
def _select(t, T0, rule, rng, counts, A, front, prev, st):
    """PFIwR.select: uniform over A while t <= T0, then from the empirical front by the selection rule."""
    if t <= T0:
        st[_NPREV] = -1
        return pick(rng, A, st[_NA])
    n = st[_NFRONT]
    prev[:n] = front[:n]
    st[_NPREV] = n
    if rule == 0:
        return pick(rng, front, n)
    if rule == 1:
        arm = front[st[_RR] % n]
        st[_RR] += 1
        return arm
    best = front[0]
    for i in range(1, n):
        if counts[front[i]] < counts[best]:
            best = front[i]
    return best


@numba.njit(cache=True)
def _classify(yhat, L, w, eps, A, cand, pos, status, front, Mm, ok, p1, st):
    """Step 2 of Algorithm 1 (`core.classify`); False, with nothing written, when an arm leaves A (the class
    then finishes the round); else the candidates' statuses and the empirical front of A U P."""
    nA, nc = st[_NA], st[_NCAND]
    for i in range(nc):  # dominance_matrix(yhat[cand])
        a = cand[i]
        for j in range(nc):
            b = cand[j]
            m = yhat[a, 0] - yhat[b, 0]
            for c in range(1, L):
                d = yhat[a, c] - yhat[b, c]
                if d > m:
                    m = d
            Mm[i, j] = m
    for i in range(nA):  # C: every arm kept
        for j in range(nA):
            if max(0.0, -Mm[pos[i], pos[j]]) > w:
                return False
    for i in range(nA):
        p1[i] = True
        for j in range(nA):
            ok[i, j] = i == j or max(0.0, eps + Mm[pos[i], pos[j]]) >= w
            p1[i] = p1[i] and ok[i, j]
    for i in range(nA):  # P2: none accepted
        if p1[i]:
            accepted = True
            for r in range(nA):
                if not p1[r] and not ok[r, i]:
                    accepted = False
                    break
            if accepted:
                return False
    for i in range(nA):
        status[A[i]] = CANDIDATE if p1[i] else ACTIVE
    n = 0
    for i in range(nc):
        dominated = False
        for j in range(nc):
            if Mm[i, j] <= 0 and Mm[j, i] > 0:
                dominated = True
                break
        if not dominated:
            front[n] = cand[i]
            n += 1
    st[_NFRONT] = n
    return True


@numba.njit(cache=True, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(stop, ready, T0, rule, eps, K, L, rng, rng_est, plam, width, q, counts, B, yhat, status,
            hist_arm, hist_y, A, cand, pos, front, prev, Mm, ok, p1, buf, bpos, avail, arms, rewards, st):
    """Play rounds st[_T] .. stop - 1 (constants known up to round ``ready``); return why it stopped."""
    while st[_T] < stop:
        t = st[_T]
        if t > ready:
            return _CONSTANTS
        arm = st[_PENDING]
        if arm < 0:
            arm = _select(t, T0, rule, rng, counts, A, front, prev, st)
        if bpos[arm] >= avail[arm]:
            st[_PENDING] = arm
            return _REFILL
        st[_PENDING] = -1
        k = bpos[arm]
        bpos[arm] = k + 1
        arms[t - 1] = hist_arm[t - 1] = arm
        counts[arm] += 1
        for j in range(L):
            x = buf[arm, k, j]
            rewards[t - 1, j] = hist_y[t - 1, j] = x
            B[arm, j] += x
        drops = rng_est.binomial(t, q[t]) if q[t] > 0 else 0
        if drops > 0:
            st[_DROPS] = drops
            return _DROPPED
        for a in range(K):
            den = counts[a] + plam[t]
            for j in range(L):
                yhat[a, j] = B[a, j] / den
        if not _classify(yhat, L, 2 * width[t], eps, A, cand, pos, status, front, Mm, ok, p1, st):
            return _CHANGED
        st[_T] = t + 1
    return _STOP


class _Constants:
    """p lambda_t, beta_t and (1 - p)^rho_t of rounds 1..ready, from the class's own functions, and room for
    rounds 1..ready in the class's history (both grown by doubling)."""

    def __init__(self, alg: Algorithm, horizon: int) -> None:
        self.alg, self.horizon, self.ready = alg, horizon, 0
        self.plam, self.width, self.q = np.zeros(1), np.zeros(1), np.zeros(1)

    def extend(self) -> None:
        alg, pr = self.alg, self.alg.params
        new = min(self.horizon, max(64, 2 * self.ready))
        rounds = range(self.ready + 1, new + 1)
        d, L, K, delta, p = alg.d, alg.L, alg.K, pr["delta"], pr["p"]
        plam = [p * lambda_t(t, d, L, delta) for t in rounds]
        width = [alg.c_beta * alg.sigma * beta_t(t, delta, d, L, K, p, pr["S"]) for t in rounds]
        q = [(1 - p) ** rho_t(t, delta, p, pr["rho_rule"]) for t in rounds]
        self.plam = np.concatenate([self.plam, plam])
        self.width = np.concatenate([self.width, width])
        self.q = np.concatenate([self.q, q])
        self.ready = new
        if len(alg.hist_arm) < new:  # values past the rounds played are never read
            alg.hist_arm = np.concatenate([alg.hist_arm, np.zeros(new - len(alg.hist_arm), dtype=np.int64)])
            alg.hist_y = np.concatenate([alg.hist_y, np.zeros((new - len(alg.hist_y), alg.L))])


class PfiwrLoop:
    """PFIwR's `Loop`: fixed means (one-hot contexts), any number of snapshots."""

    compiled = True

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind == "means"

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """The rounds of ``snap_at``, and the stopping round when there are snapshots, are followed by
        ``alg.state()``."""
        K, L = alg.K, alg.L
        snapshots = len(snap_at) > 0
        consts = _Constants(alg, horizon)
        arms, got = np.empty(horizon, dtype=np.int64), np.empty((horizon, rewards.buf.shape[2]))
        A, cand, pos, front, prev = (np.zeros(K, dtype=np.int64) for _ in range(5))
        Mm, ok, p1 = np.empty((K, K)), np.empty((K, K), dtype=np.bool_), np.empty(K, dtype=np.bool_)
        st = np.array([1, -1, 0, 0, 0, 0, 0, -1], dtype=np.int64)
        rule, T0 = RULES[alg.params["select_rule"]], float(alg.T0)
        states: list[RoundState] = []
        changes = [(1, alg.recommendation)]
        snaps = [*snap_at.tolist(), horizon + 1]
        load = True  # the class changed A, A U P or the front: copy them into the kernel's arrays
        while st[_T] <= horizon and not alg.done:
            t = int(st[_T])
            while snaps[0] < t:
                snaps.pop(0)
            if t == snaps[0]:  # a snapshot round: the class plays it
                arm = int(alg.select(t))
                reward = rewards.take(arm)
                alg.update(arm, reward)
                arms[t - 1], got[t - 1] = arm, reward
                st[_T], st[_RR], load = t + 1, alg.rr, True
            else:
                if load:
                    for arr, src in ((A, alg.A), (cand, alg.cand), (pos, alg.pos_A), (front, alg.front)):
                        arr[:len(src)] = src
                    st[_NA], st[_NCAND], st[_NFRONT], load = len(alg.A), len(alg.cand), len(alg.front), False
                why = _kernel(snaps[0], consts.ready, T0, rule, alg.params["eps"], K, L, alg.rng, alg.rng_est,
                              consts.plam, consts.width, consts.q, alg.counts, alg.B, alg.yhat, alg.status,
                              alg.hist_arm, alg.hist_y, A, cand, pos, front, prev, Mm, ok, p1, rewards.buf, rewards.pos,
                              rewards.avail, arms, got, st)
                if why == _REFILL:
                    rewards.refill(int(st[_PENDING]))
                    continue
                if why == _CONSTANTS:
                    consts.extend()
                    continue
                t = int(st[_T]) - (why == _STOP)  # the last round played, or the round the class finishes
                _sync(alg, t, int(arms[t - 1]), st, front, prev, consts)
                if why == _DROPPED:
                    alg.estimate(t, int(st[_DROPS]))
                if why != _STOP:
                    alg.classify()
                    st[_T], load = t + 1, True
            if alg.recommendation != changes[-1][1]:
                changes[-1 if changes[-1][0] == t else len(changes):] = [(t, alg.recommendation)]
            if t == snaps[0] or (alg.done and snapshots):
                states.append(alg.state())
        played = int(st[_T]) - 1
        return Played(arms[:played], got[:played], states, changes)


def _sync(alg: Algorithm, t: int, arm: int, st: np.ndarray, front: np.ndarray, prev: np.ndarray,
          consts: _Constants) -> None:
    """The class's per-round attributes after the kernel played (or began) round ``t``."""
    alg.t, alg.last, alg.rr = t, arm, int(st[_RR])
    alg.pulled_from = None if st[_NPREV] < 0 else prev[:st[_NPREV]].copy()
    alg.front = front[:st[_NFRONT]].copy()
    alg.theta = alg.yhat
    alg.lam = lambda_t(t, alg.d, alg.L, alg.params["delta"])
    alg.kept, alg.width = 1.0, float(consts.width[t])
    alg.reg = alg.counts + consts.plam[t]
    alg.events = []
