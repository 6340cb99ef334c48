"""Watch's downloads of the run on screen (`banditviz.export`): an offline page that plays it as Watch does (HTML),
and a video (MP4) or GIF of its animation where this machine can make one (the Python packages and Chromium).

A video takes about a minute to draw (every frame in a headless browser): it is made when asked for, kept in the
session for the run, size and speed it was made for, and then offered for download.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

import banditviz
from banditviz import export
from banditviz.figures.playback import DEFAULT_SPEED, SPEEDS

SIZES = ("1920x1080", "1280x720", "960x540")
FORMATS = {"MP4": ("mp4", "video/mp4"), "GIF": ("gif", "image/gif")}
MADE = "bv_video"  # session key: (what was asked for, the file's bytes)


def _video(trace: banditviz.Trace, rival: banditviz.Trace | None, suffix: str, size: str, speed: str,
           present: bool) -> bytes:
    width, height = (int(v) for v in size.split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        path = export.write_video(Path(tmp) / f"run.{suffix}", trace, rival, width=width, height=height, speed=speed,
                                  present=present)
        return path.read_bytes()


def offer(trace: banditviz.Trace, rival: banditviz.Trace | None, run_id: str, present: bool) -> None:
    """The download buttons of the run (``rival``: the race's B) that ``run_id`` names."""
    name = f"{trace.algorithm}_seed{trace.seed}" + (f"_vs_{rival.algorithm}" if rival else "")
    st.download_button("Download the run as a page (HTML, plays offline)",
                       lambda: export.page(trace, rival, present=present),  # made on click
                       file_name=f"{name}.html", mime="text/html")
    why = export.missing()
    if why:
        st.caption(f"Video and GIF: {why}.")
        return
    with st.popover("Video or GIF of the run"):
        kind = st.radio("Format", list(FORMATS), horizontal=True, key="bv_video_format")
        size = st.selectbox("Size (px)", SIZES, key="bv_video_size")
        names = [n for n, _ in SPEEDS]
        speed = st.selectbox("Speed", names, index=names.index(DEFAULT_SPEED), key="bv_video_speed")
        suffix, mime = FORMATS[kind]
        asked = (run_id, suffix, size, speed, present)
        if st.button("Make it", key="bv_video_make"):
            with st.spinner("Drawing every frame (a minute or two)..."):
                try:
                    st.session_state[MADE] = (asked, _video(trace, rival, suffix, size, speed, present))
                except OSError as exc:
                    st.error(f"The video could not be made: {exc}")
        made = st.session_state.get(MADE)
        if made and made[0] == asked:
            st.download_button(f"Download the {kind}", made[1], file_name=f"{name}_{size}_{speed}.{suffix}", mime=mime,
                               key="bv_video_download")
