"""PFIwR Fig. 1: uniformly random arms, estimator (10) against ridge, and the engine's estimation_error."""

import numpy as np
import pytest

import banditviz
from banditviz.algorithms.pfiwr.core import lambda_t
from banditviz.environment import Environment
from banditviz.presets.pfiwr import pfi_estimation
from banditviz.simulate import run


def _pulled(inst, seed: int, arms: np.ndarray) -> np.ndarray:
    """The contexts of the pulled arms, re-drawn from a fresh environment of the same seed."""
    env = Environment(inst, seed)
    rows = []
    for arm in arms:
        env.next_round()
        rows.append(env.context[arm].copy())
    return np.array(rows)


@pytest.mark.parametrize("rho", [0.0, 0.9])
def test_fig1_instance_as_the_paper_describes(rho):
    inst = pfi_estimation(rho)
    assert (inst.K, inst.d, inst.L, inst.context_noise) == (10, 10, 1, 0.3)
    np.testing.assert_allclose(inst.theta[:, 0], np.ones(10) / np.sqrt(10))
    assert np.linalg.norm(inst.features, axis=1).max() == pytest.approx(0.7)
    corr = np.corrcoef(inst.features)  # arms are correlated through every coordinate when rho = 0.9
    assert (corr[np.triu_indices(10, 1)].mean() > 0.5) == (rho == 0.9)


def test_both_estimators_see_the_same_data_and_fit_it_as_stated():
    """Independent fits on the re-drawn contexts: ridge (lam = 1) and ridge with p lambda_t (no round is dropped
    at p = 0.5: each is dropped with probability about delta / (6 t^3))."""
    inst, n, seed = pfi_estimation(0.0), 300, 2
    proposed = run(inst, "uniform_estimator", n, seed, snapshots=1, estimator="pfiwr")
    ridge = run(inst, "uniform_estimator", n, seed, snapshots=1, estimator="ridge")
    np.testing.assert_array_equal(proposed.arms, ridge.arms)
    np.testing.assert_array_equal(proposed.rewards, ridge.rewards)
    X = _pulled(inst, seed, proposed.arms)
    y = proposed.rewards
    for trace, reg in ((proposed, 0.5 * lambda_t(n, 10, 1, 0.1)), (ridge, 1.0)):
        theta = np.linalg.solve(X.T @ X + reg * np.eye(10), X.T @ y)
        np.testing.assert_allclose(trace.snapshots[-1].extras["theta_hat"], theta.T, rtol=1e-9, atol=1e-12)
        assert trace.metrics["estimation_error"][-1] == pytest.approx(np.linalg.norm(theta - inst.theta), rel=1e-9)
    assert len(set(np.bincount(proposed.arms, minlength=10))) > 1  # random arms, not round-robin


def test_sweep_records_the_error_at_the_round_not_its_sum():
    inst = pfi_estimation(0.9)
    table = banditviz.sweep({"f1": inst}, [("uniform_estimator", {"estimator": "ridge"})], [1], 100, record_every=50)
    trace = run(inst, "uniform_estimator", 100, 1, snapshots=0, estimator="ridge")
    assert "cum_estimation_error" not in table
    np.testing.assert_array_equal(table["estimation_error"], trace.metrics["estimation_error"][[49, 99]])
    assert table["cum_pareto_regret"].iloc[-1] == pytest.approx(trace.metrics["pareto_regret"].sum())


def test_only_estimating_learners_get_an_estimation_error():
    trace = run(banditviz.preset("pfi_sensitivity", context_noise=0.3), "pfiwr", 30, 0, snapshots=0)
    assert "estimation_error" not in trace.metrics
