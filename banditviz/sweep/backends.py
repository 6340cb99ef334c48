"""Where a sweep's jobs run: this process, threads of it, a warm pool of local processes, or a Dask cluster.

Each backend yields ``(job index, rows)`` as jobs end; a sweep stopped early (an interrupt) starts no further job."""

from __future__ import annotations

import multiprocessing
import sys
import threading
import types
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

import pandas as pd

from .jobs import Job, Ticker, run_job

BACKENDS = ("serial", "threads", "processes", "dask")


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
_MAIN_LOCK = threading.Lock()  # one worker launch at a time (`_no_main_script`)


@contextmanager
def _no_main_script() -> Iterator[None]:
    """While a worker process is launched, ``__main__`` is a module of no file, so the worker does not run the
    caller's main script again (multiprocessing's spawn and forkserver do, as ``__mp_main__``). Inside Streamlit,
    ``__main__`` is the app's script: each worker ran the whole app (1.2 s more a start, 188 bare-mode warnings).
    A sweep's jobs never need it: `runner` refuses algorithms defined in ``__main__``. One launch at a time (two
    sweeps' launches interleaved would leave the empty module as ``__main__``)."""
    with _MAIN_LOCK:
        main = sys.modules["__main__"]
        sys.modules["__main__"] = types.ModuleType("__main__")
        try:
            yield
        finally:
            sys.modules["__main__"] = main


# forkserver where the platform has it (safe inside threaded hosts; workers fork from a server that imported banditviz
# once), else spawn: either way a worker starts from a fresh interpreter
_START = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
_BASE = multiprocessing.get_context(_START)


class _Worker(_BASE.Process):  # type: ignore[name-defined,misc]
    """A worker process launched without the caller's main script (`_no_main_script`)."""

    @staticmethod
    def _Popen(process_obj):
        with _no_main_script():
            return _BASE.Process._Popen(process_obj)


def _worker_context() -> multiprocessing.context.BaseContext:
    """The `_START` context, its processes `_Worker`s."""
    context = type(_BASE)()
    if _START == "forkserver":
        context.set_forkserver_preload([__name__])
    context.Process = _Worker
    return context


def _pool(workers: int) -> ProcessPoolExecutor:
    """A local pool of ``workers`` processes (`_worker_context`), started on first use and kept warm for the next
    sweeps (a start costs ~1-2 s here)."""
    with _POOLS_LOCK:
        if workers not in _POOLS:
            _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context())
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


BACKEND_RUNNERS = {"serial": _serial, "threads": _threads, "processes": _processes, "dask": _dask}
