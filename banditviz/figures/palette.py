"""One colour per arm status and per overlay, used by every figure (Okabe-Ito, colour-blind safe).

Okabe & Ito, "Color Universal Design" (2008): the eight colours stay distinguishable under the
common colour-vision deficiencies; grey (rejected) and dark grey (truth) are added as neutral tones.
Fonts are sized for a projector: tick labels 16 px, axis titles 18 px and more, dark ink on
white (contrast >= 4.5, WCAG 2.1 §1.4.3), set on every axis by `finish` so that no theme decides them.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

STATUS_COLORS: dict[str, str] = {
    "active": "#0072B2",     # blue: undecided, still in play
    "accepted": "#009E73",   # bluish green: decided to be in the front
    "rejected": "#9A9A9A",   # grey: decided to be out
    "candidate": "#E69F00",  # orange: on the current estimated front
    "pulled": "#D55E00",     # vermillion: the arm pulled at this round
    "true": "#3A3A3A",       # dark grey: the truth, unknown to the learner
    "front": "#CC79A7",      # reddish purple: (estimated) Pareto front
    "hull": "#56B4E9",       # sky blue: effective front, the convex hull
}

STATUS_LABELS: dict[str, str] = {
    "active": "active arm (undecided)",
    "accepted": "accepted arm",
    "rejected": "rejected arm",
    "candidate": "candidate (on estimated front)",
}

# Curves of several algorithms: the Okabe-Ito order, then repeated with a dash pattern.
SERIES_COLORS: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
                                  "#000000", "#F0E442")

FONT_SIZE = 18
TITLE_SIZE = 24
TICK_SIZE = 16
AXIS_TITLE_SIZE = 18
FONT_FAMILY = "Arial, Helvetica, sans-serif"


@dataclass(frozen=True)
class Text:
    """Font sizes (px) of an animated figure's texts: tick labels, axis titles, panel titles, legends, arm labels (2-D
    and 3-D), notes in a plane and the figure's title."""

    tick: int = TICK_SIZE
    axis_title: int = AXIS_TITLE_SIZE
    panel: int = 18
    legend: int = 16
    label: int = 15
    label_3d: int = 18
    note: int = 16
    title: int = TITLE_SIZE


NORMAL_TEXT = Text()
# Presentation mode (a projector): every text at least 22 px, read from the back of a room (our decision, issue 24).
PRESENT_TEXT = Text(tick=22, axis_title=24, panel=24, legend=22, label=22, label_3d=22, note=22, title=26)
INK = "#222222"  # every text: 15.9:1 on white
GRID = "#D9D9D9"
_AXIS_KEY = re.compile(r"^[xy]axis\d*$")
_SCENE_KEY = re.compile(r"^scene\d*$")


# Longest line of a figure title (24 px), of its subtitle lines (<sup>, 17 px) and of a 16 px note that fits a
# figure in half the page at 1366x768 (~480 px; ~0.55 em a character on average)
TITLE_CHARS = 34
SUBTITLE_CHARS = 48
NOTE_CHARS = 52


def wrap(text: str, width: int) -> str:
    """``text`` broken with ``<br>`` between words into lines of at most ``width`` characters (a longer word alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def titled(main: str, sub: str) -> str:
    """A figure title: ``main`` on the first line, ``sub`` below it in smaller type, wrapped to fit a narrow figure."""
    return main + "".join(f"<br><sup>{line}</sup>" for line in wrap(sub, SUBTITLE_CHARS).split("<br>"))


def rgba(color: str, alpha: float) -> str:
    """``#RRGGBB`` as an ``rgba(...)`` string with opacity ``alpha``."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


def series_color(i: int) -> str:
    return SERIES_COLORS[i % len(SERIES_COLORS)]


def base_layout(title: str, **extra: Any) -> dict[str, Any]:
    """Layout shared by every figure: white template, large fonts, legend below the plot.

    The template is Plotly's own object, not its dict: a validating ``update_layout`` copies the object in ~30 ms
    and walked the dict for 0.4-0.9 s (13 of the Papers page's ~30 s first visit). A figure built without
    validation converts it to its dict (`frames.figure_of`)."""
    layout: dict[str, Any] = {
        "template": pio.templates["plotly_white"],
        "title": {"text": title, "font": {"size": TITLE_SIZE, "color": INK}, "x": 0.01, "xanchor": "left"},
        "font": {"size": FONT_SIZE, "family": FONT_FAMILY, "color": INK},
        "paper_bgcolor": "#FFFFFF", "plot_bgcolor": "#FFFFFF",
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0.0, "font": {"size": 16, "color": INK},
                   "itemsizing": "constant"},
        "hoverlabel": {"font": {"size": 16}},
        "margin": {"l": 80, "r": 30, "t": 80, "b": 110},
    }
    layout.update(extra)
    return layout


def _legible_axis(axis: dict[str, Any], text: Text) -> None:
    axis.setdefault("tickfont", {}).update(size=max(text.tick, axis.get("tickfont", {}).get("size") or 0), color=INK)
    title = axis.setdefault("title", {})
    title.setdefault("font", {}).update(size=max(text.axis_title, title.get("font", {}).get("size") or 0), color=INK)
    axis.setdefault("linecolor", "#444444")
    axis.setdefault("gridcolor", GRID)


def finish(layout: dict[str, Any], text: Text = NORMAL_TEXT) -> dict[str, Any]:
    """Every axis of ``layout`` (2-D and each 3-D scene's) given fonts of at least ``text``'s sizes in dark ink;
    returns it."""
    for key, value in list(layout.items()):
        if _AXIS_KEY.match(key):
            _legible_axis(value, text)
            # Plotly's default ("hide past div") measures the labels again after placing each one: 7-20% of a
            # 3-D frame's redraw in a browser profile. The margins keep the labels inside the figure.
            value.setdefault("ticklabeloverflow", "allow")
        elif _SCENE_KEY.match(key):
            for a in "xyz":
                _legible_axis(value.setdefault(f"{a}axis", {}), text)
    return layout


def _raise_fonts(node: Any, least: int) -> None:
    """Every font size in a figure's dict (any ``font``, ``tickfont``, ``textfont``, ... with a size) at least
    ``least``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and isinstance(value.get("size"), (int, float)):
                value["size"] = max(value["size"], least)
            _raise_fonts(value, least)
    elif isinstance(node, list):
        for value in node:
            _raise_fonts(value, least)


def for_projector(fig: Any, least: int = PRESENT_TEXT.tick) -> Any:
    """A copy of a static figure (not an animated one: `animate` lays itself out for a projector, ``present=True``)
    whose every text is at least ``least`` px, its axes' margins grown to hold the larger labels (presentation
    mode)."""
    d = fig.to_dict()
    layout = d.setdefault("layout", {})
    layout.setdefault("font", {})["size"] = max(layout.get("font", {}).get("size") or 0, least)
    _raise_fonts(d, least)
    for key, axis in layout.items():
        if _AXIS_KEY.match(key):
            axis["automargin"] = True
    return go.Figure(d)


def legible(fig: Any) -> Any:
    """``fig`` (a `go.Figure` built with its own axes, e.g. by `make_subplots`) given `finish`'s fonts and
    `log_ticks`; returns it."""
    layout = fig.layout.to_plotly_json()
    fig.update_layout(finish({k: v for k, v in layout.items() if _AXIS_KEY.match(k) or _SCENE_KEY.match(k)}))
    fig.update_layout(log_ticks(fig))
    return fig


def log_ticks(fig: Any) -> dict:
    """Tick steps for ``fig``'s log axes, so that every label is drawn at the tick font's size: Plotly labels the 2s
    and 5s (or every digit) between powers of ten of a short log axis at three quarters of it (12 px for 16). A
    data span of a decade or more: powers of ten only; less: a linear step of 1, 2 or 5 times a power of ten, about
    four labels."""
    out = {}
    for name, axis in fig.layout.to_plotly_json().items():
        if not (_AXIS_KEY.match(name) and axis.get("type") == "log") or "dtick" in axis:
            continue
        letter, ref = name[0], name[0] + name[5:]  # "xaxis2" -> "x2"
        values = np.concatenate([np.ravel(np.asarray(getattr(t, letter), dtype=float)) for t in fig.data
                                 if (getattr(t, f"{letter}axis", None) or letter) == ref
                                 and getattr(t, letter, None) is not None] or [np.empty(0)])
        values = values[np.isfinite(values) & (values > 0)]
        if values.size == 0:
            continue
        low, high = float(values.min()), float(values.max())
        if high >= 10 * low:
            out[name] = {"dtick": 1}
            continue
        out[name] = {"dtick": "L" + format(nice_step((high - low) / 4 or high), "g"), "tick0": 0}
    return out


def nice_step(raw: float) -> float:
    """The smallest step of 1, 2 or 5 times a power of ten that is at least ``raw`` (> 0)."""
    power = 10.0 ** np.floor(np.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw * (1 - 1e-9)))


def _luminance(color: str) -> float:
    """Relative luminance of ``#RRGGBB`` (WCAG 2.1 definition)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(int(color[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG 2.1 contrast ratio of two ``#RRGGBB`` colours, from 1 (same) to 21 (black on white)."""
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def plain(text: str) -> str:
    """User text (arm, objective and instance names) escaped, so that Plotly shows it as text, never as HTML."""
    return html.escape(text, quote=False)


def axis_label(instance: Any, obj: int) -> str:
    """Axis title of objective ``obj``: its (escaped) name, marked "(minimised)" when it is minimised."""
    name = plain(instance.objective_names[obj])
    return f"{name} (minimised)" if instance.directions[obj] == "min" else name
