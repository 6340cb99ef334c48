"""One colour per arm status and per overlay, used by every figure (Okabe-Ito, colour-blind safe).

Okabe & Ito, "Color Universal Design" (2008): the eight colours stay distinguishable under the
common colour-vision deficiencies; grey (rejected) and dark grey (truth) are added as neutral tones.
Fonts are sized for a projector: 18 px body, 24 px titles.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

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
    "candidate": "candidate arm (on the estimated front)",
}

# Curves of several algorithms: the Okabe-Ito order, then repeated with a dash pattern.
SERIES_COLORS: tuple[str, ...] = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9",
                                  "#000000", "#F0E442")

FONT_SIZE = 18
TITLE_SIZE = 24
FONT_FAMILY = "Arial, Helvetica, sans-serif"


def rgba(color: str, alpha: float) -> str:
    """``#RRGGBB`` as an ``rgba(...)`` string with opacity ``alpha``."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


def series_color(i: int) -> str:
    return SERIES_COLORS[i % len(SERIES_COLORS)]


@lru_cache(maxsize=1)
def _template() -> dict[str, Any]:
    """The plotly_white template as a dict (a figure built without validation does not resolve names)."""
    return pio.templates["plotly_white"].to_plotly_json()


def base_layout(title: str, **extra: Any) -> dict[str, Any]:
    """Layout shared by every figure: white template, large fonts, legend below the plot."""
    layout: dict[str, Any] = {
        "template": _template(),
        "title": {"text": title, "font": {"size": TITLE_SIZE}, "x": 0.01, "xanchor": "left"},
        "font": {"size": FONT_SIZE, "family": FONT_FAMILY, "color": "#222222"},
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0.0, "font": {"size": 16},
                   "itemsizing": "constant"},
        "hoverlabel": {"font": {"size": 16}},
        "margin": {"l": 80, "r": 30, "t": 80, "b": 110},
    }
    layout.update(extra)
    return layout


def plain(text: str) -> str:
    """User text (arm, objective and instance names) escaped, so that Plotly shows it as text, never as HTML."""
    return html.escape(text, quote=False)


def axis_label(instance: Any, obj: int) -> str:
    """Axis title of objective ``obj``: its (escaped) name, marked "(minimised)" when it is minimised."""
    name = plain(instance.objective_names[obj])
    return f"{name} (minimised)" if instance.directions[obj] == "min" else name
