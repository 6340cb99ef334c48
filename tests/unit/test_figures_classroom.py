"""Issue 14, figure side: legible fonts and contrast on every figure, the player's interface (no built-in
controls, `layout.meta["bv"]`), the race of two runs, and the JSON size of every preset's Watch figure."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import banditviz as bv
from banditviz import fronts, words
from banditviz.algorithms.base import STATUS_NAMES
from banditviz.figures import (
    animate,
    eaf_chart,
    instance_preview,
    papers,
    pull_counts,
    race,
    regret_curves,
    sample_complexity_chart,
    success_rate_chart,
)
from banditviz.figures import explain as ex
from banditviz.figures.animate import WATCH_TITLE_CHARS
from banditviz.figures.palette import SUBTITLE_CHARS, TITLE_CHARS, contrast_ratio

WHITE = "#FFFFFF"


@pytest.fixture(scope="module")
def ucb():
    return bv.run(bv.preset("default"), "pareto_ucb1", 2000, seed=0)


@pytest.fixture(scope="module")
def uni():
    return bv.run(bv.preset("default"), "uniform", 2000, seed=0)


# ---------------------------------------------------------------------------------------------- contrast, fonts
def test_contrast_ratio_matches_wcag_reference_values():
    assert contrast_ratio("#000000", WHITE) == pytest.approx(21.0)
    assert contrast_ratio(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast_ratio("#777777", WHITE) == pytest.approx(4.48, abs=0.01)  # the classic just-failing grey
    assert contrast_ratio("#808495", WHITE) < 4.5  # Streamlit's tick grey, the one the issue saw


def _hex(color: str) -> str:
    """``#RRGGBB`` of a ``#RRGGBB`` or ``rgb(r,g,b)`` colour string."""
    m = re.fullmatch(r"rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*[\d.]+)?\)", color.replace(" ", ""))
    return "#" + "".join(f"{int(v):02X}" for v in m.groups()) if m else color


def axes_of(layout: dict) -> list[tuple[str, dict]]:
    out = [(k, v) for k, v in layout.items() if re.fullmatch(r"[xy]axis\d*", k)]
    for k, v in layout.items():
        if re.fullmatch(r"scene\d*", k):
            out += [(f"{k}.{a}axis", v[f"{a}axis"]) for a in "xyz"]
    return out


def assert_legible(fig) -> None:  # a figure, or a figure's layout as drawn in a page
    """Every axis: tick labels >= 16 px, titles >= 18 px, dark on the (white) background, contrast >= 4.5;
    the legend >= 16 px; every annotation >= 16 px and dark."""
    lay = fig if isinstance(fig, dict) else json.loads(fig.to_json())["layout"]
    bg = lay.get("plot_bgcolor", WHITE)
    assert _hex(lay.get("paper_bgcolor", WHITE)).upper() == WHITE and _hex(bg).upper() == WHITE
    axes = axes_of(lay)
    assert axes
    for name, ax in axes:
        if ax.get("showticklabels", True):
            assert ax["tickfont"]["size"] >= 16, name
            assert contrast_ratio(_hex(ax["tickfont"]["color"]), WHITE) >= 4.5, name
        if ax.get("title", {}).get("text"):
            assert ax["title"]["font"]["size"] >= 18, name
            assert contrast_ratio(_hex(ax["title"]["font"]["color"]), WHITE) >= 4.5, name
    for key in [k for k in lay if re.fullmatch(r"legend\d*", k)]:
        font = {**lay["font"], **lay[key].get("font", {})}
        assert font["size"] >= 16 and contrast_ratio(_hex(font["color"]), WHITE) >= 4.5
    for a in lay.get("annotations", []):
        font = {**lay["font"], **a.get("font", {})}
        assert font["size"] >= 16 and contrast_ratio(_hex(font["color"]), WHITE) >= 4.5, a["text"]


def _frames():
    rows = []
    for alg in ("pareto_ucb1", "uniform"):
        for seed in range(2):
            tr = bv.run(bv.preset("default"), alg, 200, seed=seed, snapshots=0)
            rows.append(tr.to_frame()[["round", "pareto_regret"]].assign(algorithm=alg, seed=seed))
    stops = pd.DataFrame({"algorithm": ["A", "A", "B"], "seed": [0, 1, 0], "stopped_at": [10, 20, 30],
                          "correct": [True, False, True]})
    return pd.concat(rows, ignore_index=True), stops


def _paper_figures() -> list:
    """Every builder of `banditviz.figures.papers` on a small sweep table."""
    table = bv.sweep("default", ["uniform", "pareto_ucb1"], 3, 60, record_every=20)
    stops = pd.DataFrame({"instance": ["K=4", "K=4", "K=8", "K=8"], "algorithm": "gege_fc", "seed": [0, 1, 0, 1],
                          "params": [json.dumps({"budget": b}) for b in (100, 200, 100, 200)],
                          "correct": [True, False, True, True], "stopped_at": [50.0, 70.0, 90.0, 120.0]})
    return [papers.curves(table, ["cum_pareto_regret", "cum_effective_regret"], "regret"),
            papers.rate_against(stops, "budget", "error"), papers.rate_against(stops, "arms", "error"),
            papers.mean_against(stops, "stopped_at", "samples", "arms K"),
            papers.spread(stops, "stopped_at", "samples"),
            papers.pull_allocation(table, "pulls", highlight=(0,)),
            papers.identified_fronts(stops.assign(stopped=True, recommended="0,1", round=1),
                                     np.array([[1.0, 0.0], [0.0, 1.0], [0.4, 0.4]]), "fronts")]


def _never_stopped(stops: pd.DataFrame, runs: int) -> pd.DataFrame:
    """``stops`` and an algorithm "C" none of whose ``runs`` runs stopped."""
    return pd.concat([stops, pd.DataFrame({"algorithm": "C", "seed": range(runs), "stopped_at": None,
                                           "correct": False})], ignore_index=True)


def _figures(ucb, uni) -> list:
    """One figure of every builder the pages draw (Learn's are checked as the page draws them, below)."""
    curves, stops = _frames()
    lex = bv.run(bv.preset("lexicographic_lambda_0.1"), "mte2lo", 300, seed=0)
    three = bv.run(bv.preset("default_3d"), "pareto_ucb1", 300, seed=0)
    return [animate(ucb), animate(ucb, controls=False), animate(three), animate(lex), race(ucb, uni),
            race(three, bv.run(bv.preset("default_3d"), "uniform", 300, seed=0)),
            instance_preview(bv.preset("default")), instance_preview(bv.preset("default_3d")),
            regret_curves(curves), regret_curves(curves, log_x=True), sample_complexity_chart(stops),
            sample_complexity_chart(_never_stopped(stops, 2)), success_rate_chart(stops), pull_counts(ucb),
            eaf_chart({"pareto_ucb1": [fronts.estimated_front(t) for t in (ucb, uni)]}, ucb.instance),
            *_paper_figures()]


def test_every_figure_builder_is_legible(ucb, uni):
    for fig in _figures(ucb, uni):
        assert_legible(fig)


def test_learn_draws_every_figure_legibly():
    """Learn's figures as the page draws them (it retitles and annotates the builders' figures), every step."""
    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=120)
    at.query_params.update({"preset": "default", "alg": "pareto_ucb1", "T": "300", "seed": "0"})
    at.run()
    at.switch_page("banditviz_app/pages/learn.py").run()
    seen = 0
    for step in at.radio(key="learn_step").options:
        at.radio(key="learn_step").set_value(step).run()
        assert not at.exception, [e.value for e in at.exception]
        for chart in at.get("plotly_chart"):
            assert_legible(json.loads(chart.proto.spec)["layout"])
            seen += 1
    assert seen >= 5


def _title_lines(text: str) -> tuple[str, list[str]]:
    """A title's first line and its <sup> lines, without tags."""
    lines = [re.sub(r"<[^>]+>", "", line) for line in text.split("<br>")]
    return lines[0], lines[1:]


def test_titles_fit_a_figure_in_half_a_laptop_screen(ucb, uni):
    for fig in _figures(ucb, uni):
        main, subs = _title_lines(fig.layout.title.text)
        assert len(main) <= TITLE_CHARS or fig.layout.meta, main  # the Watch figure spans the page: checked below
        assert all(len(line) <= SUBTITLE_CHARS for line in subs), subs


def fits_at_1366(text: str, size: float, x: float, layout) -> bool:
    """Whether a left-anchored text at paper ``x`` fits the Watch figure at 1366x768 (~660 px wide), at ~0.55 em
    a character."""
    return len(text) * 0.55 * size <= (1 - x) * (660 - layout.margin.l - layout.margin.r)


@pytest.mark.parametrize("preset, alg", [("default", "pareto_ucb1"), ("default_3d", "pareto_ucb1"),
                                         ("psi_gap_example", "gege_fc"), ("risk_averse_easy", "ramgape_b")])
def test_watch_panel_titles_fit_their_panel_at_1366x768(preset, alg):
    lay = animate(bv.run(bv.preset(preset), alg, 300, seed=0), controls=False).layout
    titles = [a for a in lay.annotations if a.xref == "paper" and a.xanchor == "left"]
    assert titles
    for a in titles:
        assert fits_at_1366(a.text, a.font.size, a.x, lay), a.text
    assert not fits_at_1366("cumulative regret by round", 20, 0.66, lay)  # the title cut in the screenshot


@pytest.mark.parametrize("preset, alg, task", [("default", "pareto_ucb1", True), ("default_3d", "pareto_ucb1", True),
                                               ("lexicographic_lambda_0.1", "mte2lo", False),
                                               ("risk_averse_easy", "ramgape_c", False)])
def test_watch_title_is_one_line_that_fits_a_laptop(preset, alg, task):
    """The title was cut at 1366x768 ("...(seed 0): lexico"): the task words go when they would not fit (then the
    title ends with its seed)."""
    title = animate(bv.run(bv.preset(preset), alg, 200, seed=0, snapshots=5), controls=False).layout.title.text
    assert "<br>" not in title and len(title) <= WATCH_TITLE_CHARS and title.endswith("seed 0") != task, title
    assert f"{alg} on " in title and ", seed 0" in title


def test_watch_title_shortens_a_long_instance_name():
    inst = bv.preset("default").with_changes(name="a student's instance " * 6)
    title = animate(bv.run(inst, "uniform", 50, seed=3, snapshots=5), controls=False).layout.title.text
    assert len(title) <= WATCH_TITLE_CHARS and "…" in title and title.endswith(", seed 3"), title


def test_five_lexicographic_strips_ask_for_few_tick_labels():
    """Five strips of ~50 px at 1366x768: four 16 px tick labels each overlapped (screenshot); three at most."""
    lay = animate(bv.run(bv.preset("lexicographic_lambda_0.1"), "mte2lo", 200, seed=0, snapshots=5),
                  controls=False).layout
    strips = [ax for name, ax in lay.to_plotly_json().items() if name.startswith("yaxis") and int(name[5:] or 1) >= 3]
    assert len(strips) == 5 and all(ax["nticks"] <= 3 for ax in strips)  # the curves are axis 1, the pulls 2


def test_sample_complexity_names_the_algorithms_that_never_stopped():
    _, stops = _frames()
    notes = [a.text for a in sample_complexity_chart(_never_stopped(stops, 2)).layout.annotations]
    assert len(notes) == 1 and "C (2 runs)" in notes[0] and "no run stopped" in notes[0]
    assert not sample_complexity_chart(stops).layout.annotations


def test_3d_scene_fills_its_share_and_draws_no_empty_webgl_traces():
    tr = bv.run(bv.preset("default_3d"), "pareto_ucb1", 300, seed=0)
    d = animate(tr, controls=False).to_dict()
    dom = d["layout"]["scene"]["domain"]["x"]
    assert dom[1] - dom[0] >= 0.6 and d["layout"]["margin"]["l"] <= 30
    eye = d["layout"]["scene"]["camera"]["eye"]
    assert np.linalg.norm([eye["x"], eye["y"], eye["z"]]) <= 2.4  # Plotly's default camera is 2.17 away
    moving = set(d["frames"][0]["traces"])
    for i, t in enumerate(d["data"]):
        if t["type"] in ("scatter3d", "mesh3d") and i not in moving:
            assert [v for v in t["x"] if v is not None], t["name"]  # legend-only entries are 2-D traces
    labels = next(t for t in d["data"] if t.get("name") == "arm labels")
    assert labels["text"] == [str(a) for a in range(tr.instance.K)] and labels["textfont"]["color"].endswith(",0)")


def test_a_grey_small_tick_font_is_caught(ucb):
    fig = animate(ucb, max_frames=5)
    fig.update_layout(xaxis1_tickfont={"size": 12, "color": "#808495"})
    with pytest.raises(AssertionError):
        assert_legible(fig)


def test_success_rate_labels_are_dark_text_not_white_on_colour():
    _, stops = _frames()
    bar = success_rate_chart(stops).data[0]
    assert contrast_ratio(_hex(bar.textfont.color), WHITE) >= 4.5 and bar.textposition == "outside"


# ---------------------------------------------------------------------------------------------- player interface
def test_without_controls_there_are_no_menus_and_frames_are_named_in_order(ucb):
    fig = animate(ucb, controls=False, height=700)
    lay = fig.to_dict()["layout"]
    assert "updatemenus" not in lay and "sliders" not in lay and lay["height"] == 700
    assert [f.name for f in fig.frames] == [str(i) for i in range(len(fig.frames))]
    with_controls = animate(ucb).to_dict()["layout"]
    labels = [b["label"] for m in with_controls["updatemenus"] for b in m["buttons"]]
    assert any("restart" in lab for lab in labels)
    speeds = [b["args"][1]["frame"]["duration"] for b in with_controls["updatemenus"][1]["buttons"]]
    assert max(speeds) >= 4 * min(speeds)


@pytest.mark.parametrize("bad", [{"controls": "no"}, {"height": 10}, {"height": True}])
def test_bad_controls_or_height_raise(ucb, bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        animate(ucb, **bad)


def test_meta_rounds_explanations_and_table_follow_the_frames(ucb):
    fig = animate(ucb, controls=False)
    meta = fig.layout.meta["bv"]
    n = len(fig.frames)
    assert meta["rounds"] == [s.t for s in ucb.snapshots] and meta["redraw"] is False
    assert len(meta["explain"]) == len(meta["phase"]) == len(meta["table"]["rows"]) == n
    inst = ucb.instance
    assert meta["table"]["columns"][:3] == ["arm", "status", "pulls"]
    for i in (0, 5, 60, n - 1):
        snap = ucb.snapshots[i]
        sentences = meta["explain"][i]
        assert all(isinstance(x, str) and x for x in sentences)
        assert any(f"arm {snap.pulled}" in x.lower() for x in sentences)  # what was pulled
        assert all(words.sentence(e) in sentences for e in snap.events)  # and why
        rows = meta["table"]["rows"][i]
        assert len(rows) == inst.K
        for a, row in enumerate(rows):
            assert row[1] == STATUS_NAMES[snap.status[a]] and row[2] == str(snap.counts[a])
            if not np.isfinite(snap.estimates[a, 0]):
                assert row[3] == "–"
                continue
            est, half = row[3].split(" ± ")
            assert float(est) == pytest.approx(snap.estimates[a, 0], abs=6e-4)
            assert float(half) == pytest.approx((snap.upper[a, 0] - snap.lower[a, 0]) / 2, abs=6e-4)
            assert float(row[5]) == pytest.approx(inst.means[a, 0], abs=6e-4)
    # status changes between consecutive frames, counted independently
    for i in range(1, n):
        before, now = ucb.snapshots[i - 1].status, ucb.snapshots[i].status
        said = [x for x in meta["explain"][i] if " became " in x]
        changed = int((before != now).sum())
        assert sum(len(re.findall(r"\d+", x.split(" became ")[0])) for x in said) == changed


def test_status_changes_name_each_arm_once_with_old_and_new_status():
    snap = bv.run(bv.preset("default"), "uniform", 5, 0).snapshots[-1]
    later = type(snap)(**{**snap.__dict__, "status": np.array([2, 2, 1, *snap.status[3:]], dtype=np.int8),
                          "t": snap.t + 1})
    before = type(snap)(**{**snap.__dict__, "status": np.array([0, 0, 0, *snap.status[3:]], dtype=np.int8)})
    said = ex.status_changes(before, later)
    assert said == [f"Arm 2 became {STATUS_NAMES[1]} (was {STATUS_NAMES[0]}).",
                    f"Arms 0 and 1 became {STATUS_NAMES[2]} (were {STATUS_NAMES[0]})."]


def test_gege_phase_says_when_the_estimates_appear():
    if "gege_fc" not in bv.ALGORITHMS:
        pytest.skip("gege_fc is not registered")
    tr = bv.run(bv.preset("psi_gap_example"), "gege_fc", 20000, seed=0)
    meta = animate(tr, controls=False).layout.meta["bv"]
    seen = [bool(np.isfinite(tr.snapshots[i].estimates).all(axis=1).any()) for i in range(len(tr.snapshots))]
    first = seen.index(True)
    assert first > 0
    for i in range(first):
        m = re.search(r"G-optimal design.*no estimates yet, the first come at round ([\d,]+)", meta["phase"][i])
        assert m, meta["phase"][i]
        assert tr.snapshots[first - 1].t < int(m.group(1).replace(",", "")) <= tr.snapshots[first].t
    assert "estimates" not in meta["phase"][first]


# ---------------------------------------------------------------------------------------------- race
def test_race_aligns_frames_by_round_and_holds_a_stopped_run():
    a = bv.run(bv.preset("psi_gap_example"), "gege_fc", 20000, seed=0)
    b = bv.run(bv.preset("psi_gap_example"), "uniform_identify", 20000, seed=0)
    fig = race(a, b, controls=False)
    meta = fig.layout.meta["bv"]
    rounds = np.array(meta["rounds"])
    assert np.all(np.diff(rounds) > 0) and len(fig.frames) == len(rounds)
    assert "updatemenus" not in fig.to_dict()["layout"]
    d = fig.to_dict()
    for n in (0, len(rounds) // 2, len(rounds) - 1):
        for trace, axis in ((a, "x2"), (b, "x3")):
            # independently: the latest snapshot at or before the frame's round
            at = max([i for i, s in enumerate(trace.snapshots) if s.t <= rounds[n]] or [0])
            est = next(d["data"][k] | v for k, v in zip(d["frames"][n]["traces"], d["frames"][n]["data"], strict=True)
                       if d["data"][k].get("name") == "estimated mean" and d["data"][k].get("xaxis") == axis)
            want = trace.snapshots[at].estimates[:, 0]
            got = np.array([np.nan if v is None else v for v in est["x"]], dtype=float)
            np.testing.assert_allclose(got, want, atol=1e-3)
    stopped = a.stopped_at if a.stopped_at is not None else b.stopped_at
    assert stopped is not None
    held = [i for i, r in enumerate(rounds) if r > stopped]
    assert held and all(any("Stopped at round" in x for x in meta["explain"][i]) for i in held)
    assert all(x.startswith(("A: ", "B: ")) for e in meta["explain"] for x in e)
    assert meta["table"]["columns"][:4] == ["arm", "A status", "A pulls", "A estimate"]


def test_race_rejects_different_instances(ucb):
    other = bv.run(bv.preset("default_3d"), "uniform", 100, seed=0)
    with pytest.raises(ValueError, match="trace_b"):
        race(ucb, other)


# ---------------------------------------------------------------------------------------------- lexicographic
def test_mte2lo_lists_the_regret_of_every_objective_and_names_strips_horizontally():
    tr = bv.run(bv.preset("lexicographic_lambda_0.1"), "mte2lo", 300, seed=0)
    d = animate(tr).to_dict()
    names = {t.get("name") for t in d["data"] if t.get("legend") == "legend2"}
    L = tr.instance.L
    assert {f"objective {i}" for i in range(1, L + 1)} <= names
    strip_titles = [a["text"] for a in d["layout"]["annotations"] if a["text"] in tr.instance.objective_names]
    assert len(strip_titles) == min(L, 5)
    assert all(not d["layout"][k].get("title", {}).get("text") for k in d["layout"] if re.fullmatch(r"yaxis[3-9]", k))
