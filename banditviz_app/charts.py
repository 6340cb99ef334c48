"""Draw a Plotly figure in a page with the figure's own fonts and colours (never Streamlit's theme).

Streamlit's chart theme overrides a figure's tick and title fonts (12 px light grey) unless the chart
is drawn with ``theme=None``; every page draws its figures through `show` so that the projector-sized
fonts the figure builders set are the ones a class sees.

A figure shown in many sessions (Watch's) is serialised once (`prepare`) and sent as that text (`show_prepared`):
``st.plotly_chart`` copies and serialises its figure on every call, about 0.1 s of the server's CPU for Watch's 200
frames, for every visitor. Decision: Streamlit has no public call that takes a figure already serialised, so
`show_prepared` builds the element ``st.plotly_chart`` would send (the same fields, its element id computed the same
way: `tests/app/test_charts.py` compares the two) and hands it to the page as Streamlit's own elements do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io
import streamlit as st
from streamlit.delta_generator_singletons import get_dg_singleton_instance
from streamlit.elements.lib.layout_utils import LayoutConfig
from streamlit.elements.lib.utils import compute_and_register_element_id
from streamlit.proto.PlotlyChart_pb2 import PlotlyChart

from banditviz.figures.palette import for_projector
from banditviz.figures.playback import CHART_CONFIG

from . import state

CONFIG = CHART_CONFIG  # no Plotly logo, WebGL at the screen's own resolution (`playback.CHART_CONFIG`)
SELECTION_MODE = ("points", "box", "lasso")  # st.plotly_chart's default, part of its element id
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


@dataclass(frozen=True)
class Prepared:
    """A figure serialised for the browser once: its JSON (``spec``, as ``st.plotly_chart`` writes it) and the
    player's page parts of an animated figure (``layout.meta["bv"]`` without its frames: title, subtitle, legend)."""

    spec: str
    parts: dict[str, Any]

    @property
    def nbytes(self) -> int:
        return len(self.spec)  # ASCII: the JSON encoder escapes every other character


PARTS = ("title", "subtitle", "legend")


def prepare(fig: go.Figure) -> Prepared:
    """``fig`` serialised as ``st.plotly_chart`` serialises it (its dict, then Plotly's JSON)."""
    meta = (fig.layout.meta or {}).get("bv", {})
    return Prepared(plotly.io.to_json(fig.to_dict(), validate=False), {k: meta[k] for k in PARTS if k in meta})


def show_prepared(chart: Prepared, key: str, height: int | str = "stretch") -> None:
    """``show`` of a `Prepared` figure, with nothing serialised again: the element ``st.plotly_chart(fig, key=key,
    theme=None, config=CONFIG, height=height)`` sends, placed where the next element goes (inside ``with``
    blocks, an ``st.empty``'s place)."""
    main = get_dg_singleton_instance().main_dg
    config = json.dumps(CONFIG)
    proto = PlotlyChart(spec=chart.spec, config=config, theme="")
    proto.id = compute_and_register_element_id(
        "plotly_chart", user_key=key, key_as_main_identity=False, dg=main, plotly_spec=chart.spec,
        plotly_config=config, selection_mode=SELECTION_MODE, is_selection_activated=False, theme=None,
        width="stretch", height=height, alt=None)
    main._enqueue("plotly_chart", proto, layout_config=LayoutConfig(width="stretch", height=height))
