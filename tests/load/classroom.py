"""A class of light visitors (`light_client.Visitor`) against one server: all open a link at once, then each presses
Run with its own seed; what the server spent on them (CPU, memory) and when each had its figure.

Shared by the load test (`test_light_sessions.py`) and the benchmark (`benchmarks/classroom.py`). The server's CPU
and memory are read from /proc (Linux), for the server process and the processes it started.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tests.load.light_client import Page, Visitor

LANDING = {"preset": "default", "alg": "pareto_ucb1", "T": "2000", "seed": "0"}  # the link a teacher hands out


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _family(pid: int) -> set[int]:
    """``pid`` and every process below it."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(_stat(int(entry.name))[1])
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
    family, frontier = {pid}, {pid}
    while frontier:
        frontier = {c for c, p in parents.items() if p in frontier} - family
        family |= frontier
    return family


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by the server and the processes it started."""
    total = 0
    for p in _family(pid):
        try:
            fields = _stat(p)
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def server_rss_mb(pid: int) -> float:
    """Resident memory of the server and the processes it started, in MB."""
    total = 0
    for p in _family(pid):
        try:
            total += int(_stat(p)[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total / 2**20


@dataclass
class Round:
    """One round of visits: each session's page, its seconds to the figure, and the server's CPU for the round."""

    pages: list[Page]
    to_figure: list[float]
    cpu: float

    @property
    def cpu_per_session(self) -> float:
        return self.cpu / len(self.pages)

    def p(self, q: float) -> float:
        return float(np.percentile(self.to_figure, q))


def at_once(pid: int, jobs: Sequence[Callable[[], tuple[Page, float]]]) -> Round:
    """Run every job in a thread of its own, started together; the server's CPU from the start until all ended."""
    results: list[Any] = [None] * len(jobs)
    start = threading.Barrier(len(jobs) + 1)

    def work(i: int) -> None:
        start.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:  # reported below, with the session's number
            results[i] = exc

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(len(jobs))]
    for t in threads:
        t.start()
    before = server_cpu(pid)
    start.wait()
    for t in threads:
        t.join()
    time.sleep(0.3)  # the server's last sends
    cpu = server_cpu(pid) - before
    failed = [(i, r) for i, r in enumerate(results) if isinstance(r, Exception)]
    if failed:
        raise AssertionError(f"{len(failed)} of {len(jobs)} sessions failed; session {failed[0][0]}: {failed[0][1]!r}")
    return Round([r[0] for r in results], [r[1] for r in results], cpu)


def open_sessions(url: str, pid: int, queries: Sequence[dict[str, str]], timeout: float = 300.0
                  ) -> tuple[list[Visitor], Round]:
    """One visitor per query, all opening at once; seconds to the figure count from the visitor's start."""
    visitors: list[Visitor | None] = [None] * len(queries)

    def job(i: int) -> Callable[[], tuple[Page, float]]:
        def run() -> tuple[Page, float]:
            start = time.perf_counter()
            visitors[i] = Visitor(url, queries[i], timeout=timeout)
            connected = time.perf_counter() - start
            page = visitors[i].open()
            if page.figure_at is None:
                raise AssertionError(f"no figure on the page of {queries[i]}")
            return page, connected + page.figure_at
        return run

    round_ = at_once(pid, [job(i) for i in range(len(queries))])
    return [v for v in visitors if v is not None], round_


def press_run(pid: int, visitors: Sequence[Visitor], pages: Sequence[Page], seeds: Sequence[int]) -> Round:
    """Each visitor types its seed into the form and presses Run, all at once."""
    def job(i: int) -> Callable[[], tuple[Page, float]]:
        def run() -> tuple[Page, float]:
            page = visitors[i].press(pages[i], "Run", {"Seed": seeds[i]})
            if page.figure_at is None:
                raise AssertionError(f"no figure after Run with seed {seeds[i]}")
            return page, page.figure_at
        return run

    return at_once(pid, [job(i) for i in range(len(visitors))])


def idle_mb_per_session(url: str, pid: int, sessions: int, query: dict[str, str] = LANDING) -> float:
    """The server's memory per session left open and idle, after a visit to ``query`` (already made once)."""
    warm, _ = open_sessions(url, pid, [query])
    close(warm)
    time.sleep(0.5)
    before = server_rss_mb(pid)
    visitors, _ = open_sessions(url, pid, [query] * sessions)
    time.sleep(1.0)
    after = server_rss_mb(pid)
    close(visitors)
    return (after - before) / sessions


def close(visitors: Sequence[Visitor]) -> None:
    for v in visitors:
        v.close()
