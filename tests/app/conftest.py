"""Fixtures of the app tests (Streamlit's AppTest)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def main_module() -> Iterator[None]:
    """Streamlit's script runner makes each run's script module ``__main__`` and leaves it there (AppTest too):
    restored after each app test, so that a later test in the same process that starts processes (spawn runs
    ``__main__``'s file again: Dask's LocalCluster) does not run an app test's script."""
    main = sys.modules["__main__"]
    yield
    sys.modules["__main__"] = main
