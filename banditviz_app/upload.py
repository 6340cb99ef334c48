"""Watch a run logged by one's own code: upload a CSV, npz or Parquet log (`banditviz.Trace.from_log`, format in
`banditviz.runlog`), optionally with a side JSON header (the true means...), and play it with the page's player like
any run.

``python -m banditviz view FILE`` hands its file to the app by the environment variables `VIEW_ENV` (the log's path)
and `VIEW_HEADER_ENV` (its side JSON's): Watch plays it until a file is uploaded (decision: every session of that
local server starts on it; a user's upload replaces it, removing the upload goes back to it).

A bad file is a message in the page naming the column (or header key), the row and what is allowed, never a
traceback; the instance and the run being watched are kept (a log never touches the session's setting). Parsed runs
and their figures are cached per file content.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

import streamlit as st

import banditviz
from banditviz import figures, limits, runlog, words

from . import charts, state

UPLOADER = "watch_log"
HEADER_UPLOADER = "watch_log_header"
VIEW_ENV, VIEW_HEADER_ENV = runlog.VIEW_ENV, runlog.VIEW_HEADER_ENV
CACHE = {"max_entries": 8, "show_spinner": False}


@dataclass(frozen=True)
class Logged:
    """An uploaded log that reads as a run: its content (the cache key) and its trace."""

    data: bytes
    header: bytes | None
    trace: banditviz.Trace

    @property
    def run_id(self) -> str:
        return "log:" + hashlib.sha1(self.data + (self.header or b"")).hexdigest()[:12]


@st.cache_resource(**CACHE)
def _read(data: bytes, header: bytes | None) -> banditviz.Trace:
    side = None
    if header is not None:
        try:
            side = json.loads(header.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"header: the side JSON file is not JSON ({exc})") from None
    return banditviz.Trace.from_log(data, side)


@st.cache_resource(**CACHE)
def _animation(data: bytes, header: bytes | None, height: int, heights: tuple[int, ...],
               present: bool) -> charts.Prepared:
    return charts.prepare(figures.animate(_read(data, header), controls=False, height=height, heights=heights,
                                          present=present))


def _handed_over() -> tuple[str, bytes, bytes | None] | None:
    """The file ``python -m banditviz view`` hands over (`VIEW_ENV`): its name, content and side JSON, or None."""
    path = os.environ.get(VIEW_ENV)
    if not path:
        return None
    contents = []
    for name in (path, os.environ.get(VIEW_HEADER_ENV)):
        if not name:
            contents.append(None)
            continue
        if not os.path.isfile(name) or os.path.getsize(name) > limits.MAX_LOG_BYTES:
            raise ValueError(f"{VIEW_ENV}: no file {name!r} of at most {limits.MAX_LOG_BYTES:,} bytes")
        with open(name, "rb") as fh:
            contents.append(fh.read())
    return os.path.basename(path), contents[0], contents[1]


def logged_run() -> Logged | None:
    """The uploader (a log and an optional side JSON) in an expander; the run it reads as, else the file handed over
    by ``view`` (`_handed_over`), else None (nothing given, or a bad file: its message is shown where the uploader
    is)."""
    with st.expander("Play a run you logged", expanded=bool(st.session_state.get(UPLOADER))):
        st.caption("A CSV with columns round, arm and reward[<objective>] (optionally estimate, lower, upper, "
                   "status, front, and a '#' JSON header with the true means), or the same log as npz or Parquet "
                   "(`banditviz.Recorder` writes one): see `help(banditviz.runlog)`. "
                   "Without the true means there is no regret: the figure draws the log's empirical means. "
                   "Your instance is kept; remove the file to watch it again.")
        log = st.file_uploader("Logged run (CSV, npz or Parquet)", type=["csv", "txt", "npz", "parquet"],
                               key=UPLOADER, max_upload_size=limits.MAX_LOG_BYTES // 1_000_000)
        side = st.file_uploader("Header (JSON, optional)", type=["json"], key=HEADER_UPLOADER,
                                max_upload_size=max(1, limits.MAX_UPLOAD_BYTES // 1_000_000))
        try:
            if log is not None:
                name, data, header = log.name, log.getvalue(), None if side is None else side.getvalue()
            elif (given := _handed_over()) is not None:
                name, data, header = given
                st.caption(f"Playing **{state.plain(name)}**, opened by `python -m banditviz view`; upload a file "
                           "to play another.")
            else:
                return None
            return Logged(data, header, _read(data, header))
        except ValueError as exc:
            state.show_error(exc, f"{name if log is not None else os.environ.get(VIEW_ENV)} was not read")
            return None


def animation(logged: Logged, height: int, heights: tuple[int, ...], present: bool) -> charts.Prepared:
    """The Watch figure of a logged run, as `runs.animation` of a simulated one."""
    return _animation(logged.data, logged.header, height, heights, present)


def notes(trace: banditviz.Trace) -> None:
    """What is played: the logged run, and what its figure cannot show without the true means."""
    inst = trace.instance
    st.info(f"Playing the logged run **{state.plain(trace.algorithm)}**: {words.count(trace.rounds, 'round')}, "
            f"{words.count(inst.K, 'arm')}, {words.count(inst.L, 'objective')}.", icon=":material/upload_file:")
    if not trace.truth_known:
        st.caption("The true means are unknown (the log gives none): no regret and no true Pareto front are drawn. "
                   "The points are the estimates the log gives, or else the mean reward each arm has given so far; "
                   "the curves are the mean reward so far in each objective.")
