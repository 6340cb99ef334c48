"""Unit tests of the lexicographic bandits (LexMOSLB): filters, radii, algorithms, RoundState, metrics.

The algorithms are checked against an independent one-hot reference written here from the spec's
pseudocode (LexMOSLB Sec. 2.1-3.2, Alg. 1-3): closed-form widths gamma / sqrt(1 + N) and estimates S / (1 + N)
instead of the package's Sherman-Morrison ridge, plain Python lists instead of the shared filter code.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from banditviz import simulate
from banditviz.algorithms import get_algorithm
from banditviz.algorithms.base import ACTIVE, CANDIDATE, REJECTED, Problem
from banditviz.algorithms.lexmoslb.core import (
    chain_component,
    chain_filter,
    gamma_radius,
    loaf,
    loaf_coefficients,
    oful_alpha,
    pf_lex_beta,
    tied_argmax,
)
from banditviz.experiments.lexmoslb import round_noise_run
from banditviz.instances import Instance, preset, random_contextual, random_linear
from banditviz.metrics import lexicographic_regrets
from banditviz.trace import Trace

TABLE_01 = "lexicographic_lambda_0.1"
TABLE_10 = "lexicographic_lambda_10"


# ---------------------------------------------------------------------------------------------- tie rule
def test_tied_argmax_prefers_lowest_index_within_tolerance():
    assert tied_argmax([0.3, 0.5, 0.5], [0, 1, 2]) == 1
    assert tied_argmax([0.5 - 1e-14, 0.5, 0.1], [0, 1, 2]) == 0  # within 1e-12 (1 + |max|): a tie
    assert tied_argmax([0.5 - 1e-9, 0.5, 0.1], [0, 1, 2]) == 1  # beyond the tolerance: the true max
    assert tied_argmax([9.0, 0.2, 0.4], [1, 2]) == 2  # only the candidates count
    assert tied_argmax([1.0, math.inf, math.inf], [0, 1, 2]) == 1  # +inf ties only +inf


# ---------------------------------------------------------------------------------------------- chain filter
def _components_bfs(lower, upper, start):
    """Connected component of ``start`` in the interval-overlap graph, by breadth-first search."""
    n = len(lower)
    adj = [[j for j in range(n) if j != i and lower[i] <= upper[j] and lower[j] <= upper[i]] for i in range(n)]
    seen, todo = {start}, [start]
    while todo:
        for j in adj[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


@pytest.mark.parametrize("seed", range(30))
def test_chain_component_matches_graph_search(seed):
    rng = np.random.default_rng(seed)
    centre, half = rng.uniform(0, 1, 12), rng.uniform(0.005, 0.08, 12)
    lower, upper = (centre - half).tolist(), (centre + half).tolist()
    start = int(rng.integers(12))
    comp, lo, hi = chain_component(start, list(range(12)), lower, upper)
    assert comp == _components_bfs(lower, upper, start)
    assert lo == min(lower[k] for k in comp) and hi == max(upper[k] for k in comp)


def test_chain_filter_transitive_touching_and_disjoint():
    # objective 1: 0-[0.0,0.2] overlaps 1-[0.15,0.35] overlaps 2-[0.3,0.5]; 3-[0.5,0.6] touches 2; 4 is apart.
    lower = [[0.0, 0.15, 0.3, 0.5, 0.8]]
    upper = [[0.2, 0.35, 0.5, 0.6, 0.95]]
    c = chain_filter(lower, upper, [0, 1, 2, 3])
    assert c.x_hat == (3,) and c.sets == ((0, 1, 2, 3),) and c.bounds == ((0.0, 0.6),)
    c = chain_filter(lower, upper, list(range(5)))
    assert c.x_hat == (4,) and c.sets == ((4,),)


def test_chain_pool_full_uses_removed_arms_as_intermediates():
    # Objective 1 removes arm 2 (disjoint from the best), but on objective 2 arm 2 links arms 0 and 1.
    lower = [[0.5, 0.5, 0.0], [0.0, 0.5, 0.2]]
    upper = [[0.7, 0.7, 0.1], [0.3, 0.8, 0.6]]
    full = chain_filter(lower, upper, [0, 1, 2], pool="full")
    narrow = chain_filter(lower, upper, [0, 1, 2], pool="candidates")
    assert full.sets == ((0, 1), (0, 1)) and narrow.sets == ((0, 1), (1,))


# ---------------------------------------------------------------------------------------------- LOAF
@pytest.mark.parametrize("seed", range(20))
def test_loaf_keeps_exactly_the_arms_above_each_cut(seed):
    rng = np.random.default_rng(seed)
    K, m, lam, W = 15, 4, float(rng.uniform(0, 3)), float(rng.uniform(0.01, 0.3))
    upper = rng.uniform(-1, 1, (m, K)).tolist()
    c = loaf(upper, list(range(K)), loaf_coefficients(lam, m), W)
    before = list(range(K))
    for i in range(m):
        best = max(upper[i][k] for k in before)
        coef = 2 + 4 * sum(lam**k for k in range(1, i + 1))
        assert upper[i][c.x_hat[i]] == best and c.x_hat[i] in c.sets[i]
        assert set(c.sets[i]) == {k for k in before if upper[i][k] >= best - coef * W}
        assert c.bounds[i][0] == pytest.approx(best - coef * W)
        before = list(c.sets[i])


def test_loaf_coefficients_formula():
    assert loaf_coefficients(0.0, 3) == [2.0, 2.0, 2.0]
    assert loaf_coefficients(2.0, 4) == [2.0, 10.0, 26.0, 58.0]  # 2 + 4 (2), 2 + 4 (2 + 4), 2 + 4 (2 + 4 + 8)


# ---------------------------------------------------------------------------------------------- radii
def test_radii_formulas_by_hand():
    assert gamma_radius(1, 2, 3, 0.5, 2.0) == pytest.approx(2 * math.sqrt(2 * math.log(12)) + 1)
    assert pf_lex_beta(3, 4, 2, 0.1, 1.0) == pytest.approx(math.sqrt(1 + 2 * math.log(8 * 2 / 0.1)))
    # det V = e^2: alpha = R sqrt(2 (1 - ln delta)) + S
    assert oful_alpha(2.0, 0.01, 1.5, 0.5) == pytest.approx(1.5 * math.sqrt(2 * (1 - math.log(0.01))) + 0.5)


# ---------------------------------------------------------------------------------------------- reference
def _ref_tied_argmax(vals, idx):
    top = max(vals[k] for k in idx)
    for k in sorted(idx):
        if vals[k] >= top - 1e-12 * (1 + abs(top)) or vals[k] == top:
            return k


def _ref_chain(l, u, cand, K):
    for i in range(len(u)):
        best = _ref_tied_argmax(u[i], cand)
        comp = {best}
        grow = True
        while grow:
            grow = False
            for z in range(K):
                if z not in comp and any(l[i][z] <= u[i][y] and u[i][z] >= l[i][y] for y in comp):
                    comp.add(z)
                    grow = True
        cand = [k for k in cand if k in comp]
    return best


def _ref_loaf(U, D, lam, W):
    for i in range(len(U)):
        best = _ref_tied_argmax(U[i], D)
        coef = 2 + 4 * sum(lam**k for k in range(1, i + 1))
        D = [k for k in D if U[i][k] >= U[i][best] - coef * W]
    return D, best


def _reference_run(name, means, T, seed, c=0.1, delta=0.01, lam=0.1):
    """One-hot closed-form reference of the four algorithms, noise indexed by round (spec LexMOSLB Sec. 4)."""
    K, m = means.shape
    noise = np.random.default_rng(seed).standard_normal((T, m))
    N, S = [0] * K, [[0.0] * m for _ in range(K)]
    arms = []
    for t in range(1, T + 1):
        if name == "pf_lex":
            beta = c * math.sqrt(1 + 2 * math.log(K * m * math.sqrt(1 + t) / delta))
            w = [math.inf if N[k] == 0 else beta * math.sqrt((1 + N[k]) / N[k] ** 2) for k in range(K)]
            y = [[S[k][i] / N[k] if N[k] else 0.0 for k in range(K)] for i in range(m)]
        else:
            if name == "oful":
                g = c * (math.sqrt(2 * (0.5 * sum(math.log(1 + n) for n in N) - math.log(delta))) + 1)
            else:
                g = c * (math.sqrt(K * math.log(m * (1 + t) / delta)) + 1)
            w = [g / math.sqrt(1 + N[k]) for k in range(K)]
            y = [[S[k][i] / (1 + N[k]) for k in range(K)] for i in range(m)]
        u = [[y[i][k] + w[k] for k in range(K)] for i in range(m)]
        l = [[y[i][k] - w[k] for k in range(K)] for i in range(m)]
        if name == "oful":
            a = _ref_tied_argmax(u[0], range(K))
        elif name == "mte2lo":
            D, s = list(range(K)), 1
            while True:
                if max(w[k] for k in D) <= T**-0.5:
                    a = _ref_loaf(u, D, lam, T**-0.5)[1]
                    break
                a = _ref_tied_argmax(w, D)
                if w[a] > 2.0**-s:
                    break
                D = _ref_loaf(u, D, lam, 2.0**-s)[0]
                s += 1
        else:
            eps = K ** (2 / 3) * (K * T) ** (-1 / 3) if name == "ste2lo" else (K * T) ** (-1 / 3)
            a = _ref_tied_argmax(w, range(K))
            if w[a] <= eps:
                a = _ref_chain(l, u, list(range(K)), K)
        arms.append(a)
        N[a] += 1
        for i in range(m):
            S[a][i] += means[a, i] + noise[t - 1, i]
    return np.array(arms)


@pytest.mark.parametrize("name", ["mte2lo", "ste2lo", "pf_lex", "oful"])
@pytest.mark.parametrize("table", [TABLE_01, TABLE_10])
def test_matches_one_hot_reference(name, table):
    inst = preset(table)
    lam = 0.1 if table == TABLE_01 else 10.0
    T = 3000 if name == "pf_lex" else 1200  # PF-LEX needs ~2,500 rounds before its first exploitation
    params = {"lam": lam} if name == "mte2lo" else {}
    for seed in (0, 1):
        arms = round_noise_run(inst, name, T, seed, **params)
        np.testing.assert_array_equal(arms, _reference_run(name, np.asarray(inst.means), T, seed, lam=lam))


def test_linear_state_matches_ridge_refit_from_history():
    inst = random_linear(8, d=3, L=3, seed=4, sigma=0.5)
    T = 60
    alg = get_algorithm("mte2lo").make()
    problem = simulate.make_problem(inst, T, inst.features)
    alg.reset(problem, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    X, Y = [], []
    for t in range(1, T + 1):
        a = alg.select(t)
        x = inst.features[a]
        V = np.eye(3) + sum((np.outer(v, v) for v in X), np.zeros((3, 3)))
        theta = np.linalg.solve(V, sum((np.outer(v, y) for v, y in zip(X, Y, strict=True)), np.zeros((3, 3))))
        reward = inst.means[a] + 0.5 * rng.standard_normal(3)
        alg.update(a, reward)
        X.append(x)
        Y.append(reward)
        st = alg.state()
        g = 0.1 * (0.5 * math.sqrt(3 * math.log(3 * (1 + t) / 0.01)) + 1)
        w = g * np.sqrt(np.einsum("kd,de,ke->k", inst.features, np.linalg.inv(V), inst.features))
        np.testing.assert_allclose(st.estimates, inst.features @ theta, atol=1e-10)
        np.testing.assert_allclose(st.upper - st.estimates, np.repeat(w[:, None], 3, axis=1), atol=1e-10)
        np.testing.assert_allclose(st.extras["widths"], w, atol=1e-10)


# ---------------------------------------------------------------------------------------------- RoundState
def _check_state(st, K, L):
    assert st.estimates.shape == st.lower.shape == st.upper.shape == (K, L)
    assert st.extras["stage"] in ("exploration", "exploitation")
    sets = st.extras["filtered_sets"]
    if sets:
        assert len(sets) == L and all(set(b) <= set(a) for a, b in itertools.pairwise(sets))
        assert set(st.front) == set(sets[-1]) == set(np.flatnonzero(st.status == CANDIDATE))
        assert set(np.flatnonzero(st.status == REJECTED)) == set(range(K)) - set(sets[-1])
    else:
        assert st.front == () and np.all(st.status == ACTIVE)
    if st.extras["stage"] == "exploitation":
        assert st.pulled in (st.front or range(K)) and 0 <= st.extras["chosen_objective"] < L
    assert st.events and all(isinstance(e, str) and e for e in st.events)


@pytest.mark.parametrize("name", ["mte2lo", "ste2lo", "pf_lex", "oful"])
def test_round_states_are_consistent_and_survive_save_load(name, tmp_path):
    inst = preset(TABLE_01)
    tr = simulate.run(inst, name, 2500, seed=2, snapshots=60)
    stages = set()
    for st in tr.snapshots:
        _check_state(st, 10, 5)
        stages.add(st.extras["stage"])
        width = st.upper - st.lower
        finite = np.isfinite(width[:, 0])
        cols = 1 if name == "oful" else 5
        np.testing.assert_allclose(width[finite, :cols], np.repeat(2 * st.extras["widths"][finite, None], cols, 1))
    assert sum(tr.snapshots[-1].extras["rounds_by_branch"].values()) == 2500
    if name in ("ste2lo", "pf_lex"):  # MTE2LO's exploitation needs longer runs (test_mte2lo_stage_records)
        assert stages == {"exploration", "exploitation"}
    back = Trace.load(tr.save(tmp_path / "t.npz"))
    assert back.snapshots[-1].extras.keys() == tr.snapshots[-1].extras.keys()
    assert back.snapshots[-1].extras["filtered_sets"] == tr.snapshots[-1].extras["filtered_sets"]


def test_mte2lo_stage_records():
    inst = preset(TABLE_01)
    tr = simulate.run(inst, "mte2lo", 2000, seed=0, snapshots=100)
    branches = set()
    for st in tr.snapshots:
        ex = st.extras
        s = ex["stage_index"]
        branches.add(ex["branch"].split("@")[0])
        assert len(ex["stage_sets"]) == s and ex["stage_sets"][0] == tuple(range(10))
        assert all(set(b) <= set(a) for a, b in itertools.pairwise(ex["stage_sets"]))
        if ex["branch"] == "final":
            assert ex["threshold"] == pytest.approx(2000**-0.5) and len(ex["cut_levels"]) == s
            assert st.pulled == ex["x_hat"][-1]
        else:
            assert ex["threshold"] == 2.0**-s and ex["widths"][st.pulled] > ex["threshold"]
            assert st.pulled in ex["stage_sets"][-1] and len(ex["cut_levels"]) == s - 1
            assert max(ex["widths"][list(ex["stage_sets"][-1])]) > 2.0**-s
        assert ex["loaf_sets"][-1] == ex["filtered_sets"] if ex["loaf_sets"] else ex["filtered_sets"] == []
        assert sum(ex["rounds_by_branch"].values()) == st.t
    assert branches == {"explore"}  # at T = 2000 no arm is pulled enough for widths <= 1/sqrt(T)
    tr = simulate.run(inst, "mte2lo", 2000, seed=0, snapshots=100, width_scale=0.002)
    assert {st.extras["branch"] for st in tr.snapshots[-20:]} == {"final"}


def test_pf_lex_state_hides_unpulled_estimates():
    tr = simulate.run(preset(TABLE_01), "pf_lex", 3, seed=0, snapshots=3)
    st = tr.snapshots[1]  # the decision of round 2: only arm 0 has been pulled
    assert not np.isnan(st.estimates[0]).any() and np.isnan(st.estimates[1:]).all()
    assert np.isinf(st.upper[1:]).all()


# ---------------------------------------------------------------------------------------------- options
@pytest.mark.parametrize("params", [{"explore_arm": "first"}, {"explore_arm": "random"}, {"W_mode": "actual_max"},
                                    {"width_mode": "constant", "width_scale": 0.3}])
def test_mte2lo_options_run_and_are_reproducible(params):
    inst = preset(TABLE_10)
    a = simulate.run(inst, "mte2lo", 800, seed=5, snapshots=5, lam=10.0, **params)
    b = simulate.run(inst, "mte2lo", 800, seed=5, snapshots=5, lam=10.0, **params)
    np.testing.assert_array_equal(a.arms, b.arms)


@pytest.mark.parametrize("rule, expected", [("widest", {3}), ("first", {1}), ("random", {1, 2, 3})])
def test_too_wide_arm_rules(rule, expected):
    alg = get_algorithm("ste2lo").make(explore_arm=rule)
    alg.reset(simulate.make_problem(preset(TABLE_01), 10, np.eye(10)), np.random.default_rng(0))
    widths = [0.1, 0.5, 0.3, 0.9, 0.0]
    picks = {alg._too_wide(widths, [0, 1, 2, 3, 4], 0.2) for _ in range(40)}
    assert picks == expected
    assert alg._too_wide(widths, [0, 4], 0.2) is None


def test_contextual_instance_records_lexicographic_regret():
    inst = random_contextual(6, d=3, L=3, seed=1)
    for name in ("mte2lo", "ste2lo", "oful"):
        tr = simulate.run(inst, name, 200, seed=0, snapshots=4)
        assert {"lex_regret_1", "lex_regret_3", "priority_regret_2"} <= set(tr.metrics)


def test_bad_parameters_raise_value_errors():
    with pytest.raises(ValueError, match="lam"):
        get_algorithm("mte2lo").make(lam=-1.0)
    with pytest.raises(ValueError, match="epsilon"):
        get_algorithm("pf_lex").make(epsilon=0.0)
    with pytest.raises(ValueError, match="pool"):
        get_algorithm("ste2lo").make(pool="some")
    with pytest.raises(ValueError, match="algorithm"):
        simulate.run(random_contextual(4, d=2, L=2), "pf_lex", 10)
    big = Instance.from_means(np.random.default_rng(0).uniform(size=(70, 2)))
    with pytest.raises(ValueError, match="number of arms K"):
        simulate.run(big, "mte2lo", 10)
    with pytest.raises(ValueError, match="problem.context"):
        get_algorithm("oful").make().reset(
            Problem(K=3, L=2, kind="linear", horizon=5, noise="gaussian", sigma=1.0, objective_names=("a", "b"),
                    context=np.zeros((4, 2))), np.random.default_rng(0))


# ---------------------------------------------------------------------------------------------- metrics
def _brute_regrets(means, arm):
    """Eqs. (1) and (4) by the definitions: x* found by pairwise lexicographic comparison."""
    K, m = means.shape
    star = next(a for a in range(K) if not any(
        next((means[b, i] > means[a, i] for i in range(m) if means[b, i] != means[a, i]), False) for b in range(K)))
    general = [means[star, i] - means[arm, i] for i in range(m)]
    priority = [general[i] if all(means[star, j] == means[arm, j] for j in range(i)) else 0.0 for i in range(m)]
    return general, priority


@pytest.mark.parametrize("table", [TABLE_01, TABLE_10, "random"])
def test_engine_lexicographic_regrets_match_definitions(table):
    if table == "random":  # ties on the first two objectives, drawn from a small grid
        means = np.random.default_rng(3).integers(0, 3, (12, 4)) / 4.0
    else:
        means = np.asarray(preset(table).means)
    got = lexicographic_regrets(means)
    for arm in range(len(means)):
        general, priority = _brute_regrets(means, arm)
        for i in range(means.shape[1]):
            assert got[f"lex_regret_{i + 1}"][arm] == pytest.approx(general[i], abs=1e-15)
            assert got[f"priority_regret_{i + 1}"][arm] == pytest.approx(priority[i], abs=1e-15)


def test_trace_metrics_are_the_pulled_arms_regrets():
    inst = preset(TABLE_10)
    tr = simulate.run(inst, "ste2lo", 500, seed=1, snapshots=0)
    means = np.asarray(inst.means)
    np.testing.assert_allclose(tr.metrics["lex_regret_5"], means[0, 4] - means[tr.arms, 4])
    gate = means[tr.arms, 0] == means[0, 0]
    np.testing.assert_allclose(tr.metrics["priority_regret_2"], np.where(gate, means[0, 1] - means[tr.arms, 1], 0))


@pytest.mark.parametrize("name, default", [("ste2lo", 10 ** (2 / 3) * 500 ** (-1 / 3)), ("pf_lex", 500 ** (-1 / 3))])
def test_epsilon_defaults_to_the_papers_rule(name, default):
    inst = preset(TABLE_01)
    assert simulate.run(inst, name, 50, seed=0, snapshots=1).snapshots[-1].extras["threshold"] == pytest.approx(default)
    assert simulate.run(inst, name, 50, seed=0, snapshots=1, epsilon=0.5).snapshots[-1].extras["threshold"] == 0.5


def test_an_unbounded_width_is_explained_as_an_arm_not_yet_pulled():
    from banditviz.algorithms.lexmoslb.learners import _width_says

    assert _width_says(float("inf")) == " has not been pulled yet: its width (unbounded)"
    assert "inf" not in _width_says(float("inf")).replace("unbounded", "")
    assert _width_says(0.25) == "'s width 0.25"
