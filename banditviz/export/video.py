"""A video (MP4) or a GIF of a run's animation, made offline (`write_video`).

Each frame is the exported page (`page.page`, presentation mode by default: every text at least 22 px, legible at
1920x1080) drawn by headless Chromium at the chosen size: the page's own player draws frame i (``show(i)``, the same
path as Watch) and the window is captured. The pictures go, one by one, to ffmpeg (the binary imageio-ffmpeg ships):
H.264 in an MP4, or a GIF on one palette made from the first, middle and last frames (so colours do not flicker
between frames), so that no more than one frame is held in memory. One frame lasts as long as at the chosen speed
in Watch (`playback.SPEEDS`).

Why these libraries: Playwright drives the browser the tests already use (Debian's chromium) and draws exactly what
Watch draws, 3-D included (WebGL in software); imageio-ffmpeg ships a static ffmpeg in its wheel (no system package),
which encodes H.264 and GIF from a pipe, one frame in memory at a time. Plotly's own still export (Kaleido) would draw
the figure without the explanation, and a GIF written by Pillow holds every frame in memory (200 at 1920x1080: about
400 MB). Measured (`benchmarks/export.py`, 2 shared cores, load 3-6): the default run (200 frames) at 1920x1080 in 38 s
as MP4 (5.2 MB) and 48 s as GIF (17 MB), the 3-D one (174 frames) in 61 s and 59 s; drawing and capturing the frames
is nearly all of it (34 s and 58 s).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..figures import explain
from ..figures.playback import SPEEDS
from ..trace import Trace
from .page import KEY, document, figure

FORMATS = (".mp4", ".gif")
MIN_SIZE, MAX_SIZE = (320, 240), (3840, 2160)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
READY = f"() => {{ const p = window.__bv && window.__bv.players.{KEY}; return !!(p && p.n); }}"
# frame i drawn by the page's player, then one more animation frame so that the window shows it
SHOW = (f"async (i) => {{ const p = window.__bv.players.{KEY}; await p.show(i);"
        " await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return p.n; }")


def chromium() -> str | None:
    """Path of the Chromium the frames are drawn by (Debian's), or None."""
    return shutil.which("chromium") or (shutil.which("chromium-browser"))


def missing() -> str | None:
    """Why a video cannot be made on this machine (a sentence), or None when it can."""
    try:
        import imageio_ffmpeg  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"a video needs the Python package {exc.name} (pip install 'banditviz[export]')"
    if chromium() is None:
        return "a video needs Chromium (Debian: apt-get install chromium)"
    return None


def _whole(value, name: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi or value % 2:
        raise ValueError(f"{name}: must be an even whole number of pixels in [{lo}, {hi}], got {value!r}")
    return value


def check(path: str | Path, width: int, height: int, speed: str) -> tuple[Path, int]:
    """The output path and the milliseconds per frame, after checking every argument (ValueError names the field)."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"path: must end in {' or '.join(FORMATS)}, got {str(path)!r}")
    _whole(width, "width", MIN_SIZE[0], MAX_SIZE[0])
    _whole(height, "height", MIN_SIZE[1], MAX_SIZE[1])
    ms = dict(SPEEDS).get(speed)
    if ms is None:
        raise ValueError(f"speed: must be one of {', '.join(n for n, _ in SPEEDS)}, got {speed!r}")
    return path, ms


def frames(html: str, width: int, height: int, order: list[int] | None = None) -> Iterator[bytes]:
    """The page ``html`` at ``width`` x ``height``, at each frame (``order``: these frames, else all), as raw RGB
    (width * height * 3 bytes). The browser may not reach the network: every request but the page's own is refused."""
    from PIL import Image
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        file = Path(tmp) / "run.html"
        file.write_text(html, encoding="utf-8")
        browser = p.chromium.launch(executable_path=chromium(), headless=True, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:")) else r.abort())
            tab.goto(file.as_uri())
            tab.wait_for_function(READY, timeout=60_000)
            n = tab.evaluate(SHOW, 0)
            tab.wait_for_timeout(300)  # the player fits the chart to the window once drawn
            for i in range(n) if order is None else order:
                tab.evaluate(SHOW, i)
                shot = tab.screenshot(type="png")
                yield Image.open(io.BytesIO(shot)).convert("RGB").tobytes()
        finally:
            browser.close()


def _ffmpeg(args: list[str], size: tuple[int, int], fps: float) -> subprocess.Popen:
    import imageio_ffmpeg

    cmd = [imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
           "-s", f"{size[0]}x{size[1]}", "-framerate", f"{fps:.6g}", "-i", "-", *args]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)


def _encode(pictures: Iterator[bytes], args: list[str], size: tuple[int, int], fps: float) -> None:
    proc = _ffmpeg(args, size, fps)
    try:
        for picture in pictures:
            proc.stdin.write(picture)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    err = proc.stderr.read().decode(errors="replace")
    if proc.wait() != 0:
        raise OSError(f"ffmpeg could not encode the video: {err.strip()[-500:]}")


def _encode_page(path: Path, html: str, n: int, size: tuple[int, int], fps: float) -> None:
    """Every frame of the page ``html`` (``n`` frames) encoded to ``path`` (MP4 or GIF)."""
    width, height = size
    if path.suffix.lower() == ".mp4":
        _encode(frames(html, width, height), ["-c:v", "libx264", "-preset", "fast", "-crf", "20", "-pix_fmt",
                                              "yuv420p", "-movflags", "+faststart", str(path)], size, fps)
        return
    with tempfile.TemporaryDirectory() as tmp:
        palette = str(Path(tmp) / "palette.png")
        _encode(frames(html, width, height, [0, n // 2, n - 1]),
                ["-vf", "palettegen=max_colors=256:stats_mode=full", "-update", "1", palette], size, fps)
        _encode(frames(html, width, height), ["-i", palette, "-lavfi", "[0:v][1:v]paletteuse=dither=none:diff_mode="
                                              "rectangle", "-loop", "0", str(path)], size, fps)


def write_video(path: str | Path, trace: Trace, rival: Trace | None = None, *, width: int = 1920,
                height: int = 1080, speed: str = "normal", present: bool = True) -> Path:
    """The run's animation (as `page.page` shows it: the figure, the round, its explanation and legend) as an MP4
    (H.264) or a GIF, by ``path``'s suffix, ``width`` x ``height`` pixels (even), one frame per figure frame lasting as
    at ``speed`` in Watch. ``present``: presentation mode's texts (for 1920x1080 and a projector). Returns the path."""
    path, ms = check(path, width, height, speed)
    why = missing()
    if why:
        raise OSError(why)
    fig = figure(trace, rival, present)
    html = document(fig, [explain.outcome(t) for t in (trace, rival) if t is not None], present, False, True)
    # in a thread of its own: Playwright's synchronous API refuses a thread that runs an event loop (a notebook)
    with ThreadPoolExecutor(1) as worker:
        worker.submit(_encode_page, path, html, len(fig.frames), (width, height), 1000 / ms).result()
    return path
