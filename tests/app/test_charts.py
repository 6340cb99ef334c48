"""Every page draws its figures through `charts.show`: Streamlit's theme never overrides a figure's fonts."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def test_no_page_calls_plotly_chart_directly():
    sources = [*ROOT.glob("banditviz_app/pages/*.py"), ROOT / "app.py", *ROOT.glob("banditviz_app/*.py")]
    direct = [p.name for p in sources if "plotly_chart(" in p.read_text() and p.name != "charts.py"]
    assert direct == []


def _chart_app() -> None:
    import plotly.graph_objects as go

    from banditviz_app import charts

    charts.show(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])), key="one", config={"scrollZoom": True})


def test_show_draws_without_streamlit_theme_and_logo():
    at = AppTest.from_function(_chart_app).run()
    (chart,) = at.get("plotly_chart")
    assert chart.proto.theme == ""  # theme=None; Streamlit's theme would be "streamlit"
    # no Plotly logo; WebGL at the screen's resolution (3-D playback ~2x faster than at the device pixel ratio)
    assert json.loads(chart.proto.config) == {"displaylogo": False, "plotGlPixelRatio": 1, "scrollZoom": True}
