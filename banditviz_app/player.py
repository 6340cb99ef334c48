"""Client-side playback of an animated figure: controls, the round's explanation and the per-arm table.

The figure (`banditviz.figures.animate` or `race` with ``controls=False``) carries its frames, named
"0".."n-1", and ``layout.meta["bv"]``: the round of each frame, the explanation sentences and phase of
each frame, the per-arm table of each frame, and the layouts to choose from by the chart's width and height (the
server knows neither). A script (`player.js`, styled by `player.css`) placed with
``st.html(..., unsafe_allow_javascript=True)`` (it runs in the page itself) draws each frame whole with
``Plotly.react`` (Plotly's full drawing path: ``Plotly.animate``'s fast path leaves a bar's colours and an emptied
trace's marks as they were) and fills the explanation and the table for the frame on screen: play, pause, step,
restart, speed, slider and keyboard never wait for the server.

The script is a fixed text with no user data in it; arm and objective names reach the page only through
the figure's meta and are written with ``textContent``, never parsed as HTML.

Decisions: the chart is found again on every step (Streamlit may replace its element); a `MutationObserver`
notices a replaced chart, one Streamlit drew again (its traces back at frame 0), or an explanation or table a
rerun replaced, and draws the frame on screen into it. A rerun of the page keeps the round on screen, playing or
paused and the speed (`window.__bv.memory`, per player, while the run is the same); a new run starts from its
first round and is brought into view. One keyboard listener serves every player on the page (space plays or
pauses, the arrow keys step, Home restarts, End goes to the last round), and is ignored while the focus is in a
text field. Each player is registered by its key, so a rerun that runs the script again replaces the player
instead of adding a second one.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import streamlit as st

from banditviz.figures.playback import DEFAULT_SPEED, SPEEDS

from .legend import legend_html

TICKS = 7  # round labels under the slider

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")

ASSETS = Path(__file__).parent
CSS = "<style>" + (ASSETS / "player.css").read_text() + "</style>"
SCRIPT = "<script>" + (ASSETS / "player.js").read_text() + "</script>"


def _check_key(key: str) -> str:
    if not _KEY.match(key):
        raise ValueError(f"key: must be lower-case letters, digits and underscores, got {key!r}")
    return key


def chart_container(key: str):
    """The container the chart goes in: the player drives every animated chart inside it."""
    return st.container(key=_check_key(key))


def controls(key: str, run_id: str, *, autoplay: bool = False) -> None:
    """The playback bar under the chart of ``chart_container(key)``, and the script that drives it.

    ``run_id`` names what is drawn (a new value restarts the player); ``autoplay`` plays at once.
    """
    speeds = "{" + ",".join(f'"{name}":{ms}' for name, ms in SPEEDS) + "}"
    options = "".join(f'<option value="{name}"{" selected" if name == DEFAULT_SPEED else ""}>speed: {name}</option>'
                      for name, _ in SPEEDS)
    run = hashlib.sha1(run_id.encode()).hexdigest()[:12]
    body = (
        f"{CSS}<div class='bv-bar' data-bv-player='{_check_key(key)}' data-run='{run}' data-ticks='{TICKS}' "
        f"data-autoplay='{int(autoplay)}' data-speed='{DEFAULT_SPEED}' data-speeds='{speeds}'>"
        "<button data-bv='restart' title='Restart (Home)' aria-label='restart'>&#x21BA; restart</button>"
        "<button data-bv='back' title='One frame back (left arrow)' aria-label='one frame back'>&#x25C0; step</button>"
        "<button data-bv='play' title='Play or pause (space)' aria-label='play or pause'>&#x25B6; play</button>"
        "<button data-bv='fwd' title='One frame forward (right arrow)' aria-label='one frame forward'>step &#x25B6;"
        "</button>"
        f"<select aria-label='speed'>{options}</select><span class='bv-round'></span>"
        "<div class='bv-slider'><input type='range' min='0' max='0' step='1' value='0' "
        "aria-label='frame'><div class='bv-ticks'></div></div></div>"
    )
    st.html(body + SCRIPT, unsafe_allow_javascript=True)


def explanation(key: str) -> None:
    """The panel beside the chart where the player writes the round on screen, its phase and sentences."""
    st.html(f"{CSS}<div class='bv-explain' data-bv-for='{_check_key(key)}'><div class='bv-at'></div>"
            "<div class='bv-phase'></div><ul></ul></div>")


def heading(key: str, meta: dict, shown: bool, phone: bool = False) -> None:
    """The figure's title and subtitle (``meta``: `animate.page_parts`), which the player shows where the figure's
    layout hides its own (presentation mode, a phone); ``shown``: at once. Names in the title are escaped. ``phone``:
    the copy above the chart, drawn instead of the one beside it where the page's columns stack (a phone)."""
    sub = f"<div class='bv-subheading'>{meta['subtitle']}</div>" if meta.get("subtitle") else ""
    _part(key, "heading", f"<div class='bv-heading'>{meta['title']}</div>{sub}", shown, phone)


def legend(key: str, meta: dict, shown: bool, phone: bool = False) -> None:
    """The figure's legends drawn by the page (`legend.legend_html`), shown as `heading` is (``phone``: the copy under
    the playback bar)."""
    _part(key, "legend", legend_html(meta["legend"]), shown, phone)


def _part(key: str, part: str, html: str, shown: bool, phone: bool) -> None:
    st.html(f"{CSS}<div data-bv-part='{part}' data-bv-for='{_check_key(key)}' class='bv-{'phone' if phone else 'side'}'"
            f"{'' if shown else ' hidden'}>{html}</div>")


def table(key: str) -> None:
    """The per-arm table of the round on screen (filled by the player)."""
    st.html(f"{CSS}<div class='bv-table' data-bv-for='{_check_key(key)}'><div class='bv-table-body'></div></div>")
