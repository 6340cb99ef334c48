"""`check_algorithm`: does an algorithm keep the contract of `banditviz.algorithms.base`?

In the spirit of scikit-learn's ``check_estimator`` and Gymnasium's ``check_env``: the algorithm is played on one small
instance of each kind it declares, and every breach is reported as one sentence naming the algorithm, the round and
what was expected. Checked: arm type and range, `RoundState` shapes, dtypes and statuses, rewards handed over
read-only, no exception (all four found by the engine, `simulate.AlgorithmError`), the same run for the same seed,
``state()`` free of side effects, the trace's save/load round trip, and its declared fast loop equal to the Python
loop. The truth barrier is the engine's: only a class declaring ``sees_truth`` receives the true means, and its trace
says so.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from .algorithms.base import AlgorithmSpec, get_algorithm
from .instances import Instance, preset
from .simulate import AlgorithmError, run
from .trace import Trace

# one small instance of each kind, the preset that builds it (decision: the smallest offline presets of each kind)
CHECK_PRESETS = {"means": "mol_ts_figure1", "linear": "pfi_sensitivity", "contextual": "mol_ts_2d",
                 "distributions": "risk_averse_easy"}


def _first_difference(a: Trace, b: Trace) -> int | None:
    """The first round whose arm or reward differs between two runs (or the shorter run's end + 1), else None."""
    n = min(a.rounds, b.rounds)
    differs = (a.arms[:n] != b.arms[:n]) | ~_same(a.rewards[:n], b.rewards[:n]).reshape(n, -1).all(axis=1)
    if differs.any():
        return int(np.argmax(differs)) + 1
    return None if a.rounds == b.rounds else n + 1


def _same(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x == y) | (np.isnan(x) & np.isnan(y)) if x.dtype.kind == "f" else x == y


def _snapshot_difference(a: Trace, b: Trace) -> int | None:
    """The round of the first snapshot whose arrays or front differ between two traces, else None."""
    for sa, sb in zip(a.snapshots, b.snapshots, strict=False):
        for key in ("estimates", "lower", "upper", "status", "counts"):
            x, y = np.asarray(getattr(sa, key)), np.asarray(getattr(sb, key))
            if x.shape != y.shape or not _same(x, y).all():
                return sa.t
        if tuple(sa.front) != tuple(sb.front) or sa.t != sb.t:
            return sa.t
    return None if len(a.snapshots) == len(b.snapshots) else -1


def _check_instance(spec: AlgorithmSpec, inst: Instance, horizon: int, seeds: tuple[int, ...],
                    params: dict[str, Any]) -> list[str]:
    name, where = spec.name, f"on the {inst.kind} instance {inst.name!r}"
    snapshots = min(horizon, 50)
    try:
        traces = [run(inst, spec, horizon, s, snapshots=snapshots, compiled=False, **params) for s in seeds]
        again = run(inst, spec, horizon, seeds[0], snapshots=snapshots, compiled=False, **params)
        bare = run(inst, spec, horizon, seeds[0], snapshots=0, compiled=False, **params)
    except AlgorithmError as exc:
        return [f"{exc} ({where})"]
    breaches = []
    first = traces[0]
    t = _first_difference(first, again)
    if t is not None or _snapshot_difference(first, again) is not None:
        breaches.append(f"algorithm {name} is not reproducible {where}: seed {seeds[0]} played differently the "
                        f"second time (from round {t or 'a snapshot'}); expected the same run for the same seed "
                        "(draw randomness only from the rng given to reset)")
    elif (t := _first_difference(first, bare)) is not None:
        breaches.append(f"algorithm {name} plays differently when state() is called {where} (seed {seeds[0]}, from "
                        f"round {t}); expected state() to have no side effect")
    breaches += _round_trip(name, where, first)
    loop = spec.loop
    if loop is not None and inst.kind != "contextual" and loop.supports(inst.kind, spec.validate(params), snapshots):
        try:
            fast = run(inst, spec, horizon, seeds[0], snapshots=snapshots, compiled=True, **params)
        except AlgorithmError as exc:
            return [*breaches, f"{exc} ({where})"]
        t = _first_difference(first, fast) or _snapshot_difference(first, fast)
        if t is not None:
            breaches.append(f"algorithm {name}'s fast loop differs from its Python loop {where} (seed {seeds[0]}, "
                            f"from round {t if t > 0 else 'its last snapshot'}); expected the same trace bit for bit")
    return breaches


def _round_trip(name: str, where: str, trace: Trace) -> list[str]:
    """The trace saved and loaded again, compared with itself."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            back = Trace.load(trace.save(Path(tmp) / "trace.npz"))
        except (TypeError, ValueError) as exc:
            return [f"algorithm {name}'s trace cannot be saved {where} (seed {trace.seed}): {exc}; expected "
                    "RoundState extras of numbers, strings, arrays, lists, tuples and dicts"]
    t = _first_difference(trace, back) or _snapshot_difference(trace, back)
    if t is None and all(repr(a.extras) == repr(b.extras) for a, b in zip(trace.snapshots, back.snapshots,
                                                                          strict=True)):
        return []
    return [f"algorithm {name}'s trace changes through save and load {where} (seed {trace.seed}); expected "
            "RoundState extras of numbers, strings, arrays, lists, tuples and dicts"]


def check_algorithm(algorithm: str | AlgorithmSpec | type, *, horizon: int = 200, seeds: tuple[int, ...] = (0, 1),
                    params: dict[str, Any] | None = None) -> list[str]:
    """The breaches of the contract found by playing ``algorithm`` (a registered name, its spec or its class) at
    ``params`` (paper defaults otherwise) for ``horizon`` rounds on each seed of ``seeds``, on one small instance of
    each kind it declares (`CHECK_PRESETS`): one sentence each; an empty list when none was found."""
    if isinstance(algorithm, type):
        spec = getattr(algorithm, "spec", None)
        if spec is None or spec.cls is not algorithm:
            raise ValueError(f"algorithm: {algorithm.__qualname__} is not registered; decorate it with "
                             "@register(name, paper=..., task=..., kinds=...)")
    else:
        spec = algorithm if isinstance(algorithm, AlgorithmSpec) else get_algorithm(algorithm)
    params = dict(params or {})
    spec.validate(params)
    if not seeds:
        raise ValueError("seeds: give at least one seed")
    breaches = []
    for kind in spec.kinds:
        breaches += _check_instance(spec, preset(CHECK_PRESETS[kind]), horizon, tuple(seeds), params)
    return breaches
