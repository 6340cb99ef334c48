"""Journeys across pages under AppTest: what one page changes, every page (and the sidebar) shows at once,
and nothing is lost by moving between pages. (Table edits need a real browser: tests/browser.)"""

from __future__ import annotations

from .test_pages import SMALL, button, form_button, open_page, setting


def sidebar_text(at) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_the_sidebar_shows_the_setting_the_page_just_made():
    at = open_page("watch")
    at.selectbox(key="watch_task_means").set_value("identify").run()
    at.selectbox(key="watch_means_identify").set_value("gege_fc")
    form_button(at, "Run").click().run()
    assert setting(at).algorithm == "gege_fc"
    assert "Algorithm: gege_fc" in sidebar_text(at)  # the same screen, not one interaction later
    at.switch_page("pages/design.py").run()
    at.selectbox(key="design_gen").set_value("uniform_box")
    at.number_input(key="design_gen_K").set_value(8)
    at.number_input(key="design_gen_L").set_value(3)
    button(at, "Generate").click().run()
    assert "8 arms, 3 objectives" in sidebar_text(at)


def test_generator_fields_show_the_generated_instance_after_a_page_switch():
    at = open_page("design")
    at.selectbox(key="design_gen").set_value("concave_front")
    at.number_input(key="design_gen_K").set_value(6)
    at.number_input(key="design_gen_seed").set_value(3)
    button(at, "Generate").click().run()
    at.switch_page("pages/watch.py").run()
    at.switch_page("pages/design.py").run()
    assert at.selectbox(key="design_gen").value == "concave_front"
    assert (at.number_input(key="design_gen_K").value, at.number_input(key="design_gen_seed").value) == (6, 3)


def test_an_edited_instance_is_named_custom_and_keeps_its_origin():
    at = open_page("design")
    button(at, "Add a random arm").click().run()
    inst = setting(at).instance
    assert inst.name == "custom (from default)" and "default" in inst.description
    assert "custom (from default)" in at.subheader[0].value.replace("\\", "")
    assert "custom (from default)" in sidebar_text(at).replace("\\", "")
    at.selectbox(key=f"design_noise_{at.session_state['bv_version']}").set_value("bernoulli").run()
    assert setting(at).instance.name == "custom (from default)"  # a second edit does not nest the name


def test_a_link_opens_on_the_page_with_its_setting():
    at = open_page("compare", {**SMALL, "alg": "gege_fc"})
    assert "Algorithm: gege_fc" in sidebar_text(at)
    assert at.multiselect(key="compare_algs_means").value[0] == "gege_fc"
