"""Static figures: instance preview, regret curves over seeds, sample complexity, success rate, pull counts,
empirical attainment surfaces of the estimated fronts over seeds.

Decisions (ours):
* Preview of a contextual instance: the means of one round whose contexts are drawn with seed 0
  (`instances.sample_contexts`), said in the title.
* Regret curves: each (algorithm, seed) is cumulated over its own rounds, and a run that stopped
  early keeps its final value afterwards; the band is mean +- 1 standard error over seeds
  (sample standard deviation / sqrt(n)); curves are thinned to at most 600 points (geometric spacing
  on a log x axis), always keeping the first and last rounds.
* Success rate: the share of correct runs with a 95% Wilson score interval (Wilson 1927), which
  stays inside [0, 1] for 0 or n successes, unlike the normal interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .. import pareto, words
from ..algorithms.base import STATUS_NAMES
from ..fronts import PERCENTILES, attainment_surfaces
from ..instances import Instance, sample_contexts
from ..trace import Trace
from . import geometry as geo
from .animate import plane_at
from .palette import (
    INK,
    NOTE_CHARS,
    STATUS_COLORS,
    STATUS_LABELS,
    axis_label,
    base_layout,
    finish,
    plain,
    rgba,
    series_color,
    titled,
    wrap,
)

MAX_CURVE_POINTS = 600
MAX_LABELLED_ARMS = 30  # more arms (the real instances have 128-500) are named on hover only
_METRIC_LABELS = {"pareto_regret": "Pareto regret", "effective_regret": "effective Pareto regret",
                  "simple_regret": "simple regret", "error": "error"}


def _require_columns(frame: Any, columns: list[str]) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame: must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"frame: missing column(s) {missing}; needs {columns}, has {list(frame.columns)}")
    if frame.empty:
        raise ValueError("frame: has no rows")
    return frame


def metric_label(metric: str) -> str:
    """Readable name of a metric column (``lex_regret_2`` -> ``general regret, objective 2``)."""
    if metric.startswith("lex_regret_"):
        return f"general regret, objective {metric.rsplit('_', 1)[1]}"
    if metric.startswith("priority_regret_"):
        return f"priority regret, objective {metric.rsplit('_', 1)[1]}"
    if metric.startswith("reward_"):
        return f"expected reward, obj. {metric.rsplit('_', 1)[1]}"  # short: a subplot title of five
    return _METRIC_LABELS.get(metric, metric.replace("_", " "))


# ------------------------------------------------------------------------------------------ preview
def _preview_means(instance: Instance) -> tuple[np.ndarray, str]:
    if instance.means is not None:
        return np.asarray(instance.means), ""
    ctx = sample_contexts(np.random.default_rng(0), instance.K, instance.d, instance.context)
    return ctx @ np.asarray(instance.theta), "<br><sup>means of one sampled round (contexts change every round)</sup>"


def _preview_objectives(instance: Instance, objectives: Any) -> tuple[int, ...]:
    L = instance.L
    if L < 2:
        raise ValueError("instance: a preview needs at least 2 objectives, got 1")
    if objectives is None:
        return tuple(range(3 if L == 3 else 2))
    obj = tuple(int(o) for o in objectives)
    if len(obj) not in (2, 3) or len(set(obj)) != len(obj) or not all(0 <= o < L for o in obj):
        raise ValueError(f"objectives: must be 2 or 3 distinct objective indices in [0, {L}), got {objectives!r}")
    return obj


def instance_preview(instance: Instance, objectives: tuple[int, ...] | None = None) -> go.Figure:
    """True means with the Pareto front, the effective (convex) front and each arm's gaps as hover text.

    Arm classes use the full L objectives (MOL-TS Def. 2, Def. 5); the staircase and hull are of the drawn pair. Each
    marker's customdata is (Pareto gap, effective gap, arm index): the index names the arm a click picks.
    """
    if not isinstance(instance, Instance):
        raise ValueError(f"instance: must be a banditviz Instance, got {type(instance).__name__}")
    obj = _preview_objectives(instance, objectives)
    means, note = _preview_means(instance)
    signs = np.array([-1.0 if instance.directions[o] == "min" else 1.0 for o in obj])
    P, C = pareto.pareto_mask(means), pareto.effective_pareto_mask(means)
    gap_p, gap_c = pareto.pareto_gap(means), pareto.effective_gap(means)
    pts = means[:, obj] * signs
    classes = (
        (C, "on the effective front (convex hull)", STATUS_COLORS["hull"], "circle"),
        (P & ~C, "Pareto optimal, not on the effective front", STATUS_COLORS["front"], "diamond"),
        (~P, "dominated", STATUS_COLORS["rejected"], "circle"),
    )
    coords = ", ".join(f"%{{{a}:.3f}}" for a in "xyz"[:len(obj)])
    hover = "%{text}<br>mean " + coords + "<br>Pareto gap %{customdata[0]:.3f}" \
            "<br>effective gap %{customdata[1]:.3f}<extra></extra>"
    three = len(obj) == 3
    data: list[go.BaseTraceType] = []
    for mask, name, color, symbol in classes:
        if not mask.any():
            continue
        sel = np.flatnonzero(mask)
        kw = dict(mode="markers+text" if instance.K <= MAX_LABELLED_ARMS else "markers", name=name,
                  text=[plain(instance.arm_names[i]) for i in sel],
                  customdata=np.column_stack([gap_p[sel], gap_c[sel], sel]), hovertemplate=hover,
                  textposition="top center", marker={"color": color, "symbol": symbol,
                                                     "size": 10 if three else 18,
                                                     "line": {"color": "white", "width": 1.5}})
        xyz = {"x": pts[sel, 0], "y": pts[sel, 1]}
        if three:
            data.append(go.Scatter3d(**xyz, z=pts[sel, 2], textfont={"size": 16, "color": INK}, **kw))
        else:
            data.append(go.Scatter(**xyz, textfont={"size": 16, "color": INK}, cliponaxis=False, **kw))
    proj = means[:, obj]
    if three:
        f = geo.hull_facets(proj)
        if f.shape[0]:
            data.insert(0, go.Mesh3d(x=pts[:, 0], y=pts[:, 1], z=pts[:, 2], i=f[:, 0], j=f[:, 1], k=f[:, 2],
                                     color=STATUS_COLORS["hull"], opacity=0.35, flatshading=True, showlegend=True,
                                     name="effective front (efficient hull facets)", hoverinfo="skip"))
    else:
        stair, chain = geo.staircase(proj, signs), geo.hull_chain(proj, signs)
        data.insert(0, go.Scatter(x=stair[:, 0], y=stair[:, 1], mode="lines", name="Pareto front",
                                  line={"color": STATUS_COLORS["front"], "width": 3}, hoverinfo="skip"))
        data.insert(1, go.Scatter(x=chain[:, 0], y=chain[:, 1], mode="lines",
                                  name="effective front (convex hull)", hoverinfo="skip",
                                  line={"color": STATUS_COLORS["hull"], "width": 6, "dash": "dot"}))
    title = titled(plain(instance.name) or "instance",
                   f"{words.count(int(P.sum()), 'Pareto-optimal arm')}, {int(C.sum())} on the effective front")
    layout = base_layout(title + note, height=640, margin={"l": 80, "r": 30, "t": 110 if note else 90, "b": 110})
    if three:
        layout["scene"] = {f"{a}axis": {"title": {"text": axis_label(instance, o)}, "nticks": 4}
                           for a, o in zip("xyz", obj, strict=True)}
        layout["scene"]["aspectmode"] = "cube"
    else:
        layout.update(xaxis={"title": {"text": axis_label(instance, obj[0])}},
                      yaxis={"title": {"text": axis_label(instance, obj[1])}})
    return go.Figure(data=data, layout=finish(layout))


# ------------------------------------------------------------------------------------------ curves
def _thin(n: int, log_x: bool) -> np.ndarray:
    """At most MAX_CURVE_POINTS positions out of n, first and last kept."""
    if n <= MAX_CURVE_POINTS:
        return np.arange(n)
    pos = np.geomspace(1, n, MAX_CURVE_POINTS) - 1 if log_x else np.linspace(0, n - 1, MAX_CURVE_POINTS)
    return np.unique(np.round(pos).astype(np.int64))


def cumulative_stats(frame: pd.DataFrame, metric: str) -> dict[str, pd.DataFrame]:
    """Per algorithm: round-indexed mean, standard error and seed count of the cumulated metric."""
    df = frame[["algorithm", "seed", "round", metric]].sort_values(["algorithm", "seed", "round"])
    if df.duplicated(["algorithm", "seed", "round"]).any():
        raise ValueError("frame: each (algorithm, seed, round) must appear once")
    df = df.assign(cum=df.groupby(["algorithm", "seed"], sort=False)[metric].cumsum())
    out = {}
    for alg in pd.unique(frame["algorithm"]):
        wide = df[df["algorithm"] == alg].pivot(index="round", columns="seed", values="cum").sort_index().ffill()
        n = wide.count(axis=1)
        se = (wide.std(axis=1, ddof=1) / np.sqrt(n)).fillna(0.0)
        out[alg] = pd.DataFrame({"mean": wide.mean(axis=1), "se": se, "n": n})
    return out


def regret_curves(frame: pd.DataFrame, metric: str = "pareto_regret", log_x: bool = False,
                  log_y: bool = False) -> go.Figure:
    """Mean cumulative ``metric`` per algorithm over seeds, with a +-1 standard error band."""
    _require_columns(frame, ["algorithm", "seed", "round", metric])
    label = metric_label(metric)
    data = []
    for i, (alg, st) in enumerate(cumulative_stats(frame, metric).items()):
        keep = _thin(len(st), log_x)
        x = st.index.to_numpy()[keep]
        m, se = st["mean"].to_numpy()[keep], st["se"].to_numpy()[keep]
        c = series_color(i)
        seeds = int(st["n"].max())
        name = f"{alg} (mean of {seeds} seeds)" if seeds > 1 else f"{alg} (1 seed)"
        data.append(go.Scatter(x=np.concatenate([x, x[::-1]]), y=np.concatenate([m + se, (m - se)[::-1]]),
                               fill="toself", fillcolor=rgba(c, 0.2), line={"width": 0}, mode="lines",
                               name=f"{alg}: ±1 standard error", legendgroup=str(alg), hoverinfo="skip",
                               showlegend=False))  # one legend entry per algorithm: its mean (the band follows it)
        data.append(go.Scatter(x=x, y=m, mode="lines", name=name, legendgroup=str(alg),
                               line={"color": c, "width": 4, "dash": "solid" if i < 8 else "dash"},
                               hovertemplate=f"{alg}<br>round %{{x}}: %{{y:.4g}}<extra></extra>"))
    layout = base_layout(titled(f"cumulative {label}", "mean over seeds, band ±1 standard error"), height=600)
    layout.update(xaxis={"title": {"text": "round t"}, "type": "log" if log_x else "linear"},
                  yaxis={"title": {"text": f"cumulative {label}"}, "type": "log" if log_y else "linear"})
    return go.Figure(data=data, layout=finish(layout))


def sample_complexity_chart(frame: pd.DataFrame) -> go.Figure:
    """Stopping times per algorithm (box with every run as a dot); runs that never stopped are counted, and an
    algorithm none of whose runs stopped (nothing to draw) is named in a note above the plot."""
    _require_columns(frame, ["algorithm", "seed", "stopped_at", "correct"])
    data, never = [], []
    for i, alg in enumerate(pd.unique(frame["algorithm"])):
        sub = frame[frame["algorithm"] == alg]
        stopped = pd.to_numeric(sub["stopped_at"], errors="coerce")
        ok = stopped.notna()
        if not ok.any():
            never.append(f"{plain(str(alg))} ({words.count(len(sub), 'run')})")
        right, n_stopped = int(sub.loc[ok, "correct"].astype(bool).sum()), int(ok.sum())
        if n_stopped == 0:
            name = f"{alg}: none of its {words.count(len(sub), 'run')} stopped"
        elif n_stopped == 1:
            name = f"{alg}: its one stopped run {'correct' if right else 'wrong'}"
        else:
            name = f"{alg}: {right} of {n_stopped} stopped runs correct"
        if n_stopped and (~ok).any():
            name += f", {int((~ok).sum())} did not stop"
        c = series_color(i)
        data.append(go.Box(x=stopped[ok], y=[str(alg)] * int(ok.sum()), name=name, orientation="h",
                           boxpoints="all", jitter=0.4, pointpos=0, marker={"color": c, "size": 8, "opacity": 0.7},
                           line={"color": c, "width": 2.5}, fillcolor=rgba(c, 0.15),
                           hovertemplate="%{x:.0f} samples<extra></extra>"))
    layout = base_layout(titled("sample complexity", "samples used before stopping"), height=520, showlegend=True)
    layout.update(xaxis={"title": {"text": "samples until the algorithm stopped"}},
                  yaxis={"title": {"text": ""}, "autorange": "reversed"})
    if never:
        note = wrap("not drawn, no run stopped: " + ", ".join(never), NOTE_CHARS)
        layout["annotations"] = [{"text": note, "x": 0, "y": 1.02, "xref": "paper", "yref": "paper",
                                  "xanchor": "left", "yanchor": "bottom", "align": "left", "showarrow": False,
                                  "font": {"size": 16, "color": INK}}]
        layout["margin"] = {**layout["margin"], "t": 100 + 22 * (note.count("<br>") + 1)}
    return go.Figure(data=data, layout=finish(layout))


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (Wilson 1927); (0, 1) when n = 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def success_rate_chart(frame: pd.DataFrame) -> go.Figure:
    """Share of runs whose answer was correct, per algorithm, with 95% Wilson intervals."""
    _require_columns(frame, ["algorithm", "correct"])
    algs = list(pd.unique(frame["algorithm"]))
    rates, lo, hi, text = [], [], [], []
    for alg in algs:
        ok = frame.loc[frame["algorithm"] == alg, "correct"].astype(bool)
        k, n = int(ok.sum()), int(ok.size)
        a, b = wilson_interval(k, n)
        rates.append(k / n)
        lo.append(k / n - a)
        hi.append(b - k / n)
        text.append(f"{100 * k / n:.0f}% ({k}/{n})")
    data = [go.Bar(x=[str(a) for a in algs], y=rates, text=text, textposition="outside",
                   textfont={"size": 18, "color": INK}, cliponaxis=False,
                   marker={"color": [series_color(i) for i in range(len(algs))]},
                   error_y={"type": "data", "symmetric": False, "array": hi, "arrayminus": lo,
                            "thickness": 2.5, "width": 10, "color": "#222222"},
                   name="success rate (bar), 95% Wilson interval (whiskers)", showlegend=True,
                   hovertemplate="%{x}: %{y:.0%}<extra></extra>")]
    layout = base_layout(titled("success rate", "share of runs with the right answer"), height=520)
    layout.update(yaxis={"title": {"text": "success rate"}, "range": [0, 1.15], "tickformat": ".0%"},
                  xaxis={"title": {"text": ""}})
    return go.Figure(data=data, layout=finish(layout))


_SURFACE_STYLE = {25: ("dash", 2.5, "25%: reached by a quarter of the runs"), 50: ("solid", 5, "median (50%)"),
                  75: ("dot", 2.5, "75%: reached by three quarters of the runs")}


def eaf_chart(fronts: Mapping[str, Sequence[np.ndarray]], instance: Instance,
              objectives: tuple[int, int] = (0, 1), percentiles: Sequence[int] = PERCENTILES) -> go.Figure:
    """Empirical attainment surfaces of each algorithm's estimated fronts over its runs, with the true front.

    ``fronts`` maps an algorithm to one (n, L) maximised front per run (`banditviz.fronts.estimated_front`);
    the surfaces are those of the fronts projected on the two ``objectives`` (`fronts.attainment_surfaces`).
    """
    if not isinstance(instance, Instance) or instance.means is None:
        raise ValueError("instance: the attainment chart needs an Instance with fixed means")
    obj = _preview_objectives(instance, objectives)
    if len(obj) != 2:
        raise ValueError(f"objectives: the attainment chart draws 2 objectives, got {objectives!r}")
    if not fronts:
        raise ValueError("fronts: give the estimated fronts of at least one algorithm")
    signs = np.array([-1.0 if instance.directions[o] == "min" else 1.0 for o in obj])
    truth = geo.staircase(np.asarray(instance.means)[np.asarray(instance.pareto_set)][:, obj], signs)
    data: list[go.BaseTraceType] = [go.Scatter(
        x=truth[:, 0], y=truth[:, 1], mode="lines+markers", name="true Pareto front", hoverinfo="skip",
        line={"color": INK, "width": 2}, marker={"size": 7, "color": INK})]
    runs = 0
    for i, (alg, per_run) in enumerate(fronts.items()):
        projected = [np.asarray(f, dtype=float)[:, obj] for f in per_run]
        runs = max(runs, len(projected))
        for p, surface in attainment_surfaces(projected, percentiles).items():
            dash, width, what = _SURFACE_STYLE.get(p, ("dashdot", 2, f"{p:g}%"))
            line = geo.staircase(surface, signs)
            data.append(go.Scatter(x=line[:, 0], y=line[:, 1], mode="lines", name=f"{alg}: {what}",
                                   legendgroup=str(alg), line={"color": series_color(i), "width": width, "dash": dash},
                                   hovertemplate=f"{alg}, {p:g}% surface<br>%{{x:.3f}}, %{{y:.3f}}<extra></extra>"))
    title = titled(f"estimated Pareto fronts, {words.count(runs, 'seed')}", "empirical attainment surfaces")
    layout = base_layout(title, height=640)
    layout.update(xaxis={"title": {"text": axis_label(instance, obj[0])}},
                  yaxis={"title": {"text": axis_label(instance, obj[1])}})
    return go.Figure(data=data, layout=finish(layout))


def _two_lines(name: str, width: int) -> str:
    """``name`` broken once when longer than ``width`` characters: before its bracket, else at its middle space."""
    if len(name) <= width or " " not in name:
        return name
    if " (" in name:
        return name.replace(" (", "<br>(", 1)
    spaces = [i for i, c in enumerate(name) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return name[:cut] + "<br>" + name[cut + 1:]


def confidence_boxes(trace: Trace, index: int = -1, margin: float = 0.5) -> go.Figure:
    """The learner's confidence boxes at snapshot ``index`` of a run on a 2-objective fixed-means instance, drawn as
    Watch draws its plane at that round (`animate.plane_at`: boxes clipped to the view with their cut sides marked,
    estimates coloured by status, fronts, the true means unseen by the learner), so that the lesson and Watch look
    alike (issue 31).

    The view is ``margin`` around the true means, so that the same instance shows its boxes shrinking from one run
    length to the next, widened to hold every estimate (early, a noisy estimate lies far out); a box wider than the
    view is drawn clipped, its cut sides marked.
    """
    if not isinstance(trace, Trace):
        raise ValueError(f"trace: must be a banditviz Trace, got {type(trace).__name__}")
    inst = trace.instance
    if inst.means is None or inst.L != 2 or not trace.snapshots:
        raise ValueError("trace: confidence_boxes needs a run with snapshots on a 2-objective fixed-means instance")
    snap = trace.snapshots[index]
    signs = np.array([-1.0 if d == "min" else 1.0 for d in inst.directions])
    est, truth = np.asarray(snap.estimates) * signs, np.asarray(inst.means) * signs
    seen = np.vstack([truth - margin, truth + margin, est[geo.seen(est)]])
    data, axes = plane_at(trace, index, np.column_stack([seen.min(axis=0), seen.max(axis=0)]))
    title = titled(f"confidence boxes after {words.count(snap.t, 'round')}",
                   f"each arm pulled {words.times(int(np.min(snap.counts)))}" if np.ptp(snap.counts) == 0
                   else f"pulls per arm: {int(np.min(snap.counts)):,} to {int(np.max(snap.counts)):,}")
    for t in data:  # in half a column, a long name on two lines
        if t.get("showlegend", True) is not False:
            t["name"] = _two_lines(t.get("name", ""), 22)
    layout = base_layout(title, height=640, hovermode="closest")
    layout.update(axes)
    # ten entries in two columns, no gap between Watch's legend groups: the plane keeps the figure's height
    layout["legend"].update(entrywidth=0.5, entrywidthmode="fraction", tracegroupgap=0, traceorder="normal")
    return go.Figure(data=data, layout=finish(layout))


def pull_counts(trace: Trace, round_index: int = -1) -> go.Figure:
    """Pulls per arm at snapshot ``round_index``, bars coloured by status; ★ marks true Pareto arms."""
    if not isinstance(trace, Trace):
        raise ValueError(f"trace: must be a banditviz Trace, got {type(trace).__name__}")
    n = len(trace.snapshots)
    if n == 0:
        raise ValueError("trace: has no snapshots; run it with snapshots > 0")
    if isinstance(round_index, bool) or not isinstance(round_index, (int, np.integer)) or not -n <= round_index < n:
        raise ValueError(f"round_index: must be a snapshot index in [{-n}, {n}), got {round_index!r}")
    snap = trace.snapshots[round_index]
    status = np.asarray(snap.status, dtype=np.int64)
    truth = trace.truth_at(round_index % n)
    star = pareto.pareto_mask(truth) if truth is not None else np.zeros(trace.instance.K, dtype=bool)
    labels = [f"{a}★" if star[a] else str(a) for a in range(trace.instance.K)]
    data: list[go.BaseTraceType] = [go.Bar(
        x=labels, y=snap.counts, showlegend=False, hovertemplate="arm %{x}: %{y} pulls<extra></extra>",
        marker={"color": [STATUS_COLORS[STATUS_NAMES[s]] for s in status]})]
    for s in sorted(set(status.tolist())):
        name = STATUS_NAMES[s]
        data.append(go.Bar(x=[None], y=[None], name=STATUS_LABELS[name], marker={"color": STATUS_COLORS[name]}))
    title = titled(f"{plain(trace.algorithm)}: pulls per arm", f"after round {snap.t}; ★ = truly Pareto optimal")
    layout = base_layout(title, height=520, barmode="overlay")
    layout.update(xaxis={"title": {"text": "arm"}, "type": "category"}, yaxis={"title": {"text": "pulls"}})
    return go.Figure(data=data, layout=finish(layout))
