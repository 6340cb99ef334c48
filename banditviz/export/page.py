"""One offline HTML file that plays a run as Watch does (`page`, `write_page`).

The page holds everything it needs: plotly.js (from the installed plotly package, no CDN), the figure with its
frames and meta (`figures.animate` or `figures.race` with ``controls=False``, as Watch builds it), Watch's player
(`figures.player_html`: its script and style, the playback bar, the explanation, the per-arm table, the heading and
legend a layout leaves to the page) and how the run ended (`explain.outcome`). It opens from a file, with no server
and no network.

Decisions (ours): the page reproduces the elements the player finds in Watch (the chart inside an element of class
``st-key-bv_watch``, Streamlit's container of that key), so the one script plays both unchanged; its arrangement is
Watch's (chart and bar left, explanation right, table below; one column on a phone, the figure's title above the
chart and its legend below the bar where its layout leaves them to the page) at Watch's chart height
(`playback.WATCH_HEIGHT`, which fits 1366x768), or in presentation mode filling the window. The figure goes into the
page as JSON in a ``<script type="application/json">`` element with ``<``, ``>`` and ``&`` escaped, so no name in it
can end the element; every other user text (the outcome) is HTML-escaped.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from .. import figures
from ..figures import explain, player_html
from ..figures.playback import CHART_CONFIG, PRESENT_HEIGHT, PRESENT_HEIGHTS, WATCH_HEIGHT, WATCH_HEIGHTS
from ..trace import Trace

KEY = "bv_watch"  # the player's key: Watch's own
ASSETS = Path(__file__).with_name("assets")
_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def figure(trace: Trace, rival: Trace | None = None, present: bool = False) -> go.Figure:
    """Watch's figure of a run (or of a race, ``rival`` being B), without Plotly's controls: the page's player drives
    it. ``present``: for a projector, fitted to the window (`figures.animate`)."""
    if rival is not None and not isinstance(rival, Trace):
        raise ValueError(f"rival: must be None or a banditviz Trace, got {type(rival).__name__}")
    _flag(present, "present")
    height, heights = (PRESENT_HEIGHT, PRESENT_HEIGHTS) if present else (WATCH_HEIGHT, WATCH_HEIGHTS)
    if rival is None:
        return figures.animate(trace, controls=False, height=height, heights=heights, present=present)
    return figures.race(trace, rival, controls=False, height=height, heights=heights, present=present)


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: must be True or False, got {value!r}")
    return value


def _figure_json(fig: go.Figure) -> str:
    """The figure as JSON for the page: its size left to its container (the player sizes it), script-safe."""
    spec = json.loads(fig.to_json())
    for k in ("height", "width"):
        spec["layout"].pop(k, None)
    spec["layout"]["autosize"] = True
    return json.dumps(spec, separators=(",", ":")).translate(_ESCAPES)


def page(trace: Trace, rival: Trace | None = None, *, present: bool = False, autoplay: bool = True,
         recording: bool = False) -> str:
    """The run as one HTML document that plays offline exactly as Watch does (keys, speeds, explanation, table).

    ``rival``: a second run on the same instance, raced against ``trace`` (`figures.race`). ``present``: presentation
    mode (texts for a projector, the chart filling the window). ``autoplay``: plays when opened (unless the viewer's
    system asks for reduced motion: the player then waits for play). ``recording``: for making a video
    (`video.write_video`): the playback bar keeps the round and the slider, without its buttons.
    """
    present, autoplay, recording = (_flag(v, n) for v, n in ((present, "present"), (autoplay, "autoplay"),
                                                              (recording, "recording")))
    fig = figure(trace, rival, present)
    return document(fig, [explain.outcome(t) for t in (trace, rival) if t is not None], present, autoplay, recording)


def document(fig: go.Figure, outcomes: list[str], present: bool, autoplay: bool, recording: bool) -> str:
    """The page of a figure built by `figure` (``present`` as it was built with), with ``outcomes`` (plain text)
    below the explanation."""
    meta = fig.layout.meta["bv"]
    said = "".join(f"<p class='bv-outcome'>{html.escape(o)}</p>" for o in outcomes)
    height = PRESENT_HEIGHT if present else WATCH_HEIGHT
    config = html.escape(json.dumps(CHART_CONFIG), quote=True)
    title = html.unescape(meta["title"])  # the figure's title has its names escaped for Plotly
    return (
        "<!doctype html><html lang='en'" + (" data-bv-present" if present else "")
        + (" data-bv-recording" if recording else "") + "><head>"
        f"<meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title>"
        f"<style>{player_html.STYLE}{(ASSETS / 'page.css').read_text()}</style></head><body>"
        f"<main class='bv-page'><div class='bv-left'>{player_html.heading(KEY, meta, present, phone=True)}"
        f"<div class='st-key-{KEY}' style='height:{height}px'><div id='bv-chart' data-config='{config}'></div></div>"
        f"{player_html.bar(KEY, json.dumps([title, present]), autoplay)}"
        f"{player_html.legend(KEY, meta, present, phone=True)}</div>"
        f"<div class='bv-right'>{player_html.heading(KEY, meta, present)}{player_html.explanation(KEY)}"
        f"{player_html.legend(KEY, meta, present)}{said}</div>"
        f"<section class='bv-below'><h2>The arms at the round on screen</h2>{player_html.table(KEY)}</section>"
        "</main>"
        f"<script>{get_plotlyjs()}</script>"
        f"<script type='application/json' id='bv-figure'>{_figure_json(fig)}</script>"
        f"<script>{(ASSETS / 'page.js').read_text()}</script>"
        f"<script>{player_html.SCRIPT}</script>"
        "</body></html>"
    )


def write_page(path: str | Path, trace: Trace, rival: Trace | None = None, *, present: bool = False,
               autoplay: bool = True) -> Path:
    """`page` written to ``path`` (UTF-8); returns the path."""
    path = Path(path)
    path.write_text(page(trace, rival, present=present, autoplay=autoplay), encoding="utf-8")
    return path
