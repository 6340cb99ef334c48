"""Size limits shared by the API and the app, so that no input makes one session allocate more than a
few hundred MB (issue "Reliability and safety"). Each check raises ValueError naming the field."""

from __future__ import annotations

import numpy as np

MAX_ARMS = 1000
MAX_OBJECTIVES = 8
MAX_DIM = 64
MAX_HORIZON = 10_000_000
MAX_SNAPSHOTS = 300
MAX_SEED = 2**32 - 1
MAX_SEEDS = 10_000
MAX_UPLOAD_BYTES = 1_000_000
MAX_LOG_BYTES = 30_000_000  # a logged run (`runlog`): ~10^6 rounds of two objectives
MAX_LOG_DECODED_BYTES = 150_000_000  # an npz or Parquet log uncompressed (a CSV log's cells take as much, read)
# horizon x K x snapshots bounds the memory of one trace (snapshots are K x L arrays, rounds are rows).
MAX_WORK = 2_000_000_000


def check_int(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int in [low, high], or ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            as_float = float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"{name}: must be a whole number in [{low}, {high}], got {value!r}") from None
        if not as_float.is_integer():
            raise ValueError(f"{name}: must be a whole number in [{low}, {high}], got {value!r}")
        value = int(as_float)
    if not low <= value <= high:
        raise ValueError(f"{name}: must be in [{low}, {high}], got {value}")
    return value


def check_run_size(horizon: int, K: int, snapshots: int) -> None:
    """Reject runs whose horizon x K x snapshots product would exhaust a session's memory."""
    work = horizon * K * max(snapshots, 1)
    if work > MAX_WORK:
        raise ValueError(
            f"horizon x arms x snapshots: {horizon} x {K} x {snapshots} = {work:,} exceeds {MAX_WORK:,}; "
            "lower the horizon, the number of arms or the number of snapshots"
        )


def snapshot_rounds(horizon: int, n: int) -> np.ndarray:
    """At most ``n`` distinct rounds in [1, horizon], quadratically spaced (dense early), ending at horizon: the rounds
    a trace keeps a snapshot of (at most `MAX_SNAPSHOTS`, which bounds a trace's memory)."""
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    if horizon <= n:
        return np.arange(1, horizon + 1, dtype=np.int64)
    k = np.arange(1, n + 1)
    target = np.ceil(horizon * (k / n) ** 2).astype(np.int64)
    return np.unique(np.minimum(np.maximum(target, k), horizon))  # t_k >= k keeps early rounds apart
