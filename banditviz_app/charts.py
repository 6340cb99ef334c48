"""Draw a Plotly figure in a page with the figure's own fonts and colours (never Streamlit's theme).

Streamlit's chart theme overrides a figure's tick and title fonts (12 px light grey) unless the chart
is drawn with ``theme=None``; every page draws its figures through `show` so that the projector-sized
fonts the figure builders set are the ones a class sees.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

CONFIG = {"displaylogo": False}


def show(fig: go.Figure, key: str, config: dict[str, Any] | None = None, **kw: Any) -> Any:
    """``st.plotly_chart`` without Streamlit's theme and without the Plotly logo; ``config`` adds options."""
    return st.plotly_chart(fig, key=key, theme=None, config={**CONFIG, **(config or {})}, **kw)
