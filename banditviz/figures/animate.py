"""The animated objective-space figure: one Plotly figure whose frames are a trace's snapshots.

Left: objective space (2-D plane, 3-D scene, or per-objective interval strips for the lexicographic
task and for L = 1).  Right, in the same frames: the regret (or error / undecided arms / simple regret)
curve growing up to the current round, and the pull counts per arm.  Play, pause, a round slider and
a speed menu run in the browser.

Each panel declares *styles* (everything constant about a moving trace) once and *data* (coordinates,
colours) per frame, so a frame carries only what changes.  Frames are plain dicts built without
Plotly's validator (see `_figure`), and coordinates are rounded to 1e-4 of the smallest axis span (1e-3
in 3-D), which keeps the default Watch run (200 frames) under 1 MB and fast to build.

Decisions (ours):
* Only arms with a finite estimate are drawn. The view is fixed for the run and holds the truth and every
  estimate of every frame. Every drawn arm's box is drawn from its first round, clipped to the view: its sides in
  the view outlined in its status colour (open where the view cuts it), its fill grey and the fainter the wider it
  is (a box over the whole view has none), and each side the view cuts marked by a triangle on the view's edge, in
  line with the arm's estimate, pointing the way the box goes on (3-D: a diamond on the view's face); the pulled
  arm's box is outlined again in the pulled colour. A frame with no estimate says so in the plane.
* The fronts and hulls drawn are always those of the drawn (projected) estimates, so the picture is
  self-consistent: an algorithm's ``extras["effective_front"]``/``["hull"]`` may be of its samples or
  optimistic vectors (MOL-TS), which would not sit on the estimates; its own choice shows as the
  arm status colour (candidate) instead.
* Curves: regret task, cumulative Pareto and effective Pareto regret; identification, the number of
  undecided (active) arms and the 0/1 error of the recommendation; lexicographic, cumulative general
  regret of the first and last objectives (LexMOSLB Fig. 2); risk-averse, the simple regret.
* 3-D with more than 20 arms: the cuboids start hidden (one click on their legend entry shows them),
  or thirty overlapping boxes hide everything else.  Frames are sub-sampled evenly in snapshot index.
* An unregistered algorithm name (a hand-built trace) gets its task from the trace: lexicographic
  metrics, a "distributions" instance (risk-averse), an "error" metric (identify), else regret.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from .. import pareto
from ..algorithms.base import ACTIVE, ALGORITHMS, REJECTED, STATUS_NAMES
from ..trace import Trace
from . import explain
from . import geometry as geo
from .palette import INK, STATUS_COLORS, STATUS_LABELS, axis_label, base_layout, finish, plain, rgba
from .playback import DEFAULT_SPEED, SPEEDS

BOX_LABEL = "confidence box"
CUT_LABEL = "its box goes on past the view"
CUT_LABEL_3D = "its box goes on past this face"
NO_ESTIMATES = "no estimates yet"
BOX_FILL = "#555555"  # every box's fill: neutral, so that overlapping fills never mix status colours
# A box's fill fades as it widens (its largest extent as a share of the view): up to 15%, 40%, wider.
BOX_FILL_WIDTHS = (0.15, 0.4)
BOX_FILL_ALPHA = (0.14, 0.07, 0.03)
MAX_SHOWN_CUBOIDS = 20  # more arms in 3-D: cuboids start hidden (one legend click shows them)
MAX_LABELLED_3D = 15  # more arms in 3-D: no arm labels (hover names them)
TRUE_MEAN_LABEL = "true mean (unseen by learner)"
MAX_STRIPS = 5
PANEL_TITLE_SIZE = 18  # px: a panel's title (its curve names are in its legend) fits a third of a 660 px figure
START_WITH = "bv_start_with"  # a style key (removed before drawing): the trace's data before the first frame applied
# 3-D camera: seen from low and close, so that the scene fills its wide, short domain at 1366x768 with every
# axis title inside it (judged in screenshots at 1366x768 and 1920x1080; checked in the browser test)
# Legend-only entries of a 3-D scene's traces are 2-D traces on the curves' axes (every figure with a scene has
# them): an empty trace in the scene is still a WebGL object that each frame's restyle updates and redraws.
LEGEND_AXES = {"xaxis": "x1", "yaxis": "y1"}
SCENE_WIDTH = 0.64  # share of the figure's width: a 3-D scene needs more than a plane (its corners stick out)
SCENE_ASPECT = {"x": 1.0, "y": 1.0, "z": 0.65}
SCENE_CAMERA = {"eye": {"x": 1.55, "y": 1.55, "z": 0.72}, "center": {"x": 0.04, "y": -0.04, "z": -0.1}}
TALL_RACE = 700  # px: a 3-D race figure at least this tall draws its scenes above the curves, else beside them
NARROW = 1000  # px: a chart narrower than this takes its figure's narrow layout (662 px at 1366x768, 853 presenting)
NARROWEST = 662  # px: the narrowest chart a layout is sized for (1366x768 with the sidebar)
TICK_PX = 28  # px between a short panel's y tick labels, at least
ROUND_LINE_REACH = 10  # the current round's line, in plain y ranges: past the top of any the curves' legend raises
LEGEND2_PX = (24, 46, 6.5, 10)  # the curves' legend (16 px font): a row, the line sample, a character, the padding
# JSON budget of a figure (issue 14: <= 2 MB for every preset) and its measured cost per arm and frame (2-D
# and strips, 3-D; the meta table included), plus the sampled vectors of Thompson sampling; many arms get
# fewer frames, never fewer than MIN_FRAMES.
JSON_BUDGET = 1_800_000
BYTES_PER_ARM_FRAME = {2: 420, 3: 860}  # every box drawn (clipped), its outline, fill and cut marks
BYTES_PER_SAMPLE_FRAME = 140
BYTES_PER_MOVING_TRUTH = {2: 220, 3: 420}  # contextual runs: the true means (and their front) move every frame
MIN_FRAMES = 5
LEGEND_COLUMNS = 3  # legend entries per row of a wide chart (2 in a narrow one): sets the top margin
TITLE_PX, SUBTITLE_PX, ROW_PX, NOTES_PX = 44, 24, 26, 40  # the figure's title, its subtitle, a legend row, panel titles
MAX_CURVE_POINTS = 60  # per frame: a growing curve thinned to this many points (else frames grow as n^2)
_STATUS_RGB = [STATUS_COLORS[s] for s in STATUS_NAMES]
# Curves of one run: black, then the series colours (a lexicographic run has up to five objectives).
CURVE_COLORS = ("#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7")
# (axis, side) of a box's cut side -> the angle (degrees clockwise from up) of the triangle on the view's edge that
# points the way the box goes on.
_POINTING = {(1, 1): 0, (0, 1): 90, (1, -1): 180, (0, -1): 270}


def num(values: Any, decimals: int = 4) -> list:
    """Coordinates as a flat list of rounded floats, NaN as None (a gap for Plotly).

    Lists, not numpy arrays: a frame holds many short arrays, and Plotly's `to_dict` (a deep copy) and
    base64 typed-array encoding cost more per short array than they save (measured: 2x slower, 8% larger).
    """
    a = np.round(np.asarray(values, dtype=float), decimals).ravel()
    return [None if v != v else v for v in a.tolist()]


def frame_indices(n: int, max_frames: int) -> np.ndarray:
    """At most ``max_frames`` snapshot indices, evenly spaced in snapshot order, first and last kept.

    Snapshots are already dense early and sparse late (`simulate.snapshot_rounds`), so even spacing in
    index keeps that profile.
    """
    if n <= max_frames:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max_frames)).astype(np.int64))


@dataclass
class _Ctx:
    """What every panel needs: the trace, the frames, the drawn objectives and their orientation."""

    trace: Trace
    idx: np.ndarray  # snapshot index of each frame
    objectives: tuple[int, ...]
    signs: np.ndarray
    decimals: int = 4  # set by the main panel from its view: 1e-4 of the smallest axis span
    rounds: np.ndarray | None = None  # round shown by each frame (a race: may be past the snapshot's round)

    def __post_init__(self) -> None:
        if self.rounds is None:
            self.rounds = np.array([s.t for s in (self.trace.snapshots[i] for i in self.idx)], dtype=np.int64)

    @property
    def K(self) -> int:
        return self.trace.instance.K

    def snap(self, n: int):
        return self.trace.snapshots[self.idx[n]]

    def truth(self, n: int) -> np.ndarray:
        return np.asarray(self.trace.truth_at(int(self.idx[n])))[:, self.objectives]

    @property
    def truth_moves(self) -> bool:
        return self.trace.snapshot_means is not None

    def num(self, values: Any) -> list:
        return num(values, self.decimals)


def _view(*ctxs: _Ctx) -> np.ndarray:
    """Fixed view of the drawn objectives over every frame of the runs (`geometry.view_ranges`)."""
    est, truth = [], []
    for c in ctxs:
        est += [c.snap(n).estimates[:, c.objectives] * c.signs for n in range(len(c.idx))]
        truth += [c.truth(n) * c.signs for n in range(len(c.idx))]
    return geo.view_ranges(np.concatenate(est), np.concatenate(truth))


def _axis_title(ctx: _Ctx, j: int) -> str:
    return axis_label(ctx.trace.instance, ctx.objectives[j])


def _status_of(snap) -> np.ndarray:
    return np.asarray(snap.status, dtype=np.int64)


def _statuses_used(ctx: _Ctx) -> list[int]:
    used = set()
    for n in range(len(ctx.idx)):
        used.update(np.unique(_status_of(ctx.snap(n))).tolist())
    return sorted(used)


def _legend_dummies(statuses: list[int]) -> list[dict]:
    """Legend-only entries: one per arm status (the estimates trace carries a colour array) and one for
    the boxes (their traces start empty, and Plotly hides an empty trace's legend entry)."""
    out = [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": BOX_LABEL, "legendgroup": "boxes",
            "marker": {"symbol": "square", "size": 18, "color": rgba("#555555", 0.12),
                       "line": {"color": "#555555", "width": 2}}, "hoverinfo": "skip"}]
    for s in statuses:
        name = STATUS_NAMES[s]
        out.append({"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": STATUS_LABELS[name],
                    "marker": {"color": STATUS_COLORS[name], "size": 14}, "legendgroup": "status",
                    "hoverinfo": "skip"})
    return out


# ------------------------------------------------------------------------------------------ panels
class _Panel:
    """A subplot: static traces, styles of moving traces, per-frame data, its axes and annotations."""

    def annotations(self) -> list[dict]:
        return []

    def statics(self) -> list[dict]:
        return []

    def styles(self) -> list[dict]:
        return []

    def data(self, n: int) -> list[dict]:
        return []

    def axes(self) -> dict:
        return {}


class _Plane(_Panel):
    """2-D objective space: truth, boxes, estimated front staircase, effective hull, estimates, pulled arm."""

    def __init__(self, ctx: _Ctx, show_truth: bool, x: str = "x", y: str = "y",
                 domain: tuple[tuple[float, float], tuple[float, float]] = ((0, 0.56), (0, 1)),
                 ranges: np.ndarray | None = None) -> None:
        self.ctx, self.show_truth, self.x, self.y, self.domain = ctx, show_truth, x, y, domain
        self.statuses = _statuses_used(ctx)
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        self.has_samples = any("samples" in s.extras for s in snaps)
        self.has_arrow = any("m_t" in s.extras and "p_t" in s.extras for s in snaps)
        self.ranges = _view(ctx) if ranges is None else ranges
        ctx.decimals = geo.decimals_for(self.ranges)

    def _ax(self, t: dict) -> dict:
        t.update(xaxis=self.x, yaxis=self.y)
        return t

    # truth -------------------------------------------------------------------------------------
    def _truth_styles(self) -> list[dict]:
        return [
            self._ax({"type": "scatter", "mode": "markers", "name": TRUE_MEAN_LABEL,
                      "marker": {"symbol": "x-thin-open", "size": 14, "color": STATUS_COLORS["true"],
                                 "line": {"width": 2.5, "color": STATUS_COLORS["true"]}}, "opacity": 0.75,
                      "legendgroup": "truth", "hovertemplate": "true mean<br>%{x:.3f}, %{y:.3f}<extra></extra>"}),
            self._ax({"type": "scatter", "mode": "lines", "name": "true Pareto front", "legendgroup": "truth",
                      "line": {"color": STATUS_COLORS["true"], "width": 2, "dash": "dash"}, "opacity": 0.75,
                      "hoverinfo": "skip"}),
        ]

    def _truth_data(self, n: int) -> list[dict]:
        m = self.ctx.truth(n)
        stair = geo.staircase(m, self.ctx.signs)
        pts = m * self.ctx.signs
        return [{"x": self.ctx.num(pts[:, 0]), "y": self.ctx.num(pts[:, 1])},
                {"x": self.ctx.num(stair[:, 0]), "y": self.ctx.num(stair[:, 1])}]

    def statics(self) -> list[dict]:
        out = _legend_dummies(self.statuses)
        for t in out:
            self._ax(t)
        if self.show_truth and not self.ctx.truth_moves:
            out += [_merge(s, d) for s, d in zip(self._truth_styles(), self._truth_data(0), strict=True)]
        return out

    # moving traces ------------------------------------------------------------------------------
    def styles(self) -> list[dict]:
        out = self._truth_styles() if self.show_truth and self.ctx.truth_moves else []
        if self.has_samples:
            out.append(self._ax({"type": "scatter", "mode": "markers", "name": "sampled vectors",
                                 "marker": {"symbol": "circle-open", "size": 9, "color": "#777777"},
                                 "opacity": 0.6, "hoverinfo": "skip"}))
        for alpha in BOX_FILL_ALPHA:  # the boxes' fills, fainter as they widen (so that wide ones stay see-through)
            out.append(self._ax({"type": "scatter", "mode": "lines", "fill": "toself",
                                 "fillcolor": rgba(BOX_FILL, alpha), "line": {"width": 0}, "legendgroup": "boxes",
                                 "name": BOX_LABEL, "showlegend": False, "hoverinfo": "skip"}))
        for s in self.statuses:  # their sides in the view, by status: open where the view cuts a box
            c = STATUS_COLORS[STATUS_NAMES[s]]
            out.append(self._ax({"type": "scatter", "mode": "lines", "line": {"color": rgba(c, 0.9), "width": 2},
                                 "legendgroup": "boxes", "name": BOX_LABEL, "showlegend": False,
                                 "hoverinfo": "skip"}))
        out += [
            self._ax({"type": "scatter", "mode": "lines", "name": "box of the arm pulled", "showlegend": False,
                      "legendgroup": "boxes", "line": {"color": STATUS_COLORS["pulled"], "width": 4},
                      "hoverinfo": "skip"}),
            self._ax({"type": "scatter", "mode": "markers", "name": CUT_LABEL, "legendgroup": "boxes",
                      "marker": {"symbol": "triangle-up", "size": 13, "color": STATUS_COLORS["active"], "angle": 90,
                                 "line": {"color": "white", "width": 1}}, "cliponaxis": False,
                      "hovertemplate": "the box of arm %{customdata} continues past the view<extra></extra>"}),
        ]
        out += [
            self._ax({"type": "scatter", "mode": "lines", "name": "estimated Pareto front",
                      "line": {"color": STATUS_COLORS["front"], "width": 4}, "hoverinfo": "skip"}),
            self._ax({"type": "scatter", "mode": "lines", "name": "estimated effective front",
                      "line": {"color": STATUS_COLORS["hull"], "width": 6, "dash": "dot"}, "hoverinfo": "skip"}),
            self._ax({"type": "scatter", "mode": "markers+text" if self.ctx.K <= 20 else "markers",
                      "name": "estimated mean", "showlegend": False,
                      "marker": {"size": 17, "line": {"color": "white", "width": 1.5}},
                      "texttemplate": "%{customdata[0]}", "textposition": "top right",
                      "textfont": {"size": 15, "color": "#222222"}, "cliponaxis": False,
                      "hovertemplate": "arm %{customdata[0]} (%{customdata[2]}), %{customdata[1]} pulls"
                                       "<br>estimate %{x:.3f}, %{y:.3f}<extra></extra>"}),
            self._ax({"type": "scatter", "mode": "markers", "name": "arm pulled at this round",
                      "marker": {"symbol": "circle-open", "size": 32,
                                 "line": {"width": 4, "color": STATUS_COLORS["pulled"]},
                                 "color": STATUS_COLORS["pulled"]}, "hoverinfo": "skip"}),
            self._ax({"type": "scatter", "mode": "text", "name": "no estimates yet", "showlegend": False,
                      "x": [float(self.ranges[0, 0] + 0.03 * np.ptp(self.ranges[0]))],
                      "y": [float(self.ranges[1, 0] + 0.04 * np.ptp(self.ranges[1]))], "textposition": "top right",
                      "textfont": {"size": 16, "color": INK}, "cliponaxis": False, "hoverinfo": "skip"}),
        ]
        if self.has_arrow:
            out.append(self._ax({"type": "scatter", "mode": "lines+markers",
                                 "name": "m<sub>t</sub> → p<sub>t</sub> (ambiguous → rival)",
                                 "line": {"color": "#000000", "width": 2.5},
                                 "marker": {"symbol": ["circle", "arrow"], "size": [6, 18], "angleref": "previous",
                                            "color": "#000000"}, "hoverinfo": "skip"}))
        return out

    def estimates(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Drawn estimates (K x 2, display orientation) and the mask of arms with one."""
        snap = self.ctx.snap(n)
        est = snap.estimates[:, self.ctx.objectives]
        return est * self.ctx.signs, geo.seen(est)

    def boxes(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Clipped box bounds (K x 2 each) in display orientation, and which of their sides are in the view."""
        snap, c = self.ctx.snap(n), self.ctx
        lo, hi = geo.oriented_bounds(snap.lower[:, c.objectives], snap.upper[:, c.objectives], c.signs)
        lo_in, hi_in = geo.sides_inside(lo, hi, self.ranges)
        return (*geo.clip_to_view(lo, hi, self.ranges), lo_in, hi_in)

    def fronts(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Estimated Pareto staircase and effective-front chain (display orientation)."""
        snap, c = self.ctx.snap(n), self.ctx
        est = snap.estimates[:, c.objectives]
        ok = np.flatnonzero(geo.seen(est))
        return geo.staircase(est[ok], c.signs), geo.hull_chain(est[ok], c.signs)

    def data(self, n: int) -> list[dict]:
        c, snap = self.ctx, self.ctx.snap(n)
        out = self._truth_data(n) if self.show_truth and c.truth_moves else []
        if self.has_samples:
            smp = snap.extras.get("samples")
            pts = (np.asarray(smp)[:, c.objectives] * c.signs) if smp is not None else np.empty((0, 2))
            out.append({"x": c.num(pts[:, 0]), "y": c.num(pts[:, 1])})
        est, ok = self.estimates(n)
        lo, hi, lo_in, hi_in = self.boxes(n)
        status = _status_of(snap)
        level = np.searchsorted(BOX_FILL_WIDTHS, geo.widths(lo, hi, self.ranges))
        filled = ok & (lo_in | hi_in).any(axis=1)  # a box over the whole view fills it all: its marks say so
        for k in range(len(BOX_FILL_ALPHA)):
            bx, by = geo.rectangles(lo[filled & (level == k)], hi[filled & (level == k)])
            out.append({"x": c.num(bx), "y": c.num(by)})
        for s in self.statuses:
            sel = ok & (status == s)
            bx, by = geo.open_rectangles(lo[sel], hi[sel], lo_in[sel], hi_in[sel])
            out.append({"x": c.num(bx), "y": c.num(by)})
        p = snap.pulled
        mine = np.zeros(c.K, dtype=bool)
        if p is not None and ok[p]:
            mine[p] = True
        bx, by = geo.open_rectangles(lo[mine], hi[mine], lo_in[mine], hi_in[mine])
        out.append({"x": c.num(bx), "y": c.num(by)})
        out.append(self._cut_marks(est, lo_in, hi_in, ok, status))
        stair, chain = self.fronts(n)
        out.append({"x": c.num(stair[:, 0]), "y": c.num(stair[:, 1])})
        out.append({"x": c.num(chain[:, 0]), "y": c.num(chain[:, 1])})
        out.append({"x": c.num(est[:, 0]), "y": c.num(est[:, 1]),
                    "marker": {"color": [_STATUS_RGB[s] for s in status], "size": 17,
                               "line": {"color": "white", "width": 1.5}},
                    "customdata": [[a, int(snap.counts[a]), STATUS_NAMES[s]] for a, s in enumerate(status)]})
        ring = est[[p]] if p is not None and ok[p] else np.empty((0, 2))
        out.append({"x": c.num(ring[:, 0]), "y": c.num(ring[:, 1])})
        out.append({"text": ["" if ok.any() else NO_ESTIMATES]})
        if self.has_arrow:
            m, q = snap.extras.get("m_t"), snap.extras.get("p_t")
            pair = est[[int(m), int(q)]] if m is not None and q is not None else np.empty((0, 2))
            out.append({"x": c.num(pair[:, 0]), "y": c.num(pair[:, 1])})
        return out

    def _cut_marks(self, est: np.ndarray, lo_in: np.ndarray, hi_in: np.ndarray, ok: np.ndarray,
                   status: np.ndarray) -> dict:
        """A triangle on the view's edge for each side of a box the view cuts, in line with the arm's estimate,
        pointing the way the box goes on, in the arm's status colour (`geometry.cut_marks`)."""
        arms = np.flatnonzero(ok)
        at, where, owner = geo.cut_marks(est[arms], lo_in[arms], hi_in[arms], self.ranges)
        owner = arms[owner]
        return {"x": self.ctx.num(at[:, 0]), "y": self.ctx.num(at[:, 1]), "customdata": owner.tolist(),
                "marker": {"angle": [_POINTING[(int(a), int(sd))] for a, sd in where],
                           "color": [_STATUS_RGB[status[a]] for a in owner]}}

    def axes(self) -> dict:
        (xd, yd), r = self.domain, self.ranges
        xa, ya = "xaxis" + self.x[1:], "yaxis" + self.y[1:]
        return {xa: {"domain": list(xd), "range": r[0].tolist(), "title": {"text": _axis_title(self.ctx, 0)},
                     "anchor": self.y, "zeroline": False},
                ya: {"domain": list(yd), "range": r[1].tolist(), "title": {"text": _axis_title(self.ctx, 1)},
                     "anchor": self.x, "zeroline": False}}


class _Scene(_Panel):
    """3-D objective space: truth, translucent cuboids with edges, front points, efficient hull facets."""

    def __init__(self, ctx: _Ctx, show_truth: bool, domain=((0, 0.58), (0, 1)), scene: str = "scene",
                 ranges: np.ndarray | None = None) -> None:
        self.ctx, self.show_truth, self.domain, self.scene = ctx, show_truth, domain, scene
        self.statuses = _statuses_used(ctx)
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        self.has_samples = any("samples" in s.extras for s in snaps)
        self.ranges = _view(ctx) if ranges is None else ranges
        ctx.decimals = min(geo.decimals_for(self.ranges), 3)  # 3-D: 1e-3 of the span is invisible
        self.centre = self.ranges.mean(axis=1)
        self.hide_boxes = ctx.K > MAX_SHOWN_CUBOIDS

    @staticmethod
    def _xyz(pts: np.ndarray, c: _Ctx) -> dict:
        return {"x": c.num(pts[:, 0]), "y": c.num(pts[:, 1]), "z": c.num(pts[:, 2])}

    def _truth_styles(self) -> list[dict]:
        return [{"type": "scatter3d", "mode": "markers", "name": TRUE_MEAN_LABEL,
                 "marker": {"symbol": "square-open", "size": 5, "color": STATUS_COLORS["true"]}, "opacity": 0.8,
                 "legendgroup": "truth", "hoverinfo": "skip"},
                {"type": "scatter3d", "mode": "markers", "name": "true Pareto-optimal arm",
                 "marker": {"symbol": "diamond-open", "size": 9, "color": STATUS_COLORS["true"]}, "opacity": 0.7,
                 "legendgroup": "truth", "hoverinfo": "skip"}]

    def _truth_data(self, n: int) -> list[dict]:
        m = self.ctx.truth(n)
        pts = m * self.ctx.signs
        return [self._xyz(pts, self.ctx), self._xyz(pts[pareto.pareto_mask(m)], self.ctx)]

    def statics(self) -> list[dict]:
        out = [{**t, **LEGEND_AXES} for t in _legend_dummies(self.statuses)]
        if self.hide_boxes:
            out[0].update(visible="legendonly", name=BOX_LABEL + " (click to show)")
        if self.show_truth and not self.ctx.truth_moves:
            out += [{**_merge(s, d), "scene": self.scene}
                    for s, d in zip(self._truth_styles(), self._truth_data(0), strict=True)]
        return out

    def styles(self) -> list[dict]:
        K = self.ctx.K
        edge_alpha = float(np.clip(8.0 / K, 0.45, 0.9))  # many boxes: fainter, or the scene is a thicket
        out = self._truth_styles() if self.show_truth and self.ctx.truth_moves else []
        if self.has_samples:
            out.append({"type": "scatter3d", "mode": "markers", "name": "sampled vectors",
                        "marker": {"size": 3, "color": "#777777"}, "opacity": 0.6, "hoverinfo": "skip"})
        # Edges only (translucent faces of many cuboids blur into a haze), open where the view cuts a cuboid, all in
        # one trace coloured per vertex through a stepwise colour scale of status and width (fainter as a cuboid
        # widens, `BOX_FILL_WIDTHS`): one WebGL object instead of one per status, 3-D frames redraw faster.
        n_st, levels = len(STATUS_NAMES), len(BOX_FILL_ALPHA)
        scale = [[v, rgba(_STATUS_RGB[code % n_st], edge_alpha * BOX_FILL_ALPHA[code // n_st] / BOX_FILL_ALPHA[0])]
                 for code in range(n_st * levels) for v in (code / (n_st * levels), (code + 1) / (n_st * levels))]
        out += [{"type": "scatter3d", "mode": "lines", "name": BOX_LABEL, "showlegend": False,
                 "legendgroup": "boxes", "hoverinfo": "skip",
                 "line": {"width": 3, "colorscale": scale, "cmin": -0.5, "cmax": n_st * levels - 0.5}},
                {"type": "scatter3d", "mode": "lines", "name": "box of the arm pulled", "showlegend": False,
                 "legendgroup": "boxes", "hoverinfo": "skip", "line": {"width": 6, "color": STATUS_COLORS["pulled"]}},
                {"type": "scatter3d", "mode": "markers", "name": CUT_LABEL_3D, "legendgroup": "boxes",
                 "marker": {"symbol": "diamond", "size": 4, "color": STATUS_COLORS["active"]},
                 "hovertemplate": "the box of arm %{customdata} goes on past the view<extra></extra>"}]
        out += [
            {"type": "scatter3d", "mode": "markers", "name": "estimated Pareto front",
             "marker": {"symbol": "diamond-open", "size": 12, "color": STATUS_COLORS["front"],
                        "line": {"width": 3}}, "hoverinfo": "skip"},
            {"type": "mesh3d", "name": "estimated effective front", "showlegend": True,
             "color": STATUS_COLORS["hull"], "opacity": 0.35, "flatshading": True, "hoverinfo": "skip"},
            {"type": "scatter3d", "mode": "markers", "name": "estimated mean",
             "showlegend": False, "marker": {"size": 7, "line": {"color": "white", "width": 1}},
             "hovertemplate": "arm %{customdata[0]} (%{customdata[2]}), %{customdata[1]} pulls"
                              "<br>estimate %{x:.3f}, %{y:.3f}, %{z:.3f}<extra></extra>"},
            {"type": "scatter3d", "mode": "markers", "name": "arm pulled at this round",
             "marker": {"symbol": "circle-open", "size": 16, "color": STATUS_COLORS["pulled"],
                        "line": {"width": 4, "color": STATUS_COLORS["pulled"]}}, "hoverinfo": "skip"},
        ]
        if K <= MAX_LABELLED_3D:  # labels above the points (drawn last), so that no point hides one
            # Every label drawn once, transparent, with the figure: plotly.js caches a text's glyphs scaled by the
            # scene's pixel ratio when first drawn (1 with the figure, 2 later), so a label first drawn by a frame
            # would be half the size of one drawn with the figure (round 1's lone "0" stayed large all run long).
            out.append({"type": "scatter3d", "mode": "text", "name": "arm labels", "showlegend": False,
                        "hoverinfo": "skip", "textfont": {"size": 18, "color": INK},
                        START_WITH: {**self._xyz(np.tile(self.centre, (K, 1)), self.ctx),
                                     "text": [str(a) for a in range(K)], "textfont": {"color": rgba(INK, 0)}}})
        for t in out:
            t["scene"] = self.scene
            if self.hide_boxes and t.get("legendgroup") == "boxes":
                t["visible"] = "legendonly"
        return out

    def facets(self, n: int) -> np.ndarray:
        """Efficient hull facets (F x 3 arm indices) of the snapshot's seen estimates."""
        snap, c = self.ctx.snap(n), self.ctx
        est = snap.estimates[:, c.objectives]
        ok = np.flatnonzero(geo.seen(est))
        return ok[geo.hull_facets(est[ok])] if ok.size else np.empty((0, 3), dtype=np.int64)

    def boxes(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Clipped cuboid bounds (K x 3 each, display orientation) and which of their faces are in the view."""
        snap, c = self.ctx.snap(n), self.ctx
        lo, hi = geo.oriented_bounds(snap.lower[:, c.objectives], snap.upper[:, c.objectives], c.signs)
        lo_in, hi_in = geo.sides_inside(lo, hi, self.ranges)
        return (*geo.clip_to_view(lo, hi, self.ranges), lo_in, hi_in)

    def data(self, n: int) -> list[dict]:
        c, snap = self.ctx, self.ctx.snap(n)
        out = self._truth_data(n) if self.show_truth and c.truth_moves else []
        est = snap.estimates[:, c.objectives] * c.signs
        ok = geo.seen(est)
        if self.has_samples:
            smp = snap.extras.get("samples")
            pts = (np.asarray(smp)[:, c.objectives] * c.signs) if smp is not None else np.empty((0, 3))
            out.append(self._xyz(pts, c))
        lo, hi, lo_in, hi_in = self.boxes(n)
        status = _status_of(snap)
        level = np.searchsorted(BOX_FILL_WIDTHS, geo.widths(lo, hi, self.ranges))
        arms = np.flatnonzero(ok)
        edges, owner = geo.open_cuboid_edges(lo[arms], hi[arms], lo_in[arms], hi_in[arms])
        owner = arms[owner]
        out.append({**self._xyz(edges, c), "line": {"color": (status[owner] + len(STATUS_NAMES) * level[owner])
                                                              .tolist()}})
        p = snap.pulled
        mine = [p] if p is not None and ok[p] else []
        out.append(self._xyz(geo.open_cuboid_edges(lo[mine], hi[mine], lo_in[mine], hi_in[mine])[0], c))
        at, _, marked = geo.cut_marks(est[arms], lo_in[arms], hi_in[arms], self.ranges)
        marked = arms[marked]
        out.append({**self._xyz(at, c), "customdata": marked.tolist(),
                    "marker": {"color": [_STATUS_RGB[s] for s in status[marked]]}})
        front = np.flatnonzero(ok)
        front = front[pareto.pareto_mask(est[front] * c.signs)] if front.size else front
        out.append(self._xyz(est[front], c))
        facets = self.facets(n)
        if facets.shape[0] == 0:
            facets = np.zeros((1, 3), dtype=np.int64)  # one degenerate triangle: nothing is drawn
        verts = np.where(ok[:, None], est, self.centre)
        out.append({**self._xyz(verts, c), "i": facets[:, 0].tolist(), "j": facets[:, 1].tolist(),
                    "k": facets[:, 2].tolist()})
        out.append({**self._xyz(est, c), "marker": {"color": [_STATUS_RGB[s] for s in status], "size": 7,
                                                    "line": {"color": "white", "width": 1}},
                    "customdata": [[a, int(snap.counts[a]), STATUS_NAMES[s]] for a, s in enumerate(status)]})
        out.append(self._xyz(est[mine], c))
        if c.K <= MAX_LABELLED_3D:
            lift = np.array([0.0, 0.0, 0.06 * (self.ranges[2, 1] - self.ranges[2, 0])])
            shown = np.flatnonzero(ok)
            at = np.clip(est[shown], self.ranges[:, 0], self.ranges[:, 1]) + lift
            out.append({**self._xyz(at, c), "text": [str(a) for a in shown], "textfont": {"color": INK}})
        return out

    def axes(self) -> dict:
        """Few ticks (16 px labels overlap otherwise) and a camera far enough that no axis title is clipped."""
        (xd, yd), r = self.domain, self.ranges
        ax = {f"{a}axis": {"range": r[j].tolist(), "title": {"text": _axis_title(self.ctx, j)}, "nticks": 4,
                           "tickformat": ".2~f"} for j, a in enumerate("xyz")}
        return {self.scene: {"domain": {"x": list(xd), "y": list(yd)}, "aspectmode": "manual",
                             "aspectratio": SCENE_ASPECT, **ax, "camera": SCENE_CAMERA}}


class _Strips(_Panel):
    """Per-objective interval strips (our drawing (LexMOSLB)): one panel per objective, vertical intervals per arm.

    An interval is "kept" when the arm survives that objective's filter (``extras["filtered_sets"][i]``),
    else "filtered out"; without filter sets, rejected arms are filtered out.
    """

    def __init__(self, ctx: _Ctx, show_truth: bool, first_axis: int, domain_x=(0, 0.56)) -> None:
        self.ctx, self.show_truth, self.first = ctx, show_truth, first_axis
        self.domain_x = domain_x
        m = len(ctx.objectives)
        gap = 0.09 if m > 1 else 0.0
        h = (1 - gap * (m - 1)) / m
        self.domains = [(max(0.0, 1 - (i + 1) * h - i * gap), 1 - i * h - i * gap) for i in range(m)]
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        est = np.concatenate([s.estimates[:, ctx.objectives] for s in snaps]) * ctx.signs
        truth = np.concatenate([ctx.truth(n) for n in range(len(ctx.idx))]) * ctx.signs
        self.ranges = geo.view_ranges(est, truth, pad=0.15)
        ctx.decimals = geo.decimals_for(self.ranges)

    def _ref(self, i: int) -> dict:
        a = self.first + i
        return {"xaxis": f"x{a}", "yaxis": f"y{a}"}

    def _kept(self, n: int, i: int) -> np.ndarray:
        snap = self.ctx.snap(n)
        sets = snap.extras.get("filtered_sets")
        if sets is not None and len(sets) > self.ctx.objectives[i]:
            kept = np.zeros(self.ctx.K, dtype=bool)
            kept[list(sets[self.ctx.objectives[i]])] = True
            return kept
        return _status_of(snap) != REJECTED

    def _truth_style(self, i: int) -> dict:
        return {"type": "scatter", "mode": "markers", "name": TRUE_MEAN_LABEL,
                "marker": {"symbol": "line-ew-open", "size": 26, "color": STATUS_COLORS["true"],
                           "line": {"width": 3, "color": STATUS_COLORS["true"]}},
                "legendgroup": "truth", "showlegend": i == 0, "hoverinfo": "skip", **self._ref(i)}

    def _truth_data(self, n: int, i: int) -> dict:
        return {"x": list(range(self.ctx.K)), "y": self.ctx.num(self.ctx.truth(n)[:, i] * self.ctx.signs[i])}

    def statics(self) -> list[dict]:
        if not self.show_truth or self.ctx.truth_moves:
            return []
        return [_merge(self._truth_style(i), self._truth_data(0, i)) for i in range(len(self.ctx.objectives))]

    def styles(self) -> list[dict]:
        out = []
        for i in range(len(self.ctx.objectives)):
            if self.show_truth and self.ctx.truth_moves:
                out.append(self._truth_style(i))
            for kept, key, label in ((True, "candidate", "interval kept by its filter"),
                                     (False, "rejected", "interval filtered out")):
                out.append({"type": "scatter", "mode": "lines", "name": label, "legendgroup": key,
                            "showlegend": i == 0, "hoverinfo": "skip",
                            "line": {"color": rgba(STATUS_COLORS[key], 0.75 if kept else 0.5), "width": 9},
                            **self._ref(i)})
            out.append({"type": "scatter", "mode": "markers", "name": "estimated mean", "showlegend": False,
                        "marker": {"size": 13, "color": "#222222", "line": {"color": "white", "width": 1.5}},
                        "hovertemplate": "arm %{x}: estimate %{y:.3f}<extra></extra>", **self._ref(i)})
            out.append({"type": "scatter", "mode": "markers", "name": "arm pulled at this round",
                        "showlegend": i == 0, "legendgroup": "pulled", "hoverinfo": "skip",
                        "marker": {"symbol": "circle-open", "size": 26, "color": STATUS_COLORS["pulled"],
                                   "line": {"width": 4, "color": STATUS_COLORS["pulled"]}}, **self._ref(i)})
        return out

    def data(self, n: int) -> list[dict]:
        c, snap = self.ctx, self.ctx.snap(n)
        lo, hi = geo.oriented_bounds(snap.lower[:, c.objectives], snap.upper[:, c.objectives], c.signs)
        lo, hi = geo.clip_to_view(lo, hi, self.ranges)
        est = snap.estimates[:, c.objectives] * c.signs
        arms = np.arange(c.K, dtype=float)
        out = []
        for i in range(len(c.objectives)):
            if self.show_truth and c.truth_moves:
                out.append(self._truth_data(n, i))
            ok = np.isfinite(est[:, i])
            kept = self._kept(n, i)
            for sel in (ok & kept, ok & ~kept):
                x, y = geo.vertical_segments(arms[sel], lo[sel, i], hi[sel, i])
                out.append({"x": c.num(x), "y": c.num(y)})
            out.append({"x": list(range(c.K)), "y": c.num(est[:, i])})
            p = snap.pulled
            ring = [p] if p is not None and ok[p] else []
            out.append({"x": ring, "y": c.num(est[ring, i])})
        return out

    def axes(self) -> dict:
        out = {}
        K = self.ctx.K
        for i, (a, b) in enumerate(self.domains):
            n = self.first + i
            out[f"xaxis{n}"] = {"domain": list(self.domain_x), "anchor": f"y{n}", "range": [-0.6, K - 0.4],
                                "dtick": 1 if K <= 20 else 5, "showticklabels": i == len(self.domains) - 1,
                                "title": {"text": "arm" if i == len(self.domains) - 1 else ""}}
            out[f"yaxis{n}"] = {"domain": [a, b], "anchor": f"x{n}", "range": self.ranges[i].tolist(),
                                "nticks": 4 if len(self.domains) <= 3 else 3}  # 16 px labels in a ~50 px strip
        return out

    def annotations(self) -> list[dict]:
        """Each strip's objective named above it, horizontally: five stacked vertical titles would overlap."""
        return [{"text": _axis_title(self.ctx, i), "x": self.domain_x[0], "y": b, "xref": "paper", "yref": "paper",
                 "xanchor": "left", "yanchor": "bottom", "showarrow": False, "font": {"size": 18, "color": INK}}
                for i, (_, b) in enumerate(self.domains)]


def _curve_series(ctx: _Ctx, task: str) -> tuple[str, list[tuple[str, np.ndarray]]]:
    """The panel title and the named curves (one value per frame) for the trace's task."""
    tr = ctx.trace
    rounds = np.array([ctx.snap(n).t for n in range(len(ctx.idx))])
    at = np.clip(rounds, 1, max(tr.rounds, 1)) - 1

    def cum(name: str) -> np.ndarray:
        return np.cumsum(tr.metrics[name])[at] if len(tr.metrics[name]) else np.zeros(len(at))

    def inst(name: str) -> np.ndarray:
        return np.asarray(tr.metrics[name], dtype=float)[at]

    undecided = ("arms still undecided", np.array([(_status_of(ctx.snap(n)) == ACTIVE).sum()
                                                   for n in range(len(ctx.idx))], dtype=float))
    m = tr.metrics
    if task == "identify":
        series = [undecided] + ([("error (1 = wrong set)", inst("error"))] if "error" in m else [])
        return "undecided, error", series
    if task == "lexicographic":
        lex = sorted((k for k in m if k.startswith("lex_regret_")), key=lambda k: int(k.rsplit("_", 1)[1]))
        if lex:
            return "cumulative regret", [(f"objective {k.rsplit('_', 1)[1]}", cum(k)) for k in lex]
    if task == "risk-averse" and "simple_regret" in m:
        return "simple regret", [("simple regret", inst("simple_regret"))]
    named = [("pareto_regret", "Pareto regret"), ("effective_regret", "effective Pareto regret")]
    series = [(label, cum(k)) for k, label in named if k in m]
    if series:
        return "cumulative regret", series
    return "undecided arms", [undecided]


class _Curves(_Panel):
    """The metric curves up to the current round, and a vertical line at that round."""

    def __init__(self, ctx: _Ctx, task: str, axis: int, domain, dash: str = "solid", marks_round: bool = True) -> None:
        self.ctx, self.a, self.domain, self.dash, self.marks_round = ctx, axis, domain, dash, marks_round
        self.prefix, self.listed = "", True  # a race names its runs' curves ("A: ") or lists one run's only
        self.title, self.series = _curve_series(ctx, task)
        self.rounds = np.array([ctx.snap(n).t for n in range(len(ctx.idx))], dtype=float)
        vals = np.concatenate([v for _, v in self.series])
        lo, hi = min(0.0, float(np.nanmin(vals))), float(np.nanmax(vals))
        self.yrange = [lo, hi * 1.08 if hi > 0 else 1.0]
        self.xmax = float(ctx.rounds[-1])
        self.x_title = "round t"

    def _ref(self) -> dict:
        return {"xaxis": f"x{self.a}", "yaxis": f"y{self.a}"}

    def styles(self) -> list[dict]:
        out = []
        for i, (name, _) in enumerate(self.series):
            label = self.prefix + name
            out.append({"type": "scatter", "mode": "lines", "name": label, "legendgroup": label,
                        "showlegend": self.listed,
                        "line": {"color": CURVE_COLORS[i % len(CURVE_COLORS)], "width": 4, "dash": self.dash},
                        "hovertemplate": "round %{x}: %{y:.3g}<extra>" + label + "</extra>", "legend": "legend2",
                        **self._ref()})
        if self.marks_round:
            out.append({"type": "scatter", "mode": "lines", "name": "current round", "showlegend": False,
                        "line": {"color": STATUS_COLORS["pulled"], "width": 2, "dash": "dot"}, "hoverinfo": "skip",
                        **self._ref()})
        return out

    def data(self, n: int) -> list[dict]:
        keep = frame_indices(n + 1, MAX_CURVE_POINTS)
        x = self.rounds[keep].astype(int).tolist()
        out = [{"x": x, "y": num(v[keep])} for _, v in self.series]
        if self.marks_round:  # to the top of any range `legend_place` gives (the axis clips the rest)
            t = int(self.ctx.rounds[n])
            lo, hi = self.yrange
            out.append({"x": [t, t], "y": [lo, lo + (hi - lo) * ROUND_LINE_REACH]})
        return out

    def legend_place(self, width: float, panels: float) -> tuple[str, float, list[float]]:
        """Where its legend goes when its panel is ``width`` px wide and shares ``panels`` px of height with the pulls
        below: the top corner ("left" or "right") whose curves stay lower under the legend's box (estimated from its
        entries, `LEGEND2_PX`), the panel's height and its y range. Where the curves reach into the box in its corner,
        the legend takes its room from both panels alike and the range rises until they pass under it: no curve is
        hidden, and the curves keep the height the pulls have. Otherwise the two panels are equal, the range plain.
        """
        row, sample, char, pad = LEGEND2_PX
        names = [self.prefix + name for name, _ in self.series] if self.listed else []
        box_w = min(1.0, (sample + char * max(map(len, names), default=0) + pad) / width)
        legend = row * len(names) + pad + 4  # and a curve's 4 px line below it
        vals = np.array([v for _, v in self.series], dtype=float)
        x = self.rounds / (self.xmax * 1.02)
        lo, top = self.yrange
        reach = {corner: np.nanmax(vals[:, under], initial=lo)  # the highest curve point under the box
                 for corner, under in (("left", x <= box_w + 0.02), ("right", x >= 1 - box_w))}
        corner = "right" if reach["right"] < reach["left"] else "left"
        clear = reach[corner]
        if clear <= top - legend / (panels / 2) * (top - lo):
            return corner, panels / 2, [lo, top]
        height = (panels + legend) / 2
        share = min(legend / height, 0.8)  # a legend taller than the two panels: the curves keep a fifth
        return corner, height, [lo, round(float(max(top, (clear - share * lo) / (1 - share))), 6)]

    def axes(self) -> dict:
        """Its axes, and its own legend inside its top-left corner (a page's layouts move it: `legend_place`)."""
        xd, yd = self.domain
        return {f"xaxis{self.a}": {"domain": list(xd), "anchor": f"y{self.a}", "title": {"text": self.x_title},
                                   "range": [0, self.xmax * 1.02]},
                f"yaxis{self.a}": {"domain": list(yd), "anchor": f"x{self.a}", "range": self.yrange},
                # rows without Plotly's gap between groups: five objectives' entries fit a 1366x768 panel
                "legend2": {"x": xd[0] + 0.01, "y": yd[1], "xanchor": "left", "yanchor": "top",
                            "bgcolor": "rgba(255,255,255,0.85)", "font": {"size": 16, "color": INK},
                            "traceorder": "normal", "tracegroupgap": 0}}


class _Pulls(_Panel):
    """Pull counts per arm, bars coloured by status, the pulled arm outlined."""

    def __init__(self, ctx: _Ctx, axis: int, domain) -> None:
        self.ctx, self.a, self.domain = ctx, axis, domain
        self.ymax = float(max(np.max(ctx.snap(n).counts) for n in range(len(ctx.idx)))) * 1.1 or 1.0

    def styles(self) -> list[dict]:
        return [{"type": "bar", "name": "pulls per arm", "showlegend": False, "xaxis": f"x{self.a}",
                 "yaxis": f"y{self.a}", "hovertemplate": "arm %{x}: %{y} pulls<extra></extra>"}]

    def data(self, n: int) -> list[dict]:
        snap = self.ctx.snap(n)
        status = _status_of(snap)
        width = [0.0] * self.ctx.K
        if snap.pulled is not None:
            width[snap.pulled] = 4.0
        return [{"x": list(range(self.ctx.K)), "y": np.asarray(snap.counts).astype(int).tolist(),
                 "marker": {"color": [_STATUS_RGB[s] for s in status],
                            "line": {"color": STATUS_COLORS["pulled"], "width": width}}}]

    def axes(self) -> dict:
        xd, yd = self.domain
        K = self.ctx.K
        return {f"xaxis{self.a}": {"domain": list(xd), "anchor": f"y{self.a}", "title": {"text": "arm"},
                                   "dtick": 1 if K <= 20 else 5, "range": [-0.6, K - 0.4]},
                f"yaxis{self.a}": {"domain": list(yd), "anchor": f"x{self.a}", "range": [0, self.ymax]}}


# ------------------------------------------------------------------------------------------ assembly
def _check_objectives(objectives: Any, L: int, lex: bool) -> tuple[int, ...]:
    if objectives is None:
        if lex or L == 1:
            return tuple(range(min(L, MAX_STRIPS)))
        return tuple(range(3 if L == 3 else 2))
    try:
        obj = tuple(int(o) for o in objectives)
    except (TypeError, ValueError):
        raise ValueError(f"objectives: must be a tuple of objective indices in [0, {L}), got {objectives!r}") from None
    sizes = (1, MAX_STRIPS) if lex else (2, 3)
    if not sizes[0] <= len(obj) <= sizes[1] or len(set(obj)) != len(obj) or not all(0 <= o < L for o in obj):
        raise ValueError(f"objectives: must be {sizes[0]} to {sizes[1]} distinct objective indices in [0, {L}), "
                         f"got {objectives!r}")
    return obj


def _task(trace: Trace) -> str:
    """The algorithm's task from the registry; for an unregistered name, inferred from the trace."""
    spec = ALGORITHMS.get(trace.algorithm)
    if spec is not None:
        return spec.task
    if any(k.startswith("lex_regret_") for k in trace.metrics):
        return "lexicographic"
    if trace.instance.kind == "distributions":
        return "risk-averse"
    return "identify" if "error" in trace.metrics else "regret"


def _controls(labels: list[str]) -> dict:
    """Built-in playback (notebooks, ``.show()``): play, pause, restart, a speed menu and a round slider.

    The slider has one step per frame (even in frames), its current value labelled in rounds; the speeds are
    `playback.SPEEDS`. Every frame is drawn whole (``redraw``): Plotly's fast path leaves some marks of the frame
    before (a bar's colours, an emptied trace's points).
    """
    def play(ms: int, from_current: bool = True) -> dict:
        return {"frame": {"duration": ms, "redraw": True}, "fromcurrent": from_current, "mode": "immediate",
                "transition": {"duration": 0}}

    still = {"frame": {"duration": 0, "redraw": True}, "mode": "immediate", "transition": {"duration": 0}}
    normal = dict(SPEEDS)[DEFAULT_SPEED]
    buttons = {"type": "buttons", "direction": "left", "x": 0.0, "y": -0.1, "xanchor": "left", "yanchor": "top",
               "pad": {"r": 10, "t": 10}, "showactive": False, "font": {"size": 18, "color": INK},
               "buttons": [{"label": "▶ play", "method": "animate", "args": [None, play(normal)]},
                           {"label": "❚❚ pause", "method": "animate", "args": [[None], still]},
                           {"label": "⟲ restart", "method": "animate", "args": [None, play(normal, False)]}]}
    speed = {"type": "dropdown", "direction": "up", "x": 0.3, "y": -0.1, "xanchor": "left", "yanchor": "top",
             "pad": {"t": 10}, "active": [n for n, _ in SPEEDS].index(DEFAULT_SPEED),
             "font": {"size": 16, "color": INK}, "showactive": True,
             "buttons": [{"label": f"speed: {name}", "method": "animate", "args": [None, play(ms)]}
                         for name, ms in SPEEDS]}
    slider = {"active": 0, "x": 0.46, "len": 0.54, "y": -0.06, "yanchor": "top", "pad": {"t": 30, "b": 10},
              "currentvalue": {"prefix": "round t = ", "font": {"size": 20, "color": INK}, "xanchor": "left"},
              "font": {"color": "rgba(0,0,0,0)"}, "ticklen": 0, "minorticklen": 0,
              "transition": {"duration": 0},
              "steps": [{"label": lab, "method": "animate", "args": [[str(i)], still]} for i, lab in enumerate(labels)]}
    return {"updatemenus": [buttons, speed], "sliders": [slider]}


_TASK_WORDS = {"regret": "minimising Pareto regret", "identify": "identifying the Pareto set",
               "lexicographic": "lexicographic optimisation", "risk-averse": "risk-averse arm set identification"}


WATCH_TITLE_CHARS = 60  # characters of a title line that fit the figure at 1366x768 (about 650 px at 24 px)


def _title(trace: Trace, task: str) -> str:
    """What runs where (seed) and what it is for, in one line that fits a laptop: the task words are left out
    when they would not fit, and a long instance name is shortened with an ellipsis."""
    inst = trace.instance
    alg, where = plain(trace.algorithm), plain(inst.name) or f"{inst.K} arms"
    room = WATCH_TITLE_CHARS - len(f"{alg} on  (seed {trace.seed})")
    if len(where) > room:
        where = where[:max(room - 1, 8)].rstrip(" ,") + "…"
    title = f"{alg} on {where} (seed {trace.seed})"
    tail = _TASK_WORDS[task] + ("" if trace.stopped_at is None else f", stopped at round {trace.stopped_at}")
    if len(title) + len(tail) + 2 <= WATCH_TITLE_CHARS:
        title += f": {tail}"
    return title


def _check_common(trace: Any, max_frames: Any, controls: Any, height: Any, heights: Any = (),
                  name: str = "trace") -> None:
    if not isinstance(trace, Trace):
        raise ValueError(f"{name}: must be a banditviz Trace, got {type(trace).__name__}")
    if not trace.snapshots:
        raise ValueError(f"{name}: has no snapshots to animate; run it with snapshots > 0")
    if isinstance(max_frames, bool) or not isinstance(max_frames, (int, np.integer)) or not 2 <= max_frames <= 300:
        raise ValueError(f"max_frames: must be a whole number in [2, 300], got {max_frames!r}")
    if not isinstance(controls, bool):
        raise ValueError(f"controls: must be True or False, got {controls!r}")
    if height is not None and (isinstance(height, bool) or not isinstance(height, (int, np.integer))
                               or not 300 <= height <= 4000):
        raise ValueError(f"height: must be None or a whole number of pixels in [300, 4000], got {height!r}")
    if not isinstance(heights, (tuple, list, range)) or not all(
            isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 300 <= h <= 4000 for h in heights):
        raise ValueError(f"heights: must be whole numbers of pixels in [300, 4000], got {heights!r}")


def _frame_budget(trace: Trace, dims: int, sides: int) -> int:
    """Frames that keep the figure within JSON_BUDGET: ``sides`` objective panels of ``dims`` dimensions."""
    samples = any("samples" in s.extras for s in trace.snapshots[:3])
    moving = BYTES_PER_MOVING_TRUTH[dims] if trace.snapshot_means is not None else 0
    per_frame = sides * trace.instance.K * (BYTES_PER_ARM_FRAME[dims] + BYTES_PER_SAMPLE_FRAME * samples + moving)
    return JSON_BUDGET // per_frame


def _signs(trace: Trace, obj: tuple[int, ...]) -> np.ndarray:
    return np.array([-1.0 if trace.instance.directions[o] == "min" else 1.0 for o in obj])


def animate(trace: Trace, objectives: tuple[int, ...] | None = None, max_frames: int = 300,
            show_truth: bool = True, controls: bool = True, height: int | None = None,
            heights: tuple[int, ...] = ()) -> go.Figure:
    """The animated objective-space figure of a run, with its regret curve and pull counts in the same frames.

    ``objectives``: 2 or 3 objective indices to draw (default the first two, or all three when L = 3);
    for the lexicographic task (and L = 1) the objectives shown as interval strips (default all, up to 5).
    ``controls``: Plotly's own play/pause/speed/slider (notebooks); False leaves them out for a page that
    drives the frames itself (``Plotly.animate(gd, [name])``, frames named "0".."n-1" in order), reading
    `fig.layout.meta["bv"]` (`explain.meta`) for the rounds, sentences, phases and table of each frame, and its
    ``layouts`` (`_layouts`: narrow and wide, at ``height`` and each of ``heights``, `_watch_layout`).
    """
    _check_common(trace, max_frames, controls, height, heights)
    inst, task = trace.instance, _task(trace)
    strips = task == "lexicographic" or inst.L == 1
    obj = _check_objectives(objectives, inst.L, strips)
    budget = _frame_budget(trace, 3 if len(obj) == 3 and not strips else 2, 1)
    ctx = _Ctx(trace, frame_indices(len(trace.snapshots), max(MIN_FRAMES, min(int(max_frames), budget))), obj,
               _signs(trace, obj))
    whole = ((0, 1), (0, 1))  # every panel's place is set by `_watch_layout`
    if strips:
        main: _Panel = _Strips(ctx, show_truth, first_axis=3)
    elif len(obj) == 3:
        main = _Scene(ctx, show_truth, whole)
    else:
        main = _Plane(ctx, show_truth, x="x3", y="y3", domain=whole)
    curves = _Curves(ctx, task, 1, whole)
    panels = [main, curves, _Pulls(ctx, 2, whole)]
    redraw = isinstance(main, _Scene)
    curves.x_title = ""  # said by the panel title: a "round t" axis title would collide with the pulls title
    notes = [_panel_title(curves.title, 0, 1), _panel_title("pulls per arm", 0, 1)]
    meta = explain.meta(trace, ctx.idx, ctx.rounds, obj, redraw)
    fig = _assemble(panels, [], _title(trace, task), notes, meta, controls, height)
    if trace.snapshot_means is not None:
        fig.layout.title.subtitle = {"text": "true means change every round (contextual)",
                                     "font": {"size": 17, "color": INK}}
    layouts = _layouts(fig, lambda h, narrow: _watch_layout(fig, main, curves, h, narrow), heights)
    if not controls:
        fig.layout.meta = {"bv": {**meta, "layouts": layouts}}
    return fig


def _layouts(fig: go.Figure, place, heights: tuple[int, ...]) -> dict:
    """The meta's ``layouts``: ``place(height, narrow)`` at the figure's height and each of ``heights``, narrow and
    wide. The figure is drawn in the wide one at its height; a page's player takes the one for its chart's width
    (narrow below ``narrow_below`` px) and height (the tallest of ``heights`` not taller than the chart)."""
    hs = sorted({*(int(h) for h in heights), fig.layout.height})
    out = {"narrow_below": NARROW, "heights": hs,
           **{w: [place(h, w == "narrow") for h in hs] for w in ("narrow", "wide")}}
    fig.plotly_relayout(out["wide"][hs.index(fig.layout.height)])
    return out


def _flat(places: dict) -> dict:
    """Layout paths with their values rounded, tuples as lists (what `Plotly.relayout` takes)."""
    return {k: num(v) if isinstance(v, tuple) else round(v, 4) if isinstance(v, float) else v
            for k, v in places.items()}


def _nticks(px: float) -> int:
    """Plotly's tick count for a y axis ``px`` tall: its 16 px labels at least `TICK_PX` apart."""
    return max(2, int(px // TICK_PX))


def _legend_rows(fig: go.Figure, columns: int) -> int:
    return -(-sum(1 for t in fig.data if t.showlegend is not False and t.legend in (None, "legend")) // columns)


def _watch_layout(fig: go.Figure, main: _Panel, curves: _Curves, height: int, narrow: bool) -> dict:
    """A single run's places at ``height`` px (flat layout paths): margins, legend, panels and panel titles.

    The main legend's rows are reserved for 3 columns when wide (a chart >= `NARROW` px: 1072 at 1920x1080), 2 when
    narrow (662 px at 1366x768, 853 presenting: its widest entry, ~260 px, fits twice), so Plotly never pushes the
    margins and shrinks the panels. The objective space takes a little less width when narrow, so that the right
    column holds the curves' legend ("effective Pareto regret", ~200 px); that legend sits in a top corner of the
    curves, above them (`_Curves.legend_place`, for the narrowest chart of the layout). Between the curves and the
    pulls, room in pixels for the curves' tick labels and the pulls' title.
    """
    three = isinstance(main, _Scene)
    title_px = TITLE_PX + (SUBTITLE_PX if fig.layout.title.subtitle.text else 0)
    top = title_px + _legend_rows(fig, 2 if narrow else LEGEND_COLUMNS) * ROW_PX + (8 if three else NOTES_PX)
    h = height - top - fig.layout.margin.b
    gap, notes = 58 / h, (NOTES_PX / h if three else 0)  # a scene (no panel title) from the legend down
    width = (SCENE_WIDTH if three else 0.56) - (0.04 if narrow else 0)
    left, right = (0.0, width), (width + (0.06 if three else 0.1), 1.0)
    plot_w = (NARROWEST if narrow else NARROW) - fig.layout.margin.l - fig.layout.margin.r
    corner, tall, yrange = curves.legend_place((right[1] - right[0]) * plot_w, (1.0 - notes - gap) * h)
    high = (1.0 - notes - tall / h, 1.0 - notes)
    low = (0.0, high[0] - gap)
    places = {"margin.t": top, "legend.y": 1 - title_px / height,
              "xaxis.domain": right, "yaxis.domain": high, "xaxis2.domain": right, "yaxis2.domain": low,
              "annotations[0].x": right[0], "annotations[0].y": high[1], "annotations[0].yshift": 8,
              "annotations[1].x": right[0],
              "annotations[1].y": low[1],
              "legend2.x": right[1] if corner == "right" else right[0] + 0.01, "legend2.y": high[1],
              "legend2.xanchor": corner, "yaxis.range": yrange,
              # 16 px tick labels at least TICK_PX apart (Plotly draws 4 or more on a short axis)
              "yaxis.nticks": _nticks(tall), "yaxis2.nticks": _nticks(low[1] * h)}
    if three:
        places.update({"scene.domain.x": left, "scene.domain.y": (0.0, 1.0)})
    elif isinstance(main, _Strips):
        places.update({f"xaxis{main.first + i}.domain": left for i in range(len(main.domains))})
    else:
        places.update({"xaxis3.domain": left, "yaxis3.domain": (0.0, 1.0)})
    return _flat(places)


def race(trace_a: Trace, trace_b: Trace, objectives: tuple[int, ...] | None = None, max_frames: int = 300,
         show_truth: bool = True, controls: bool = True, height: int | None = None,
         heights: tuple[int, ...] = ()) -> go.Figure:
    """Two runs on the same instance side by side (A left, B right, one shared view), their curves together.

    Frames are aligned by round: the union of both runs' snapshot rounds (thinned evenly to the frame
    budget), each side showing its latest snapshot at or before the frame's round, so a run that stopped
    holds its last state. Lexicographic runs and L = 1 are drawn in 2-D over their first two objectives
    (interval strips side by side would not fit a screen). ``meta`` as `animate`, its sentences and phases
    prefixed "A: " and "B: ", and its ``layouts`` (`_layouts` of `_race_layout`) as `animate`.
    """
    _check_common(trace_a, max_frames, controls, height, heights, "trace_a")
    _check_common(trace_b, max_frames, controls, height, heights, "trace_b")
    inst = trace_a.instance
    if trace_b.instance.to_dict() != inst.to_dict():
        raise ValueError("trace_b: must be a run on the same instance as trace_a")
    if inst.L < 2:
        raise ValueError("trace_a: a race draws objective space, which needs at least 2 objectives")
    obj = _check_objectives(objectives, inst.L, False)
    three = len(obj) == 3
    rounds, ia, ib = race_frames(trace_a.snapshot_rounds, trace_b.snapshot_rounds,
                                 max(MIN_FRAMES, min(int(max_frames), _frame_budget(trace_a, len(obj), 2))))
    signs = _signs(trace_a, obj)
    ca, cb = (_Ctx(t, i, obj, signs, rounds=rounds) for t, i in ((trace_a, ia), (trace_b, ib)))
    view = _view(ca, cb)
    whole = ((0, 1), (0, 1))  # every panel's place is set by `_race_layout`
    if three:
        pa: _Panel = _Scene(ca, show_truth, whole, "scene", view)
        pb: _Panel = _Scene(cb, show_truth, whole, "scene2", view)
    else:
        pa = _Plane(ca, show_truth, "x2", "y2", whole, view)
        pb = _Plane(cb, show_truth, "x3", "y3", whole, view)
    cu_a = _Curves(ca, _task(trace_a), 1, whole)
    cu_b = _Curves(cb, _task(trace_b), 1, whole, dash="dash", marks_round=False)
    # one legend entry per curve name (A solid, B dashed, said by the panel title) when both runs draw the same ones
    if [n for n, _ in cu_a.series] == [n for n, _ in cu_b.series]:
        cu_b.listed = False
    else:
        cu_a.prefix, cu_b.prefix = "A: ", "B: "
    ymin, ymax = min(cu_a.yrange[0], cu_b.yrange[0]), max(cu_a.yrange[1], cu_b.yrange[1])
    for cu in (cu_a, cu_b):
        cu.yrange, cu.xmax, cu.x_title = [ymin, ymax], float(rounds[-1]), ""  # rounds: said by the slider
    name_a, name_b = plain(trace_a.algorithm), plain(trace_b.algorithm)
    notes = [_panel_title(f"A: {name_a}", 0, 1), _panel_title(f"B: {name_b}", 0, 1),
             _panel_title(f"{cu_a.title}: A solid, B dashed", 0, 1)]
    title = (f"{name_a} (A) and {name_b} (B) on {plain(inst.name) or f'{inst.K} arms'}, "
             f"seed {trace_a.seed}" + ("" if trace_b.seed == trace_a.seed else f" and {trace_b.seed}"))
    meta = explain.race_meta(trace_a, trace_b, ia, ib, rounds, obj, three)
    fig = _assemble([pa, cu_a, cu_b], [pb], title, notes, meta, controls, height)
    fig.layout.legend2.update(bgcolor="rgba(0,0,0,0)")  # beside the curves, not over them
    if three:  # the curves' panel is small: 16 px tick labels need few ticks
        fig.layout.xaxis1.nticks = fig.layout.yaxis1.nticks = 3
    else:  # B's plane shares A's view and its y axis: no tick labels or title between the planes
        fig.layout.yaxis3.update(showticklabels=False, title_text="")
    layouts = _layouts(fig, lambda h, narrow: _race_layout(fig, three, cu_a.title, h, narrow), heights)
    if not controls:
        fig.layout.meta = {"bv": {**meta, "layouts": layouts}}
    return fig


def _race_layout(fig: go.Figure, three: bool, curves: str, height: int, narrow: bool) -> dict:
    """A race's places at ``height`` px (flat layout paths): panels, panel titles, legends, margins.

    Wide (a chart >= `NARROW` px, 1072 at 1920x1080 with the sidebar) and narrow (662 px at 1366x768, 853 in
    presentation mode) share the rules, checked in the browser test at both sizes: a 3-D scene is about 1.2x wider
    than tall, or the corners of its cube and its axis titles are cut at its edges (a scene's camera fits its
    height); a short figure draws the scenes beside the curves when wide; when narrow, under a band of legend and
    curves, without the figure's title (the panel titles name A and B) and with thin margins; a legend's rows are
    reserved above the panel titles, so no text overlaps another. 2-D: a narrow chart's legend has 2 columns.
    """
    margin, title = fig.layout.margin, fig.layout.title.text
    entries = _legend_rows(fig, 1)
    beside = three and height < TALL_RACE
    legend = {"x": 0, "y": 1 - TITLE_PX / height, "xref": "paper", "yref": "container", "orientation": "h"}
    rows = _legend_rows(fig, 2 if narrow and not three else LEGEND_COLUMNS)
    edges = {"t": TITLE_PX + rows * ROW_PX + NOTES_PX, "b": margin.b, "l": margin.l, "r": margin.r}
    curves_title = f"{curves}: A solid, B dashed"
    camera, aspect = SCENE_CAMERA["eye"], SCENE_ASPECT
    if beside and narrow:  # scenes along the bottom; above them, the legend (one column) and the curves
        edges, title = {"t": 8, "b": 5, "l": 5, "r": 5}, ""
        # a small cube: seen from farther and taller, so that the z title clears the scene's edge and the y title
        camera, aspect = {"x": 1.8, "y": 1.8, "z": 0.85}, {**SCENE_ASPECT, "z": 1.0}
        h = height - edges["t"] - edges["b"]
        band = (entries * 24 + 14) / h
        legend.update(y=1, yref="paper", orientation="v")
        left, right, top = (0.0, 0.49), (0.51, 1.0), (0.0, 1 - band - 30 / h)
        far = max(1.0, 282 / (top[1] * h))  # a scene shorter than at 1366x768 (282 px): its cube seen from farther
        camera = {k: round(v * far, 3) for k, v in camera.items()}
        low_x, low = (0.6, 1.0), (1 - band + 76 / h, 1 - 46 / h)
        legend2, curves_title = (low_x[0], low[0] - 26 / h), f"{curves}<br>A solid, B dashed"
    elif beside:  # scenes the full height, the curves and their legend in a column on the right
        left, right, top = (0.0, 0.37), (0.39, 0.76), (0.0, 1.0)
        low_x, low = (0.84, 1.0), (0.45, 0.86)
        legend2, curves_title = (0.79, 0.27), f"{curves}<br>A solid, B dashed"
    elif three:  # tall: the scenes above the curves; a wide chart keeps 3% for the z title left of A's cube
        left, right = ((0.0, 0.49), (0.51, 1.0)) if narrow else ((0.03, 0.47), (0.53, 1.0))
        top, low = ((0.45, 1.0), (0.0, 0.3)) if narrow else ((0.3, 1.0), (0.0, 0.18))
        low_x, legend2 = (0.05 if narrow else left[0], left[1]), (right[0], low[1])
    else:  # between the planes and the curves, room in pixels for the x ticks and title and the curves' title
        gap = 84 / (height - edges["t"] - edges["b"])
        left, right = (0.0, 0.47), (0.53, 1.0)
        low = (0.0, 0.3 * (1 - gap))
        top, low_x, legend2 = (low[1] + gap, 1.0), left, (right[0], low[1])
    title_x = legend2[0] if beside else low_x[0]
    places = {"title.text": title, **{f"margin.{k}": v for k, v in edges.items()},
              **{f"legend.{k}": v for k, v in legend.items()}, "legend2.x": legend2[0], "legend2.y": legend2[1],
              "annotations[0].x": left[0], "annotations[0].y": top[1], "annotations[1].x": right[0],
              "annotations[1].y": top[1], "annotations[2].x": title_x, "annotations[2].y": low[1],
              "annotations[2].text": curves_title, "xaxis.domain": low_x, "yaxis.domain": low}
    if three:
        for scene, x in (("scene", left), ("scene2", right)):
            places.update({f"{scene}.domain.x": x, f"{scene}.domain.y": top, f"{scene}.camera.eye": camera,
                           f"{scene}.aspectratio": aspect})
    else:  # a short chart's curves are short: their y tick labels at least TICK_PX apart
        places.update({"xaxis2.domain": left, "yaxis2.domain": top, "xaxis3.domain": right, "yaxis3.domain": top,
                       "yaxis.nticks": _nticks((low[1] - low[0]) * (height - edges["t"] - edges["b"]))})
    return _flat(places)


def race_frames(rounds_a: np.ndarray, rounds_b: np.ndarray, max_frames: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frame rounds of a race (the union of both runs' snapshot rounds, thinned evenly to ``max_frames``) and,
    per frame, each run's latest snapshot index at or before that round (its first one before it starts)."""
    union = np.union1d(rounds_a, rounds_b)
    rounds = union[frame_indices(len(union), max_frames)]
    ia = np.maximum(np.searchsorted(rounds_a, rounds, side="right") - 1, 0)
    ib = np.maximum(np.searchsorted(rounds_b, rounds, side="right") - 1, 0)
    return rounds, ia, ib


def _panel_title(text: str, x: float, y: float) -> dict:
    return {"text": text, "x": x, "y": y, "xref": "paper", "yref": "paper", "xanchor": "left", "yanchor": "bottom",
            "showarrow": False, "font": {"size": PANEL_TITLE_SIZE, "color": INK}}


def _quiet(traces: list[dict]) -> list[dict]:
    """A second panel's traces: out of the legend (the first panel's entries stand for both), same groups."""
    for t in traces:
        t.setdefault("legendgroup", t.get("name", ""))
        t["showlegend"] = False
    return traces


def _assemble(panels: list[_Panel], twins: list[_Panel], title: str, notes: list[dict], meta: dict,
              controls: bool, height: int | None) -> go.Figure:
    """One figure from its panels (``twins``: panels whose legend entries the first ones already give)."""
    statics = [t for p in panels for t in p.statics()]
    styles = [s for p in panels for s in p.styles()]
    statics += [_legend_entry(s) for s in styles if s.get("showlegend", True)]
    statics += _quiet([t for p in twins for t in p.statics() if t.get("x") != [None]])
    styles += _quiet([s for p in twins for s in p.styles()])
    moving = list(range(len(statics), len(statics) + len(styles)))
    everything = panels + twins
    frames = []
    for n in range(len(meta["rounds"])):
        data = [d for p in everything for d in p.data(n)]
        for d, s in zip(data, styles, strict=True):
            d["type"] = s["type"]
        frames.append({"name": str(n), "data": data, "traces": moving})
    base = [_merge(s, s.pop(START_WITH, d)) for s, d in zip(styles, frames[0]["data"], strict=True)]
    H = height or 860
    left = 20 if isinstance(everything[0], _Scene) else 90  # a scene draws its own axes inside its domain
    margin = {"l": left, "r": 30, "t": 0, "b": 150 if controls else 60}  # the top: `_layouts`
    layout = base_layout(title, height=H, uirevision="keep", hovermode="closest", margin=margin,
                         meta={"bv": meta})
    layout["title"].update(y=0.985, yref="container", yanchor="top")
    # the legend hangs below the title in pixels (container coordinates, its y set by `_layouts`), so that neither
    # the title above nor the panel titles below it overlap it at any height
    layout["legend"].update(yref="container", yanchor="top", x=0.0, traceorder="normal")
    for p in everything:
        layout.update(p.axes())
    layout["annotations"] = notes + [a for p in everything for a in p.annotations()]
    if controls:
        layout.update(_controls([str(r) for r in meta["rounds"]]))
    return _figure(statics + base, finish(layout), frames)


def _legend_entry(style: dict) -> dict:
    """A data-less copy of a moving trace's look for the legend; the moving trace joins its legend group.

    Plotly leaves out the legend entry of a trace that is empty in the first frame and does not add it
    when a later frame fills it, so every moving trace is listed through such a static entry.
    """
    group = style.setdefault("legendgroup", style["name"])
    style["showlegend"] = False
    entry = {"type": "scatter", "x": [None], "y": [None], "name": style["name"],
             "legendgroup": group, "hoverinfo": "skip", "mode": style.get("mode", "markers")}
    if style["type"] in ("scatter3d", "mesh3d"):
        entry.update(LEGEND_AXES)
    else:
        entry.update(xaxis=style.get("xaxis", "x"), yaxis=style.get("yaxis", "y"))
    if style["type"] == "mesh3d":
        entry["marker"] = {"symbol": "square", "size": 12, "color": style.get("color", "#777777")}
    for key in ("line", "marker", "opacity", "legend", "visible"):
        if key in style and key not in entry:
            entry[key] = style[key]
    if isinstance(entry.get("marker", {}).get("symbol"), list):  # the m_t -> p_t arrow: one symbol suffices
        entry["marker"] = {**entry["marker"], "symbol": "arrow", "size": 14, "angle": 90}
    return entry


def _merge(style: dict, data: dict) -> dict:
    """``style`` updated by ``data``, nested dicts (marker, line) merged rather than replaced."""
    out = dict(style)
    for key, value in data.items():
        out[key] = {**out[key], **value} if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class _Frame(go.Frame):
    """A `go.Frame` holding prebuilt trace dicts; reading ``.data`` validates them once (a read-only view)."""

    def __getitem__(self, prop):
        if prop == "data" and self._compound_array_props.get("data") is None:
            dicts = self._orphan_props.get("data", [])
            self._compound_array_props["data"] = list(self._get_validator("data").validate_coerce(dicts))
        return super().__getitem__(prop)


def _figure(data: list[dict], layout: dict, frames: list[dict]) -> go.Figure:
    """A `go.Figure` holding ``frames`` as given, skipping Plotly's per-element validation.

    Validating 200 frames of ~15 traces costs seconds (Plotly walks every list element), far over the
    0.5 s budget, so each `go.Frame` is created empty and handed its already-built dict; everything
    that serialises the figure (`to_dict`, `to_json`, `st.plotly_chart`, `write_html`) reads those
    dicts, and ``fig.frames[i].data`` validates frame i's traces when first read.  The unit tests
    re-validate a whole figure with `go.Figure(fig.to_dict())`.  Should a future Plotly drop these
    internals, the validated path is used instead.
    """
    fig = go.Figure(data=data, layout=layout, _validate=False)
    try:
        objs = []
        for f in frames:
            obj = _Frame(name=f["name"], traces=f["traces"])
            obj._orphan_props["data"] = f["data"]
            objs.append(obj)
        fig._frame_objs = tuple(objs)
    except AttributeError:  # pragma: no cover - depends on Plotly internals
        fig.frames = frames
    return fig
