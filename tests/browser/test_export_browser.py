"""An exported run in Chromium with no server and no network, and its videos.

The page (`banditviz.export.page`) is opened from a file with every request but its own refused (and any request
leaving the machine fails the test, `conftest.console_log`); driven as Watch is (a pause, a step each way, the
slider, the keys End and Home, play to the end), what the browser drew after each move (`drawn.read`) is compared
with the frame computed in Python (`drawn.mismatches`), with the explanation, phase, table and bar of the same round
(`test_drawn_state.assert_one_round`), for a 2-D run, a 3-D run and a race. The checker is shown able to fail on the
exported page: a page whose frames are each one late is rejected. The page fits a 1366x768 screen. The videos: an
MP4 and a GIF have one picture per frame of the figure, the size asked, the speed's frame duration, and pictures
that change.
"""

from __future__ import annotations

import json
import random
import re

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

import banditviz
from banditviz import export
from banditviz.export.page import figure
from tests.browser.test_drawn_state import ON_SCREEN, READY, assert_one_round, drive

pytestmark = pytest.mark.browser

LAPTOP = (1366, 768)
RUNS = {  # preset, algorithm, rival
    "2d": ("default", "pareto_ucb1", None),
    "3d": ("default_3d", "pareto_ucb1", None),
    "race": ("default", "pareto_ucb1", "pareto_ts"),
}


def traces(name: str, horizon: int = 2000, snapshots: int = 200):
    preset, alg, rival = RUNS[name]
    first = banditviz.run(banditviz.preset(preset), alg, horizon, 0, snapshots=snapshots)
    return first, (banditviz.run(first.instance, rival, horizon, 0, snapshots=snapshots) if rival else None)


def offline(new_context, width: int, height: int):
    """A tab in a fresh context that refuses every request but the page's own file (and data: addresses)."""
    context = new_context(width, height)
    refused = []

    def route(r):
        if r.request.url.startswith(("file:", "data:")):
            r.continue_()
        else:
            refused.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    return context.new_page(), refused


def opened(new_context, tmp_path, html: str, size=LAPTOP):
    path = tmp_path / "run.html"
    path.write_text(html, encoding="utf-8")
    tab, refused = offline(new_context, *size)
    tab.goto(path.as_uri())
    tab.wait_for_function(READY, timeout=60_000)
    return tab, refused


@pytest.mark.parametrize("name", list(RUNS))
def test_the_exported_page_plays_each_frame_as_computed(new_context, tmp_path, name):
    first, rival = traces(name)
    fig = figure(first, rival)
    spec, meta = fig.to_dict(), fig.layout.meta["bv"]
    rng = random.Random(name)
    tab, refused = opened(new_context, tmp_path, export.page(first, rival))
    tab.wait_for_timeout(rng.randint(300, 1200))  # it plays when opened: stop somewhere
    drive(tab, spec, meta, rng)
    assert refused == []


def test_the_checker_rejects_an_exported_page_whose_frames_are_late(new_context, tmp_path):
    first, _ = traces("2d", 600, 40)
    fig = figure(first)
    spec, meta = fig.to_dict(), fig.layout.meta["bv"]
    html = export.page(first, autoplay=False)
    found = re.search(r"(<script type='application/json' id='bv-figure'>)(.*?)(</script>)", html, re.S)
    late = json.loads(found.group(2))
    frames = late["frames"]
    for i in range(len(frames) - 1, 0, -1):  # frame i (by its name) draws frame i - 1's data
        frames[i]["data"] = frames[i - 1]["data"]
    html = html[:found.start(2)] + json.dumps(late).replace("<", "\\u003c") + html[found.end(2):]
    tab, _ = opened(new_context, tmp_path, html)
    assert_one_round(tab, spec, meta, 0)  # frame 0 is still right
    tab.locator(".bv-bar input[type=range]").fill("10")
    with pytest.raises(AssertionError, match="point|line|bar|text"):
        assert_one_round(tab, spec, meta, 10, timeout=3)


def test_the_page_fits_a_laptop_and_says_each_round(new_context, tmp_path):
    first, _ = traces("2d", 600, 40)
    meta = figure(first).layout.meta["bv"]
    tab, _ = opened(new_context, tmp_path, export.page(first, autoplay=False))
    tab.wait_for_timeout(500)
    box = tab.evaluate("""() => ['.st-key-bv_watch', '.bv-bar', '.bv-explain'].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })""")
    for left, top, right, bottom in box:
        assert 0 <= left and right <= LAPTOP[0] and 0 <= top and bottom <= LAPTOP[1], box
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= LAPTOP[0]
    for i in (0, 7, len(meta["rounds"]) - 1):
        tab.evaluate("(i) => window.__bv.players.bv_watch.show(i)", i)
        said = tab.evaluate(ON_SCREEN)
        assert said["at"] == f"Round {meta['rounds'][i]}" and said["said"] == meta["explain"][i]


@pytest.mark.parametrize("suffix", [".mp4", ".gif"])
def test_a_video_has_a_picture_per_frame_at_the_size_and_speed_asked(tmp_path, suffix):
    first, _ = traces("2d", 400, 24)
    n = len(figure(first, present=True).frames)
    path = export.write_video(tmp_path / f"run{suffix}", first, width=640, height=360, speed="fast")
    if suffix == ".mp4":
        reader = imageio_ffmpeg.read_frames(str(path))
        info = next(reader)
        pictures = [np.frombuffer(p, np.uint8) for p in reader]
        assert info["size"] == (640, 360) and info["fps"] == pytest.approx(1000 / 50, rel=1e-3)
    else:
        with Image.open(path) as gif:
            assert gif.size == (640, 360)
            pictures, durations = [], []
            for k in range(gif.n_frames):
                gif.seek(k)
                durations.append(gif.info["duration"])
                pictures.append(np.asarray(gif.convert("RGB")))
        assert set(durations) == {50}
    assert len(pictures) == n
    # the pictures follow the run: the first and the last differ, and most pictures differ from the one before
    assert not np.array_equal(pictures[0], pictures[-1])
    assert sum(not np.array_equal(a, b) for a, b in zip(pictures, pictures[1:], strict=False)) >= (n - 1) // 2
