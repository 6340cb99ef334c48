"""A figure's legend drawn by the page (presentation mode: the animated figure leaves its legend to the page, so that
its panels take the room): each entry a small SVG of the trace's look and its name.

The entries come from `banditviz.figures.animate.legend_entries` (names are the figure's own labels; arm and
objective names never appear in them); every name is escaped, and only Plotly's ``<sub>`` markup is kept.
"""

from __future__ import annotations

import base64
import html
import math

SWATCH_W, SWATCH_H = 44, 26  # px: an entry's picture
_DASHES = {"dash": "7 5", "dot": "2 4", "dashdot": "7 4 2 4"}


def _shape(symbol: str, r: float) -> str:
    """An SVG path of a Plotly marker symbol (the ones the animated figure uses) of radius ``r`` around (0, 0)."""
    base = symbol.removesuffix("-open").removesuffix("-thin")
    if base == "square":
        return f"M{-r},{-r}H{r}V{r}H{-r}Z"
    if base == "diamond":
        return f"M0,{-r * 1.3}L{r * 1.3},0L0,{r * 1.3}L{-r * 1.3},0Z"
    if base == "triangle-up":
        return f"M0,{-r * 1.2}L{r * 1.1},{r * 0.8}L{-r * 1.1},{r * 0.8}Z"
    if base in ("x", "cross"):
        a = r if base == "cross" else r * math.sqrt(0.5)
        return (f"M{-r},0H{r}M0,{-r}V{r}" if base == "cross" else f"M{-a},{-a}L{a},{a}M{a},{-a}L{-a},{a}")
    if base == "line-ew":
        return f"M{-r * 1.4},0H{r * 1.4}"
    if base == "arrow":
        return f"M{-r * 1.2},0H{r * 0.6}M{r * 0.1},{-r * 0.7}L{r * 1.1},0L{r * 0.1},{r * 0.7}"
    return f"M{r},0A{r},{r} 0 1,1 0,{-r}A{r},{r} 0 0,1 {r},0Z"  # circle


def _swatch(entry: dict) -> str:
    """The picture of one legend entry (an SVG image): its line, or its marker (open symbols drawn as outlines)."""
    cx, cy = SWATCH_W / 2, SWATCH_H / 2
    mode, marker, line = entry.get("mode", "markers"), entry.get("marker") or {}, entry.get("line") or {}
    parts = []
    if "lines" in mode and "markers" not in mode:
        dash = _DASHES.get(line.get("dash", "solid"), "")
        parts.append(f'<line x1="3" y1="{cy}" x2="{SWATCH_W - 3}" y2="{cy}" stroke="{_colour(line.get("color"))}" '
                     f'stroke-width="{min(float(line.get("width", 2)), 6):g}"'
                     + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
    else:
        symbol = str(marker.get("symbol", "circle"))
        r = min(max(float(marker.get("size", 12)), 10), 20) / 2  # a 3-D marker's size is smaller: 10 px at least
        colour = _colour(marker.get("color"))
        outline = marker.get("line") or {}
        if symbol.endswith("-open") or symbol.startswith(("x", "cross", "line", "arrow")):  # drawn by its outline
            fill, stroke, width = "none", colour, max(float(outline.get("width") or 2), 2)
        else:
            stroke = _colour(outline["color"]) if outline.get("color") else "none"
            fill, width = colour, float(outline.get("width") or 0)
        angle = float(marker.get("angle", 0) or 0)
        parts.append(f'<path d="{_shape(symbol, r)}" transform="translate({cx},{cy}) rotate({angle:g})" '
                     f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"/>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SWATCH_W}" height="{SWATCH_H}" '
           f'viewBox="0 0 {SWATCH_W} {SWATCH_H}">' + "".join(parts) + "</svg>")
    # an image, not inline SVG: the page's HTML sanitiser keeps <img> with a data: address and drops <svg>
    data = base64.b64encode(svg.encode()).decode()
    return f'<img src="data:image/svg+xml;base64,{data}" width="{SWATCH_W}" height="{SWATCH_H}" alt="">'



def _colour(value) -> str:
    """A colour for an SVG attribute: the first of a list, or a dark grey when none is given."""
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return html.escape(str(value), quote=True) if value else "#555555"


def _name(text: str) -> str:
    """An entry's name as HTML: escaped, Plotly's <sub> markup kept."""
    return html.escape(text).replace("&lt;sub&gt;", "<sub>").replace("&lt;/sub&gt;", "</sub>")


def legend_html(entries: list[dict]) -> str:
    """The legend as HTML: one item per entry, its picture and its name (styled by the player's CSS)."""
    items = "".join(f'<div class="bv-legend-item">{_swatch(e)}<span>{_name(e["name"])}</span></div>'
                    for e in entries)
    return f'<div class="bv-legend" role="list" aria-label="legend">{items}</div>'
