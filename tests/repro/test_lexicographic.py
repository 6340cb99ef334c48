"""Reproduction of LexMOSLB Sec. 4: deterministic checks T1-T7 and statistical checks S1-S5.

Statistical sizes (marked ``slow``): the spec's CI size, 10 seeds (0-9) x T = 20,000 rounds, width scale
c = 0.1, noise one N(0, 1) row per round (`round_noise_run`, the spec's calibration convention), on both
Table 1 instances: 80 runs sharing one cache, about 105 s on one idle core (MTE2LO ~2.4 s per run,
STE2LO ~1.3 s, OFUL and PF-LEX ~0.7 s). The spec's T = 10^5 "nightly" sizes are not run. Margins are the
spec's recommended ones for T = 2 x 10^4 (S1 5x, not 10x; S3 0.03 and 0.90).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from banditviz import pareto, simulate
from banditviz.algorithms.lexicographic_core import (
    analysis_stages,
    chain_filter,
    gamma_radius,
    lambda_min,
    lemma2_bound,
    loaf,
    loaf_coefficients,
    pf_lex_epsilon,
    proposition1_gap,
    ste2lo_epsilon,
    theorem1_bound,
    theorem2_bound,
)
from banditviz.instances import Instance, preset
from banditviz.lexicographic_repro import general_regret, round_noise_run

TABLE_01 = "lexicographic_lambda_0.1"
TABLE_10 = "lexicographic_lambda_10"
LAMBDA = {TABLE_01: 0.1, TABLE_10: 10.0}


def _means(table: str) -> np.ndarray:
    return np.asarray(preset(table).means)


# ---------------------------------------------------------------------------------------------- T1: Table 1
@pytest.mark.parametrize("table", [TABLE_01, TABLE_10])
def test_t1_arm_1_is_the_lexicographic_optimum(table):
    mu = _means(table)
    assert pareto.lex_optimal(mu).tolist() == [0]
    assert pareto.pareto_mask(mu)[0]  # a lex optimum is Pareto optimal (LexMOSLB Sec. 1)
    weights = 1e-3 ** np.arange(5)  # and maximises the scalarisation sum eps^(i-1) mu^i for small eps
    assert int(np.argmax(mu @ weights)) == 0


@pytest.mark.parametrize("table, extra", [
    (TABLE_01, {4: {(1, 4), (1, 5), (3, 10)}}),
    (TABLE_10, {3: {(1, 3), (1, 4), (2, 5), (2, 9), (5, 9), (7, 10)}}),
])
def test_t1_tie_pairs(table, extra):
    mu = _means(table)
    designed = {1: {(1, 2)}, 2: {(2, 3)}, 3: {(3, 4)}, 4: {(4, 5)}, 5: {(5, 6)}}  # paper numbering
    for i in range(1, 6):
        ties = {(a + 1, b + 1) for a, b in itertools.combinations(range(10), 2) if mu[a, i - 1] == mu[b, i - 1]}
        assert ties == designed[i] | extra.get(i, set())


@pytest.mark.parametrize("table, overall, per", [
    (TABLE_01, 0.050633, (0.0506, 0.0, 0.0, 0.0)),
    (TABLE_10, 1.236842, (0.0, 0.4082, 1.2368, 0.8718)),
])
def test_t1_smallest_valid_lambda(table, overall, per):
    mu = _means(table)
    value, by_objective = lambda_min(mu)
    assert value == pytest.approx(overall, rel=1e-4) and value <= LAMBDA[table]
    np.testing.assert_allclose(by_objective, per, atol=1e-4)

    def claim5(lam):  # (5) checked arm by arm and objective by objective
        g = mu[0] - mu
        return all(-g[x, i] <= lam * g[x, :i].max() + 1e-12 for x in range(1, 10) for i in range(1, 5))

    assert claim5(value) and not claim5(value * (1 - 1e-6))


def test_t1_objective_5_gaps_and_one_hot_norms():
    mu = _means(TABLE_10)
    np.testing.assert_allclose(mu[0, 4] - mu[1:, 4], [0.10, -0.34, -0.21, -0.06, -0.06, -0.23, 0.12, 0.11, 0.05],
                               atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(_means(TABLE_01), axis=0), [0.945, 0.826, 1.219, 1.355, 0.679],
                               atol=6e-4)
    np.testing.assert_allclose(np.linalg.norm(mu, axis=0), [0.768, 1.000, 0.778, 0.917, 0.486], atol=6e-4)


# ---------------------------------------------------------------------------------------------- T2: constants
def test_t2_constants():
    T, K, d, m, delta = 10**5, 10, 10, 5, 0.01
    assert ste2lo_epsilon(d, K, T) == pytest.approx(0.0464159, rel=1e-5)
    assert pf_lex_epsilon(K, T) == pytest.approx(0.01, rel=1e-9)
    assert analysis_stages(T) == 11 and 2.0**-11 < T**-0.5
    assert gamma_radius(T, d, m, delta, 1.0) == pytest.approx(14.31448, rel=1e-6)
    np.testing.assert_allclose(loaf_coefficients(0.1, 5), [2, 2.4, 2.44, 2.444, 2.4444], rtol=1e-12)
    np.testing.assert_allclose(loaf_coefficients(10.0, 5), [2, 42, 442, 4442, 44442], rtol=1e-12)
    eps = ste2lo_epsilon(d, K, T)
    assert theorem1_bound(eps, d, K, T, m, delta) == pytest.approx(9.53e8, rel=1e-3)
    # Thm 1 = 2 x (the second form of Lemma 2's bound (27)) + 2 K T eps, and Lemma 2's first form is below it.
    second = 50 * eps**-2 * d * math.log(T) * (d * math.log(m * (1 + T) / delta) + 1)
    assert theorem1_bound(eps, d, K, T, m, delta) == pytest.approx(2 * second + 2 * K * T * eps, rel=1e-12)
    assert lemma2_bound(eps, d, T, m, delta) <= second
    assert theorem2_bound(1, 0.1, d, T, m, delta) == pytest.approx(7.5904e6, rel=1e-4)
    assert theorem2_bound(5, 0.1, d, T, m, delta) == pytest.approx(8.4336e6, rel=1e-4)
    assert theorem2_bound(5, 10.0, d, T, m, delta) == pytest.approx(8.4336e10, rel=1e-4)
    assert proposition1_gap(3, 10.0, 0.01) == pytest.approx(4 * 111 * 0.01)


# ---------------------------------------------------------------------------------------------- T3: LOAF
def _loaf_exact(mu, lam, W):
    upper = (mu + W).T.tolist()
    return loaf(upper, list(range(len(mu))), loaf_coefficients(lam, mu.shape[1]), W).survivors


@pytest.mark.parametrize("table", [TABLE_01, TABLE_10])
@pytest.mark.parametrize("W", [0.05, 0.1, 0.2, 0.22, 0.3])
def test_t3_loaf_keeps_the_optimum_and_the_gap_bound(table, W):
    mu = _means(table)
    for lam in (lambda_min(mu)[0], LAMBDA[table]):
        kept = _loaf_exact(mu, lam, W)
        assert 0 in kept
        for i in range(1, 6):  # Prop. 1
            assert all(mu[0, i - 1] - mu[x, i - 1] <= proposition1_gap(i, lam, W) + 1e-12 for x in kept)


def test_t3_loaf_examples_and_failure_below_lambda_min():
    mu = _means(TABLE_10)
    assert _loaf_exact(mu, 10.0, 0.05) == (0, 1, 3, 4)  # paper arms {1, 2, 4, 5}
    assert _loaf_exact(mu, 0.0, 0.2) == (1,)  # lambda = 0 < lambda_min drops arm 1
    assert all(_loaf_exact(mu, 0.0, W) == (0,) for W in (0.01, 0.05, 0.1))


# ---------------------------------------------------------------------------------------------- T4: chain vs LOAF
def test_t4_figure_1_chain_loses_the_optimum_loaf_keeps_it():
    mu = np.array([[0.5, 0.5], [0.45, 0.9], [0.0, 0.0]])  # x*, x, z
    w = 0.1
    chain = chain_filter((mu - w).T.tolist(), (mu + w).T.tolist(), [0, 1, 2])
    assert chain.sets == ((0, 1), (1,)) and chain.x_hat == (0, 1)
    lam = lambda_min(mu)[0]
    assert lam == pytest.approx(8.0)
    kept = loaf((mu + w).T.tolist(), [0, 1, 2], loaf_coefficients(lam, 2), w)
    assert kept.sets == ((0, 1), (0, 1)) and kept.bounds[1][0] == pytest.approx(1.0 - 34 * 0.1)


# ---------------------------------------------------------------------------------------------- T5-T7: runs
@pytest.mark.parametrize("T", [1, 2, 5, 17, 20])
def test_t5_mte2lo_terminates_for_tiny_horizons(T):
    assert 2.0 ** -analysis_stages(T) >= T**-0.5  # the paper's claim (LexMOSLB Sec. 3.2) fails here
    tr = simulate.run(preset(TABLE_01), "mte2lo", T, seed=0, snapshots=T)
    assert tr.rounds == T and tr.snapshots[-1].extras["stage_index"] >= 1


def test_t6_pf_lex_starts_with_a_round_robin():
    tr = simulate.run(preset(TABLE_10), "pf_lex", 25, seed=3, snapshots=0)
    np.testing.assert_array_equal(tr.arms[:10], np.arange(10))


@pytest.mark.parametrize("name", ["mte2lo", "ste2lo", "oful"])
def test_t7_rotation_invariance(name):
    one_hot = preset(TABLE_01)
    Q, _ = np.linalg.qr(np.random.default_rng(11).standard_normal((10, 10)))
    rotated = Instance.from_linear(Q.T, Q @ np.asarray(one_hot.means), sigma=1.0)  # x_k = Q e_k, theta^i = Q mu^i
    np.testing.assert_allclose(rotated.means, one_hot.means, atol=1e-14)
    a = simulate.run(one_hot, name, 2500, seed=4, snapshots=0)
    b = simulate.run(rotated, name, 2500, seed=4, snapshots=0)
    np.testing.assert_array_equal(a.arms, b.arms)


# ---------------------------------------------------------------------------------------------- S1-S5
T_STAT, SEEDS = 20_000, range(10)


@functools.cache
def _runs(table: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(10 x 5 general regrets R^i(T), 10 fractions of pulls of arm 1) over seeds 0-9."""
    inst = preset(table)
    params = {"lam": LAMBDA[table]} if name == "mte2lo" else {}
    regrets, optimal = [], []
    for seed in SEEDS:
        arms = round_noise_run(inst, name, T_STAT, seed, **params)
        regrets.append(general_regret(inst, arms))
        optimal.append(np.mean(arms == 0))
    return np.array(regrets), np.array(optimal)


def _mean(table: str, name: str, objective: int) -> float:
    return float(_runs(table, name)[0][:, objective - 1].mean())


@pytest.mark.slow
def test_s1_oful_pays_linear_regret_on_objective_5():
    oful, mte = _mean(TABLE_01, "oful", 5), _mean(TABLE_01, "mte2lo", 5)
    assert oful >= 5 * mte and oful / T_STAT >= 0.05


@pytest.mark.slow
@pytest.mark.parametrize("other", ["ste2lo", "pf_lex"])
def test_s2_mte2lo_beats_ste2lo_and_pf_lex(other):
    for objective in (1, 5):
        assert _mean(TABLE_01, "mte2lo", objective) < _mean(TABLE_01, other, objective)


@pytest.mark.slow
def test_s3_mte2lo_is_near_optimal():
    regrets, optimal = _runs(TABLE_01, "mte2lo")
    assert regrets[:, 0].mean() / T_STAT <= 0.03 and regrets[:, 4].mean() / T_STAT <= 0.03
    assert optimal.mean() >= 0.90


@pytest.mark.slow
@pytest.mark.parametrize("name", ["oful", "pf_lex", "ste2lo", "mte2lo"])
def test_s4_lambda_10_objective_5_below_objective_1(name):
    assert _mean(TABLE_10, name, 5) < _mean(TABLE_10, name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("table, name, objective, reported", [
    (TABLE_01, "mte2lo", 1, 188), (TABLE_01, "mte2lo", 5, 317),
    (TABLE_01, "ste2lo", 1, 1344), (TABLE_01, "ste2lo", 5, 867),
    (TABLE_01, "pf_lex", 1, 2940), (TABLE_01, "pf_lex", 5, 2861),
    (TABLE_10, "ste2lo", 1, 1143), (TABLE_10, "pf_lex", 1, 2603), (TABLE_10, "pf_lex", 5, -497),
])
def test_s5_regression_against_the_calibration_table(table, name, objective, reported):
    assert _mean(table, name, objective) == pytest.approx(reported, rel=0.15)


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="003 §4.4: C5 does not hold for MTE2LO at the paper's T = 10^5 (lambda = 10, "
                   "c = 0.1): mean R^5 2,676 > R^1 1,054 (measured here, as in the spec); MTE2LO keeps "
                   "alternating arms 1 and 2, the objective-2 filter needs 42 W < 0.16 and that stage is never reached")
def test_s4_mte2lo_at_the_paper_horizon():
    """003 §4.5 S4 at T = 10^5 (the spec's expected xfail): 10 seeds, the calibration's round-indexed noise
    (about 60 s on an idle core)."""
    inst = preset(TABLE_10)
    regrets = np.array([general_regret(inst, round_noise_run(inst, "mte2lo", 10**5, seed, lam=10.0))
                        for seed in SEEDS])
    print(f"MTE2LO, lambda = 10, T = 10^5: mean R^1 {regrets[:, 0].mean():.0f}, R^5 {regrets[:, 4].mean():.0f}")
    assert regrets[:, 4].mean() < regrets[:, 0].mean()
