"""One job of a sweep: an (instance, algorithm, parameters) on a few seeds, run to its rows of the table (in any
process: workers import this module)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..algorithms.base import AlgorithmSpec
from ..instances import Instance
from ..metrics import RECOMMENDATION_METRICS
from ..pareto import mean_variance
from ..simulate import run

IDENTIFICATION_TASKS = ("identify", "risk-averse")
LEVEL_METRICS = ("estimation_error",)  # per-round metrics recorded as they stand, not summed over rounds
Ticker = Callable[[int], None]  # runs done inside the current job


@dataclass(frozen=True)
class Job:
    """One (instance, algorithm, parameters) on a few seeds: the unit of work sent to a worker."""

    label: str
    instance: Instance
    spec: AlgorithmSpec
    params: dict[str, Any]  # as given; `params_json` fills in the defaults
    seeds: tuple[int, ...]
    horizon: int
    record_every: int
    compiled: bool  # may `simulate.run` use a compiled loop (same numbers)
    curves: bool = False


def recorded_rounds(rounds: int, record_every: int) -> np.ndarray:
    """Rounds kept in the table: every ``record_every``-th round, and the last round played."""
    return np.unique(np.append(np.arange(record_every, rounds + 1, record_every), rounds)).astype(np.int64)


def params_json(job: Job) -> str:
    """The full parameter set (paper defaults filled in) as sorted JSON."""
    return json.dumps(job.spec.validate(job.params), sort_keys=True)


def _frame(job: Job, columns: dict[str, Any]) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    head = {"instance": [job.label] * n, "algorithm": [job.spec.name] * n, "params": [params_json(job)] * n}
    return pd.DataFrame({**head, **{k: np.asarray(v) for k, v in columns.items()}})


def pull_counts(arms: np.ndarray, K: int, rounds: np.ndarray) -> np.ndarray:
    """(len(rounds), K): how often each arm was pulled in rounds 1..r, for each recorded round r."""
    counts = np.zeros((len(rounds), K), dtype=np.int64)
    total, prev = np.zeros(K, dtype=np.int64), 0
    for i, r in enumerate(rounds):
        total += np.bincount(arms[prev:r], minlength=K)
        counts[i], prev = total, r
    return counts


def _pulls_column(counts: np.ndarray) -> list[str]:
    """The ``pulls`` column: one comma-joined row of per-arm counts per recorded round."""
    return [",".join(map(str, row)) for row in counts.reshape(-1, counts.shape[-1]).tolist()]


def parse_pulls(column: Iterable[str]) -> np.ndarray:
    """The ``pulls`` column of a sweep table back as an (rows, K) integer matrix."""
    return np.array([[int(v) for v in cell.split(",")] for cell in column], dtype=np.int64)


def _regret_rows(job: Job, tick: Ticker | None) -> pd.DataFrame:
    """Cumulative metrics at the recorded rounds, one block of rows per seed."""
    rounds: list[np.ndarray] = []
    values: dict[str, list[np.ndarray]] = {}
    pulls: list[np.ndarray] = []
    for i, seed in enumerate(job.seeds):
        trace = run(job.instance, job.spec, job.horizon, seed, snapshots=0, compiled=job.compiled, **job.params)
        rec = recorded_rounds(trace.rounds, job.record_every)
        rounds.append(rec)
        pulls.append(pull_counts(trace.arms, job.instance.K, rec))
        for name, per_round in trace.metrics.items():
            values.setdefault(name, []).append((per_round if name in LEVEL_METRICS else np.cumsum(per_round))[rec - 1])
        if tick is not None and i + 1 < len(job.seeds):  # the sweep reports the job's end itself
            tick(i + 1)
    columns: dict[str, Any] = {"seed": np.repeat(np.array(job.seeds, dtype=np.int64), [len(r) for r in rounds]),
                               "round": np.concatenate(rounds)}
    columns.update({name if name in LEVEL_METRICS else f"cum_{name}": np.concatenate(v) for name, v in values.items()})
    columns["pulls"] = _pulls_column(np.concatenate(pulls))
    return _frame(job, columns)


def _true_set(instance: Instance, task: str) -> set[int] | None:
    """The set an identification algorithm should return: the Pareto set (strict dominance for "risk-averse")."""
    if instance.means is None:
        return None
    return set(mean_variance.pareto_set(instance) if task == "risk-averse" else instance.pareto_set)


def _identification_rows(job: Job, tick: Ticker | None) -> pd.DataFrame:
    """One row per seed (per seed and recorded round with ``curves``): stopping time, success,
    recommended set, recommendation metrics and cumulative metrics."""
    truth = _true_set(job.instance, job.spec.task)
    rec_metric = RECOMMENDATION_METRICS.get(job.spec.task) if job.instance.means is not None else None
    instantaneous = set(rec_metric(job.instance, None)) if rec_metric and job.spec.recommends_every_round else set()
    columns: dict[str, list] = {}
    for i, seed in enumerate(job.seeds):
        trace = run(job.instance, job.spec, job.horizon, seed, snapshots=0, compiled=job.compiled, **job.params)
        rec = trace.recommendation
        per_run: dict[str, Any] = {
            "stopping_time": trace.rounds, "stopped": trace.stopped_at is not None,
            "correct": rec is not None and truth is not None and set(rec) == truth,
            "recommended": None if rec is None else ",".join(str(i) for i in sorted(rec)),
        }
        rounds = recorded_rounds(trace.rounds, job.record_every) if job.curves else np.array([trace.rounds])
        block: dict[str, Any] = {"seed": np.full(len(rounds), seed, dtype=np.int64)}
        if job.curves:
            block["round"] = rounds
        block.update({k: [v] * len(rounds) for k, v in per_run.items()})
        if rec_metric is not None:
            final = rec_metric(job.instance, rec)
            for name, value in final.items():  # the value at each recorded round, the final answer's at the end
                at = trace.metrics[name][rounds - 1] if name in instantaneous else np.full(len(rounds), np.nan)
                at[-1] = value
                block[name] = at
        block.update({f"cum_{k}": np.cumsum(v)[rounds - 1] for k, v in trace.metrics.items()})
        block["pulls"] = _pulls_column(pull_counts(trace.arms, job.instance.K, rounds))
        for key, values in block.items():
            columns.setdefault(key, []).extend(values)
        if tick is not None and i + 1 < len(job.seeds):  # the sweep reports the job's end itself
            tick(i + 1)
    return _frame(job, {k: pd.Series(v) for k, v in columns.items()})


def run_job(job: Job, tick: Ticker | None = None) -> pd.DataFrame:
    """The rows of one job (same result in any process); ``tick(runs)`` reports progress inside the job."""
    if job.spec.task in IDENTIFICATION_TASKS:
        return _identification_rows(job, tick)
    return _regret_rows(job, tick)
