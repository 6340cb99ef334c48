"""The Watch player's page parts as HTML: its script and style, the playback bar, the explanation, the per-arm
table, and the heading and legend a layout may leave to the page.

One source for the two pages that play an animated figure (`animate` or `race` with ``controls=False``): Watch
(`banditviz_app.player` places each part with ``st.html``) and an exported run (`banditviz.export.page`, one
offline file). The script (`assets/player.js`, styled by `assets/player.css`) finds its parts by their player key:
the bar by ``[data-bv-player=key]``, the panels by ``[data-bv-for=key]`` and the chart inside the element of class
``st-key-<key>`` (the container Streamlit draws for ``st.container(key=...)``, which an exported page reproduces).

Every part is a fixed text but for the key (checked: lower-case letters, digits, underscores), a hash of the run and
the figure's title and legend (`heading`, `legend`), whose user names are escaped by the figure builders.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .page_legend import legend_html
from .playback import DEFAULT_SPEED, SPEEDS

TICKS = 7  # round labels under the slider

ASSETS = Path(__file__).with_name("assets")
STYLE = (ASSETS / "player.css").read_text()
SCRIPT = (ASSETS / "player.js").read_text()
CSS = f"<style>{STYLE}</style>"

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def check_key(key: str) -> str:
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"key: must be lower-case letters, digits and underscores, got {key!r}")
    return key


def run_hash(run_id: str) -> str:
    """A short name of what is drawn: the player starts again from the first round when it changes."""
    return hashlib.sha1(run_id.encode()).hexdigest()[:12]


def bar(key: str, run_id: str, autoplay: bool) -> str:
    """The playback bar: restart, step back, play/pause, step forward, the speed menu (`playback.SPEEDS`), the round
    on screen and a slider with round labels. ``run_id`` names what is drawn; ``autoplay`` plays at once."""
    speeds = "{" + ",".join(f'"{name}":{ms}' for name, ms in SPEEDS) + "}"
    options = "".join(f'<option value="{name}"{" selected" if name == DEFAULT_SPEED else ""}>speed: {name}</option>'
                      for name, _ in SPEEDS)
    return (
        f"<div class='bv-bar' data-bv-player='{check_key(key)}' data-run='{run_hash(run_id)}' data-ticks='{TICKS}' "
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


def explanation(key: str) -> str:
    """The panel where the player writes the round on screen, its phase and sentences."""
    return (f"<div class='bv-explain' data-bv-for='{check_key(key)}'><div class='bv-at'></div>"
            "<div class='bv-phase'></div><ul></ul></div>")


def heading(key: str, meta: dict, shown: bool, phone: bool = False) -> str:
    """The figure's title and subtitle (``meta``: `animate.page_parts`), which the player shows where the figure's
    layout hides its own (presentation mode, a phone); ``shown``: at once. Names in the title are escaped. ``phone``:
    the copy above the chart, drawn instead of the one beside it where the page's columns stack (a phone)."""
    sub = f"<div class='bv-subheading'>{meta['subtitle']}</div>" if meta.get("subtitle") else ""
    return _part(key, "heading", f"<div class='bv-heading'>{meta['title']}</div>{sub}", shown, phone)


def legend(key: str, meta: dict, shown: bool, phone: bool = False) -> str:
    """The figure's legends drawn by the page (`page_legend.legend_html`), shown as `heading` is (``phone``: the copy
    under the playback bar)."""
    return _part(key, "legend", legend_html(meta["legend"]), shown, phone)


def _part(key: str, part: str, html: str, shown: bool, phone: bool) -> str:
    return (f"<div data-bv-part='{part}' data-bv-for='{check_key(key)}' class='bv-{'phone' if phone else 'side'}'"
            f"{'' if shown else ' hidden'}>{html}</div>")


def table(key: str) -> str:
    """The per-arm table of the round on screen (filled by the player)."""
    return f"<div class='bv-table' data-bv-for='{check_key(key)}'><div class='bv-table-body'></div></div>"
