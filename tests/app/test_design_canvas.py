"""The Design page's arms canvas, the part Python does (`arms_canvas.edited`), and undo/redo of the instance
(`history`) through the Undo and Redo buttons. The canvas itself runs in the browser: tests/browser/
test_design_canvas_browser.py."""

from __future__ import annotations

import json

import pytest

import banditviz
from banditviz_app import arms_canvas, state
from tests.app.test_pages import button, open_page, qp, setting


def payload(inst: banditviz.Instance, **changes) -> dict:
    out = {"token": arms_canvas.token(inst), "means": inst.display(inst.means).tolist(),
           "names": list(inst.arm_names)}
    out.update(changes)
    return out


def test_an_edit_is_the_instance_with_the_tables_means_in_display_orientation():
    inst = banditviz.preset("default").with_changes(directions=["max", "min"])
    shown = inst.display(inst.means).tolist()
    shown[2] = [0.9, 0.05]
    new = arms_canvas.edited(payload(inst, means=shown), inst)
    assert new.means[2].tolist() == [0.9, -0.05]  # the minimised objective negated back
    assert new.noise == inst.noise and new.sigma == inst.sigma and new.directions == inst.directions
    added = arms_canvas.edited(payload(inst, means=[*shown, [1.0, 0.0]], names=[*inst.arm_names, "new"]), inst)
    assert added.K == inst.K + 1 and added.arm_names[-1] == "new"


@pytest.mark.parametrize("change, word", [
    ({"token": "0" * 16}, "another instance"),
    ({"means": [[0.1, 0.2]], "names": ["a"]}, "at least 2 rows"),
    ({"means": [[0.1, "x"], [0.2, 0.3]], "names": ["a", "b"]}, "means"),
    ({"means": [[0.1, float("inf")], [0.2, 0.3]], "names": ["a", "b"]}, "finite"),
    ({"names": ["a"]}, "names"),
])
def test_a_bad_or_stale_edit_is_refused_with_its_field(change, word):
    inst = banditviz.preset("default")
    with pytest.raises(ValueError, match=word):
        arms_canvas.edited(payload(inst, **change), inst)
    with pytest.raises(ValueError, match="own name"):  # names stay distinct, as in the arm table
        arms_canvas.edited(payload(inst, names=["a"] * inst.K), inst)


def test_an_edit_made_before_the_previous_one_arrived_is_accepted_by_its_starting_token():
    inst = banditviz.preset("default")
    old = arms_canvas.token(banditviz.preset("default_3d"))
    with pytest.raises(ValueError):
        arms_canvas.edited(payload(inst, token=old), inst)
    assert arms_canvas.edited(payload(inst, token=old), inst, also=(old,)).K == inst.K


def test_undo_and_redo_go_back_and_forth_through_table_edits_and_a_preset():
    at = open_page("design")
    assert button(at, "Undo").disabled and button(at, "Redo").disabled
    at.selectbox(key="design_noise_0").set_value("bernoulli").run()
    noisy = setting(at).instance
    assert noisy.noise == "bernoulli" and not button(at, "Undo").disabled
    button(at, "Add a random arm").click().run()
    assert setting(at).instance.K == 11
    button(at, "Undo").click().run()
    assert setting(at).instance == noisy and not button(at, "Redo").disabled
    button(at, "Undo").click().run()
    assert setting(at).instance == banditviz.preset("default") and qp(at, "preset") == "default"
    assert button(at, "Undo").disabled
    button(at, "Redo").click().run()
    button(at, "Redo").click().run()
    assert setting(at).instance.K == 11 and json.loads(qp(at, "inst"))["means"] == setting(at).instance.means.tolist()
    at.selectbox(key=f"design_noise_{at.session_state['bv_version']}").set_value("gaussian").run()
    assert button(at, "Redo").disabled  # a new change clears what could be redone


def field(at, kind: str, label: str):
    return next(w for w in getattr(at, kind) if w.label == label)


def test_name_and_description_are_kept_through_later_edits_and_the_link():
    at = open_page("design")
    field(at, "text_input", "Instance name").set_value("lecture 3").run()
    field(at, "text_area", "Description").set_value("one arm off the hull").run()
    inst = setting(at).instance
    assert (inst.name, inst.description) == ("lecture 3", "one arm off the hull")
    assert json.loads(qp(at, "inst"))["name"] == "lecture 3"
    button(at, "Add a random arm").click().run()  # a later edit keeps the name the user gave
    assert setting(at).instance.name == "lecture 3" and setting(at).instance.K == 11
    field(at, "text_input", "Instance name").set_value("  ").run()
    assert "name:" in at.error[0].value and setting(at).instance.name == "lecture 3"


def test_an_edit_renames_a_preset_and_the_name_field_shows_it():
    at = open_page("design")
    button(at, "Add a random arm").click().run()
    assert field(at, "text_input", "Instance name").value == "custom (from default)"
    button(at, "Add a random arm").click().run()  # the field's old value is never given back to the instance
    assert setting(at).instance.name == "custom (from default)" and setting(at).instance.K == 12


def test_the_preset_box_names_the_edited_instance():
    at = open_page("design")
    assert at.selectbox(key="design_preset").value == "default"
    button(at, "Add a random arm").click().run()
    box = at.selectbox(key="design_preset")
    assert box.value == "(current)" and box.format_func(box.value) == "custom (from default) (current)"
    assert not [b for b in at.button if b.label == "Load preset"]  # nothing to load: it is the current instance
    box.set_value("risk_averse_table1").run()
    button(at, "Load preset").click().run()
    assert setting(at).instance == banditviz.preset("risk_averse_table1")
    assert at.selectbox(key="design_preset").value == "risk_averse_table1"
    button(at, "Undo").click().run()  # back to the edited instance: the box names it again
    assert at.selectbox(key="design_preset").value == "(current)"


def test_an_imported_preset_is_renamed_when_edited_an_own_name_is_not():
    default = banditviz.preset("default")
    assert state.as_edit(default, default, {}).name == "custom (from default)"
    mine = default.with_changes(name="mine")
    assert state.as_edit(mine, mine, {}).name == "mine"
    assert state.as_edit(mine, mine, {"gen": "uniform_box"}).name == "custom (from mine)"
