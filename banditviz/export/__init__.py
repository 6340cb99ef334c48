"""Take a run out of the app: one offline HTML page that plays as Watch does (`page`), a video (MP4) or a GIF of
its animation (`write_video`); `save` picks by the file's suffix. Also ``python -m banditviz export``.
"""

from __future__ import annotations

from pathlib import Path

from ..trace import Trace
from .page import page, write_page
from .video import FORMATS as VIDEO_FORMATS
from .video import missing, write_video

PAGE_FORMATS = (".html", ".htm")

__all__ = ["PAGE_FORMATS", "VIDEO_FORMATS", "missing", "page", "save", "write_page", "write_video"]


def save(path: str | Path, trace: Trace, rival: Trace | None = None, *, present: bool | None = None,
         width: int = 1920, height: int = 1080, speed: str = "normal") -> Path:
    """The run (raced against ``rival`` if given) written to ``path``: an offline page (.html, `write_page`) or its
    animation as a video (.mp4 or .gif, `write_video`: ``width`` x ``height`` px at ``speed``). ``present``:
    presentation mode (default: for a video, not for a page). Returns the path."""
    if present is not None and not isinstance(present, bool):
        raise ValueError(f"present: must be None, True or False, got {present!r}")
    suffix = Path(path).suffix.lower()
    if suffix in PAGE_FORMATS:
        return write_page(path, trace, rival, present=bool(present))
    if suffix in VIDEO_FORMATS:
        return write_video(path, trace, rival, width=width, height=height, speed=speed,
                           present=True if present is None else present)
    raise ValueError(f"path: must end in {', '.join(PAGE_FORMATS + VIDEO_FORMATS)}, got {str(path)!r}")
