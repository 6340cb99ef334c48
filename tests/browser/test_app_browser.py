"""The app in a real browser: every page opens, the default run plays, a shared link reproduces a run.

Screenshots of each page go to artifacts/screenshots/ (git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.steps import CONTROLS, IDLE, choose_radio, choose_tab, holds_in_page, open_expander, press

pytestmark = pytest.mark.browser

FIGURE = ".js-plotly-plot"
SLIDER_ACTIVE = "() => Number(document.querySelector('.bv-bar input[type=range]')?.value)"  # the Watch player
FIGURE_DATA = "() => JSON.stringify(document.querySelector('.js-plotly-plot').data.map(t => [t.x, t.y]))"
# Every animation frame's drawn data: the whole run as the browser holds it, whatever frame is on screen.
FIGURE_FRAMES = ("() => { const f = document.querySelector('.js-plotly-plot')?._transitionData?._frames;"
                 " return f ? JSON.stringify(f.map(g => [g.name, (g.data || []).map(t => [t.x, t.y])])) : null; }")


def wait_app(page) -> None:
    """Wait until the script has finished and the page is quiet (no running indicator)."""
    page.wait_for_selector(".st-key-bv_nav", timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)


def no_exception(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def open_controls(page) -> None:
    open_expander(page, CONTROLS)
    page.get_by_role("spinbutton", name="Seed").wait_for()


def slider_passes(page, index: int, timeout: float = 20_000) -> None:
    page.wait_for_function(f"() => ({SLIDER_ACTIVE[6:]}) > {index}", timeout=timeout)


def test_watch_default_run_plays(new_context, server, screenshot):
    page = new_context(motion=True).new_page()
    page.goto(server)
    page.wait_for_selector(FIGURE, timeout=90_000)
    wait_app(page)
    no_exception(page)
    assert url_holds(page, "preset=default") and url_holds(page, "alg=pareto_ucb1")
    screenshot(page, "watch_first_screen")
    data_first, at = page.evaluate(FIGURE_DATA), page.evaluate(SLIDER_ACTIVE)
    slider_passes(page, at + 5)  # the first screen moves by itself
    assert page.evaluate(FIGURE_DATA) != data_first  # the drawn estimates and boxes moved
    screenshot(page, "watch_playing")
    page.locator(".bv-bar button", has_text="pause").click()
    page.wait_for_function("() => !window.__bv.players.bv_watch.playing", timeout=30_000)  # the player took it
    paused = page.evaluate(SLIDER_ACTIVE)
    page.wait_for_timeout(1000)
    assert page.evaluate(SLIDER_ACTIVE) == paused
    page.locator(".bv-bar button", has_text="play").click()
    slider_passes(page, paused + 5)
    screenshot(page, "watch_full", height=2600)


def test_shared_link_reproduces_the_run(new_context, server, screenshot, run_form):
    """A run made in the form (on a laptop, where the form is below the fold) is brought into view, and its link
    opens the same run in another tab."""
    page = new_context(1366, 768).new_page()
    page.goto(server)
    page.wait_for_selector(FIGURE, timeout=90_000)
    wait_app(page)
    open_controls(page)
    seed0 = page.evaluate(FIGURE_FRAMES)
    run_form(page, {"Seed": "5"}, "seed=5")
    page.wait_for_function(f"(old) => ![null, old].includes(({FIGURE_FRAMES})())", arg=seed0, timeout=60_000)
    wait_app(page)
    no_exception(page)
    page.wait_for_function("() => { const t = document.querySelector('.st-key-bv_watch').getBoundingClientRect().top;"
                           " return t >= -2 && t < innerHeight / 2; }", timeout=30_000)  # the new run is on screen
    link, frames = page.url, page.evaluate(FIGURE_FRAMES)
    other = new_context().new_page()
    other.goto(link)
    other.wait_for_selector(FIGURE, timeout=60_000)
    wait_app(other)
    assert "seed 5" in other.locator("[data-testid='stSidebar']").inner_text()
    assert other.evaluate(FIGURE_FRAMES) == frames
    screenshot(other, "watch_shared_link")


def url_holds(page, text: str, timeout_ms: int = 20_000) -> bool:
    """Whether the address bar comes to hold ``text`` (the app rewrites it at the end of each script run)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function("(t) => location.href.includes(t)", arg=text, timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


def goto_page(page, server: str, title: str) -> None:
    page.goto(server)
    wait_app(page)
    at = holds_in_page(page, "(path) => location.pathname.endsWith(path)", "/" + title.lower())
    press(page, page.locator(".st-key-bv_nav a", has_text=title), at, f"the page {title!r} opened")
    wait_app(page)


def test_every_page_opens(page, server, screenshot):
    goto_page(page, server, "Design")
    page.wait_for_selector(".bv-canvas .bv-arm", timeout=60_000)  # the arms canvas (default: 2-D fixed means)
    no_exception(page)
    assert url_holds(page, "preset=default")  # the link survives page switches
    screenshot(page, "design", height=1800)

    goto_page(page, server, "Compare")
    page.get_by_role("spinbutton", name="Seeds (runs per algorithm)").fill("3")
    page.get_by_role("spinbutton", name="Horizon T").fill("1000")
    figure = page.locator(FIGURE)
    press(page, page.get_by_role("button", name="Run the comparison"), lambda: figure.count() > 0, "the comparison")
    wait_app(page)
    no_exception(page)
    screenshot(page, "compare", height=1800)

    goto_page(page, server, "Papers")
    choose_tab(page, "Linear PSI")
    wait_app(page)
    table = page.locator("[data-testid='stDataFrame']")
    press(page, page.locator("button", has_text="Run the scaled-down experiment"), lambda: table.count() > 0,
          "the scaled-down experiment")  # GEGE: about 2 s
    wait_app(page)
    no_exception(page)
    screenshot(page, "papers", height=2400)

    goto_page(page, server, "Learn")
    page.wait_for_selector(FIGURE, timeout=60_000)
    no_exception(page)
    screenshot(page, "learn")
    for i, tab in enumerate(["Pareto front", "Confidence boxes", "Effective front", "Pareto regret"], start=2):
        choose_radio(page, f"{i} {tab}")
        wait_app(page)
        page.wait_for_timeout(700)
        screenshot(page, f"learn_{i}")
