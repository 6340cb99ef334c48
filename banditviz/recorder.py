"""Write the log of a run from any loop (issue 25, "your own runs"): `Recorder` keeps what each round gives and saves it
as a log (`banditviz.runlog`, CSV, npz or Parquet) or hands it over as a `Trace`, validated as a log file is read."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from . import limits, runlog
from .algorithms.base import STATUS_NAMES
from .trace import Trace


class Recorder:
    """A run's log, one `record` per round: ``Recorder(arms=K, objectives=("speed", "cost"))``, then
    ``record(t, arm, reward)`` for t = 1, 2, ..., optionally with what the algorithm reports that round
    (``estimates``, ``lower``, ``upper`` K x L, ``status`` K codes or names, ``front`` arm indices); `save` writes
    the log, `trace` gives the run to draw. ``directions`` ("max"/"min" per objective) and the other header keys of
    `runlog` (``algorithm``, ``seed``, ``means``, ``instance``, ``params``, ...) go to the log's header; rewards,
    estimates and bounds are given as observed (a "min" objective not negated)."""

    def __init__(self, arms: int, objectives: Sequence[str], directions: Sequence[str] | None = None,
                 **header: Any) -> None:
        self.K = limits.check_int("arms", arms, 2, limits.MAX_ARMS)
        if isinstance(objectives, str) or not 0 < len(objectives) <= limits.MAX_OBJECTIVES:
            raise ValueError(f"objectives: must be 1 to {limits.MAX_OBJECTIVES} names, got {objectives!r}")
        self.objectives = [str(o) for o in objectives]
        self.header: dict[str, Any] = {**header, "arms": self.K}
        if directions is not None:
            self.header["directions"] = list(directions)
        self._arms: list[int] = []
        self._rewards: list[np.ndarray] = []
        self._snapshots: dict[int, dict[str, Any]] = {}

    def _grid(self, name: str, value: Any, t: int) -> np.ndarray:
        grid = np.asarray(value, dtype=float)
        if grid.shape != (self.K, len(self.objectives)):
            raise ValueError(f"{name}: round {t} gave shape {grid.shape}; expected ({self.K}, "
                             f"{len(self.objectives)}) (arms x objectives)")
        return grid

    def record(self, round: int, arm: int, reward: Iterable[float], estimates: Any = None, lower: Any = None,
               upper: Any = None, status: Sequence[int | str] | None = None,
               front: Iterable[int] | None = None) -> None:
        """Round ``round`` (1, 2, 3, ... in order): the ``arm`` pulled (an integer in [0, K)), the ``reward`` vector
        observed, and optionally what the algorithm reports (NaN where it has no value yet, bounds may be infinite)."""
        t = len(self._arms) + 1
        if isinstance(round, bool) or not isinstance(round, (int, np.integer)) or round != t:
            raise ValueError(f"round: expected {t} (the rounds 1, 2, 3, ... in order), got {round!r}")
        if isinstance(arm, bool) or not isinstance(arm, (int, np.integer)) or not 0 <= arm < self.K:
            raise ValueError(f"arm: round {t} gave {arm!r}; allowed an integer in [0, {self.K})")
        values = np.array(reward, dtype=float).reshape(-1)
        if len(values) != len(self.objectives):
            raise ValueError(f"reward: round {t} gave {len(values)} values; expected one per objective "
                             f"{self.objectives}")
        snap: dict[str, Any] = {}
        for name, value in (("estimate", estimates), ("lower", lower), ("upper", upper)):
            if value is not None:
                snap[name] = self._grid(name if name != "estimate" else "estimates", value, t)
        if status is not None:
            names = [STATUS_NAMES[s] if isinstance(s, (int, np.integer)) and 0 <= s < len(STATUS_NAMES) else str(s)
                     for s in status]
            if len(names) != self.K:
                raise ValueError(f"status: round {t} gave {len(names)} statuses; expected one per arm ({self.K})")
            snap["status"] = names
        if front is not None:
            snap["front"] = " ".join(str(a) for a in front)
        self._arms.append(int(arm))
        self._rewards.append(values)
        if snap:
            self._snapshots[t - 1] = snap

    def columns(self) -> dict[str, np.ndarray]:
        """The log's columns (`runlog`): a snapshot kind has columns only if some round gave it."""
        n, names = len(self._arms), self.objectives
        if not n:
            raise ValueError("rows: nothing recorded yet (call record(1, arm, reward) first)")
        rewards = np.vstack(self._rewards)
        data: dict[str, np.ndarray] = {"round": np.arange(1, n + 1), "arm": np.array(self._arms, dtype=np.int64),
                                       **{f"reward[{o}]": rewards[:, j] for j, o in enumerate(names)}}
        given = {kind for snap in self._snapshots.values() for kind in snap}
        for kind in ("estimate", "lower", "upper"):
            if kind in given:
                grid = np.full((n, self.K, len(names)), np.nan)
                for r, snap in self._snapshots.items():
                    if kind in snap:
                        grid[r] = snap[kind]
                data.update({f"{kind}[{a}][{o}]": grid[:, a, j] for a in range(self.K) for j, o in enumerate(names)})
        if "status" in given:
            status = np.full((n, self.K), "", dtype=object)
            for r, snap in self._snapshots.items():
                if "status" in snap:
                    status[r] = snap["status"]
            data.update({f"status[{a}]": status[:, a].astype(str) for a in range(self.K)})
        if "front" in given:
            data["front"] = np.array([self._snapshots.get(r, {}).get("front", "") for r in range(n)], dtype=str)
        return data

    def trace(self) -> Trace:
        """The run recorded so far, as `Trace.from_log` reads its log (ValueError naming the field if it is not
        one)."""
        return Trace(**runlog.from_columns(self.columns(), self.header))

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Trace:
        """Write the log (``format`` "csv", "npz" or "parquet", default ``path``'s suffix, else CSV) after checking it
        reads back; returns the run as a `Trace`."""
        data = self.columns()
        trace = Trace(**runlog.from_columns(dict(data), self.header))
        runlog.save(self.header, data, path, format)
        return trace
