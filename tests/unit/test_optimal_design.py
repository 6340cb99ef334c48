"""G-optimal design, rounding, sub-space projection and the projected estimator (LinPSI Sec. 2.2)."""

from __future__ import annotations

import numpy as np
import pytest

from banditviz.algorithms.linpsi import optimal_design
from banditviz.presets.linpsi import SYNTH_THETA, synthetic_features


def multiplicative_design(X: np.ndarray, iters: int = 2000) -> np.ndarray:
    """Independent reference: Titterington's multiplicative algorithm w_i <- w_i g_i / m (monotone in log det)."""
    m = X.shape[1]
    w = np.full(len(X), 1 / len(X))
    for _ in range(iters):
        g = np.einsum("ij,jk,ik->i", X, np.linalg.inv(X.T @ (w[:, None] * X)), X)
        w = w * g / m
    return w


def logdet(X: np.ndarray, w: np.ndarray) -> float:
    return float(np.linalg.slogdet(X.T @ (w[:, None] * X))[1])


def pinv_leverage(X: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """||x_i||^2_{V^+} with a pseudo-inverse (independent of the basis B)."""
    Vp = np.linalg.pinv(X.T @ (counts[:, None] * X))
    return np.einsum("ij,jk,ik->i", X, Vp, X)


@pytest.mark.parametrize("n, m, seed", [(12, 2, 0), (40, 3, 1), (60, 5, 2)])
def test_frank_wolfe_reaches_the_kiefer_wolfowitz_optimum(n: int, m: int, seed: int) -> None:
    X = np.random.default_rng(seed).normal(size=(n, m))
    w, ratio = optimal_design.g_optimal_design(X, tol=1e-6)
    assert ratio <= 1 + 1e-6
    assert w.min() >= 0 and abs(w.sum() - 1) < 1e-12
    g = np.einsum("ij,jk,ik->i", X, np.linalg.inv(X.T @ (w[:, None] * X)), X)
    assert abs(g.max() / m - ratio) < 1e-9  # the certificate is the true max leverage / m
    ref = multiplicative_design(X)
    g_ref = np.einsum("ij,jk,ik->i", X, np.linalg.inv(X.T @ (ref[:, None] * X)), X)
    assert logdet(X, w) >= logdet(X, ref) - 1e-9
    assert logdet(X, w) <= logdet(X, ref) + m * np.log(g_ref.max() / m) + 1e-9  # KW bound on the optimum


def test_linearly_independent_arms_get_the_uniform_design() -> None:
    X = np.random.default_rng(3).normal(size=(4, 4))
    w, ratio = optimal_design.g_optimal_design(X, tol=1e-9)
    np.testing.assert_allclose(w, 0.25, atol=1e-12)
    assert abs(ratio - 1) < 1e-9


def test_synthetic_family_design_is_uniform_on_the_base_arms() -> None:
    """LinPSI Sec. 5.1, synthetic: the G-optimal design puts 1/8 on each base arm for every K."""
    for K in (16, 64):
        X = synthetic_features(K)
        w, _ = optimal_design.g_optimal_design(X, tol=1e-6)
        np.testing.assert_allclose(w[:8], 1 / 8, atol=1e-3)


def test_subspace_basis_of_rank_deficient_features() -> None:
    rng = np.random.default_rng(4)
    X = rng.normal(size=(10, 4))
    X[:, 3] = X[:, 0] + 2 * X[:, 1]  # rank 3
    B = optimal_design.subspace_basis(X)
    assert B.shape == (4, 3)
    np.testing.assert_allclose(B.T @ B, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(X @ B @ B.T, X, atol=1e-12)  # every row lies in the span
    assert optimal_design.subspace_basis(np.zeros((3, 2))).shape == (2, 0)


@pytest.mark.parametrize("seed", range(5))
def test_efficient_rounding_spends_exactly_n_and_keeps_the_allen_zhu_ratio(seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(30, 4))
    w, _ = optimal_design.g_optimal_design(X, tol=1e-6)
    kappa = 1 / 3
    for N in (int(np.ceil(5 * 4 / kappa**2)), 97, 1000):
        s = optimal_design.round_design(w, N, X, "efficient")
        assert s.sum() == N and s.min() >= 0
        rho = pinv_leverage(X, s.astype(float)).max() * N / 4
        assert abs(rho - optimal_design.rounding_ratio(X, s)) < 1e-8
        assert rho <= 1 + 6 * kappa


def test_efficient_rounding_is_an_apportionment_of_the_weights() -> None:
    """Hand-checked: weights (0.5, 0.3, 0.2) and N = 10 give exactly (5, 3, 2)."""
    X = np.eye(3)
    s = optimal_design.round_design(np.array([0.5, 0.3, 0.2]), 10, X, "efficient")
    assert s.tolist() == [5, 3, 2]
    s = optimal_design.round_design(np.array([0.5, 0.3, 0.2]), 11, X, "efficient")
    assert s.sum() == 11 and all(abs(s - 11 * np.array([0.5, 0.3, 0.2])) < 1)


def test_ceil_rounding_covers_n_w_and_prunes_negligible_weights() -> None:
    rng = np.random.default_rng(5)
    X = rng.normal(size=(20, 3))
    w, _ = optimal_design.g_optimal_design(X, tol=1e-6)
    s = optimal_design.round_design(w, 326.58, X, "ceil")
    big = w >= optimal_design.PRUNE * w.max()
    assert np.all(s[big] >= np.ceil(326.58 * w[big] - 1e-9) - 1e-9)
    assert np.all(s[~big] == 0)
    assert optimal_design.rounding_ratio(X, s) * 326.58 / s.sum() <= 1 + 1e-9  # V^s >= N V^w


def test_rounding_keeps_the_span_and_rejects_too_few_pulls() -> None:
    X = np.eye(3)
    s = optimal_design.round_design(np.array([0.98, 0.01, 0.01]), 3, X, "efficient")
    assert s.tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match="N"):
        optimal_design.round_design(np.full(3, 1 / 3), 2, X, "efficient")
    with pytest.raises(ValueError, match="rounding"):
        optimal_design.round_design(np.full(3, 1 / 3), 9, X, "floor")


def test_projected_estimator_is_exact_without_noise_even_on_a_rank_deficient_active_set() -> None:
    """LinPSI Sec. 5: sigma = 0 gives mu_hat = mu for every active arm, including rank(X_A) < h."""
    rng = np.random.default_rng(6)
    h, L = 5, 2
    Theta = rng.normal(size=(h, L))
    X = rng.normal(size=(8, h))
    X[:, 4] = X[:, 0] - X[:, 1]
    X[:, 3] = 0.5 * X[:, 2]  # active set of rank 3 < h
    B = optimal_design.subspace_basis(X)
    w, _ = optimal_design.g_optimal_design(X @ B, tol=1e-6)
    counts = optimal_design.round_design(w, 50, X @ B, "efficient")
    sums = counts[:, None] * (X @ Theta)
    theta_hat = optimal_design.span_estimate(X, B, counts.astype(float), sums)
    np.testing.assert_allclose(X @ theta_hat, X @ Theta, atol=1e-9)


def test_pull_sequence_interleaves_and_keeps_counts() -> None:
    seq = optimal_design.pull_sequence(np.array([3, 5, 7, 9]), np.array([1, 2, 4, 0]))
    assert sorted(seq.tolist()) == [3, 5, 5, 7, 7, 7, 7]
    assert seq.tolist() == [7, 5, 7, 3, 7, 5, 7]  # positions (j + 1/2) / count, stable


def test_cached_design_returns_independent_copies() -> None:
    X = np.random.default_rng(7).normal(size=(15, 3))
    w1, r1 = optimal_design.cached_design(X, 1e-4)
    w1[:] = 0
    w2, r2 = optimal_design.cached_design(X, 1e-4)
    assert r1 == r2 and abs(w2.sum() - 1) < 1e-12
    np.testing.assert_array_equal(w2, optimal_design.g_optimal_design(X, 1e-4)[0])


def test_synthetic_means_are_the_base_parameters() -> None:
    X = synthetic_features(8)
    np.testing.assert_array_equal(X @ SYNTH_THETA, SYNTH_THETA)


def test_pull_sequence_shrinks_a_batch_larger_than_the_limit_in_proportion():
    seq = optimal_design.pull_sequence(np.arange(10), np.full(10, 5 * 10**12), limit=50)
    assert len(seq) == 50 and np.array_equal(np.bincount(seq, minlength=10), np.full(10, 5))
    seq = optimal_design.pull_sequence(np.array([4, 7]), np.array([30, 10]), limit=8)
    assert np.array_equal(np.bincount(seq, minlength=8)[[4, 7]], [6, 2])
    assert len(optimal_design.pull_sequence(np.array([4, 7]), np.array([3, 1]), limit=100)) == 4
