"""Client-side playback of an animated figure: controls, the round's explanation and the per-arm table.

The figure (`banditviz.figures.animate` or `race` with ``controls=False``) carries its frames, named
"0".."n-1", and ``layout.meta["bv"]``: the round of each frame, the explanation sentences and phase of
each frame, the per-arm table of each frame, and the layouts to choose from by the chart's width and height (the
server knows neither). A script (`banditviz/figures/assets/player.js`, styled by `player.css`; the parts' HTML is
`banditviz.figures.player_html`, shared with an exported run) placed with
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
first round and is brought into view. A first visit's run plays by itself unless the visitor's system asks for
reduced motion (``prefers-reduced-motion``): then it waits, at its first round, for play. One keyboard listener
serves every player on the page (space plays or pauses, the arrow keys step, Home restarts, End goes to the last
round), and is ignored while the focus is in a text field. Each player is registered by its key, so a rerun that
runs the script again replaces the player instead of adding a second one.
"""

from __future__ import annotations

import streamlit as st

from banditviz.figures import player_html
from banditviz.figures.player_html import CSS

SCRIPT = f"<script>{player_html.SCRIPT}</script>"


def chart_container(key: str):
    """The container the chart goes in: the player drives every animated chart inside it."""
    return st.container(key=player_html.check_key(key))


def controls(key: str, run_id: str, *, autoplay: bool = False) -> None:
    """The playback bar under the chart of ``chart_container(key)``, and the script that drives it.

    ``run_id`` names what is drawn (a new value restarts the player); ``autoplay`` plays at once.
    """
    st.html(CSS + player_html.bar(key, run_id, autoplay) + SCRIPT, unsafe_allow_javascript=True)


def explanation(key: str) -> None:
    """The panel beside the chart where the player writes the round on screen, its phase and sentences."""
    st.html(CSS + player_html.explanation(key))


def heading(key: str, meta: dict, shown: bool, phone: bool = False) -> None:
    """The figure's title and subtitle, shown by the player where the figure's layout hides its own; ``phone``: the
    copy above the chart where the page's columns stack (`player_html.heading`)."""
    st.html(CSS + player_html.heading(key, meta, shown, phone))


def legend(key: str, meta: dict, shown: bool, phone: bool = False) -> None:
    """The figure's legends drawn by the page, shown as `heading` is; ``phone``: the copy under the playback bar
    (`player_html.legend`)."""
    st.html(CSS + player_html.legend(key, meta, shown, phone))


def table(key: str) -> None:
    """The per-arm table of the round on screen (filled by the player)."""
    st.html(CSS + player_html.table(key))
