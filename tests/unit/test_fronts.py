"""banditviz.fronts and figures.eaf_chart: final estimates and estimated fronts against loops over the trace,
attainment surfaces against a brute-force count of the runs that attain each point, the chart's traces, and
the Compare tab that draws it."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

import banditviz as bv
from banditviz import figures, fronts

ROOT = Path(__file__).resolve().parents[2]


def brute_attained(front: np.ndarray, z: np.ndarray) -> bool:
    """Some point of ``front`` weakly dominates ``z`` (maximisation), by a loop."""
    return any(all(a >= b for a, b in zip(p, z, strict=True)) for p in front)


def test_final_estimates_and_front_match_loops_over_the_trace():
    inst = bv.preset("default")
    trace = bv.run(inst, "pareto_ucb1", 300, seed=3)
    est = fronts.final_estimates(trace)
    for k in range(inst.K):
        rows = [trace.rewards[t] for t in range(trace.rounds) if trace.arms[t] == k]
        np.testing.assert_allclose(est[k], np.mean(rows, axis=0), rtol=0, atol=1e-12)
    front = fronts.estimated_front(trace)
    expected = [e for e in est if not any((o >= e).all() and (o > e).any() for o in est)]
    np.testing.assert_array_equal(np.sort(front, axis=0), np.sort(np.array(expected), axis=0))


def test_unpulled_arms_have_no_estimate_and_contextual_instances_no_front():
    trace = bv.run(bv.preset("default"), "uniform", 4, seed=0)
    est = fronts.final_estimates(trace)
    assert np.isnan(est[4:]).all() and not np.isnan(est[:4]).any() and len(fronts.estimated_front(trace)) <= 4
    with pytest.raises(ValueError, match="kind"):
        fronts.final_estimates(bv.run(bv.preset("mol_ts_2d"), "mol_ts", 5, seed=0))


@pytest.mark.parametrize("L", [2, 3])
def test_attainment_surfaces_match_a_brute_force_count(L):
    rng = np.random.default_rng(L)
    for _ in range(40):
        n = int(rng.integers(1, 9))
        runs = [rng.integers(0, 5, (int(rng.integers(1, 5)), L)).astype(float) for _ in range(n)]
        grid = itertools.product(*[np.unique(np.vstack(runs)[:, j]) for j in range(L)])
        counts = {z: sum(brute_attained(f, np.array(z)) for f in runs) for z in grid}
        for p, surface in fronts.attainment_surfaces(runs, (25, 50, 75, 100)).items():
            need = math.ceil(n * p / 100)
            for z, count in counts.items():
                assert brute_attained(surface, np.array(z)) == (count >= need), (p, z, count, need)


def test_attainment_surfaces_reject_bad_input():
    with pytest.raises(ValueError, match="fronts"):
        fronts.attainment_surfaces([np.ones((2, 2)), np.ones((1, 3))])
    with pytest.raises(ValueError, match="fronts"):
        fronts.attainment_surfaces([np.empty((0, 2))])
    with pytest.raises(ValueError, match="percentiles"):
        fronts.attainment_surfaces([np.ones((1, 2))], (0, 50))


def test_eaf_chart_draws_each_algorithms_surfaces_in_the_users_orientation():
    inst = bv.preset("disc_brake")  # both objectives minimised: drawn negated back
    per_alg = fronts.run_fronts(inst, [("uniform", {}), ("pareto_ucb1", {})], range(4), 400)
    fig = figures.eaf_chart(per_alg, inst)
    names = [d.name for d in fig.data]
    assert names[0] == "true Pareto front" and len(names) == 1 + 2 * 3
    assert "uniform: median (50%)" in names and "pareto_ucb1: 25%: reached by a quarter of the runs" in names
    median = fig.data[names.index("uniform: median (50%)")]
    surface = fronts.attainment_surfaces(per_alg["uniform"], (50,))[50]
    assert set(np.round(median.x, 9)) == set(np.round(-surface[:, 0], 9))
    assert "minimised" in fig.layout.xaxis.title.text
    with pytest.raises(ValueError, match="objectives"):
        figures.eaf_chart(per_alg, inst, (0, 5))


def test_compare_draws_the_attainment_surfaces_on_request():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"preset": "default", "alg": "pareto_ucb1", "T": "200", "seed": "0"})
    at.run()
    at.switch_page("banditviz_app/pages/compare.py").run()
    at.multiselect(key="compare_algs_means").set_value(["pareto_ucb1", "uniform"])
    at.number_input(key="compare_seeds").set_value(3)
    at.number_input(key="compare_T").set_value(200)
    at.button[0].click().run()
    assert not at.exception and any(t.label == "Estimated fronts over seeds" for t in at.tabs)
    at.button(key="compare_eaf_draw").click().run()
    assert not at.exception and not at.error
    charts = [c for c in at.get("plotly_chart") if "attainment" in c.proto.spec]
    assert len(charts) == 1
