"""Cached runs and sweeps shared by the pages, and the reshaping of a sweep table for the figures.

`st.cache_data` keys on every argument, and every argument here is the full description of a run
(instance JSON, algorithm, parameters as JSON, horizon, seeds, snapshots): two sessions share a cached
result only when their inputs are identical, in which case the result is identical too (runs are
deterministic). Entries are bounded (and expire), so the caches cannot grow without limit. Sweeps use a
small LRU of their own, with the same keys (see `cached_sweep`).

Watch's figures are serialised for the browser once per setting and kept, as text, in `PREPARED` (bounded in bytes,
`serving.BoundedCache`), so a visit to a setting already shown costs the server almost nothing; a figure not yet made
waits for its turn in `LINE` (first come, first served, one per core), its page told its place meanwhile.
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import banditviz
from banditviz import figures, fronts, words
from banditviz.figures.playback import (  # noqa: F401 (the pages')
    PRESENT_HEIGHT,
    PRESENT_HEIGHTS,
    WATCH_HEIGHT,
    WATCH_HEIGHTS,
)
from banditviz.simulate import has_compiled_loop, has_fast_loop
from banditviz.sweep import summary as sweep_summary
from banditviz.sweep import sweep as run_sweep
from banditviz.trace import column_name

from . import charts, serving, state

CACHE = {"max_entries": 32, "ttl": 3600, "show_spinner": False}


@st.cache_data(**CACHE)
def cached_run(instance_json: str, algorithm: str, params_json: str, horizon: int, seed: int,
               snapshots: int) -> banditviz.Trace:
    """One run, cached by its complete inputs."""
    inst = banditviz.Instance.from_json(instance_json)
    return banditviz.run(inst, algorithm, horizon, seed, snapshots=snapshots, **json.loads(params_json))


def _key(setting: state.Setting) -> tuple[str, str, str, int, int]:
    return (setting.instance_json, setting.algorithm, json.dumps(setting.params, sort_keys=True),
            setting.horizon, setting.seed)


def run_setting(setting: state.Setting, snapshots: int = 200) -> banditviz.Trace:
    return cached_run(*_key(setting), snapshots)


PREPARED_MAX_BYTES = 64 * 2**20  # Watch's figures serialised for the browser (~1 MB each, at most ~5 MB)
PREPARED: serving.BoundedCache[charts.Prepared] = serving.BoundedCache(PREPARED_MAX_BYTES, lambda p: p.nbytes)
LINE = serving.Line(os.cpu_count() or 1)  # runs and their figures being made: one per core, the others wait


def animation(setting: state.Setting, height: int = WATCH_HEIGHT, heights: tuple[int, ...] = (),
              present: bool = False, waiting: Callable[[str], None] | None = None) -> charts.Prepared:
    """The Watch figure of a setting, serialised once for every session that shows it (no Plotly controls: the
    page's player drives it and may fit it to one of ``heights``; ``present``: for a projector, its title and legend
    left to the page). ``waiting(message)``: told, while the figure is being made, what the page waits for."""
    key = _key(setting)

    def build() -> go.Figure:
        return figures.animate(cached_run(*key, 200), controls=False, height=height, heights=heights, present=present)
    return _prepared(("animation", *key, height, heights, present), build, _making(setting), waiting)


def race(setting: state.Setting, rival: str, height: int = WATCH_HEIGHT, heights: tuple[int, ...] = (),
         present: bool = False, waiting: Callable[[str], None] | None = None) -> charts.Prepared:
    """The setting's run and ``rival`` (at its paper defaults) on the same instance, horizon and seed (so the
    same noise), side by side in one figure driven by one player (heights, present, waiting: as `animation`)."""
    key = _key(setting)

    def build() -> go.Figure:
        first, second = cached_run(*key, 200), cached_run(key[0], rival, "{}", *key[3:], 200)
        return figures.race(first, second, controls=False, height=height, heights=heights, present=present)
    return _prepared(("race", *key, rival, height, heights, present), build,
                     _making(setting, f" and {rival}"), waiting)


def _making(setting: state.Setting, also: str = "") -> str:
    return f"Running {setting.algorithm}{also} for {setting.horizon:,} rounds (seed {setting.seed}) and drawing it..."


def _prepared(key: tuple[Any, ...], build: Callable[[], go.Figure], making: str,
              waiting: Callable[[str], None] | None) -> charts.Prepared:
    """The prepared figure of ``key`` from `PREPARED`, else made by ``build`` in its turn in `LINE`; ``waiting`` is
    told each change of what the page waits for (its place in line, then ``making``)."""
    tell = waiting or (lambda message: None)

    def make() -> charts.Prepared:
        with LINE.turn(lambda n: tell(f"The server is busy: {words.count(n, 'run')} ahead of this one...")):
            tell(making)
            return charts.prepare(build())
    return PREPARED.get(key, make, lambda: tell("The same run is being made for another visitor..."))


def tidy(trace: banditviz.Trace) -> pd.DataFrame:
    """The per-round frame of a run with its algorithm and seed (the shape `regret_curves` takes)."""
    frame = trace.to_frame()
    frame.insert(0, "seed", trace.seed)
    frame.insert(0, "algorithm", trace.algorithm)
    return frame


def readable(table: pd.DataFrame, instance: banditviz.Instance) -> pd.DataFrame:
    """A sweep table or summary with its columns named as a reader takes them (`banditviz.trace.column_name`: the
    pulled arm's expected reward per objective as ``cum_expected_reward[<objective>]``), for the page and its CSV
    downloads."""
    return table.rename(columns=lambda c: column_name(str(c), instance.objective_names))


_SUMMARY_NAMES = {"stopping_time": "samples until stopping", "success_rate": "success rate",
                  "stopped_rate": "share of runs that stopped"}


def summary_headers(summary: pd.DataFrame, instance: banditviz.Instance) -> pd.DataFrame:
    """A `summary` with headers a reader takes at a glance, no snake_case: ``cum_pareto_regret_mean`` -> "Pareto
    regret at T (mean)", ``cum_reward_1_sd`` -> "expected reward of <objective 1> at T (sd)", ``stopping_time_mean``
    -> "samples until stopping (mean)" (the CSV keeps the short names, for programs)."""
    def header(column: str) -> str:
        base, stat = column, ""
        for suffix in ("_mean", "_sd"):
            if column.endswith(suffix):
                base, stat = column.removesuffix(suffix), f" ({suffix[1:]})"
        if base.startswith("cum_reward_") and base[11:].isdigit() and int(base[11:]) <= instance.L:
            return f"expected reward of {instance.objective_names[int(base[11:]) - 1]} at T{stat}"
        if base.startswith("cum_"):
            return f"{figures.metric_label(base[4:])} at T{stat}"
        return _SUMMARY_NAMES.get(base, base.replace("_", " ")) + stat
    return summary.rename(columns=lambda c: header(str(c)))


_SWEEPS: OrderedDict[tuple[Any, ...], pd.DataFrame] = OrderedDict()
_SWEEPS_LOCK = threading.Lock()
MAX_SWEEPS = 32


def cached_sweep(instance_json: str, algorithms: tuple[tuple[str, str], ...], seeds: int, horizon: int,
                 progress: Callable[[int, int], None] | None = None) -> pd.DataFrame:
    """`banditviz.sweep.sweep` of ``(name, params JSON)`` entries on seeds 0..seeds-1, cached by its inputs.

    A small LRU of its own rather than `st.cache_data`, because ``progress`` updates a progress bar drawn
    outside the function, which Streamlit forbids inside a cached function. A hit returns a copy at once.
    """
    key = (instance_json, algorithms, seeds, horizon)
    with _SWEEPS_LOCK:
        if key in _SWEEPS:
            _SWEEPS.move_to_end(key)
            return _SWEEPS[key].copy()
    inst = banditviz.Instance.from_json(instance_json)
    entries = [(name, json.loads(params)) for name, params in algorithms]
    backend = sweep_backend(inst.kind, [name for name, _ in entries], seeds, horizon)
    table = run_sweep(inst, entries, seeds, horizon, backend=backend,
                      progress=progress)
    with _SWEEPS_LOCK:
        _SWEEPS[key] = table
        while len(_SWEEPS) > MAX_SWEEPS:
            _SWEEPS.popitem(last=False)
    return table.copy()


@st.cache_data(**CACHE)
def cached_fronts(instance_json: str, algorithms: tuple[tuple[str, str], ...], seeds: int,
                  horizon: int) -> dict[str, list]:
    """The estimated front of each run of a `cached_sweep` (same entries, seeds 0..seeds-1), cached by its inputs."""
    inst = banditviz.Instance.from_json(instance_json)
    return fronts.run_fronts(inst, [(name, json.loads(params)) for name, params in algorithms], range(seeds), horizon)


PROCESSES_FROM = 400_000  # Python-loop seed-rounds from which local worker processes repay their start-up (~1-2 s)
COMPILED_COST = 0.02  # a compiled or batch-wise round in Python-loop rounds (benchmarks/compare.py: 8-60x)


def sweep_backend(kind: str, algorithms: Sequence[str], seeds: int, horizon: int) -> str:
    """The sweep backend for the app: local processes for large comparisons, in-process below (decision).

    Work is counted in Python-loop rounds; runs that `simulate.run` plays in a compiled or batch-wise loop
    (`has_fast_loop`) count for `COMPILED_COST` of a round, so a 3 x 50 x 20,000 comparison of such runs stays
    in-process (no worker start-up, no per-job pickling): on threads when every run is in a compiled loop (which
    releases the GIL; 1.5-1.9x on 2 cores, `benchmarks/compare.py`), else serial."""
    per_round = sum(COMPILED_COST if has_fast_loop(name, kind) else 1.0 for name in algorithms)
    if per_round * seeds * horizon >= PROCESSES_FROM:
        return "processes"
    compiled = all(has_compiled_loop(name, kind) for name in algorithms)
    return "threads" if compiled and seeds > 1 and (os.cpu_count() or 1) > 1 else "serial"


def sweep_entries(algorithms: Sequence[str], params: dict[str, dict[str, Any]] | None = None
                  ) -> tuple[tuple[str, str], ...]:
    """The hashable ``(name, params JSON)`` entries of `cached_sweep`, at paper defaults unless ``params`` says."""
    return tuple((a, json.dumps((params or {}).get(a, {}), sort_keys=True)) for a in algorithms)


def curve_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The regret rows of a sweep table in the shape `figures.regret_curves` takes: per (algorithm, seed,
    recorded round) the increment of each cumulative metric since the previous recorded round, so that
    the figure's cumulative sum gives back the sweep's ``cum_<metric>`` at every recorded round."""
    rows = table[table["round"].notna()] if "round" in table else table.iloc[0:0].assign(round=pd.Series(dtype="Int64"))
    cums = [c for c in rows.columns if c.startswith("cum_") and rows[c].notna().any()]  # metrics these runs record
    out = rows[["algorithm", "seed", "round"]].astype({"round": "int64"}).reset_index(drop=True)
    grouped = rows.groupby(["algorithm", "seed"], sort=False)
    for c in cums:
        out[c.removeprefix("cum_")] = (grouped[c].diff().fillna(rows[c])).to_numpy(dtype=float)
    return out


def stopping_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The identification rows of a sweep table in the shape of the stopping figures: algorithm, seed,
    ``stopped_at`` (missing when the run did not stop) and ``correct``."""
    if "stopping_time" not in table:
        return pd.DataFrame(columns=["algorithm", "seed", "stopped_at", "correct"])
    rows = table[table["stopping_time"].notna()]
    stopped_at = rows["stopping_time"].astype(float).where(rows["stopped"].astype(bool))
    return pd.DataFrame({"algorithm": rows["algorithm"].to_numpy(), "seed": rows["seed"].to_numpy(),
                         "stopped_at": stopped_at.to_numpy(), "correct": rows["correct"].astype(bool).to_numpy()})


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """`banditviz.sweep.summary` per algorithm, without the columns that are the same on every row."""
    return sweep_summary(table).drop(columns=["instance", "params"])


def parse_settings(text: str, algorithms: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Compare's extra settings, one a line ``name key=value ...`` (values as JSON where they parse: numbers, true),
    as `cached_sweep` entries; ValueError naming the line and what is allowed."""
    entries = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, *pairs = line.split()
        where = f"settings, line {i}"
        if name not in algorithms:
            raise ValueError(f"{where}: {name!r} is not an algorithm for this instance; one of {sorted(algorithms)}")
        params = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key:
                raise ValueError(f"{where}: expected key=value after the name, got {pair!r}")
            try:
                params[key] = json.loads(value)
            except json.JSONDecodeError:
                params[key] = value
        try:
            algorithms[name].validate(params)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        entries.append((name, json.dumps(params, sort_keys=True)))
    return tuple(entries)


def label_settings(table: pd.DataFrame) -> pd.DataFrame:
    """A sweep table whose ``algorithm`` names each setting: the name, and the parameters that differ from the
    paper defaults, ``mo_epsilon_greedy (epsilon=0.05)``, so that two settings of one algorithm are told apart."""
    def label(name: str, params: str) -> str:
        defaults = banditviz.get_algorithm(name).defaults()
        changed = [f"{k}={v}" for k, v in sorted(json.loads(params).items()) if defaults.get(k) != v]
        return f"{name} ({', '.join(changed)})" if changed else name

    labels = {pair: label(*pair) for pair in set(zip(table["algorithm"], table["params"], strict=True))}
    return table.assign(algorithm=[labels[pair] for pair in zip(table["algorithm"], table["params"], strict=True)])
