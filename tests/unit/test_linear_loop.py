"""The compiled loop of the linear regret learners (`banditviz.algorithms._linear_loop`) gives the Python engine's
Trace bit for bit, and the ridge estimate's incremental predictions and widths of fixed features agree with an
independent solve."""

import numpy as np
import pytest

from banditviz import ALGORITHMS, Instance, preset, run
from banditviz.algorithms._linear_loop import LinearLoop
from banditviz.algorithms.estimators import SharedRidge
from banditviz.instances import random_linear
from banditviz.simulate import has_fast_loop
from tests.same_trace import assert_same_trace

LEX = preset("lexicographic_lambda_10")  # one-hot features, 5 objectives
LINEAR = random_linear(9, d=4, L=3, seed=2)
MOL4 = random_linear(30, d=5, L=4, seed=6)  # MOL-TS's main shape (L = 4) with fixed features
MEANS = Instance.from_means(np.random.default_rng(3).uniform(0, 1, (6, 3)), sigma=0.5)
CASES = [  # (instance, algorithm, params): every learner, option and kind the loop serves
    (LEX, "ste2lo", {}), (LEX, "ste2lo", {"explore_arm": "random", "pool": "candidates"}),
    (LINEAR, "ste2lo", {"explore_arm": "first", "epsilon": 0.05}),
    (LEX, "mte2lo", {}), (LEX, "mte2lo", {"explore_arm": "random", "W_mode": "actual_max", "lam": 0.5}),
    (MEANS, "mte2lo", {"width_mode": "constant", "width_scale": 0.02}), (LINEAR, "mte2lo", {}),
    (LEX, "pf_lex", {}), (MEANS, "pf_lex", {"explore_arm": "random", "epsilon": 0.2}),
    (LEX, "oful", {}), (LINEAR, "oful", {"S_norm": 2.0, "width_scale": 0.5}), (MEANS, "oful", {}),
    (LINEAR, "mol_ucb", {}), (LINEAR, "mol_ucb", {"c_mode": "theory", "lam": 0.5}),
    (LINEAR, "mol_ucb", {"c_mode": "constant", "c": 0.3}),
    (LINEAR, "mol_eps_greedy", {}), (LINEAR, "mol_eps_greedy", {"epsilon": 0.4, "delta": 0.1}),
    (LINEAR, "mol_ts", {}), (LINEAR, "mol_ts_m1", {"c_mode": "theory"}),
    (MOL4, "mol_ts", {"c_mode": "constant", "c": 0.5, "lam": 2.0}),
    (random_linear(7, d=3, L=2, seed=4), "mol_ts", {"M": 3, "delta": 0.1}),
    (random_linear(7, d=3, L=1, seed=4), "mol_ts", {}),
    (MEANS, "mol_ts", {}), (MEANS, "mol_ts_m1", {}), (MEANS, "mol_ucb", {}), (MEANS, "mol_eps_greedy", {}),
    (LEX, "mol_ts", {"M": 2}),  # one-hot contexts (d = K = 10), L = 5
]


@pytest.mark.parametrize("inst,name,params", CASES, ids=lambda v: v if isinstance(v, str) else None)
def test_compiled_linear_run_equals_the_python_engine_bit_for_bit(inst, name, params):
    """Long enough for several reward refills per arm (blocks of 256), MTE2LO's later stages and PF-LEX's
    exploitation."""
    assert has_fast_loop(name, inst.kind)
    for seed in (0, 5):
        fast = run(inst, name, 2500, seed, snapshots=0, **params)
        slow = run(inst, name, 2500, seed, snapshots=0, compiled=False, **params)
        assert len(set(fast.arms.tolist())) > 1
        assert_same_trace(fast, slow)


@pytest.mark.parametrize("inst,name,params", CASES, ids=lambda v: v if isinstance(v, str) else None)
def test_compiled_linear_run_with_snapshots_equals_the_python_engine_bit_for_bit(inst, name, params):
    """Watch's runs: snapshots (early, dense, the last round) played by the class between the kernel's stretches,
    their pictures, events and rounds per branch the engine's."""
    for seed, horizon, snapshots in ((1, 1500, 40), (4, 300, 300)):
        fast = run(inst, name, horizon, seed, snapshots=snapshots, **params)
        slow = run(inst, name, horizon, seed, snapshots=snapshots, compiled=False, **params)
        assert len(fast.snapshots) == min(horizon, snapshots)
        assert_same_trace(fast, slow)


@pytest.mark.parametrize("name", ["oful", "mte2lo", "pf_lex"])
def test_the_snapshot_comparison_sees_a_class_left_unsynced(monkeypatch, name):
    """The broken variant: the class not told what the kernel played beside the shared arrays (OFUL's log det V,
    the rounds per branch, PF-LEX's second count array) draws other pictures."""
    from banditviz.algorithms import _linear_loop

    slow = run(LEX, name, 800, 2, snapshots=20, compiled=False)
    monkeypatch.setattr(_linear_loop, "_sync", lambda *args: None)
    with pytest.raises(AssertionError):
        assert_same_trace(run(LEX, name, 800, 2, snapshots=20), slow)


def test_the_comparison_sees_a_last_bit_off(monkeypatch):
    """The broken variant: the compiled loop with the width scale 0.1% off chooses other arms."""
    from banditviz.algorithms import _linear_loop

    slow = run(LEX, "mte2lo", 2500, 1, snapshots=0, compiled=False)
    real = _linear_loop.kernel_options

    def nudged(*args):
        ip, fp, coefs = real(*args)
        fp[_linear_loop._SCALE] *= 1 + 1e-3
        return ip, fp, coefs

    monkeypatch.setattr(_linear_loop, "kernel_options", nudged)
    fast = run(LEX, "mte2lo", 2500, 1, snapshots=0)
    assert not (np.array_equal(fast.arms, slow.arms) and np.array_equal(fast.metrics["lex_regret_1"],
                                                                        slow.metrics["lex_regret_1"]))


def test_the_mol_ts_comparison_sees_too_few_samples(monkeypatch):
    """The broken variant: the compiled MOL-TS drawing one sample per objective (the M = 1 ablation's) where the
    class draws Theorem 2's M = 10 chooses other arms."""
    from banditviz.algorithms import _linear_loop

    slow = run(MOL4, "mol_ts", 400, 1, snapshots=0, compiled=False)
    assert np.array_equal(run(MOL4, "mol_ts", 400, 1, snapshots=0).arms, slow.arms)
    real = _linear_loop.mol_ts_scratch

    def one_sample(alg, code, K, d, L):
        bank, S, thetas, mu, winner = real(alg, code, K, d, L)
        return bank, S, thetas[:, :1].copy(), mu, winner

    monkeypatch.setattr(_linear_loop, "mol_ts_scratch", one_sample)
    assert not np.array_equal(run(MOL4, "mol_ts", 400, 1, snapshots=0).arms, slow.arms)


def test_runs_the_loop_does_not_serve_play_in_python():
    """Moving contexts and MOL-epsilon-greedy on the effective front stay with the Python classes; the MOL learners'
    one-hot contexts of a "means" instance play in the loop."""
    assert has_fast_loop("mol_ucb", "means") and has_fast_loop("mol_ts", "means")
    assert has_fast_loop("oful", "means") and not has_fast_loop("ste2lo", "contextual")
    linear = {name for name, spec in ALGORITHMS.items() if isinstance(spec.loop, LinearLoop)
              and any(spec.loop.supports(kind, spec.defaults(), 0) for kind in ("means", "linear"))}
    assert linear == {"ste2lo", "pf_lex", "mte2lo", "oful", "mol_ucb", "mol_eps_greedy", "mol_ts", "mol_ts_m1"}
    for params in ({}, {"exploit_set": "effective"}):
        fast = run(LINEAR, "mol_eps_greedy", 300, 2, snapshots=3, **params)
        slow = run(LINEAR, "mol_eps_greedy", 300, 2, snapshots=3, compiled=False, **params)
        assert np.array_equal(fast.arms, slow.arms) and len(fast.snapshots) == 3
    moving = LINEAR.with_changes(context_noise=0.3)
    assert np.array_equal(run(moving, "oful", 200, 0, snapshots=0).arms,
                          run(moving, "oful", 200, 0, snapshots=0, compiled=False).arms)


@pytest.mark.parametrize("d,L,lam", [(4, 3, 0.7), (10, 1, 1.0)])
def test_fixed_features_predictions_and_widths_match_an_independent_solve(d, L, lam):
    """After 3,000 rank-one steps: X theta_hat and x' V^{-1} x of every arm within 1e-9 of a fresh solve of the
    normal equations; the estimate itself is the same, bit for bit, with or without kept features."""
    rng = np.random.default_rng(d)
    X = rng.normal(size=(12, d))
    kept, plain = SharedRidge(d, L, lam, X), SharedRidge(d, L, lam)
    arms = rng.integers(0, 12, 3000)
    Y = X[arms] @ rng.normal(size=(d, L)) + rng.normal(size=(3000, L))
    for a, y in zip(arms, Y, strict=True):
        assert kept.update(X[a], y) == plain.update(X[a], y)
    V = lam * np.eye(d) + X[arms].T @ X[arms]
    theta = np.linalg.solve(V, X[arms].T @ Y)
    np.testing.assert_allclose(kept.predict(), X @ theta, rtol=0, atol=1e-9)
    np.testing.assert_allclose(kept.widths() ** 2, np.einsum("kd,de,ke->k", X, np.linalg.inv(V), X), rtol=0, atol=1e-9)
    np.testing.assert_allclose(kept.predict(), kept.predict(X), rtol=0, atol=1e-9)
    assert np.array_equal(kept.theta, plain.theta) and np.array_equal(kept.V_inv, plain.V_inv)
    wrong = SharedRidge(d, L, lam * 1.01, X)  # the broken variant: another regulariser
    for a, y in zip(arms, Y, strict=True):
        wrong.update(X[a], y)
    assert np.abs(wrong.widths() ** 2 - np.einsum("kd,de,ke->k", X, np.linalg.inv(V), X)).max() > 1e-9
