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


def test_learn_words_follow_the_pictures_on_every_slider_position():
    import json

    at = open_page("learn")
    at.radio(key="learn_step").set_value("3 Confidence boxes").run()
    for T in (10, 2000):
        at.select_slider(key="learn_T").set_value(T).run()
        text = " ".join(m.value for m in at.markdown)
        assert f"After {T:,} rounds" in text
        fig = json.loads(at.get("plotly_chart")[0].proto.spec)
        curve = [t for t in fig["data"] if t.get("xaxis") == "x1" and t.get("name") == "Pareto regret"][-1]
        assert len(curve["x"]) > 2 and curve["x"][-1] == T  # the regret panel is drawn up to round T
    at.radio(key="learn_step").set_value("5 Pareto regret").run()
    for arm in (0, 2):
        at.selectbox(key="learn_arm").set_value(arm).run()
        fig = json.loads(at.get("plotly_chart")[0].proto.spec)
        assert any(t.get("name") == f"picked: arm {arm}" for t in fig["data"])
    for T in (1000, 20000):
        at.select_slider(key="learn_regret_T").set_value(T).run()
        text = " ".join(m.value for m in at.markdown)
        assert "**pareto\\_ucb1** paid" in text or "**pareto_ucb1** paid" in text
        assert "ever more slowly" in text and "linearly" in text
