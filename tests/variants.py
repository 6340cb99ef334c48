"""Broken-variant factories shared by the mutation tests (tests/unit/test_mutations.py) and the claim tests
(tests/repro): each takes an algorithm class and returns a subclass that changes one thing (a width scaled, a
parameter scaled, the arm choice replaced by a round robin); ``label`` names the change. Build an unregistered
spec from one with `broken_spec` (or the ``variant`` fixture of tests/conftest.py)."""

from __future__ import annotations

import dataclasses

import numpy as np


def broken_spec(spec, cls: type, label: str):
    """An unregistered copy of the `AlgorithmSpec` ``spec`` that plays ``cls`` (a broken variant of its class), named
    "name [label]"; without the original's fast loop and guarantee, which belong to the original class."""
    return dataclasses.replace(spec, name=f"{spec.name} [{label}]", cls=cls, loop=None, guarantee=None)


def scaled(method: str, factor: float):
    """Subclass factory: ``method``'s result (a width, radius or scale) multiplied by ``factor``."""
    def make(base: type) -> type:
        def method_(self, *args, **kwargs):
            return factor * getattr(base, method)(self, *args, **kwargs)
        return type(f"{base.__name__}_{method}_x{factor:g}", (base,), {method: method_})
    make.label = f"{method} x {factor:g}"
    return make


def param_scaled(key: str, factor: float):
    """Subclass factory: the parameter ``key`` (an exploration rate or width constant) multiplied by ``factor``."""
    def make(base: type) -> type:
        def reset(self, problem, rng):
            self.params = {**self.params, key: factor * self.params[key]}
            base.reset(self, problem, rng)
        return type(f"{base.__name__}_{key}_x{factor:g}", (base,), {"reset": reset})
    make.label = f"{key} x {factor:g}"
    return make


def round_robin(method: str = "select"):
    """Subclass factory: the arm choice replaced by a round robin. ``method`` "select": the algorithm still runs
    its own rule, so its state is updated as usual, only the arm it plays changes; "_choose": the adaptive
    choice of the risk-averse learners; "start_batch": the planned pulls of a batch-wise identifier (the engine
    plays its plan without calling ``select``) replaced by as many round-robin pulls over all arms."""
    def make(base: type) -> type:
        if method == "start_batch":
            def start_batch(self, sequence):
                base.start_batch(self, (int(self.counts.sum()) + np.arange(len(sequence))) % self.K)
            return type(f"{base.__name__}_rr", (base,), {"start_batch": start_batch})
        if method == "select":
            def select(self, t):
                base.select(self, t)
                return (t - 1) % self.K
            return type(f"{base.__name__}_rr", (base,), {"select": select})

        def choose(self):
            return (self.t - 1) % self.K
        return type(f"{base.__name__}_rr", (base,), {"_choose": choose})
    make.label = "round robin"
    return make


def widths(method: str) -> list:
    """The bonus / width removed, / 4 and x 4."""
    return [scaled(method, f) for f in (0.0, 0.25, 4.0)]
