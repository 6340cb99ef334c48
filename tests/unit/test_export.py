"""Export of a run without a browser: the offline page holds everything it plays (plotly.js, the figure Watch draws,
its meta, the player), loads nothing from elsewhere, keeps user names inert; every bad argument names its field, in
the API and on the command line. The page in a browser and the videos: tests/browser/test_export_browser.py."""

from __future__ import annotations

import io
import json
import re

import pytest

import banditviz
from banditviz import export, figures
from banditviz.cli import main
from banditviz.export import video
from banditviz.figures import player_html
from banditviz.figures.playback import WATCH_HEIGHT, WATCH_HEIGHTS

HOSTILE = "</script><script>window.hacked=1</script>"


@pytest.fixture(scope="module")
def trace():
    inst = banditviz.Instance.from_means([[0.2, 0.8], [0.6, 0.5], [0.3, 0.3]], sigma=0.5, name=HOSTILE,
                                         arm_names=["a", HOSTILE, "c"], objective_names=[HOSTILE, "y"])
    return banditviz.run(inst, "pareto_ucb1", 300, 0, snapshots=40)


@pytest.fixture(scope="module")
def html(trace):
    return export.page(trace)


def figure_in(text: str) -> dict:
    found = re.search(r"<script type='application/json' id='bv-figure'>(.*?)</script>", text, re.S)
    return json.loads(found.group(1))


def test_the_page_holds_watchs_figure_and_player(trace, html):
    spec = figure_in(html)
    want = json.loads(figures.animate(trace, controls=False, height=WATCH_HEIGHT, heights=WATCH_HEIGHTS).to_json())
    assert spec["frames"] == want["frames"] and spec["data"] == want["data"]
    assert spec["layout"]["meta"] == want["layout"]["meta"]  # rounds, sentences, phases, table, layouts
    assert "height" not in spec["layout"] and spec["layout"]["autosize"] is True  # the player sizes its container
    from plotly.offline import get_plotlyjs
    assert get_plotlyjs() in html and player_html.SCRIPT in html and player_html.STYLE in html
    for part in ("data-bv-player='bv_watch'", "class='bv-explain' data-bv-for='bv_watch'",
                 "class='bv-table' data-bv-for='bv_watch'", "class='st-key-bv_watch'"):
        assert part in html
    assert html.count("<p class='bv-outcome'>") == 1


def test_the_page_loads_nothing_from_elsewhere(html):
    tags = re.findall(r"<(?:script|link|img|iframe|source)\b[^>]*>", html)
    assert tags and not [t for t in tags if re.search(r"\b(?:src|href)\s*=\s*(?!['\"]?data:)", t)]


def test_user_names_cannot_end_the_figures_script(html):
    """A name holding ``</script>`` is escaped in the figure's JSON (the page's only script with user data) and in
    the outcome; read back, the figure has the name as it was."""
    assert HOSTILE not in html
    assert html.count("</script>") == 4  # plotly.js, the figure, the page's script, the player
    spec = figure_in(html)
    assert HOSTILE in json.dumps(spec["layout"]["meta"]["bv"]["table"]["columns"], ensure_ascii=False)


def test_a_race_and_presentation_mode(trace):
    rival = banditviz.run(trace.instance, "pareto_ts", 300, 0, snapshots=40)
    text = export.page(rival, trace, present=True, autoplay=False)
    spec = figure_in(text)
    assert spec["layout"]["meta"]["bv"]["table"]["columns"][1] == "A status"
    assert spec["layout"]["meta"]["bv"]["layouts"]["fill"] is True
    assert text.count("<p class='bv-outcome'>") == 2 and "data-autoplay='0'" in text and "data-bv-present" in text
    # the heading and legend the presentation layout leaves to the page are shown at once
    assert "<div data-bv-part='heading' data-bv-for='bv_watch' class='bv-side'>" in text


@pytest.mark.parametrize("call,field", [
    (lambda t: export.page("trace"), "trace:"),
    (lambda t: export.page(t, rival=3), "rival:"),
    (lambda t: export.page(t, present="yes"), "present:"),
    (lambda t: export.page(t, autoplay=1), "autoplay:"),
    (lambda t: export.save("run.avi", t), "path:"),
    (lambda t: export.save("run.html", t, present=1), "present:"),
    (lambda t: export.write_video("run.webm", t), "path:"),
    (lambda t: export.write_video("run.mp4", t, width=1001), "width:"),
    (lambda t: export.write_video("run.mp4", t, height=100), "height:"),
    (lambda t: export.write_video("run.gif", t, width=True), "width:"),
    (lambda t: export.write_video("run.gif", t, speed="warp"), "speed:"),
])
def test_a_bad_argument_names_its_field(trace, call, field):
    with pytest.raises(ValueError) as err:
        call(trace)
    assert str(err.value).startswith(field)


def test_the_command_line_writes_a_page(tmp_path):
    path = tmp_path / "run.html"
    out = io.StringIO()
    assert main(["export", "--algorithm", "pareto_ucb1", "--horizon", "300", "--snapshots", "30", "--out", str(path),
                 "--json"], out=out) == 0
    assert json.loads(out.getvalue())["out"] == str(path)
    spec = figure_in(path.read_text(encoding="utf-8"))
    assert spec["layout"]["meta"]["bv"]["rounds"][-1] == 300


def test_the_command_line_exports_a_saved_trace(tmp_path, trace):
    saved, path = tmp_path / "t.npz", tmp_path / "run.html"
    trace.save(saved)
    assert main(["export", "--trace", str(saved), "--out", str(path)], out=io.StringIO()) == 0
    assert figure_in(path.read_text(encoding="utf-8"))["frames"] == figure_in(export.page(trace))["frames"]


@pytest.mark.parametrize("argv,match", [
    (["export", "--algorithm", "pareto_ucb1", "--horizon", "50", "--out", "run.avi"], "--out: must end in"),
    (["export", "--algorithm", "pareto_ucb1", "--horizon", "50", "--out", "run.mp4", "--speed", "warp"], "--speed:"),
    (["export", "--algorithm", "pareto_ucb1", "--horizon", "50", "--out", "run.gif", "--width", "99"], "--width:"),
    (["export", "--out", "run.html"], "--algorithm: required"),
    (["export", "--trace", "missing.npz", "--out", "run.html"], "--trace: cannot read"),
    (["export", "--algorithm", "pareto_ucb1", "--horizon", "50", "--race", "nope", "--out", "run.html"], "nope"),
])
def test_command_line_mistakes_name_the_option(argv, match, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and match in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_what_a_video_needs_is_said(monkeypatch, trace, tmp_path):
    monkeypatch.setattr(video, "chromium", lambda: None)
    assert "Chromium" in video.missing()
    with pytest.raises(OSError, match="Chromium"):
        export.write_video(tmp_path / "run.mp4", trace)
