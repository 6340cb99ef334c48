"""Logged runs: a run of the researcher's own code, read from a log into the fields of a `Trace` (`read`, behind
`Trace.from_log`) and written from a trace (`write`, behind `Trace.to_log`; `banditviz.Recorder` from any loop).
Format ``banditviz-log v1``, as a CSV file (below), an npz file or a Parquet file (`FORMATS`):

* Optional header lines first, each starting with ``#``: ``# banditviz-log v1`` (the format and its version), and
  ``# {...}``, one JSON object (it may span several ``#`` lines) whose keys are all optional: ``algorithm`` (a name,
  default "logged run"), ``seed`` (default 0), ``arms`` (K, default the largest arm pulled + 1), ``arm_names``,
  ``directions`` ("max" or "min" per objective, default all "max"), ``horizon`` (default the rounds logged),
  ``params`` (an object), ``task`` (`TASKS`: which regrets are computed when the truth is known), ``recommendation``
  (the arms the algorithm recommends at the end), ``stopped_at`` (the round it stopped in, the last one), and the truth:
  either ``means`` (K rows of L true means, in the orientation of the logged rewards) or ``instance`` (an instance
  JSON as the Design page exports it). The same keys may come in a side JSON (`read`'s ``header``).
* Then a CSV table with one row per round, in order: ``round`` (1, 2, 3, ...), ``arm`` (an integer in [0, K)),
  ``reward[<objective>]`` (the reward observed, one column per objective, in the column order; the objectives are
  named by these columns). Optionally what the algorithm reported, on the rounds it was logged (a row with these cells
  empty has no snapshot): ``estimate[<arm>][<objective>]``, ``lower[<arm>][<objective>]``,
  ``upper[<arm>][<objective>]`` (all K x L columns of each kind; an empty cell: no value yet, a bound may be ``inf``
  or ``-inf``), ``status[<arm>]`` (`STATUS_NAMES`) and ``front`` (the arm indices of the algorithm's front,
  separated by spaces).

The npz and Parquet forms hold the same columns under the same names (numbers as numbers, NaN or null for an empty
cell; status and front as text, '' for an empty cell) and the header as two texts named ``format`` (``banditviz-log
v1``) and ``header`` (the JSON object): the npz's 0-d str arrays, the Parquet schema's metadata. They are read and
validated as the CSV form is (a message names a row without a line), told apart by their first bytes.

Rewards, means, estimates and bounds are written as observed: an objective marked "min" is negated on reading (the
trace holds the maximised orientation, `Instance`), and back on writing.

Decisions (ours; the issue asks for the empirical view without the truth): when neither ``means`` nor ``instance`` is
given, the true means are unknown and nothing is made up. The trace's ``info["truth_unknown"]`` is True, its
`Trace.truth_at` is None, and no metric that needs the truth is recorded (no regret, no expected reward: the
metrics are absent, not zero); its instance, which carries the arms' and objectives' names and directions, holds the
empirical means of the whole log as a stand-in (0 for an arm never pulled), named and described so, which no figure
draws as the truth. A log without snapshot columns gets snapshots at the rounds a simulated run keeps
(`limits.snapshot_rounds`): the empirical mean of each arm's rewards so far (no value before its first pull), every
arm "active" (the status of an algorithm that does not decide arms), and the empirical Pareto front as the front. A
log without lower and upper columns gives no bounds (``info["no_bounds"]``: its NaN bounds are none given, and no box
is drawn, where an algorithm's NaN bound is drawn as unbounded). Of a log that gives more than `limits.MAX_SNAPSHOTS`
snapshot rows, that many are kept (and read), evenly spaced, first and last included. A logged status or front without
estimates takes the empirical means as estimates. The metrics are those of the arm pulled (`metrics.arm_regrets`); a
metric of each round's recommendation (identification's 0/1 error), the algorithm's events and its extras are not
part of the format (a trace written by `write` loses them).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import zipfile
from typing import Any

import numpy as np
import pandas as pd

from . import limits, pareto
from .algorithms.base import ACTIVE, STATUS_NAMES, RoundState
from .instances import Instance
from .metrics import arm_regrets

FORMAT = "banditviz-log"
VERSION = 1
TASKS = ("regret", "identify", "lexicographic")
HEADER_KEYS = ("algorithm", "seed", "arms", "arm_names", "directions", "horizon", "params", "task", "recommendation",
               "stopped_at", "means", "instance")
UNKNOWN_NAME = "logged run"
VIEW_ENV = "BANDITVIZ_VIEW"  # the log `python -m banditviz view` hands to the app's Watch page
VIEW_HEADER_ENV = "BANDITVIZ_VIEW_HEADER"  # its side JSON
_NPZ_MAGIC = b"PK\x03\x04"
_PARQUET_MAGIC = b"PAR1"
_MAGIC = re.compile(r"^banditviz-log v(\d+)$")
_REWARD = re.compile(r"^reward\[(.+)\]$")
_BOUNDS = ("estimate", "lower", "upper")


def _load(source: Any) -> bytes | str:
    """The content of ``source`` (a path, bytes, text or a binary/text file object), at most `limits.MAX_LOG_BYTES`."""
    if isinstance(source, (str, os.PathLike)) and not (isinstance(source, str) and "\n" in source):
        name = os.fspath(source)
        if not os.path.isfile(name):
            raise ValueError(f"log: no file {name!r}")
        if os.path.getsize(name) > limits.MAX_LOG_BYTES:
            raise ValueError(f"log: {name!r} is larger than {limits.MAX_LOG_BYTES:,} bytes")
        with open(name, "rb") as fh:
            data: Any = fh.read()
    elif hasattr(source, "read"):
        data = source.read(limits.MAX_LOG_BYTES + 1)
    else:
        data = source
    if not isinstance(data, (bytes, str)):
        raise ValueError(f"log: must be a path, bytes, text or a file, got {type(source).__name__}")
    if len(data) > limits.MAX_LOG_BYTES:
        raise ValueError(f"log: larger than {limits.MAX_LOG_BYTES:,} bytes")
    return data


def _parse(data: bytes | str) -> tuple[dict[str, Any], _Table]:
    """The header object and the table of a log in any of the `FORMATS`, told apart by their first bytes."""
    if isinstance(data, bytes) and data.startswith(_NPZ_MAGIC):
        return _read_npz(data)
    if isinstance(data, bytes) and data.startswith(_PARQUET_MAGIC):
        return _read_parquet(data)
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError("log: not UTF-8 text (a banditviz log is a CSV, npz or Parquet file)") from None
    head, body, skipped = _split(data)
    return head, _Table.from_csv(body, skipped)


def _version(line: str) -> bool:
    """Whether ``line`` names the format (``banditviz-log v1``); ValueError for another version."""
    match = _MAGIC.match(line)
    if match and int(match.group(1)) != VERSION:
        raise ValueError(f"header: format version {int(match.group(1))} is not supported; this banditviz reads "
                         f"{FORMAT} v{VERSION}")
    return match is not None


def _header(text: str, where: str) -> dict[str, Any]:
    header: Any = {}
    if text.strip():
        try:
            header = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"header: {where} must hold one JSON object ({exc.msg} at character {exc.pos})") from None
    if not isinstance(header, dict):
        raise ValueError(f"header: must be a JSON object, got {type(header).__name__}")
    return header


def _split(text: str) -> tuple[dict[str, Any], str, int]:
    """The header object of the ``#`` lines, the CSV text after them, and how many lines the header took."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    body = [line[1:].strip() for line in lines[:n]]
    if body and _version(body[0]):
        body = body[1:]
    return _header(" ".join(body), "the '#' lines"), "".join(lines[n:]), n


def _binary_header(entries: dict[str, str]) -> dict[str, Any]:
    """The header of an npz or Parquet log: its ``format`` and ``header`` entries (both optional)."""
    form = entries.get("format")
    if form is not None and not _version(form):
        raise ValueError(f"header: the 'format' entry must be '{FORMAT} v{VERSION}', got {form[:60]!r}")
    return _header(entries.get("header", ""), "the 'header' entry")


def _read_npz(data: bytes) -> tuple[dict[str, Any], _Table]:
    """An npz log: one 1-D array per column (named as the CSV's columns; NaN for an empty number cell, '' for an empty
    text cell), and the 0-d text arrays ``format`` and ``header``. Its arrays may take
    `limits.MAX_LOG_DECODED_BYTES` once uncompressed."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            size = sum(info.file_size for info in archive.infolist())
        if size > limits.MAX_LOG_DECODED_BYTES:
            raise ValueError(f"log: its arrays take more than {limits.MAX_LOG_DECODED_BYTES:,} bytes uncompressed")
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {key: z[key] for key in z.files}
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ValueError(f"log: not a readable npz file ({exc})") from None
    except ValueError as exc:
        if str(exc).startswith("log:"):
            raise
        raise ValueError(f"log: an npz log holds numbers and text only ({exc})") from None
    entries = {}
    for key in ("format", "header"):
        if key in arrays:
            value = arrays.pop(key)
            if value.ndim != 0 or value.dtype.kind != "U":
                raise ValueError(f"header: the npz entry {key!r} must be one text (a 0-d str array)")
            entries[key] = str(value)
    lengths = {key: a.shape for key, a in arrays.items()}
    n = lengths.get("round", (0,))
    for key, shape in lengths.items():
        if len(shape) != 1 or shape != n:
            raise ValueError(f"{key}: an npz column must be a 1-D array as long as 'round' ({n[0]}), got shape "
                             f"{shape}")
    return _binary_header(entries), _Table(pd.DataFrame(arrays), None)


def is_npz_log(path: str | os.PathLike[str]) -> bool:
    """Whether the npz file at ``path`` is a log (it has a ``format`` entry), not a trace saved by `Trace.save`."""
    try:
        with zipfile.ZipFile(path) as archive:
            return "format.npy" in archive.namelist()
    except (zipfile.BadZipFile, OSError):
        return False


def _read_parquet(data: bytes) -> tuple[dict[str, Any], _Table]:
    """A Parquet log: the CSV's columns (null or NaN for an empty cell), the schema metadata ``format`` and
    ``header``. Its columns may take `limits.MAX_LOG_DECODED_BYTES` once uncompressed."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(io.BytesIO(data))
        meta = file.metadata
        size = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
        if size > limits.MAX_LOG_DECODED_BYTES:
            raise ValueError(f"log: its columns take more than {limits.MAX_LOG_DECODED_BYTES:,} bytes uncompressed")
        table = file.read()
    except (pa.ArrowException, OSError) as exc:
        raise ValueError(f"log: not a readable Parquet file ({exc})") from None
    entries = {k.decode("utf-8", "replace"): v.decode("utf-8", "replace")
               for k, v in (table.schema.metadata or {}).items() if k in (b"format", b"header")}
    return _binary_header(entries), _Table(table.to_pandas(), None)


def _merge(header: dict[str, Any], side: Any) -> dict[str, Any]:
    """The file's header and the side JSON (a dict, or a path to a JSON file): a key given twice must agree."""
    if side is None:
        out = dict(header)
    else:
        if isinstance(side, (str, os.PathLike)):
            try:
                with open(side, encoding="utf-8") as fh:
                    side = json.load(fh)
            except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ValueError(f"header: cannot read the side JSON {os.fspath(side)!r} ({exc})") from None
        if not isinstance(side, dict):
            raise ValueError(f"header: the side JSON must be an object, got {type(side).__name__}")
        out = dict(header)
        for key, value in side.items():
            if key in out and out[key] != value:
                raise ValueError(f"header: {key!r} differs between the file's header and the side JSON")
            out[key] = value
    unknown = sorted(str(k) for k in set(out) - set(HEADER_KEYS))
    if unknown:
        raise ValueError(f"header: unknown key(s) {unknown}; allowed {list(HEADER_KEYS)}")
    if "means" in out and "instance" in out:
        raise ValueError("header: give the truth once, as 'means' or as 'instance', not both")
    return out


class _Table:
    """The table of a log, with where each row is for the messages: a CSV's cells are text, an npz's or Parquet's
    number columns stay numbers (NaN for an empty cell) and its other columns become text ('' for an empty cell)."""

    def __init__(self, frame: pd.DataFrame, skipped: int | None) -> None:
        self.frame = frame
        self.skipped = skipped
        self.columns = [str(c) for c in frame.columns]
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("columns: a column name appears twice")
        for column in frame.columns if skipped is None else ():  # a CSV's cells are all text already
            if not self._numeric(column):
                frame[column] = frame[column].map(lambda v: "" if v is None or v != v else str(v))
        if len(self.frame) == 0:
            raise ValueError("rows: the log has no round (one row per round after the column names)")
        if len(self.frame) > limits.MAX_HORIZON:
            raise ValueError(f"rows: at most {limits.MAX_HORIZON:,} rounds, got {len(self.frame):,}")

    @classmethod
    def from_csv(cls, text: str, skipped: int) -> _Table:
        first = next(csv.reader(io.StringIO(text)), [])
        if len({c.strip() for c in first}) != len(first):
            raise ValueError("columns: a column name appears twice")
        try:
            frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, skipinitialspace=True)
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
            raise ValueError(f"log: not a CSV table with a header row ({str(exc).strip()})") from None
        return cls(frame, skipped)

    def _numeric(self, column: str) -> bool:
        dtype = self.frame[column].dtype
        return pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)

    def where(self, i: int) -> str:
        return f"row {i + 1}" + ("" if self.skipped is None else f" (line {i + self.skipped + 2} of the file)")

    def shown(self, column: str, i: int) -> str:
        """The cell as the message shows it: a text cell quoted, a number as written."""
        value = self.frame[column].iloc[i]
        return repr(value) if isinstance(value, str) else str(value.item() if hasattr(value, "item") else value)

    def filled(self, columns: list[str]) -> np.ndarray:
        """Per row, whether any of ``columns`` has a value (a CSV's cells are read with leading spaces skipped)."""
        return np.column_stack([self.frame[c].notna().to_numpy() if self._numeric(c)
                                else self.frame[c].ne("").to_numpy() for c in columns]).any(axis=1)

    def numbers(self, column: str, allowed: str, *, rows: np.ndarray | None = None, empty: bool = False,
                infinite: bool = False) -> np.ndarray:
        """The column (its ``rows``, default all) as floats (NaN for an empty cell where ``empty``), or ValueError at
        its first bad cell."""
        rows = np.arange(len(self.frame)) if rows is None else rows
        if self._numeric(column):
            values = self.frame[column].iloc[rows].to_numpy(dtype=float)
            bad = np.zeros(len(rows), dtype=bool)
            missing = np.isnan(values)
        else:
            cells = self.frame[column].iloc[rows].str.strip()
            values = pd.to_numeric(cells.where(cells != "", "nan"), errors="coerce").to_numpy(dtype=float)
            bad = np.isnan(values) & (cells != "").to_numpy()
            missing = (cells == "").to_numpy()
        if not empty:
            bad |= missing
        if not infinite:
            bad |= np.isinf(values)
        if bad.any():
            i = int(rows[np.argmax(bad)])
            raise ValueError(f"{column}: {self.where(i)} has {self.shown(column, i)}; allowed {allowed}")
        return values


def _int_in(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name}: must be a whole number in [{low}, {high}], got {value!r}")
    return value


def _objectives(table: _Table) -> tuple[list[str], list[str]]:
    names = [m.group(1) for c in table.columns if (m := _REWARD.match(c))]
    if not names:
        raise ValueError("reward columns: none; name one column reward[<objective>] per objective "
                         "(e.g. reward[speed], reward[cost])")
    if len(names) > limits.MAX_OBJECTIVES:
        raise ValueError(f"reward columns: at most {limits.MAX_OBJECTIVES} objectives, got {len(names)}")
    return names, [f"reward[{n}]" for n in names]


def _rounds_and_arms(table: _Table, header: dict[str, Any]) -> tuple[np.ndarray, int]:
    for column in ("round", "arm"):
        if column not in table.columns:
            raise ValueError(f"columns: no '{column}' column; a log needs round, arm and reward[<objective>] columns")
    rounds = table.numbers("round", "the round numbers 1, 2, 3, ... in order")
    expected = np.arange(1, len(rounds) + 1)
    if not np.array_equal(rounds, expected):
        i = int(np.argmax(rounds != expected))
        raise ValueError(f"round: {table.where(i)} has {table.shown('round', i)}, expected {i + 1} (one row "
                         "per round, the rounds 1, 2, 3, ... in order)")
    K = header.get("arms")
    high = limits.MAX_ARMS - 1 if K is None else _int_in("header: arms", K, 2, limits.MAX_ARMS) - 1
    arms = table.numbers("arm", f"an arm index, a whole number in [0, {high}]")
    bad = (arms != np.round(arms)) | (arms < 0) | (arms > high)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"arm: {table.where(i)} has {table.shown('arm', i)}; allowed an arm index, a whole "
                         f"number in [0, {high}]" + ("" if K is not None else " (or say 'arms' in the header)"))
    arms = arms.astype(np.int64)
    return arms, int(K) if K is not None else max(2, int(arms.max()) + 1)


def _truth(header: dict[str, Any], K: int, names: list[str], signs: np.ndarray, arm_names: Any) -> Instance | None:
    """The instance the header gives (its objectives and arms checked against the log), or None."""
    directions = header.get("directions")
    if "instance" in header:
        raw = header["instance"]
        inst = raw if isinstance(raw, Instance) else Instance.from_dict(raw)
        if inst.kind in ("contextual", "distributions"):
            raise ValueError(f"header: instance of kind {inst.kind!r} cannot be checked against a log (its means "
                             "change every round or its rewards are scalar); give fixed means")
        if inst.K != K:
            raise ValueError(f"header: the instance has {inst.K} arms, the log {K} (its 'arms' or largest arm + 1)")
        if list(inst.objective_names) != names:
            raise ValueError(f"reward columns: name the instance's objectives {list(inst.objective_names)} in order, "
                             f"got {names}")
        if directions is not None and list(directions) != list(inst.directions):
            raise ValueError("header: directions differ from the instance's")
        return inst
    if "means" not in header:
        return None
    try:
        means = np.array(header["means"], dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"header: means must be {K} rows of {len(names)} numbers") from None
    if means.shape != (K, len(names)):
        raise ValueError(f"header: means must be {K} rows (arms) of {len(names)} numbers (objectives), got shape "
                         f"{means.shape}")
    return Instance.from_means(means * signs, objective_names=names, directions=directions, arm_names=arm_names,
                               name=str(header.get("algorithm", "logged run"))[:200],
                               description="the true means given with a logged run")


def _empirical(arms: np.ndarray, rewards: np.ndarray, K: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts (n x K) and the empirical means (n x K x L) after each round (NaN before an arm's first pull)."""
    n, L = rewards.shape
    onehot = np.zeros((n, K))
    onehot[np.arange(n), arms] = 1.0
    counts = np.cumsum(onehot, axis=0)
    sums = np.cumsum(onehot[:, :, None] * rewards[:, None, :], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts[:, :, None]
    return counts.astype(np.int64), means


def _snapshot_columns(table: _Table, K: int, names: list[str]) -> dict[str, list[str]]:
    """The snapshot columns the log has, by kind; a kind is given whole (all its K x L or K columns) or not at all."""
    present = {}
    for kind in _BOUNDS:
        wanted = [f"{kind}[{a}][{n}]" for a in range(K) for n in names]
        present[kind] = _whole(table, kind, wanted, f"{kind}[<arm>][<objective>]")
    present["status"] = _whole(table, "status", [f"status[{a}]" for a in range(K)], "status[<arm>]")
    present["front"] = ["front"] if "front" in table.columns else []
    known = {"round", "arm", *(f"reward[{n}]" for n in names), *(c for v in present.values() for c in v)}
    unknown = [c for c in table.columns if c not in known]
    if unknown:
        raise ValueError(f"columns: {unknown[:3]} not understood; allowed round, arm, reward[<objective>], "
                         f"estimate/lower/upper[<arm>][<objective>] with arm in [0, {K}) and an objective of the "
                         "reward columns, status[<arm>], front")
    return present


def _whole(table: _Table, kind: str, wanted: list[str], pattern: str) -> list[str]:
    have = [c for c in wanted if c in table.columns]
    if have and len(have) != len(wanted):
        missing = [c for c in wanted if c not in table.columns]
        raise ValueError(f"{pattern} columns: give all {len(wanted)} or none; missing {missing[:3]}")
    return have


def _snapshot_rows(table: _Table, cols: dict[str, list[str]]) -> np.ndarray:
    """Indices of the rows that carry a snapshot (any snapshot cell filled), at most `limits.MAX_SNAPSHOTS`."""
    rows = np.flatnonzero(table.filled([c for v in cols.values() for c in v]))
    if len(rows) > limits.MAX_SNAPSHOTS:
        rows = rows[np.unique(np.round(np.linspace(0, len(rows) - 1, limits.MAX_SNAPSHOTS)).astype(np.int64))]
    return rows


def _grid(table: _Table, cols: list[str], rows: np.ndarray, K: int, L: int, allowed: str, infinite: bool
          ) -> np.ndarray:
    values = np.column_stack([table.numbers(c, allowed, rows=rows, empty=True, infinite=infinite) for c in cols])
    return values.reshape(len(rows), K, L)


def _statuses(table: _Table, cols: list[str], rows: np.ndarray) -> np.ndarray:
    codes = np.full((len(rows), len(cols)), ACTIVE, dtype=np.int8)
    for a, column in enumerate(cols):
        cells = table.frame[column].iloc[rows].str.strip().tolist()
        for r, cell in enumerate(cells):
            if cell not in STATUS_NAMES:
                raise ValueError(f"{column}: {table.where(int(rows[r]))} has {cell!r}; allowed {list(STATUS_NAMES)}")
            codes[r, a] = STATUS_NAMES.index(cell)
    return codes


def _fronts(table: _Table, rows: np.ndarray, K: int) -> list[tuple[int, ...]]:
    out = []
    for r in rows:
        cell = table.frame["front"].iloc[r].strip()
        try:
            front = tuple(int(a) for a in cell.split())
        except ValueError:
            front = (-1,)
        if not all(0 <= a < K for a in front) or len(set(front)) != len(front):
            raise ValueError(f"front: {table.where(int(r))} has {cell!r}; allowed distinct arm indices in [0, {K}) "
                             "separated by spaces")
        out.append(front)
    return out


def _empirical_front(estimates: np.ndarray) -> tuple[int, ...]:
    seen = np.flatnonzero(np.isfinite(estimates).all(axis=1))
    if not len(seen):
        return ()
    return tuple(int(a) for a in seen[pareto.pareto_mask(estimates[seen])])


def _snapshots(table: _Table, arms: np.ndarray, rewards: np.ndarray, K: int, names: list[str],
               signs: np.ndarray) -> tuple[list[RoundState], bool]:
    """The snapshots the log gives, or the empirical ones (module docstring), and whether it gives bounds."""
    L = len(names)
    counts, empirical = _empirical(arms, rewards, K)
    cols = _snapshot_columns(table, K, names)
    logged = any(cols.values())
    rows = _snapshot_rows(table, cols) if logged else limits.snapshot_rounds(len(arms), limits.MAX_SNAPSHOTS) - 1
    if logged and not len(rows):
        raise ValueError("snapshot columns: no row fills them; leave them out, or fill them on the rounds logged")
    grids = {}
    for kind in _BOUNDS:
        if cols[kind]:
            allowed = "a number, or empty for no value yet" + (", inf or -inf" if kind != "estimate" else "")
            grids[kind] = _grid(table, cols[kind], rows, K, L, allowed, infinite=kind != "estimate")
    estimates = grids["estimate"] * signs if "estimate" in grids else empirical[rows]
    lower, upper = grids.get("lower"), grids.get("upper")
    if lower is not None or upper is not None:
        lower = np.full_like(estimates, np.nan) if lower is None else lower
        upper = np.full_like(estimates, np.nan) if upper is None else upper
        lower, upper = np.where(signs < 0, -upper, lower), np.where(signs < 0, -lower, upper)  # minimised: swapped
        wrong = lower > upper
        if wrong.any():
            r, a, j = (int(v) for v in np.argwhere(wrong)[0])
            raise ValueError(f"lower[{a}][{names[j]}]: {table.where(int(rows[r]))} is above upper[{a}][{names[j]}]; "
                             "a lower bound must not exceed its upper bound")
    else:
        lower = upper = np.full_like(estimates, np.nan)
    status = _statuses(table, cols["status"], rows) if cols["status"] else np.full((len(rows), K), ACTIVE, np.int8)
    fronts = _fronts(table, rows, K) if cols["front"] else [_empirical_front(e) for e in estimates]
    return [RoundState(t=int(r) + 1, estimates=estimates[i], lower=lower[i], upper=upper[i], status=status[i],
                       front=fronts[i], pulled=int(arms[r]), counts=counts[r].copy())
            for i, r in enumerate(rows)], bool(cols["lower"] or cols["upper"])


def read(source: Any, header: Any = None) -> dict[str, Any]:
    """The fields of a `Trace` from a log (module docstring): ``source`` a path, bytes, text or file; ``header`` the
    side JSON (a dict or a path). Every fault is a ValueError naming the field (the column, or ``header``), the row
    (and its line in the file) and what is allowed."""
    head, table = _parse(_load(source))
    return fields(table, _merge(head, header))


def from_columns(data: dict[str, np.ndarray], head: dict[str, Any]) -> dict[str, Any]:
    """The fields of a `Trace` from a log's columns and header (as `banditviz.Recorder` holds them), validated as
    `read` validates a file (a message names the row)."""
    return fields(_Table(pd.DataFrame(data), None), _merge(head, None))


def fields(table: _Table, head: dict[str, Any]) -> dict[str, Any]:
    """The fields of a `Trace` from a log's table and its header (merged), validated (`read`)."""
    names, reward_cols = _objectives(table)
    arms, K = _rounds_and_arms(table, head)
    directions = head.get("directions")
    if directions is not None and (not isinstance(directions, list) or len(directions) != len(names)
                                   or any(d not in ("max", "min") for d in directions)):
        raise ValueError(f"header: directions must be a list of {len(names)} entries (one per reward column), "
                         "each 'max' or 'min'")
    inst = _truth(head, K, names, np.ones(len(names)) if directions is None else
                  np.array([-1.0 if d == "min" else 1.0 for d in directions]), head.get("arm_names"))
    if inst is not None:
        directions = list(inst.directions)
    signs = np.array([-1.0 if d == "min" else 1.0 for d in (directions or ["max"] * len(names))])
    rewards = np.column_stack([table.numbers(c, "a finite number") for c in reward_cols]) * signs
    n = len(arms)
    task = head.get("task", "regret")
    if task not in TASKS:
        raise ValueError(f"header: task must be one of {list(TASKS)}, got {task!r}")
    horizon = _int_in("header: horizon", head.get("horizon", n), n, limits.MAX_HORIZON)
    seed = _int_in("header: seed", head.get("seed", 0), 0, limits.MAX_SEED)
    algorithm = head.get("algorithm", "logged run")
    if not isinstance(algorithm, str) or not 0 < len(algorithm) <= 60:
        raise ValueError(f"header: algorithm must be a name of 1 to 60 characters, got {algorithm!r}")
    params = head.get("params", {})
    if not isinstance(params, dict):
        raise ValueError(f"header: params must be an object, got {params!r}")
    recommendation = head.get("recommendation")
    if recommendation is not None and (not isinstance(recommendation, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) and 0 <= a < K for a in recommendation)):
        raise ValueError(f"header: recommendation must be a list of arm indices in [0, {K}), got {recommendation!r}")
    stopped_at = head.get("stopped_at")
    if stopped_at is not None and stopped_at != n:
        raise ValueError(f"header: stopped_at must be the last round logged ({n}) or absent, got {stopped_at!r}")
    limits.check_run_size(n, K, 1)
    snapshots, bounds = _snapshots(table, arms, rewards, K, names, signs)
    info: dict[str, Any] = {"logged": True} if bounds else {"logged": True, "no_bounds": True}
    if inst is None:
        _, means = _empirical(arms, rewards, K)
        stand_in = np.nan_to_num(means[-1], nan=0.0)
        inst = Instance.from_means(stand_in, objective_names=names, directions=directions,
                                   arm_names=head.get("arm_names"), name=UNKNOWN_NAME,
                                   description="A logged run without its true means: these means are the empirical "
                                               "means of the logged rewards (0 for an arm never pulled).")
        info["truth_unknown"] = True
        metrics = {}
    else:
        metrics = {k: np.asarray(v)[arms] for k, v in arm_regrets(inst, task).items()}
    return {"instance": inst, "algorithm": algorithm, "params": params, "seed": seed, "horizon": horizon,
            "arms": arms, "rewards": rewards, "metrics": metrics, "stopped_at": stopped_at,
            "recommendation": None if recommendation is None else tuple(recommendation),
            "snapshots": snapshots, "info": info}


def _columns(trace: Any) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The header and the columns of ``trace``'s log (numbers as floats, NaN where empty; text '' where empty)."""
    inst, K = trace.instance, trace.instance.K
    if inst.reward_dim != inst.L:
        raise ValueError("trace: a run on a 'distributions' instance (scalar rewards) has no log format yet")
    names, signs = list(inst.objective_names), np.array([-1.0 if d == "min" else 1.0 for d in inst.directions])
    head: dict[str, Any] = {"algorithm": trace.algorithm, "seed": int(trace.seed), "arms": K,
                            "arm_names": list(inst.arm_names), "directions": list(inst.directions),
                            "horizon": int(trace.horizon)}
    if not trace.info.get("truth_unknown"):
        head["instance"] = inst.to_dict()
    if trace.recommendation is not None:
        head["recommendation"] = [int(a) for a in trace.recommendation]
    if trace.stopped_at is not None:
        head["stopped_at"] = int(trace.stopped_at)
    if any(k.startswith("lex_regret_") for k in trace.metrics):
        head["task"] = "lexicographic"
    n = trace.rounds
    data: dict[str, np.ndarray] = {"round": np.arange(1, n + 1), "arm": np.asarray(trace.arms, dtype=np.int64)}
    for j, name in enumerate(names):
        data[f"reward[{name}]"] = trace.rewards[:, j] * signs[j]
    grids = {kind: np.full((n, K, len(names)), np.nan) for kind in _BOUNDS}
    status, front = np.full((n, K), "", dtype=object), np.full(n, "", dtype=object)
    for s in trace.snapshots:
        r = s.t - 1
        grids["estimate"][r] = s.estimates * signs
        grids["lower"][r] = np.where(signs < 0, -s.upper, s.lower)  # a minimised objective's bounds swap
        grids["upper"][r] = np.where(signs < 0, -s.lower, s.upper)
        status[r] = [STATUS_NAMES[int(c)] for c in s.status]
        front[r] = " ".join(str(int(a)) for a in s.front)
    for kind, grid in grids.items():
        data.update({f"{kind}[{a}][{name}]": grid[:, a, j] for a in range(K) for j, name in enumerate(names)})
    data.update({f"status[{a}]": status[:, a].astype(str) for a in range(K)})
    data["front"] = front.astype(str)
    return head, data


def _csv(head: dict[str, Any], data: dict[str, np.ndarray]) -> str:
    cells = {}
    for key, col in data.items():
        if col.dtype.kind == "f":  # repr only where a value is: most snapshot cells are empty
            given = ~np.isnan(col)
            cells[key] = np.full(len(col), "", dtype=object)
            cells[key][given] = [repr(float(v)) for v in col[given]]
        else:
            cells[key] = col
    return (f"# {FORMAT} v{VERSION}\n# {json.dumps(head, allow_nan=False)}\n"
            + pd.DataFrame(cells).to_csv(index=False, lineterminator="\n"))


def _npz(head: dict[str, Any], data: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez_compressed(buffer, format=np.array(f"{FORMAT} v{VERSION}"),
                        header=np.array(json.dumps(head, allow_nan=False)), **data)
    return buffer.getvalue()


def _parquet(head: dict[str, Any], data: dict[str, np.ndarray]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(data, metadata={"format": f"{FORMAT} v{VERSION}", "header": json.dumps(head, allow_nan=False)})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    return buffer.getvalue()


FORMATS = {"csv": _csv, "npz": _npz, "parquet": _parquet}


def form_of(dest: Any, form: str | None) -> str:
    """The format to write: ``form`` if given, else ``dest``'s suffix (.npz, .parquet), else CSV."""
    if form is None:
        suffix = os.path.splitext(os.fspath(dest))[1].lower() if isinstance(dest, (str, os.PathLike)) else ""
        form = {".npz": "npz", ".parquet": "parquet"}.get(suffix, "csv")
    if form not in FORMATS:
        raise ValueError(f"format: must be one of {list(FORMATS)}, got {form!r}")
    return form


def save(head: dict[str, Any], data: dict[str, np.ndarray], dest: Any, form: str | None) -> str | bytes:
    """The log of ``head`` and ``data`` in its format (`form_of`), written to ``dest`` (a path or a file) if given."""
    form = form_of(dest, form)
    content = FORMATS[form](head, data)
    if isinstance(dest, (str, os.PathLike)):
        with open(dest, "w" if form == "csv" else "wb", **({"encoding": "utf-8"} if form == "csv" else {})) as fh:
            fh.write(content)
    elif dest is not None:
        dest.write(content)
    return content


def write(trace: Any, dest: Any = None, form: str | None = None) -> str | bytes:
    """The log of ``trace`` (format v1, module docstring; its instance as the header's ``instance`` unless the truth is
    unknown) as CSV text, or npz or Parquet bytes (``form``, else ``dest``'s suffix), written to ``dest`` (a path or
    a file) when given; returns it. Floats are written exactly (CSV: ``repr``), so a log read back gives the same
    arms, rewards and snapshots bit for bit."""
    return save(*_columns(trace), dest, form)
