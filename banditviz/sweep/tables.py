"""A sweep's table: its summary, and Parquet files with their provenance (the config, seeds, horizon and version
that made them)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (instance, algorithm, params): number of runs, mean and sd over seeds of every final
    value (cumulative metrics at the last round; stopping time and final metrics of identification
    runs) and, for identification, the success and stopping rates."""
    keys = ["instance", "algorithm", "params"]
    ident = table["stopping_time"].notna() if "stopping_time" in table else pd.Series(False, index=table.index)
    parts = []
    for rows, is_ident in ((table[~ident], False), (table[ident], True)):
        if not len(rows):
            continue
        final = rows.groupby(keys + ["seed"], sort=False).last().reset_index()  # each run's last row
        part = _describe(final, keys, exclude={"round", "correct", "stopped"})
        if is_ident:
            rates = final.astype({"correct": float, "stopped": float}).groupby(keys, sort=False)[
                ["correct", "stopped"]].mean()
            rates.columns = ["success_rate", "stopped_rate"]
            part = part.join(rates, on=keys)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _describe(runs: pd.DataFrame, keys: list[str], exclude: set[str]) -> pd.DataFrame:
    values = [c for c in runs.columns if c not in {*keys, "seed", *exclude}
              and pd.api.types.is_numeric_dtype(runs[c]) and runs[c].notna().any()]
    grouped = runs.groupby(keys, sort=False)
    out = grouped.size().rename("runs").to_frame()
    for col in values:
        out[f"{col}_mean"] = grouped[col].mean()
        out[f"{col}_sd"] = grouped[col].std(ddof=1)
    return out.reset_index()


def write_parquet(table: pd.DataFrame, path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None
                  ) -> Path:
    """Write ``table`` as Parquet (pyarrow) atomically: a temporary file in the same folder, then a rename.

    ``metadata`` (text keys and values, e.g. the sweep config and the package version) goes into the file's
    key-value metadata under ``banditviz:<key>``; `read_metadata` returns it.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", suffix=".parquet.tmp")
    os.close(fd)
    try:
        arrow = pa.Table.from_pandas(table, preserve_index=False)
        extra = {f"banditviz:{k}".encode(): str(v).encode() for k, v in (metadata or {}).items()}
        pq.write_table(arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), **extra}), tmp)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def read_metadata(path: str | os.PathLike[str]) -> dict[str, str]:
    """The ``banditviz:`` key-value metadata `write_parquet` stored in a Parquet file (prefix removed)."""
    import pyarrow.parquet as pq

    meta = pq.read_schema(path).metadata or {}
    prefix = b"banditviz:"
    return {k[len(prefix):].decode(): v.decode() for k, v in meta.items() if k.startswith(prefix)}


def provenance(config_path: str | os.PathLike[str], seeds: Sequence[int], horizon: int) -> dict[str, str]:
    """What made a results file: the package version, the config file's name and text, seeds and horizon."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        package_version = version("banditviz")
    except PackageNotFoundError:  # running from a source tree that is not installed
        package_version = "unknown"
    path = Path(config_path)
    return {"version": package_version, "config_name": path.name, "config": path.read_text(encoding="utf-8"),
            "seeds": json.dumps([int(s) for s in seeds]), "horizon": str(horizon)}
