"""`sweep`: plan the jobs, run them on a backend, put their rows together in the jobs' order."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from .. import limits
from ..instances import Instance
from .backends import BACKEND_RUNNERS, BACKENDS
from .jobs import Job
from .plan import AlgorithmEntry, plan, spread
from .tables import write_parquet

_DTYPES = {"round": "Int64", "stopping_time": "Int64", "stopped": "boolean", "correct": "boolean"}
Progress = Callable[[int, int], None]  # (runs done, runs in total)


def _check_importable(jobs: list[Job], backend: str) -> None:
    """ValueError for an algorithm whose class workers cannot import (defined in a script or a notebook): its jobs
    would fail to unpickle there, and the pool would die with BrokenProcessPool instead of a reason."""
    for job in jobs:
        if job.spec.cls.__module__ == "__main__":
            raise ValueError(f"algorithms: {job.spec.name} is defined in __main__ (a script or a notebook), which "
                             f"{backend} workers cannot import; move it to a module (see BANDITVIZ_PLUGINS) or use "
                             "backend='serial' or 'threads'")


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
    * an algorithm that raises or breaks the contract stops the sweep with `banditviz.simulate.AlgorithmError` naming
      it, the round and the seed, on every backend (from a worker process too).
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
    if backend in ("processes", "dask"):
        _check_importable(jobs, backend)
    total = sum(len(job.seeds) for job in jobs)
    done = 0

    def tick(runs_in_job: int) -> None:
        if progress is not None:
            progress(done + runs_in_job, total)

    tick(0)
    frames: list[pd.DataFrame | None] = [None] * len(jobs)
    order = spread(jobs)
    runner = BACKEND_RUNNERS[backend]([jobs[i] for i in order], workers, scheduler, tick)
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
