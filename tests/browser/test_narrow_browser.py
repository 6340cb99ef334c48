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
from tests.browser.test_watch_player import CROWDED, CUT

pytestmark = pytest.mark.browser

NARROW = Path(__file__).resolve().parents[2] / "banditviz_app" / "narrow.js"
PLOTLY = Path(plotly.__file__).with_name("package_data") / "plotly.min.js"
NAMES = ["arms (true means)", "on the Pareto front", "on the effective front (convex hull)", "Pareto front",
         "effective front (hull of the means)"]
TOO_LONG = "a name too long for any row of a chart this narrow, written as long as no legend entry should be"


def figure(names: list[str], title: str = "", **legend) -> dict:
    return {"data": [{"x": [i, i + 1], "y": [1, 2], "name": n, "mode": "markers"} for i, n in enumerate(names)],
            "layout": {"legend": {"orientation": "h", "y": -0.2, **legend}, "font": {"size": 16},
                       "title": {"text": title, "x": 0.01, "xanchor": "left"}, "margin": {"l": 40, "r": 10}}}


ENTRIES = """() => { const gd = document.getElementById('chart');
  return [...gd.querySelectorAll('g.legend g.traces')].map((g) => {
    const t = g.querySelector('text.legendtext'); return [t.textContent, g.__data__[0].trace.name]; }); }"""


def legend_names(page) -> list[str]:
    return [name for _, name in page.evaluate(ENTRIES)]


def chart(page, fig: dict, width: int, box: int | None = None, beside: str = "") -> None:
    """``fig`` drawn ``width`` px wide, alone in a new window; its box then made ``box`` px wide (if given) without
    Plotly's own resize; `narrow.js` installed, with the script ``beside`` in the same tag (its timers set with
    narrow.js's)."""
    page.goto("about:blank")  # a new window: `set_content` alone keeps the last one's globals and `narrow.js`'s timer
    page.set_content(f"<div id='chart' style='width:{width}px;height:500px'></div>")
    page.add_script_tag(path=str(PLOTLY))
    page.evaluate("(f) => Plotly.newPlot('chart', f.data, f.layout)", fig)
    if box is not None:
        page.evaluate(f"() => {{ document.getElementById('chart').style.width = '{box}px'; }}")
    page.add_script_tag(content=f"{NARROW.read_text()}\n{beside}")


def chart_caught_mid_resize(page, names: list[str], laid_out: int, box: int) -> list[str]:
    """A chart laid out ``laid_out`` px wide (its legend in rows for that width), its box then made ``box`` px wide
    without Plotly's own resize, `narrow.js` installed; the legend's names after 1.2 s, its first two looks (every
    500 ms: what the old file wrapped in that state, it wrapped at the first; a chart still wider than its box after
    four looks is fitted as it stands). Read by a timer set in the same script as `narrow.js`'s, so that it runs
    before the fourth look however late the page is (CI once read after 1.2 s of the test's clock, past the fourth)."""
    chart(page, figure(names), laid_out, box, beside=f"setTimeout(() => {{ window.__looked = ({ENTRIES})(); }}, 1200);")
    page.wait_for_function("() => window.__looked", timeout=30_000)
    return [name for _, name in page.evaluate("() => window.__looked")]


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


def test_a_chart_fitted_as_it_stood_is_fitted_again_at_its_own_resize(new_context):
    """A chart left wider than its box for four looks is fitted as it stands (its entries measured where the wider
    layout put them: one word a line); when it then takes its box's width, its entries are fitted again. Seen beside
    a CPU hog (the test above, its resize after four looks): the old file kept the words a line, the width it fits to
    (the box's) being unchanged."""
    page = new_context(1600, 700).new_page()
    chart(page, figure([*NAMES, TOO_LONG]), 1500, 640)
    page.wait_for_function("() => { const gd = document.getElementById('chart'); return gd.__bvWider >= 4 "
                           "&& !!gd.__bvNarrow && gd.data.some((t) => t.name.includes('\x3cbr>')); }", timeout=15_000)
    names = resized(page, lambda names: names[:-1] == NAMES and "<br>" in names[-1])
    assert names[:-1] == NAMES and names[-1].replace("<br>", " ") == TOO_LONG


def test_a_chart_whose_box_narrows_without_its_own_resize_gets_its_title_fitted_to_the_box(new_context):
    """A chart fitted at 640 px whose box then narrows to 390 px while Plotly keeps its layout (the old file compared
    the layout's width only, and never looked again)."""
    page = new_context(1600, 700).new_page()
    chart(page, figure(NAMES[:2], title=TOO_LONG), 640)
    assert poll(page, lambda: page.evaluate("() => !!document.getElementById('chart').__bvNarrow"), 5_000)
    page.evaluate("() => { document.getElementById('chart').style.width = '390px'; }")
    assert poll(page, lambda: not [t for t in page.evaluate(CUT, "#chart") if "too long" in t["text"]], 5_000)


def test_a_chart_whose_fitted_texts_are_put_back_is_fitted_again(new_context):
    """Seen in CI (Papers on a phone, Exp. 2's chart): a title 207 px and a legend entry 19 px past a 358 px chart's
    edge for 20 s, as written. The old file fitted a chart once per layout and width and never checked that its texts
    stayed fitted: here a redraw from the same layout, texts as written, is never fitted again."""
    page = new_context(1600, 700).new_page()
    chart(page, figure([*NAMES, TOO_LONG], title=TOO_LONG), 390)
    assert poll(page, lambda: page.evaluate(CUT, "#chart") == [], 5_000), page.evaluate(CUT, "#chart")
    put_back = page.evaluate(f"""([title, names]) => {{ const gd = document.getElementById('chart');
      gd.layout.title.text = title; gd.data.forEach((t, i) => {{ t.name = names[i]; }});
      Plotly.react(gd, gd.data, gd.layout);
      return ({CUT})('#chart'); }}""", [TOO_LONG, [*NAMES, TOO_LONG]])
    assert put_back != []  # drawn cut, read in the same task as the redraw (narrow.js's next look may fit it at once)
    assert poll(page, lambda: page.evaluate(CUT, "#chart") == [], 5_000), page.evaluate(CUT, "#chart")


@pytest.mark.parametrize("width, columns", [(390, 1), (1200, 0.5)])
def test_a_legend_in_columns_takes_one_column_where_its_names_would_run_into_each_other(new_context, width, columns):
    """Learn's confidence boxes on a phone: a legend in two columns (entrywidth 0.5 of the plot) whose left column's
    names ran into the right column's symbols; in one column a name's breaks, written for half a column, are spaces."""
    page = new_context(1600, 700).new_page()
    names = [*NAMES[:2], "candidate<br>(on estimated front)", *NAMES[2:]]
    chart(page, figure(names, entrywidth=0.5, entrywidthmode="fraction"), width)
    legend = "() => document.getElementById('chart').layout.legend.entrywidth"
    assert poll(page, lambda: page.evaluate(legend) == columns and page.evaluate(CROWDED, "#chart") == [], 5_000)
    page.wait_for_timeout(1_000)  # two more looks: nothing changes
    assert page.evaluate(legend) == columns and page.evaluate(CROWDED, "#chart") == []
    shown = [name.replace("<br>", " ") for name in legend_names(page)]
    assert shown == [n.replace("<br>", " ") for n in names] and page.evaluate(CUT, "#chart") == []
    if columns == 0.5:
        assert legend_names(page) == names  # as written
