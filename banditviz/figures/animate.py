"""The animated objective-space figure: one Plotly figure whose frames are a trace's snapshots (`animate`), or two
runs' side by side (`race`).

Left: objective space (2-D plane, 3-D scene, or per-objective interval strips for the lexicographic task and for
L = 1: `objective_space`). Right, in the same frames: the regret (or error / undecided arms / simple regret) curve
growing up to the current round, and the pull counts per arm (`curves`). Where the panels go at each size is
`layouts`; how frames are held and budgeted, `frames`. Play, pause, a round slider and a speed menu run in the
browser (Plotly's own controls, or a page's player reading the figure's meta).

Each panel declares *styles* (everything constant about a moving trace) once and *data* (coordinates, colours) per
frame, so a frame carries only what changes. Frames are plain dicts built without Plotly's validator
(`frames.figure_of`), and coordinates are rounded to 1e-4 of the smallest axis span (1e-3 in 3-D), which keeps the
default Watch run (200 frames) near 1 MB and fast to build.

Decision (ours): an unregistered algorithm name (a hand-built trace) gets its task from the trace: lexicographic
metrics, a "distributions" instance (risk-averse), an "error" metric (identify), else regret.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..algorithms.base import ALGORITHMS
from ..trace import Trace
from . import explain
from .curves import Curves, Pulls
from .frames import LEGEND_AXES, MIN_FRAMES, START_WITH, Context, Panel, figure_of, frame_budget, frame_indices, merge
from .layouts import (
    layouts_of,
    present_race_layout,
    present_watch_layout,
    race_layout,
    stacked_race_layout,
    stacked_watch_layout,
    watch_layout,
)
from .objective_space import Plane, Scene, Strips, view_of
from .palette import INK, NORMAL_TEXT, PRESENT_TEXT, Text, base_layout, finish, plain
from .playback import DEFAULT_SPEED, SPEEDS

MAX_STRIPS = 5
CONTEXTUAL = "true means change every round (contextual)"
UNKNOWN_TRUTH = "true means unknown: the log's empirical means, no truth and no regret"


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
    when they would not fit, or when the task is a guess (a logged run of an algorithm banditviz does not know), and a
    long instance name is shortened with an ellipsis."""
    inst = trace.instance
    alg, where = plain(trace.algorithm), plain(inst.name) or f"{inst.K} arms"
    room = WATCH_TITLE_CHARS - len(f"{alg} on , seed {trace.seed}")
    if len(where) > room:
        where = where[:max(room - 1, 8)].rstrip(" ,") + "…"
    title = f"{alg} on {where}, seed {trace.seed}"  # a name in brackets is not followed by more brackets
    tail = _TASK_WORDS[task] + ("" if trace.stopped_at is None else f", stopped at round {trace.stopped_at}")
    guessed = trace.info.get("logged") and trace.algorithm not in ALGORITHMS
    if len(title) + len(tail) + 2 <= WATCH_TITLE_CHARS and not guessed:
        title += f": {tail}"
    return title


def _check_flag(value: Any, name: str) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: must be True or False, got {value!r}")


def _check_common(trace: Any, max_frames: Any, controls: Any, height: Any, heights: Any = (),
                  name: str = "trace") -> None:
    if not isinstance(trace, Trace):
        raise ValueError(f"{name}: must be a banditviz Trace, got {type(trace).__name__}")
    if not trace.snapshots:
        raise ValueError(f"{name}: has no snapshots to animate; run it with snapshots > 0")
    if isinstance(max_frames, bool) or not isinstance(max_frames, (int, np.integer)) or not 2 <= max_frames <= 300:
        raise ValueError(f"max_frames: must be a whole number in [2, 300], got {max_frames!r}")
    _check_flag(controls, "controls")
    if height is not None and (isinstance(height, bool) or not isinstance(height, (int, np.integer))
                               or not 300 <= height <= 4000):
        raise ValueError(f"height: must be None or a whole number of pixels in [300, 4000], got {height!r}")
    if not isinstance(heights, (tuple, list, range)) or not all(
            isinstance(h, (int, np.integer)) and not isinstance(h, bool) and 300 <= h <= 4000 for h in heights):
        raise ValueError(f"heights: must be whole numbers of pixels in [300, 4000], got {heights!r}")


def _signs(trace: Trace, obj: tuple[int, ...]) -> np.ndarray:
    return np.array([-1.0 if trace.instance.directions[o] == "min" else 1.0 for o in obj])


def animate(trace: Trace, objectives: tuple[int, ...] | None = None, max_frames: int = 300,
            show_truth: bool = True, controls: bool = True, height: int | None = None,
            heights: tuple[int, ...] = (), present: bool = False) -> go.Figure:
    """The animated objective-space figure of a run, with its regret curve and pull counts in the same frames.

    ``objectives``: 2 or 3 objective indices to draw (default the first two, or all three when L = 3);
    for the lexicographic task (and L = 1) the objectives shown as interval strips (default all, up to 5).
    ``controls``: Plotly's own play/pause/speed/slider (notebooks); False leaves them out for a page that
    drives the frames itself (``Plotly.animate(gd, [name])``, frames named "0".."n-1" in order), reading
    `fig.layout.meta["bv"]` (`explain.meta`) for the rounds, sentences, phases and table of each frame, and its
    ``layouts`` (`layouts_of`: narrow and wide, at ``height`` and each of ``heights``, `watch_layout`).
    ``present``: for a projector (presentation mode): every text at least 22 px (`palette.PRESENT_TEXT`), and the
    title and the main legend left to the page (in ``meta``: ``title``, ``subtitle`` and ``legend``, `legend_entries`),
    so that the objective space takes the room (`present_watch_layout`).
    """
    _check_common(trace, max_frames, controls, height, heights)
    _check_flag(present, "present")
    show_truth = show_truth and trace.truth_known  # a logged run without its means: nothing drawn as the truth
    inst, task = trace.instance, _task(trace)
    strips = task == "lexicographic" or inst.L == 1
    obj = _check_objectives(objectives, inst.L, strips)
    budget = frame_budget(trace, 3 if len(obj) == 3 and not strips else 2, 1)
    ctx = Context(trace, frame_indices(len(trace.snapshots), max(MIN_FRAMES, min(int(max_frames), budget))), obj,
                  _signs(trace, obj), text=PRESENT_TEXT if present else NORMAL_TEXT)
    whole = ((0, 1), (0, 1))  # every panel's place is set by `watch_layout`
    if strips:
        main: Panel = Strips(ctx, show_truth, first_axis=3)
    elif len(obj) == 3:
        main = Scene(ctx, show_truth, whole)
    else:
        main = Plane(ctx, show_truth, x="x3", y="y3", domain=whole)
    curves = Curves(ctx, task, 1, whole)
    panels = [main, curves, Pulls(ctx, 2, whole)]
    redraw = isinstance(main, Scene)
    curves.x_title = ""  # said by the panel title: a "round t" axis title would collide with the pulls title
    notes = [_panel_title(curves.title, ctx.text), _panel_title("pulls per arm", ctx.text)]
    meta = explain.meta(trace, ctx.idx, ctx.rounds, obj, redraw)
    fig = _assemble(panels, [], _title(trace, task), notes, meta, controls, height, ctx.text)
    subtitle = CONTEXTUAL if trace.snapshot_means is not None else "" if trace.truth_known else UNKNOWN_TRUTH
    if subtitle:
        fig.layout.title.subtitle = {"text": subtitle, "font": {"size": 17, "color": INK}}
    parts = page_parts(fig, subtitle)
    place = present_watch_layout if present else watch_layout
    layouts = layouts_of(fig, lambda h, narrow: place(fig, main, curves, h, narrow),
                         lambda h: stacked_watch_layout(fig, main, curves, h), heights, present)
    if not controls:
        fig.layout.meta = {"bv": {**meta, "layouts": layouts, **parts}}
    return fig


def page_parts(fig: go.Figure, subtitle: str) -> dict:
    """What a page shows where the figure's layout hides its own title and legends (presentation mode, a stacked
    layout on a phone, `layouts_of`): the title, the subtitle and the legends' entries."""
    return {"title": fig.layout.title.text, "subtitle": subtitle, "legend": legend_entries(fig)}


def legend_entries(fig: go.Figure) -> list[dict]:
    """The legends' entries of an animated figure, in order (the main legend's, then the curves'): each one's name and
    look (``mode``, and ``marker`` and ``line`` where set), for a page to draw the legend itself."""
    out = []
    for t in sorted(fig.data, key=lambda t: t.legend == "legend2"):
        if t.showlegend is False:
            continue
        d = t.to_plotly_json()
        out.append({"name": d["name"], "mode": d.get("mode", "markers"),
                    **{k: d[k] for k in ("marker", "line") if k in d}})
    return out


def race(trace_a: Trace, trace_b: Trace, objectives: tuple[int, ...] | None = None, max_frames: int = 300,
         show_truth: bool = True, controls: bool = True, height: int | None = None,
         heights: tuple[int, ...] = (), present: bool = False) -> go.Figure:
    """Two runs on the same instance side by side (A left, B right, one shared view), their curves together.

    Frames are aligned by round: the union of both runs' snapshot rounds (thinned evenly to the frame
    budget), each side showing its latest snapshot at or before the frame's round, so a run that stopped
    holds its last state. Lexicographic runs and L = 1 are drawn in 2-D over their first two objectives
    (interval strips side by side would not fit a screen). ``meta`` as `animate`, its sentences and phases
    prefixed "A: " and "B: ", and its ``layouts`` (`layouts_of` of `race_layout`) as `animate`; ``present`` as
    `animate` (`present_race_layout`).
    """
    _check_flag(present, "present")
    _check_common(trace_a, max_frames, controls, height, heights, "trace_a")
    _check_common(trace_b, max_frames, controls, height, heights, "trace_b")
    inst = trace_a.instance
    if trace_b.instance.to_dict() != inst.to_dict():
        raise ValueError("trace_b: must be a run on the same instance as trace_a")
    if inst.L < 2:
        raise ValueError("trace_a: a race draws objective space, which needs at least 2 objectives")
    obj = _check_objectives(objectives, inst.L, False)
    show_truth = show_truth and trace_a.truth_known and trace_b.truth_known
    three = len(obj) == 3
    rounds, ia, ib = race_frames(trace_a.snapshot_rounds, trace_b.snapshot_rounds,
                                 max(MIN_FRAMES, min(int(max_frames), frame_budget(trace_a, len(obj), 2))))
    signs, text = _signs(trace_a, obj), PRESENT_TEXT if present else NORMAL_TEXT
    ca, cb = (Context(t, i, obj, signs, rounds=rounds, text=text) for t, i in ((trace_a, ia), (trace_b, ib)))
    view = view_of(ca, cb)
    whole = ((0, 1), (0, 1))  # every panel's place is set by `race_layout`
    if three:
        pa: Panel = Scene(ca, show_truth, whole, "scene", view)
        pb: Panel = Scene(cb, show_truth, whole, "scene2", view)
    else:
        pa = Plane(ca, show_truth, "x2", "y2", whole, view)
        pb = Plane(cb, show_truth, "x3", "y3", whole, view)
    cu_a = Curves(ca, _task(trace_a), 1, whole)
    cu_b = Curves(cb, _task(trace_b), 1, whole, dash="dash", marks_round=False)
    # one legend entry per curve name (A solid, B dashed, said by the panel title) when both runs draw the same ones
    if [n for n, _ in cu_a.series] == [n for n, _ in cu_b.series]:
        cu_b.listed = False
    else:
        cu_a.prefix, cu_b.prefix = "A: ", "B: "
    ymin, ymax = min(cu_a.yrange[0], cu_b.yrange[0]), max(cu_a.yrange[1], cu_b.yrange[1])
    for cu in (cu_a, cu_b):
        cu.yrange, cu.xmax, cu.x_title = [ymin, ymax], float(rounds[-1]), ""  # rounds: said by the slider
    name_a, name_b = plain(trace_a.algorithm), plain(trace_b.algorithm)
    notes = [_panel_title(f"A: {name_a}", text), _panel_title(f"B: {name_b}", text),
             _panel_title(f"{cu_a.title}: A solid, B dashed", text)]
    title = (f"{name_a} (A) and {name_b} (B) on {plain(inst.name) or f'{inst.K} arms'}, "
             f"seed {trace_a.seed}" + ("" if trace_b.seed == trace_a.seed else f" and {trace_b.seed}"))
    meta = explain.race_meta(trace_a, trace_b, ia, ib, rounds, obj, three)
    fig = _assemble([pa, cu_a, cu_b], [pb], title, notes, meta, controls, height, text)
    fig.layout.legend2.update(bgcolor="rgba(0,0,0,0)")  # beside the curves, not over them
    if three:  # the curves' panel is small: 16 px tick labels need few ticks
        fig.layout.xaxis1.nticks = fig.layout.yaxis1.nticks = 3
    else:  # B's plane shares A's view and its y axis: no tick labels or title between the planes
        fig.layout.yaxis3.update(showticklabels=False, title_text="")
    parts = page_parts(fig, "")
    if present:
        def place(h: int, narrow: bool) -> dict:
            return present_race_layout(fig, three, cu_a.title, text, h, narrow)
    else:
        def place(h: int, narrow: bool) -> dict:
            return race_layout(fig, three, cu_a.title, h, narrow)
    layouts = layouts_of(fig, place, lambda h: stacked_race_layout(fig, three, cu_a.title, text, h), heights, present)
    if not controls:
        fig.layout.meta = {"bv": {**meta, "layouts": layouts, **parts}}
    return fig


def race_frames(rounds_a: np.ndarray, rounds_b: np.ndarray, max_frames: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Frame rounds of a race (the union of both runs' snapshot rounds, thinned evenly to ``max_frames``) and,
    per frame, each run's latest snapshot index at or before that round (its first one before it starts)."""
    union = np.union1d(rounds_a, rounds_b)
    rounds = union[frame_indices(len(union), max_frames)]
    ia = np.maximum(np.searchsorted(rounds_a, rounds, side="right") - 1, 0)
    ib = np.maximum(np.searchsorted(rounds_b, rounds, side="right") - 1, 0)
    return rounds, ia, ib


def _panel_title(words: str, text: Text) -> dict:
    """A panel's title (placed by the layouts) at ``text.panel`` px."""
    return {"text": words, "x": 0, "y": 1, "xref": "paper", "yref": "paper", "xanchor": "left", "yanchor": "bottom",
            "showarrow": False, "font": {"size": text.panel, "color": INK}}


def _quiet(traces: list[dict]) -> list[dict]:
    """A second panel's traces: out of the legend (the first panel's entries stand for both), same groups."""
    for t in traces:
        t.setdefault("legendgroup", t.get("name", ""))
        t["showlegend"] = False
    return traces


def _assemble(panels: list[Panel], twins: list[Panel], title: str, notes: list[dict], meta: dict,
              controls: bool, height: int | None, text: Text) -> go.Figure:
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
    base = [merge(s, s.pop(START_WITH, d)) for s, d in zip(styles, frames[0]["data"], strict=True)]
    H = height or 860
    left = 20 if isinstance(everything[0], Scene) else 90  # a scene draws its own axes inside its domain
    margin = {"l": left, "r": 30, "t": 0, "b": 150 if controls else 60}  # the top: `layouts_of`
    layout = base_layout(title, height=H, uirevision="keep", hovermode="closest", margin=margin,
                         meta={"bv": meta})
    layout["title"].update(y=0.985, yref="container", yanchor="top")
    layout["title"]["font"]["size"] = text.title
    # the legend hangs below the title in pixels (container coordinates, its y set by `layouts_of`), so that neither
    # the title above nor the panel titles below it overlap it at any height
    layout["legend"].update(yref="container", yanchor="top", x=0.0, traceorder="normal")
    layout["legend"]["font"]["size"] = text.legend
    for font in (layout["font"], layout["hoverlabel"]["font"]):  # any other text (hover labels): no smaller
        font["size"] = max(font["size"], text.tick)
    for p in everything:
        layout.update(p.axes())
    layout["annotations"] = notes + [a for p in everything for a in p.annotations()]
    if controls:
        layout.update(_controls([str(r) for r in meta["rounds"]]))
    return figure_of(statics + base, finish(layout, text), frames)


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


def plane_at(trace: Trace, index: int, view: np.ndarray) -> tuple[list[dict], dict]:
    """Watch's objective plane (`objective_space.Plane`) at snapshot ``index`` of a 2-objective run, as static traces
    and axes over ``view`` (2 x 2 ranges, display orientation): boxes, estimates, fronts and the truth drawn exactly
    as Watch draws that frame, for a still figure (Learn's confidence boxes)."""
    obj = (0, 1)
    ctx = Context(trace, np.array([index % len(trace.snapshots)]), obj, _signs(trace, obj))
    plane = Plane(ctx, True, "x", "y", ((0, 1), (0, 1)), np.asarray(view, dtype=float))
    styles = plane.styles()
    legend = [_legend_entry(s) for s in styles if s.get("showlegend", True)]
    return plane.statics() + legend + [merge(s, d) for s, d in zip(styles, plane.data(0), strict=True)], plane.axes()
