"""Run one (instance, algorithm, seed) to a `Trace`."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import fast_classic, fast_linear, fast_pfiwr, fast_risk, limits
from .algorithms.base import Algorithm, AlgorithmSpec, Problem, get_algorithm
from .algorithms.psi_common import BatchedIdentifier
from .environment import Environment
from .guarantees import warnings_for
from .instances import Instance
from .metrics import RECOMMENDATION_METRICS, arm_regrets, pulled_regrets
from .presets.lexicographic import suggested_lambda
from .trace import Trace


def snapshot_rounds(horizon: int, n: int) -> np.ndarray:
    """At most ``n`` distinct rounds in [1, horizon], quadratically spaced (dense early), ending at horizon."""
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    if horizon <= n:
        return np.arange(1, horizon + 1, dtype=np.int64)
    k = np.arange(1, n + 1)
    target = np.ceil(horizon * (k / n) ** 2).astype(np.int64)
    return np.unique(np.minimum(np.maximum(target, k), horizon))  # t_k >= k keeps early rounds apart


def make_problem(instance: Instance, horizon: int, context: np.ndarray | None) -> Problem:
    """The learner's view of ``instance``, with the prior knowledge the papers give their learners: rho for the
    risk-averse objectives, the trade-off lambda of claim (5) for fixed means (`suggested_lambda`), and whether
    the contexts of a linear instance move (``context_noise``; the learner never learns the mean contexts)."""
    if instance.kind == "distributions":
        params = {"rho": instance.rho}
    elif instance.means is not None:
        params = {"lambda": instance._cached("lambda", lambda: suggested_lambda(instance.means))}
    else:
        params = {}
    if instance.context_noise > 0:
        params["context_noise"] = instance.context_noise
    return Problem(K=instance.K, L=instance.L, kind=instance.kind, horizon=horizon, noise=instance.noise,
                   sigma=instance.sigma, objective_names=instance.objective_names, context=context, params=params)


def resolve(algorithm: str | AlgorithmSpec, instance: Instance) -> AlgorithmSpec:
    spec = algorithm if isinstance(algorithm, AlgorithmSpec) else get_algorithm(algorithm)
    if instance.kind not in spec.kinds:
        raise ValueError(
            f"algorithm: {spec.name} runs on instance kinds {list(spec.kinds)}, not on {instance.kind!r}"
        )
    return spec


def has_fast_loop(algorithm: str, kind: str) -> bool:
    """True when `run` plays ``algorithm`` on instances of ``kind`` (with fixed contexts) in a compiled loop (the
    linear learners' and the risk-averse loops play runs without snapshots), or batch by batch (identification
    algorithms that plan their pulls): about a microsecond a round."""
    if kind == "contextual":
        return False
    planned = issubclass(get_algorithm(algorithm).cls, BatchedIdentifier)
    return planned or has_compiled_loop(algorithm, kind)


def has_compiled_loop(algorithm: str, kind: str) -> bool:
    """True when `run` plays ``algorithm`` on instances of ``kind`` in a compiled (numba) loop, which releases the
    GIL: runs of it on several threads go side by side."""
    return kind != "contextual" and any(fast.supports(algorithm, kind) for fast in (fast_classic, fast_linear,
                                                                                        fast_pfiwr, fast_risk))


def _compiled_loop(name: str, alg: Algorithm, kind: str, snapshots: int) -> Any:
    """The compiled loop's ``play`` for algorithm ``name`` built as ``alg``, or None (the linear learners' loop
    plays runs without snapshots)."""
    if fast_classic.supports(name, kind):
        return fast_classic.play
    if snapshots == 0 and fast_linear.supports(name, kind) and fast_linear.accepts(alg):
        return fast_linear.play
    return None


def drive(alg: Algorithm, instance: Instance, horizon: int, seed: int = 0) -> int:
    """Play an already-built ``alg`` on the engine's environment without recording anything.

    For timing an algorithm alone or inspecting its internals afterwards; returns the rounds played.
    Non-contextual instances only (no per-round contexts are drawn).
    """
    if instance.kind == "contextual":
        raise ValueError("instance: drive() plays fixed instances; use run() for a contextual one")
    env = Environment(instance, seed)
    problem = make_problem(instance, horizon, env.context)
    alg.reset(problem, env.policy_rng)
    for t in range(1, horizon + 1):
        if env.moving:
            env.next_round()
            problem.context = env.context
        arm = alg.select(t)
        alg.update(arm, env.pull(arm))
        if alg.done:
            return t
    return horizon


def _play_batches(alg: BatchedIdentifier, env: Environment, horizon: int, snap_at: set[int], snapshots: int,
                  rec_metric: Any, arms: np.ndarray, rewards: np.ndarray, per_round: dict[str, list[float]],
                  states: list) -> int:
    """`run`'s loop for an algorithm that plans its pulls batch by batch: each stretch of planned pulls up to
    the batch's end (or a snapshot round, or the horizon) in one step, with the rewards of one `pull` each
    (the engine's per-arm streams, buffered: `fast_classic.Rewards`);
    the answer can change only at a batch's last pull, so the recommendation metrics are scored per stretch.
    Fills the arrays as the round-by-round loop does and returns the rounds played."""
    t, last_rec, rec_values = 0, None, {}
    ahead = sorted(snap_at)
    rew = fast_classic.Rewards(env, horizon, expected=1)  # it may stop early: one block per arm first
    while t < horizon and not alg.done:
        while ahead and ahead[0] <= t:
            ahead.pop(0)
        stop = min(horizon, ahead[0] if ahead else horizon)
        planned = alg.pending()[:stop - t]
        n = len(planned)
        got = rew.take_many(planned)
        if rec_metric is not None and t == 0 and n > 1:  # the answer before the stretch's last pull
            last_rec, rec_values = alg.recommendation, rec_metric(env.instance, alg.recommendation)
        if rec_metric is not None:
            for key, value in rec_values.items():
                per_round.setdefault(key, []).extend([value] * (n - 1))
        alg.update_many(t + n, got)
        arms[t:t + n], rewards[t:t + n] = planned, got
        t += n
        if rec_metric is not None:
            if t == 1 or alg.recommendation != last_rec:
                last_rec, rec_values = alg.recommendation, rec_metric(env.instance, alg.recommendation)
            for key, value in rec_values.items():
                per_round.setdefault(key, []).append(value)
        if t in snap_at or (alg.done and snapshots):
            states.append(alg.state())
    return t


def _score_changes(instance: Instance, rec_metric: Any, changes: list[tuple[int, Any]], rounds: int,
                   per_round: dict[str, list[float]]) -> None:
    """The recommendation metrics of every round from the changes ``(first round, recommendation)`` of a run of
    ``rounds`` rounds: each recommendation scored once, its values repeated over the rounds it stands."""
    if rec_metric is None:
        return
    for (start, rec), (end, _) in zip(changes, [*changes[1:], (rounds + 1, None)], strict=True):
        for key, value in rec_metric(instance, rec).items():
            per_round.setdefault(key, []).extend([value] * (end - start))


def _play_compiled_pfiwr(alg: Algorithm, env: Environment, horizon: int, snap_at: np.ndarray, snapshots: int,
                         rec_metric: Any, arms: np.ndarray, rewards: np.ndarray, per_round: dict[str, list[float]],
                         states: list) -> int:
    """`run`'s loop for PFIwR on fixed means (`fast_pfiwr`): fills the arrays as the round-by-round loop does,
    the recommendation metrics scored once per recommendation, and returns the rounds played."""
    played, got, found, changes = fast_pfiwr.play(alg, env, horizon, snap_at, bool(snapshots))
    t = len(played)
    arms[:t], rewards[:t] = played, got
    states.extend(found)
    _score_changes(env.instance, rec_metric, changes, t, per_round)
    return t


def _play_compiled_risk(alg: Algorithm, env: Environment, horizon: int, rec_metric: Any, arms: np.ndarray,
                        rewards: np.ndarray, per_round: dict[str, list[float]]) -> int:
    """`run`'s loop for the risk-averse algorithms without snapshots (`fast_risk`): fills the arrays as the
    round-by-round loop does, the recommendation metrics scored once per recommendation; returns the rounds."""
    played, got, changes = fast_risk.play(alg, env, horizon)
    t = len(played)
    arms[:t], rewards[:t] = played, got
    _score_changes(env.instance, rec_metric, changes, t, per_round)
    return t


def run(
    instance: Instance,
    algorithm: str | AlgorithmSpec,
    horizon: int,
    seed: int = 0,
    snapshots: int = 200,
    compiled: bool = True,
    **params: Any,
) -> Trace:
    """Play ``algorithm`` on ``instance`` for at most ``horizon`` rounds (fewer if it stops).

    Same inputs and seed give the same trace bit for bit; the environment's noise depends only on
    (seed, arm, pull index), so algorithms compared on one seed see the same noise. With ``compiled``
    (default), an algorithm that has a compiled or batch-wise loop (`has_fast_loop`) plays in it: the same
    `Trace`, bit for bit, tens of times faster; False plays every round through the Python class.
    ``trace.info["warnings"]`` lists why the algorithm's guarantee does not hold here (`guarantees`).
    """
    spec = resolve(algorithm, instance)
    horizon = limits.check_int("horizon", horizon, 1, limits.MAX_HORIZON)
    seed = limits.check_int("seed", seed, 0, limits.MAX_SEED)
    snapshots = limits.check_int("snapshots", snapshots, 0, limits.MAX_SNAPSHOTS)
    limits.check_run_size(horizon, instance.K, snapshots)
    alg = spec.make(**params)
    info = {"warnings": list(warnings_for(instance, spec, params))}
    env = Environment(instance, seed)
    problem = make_problem(instance, horizon, env.context)
    alg.reset(problem, env.policy_rng)

    contextual = instance.kind == "contextual"
    loop = _compiled_loop(spec.name, alg, instance.kind, snapshots) if compiled and not env.moving else None
    if loop is not None:
        arms, rewards, states = loop(alg, env, horizon, snapshot_rounds(horizon, snapshots))
        return Trace(
            instance=instance, algorithm=spec.name, params=spec.validate(params), seed=seed, horizon=horizon,
            arms=arms, rewards=rewards, metrics={k: v[arms] for k, v in arm_regrets(instance, spec.task).items()},
            snapshots=states, recommendation=alg.recommendation, stopped_at=None, info=info,
        )
    rec_metric = RECOMMENDATION_METRICS.get(spec.task) if spec.recommends_every_round else None
    snap_at = set(snapshot_rounds(horizon, snapshots).tolist())
    arms = np.empty(horizon, dtype=np.int64)
    rewards = np.empty((horizon, instance.reward_dim))
    per_round: dict[str, list[float]] = {}
    states, truth = [], []
    sees_truth = getattr(alg, "sees_truth", False)  # only our reference oracles see the truth
    # learners that only estimate theta (PFIwR Fig. 1): ||theta_hat - theta|| each round, not a regret
    scores_estimate = getattr(alg, "reports_estimate", False) and instance.theta is not None
    last_rec: tuple[int, ...] | None = None
    rec_values: dict[str, float] = {}
    t = 0
    batchwise = compiled and isinstance(alg, BatchedIdentifier) and not env.moving
    pfiwr_loop = compiled and not env.moving and fast_pfiwr.supports(spec.name, instance.kind)
    risk_loop = compiled and snapshots == 0 and fast_risk.supports(spec.name, instance.kind)
    if batchwise:
        t = _play_batches(alg, env, horizon, snap_at, snapshots, rec_metric, arms, rewards, per_round, states)
    if pfiwr_loop:
        t = _play_compiled_pfiwr(alg, env, horizon, snapshot_rounds(horizon, snapshots), snapshots, rec_metric,
                                 arms, rewards, per_round, states)
    if risk_loop:
        t = _play_compiled_risk(alg, env, horizon, rec_metric, arms, rewards, per_round)
    for t in range(1, 1 if batchwise or pfiwr_loop or risk_loop else horizon + 1):
        if env.moving:
            env.next_round()
            problem.context = env.context
        if sees_truth:
            problem.params["true_means"] = env.means
        arm = int(alg.select(t))
        if not 0 <= arm < instance.K:
            raise RuntimeError(f"{spec.name} selected arm {arm}, outside [0, {instance.K})")
        reward = env.pull(arm)
        alg.update(arm, reward)
        arms[t - 1] = arm
        rewards[t - 1] = reward
        values = pulled_regrets(env.means, arm, spec.task) if contextual else {}
        if scores_estimate:
            values["estimation_error"] = float(np.linalg.norm(alg.theta - instance.theta))
        if rec_metric is not None:
            if t == 1 or alg.recommendation != last_rec:  # the answer often stays put: score it once
                last_rec, rec_values = alg.recommendation, rec_metric(instance, alg.recommendation)
            values.update(rec_values)
        for key, value in values.items():
            per_round.setdefault(key, []).append(value)
        if t in snap_at or (alg.done and snapshots):
            states.append(alg.state())
            if contextual:
                truth.append(env.means.copy())
        if alg.done:
            break
    arms, rewards = arms[:t], rewards[:t]
    metrics = {} if contextual else {k: v[arms] for k, v in arm_regrets(instance, spec.task).items()}
    metrics.update({k: np.asarray(v) for k, v in per_round.items()})
    return Trace(
        instance=instance, algorithm=spec.name, params=spec.validate(params), seed=seed, horizon=horizon,
        arms=arms, rewards=rewards, metrics=metrics, snapshots=states,
        recommendation=alg.recommendation, stopped_at=t if alg.done else None,
        snapshot_means=np.stack(truth) if truth else None, info=info,
    )
