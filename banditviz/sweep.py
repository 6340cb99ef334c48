"""Monte Carlo sweeps: every (instance, algorithm, seed) with common random numbers, as one tidy table.

``sweep(instances, algorithms, seeds, horizon, backend=...)`` runs each combination with the engine
(`simulate.run`, which plays an algorithm in a compiled loop when it has one: same numbers) and returns
a pandas DataFrame:

* regret-type algorithms: one row per run and recorded round (every ``record_every`` rounds and the
  last round played), with columns ``instance, algorithm, params, seed, round`` and the cumulative
  value ``cum_<metric>`` of every per-round metric the engine records (``cum_pareto_regret``,
  ``cum_effective_regret``, the lexicographic regrets, the expected reward per objective
  ``cum_reward_<i>``...), the value at that round of a level metric (`LEVEL_METRICS`: ``estimation_error``)
  and ``pulls``, each arm's number of pulls so far joined by commas (``parse_pulls`` reads it back as a matrix);
* identification algorithms (tasks in `IDENTIFICATION_TASKS`): one row per run with ``stopping_time``
  (rounds played: the stopping round, or the horizon when the algorithm did not stop), ``stopped``,
  ``correct`` (the recommended set equals the true Pareto set; strict dominance for "risk-averse",
  RAMGapE Sec. 2), ``recommended`` (arm indices joined by commas; missing when nothing is recommended),
  the task's recommendation metrics of the final answer (``error``, ``simple_regret``), the
  ``cum_<metric>`` totals and ``pulls``; with ``curves=True``, one such row per run and recorded round, holding the
  recommendation metrics at that round (the per-run columns repeated).

``params`` is the JSON of the algorithm's full parameter set (paper defaults included). Backends:
``"serial"``, ``"threads"`` (threads of this process: no start-up, no pickling; parallel where the runs are in
compiled loops, which release the GIL), ``"processes"`` (local cores) and ``"dask"`` (a ``dask.distributed``
scheduler address, or a LocalCluster started for the sweep). Work is cut into jobs of a few seeds each; every job is
deterministic and the jobs' rows are concatenated in job order, so every backend returns the same frame.
Worker processes start from a fresh interpreter (forkserver), so a script that uses the "processes"
backend needs the usual ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import tempfile
import threading
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import instances as _instances
from . import limits
from .algorithms.base import AlgorithmSpec, get_algorithm
from .datasets import DatasetUnavailable
from .instances import Instance, preset
from .metrics import RECOMMENDATION_METRICS
from .pareto import mean_variance
from .presets.pfiwr import pfi_estimation
from .simulate import has_fast_loop, resolve, run

BACKENDS = ("serial", "threads", "processes", "dask")
IDENTIFICATION_TASKS = ("identify", "risk-averse")
DEFAULT_RECORDS = 100  # recorded rounds per run when record_every is not given
LEVEL_METRICS = ("estimation_error",)  # per-round metrics recorded as they stand, not summed over rounds
BATCH_SEEDS = 256  # most seeds in one job of compiled runs (each costs milliseconds: few jobs, little overhead)
GENERATORS: dict[str, Callable[..., Instance]] = {
    "uniform_box": _instances.uniform_box,
    "concave_front": _instances.concave_front,
    "convex_front": _instances.convex_front,
    "random_linear": _instances.random_linear,
    "random_contextual": _instances.random_contextual,
    "pfi_estimation": pfi_estimation,
}
# Nullable types, so that a table mixing regret rows (no stopping time) and identification rows (no round)
# keeps whole numbers and booleans, and survives a Parquet round trip unchanged.
_DTYPES = {"round": "Int64", "stopping_time": "Int64", "stopped": "boolean", "correct": "boolean"}
Progress = Callable[[int, int], None]  # (runs done, runs in total)
Ticker = Callable[[int], None]  # runs done inside the current job


# ---------------------------------------------------------------------- one job (runs in a worker)
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


# ---------------------------------------------------------------------- argument normalisation
def _instance(entry: Instance | str) -> tuple[str, Instance]:
    if isinstance(entry, Instance):
        return entry.name, entry
    if isinstance(entry, str):
        return entry, preset(entry)
    raise ValueError(f"instances: each entry must be an Instance or a preset name, got {type(entry).__name__}")


def normalise_instances(instances: Instance | str | Mapping[str, Instance | str] | Sequence[Instance | str],
                        ) -> list[tuple[str, Instance]]:
    """``(label, Instance)`` pairs: labels are mapping keys, preset names, instance names or "instance i"."""
    if isinstance(instances, (Instance, str)):
        instances = [instances]
    if isinstance(instances, Mapping):
        pairs = [(str(k), _instance(v)[1]) for k, v in instances.items()]
    else:
        pairs = [_instance(e) for e in instances]
        pairs = [(label or f"instance {i}", inst) for i, (label, inst) in enumerate(pairs)]
    if not pairs:
        raise ValueError("instances: give at least one instance")
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"instances: labels must be unique, got {labels}; pass a mapping label -> instance")
    return pairs


AlgorithmEntry = str | AlgorithmSpec | tuple[str | AlgorithmSpec, Mapping[str, Any]]


def normalise_algorithms(algorithms: AlgorithmEntry | Sequence[AlgorithmEntry]) -> list[tuple[AlgorithmSpec, dict]]:
    """``(spec, parameters)`` pairs from names, specs or ``(name, params)`` tuples; parameters are checked
    against the spec but kept as given (the engine fills in the defaults)."""
    if isinstance(algorithms, (str, AlgorithmSpec)) or (
            isinstance(algorithms, tuple) and len(algorithms) == 2 and isinstance(algorithms[1], Mapping)):
        algorithms = [algorithms]  # type: ignore[list-item]
    out = []
    for entry in algorithms:  # type: ignore[union-attr]
        name, params = (entry if isinstance(entry, tuple) else (entry, {}))
        if not isinstance(params, Mapping):
            raise ValueError(f"algorithms: parameters of {name!r} must be a mapping, got {type(params).__name__}")
        spec = name if isinstance(name, AlgorithmSpec) else get_algorithm(name)
        spec.validate(dict(params))
        out.append((spec, dict(params)))
    if not out:
        raise ValueError("algorithms: give at least one algorithm")
    keys = [(spec.name, json.dumps(spec.validate(p), sort_keys=True)) for spec, p in out]
    if len(set(keys)) != len(keys):
        raise ValueError("algorithms: the same algorithm is listed twice with the same parameters")
    return out


def normalise_seeds(seeds: int | Iterable[int]) -> tuple[int, ...]:
    """``n`` means seeds 0..n-1; otherwise distinct whole numbers in [0, 2**32 - 1]."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        n = limits.check_int("seeds", seeds, 1, limits.MAX_SEEDS)
        return tuple(range(n))
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise ValueError(f"seeds: must be a count or a list of whole numbers, got {seeds!r}")
    out = tuple(limits.check_int("seeds: each seed", s, 0, limits.MAX_SEED) for s in seeds)
    limits.check_int("seeds: number of seeds", len(out), 1, limits.MAX_SEEDS)
    if len(set(out)) != len(out):
        raise ValueError("seeds: must be distinct")
    return out


# ---------------------------------------------------------------------- planning and backends
def plan(
    instances: Any, algorithms: Any, seeds: Any, horizon: int, *, record_every: int | None = None,
    batch: bool = True, workers: int = 1, curves: bool = False,
) -> list[Job]:
    """The jobs of a sweep, in output order (instance, then algorithm, then seeds)."""
    pairs = normalise_instances(instances)
    algs = normalise_algorithms(algorithms)
    seed_list = normalise_seeds(seeds)
    horizon = limits.check_int("horizon", horizon, 1, limits.MAX_HORIZON)
    if record_every is None:
        record_every = math.ceil(horizon / DEFAULT_RECORDS)
    record_every = limits.check_int("record_every", record_every, 1, limits.MAX_HORIZON)
    jobs = []
    for label, inst in pairs:
        limits.check_run_size(horizon, inst.K, 1)
        for spec, params in algs:
            resolve(spec, inst)
            fast = batch and has_fast_loop(spec.name, inst.kind)
            size = _seeds_per_job(len(seed_list), workers, fast)
            for i in range(0, len(seed_list), size):
                jobs.append(Job(label, inst, spec, params, seed_list[i:i + size], horizon, record_every, batch,
                                curves))
    return jobs


def spread(jobs: list[Job]) -> list[int]:
    """The order to run ``jobs`` in: round-robin over their (instance, algorithm, parameters) groups, so that every
    stretch of a sweep holds each group's share and the progress' estimate of the time left holds when the
    groups cost differently (LinPSI Fig. 2: K = 8 to 128, APE's runs 10x longer at the end). The table keeps the
    jobs' own order."""
    groups: dict[tuple[str, str, str], list[int]] = {}
    for i, job in enumerate(jobs):
        groups.setdefault((job.label, job.spec.name, repr(job.params)), []).append(i)
    rows = list(groups.values())
    return [g[r] for r in range(max(map(len, rows), default=0)) for g in rows if r < len(g)]


def _seeds_per_job(n_seeds: int, workers: int, fast: bool) -> int:
    """Jobs of compiled runs take up to `BATCH_SEEDS` seeds: all in one job in this process (it reports run by
    run), four jobs per worker otherwise (workers report whole jobs: progress and its time estimate stay
    smooth); other jobs one seed."""
    if not fast:
        return 1
    return max(1, min(BATCH_SEEDS, math.ceil(n_seeds / (1 if workers == 1 else 4 * workers))))


def _serial(jobs: list[Job], workers: int, scheduler: Any, tick: Ticker) -> Iterator[tuple[int, pd.DataFrame]]:
    """In this process, job after job; jobs of several seeds report their progress run by run."""
    for i, job in enumerate(jobs):
        yield i, run_job(job, tick)


def _threads(jobs: list[Job], workers: int, scheduler: Any, tick: Ticker) -> Iterator[tuple[int, pd.DataFrame]]:
    """Threads of this process, for runs in compiled loops (their kernels release the GIL: 1.5-2x on 2 cores,
    `benchmarks/compare.py`). Progress is reported by whole jobs, from the caller's thread; a sweep stopped
    early starts no further job (the running ones finish: a job of compiled runs takes milliseconds to a second)."""
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="banditviz-sweep") as pool:
        futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()


_POOLS: dict[int, ProcessPoolExecutor] = {}
_POOLS_LOCK = threading.RLock()  # re-entered: `_processes` holds it while `_pool` takes it


def _pool(workers: int) -> ProcessPoolExecutor:
    """A local pool of ``workers`` processes, started on first use and kept warm for the next sweeps (a start
    costs ~1-2 s here); workers start from a fresh interpreter (forkserver: safe inside threaded hosts)."""
    with _POOLS_LOCK:
        if workers not in _POOLS:
            if "forkserver" in multiprocessing.get_all_start_methods():
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload([__name__])  # workers fork from a server that imported banditviz once
            else:
                context = multiprocessing.get_context("spawn")
            _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        return _POOLS[workers]


_POOL_USERS: dict[int, int] = {}  # sweeps using each warm pool now
HEARTBEAT = 0.5  # s: the longest a sweep on the process pool goes without calling its progress callback


def _processes(jobs: list[Job], workers: int, scheduler: Any, tick: Ticker) -> Iterator[tuple[int, pd.DataFrame]]:
    """The warm local process pool; a pool that broke (a worker died) is dropped, so the next sweep starts anew.

    A sweep stopped early (an interrupt, such as the app's Cancel, or a failed job) starts no further job, and
    stops the jobs already inside workers by ending the pool when no other sweep is using it."""
    with _POOLS_LOCK:
        pool = _pool(workers)
        _POOL_USERS[workers] = _POOL_USERS.get(workers, 0) + 1
    futures: dict[Any, int] = {}
    try:
        futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=HEARTBEAT, return_when=FIRST_COMPLETED)
            if not finished:
                tick(0)  # no job ended: report anyway, so a caller can interrupt a sweep of long runs
            for future in finished:
                yield futures[future], future.result()
    except BrokenProcessPool:
        _forget(workers, pool)
        raise
    finally:
        for future in futures:  # after a failure or an interrupt, do not start the remaining jobs
            future.cancel()
        with _POOLS_LOCK:
            _POOL_USERS[workers] -= 1
            stop = _POOL_USERS[workers] == 0 and any(future.running() for future in futures)
        if stop:
            _end_pool(workers, pool)


def _forget(workers: int, pool: ProcessPoolExecutor) -> None:
    with _POOLS_LOCK:
        if _POOLS.get(workers) is pool:
            del _POOLS[workers]


def _end_pool(workers: int, pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now, its running jobs included (their processes are terminated), and forget it: the next sweep
    starts a fresh pool. (ProcessPoolExecutor stops running calls only from Python 3.14, `terminate_workers`.)"""
    _forget(workers, pool)
    if hasattr(pool, "terminate_workers"):
        pool.terminate_workers()
        return
    for process in list(pool._processes.values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def _dask(jobs: list[Job], workers: int, scheduler: Any, tick: Ticker) -> Iterator[tuple[int, pd.DataFrame]]:
    """A dask.distributed cluster: the given scheduler (address or Client), else a LocalCluster for this sweep."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise ValueError("backend: 'dask' needs dask.distributed; pip install 'banditviz[distributed]'") from None
    cluster = None
    if isinstance(scheduler, Client):
        client, own_client = scheduler, False
    else:
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            scheduler = cluster
        client, own_client = Client(scheduler), True
    try:
        futures = client.map(run_job, jobs, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future in as_completed(futures):
                yield index[future.key], future.result()
        finally:
            client.cancel(futures)
    finally:
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()


_BACKEND_RUNNERS = {"serial": _serial, "threads": _threads, "processes": _processes, "dask": _dask}


def sweep(
    instances: Instance | str | Mapping[str, Instance | str] | Sequence[Instance | str],
    algorithms: AlgorithmEntry | Sequence[AlgorithmEntry],
    seeds: int | Iterable[int],
    horizon: int,
    *,
    backend: str = "serial",
    workers: int | None = None,
    scheduler: Any = None,
    record_every: int | None = None,
    batch: bool = True,
    curves: bool = False,
    progress: Progress | None = None,
    out: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Run every (instance, algorithm, seed) for ``horizon`` rounds; the tidy table described in the module doc.

    * ``instances``: an `Instance` or preset name, a list of them, or a mapping label -> instance.
    * ``algorithms``: a registered name, ``(name, params)``, or a list of those.
    * ``seeds``: a count n (seeds 0..n-1) or a list of seeds; seed s gives the same noise to every algorithm.
    * ``backend``: "serial", "threads" or "processes" (``workers`` threads or local processes, default: every
      core) or "dask"
      (``scheduler``: an address such as "tcp://10.0.0.5:8786" or a ``distributed.Client``; None starts a
      LocalCluster of ``workers`` processes for this sweep).
    * ``record_every``: rounds between recorded rows (default ``ceil(horizon / 100)``).
    * ``batch``: let `simulate.run` use the compiled loop of an algorithm that has one (same numbers, far
      faster); False plays every round through the Python classes (the reference).
    * ``curves``: identification runs also get a row per recorded round, with the recommendation metrics
      (``error``, ``simple_regret``) at that round and the per-run columns repeated.
    * ``progress(done_runs, total_runs)`` is called after each job (on the process pool also every `HEARTBEAT`
      seconds, so that a caller can interrupt it by raising; the jobs inside workers then stop too); ``out``
      writes the table as Parquet.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend: must be one of {list(BACKENDS)}, got {backend!r}")
    if scheduler is not None and backend != "dask":
        raise ValueError("scheduler: only used with backend='dask'")
    if workers is None:
        workers = 1 if backend == "serial" else os.cpu_count() or 1
    workers = limits.check_int("workers", workers, 1, 1024)
    jobs = plan(instances, algorithms, seeds, horizon, record_every=record_every, batch=batch, workers=workers,
                curves=curves)
    total = sum(len(job.seeds) for job in jobs)
    done = 0

    def tick(runs_in_job: int) -> None:
        if progress is not None:
            progress(done + runs_in_job, total)

    tick(0)
    frames: list[pd.DataFrame | None] = [None] * len(jobs)
    order = spread(jobs)
    runner = _BACKEND_RUNNERS[backend]([jobs[i] for i in order], workers, scheduler, tick)
    with contextlib.closing(runner):  # an interrupt (an exception from progress) stops the backend's jobs at once
        for k, frame in runner:
            i = order[k]
            frames[i] = frame
            done += len(jobs[i].seeds)
            if progress is not None:
                progress(done, total)
    table = pd.concat(frames, ignore_index=True)
    table = table.astype({k: v for k, v in _DTYPES.items() if k in table.columns})
    if out is not None:
        write_parquet(table, out)
    return table


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (instance, algorithm, params): number of runs, mean and sd over seeds of every final
    value (cumulative metrics at the last round; stopping time and final metrics of identification
    runs) and, for identification, the success and stopping rates."""
    keys = ["instance", "algorithm", "params"]
    ident = table["stopping_time"].notna() if "stopping_time" in table else pd.Series(False, index=table.index)
    parts = []
    for rows, is_ident in ((table[~ident], False), (table[ident], True)):
        if not len(rows):
            continue
        final = rows.groupby(keys + ["seed"], sort=False).last().reset_index()  # each run's last row
        part = _describe(final, keys, exclude={"round", "correct", "stopped"})
        if is_ident:
            rates = final.astype({"correct": float, "stopped": float}).groupby(keys, sort=False)[
                ["correct", "stopped"]].mean()
            rates.columns = ["success_rate", "stopped_rate"]
            part = part.join(rates, on=keys)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _describe(runs: pd.DataFrame, keys: list[str], exclude: set[str]) -> pd.DataFrame:
    values = [c for c in runs.columns if c not in {*keys, "seed", *exclude}
              and pd.api.types.is_numeric_dtype(runs[c]) and runs[c].notna().any()]
    grouped = runs.groupby(keys, sort=False)
    out = grouped.size().rename("runs").to_frame()
    for col in values:
        out[f"{col}_mean"] = grouped[col].mean()
        out[f"{col}_sd"] = grouped[col].std(ddof=1)
    return out.reset_index()


def write_parquet(table: pd.DataFrame, path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None
                  ) -> Path:
    """Write ``table`` as Parquet (pyarrow) atomically: a temporary file in the same folder, then a rename.

    ``metadata`` (text keys and values, e.g. the sweep config and the package version) goes into the file's
    key-value metadata under ``banditviz:<key>``; `read_metadata` returns it.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", suffix=".parquet.tmp")
    os.close(fd)
    try:
        arrow = pa.Table.from_pandas(table, preserve_index=False)
        extra = {f"banditviz:{k}".encode(): str(v).encode() for k, v in (metadata or {}).items()}
        pq.write_table(arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), **extra}), tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def read_metadata(path: str | os.PathLike[str]) -> dict[str, str]:
    """The ``banditviz:`` key-value metadata `write_parquet` stored in a Parquet file (prefix removed)."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    prefix = b"banditviz:"
    return {k[len(prefix):].decode(): v.decode() for k, v in meta.items() if k.startswith(prefix)}


def provenance(config_path: str | os.PathLike[str], seeds: Sequence[int], horizon: int) -> dict[str, str]:
    """What made a results file: the package version, the config file's name and text, seeds and horizon."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package_version = version("banditviz")
    except PackageNotFoundError:  # running from a source tree that is not installed
        package_version = "unknown"
    path = Path(config_path)
    return {"version": package_version, "config_name": path.name, "config": path.read_text(encoding="utf-8"),
            "seeds": json.dumps([int(s) for s in seeds]), "horizon": str(horizon)}


# ---------------------------------------------------------------------- TOML configs
@dataclass(frozen=True)
class SweepConfig:
    """A sweep described in a TOML file (see ``experiments/*.toml`` and ``python -m banditviz sweep --help``)."""

    instances: dict[str, Instance]
    algorithms: list[tuple[AlgorithmSpec, dict[str, Any]]]
    seeds: tuple[int, ...]
    horizon: int
    record_every: int | None = None
    curves: bool = False
    description: str = ""

    def run(self, **kwargs: Any) -> pd.DataFrame:
        """`sweep` over this configuration (``backend``, ``workers``, ``progress``, ``out``... as keywords)."""
        return sweep(self.instances, self.algorithms, self.seeds, self.horizon,
                     record_every=self.record_every, curves=self.curves, **kwargs)

    @property
    def runs(self) -> int:
        return len(self.instances) * len(self.algorithms) * len(self.seeds)


_CONFIG_KEYS = {"description", "paper", "horizon", "seeds", "record_every", "curves", "instances", "algorithms"}
_INSTANCE_KEYS = {"label", "preset", "generator", "file", "args", "instance"}
_ALGORITHM_KEYS = {"name", "params"}


def _table(where: str, value: Any, allowed: set[str] | None = None) -> dict[str, Any]:
    """``value`` as a TOML table whose keys are among ``allowed`` (any keys when None)."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: must be a table, got {value!r}")
    unknown = sorted(set(value) - allowed) if allowed is not None else []
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed or ())}")
    return value


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"config: {name} must be true or false, got {value!r}")
    return value


def _build_instance(source: str, value: Any, args: dict[str, Any], folder: Path) -> Instance:
    args = {k: str(folder / v) if k.endswith("_path") and isinstance(v, str) else v for k, v in args.items()}
    if source == "preset":
        return preset(value, **args)
    if source == "generator":
        if value not in GENERATORS:
            raise ValueError(f"generator: unknown name {value!r}; known: {sorted(GENERATORS)}")
        return GENERATORS[value](**args)
    if source == "file":
        return Instance.from_json((folder / value).read_bytes())
    return Instance.from_dict(value)


def _config_instance(where: str, entry: Any, folder: Path) -> tuple[str, Instance]:
    """One ``[[instances]]`` entry: a preset or generator (with ``args``), a JSON file, or an inline instance.

    Paths (``file``, and ``args`` whose name ends in ``_path``) are relative to the config's folder."""
    entry = _table(where, entry, _INSTANCE_KEYS)
    sources = [k for k in ("preset", "generator", "file", "instance") if k in entry]
    if len(sources) != 1:
        raise ValueError(f"{where}: give exactly one of preset, generator, file or instance, got {sources or 'none'}")
    source, value = sources[0], entry[sources[0]]
    args = _table(f"{where}.args", entry.get("args", {}))
    if args and source not in ("preset", "generator"):
        raise ValueError(f"{where}.args: only a preset or a generator takes arguments")
    try:
        inst = _build_instance(source, value, args, folder)
    except TypeError as exc:  # a builder called with an argument it does not take
        raise ValueError(f"{where}.args: {exc}") from None
    except DatasetUnavailable as exc:  # a real-data preset offline: an OSError, not a mistake in the config
        raise DatasetUnavailable(f"{where}: {exc}") from None
    except OSError as exc:
        raise ValueError(f"{where}.file: cannot read {value!r} ({exc.strerror})") from None
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if "label" in entry:
        return str(entry["label"]), inst
    if source == "preset" and not args:
        return value, inst
    return inst.name or where, inst


def load_config(path: str | os.PathLike[str]) -> SweepConfig:
    """Read and validate a sweep config; every mistake is a ValueError naming the key at fault."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"config: cannot read {str(path)!r} ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"config: {path.name} is not valid TOML ({exc})") from None
    return parse_config(text, path.parent, path.name)


def parse_config(text: str, folder: str | os.PathLike[str] = ".", name: str = "config") -> SweepConfig:
    """A sweep config from its TOML text; relative paths in it are read from ``folder``."""
    path = Path(folder) / name
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"config: {path.name} is not valid TOML ({exc})") from None
    _table("config", data, _CONFIG_KEYS)
    for key in ("horizon", "seeds", "instances", "algorithms"):
        if key not in data:
            raise ValueError(f"config: missing key {key!r}")
    if not isinstance(data["instances"], list) or not isinstance(data["algorithms"], list):
        raise ValueError("config: instances and algorithms must be arrays of tables ([[instances]], [[algorithms]])")
    instances: dict[str, Instance] = {}
    for i, entry in enumerate(data["instances"]):
        label, inst = _config_instance(f"instances[{i}]", entry, path.parent)
        if label in instances:
            raise ValueError(f"instances[{i}].label: {label!r} is used twice; give each instance its own label")
        instances[label] = inst
    algorithms = []
    for i, entry in enumerate(data["algorithms"]):
        entry = _table(f"algorithms[{i}]", entry, _ALGORITHM_KEYS)
        if "name" not in entry:
            raise ValueError(f"algorithms[{i}]: missing key 'name'")
        params = _table(f"algorithms[{i}].params", entry.get("params", {}))
        algorithms.append((entry["name"], params))
    config = SweepConfig(
        instances=instances, algorithms=normalise_algorithms(algorithms), seeds=normalise_seeds(data["seeds"]),
        horizon=limits.check_int("horizon", data["horizon"], 1, limits.MAX_HORIZON),
        record_every=None if data.get("record_every") is None else limits.check_int(
            "record_every", data["record_every"], 1, limits.MAX_HORIZON),
        curves=_flag("curves", data.get("curves", False)),
        description=str(data.get("description", "")),
    )
    plan(config.instances, config.algorithms, config.seeds[:1], config.horizon)  # kinds and sizes fit
    return config
