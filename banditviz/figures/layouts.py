"""Where the animated figure's panels, legends and titles go at each size (`layouts_of`, `watch_layout`,
`race_layout`): the layouts a page's player chooses from by its chart's width and height."""

from __future__ import annotations

import re

import plotly.graph_objects as go

from .curves import Curves
from .frames import Panel, num
from .objective_space import SCENE_ASPECT, SCENE_CAMERA, Scene, Strips
from .palette import nice_step

SCENE_WIDTH = 0.64  # share of the figure's width: a 3-D scene needs more than a plane (its corners stick out)
TALL_RACE = 700  # px: a 3-D race figure at least this tall draws its scenes above the curves, else beside them
NARROW = 1000  # px: a chart narrower than this takes its figure's narrow layout (662 px at 1366x768, 853 presenting)
NARROWEST = 662  # px: the narrowest chart a layout is sized for (1366x768 with the sidebar)
NARROWEST_PRESENTING = 853  # px: the same in presentation mode (1366x768 without the sidebar)
PORTRAIT = 600  # px: a chart narrower than this (a phone, a portrait tablet) stacks its panels
PORTRAIT_WIDTH = 358  # px: the narrowest chart a stacked layout is sized for (a 390 px wide phone)
STACKED_HEIGHT = 880  # px: a stacked figure's height outside presentation mode (a phone's page scrolls)
LEGEND_COLUMNS = 3  # legend entries per row of a wide chart (2 in a narrow one): sets the top margin
TITLE_PX, SUBTITLE_PX, ROW_PX, NOTES_PX = 44, 24, 26, 40  # the figure's title, its subtitle, a legend row, panel titles


def layouts_of(fig: go.Figure, place, stack, heights: tuple[int, ...], present: bool) -> dict:
    """The meta's ``layouts``: ``place(height, narrow)`` at the figure's height and each of ``heights``, narrow and
    wide, and ``stack(height)`` for a chart narrower than ``portrait_below`` px (a phone: panels stacked). The figure
    is drawn in the wide one at its height; a page's player takes the one for its chart's width and height (the
    tallest of ``heights`` not taller than the chart). Each says whether the figure shows its own title and legends
    (``legend.visible``): in presentation mode and stacked, the page shows them (`animate.page_parts`). ``fill``: the
    chart fills the screen (presentation mode); else it is ``base_height`` tall, or ``stacked_height`` when stacked."""
    title, subtitle = fig.layout.title.text, fig.layout.title.subtitle.text or ""
    figure = fig.layout.to_plotly_json()  # the figure's own layout, before it takes the wide one
    hs = sorted({*(int(h) for h in heights), fig.layout.height, *(() if present else (STACKED_HEIGHT,))})
    axes = [k for k in figure if re.match(r"^[xy]axis\d*$", k)]

    def own(layout: dict, shown: bool, stacked: bool = False) -> dict:
        # stacked panels: the margins and gaps are the layout's own (Plotly's automargin would push an axis's labels
        # between two panels into the figure's top margin)
        # a hidden legend in the container's coordinates still reserves its room above the panels: in the paper's then
        return {"title.text": title if shown else "", "title.subtitle.text": subtitle if shown else "",
                "legend.yref": "container" if shown else "paper", **layout, "legend.visible": shown,
                "legend2.visible": shown, **{f"{a}.automargin": not stacked for a in axes}}

    out = {"narrow_below": NARROW, "portrait_below": PORTRAIT, "heights": hs, "fill": present,
           "base_height": fig.layout.height, "stacked_height": STACKED_HEIGHT,
           **{w: [own(place(h, w == "narrow"), not present) for h in hs] for w in ("narrow", "wide")},
           "portrait": [own(stack(h), False, True) for h in hs]}
    every_path(out["wide"] + out["narrow"] + out["portrait"], figure)
    fig.plotly_relayout(out["wide"][hs.index(fig.layout.height)])
    return out


def every_path(layouts: list[dict], figure: dict) -> None:
    """Each layout sets every path any of them sets: one that leaves a path out takes the figure's own value there
    (None: Plotly's default). A chart then draws the layout for its size whatever sizes it had before: a phone turned
    to landscape kept the stacked layout's strip domains, strip titles and margins (the lexicographic strips crushed
    at the top of the panel)."""
    paths = sorted(set().union(*layouts))
    for layout in layouts:
        for path in paths:
            layout.setdefault(path, value_at(figure, path))


def value_at(tree: dict, path: str):
    """The value at a layout path ("annotations[2].y", "margin.l") in a figure's layout as a dict; None where unset."""
    node = tree
    for part in re.findall(r"[^.\[\]]+", path):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def flat(places: dict) -> dict:
    """Layout paths with their values rounded, tuples as lists (what `Plotly.relayout` takes)."""
    return {k: num(v) if isinstance(v, tuple) else round(v, 4) if isinstance(v, float) else v
            for k, v in places.items()}


def nticks(px: float, font: int = 16) -> int:
    """Plotly's tick count for a y axis ``px`` tall: as many ``font`` px labels as fit at least 1.75 fonts apart (28
    px at 16), one at each end counted (the count of gaps, as before, let Plotly label a 108 px regret axis with 0
    alone in presentation mode)."""
    return max(2, int(px // (1.75 * font)) + 1)


def strip_ticks(main: Strips, i: int, px: float) -> dict:
    """Strip ``i``'s y ticks for a strip ``px`` tall: the smallest step of 1, 2 or 5 times a power of ten that puts its
    labels at least 1.75 fonts apart (Plotly's ``nticks`` is only a ceiling: in a 45 px strip it drew 0 and 1 28 px
    apart in 22 px type)."""
    lo, hi = main.ranges[i]
    step = nice_step((hi - lo) * 1.75 * main.ctx.text.tick / max(px, 1.0))
    return {f"yaxis{main.first + i}.dtick": step, f"yaxis{main.first + i}.tick0": 0.0}


def legend_rows(fig: go.Figure, columns: int) -> int:
    return -(-sum(1 for t in fig.data if t.showlegend is not False and t.legend in (None, "legend")) // columns)


def watch_layout(fig: go.Figure, main: Panel, curves: Curves, height: int, narrow: bool) -> dict:
    """A single run's places at ``height`` px (flat layout paths): margins, legend, panels and panel titles.

    The main legend's rows are reserved for 3 columns when wide (a chart >= `NARROW` px: 1072 at 1920x1080), 2 when
    narrow (662 px at 1366x768, 853 presenting: its widest entry, ~260 px, fits twice), so Plotly never pushes the
    margins and shrinks the panels. The objective space takes a little less width when narrow, so that the right
    column holds the curves' legend ("effective Pareto regret", ~200 px); that legend sits in a top corner of the
    curves, above them (`Curves.legend_place`, for the narrowest chart of the layout). Between the curves and the
    pulls, room in pixels for the curves' tick labels and the pulls' title; the arms labelled every `arm_step` (with
    200 arms every 5th ran into each other).
    """
    three = isinstance(main, Scene)
    title_px = TITLE_PX + (SUBTITLE_PX if fig.layout.title.subtitle.text else 0)
    top = title_px + legend_rows(fig, 2 if narrow else LEGEND_COLUMNS) * ROW_PX + (8 if three else NOTES_PX)
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
              # tick labels at least 1.75 fonts apart (Plotly draws 4 or more on a short axis)
              "yaxis.nticks": nticks(tall), "yaxis2.nticks": nticks(low[1] * h),
              "xaxis2.dtick": arm_step(main.ctx.K, (right[1] - right[0]) * plot_w, main.ctx.text.tick)}
    return flat({**places, **_main_domain(main, left, h)})


def race_layout(fig: go.Figure, three: bool, curves: str, height: int, narrow: bool) -> dict:
    """A race's places at ``height`` px (flat layout paths): panels, panel titles, legends, margins.

    Wide (a chart >= `NARROW` px, 1072 at 1920x1080 with the sidebar) and narrow (662 px at 1366x768, 853 in
    presentation mode) share the rules, checked in the browser test at both sizes: a 3-D scene is about 1.2x wider
    than tall, or the corners of its cube and its axis titles are cut at its edges (a scene's camera fits its
    height); a short figure draws the scenes beside the curves when wide; when narrow, under a band of legend and
    curves, without the figure's title (the panel titles name A and B) and with thin margins; a legend's rows are
    reserved above the panel titles, so no text overlaps another. 2-D: a narrow chart's legend has 2 columns.
    """
    margin, title = fig.layout.margin, fig.layout.title.text
    entries = legend_rows(fig, 1)
    beside = three and height < TALL_RACE
    legend = {"x": 0, "y": 1 - TITLE_PX / height, "xref": "paper", "yref": "container", "orientation": "h"}
    rows = legend_rows(fig, 2 if narrow and not three else LEGEND_COLUMNS)
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
    else:  # a short chart's curves are short: their y tick labels at least 1.75 fonts apart; B's plane shares A's y
        places.update({"xaxis2.domain": left, "yaxis2.domain": top, "xaxis3.domain": right, "yaxis3.domain": top,
                       "yaxis3.showticklabels": False,
                       "yaxis.nticks": nticks((low[1] - low[0]) * (height - edges["t"] - edges["b"]))})
    return flat(places)


# Presentation mode's edges (px): panel titles above; below, tick labels and an axis title; left, a plane's y tick
# labels and title (a scene draws its own axes).
PRESENT_EDGES = {"t": 46, "b": 96, "l": 104, "r": 12}


def present_watch_layout(fig: go.Figure, main: Panel, curves: Curves, height: int, narrow: bool) -> dict:
    """A single run's places in presentation mode, where the page shows the figure's title and legends: the objective
    space down the left (3-D a little wider), the curves over the pulls on the right (the curves a little taller),
    texts at the presentation sizes (`palette.PRESENT_TEXT`). Between the panels, room in pixels for their tick labels
    and titles."""
    text = curves.ctx.text
    three = isinstance(main, Scene)
    edges = {**PRESENT_EDGES, "l": 20 if three else PRESENT_EDGES["l"]}
    h = height - edges["t"] - edges["b"]
    plot_w = (NARROWEST_PRESENTING if narrow else NARROW) - edges["l"] - edges["r"]
    width = (0.64 if three else 0.6) + (0.0 if narrow else 0.02)
    left, right = (0.0, width), (width + 96 / plot_w, 1.0)  # between: the curves' y tick labels ("1000") and a gap
    gap = (text.tick + text.panel + 30) / h  # the curves' x tick labels, then the pulls' title
    low = (0.0, 0.45 * (1.0 - gap))
    high = (low[1] + gap, 1.0)
    column = (right[1] - right[0]) * plot_w
    places = {**{f"margin.{k}": v for k, v in edges.items()},
              "xaxis.domain": right, "yaxis.domain": high, "xaxis2.domain": right, "yaxis2.domain": low,
              "annotations[0].x": right[0], "annotations[0].y": high[1], "annotations[0].yshift": 8,
              "annotations[1].x": right[0], "annotations[1].y": low[1],
              "yaxis.nticks": nticks((high[1] - high[0]) * h, text.tick),
              "yaxis2.nticks": nticks(low[1] * h, text.tick),
              # rounds ("2000": 4 digits) and arms on a narrow column: few enough labels to stand side by side
              "xaxis.nticks": max(3, int(column // (4 * text.tick))),
              "xaxis2.dtick": arm_step(main.ctx.K, column, text.tick)}
    return flat({**places, **_main_domain(main, left, h)})


def arm_step(K: int, width: float, font: int) -> int:
    """Every how many arms a pulls axis ``width`` px wide labels, its ``font`` px labels (~0.6 font a digit) apart:
    1, 2, 5, 10, 20, ..."""
    digits = len(str(max(K - 1, 0)))
    steps = (m * 10 ** e for e in range(7) for m in (1, 2, 5))
    return next(step for step in steps if -(-K // step) * (0.6 * font * digits + 8) <= width or step >= K)


def _main_domain(main: Panel, left: tuple[float, float], plot_h: float | None = None) -> dict:
    """The objective space's panel (a scene, the interval strips or a plane) over ``left`` of the width; given the plot
    area's height (px), each strip's y tick labels at least 1.75 fonts apart."""
    if isinstance(main, Scene):
        return {"scene.domain.x": left, "scene.domain.y": (0.0, 1.0)}
    if isinstance(main, Strips):
        out = {f"xaxis{main.first + i}.domain": left for i in range(len(main.domains))}
        if plot_h is not None:
            for i, (a, b) in enumerate(main.domains):
                out.update(strip_ticks(main, i, (b - a) * plot_h))
        return out
    return {"xaxis3.domain": left, "yaxis3.domain": (0.0, 1.0)}


def present_race_layout(fig: go.Figure, three: bool, curves: str, text, height: int, narrow: bool) -> dict:
    """A race's places in presentation mode (the page shows the title and the legends): A's and B's objective space
    side by side over the curves, which both share (A solid, B dashed) and so span the whole width (under A alone,
    they left the quarter under B empty on a projector), texts at the presentation sizes."""
    edges = {**PRESENT_EDGES, "b": text.tick + 18, "l": 20 if three else PRESENT_EDGES["l"]}
    h = height - edges["t"] - edges["b"]
    low = (0.0, 0.2)  # the whole width: a fifth of the height leaves the objective spaces the larger panels
    # between: the planes' x tick labels and title (a scene's are inside it), then the curves' title
    gap = (28 if three else text.tick + text.axis_title + 34) / h + (text.panel + 12) / h
    top = (low[1] + gap, 1.0)
    left, right = ((0.0, 0.49), (0.51, 1.0)) if three else ((0.0, 0.47), (0.53, 1.0))
    places = {**{f"margin.{k}": v for k, v in edges.items()},
              "annotations[0].x": left[0], "annotations[0].y": top[1], "annotations[1].x": right[0],
              "annotations[1].y": top[1], "annotations[2].x": left[0], "annotations[2].y": low[1],
              "annotations[2].text": f"{curves}: A solid, B dashed", "xaxis.domain": (0.0, 1.0),
              "yaxis.domain": low, "yaxis.nticks": nticks((low[1] - low[0]) * h, text.tick)}
    if three:
        for scene, x in (("scene", left), ("scene2", right)):
            places.update({f"{scene}.domain.x": x, f"{scene}.domain.y": top, f"{scene}.camera.eye": SCENE_CAMERA["eye"],
                           f"{scene}.aspectratio": SCENE_ASPECT})
    else:  # B's plane beside A's shares its y axis
        places.update({"xaxis2.domain": left, "yaxis2.domain": top, "xaxis3.domain": right, "yaxis3.domain": top,
                       "yaxis3.showticklabels": False})
    return flat(places)


def stacked_watch_layout(fig: go.Figure, main: Panel, curves: Curves, height: int) -> dict:
    """A single run's places on a narrow chart (a phone): the objective space the whole width, as tall as wide where
    the height allows, the curves under it, then the pulls; the title and legends are the page's. Between the panels,
    room in pixels for the x tick labels, axis titles and panel titles."""
    text = curves.ctx.text
    three = isinstance(main, Scene)
    edges = {"t": text.panel + 12 if isinstance(main, Strips) else 8,  # the first strip's title above it
             "b": text.tick + text.axis_title + 24,  # the pulls' arm labels and the axis title "arm"
             "l": round(2.6 * text.tick + 1.4 * text.axis_title),  # the curves' tick labels (a scene's too)
             "r": 26}  # right: half a round's label ("2000") past the curves' end
    h = height - edges["t"] - edges["b"]
    plot_w = PORTRAIT_WIDTH - edges["l"] - edges["r"]
    below_main = ((12 if three else text.tick + text.axis_title + 26) + text.panel + 14) / h
    below_curves = (text.tick + text.panel + 22) / h
    top = (max(0.45, 1.0 - plot_w / h), 1.0)  # the objective space: square where it can be, half the plot at least
    low = (0.0, 0.42 * (top[0] - below_main - below_curves))
    high = (low[1] + below_curves, top[0] - below_main)
    places = {**{f"margin.{k}": v for k, v in edges.items()},
              "xaxis.domain": (0.0, 1.0), "yaxis.domain": high, "xaxis2.domain": (0.0, 1.0), "yaxis2.domain": low,
              "annotations[0].x": 0.0, "annotations[0].y": high[1], "annotations[0].yshift": 4,
              "annotations[1].x": 0.0, "annotations[1].y": low[1],
              "yaxis.nticks": nticks((high[1] - high[0]) * h, text.tick),
              "yaxis2.nticks": nticks(low[1] * h, text.tick), "xaxis.nticks": max(3, int(plot_w // (4 * text.tick))),
              "xaxis2.dtick": arm_step(main.ctx.K, plot_w, text.tick)}
    if isinstance(main, Scene):
        places.update({"scene.domain.x": (0.0, 1.0), "scene.domain.y": top})
    elif isinstance(main, Strips):
        m = len(main.domains)
        gap = (text.panel + 10) / h
        size = (top[1] - top[0] - gap * (m - 1)) / m
        for i in range(m):
            a = top[1] - (i + 1) * size - i * gap
            places.update({f"xaxis{main.first + i}.domain": (0.0, 1.0), f"yaxis{main.first + i}.domain": (a, a + size),
                           **strip_ticks(main, i, size * h),
                           f"annotations[{2 + i}].y": a + size})
    else:
        places.update({"xaxis3.domain": (0.0, 1.0), "yaxis3.domain": top})
    return flat(places)


def stacked_race_layout(fig: go.Figure, three: bool, curves: str, text, height: int) -> dict:
    """A race on a narrow chart (a phone): A's objective space, B's under it, then the curves, each the whole width;
    the title and legends are the page's."""
    edges = {"t": text.panel + 16, "b": text.tick + 20, "l": round(2.6 * text.tick + 1.4 * text.axis_title), "r": 26}
    h = height - edges["t"] - edges["b"]
    between = ((12 if three else text.tick + text.axis_title + 26) + text.panel + 14) / h
    low = (0.0, 0.18)
    above_low = between + (text.panel + 4) / h  # the curves' title on two lines
    each = (1.0 - low[1] - between - above_low) / 2
    b_dom = (low[1] + above_low, low[1] + above_low + each)
    a_dom = (b_dom[1] + between, 1.0)
    places = {**{f"margin.{k}": v for k, v in edges.items()},
              "annotations[0].x": 0.0, "annotations[0].y": a_dom[1], "annotations[1].x": 0.0,
              "annotations[1].y": b_dom[1], "annotations[2].x": 0.0, "annotations[2].y": low[1],
              "annotations[2].text": f"{curves}<br>A solid, B dashed", "xaxis.domain": (0.0, 1.0), "yaxis.domain": low,
              "yaxis.nticks": nticks(low[1] * h, text.tick)}
    if three:
        for scene, y in (("scene", a_dom), ("scene2", b_dom)):
            places.update({f"{scene}.domain.x": (0.0, 1.0), f"{scene}.domain.y": y})
    else:
        places.update({"xaxis2.domain": (0.0, 1.0), "yaxis2.domain": a_dom, "xaxis3.domain": (0.0, 1.0),
                       "yaxis3.domain": b_dom, "yaxis3.showticklabels": True})
    return flat(places)
