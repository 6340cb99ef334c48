"""The compiled loop of the MOL learners on contextual instances (`banditviz.algorithms._contextual_loop`) gives the
Python engine's Trace bit for bit; the compiled draws it shares with the engine are numpy's (contexts, standard normals,
permutations); the compiled simplex of the effective front and gap agrees with HiGHS."""

import numpy as np
import pytest

from banditviz import run
from banditviz._contexts import CONTEXTS, draw_contexts, linear_predictions
from banditviz.algorithms._contextual_loop import MOLLoop
from banditviz.algorithms._linear_loop import MOL_EPS_GREEDY_RULE, MOL_TS_RULE
from banditviz.algorithms.estimators import quadratic_forms
from banditviz.algorithms.molts.front import EffectiveFrontSampler, draw_effective
from banditviz.algorithms.molts.sampling import optimistic_scores
from banditviz.instances import random_contextual
from banditviz.pareto import effective, pareto_mask, simplex, unique_rows
from banditviz.simulate import has_compiled_loop
from tests.same_trace import assert_same_trace

MAIN = random_contextual(50, d=5, L=4, seed=1)  # the paper's main setting (K = 50, d = 5, L = 4)
CASES = [  # (instance, algorithm, params): every learner, option and number of objectives the loop serves
    (MAIN, "mol_ts", {}), (MAIN, "mol_ts_m1", {}), (MAIN, "mol_ucb", {}), (MAIN, "mol_eps_greedy", {}),
    (random_contextual(12, d=3, L=3, seed=2, context="unit_sphere"), "mol_ts", {"c_mode": "theory", "M": 3}),
    (random_contextual(12, d=3, L=3, seed=2, context="gaussian_clipped"), "mol_ts", {"c_mode": "constant", "c": 2.0}),
    (random_contextual(9, d=4, L=2, seed=3), "mol_ts", {"lam": 0.5, "delta": 0.1}),
    (random_contextual(9, d=4, L=1, seed=3), "mol_ts", {}),
    (random_contextual(9, d=4, L=2, seed=3), "mol_ucb", {"c_mode": "theory"}),
    (random_contextual(9, d=4, L=3, seed=3), "mol_ucb", {"c_mode": "constant", "c": 0.3, "lam": 2.0}),
    (random_contextual(9, d=4, L=3, seed=3), "mol_eps_greedy", {"epsilon": 0.4}),
]


@pytest.mark.parametrize("inst,name,params", CASES, ids=lambda v: v if isinstance(v, str) else None)
def test_compiled_contextual_run_equals_the_python_engine_bit_for_bit(inst, name, params):
    """Long enough for a few reward blocks of 256 per arm on the small instances; without snapshots, and with
    snapshots (Watch's runs: the class plays those rounds between the kernel's, on the same streams), their states and
    true means included."""
    assert has_compiled_loop(name, "contextual")
    T = 400 if inst.K == 50 else 1500
    for snapshots in (0, 7):
        fast = run(inst, name, T, 4, snapshots=snapshots, **params)
        slow = run(inst, name, T, 4, snapshots=snapshots, compiled=False, **params)
        assert len(set(fast.arms.tolist())) > 1 and len(fast.snapshots) == snapshots
        assert_same_trace(fast, slow)


def test_the_comparison_sees_a_sampling_scale_off(monkeypatch):
    """The broken variant: the compiled loop of MOL-TS with its exploration scale alpha 0.1% off chooses other arms."""
    from banditviz.algorithms import _contextual_loop

    def alpha_off(options):
        options[1][7] *= 1 + 1e-3  # the float options' alpha (`_linear_loop`)
        return options

    slow = run(MAIN, "mol_ts", 300, 1, snapshots=0, compiled=False)
    real = _contextual_loop.kernel_options
    monkeypatch.setattr(_contextual_loop, "kernel_options", lambda *args: alpha_off(real(*args)))
    assert not np.array_equal(run(MAIN, "mol_ts", 300, 1, snapshots=0).arms, slow.arms)


def test_runs_the_loop_does_not_serve_play_in_python():
    """Epsilon-greedy on the effective front stays with the Python class; on fixed features (and a "means" instance's
    one-hot contexts) the MOL learners play in `LinearLoop`."""
    loop = MOLLoop(MOL_TS_RULE)
    assert loop.supports("contextual", {}, 0) and loop.supports("contextual", {}, 5)
    assert loop.supports("linear", {}, 5) and loop.supports("means", {}, 0)
    assert not MOLLoop(MOL_EPS_GREEDY_RULE).supports("contextual", {"exploit_set": "effective"}, 0)


def test_the_comparison_sees_a_snapshot_round_off_by_one(monkeypatch):
    """The broken variant: the class plays the round after each snapshot round (the kernel the snapshot round): the
    states, the true means or the arms differ from the engine's."""
    from banditviz.algorithms import _contextual_loop

    slow = run(MAIN, "mol_ucb", 120, 3, snapshots=5, compiled=False)
    assert_same_trace(run(MAIN, "mol_ucb", 120, 3, snapshots=5), slow)
    real = _contextual_loop.MOLLoop.play
    monkeypatch.setattr(_contextual_loop.MOLLoop, "play", lambda self, alg, rew, T, at: real(self, alg, rew, T, at + 1))
    with pytest.raises(AssertionError):
        assert_same_trace(run(MAIN, "mol_ucb", 120, 3, snapshots=5), slow)


@pytest.mark.parametrize("kind", CONTEXTS)
def test_contexts_are_numpys_draws(kind):
    """`draw_contexts` gives what the numpy formula of `instances.sample_contexts` gave, bit for bit, and leaves the
    generator where numpy leaves it (d = 1..64: sums of fewer than 8, of 8 to 128 terms)."""
    for d in (1, 2, 5, 7, 8, 9, 15, 16, 17, 64):
        a, b = np.random.default_rng(d), np.random.default_rng(d)
        out = np.empty((40, d))
        draw_contexts(a, CONTEXTS.index(kind), out)
        g = b.normal(size=(40, d))
        norms = np.linalg.norm(g, axis=1, keepdims=True)
        expected = {"unit_sphere": g / norms, "gaussian_clipped": g / np.maximum(norms, 1.0)}.get(kind)
        if expected is None:
            expected = g / norms * b.random((40, d)).max(axis=1, keepdims=True)
        assert np.array_equal(out, expected), d
        assert a.random() == b.random()


def test_products_sum_each_arm_in_order():
    """`linear_predictions`, `quadratic_forms` and MOL-TS's `optimistic_scores` (through `arm_dots`, the arms side by
    side) give, bit for bit, each entry summed over d in order from 0.0, which numpy's elementwise sums in that order
    reproduce (the scores' maximum and first maximiser over the M samples, ties included; the same maximum when no
    winners are kept); the broken variant, the same sums in reverse order, differs in the last bits."""
    rng = np.random.default_rng(4)

    def in_order(X, theta, V, order):
        pred, q = np.zeros((len(X), theta.shape[1])), np.zeros(len(X))
        for i in order:
            u = np.zeros(len(X))
            for j in order:
                u = u + V[i, j] * X[:, j]
            pred, q = pred + X[:, i, None] * theta[None, i, :], q + X[:, i] * u
        return pred, q

    reversed_differs = False
    for K, d, L in ((50, 5, 4), (100, 10, 4), (1, 1, 1), (13, 64, 3)):
        X, theta, V = rng.normal(size=(K, d)), np.asfortranarray(rng.normal(size=(d, L))), rng.normal(size=(d, d))
        pred, q = np.empty((K, L)), np.empty(K)
        linear_predictions(X, theta, pred)
        quadratic_forms(X, V, q)
        assert all(np.array_equal(a, b) for a, b in zip((pred, q), in_order(X, theta, V, range(d)), strict=True))
        reversed_differs |= not np.array_equal(pred, in_order(X, theta, V, range(d)[::-1])[0])
        thetas = np.round(rng.normal(size=(L, 3, d)), 0)  # ties between samples
        mu, winner = np.empty((K, L)), np.empty((K, L), np.int64)
        optimistic_scores(X, thetas, mu, winner)
        scores = np.stack([in_order(X, thetas[j].T, V, range(d))[0] for j in range(L)], axis=1)  # K x L x M
        assert np.array_equal(mu, scores.max(axis=2)) and np.array_equal(winner, scores.argmax(axis=2))
        alone = np.empty((K, L))
        optimistic_scores(X, thetas, alone, np.empty((0, L), np.int64))  # the compiled loop's: no winners kept
        assert np.array_equal(alone, mu)
    assert reversed_differs


def test_numbas_generator_draws_numpys_normals_and_permutations():
    """The compiled loop draws MOL-TS's normals and its permutations of the front with numba's sampler."""
    import numba

    @numba.njit
    def draws(rng):
        return rng.standard_normal(200), rng.permutation(17), rng.integers(0, 7), rng.random()

    a, b = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(20):
        z, p, i, u = draws(a)
        assert np.array_equal(z, b.standard_normal(200)) and np.array_equal(p, b.permutation(17))
        assert i == b.integers(7) and u == b.random()


def _degenerate_cases(rng):
    """Random, rounded (ties), duplicated rows, points on a plane (a flat front), single arms and half-step grids (ties
    and degenerate vertices), at magnitudes from 1e-4 to 1e6."""
    for i in range(600):
        K, L = int(rng.integers(1, 30)), int(rng.integers(2, 9))
        mu = [rng.normal(size=(K, L)), np.round(rng.uniform(0, 1, (K, L)), 1),
              np.vstack([rng.normal(size=(K, L))] * 2), rng.dirichlet(np.ones(L), size=K) * 3,
              rng.normal(size=(1, L)), np.round(rng.normal(size=(K, L)) * 2) / 2][i % 6]
        yield mu * [1e-4, 1e-2, 1.0, 1e3, 1e6][i // 6 % 5]


def _agrees(gap, slack) -> bool:
    """``gap(U, target)`` and ``slack(U, r)`` equal HiGHS's optima to 1e-9 max(1, max |U|) on `_degenerate_cases`
    (NaN, no answer, disagrees)."""
    rng = np.random.default_rng(0)
    for mu in _degenerate_cases(rng):
        U = unique_rows(mu[pareto_mask(mu)])[0]
        tol = 1e-9 * max(1.0, np.abs(U).max())
        for a in range(min(len(mu), 4)):
            if not abs(gap(U, mu[a]) - effective._gap_lp(U, mu[a])) <= tol:
                return False
        for r in range(min(len(U), 4)):
            if not abs(slack(U, r) - effective._slack_lp(U, U[r])) <= tol:
                return False
    return True


def test_simplex_equals_highs_on_random_and_degenerate_inputs(monkeypatch):
    """Both LPs, at every magnitude. Rejected: the best single arm instead of the best mixture (the Pareto gap; no
    slack), and the LPs solved on the data as given (not scaled to magnitude ~1), which ended at a wrong optimum or
    at none on degenerate inputs of magnitude 1e-4 or 1e6."""
    assert _agrees(lambda U, t: max(simplex.gap_value(U, t), 0.0), lambda U, r: simplex.slack_value(U, U[r]))
    assert not _agrees(lambda U, t: max(0.0, (U - t).min(axis=1).max()), lambda U, r: 0.0)
    monkeypatch.setattr(simplex, "unit_exponent", lambda U, t: 0)
    assert not _agrees(lambda U, t: max(simplex.gap_value.py_func(U, t), 0.0),
                       lambda U, r: effective._slack_lp(U, U[r]))
    assert not _agrees(lambda U, t: effective._gap_lp(U, t), lambda U, r: simplex.slack_value.py_func(U, U[r]))


def test_compiled_draw_of_the_effective_front_equals_the_python_sampler():
    """Same arm and generator state on random vectors (certificates, the LP) and on ties (the np.unique path)."""
    sampler = EffectiveFrontSampler(4)
    rng = np.random.default_rng(2)
    for i in range(200):
        v = rng.normal(size=(30, 4)) if i % 2 else np.round(rng.normal(size=(30, 4)), 0)
        a, b = np.random.default_rng(i), np.random.default_rng(i)
        assert sampler.draw(v, a) == draw_effective(v, b, sampler.bank)
        assert a.random() == b.random()
