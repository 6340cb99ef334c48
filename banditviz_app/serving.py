"""How one server process serves a class: work shared between sessions, a line for long work, a light collector.

Streamlit runs every session's script in the one server process, so what a visit costs, thirty visits cost thirty
times over. Three things keep a visit cheap and say so when it is not (issue 30, "a class of 30 on one laptop"):

* `BoundedCache`: a value (a figure serialised for the browser) made once per key for every session, the cache kept
  under a size in bytes (least recently used dropped first); sessions asking for a key being made wait for that one
  computation instead of repeating it.
* `Line`: long computations (a run and its figure) go first come, first served, at most ``slots`` at a time (the
  machine's cores); a session waiting for its turn is told how many are ahead of it, so its page shows what it waits
  for rather than a blank.
* `settle`: Streamlit collects garbage after every script run (``runner.postScriptGC``), a full collection that
  scans every Python object the process holds (the imported modules: plotly's validators, numba, pandas: about
  0.1 s on this machine, half of what a cached visit cost). Once per process, after the first run, the objects that
  exist then are moved out of the collector's sight (`gc.freeze`), so each later collection scans only what the
  sessions made since. Decision: the first run's own objects are frozen with the modules; they live as long as that
  session at most, and a cycle among them is then kept until the process ends (one session's worth, once).
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

V = TypeVar("V")


class BoundedCache(Generic[V]):
    """Values made once per key and shared, their total ``size`` (bytes) kept at most ``max_bytes``.

    `get` returns the stored value, or makes it with ``make()`` while other callers of the same key wait for it (one
    computation per key at a time; ``waiting()`` is called once by a caller that starts to wait). A value larger than
    ``max_bytes`` is returned but not kept.
    """

    def __init__(self, max_bytes: int, size: Callable[[V], int]) -> None:
        if max_bytes <= 0:
            raise ValueError(f"max_bytes: must be positive, got {max_bytes}")
        self.max_bytes, self._size = max_bytes, size
        self._values: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._making: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        with self._lock:
            return sum(n for _, n in self._values.values())

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._values

    def get(self, key: Hashable, make: Callable[[], V], waiting: Callable[[], None] | None = None) -> V:
        told = False
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key][0]
                made = self._making.get(key)
                if made is None:  # this caller makes it
                    made = self._making[key] = threading.Event()
                    break
            if waiting is not None and not told:
                waiting()
                told = True
            made.wait()  # another caller is making it: take its value (or make it, if that one failed)
        try:
            value = make()
            self._keep(key, value)
            return value
        finally:
            with self._lock:
                del self._making[key]
            made.set()

    def _keep(self, key: Hashable, value: V) -> None:
        n = self._size(value)
        with self._lock:
            if n > self.max_bytes:
                return
            self._values[key] = (value, n)
            total = sum(size for _, size in self._values.values())
            while total > self.max_bytes:
                _, (_, dropped) = self._values.popitem(last=False)
                total -= dropped


class Line:
    """First come, first served, at most ``slots`` computations at a time."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"slots: must be at least 1, got {slots}")
        self.slots = slots
        self._waiting: deque[object] = deque()
        self._running = 0
        self._changed = threading.Condition()

    @contextmanager
    def turn(self, ahead: Callable[[int], None] | None = None, every: float = 0.5) -> Iterator[None]:
        """Wait for this caller's turn, then hold a slot for the ``with`` block.

        While it waits, ``ahead(n)`` is called (outside the line's lock) each time ``n``, the number of computations
        ahead of this one (running, or in line before it), changes; the line is looked at again every ``every``
        seconds and whenever a computation ends. If ``ahead`` raises (Streamlit stops a script that way), the caller
        leaves the line."""
        ticket, told = object(), None
        with self._changed:
            self._waiting.append(ticket)
        try:
            while True:
                with self._changed:
                    n = self._running + self._waiting.index(ticket)
                    if self._running < self.slots and self._waiting[0] is ticket:
                        self._waiting.popleft()
                        self._running += 1
                        break
                if ahead is not None and n != told:
                    ahead(n)
                    told = n
                with self._changed:
                    self._changed.wait(timeout=every)
        except BaseException:
            with self._changed:
                if ticket in self._waiting:
                    self._waiting.remove(ticket)
                self._changed.notify_all()
            raise
        try:
            yield
        finally:
            with self._changed:
                self._running -= 1
                self._changed.notify_all()

    def __len__(self) -> int:
        """Computations running or waiting."""
        with self._changed:
            return self._running + len(self._waiting)


_settled = threading.Event()
_settling = threading.Lock()


def settle() -> None:
    """Once per process: collect, then freeze what exists (`gc.freeze`), so the collection Streamlit runs after every
    script run scans only what the sessions made since (see the module's docstring)."""
    if _settled.is_set():
        return
    with _settling:
        if not _settled.is_set():
            gc.collect()
            gc.freeze()
            _settled.set()
