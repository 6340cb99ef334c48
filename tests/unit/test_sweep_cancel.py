"""An interrupted sweep on the local process pool stops the runs already inside workers (the app's Cancel)."""

from __future__ import annotations

import time

import pytest

import banditviz
from banditviz.sweep.backends import _POOLS


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
