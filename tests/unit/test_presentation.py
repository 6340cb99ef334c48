"""Presentation mode's figures (issue 24): every text at least 22 px, the title and legends left to the page."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

import banditviz as bv
from banditviz import figures, instances
from banditviz.figures.page_legend import legend_html
from banditviz.figures.palette import PRESENT_TEXT, for_projector


def font_sizes(node, path="") -> list[tuple[str, float]]:
    """Every font size set anywhere in a figure's dict, with its path."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k.endswith("font") and isinstance(v, dict) and "size" in v:
                out.append((f"{path}.{k}", v["size"]))
            out += font_sizes(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += font_sizes(v, f"{path}[{i}]")
    return out


@pytest.fixture(scope="module")
def runs():
    inst = bv.preset("default")
    return {"a": bv.run(inst, "pareto_ucb1", 400, seed=0, snapshots=40),
            "b": bv.run(inst, "pareto_ts", 400, seed=0, snapshots=40),
            "3d": bv.run(bv.preset("default_3d"), "pareto_ucb1", 300, seed=0, snapshots=20),
            "lex": bv.run(bv.preset("lexicographic_lambda_0.1"), "mte2lo", 300, seed=0, snapshots=20)}


@pytest.mark.parametrize("case", ["a", "3d", "lex", "race"])
def test_presented_figure_has_no_text_under_22_px_and_leaves_title_and_legends_to_the_page(runs, case):
    if case == "race":
        fig = figures.race(runs["a"], runs["b"], controls=False, height=820, heights=(440, 600), present=True)
        normal = figures.race(runs["a"], runs["b"], controls=False, height=820)
    else:
        fig = figures.animate(runs[case], controls=False, height=820, heights=(440, 600), present=True)
        normal = figures.animate(runs[case], controls=False, height=820)
    d = fig.to_dict()
    small = [(p, s) for p, s in font_sizes({"data": d["data"], "layout": {**d["layout"], "meta": None}}) if s < 22]
    assert small == []
    assert [s for _, s in font_sizes(normal.to_dict()["layout"]) if s < 22]  # the check can fail: normal has 16 px
    meta = d["layout"]["meta"]["bv"]
    assert d["layout"]["legend"]["visible"] is False and d["layout"]["legend2"]["visible"] is False
    assert d["layout"]["title"]["text"] == "" and meta["title"] == normal.layout.title.text
    names = [e["name"] for e in meta["legend"]]
    shown = [t.name for t in normal.data if t.showlegend is not False]
    assert names == [n for n in shown if n in names] and set(shown) <= set(names)  # every entry, in order
    assert {"lines", "markers"} <= {e["mode"] for e in meta["legend"]}
    for layout in meta["layouts"]["narrow"] + meta["layouts"]["wide"]:
        assert layout["margin.t"] < 60  # no title or legend rows above the panels


def test_for_projector_raises_every_font_and_grows_the_margins():
    fig = figures.instance_preview(instances.uniform_box(6, 2, seed=1))
    assert [s for _, s in font_sizes(fig.to_dict()) if s < 22]
    shown = for_projector(fig).to_dict()
    assert [s for _, s in font_sizes(shown) if s < 22] == []
    assert all(v["automargin"] for k, v in shown["layout"].items() if re.match(r"^[xy]axis\d*$", k))
    assert fig.to_dict() != shown  # a copy: the figure given is left as it was


def test_page_legend_draws_each_entry_and_escapes_names():
    entries = [{"name": "<b>x</b> m<sub>t</sub>", "mode": "markers",
                "marker": {"symbol": "triangle-up", "angle": 90, "size": 13, "color": "#0072B2"}},
               {"name": "effective front", "mode": "lines", "line": {"color": "#56B4E9", "width": 6, "dash": "dot"}}]
    html = legend_html(entries)
    assert html.count('class="bv-legend-item"') == 2
    assert "&lt;b&gt;x&lt;/b&gt; m<sub>t</sub>" in html and "<b>" not in html
    svgs = [base64.b64decode(s).decode() for s in re.findall(r"base64,([A-Za-z0-9+/=]+)", html)]
    assert "rotate(90)" in svgs[0] and 'fill="#0072B2"' in svgs[0]
    assert 'stroke-dasharray="2 4"' in svgs[1] and 'stroke="#56B4E9"' in svgs[1]
    assert PRESENT_TEXT.legend >= 22


def test_learn_confidence_boxes_are_drawn_as_watch_draws_its_plane(runs):
    """Issue 31: the Learn step's still figure has Watch's plane traces (same names, looks and legend entries), and
    its boxes are the snapshot's bounds clipped to its view (computed independently here)."""
    trace = runs["a"]
    still = figures.confidence_boxes(trace, 5).to_dict()
    watch = figures.animate(trace, controls=False).to_dict()
    plane = [t for t in watch["data"] if t.get("xaxis") in ("x3", None) and t.get("yaxis") in ("y3", None)]
    looks = lambda t: (t["name"].replace("<br>", " "), t.get("mode"), t.get("fill"), t.get("fillcolor"),  # noqa: E731
                       (t.get("line") or {}).get("color"), (t.get("marker") or {}).get("symbol"))
    assert sorted(map(looks, still["data"]), key=repr) == sorted(map(looks, plane), key=repr)
    snap = trace.snapshots[5]
    (x0, x1), (y0, y1) = still["layout"]["xaxis"]["range"], still["layout"]["yaxis"]["range"]
    want = []
    for arm in range(trace.instance.K):
        lo, hi = snap.lower[arm], snap.upper[arm]
        if np.isfinite(snap.estimates[arm]).all() and (lo[0] >= x0 or hi[0] <= x1 or lo[1] >= y0 or hi[1] <= y1):
            want.append([max(lo[0], x0), min(hi[0], x1), max(lo[1], y0), min(hi[1], y1)])
    got = []
    for t in still["data"]:
        if t.get("fill") == "toself" and t.get("x") != [None]:
            xy = np.array([[np.nan if v is None else v for v in t[k]] for k in ("x", "y")]).T
            for box in np.split(xy, np.flatnonzero(np.isnan(xy[:, 0]))):
                box = box[~np.isnan(box[:, 0])]
                if len(box):
                    got.append([box[:, 0].min(), box[:, 0].max(), box[:, 1].min(), box[:, 1].max()])
    np.testing.assert_allclose(sorted(got), sorted(want), atol=1e-3)
