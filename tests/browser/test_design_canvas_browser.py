"""The Design page's arms canvas (issue 26): arms dragged, added and removed with the mouse and the keyboard.

* The geometry the page computes while an arm moves (`design_geometry.js`) is banditviz.pareto's on the same
  points: masks equal, gaps within 1e-12, the drawn staircase and hull the same polylines, on random, tied,
  duplicated and collinear points; a naive variant (the effective front taken as the Pareto front, the effective gap
  as the Pareto gap) is rejected by the same comparison.
* A drag moves the arm, its class, the fronts and every gap while the pointer moves, with no message to the server
  (the websocket frames sent are counted), and the drawn state matches banditviz.pareto on the drawn points; on
  release the link, the title and the arm table (Streamlit's grid, read through its accessible table) follow, and
  Undo and Redo go back and forth.
* A click on empty space adds an arm, Delete removes the selected one, the arrow keys move it.
Screenshots: artifacts/screenshots/design_canvas_*.png.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from banditviz import pareto
from tests.browser.steps import again, holds_in_page, settle
from tests.browser.test_journeys_browser import LAPTOP, link_means, open_at, query, sidebar

pytestmark = pytest.mark.browser

GEOMETRY = (Path(__file__).resolve().parents[2] / "banditviz_app" / "design_geometry.js").read_text()
ARM = ".bv-canvas .bv-arm"


def cases() -> list[np.ndarray]:
    """Random points, points on a coarse grid (ties, duplicates, dominated and weakly dominated arms), collinear
    fronts, and the default preset's shape."""
    rng = np.random.default_rng(26)
    out = [rng.uniform(-1, 2, size=(int(rng.integers(2, 13)), 2)) for _ in range(60)]
    out += [rng.integers(0, 5, size=(int(rng.integers(2, 12)), 2)) / 4.0 for _ in range(60)]
    out += [np.column_stack([t, 1 - t]) for t in (np.linspace(0, 1, 5), np.array([0.0, 0.25, 0.25, 1.0]))]
    out += [np.array([[2, 0], [0, 2], [1, 0.9], [1, 1], [0.5, 0.5]], dtype=float)]
    return out


def expected(mu: np.ndarray) -> dict:
    x, y = pareto.pareto_staircase_2d(mu)
    hull = np.unique(mu[pareto.upper_hull_2d(mu)], axis=0)
    return {"pareto": pareto.pareto_mask(mu).tolist(), "effective": pareto.effective_pareto_mask(mu).tolist(),
            "paretoGap": pareto.pareto_gap(mu).tolist(), "effectiveGap": pareto.effective_gap(mu).tolist(),
            "staircase": np.column_stack([x, y]).tolist(), "hull": hull[np.argsort(hull[:, 0])].tolist()}


def mismatches(got: dict, mu: np.ndarray) -> list[str]:
    want = expected(mu)
    out = [k for k in ("pareto", "effective") if got[k] != want[k]]
    out += [k for k in ("paretoGap", "effectiveGap", "staircase", "hull")
            if np.shape(got[k]) != np.shape(want[k]) or not np.allclose(got[k], want[k], rtol=0, atol=1e-12)]
    return out


def test_the_pages_geometry_is_banditviz_pareto(browser):
    page = browser.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=GEOMETRY)
    points = [mu.tolist() for mu in cases()]
    got = page.evaluate("(all) => all.map((mu) => bvGeometry.analyse(mu))", points)
    bad = {i: mismatches(g, np.asarray(mu)) for i, (g, mu) in enumerate(zip(got, points, strict=True))}
    assert not {i: b for i, b in bad.items() if b}, {i: (points[i], b) for i, b in bad.items() if b}
    naive = page.evaluate("(all) => all.map((mu) => ({...bvGeometry.analyse(mu), effective: bvGeometry.paretoMask(mu),"
                          " effectiveGap: bvGeometry.paretoGap(mu)}))", points)
    rejected = [set(mismatches(g, np.asarray(mu))) for g, mu in zip(naive, points, strict=True)]
    assert sum("effective" in r for r in rejected) >= 5 and sum("effectiveGap" in r for r in rejected) >= 5
    page.close()


def drawn(page) -> dict:
    """The canvas as drawn: each arm's class and the live table's rows (name, x, y, Pareto gap, effective gap)."""
    return page.evaluate("""() => ({
      classes: [...document.querySelectorAll('.bv-canvas .bv-arm')].map((g) => g.dataset.class),
      rows: [...document.querySelectorAll('.bv-canvas-gaps tbody tr')]
        .map((r) => [...r.children].map((c) => c.textContent)),
      hull: document.querySelector('.bv-canvas .bv-hull').getAttribute('points').trim().split(/\\s+/).length,
      head: document.querySelector('.bv-canvas-head').textContent})""")


def check_against_pareto(state: dict) -> np.ndarray:
    """The drawn classes and gaps are banditviz.pareto's on the drawn points (the table's, 3 decimals)."""
    mu = np.array([[float(r[1]), float(r[2])] for r in state["rows"]])
    P, C = pareto.pareto_mask(mu), pareto.effective_pareto_mask(mu)
    assert state["classes"] == ["hull" if c else "front" if p else "rejected" for p, c in zip(P, C, strict=True)]
    assert [r[3] for r in state["rows"]] == ["effective" if c else "Pareto only" if p else "dominated"
                                             for p, c in zip(P, C, strict=True)]
    gaps = np.array([[float(r[4]), float(r[5])] for r in state["rows"]])
    assert np.allclose(gaps, np.column_stack([pareto.pareto_gap(mu), pareto.effective_gap(mu)]), atol=6e-4)
    assert state["hull"] == len(np.unique(mu[C], axis=0))
    return mu


def frames_sent(page) -> list[int]:
    """A counter of the websocket frames the page sends to the server (its element 0), from now on."""
    count = [0]
    page.on("websocket", lambda ws: ws.on("framesent", lambda _payload: count.__setitem__(0, count[0] + 1)))
    return count


def centre(page, i: int) -> tuple[float, float]:
    box = page.locator(ARM).nth(i).locator("circle, path").first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def wait_arms(page, k: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('{ARM}').length === {k}", timeout=30_000)
    settle(page)


GRID_ROWS = """() => [...document.querySelectorAll('[data-testid="stDataFrame"] table tbody tr')]
  .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent))"""


def wait_grid_row(page, i: int, values: list[float]) -> None:
    """Wait until the arm table (Streamlit's data grid, read through its accessible table) shows ``values`` as the
    objectives of row ``i``."""
    page.wait_for_function(f"(v) => {{ const r = ({GRID_ROWS})()[{i}];"
                           " return !!r && r.slice(-2).map(Number).join() === v.join(); }", arg=values,
                           timeout=30_000)


def test_drag_an_arm_the_fronts_and_gaps_follow_in_the_page_then_the_table_and_link(new_context, server, screenshot):
    context = new_context(*LAPTOP)
    page = context.new_page()
    sent = frames_sent(page)
    page.goto(f"{server}/design?preset=default&alg=pareto_ucb1&T=300&seed=0")
    settle(page)
    page.wait_for_selector(ARM)
    before = drawn(page)
    assert before["classes"][2] == "front"  # arm 2: Pareto optimal, off the convex hull
    check_against_pareto(before)
    x, y = centre(page, 2)
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(300)
    start = sent[0]
    for k in range(1, 13):  # up and to the right, past the chord of arms 3 and 1
        page.mouse.move(x + 8 * k, y - 12 * k)
        page.wait_for_timeout(30)
    during = drawn(page)
    assert sent[0] == start, "the page talked to the server while the pointer moved"
    assert during["classes"][2] == "hull" and during["head"] != before["head"]
    moved = check_against_pareto(during)
    screenshot(page, "design_canvas_dragging")
    page.mouse.up()
    page.wait_for_function("(m) => { const q = new URLSearchParams(location.search).get('inst');"
                           " return q && JSON.stringify(JSON.parse(q).means[2]) === JSON.stringify(m); }",
                           arg=moved[2].tolist(), timeout=30_000)
    settle(page)
    page.wait_for_function("() => document.querySelector('h3')?.innerText.includes('custom (from default)')")
    assert "custom (from default)" in sidebar(page)
    wait_grid_row(page, 2, moved[2].tolist())  # the arm table follows
    check_against_pareto(drawn(page))  # drawn again from the server's instance
    screenshot(page, "design_canvas_dropped")
    again(page, page.get_by_role("button", name="Undo").click,
          holds_in_page(page, "() => new URLSearchParams(location.search).get('preset') === 'default'"), "Undo")
    page.wait_for_function("(c) => [...document.querySelectorAll('.bv-canvas .bv-arm')].map((g) => g.dataset.class)"
                           ".join() === c.join()", arg=before["classes"], timeout=30_000)  # drawn as before
    again(page, page.get_by_role("button", name="Redo").click,
          holds_in_page(page, "() => new URLSearchParams(location.search).has('inst')"), "Redo")
    assert link_means(page)[2] == moved[2].tolist()


def test_click_adds_an_arm_delete_removes_it_arrows_move_it_ctrl_z_undoes(new_context, server, screenshot):
    page = open_at(new_context, server, "design?preset=default&alg=pareto_ucb1&T=300&seed=0", LAPTOP)
    page.wait_for_selector(ARM)
    plot = page.locator(".bv-canvas [data-bv='plot']").bounding_box()
    page.mouse.click(plot["x"] + 0.9 * plot["width"], plot["y"] + 0.1 * plot["height"])  # top right: empty
    wait_arms(page, 11)
    page.wait_for_function("() => JSON.parse(new URLSearchParams(location.search).get('inst') || '{}')"
                           ".means?.length === 11", timeout=30_000)
    state = drawn(page)
    assert state["rows"][10][0] == "arm 10" and state["classes"][10] == "hull"
    assert state["classes"].count("hull") < 5  # the new arm dominates arms on the old front
    check_against_pareto(state)
    assert json.loads(query(page)["inst"])["arm_names"][10] == "arm 10"
    screenshot(page, "design_canvas_added")
    page.locator(".bv-canvas svg").focus()
    old = link_means(page)[10]
    page.keyboard.press("ArrowLeft")  # the new arm stays selected across the rerun
    page.wait_for_function("(x) => JSON.parse(new URLSearchParams(location.search).get('inst')).means[10][0] < x",
                           arg=old[0], timeout=30_000)
    settle(page)
    page.locator(".bv-canvas svg").focus()
    page.keyboard.press("Delete")
    wait_arms(page, 10)
    page.wait_for_function("() => JSON.parse(new URLSearchParams(location.search).get('inst') || '{}')"
                           ".means?.length === 10", timeout=30_000)
    check_against_pareto(drawn(page))
    def undo() -> None:  # the deletion undone
        page.locator(".bv-canvas svg").focus()
        page.keyboard.press("Control+z")

    again(page, undo, holds_in_page(page, f"() => document.querySelectorAll('{ARM}').length === 11"), "Ctrl+Z")
    wait_arms(page, 11)
    screenshot(page, "design_canvas_undone")
