"""Compare's sentence (`banditviz.winners`): the winner, the margin and the paired test, checked by hand and on real
sweeps; an unpaired test (the naive variant) is rejected where the seeds' shared noise hides the difference."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import banditviz
from banditviz import winners
from banditviz.sweep import sweep


def table(values: dict[str, list[float]]) -> pd.DataFrame:
    return pd.DataFrame(values, index=pd.Index(range(len(next(iter(values.values())))), name="seed"))


def test_the_paired_t_test_is_the_hand_computed_one():
    values = table({"A": [10.0, 12.0, 9.0, 15.0, 11.0], "B": [11.0, 12.5, 10.5, 15.2, 13.0], "C": [30.0] * 5})
    v = winners.paired(values)
    d = values["B"] - values["A"]
    t = d.mean() / (d.std(ddof=1) / math.sqrt(5))
    assert (v.best, v.next_best, v.seeds, v.ahead_on) == ("A", "B", 5, 5)
    assert v.p == pytest.approx(2 * stats.t.sf(t, df=4), rel=1e-12) and v.holds
    assert v.difference == pytest.approx(d.mean())


def test_shared_seed_noise_is_paired_out_an_unpaired_test_would_miss_it(monkeypatch):
    """B is A + 1 plus a little noise on every seed, under a seed effect of sd 10 shared by both (common random
    numbers): the paired test sees the difference; the naive variant, an unpaired test, does not."""
    rng = np.random.default_rng(3)
    seed_effect = rng.normal(0, 10, 8)
    values = table({"A": 50 + seed_effect, "B": 51 + seed_effect + rng.normal(0, 0.3, 8)})
    assert winners.paired(values).holds
    monkeypatch.setattr(winners.stats, "ttest_rel", lambda a, b: stats.ttest_ind(a, b))
    assert not winners.paired(values).holds


def test_a_chance_difference_does_not_hold_and_the_sentence_says_so():
    rng = np.random.default_rng(5)
    values = table({"A": rng.normal(10, 1, 6), "B": rng.normal(10, 1, 6)})
    v = winners.paired(values)
    assert not v.holds and v.p >= winners.ALPHA


@pytest.mark.parametrize("values, words", [
    ({"A": [1.0, 2.0], "B": [3.0, 4.0]}, "same difference on every seed, so it holds"),  # zero spread
    ({"A": [1.0], "B": [3.0]}, "one seed cannot say"),
    ({"A": [1.0, 2.0], "B": [1.0, 2.0]}, "no difference on any seed"),
])
def test_degenerate_cases_are_said_plainly(values, words):
    frame = table(values).assign(round=1)
    long = frame.reset_index().melt(id_vars=["seed", "round"], var_name="algorithm", value_name="cum_pareto_regret")
    sentence = winners.regret_sentence(long, "pareto_regret", "Pareto regret")
    assert words in sentence and sentence.startswith("A has the lowest final Pareto regret")


def test_on_a_real_sweep_the_sentence_names_the_lower_final_regret():
    inst = banditviz.preset("default")
    runs = sweep(inst, [("pareto_ucb1", {}), ("uniform", {})], seeds=6, horizon=400)
    final = winners.final_values(runs, "pareto_regret")
    last = runs[runs["round"] == 400].pivot(index="seed", columns="algorithm", values="cum_pareto_regret")
    pd.testing.assert_frame_equal(final, last, check_names=False)
    sentence = winners.regret_sentence(runs, "pareto_regret", "Pareto regret")
    assert sentence.startswith("pareto_ucb1 has the lowest final Pareto regret") and "for uniform" in sentence
    assert "ahead on 6 of 6 seeds" in sentence and "holds across seeds (paired t-test" in sentence
    assert winners.regret_sentence(runs[runs["algorithm"] == "uniform"], "pareto_regret", "x") is None
    with pytest.raises(ValueError, match="metric"):
        winners.final_values(runs, "nope")


def test_samples_pair_the_seeds_where_both_stopped_and_count_the_others():
    stops = pd.DataFrame({"algorithm": ["A"] * 4 + ["B"] * 4, "seed": [0, 1, 2, 3] * 2,
                          "stopped_at": [100, 120, np.nan, 110, 150, 170, 160, np.nan],
                          "correct": [True, True, False, False, True, True, True, True]})
    sentence = winners.samples_sentence(stops)
    assert sentence.startswith("A stops after the fewest samples: 110 against 160 for B")
    assert "ahead on 2 of 2 seeds" in sentence  # seeds 0 and 1: both stopped
    assert "correctly in 2 of its 3 stopped runs, and 1 of its runs did not stop" in sentence
    assert winners.samples_sentence(stops.assign(stopped_at=np.nan)) is None
