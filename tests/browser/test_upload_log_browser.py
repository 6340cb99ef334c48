"""A run logged by one's own code, uploaded on Watch in a real browser at 1366x768 (issue 25): a bad file is a message
in the page naming the column and the row (the simulated run still plays), a good one without true means is played by
the same player, its figure titled as the logged run, its curves the mean reward so far, no truth drawn, and the page
says why. Screenshots go to artifacts/screenshots/ (logs_watch_bad.png, logs_watch.png)."""

from __future__ import annotations

import numpy as np
import pytest

from .conftest import SHOTS
from .steps import open_expander
from .test_app_browser import FIGURE, no_exception, wait_app

pytestmark = pytest.mark.browser

def logged_run() -> bytes:
    rng = np.random.default_rng(0)
    means = np.array([[0.9, 0.2], [0.6, 0.6], [0.2, 0.9], [0.3, 0.3]])
    rows = ['# {"algorithm": "my_greedy", "seed": 7}', "round,arm,reward[speed],reward[comfort]"]
    for t in range(1, 401):
        arm = (t - 1) % 4 if t <= 40 else int(rng.integers(0, 3))
        r = means[arm] + 0.3 * rng.normal(size=2)
        rows.append(f"{t},{arm},{r[0]:.4f},{r[1]:.4f}")
    return ("\n".join(rows) + "\n").encode()


def test_a_logged_run_uploaded_on_watch_is_played_and_a_bad_one_named(server, browser):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/?preset=default&alg=pareto_ucb1&T=300&seed=0")
    wait_app(page)
    page.wait_for_selector(FIGURE, timeout=60_000)
    open_expander(page, "Play a run you logged")
    uploader = page.locator(".st-key-watch_log input[type=file]")

    bad = b"round,arm,reward[speed],reward[comfort]\n1,0,0.5,0.5\n2,2.9,0.1,0.2\n"
    uploader.set_input_files(files=[{"name": "bad.csv", "mimeType": "text/csv", "buffer": bad}])
    error = page.locator("[data-testid='stAlert']", has_text="bad.csv was not read: arm: row 2 (line 3 of the file) "
                                                             "has '2.9'; allowed an arm index")
    error.wait_for(timeout=30_000)
    wait_app(page)
    assert page.get_by_text("Something went wrong").count() == 0
    no_exception(page)
    page.wait_for_function("() => document.querySelector('.js-plotly-plot .gtitle')?.textContent"
                           ".includes('pareto_ucb1 on default')", timeout=30_000)  # the simulated run still plays
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "logs_watch_bad.png"))

    uploader.set_input_files(files=[{"name": "mine.csv", "mimeType": "text/csv", "buffer": logged_run()}])
    page.wait_for_function("() => document.querySelector('.js-plotly-plot .gtitle')?.textContent"
                           ".includes('my_greedy on logged run, seed 7')", timeout=60_000)
    wait_app(page)
    no_exception(page)
    page.get_by_text("Playing the logged run my_greedy: 400 rounds, 4 arms, 2 objectives").wait_for()
    page.get_by_text("The true means are unknown (the log gives none)").wait_for()
    drawn = page.evaluate("() => document.querySelector('.js-plotly-plot').textContent")
    assert "mean reward so far" in drawn and "true means unknown" in drawn
    assert "true mean (unseen" not in drawn and "Pareto regret" not in drawn
    assert "confidence box" not in drawn and "goes on past" not in drawn  # the log gives no bounds
    assert "speed" in drawn and "comfort" in drawn  # the objectives named by the log's reward columns
    page.wait_for_function("() => document.querySelector('.bv-explain .bv-at')?.textContent.startsWith('Round ')",
                           timeout=20_000)
    page.locator(".bv-explain").click()  # focus out of the uploader, then the last round: the explanation follows
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('.bv-explain .bv-at')?.textContent.includes('Round 400')",
                           timeout=20_000)
    page.mouse.move(600, 400)
    page.mouse.wheel(0, -5000)  # back to the top of the page: the title in view
    page.wait_for_timeout(500)
    page.screenshot(path=str(SHOTS / "logs_watch.png"))
    page.close()
