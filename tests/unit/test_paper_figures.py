"""Figures of the papers' experiments: the numbers drawn equal a hand computation on small sweep tables."""

import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import banditviz
from banditviz.figures import papers as figs


@pytest.fixture(scope="module")
def regret_table():
    return banditviz.sweep("default", ["uniform", ("mo_epsilon_greedy", {"epsilon": 0.1}),
                                       ("mo_epsilon_greedy", {"epsilon": 0.3})], 4, 60, record_every=20)


def test_labels_name_the_parameters_that_differ(regret_table):
    assert sorted(figs.run_labels(regret_table).unique()) == [
        "mo_epsilon_greedy (epsilon=0.1)", "mo_epsilon_greedy (epsilon=0.3)", "uniform"]


def test_curves_draw_the_mean_or_the_trimmed_mean_over_runs(regret_table):
    fig = figs.curves(regret_table, ["cum_pareto_regret", "cum_reward_1"], "t")
    lines = {(t.name, t.xaxis): t for t in fig.data if t.name}
    rows = regret_table[regret_table.algorithm == "uniform"]
    mean = rows.groupby("round")["cum_pareto_regret"].mean()
    np.testing.assert_allclose(lines[("uniform", "x")].y, mean.to_numpy())
    trimmed = figs.curves(regret_table, ["cum_pareto_regret"], "t", stat="trimmed")
    line = next(t for t in trimmed.data if t.name == "uniform")
    expected = rows.groupby("round")["cum_pareto_regret"].apply(lambda v: stats.trim_mean(v, 0.25))
    np.testing.assert_allclose(line.y, expected.to_numpy())


def test_a_run_that_stopped_keeps_its_final_value():
    table = pd.DataFrame({"instance": "i", "algorithm": "a", "params": "{}", "seed": [0, 0, 1],
                          "round": [10, 20, 10], "m": [1.0, 3.0, 5.0]})
    line = next(t for t in figs.curves(table, ["m"], "t").data if t.name)
    assert list(line.y) == [3.0, 4.0]  # round 20: seed 1 stopped at 5


def test_rate_against_budget_is_one_minus_the_share_correct():
    table = pd.DataFrame({"instance": "NoC", "algorithm": "gege_fb", "seed": [0, 1, 2, 0, 1, 2],
                          "params": [json.dumps({"budget": b}) for b in (100, 100, 100, 200, 200, 200)],
                          "correct": [True, False, False, True, True, False]})
    line = figs.rate_against(table, "budget", "t").data[0]
    assert list(line.x) == [100, 200] and np.allclose(line.y, [2 / 3, 1 / 3])


def test_pull_allocation_is_the_mean_of_the_last_counts(regret_table):
    fig = figs.pull_allocation(regret_table, "t", highlight=(0,))
    bar = next(t for t in fig.data if t.name == "uniform")
    last = regret_table[(regret_table.algorithm == "uniform") & (regret_table["round"] == 60)]
    counts = np.array([[int(v) for v in p.split(",")] for p in last["pulls"]])
    np.testing.assert_allclose(bar.y, counts.mean(axis=0))
    assert bar.x[0] == "arm 0 *"


def test_mean_against_reads_the_number_in_the_instance_label():
    table = pd.DataFrame({"instance": ["K=8", "K=8", "K=16"], "algorithm": "ape", "params": "{}", "seed": [0, 1, 0],
                          "stopping_time": [10, 20, 40]})
    line = figs.mean_against(table, "stopping_time", "t", "arms K").data[0]
    assert list(line.x) == [8, 16] and list(line.y) == [15, 40]


def test_spread_has_one_box_of_every_run_per_algorithm():
    table = pd.DataFrame({"instance": "NoC", "algorithm": ["ape", "gege_fc", "ape"], "params": "{}", "seed": [0, 0, 1],
                          "stopping_time": [30, 10, 50]})
    boxes = figs.spread(table, "stopping_time", "t").data
    assert [b.name for b in boxes] == ["ape", "gege_fc"]
    assert list(boxes[0].y) == [30.0, 50.0] and list(boxes[1].y) == [10.0]


def test_identified_fronts_count_the_stopped_runs_that_returned_each_arm():
    means = np.array([[1.0, 0.0], [0.0, 1.0], [0.4, 0.4], [0.9, -0.5]])  # front {0, 1, 2}
    table = pd.DataFrame({"instance": "i", "algorithm": "pfiwr", "params": ['{"p": 0.5}'] * 3 + ['{"p": 0.9}'] * 2,
                          "seed": [0, 1, 2, 0, 1], "round": 1, "stopped": [True, True, False, True, True],
                          "recommended": ["0,1,2", "0,1,3", "0,1,2,3", "0,1", None]})
    fig = figs.identified_fronts(table, means, "t")
    assert [a.text for a in fig.layout.annotations[:2]] == ["pfiwr (p=0.5)<br>2/3 runs stopped",
                                                          "pfiwr (p=0.9)<br>2/2 runs stopped"]
    marks = {(t.name, t.xaxis): t for t in fig.data if t.mode == "markers+text"}
    assert list(marks[("Pareto optimal arm", "x")].text) == ["2/2", "2/2", "1/2"]
    assert list(marks[("other arm", "x")].text) == ["1/2"]  # the unstopped run's answer is not counted
    assert list(marks[("Pareto optimal arm", "x2")].text) == ["1/2", "1/2", "0/2"]  # a stopped run with no answer
    stairs = next(t for t in fig.data if t.name == "true Pareto front")
    assert list(stairs.x) == [1.0, 0.4, 0.0]
