"""The Design page's arm picker: select an arm of a three-objective fixed-means instance in its 3-D preview.

A Streamlit custom component v2 with no element of its own (`arm_picker.js`): it listens to the Plotly preview chart
in the page's preview box. A click on an arm's marker selects it; a drag rotates the scene and selects nothing (a
press that moves more than a few pixels is a rotation). The selection comes back as the trigger ``select``, Delete as
``remove`` and Ctrl+Z / Ctrl+Y as ``history``. The page keeps the selected arm by name (`selected`), rings it in the
preview (`highlight`) and highlights its row in the gaps table.

`chosen` turns a ``select`` or ``remove`` payload into an arm index (pure, tested without a browser); `without`
removes an arm.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import banditviz

from . import arms_canvas

SELECTED = "design_selected_arm"  # session key: the selected arm's name
CAMERA = "design_camera"  # session key: the 3-D preview's camera as the user last turned it
RING = "#111418"  # the selected arm's ring: the page's ink

_component = st.components.v2.component(
    "banditviz_arm_picker", html="", js=(Path(__file__).parent / "arm_picker.js").read_text())


def supports(instance: banditviz.Instance) -> bool:
    """Whether arms are picked in ``instance``'s preview: fixed means, three objectives (two have the canvas)."""
    return instance.kind == "means" and instance.L == 3


def selected(instance: banditviz.Instance) -> int | None:
    """The index of the selected arm in ``instance`` (kept by name, so an edit elsewhere keeps it), or None."""
    name = st.session_state.get(SELECTED)
    return list(instance.arm_names).index(name) if name in instance.arm_names else None


def select(instance: banditviz.Instance, arm: int | None) -> None:
    st.session_state[SELECTED] = None if arm is None else instance.arm_names[arm]


def chosen(payload: Any, instance: banditviz.Instance) -> int | None:
    """The arm a payload names: an index in [0, K), or None for "no arm" (-1). ValueError when it was made on another
    instance (its token) or names no arm."""
    if not isinstance(payload, dict) or payload.get("token") != arms_canvas.token(instance):
        raise ValueError("arm: chosen on another instance (the page changed meanwhile); not applied")
    arm = payload.get("arm")
    if isinstance(arm, bool) or not isinstance(arm, int) or not -1 <= arm < instance.K:
        raise ValueError(f"arm: must be an arm index in [0, {instance.K}) or -1, got {arm!r}")
    return None if arm == -1 else arm


def keep_camera(payload: Any) -> None:
    """Keep the camera a payload carries (the scene as the user turned it), if it is one: ``eye``, ``up`` and
    ``center`` each three finite numbers x, y, z."""
    cam = payload.get("camera") if isinstance(payload, dict) else None
    try:
        kept = {part: {a: float(cam[part][a]) for a in "xyz"} for part in ("eye", "up", "center")}
    except (TypeError, KeyError, ValueError):
        return
    if all(np.isfinite(v) for p in kept.values() for v in p.values()):
        st.session_state[CAMERA] = kept


def without(instance: banditviz.Instance, arm: int) -> banditviz.Instance:
    """``instance`` without arm ``arm`` (ValueError when it would leave fewer than two arms)."""
    if instance.K <= 2:
        raise ValueError("arms: an instance needs at least 2 arms; add one before removing this one")
    data = instance.to_dict()
    data.update(means=np.delete(np.asarray(instance.means), arm, axis=0).tolist(),
                arm_names=[n for i, n in enumerate(instance.arm_names) if i != arm])
    return banditviz.Instance.from_dict(data)


def pickable(fig: go.Figure, instance: banditviz.Instance) -> go.Figure:
    """The preview (`figures.instance_preview`: each marker's third customdata column is its arm, which the script
    reads) at the camera the user last turned it to (`keep_camera`: the chart a rerun draws would start from the
    figure's own) and with the selected arm ringed."""
    names = list(instance.arm_names)
    fig.update_layout(uirevision="design")
    if st.session_state.get(CAMERA):
        fig.update_layout(scene_camera=st.session_state[CAMERA])
    arm = selected(instance)
    if arm is not None:
        x, y, z = (np.asarray(instance.display(instance.means))[arm, j] for j in range(3))
        fig.add_trace(go.Scatter3d(x=[x], y=[y], z=[z], mode="markers", name=f"selected: {names[arm]}",
                                   hoverinfo="skip", marker={"symbol": "circle-open", "size": 16,
                                                             "color": RING, "line": {"width": 4, "color": RING}}))
    return fig


def show(instance: banditviz.Instance, key: str, box: str, on_select: Callable[[], None],
         on_remove: Callable[[], None], on_history: Callable[[], None]) -> None:
    """Mount the picker on the preview chart inside ``st.container(key=box)``; the callbacks run before the next
    script run (read the payload with ``st.session_state[key]``)."""
    arm = selected(instance)
    _component(key=key, data={"token": arms_canvas.token(instance), "box": box, "selected": -1 if arm is None else arm},
               on_select_change=on_select, on_remove_change=on_remove, on_history_change=on_history)
