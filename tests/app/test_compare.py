"""Compare under AppTest: its own defaults work for every task family alone and mixed, on every instance kind.

The link sets a small horizon (Compare's default T follows the session's), so every run stays quick."""

from __future__ import annotations

import pytest

import banditviz
from banditviz import fronts
from banditviz_app import forms

from .test_pages import charts, errors, form_button, open_page, setting, table_with


def run_compare(preset: str, algorithm: str, chosen: list[str] | None = None):
    at = open_page("compare", {"preset": preset, "alg": algorithm, "T": "200", "seed": "0"})
    if chosen is not None:
        at.multiselect(key=f"compare_algs_{setting(at).instance.kind}").set_value(chosen)
    at.number_input(key="compare_seeds").set_value(2)
    form_button(at, "Run the comparison").click().run()
    assert not at.exception and not errors(at), (errors(at), [e.value for e in at.exception])
    return at


@pytest.mark.parametrize("preset, algorithm, chosen", [
    ("default", "pareto_ucb1", None),                       # regret, fixed means
    ("default", "gege_fc", None),                           # identification alone (the reported crash)
    ("psi_synthetic", "gege_fc", ["gege_fc", "ape", "racing"]),  # identification, linear instance
    ("risk_averse_table1", "ramgape_b", None),              # risk-averse, distributions instance
    ("lexicographic_lambda_0.1", "pf_lex", None),           # lexicographic, linear instance
    ("mol_ts_2d", "mol_ts", None),                          # regret, contextual instance
    ("default", "pareto_ucb1", ["pareto_ucb1", "gege_fc", "pf_lex"]),  # a mix of families
])
def test_compare_runs_its_defaults_for_every_family(preset, algorithm, chosen):
    at = run_compare(preset, algorithm, chosen)
    expected = chosen or [algorithm]
    summary = table_with(at, "runs")
    assert set(expected) <= set(summary["algorithm"])
    assert summary["runs"].eq(2).all()
    kind = setting(at).instance.kind
    tasks = {banditviz.get_algorithm(a).task for a in summary["algorithm"]}
    identification = tasks & {"identify", "risk-averse"}
    assert [t.label for t in at.tabs] == (["Regret curves"] if tasks - identification else []) + (
        ["Sample complexity and success"] if identification else []) + (
        ["Estimated fronts over seeds"] if kind in fronts.FRONT_KINDS else []), (kind, tasks)
    assert len(charts(at)) == (1 if tasks - identification else 0) + (2 if identification else 0)


def test_compare_defaults_start_with_the_current_algorithm():
    at = open_page("compare", {"preset": "default", "alg": "gege_fc", "T": "200", "seed": "0"})
    chosen = at.multiselect(key="compare_algs_means").value
    assert chosen[0] == "gege_fc" and all(forms.compatible("means")[a].task == "identify" for a in chosen)


def test_a_comparison_belongs_to_its_instance():
    at = run_compare("default", "pareto_ucb1")
    at.switch_page("banditviz_app/pages/design.py").run()
    at.selectbox(key="design_preset").set_value("psi_gap_example")
    next(b for b in at.button if b.label == "Load preset").click().run()
    at.switch_page("banditviz_app/pages/compare.py").run()
    assert not at.exception and not errors(at)
    assert not at.get("plotly_chart") and any("Pick algorithms" in i.value for i in at.info)


def test_the_form_shows_the_last_comparison_after_a_page_switch():
    at = run_compare("default", "pareto_ucb1", ["pareto_ucb1", "uniform"])
    at.switch_page("banditviz_app/pages/watch.py").run()
    at.switch_page("banditviz_app/pages/compare.py").run()
    assert at.multiselect(key="compare_algs_means").value == ["pareto_ucb1", "uniform"]
    assert (at.number_input(key="compare_seeds").value, at.number_input(key="compare_T").value) == (2, 200)
