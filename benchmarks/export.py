"""Export of a run: how long the offline page, an MP4 and a GIF of the default Watch run take, and how big they are.

Two runs: the default Watch run (preset "default", pareto_ucb1, T = 2,000, 200 snapshots: 200 frames) and the 3-D
one (preset "default_3d", same algorithm and horizon). Videos at 1920x1080, speed "normal", presentation mode. The
reference is the work Watch itself does for the run in this process (run + animate); each export is reported in
seconds and as a ratio to it, and the video's time split into drawing the frames in Chromium (with the capture) and
the rest (ffmpeg's encoding, which runs alongside). Target: minutes at most for the default run.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import banditviz
from banditviz import export, figures
from banditviz.export import video
from banditviz.export.page import document, figure
from banditviz.figures import explain

RUNS = (("default", "pareto_ucb1"), ("default_3d", "pareto_ucb1"))
SIZE = (1920, 1080)


def seconds(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    why = export.missing()
    if why:
        raise SystemExit(why)
    for preset, alg in RUNS:
        inst = banditviz.preset(preset)
        reference = seconds(lambda inst=inst, alg=alg: figures.animate(
            banditviz.run(inst, alg, 2000, 0, snapshots=200), controls=False))
        trace = banditviz.run(inst, alg, 2000, 0, snapshots=200)
        fig = figure(trace, present=True)
        html = document(fig, [explain.outcome(trace)], True, False, True)
        drawing = seconds(lambda html=html: sum(1 for _ in video.frames(html, *SIZE)))
        print(f"{preset}: reference (run + animate) {reference:.2f} s; {len(fig.frames)} frames")
        print(f"  drawing and capturing every frame at {SIZE[0]}x{SIZE[1]}: {drawing:.1f} s "
              f"({drawing / reference:.0f}x the reference)")
        with tempfile.TemporaryDirectory() as tmp:
            for suffix in (".html", ".mp4", ".gif"):
                path = Path(tmp) / f"run{suffix}"
                took = seconds(lambda path=path, trace=trace: export.save(path, trace, width=SIZE[0], height=SIZE[1]))
                print(f"  {suffix[1:]:>4}: {took:6.1f} s ({took / reference:5.0f}x the reference), "
                      f"{path.stat().st_size / 1e6:5.1f} MB")


if __name__ == "__main__":
    main()
