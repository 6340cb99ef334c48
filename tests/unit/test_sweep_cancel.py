"""The local process pool: an interrupted sweep stops the runs already inside workers (the app's Cancel); workers do
not run the caller's main script."""

from __future__ import annotations

import sys
import time
import types

import pandas as pd
import pytest

import banditviz
from banditviz.sweep.backends import _POOLS, _end_pool


class Interrupt(Exception):
    """Stands for Streamlit's interrupt of a script run (raised from the progress callback)."""


@pytest.mark.timeout(120)
def test_an_interrupted_process_sweep_stops_the_runs_inside_its_workers():
    busy, calls = [], []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 3:  # before the jobs, then two heartbeats (1 s): the first runs are inside the workers
            busy.extend(_POOLS[2]._processes.values())
            raise Interrupt

    with pytest.raises(Interrupt):  # Python-loop runs of 100,000 rounds: about 4 s each here
        banditviz.sweep("default", "pareto_ucb1", 6, 100_000, backend="processes", workers=2, batch=False,
                        progress=progress)
    interrupted = time.monotonic()
    while any(p.is_alive() for p in busy) and time.monotonic() - interrupted < 2.0:
        time.sleep(0.05)
    assert busy and not any(p.is_alive() for p in busy), "the workers still run the interrupted sweep's jobs"
    assert 2 not in _POOLS and calls == [0, 0, 0]  # interrupted by a heartbeat, before any run ended
    table = banditviz.sweep("default", "pareto_ucb1", 2, 50, backend="processes", workers=2)  # a fresh pool
    assert sorted(table["seed"].unique()) == [0, 1]


def test_process_workers_do_not_run_the_callers_main_script(tmp_path, monkeypatch):
    """Inside Streamlit ``__main__`` is the app's script: multiprocessing ran it again in every worker (the whole app,
    in bare mode). A main script that fails when run: the sweep is as in-process, and the script ran nowhere."""
    script, ran = tmp_path / "app_script.py", tmp_path / "ran"
    script.write_text(f"open({str(ran)!r}, 'w').close()\nraise SystemExit('the main script ran in a worker')\n")
    main = types.ModuleType("__main__")
    main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert 3 not in _POOLS  # workers launched here
    try:
        got = banditviz.sweep("default", "pareto_ucb1", 3, 300, backend="processes", workers=3, batch=False)
    finally:
        if 3 in _POOLS:  # a pool that broke is already forgotten
            _end_pool(3, _POOLS[3])
    assert not ran.exists()
    want = banditviz.sweep("default", "pareto_ucb1", 3, 300, backend="serial", batch=False)
    pd.testing.assert_frame_equal(got, want)
