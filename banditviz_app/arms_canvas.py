"""The Design page's arms canvas: the arms of a two-objective fixed-means instance placed by hand.

A Streamlit custom component v2 (`st.components.v2.component`: in the page, no iframe, both ways). Its script
(`arms_canvas.js`, after `design_geometry.js`) draws the arms, the Pareto front, the effective front and a table of
every arm's gaps, and recomputes them in the page while an arm is dragged: no round trip while the pointer moves.
A finished edit (a drag released, an arm added by a click on empty space, the selected arm deleted or moved by the
arrow keys) comes back once as the trigger ``edit``; undo and redo (Ctrl+Z, Ctrl+Y) as the trigger ``history``.

`edited` turns an ``edit`` payload into the new instance (pure, tested without a browser): it is refused when it was
made on another instance than the current one (its ``token``) or is malformed, with a ValueError naming the field.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

import banditviz
from banditviz.figures.palette import STATUS_COLORS
from banditviz.figures.static import MAX_LABELLED_ARMS

from . import state

ASSETS = Path(__file__).parent
HEIGHT = 460  # the plot's height in px: with the legend and the head, the canvas's top fits 1366x768

_component = st.components.v2.component(
    "banditviz_arms_canvas",
    html="",
    css=(ASSETS / "arms_canvas.css").read_text(),
    js=(ASSETS / "design_geometry.js").read_text() + (ASSETS / "arms_canvas.js").read_text(),
    isolate_styles=False,  # in the page's DOM (its classes are all "bv-"), where the page's tests and tools find it
)


def supports(instance: banditviz.Instance) -> bool:
    """Whether the canvas edits ``instance``: fixed means, two objectives."""
    return instance.kind == "means" and instance.L == 2


def token(instance: banditviz.Instance) -> str:
    """Names the instance an edit was made on."""
    return hashlib.sha1(state.compact_json(instance).encode()).hexdigest()[:16]


def data(instance: banditviz.Instance) -> dict[str, Any]:
    """What the script draws: the means in display orientation, names, axis titles, the status colours."""
    signs = [-1.0 if d == "min" else 1.0 for d in instance.directions]
    names = list(instance.objective_names)
    axes = [f"{n} (minimised)" if d == "min" else n for n, d in zip(names, instance.directions, strict=True)]
    return {"token": token(instance), "points": instance.display(instance.means).tolist(),
            "names": list(instance.arm_names), "signs": signs, "axes": axes, "columns": names, "height": HEIGHT,
            "fit": state.presenting(), "labels": instance.K <= MAX_LABELLED_ARMS,  # as the Plotly preview
            "colors": {k: STATUS_COLORS[k] for k in ("front", "hull", "rejected")}}


def edited(payload: Any, instance: banditviz.Instance, also: tuple[str, ...] = ()) -> banditviz.Instance:
    """The instance an ``edit`` payload describes: ``instance`` with the payload's means (display orientation) and
    arm names. ValueError when the payload was made on another instance (its token is neither ``instance``'s nor one
    of ``also``: the instance a previous canvas edit replaced, since a second edit can leave the page before the first
    one's instance reaches it, and the payload holds both) or is not a table of K >= 2 finite pairs with K distinct
    names."""
    if not isinstance(payload, dict) or payload.get("token") not in (token(instance), *also):
        raise ValueError("edit: made on another instance (the page changed meanwhile); not applied")
    means, names = payload.get("means"), payload.get("names")
    try:
        values = np.asarray(means, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("edit: means must be a table of numbers") from None
    if values.ndim != 2 or values.shape[1] != 2 or values.shape[0] < 2 or not np.isfinite(values).all():
        raise ValueError("edit: means must be at least 2 rows of 2 finite numbers")
    if not isinstance(names, list) or len(names) != len(values) or not all(isinstance(n, str) for n in names):
        raise ValueError("edit: names must be one text per arm")
    if len(set(names)) != len(names):
        raise ValueError("edit: each arm needs its own name")
    data_ = instance.to_dict()
    data_.update(means=instance.display(values).tolist(), arm_names=names)
    return banditviz.Instance.from_dict(data_)


def show(instance: banditviz.Instance, key: str, on_edit: Callable[[], None],
         on_history: Callable[[], None]) -> None:
    """Mount the canvas for ``instance`` (`supports` it); ``on_edit`` / ``on_history`` run before the next script run
    when an edit or an undo/redo arrives (read it with ``st.session_state[key]``)."""
    _component(key=key, data=data(instance), on_edit_change=on_edit, on_history_change=on_history)
