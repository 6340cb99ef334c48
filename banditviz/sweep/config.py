"""Sweeps described in TOML files (``experiments/*.toml``, ``python -m banditviz sweep --help``)."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .. import instances as _instances
from .. import limits
from ..algorithms.base import AlgorithmSpec
from ..datasets import DatasetUnavailable
from ..instances import Instance, preset
from ..presets.pfiwr import pfi_estimation
from .plan import normalise_algorithms, normalise_seeds, plan
from .runner import sweep

GENERATORS: dict[str, Callable[..., Instance]] = {
    "uniform_box": _instances.uniform_box,
    "concave_front": _instances.concave_front,
    "convex_front": _instances.convex_front,
    "random_linear": _instances.random_linear,
    "random_contextual": _instances.random_contextual,
    "pfi_estimation": pfi_estimation,
}


@dataclass(frozen=True)
class SweepConfig:
    """A sweep described in a TOML file (see ``experiments/*.toml`` and ``python -m banditviz sweep --help``)."""

    instances: dict[str, Instance]
    algorithms: list[tuple[AlgorithmSpec, dict[str, Any]]]
    seeds: tuple[int, ...]
    horizon: int
    record_every: int | None = None
    curves: bool = False
    description: str = ""

    def run(self, **kwargs: Any) -> pd.DataFrame:
        """`sweep` over this configuration (``backend``, ``workers``, ``progress``, ``out``... as keywords)."""
        return sweep(self.instances, self.algorithms, self.seeds, self.horizon,
                     record_every=self.record_every, curves=self.curves, **kwargs)

    @property
    def runs(self) -> int:
        return len(self.instances) * len(self.algorithms) * len(self.seeds)


_CONFIG_KEYS = {"description", "paper", "horizon", "seeds", "record_every", "curves", "instances", "algorithms"}
_INSTANCE_KEYS = {"label", "preset", "generator", "file", "args", "instance"}
_ALGORITHM_KEYS = {"name", "params"}


def _table(where: str, value: Any, allowed: set[str] | None = None) -> dict[str, Any]:
    """``value`` as a TOML table whose keys are among ``allowed`` (any keys when None)."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: must be a table, got {value!r}")
    unknown = sorted(set(value) - allowed) if allowed is not None else []
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed or ())}")
    return value


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"config: {name} must be true or false, got {value!r}")
    return value


def _build_instance(source: str, value: Any, args: dict[str, Any], folder: Path) -> Instance:
    args = {k: str(folder / v) if k.endswith("_path") and isinstance(v, str) else v for k, v in args.items()}
    if source == "preset":
        return preset(value, **args)
    if source == "generator":
        if value not in GENERATORS:
            raise ValueError(f"generator: unknown name {value!r}; known: {sorted(GENERATORS)}")
        return GENERATORS[value](**args)
    if source == "file":
        return Instance.from_json((folder / value).read_bytes())
    return Instance.from_dict(value)


def _config_instance(where: str, entry: Any, folder: Path) -> tuple[str, Instance]:
    """One ``[[instances]]`` entry: a preset or generator (with ``args``), a JSON file, or an inline instance.

    Paths (``file``, and ``args`` whose name ends in ``_path``) are relative to the config's folder."""
    entry = _table(where, entry, _INSTANCE_KEYS)
    sources = [k for k in ("preset", "generator", "file", "instance") if k in entry]
    if len(sources) != 1:
        raise ValueError(f"{where}: give exactly one of preset, generator, file or instance, got {sources or 'none'}")
    source, value = sources[0], entry[sources[0]]
    args = _table(f"{where}.args", entry.get("args", {}))
    if args and source not in ("preset", "generator"):
        raise ValueError(f"{where}.args: only a preset or a generator takes arguments")
    try:
        inst = _build_instance(source, value, args, folder)
    except TypeError as exc:  # a builder called with an argument it does not take
        raise ValueError(f"{where}.args: {exc}") from None
    except DatasetUnavailable as exc:  # a real-data preset offline: an OSError, not a mistake in the config
        raise DatasetUnavailable(f"{where}: {exc}") from None
    except OSError as exc:
        raise ValueError(f"{where}.file: cannot read {value!r} ({exc.strerror})") from None
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if "label" in entry:
        return str(entry["label"]), inst
    if source == "preset" and not args:
        return value, inst
    return inst.name or where, inst


def load_config(path: str | os.PathLike[str]) -> SweepConfig:
    """Read and validate a sweep config; every mistake is a ValueError naming the key at fault."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"config: cannot read {str(path)!r} ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"config: {path.name} is not valid TOML ({exc})") from None
    return parse_config(text, path.parent, path.name)


def parse_config(text: str, folder: str | os.PathLike[str] = ".", name: str = "config") -> SweepConfig:
    """A sweep config from its TOML text; relative paths in it are read from ``folder``."""
    path = Path(folder) / name
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"config: {path.name} is not valid TOML ({exc})") from None
    _table("config", data, _CONFIG_KEYS)
    for key in ("horizon", "seeds", "instances", "algorithms"):
        if key not in data:
            raise ValueError(f"config: missing key {key!r}")
    if not isinstance(data["instances"], list) or not isinstance(data["algorithms"], list):
        raise ValueError("config: instances and algorithms must be arrays of tables ([[instances]], [[algorithms]])")
    instances: dict[str, Instance] = {}
    for i, entry in enumerate(data["instances"]):
        label, inst = _config_instance(f"instances[{i}]", entry, path.parent)
        if label in instances:
            raise ValueError(f"instances[{i}].label: {label!r} is used twice; give each instance its own label")
        instances[label] = inst
    algorithms = []
    for i, entry in enumerate(data["algorithms"]):
        entry = _table(f"algorithms[{i}]", entry, _ALGORITHM_KEYS)
        if "name" not in entry:
            raise ValueError(f"algorithms[{i}]: missing key 'name'")
        params = _table(f"algorithms[{i}].params", entry.get("params", {}))
        algorithms.append((entry["name"], params))
    config = SweepConfig(
        instances=instances, algorithms=normalise_algorithms(algorithms), seeds=normalise_seeds(data["seeds"]),
        horizon=limits.check_int("horizon", data["horizon"], 1, limits.MAX_HORIZON),
        record_every=None if data.get("record_every") is None else limits.check_int(
            "record_every", data["record_every"], 1, limits.MAX_HORIZON),
        curves=_flag("curves", data.get("curves", False)),
        description=str(data.get("description", "")),
    )
    plan(config.instances, config.algorithms, config.seeds[:1], config.horizon)  # kinds and sizes fit
    return config
