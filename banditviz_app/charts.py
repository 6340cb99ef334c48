"""Draw a Plotly figure in a page with the figure's own fonts and colours (never Streamlit's theme).

Streamlit's chart theme overrides a figure's tick and title fonts (12 px light grey) unless the chart
is drawn with ``theme=None``; every page draws its figures through `show` so that the projector-sized
fonts the figure builders set are the ones a class sees.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from banditviz.figures.palette import for_projector
from banditviz.figures.playback import CHART_CONFIG

from . import state

CONFIG = CHART_CONFIG  # no Plotly logo, WebGL at the screen's own resolution (`playback.CHART_CONFIG`)
NARROW_SCRIPT = ("<style>[data-testid=stElementContainer]:has([data-bv-narrow]){display:none}</style>"
                 "<div data-bv-narrow></div><script>" + (Path(__file__).with_name("narrow.js")).read_text()
                 + "</script>")


def fit_narrow_screens() -> None:
    """Install, once per page, the script that puts a static figure's title, panel titles and legend entries on more
    lines where the chart is too narrow for them (a phone: `narrow.js`), in an element that takes no room (a hidden
    container would: Streamlit wraps it in a block that keeps its gap). It holds no user data."""
    st.html(NARROW_SCRIPT, unsafe_allow_javascript=True)


def show(fig: go.Figure, key: str, config: dict[str, Any] | None = None, **kw: Any) -> Any:
    """``st.plotly_chart`` without Streamlit's theme, without the Plotly logo and with WebGL at the screen's own
    resolution (`CONFIG`); ``config`` adds options. In presentation mode a static figure's texts are enlarged for a
    projector (`palette.for_projector`); an animated one is built for it (``present=True``)."""
    if state.presenting() and not (fig.layout.meta and "bv" in fig.layout.meta):
        fig = for_projector(fig)
    return st.plotly_chart(fig, key=key, theme=None, config={**CONFIG, **(config or {})}, **kw)
