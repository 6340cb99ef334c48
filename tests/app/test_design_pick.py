"""The Design page's 3-D arm picker, the part Python does (`arm_picker`): which arm a payload names, removing an arm,
the preview it draws (each marker's arm, the selected arm ringed, the camera kept). The clicks and drags themselves
run in the browser: tests/browser/test_design_pick_3d_browser.py."""

from __future__ import annotations

import numpy as np
import pytest
import streamlit as st

import banditviz
from banditviz import figures
from banditviz_app import arm_picker, arms_canvas


def test_a_payload_names_an_arm_or_none_and_a_stale_or_bad_one_is_refused():
    inst = banditviz.preset("default_3d")
    tok = arms_canvas.token(inst)
    assert arm_picker.chosen({"arm": 4, "token": tok}, inst) == 4
    assert arm_picker.chosen({"arm": -1, "token": tok}, inst) is None
    with pytest.raises(ValueError, match="another instance"):
        arm_picker.chosen({"arm": 4, "token": arms_canvas.token(banditviz.preset("default"))}, inst)
    for bad in (12, -2, True, 1.0, "3", None):
        with pytest.raises(ValueError, match=r"arm: must be an arm index in \[0, 12\)"):
            arm_picker.chosen({"arm": bad, "token": tok}, inst)


def test_removing_an_arm_keeps_the_others_and_refuses_to_leave_one():
    inst = banditviz.preset("default_3d")
    out = arm_picker.without(inst, 5)
    assert out.K == 11 and "arm 5" not in out.arm_names
    np.testing.assert_array_equal(out.means, np.delete(inst.means, 5, axis=0))
    assert out.noise == inst.noise and out.sigma == inst.sigma
    three = banditviz.Instance.from_means(inst.means[:3])
    assert arm_picker.without(three, 0).K == 2
    with pytest.raises(ValueError, match="at least 2 arms"):
        arm_picker.without(arm_picker.without(three, 0), 0)


def test_each_marker_carries_its_arm_and_the_selected_arm_is_ringed_at_its_mean():
    inst = banditviz.preset("default_3d").with_changes(directions=["max", "min", "max"])
    fig = figures.instance_preview(inst)
    arms = {}
    for t in fig.data:
        if t.type == "scatter3d":
            for k, c in enumerate(t.customdata):
                arms[int(c[2])] = (t.x[k], t.y[k], t.z[k])
    assert sorted(arms) == list(range(inst.K))
    shown = inst.display(inst.means)
    for arm, xyz in arms.items():  # the index names the arm at that marker (a shuffled index would not)
        np.testing.assert_allclose(xyz, shown[arm])
    st.session_state[arm_picker.SELECTED] = "arm 7"
    st.session_state[arm_picker.CAMERA] = None
    arm_picker.keep_camera({"camera": {"eye": {"x": 1, "y": 2, "z": 0.5}, "up": {"x": 0, "y": 0, "z": 1},
                                       "center": {"x": 0, "y": 0, "z": 0}}})
    arm_picker.keep_camera({"camera": {"eye": {"x": "nan", "y": 2, "z": 0.5}}})  # not a camera: the last one kept
    ringed = arm_picker.pickable(figures.instance_preview(inst), inst)
    ring = [t for t in ringed.data if (t.name or "").startswith("selected")]
    assert len(ring) == 1 and ring[0].name == "selected: arm 7"
    np.testing.assert_allclose([ring[0].x[0], ring[0].y[0], ring[0].z[0]], shown[7])
    assert ringed.layout.scene.camera.eye.x == 1 and ringed.layout.scene.camera.eye.y == 2
