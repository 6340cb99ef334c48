"""Reproduction of LexMOSLB Sec. 4: deterministic checks T1-T7 and statistical checks S1-S5.

Statistical sizes (marked ``slow``): the spec's CI size, 10 seeds (0-9) x T = 20,000 rounds, width scale
c = 0.1, noise one N(0, 1) row per round (`round_noise_run`, the spec's calibration convention), on both
Table 1 instances: 80 runs sharing one cache, about 105 s on one idle core (MTE2LO ~2.4 s per run,
STE2LO ~1.3 s, OFUL and PF-LEX ~0.7 s). Margins are the spec's recommended ones for T = 2 x 10^4 (S1 5x, not
10x; S3 0.03 and 0.90). Each claim check also runs on a broken variant (the confidence width x 0, i.e. no
exploration, tests/variants.py) and must reject it: S1-S3 and S5 do (4 variants x 10 runs, about 35 s); S4 cannot
on these means (see its test), which is shown on the allocation that fails it.

S4 (C5) is also checked at the paper's T = 10^5 (the spec's nightly size) for OFUL, PF-LEX and STE2LO, and for
MTE2LO as the spec's expected xfail: 30 seeds through the engine's compiled loop (about 30 s for the 120 runs).
The other nightly sizes (S1-S3 at 10^5) are not run.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from banditviz import pareto, simulate
from banditviz.algorithms import ALGORITHMS
from banditviz.algorithms.lexmoslb.core import (
    analysis_stages,
    chain_filter,
    gamma_radius,
    lemma2_bound,
    loaf,
    loaf_coefficients,
    pf_lex_epsilon,
    proposition1_gap,
    ste2lo_epsilon,
    theorem1_bound,
    theorem2_bound,
)
from banditviz.experiments.lexmoslb import general_regret, round_noise_run
from banditviz.instances import Instance, preset
from tests.variants import broken_spec, scaled

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
    value, by_objective = pareto.lambda_min(mu)
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
    for lam in (pareto.lambda_min(mu)[0], LAMBDA[table]):
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
    lam = pareto.lambda_min(mu)[0]
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
NO_WIDTH = scaled("_scaled", 0.0)  # the confidence width removed: no exploration (tests/variants.py)
BROKEN = {f"{name} [{NO_WIDTH.label}]": broken_spec(ALGORITHMS[name], NO_WIDTH(ALGORITHMS[name].cls), NO_WIDTH.label)
          for name in ("mte2lo", "ste2lo", "pf_lex")}


def broken(name: str) -> str:
    return f"{name} [{NO_WIDTH.label}]"


@functools.cache
def _runs(table: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(10 x 5 general regrets R^i(T), 10 fractions of pulls of arm 1) over seeds 0-9 (``name``: registered, or a
    broken variant of `BROKEN`, played through its Python class)."""
    inst = preset(table)
    params = {"lam": LAMBDA[table]} if name.startswith("mte2lo") else {}
    regrets, optimal = [], []
    for seed in SEEDS:
        arms = round_noise_run(inst, BROKEN.get(name, name), T_STAT, seed, **params)
        regrets.append(general_regret(inst, arms))
        optimal.append(np.mean(arms == 0))
    return np.array(regrets), np.array(optimal)


def _mean(table: str, name: str, objective: int) -> float:
    return float(_runs(table, name)[0][:, objective - 1].mean())


def s1_holds(mte2lo: str) -> bool:
    """S1 (C1/C2): mean R^5 of OFUL >= 5 x that of MTE2LO (or its variant), and R^5_OFUL / T >= 0.05."""
    oful = _mean(TABLE_01, "oful", 5)
    return oful >= 5 * _mean(TABLE_01, mte2lo, 5) and oful / T_STAT >= 0.05


def s2_holds(mte2lo: str, other: str) -> bool:
    """S2 (C4): MTE2LO's (or its variant's) mean below ``other``'s on objectives 1 and 5."""
    return all(_mean(TABLE_01, mte2lo, i) < _mean(TABLE_01, other, i) for i in (1, 5))


def s3_holds(mte2lo: str) -> bool:
    """S3: R^1 / T and R^5 / T <= 0.03, arm 1 pulled in >= 90% of rounds."""
    regrets, optimal = _runs(TABLE_01, mte2lo)
    return regrets[:, 0].mean() / T_STAT <= 0.03 and regrets[:, 4].mean() / T_STAT <= 0.03 and optimal.mean() >= 0.90


@pytest.mark.slow
def test_s1_oful_pays_linear_regret_on_objective_5():
    """Rejected: MTE2LO without width (mean R^5 3,539, OFUL's 4,622 is not 5x above it)."""
    assert s1_holds("mte2lo") and not s1_holds(broken("mte2lo"))


@pytest.mark.slow
@pytest.mark.parametrize("other", ["ste2lo", "pf_lex"])
def test_s2_mte2lo_beats_ste2lo_and_pf_lex(other):
    """Rejected: MTE2LO without width (mean R^5 3,539, above STE2LO's 867 and PF-LEX's 2,861)."""
    assert s2_holds("mte2lo", other) and not s2_holds(broken("mte2lo"), other)


@pytest.mark.slow
def test_s3_mte2lo_is_near_optimal():
    """Rejected: MTE2LO without width (R^5 / T = 0.18; arm 1 in 50% of rounds: 5 of 10 seeds lock onto another)."""
    assert s3_holds("mte2lo") and not s3_holds(broken("mte2lo"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["oful", "pf_lex", "ste2lo", "mte2lo"])
def test_s4_lambda_10_objective_5_below_objective_1(name):
    """S4 (C5) at T = 2 x 10^4. It cannot tell a broken learner here: on the lambda = 10 means every arm but arm 2
    has an objective-5 gap below its objective-1 gap, so a round robin (R^5 = T/K x -0.52 < R^1 = T/K x 2.72) and
    the width removed (OFUL, STE2LO: mean R^1 460, R^5 -260; PF-LEX 967, -1,792; measured) pass it. What fails it
    is pulling arm 2 (objective-1 gap 0, objective-5 gap 0.10), as MTE2LO does at T = 10^5 (the xfail below):
    checked on that allocation itself."""
    assert _mean(TABLE_10, name, 5) < _mean(TABLE_10, name, 1)
    alternating = general_regret(preset(TABLE_10), np.arange(T_STAT) % 2)  # arms 1 and 2 in turn
    assert not alternating[4] < alternating[0]


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
@pytest.mark.parametrize("table, name, objective, reported", [
    # measured without width: 3,539; 3,420; 6,117; 967. Each seed locks onto one arm (on lambda = 0.1: 5, 5 and 8 of
    # 10 onto a wrong one): landing within 15% would need at most one wrong lock-in (about 1% at 1/2 a seed).
    (TABLE_01, "mte2lo", 5, 317), (TABLE_01, "ste2lo", 5, 867), (TABLE_01, "pf_lex", 5, 2861),
    (TABLE_10, "pf_lex", 1, 2603),
])
def test_s5_rejects_the_width_removed(table, name, objective, reported):
    """The S5 check applied to each learner with its confidence width x 0 (no exploration). Not used: STE2LO on
    lambda = 10, objective 1 (460 against 1,143, per seed 0, 1,000 or 1,800: another seed set could land within
    15%)."""
    assert _mean(table, broken(name), objective) != pytest.approx(reported, rel=0.15)


# ---------------------------------------------------------------------------------------------- S4 at T = 10^5
T_PAPER, SEEDS_PAPER = 10**5, range(30)


@functools.cache
def _paper_runs(name: str) -> np.ndarray:
    """30 x 5 general regrets R^i(10^5) on the lambda = 10 instance, seeds 0-29, through `simulate.run` (the
    engine's per-arm noise and its compiled loop: 0.2-0.6 s a run). C5 is a sign claim, not a regression: it needs
    neither the calibration's round-indexed noise nor its exact numbers. 30 seeds, not 10, because OFUL is bimodal
    (per seed R^5 about +10,000 when it locks onto arm 2); its 10-seed means (R^1, R^5) were (1,414, -703),
    (2,323, -328) and (2,435, -3,965) on seeds 0-9, 10-19 and 20-29."""
    inst = preset(TABLE_10)
    params = {"lam": 10.0} if name == "mte2lo" else {}
    return np.array([general_regret(inst, simulate.run(inst, name, T_PAPER, seed, snapshots=0, **params).arms)
                     for seed in SEEDS_PAPER])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["oful", "pf_lex", "ste2lo"])
def test_s4_at_the_paper_horizon(name):
    """003 §4.5 S4 at T = 10^5 (measured means R^1, R^5 over seeds 0-29: OFUL 2,057, -1,665; PF-LEX 8,040, -325;
    STE2LO 2,587, -488)."""
    regrets = _paper_runs(name)
    assert regrets[:, 4].mean() < regrets[:, 0].mean()


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="003 §4.4: C5 does not hold for MTE2LO at the paper's T = 10^5 (lambda = 10, "
                   "c = 0.1): mean R^5 2,650 > R^1 1,090 over seeds 0-29 (the spec's round-indexed noise: 2,676 > "
                   "1,054); MTE2LO keeps alternating arms 1 and 2, the objective-2 filter needs 42 W < 0.16 and that "
                   "stage is never reached")
def test_s4_mte2lo_at_the_paper_horizon():
    """003 §4.5 S4 at T = 10^5 (the spec's expected xfail), as `test_s4_at_the_paper_horizon`."""
    regrets = _paper_runs("mte2lo")
    print(f"MTE2LO, lambda = 10, T = 10^5: mean R^1 {regrets[:, 0].mean():.0f}, R^5 {regrets[:, 4].mean():.0f}")
    assert regrets[:, 4].mean() < regrets[:, 0].mean()
