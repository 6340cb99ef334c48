"""Journeys across pages under AppTest: what one page changes, every page (and the sidebar) shows at once,
and nothing is lost by moving between pages. (Table edits need a real browser: tests/browser.)"""

from __future__ import annotations

import numpy as np
import pytest

from .test_pages import SMALL, button, errors, form_button, open_page, setting, table_with


def sidebar_text(at) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def test_the_sidebar_shows_the_setting_the_page_just_made():
    at = open_page("watch")
    at.selectbox(key="watch_task_means").set_value("identify").run()
    at.selectbox(key="watch_means_identify").set_value("gege_fc")
    form_button(at, "Run").click().run()
    assert setting(at).algorithm == "gege_fc"
    assert "Algorithm: gege_fc" in sidebar_text(at)  # the same screen, not one interaction later
    at.switch_page("banditviz_app/pages/design.py").run()
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
    at.switch_page("banditviz_app/pages/watch.py").run()
    at.switch_page("banditviz_app/pages/design.py").run()
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


def _values(xs) -> np.ndarray:
    """A trace's coordinates as floats (None -> NaN), from a list or Plotly's base64 typed array."""
    import base64

    if isinstance(xs, dict):
        return np.frombuffer(base64.b64decode(xs["bdata"]), dtype=xs["dtype"]).astype(float)
    return np.array([np.nan if v is None else v for v in xs], dtype=float)


def test_learn_words_follow_the_pictures_on_every_slider_position():
    import json

    at = open_page("learn")
    at.radio(key="learn_step").set_value("3 Confidence boxes").run()
    widths = []
    for T in (10, 2000):
        at.select_slider(key="learn_T").set_value(T).run()
        text = " ".join(m.value for m in at.markdown)
        assert f"After {T:,} rounds" in text
        fig = json.loads(at.get("plotly_chart")[0].proto.spec)
        assert f"confidence boxes after {T:,} rounds" in fig["layout"]["title"]["text"]
        x = np.concatenate([_values(t["x"]) for t in fig["data"]
                            if t.get("name") == "confidence box" and t.get("fill") == "toself"]).reshape(-1, 6)[:, :5]
        drawn = x.max(axis=1) - x.min(axis=1)  # each box's fill: 5 corners and a gap, clipped to the view
        if T == 10:  # one pull each: every box wider than half the view, drawn clipped (one covering it all unfilled)
            assert len(x) >= 9 and (drawn > 0.9).all(), drawn
        else:
            assert len(x) == 10  # every arm's box is drawn whole
        widths.append(float(np.mean(drawn)))
    assert widths[1] < widths[0] / 4  # 200 pulls per arm against 1: the boxes are more than 4 times narrower
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


def _away_and_back(at, page: str):
    """Open another page, then come back to ``page`` (Streamlit drops the state of widgets a run does not draw)."""
    at.switch_page("banditviz_app/pages/watch.py" if page != "watch" else "banditviz_app/pages/design.py").run()
    return at.switch_page(f"banditviz_app/pages/{page}.py").run()


# What a user sets on each page that is not part of the session's setting (view choices, lesson positions):
# (page, [(widget kind, key, value), ...]); each widget is set in turn, then the page is left and reopened.
KEPT_CHOICES = [
    ("learn", [("radio", "learn_step", "3 Confidence boxes"), ("select_slider", "learn_T", 200)]),
    ("learn", [("radio", "learn_step", "1 Dominance"), ("slider", "learn_bx", 0.85), ("slider", "learn_by", 0.1)]),
    ("learn", [("radio", "learn_step", "4 Effective front"), ("radio", "learn_round", 2),
               ("slider", "learn_move_2", 0.3)]),
    ("learn", [("radio", "learn_step", "5 Pareto regret"), ("selectbox", "learn_arm", 3)]),
    ("watch", [("selectbox", "watch_race", "uniform")]),
    ("design", [("radio", "design_dims", "3D"), ("selectbox", "design_preset", "mol_ts_3d")]),
    ("papers", [("tab", "papers_tab", "Risk-averse"), ("radio", "papers_exp2_pattern", 46)]),
    ("papers", [("tab", "papers_tab", "Linear PSI"), ("number_input", "papers_seeds_linpsi", 2)]),
]


def _choose(at, kind: str, key: str, value) -> None:
    """Set the widget ``key`` (a tab, by its label) to ``value`` and rerun."""
    if kind == "tab":
        at.session_state[key] = value
        at.run()
    else:
        getattr(at, kind)(key=key).set_value(value).run()


def _chosen(at, kind: str, key: str):
    return at.session_state[key] if kind == "tab" else getattr(at, kind)(key=key).value


@pytest.mark.parametrize("page, choices", KEPT_CHOICES, ids=[f"{p}-{c[-1][1]}" for p, c in KEPT_CHOICES])
def test_a_page_keeps_what_the_user_set_after_a_visit_to_another_page(page, choices):
    at = open_page(page)
    for kind, key, value in choices:
        _choose(at, kind, key, value)
    at = _away_and_back(at, page)
    assert not at.exception and not errors(at)
    assert [_chosen(at, kind, key) for kind, key, _ in choices] == [v for _, _, v in choices]


def test_compare_keeps_its_view_choices_and_result_after_a_visit_to_another_page():
    at = open_page("compare")
    at.number_input(key="compare_seeds").set_value(2)
    form_button(at, "Run the comparison").click().run()
    at.selectbox(key="compare_metric").set_value(at.selectbox(key="compare_metric").options[-1]).run()
    at.checkbox(key="compare_logx").check().run()
    metric = at.selectbox(key="compare_metric").value
    at = _away_and_back(at, "compare")
    assert not at.exception and not errors(at)
    assert (at.selectbox(key="compare_metric").value, at.checkbox(key="compare_logx").value) == (metric, True)
    assert table_with(at, "runs")["runs"].eq(2).all()
