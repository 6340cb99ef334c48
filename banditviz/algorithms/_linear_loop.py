"""Compiled (numba) round loop of the linear regret learners on fixed arm features: their `Loop`.

`LinearLoop.play` runs the lexicographic learners STE2LO, MTE2LO, PF-LEX and OFUL (`banditviz.algorithms.lexmoslb`)
on instances whose arm features never change (kind "means", or "linear" without context noise), and MOL-TS,
MOL-TS (M = 1), MOL-UCB and MOL-epsilon-greedy exploiting the Pareto front (`banditviz.algorithms.molts`) on "linear"
ones and on "means" ones (their one-hot contexts: MOL-TS samples by V^{-1}'s diagonal there, as its class does), with
or without snapshots. It computes what the Python classes compute, with the same floating-point
expressions in the same order:

* the ridge estimate through the same compiled Sherman-Morrison step (`estimators.ridge_update`, which keeps the
  fixed features' predictions and squared widths), from a `SharedRidge` built as the class builds it;
* the radii by the papers' formulas compiled from the very functions the classes call (`gamma_radius`,
  `pf_lex_beta`, `oful_alpha`, `c1_formula`);
* the filters (tied argmax, LOAF, chain filter) and the Pareto front (`banditviz.pareto.kernels`) on the same
  values;
* MOL-TS's round (`mol_ts_arm`, shared with the compiled loop of contextual runs): its M L d standard normals from
  the run's `Generator` (numba's sampler is numpy's), its Cholesky factor, samples and optimistic scores through the
  learner's own kernels (`molts.sampling`) and its uniform arm of the effective front through
  `molts.front.draw_effective` (for L = 2, the learner's whole effective front in object mode);
* the rewards from the engine's per-arm streams (`banditviz.rewards.RewardBuffer`) and the policy's draws from the run's
  own `Generator`, in the engine's call order (``integers(n)`` for n >= 2 only: numpy draws nothing for n = 1).

The kernel works on the class's own state: its pull counts, its `SharedRidge` (or PF-LEX's `RunningMeans`) and its
`Generator`, updated in place; what the class keeps elsewhere (OFUL's log det V, the lexicographic learners' rounds
per branch) is copied back after each stretch the kernel plays (`_sync`). Snapshot rounds, and round 1 of a MOL
learner (whose class builds its ridge then), are played by the class itself (``select``/``update`` on the same
arrays and generator, then ``state()``), so `RoundState`s, events included, are the engine's; the class's per-round
values are copied into the kernel's before the next stretch (OFUL's log det V, the round's branch).

Hence `simulate.run` returns the same `Trace` bit for bit with or without this loop (tested on every learner,
option and kind, with and without snapshots).
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from .. import pareto
from ..pareto.effective import effective_mask_2d
from ..pareto.kernels import nondominated, nondominated_in, sort_by_sum
from ._kernels import PENDING, ROUND, listed, pick, take
from .base import Algorithm, Played
from .estimators import RunningMeans, SharedRidge, ridge_update
from .lexmoslb.core import TIE_RTOL, branch_name, gamma_radius, oful_alpha, pf_lex_beta, ste2lo_epsilon
from .molts.core import c1_formula
from .molts.front import TOL, draw_effective
from .molts.sampling import cholesky_lower, optimistic_scores, sample_thetas

# the kernel's rules, one per learner (MOL-TS's is `mol_ts_arm`, the others' `select_rule`)
STE2LO_RULE, PF_LEX_RULE, MTE2LO_RULE, OFUL_RULE, MOL_UCB_RULE, MOL_EPS_GREEDY_RULE, MOL_TS_RULE = range(7)
KINDS = ("means", "linear")
_LOGDET, _BRANCH = range(2)  # float state slots: OFUL's log det V; the branch of the round being played (`_select`)
# integer options
_CODE, _K, _LEST, _D, _EXPLORE, _POOL, _WMODE, _CMODE, _IDENTITY = range(9)
# float options
_SCALE, _CONSTANT, _DELTA, _R, _EPS, _ROOT, _SNORM, _ALPHA, _C, _LAM = range(10)
MOL_RULES = (MOL_UCB_RULE, MOL_EPS_GREEDY_RULE, MOL_TS_RULE)
MAX_STAGES = 64  # MTE2LO's stage cap (`lexicographic.MAX_STAGES`)
JIT = {"cache": True, "error_model": "numpy"}  # no zero-division check per division: every divisor here is >= 1

_gamma = numba.njit(cache=True)(gamma_radius)
_beta = numba.njit(cache=True)(pf_lex_beta)
_alpha = numba.njit(cache=True)(oful_alpha)
_c1 = numba.njit(cache=True)(c1_formula)


@numba.njit(**JIT)
def _tied_argmax(values, cand, n):
    """`lexmoslb.core.tied_argmax` of values[cand[:n]]."""
    if n == 1:
        return cand[0]
    top = values[cand[0]]
    for i in range(1, n):
        if values[cand[i]] > top:
            top = values[cand[i]]
    floor = top - TIE_RTOL * (1.0 + abs(top)) if math.isfinite(top) else top
    for i in range(n):
        if values[cand[i]] >= floor:
            return cand[i]
    return -1


@numba.njit(**JIT)
def _too_wide(w, cand, n, threshold, rule, rng, wide):
    """`_Lexicographic._too_wide`: the widest (0), first (1) or a random (2) arm wider than ``threshold``, or -1."""
    if rule == 0:
        arm = _tied_argmax(w, cand, n)
        return arm if w[arm] > threshold else -1
    m = 0
    for i in range(n):
        if w[cand[i]] > threshold:
            wide[m] = cand[i]
            m += 1
    if m == 0:
        return -1
    if rule == 1:
        return wide[0]
    return wide[rng.integers(0, m)] if m > 1 else wide[0]


@numba.njit(**JIT)
def _loaf(upper, cand, n, coefs, W):
    """`lexmoslb.core.loaf` on cand[:n] (filtered in place): the new n and x_hat of the last objective."""
    best = cand[0]
    for i in range(upper.shape[0]):
        u = upper[i]
        best = _tied_argmax(u, cand, n)
        cut = u[best] - coefs[i] * W
        if n > 1:
            m = 0
            for j in range(n):
                if u[cand[j]] >= cut:
                    cand[m] = cand[j]
                    m += 1
            n = m
    return n, best


@numba.njit(**JIT)
def _chain(lower, upper, cand, n, full, comp):
    """`lexmoslb.core.chain_filter` on cand[:n] (filtered in place): x_hat of the last objective."""
    K = lower.shape[1]
    best = cand[0]
    for i in range(lower.shape[0]):
        lo_i, up_i = lower[i], upper[i]
        best = _tied_argmax(up_i, cand, n)
        comp[:] = False
        comp[best] = True
        lo, hi = lo_i[best], up_i[best]
        changed = True
        while changed:  # `chain_component`: pool = every arm (full) or the candidates, in order
            changed = False
            for j in range(K if full else n):
                k = j if full else cand[j]
                if not comp[k] and lo_i[k] <= hi and up_i[k] >= lo:
                    comp[k] = True
                    lo, hi = min(lo, lo_i[k]), max(hi, up_i[k])
                    changed = True
        m = 0
        for j in range(n):
            if comp[cand[j]]:
                cand[m] = cand[j]
                m += 1
        n = m
    return best


@numba.njit(**JIT)
def _mol_front(vec, K, idx, order, work):
    """The front of ``vec`` into ``idx`` (ascending); rows visited by decreasing sum, ``order`` kept between rounds."""
    sort_by_sum(vec, order, work)
    return listed(nondominated_in(vec, order, work), K, idx)


@numba.njit(**JIT)
def mol_radius(t, ip, fp):
    """The exploration scale of the MOL learners at round t (`molts.learners._MOLinear.scale`): alpha c_{1,t}, c_{1,t}
    or the constant c."""
    mode = ip[_CMODE]
    if mode == 2:
        return fp[_C]
    return _c1(t, ip[_D], ip[_LEST], fp[_LAM], fp[_DELTA], fp[_R]) * (fp[_ALPHA] if mode == 0 else 1.0)


@numba.njit(**JIT)
def mol_ts_arm(t, ip, fp, rng, X, V_inv, theta, ts, idx):
    """MOL-TS's arm of round t on the contexts X (`molts.learners.MOLTS.select`); ``ts`` (`mol_ts_scratch`): its
    weight bank of the effective front, room for its Cholesky factor, samples and scores, and no rows of winning
    samples (the loop keeps none: `optimistic_scores` takes the maxima alone)."""
    bank, S, thetas, mu, winner = ts
    L, M, d = thetas.shape
    radius = mol_radius(t, ip, fp)
    z = rng.standard_normal(L * M * d).reshape((L, M, d))
    if ip[_IDENTITY]:  # V^{-1} diagonal: theta_hat + c (z sqrt(V^{-1}_ii)), as the class samples one-hot contexts
        for l_ in range(L):
            for m in range(M):
                for i in range(d):
                    thetas[l_, m, i] = theta[i, l_] + radius * (z[l_, m, i] * math.sqrt(V_inv[i, i]))
    elif not cholesky_lower(V_inv, S):
        raise RuntimeError("MOL-TS: V^{-1} is not positive definite")
    else:
        sample_thetas(theta, S, z, radius, thetas)
    optimistic_scores(X, thetas, mu, winner)
    if L >= 3:
        arm = draw_effective(mu, rng, bank)
        if arm < 0:
            raise RuntimeError("effective front: no effective arm found, which MOL-TS Lemma 6 rules out")
        return arm
    K = X.shape[0]
    if L == 1:
        return pick(rng, idx, listed(nondominated(mu), K, idx))
    mask = effective_mask_2d(mu, TOL)  # `pareto.effective_pareto_mask` (its tolerance), as the class computes it
    if mask.size == 0:  # two equal Pareto rows: np.unique decides
        with numba.objmode(mask="bool_[:]"):
            mask = pareto.effective_pareto_mask(mu)
    return pick(rng, idx, listed(mask, K, idx))


def mol_ts_scratch(alg: Algorithm, code: int, K: int, d: int, L: int) -> tuple:
    """`mol_ts_arm`'s ``ts`` for ``alg`` (reset) of rule ``code``: MOL-TS's, with its M and weight bank; placeholders
    of the same types for the other learners (one compiled kernel serves them all)."""
    ts = code == MOL_TS_RULE
    M = alg.M if ts else 1
    bank = alg.sampler.bank if ts and L >= 3 else np.ones((1, L))
    return (bank, np.zeros((d, d)), np.empty((L, M, d)), np.empty((K, L)), np.empty((0, L), dtype=np.int64))


@numba.njit(**JIT)
def select_rule(t, ip, fp, coefs, rng, X, pred, q, counts, sums, fst, w, est, lower, upper, cand, wide, comp, vec, idx,
            order):
    """The arm of round ``t`` (the ``select`` methods of the lexicographic and MOL classes); a lexicographic learner's
    branch into fst[_BRANCH]: 0 exploitation (MTE2LO's final LOAF), s >= 1 exploration (at stage s for MTE2LO, else
    1)."""
    code, K, Lest = ip[_CODE], ip[_K], ip[_LEST]
    if code == MOL_EPS_GREEDY_RULE:  # MOL-epsilon-greedy: one uniform number, then a uniform arm of all or of the front
        if rng.random() < fp[_EPS]:
            return rng.integers(0, K) if K > 1 else 0
        return pick(rng, idx, _mol_front(pred, K, idx, order, w))
    if code == MOL_UCB_RULE:  # MOL-UCB: the Pareto front of x' theta_hat + gamma_t ||x||_{V^-1}
        radius = mol_radius(t, ip, fp)
        for k in range(K):
            wk = math.sqrt(max(q[k], 0.0))
            for j in range(Lest):
                vec[k, j] = pred[k, j] + radius * wk
        return pick(rng, idx, _mol_front(vec, K, idx, order, w))
    c = fp[_SCALE]
    fst[_BRANCH] = 0.0
    if code == PF_LEX_RULE:  # PF-LEX: sample means, widths beta_t sqrt((1 + N) / N^2), infinite before the first pull
        radius = c if fp[_CONSTANT] else c * _beta(t, K, Lest, fp[_DELTA], fp[_R])
        for k in range(K):
            n = counts[k]
            safe = max(n, 1)
            w[k] = radius * math.sqrt((1 + n) / (safe * safe)) if n > 0 else np.inf
            for j in range(Lest):
                est[k, j] = sums[k, j] / safe if n > 0 else 0.0
    else:
        if code == OFUL_RULE:
            radius = c if fp[_CONSTANT] else c * _alpha(fst[_LOGDET], fp[_DELTA], fp[_R], fp[_SNORM])
        else:
            radius = c if fp[_CONSTANT] else c * _gamma(t, ip[_D], Lest, fp[_DELTA], fp[_R])
        for k in range(K):
            w[k] = radius * math.sqrt(max(q[k], 0.0))
            for j in range(Lest):
                est[k, j] = pred[k, j]
    for k in range(K):
        cand[k] = k
        for j in range(Lest):
            upper[j, k] = est[k, j] + w[k]
            lower[j, k] = est[k, j] - w[k]
    if code == OFUL_RULE:  # OFUL: the highest UCB of objective 1
        return _tied_argmax(upper[0], cand, K)
    if code != MTE2LO_RULE:  # STE2LO / PF-LEX: explore the widest arm above epsilon, else the chain filter's last x_hat
        arm = _too_wide(w, cand, K, fp[_EPS], ip[_EXPLORE], rng, wide)
        if arm >= 0:
            fst[_BRANCH] = 1.0
            return arm
        return _chain(lower, upper, cand, K, ip[_POOL] == 0, comp)
    n = K  # MTE2LO: stages s = 1, 2, ... (Alg. 3)
    for s in range(1, MAX_STAGES + 1):
        largest = w[cand[0]]
        for i in range(1, n):
            largest = max(largest, w[cand[i]])
        if largest <= fp[_ROOT]:
            return _loaf(upper, cand, n, coefs, fp[_ROOT] if ip[_WMODE] == 0 else largest)[1]
        threshold = 2.0**-s
        arm = _too_wide(w, cand, n, threshold, ip[_EXPLORE], rng, wide)
        if arm >= 0:
            fst[_BRANCH] = s
            return arm
        n = _loaf(upper, cand, n, coefs, threshold if ip[_WMODE] == 0 else largest)[0]
    return -1


@numba.njit(**JIT, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(stop, ip, fp, coefs, rng, X, V_inv, theta, Z, pred, q, work, counts, sums, sumsq, means, fst, tally, first,
            w, est, lower, upper, cand, wide, comp, vec, idx, order, ts, buf, pos, avail, arms, rewards, st):
    """Play rounds st[ROUND] .. stop - 1; return 1 when the chosen arm's buffer is empty (refill it, call again).

    ``tally[b]`` counts the rounds of branch b (`_select`), ``first[b]`` is the first of them (0: none yet)."""
    code, Lest = ip[_CODE], ip[_LEST]
    while st[ROUND] < stop:
        t = st[ROUND]
        arm = st[PENDING]
        if arm < 0 and code == MOL_TS_RULE:
            arm = mol_ts_arm(t, ip, fp, rng, X, V_inv, theta, ts, idx)
        elif arm < 0:
            arm = select_rule(t, ip, fp, coefs, rng, X, pred, q, counts, sums, fst, w, est, lower, upper, cand, wide,
                              comp, vec, idx, order)
            if arm < 0:
                raise RuntimeError("no arm chosen")
        p = take(arm, pos, avail, st)
        if p < 0:
            return 1
        r = buf[arm, p]
        counts[arm] += 1
        b = int(fst[_BRANCH])
        tally[b] += 1
        if first[b] == 0:
            first[b] = t
        if code == PF_LEX_RULE:  # `RunningMeans.update`
            for j in range(Lest):
                sums[arm, j] += r[j]
                sumsq[arm, j] += r[j] * r[j]
                means[arm, j] = sums[arm, j] / counts[arm]
        else:
            lev = ridge_update(V_inv, theta, Z, X[arm], r[:Lest], X, pred, q, work)
            if code == OFUL_RULE:
                fst[_LOGDET] += math.log1p(lev)
        rewards[t - 1] = r
        arms[t - 1] = arm
        st[ROUND] = t + 1
    return 0


def kernel_options(alg: Algorithm, code: int, K: int, d: int, L_est: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's integer and float options and the LOAF coefficients, read from the reset ``alg``."""
    p = alg.params
    ip = np.zeros(9, dtype=np.int64)
    fp = np.zeros(10)
    ip[[_CODE, _K, _LEST, _D]] = code, K, L_est, d
    ip[_EXPLORE] = ("widest", "first", "random").index(p.get("explore_arm", "widest"))
    ip[_POOL] = ("full", "candidates").index(p.get("pool", "full"))
    ip[_WMODE] = ("threshold", "actual_max").index(p.get("W_mode", "threshold"))
    ip[_CMODE] = ("scaled", "theory", "constant").index(p.get("c_mode", "scaled"))
    ip[_IDENTITY] = getattr(alg, "identity", False)  # a MOL learner's one-hot contexts (a "means" instance)
    fp[_SCALE], fp[_CONSTANT] = p.get("width_scale", 0.0), p.get("width_mode") == "constant"
    fp[_DELTA], fp[_R] = p["delta"], alg.problem.sigma
    if code == STE2LO_RULE:
        fp[_EPS] = p["epsilon"] or ste2lo_epsilon(d, K, alg.problem.horizon)
    elif code == PF_LEX_RULE:
        fp[_EPS] = alg.epsilon
    elif code == MOL_EPS_GREEDY_RULE:
        fp[_EPS] = p["epsilon"]
    fp[_ROOT] = getattr(alg, "root", 0.0)
    fp[_SNORM], fp[_ALPHA], fp[_C] = p.get("S_norm", 0.0), p.get("alpha", 0.0), p.get("c", 0.0)
    fp[_LAM] = p["lam"] if code in MOL_RULES else 1.0  # the ridge lambda (MTE2LO's "lam" is its trade-off)
    coefs = np.asarray(getattr(alg, "coefficients", [0.0]), dtype=float)
    return ip, fp, coefs


class LinearLoop:
    """The `Loop` of one linear regret learner (``code``: one of the ``*_RULE`` constants): fixed features (the MOL
    learners' one-hot contexts on a "means" instance), any number of snapshots, MOL-epsilon-greedy exploiting the
    Pareto front only."""

    compiled = True

    def __init__(self, code: int) -> None:
        self.code = code

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        return kind in KINDS and params.get("exploit_set", "pareto") == "pareto"

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """Rounds in ``snap_at`` are played by ``alg`` itself and followed by ``alg.state()``, and so is round 1 of
        a MOL learner (its class builds its ridge there); the others by the kernel, on ``alg``'s own arrays."""
        K, code, rew = alg.K, self.code, rewards
        if code == PF_LEX_RULE:  # sample means: the ridge is never updated
            X = np.zeros((K, 1))
        elif code in MOL_RULES:  # what the class reads at round 1: the features, or one-hot contexts ("means")
            X = np.eye(K) if alg.identity else np.asarray(alg.problem.context, dtype=float)
        else:
            X = np.asarray(alg.X, dtype=float)
        d = X.shape[1]
        L_est = getattr(alg, "L_est", None) or alg.L
        ip, fp, coefs = kernel_options(alg, code, K, d, L_est)
        ridge = SharedRidge(d, L_est, fp[_LAM], X)
        stats = alg.stats if code == PF_LEX_RULE else RunningMeans(K, L_est)  # PF-LEX's sample means (else unused)
        arms, got = np.empty(horizon, dtype=np.int64), np.empty((horizon, rew.buf.shape[2]))
        st = np.array([1, -1], dtype=np.int64)
        fst, tally = np.zeros(2), _Tally(code)
        scratch = (np.empty(K), np.empty((K, L_est)), np.empty((L_est, K)), np.empty((L_est, K)),
                   np.empty(K, dtype=np.int64), np.empty(K, dtype=np.int64), np.empty(K, dtype=np.bool_),
                   np.empty((K, L_est)), np.empty(K, dtype=np.int64),
                   np.arange(K),  # the MOL learners' front: rows by decreasing sum, kept between rounds
                   mol_ts_scratch(alg, code, K, d, L_est))
        snaps = set(snap_at.tolist())
        states = []
        for stop in [*sorted(snaps | ({1} if code in MOL_RULES else set())), horizon + 1]:
            if st[ROUND] < stop:
                shared = ridge if code == PF_LEX_RULE else alg.ridge  # the class's own, but PF-LEX (none)
                fst[_LOGDET] = getattr(alg, "logdet", 0.0)
                while _kernel(stop, ip, fp, coefs, alg.rng, shared.features, shared.V_inv, shared.theta, shared.Z,
                              shared.pred, shared.sq_widths, shared.work, alg.counts, stats.sums, stats.sumsq,
                              stats.means, fst, tally.rounds, tally.first, *scratch, rew.buf, rew.pos, rew.avail,
                              arms, got, st):
                    rew.refill(int(st[PENDING]))
                _sync(alg, code, int(st[ROUND]) - 1, fst, tally)
            if stop <= horizon:
                arm = int(alg.select(stop))
                reward = rew.take(arm)
                alg.update(arm, reward)
                arms[stop - 1], got[stop - 1] = arm, reward
                if stop in snaps:
                    states.append(alg.state())
                tally.add(alg, stop)
                st[ROUND] = stop + 1
        return Played(arms, got, states)


class _Tally:
    """The rounds per branch (the kernel's codes, `_select`), which the lexicographic classes keep as
    ``tally``: {branch name: rounds}, in the order the branches first occurred."""

    def __init__(self, code: int) -> None:
        self.counted = code not in MOL_RULES
        self.staged = code == MTE2LO_RULE
        self.rounds = np.zeros(MAX_STAGES + 1, dtype=np.int64)
        self.first = np.zeros(MAX_STAGES + 1, dtype=np.int64)

    def names(self) -> dict[str, int]:
        seen = sorted(np.flatnonzero(self.rounds).tolist(), key=self.first.__getitem__)
        return {branch_name(b > 0, b if self.staged else None): int(self.rounds[b]) for b in seen}

    def add(self, alg: Algorithm, t: int) -> None:
        """Count round ``t``, played by the class itself (its decision ``alg.last``)."""
        if self.counted:
            dec = alg.last
            b = (dec.stage or 1) if dec.explored else 0
            self.rounds[b] += 1
            self.first[b] = self.first[b] or t


def _sync(alg: Algorithm, code: int, t: int, fst: np.ndarray, tally: _Tally) -> None:
    """What ``alg`` keeps beside the arrays the kernel shared, after the kernel played up to round ``t``: OFUL's
    log det V, the rounds per branch, PF-LEX's second count array, the ridge's count of updates. The decision of
    the last round (``alg.last`` and the like) stays the one of the last round the class played: the next
    ``select`` makes its own."""
    if code == OFUL_RULE:
        alg.logdet = float(fst[_LOGDET])
    if tally.counted:
        alg.tally = tally.names()
    if code == PF_LEX_RULE:
        alg.stats.counts[:] = alg.counts
    else:
        alg.ridge.n = t
