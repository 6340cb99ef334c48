"""An outside algorithm in a real browser (issue 25): a plugin module named by BANDITVIZ_PLUGINS is listed on Watch
and Compare marked as external and plays; a failing one is named on Watch with its round and seed. Screenshots at
1366x768 go to artifacts/screenshots/."""

from __future__ import annotations

import textwrap

import pytest

from .conftest import ROOT, SHOTS, streamlit_server
from .steps import CONTROLS, open_expander, press
from .test_app_browser import FIGURE, no_exception, wait_app

pytestmark = pytest.mark.browser

PLUGIN = """
from greedy_pareto import GreedyPareto
from banditviz import register

@register("fails_at_7", paper="test plugin", task="regret", kinds=("means",), params=GreedyPareto.spec.params)
class FailsAt7(GreedyPareto):
    def select(self, t):
        if t == 7:
            raise ZeroDivisionError("division by zero")
        return super().select(t)
"""


@pytest.fixture()
def plugin_server(tmp_path, monkeypatch):
    (tmp_path / "my_bandits.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}:{ROOT / 'examples'}")
    monkeypatch.setenv("BANDITVIZ_PLUGINS", "greedy_pareto,my_bandits")
    with streamlit_server() as (url, _pid):
        yield url


def test_a_plugin_algorithm_on_watch_and_compare_and_a_failing_one_named(plugin_server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{plugin_server}/?preset=default&alg=greedy_pareto&T=300&seed=0")
    wait_app(page)
    page.wait_for_selector(FIGURE, timeout=60_000)
    no_exception(page)
    open_expander(page, CONTROLS)
    page.screenshot(path=str(SHOTS / "plugin_watch.png"))
    page.wait_for_function("() => [...document.querySelectorAll('input, [data-baseweb=select]')].some(e => "
                           "(e.value || e.textContent || '').includes('greedy_pareto (external)'))", timeout=30_000)

    page.goto(f"{plugin_server}/?preset=default&alg=fails_at_7&T=300&seed=4")
    wait_app(page)
    error = page.locator("[data-testid='stAlert']", has_text="algorithm fails_at_7 failed at round 7 (seed 4)")
    error.wait_for(timeout=30_000)
    assert page.get_by_text("Something went wrong").count() == 0
    no_exception(page)
    page.screenshot(path=str(SHOTS / "plugin_watch_error.png"))

    page.goto(f"{plugin_server}/compare?preset=default&alg=greedy_pareto&T=200&seed=0")
    wait_app(page)
    page.get_by_text("Also run these settings").wait_for()
    page.locator("textarea").fill("greedy_pareto epsilon=0.5")
    setting = page.get_by_text("greedy_pareto (epsilon=0.5)")
    press(page, page.get_by_role("button", name="Run the comparison"), lambda: setting.count() > 0, "the comparison")
    no_exception(page)
    page.screenshot(path=str(SHOTS / "plugin_compare.png"), full_page=True)
    page.close()
