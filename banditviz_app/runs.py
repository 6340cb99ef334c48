"""Cached runs shared by the pages, and the per-algorithm summary table.

`st.cache_data` keys on every argument, and every argument here is the full description of a run
(instance JSON, algorithm, parameters as JSON, horizon, seed, snapshots): two sessions share a cached
result only when their inputs are identical, in which case the result is identical too (runs are
deterministic). Entries are bounded and expire, so the cache cannot grow without limit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import banditviz
from banditviz import figures

from . import state

# Recommendation metrics (`banditviz.metrics.RECOMMENDATION_METRICS`) describe the current answer: the
# summary reports their value at the last round; per-pull regrets are summed over the run instead.
FINAL_METRICS = ("error", "simple_regret")
CACHE = {"max_entries": 64, "ttl": 3600, "show_spinner": False}


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


@st.cache_resource(**CACHE)
def _animation(instance_json: str, algorithm: str, params_json: str, horizon: int, seed: int) -> go.Figure:
    return figures.animate(cached_run(instance_json, algorithm, params_json, horizon, seed, 200))


def animation(setting: state.Setting) -> go.Figure:
    """The Watch figure of a setting, built once per distinct input (never mutated by the pages)."""
    return _animation(*_key(setting))


def tidy(trace: banditviz.Trace) -> pd.DataFrame:
    """The per-round frame of a run with its algorithm and seed (the shape `regret_curves` takes)."""
    frame = trace.to_frame()
    frame.insert(0, "seed", trace.seed)
    frame.insert(0, "algorithm", trace.algorithm)
    return frame


def correct(trace: banditviz.Trace) -> float:
    """1 if the recommended set is the true Pareto set, 0 if not, NaN without a recommendation."""
    if trace.recommendation is None or trace.instance.kind == "contextual":
        return float("nan")
    return float(set(trace.recommendation) == set(trace.instance.pareto_set))


def run_row(trace: banditviz.Trace) -> dict[str, Any]:
    """One line per run (the columns the figures take): rounds played, stopping round, correct answer,
    and each metric's cumulative total."""
    row: dict[str, Any] = {"algorithm": trace.algorithm, "seed": trace.seed, "rounds": trace.rounds,
                           "stopped_at": trace.stopped_at, "correct": correct(trace)}
    for k, v in trace.metrics.items():
        if k in FINAL_METRICS:
            row[f"final {k}"] = float(v[-1]) if len(v) else float("nan")
        else:
            row[f"total {k}"] = float(np.sum(v))
    return row


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean (and standard deviation) per algorithm of the per-run rows."""
    numeric = runs.drop(columns=["seed"]).astype({"stopped_at": float})
    grouped = numeric.groupby("algorithm", sort=False)
    out = grouped.mean().add_suffix(" (mean)")
    sd = grouped.std(ddof=0).add_suffix(" (sd)")
    out = pd.concat([out, sd], axis=1)
    out.insert(0, "runs", grouped.size())
    out = out[[c for c in out.columns if not out[c].isna().all()]]
    return out.reset_index()


def run_many(instance_json: str, algorithms: Sequence[str], seeds: Sequence[int], horizon: int,
             progress: Callable[[int, int], None] | None = None,
             params: dict[str, dict[str, Any]] | None = None) -> list[banditviz.Trace]:
    """Every (algorithm, seed) run without snapshots, at paper defaults unless ``params[algorithm]`` says
    otherwise; ``progress(done, total)`` after each run."""
    jobs = [(a, s) for a in algorithms for s in seeds]
    out = []
    for i, (alg, seed) in enumerate(jobs, start=1):
        alg_params = json.dumps((params or {}).get(alg, {}), sort_keys=True)
        out.append(cached_run(instance_json, alg, alg_params, horizon, seed, 0))
        if progress is not None:
            progress(i, len(jobs))
    return out
