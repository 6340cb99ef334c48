"""Run one (instance, algorithm, seed) to a `Trace`."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import limits
from .algorithms.base import Algorithm, AlgorithmSpec, Problem, check_state, get_algorithm
from .environment import Environment
from .guarantees import warnings_for
from .instances import Instance
from .limits import snapshot_rounds
from .metrics import RECOMMENDATION_METRICS, arm_regrets, pulled_regrets
from .presets.lexmoslb import suggested_lambda
from .rewards import RewardBuffer
from .trace import Trace

STOPPING_TASKS = ("identify", "risk-averse")  # tasks whose runs may stop before the horizon


class AlgorithmError(RuntimeError):
    """An algorithm raised or broke the contract (`algorithms.base`) while it played: the message names the
    algorithm, the round (0: in ``reset``, before round 1; None: somewhere in its fast `Loop`) and the seed.

    The algorithm's own exception, if any, is chained (``__cause__``) and summarised in the message, which survives
    pickling (a sweep's worker process sends it back whole)."""

    def __init__(self, algorithm: str, round: int | None, seed: int, detail: str) -> None:
        where = {0: "in reset, before round 1", None: "in its fast loop"}.get(round, f"at round {round}")
        super().__init__(f"algorithm {algorithm} failed {where} (seed {seed}): {detail}")
        self.algorithm, self.round, self.seed, self.detail = algorithm, round, seed, detail

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.algorithm, self.round, self.seed, self.detail)


class _Breach(Exception):
    """A breach of the contract found by the engine: the detail of an AlgorithmError."""


def _arm(choice: Any, K: int) -> int:
    """``select``'s answer as an arm index; _Breach unless it is an integer (not a bool) in [0, K)."""
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, (bool, np.bool_)) and 0 <= choice < K:
        return int(choice)
    raise _Breach(f"select returned {choice!r} ({type(choice).__name__}); expected an integer arm index in [0, {K})")


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
    """True when `run` plays ``algorithm`` (at its defaults, without snapshots) on instances of ``kind`` (fixed
    contexts, or contextual) in the fast `Loop` declared with it: compiled, or batch by batch for identification
    algorithms that plan their pulls."""
    spec = get_algorithm(algorithm)
    return spec.loop is not None and spec.loop.supports(kind, spec.defaults(), 0)


def has_compiled_loop(algorithm: str, kind: str) -> bool:
    """True when `run` plays ``algorithm`` on instances of ``kind`` in a compiled (numba) loop, which releases the
    GIL: runs of it on several threads go side by side."""
    return has_fast_loop(algorithm, kind) and get_algorithm(algorithm).loop.compiled


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


def _score_changes(instance: Instance, rec_metric: Any, changes: list[tuple[int, Any]], rounds: int,
                   per_round: dict[str, list[float]]) -> None:
    """The recommendation metrics of every round from the changes ``(first round, recommendation)`` of a run of
    ``rounds`` rounds: each recommendation scored once, its values repeated over the rounds it stands."""
    if rec_metric is None:
        return
    for (start, rec), (end, _) in zip(changes, [*changes[1:], (rounds + 1, None)], strict=True):
        for key, value in rec_metric(instance, rec).items():
            per_round.setdefault(key, []).extend([value] * (end - start))


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
    (default), an algorithm whose declared `Loop` supports the run (fixed contexts, its kind, parameters and
    snapshots) plays in it: the same `Trace`, bit for bit, tens of times faster; False plays every round through
    the Python class.
    ``trace.info["warnings"]`` lists why the algorithm's guarantee does not hold here (`guarantees`).
    """
    spec = resolve(algorithm, instance)
    horizon = limits.check_int("horizon", horizon, 1, limits.MAX_HORIZON)
    seed = limits.check_int("seed", seed, 0, limits.MAX_SEED)
    snapshots = limits.check_int("snapshots", snapshots, 0, limits.MAX_SNAPSHOTS)
    limits.check_run_size(horizon, instance.K, snapshots)
    alg = spec.make(**params)
    info = {"warnings": list(warnings_for(instance, spec, params))}
    sees_truth = bool(getattr(alg, "sees_truth", False))  # a declared reference oracle (algorithms.base)
    if sees_truth:
        info["sees_truth"] = True
    env = Environment(instance, seed)
    problem = make_problem(instance, horizon, env.context)
    t: int | None = 0  # the round being played, for the error message
    try:
        alg.reset(problem, env.policy_rng)
        contextual = instance.kind == "contextual"
        rec_metric = RECOMMENDATION_METRICS.get(spec.task) if spec.recommends_every_round else None
        snap_at = set(snapshot_rounds(horizon, snapshots).tolist())
        per_round: dict[str, list[float]] = {}
        states, truth = [], []
        # learners that only estimate theta (PFIwR Fig. 1): ||theta_hat - theta|| each round, not a regret
        scores_estimate = getattr(alg, "reports_estimate", False) and instance.theta is not None
        last_rec: tuple[int, ...] | None = None
        rec_values: dict[str, float] = {}
        loop = spec.loop if compiled and (contextual or not env.moving) else None  # not with context noise
        fast = loop is not None and loop.supports(instance.kind, spec.validate(params), snapshots)
        if fast:
            expected = 1 if spec.task in STOPPING_TASKS else horizon  # a run that may stop draws little at first
            t = None  # somewhere inside the fast loop
            played = loop.play(alg, RewardBuffer(env, horizon, expected), horizon, snapshot_rounds(horizon, snapshots))
            arms, rewards, t = played.arms, played.rewards, len(played.arms)
            states.extend(played.snapshots)
            truth.extend(played.truth)
            per_round.update(played.metrics)
            _score_changes(instance, rec_metric, played.changes, t, per_round)
        else:
            arms, rewards = np.empty(horizon, dtype=np.int64), np.empty((horizon, instance.reward_dim))
        for t in range(1, 1 if fast else horizon + 1):
            if env.moving:
                env.next_round()
                problem.context = env.context
            if sees_truth:
                problem.params["true_means"] = env.means
            arm = _arm(alg.select(t), instance.K)
            reward = env.pull(arm)
            reward.flags.writeable = False  # the algorithm's copy of the round's reward is the trace's: read-only
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
                fault = check_state(states[-1], instance.K, instance.L, t)
                if fault:
                    raise _Breach(fault)
                if contextual:
                    truth.append(env.means.copy())
            if alg.done:
                break
    except _Breach as exc:
        raise AlgorithmError(spec.name, t, seed, str(exc)) from None
    except Exception as exc:  # the algorithm's own fault, named with its round (its traceback chained)
        if t == 0 and isinstance(exc, ValueError):
            raise  # reset refusing this problem or these parameters: bad input, its message names the field
        raise AlgorithmError(spec.name, t, seed, f"{type(exc).__name__}: {exc}") from exc
    arms, rewards = arms[:t], rewards[:t]
    metrics = {} if contextual else {k: v[arms] for k, v in arm_regrets(instance, spec.task).items()}
    metrics.update({k: np.asarray(v) for k, v in per_round.items()})
    return Trace(
        instance=instance, algorithm=spec.name, params=spec.validate(params), seed=seed, horizon=horizon,
        arms=arms, rewards=rewards, metrics=metrics, snapshots=states,
        recommendation=alg.recommendation, stopped_at=t if alg.done else None,
        snapshot_means=np.stack(truth) if truth else None, info=info,
    )
