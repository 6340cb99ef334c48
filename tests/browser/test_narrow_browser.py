"""`narrow.js` (banditviz_app/charts.py's fit for narrow screens) on a Plotly chart alone in a page: while a chart is
laid out wider than its box (between its container's resize and its own, for up to 2 s) no text is wrapped; once it
has taken its box's width, a legend entry is put on more lines only when the chart cannot hold it on one.

Seen before: Watch's waiting preview, at 640 px, had legend entries one word a line: `narrow.js` measured an entry's
room from where a layout for a wider chart had put it, at the end of a row, and kept that for the chart's width."""

from __future__ import annotations

from pathlib import Path

import plotly
import pytest

from tests.browser.steps import poll

pytestmark = pytest.mark.browser

NARROW = Path(__file__).resolve().parents[2] / "banditviz_app" / "narrow.js"
PLOTLY = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"
NAMES = ["arms (true means)", "on the Pareto front", "on the effective front (convex hull)", "Pareto front",
         "effective front (hull of the means)"]
TOO_LONG = "a name too long for any row of a chart this narrow, written as long as no legend entry should be"


def figure(names: list[str]) -> dict:
    return {"data": [{"x": [i, i + 1], "y": [1, 2], "name": n, "mode": "markers"} for i, n in enumerate(names)],
            "layout": {"legend": {"orientation": "h", "y": -0.2}, "font": {"size": 16}, "margin": {"l": 40, "r": 10}}}


ENTRIES = """() => { const gd = document.getElementById('chart');
  return [...gd.querySelectorAll('g.legend g.traces')].map((g) => {
    const t = g.querySelector('text.legendtext'); return [t.textContent, g.__data__[0].trace.name]; }); }"""


def legend_names(page) -> list[str]:
    return [name for _, name in page.evaluate(ENTRIES)]


def chart_caught_mid_resize(page, names: list[str], laid_out: int, box: int) -> list[str]:
    """A chart laid out ``laid_out`` px wide (its legend in rows for that width), its box then made ``box`` px wide
    without Plotly's own resize, `narrow.js` installed; the legend's names after 1.2 s, its first two looks (every
    500 ms: what the old file wrapped in that state, it wrapped at the first; a chart still wider than its box after
    four looks is fitted as it stands)."""
    page.set_content(f"<div id='chart' style='width:{laid_out}px;height:500px'></div>")
    page.add_script_tag(path=str(PLOTLY))
    page.evaluate("(f) => Plotly.newPlot('chart', f.data, f.layout)", figure(names))
    page.evaluate(f"() => {{ document.getElementById('chart').style.width = '{box}px'; }}")
    page.add_script_tag(path=str(NARROW))
    page.wait_for_timeout(1_200)
    return legend_names(page)


def resized(page, done) -> list[str]:
    """The chart's own resize to its box (Plotly's), then the legend's names once ``done(names)`` and two more looks of
    `narrow.js` (nothing else is wrapped later)."""
    page.evaluate("() => Plotly.Plots.resize('chart')")
    assert poll(page, lambda: done(legend_names(page)), 5_000), legend_names(page)
    page.wait_for_timeout(1_000)
    return legend_names(page)


@pytest.mark.parametrize("laid_out, box", [(1500, 640), (640, 640), (390, 390)])
def test_a_legend_entry_is_wrapped_only_when_the_chart_cannot_hold_it(new_context, laid_out, box):
    page = new_context(1600, 700).new_page()
    assert chart_caught_mid_resize(page, NAMES, laid_out, box) == NAMES  # each fits a row of the chart's width
    assert resized(page, lambda names: page.evaluate("() => !!document.getElementById('chart').__bvNarrow")) == NAMES
    names = chart_caught_mid_resize(page, [*NAMES, TOO_LONG], laid_out, box)
    if laid_out > box:
        assert names == [*NAMES, TOO_LONG]  # not while the chart is wider than its box
    names = resized(page, lambda names: "<br>" in names[-1])
    assert names[:-1] == NAMES and names[-1].replace("<br>", " ") == TOO_LONG
