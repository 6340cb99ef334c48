"""Every test (and every subprocess it starts) reads the public datasets from the local copy in ``../shared/data``
(relative to the repository root) through ``BANDITVIZ_DATA``, so no test touches the network; CI may point the
variable elsewhere. banditviz's cache (the Papers page's stored values, Experiment 2's computed traces) is the
checkout's own ``.cache``, not the user's: the first test that needs a value in a run computes it, the others read
it. Fixtures shared by the suite live here too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("BANDITVIZ_DATA", str(Path(__file__).resolve().parents[1].parent / "shared" / "data"))
os.environ.setdefault("BANDITVIZ_CACHE", str(Path(__file__).resolve().parents[1] / ".cache" / "banditviz"))


@pytest.fixture
def variant():
    """``variant(name, cls, label)``: the registered algorithm ``name`` with its class replaced by ``cls`` (a
    deliberately broken subclass), as an unregistered `AlgorithmSpec` that `banditviz.run` accepts
    (`tests.variants.broken_spec`: no fast loop, which would play the original class). Nothing is
    added to the registry (checked after the test)."""
    from banditviz.algorithms import ALGORITHMS
    from tests.variants import broken_spec

    before = dict(ALGORITHMS)

    def build(name: str, cls: type, label: str):
        return broken_spec(ALGORITHMS[name], cls, label)

    yield build
    assert ALGORITHMS == before, "a test variant leaked into the algorithm registry"


@pytest.fixture
def registry():
    """The registry as it was before the test, restored after (the test registers algorithms of its own)."""
    from banditviz.algorithms import ALGORITHMS

    before = dict(ALGORITHMS)
    yield ALGORITHMS
    ALGORITHMS.clear()
    ALGORITHMS.update(before)
