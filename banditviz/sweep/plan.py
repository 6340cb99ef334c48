"""A sweep's arguments checked and normalised, and its jobs planned: which seeds go together and in which order
they run."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .. import limits
from ..algorithms.base import AlgorithmSpec, get_algorithm
from ..instances import Instance, preset
from ..simulate import has_fast_loop, resolve
from .jobs import Job

DEFAULT_RECORDS = 100  # recorded rounds per run when record_every is not given
BATCH_SEEDS = 256  # most seeds in one job of compiled runs (each costs milliseconds: few jobs, little overhead)


def _instance(entry: Instance | str) -> tuple[str, Instance]:
    if isinstance(entry, Instance):
        return entry.name, entry
    if isinstance(entry, str):
        return entry, preset(entry)
    raise ValueError(f"instances: each entry must be an Instance or a preset name, got {type(entry).__name__}")


def normalise_instances(instances: Instance | str | Mapping[str, Instance | str] | Sequence[Instance | str],
                        ) -> list[tuple[str, Instance]]:
    """``(label, Instance)`` pairs: labels are mapping keys, preset names, instance names or "instance i"."""
    if isinstance(instances, (Instance, str)):
        instances = [instances]
    if isinstance(instances, Mapping):
        pairs = [(str(k), _instance(v)[1]) for k, v in instances.items()]
    else:
        pairs = [_instance(e) for e in instances]
        pairs = [(label or f"instance {i}", inst) for i, (label, inst) in enumerate(pairs)]
    if not pairs:
        raise ValueError("instances: give at least one instance")
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"instances: labels must be unique, got {labels}; pass a mapping label -> instance")
    return pairs


AlgorithmEntry = str | AlgorithmSpec | tuple[str | AlgorithmSpec, Mapping[str, Any]]


def normalise_algorithms(algorithms: AlgorithmEntry | Sequence[AlgorithmEntry]) -> list[tuple[AlgorithmSpec, dict]]:
    """``(spec, parameters)`` pairs from names, specs or ``(name, params)`` tuples; parameters are checked
    against the spec but kept as given (the engine fills in the defaults)."""
    if isinstance(algorithms, (str, AlgorithmSpec)) or (
            isinstance(algorithms, tuple) and len(algorithms) == 2 and isinstance(algorithms[1], Mapping)):
        algorithms = [algorithms]  # type: ignore[list-item]
    out = []
    for entry in algorithms:  # type: ignore[union-attr]
        name, params = (entry if isinstance(entry, tuple) else (entry, {}))
        if not isinstance(params, Mapping):
            raise ValueError(f"algorithms: parameters of {name!r} must be a mapping, got {type(params).__name__}")
        spec = name if isinstance(name, AlgorithmSpec) else get_algorithm(name)
        spec.validate(dict(params))
        out.append((spec, dict(params)))
    if not out:
        raise ValueError("algorithms: give at least one algorithm")
    keys = [(spec.name, json.dumps(spec.validate(p), sort_keys=True)) for spec, p in out]
    if len(set(keys)) != len(keys):
        raise ValueError("algorithms: the same algorithm is listed twice with the same parameters")
    return out


def normalise_seeds(seeds: int | Iterable[int]) -> tuple[int, ...]:
    """``n`` means seeds 0..n-1; otherwise distinct whole numbers in [0, 2**32 - 1]."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        n = limits.check_int("seeds", seeds, 1, limits.MAX_SEEDS)
        return tuple(range(n))
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise ValueError(f"seeds: must be a count or a list of whole numbers, got {seeds!r}")
    out = tuple(limits.check_int("seeds: each seed", s, 0, limits.MAX_SEED) for s in seeds)
    limits.check_int("seeds: number of seeds", len(out), 1, limits.MAX_SEEDS)
    if len(set(out)) != len(out):
        raise ValueError("seeds: must be distinct")
    return out


def plan(
    instances: Any, algorithms: Any, seeds: Any, horizon: int, *, record_every: int | None = None,
    batch: bool = True, workers: int = 1, curves: bool = False,
) -> list[Job]:
    """The jobs of a sweep, in output order (instance, then algorithm, then seeds)."""
    pairs = normalise_instances(instances)
    algs = normalise_algorithms(algorithms)
    seed_list = normalise_seeds(seeds)
    horizon = limits.check_int("horizon", horizon, 1, limits.MAX_HORIZON)
    if record_every is None:
        record_every = math.ceil(horizon / DEFAULT_RECORDS)
    record_every = limits.check_int("record_every", record_every, 1, limits.MAX_HORIZON)
    jobs = []
    for label, inst in pairs:
        limits.check_run_size(horizon, inst.K, 1)
        for spec, params in algs:
            resolve(spec, inst)
            fast = batch and has_fast_loop(spec.name, inst.kind)
            size = _seeds_per_job(len(seed_list), workers, fast)
            for i in range(0, len(seed_list), size):
                jobs.append(Job(label, inst, spec, params, seed_list[i:i + size], horizon, record_every, batch,
                                curves))
    return jobs


def spread(jobs: list[Job]) -> list[int]:
    """The order to run ``jobs`` in: round-robin over their (instance, algorithm, parameters) groups, so that every
    stretch of a sweep holds each group's share and the progress' estimate of the time left holds when the
    groups cost differently (LinPSI Fig. 2: K = 8 to 128, APE's runs 10x longer at the end). The table keeps the
    jobs' own order."""
    groups: dict[tuple[str, str, str], list[int]] = {}
    for i, job in enumerate(jobs):
        groups.setdefault((job.label, job.spec.name, repr(job.params)), []).append(i)
    rows = list(groups.values())
    return [g[r] for r in range(max(map(len, rows), default=0)) for g in rows if r < len(g)]


def _seeds_per_job(n_seeds: int, workers: int, fast: bool) -> int:
    """Jobs of compiled runs take up to `BATCH_SEEDS` seeds: all in one job in this process (it reports run by
    run), four jobs per worker otherwise (workers report whole jobs: progress and its time estimate stay
    smooth); other jobs one seed."""
    if not fast:
        return 1
    return max(1, min(BATCH_SEEDS, math.ceil(n_seeds / (1 if workers == 1 else 4 * workers))))
