"""`assert_same_trace`: two runs' `Trace`s are the same, bit for bit (arms, rewards, metrics, snapshots with their
events and extras, a contextual run's true means at them), shared by the fast-loop tests (tests/unit/test_fast_loops.py,
tests/unit/test_linear_loop.py, tests/unit/test_contextual_loop.py)."""

from __future__ import annotations

import json

import numpy as np

from banditviz.trace import _encode


def assert_same_trace(fast, slow):
    assert np.array_equal(fast.arms, slow.arms)
    assert np.array_equal(fast.rewards, slow.rewards)
    assert fast.metrics.keys() == slow.metrics.keys()
    for key in fast.metrics:
        assert np.array_equal(fast.metrics[key], slow.metrics[key]), key
    assert (fast.recommendation, fast.stopped_at, fast.params) == (slow.recommendation, slow.stopped_at, slow.params)
    assert [s.t for s in fast.snapshots] == [s.t for s in slow.snapshots]
    assert (fast.snapshot_means is None) == (slow.snapshot_means is None)  # a contextual run: its true means
    if fast.snapshot_means is not None:
        assert np.array_equal(fast.snapshot_means, slow.snapshot_means)
    for a, b in zip(fast.snapshots, slow.snapshots, strict=True):
        assert (a.front, a.pulled, a.events) == (b.front, b.pulled, b.events)
        for key in ("estimates", "lower", "upper", "status", "counts"):
            assert np.array_equal(getattr(a, key), getattr(b, key), equal_nan=True), key
        assert json.dumps(_encode(a.extras)) == json.dumps(_encode(b.extras))  # keys in the same order too
