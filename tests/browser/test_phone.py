"""The shared link on a student's phone (390x844) and a portrait tablet (768x1024), by touch: Watch stacks its panels,
the page shows the title and legend the figure hides, no text lies on another text or on a panel, the controls are
touch targets of at least 44 px, the slider follows a finger, the page never scrolls sideways, and what is drawn is
still the frame's data. Then the window widened to a laptop's (1366x768): the chart leaves the stacked layout
with nothing of it left behind. Every task family, a race, normal and presentation mode."""

from __future__ import annotations

import pytest

from tests.browser.steps import IDLE, steady
from tests.browser.test_drawn_state import assert_one_round, computed
from tests.browser.test_watch_player import CHART, FAMILIES, FIT_STATE, LAPTOP, SLIDER, STATE, fitted_boxes

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 768, "height": 1024}
# 200 arms (88 s here) left to the laptop and projector: the stacked layout labelled its arms by `arm_step` already
CASES = {**{f: (q, "") for f, q in FAMILIES.items() if f != "many_arms"},
         "race": ("preset=default&alg=pareto_ucb1&race=pareto_ts", ""),
         "regret_presenting": (FAMILIES["regret"], "&present=1"),
         "regret_3d_presenting": (FAMILIES["regret_3d"], "&present=1"),
         "race_presenting": ("preset=default&alg=pfiwr&race=pareto_ucb1", "&present=1")}
# The controls a finger uses, their boxes; the page's width against what it holds; the parts of the figure the page
# shows (heading, legend) when the chart is stacked.
CONTROLS = """() => Array.from(document.querySelectorAll('.bv-bar button, .bv-bar select, .bv-bar input[type=range]'),
  (e) => { const r = e.getBoundingClientRect(); return [e.dataset.bv || e.tagName, r.width, r.height]; })"""
SIDEWAYS = """() => { const m = document.querySelector('[data-testid=stMain]');
  return [m.scrollWidth - m.clientWidth, document.documentElement.scrollWidth - window.innerWidth]; }"""
PARTS = """() => Object.fromEntries(['heading', 'legend'].map((part) => [part, Array.from(
  document.querySelectorAll(`[data-bv-part=${part}][data-bv-for=bv_watch]`)).filter((e) =>
  !e.hidden && e.getBoundingClientRect().height > 0).length]))"""


def touch_drag(page, fraction: float) -> None:
    """A finger put on the slider's thumb at its start and moved to ``fraction`` of its width (Chrome's touch
    events, as a phone sends them)."""
    box = page.locator(SLIDER).bounding_box()
    y = box["y"] + box["height"] / 2
    x0, x1 = box["x"] + 8, box["x"] + 8 + (box["width"] - 16) * fraction
    cdp = page.context.new_cdp_session(page)
    send = lambda kind, x: cdp.send("Input.dispatchTouchEvent", {  # noqa: E731
        "type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]})
    send("touchStart", x0)
    for k in range(1, 11):
        send("touchMove", x0 + (x1 - x0) * k / 10)
        page.wait_for_timeout(30)
    send("touchEnd", x1)


@pytest.mark.parametrize("case", list(CASES))
def test_watch_on_a_phone_and_a_tablet(new_context, server, screenshot, case):
    query, present = CASES[case]
    query = f"{query}&T=2000&seed=0"
    fig, meta = computed(query + present)
    page = new_context(PHONE["width"], PHONE["height"], touch=True, motion=True).new_page()
    page.goto(f"{server}/?{query}{present}")
    page.wait_for_function(STATE, timeout=90_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.locator(".bv-bar button[data-bv=play]").tap()  # a first visit plays: the tap pauses it
    page.wait_for_function("() => !window.__bv.players.bv_watch.playing")
    assert_one_round(page, fig, meta)
    small = [c for c in page.evaluate(CONTROLS) if c[1] < 44 or c[2] < 44]
    assert small == [], small  # every control a 44 px touch target
    n = len(meta["rounds"])
    page.locator(SLIDER).scroll_into_view_if_needed()
    touch_drag(page, 0.5)
    frame = assert_one_round(page, fig, meta)
    assert n // 3 < frame < 2 * n // 3, frame  # the finger took the slider to the middle
    page.locator(".bv-bar button[data-bv=fwd]").tap()
    assert_one_round(page, fig, meta, frame + 1)
    page.locator(SLIDER).fill(str(n - 1))
    assert_one_round(page, fig, meta, n - 1)
    w = _Tab(page)
    for screen in (PHONE, TABLET, LAPTOP):
        name = f"phone_{case}_{screen['width']}x{screen['height']}"
        b = fitted_boxes(w, screen, name, screenshot, labels_at_least=3)
        assert b["width"] <= screen["width"] - 16, b["width"]  # the chart within the page
        assert page.evaluate(SIDEWAYS) == [0, 0]  # nothing makes the page scroll sideways
        parts = page.evaluate(PARTS)  # how many copies of each the page shows (one beside, one around the chart)
        shown = int(b["width"] < 600 or bool(present))  # the figure's portrait layout or presenting: the page's
        assert parts == {"heading": shown, "legend": shown}, (parts, b["width"])
        assert_one_round(page, fig, meta, n - 1)  # the layout for this size still draws the frame's data


class _Tab:
    """What `fitted_boxes` needs of a Watch tab: its page."""

    def __init__(self, page) -> None:
        self.page = page


def test_the_stacked_chart_is_the_portrait_layout(new_context, server):
    """A phone-wide chart is drawn in the figure's portrait layout: no legend in it, the objective space the whole
    width, over the curves."""
    page = new_context(PHONE["width"], PHONE["height"], touch=True).new_page()
    page.goto(f"{server}/?{FAMILIES['regret']}&T=2000&seed=0")
    page.wait_for_function(STATE, timeout=90_000)
    page.wait_for_function(IDLE, timeout=60_000)
    steady(page, FIT_STATE, quiet_ms=700)  # the player's fit to the phone
    stacked = page.evaluate(f"""() => {{ const gd = document.querySelector('{CHART}'), fl = gd._fullLayout;
      const x = fl.xaxis3.domain;
      return [fl.legend.visible, x[1] - x[0], fl.yaxis.domain[1] < fl.yaxis3.domain[0]];
    }}""")
    assert stacked == [False, 1.0, True], stacked  # no legend, the plane the whole width, over the curves
