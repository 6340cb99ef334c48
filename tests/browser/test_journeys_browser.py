"""Journeys a person takes through the app, walked in a real browser at 1920x1080 and 1366x768: clicking, typing
and reading what is on screen. One server and one browser serve every test (session fixtures); a console error
or an uncaught page error fails the test (conftest's autouse check). Screenshots of each step go to
artifacts/screenshots/journey_*.png."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import banditviz
from tests.browser.steps import (
    CONTROLS,
    IDLE,
    again,
    choose_radio,
    choose_tab,
    holds_in_page,
    open_expander,
    poll,
    press,
    settle,
)

pytestmark = pytest.mark.browser

FULL_HD, LAPTOP = (1920, 1080), (1366, 768)
FIGURE = ".js-plotly-plot"
PREVIEW = ".bv-canvas .bv-arm, .js-plotly-plot"  # Design's preview: the arms canvas (2-D fixed means), else Plotly
SMALL = "T=300&seed=0"


def open_at(new_context, server: str, path: str, size=FULL_HD):
    page = new_context(*size).new_page()
    page.goto(f"{server}/{path}")
    settle(page)
    return page


def sidebar(page) -> str:
    return page.locator("[data-testid='stSidebar']").inner_text()


def query(page) -> dict[str, str]:
    return {k: v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query).items()}


def wait_text(page, text: str, where: str = "body", timeout: float = 60_000) -> None:
    page.locator(where).filter(has_text=text).first.wait_for(timeout=timeout)


def no_traceback(page) -> None:
    assert page.locator("[data-testid='stException']").count() == 0


def run_comparison(page, add: str | None = None) -> None:
    """On Compare: 2 seeds, ``add`` typed into the algorithm picker (if given), Run, and wait for the summary."""
    page.get_by_label("Seeds (runs per algorithm)").fill("2")
    if add:  # typed into the picker, again when a rerun lost it: its chip is the sign it was taken
        chip = page.locator("[data-testid='stMultiSelectTagsContainer']", has_text=add)
        again(page, lambda: added(page, add), lambda: chip.count() > 0, f"{add} added to the algorithms")
    ran_comparison(page)


def added(page, name: str) -> None:
    """Type ``name`` into Compare's algorithm picker and take the first match."""
    page.get_by_role("combobox", name="Algorithms").click()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")


def ran_comparison(page) -> None:
    """Press Compare's Run and wait for the summary table."""
    table = page.locator("[data-testid='stDataFrame']")
    press(page, page.get_by_role("button", name="Run the comparison"), lambda: table.count() > 0, "the comparison")
    settle(page)


def go(page, title: str) -> None:
    """Click a page's link in the sidebar, as a person does (again when a rerun lost the click)."""
    opened(page, page.locator(".st-key-bv_nav a", has_text=title), HEADINGS[title])
    settle(page)


def toggled(page, toggle, presenting: bool) -> None:
    """Click the presentation-mode ``toggle`` until the address bar says ``presenting``."""
    press(page, toggle, holds_in_page(page, "(on) => location.search.includes('present=1') === on", presenting),
          f"presentation mode {'on' if presenting else 'off'}")


def opened(page, link, heading: str) -> None:
    """Click ``link`` until the page headed ``heading`` is on screen."""
    shown = lambda: page.locator("[data-testid='stMain']").filter(has_text=heading).count() > 0  # noqa: E731
    press(page, link, shown, f"the page headed {heading!r} opened")


HEADINGS = {"Watch": "Watch an algorithm learn", "Design": "Design an instance", "Compare": "Compare algorithms",
            "Papers": "The papers", "Learn": "Learn: Pareto bandits"}
# In presentation mode Watch is headed by its run (the figure leaves its title to the page).
PRESENTING_HEADINGS = {**HEADINGS, "Watch": "pareto_ucb1 on default"}


# The number of arm markers the page's first figure draws, by trace type (the preview's fronts are drawn as markers;
# `_fullData` holds the decoded arrays, `data` may hold them base64-encoded; `{}` while no figure is drawn).
PREVIEW_POINTS = """() => { const out = {}, el = document.querySelector('.js-plotly-plot');
  for (const t of (el && el._fullData) || []) {  // none while a rerun replaces the figure
    if (t.type === 'mesh3d' || !(t.mode || 'markers').includes('markers')) continue;
    out[t.type || 'scatter'] = (out[t.type || 'scatter'] || 0) + (t.x || []).length; }
  return out; }"""


def pick(page, label: str, option: str) -> None:
    """Choose ``option`` in the selectbox labelled ``label``: click it, type the option (the menu draws only some
    options of a long list, so a person types to narrow it), click the option."""
    choice = page.get_by_role("option", name=option).first
    for attempt in range(3):  # a rerun may redraw the selectbox and close its menu, even between seeing the
        page.get_by_label(label, exact=True).first.click()  # option and clicking it: try the whole step again
        page.keyboard.type(option)
        try:
            choice.click(timeout=5_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                page.screenshot(path=f"artifacts/screenshots/journey_pick_failed_{label.replace(' ', '_')}.png")
                raise
            page.keyboard.press("Escape")
            settle(page)


# ---------------------------------------------------------------------- deep links
def test_each_page_address_opens_the_full_app_on_that_page(new_context, server, screenshot):
    size = LAPTOP
    page = new_context(*size).new_page()
    for path, title in (("design", "Design"), ("compare", "Compare"), ("papers", "Papers"), ("learn", "Learn"),
                        ("", "Watch")):
        page.goto(f"{server}/{path}?preset=default_3d&alg=pareto_ts&{SMALL}")
        settle(page)
        wait_text(page, HEADINGS[title], "[data-testid='stMain']")
        side = sidebar(page)
        assert "Current setting" in side and "default 3D" in side and "pareto_ts, T = 300" in side
        links = [a.inner_text().split()[-1] for a in page.locator(".st-key-bv_nav a").all()]  # after the icon's name
        assert links == list(HEADINGS)
        assert urllib.parse.urlparse(page.url).path == f"/{path}" and query(page)["T"] == "300"
        no_traceback(page)
        screenshot(page, f"journey_deeplink_{path or 'watch'}_{size[0]}")


# ---------------------------------------------------------------------- a link with one bad value
def test_a_link_with_one_bad_value_keeps_the_rest(new_context, server, screenshot):
    page = open_at(new_context, server, f"?preset=default_3d&alg=pareto_ts&T={10**12}&seed=4", LAPTOP)
    warning = page.locator("[data-testid='stAlertContentWarning']").first
    warning.wait_for()
    assert "T" in warning.inner_text() and "refused" in warning.inner_text()
    side = sidebar(page)
    assert "default 3D" in side and "pareto_ts, T = 2,000, seed 4" in side
    page.wait_for_function("() => location.search.includes('T=2000')")
    assert {k: query(page)[k] for k in ("preset", "alg", "seed")} == {"preset": "default_3d", "alg": "pareto_ts",
                                                                      "seed": "4"}
    screenshot(page, "journey_bad_link")


# ---------------------------------------------------------------------- every kind and family, page by page
@pytest.mark.parametrize("preset, algorithm, size", [
    ("psi_gap_example", "gege_fc", LAPTOP),           # fixed means, identification
    ("lexicographic_lambda_0.1", "pf_lex", FULL_HD),  # linear, lexicographic
    ("mol_ts_2d", "mol_ts", LAPTOP),                  # contextual, regret
    ("risk_averse_easy", "ramgape_b", FULL_HD),       # distributions, risk-averse
])
def test_watch_default_path_for_every_kind_and_family(new_context, server, screenshot, preset,
                                                                  algorithm, size):
    page = open_at(new_context, server, f"?preset={preset}&alg={algorithm}&T=200&seed=0", size)
    page.wait_for_selector(FIGURE, timeout=60_000)
    wait_text(page, "Played", "[data-testid='stMarkdown']")
    no_traceback(page)
    name, side = banditviz.preset(preset).name, sidebar(page)
    assert name in side and f"Algorithm: {algorithm}" in side
    screenshot(page, f"journey_watch_{preset}")


# ---------------------------------------------------------------------- Design: edits survive navigation
def edit_cell(page, row: int, column: int, value: str, columns: int = 3) -> None:
    """Type ``value`` into the arm table's cell (row, column), as a person does: click, Enter, type, Enter.
    Columns count the arm name as 0; the grid draws a row-marker column (33 px) and equal-width columns."""
    table = page.locator("[data-testid='stDataFrame']").first
    editor = page.locator("#portal textarea, #portal input").first
    for attempt in range(8):  # the grid may still be settling after a rerun: measure it again, click until it opens
        settle(page)
        table.wait_for(state="visible", timeout=20_000)
        table.evaluate("e => e.scrollIntoView({block: 'center'})")  # its rows may be under the fold
        grid = table.bounding_box()
        width = (grid["width"] - 33) / columns
        page.mouse.click(grid["x"] + 33 + (column + 0.5) * width, grid["y"] + 35 + 35 * row + 17)
        page.keyboard.press("Enter")
        try:  # a late rerun may redraw the grid and close the editor before the value is in: open it again
            editor.wait_for(timeout=2_000)
            editor.fill(value, timeout=5_000)
            break
        except PlaywrightTimeout:
            page.screenshot(path=f"artifacts/screenshots/journey_edit_cell_retry_{attempt}.png")  # for a person to see
    editor.press("Enter")


def link_means(page) -> list[list[float]]:
    return json.loads(query(page)["inst"])["means"] if "inst" in query(page) else []


def wait_means(page, row: int, column: int, value: float) -> None:
    """Wait until the link holds ``value`` at means[row][column] (the app rewrites it after each edit)."""
    if not poll(page, lambda: (link_means(page) or [[None] * (column + 1)] * (row + 1))[row][column] == value, 30_000):
        raise AssertionError(f"means[{row}][{column}] != {value} in the link: {link_means(page)}")


def test_design_edits_are_kept_across_pages(new_context, server, screenshot, tmp_path):
    page = open_at(new_context, server, f"design?preset=default&alg=pareto_ucb1&{SMALL}")
    page.wait_for_selector(PREVIEW)
    edit_cell(page, 0, 1, "0.97")
    wait_means(page, 0, 0, 0.97)
    edit_cell(page, 1, 2, "0.51")
    wait_means(page, 1, 1, 0.51)
    settle(page)
    screenshot(page, "journey_design_two_edits")
    go(page, "Watch")
    page.wait_for_selector(FIGURE)
    assert "custom (from default)" in sidebar(page)
    go(page, "Design")
    page.wait_for_selector(PREVIEW)
    screenshot(page, "journey_design_back")  # the table shows 0.970 and 0.510 (looked at)
    edit_cell(page, 2, 1, "0.61")
    wait_means(page, 2, 0, 0.61)
    means = link_means(page)
    assert (means[0][0], means[1][1], means[2][0]) == (0.97, 0.51, 0.61)  # every edit kept
    assert "custom (from default)" in page.locator("h3").first.inner_text()
    settle(page)  # the link is written during the edit's run: the button may still be drawn anew
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    button = page.get_by_role("button", name="Export JSON")  # disabled while a click's file is being made
    again(page, lambda: button.click(timeout=120_000), lambda: downloads, "Export JSON's download")
    exported = json.loads(open(downloads[0].path()).read())
    assert exported["name"] == "custom (from default)" and exported["means"][2][0] == 0.61
    screenshot(page, "journey_design_third_edit")


def choose_file(page, path, said: str) -> None:
    """Choose ``path`` in the page's file field until an error saying ``said`` shows, as a person chooses a file
    again when nothing happened: under load a chosen file once showed no message within 60 s (1 of 4 fresh-clone
    runs, and once in a loaded run of the browser tests; not reproduced alone, cause not found)."""
    said_it = page.locator("[data-testid='stAlertContentError']").filter(has_text=said)
    again(page, lambda: page.locator("input[type='file']").set_input_files(str(path)), said_it.count,
          f"the message {said!r} after choosing {path.name}", within_ms=25_000)


def test_a_rejected_upload_shows_its_own_message(new_context, server, screenshot, tmp_path):
    page = open_at(new_context, server, f"design?preset=default&alg=pareto_ucb1&{SMALL}", LAPTOP)
    choose_tab(page, "Import JSON")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"kind": "means", "means": [[0.5, "x"], [0.1, 0.2]]}))
    choose_file(page, bad, "Upload not loaded")
    no_traceback(page)
    assert "means" in page.locator("[data-testid='stAlertContentError']").first.inner_text()
    big = tmp_path / "big.json"
    big.write_text(" " * 2_400_000 + "{}")
    choose_file(page, big, "big.json")
    # the upload's messages: one, the new file's (another field's message is not this journey's: once, under load,
    # the noise field's "sigma ... got 0.0" showed beside it, the field untouched; cause not found, see the note)
    errors = [e for e in page.locator("[data-testid='stAlertContentError']").all_inner_texts() if "Upload" in e]
    assert len(errors) == 1 and "larger than" in errors[0] and "bad.json" not in errors[0], errors
    assert query(page)["preset"] == "default"  # the instance is kept
    screenshot(page, "journey_design_big_upload")


def test_an_empty_new_row_in_the_arm_table_names_its_cell_and_keeps_the_instance(new_context, server, screenshot):
    page = open_at(new_context, server, f"design?preset=default&alg=pareto_ucb1&{SMALL}", LAPTOP)
    page.wait_for_selector(PREVIEW)
    table = page.locator("[data-testid='stDataFrame']").first
    table.wait_for(state="visible")
    table.hover()  # shows the table's toolbar
    page.get_by_role("button", name="Add row").first.evaluate("button => button.click()")  # the grid overlaps it
    wait_text(page, "Table not applied", "[data-testid='stAlertContentError']")
    settle(page)
    message = page.locator("[data-testid='stAlertContentError']").first.inner_text()
    assert "row 11" in message and "objective 1" in message, message
    assert query(page)["preset"] == "default" and "10 arms" in sidebar(page)  # the instance is unchanged
    no_traceback(page)
    screenshot(page, "journey_design_empty_row")


# ---------------------------------------------------------------------- the sidebar follows at once
def test_sidebar_and_captions_show_the_setting_just_made(new_context, server, screenshot, run_form):
    page = open_at(new_context, server, f"?preset=default&alg=pareto_ucb1&{SMALL}", LAPTOP)
    page.wait_for_selector(FIGURE)
    open_expander(page, CONTROLS)
    run_form(page, {"Seed": "7"}, "seed=7")
    settle(page)
    assert "seed 7" in sidebar(page)  # on the same screen as the run it names
    wait_text(page, ", seed 7", ".js-plotly-plot .gtitle")
    screenshot(page, "journey_sidebar_after_run")
    go(page, "Design")
    choose_tab(page, "Generate")
    page.get_by_label("arms K").fill("8")
    page.get_by_label("objectives L").fill("3")
    page.get_by_label("objectives L").press("Tab")
    generated = holds_in_page(page, "() => location.search.includes('gen=')")
    press(page, page.get_by_role("button", name="Generate"), generated, "the generated instance")
    settle(page)
    assert "8 arms, 3 objectives" in sidebar(page)
    name = "uniform box K=8 L=3 seed=0"  # the generated instance's name
    # the table's title names it (read when the rerun has drawn it: a quick rerun may end before `settle` looks)
    page.wait_for_function(f"() => document.querySelector('h3')?.innerText.includes('{name}')", timeout=20_000)
    page.wait_for_function(f"() => JSON.stringify(({PREVIEW_POINTS})()) === '{{\"scatter3d\":8}}'",
                           timeout=20_000)  # the preview draws its 8 arms in 3-D (once Plotly has redrawn it)
    screenshot(page, "journey_sidebar_after_generate")
    go(page, "Watch")
    page.wait_for_selector(FIGURE)
    caption = page.locator("[data-testid='stMain'] [data-testid='stCaptionContainer']").filter(has_text="Instance")
    assert f"Instance {name}: 8 arms, 3 objectives" in caption.first.inner_text()
    assert "8 arms, 3 objectives" in sidebar(page)
    screenshot(page, "journey_sidebar_generated_on_watch")


# ---------------------------------------------------------------------- Compare, per family and mixed
@pytest.mark.parametrize("preset, algorithm, add, tabs", [
    ("psi_gap_example", "gege_fc", None, ["Sample complexity and success"]),
    ("risk_averse_easy", "ramgape_b", None, ["Sample complexity and success"]),
    ("default", "pareto_ucb1", "gege_fc", ["Regret curves", "Sample complexity and success"]),
])
def test_compare_runs_its_defaults(new_context, server, screenshot, preset, algorithm, add, tabs):
    page = open_at(new_context, server, f"compare?preset={preset}&alg={algorithm}&T=200&seed=0", LAPTOP)
    run_comparison(page, add)
    no_traceback(page)
    assert page.locator("[data-testid='stAlertContentError']").count() == 0
    shown = [t.inner_text() for t in page.get_by_role("tab").all()]
    assert [t for t in shown if t in ("Regret curves", "Sample complexity and success")] == tabs, shown
    # Streamlit draws a chart's placeholder first, then Plotly's chart: a fresh-clone run counted the placeholders
    page.locator(FIGURE).first.wait_for(timeout=30_000)
    screenshot(page, f"journey_compare_{preset}", height=1600)


# ---------------------------------------------------------------------- Learn: words and pictures agree
def test_learn_steps_three_and_five(new_context, server, screenshot):
    page = open_at(new_context, server, f"learn?preset=default&alg=pareto_ucb1&{SMALL}")
    learn_boxes_at_2000(page)
    settle(page)
    screenshot(page, "journey_learn_boxes_2000")
    choose_radio(page, "5 Pareto regret")
    wait_text(page, "grows ever more slowly", "[data-testid='stMarkdown']")
    pick(page, "Try it: pick an arm", "arm 9")
    wait_text(page, "arm 9 is dominated", "h3")
    settle(page)
    screenshot(page, "journey_learn_regret_arm9")


# ---------------------------------------------------------------------- Compare: a large run, cancelled
def test_a_large_comparison_shows_progress_and_can_be_cancelled(new_context, server, worker_cpu, screenshot):
    # MOL-TS plays its rounds in Python (no compiled loop): each run of 100,000 rounds keeps a worker busy for long
    page = open_at(new_context, server, "compare?preset=mol_ts_2d&alg=mol_ts&T=100000&seed=0", LAPTOP)
    page.get_by_label("Seeds (runs per algorithm)").fill("100")
    page.get_by_label("Horizon T").fill("100000")
    bar = page.locator("[data-testid='stProgress']")
    press(page, page.get_by_role("button", name="Run the comparison"), lambda: bar.count() > 0, "the large comparison")
    page.wait_for_function("() => /[0-9]+ \\/ [0-9]+ runs, [1-9]/.test(document.body.innerText)", timeout=90_000)
    assert "s left" in bar.inner_text() or "runs" in bar.inner_text()
    screenshot(page, "journey_compare_large_running")
    cancelled = page.locator("[data-testid='stAlertContentInfo']").filter(has_text="The comparison was cancelled")
    press(page, page.get_by_role("button", name="Cancel"), lambda: cancelled.count() > 0, "the comparison cancelled")
    settle(page)
    page.wait_for_timeout(500)
    before = worker_cpu()
    page.wait_for_timeout(2_000)
    assert worker_cpu() - before < 0.3  # the runs that were inside workers stopped too
    assert bar.count() == 0 and page.locator(FIGURE).count() == 0
    assert page.get_by_label("Seeds (runs per algorithm)").input_value() == "100"  # nothing else lost
    screenshot(page, "journey_compare_cancelled")


# ---------------------------------------------------------------------- every page keeps what the user set
def rerun_done(page) -> None:
    """After a click that reruns the script: wait for the run to start, then to end."""
    try:
        page.wait_for_function(f"() => !({IDLE})()", timeout=2_000)
    except PlaywrightTimeout:
        pass  # the run ended before a look saw it
    settle(page)


def setting_text(page) -> str:
    """The sidebar's "Current setting" (without the sidebar's buttons, whose icons appear on hover)."""
    return sidebar(page).split("Current setting", 1)[1]


def selected_tab(page) -> str:
    return page.locator("[role='tab'][aria-selected='true']").first.inner_text()


def checked(page, label: str) -> bool:
    return page.get_by_label(label, exact=True).first.is_checked()


def learn_boxes_at_2000(page) -> None:
    """Learn's step 3 with its slider at the end (2,000 rounds)."""
    choose_radio(page, "3 Confidence boxes")
    rerun_done(page)
    slider = page.get_by_role("slider").first
    slider.wait_for()
    slider.focus()
    page.keyboard.press("End")
    wait_text(page, "After 2,000 rounds", "h3")


def learn_kept(page) -> None:
    wait_text(page, "After 2,000 rounds", "h3")
    assert checked(page, "3 Confidence boxes")


def watch_choices(page) -> None:
    pick(page, "Race against", "uniform")
    wait_text(page, "uniform played", "[data-testid='stMarkdown']")


def watch_kept(page) -> None:
    wait_text(page, "uniform played", "[data-testid='stMarkdown']")
    assert page.get_by_role("combobox", name="Race against").input_value() == "uniform"


def design_choices(page) -> None:
    choose_radio(page, "3D")
    rerun_done(page)
    choose_tab(page, "Generate")
    rerun_done(page)


def design_kept(page) -> None:
    assert selected_tab(page) == "Generate"
    choose_tab(page, "Papers' presets")
    settle(page)
    assert checked(page, "3D")


def compare_choices(page) -> None:
    page.get_by_label("Seeds (runs per algorithm)").fill("2")
    ran_comparison(page)
    choose_radio(page, "log rounds")
    rerun_done(page)
    choose_tab(page, "Estimated fronts over seeds")
    rerun_done(page)


def compare_kept(page) -> None:
    page.locator("[data-testid='stDataFrame']").last.wait_for(timeout=30_000)
    assert selected_tab(page) == "Estimated fronts over seeds"
    assert page.get_by_label("Seeds (runs per algorithm)").input_value() == "2"
    choose_tab(page, "Regret curves")
    settle(page)
    assert checked(page, "log rounds")


def papers_choices(page) -> None:
    choose_tab(page, "Risk-averse")
    rerun_done(page)
    choose_radio(page, "46")
    rerun_done(page)
    seeds = page.get_by_label("Seeds").first
    seeds.fill("2")
    seeds.press("Tab")
    rerun_done(page)


def papers_kept(page) -> None:
    assert page.get_by_role("tab", name="Risk-averse").get_attribute("aria-selected") == "true"
    assert checked(page, "46")
    assert page.get_by_label("Seeds").first.input_value() == "2"


@pytest.mark.parametrize("title, choose, kept", [
    ("Learn", learn_boxes_at_2000, learn_kept), ("Watch", watch_choices, watch_kept),
    ("Design", design_choices, design_kept), ("Compare", compare_choices, compare_kept),
    ("Papers", papers_choices, papers_kept),
], ids=lambda v: v if isinstance(v, str) else "")
def test_every_page_keeps_what_the_user_set_after_a_visit_to_another_page(new_context, server, screenshot, title,
                                                                          choose, kept):
    path = "" if title == "Watch" else title.lower()
    page = open_at(new_context, server, f"{path}?preset=default&alg=pareto_ucb1&T=200&seed=3", LAPTOP)
    choose(page)
    settle(page)
    link, side = query(page), setting_text(page)
    go(page, "Design" if title == "Watch" else "Watch")
    go(page, title)
    kept(page)
    no_traceback(page)
    assert query(page) == link and setting_text(page) == side  # the setting is untouched by the visit
    screenshot(page, f"journey_kept_{title.lower()}")


# ---------------------------------------------------------------------- reload and a fresh tab keep everything
# Whether the Design preview (the arms canvas) lists an arm at ``x`` (the first objective of an edited cell).
PREVIEW_HAS_X = ("(x) => [...document.querySelectorAll('.bv-canvas-gaps tbody tr')]"
                 ".some(r => Number(r.children[1].textContent) === x)")


def design_edit_kept(page) -> None:
    """The Design page shows the edited instance: its title, the sidebar, the link and the preview's point."""
    page.wait_for_selector(PREVIEW)
    wait_text(page, "custom (from default)", "h3")
    assert "custom (from default)" in sidebar(page)
    assert link_means(page)[0][0] == 0.97
    page.wait_for_function(PREVIEW_HAS_X, arg=0.97, timeout=30_000)
    no_traceback(page)


def watch_choices_kept(page) -> None:
    """Watch shows the algorithm, parameter and rival chosen before: the sidebar, the player's figure, the form."""
    page.wait_for_selector(FIGURE)
    wait_text(page, "mo_epsilon_greedy played", "[data-testid='stMarkdown']")
    wait_text(page, "uniform played", "[data-testid='stMarkdown']")
    assert "Algorithm: mo_epsilon_greedy, T = 300, seed 0" in sidebar(page)
    assert page.get_by_role("combobox", name="Race against").input_value() == "uniform"
    open_expander(page, CONTROLS)
    assert "mo_epsilon_greedy" in page.get_by_role("combobox", name="Algorithm").input_value()
    assert float(page.get_by_role("spinbutton", name="epsilon").input_value()) == 0.25
    no_traceback(page)


def test_reload_and_a_fresh_tab_keep_the_design_edit_and_the_watch_choices(new_context, server, screenshot, run_form):
    context = new_context(*LAPTOP)
    page = context.new_page()
    page.goto(f"{server}/design?preset=default&alg=pareto_ucb1&{SMALL}")
    settle(page)
    page.wait_for_selector(PREVIEW)
    edit_cell(page, 0, 1, "0.97")
    wait_means(page, 0, 0, 0.97)
    settle(page)
    page.reload()
    settle(page)
    design_edit_kept(page)
    screenshot(page, "journey_reload_design")
    tab = context.new_page()  # the current address in a fresh tab: a new session
    tab.goto(page.url)
    settle(tab)
    design_edit_kept(tab)
    screenshot(tab, "journey_fresh_tab_design")
    tab.close()

    go(page, "Watch")
    open_expander(page, CONTROLS)
    pick(page, "Algorithm", "mo_epsilon_greedy")
    run_form(page, {"epsilon": "0.25"}, "alg=mo_epsilon_greedy")
    settle(page)
    pick(page, "Race against", "uniform")
    page.wait_for_function("() => location.search.includes('race=uniform')")
    settle(page)
    assert json.loads(query(page)["p"]) == {"epsilon": 0.25}
    page.reload()
    settle(page)
    watch_choices_kept(page)
    assert link_means(page)[0][0] == 0.97  # the Design edit too
    screenshot(page, "journey_reload_watch")
    tab = context.new_page()
    tab.goto(page.url)
    settle(tab)
    watch_choices_kept(tab)
    screenshot(tab, "journey_fresh_tab_watch")


# ---------------------------------------------------------------------- every page on each instance kind
def page_is_clean(page, name: str) -> None:
    """No traceback, no error message, and the sidebar names the instance."""
    no_traceback(page)
    errors = page.locator("[data-testid='stAlertContentError']").all_inner_texts()
    assert not errors, errors
    assert f"Instance: {name}" in sidebar(page)


@pytest.mark.parametrize("preset", ["lexicographic_lambda_0.1", "mol_ts_3d", "risk_averse_table1"],
                         ids=["linear", "contextual", "distributions"])
def test_every_page_on_an_instance_of_each_kind(new_context, server, screenshot, preset):
    name = banditviz.preset(preset).name
    page = open_at(new_context, server, "design?preset=default&alg=pareto_ucb1&T=300&seed=0", LAPTOP)
    choose_radio(page, "any", page.locator("[data-testid='stRadio']").filter(has_text="Objectives drawn"))
    rerun_done(page)
    pick(page, "Preset", preset)
    rerun_done(page)
    loaded = page.locator("[data-testid='stSidebar']").filter(has_text=f"Instance: {name}")
    press(page, page.get_by_role("button", name="Load preset"), lambda: loaded.count() > 0, f"the preset {name!r}")
    settle(page)
    wait_text(page, f"Arms of {name}", "h3")
    page.wait_for_selector(FIGURE)
    page_is_clean(page, name)
    screenshot(page, f"journey_kind_{preset}_design")

    go(page, "Watch")
    page.wait_for_selector(FIGURE)
    wait_text(page, " played ", "[data-testid='stMarkdown']")
    page_is_clean(page, name)
    screenshot(page, f"journey_kind_{preset}_watch")

    go(page, "Compare")
    ran_comparison(page)  # its defaults: the algorithms of the task
    assert page.locator(FIGURE).count() >= 1
    page_is_clean(page, name)
    screenshot(page, f"journey_kind_{preset}_compare", height=1600)

    for title in ("Learn", "Papers"):
        go(page, title)
        page.wait_for_selector(FIGURE)
        page_is_clean(page, name)
        screenshot(page, f"journey_kind_{preset}_{title.lower()}")
    assert query(page)["preset"] == preset  # the link still holds the instance


# ---------------------------------------------------------------------- the first load, on a fresh server
# Installed before any page script: records, from navigation start, whether Streamlit's legacy navigation of the
# pages/ folder (raw file names) or a Deploy button is ever in the page, on every DOM change and every 20 ms.
FIRST_LOAD_PROBE = """
window.__bvFirstLoad = {legacyNav: [], deploy: 0, looks: 0};
const look = () => {
  window.__bvFirstLoad.looks++;
  for (const el of document.querySelectorAll('[data-testid^="stSidebarNav"]'))
    window.__bvFirstLoad.legacyNav.push(el.getAttribute('data-testid') + ': ' + (el.innerText || '').slice(0, 80));
  if (document.querySelector('[data-testid="stAppDeployButton"]')) window.__bvFirstLoad.deploy++;
};
new MutationObserver(look).observe(document, {childList: true, subtree: true, attributes: true});
setInterval(look, 20);
"""


def test_first_load_shows_one_navigation_no_deploy_button_and_asks_nothing_off_the_machine(
        fresh_server, new_context, console_log, screenshot):
    """On a server no session has reached yet (the only state in which Streamlit's legacy pages/ navigation can
    show), a deep link and then the landing page: the probe watches from navigation start."""
    for path, title in (("design?preset=default_3d&alg=pareto_ts&T=300&seed=0", "Design"), ("", "Watch")):
        context = new_context(*LAPTOP)
        context.add_init_script(FIRST_LOAD_PROBE)
        page = context.new_page()
        page.goto(f"{fresh_server}/{path}")
        settle(page)
        wait_text(page, HEADINGS[title], "[data-testid='stMain']")
        page.wait_for_selector(FIGURE)
        probe = page.evaluate("() => window.__bvFirstLoad")
        assert probe["looks"] > 10  # the probe ran throughout
        assert probe["legacyNav"] == [], probe["legacyNav"][:5]
        assert probe["deploy"] == 0 and page.get_by_role("button", name="Deploy").count() == 0
        icons = page.evaluate("() => [...document.querySelectorAll('link[rel~=icon]')].map(l => l.href)")
        assert icons, "no page icon"
        assert not [u for u in icons if urllib.parse.urlparse(u).hostname not in (None, "127.0.0.1")], icons
        screenshot(page, f"journey_first_load_{title.lower()}")
    assert console_log.off_machine == []  # nothing (the page icon, fonts) was asked from off the machine


# ---------------------------------------------------------------------- presentation mode, app-wide
def font_px(page, selector: str) -> float:
    return page.evaluate("(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)", selector)


# The smallest font of the page's own text (paragraphs, list items, captions, widget labels; not the bar of links).
SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll(
  '[data-testid="stMain"] [data-testid="stMarkdownContainer"]')
  ].filter(el => !el.closest('.st-key-bv_present_bar') && el.offsetParent !== null && el.innerText.trim())
  .map(el => parseFloat(getComputedStyle(el.querySelector('p, li') || el).fontSize)))"""


def presenting_clean(page, heading: str) -> None:
    """The page in presentation mode: no sidebar, header or toolbar; larger text; the link keeps present=1."""
    wait_text(page, heading, "[data-testid='stMain']")
    page.wait_for_function("() => location.search.includes('present=1')")
    # the style may come a moment after the page's first elements (a first load): then it holds
    page.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '20px'", timeout=30_000)
    for chrome in ("stSidebar", "stHeader", "stToolbar"):
        assert not page.locator(f"[data-testid='{chrome}']").is_visible(), chrome
    assert font_px(page, "html") == 20
    assert page.evaluate(SMALLEST_TEXT) >= 17.5  # a caption's 0.875 rem at 20 px (14 px in normal mode)
    assert page.locator(".st-key-bv_present_bar a").count() == 5
    no_traceback(page)


# From navigation start: how many times (every DOM change, every 10 ms) the sidebar was seen on screen.
SIDEBAR_PROBE = """
window.__bvSidebarSeen = 0;
const seen = () => { const s = document.querySelector('[data-testid="stSidebar"]');
  if (s && getComputedStyle(s).display !== 'none') window.__bvSidebarSeen++; };
new MutationObserver(seen).observe(document, {childList: true, subtree: true});
setInterval(seen, 10);
"""


def test_presentation_mode_holds_on_every_page(new_context, server, screenshot):
    page = open_at(new_context, server, f"?preset=default&alg=pareto_ucb1&{SMALL}", FULL_HD)
    page.wait_for_selector(FIGURE)
    assert page.locator("[data-testid='stSidebar']").is_visible() and page.evaluate(SMALLEST_TEXT) <= 14
    toggled(page, page.locator("[data-testid='stMain']").get_by_text("Presentation mode"), True)  # Watch's toggle
    presenting_clean(page, PRESENTING_HEADINGS["Watch"])
    for title in ("Design", "Compare", "Papers", "Learn", "Watch"):
        opened(page, page.locator(".st-key-bv_present_bar a", has_text=title), PRESENTING_HEADINGS[title])  # the bar
        presenting_clean(page, PRESENTING_HEADINGS[title])
        settle(page)
        if title != "Compare":  # (Compare draws its figures after a run; Design's 2-D preview is its arms canvas)
            page.wait_for_selector(".bv-canvas .bv-arm" if title == "Design" else FIGURE)
        page.wait_for_timeout(800)  # tables and figures finish drawing
        screenshot(page, f"journey_present_{title.lower()}")
    context = new_context(*LAPTOP)  # the link, opened elsewhere on another page
    context.add_init_script(SIDEBAR_PROBE)
    other = context.new_page()
    other.goto(f"{server}/compare?present=1&preset=default&alg=pareto_ucb1&{SMALL}")
    settle(other)
    presenting_clean(other, HEADINGS["Compare"])
    assert other.evaluate("() => window.__bvSidebarSeen") == 0  # not even for a moment while the page loaded
    toggled(other, other.locator(".st-key-bv_present_bar").get_by_text("Presentation mode"), False)  # and out again
    settle(other)
    other.locator("[data-testid='stSidebar'] .st-key-bv_nav").wait_for(state="visible", timeout=30_000)  # back
    other.wait_for_function("() => getComputedStyle(document.documentElement).fontSize === '16px'", timeout=30_000)
    assert other.locator(".st-key-bv_present_bar").count() == 0
    screenshot(other, "journey_present_off_compare")
