"""Every page under AppTest: renders on defaults, its main controls change the output, bad input shows st.error
and keeps the instance. Horizons are kept small (the URL's ``T``) so the suite stays within its budget."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import banditviz
from banditviz_app import papers, runs, state

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SMALL = {"preset": "default", "alg": "pareto_ucb1", "T": "150", "seed": "0"}


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(SMALL if query is None else query)
    at.run()
    if page != "watch":
        at.switch_page(f"banditviz_app/pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def setting(at: AppTest) -> state.Setting:
    return at.session_state["bv_setting"]


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def qp(at: AppTest, key: str) -> str | None:
    """A URL parameter as the app left it (AppTest keeps single values as str, repeated ones as lists)."""
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def table_with(at: AppTest, column: str):
    """The first st.dataframe showing ``column`` (AppTest does not expose a dataframe's key)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def charts(at: AppTest) -> list:
    return at.get("plotly_chart")


def watch_meta(at: AppTest) -> dict:
    """What the Watch figure gives its player (AppTest does not run the player's script)."""
    return json.loads(charts(at)[0].proto.spec)["layout"]["meta"]["bv"]


def button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def form_button(at: AppTest, label: str):
    return next(b for b in at.get("button") if getattr(b, "label", None) == label)


# ---------------------------------------------------------------------- Watch
def test_watch_renders_the_default_run_and_writes_the_url():
    at = open_page("watch")
    assert not errors(at)
    assert len(charts(at)) == 1
    assert qp(at, "alg") == "pareto_ucb1" and qp(at, "T") == "150"
    assert any("played 150 rounds" in m.value.replace("\\", "") for m in at.markdown)


def test_watch_run_button_applies_seed_and_algorithm():
    at = open_page("watch")
    at.number_input(key="watch_seed").set_value(7)
    at.selectbox(key="watch_means_regret").set_value("uniform")
    form_button(at, "Run").click().run()
    assert not at.exception and not errors(at)
    s = setting(at)
    assert (s.seed, s.algorithm) == (7, "uniform")
    assert qp(at, "seed") == "7" and qp(at, "alg") == "uniform"
    # the player's per-arm table follows: round-robin pulls each arm equally often
    pulls = [int(row[2]) for row in watch_meta(at)["table"]["rows"][-1]]
    assert watch_meta(at)["table"]["columns"][2] == "pulls" and max(pulls) - min(pulls) <= 1


def test_watch_parameter_form_comes_from_the_registry():
    at = open_page("watch")
    at.selectbox(key="watch_means_regret").set_value("mo_epsilon_greedy").run()
    eps = at.number_input(key="watch_p_mo_epsilon_greedy_epsilon")
    assert eps.value == pytest.approx(0.1)  # paper default
    assert "Drugan" in eps.help
    eps.set_value(0.5)
    form_button(at, "Run").click().run()
    assert setting(at).params == {"epsilon": 0.5}
    assert json.loads(qp(at, "p")) == {"epsilon": 0.5}


def test_watch_player_explains_each_round():
    meta = watch_meta(open_page("watch"))
    said = meta["explain"][meta["rounds"].index(5)]
    assert any("Initialisation" in t and "arm 4" in t for t in said)
    assert len(meta["explain"]) == len(meta["phase"]) == len(meta["table"]["rows"]) == len(meta["rounds"])


def test_watch_races_a_second_algorithm_on_the_same_noise():
    at = open_page("watch")
    at.selectbox(key="watch_race").set_value("uniform").run()
    assert not at.exception and not errors(at)
    assert len(charts(at)) == 1
    said = " ".join(" ".join(s) for s in watch_meta(at)["explain"])
    assert "A: " in said and "B: Every arm in turn" in said
    assert any("uniform played 150 rounds" in m.value.replace("\\", "") for m in at.markdown)


def test_watch_race_is_kept_in_the_link_and_restored_from_it():
    at = open_page("watch", {**SMALL, "race": "uniform"})
    assert not at.exception and not errors(at) and not at.warning
    assert at.selectbox(key="watch_race").value == "uniform" and qp(at, "race") == "uniform"
    assert "B: Every arm in turn" in " ".join(" ".join(s) for s in watch_meta(at)["explain"])
    assert any("uniform with its paper defaults" in c.value.replace("\\", "") for c in at.caption)
    at.selectbox(key="watch_race").set_value("(no race)").run()
    assert qp(at, "race") is None and len(watch_meta(at)["rounds"]) > 0
    at.selectbox(key="watch_race").set_value("uniform").run()
    assert qp(at, "race") == "uniform"


def test_watch_race_in_a_link_that_cannot_race_says_so():
    at = open_page("watch", {**SMALL, "race": "no_such_algorithm"})
    assert not at.exception and not errors(at)
    assert any("race=no" in w.value and "no race" in w.value for w in at.warning)
    assert at.selectbox(key="watch_race").value == "(no race)" and qp(at, "race") is None


def test_watch_presentation_mode_is_kept_in_the_link():
    at = open_page("watch", {**SMALL, "present": "1"})
    assert at.toggle(key="app_present").value and qp(at, "present") == "1"  # the toggle in the bar above the page
    assert not [t for t in at.toggle if t.key == "watch_present"]  # one toggle on screen, not two
    at.toggle(key="app_present").set_value(False).run()
    assert qp(at, "present") is None
    at.toggle(key="watch_present").set_value(True).run()  # Watch's own toggle, beside the figure
    assert qp(at, "present") == "1" and at.toggle(key="app_present").value


@pytest.mark.parametrize("page", ["design", "compare", "papers", "learn"])
def test_presentation_mode_is_kept_on_every_page(page):
    at = open_page(page, {**SMALL, "present": "1"})
    assert qp(at, "present") == "1" and at.toggle(key="app_present").value
    at.toggle(key="app_present").set_value(False).run()
    assert qp(at, "present") is None and not at.session_state[state.PRESENT]


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


@pytest.mark.parametrize("query, word, refused", [
    ({"T": "-5"}, "T", "horizon"),
    ({"T": str(10**12)}, "T", "horizon"),
    ({"seed": "x"}, "seed", "seed"),
    ({"alg": "no_such_algorithm"}, "algorithm", "algorithm"),
    ({"p": '{"epsilon": 5}', "alg": "mo_epsilon_greedy"}, "epsilon", "params"),
    ({"alg": "ramgape_b"}, "algorithm", "algorithm"),
    ({"inst": "{not json"}, "instance JSON", "instance"),
    ({"preset": "nope"}, "preset", "instance"),
])
def test_a_link_with_one_bad_value_keeps_the_rest_and_says_what_was_refused(query, word, refused):
    link = {"preset": "default_3d", "alg": "pareto_ts", "T": "150", "seed": "4", **query}
    at = open_page("watch", link)
    assert any(word in w and "refused" in w for w in warnings(at)), warnings(at)
    s, default = setting(at), state.default_setting()
    expected = {"instance": banditviz.preset("default_3d"), "algorithm": "pareto_ts", "params": {},
                "horizon": 150, "seed": 4}
    keys = {"instance": {"preset", "inst", "gen"}, "algorithm": {"alg"}, "horizon": {"T"}, "seed": {"seed"}}
    for part, url_keys in keys.items():  # every valid part the bad value does not replace is kept
        if part != refused and not url_keys & set(query):
            assert getattr(s, part) == expected[part], part
    if refused in ("horizon", "seed"):
        assert getattr(s, refused) == getattr(default, refused)
    assert len(charts(at)) == 1 and qp(at, "seed") == str(s.seed)
    at.run()
    assert not warnings(at)  # said once, not on every rerun


def test_a_link_keeps_the_valid_parameters_and_drops_the_bad_one():
    at = open_page("watch", {**SMALL, "alg": "mo_epsilon_greedy", "p": '{"epsilon": 0.3, "nope": 1}'})
    assert setting(at).params == {"epsilon": 0.3}
    assert any("nope" in w for w in warnings(at)), warnings(at)


def test_a_link_with_an_instance_reproduces_the_run():
    inst = banditviz.Instance.from_means([[0.1, 0.9], [0.9, 0.1], [0.4, 0.4]], sigma=0.3, name="three")
    query = {"inst": state.compact_json(inst), "alg": "pareto_ts", "T": "120", "seed": "3"}
    first, second = open_page("watch", query), open_page("watch", query)
    assert setting(first).instance == inst and setting(first).seed == 3
    assert watch_meta(first)["table"] == watch_meta(second)["table"]


# ---------------------------------------------------------------------- Design
def test_design_renders_table_preview_and_gaps():
    """A 3-D instance: the Plotly preview and the gaps table (a 2-D fixed-means one: the arms canvas, which shows its
    own gaps, tests/browser/test_design_canvas_browser.py)."""
    at = open_page("design", {**SMALL, "preset": "default_3d"})
    assert not errors(at)
    assert len(charts(at)) == 1
    gaps = table_with(at, "Pareto gap")
    assert gaps["Pareto optimal"].sum() == len(banditviz.preset("default_3d").pareto_set)


def test_design_load_preset_and_generate_change_the_instance():
    at = open_page("design")
    at.radio(key="design_dims").set_value("3D").run()
    at.selectbox(key="design_preset").set_value("default_3d")
    button(at, "Load preset").click().run()
    assert setting(at).instance == banditviz.preset("default_3d")
    assert qp(at, "preset") == "default_3d"
    at.selectbox(key="design_gen").set_value("convex_front")
    at.number_input(key="design_gen_K").set_value(6)
    button(at, "Generate").click().run()
    assert not errors(at)
    assert setting(at).instance.K == 6 and setting(at).source["gen"] == "convex_front"


def test_design_add_random_arm():
    at = open_page("design")
    button(at, "Add a random arm").click().run()
    assert not errors(at) and setting(at).instance.K == 11


def test_design_noise_change_updates_the_instance():
    at = open_page("design")
    at.selectbox(key="design_noise_0").set_value("bernoulli").run()
    assert not errors(at)
    assert setting(at).instance.noise == "bernoulli"


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    at.get("file_uploader")[0].set_value((name, content, "application/json"))
    return at.run()


@pytest.mark.parametrize("content, word", [
    (b"{not json", "not valid JSON"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "UTF-8"),
    (json.dumps({"kind": "means", "means": [[1, "x"], [2, 3]]}).encode(), "means"),
    (json.dumps({"kind": "means", "means": [[0.5, 0.5]]}).encode(), "arms"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b" " * 1_000_001 + b"{}", "larger than"),
])
def test_design_bad_upload_shows_an_error_and_keeps_the_instance(content, word):
    at = open_page("design")
    before = setting(at).instance
    upload(at, "bad.json", content)
    assert not at.exception
    assert any(word in e for e in errors(at)), errors(at)
    assert setting(at).instance == before


def test_design_upload_replaces_the_instance_and_shows_names_as_text():
    at = open_page("design")
    # three objectives: the gaps table is the page's (a 2-D instance's names go to the canvas as text, never HTML)
    inst = banditviz.Instance.from_means([[0.2, 0.8, 0.1], [0.8, 0.2, 0.1]], sigma=0.5, name="**bold** <b>x</b>",
                                         arm_names=["<img src=x>", "[link](http://e)"])
    upload(at, "mine.json", inst.to_json().encode())
    assert not errors(at)
    assert setting(at).instance == inst
    assert banditviz.Instance.from_json(qp(at, "inst")) == inst
    heading = at.subheader[0].value
    assert "\\*\\*bold\\*\\*" in heading and "\\<b\\>" in heading
    assert table_with(at, "Pareto gap")["arm"].tolist() == ["<img src=x>", "[link](http://e)"]


def test_design_noise_that_does_not_fit_shows_an_error():
    inst = banditviz.Instance.from_means([[2.0, 0.5], [0.1, 0.3]], sigma=0.5)
    at = open_page("design", {**SMALL, "inst": state.compact_json(inst)})
    at.selectbox(key="design_noise_0").set_value("bernoulli").run()
    assert any("Bernoulli" in e for e in errors(at))
    assert setting(at).instance == inst


# ---------------------------------------------------------------------- Compare
def test_compare_runs_every_algorithm_and_is_cached(monkeypatch):
    at = open_page("compare")
    assert at.info  # nothing run yet
    at.multiselect(key="compare_algs_means").set_value(["pareto_ucb1", "uniform"])
    at.number_input(key="compare_seeds").set_value(2)
    at.number_input(key="compare_T").set_value(100)
    form_button(at, "Run the comparison").click().run()
    assert not at.exception and not errors(at)
    assert len(charts(at)) >= 1
    summary = table_with(at, "runs")
    assert summary["algorithm"].tolist() == ["pareto_ucb1", "uniform"] and summary["runs"].tolist() == [2, 2]
    calls = []
    monkeypatch.setattr(runs, "run_sweep", lambda *a, **k: calls.append(a))
    at.switch_page("banditviz_app/pages/watch.py").run()
    at.switch_page("banditviz_app/pages/compare.py").run()
    assert not at.exception and calls == []  # re-opening with the same settings: every run from the cache
    assert table_with(at, "runs").equals(summary)


def test_compare_metric_control_changes_the_figure():
    at = open_page("compare")
    at.multiselect(key="compare_algs_means").set_value(["pareto_ucb1"])
    at.number_input(key="compare_seeds").set_value(1)
    at.number_input(key="compare_T").set_value(60)
    form_button(at, "Run the comparison").click().run()
    before = charts(at)[0].proto.spec
    at.selectbox(key="compare_metric").set_value("effective_regret").run()
    assert charts(at)[0].proto.spec != before


# ---------------------------------------------------------------------- Papers
def test_papers_shows_every_paper_its_computed_verdicts_and_reruns_a_scaled_experiment(monkeypatch):
    from banditviz import claims, reproduce

    small = tuple(dataclasses.replace(p, figures=p.figures[:1], charts=p.charts[:1], live_seeds=1, live_horizon=200,
                                      live_instances=1) for p in papers.PAPERS)
    monkeypatch.setattr(papers, "PAPERS", small)
    at = AppTest.from_file(APP, default_timeout=240)  # the first visit builds every figure of the shipped results
    at.query_params.update(SMALL)
    at.run()
    at.switch_page("banditviz_app/pages/papers.py").run()
    assert [t.label for t in at.tabs] == [p.tab for p in small]
    results = {name: reproduce.load(name) for name in reproduce.shipped()}
    for paper in small:  # one paper at a time, the open tab's
        at.session_state["papers_tab"] = paper.tab
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert [h.value for h in at.header] == [paper.title]
        assert not errors(at)
        [table] = [d.value for d in at.dataframe if "Verdict" in d.value.columns]
        expected = claims.verdict_table(paper.key, results)
        assert table["Ours"].tolist() == expected["Ours"].tolist()
        assert [v.split(" ", 1)[1] for v in table["Verdict"]] == expected["Verdict"].tolist()
        text = " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)
        assert "shared/" not in text and "specs/" not in text  # the page cites nothing outside the project
    counts = claims.counts(results)
    assert f"**{sum(counts.values())} claims**: {counts['reproduced']} reproduced" in text  # the verdicts' own count
    at.session_state["papers_tab"] = "Linear PSI"
    at.run()
    before = len(charts(at))
    next(b for b in at.button if b.key == "papers_run_linpsi").click().run()
    assert not at.exception and not errors(at)
    assert len(charts(at)) == before + 1


# ---------------------------------------------------------------------- Learn
def test_learn_try_it_controls_change_the_lesson():
    at = open_page("learn")
    assert not errors(at) and len(charts(at)) == 1
    assert "A dominates B" in " ".join(m.value for m in at.markdown)
    at.slider(key="learn_bx").set_value(0.9).run()
    at.slider(key="learn_by").set_value(0.9).run()
    assert "B dominates A" in " ".join(m.value for m in at.markdown)
    at.radio(key="learn_step").set_value("2 Pareto front").run()
    count = [m.value for m in at.markdown if "on the Pareto front" in m.value]
    at.slider(key="learn_K").set_value(30).run()
    assert [m.value for m in at.markdown if "on the Pareto front" in m.value] != count
    at.radio(key="learn_step").set_value("4 Effective front").run()
    at.slider(key="learn_move_1").set_value(0.6).run()
    text = " ".join(m.value for m in at.markdown)
    assert "a(2) is on both fronts" in text
    for step, figures in (("3 Confidence boxes", 1), ("5 Pareto regret", 2)):  # step 5: the arm, the curves
        at.radio(key="learn_step").set_value(step).run()
        assert not at.exception and len(charts(at)) == figures


# ---------------------------------------------------------------------- sessions
def test_sessions_are_isolated():
    a = open_page("watch", {**SMALL, "seed": "1"})
    b = open_page("watch", {**SMALL, "seed": "2"})
    assert setting(a).seed == 1 and setting(b).seed == 2
    assert watch_meta(a)["table"] != watch_meta(b)["table"]


@pytest.mark.parametrize("preset, algorithm", [
    ("default_3d", "pareto_ts"),
    ("risk_averse_table1", "ramgape_b"),
    ("lexicographic_lambda_0.1", "mte2lo"),
    ("mol_ts_2d", "mol_ts"),
])
def test_every_instance_kind_renders_on_watch_and_design(preset, algorithm):
    query = {"preset": preset, "alg": algorithm, "T": "120", "seed": "0"}
    at = open_page("watch", query)
    assert not errors(at) and len(charts(at)) == 1
    form_button(at, "Run").click().run()  # the generated form (None defaults, choices) submits as it is
    assert not at.exception and not errors(at)
    at.switch_page("banditviz_app/pages/design.py").run()
    assert not at.exception and not errors(at) and len(charts(at)) == 1


def test_an_unexpected_failure_shows_an_error_not_a_traceback(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("solver gave up")

    monkeypatch.setattr(banditviz, "run", broken)
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({**SMALL, "T": "151", "seed": "99"})  # inputs no other test has cached
    at.run()
    assert not at.exception
    assert any("RuntimeError: solver gave up" in e for e in errors(at)), errors(at)
    assert setting(at).instance == banditviz.preset("default")
