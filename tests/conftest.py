"""Every test (and every subprocess it starts) reads the public datasets from the local copy in ``../shared/data``
(relative to the repository root) through ``BANDITVIZ_DATA``, so no test touches the network; CI may point the
variable elsewhere. Fixtures shared by the suite live here too."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

os.environ.setdefault("BANDITVIZ_DATA", str(Path(__file__).resolve().parents[1].parent / "shared" / "data"))


@pytest.fixture
def variant():
    """``variant(name, cls, label)``: the registered algorithm ``name`` with its class replaced by ``cls`` (a
    deliberately broken subclass), as an unregistered `AlgorithmSpec` that `banditviz.run` accepts. Nothing is
    added to the registry (checked after the test)."""
    from banditviz.algorithms import ALGORITHMS

    before = dict(ALGORITHMS)

    def build(name: str, cls: type, label: str):
        return dataclasses.replace(ALGORITHMS[name], name=f"{name} [{label}]", cls=cls)

    yield build
    assert ALGORITHMS == before, "a test variant leaked into the algorithm registry"
