"""Outside algorithms in the app (issue 25): a failing algorithm named on Watch and Compare (not "Something went
wrong on this page"), two settings of one algorithm on Compare, the oracle note, a plugin that fails to import."""

from __future__ import annotations

import pytest

import banditviz
from banditviz.algorithms import ALGORITHMS
from banditviz_app import plugins

from .test_pages import errors, form_button, open_page, table_with


@pytest.fixture
def failing():
    """``fails_at_7``: Pareto UCB1 raising in select at round 7, registered for the test only."""
    base = ALGORITHMS["pareto_ucb1"].cls

    def select(self, t):
        if t == 7:
            raise ZeroDivisionError("division by zero")
        return base.select(self, t)

    banditviz.register("fails_at_7", paper="test", task="regret", kinds=("means",), params=base.spec.params)(
        type("FailsAt7", (base,), {"select": select}))
    yield "fails_at_7"
    del ALGORITHMS["fails_at_7"]


def test_watch_names_the_failing_algorithm_round_and_seed(failing):
    at = open_page("watch", {"preset": "default", "alg": failing, "T": "100", "seed": "3"})
    assert any(e.startswith("algorithm fails_at_7 failed at round 7 (seed 3): ZeroDivisionError") and
               "your instance is kept" in e for e in errors(at)), errors(at)
    assert not any("Something went wrong" in e for e in errors(at))


def test_compare_names_the_failing_algorithm(failing):
    at = open_page("compare", {"preset": "default", "alg": "pareto_ucb1", "T": "100", "seed": "0"})
    at.multiselect(key="compare_algs_means").set_value(["pareto_ucb1", failing])
    form_button(at, "Run the comparison").click().run()
    assert any("algorithm fails_at_7 failed at round 7 (seed 0)" in e for e in errors(at)), errors(at)


def test_compare_runs_two_settings_of_one_algorithm():
    at = open_page("compare", {"preset": "default", "alg": "pareto_ucb1", "T": "100", "seed": "0"})
    at.multiselect(key="compare_algs_means").set_value(["pareto_ucb1"])
    at.number_input(key="compare_seeds").set_value(2)
    at.text_area(key="compare_settings").set_value("mo_epsilon_greedy epsilon=0.05\nmo_epsilon_greedy epsilon=0.3")
    form_button(at, "Run the comparison").click().run()
    assert not errors(at), errors(at)
    summary = table_with(at, "runs")
    assert set(summary["algorithm"]) == {"pareto_ucb1", "mo_epsilon_greedy (epsilon=0.05)",
                                         "mo_epsilon_greedy (epsilon=0.3)"}
    assert summary["runs"].eq(2).all()


def test_compare_refuses_a_bad_setting_naming_its_line():
    at = open_page("compare", {"preset": "default", "alg": "pareto_ucb1", "T": "100", "seed": "0"})
    at.text_area(key="compare_settings").set_value("pareto_ucb1\nmo_epsilon_greedy epsilon=7")
    form_button(at, "Run the comparison").click().run()
    assert any("settings, line 2: mo_epsilon_greedy parameter 'epsilon': must be <= 1" in e for e in errors(at)), \
        errors(at)


def test_watch_says_when_the_algorithm_is_an_oracle():
    at = open_page("watch", {"preset": "mol_ts_2d", "alg": "oracle_pareto", "T": "60", "seed": "0"})
    assert any("oracle_pareto** is an oracle" in i.value for i in at.info)
    at = open_page("watch", {"preset": "mol_ts_2d", "alg": "mol_ts", "T": "60", "seed": "0"})
    assert not any("is an oracle" in i.value for i in at.info)


def test_a_plugin_that_fails_to_import_is_reported_and_the_app_starts(monkeypatch):
    monkeypatch.setenv("BANDITVIZ_PLUGINS", "no_such_plugin_module")
    plugins.load.clear()
    try:
        at = open_page("watch")
        assert any("'no_such_plugin_module' (from BANDITVIZ_PLUGINS) could not be loaded" in w.value
                   for w in at.warning)
        assert at.get("plotly_chart")
    finally:
        monkeypatch.delenv("BANDITVIZ_PLUGINS")
        plugins.load.clear()
