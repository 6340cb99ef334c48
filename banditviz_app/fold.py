"""Presentation mode's fit: a page's main figure fills the screen below what is above it, so that a class sees
the whole figure without scrolling (issue "The picture never lies": Learn and Design above the fold).

`box(name)` is the container the figure goes in; in presentation mode the page's style (`fold.css`) gives it the
screen's height minus what is above it, and `show` draws the chart stretched to that height. Outside presentation
mode the figure keeps its own height.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from . import charts, state

CSS = Path(__file__).with_name("fold.css")
NAMES = ("learn", "learn_second", "design")  # the boxes fold.css sizes
BESIDE = 6  # a presented legend of more entries goes beside the plot


def style() -> None:
    """The fit's style, once per page run in presentation mode (nothing otherwise)."""
    if state.presenting():
        st.markdown(f"<style>{CSS.read_text()}</style>", unsafe_allow_html=True)  # markdown: applied with the page


def box(name: str) -> Any:
    """The container of a page's main figure (``name`` one of `NAMES`)."""
    if name not in NAMES:
        raise ValueError(f"name: must be one of {NAMES}, got {name!r}")
    return st.container(key=f"bv_fold_{name}")


def show(fig: go.Figure, key: str) -> Any:
    """`charts.show`, stretched to its `box` in presentation mode, at the figure's own height otherwise.

    Stretched, the figure's height is the screen's, not the one its legend was placed for (a fraction of the plot
    below it, under the projector's larger axis titles): the legend is anchored to the figure's bottom edge instead,
    and the plot gives it room. A legend of more than `BESIDE` entries (Learn step 3's ten, in rows of two: at
    1366x768 it left the plot 88 px of a 486 px figure) goes in one column beside the plot, each name on one line,
    and takes width instead."""
    if not state.presenting():
        return charts.show(fig, key=key, height="content")
    fig = go.Figure(fig)
    entries = [t for t in fig.data if t.showlegend is not False and t.name]
    if len(entries) > BESIDE:
        for t in entries:
            t.name = t.name.replace("<br>", " ")
        fig.update_layout(legend={"orientation": "v", "x": 1.02, "xanchor": "left", "y": 1, "yanchor": "top",
                                  "entrywidth": None, "entrywidthmode": None})
    else:
        fig.update_layout(legend={"yref": "container", "y": 0, "yanchor": "bottom"})
    return charts.show(fig, key=key, height="stretch")
