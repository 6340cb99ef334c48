"""Reproduction of LinPSI (Kone, Kaufmann & Richert, AISTATS 2025): LinPSI Sec. 5 (our checks) deterministic checks and
the statistical claims of LinPSI Sec. 5 (our checks) (marked slow).

The NoC data is not shipped: the tests read it through `banditviz.datasets` from the ``BANDITVIZ_DATA`` folder
(``../shared/data``, set by tests/conftest.py), never downloading it, and skip when it is absent.

Each claim about GEGE is also checked to reject a deliberately broken GEGE (a subclass overriding one rule):
the uniform design in place of the G-optimal one, and the fixed-confidence accept/reject thresholds 2x and 4x
too lax. The measured margins are in each test's docstring.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom

import banditviz as bv
from banditviz import datasets, pareto
from banditviz.algorithms.linpsi import optimal_design
from banditviz.algorithms.linpsi.gege import GEGEFixedBudget, GEGEFixedConfidence
from banditviz.environment import Environment
from banditviz.presets.linpsi import noc_arrays
from banditviz.simulate import make_problem


def local_noc() -> Path | None:
    try:
        return datasets.fetch("noc", download=False)
    except datasets.DatasetUnavailable:
        return None


NOC_CSV = local_noc()
needs_noc = pytest.mark.skipif(NOC_CSV is None, reason="NoC data not local (BANDITVIZ_DATA); tests never download")
NOC_GRID = (2331, 2515, 2700, 2885, 3070, 3255, 3440, 3625, 3810, 3995)  # LinPSI Sec. 5.1 grid


@pytest.fixture(scope="module")
def noc() -> bv.Instance:
    if NOC_CSV is None:
        pytest.skip("NoC data not local (BANDITVIZ_DATA); tests never download")
    return bv.preset("noc")


def error_rate(instance: bv.Instance, name: str, horizon: int, seeds: range, **params) -> float:
    wrong = [bv.run(instance, name, horizon, seed=s, snapshots=0, **params).recommendation != instance.pareto_set
             for s in seeds]
    return float(np.mean(wrong))


def se(p: float, n: int) -> float:
    """Standard error of an error rate, floored at p = 1/n so that an observed 0 still has a width."""
    p = min(max(p, 1 / n), 1 - 1 / n)
    return float(np.sqrt(p * (1 - p) / n))


# ---------------------------------------------------------------------- deterministic checks of LinPSI Sec. 5
def test_noc_construction_facts(noc: bv.Instance) -> None:
    X, theta, raw = noc_arrays(NOC_CSV)
    assert noc.K == 259 and np.linalg.matrix_rank(X) == 4 and len(np.unique(np.round(X, 12), axis=0)) == 251
    np.testing.assert_allclose(theta, [[3.08665453, 3.35487744], [3.66027623, -0.19333635],
                                       [2.68963781, 1.39779755], [7.90670356, 4.44360318]], atol=1e-7)
    assert noc.pareto_set == (0, 140, 164, 180)
    np.testing.assert_allclose(noc.means[0], [-6.07863128, -3.83092868], atol=1e-7)
    np.testing.assert_allclose(noc.means[[140, 164, 180]], [[-4.97333093, -4.03991016], [-4.50931119, -4.10639735],
                                                            [-5.47658590, -3.94182169]], atol=1e-7)
    gaps = pareto.psi_gaps(noc.means)
    assert np.sort(gaps)[0] == pytest.approx(0.0429600, abs=1e-7)
    assert set(np.flatnonzero(np.isclose(gaps, np.sort(gaps)[0], atol=1e-9))) == {140, 242}
    H = pareto.psi_complexity(gaps, h=4)
    assert H["H1"] == pytest.approx(3993.606, abs=1e-3)
    assert H["H2"] == H["H2_lin"] == pytest.approx(1780.251, abs=1e-3)
    assert H["H1_lin"] == pytest.approx(1973.809, abs=1e-3)


def test_noc_preset_validates_its_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="csv_path.*not both"):
        bv.preset("noc", csv_path=NOC_CSV, csv_text="width")
    bad = tmp_path / "bad.csv"
    bad.write_text("a;b\n1;2\n")
    with pytest.raises(ValueError, match="header"):
        bv.preset("noc", csv_path=bad)


def split_gaps(mu: np.ndarray) -> np.ndarray:
    """Gaps by the delta+ / delta- split of LinPSI Sec. 2.1, eq. (1) (Kone et al. 2024, Lemma 1), with loops."""
    K = len(mu)
    S = pareto.pareto_mask(mu)
    dstar = np.array([max(max(min(mu[j] - mu[i]) for j in range(K)), 0.0) for i in range(K)])
    out = dstar.copy()
    for i in np.flatnonzero(S):
        plus = min((min(max(mu[i] - mu[j]), max(mu[j] - mu[i])) for j in np.flatnonzero(S) if j != i), default=np.inf)
        minus = min((max(max(mu[j] - mu[i]), 0) + dstar[j] for j in np.flatnonzero(~S)), default=np.inf)
        out[i] = min(plus, minus)
    return out


def test_gap_formula_and_hand_examples() -> None:
    """LinPSI Sec. 5 and our decision items 21-22."""
    for seed in range(5):
        mu = np.random.default_rng(seed).random((12, 2))
        np.testing.assert_allclose(pareto.psi_gaps(mu), split_gaps(mu), atol=1e-12)
    inst = bv.preset("psi_gap_example")
    np.testing.assert_allclose(inst.psi_gaps, [0.10, 0.05, 0.06, 0.08, 0.05, 0.06, 0.10, 0.08], atol=1e-12)
    H = pareto.psi_complexity(inst.psi_gaps, h=8)
    assert H["H1_lin"] == pytest.approx(1868.06, abs=0.01) and H["H2_lin"] == pytest.approx(1111.11, abs=0.01)
    np.testing.assert_allclose(pareto.psi_gaps(np.array([[1, 0], [0, 1], [0.9, -0.05]])), [0.05, 0.95, 0.05],
                               atol=1e-12)


def test_synthetic_family_is_nested_with_constant_linear_complexity() -> None:
    """LinPSI Sec. 5.1, synthetic: H1,lin and H2,lin constant in K; H1 grows as reported (1868.1 ... 4754.4)."""
    expected_H1 = {8: 1868.1, 16: 2029.0, 32: 2508.7, 64: 3368.7, 128: 4754.4}
    small = bv.preset("psi_synthetic", K=16).features
    for K, H1 in expected_H1.items():
        inst = bv.preset("psi_synthetic", K=K)
        assert inst.pareto_set == (0, 1, 2, 3)
        H = pareto.psi_complexity(inst.psi_gaps, h=8)
        assert H["H1_lin"] == pytest.approx(1868.06, abs=0.01) and H["H2_lin"] == pytest.approx(1111.11, abs=0.01)
        assert H["H1"] == pytest.approx(H1, abs=0.05)
    np.testing.assert_array_equal(bv.preset("psi_synthetic", K=64).features[:16], small)


@pytest.mark.parametrize("tol", [1e-3, 1e-6])
def test_noc_design_quality(noc: bv.Instance, tol: float) -> None:
    """LinPSI Sec. 5: max leverage <= 4 (1 + tol) and log det V^w >= -8.72623 - 4 log(1 + tol)."""
    X = noc.features
    w, ratio = optimal_design.g_optimal_design(X @ optimal_design.subspace_basis(X), tol=tol)
    lev = np.einsum("ij,jk,ik->i", X, np.linalg.inv(X.T @ (w[:, None] * X)), X)
    assert lev.max() <= 4 * (1 + tol) + 1e-9 and abs(lev.max() / 4 - ratio) < 1e-9
    ld = np.linalg.slogdet(X.T @ (w[:, None] * X))[1]
    assert -8.72623 - 4 * np.log(1 + tol) <= ld <= -8.72622


def test_noc_rounding(noc: bv.Instance) -> None:
    """LinPSI Sec. 5: exactly N pulls, and rho <= 1 + 6 kappa whenever N >= 5 h / kappa^2."""
    X = noc.features
    w, _ = optimal_design.g_optimal_design(X, tol=1e-3)
    for kappa in (1 / 3, 1 / 8):
        for N in (int(np.ceil(20 / kappa**2)), 3 * int(np.ceil(20 / kappa**2)) + 1):
            s = optimal_design.round_design(w, N, X, "efficient")
            assert s.sum() == N and optimal_design.rounding_ratio(X, s) <= 1 + 6 * kappa


def test_noc_fixed_budget_schedule(noc: bv.Instance) -> None:
    """LinPSI Sec. 5: h = 4 gives 2 rounds keeping 2 then 1 arm, and exactly T pulls."""
    tr = bv.run(noc, "gege_fb", 2331, seed=0, snapshots=300)
    assert tr.stopped_at == 2331 and tr.rounds == 2331
    actives = [int((s.status == 0).sum()) for s in tr.snapshots]
    assert actives[0] == 259 and 2 in actives and actives[-1] == 1
    assert tr.snapshots[-1].extras["R"] == 2


class _UniformDesign:
    """Broken GEGE: the uniform design over the active arms in place of the G-optimal one."""

    def design(self, Xt: np.ndarray) -> tuple[np.ndarray, float]:
        return np.full(len(Xt), 1 / len(Xt)), float("nan")


class GEGEFBUniform(_UniformDesign, GEGEFixedBudget):
    pass


class GEGEFCUniform(_UniformDesign, GEGEFixedConfidence):
    pass


class GEGEFCLax4(GEGEFixedConfidence):
    """Broken GEGE-FC: accept/reject thresholds 4x too lax (eps_r / 4 and eps_r / 8)."""

    ACCEPT, REJECT = 0.25, 0.125


class GEGEFCLax2(GEGEFixedConfidence):
    """Broken GEGE-FC: accept/reject thresholds 2x too lax (eps_r / 2 and eps_r / 4)."""

    ACCEPT, REJECT = 0.5, 0.25


def first_round_counts(alg: GEGEFixedBudget | GEGEFixedConfidence, inst: bv.Instance, horizon: int) -> np.ndarray:
    """Pulls of each arm in GEGE's first round, played on the engine's environment (seed 0) until it closes."""
    env = Environment(inst, 0)
    alg.reset(make_problem(inst, horizon, env.context), env.policy_rng)
    counts = np.zeros(inst.K)
    t = 0
    while alg.batch == 1 and not alg.done:
        t += 1
        arm = alg.select(t)
        alg.update(arm, env.pull(arm))
        counts[arm] += 1
    return counts


def g_value(X: np.ndarray, counts: np.ndarray) -> float:
    """N max_i x_i^T V_N^+ x_i for the allocation ``counts`` (V_N = sum_i n_i x_i x_i^T): h = rank for a
    G-optimal allocation (Kiefer-Wolfowitz), larger for any other."""
    V = X.T @ (counts[:, None] * X)
    return float(counts.sum() * np.einsum("ij,jk,ik->i", X, np.linalg.pinv(V), X).max())


@pytest.mark.parametrize("name, broken", [("gege_fb", GEGEFBUniform), ("gege_fc", GEGEFCUniform)])
def test_gege_pulls_a_g_optimal_allocation(name: str, broken: type, variant) -> None:
    """LinPSI Sec. 2.2, eq. (4): the pulls of the first round have G-value N max_i ||x_i||^2_{V_N^-1} close to h.

    Measured (G-optimal vs uniform design): synthetic K = 128 (h = 8) 8.04 vs 140.1, NoC (h = 4) 4.03 vs
    15.5; the bound is 1.1 h, so the uniform design is rejected by a factor 16 and 3.5.
    """
    insts = [(bv.preset("psi_synthetic", K=128, sigma=0.25), 1111)]
    if NOC_CSV is not None:
        insts.append((bv.preset("noc", csv_path=NOC_CSV), 2331))
    for inst, budget in insts:
        h = np.linalg.matrix_rank(inst.features)
        horizon = budget if name == "gege_fb" else 400_000
        for spec, ok in ((bv.algorithms.get_algorithm(name), True), (variant(name, broken, "uniform design"), False)):
            g = g_value(inst.features, first_round_counts(spec.make(), inst, horizon))
            assert (g <= 1.1 * h) == ok, (spec.name, inst.name, g, h)


FC_SYNTHETIC_TAU = 19_444  # LinPSI Sec. 5: GEGE authors_code, synthetic K = 32, sigma = 0.5, delta = 0.01, 100 runs


def mean_tau_matches(taus: np.ndarray, reference: float) -> bool:
    """LinPSI Sec. 5 tolerance for a mean sample complexity: within 10% of the reference plus 3 standard errors."""
    return abs(taus.mean() - reference) <= 0.1 * reference + 3 * taus.std(ddof=1) / np.sqrt(len(taus))


def stopping_times(inst: bv.Instance, spec: bv.algorithms.AlgorithmSpec | str, seeds: range) -> np.ndarray:
    runs = [bv.run(inst, spec, 2_000_000, seed=s, snapshots=0, delta=0.01) for s in seeds]
    assert all(tr.stopped_at is not None for tr in runs)
    return np.array([tr.stopped_at for tr in runs], dtype=float)


def test_gege_fc_mean_samples_match_the_calibration(variant) -> None:
    """LinPSI Sec. 5 table (synthetic FC, sigma = 0.5, K = 32): mean tau 19,444. 24 seeds, common random numbers.

    Measured (|mean - 19,444| vs its tolerance 10% + 3 SE): real 19.2k (0.2k vs 8.2k); thresholds 2x too lax
    5.7k (13.7k vs 3.8k), 4x too lax 2.5k (16.9k vs 2.4k). Over 100 seeds: real 20.5k (sd 10.3k), 2x lax 6.6k,
    4x lax 3.0k (and 11/100 errors).
    """
    inst = bv.preset("psi_synthetic", K=32, sigma=0.5)
    seeds = range(24)
    assert mean_tau_matches(stopping_times(inst, "gege_fc", seeds), FC_SYNTHETIC_TAU)
    for broken, label in ((GEGEFCLax2, "thresholds 2x too lax"), (GEGEFCLax4, "thresholds 4x too lax")):
        taus = stopping_times(inst, variant("gege_fc", broken, label), seeds)
        assert not mean_tau_matches(taus, FC_SYNTHETIC_TAU), (label, taus.mean())


FB_NAMES = ("gege_fb", "ege_sh", "ege_sr", "uniform_identify")
FC_NAMES = ("gege_fc", "ape", "pal_linear", "racing")


@pytest.mark.parametrize("name", FB_NAMES + FC_NAMES)
def test_noise_free_runs_return_the_pareto_set(noc: bv.Instance, name: str) -> None:
    """LinPSI Sec. 5: sigma -> 0 (1e-6): every algorithm returns S* on NoC and on the synthetic instance."""
    for inst in (noc.with_changes(sigma=1e-6), bv.preset("psi_synthetic", K=32, sigma=1e-6)):
        horizon = 3995 if name in FB_NAMES else 400_000
        tr = bv.run(inst, name, horizon, seed=0, snapshots=2)
        assert tr.recommendation == inst.pareto_set, (name, inst.name)
        if name in FC_NAMES:
            assert tr.stopped_at is not None


# ---------------------------------------------------------------------- statistical claims of LinPSI Sec. 5 (slow)
@pytest.mark.slow
@needs_noc
def test_noc_fixed_budget_gege_beats_ege_sh(noc: bv.Instance) -> None:
    """LinPSI Sec. 5 claim 1 (Fig. 3): err(GEGE) <= 0.12 and err(EGE-SH) - err(GEGE) >= 0.3 across the budget grid.

    Size: the 10 grid budgets x 30 seeds x 2 algorithms (~ 1.9 M pulls).  The claims are checked on the
    pooled grid (300 runs each) exactly, and per budget within 3 standard errors.
    """
    seeds = range(30)
    budgets = NOC_GRID
    gege = [error_rate(noc, "gege_fb", T, seeds) for T in budgets]
    sh = [error_rate(noc, "ege_sh", T, seeds) for T in budgets]
    assert np.mean(gege) <= 0.12
    assert np.mean(sh) - np.mean(gege) >= 0.3
    for g, e in zip(gege, sh, strict=True):
        assert g <= 0.12 + 3 * se(0.12, len(seeds))
        assert e - g >= 0.3 - 3 * np.hypot(se(g, len(seeds)), se(e, len(seeds)))


@pytest.mark.slow
def test_synthetic_fixed_budget_error_is_flat_in_k_for_gege_only() -> None:
    """LinPSI Sec. 5 claim 2 (Fig. 1): sigma = 0.25, T = H2,lin = 1111: GEGE's error flat in K, EGE-SH and uniform grow.

    Size: K in {8, 16, 32, 64, 128} x 80 seeds x 3 algorithms (~ 1.3 M pulls).  Tolerances: 3 standard errors.
    """
    seeds = range(80)
    n = len(seeds)
    Ks = (8, 16, 32, 64, 128)
    res = {name: [error_rate(bv.preset("psi_synthetic", K=K, sigma=0.25), name, 1111, seeds) for K in Ks]
           for name in ("gege_fb", "ege_sh", "uniform_identify")}
    gege, sh, uni = res["gege_fb"], res["ege_sh"], res["uniform_identify"]
    assert max(gege) - min(gege) <= 0.05 + 3 * np.sqrt(2) * se(max(gege), n)
    assert sh[-1] - gege[-1] >= 0.2
    assert sh[-1] - sh[0] >= 0.2 and uni[-1] - uni[0] >= 0.5
    assert uni[-1] >= 0.9 - 3 * se(0.9, n)
    assert all(b >= a - 3 * np.hypot(se(a, n), se(b, n)) for a, b in zip(uni[:-1], uni[1:], strict=True))


NOC_FC_TAU = 23_474  # LinPSI Sec. 5: GEGE authors_code on NoC, delta = 0.01, mean tau over 200 runs


def error_count_is_plausible(errors: int, n: int, delta: float) -> bool:
    """One-sided binomial test at level 0.01: ``errors`` wrong answers in ``n`` runs are plausible for an error
    probability <= delta (P(Bin(n, delta) >= errors) >= 0.01)."""
    return bool(binom.sf(errors - 1, n, delta) >= 0.01)


@pytest.mark.slow
@needs_noc
def test_noc_fixed_confidence_gege_needs_fewer_samples(noc: bv.Instance, variant) -> None:
    """LinPSI Sec. 5 claim 3 (Fig. 4): delta = 0.01; mean tau(GEGE) < mean tau(APE), < mean tau(PAL); GEGE's mean tau
    matches the calibration (23,474 +- 10% + 3 SE) and its error count passes a binomial test with power.

    Size: 200 seeds for GEGE (~45 s) and for its broken variant, 4 for APE and PAL (~0.3 M pulls); the
    calibrated ratios are 0.65 and 0.62 (sd of tau about 10k, 7k, 7k). With 200 runs the test accepts at most
    6 errors (P(Bin(200, 0.01) >= 7) = 0.005); at the 4x-lax variant's error rate 0.065 it would accept with
    probability 0.02. Measured: GEGE mean tau 23.2k (sd 10.3k), 1 error; thresholds 4x too lax: mean tau 2.3k
    (tolerance 2.6k, off by 21k), 13 errors (> 6).
    """
    seeds = range(200)
    runs = {name: [bv.run(noc, name, 400_000, seed=s, snapshots=0, delta=0.01) for s in range(n)]
            for name, n in (("gege_fc", len(seeds)), ("ape", 4), ("pal_linear", 4))}
    assert all(tr.stopped_at is not None for v in runs.values() for tr in v)
    tau = {k: np.mean([tr.stopped_at for tr in v]) for k, v in runs.items()}
    assert tau["gege_fc"] < tau["ape"] and tau["gege_fc"] < tau["pal_linear"]
    for name, v in runs.items():
        errors = sum(tr.recommendation != noc.pareto_set for tr in v)
        assert error_count_is_plausible(errors, len(v), 0.01), (name, errors)
    assert mean_tau_matches(np.array([tr.stopped_at for tr in runs["gege_fc"]], dtype=float), NOC_FC_TAU)

    lax = [bv.run(noc, variant("gege_fc", GEGEFCLax4, "thresholds 4x too lax"), 400_000, seed=s, snapshots=0,
                  delta=0.01) for s in seeds]
    assert not mean_tau_matches(np.array([tr.stopped_at for tr in lax], dtype=float), NOC_FC_TAU)
    assert not error_count_is_plausible(sum(tr.recommendation != noc.pareto_set for tr in lax), len(seeds), 0.01)
