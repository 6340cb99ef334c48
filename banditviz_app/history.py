"""Undo and redo of the instance on the Design page (per session, the last `LIMIT` changes).

`observe` (at the top and the bottom of each Design run) notices any change of the current instance since it last
looked (a table cell, a drag on the canvas, a preset loaded, the noise) and records the instance it replaced, so no
edit has to remember to record itself. `request` stores an undo or redo asked for by a callback (a button, the
canvas's Ctrl+Z); `apply_request`, at the top of the next run, carries it out, so that the instance is replaced
while the page is drawn, never from a callback.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from . import state

LIMIT = 50
_UNDO, _REDO, _SEEN, _ASKED = "design_undo", "design_redo", "design_seen", "design_history_asked"


def _stack(name: str) -> list[tuple[Any, dict]]:
    return st.session_state.setdefault(name, [])


def observe() -> None:
    """Record the instance the current one replaced, if it changed since the last look (a new change clears redo)."""
    now = state.current()
    seen = st.session_state.get(_SEEN)
    if seen is not None and seen[0] != now.instance:
        undo = _stack(_UNDO)
        undo.append(seen)
        del undo[:-LIMIT]
        st.session_state[_REDO] = []
    st.session_state[_SEEN] = (now.instance, dict(now.source))


def can(what: str) -> bool:
    """Whether there is something to ``what`` ("undo" or "redo")."""
    return bool(st.session_state.get(_UNDO if what == "undo" else _REDO))


def request(what: str) -> None:
    """Ask for an undo or a redo at the next run (for callbacks)."""
    if what in ("undo", "redo"):
        st.session_state[_ASKED] = what


def apply_request() -> None:
    """Carry out the undo or redo asked for, if any and possible: the instance is replaced and the replaced one goes
    to the other stack."""
    what = st.session_state.pop(_ASKED, None)
    if what is None or not can(what):
        return
    take, give = (_UNDO, _REDO) if what == "undo" else (_REDO, _UNDO)
    instance, source = _stack(take).pop()
    now = state.current()
    _stack(give).append((now.instance, dict(now.source)))
    state.set_instance(instance, source)
    st.session_state[_SEEN] = (instance, dict(source))
