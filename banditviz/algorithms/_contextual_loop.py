"""Compiled (numba) round loop of MOL-TS, MOL-TS (M = 1), MOL-UCB and MOL-epsilon-greedy on contextual instances
(contexts drawn afresh every round: the MOL-TS paper's main setting, Sec. 6), with any number of snapshots: their
`Loop` (`MOLLoop`, which leaves the runs on fixed features to `LinearLoop`). Round 1 (where the class builds its
ridge) and the snapshot rounds are played by the class itself, on contexts drawn by the environment as the engine
draws them; the rounds between, by the kernel on the class's own ridge.

It plays what the engine and the Python classes (`banditviz.algorithms.molts.learners`) play, with the same
floating-point expressions in the same order and the same draws from the same streams:

* the contexts and their means from the run's context stream, through the very compiled functions the engine calls
  (`banditviz._contexts`: numpy's draws and sums), one K x d block a round;
* MOL-TS's round through the fixed-feature loop's (`_linear_loop.mol_ts_arm`: its M L d standard normals from the
  run's own `Generator`, its samples and optimistic scores by the learner's own kernels, its uniform arm of the
  effective front by `molts.front.draw_effective`, the rare LP in object mode) on this round's contexts;
* MOL-UCB's and epsilon-greedy's rule through the fixed-feature loop's (`_linear_loop.select_rule`) on this round's
  predictions and widths;
* the rewards from each arm's Gaussian stream (the n-th pull of an arm gets its n-th L normals, as
  `Environment.pull`), the ridge update through `estimators.ridge_update`;
* the engine's per-round metrics of a contextual run (`metrics.pulled_regrets`: Pareto and effective regret, the
  expected reward of each objective) through the compiled `pareto.gaps_of_compiled` (L >= 3; the rare LP in object
  mode) or `pareto.gaps_of` in object mode (L <= 2).

Hence `simulate.run` returns the same `Trace` bit for bit with or without this loop (tested on every learner, option
and L it serves). The loop holds the truth (the means) only to draw the rewards and score the pulls, as the
engine does.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from .. import _noise, pareto
from .._contexts import CONTEXTS, draw_contexts, linear_predictions
from ._linear_loop import (
    MOL_EPS_GREEDY_RULE,
    MOL_TS_RULE,
    MOL_UCB_RULE,
    LinearLoop,
    kernel_options,
    mol_ts_arm,
    mol_ts_scratch,
    select_rule,
)
from .base import Algorithm, Played
from .estimators import quadratic_forms, ridge_update


@numba.njit(cache=True)
def _gaps(means, arm, W):
    """`pareto.gaps_of`: compiled for L >= 3 (``W`` = `pareto.gap_weights(L)`), in object mode for L <= 2."""
    if means.shape[1] >= 3:
        return pareto.gaps_of_compiled(means, arm, W)
    with numba.objmode(pareto_gap="float64", effective_gap="float64"):
        pareto_gap, effective_gap = pareto.gaps_of(means, arm)
    return pareto_gap, effective_gap


@numba.njit(cache=True, nogil=True)  # sweeps on threads run kernels side by side
def _kernel(code, start, stop, ip, fp, coefs, rng, crng, ckind, theta_true, sigma, streams, V_inv, theta, Z, ts, W,
            arms, rewards, metrics):
    """Play rounds start .. stop - 1: arms, rewards and the metrics (Pareto gap, effective gap, the L means) of each
    pull, into row t - 1; the ridge (V_inv, theta, Z) updated in place."""
    K, L, d = streams.shape[0], theta_true.shape[1], theta_true.shape[0]
    X, means, r = np.empty((K, d)), np.empty((K, L)), np.empty(L)
    none, pred0, q0, work = np.zeros((0, d)), np.zeros((0, L)), np.zeros(0), np.empty((2, max(d, L)))
    pred, q, idx, order = np.empty((K, L)), np.empty(K), np.empty(K, np.int64), np.arange(K)
    counts, sums, fst, w = np.zeros(K, np.int64), np.zeros((K, L)), np.zeros(1), np.empty(K)
    est, lower, upper, vec = np.empty((K, L)), np.empty((L, K)), np.empty((L, K)), np.empty((K, L))
    cand, wide, comp = np.empty(K, np.int64), np.empty(K, np.int64), np.empty(K, np.bool_)
    for t in range(start, stop):
        draw_contexts(crng, ckind, X)
        linear_predictions(X, theta_true, means)
        if code == MOL_TS_RULE:
            arm = mol_ts_arm(t, ip, fp, rng, X, V_inv, theta, ts, idx)
        else:
            linear_predictions(X, theta, pred)
            quadratic_forms(X, V_inv, q)
            arm = select_rule(t, ip, fp, coefs, rng, X, pred, q, counts, sums, fst, w, est, lower, upper, cand, wide,
                              comp, vec, idx, order)
        s = streams[arm]
        for j in range(L):
            r[j] = means[arm, j] + sigma * _noise.standard_normal(s)
        ridge_update(V_inv, theta, Z, X[arm], r, none, pred0, q0, work)
        arms[t - 1] = arm
        rewards[t - 1] = r
        pareto_gap, effective_gap = _gaps(means, arm, W)
        metrics[t - 1, 0] = pareto_gap
        metrics[t - 1, 1] = effective_gap
        for j in range(L):
            metrics[t - 1, 2 + j] = means[arm, j]


class MOLLoop(LinearLoop):
    """The `Loop` of a MOL learner (``code``: `MOL_TS_RULE`, `MOL_UCB_RULE` or `MOL_EPS_GREEDY_RULE`): contextual
    runs here, fixed features in `LinearLoop`; epsilon-greedy exploiting the Pareto front only."""

    def supports(self, kind: str, params: dict[str, Any], snapshots: int) -> bool:
        if kind == "contextual":
            return params.get("exploit_set", "pareto") == "pareto"
        return super().supports(kind, params, snapshots)

    def play(self, alg: Algorithm, rewards: Any, horizon: int, snap_at: np.ndarray) -> Played:
        """Round 1 and the rounds of ``snap_at`` by ``alg`` itself (`_class_round`), each snapshot with the round's
        true means; the others by the kernel, on ``alg``'s ridge; ``alg``'s counts and last pull kept as it keeps
        them."""
        if alg.problem.kind != "contextual":
            return super().play(alg, rewards, horizon, snap_at)
        env = rewards.env
        inst = env.instance
        K, L, d = inst.K, inst.L, inst.d
        ip, fp, coefs = kernel_options(alg, self.code, K, d, L)
        arms, got, metrics = np.empty(horizon, np.int64), np.empty((horizon, L)), np.empty((horizon, 2 + L))
        ts, W, theta_true = mol_ts_scratch(alg, self.code, K, d, L), pareto.gap_weights(L), np.ascontiguousarray(
            inst.theta, dtype=float)
        snaps = set(snap_at.tolist())
        states, truth, start = [], [], 1
        for stop in [*sorted(snaps | {1}), horizon + 1]:
            if start < stop:
                ridge = alg.ridge
                _kernel(self.code, start, stop, ip, fp, coefs, alg.rng, env.context_rng, CONTEXTS.index(inst.context),
                        theta_true, inst.sigma, env.normal_streams, ridge.V_inv, ridge.theta, ridge.Z, ts, W, arms,
                        got, metrics)
                played = arms[start - 1:stop - 1]
                alg.counts += np.bincount(played, minlength=K)
                alg.last, ridge.n = int(played[-1]), stop - 1
            if stop <= horizon:
                _class_round(alg, env, stop, arms, got, metrics)
                if stop in snaps:
                    states.append(alg.state())
                    truth.append(env.means.copy())
                start = stop + 1
        names = ["pareto_regret", "effective_regret", *(f"reward_{j + 1}" for j in range(L))]
        return Played(arms, got, states, metrics={name: metrics[:, i].copy() for i, name in enumerate(names)},
                      truth=truth)


def _class_round(alg: Algorithm, env: Any, t: int, arms: np.ndarray, rewards: np.ndarray, metrics: np.ndarray) -> None:
    """Round ``t`` played by ``alg`` itself as the engine plays it (`simulate.run`): the environment draws the
    round's contexts, the reward is the arm's next L normals from its stream (as the kernel draws them, one pull at a
    time), the metrics are the engine's (`metrics.pulled_regrets`: `pareto.gaps_of` and the arm's means)."""
    env.next_round()
    alg.problem.context = env.context
    arm = int(alg.select(t))
    raw = np.empty((1, env.instance.L))
    _noise.fill_standard(env.normal_streams, arm, raw)
    reward = env.observe(arm, raw[0])
    alg.update(arm, reward)
    arms[t - 1], rewards[t - 1] = arm, reward
    metrics[t - 1] = [*pareto.gaps_of(env.means, arm), *env.means[arm]]


MOL_TS_LOOP = MOLLoop(MOL_TS_RULE)
MOL_UCB_LOOP = MOLLoop(MOL_UCB_RULE)
MOL_EPS_GREEDY_LOOP = MOLLoop(MOL_EPS_GREEDY_RULE)
