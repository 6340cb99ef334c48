"""Watch's downloads of the run on screen (`banditviz_app.downloads`): the page always, the video where this machine
can make one (else a caption says what it needs); a video is made on request for the format, size and speed chosen
and then offered for download."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from banditviz import export

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SMALL = {"preset": "default", "alg": "pareto_ucb1", "T": "60", "seed": "0"}


def watch() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(SMALL)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def downloads(at: AppTest) -> list[str]:
    return [d.proto.label for d in at.get("download_button")]


def test_watch_offers_the_page_and_makes_a_video_on_request(monkeypatch):
    made = []

    def fake_video(path, trace, rival, **kw):  # the real one: tests/browser/test_export_browser.py
        made.append((trace.algorithm, rival, kw))
        Path(path).write_bytes(b"GIF89a")
        return Path(path)

    monkeypatch.setattr(export, "missing", lambda: None)
    monkeypatch.setattr(export, "write_video", fake_video)
    at = watch()
    assert "Download the run as a page (HTML, plays offline)" in downloads(at)
    at.radio(key="bv_video_format").set_value("GIF")
    at.selectbox(key="bv_video_size").set_value("960x540")
    at.selectbox(key="bv_video_speed").set_value("fast")
    at.button(key="bv_video_make").click().run()
    assert made == [("pareto_ucb1", None, {"width": 960, "height": 540, "speed": "fast", "present": False})]
    assert "Download the GIF" in downloads(at)
    at.selectbox(key="bv_video_speed").set_value("slow").run()  # another speed: that video is not made yet
    assert "Download the GIF" not in downloads(at)


def test_watch_says_what_a_video_needs(monkeypatch):
    monkeypatch.setattr(export, "missing", lambda: "a video needs Chromium (Debian: apt-get install chromium)")
    at = watch()
    assert any("needs Chromium" in c.value for c in at.caption)
    assert not [b for b in at.button if b.key == "bv_video_make"]
