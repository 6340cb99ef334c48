"""What one server process shares between sessions (`banditviz_app.serving`, `runs.animation`): a cache bounded in
bytes that makes each value once, a first-come-first-served line that tells a waiting page its place, and Watch's
figures made once per setting. Each check also runs a deliberately broken variant and expects it caught."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from banditviz_app import runs, serving, state


class NeverDrops(serving.BoundedCache):
    """Broken: keeps every value (no size limit)."""

    def _keep(self, key, value):
        with self._lock:
            self._values[key] = (value, self._size(value))


class MakesEachTime(serving.BoundedCache):
    """Broken: no waiting for a value being made (every caller makes its own)."""

    def get(self, key, make, waiting=None):
        with self._lock:
            if key in self._values:
                return self._values[key][0]
        value = make()
        self._keep(key, value)
        return value


def largest_size(cache: serving.BoundedCache) -> int:
    """The largest total size seen while 40 values of 1-9 kB go in and the first one is read now and then."""
    largest = 0
    for i in range(40):
        cache.get(i, lambda i=i: b"x" * (1000 * (1 + i % 9)))
        if i % 3 == 0:
            cache.get(0, lambda: b"x" * 1000)  # read often: kept
        largest = max(largest, cache.nbytes)
    return largest


def test_the_cache_stays_under_its_size_dropping_the_least_recently_used():
    cache = serving.BoundedCache(20_000, len)
    assert largest_size(cache) <= 20_000
    assert 0 in cache and 39 in cache and 1 not in cache  # the oldest unread ones went first
    assert serving.BoundedCache(5, len).get("big", lambda: b"123456") == b"123456"  # too big: given, not kept
    assert largest_size(NeverDrops(20_000, len)) > 20_000
    with pytest.raises(ValueError, match="max_bytes"):
        serving.BoundedCache(0, len)


def made_by(cache: serving.BoundedCache, callers: int = 6) -> tuple[int, set[int], int]:
    """How many times ``callers`` threads asking at once for one key made it, the identities of what they got, and
    how many were told that they wait."""
    made, got, told = [], [], []

    def make():
        made.append(1)
        time.sleep(0.3)
        return object()

    threads = [threading.Thread(target=lambda: got.append(cache.get("k", make, lambda: told.append(1))))
               for _ in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(made), {id(v) for v in got}, len(told)


def test_callers_of_one_key_wait_for_the_one_computation():
    made, got, told = made_by(serving.BoundedCache(10_000, lambda v: 1))
    assert (made, len(got), told) == (1, 1, 5)
    made, got, _ = made_by(MakesEachTime(10_000, lambda v: 1))
    assert made > 1 and len(got) > 1


class NoLimit(serving.Line):
    """Broken: everyone goes at once."""

    def __init__(self, slots):
        super().__init__(10_000)


def served(line: serving.Line, callers: int = 4) -> tuple[list[int], list[list[int]], int]:
    """``callers`` threads entering ``line`` one after another, each once the one before is in it (so the order and
    the places do not hang on the machine's speed); a turn is held until all have entered, then 0.2 s. Returns the
    order they were served in, what each was told while it waited, and the most that held a turn at once."""
    order, told, holding, most = [], [[] for _ in range(callers)], [0], [0]
    lock, everyone_in = threading.Lock(), threading.Event()

    def visit(i: int) -> None:
        with line.turn(told[i].append, every=0.05):
            with lock:
                order.append(i)
                holding[0] += 1
                most[0] = max(most[0], holding[0])
            everyone_in.wait(timeout=30)
            time.sleep(0.2)
            with lock:
                holding[0] -= 1

    def entered(n: int) -> None:
        waited = time.monotonic()
        while len(line) < n and time.monotonic() - waited < 30:
            time.sleep(0.005)

    threads = []
    for i in range(callers):
        threads.append(threading.Thread(target=visit, args=(i,)))
        threads[-1].start()
        entered(i + 1)  # in this order
    everyone_in.set()
    for t in threads:
        t.join()
    return order, told, most[0]


def test_the_line_serves_first_come_first_and_tells_each_its_place():
    order, told, most = served(serving.Line(1))
    assert order == [0, 1, 2, 3] and most == 1
    assert told[0] == [] and told[3][0] == 3 and all(t == sorted(t, reverse=True) for t in told)  # places go down
    assert told[3][-1] == 1  # told when one was left ahead
    assert served(serving.Line(2))[2] == 2
    assert served(NoLimit(1))[2] > 1
    assert len(serving.Line(1)) == 0


def test_a_caller_that_stops_while_waiting_leaves_the_line():
    line, entered = serving.Line(1), threading.Event()

    def hold() -> None:
        with line.turn():
            entered.set()
            time.sleep(0.3)

    holder = threading.Thread(target=hold)
    holder.start()
    entered.wait()

    def stop(ahead: int) -> None:
        raise RuntimeError("stopped")  # as Streamlit stops a script: at its next element

    with pytest.raises(RuntimeError):
        with line.turn(stop):
            pass
    assert len(line) == 1  # only the holder
    holder.join()
    assert len(line) == 0


DEFAULT = state.default_setting()


def test_watch_figures_are_made_once_per_setting_and_kept_under_the_limit(monkeypatch):
    monkeypatch.setattr(runs, "PREPARED", serving.BoundedCache(2**26, lambda p: p.nbytes))
    first = runs.animation(replace(DEFAULT, horizon=300))
    assert runs.animation(replace(DEFAULT, horizon=300)) is first  # the same text, not made again
    assert first.parts["title"] and '"frames"' in first.spec and len(runs.PREPARED) == 1
    limit = int(2.5 * first.nbytes)  # room for two
    monkeypatch.setattr(runs, "PREPARED", serving.BoundedCache(limit, lambda p: p.nbytes))
    for seed in range(1, 4):
        runs.animation(replace(DEFAULT, horizon=300, seed=seed))
        assert runs.PREPARED.nbytes <= limit
    assert len(runs.PREPARED) == 2
    assert runs.PREPARED_MAX_BYTES <= 128 * 2**20  # a class's figures in memory once: the server's bound


def test_a_page_waiting_for_its_figure_is_told_what_it_waits_for(monkeypatch):
    monkeypatch.setattr(runs, "PREPARED", serving.BoundedCache(2**26, lambda p: p.nbytes))
    monkeypatch.setattr(runs, "LINE", serving.Line(1))
    setting = replace(DEFAULT, horizon=300, seed=11)
    entered = threading.Event()

    def busy() -> None:  # another session's long run holds the one slot
        with runs.LINE.turn():
            entered.set()
            time.sleep(0.8)

    other = threading.Thread(target=busy)
    other.start()
    entered.wait()
    told, second = [], []
    waiter = threading.Thread(target=lambda: (time.sleep(0.3), runs.animation(setting, waiting=second.append)))
    waiter.start()  # a second session asks for the same setting meanwhile
    runs.animation(setting, waiting=told.append)
    other.join()
    waiter.join()
    assert told[0] == "The server is busy: 1 run ahead of this one..."
    assert told[1].startswith("Running pareto_ucb1 for 300 rounds (seed 11)")
    assert second == ["The same run is being made for another visitor..."]
    assert runs.animation(setting, waiting=told.append) and len(told) == 2  # made: nothing to wait for
