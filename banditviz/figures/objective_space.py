"""The objective-space panels of the animated figure: the 2-D plane (`Plane`), the 3-D scene (`Scene`) and the
per-objective interval strips (`Strips`); their fixed view (`view_of`), boxes, fronts and legend entries.

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
* 3-D with more than 20 arms: the cuboids start hidden (one click on their legend entry shows them),
  or thirty overlapping boxes hide everything else.
"""

from __future__ import annotations

import numpy as np

from .. import pareto
from ..algorithms.base import REJECTED, STATUS_NAMES
from . import geometry as geo
from .frames import LEGEND_AXES, START_WITH, Context, Panel, merge, status_of
from .palette import INK, STATUS_COLORS, STATUS_LABELS, axis_label, rgba

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

SCENE_ASPECT = {"x": 1.0, "y": 1.0, "z": 0.65}

SCENE_CAMERA = {"eye": {"x": 1.55, "y": 1.55, "z": 0.72}, "center": {"x": 0.04, "y": -0.04, "z": -0.1}}

STATUS_RGB = [STATUS_COLORS[s] for s in STATUS_NAMES]

# (axis, side) of a box's cut side -> the angle (degrees clockwise from up) of the triangle on the view's edge that
# points the way the box goes on.
_POINTING = {(1, 1): 0, (0, 1): 90, (1, -1): 180, (0, -1): 270}


def view_of(*ctxs: Context) -> np.ndarray:
    """Fixed view of the drawn objectives over every frame of the runs (`geometry.view_ranges`)."""
    est, truth = [], []
    for c in ctxs:
        est += [c.snap(n).estimates[:, c.objectives] * c.signs for n in range(len(c.idx))]
        truth += [c.truth(n) * c.signs for n in range(len(c.idx)) if c.trace.truth_known]
    return geo.view_ranges(np.concatenate(est), np.concatenate(truth) if truth else None)


def axis_title(ctx: Context, j: int) -> str:
    return axis_label(ctx.trace.instance, ctx.objectives[j])


def statuses_used(ctx: Context) -> list[int]:
    used = set()
    for n in range(len(ctx.idx)):
        used.update(np.unique(status_of(ctx.snap(n))).tolist())
    return sorted(used)


def legend_dummies(statuses: list[int], boxes: bool = True) -> list[dict]:
    """Legend-only entries: one per arm status (the estimates trace carries a colour array) and one for
    the boxes where there are any (their traces start empty, and Plotly hides an empty trace's legend entry)."""
    out = [{"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": BOX_LABEL, "legendgroup": "boxes",
            "marker": {"symbol": "square", "size": 18, "color": rgba("#555555", 0.12),
                       "line": {"color": "#555555", "width": 2}}, "hoverinfo": "skip"}] if boxes else []
    for s in statuses:
        name = STATUS_NAMES[s]
        out.append({"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": STATUS_LABELS[name],
                    "marker": {"color": STATUS_COLORS[name], "size": 14}, "legendgroup": "status",
                    "hoverinfo": "skip"})
    return out



def clipped_boxes(c, n: int, ranges, has_bounds: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Snapshot ``n``'s boxes over the drawn objectives, clipped to ``ranges`` (display orientation), and which of
    their sides lie in the view; a logged run without bounds (``has_bounds`` false): no box (NaN), nothing cut."""
    if not has_bounds:
        none = np.full((c.K, len(c.objectives)), np.nan)
        return none, none, *np.ones((2, c.K, len(c.objectives)), dtype=bool)
    snap = c.snap(n)
    lo, hi = geo.oriented_bounds(snap.lower[:, c.objectives], snap.upper[:, c.objectives], c.signs)
    lo_in, hi_in = geo.sides_inside(lo, hi, ranges)
    return (*geo.clip_to_view(lo, hi, ranges), lo_in, hi_in)

class Plane(Panel):
    """2-D objective space: truth, boxes, estimated front staircase, effective hull, estimates, pulled arm."""

    def __init__(self, ctx: Context, show_truth: bool, x: str = "x", y: str = "y",
                 domain: tuple[tuple[float, float], tuple[float, float]] = ((0, 0.56), (0, 1)),
                 ranges: np.ndarray | None = None) -> None:
        self.ctx, self.show_truth, self.x, self.y, self.domain = ctx, show_truth, x, y, domain
        self.statuses, self.has_bounds = statuses_used(ctx), ctx.trace.gives_bounds
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        self.has_samples = any("samples" in s.extras for s in snaps)
        self.has_arrow = any("m_t" in s.extras and "p_t" in s.extras for s in snaps)
        self.ranges = view_of(ctx) if ranges is None else ranges
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
        out = legend_dummies(self.statuses, self.has_bounds)
        for t in out:
            self._ax(t)
        if self.show_truth and not self.ctx.truth_moves:
            out += [merge(s, d) for s, d in zip(self._truth_styles(), self._truth_data(0), strict=True)]
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
                      "showlegend": self.has_bounds,
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
                      "textfont": {"size": self.ctx.text.label, "color": INK}, "cliponaxis": False,
                      "hovertemplate": "arm %{customdata[0]} (%{customdata[2]}), %{customdata[1]} pulls"
                                       "<br>estimate %{x:.3f}, %{y:.3f}<extra></extra>"}),
            self._ax({"type": "scatter", "mode": "markers", "name": "arm pulled at this round",
                      "marker": {"symbol": "circle-open", "size": 32,
                                 "line": {"width": 4, "color": STATUS_COLORS["pulled"]},
                                 "color": STATUS_COLORS["pulled"]}, "hoverinfo": "skip"}),
            self._ax({"type": "scatter", "mode": "text", "name": "no estimates yet", "showlegend": False,
                      "x": [float(self.ranges[0, 0] + 0.03 * np.ptp(self.ranges[0]))],
                      "y": [float(self.ranges[1, 0] + 0.04 * np.ptp(self.ranges[1]))], "textposition": "top right",
                      "textfont": {"size": self.ctx.text.note, "color": INK}, "cliponaxis": False,
                      "hoverinfo": "skip"}),
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
        return clipped_boxes(self.ctx, n, self.ranges, self.has_bounds)

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
        status = status_of(snap)
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
                    "marker": {"color": [STATUS_RGB[s] for s in status], "size": 17,
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
                           "color": [STATUS_RGB[status[a]] for a in owner]}}

    def axes(self) -> dict:
        (xd, yd), r = self.domain, self.ranges
        xa, ya = "xaxis" + self.x[1:], "yaxis" + self.y[1:]
        return {xa: {"domain": list(xd), "range": r[0].tolist(), "title": {"text": axis_title(self.ctx, 0)},
                     "anchor": self.y, "zeroline": False},
                ya: {"domain": list(yd), "range": r[1].tolist(), "title": {"text": axis_title(self.ctx, 1)},
                     "anchor": self.x, "zeroline": False}}


class Scene(Panel):
    """3-D objective space: truth, translucent cuboids with edges, front points, efficient hull facets."""

    def __init__(self, ctx: Context, show_truth: bool, domain=((0, 0.58), (0, 1)), scene: str = "scene",
                 ranges: np.ndarray | None = None) -> None:
        self.ctx, self.show_truth, self.domain, self.scene = ctx, show_truth, domain, scene
        self.statuses, self.has_bounds = statuses_used(ctx), ctx.trace.gives_bounds
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        self.has_samples = any("samples" in s.extras for s in snaps)
        self.ranges = view_of(ctx) if ranges is None else ranges
        ctx.decimals = min(geo.decimals_for(self.ranges), 3)  # 3-D: 1e-3 of the span is invisible
        self.centre = self.ranges.mean(axis=1)
        self.hide_boxes = ctx.K > MAX_SHOWN_CUBOIDS

    @staticmethod
    def _xyz(pts: np.ndarray, c: Context) -> dict:
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
        out = [{**t, **LEGEND_AXES} for t in legend_dummies(self.statuses, self.has_bounds)]
        if self.hide_boxes:
            out[0].update(visible="legendonly", name=BOX_LABEL + " (click to show)")
        if self.show_truth and not self.ctx.truth_moves:
            out += [{**merge(s, d), "scene": self.scene}
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
        scale = [[v, rgba(STATUS_RGB[code % n_st], edge_alpha * BOX_FILL_ALPHA[code // n_st] / BOX_FILL_ALPHA[0])]
                 for code in range(n_st * levels) for v in (code / (n_st * levels), (code + 1) / (n_st * levels))]
        out += [{"type": "scatter3d", "mode": "lines", "name": BOX_LABEL, "showlegend": False,
                 "legendgroup": "boxes", "hoverinfo": "skip",
                 "line": {"width": 3, "colorscale": scale, "cmin": -0.5, "cmax": n_st * levels - 0.5}},
                {"type": "scatter3d", "mode": "lines", "name": "box of the arm pulled", "showlegend": False,
                 "legendgroup": "boxes", "hoverinfo": "skip", "line": {"width": 6, "color": STATUS_COLORS["pulled"]}},
                {"type": "scatter3d", "mode": "markers", "name": CUT_LABEL_3D, "legendgroup": "boxes",
                 "showlegend": self.has_bounds,
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
                        "hoverinfo": "skip", "textfont": {"size": self.ctx.text.label_3d, "color": INK},
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
        return clipped_boxes(self.ctx, n, self.ranges, self.has_bounds)

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
        status = status_of(snap)
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
                    "marker": {"color": [STATUS_RGB[s] for s in status[marked]]}})
        front = np.flatnonzero(ok)
        front = front[pareto.pareto_mask(est[front] * c.signs)] if front.size else front
        out.append(self._xyz(est[front], c))
        facets = self.facets(n)
        if facets.shape[0] == 0:
            facets = np.zeros((1, 3), dtype=np.int64)  # one degenerate triangle: nothing is drawn
        verts = np.where(ok[:, None], est, self.centre)
        out.append({**self._xyz(verts, c), "i": facets[:, 0].tolist(), "j": facets[:, 1].tolist(),
                    "k": facets[:, 2].tolist()})
        out.append({**self._xyz(est, c), "marker": {"color": [STATUS_RGB[s] for s in status], "size": 7,
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
        few = 4 if self.ctx.text.tick <= 16 else 3  # larger labels (a projector): fewer of them
        ax = {f"{a}axis": {"range": r[j].tolist(), "title": {"text": axis_title(self.ctx, j)}, "nticks": few,
                           "tickformat": ".2~f"} for j, a in enumerate("xyz")}
        return {self.scene: {"domain": {"x": list(xd), "y": list(yd)}, "aspectmode": "manual",
                             "aspectratio": SCENE_ASPECT, **ax, "camera": SCENE_CAMERA}}


class Strips(Panel):
    """Per-objective interval strips (our drawing (LexMOSLB)): one panel per objective, vertical intervals per arm.

    An interval is "kept" when the arm survives that objective's filter (``extras["filtered_sets"][i]``),
    else "filtered out"; without filter sets, rejected arms are filtered out.
    """

    def __init__(self, ctx: Context, show_truth: bool, first_axis: int, domain_x=(0, 0.56)) -> None:
        self.ctx, self.show_truth, self.first = ctx, show_truth, first_axis
        self.domain_x = domain_x
        m = len(ctx.objectives)
        gap = 0.09 if m > 1 else 0.0
        h = (1 - gap * (m - 1)) / m
        self.domains = [(max(0.0, 1 - (i + 1) * h - i * gap), 1 - i * h - i * gap) for i in range(m)]
        snaps = [ctx.snap(n) for n in range(len(ctx.idx))]
        est = np.concatenate([s.estimates[:, ctx.objectives] for s in snaps]) * ctx.signs
        truth = (np.concatenate([ctx.truth(n) for n in range(len(ctx.idx))]) * ctx.signs
                 if ctx.trace.truth_known else None)
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
        return status_of(snap) != REJECTED

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
        return [merge(self._truth_style(i), self._truth_data(0, i)) for i in range(len(self.ctx.objectives))]

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
        return [{"text": axis_title(self.ctx, i), "x": self.domain_x[0], "y": b, "xref": "paper", "yref": "paper",
                 "xanchor": "left", "yanchor": "bottom", "showarrow": False,
                 "font": {"size": self.ctx.text.panel, "color": INK}}
                for i, (_, b) in enumerate(self.domains)]
