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
    at = AppTest.from_function(_chart_app, default_timeout=30).run()  # the first run imports plotly
    (chart,) = at.get("plotly_chart")
    assert chart.proto.theme == ""  # theme=None; Streamlit's theme would be "streamlit"
    # no Plotly logo; WebGL at the screen's resolution (3-D playback ~2x faster than at the device pixel ratio)
    assert json.loads(chart.proto.config) == {"displaylogo": False, "plotGlPixelRatio": 1, "scrollZoom": True}



def _sent_app(prepared: bool) -> None:
    """Draws the default Watch figure with ``st.plotly_chart`` or with `charts.show_prepared`, and keeps the element
    message it sent (whole: the chart and its layout) in ``st.session_state["sent"]``."""
    import streamlit as st
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    import banditviz
    from banditviz import figures
    from banditviz_app import charts

    ctx = get_script_run_ctx()
    send, sent = ctx.enqueue, []
    ctx.enqueue = lambda msg: (sent.append(msg), send(msg))[1]
    fig = figures.animate(banditviz.run(banditviz.preset("default"), "pareto_ucb1", 300, 0, snapshots=40),
                          controls=False)
    with st.empty():
        if prepared:
            charts.show_prepared(charts.prepare(fig), key="watch_figure")
        else:
            st.plotly_chart(fig, key="watch_figure", theme=None, config=charts.CONFIG, height="stretch")
    ctx.enqueue = send
    (element,) = [m.delta.new_element for m in sent if m.delta.new_element.WhichOneof("type") == "plotly_chart"]
    st.session_state["sent"] = element.SerializeToString(deterministic=True)


def _sent(prepared: bool) -> bytes:
    at = AppTest.from_function(_sent_app, args=(prepared,), default_timeout=180).run()
    assert not at.exception
    return at.session_state["sent"]


def test_a_prepared_figure_is_sent_as_st_plotly_chart_sends_it():
    """The same element byte for byte (spec, config, theme, element id, width and height) as ``st.plotly_chart``."""
    from streamlit.proto.Element_pb2 import Element

    direct, prepared = _sent(False), _sent(True)
    element = Element.FromString(direct)
    assert element.plotly_chart.id and len(element.plotly_chart.spec) > 10_000 and element.height_config.use_stretch
    assert prepared == direct
