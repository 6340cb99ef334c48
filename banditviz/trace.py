"""`Trace`: the columnar record of one run (per-round arrays plus `RoundState` snapshots).

Saved as one ``.npz`` (numpy arrays, no pickle) holding the instance and metadata as JSON, so a saved
trace reloads bit for bit: per-round arrays in the .npz, extras/params/info as JSON whose arrays, numpy
scalars and non-finite floats carry their raw bytes (`_encode`).
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import struct
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import runlog
from .algorithms.base import RoundState
from .instances import Instance

_SNAPSHOT_ARRAYS = ("estimates", "lower", "upper", "status", "counts")


def _bits(value: float) -> str:
    return struct.pack("<d", value).hex()


def _raw(value: np.ndarray | np.generic) -> str:
    return base64.b64encode(np.ascontiguousarray(value).tobytes()).decode("ascii")


def _encode(value: Any) -> Any:
    """JSON-ready form of snapshot extras, params and info that decodes bit for bit.

    Arrays and numpy scalars keep their dtype and raw bytes (so NaN payloads and -0.0 survive), tuples and
    dicts with non-string keys are tagged, non-finite floats are stored as their IEEE 754 bits.
    """
    if isinstance(value, np.ndarray) and value.dtype != object:
        return {"__raw__": _raw(value), "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, np.ndarray):
        return {"__array__": _encode(value.tolist()), "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, np.generic):
        return {"__scalar__": _raw(value), "dtype": value.dtype.str}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"__dict__": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, float) and not math.isfinite(value):
        return {"__float__": _bits(value)}
    return value


def _decode(value: Any) -> Any:
    """Inverse of `_encode` (also reads the list-based arrays and named non-finite floats of older files)."""
    if isinstance(value, dict):
        if "__raw__" in value:
            data = base64.b64decode(value["__raw__"])
            return np.frombuffer(data, dtype=np.dtype(value["dtype"])).reshape(value["shape"]).copy()
        if "__scalar__" in value:
            return np.frombuffer(base64.b64decode(value["__scalar__"]), dtype=np.dtype(value["dtype"]))[0]
        if "__array__" in value:
            return np.array(_decode(value["__array__"]), dtype=np.dtype(value["dtype"])).reshape(value["shape"])
        if "__tuple__" in value:
            return tuple(_decode(v) for v in value["__tuple__"])
        if "__dict__" in value:
            return {_decode(k): _decode(v) for k, v in value["__dict__"]}
        if "__float__" in value:
            text = value["__float__"]
            return float(text) if text in ("nan", "inf", "-inf") else struct.unpack("<d", bytes.fromhex(text))[0]
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


_EXPECTED = re.compile(r"^(cum_)?reward_(\d+)(_mean|_sd)?$")


def column_name(metric: str, objective_names: Sequence[str]) -> str:
    """The name a table shows for a metric column: the expected reward of the pulled arm in objective i (``reward_i``,
    ``cum_reward_i``, ``cum_reward_i_mean``...) becomes ``expected_reward[<objective i>]`` (with its prefix and
    suffix), so that it is never read as the reward observed; other names are kept. Saved traces and sweep tables
    keep the short names."""
    m = _EXPECTED.match(metric)
    if m is None or not 1 <= int(m.group(2)) <= len(objective_names):
        return metric
    return f"{m.group(1) or ''}expected_reward[{objective_names[int(m.group(2)) - 1]}]{m.group(3) or ''}"


@dataclass
class Trace:
    """Everything recorded about one (instance, algorithm, seed) run.

    ``arms[t-1]`` and ``rewards[t-1]`` belong to round t; ``metrics`` maps a name (``pareto_regret``,
    ``effective_regret``, ``error``...) to one instantaneous value per round; ``snapshot_means`` holds
    the true means at each snapshot round for contextual instances (None otherwise).
    """

    instance: Instance
    algorithm: str
    params: dict[str, Any]
    seed: int
    horizon: int
    arms: np.ndarray
    rewards: np.ndarray
    metrics: dict[str, np.ndarray]
    snapshots: list[RoundState]
    recommendation: tuple[int, ...] | None = None
    stopped_at: int | None = None
    snapshot_means: np.ndarray | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        """ValueError naming the field when the per-round arrays do not describe one run on the instance."""
        n, K = len(self.arms), self.instance.K
        if np.ndim(self.arms) != 1 or np.asarray(self.arms).dtype.kind not in "iu":
            raise ValueError(f"arms: must be a 1-d integer array, got shape {np.shape(self.arms)} and dtype "
                             f"{np.asarray(self.arms).dtype}")
        if n and not (0 <= self.arms.min() and self.arms.max() < K):
            raise ValueError(f"arms: must be arm indices in [0, {K}), got values from {self.arms.min()} to "
                             f"{self.arms.max()}")
        if np.shape(self.rewards) != (n, self.instance.reward_dim):
            raise ValueError(f"rewards: must have one row of {self.instance.reward_dim} per round played ({n}), "
                             f"got shape {np.shape(self.rewards)}")
        for name, values in self.metrics.items():
            if len(values) != n:
                raise ValueError(f"metrics[{name!r}]: must hold one value per round played ({n}), got {len(values)}")

    @property
    def rounds(self) -> int:
        """Number of rounds actually played (the horizon, or the stopping round)."""
        return len(self.arms)

    @property
    def snapshot_rounds(self) -> np.ndarray:
        return np.array([s.t for s in self.snapshots], dtype=np.int64)

    def cumulative(self, name: str) -> np.ndarray:
        return np.cumsum(self.metrics[name])

    @property
    def truth_known(self) -> bool:
        """False for a logged run given without its true means (`from_log`): its instance then holds stand-in means
        (the empirical ones) for its names and shape, which nothing may read as the truth."""
        return not self.info.get("truth_unknown", False)

    @property
    def gives_bounds(self) -> bool:
        """False for a logged run without confidence bounds (`from_log`): its NaN bounds are none given, not (as an
        algorithm's NaN) unbounded, and no box is drawn."""
        return not self.info.get("no_bounds", False)

    def truth_at(self, index: int) -> np.ndarray | None:
        """True means (K x L) at snapshot ``index``: fixed means, or that round's contextual means; None when the
        truth is unknown (a logged run without its means)."""
        if not self.truth_known:
            return None
        if self.snapshot_means is not None:
            return self.snapshot_means[index]
        return self.instance.means

    def to_frame(self) -> pd.DataFrame:
        """One row per round: round, arm, the reward observed (one column per objective, or one sample of a
        risk-averse arm), then each metric, named by `column_name` (the pulled arm's expected reward per objective,
        ``reward_i``, as ``expected_reward[<objective>]``). Rewards and expected rewards are in the maximised
        orientation (a minimised objective negated), as the learner sees them."""
        data: dict[str, Any] = {"round": np.arange(1, self.rounds + 1), "arm": self.arms}
        if self.instance.reward_dim == 1:
            data["observed_reward"] = self.rewards[:, 0]
        for j, name in enumerate(self.instance.objective_names if self.instance.reward_dim > 1 else ()):
            data[f"observed_reward[{name}]"] = self.rewards[:, j]
        data.update({column_name(k, self.instance.objective_names): v for k, v in self.metrics.items()})
        return pd.DataFrame(data)

    # ------------------------------------------------------------------ logs of one's own runs
    @classmethod
    def from_log(cls, source: Any, header: Any = None) -> Trace:
        """A run logged by one's own code, read from a CSV, npz or Parquet log (format ``banditviz-log v1``, `runlog`;
        the form told by the content): ``source`` a path, bytes, text or file; ``header`` an optional side JSON (a
        dict or a path) with the header's keys (the algorithm's name, the seed, the number of arms, the directions,
        the true means...). Without the true means, the trace draws what the log knows (empirical means, pull counts)
        and records no regret (`runlog`).
        Every fault is a ValueError naming the column or header key, the row and what is allowed."""
        return cls(**runlog.read(source, header))

    def to_log(self, dest: str | os.PathLike[str] | Any = None, format: str | None = None) -> str | bytes:
        """This run as a log (`runlog.write`): CSV text, or npz or Parquet bytes (``format`` "csv", "npz" or
        "parquet", default ``dest``'s suffix, else CSV), to ``dest`` (a path or a file) if given; returns it."""
        return runlog.write(self, dest, format)

    # ------------------------------------------------------------------ save / load
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write an .npz atomically (temporary file, then rename): never a half-written file."""
        path = Path(path)
        meta = {
            "instance": self.instance.to_dict(), "algorithm": self.algorithm, "params": _encode(self.params),
            "seed": self.seed, "horizon": self.horizon, "stopped_at": self.stopped_at,
            "recommendation": None if self.recommendation is None else list(self.recommendation),
            "metric_names": list(self.metrics), "info": _encode(self.info),
            "snapshots": [{"t": s.t, "front": list(s.front), "pulled": s.pulled, "events": list(s.events),
                           "extras": _encode(s.extras)} for s in self.snapshots],
        }
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta)), "arms": self.arms,
                                         "rewards": self.rewards}
        for i, name in enumerate(self.metrics):
            arrays[f"metric_{i}"] = self.metrics[name]
        for key in _SNAPSHOT_ARRAYS:
            if self.snapshots:
                arrays[f"snap_{key}"] = np.stack([getattr(s, key) for s in self.snapshots])
        if self.snapshot_means is not None:
            arrays["snapshot_means"] = self.snapshot_means
        fd, tmp = tempfile.mkstemp(dir=path.parent or ".", suffix=".npz.tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                np.savez_compressed(fh, **arrays)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Trace:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            arrays = {k: z[k] for k in z.files}
        snaps = []
        for i, s in enumerate(meta["snapshots"]):
            fields = {key: arrays[f"snap_{key}"][i] for key in _SNAPSHOT_ARRAYS}
            snaps.append(RoundState(t=s["t"], front=tuple(s["front"]), pulled=s["pulled"],
                                    events=tuple(s["events"]), extras=_decode(s["extras"]), **fields))
        rec = meta["recommendation"]
        return cls(
            instance=Instance.from_dict(meta["instance"]), algorithm=meta["algorithm"],
            params=_decode(meta["params"]), seed=meta["seed"], horizon=meta["horizon"],
            arms=arrays["arms"], rewards=arrays["rewards"],
            metrics={name: arrays[f"metric_{i}"] for i, name in enumerate(meta["metric_names"])},
            snapshots=snaps, recommendation=None if rec is None else tuple(rec),
            stopped_at=meta["stopped_at"], snapshot_means=arrays.get("snapshot_means"),
            info=_decode(meta["info"]),
        )
