"""The papers' experiments, reproduced: shipped results, their provenance, and scaled-down live reruns.

A shipped result is the Parquet table that ``python -m banditviz sweep experiments/NAME.toml --out
banditviz/results/NAME.parquet`` writes (optionally with ``--seeds N`` / ``--horizon T`` to scale it
down): the tidy sweep table plus, in the file's key-value metadata, the config's text, the seeds, the
horizon and the package version that made it (`banditviz.sweep.provenance`). Nothing here is typed in:
every number the Papers page shows is read from such a file or recomputed from its config.

A result scaled down by instances (RAMGapE Exp. 1: its 50 patterns at one run each cost about 25 minutes of
CPU here) is computed by the CLI from a copy of the config that keeps only the first instances; its metadata
then holds the full config's text and, under ``instances``, the labels of the instances it holds, so that
`Result.config` is what was run and `Result.scale` says how much was left out.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from .sweep import SweepConfig, normalise_seeds, parse_config, read_metadata

RESULTS_DIR = Path(__file__).parent / "results"
# Relative paths inside a config (the NoC data) are read from the source tree's experiments/ folder.
EXPERIMENTS_DIR = Path(__file__).resolve().parent.parent / "experiments"


@dataclass(frozen=True)
class Result:
    """One shipped result: its table and the provenance stored with it."""

    name: str
    table: pd.DataFrame
    meta: dict[str, str]

    @cached_property
    def config(self) -> SweepConfig:
        """The config that made this table (its seeds, horizon and instances as shipped, not as in the file)."""
        full = self.full_config
        instances = full.instances
        if "instances" in self.meta:
            instances = {label: full.instances[label] for label in json.loads(self.meta["instances"])}
        return dataclasses.replace(full, seeds=tuple(json.loads(self.meta["seeds"])), horizon=int(self.meta["horizon"]),
                                   instances=instances)

    @cached_property
    def full_config(self) -> SweepConfig:
        """The config as written (the paper's full size where the paper gives one)."""
        return parse_config(self.meta["config"], EXPERIMENTS_DIR, self.meta["config_name"])

    @property
    def runs_per_point(self) -> int:
        return len(json.loads(self.meta["seeds"]))

    def scale(self) -> str:
        """"full size: ...", or how the shipped run was scaled down from the config, with the factors.

        Read from the metadata and the config's text alone: no instance is built, so a result on data this
        machine does not have (NoC offline) still states its size."""
        written = tomllib.loads(self.meta["config"])
        full_seeds, full_horizon = len(normalise_seeds(written["seeds"])), int(written["horizon"])
        seeds, horizon = self.runs_per_point, int(self.meta["horizon"])
        parts = []
        if "instances" in self.meta:
            shipped_n, full_n = len(json.loads(self.meta["instances"])), len(written["instances"])
            if shipped_n < full_n:
                parts.append(f"the first {shipped_n} of {full_n} instances (1/{full_n / shipped_n:.3g})")
        if seeds < full_seeds:
            parts.append(f"{seeds} of {full_seeds} runs per point (1/{full_seeds / seeds:.3g})")
        if horizon < full_horizon:
            parts.append(f"horizon {horizon:,} of {full_horizon:,} (1/{full_horizon / horizon:.3g})")
        if parts:
            return "scaled: " + ", ".join(parts)
        return f"full size: {seeds} run(s) per point, horizon {horizon:,}"


def shipped() -> list[str]:
    """Names of the shipped results (the config names they came from, without extension)."""
    return sorted(p.stem for p in RESULTS_DIR.glob("*.parquet"))


def load(name: str) -> Result:
    """A shipped result by name (ValueError listing the shipped names if unknown)."""
    path = RESULTS_DIR / f"{name}.parquet"
    if not path.is_file():
        raise ValueError(f"result: no shipped result {name!r}; shipped: {shipped()}")
    return Result(name, pd.read_parquet(path), read_metadata(path))


def rerun(result: Result, seeds: int, horizon: int | None = None, instances: int | None = None,
          progress: Callable[[int, int], None] | None = None, **options: Any) -> pd.DataFrame:
    """The same experiment, scaled down: seeds 0..seeds-1, an optional shorter horizon and only the first
    ``instances`` instances; the same table layout as the shipped one (``options`` go to `sweep`)."""
    config = result.config
    chosen = dict(list(config.instances.items())[:instances]) if instances else config.instances
    small = dataclasses.replace(config, instances=chosen, seeds=tuple(range(seeds)),
                                horizon=min(horizon or config.horizon, config.horizon))
    return small.run(progress=progress, **options)


def recompute(result: Result, instance: str, algorithm: int, seeds: tuple[int, ...]
              ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(shipped rows, freshly computed rows) of one cell, the ``algorithm``-th entry of the config, on ``seeds``."""
    config = result.config
    spec, params = config.algorithms[algorithm]
    cell = dataclasses.replace(config, instances={instance: config.instances[instance]},
                               algorithms=[(spec, params)], seeds=seeds)
    fresh = cell.run()
    table = result.table
    mask = (table["instance"] == instance) & (table["algorithm"] == spec.name) & table["seed"].isin(seeds)
    mask &= table["params"] == fresh["params"].iloc[0]
    rows = table[mask].reset_index(drop=True)
    # a table mixing regret and identification runs has the columns of both, in the order of its first job: the
    # cell's own columns come first, in the fresh table's order, and any other that is not empty in the cell
    others = [c for c in rows.columns if c not in fresh.columns and rows[c].notna().any()]
    return rows[[c for c in fresh.columns if c in rows.columns] + others], fresh
