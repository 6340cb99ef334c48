"""Every page's figures as Chromium draws them at 1366x768: tick labels >= 16 px, axis titles >= 18 px, dark on the
paper (contrast >= 4.5), and no title, annotation or legend entry cut at a figure's edge. The probe is the Watch
player test's (`assert_legible_charts`), which measures the Watch page the same way."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from banditviz_app.papers import PAPERS
from tests.browser.steps import choose_radio, choose_tab, settle
from tests.browser.test_journeys_browser import LAPTOP, open_at, run_comparison
from tests.browser.test_watch_player import CROWDED, CUT, assert_legible_charts, contrast, rgb

pytestmark = pytest.mark.browser

# The arms canvas's texts as drawn: tick labels, axis titles and arm names (size, fill), and whether one runs past
# the canvas's edge.
CANVAS_TEXTS = """(sel) => { const box = document.querySelector('.bv-canvas svg').getBoundingClientRect();
  return [...document.querySelectorAll(sel)].map((t) => { const r = t.getBoundingClientRect();
    return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize), fill: getComputedStyle(t).fill,
            cut: r.left < box.left - 1 || r.right > box.right + 1}; }); }"""


def assert_legible_canvas(page) -> None:
    """Design's arms canvas as drawn: ticks >= 16 px, axis titles >= 18 px, arm names >= 16 px, dark on white, none
    cut at its edge."""
    page.locator(".bv-canvas .bv-arm").first.wait_for(timeout=60_000)
    for sel, least in ((".bv-canvas .bv-tick", 16), (".bv-canvas .bv-axis", 18), (".bv-canvas .bv-label", 16)):
        texts = page.evaluate(CANVAS_TEXTS, sel)
        assert texts and all(t["size"] >= least and not t["cut"] for t in texts), (sel, texts)
        assert all(contrast(rgb(t["fill"]), (255, 255, 255)) >= 4.5 for t in texts), (sel, texts)


def test_design_preview_is_legible(new_context, server, screenshot):
    """The arms canvas (the preview of a 2-D fixed-means instance)."""
    page = open_at(new_context, server, "design?preset=default", LAPTOP)
    assert_legible_canvas(page)
    cut = page.evaluate("() => { const s = document.querySelector('.bv-canvas-scroll');"
                        " return s.scrollWidth - s.clientWidth; }")
    assert cut <= 0, f"the gaps table is cut by {cut} px"  # every column, the effective gap's too, on screen
    screenshot(page, "legible_design_1366x768")


def test_compare_charts_are_legible_on_both_tabs(new_context, server, screenshot):
    """A regret learner and an identification one: regret curves, and the sample complexity (gege_fc does not stop
    within T = 200, so its note says so) and success charts."""
    page = open_at(new_context, server, "compare?preset=default&alg=pareto_ucb1&T=200&seed=0", LAPTOP)
    run_comparison(page, "gege_fc")
    assert_legible_charts(page)
    choose_tab(page, "Sample complexity and success")
    page.wait_for_function("() => Array.from(document.querySelectorAll('.js-plotly-plot')).filter("
                           "(gd) => gd.getBoundingClientRect().width > 0).length >= 2", timeout=30_000)
    assert page.get_by_text("not drawn, no run stopped: gege_fc").count() == 1
    assert_legible_charts(page)
    screenshot(page, "legible_compare_stopping_1366x768", height=1400)


def test_papers_figures_are_legible(new_context, server, screenshot):
    page = open_at(new_context, server, "papers", LAPTOP)
    for paper in PAPERS:  # one paper a tab
        choose_tab(page, paper.tab)
        settle(page)
        page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
        assert page.get_by_role("heading", name=paper.title).count() == 1
        assert_legible_charts(page)
        screenshot(page, f"legible_papers_{paper.key}_1366x768", height=1800)


def test_every_learn_step_is_legible(new_context, server, screenshot):
    page = open_at(new_context, server, "learn?preset=default&alg=pareto_ucb1&T=300&seed=0", LAPTOP)
    for step in ("1 Dominance", "2 Pareto front", "3 Confidence boxes", "4 Effective front", "5 Pareto regret"):
        choose_radio(page, step)
        settle(page)
        page.locator(".js-plotly-plot").first.wait_for()
        assert_legible_charts(page)
        screenshot(page, f"legible_learn_{step.split()[0]}_1366x768", height=1200)


# A phone (390x844, touch): each page reads without scrolling sideways, and its figures as on a laptop.
FITTED = f"() => ({CUT})('.js-plotly-plot').length + ({CROWDED})('.js-plotly-plot').length === 0"
SIDEWAYS = """() => { const m = document.querySelector('[data-testid=stMain]');
  return [m.scrollWidth - m.clientWidth, document.documentElement.scrollWidth - window.innerWidth]; }"""


@pytest.mark.parametrize("path", ["design?preset=default", "compare?preset=default&alg=pareto_ucb1&T=200&seed=0",
                                  "papers", "learn?preset=default&alg=pareto_ucb1&T=300&seed=0"],
                         ids=["design", "compare", "papers", "learn"])
def test_every_page_reads_on_a_phone(new_context, server, screenshot, path):
    page = new_context(390, 844, True).new_page()
    page.goto(f"{server}/{path}")
    settle(page)
    name = path.split("?")[0]
    if name == "compare":
        run_comparison(page)  # its default algorithms
    steps = {"learn": ("1 Dominance", "2 Pareto front", "3 Confidence boxes", "4 Effective front", "5 Pareto regret"),
             "papers": tuple(p.tab for p in PAPERS)}.get(name, (None,))
    for step in steps:
        if step:
            (choose_tab if name == "papers" else choose_radio)(page, step)
            settle(page)
        if name == "design":  # its preview is the arms canvas (a 2-D fixed-means instance), not a Plotly chart
            assert_legible_canvas(page)
            assert page.evaluate(SIDEWAYS) == [0, 0]
            screenshot(page, "phone_design_390x844", height=2400)
            continue
        page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
        assert page.evaluate(SIDEWAYS) == [0, 0], step
        with contextlib.suppress(PlaywrightTimeout):  # the page fits its figures' texts to the phone (narrow.js)
            page.wait_for_function(FITTED, timeout=20_000)
        assert_legible_charts(page)
        screenshot(page, f"phone_{name}{'_' + step.split()[0] if step else ''}_390x844", height=2400)
