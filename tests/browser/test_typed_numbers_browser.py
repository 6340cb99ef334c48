"""Numbers typed as a person types them (click, keys about 60 ms apart, Enter or Tab) are kept as typed, in every
table and number field of the app, or refused with a message that names the field: never silently changed.

Read back from the link (the instance, the generator's parameters, the run's parameters) or from the drawn figure.
Before the fix, a Design cell typed "0.1" on a fresh page was stored as 1 (shown 1.000: the number editor lost the
keys typed while it opened), "1e-3" as -13 (it drops the "e"); a field typed outside its range kept the old value
without a word in the page, and an integer field cut 5.7 to 5.
"""

from __future__ import annotations

import json

import pytest

import banditviz
from tests.browser.steps import CONTROLS, again, choose_tab, open_expander, poll, settle
from tests.browser.test_journeys_browser import FIGURE, LAPTOP, PREVIEW, SMALL, open_at, query

pytestmark = pytest.mark.browser

TYPED = ["0.1", "1e-3", "-0.25", "3"]
KEY_DELAY = 60  # ms between keys: a person typing (the lost keys showed from 20 to 60 ms)
ERROR = "[data-testid='stAlertContentError']"


def type_into_cell(page, row: int, column: int, text: str, columns: int = 3, patient: bool = False) -> None:
    """Click the arm table's cell (row, column) and type ``text`` as a person does (the first key opens the editor),
    then Enter. Columns count the arm name as 0; the grid draws a 33 px row-marker column and equal columns.
    ``patient``: type the first key, wait until the editor has the focus, then the rest (as a person does who sees
    the editor open late)."""
    settle(page)
    table = page.locator("[data-testid='stDataFrame']").first
    table.evaluate("e => e.scrollIntoView({block: 'center'})")  # its lower rows may be under the fold
    grid = table.bounding_box()
    width = (grid["width"] - 33) / columns
    page.evaluate("() => { window.__keys = []; window.__editor = []; }")
    page.mouse.click(grid["x"] + 33 + (column + 0.5) * width, grid["y"] + 35 + 35 * row + 17)
    if patient:
        page.keyboard.type(text[0])
        page.wait_for_function("() => window.__editor.length > 0", timeout=10_000)
        text = text[1:]
    page.keyboard.type(text, delay=KEY_DELAY)
    page.keyboard.press("Enter")


# When each key went down and when a cell's editor (Glide's, drawn in #portal) took the focus, for `editor_timing`.
WATCH_KEYS = """() => {
  window.__keys = []; window.__editor = [];
  document.addEventListener('keydown', () => window.__keys.push(performance.now()), true);
  document.addEventListener('focusin', (e) => { if (e.target.closest('#portal')) window.__editor.push(
    [performance.now(), e.target.tagName]); }, true);
}"""


def editor_timing(page) -> tuple[float, float]:
    """For the cell typed last: ms from its first key to the second, and to its editor taking the focus (inf if it
    never did). A key typed before the editor has the focus goes nowhere."""
    keys, editor = page.evaluate("() => [window.__keys, window.__editor]")
    return keys[1] - keys[0], (editor[0][0] - keys[0]) if editor else float("inf")


def type_into_field(page, label: str, text: str) -> None:
    """Click the number field ``label``, select what it holds, type ``text`` as a person does, leave it (Tab)."""
    settle(page)  # a run that changed the instance draws the field anew: the old one goes when the run ends
    # (and its second run, st.rerun, can start after `settle` looked: wait until the old field is gone)
    page.wait_for_function("(l) => [...document.querySelectorAll('input')].filter((e) => e.ariaLabel === l)"
                           ".length === 1", arg=label, timeout=30_000)
    field = page.get_by_label(label, exact=True)
    field.click()
    page.keyboard.press("Control+a")
    page.keyboard.type(text, delay=KEY_DELAY)
    page.keyboard.press("Tab")


def link_instance(page) -> dict:
    return json.loads(query(page).get("inst", "{}"))


def typed(page, label: str, text: str, done, button: str | None = None) -> None:
    """Type ``text`` into the field ``label`` (then press ``button``, if given) until ``done()``: a change of the
    instance makes the page run twice and draws the field anew, so keys typed into the field being replaced are lost
    (seen at a load of 8-10), and a press while a rerun redraws the form can be lost: the whole step is done again."""
    def act() -> None:
        type_into_field(page, label, text)
        if button:
            settle(page)
            page.get_by_role("button", name=button, exact=True).click()

    again(page, act, done, f"{label} after typing {text}" + (f" and pressing {button}" if button else ""))


def said(page, field: str):
    """A ``done`` for `typed`: the page shows an error naming ``field``."""
    return page.locator(ERROR).filter(has_text=field).count


def refused(page, field: str) -> str:
    """The page's error message naming ``field`` (waited for)."""
    message = page.locator(ERROR).filter(has_text=field).first
    message.wait_for(timeout=30_000)
    return message.inner_text()


def test_design_table_keeps_typed_numbers(new_context, server, screenshot):
    page = open_at(new_context, server, f"design?preset=default&alg=pareto_ucb1&{SMALL}", LAPTOP)
    page.wait_for_selector(PREVIEW)
    page.evaluate(WATCH_KEYS)
    for row, text in enumerate(TYPED):  # the first cell on a fresh page: where the keys used to be lost
        stored = lambda r=row: (link_instance(page).get("means") or [[None]] * 4)[r][0]  # noqa: E731
        kept = lambda t=text, s=stored: s() == float(t)  # noqa: E731
        type_into_cell(page, row, 1, text)
        if poll(page, kept, 15_000):
            continue
        second, opened = editor_timing(page)
        # The first cell on a fresh page must take its keys at once when its editor opens before the second key
        # (the bug: the number editor opened 100-150 ms after the first key, after the second at 60-96, and lost it;
        # the text editor opens in ~35 ms). An editor opened after the second key (the browser slow, under a CPU
        # hog) or a late rerun that redrew the grid and closed it: type the cell again, waiting for its editor.
        assert row or opened > second, (f"means[0][0] after typing {text}: the editor had the focus {opened:.0f} ms "
                                        f"after the first key, before the second ({second:.0f} ms), and the link "
                                        f"holds {stored()!r}")
        print(f"means[{row}][0]: typed again (its editor had the focus {opened:.0f} ms after the first key, the "
              f"second came at {second:.0f} ms; the link held {stored()!r})")
        again(page, lambda r=row, t=text: type_into_cell(page, r, 1, t, patient=True), kept,
              f"means[{row}][0] after typing {text}", tries=2, within_ms=15_000)
    screenshot(page, "typed_design_table")
    means = link_instance(page)["means"]
    assert [m[0] for m in means[:4]] == [0.1, 0.001, -0.25, 3.0] and means[4][0] == 0.15  # the others unchanged
    assert page.locator(ERROR).count() == 0


def test_design_noise_and_generator_fields_keep_typed_numbers_or_say_why_not(new_context, server, screenshot):
    page = open_at(new_context, server, f"design?preset=default&alg=pareto_ucb1&{SMALL}", LAPTOP)
    page.wait_for_selector(PREVIEW)
    kept = None
    for text in TYPED:  # the noise's sigma: a number in (0, 1000]
        if float(text) > 0:
            typed(page, "sigma (Gaussian)", text, lambda t=float(text): link_instance(page).get("sigma") == t)
            kept = float(text)
        else:
            typed(page, "sigma (Gaussian)", text, lambda: page.locator(ERROR).filter(has_text="sigma").count())
            assert link_instance(page)["sigma"] == kept
        settle(page)
    choose_tab(page, "Generate")
    for label, name, whole in (("noise sigma", "sigma", False), ("arms K", "K", True)):
        for text in TYPED:
            before, value = query(page).get("gp"), float(text)
            made = lambda n=name: json.loads(query(page).get("gp", "{}")).get(n)  # noqa: E731
            if value > 0 and (not whole or value.is_integer()):
                typed(page, label, text, lambda v=value, m=made: m() == v, "Generate")
            else:
                typed(page, label, text, said(page, f"{name}:"), "Generate")
                assert f"{name}:" in refused(page, f"{name}:")
                assert query(page).get("gp") == before  # the instance is kept
            settle(page)
    screenshot(page, "typed_design_generator")


def test_watch_and_compare_fields_keep_typed_numbers_or_say_why_not(new_context, server, screenshot):
    page = open_at(new_context, server, f"?preset=default&alg=mo_epsilon_greedy&{SMALL}", LAPTOP)
    page.wait_for_selector(FIGURE)
    open_expander(page, CONTROLS)
    default = banditviz.get_algorithm("mo_epsilon_greedy").defaults()["epsilon"]  # the link leaves a default out
    epsilon = lambda: json.loads(query(page).get("p", "{}")).get("epsilon", default)  # noqa: E731
    for text in TYPED:  # epsilon: a probability in [0, 1]
        before = query(page).get("p")
        if 0 <= float(text) <= 1:
            typed(page, "epsilon", text, lambda t=float(text): epsilon() == t, "Run")
        else:
            typed(page, "epsilon", text, said(page, "'epsilon'"), "Run")
            assert "epsilon" in refused(page, "'epsilon'") and query(page).get("p") == before
        settle(page)
    type_into_field(page, "epsilon", "0.5")  # valid again: the form sends every field with the horizon
    for text in TYPED:  # the horizon: a whole number from 1
        before = query(page)["T"]
        if text == "3":
            typed(page, "Horizon T (rounds)", text, lambda: query(page)["T"] == "3", "Run")
        else:
            typed(page, "Horizon T (rounds)", text, said(page, "horizon:"), "Run")
            assert "horizon" in refused(page, "horizon:") and query(page)["T"] == before
        settle(page)
    screenshot(page, "typed_watch_form")
    page.goto(f"{server}/compare?preset=default&alg=pareto_ucb1&T=200&seed=0")
    settle(page)
    summary = page.locator(FIGURE).first
    for text in TYPED:  # seeds: a whole number from 1
        if text == "3":
            typed(page, "Seeds (runs per algorithm)", text, summary.is_visible, "Run the comparison")
            names = page.evaluate("() => document.querySelector('.js-plotly-plot').data.map(t => t.name)")
            assert any("(mean of 3 seeds)" in n for n in names), names
        else:
            typed(page, "Seeds (runs per algorithm)", text, said(page, "seeds:"), "Run the comparison")
            assert "seeds" in refused(page, "seeds:")
        settle(page)
    screenshot(page, "typed_compare_form")
