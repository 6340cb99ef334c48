"""The frames of an animated figure: what every panel reads (`Context`), the panel protocol (`Panel`), per-frame
numbers, the frame budget, and the figure that holds prebuilt frames without Plotly's validation (`figure_of`).

Frames are sub-sampled evenly in snapshot index (`frame_indices`) to the budget (`frame_budget`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from ..trace import Trace
from .palette import NORMAL_TEXT, Text

START_WITH = "bv_start_with"  # a style key (removed before drawing): the trace's data before the first frame applied

# 3-D camera: seen from low and close, so that the scene fills its wide, short domain at 1366x768 with every
# axis title inside it (judged in screenshots at 1366x768 and 1920x1080; checked in the browser test)
# Legend-only entries of a 3-D scene's traces are 2-D traces on the curves' axes (every figure with a scene has
# them): an empty trace in the scene is still a WebGL object that each frame's restyle updates and redraws.
LEGEND_AXES = {"xaxis": "x1", "yaxis": "y1"}

# JSON budget of a figure (issue 14: <= 2 MB for every preset) and its measured cost per arm and frame (2-D
# and strips, 3-D; the meta table included), plus the sampled vectors of Thompson sampling; many arms get
# fewer frames, never fewer than MIN_FRAMES.
JSON_BUDGET = 1_800_000

BYTES_PER_ARM_FRAME = {2: 420, 3: 860}  # every box drawn (clipped), its outline, fill and cut marks

BYTES_PER_SAMPLE_FRAME = 140

BYTES_PER_MOVING_TRUTH = {2: 220, 3: 420}  # contextual runs: the true means (and their front) move every frame

MIN_FRAMES = 5


def num(values: Any, decimals: int = 4) -> list:
    """Coordinates as a flat list of rounded floats, NaN as None (a gap for Plotly).

    Lists, not numpy arrays: a frame holds many short arrays, and Plotly's `to_dict` (a deep copy) and
    base64 typed-array encoding cost more per short array than they save (measured: 2x slower, 8% larger).
    """
    a = np.round(np.asarray(values, dtype=float), decimals).ravel()
    return [None if v != v else v for v in a.tolist()]


def frame_indices(n: int, max_frames: int) -> np.ndarray:
    """At most ``max_frames`` snapshot indices, evenly spaced in snapshot order, first and last kept.

    Snapshots are already dense early and sparse late (`simulate.snapshot_rounds`), so even spacing in
    index keeps that profile.
    """
    if n <= max_frames:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max_frames)).astype(np.int64))


@dataclass
class Context:
    """What every panel needs: the trace, the frames, the drawn objectives and their orientation."""

    trace: Trace
    idx: np.ndarray  # snapshot index of each frame
    objectives: tuple[int, ...]
    signs: np.ndarray
    decimals: int = 4  # set by the main panel from its view: 1e-4 of the smallest axis span
    rounds: np.ndarray | None = None  # round shown by each frame (a race: may be past the snapshot's round)
    text: Text = NORMAL_TEXT  # font sizes (presentation mode: PRESENT_TEXT)

    def __post_init__(self) -> None:
        if self.rounds is None:
            self.rounds = np.array([s.t for s in (self.trace.snapshots[i] for i in self.idx)], dtype=np.int64)

    @property
    def K(self) -> int:
        return self.trace.instance.K

    def snap(self, n: int):
        return self.trace.snapshots[self.idx[n]]

    def truth(self, n: int) -> np.ndarray | None:
        """The true means of frame ``n``'s drawn objectives; None when the truth is unknown (a logged run)."""
        truth = self.trace.truth_at(int(self.idx[n]))
        return None if truth is None else np.asarray(truth)[:, self.objectives]

    @property
    def truth_moves(self) -> bool:
        return self.trace.snapshot_means is not None

    def num(self, values: Any) -> list:
        return num(values, self.decimals)


def status_of(snap) -> np.ndarray:
    return np.asarray(snap.status, dtype=np.int64)


class Panel:
    """A subplot: static traces, styles of moving traces, per-frame data, its axes and annotations."""

    def annotations(self) -> list[dict]:
        return []

    def statics(self) -> list[dict]:
        return []

    def styles(self) -> list[dict]:
        return []

    def data(self, n: int) -> list[dict]:
        return []

    def axes(self) -> dict:
        return {}


def frame_budget(trace: Trace, dims: int, sides: int) -> int:
    """Frames that keep the figure within JSON_BUDGET: ``sides`` objective panels of ``dims`` dimensions."""
    samples = any("samples" in s.extras for s in trace.snapshots[:3])
    moving = BYTES_PER_MOVING_TRUTH[dims] if trace.snapshot_means is not None else 0
    per_frame = sides * trace.instance.K * (BYTES_PER_ARM_FRAME[dims] + BYTES_PER_SAMPLE_FRAME * samples + moving)
    return JSON_BUDGET // per_frame


def merge(style: dict, data: dict) -> dict:
    """``style`` updated by ``data``, nested dicts (marker, line) merged rather than replaced."""
    out = dict(style)
    for key, value in data.items():
        out[key] = {**out[key], **value} if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


class _Frame(go.Frame):
    """A `go.Frame` holding prebuilt trace dicts; reading ``.data`` validates them once (a read-only view)."""

    def __getitem__(self, prop):
        if prop == "data" and self._compound_array_props.get("data") is None:
            dicts = self._orphan_props.get("data", [])
            self._compound_array_props["data"] = list(self._get_validator("data").validate_coerce(dicts))
        return super().__getitem__(prop)


def figure_of(data: list[dict], layout: dict, frames: list[dict]) -> go.Figure:
    """A `go.Figure` holding ``frames`` as given, skipping Plotly's per-element validation.

    Validating 200 frames of ~15 traces costs seconds (Plotly walks every list element), far over the
    0.5 s budget, so each `go.Frame` is created empty and handed its already-built dict; everything
    that serialises the figure (`to_dict`, `to_json`, `st.plotly_chart`, `write_html`) reads those
    dicts, and ``fig.frames[i].data`` validates frame i's traces when first read.  The unit tests
    re-validate a whole figure with `go.Figure(fig.to_dict())`.  Should a future Plotly drop these
    internals, the validated path is used instead.  A template object (`palette.base_layout`'s) is given as its
    dict: unvalidated, Plotly would not convert it.
    """
    if hasattr(layout.get("template"), "to_plotly_json"):
        layout = {**layout, "template": layout["template"].to_plotly_json()}
    fig = go.Figure(data=data, layout=layout, _validate=False)
    try:
        objs = []
        for f in frames:
            obj = _Frame(name=f["name"], traces=f["traces"])
            obj._orphan_props["data"] = f["data"]
            objs.append(obj)
        fig._frame_objs = tuple(objs)
    except AttributeError:  # pragma: no cover - depends on Plotly internals
        fig.frames = frames
    return fig
