"""Learn step 4's second part (issue 26): MOL-TS against MOL-UCB on the class's own instance through the identity
context. The shares and regrets of the sentence are those of the runs themselves (each run replayed with
`banditviz.run`), the class's instance is used when it has an arm off the hull, and the page shows it."""

from __future__ import annotations

import numpy as np
import pytest

import banditviz
from banditviz_app import lesson, runs, state

from .test_pages import charts, open_page


def test_the_sentence_reads_the_runs_pull_counts_and_effective_regret():
    inst = banditviz.preset("default")
    table = runs.run_sweep(inst, [(a, {}) for a in lesson.FRONT_PLAYERS], 3, 500)
    play = lesson.front_play(table, inst)
    for alg in lesson.FRONT_PLAYERS:
        traces = [banditviz.run(inst, alg, 500, seed=s, snapshots=0) for s in range(3)]
        on = np.mean([np.isin(t.arms, inst.effective_set).mean() for t in traces])
        off = np.mean([(t.arms == 2).mean() for t in traces])
        regret = np.mean([t.metrics["effective_regret"].sum() for t in traces])
        assert play[alg] == pytest.approx((on, off, regret), rel=1e-12)
    sentence = lesson.front_play_sentence(inst, play, 500, 3)
    assert sentence.startswith("On default, over 3 seeds of 500 rounds, MOL-TS spent")
    assert f"{play['mol_ucb'][1]:.0%} on arm 2" in sentence


def test_the_class_instance_is_used_when_it_has_an_arm_off_the_hull():
    mine = banditviz.Instance.from_means([[1.0, 0.0], [0.0, 1.0], [0.45, 0.45], [0.2, 0.1]], sigma=0.5, name="mine")
    assert lesson.class_instance(mine) is mine
    hull_only = mine.with_changes(means=[[1.0, 0.0], [0.0, 1.0], [0.6, 0.6], [0.2, 0.1]])
    assert lesson.class_instance(hull_only).name == "default"  # nothing off the hull to show
    assert lesson.class_instance(banditviz.preset("default_3d")).name == "default 3D"  # 3-D too


def test_learn_step_four_plays_the_class_instance():
    mine = banditviz.Instance.from_means([[1.0, 0.0], [0.0, 1.0], [0.45, 0.45], [0.2, 0.1]], sigma=0.5, name="mine")
    at = open_page("learn", {"inst": state.compact_json(mine), "alg": "pareto_ucb1", "T": "150", "seed": "0"})
    at.radio(key="learn_step").set_value("4 Effective front").run()
    assert not at.exception and len(charts(at)) == 2
    text = " ".join(m.value for m in at.markdown).replace("\\", "")
    assert "On mine, over 5 seeds of 2,000 rounds, MOL-TS spent" in text and "on arm 2 (Pareto optimal" in text


@pytest.mark.parametrize("alg", ["mol_ts", "mol_ucb", "mol_eps_greedy"])
def test_watch_offers_and_plays_mol_ts_and_its_baselines_on_a_plain_instance(alg):
    from banditviz_app import forms

    from .test_pages import errors, watch_meta

    assert alg in forms.compatible("means")
    at = open_page("watch", {"preset": "default", "alg": alg, "T": "150", "seed": "0"})
    assert not at.exception and not errors(at), errors(at)
    assert watch_meta(at)["table"]
