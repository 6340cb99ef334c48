"""Figures of the papers' experiments, drawn from sweep tables (pure functions: a DataFrame in, a figure out).

Every builder reads the tidy table of `banditviz.sweep` (shipped results or a live rerun):

* `curves`: a metric against the round, one line per algorithm (mean with a +- 1 sd band over all runs,
  or the 25%-trimmed mean of RAMGapE Sec. 4, Exp. 3 and 4);
* `rate_against`: misidentification rate (1 - share of correct runs, 95% Wilson interval) against the budget
  or the number of arms (Kone, Kaufmann & Richert, AISTATS 2025, Figs. 1 and 3);
* `mean_against`: mean +- standard error of a per-run value (stopping time) against the instance's number;
* `spread`: the distribution of a per-run value (stopping time) per algorithm, as box plots (LinPSI Fig. 4);
* `pull_allocation`: each arm's mean number of pulls at the end of the runs, per algorithm;
* `identified_fronts`: the fronts the runs returned, on the instance's true means (PFIwR Figs. 2 (a), 3 (a));
* `rates`: theorems' rates side by side on log-log (or semi-log) axes: the measured points with their intervals,
  the fitted lines and a line of each theorem's slope (`banditviz.claims.stats.Fit`);
* `points_against`: per panel, one marker series per group of a per-arm value against another (RAMGapE Exp. 2);
* `totals_against`: grouped bars of a per-run total per setting, log axis (MOL-TS App. F).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from .palette import base_layout, legible, plain, rgba, series_color, titled
from .static import metric_label, wilson_interval

TRIM = 0.25  # share cut from each end by the trimmed mean (scipy.stats.trim_mean)


def run_labels(table: pd.DataFrame) -> pd.Series:
    """One label per row: the algorithm, followed by the parameters that differ between its rows (read from each
    distinct parameter string once: a shipped table has ~550k rows and ~230 of them)."""
    labels = table["algorithm"].astype(str).copy()
    pairs = table[["algorithm", "params"]].drop_duplicates()
    for name in pairs["algorithm"].unique():
        params = pairs.loc[pairs["algorithm"] == name, "params"]
        values = pd.DataFrame([json.loads(p) for p in params])
        varying = [c for c in values.columns if values[c].astype(str).nunique() > 1]
        if varying:
            text = {p: f"{name} ({', '.join(f'{k}={v}' for k, v in zip(varying, row, strict=True))})"
                    for p, row in zip(params, values[varying].itertuples(index=False), strict=True)}
            rows = table["algorithm"] == name
            labels[rows] = table.loc[rows, "params"].map(text)
    return labels


def _number(label: str) -> float:
    """The last number in an instance label ("K=32" -> 32, "pattern 7" -> 7)."""
    found = re.findall(r"-?\d+(?:\.\d+)?", label)
    if not found:
        raise ValueError(f"instance label {label!r} holds no number to plot against")
    return float(found[-1])


def _per_run(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Rounds x runs matrix of ``metric``; a run that stopped early keeps its last value afterwards."""
    wide = rows.pivot_table(index="round", columns=["instance", "params", "seed"], values=metric, aggfunc="first")
    return wide.sort_index().ffill()


def curves(table: pd.DataFrame, metrics: list[str], title: str, stat: str = "mean") -> go.Figure:
    """One panel per metric column, value against the round, one line per algorithm over every run and
    instance of the table; ``stat`` "mean" (band: +- 1 sd) or "trimmed" (25%-trimmed mean, no band).
    A run that stopped early (identification) keeps its final value up to the last round shown."""
    table = table.assign(label=run_labels(table))
    fig = make_subplots(rows=1, cols=len(metrics), subplot_titles=[metric_label(m.removeprefix("cum_"))
                                                                   for m in metrics], horizontal_spacing=0.08)
    for j, metric in enumerate(metrics):
        for i, (label, rows) in enumerate(table.groupby("label", sort=False)):
            wide = _per_run(rows, metric)
            x, values = wide.index.to_numpy(), wide.to_numpy(float)
            y = stats.trim_mean(values, TRIM, axis=1) if stat == "trimmed" else values.mean(axis=1)
            color = series_color(i)
            if stat == "mean" and values.shape[1] > 1:
                sd = values.std(axis=1, ddof=1)
                fig.add_trace(go.Scatter(x=np.r_[x, x[::-1]], y=np.r_[y + sd, (y - sd)[::-1]], fill="toself",
                                         fillcolor=rgba(color, 0.15), line={"width": 0}, hoverinfo="skip",
                                         showlegend=False, legendgroup=label), row=1, col=j + 1)
            fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=plain(label), legendgroup=label,
                                     line={"color": color, "width": 3}, showlegend=j == 0), row=1, col=j + 1)
        fig.update_xaxes(title_text="round", row=1, col=j + 1)
    what = "25%-trimmed mean over runs" if stat == "trimmed" else "mean ± 1 sd over runs"
    fig.update_layout(**base_layout(f"{title}<br><sup>{what}</sup>"), height=480)
    return legible(fig)


def rate_against(table: pd.DataFrame, x: str, title: str) -> go.Figure:
    """Misidentification rate per algorithm against ``x``: "budget" (from the parameters) or "arms" (the
    number in the instance label), with 95% Wilson intervals."""
    rows = table.assign(label=table["algorithm"],
                        x=table["params"].map(lambda p: json.loads(p)["budget"]) if x == "budget"
                        else table["instance"].map(_number))
    fig = go.Figure()
    for i, (label, part) in enumerate(rows.groupby("label", sort=False)):
        g = part.groupby("x", sort=True)["correct"]
        n, ok = g.size(), g.sum()
        lo_hi = np.array([wilson_interval(int(n[k] - ok[k]), int(n[k])) for k in n.index])
        err = 1 - ok / n
        fig.add_trace(go.Scatter(x=n.index, y=err, mode="lines+markers", name=plain(label),
                                 line={"color": series_color(i), "width": 3},
                                 error_y={"type": "data", "symmetric": False, "array": lo_hi[:, 1] - err,
                                          "arrayminus": err - lo_hi[:, 0]}))
    fig.update_layout(**base_layout(title), height=480, xaxis_title="budget T" if x == "budget" else "arms K",
                      yaxis_title="misidentification rate", yaxis_range=[-0.02, 1.02])
    return legible(fig)


def mean_against(table: pd.DataFrame, value: str, title: str, x_title: str, log_y: bool = False) -> go.Figure:
    """Mean +- standard error of a per-run ``value`` per algorithm against the number in the instance label."""
    rows = table.assign(label=run_labels(table), x=table["instance"].map(_number))
    fig = go.Figure()
    for i, (label, part) in enumerate(rows.groupby("label", sort=False)):
        g = part.groupby("x", sort=True)[value]
        mean, se = g.mean(), g.std(ddof=1).fillna(0.0) / np.sqrt(g.size())
        fig.add_trace(go.Scatter(x=mean.index, y=mean, mode="lines+markers", name=plain(label),
                                 line={"color": series_color(i), "width": 3},
                                 error_y={"type": "data", "array": se}))
    fig.update_layout(**base_layout(title), height=480, xaxis_title=x_title, yaxis_title=metric_label(value),
                      yaxis_type="log" if log_y else "linear")
    return legible(fig)


def spread(table: pd.DataFrame, value: str, title: str) -> go.Figure:
    """One box per algorithm of a per-run ``value`` (quartiles, whiskers at 1.5 IQR, every run as a point)."""
    rows = table.assign(label=run_labels(table))
    fig = go.Figure()
    for i, (label, part) in enumerate(rows.groupby("label", sort=False)):
        fig.add_trace(go.Box(y=part[value].astype(float), name=plain(label), boxpoints="all", jitter=0.4,
                             pointpos=0, marker={"color": series_color(i), "size": 4}, line={"color": series_color(i)}))
    fig.update_layout(**base_layout(title), height=480, showlegend=False, yaxis_title=metric_label(value))
    return legible(fig)


def pull_allocation(table: pd.DataFrame, title: str, highlight: tuple[int, ...] = ()) -> go.Figure:
    """Each arm's mean number of pulls over the runs (last recorded round), one bar group per algorithm;
    arms in ``highlight`` (the Pareto set) are named with a star."""
    from ..sweep import parse_pulls

    last = table.groupby(["instance", "algorithm", "params", "seed"], sort=False).tail(1)
    last = last.assign(label=run_labels(last))
    fig = go.Figure()
    for i, (label, part) in enumerate(last.groupby("label", sort=False)):
        counts = parse_pulls(part["pulls"]).mean(axis=0)
        names = [f"arm {k}{' *' if k in highlight else ''}" for k in range(len(counts))]
        fig.add_trace(go.Bar(x=names, y=counts, name=plain(label), marker_color=series_color(i)))
    note = "<br><sup>* Pareto optimal</sup>" if highlight else ""
    fig.update_layout(**base_layout(title + note), height=480, barmode="group", yaxis_title="mean pulls")
    return legible(fig)


def identified_fronts(table: pd.DataFrame, means: np.ndarray, title: str,
                      objective_names: tuple[str, ...] = ("objective 1", "objective 2")) -> go.Figure:
    """PFIwR Fig. 2(a): one panel per parameter setting (p), every arm at its true mean vector, the true
    Pareto front as a staircase, and how often the runs that stopped returned each arm (fill and "k/m").

    ``means`` is the instance's K x 2 true means (objectives maximised); a run that did not stop within the
    horizon has no identified front and is only counted in the panel's title."""
    from ..pareto import pareto_mask

    last = table.groupby(["instance", "algorithm", "params", "seed"], sort=False).tail(1)
    last = last.assign(label=run_labels(last))
    groups = list(last.groupby("label", sort=False))
    front = np.flatnonzero(pareto_mask(means))
    stairs = front[np.argsort(-means[front, 0])]
    titles = []
    for label, part in groups:
        stopped = part[part["stopped"].astype(bool)]
        titles.append(f"{plain(label)}<br>{len(stopped)}/{len(part)} runs stopped")
    fig = make_subplots(rows=1, cols=len(groups), subplot_titles=titles, shared_yaxes=True, horizontal_spacing=0.04)
    for j, (_, part) in enumerate(groups):
        stopped = part[part["stopped"].astype(bool)]
        counts = np.zeros(len(means))
        for rec in stopped["recommended"].dropna():
            counts[[int(a) for a in str(rec).split(",") if a != ""]] += 1
        share = counts / max(len(stopped), 1)
        fig.add_trace(go.Scatter(x=means[stairs, 0], y=means[stairs, 1], mode="lines", line_shape="hv",
                                 line={"color": "#555555", "dash": "dash", "width": 2}, name="true Pareto front",
                                 showlegend=j == 0, legendgroup="front", hoverinfo="skip"), row=1, col=j + 1)
        for is_front, name, symbol in ((True, "Pareto optimal arm", "diamond"), (False, "other arm", "circle")):
            arms = [k for k in range(len(means)) if (k in front) == is_front]
            fig.add_trace(go.Scatter(
                x=means[arms, 0], y=means[arms, 1], mode="markers+text", name=name, legendgroup=name,
                showlegend=j == 0, text=[f"{int(counts[k])}/{len(stopped)}" for k in arms], textposition="top center",
                marker={"symbol": symbol, "size": 18, "color": share[arms], "cmin": 0, "cmax": 1,
                        "colorscale": "Blues", "line": {"color": "#222222", "width": 2},
                        "showscale": j == len(groups) - 1 and is_front,
                        "colorbar": {"title": {"text": "share of runs<br>returning it"}}},
                hovertemplate="arm %{customdata}<br>returned by %{text} stopped runs<extra></extra>",
                customdata=arms), row=1, col=j + 1)
        fig.update_xaxes(title_text=objective_names[0], row=1, col=j + 1)
    low, high = float(means[:, 1].min()), float(means[:, 1].max())
    fig.update_yaxes(range=[low - 0.08 * (high - low), high + 0.15 * (high - low)])  # room for the labels above
    fig.update_yaxes(title_text=objective_names[1], row=1, col=1)
    fig.update_layout(**base_layout(titled(title, "true means; label: runs that returned the arm")), height=560)
    fig = legible(fig)
    fig.update_layout(margin={**fig.layout.margin.to_plotly_json(), "t": 150})  # two-line panel titles under it
    return fig


@dataclass(frozen=True)
class RatePanel:
    """One panel of `rates`: measured series (label, `banditviz.claims.stats.Fit`) and the theorem's slope."""

    title: str
    fits: list[tuple[str, Any]]
    theory: float
    x_title: str
    y_title: str
    theory_label: str = "the theorem's slope"


def rates(panels: list[RatePanel], title: str) -> go.Figure:
    """Theorems' rates side by side, each on log-log axes (semi-log when its fits are): every measured series as
    points with their 95% intervals and its fitted line, and a dashed line of the theorem's slope through the first
    series' fitted centre."""
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[p.title for p in panels], horizontal_spacing=0.08)
    shown = 0
    for j, panel in enumerate(panels):
        for label, fit in panel.fits:
            color = series_color(shown)
            shown += 1
            fig.add_trace(go.Scatter(x=fit.x, y=fit.y, mode="markers", name=plain(f"{label}: {fit.text()}"),
                                     marker={"color": color, "size": 9}, legendgroup=label,
                                     error_y={"type": "data", "symmetric": False, "array": fit.y_high - fit.y,
                                              "arrayminus": fit.y - fit.y_low}), row=1, col=j + 1)
            fig.add_trace(go.Scatter(x=fit.x, y=fit.line(fit.slope), mode="lines", showlegend=False,
                                     legendgroup=label, line={"color": color, "width": 3}, hoverinfo="skip"),
                          row=1, col=j + 1)
        first = panel.fits[0][1]
        fig.add_trace(go.Scatter(x=first.x, y=first.line(panel.theory), mode="lines",
                                 name=plain(f"{panel.theory_label} {panel.theory:.3g}"),
                                 line={"color": "#444444", "width": 2, "dash": "dash"}), row=1, col=j + 1)
        fig.update_xaxes(title_text=panel.x_title, type="log" if first.log_x else "linear", row=1, col=j + 1)
        fig.update_yaxes(title_text=panel.y_title, type="log", row=1, col=j + 1)
    fig.update_layout(**base_layout(title), height=500)
    return legible(fig)


def points_against(frame: pd.DataFrame, x: str, y: str, group: str, panel: str, title: str, x_title: str,
                   y_title: str, log_y: bool = False) -> go.Figure:
    """One panel per value of ``panel``, one marker series per value of ``group`` (same colour in every panel):
    ``y`` against ``x`` (RAMGapE Exp. 2: each arm's pulls at stopping against its gap, per pattern)."""
    panels = list(dict.fromkeys(frame[panel]))
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[str(p) for p in panels], horizontal_spacing=0.08)
    for j, value in enumerate(panels):
        for i, (label, part) in enumerate(frame[frame[panel] == value].groupby(group, sort=False)):
            fig.add_trace(go.Scatter(x=part[x], y=part[y], mode="markers", name=plain(str(label)),
                                     legendgroup=str(label), showlegend=j == 0,
                                     marker={"color": series_color(i), "size": 11 - 2 * i, "opacity": 0.85}),
                          row=1, col=j + 1)
        fig.update_xaxes(title_text=x_title, row=1, col=j + 1)
        fig.update_yaxes(type="log" if log_y else "linear", row=1, col=j + 1)
    fig.update_yaxes(title_text=y_title, row=1, col=1)
    fig.update_layout(**base_layout(title), height=480)
    return legible(fig)


def totals_against(frame: pd.DataFrame, x: str, values: list[tuple[str, str]], group: str, title: str) -> go.Figure:
    """One panel per (column, label) of ``values``: the mean +- standard error of the column per (``x``, ``group``)
    as grouped bars on a log axis (MOL-TS App. F's summary)."""
    fig = make_subplots(rows=1, cols=len(values), subplot_titles=[label for _, label in values],
                        horizontal_spacing=0.08)
    for j, (column, _) in enumerate(values):
        for i, (label, part) in enumerate(frame.groupby(group, sort=False)):
            g = part.groupby(x, sort=False)[column]
            mean, se = g.mean(), g.std(ddof=1).fillna(0.0) / np.sqrt(g.size())
            fig.add_trace(go.Bar(x=list(mean.index), y=mean, name=plain(str(label)), marker_color=series_color(i),
                                 legendgroup=str(label), showlegend=j == 0, error_y={"type": "data", "array": se}),
                          row=1, col=j + 1)
        fig.update_yaxes(type="log", row=1, col=j + 1)
    fig.update_layout(**base_layout(title), height=480, barmode="group")
    return legible(fig)
