"""MOL-TS and its baselines (MOL-TS Sec. 4): each formula against an independent computation.

Independent references used here: batch ridge least squares, brute-force Pareto dominance loops, and a
slack / gap LP written from the MOL-TS Def. 5-6 formulas directly with scipy (not banditviz.pareto).
"""

import numpy as np
import pytest
from scipy.optimize import linprog
from scipy.stats import chi2

from banditviz import ALGORITHMS, Instance, Trace, pareto, preset, run
from banditviz.algorithms.base import ACTIVE, CANDIDATE, Problem
from banditviz.algorithms.molts.core import confidence_radius, theorem2_samples
from banditviz.algorithms.molts.front import TOL, EffectiveFrontSampler
from banditviz.algorithms.molts.learners import MOLTS
from banditviz.environment import Environment
from banditviz.instances import random_contextual, random_linear
from banditviz.pareto.kernels import pair_beats, pair_mixture_dominates
from banditviz.presets.molts import SETTINGS

MOL = ["mol_ts", "mol_ts_m1", "mol_ucb", "mol_eps_greedy", "oracle_effective", "oracle_pareto", "random_arm"]


# ---------------------------------------------------------------- independent references
def brute_pareto(v: np.ndarray) -> set[int]:
    K = len(v)
    return {a for a in range(K)
            if not any(np.all(v[b] >= v[a]) and np.any(v[b] > v[a]) for b in range(K) if b != a)}


def lp_effective(v: np.ndarray) -> set[int]:
    """Arms whose additive-DEA slack LP over all arms is 0 (MOL-TS Def. 5), one LP per arm."""
    K, L = v.shape
    out = set()
    for a in range(K):
        A_eq = np.vstack([np.hstack([v.T, -np.eye(L)]), np.concatenate([np.ones(K), np.zeros(L)])])
        res = linprog(np.concatenate([np.zeros(K), -np.ones(L)]), A_eq=A_eq, b_eq=np.append(v[a], 1.0),
                      bounds=(0, None), method="highs")
        if -res.fun <= 1e-9 * max(1.0, np.abs(v).max()):
            out.add(a)
    return out


def lp_effective_gap(v: np.ndarray, a: int) -> float:
    """max s s.t. sum_b beta_b v_b - s 1 >= v_a, beta in the simplex (MOL-TS Def. 6)."""
    K, L = v.shape
    res = linprog(np.append(np.zeros(K), -1.0), A_ub=np.hstack([-v.T, np.ones((L, 1))]), b_ub=-v[a],
                  A_eq=np.append(np.ones(K), 0.0)[None, :], b_eq=[1.0],
                  bounds=[(0, None)] * K + [(None, None)], method="highs")
    return max(0.0, -res.fun)


def replay_contexts(inst: Instance, seed: int, T: int) -> np.ndarray:
    """The contexts of rounds 1..T of a run: the context stream depends only on (instance, seed)."""
    if inst.kind == "linear":
        return np.broadcast_to(inst.features, (T, *inst.features.shape))
    env = Environment(inst, seed)
    out = []
    for _ in range(T):
        env.next_round()
        out.append(env.context)
    return np.array(out)


# ---------------------------------------------------------------- constants
def test_confidence_radius_and_samples_match_the_spec_tables():
    """MOL-TS Sec. 5 table of c_{1,t} (d=5, L=4, lambda=1, delta=0.05, R=1) and MOL-TS Alg. 1 of M."""
    table = {1: 5.68, 10: 6.20, 100: 7.09, 1000: 7.96, 2000: 8.20, 10000: 8.74}
    for t, value in table.items():
        assert confidence_radius(t, 5, 4) == pytest.approx(value, abs=0.005)
    assert [theorem2_samples(L) for L in (1, 2, 4, 8)] == [1, 6, 10, 14]
    with pytest.raises(ValueError, match="t:"):
        confidence_radius(0, 5, 4)


def test_registry_entries():
    for name in MOL:
        spec = ALGORITHMS[name]
        assert spec.task == "regret" and set(spec.kinds) == {"contextual", "linear", "means"}  # means: identity
    assert ALGORITHMS["mol_ts"].defaults() == {"M": 0, "c_mode": "scaled", "alpha": 0.1, "c": 1.0,
                                               "lam": 1.0, "delta": 0.05}
    assert ALGORITHMS["mol_eps_greedy"].defaults()["epsilon"] == 0.05
    assert "M" not in ALGORITHMS["mol_ts_m1"].defaults()


@pytest.mark.parametrize("params", [{"M": -1}, {"c_mode": "huge"}, {"alpha": -0.1}, {"lam": 0.0}, {"eps": 1}])
def test_bad_parameters_raise(params):
    with pytest.raises(ValueError, match="mol_ts"):
        run(preset("mol_ts_2d"), "mol_ts", 5, **params)


def test_a_distributions_instance_is_rejected():
    """Fixed means run through the identity context (tests/unit/test_molts_identity.py); scalar distributions not."""
    with pytest.raises(ValueError, match="instance kinds"):
        run(preset("risk_averse_table1"), "mol_ts", 5)


# ---------------------------------------------------------------- ridge state and sampling
@pytest.mark.parametrize("inst", [random_contextual(12, 4, 3, seed=1), random_linear(12, 4, 3, seed=1, sigma=1.0)],
                         ids=["contextual", "linear"])
def test_ridge_matches_batch_least_squares(inst):
    """theta_hat at round T (before its update) = (X'X + lam I)^{-1} X'Y over rounds 1..T-1 (MOL-TS Sec. 4)."""
    T = 150
    tr = run(inst, "mol_ts", T, seed=5, snapshots=T)
    X = replay_contexts(inst, 5, T)[np.arange(T), tr.arms]
    last = tr.snapshots[-1]
    assert last.t == T
    Xp, Y = X[:-1], tr.rewards[:-1]
    batch = np.linalg.solve(Xp.T @ Xp + np.eye(inst.d), Xp.T @ Y)
    np.testing.assert_allclose(last.extras["theta_hat"], batch, atol=1e-8)
    V = Xp.T @ Xp + np.eye(inst.d)
    assert last.extras["log_det_V"] == pytest.approx(np.log(np.linalg.det(V)), abs=1e-8)
    assert last.extras["trace_V_inv"] == pytest.approx(np.trace(np.linalg.inv(V)), abs=1e-10)
    np.testing.assert_allclose(last.estimates, replay_contexts(inst, 5, T)[-1] @ batch, atol=1e-8)


def _fed_ts(M: int = 3, n: int = 40, d: int = 3, L: int = 2) -> tuple[MOLTS, np.ndarray]:
    """A MOL-TS driven by hand for n rounds on fixed contexts; returns it and the Gram matrix V."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, d)) / 2
    alg = ALGORITHMS["mol_ts"].make(M=M)
    alg.reset(Problem(K=6, L=L, kind="linear", horizon=n, noise="gaussian", sigma=1.0,
                      objective_names=tuple(f"o{i}" for i in range(L)), context=X), np.random.default_rng(1))
    V = np.eye(d)
    for t in range(1, n + 1):
        arm = alg.select(t)
        alg.update(arm, rng.normal(size=L))
        V += np.outer(X[arm], X[arm])
    return alg, V


def test_thompson_samples_have_covariance_c2_V_inverse():
    """theta~ ~ N(theta_hat, c^2 V^{-1}) (MOL-TS Alg. 1): Monte-Carlo mean and covariance, loose tolerance."""
    alg, V = _fed_ts()
    alg._observe(41)
    alg.M = 4000  # many draws of the same round's sampling distribution
    c = 0.7
    draws = alg.sample_parameters(c)  # (L, M, d)
    target = c**2 * np.linalg.inv(V)
    for l in range(alg.L):
        np.testing.assert_allclose(draws[l].mean(axis=0), alg.ridge.theta[:, l], atol=4 * c / np.sqrt(4000))
        cov = np.cov(draws[l].T)
        assert np.linalg.norm(cov - target) / np.linalg.norm(target) < 0.08


def test_optimistic_vectors_are_per_arm_maxima_over_shared_samples():
    """mu~_a^(l) = max_m x_a' theta~_m^(l) with ONE sample set shared by all arms (Eq. 2, D17)."""
    inst = random_linear(20, 4, 3, seed=2, sigma=1.0)
    tr = run(inst, "mol_ts", 80, seed=3, snapshots=10)
    X = inst.features
    winners_differ = False
    for s in tr.snapshots:
        th = s.extras["theta_samples"]
        assert th.shape == (3, theorem2_samples(3), 4)
        scores = np.einsum("kd,lmd->klm", X, th)
        np.testing.assert_allclose(s.extras["samples"], scores.max(axis=2), atol=1e-12)
        winners_differ |= len(np.unique(s.extras["winning_sample"][:, 0])) > 1
    assert winners_differ, "different arms should pick different samples"


def test_mol_ts_front_is_the_effective_front_of_its_samples():
    """Status/front = the effective Pareto front of mu~ (Eq. 3); the pulled arm belongs to it."""
    tr = run(preset("mol_ts_3d"), "mol_ts", 60, seed=4, snapshots=12)
    for s in tr.snapshots:
        v = s.extras["samples"]
        effective = lp_effective(v)
        assert set(s.front) == effective == set(s.extras["effective_front"])
        assert set(s.extras["pareto_front"]) == brute_pareto(v)
        assert s.pulled in effective
        assert np.array_equal(s.status == CANDIDATE, np.isin(np.arange(len(v)), list(effective)))
        assert set(np.unique(s.status)) <= {ACTIVE, CANDIDATE}


def test_mol_ts_pick_is_uniform_over_the_effective_front():
    """With c = 0, mu~ = mu_hat; repeated picks on fixed contexts are uniform over its effective front (D9)."""
    alg, _ = _fed_ts(M=2)
    alg.params.update(c_mode="constant", c=0.0)
    picks = np.array([alg.select(41) for _ in range(3000)])
    effective = lp_effective(alg.estimates)
    assert set(np.unique(picks)) == effective and len(effective) >= 2
    counts = np.bincount(picks, minlength=alg.K)[sorted(effective)]
    expected = len(picks) / len(effective)
    assert ((counts - expected) ** 2 / expected).sum() < chi2.ppf(0.999, len(effective) - 1)


def _random_vectors(rng: np.random.Generator, i: int) -> np.ndarray:
    """Continuous, rounded (tie-heavy) or on-a-sphere vectors, K in [2, 25], L in [3, 5]."""
    v = rng.normal(size=(int(rng.integers(2, 26)), int(rng.integers(3, 6))))
    if i % 3 == 0:
        return np.round(v)
    return v / np.linalg.norm(v, axis=1, keepdims=True) if i % 3 == 1 else v


def test_single_arm_membership_is_exact():
    """Each certificate-or-LP decision of the sampler equals the slack LP over all arms (independent)."""
    rng = np.random.default_rng(11)
    for i in range(60):
        v = _random_vectors(rng, i)
        front = np.flatnonzero(np.isin(np.arange(len(v)), list(brute_pareto(v))))
        U, row = np.unique(v[front], axis=0, return_inverse=True)
        scale = max(1.0, np.abs(v).max())
        err = 8 * v.shape[1] * np.finfo(float).eps * scale
        sampler = EffectiveFrontSampler(v.shape[1])
        got = {int(a) for k, a in enumerate(front) if sampler.is_effective(U, int(np.ravel(row)[k]), TOL * scale, err)}
        assert got == lp_effective(v), i


def test_cone_weight_certifies_an_arm_supported_near_the_simplex_edge(monkeypatch):
    """(1, 0, 0, 0) beats (0.9995, 0.5, 0.5, 0) only under weights with w2 + w3 <= 0.001 w1: the weight bank (its
    corners are 1e-3 off) misses it, the perceptron's weight certifies it without an LP; with a useless weight (the
    broken variant) the LP is needed. For L = 3 the weight region (`pareto.weight_region`) certifies it even then."""
    from banditviz.pareto import kernels

    U = np.array([(1.0, 0.0, 0.0, 0.0), (0.9995, 0.5, 0.5, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0),
                  (0.0, 0.0, 0.0, 1.0)])
    sampler = EffectiveFrontSampler(4)
    assert sampler.is_effective(U, 0, TOL, 1e-15) and sampler.lps == 0
    monkeypatch.setattr(kernels, "cone_weight", lambda U, a, steps=64: np.full(U.shape[1], 1 / U.shape[1]))
    assert sampler.is_effective(U, 0, TOL, 1e-15) and sampler.lps == 1
    sampler3 = EffectiveFrontSampler(3)
    assert sampler3.is_effective(U[:4, :3], 0, TOL, 1e-15) and sampler3.lps == 0


def test_pair_mixture_certificate():
    """The certificate needs slack in every objective: (.9, .9, 0) under the midpoint (1, 1, 0) of (2, 0, 0) and
    (0, 2, 0) ties objective 3, so it is left to the LP; (.9, .9, -.1) is certified outside the front."""
    U = np.array([(2.0, 0.0, 0.0), (0.0, 2.0, 0.0), (0.9, 0.9, 0.0)])
    assert not pair_mixture_dominates(U, 2, 1e-9, 1e-15)
    U[2, 2] = -0.1
    assert pair_mixture_dominates(U, 2, 1e-9, 1e-15)
    assert not pair_mixture_dominates(U, 0, 1e-9, 1e-15)


def _pair_rule(U, a, tol_abs, err, skip):
    """`pair_mixture_dominates` over every pair (b, c) but those ``skip(above_b, above_c)`` leaves out, above_x being
    the objectives where row x is above u_a; each pair by the kernel's own `pair_beats`."""
    above = [frozenset(np.flatnonzero(U[b] > U[a]).tolist()) for b in range(len(U))]
    return any(not skip(above[b], above[c], U.shape[1]) and pair_beats(U, a, b, c, tol_abs, err)
               for b in range(len(U)) for c in range(len(U)))


def test_pair_mixture_skips_only_pairs_that_every_pair_rejects():
    """The compiled certificate skips the pairs with an objective where neither row is above u_a; it answers as
    trying every pair does, on random rows, ties (rounded rows, rows equal to u_a in some objectives), duplicates and
    L = 63 (no bit masks). The broken variant, skipping pairs unless both rows are above u_a in one objective, misses
    mixtures that do dominate."""
    rng = np.random.default_rng(11)
    every = lambda above_b, above_c, L: False  # noqa: E731
    both = lambda above_b, above_c, L: not (above_b & above_c)  # noqa: E731
    outcomes, missed = set(), 0
    for i in range(300):
        n, L = int(rng.integers(2, 12)), int(rng.integers(2, 6)) if i % 50 else 63
        U = [rng.normal(size=(n, L)), np.round(rng.uniform(0, 1, (n, L)), 1), rng.dirichlet(np.ones(L), size=n)][i % 3]
        if i % 4 == 0:
            U = np.vstack([U, U[:2]])
        for a in range(min(len(U), 3)):
            err = pareto.margin(L, max(1.0, float(np.abs(U).max())))
            got = pair_mixture_dominates(U, a, TOL, err)
            assert got == _pair_rule(U, a, TOL, err, every), (i, a)
            outcomes.add(got)
            missed += got and not _pair_rule(U, a, TOL, err, both)
    assert outcomes == {True, False} and missed > 0


def _bank_rule(U, a, W, tol_abs, err, witness_skips=None):
    """`kernels.bank_certifies` in numpy: every weight's support, the scores summed in objective order from 0.0 as the
    kernel sums them; with ``witness_skips(scores of the rows, weight k, witness)``, weights skipped as a broken
    variant would skip them."""
    S = np.zeros((len(U), len(W)))
    for j in range(U.shape[1]):
        S = S + U[:, j, None] * W[None, :, j]
    certified = S.max(axis=0) - S[a] + err <= tol_abs * W.min(axis=1)
    if witness_skips is None:
        return bool(certified.any())
    witness = -1
    for k in range(len(W)):
        if witness >= 0 and witness_skips(S[:, k], a, witness):
            continue
        if certified[k]:
            return True
        witness = int(np.argmax(S[:, k]))
    return False


def test_weight_bank_certificate_with_a_witness_answers_as_every_weight_does():
    """`bank_certifies` drops a weight at its first row beyond the tolerance, trying first the row that failed the last
    weight; it answers as computing every weight's support does, on random rows, ties and rows within 1e-11 of u_a
    (certified only through the tolerance). The broken variant, a witness that skips a weight whenever it scores
    above u_a at all, misses the arms certified within the tolerance."""
    from banditviz.pareto.kernels import bank_certifies

    rng = np.random.default_rng(12)
    bank = EffectiveFrontSampler(4).bank
    above = lambda scores, a, witness: scores[witness] > scores[a]  # noqa: E731
    outcomes, missed = set(), 0
    for i in range(150):
        n = int(rng.integers(3, 40))
        U = [rng.normal(size=(n, 4)), np.round(rng.uniform(0, 1, (n, 4)), 1), rng.dirichlet(np.ones(4), size=n)][i % 3]
        if i % 2:
            U[1] = U[0]
            U[1, i % 4] += 1e-11
        for a in range(3):
            scale = max(1.0, float(np.abs(U).max()))
            err = pareto.margin(4, scale)
            got = bank_certifies(U, a, bank, TOL * scale, err)
            assert got == _bank_rule(U, a, bank, TOL * scale, err), (i, a)
            outcomes.add(got)
            missed += got and not _bank_rule(U, a, bank, TOL * scale, err, above)
    assert outcomes == {True, False} and missed > 0


def test_sampler_draws_uniformly_from_the_effective_front():
    """First effective arm of a random order of P = uniform over C (L = 3 and 4, fixed vectors)."""
    rng = np.random.default_rng(5)
    for L in (3, 4):
        v = rng.normal(size=(25, L))
        effective = sorted(lp_effective(v))
        assert 3 <= len(effective) < len(brute_pareto(v))
        sampler = EffectiveFrontSampler(L)
        draws = np.array([sampler.draw(v, rng) for _ in range(150 * len(effective))])
        assert set(np.unique(draws)) == set(effective)
        counts = np.bincount(draws, minlength=25)[effective]
        assert ((counts - 150) ** 2 / 150).sum() < chi2.ppf(0.999, len(effective) - 1)
        assert sampler.tests / len(draws) < len(brute_pareto(v))  # cheaper than deciding the whole front


def test_one_objective_mol_ts_with_one_sample_is_lints():
    """L = 1, M = 1: the candidate set is the argmax of x' theta~, the LinTS choice (our exact checks)."""
    inst = random_linear(15, 3, 1, seed=6, sigma=1.0)
    tr = run(inst, "mol_ts_m1", 50, seed=1, snapshots=50)
    for s in tr.snapshots:
        scores = inst.features @ s.extras["theta_samples"][0, 0]
        assert s.front == (int(np.argmax(scores)),) == (s.pulled,)


def test_ucb_vectors_boxes_and_front():
    """U = x' theta_hat + gamma_t ||x||_{V^-1}, gamma_t = 0.1 c_1t; plain Pareto front of U (MOL-TS Sec. 6)."""
    inst = random_contextual(12, 3, 2, seed=7)
    T = 40
    tr = run(inst, "mol_ucb", T, seed=2, snapshots=T)
    contexts = replay_contexts(inst, 2, T)
    V = np.eye(3)
    for s in tr.snapshots:
        X = contexts[s.t - 1]
        width = np.sqrt(np.einsum("kd,de,ke->k", X, np.linalg.inv(V), X))
        gamma = 0.1 * confidence_radius(s.t, 3, 2)
        np.testing.assert_allclose(s.upper, s.estimates + gamma * width[:, None], atol=1e-10)
        np.testing.assert_allclose(s.lower, s.estimates - gamma * width[:, None], atol=1e-10)
        assert set(s.front) == brute_pareto(s.upper) and s.pulled in s.front
        x = X[s.pulled]
        V += np.outer(x, x)


def test_epsilon_greedy_exploits_the_estimates_front_and_explores_uniformly():
    inst = random_contextual(10, 3, 2, seed=8)
    greedy = run(inst, "mol_eps_greedy", 60, seed=1, snapshots=60, epsilon=0.0)
    for s in greedy.snapshots:
        assert s.pulled in brute_pareto(s.estimates) == set(s.front)
        assert not s.extras["explored"]
    effective = run(inst, "mol_eps_greedy", 30, seed=1, snapshots=30, epsilon=0.0, exploit_set="effective")
    for s in effective.snapshots:
        assert s.pulled in lp_effective(s.estimates) == set(s.front)
    fixed = random_linear(10, 3, 2, seed=8, sigma=1.0)  # fixed means: the engine's regrets are free here
    counts = np.bincount(run(fixed, "mol_eps_greedy", 2000, seed=1, snapshots=0, epsilon=1.0).arms, minlength=10)
    assert ((counts - 200) ** 2 / 200).sum() < chi2.ppf(0.999, 9)


# ---------------------------------------------------------------- engine metrics (MOL-TS Sec. 3.3-3.4, MOL-TS Sec. 3)
def test_engine_regrets_match_independent_pareto_and_lp_gaps():
    """Per-round Delta^PR (max-min, brute force) and Delta^EPR (LP of MOL-TS Def. 6) of the pulled arm, PR <= EPR."""
    inst = random_contextual(15, 4, 3, seed=9)
    T = 60
    tr = run(inst, "mol_ts", T, seed=0, snapshots=T)
    assert np.array_equal(tr.snapshot_rounds, np.arange(1, T + 1))
    for t in range(T):
        mu, a = tr.snapshot_means[t], tr.arms[t]
        pr = max(0.0, max(min(mu[b] - mu[a]) for b in range(len(mu))))
        assert tr.metrics["pareto_regret"][t] == pytest.approx(pr, abs=1e-12)
        assert tr.metrics["effective_regret"][t] == pytest.approx(lp_effective_gap(mu, a), abs=1e-8)
    assert np.all(tr.metrics["pareto_regret"] <= tr.metrics["effective_regret"] + 1e-12)


def test_oracles_have_zero_regret_of_their_kind():
    inst = preset("mol_ts_3d")
    c = run(inst, "oracle_effective", 150, seed=3, snapshots=0)
    p = run(inst, "oracle_pareto", 150, seed=3, snapshots=0)
    r = run(inst, "random_arm", 150, seed=3, snapshots=0)
    assert np.all(c.metrics["effective_regret"] <= 1e-9) and np.all(p.metrics["pareto_regret"] == 0)
    assert p.metrics["effective_regret"].sum() > 0.1  # Pareto-but-not-effective picks cost effective regret
    assert r.metrics["pareto_regret"].sum() > p.metrics["pareto_regret"].sum() + 1


def test_oracle_refuses_to_run_without_the_truth():
    alg = ALGORITHMS["oracle_pareto"].make()
    alg.reset(Problem(K=3, L=2, kind="linear", horizon=5, noise="gaussian", sigma=1.0, objective_names=("a", "b"),
                      context=np.eye(3)), np.random.default_rng(0))
    with pytest.raises(ValueError, match="true means"):
        alg.select(1)


# ---------------------------------------------------------------- determinism, state, traces
@pytest.mark.parametrize("name", MOL)
def test_same_seed_same_run(name):
    inst = preset("mol_ts_2d")
    a, b = run(inst, name, 120, seed=4, snapshots=20), run(inst, name, 120, seed=4, snapshots=20)
    assert np.array_equal(a.arms, b.arms)
    for key in a.metrics:
        assert np.array_equal(a.metrics[key], b.metrics[key])
    assert [s.events for s in a.snapshots] == [s.events for s in b.snapshots]
    if name != "oracle_effective":  # in 2-D the oracle's single-arm picks may coincide across seeds
        assert not np.array_equal(a.arms, run(inst, name, 120, seed=5, snapshots=0).arms)


@pytest.mark.parametrize("name", ["mol_ts", "mol_ucb", "mol_eps_greedy"])
def test_round_state_pictures(name, tmp_path):
    """Cube boxes (same half-width in every objective, our drawing), hull drawings, events; the trace reloads."""
    for inst in (preset("mol_ts_2d"), preset("mol_ts_3d"), preset("mol_ts_main")):
        tr = run(inst, name, 25, seed=1, snapshots=5)
        for s in tr.snapshots:
            half = (s.upper - s.lower) / 2
            np.testing.assert_allclose(half, half[:, :1].repeat(inst.L, axis=1), atol=1e-12)
            assert s.extras["samples" if name != "mol_eps_greedy" else "widths"].shape[0] == inst.K
            assert set(s.extras["effective_front"]) <= set(s.extras["pareto_front"])
            hull = s.extras["hull"]
            if inst.L == 2:
                assert set(hull.tolist()) == set(s.extras["effective_front"])
                assert np.all(np.diff(s.extras.get("samples", s.estimates)[hull, 0]) >= 0)
            elif inst.L == 3:
                assert hull.ndim == 2 and hull.shape[1] == 3
                assert set(hull.ravel().tolist()) <= set(s.extras["pareto_front"])
            else:
                assert hull is None
            assert any("drawn uniformly" in e or "the only arm of" in e for e in s.events)
            assert any("effective front" in e for e in s.events)
        back = Trace.load(tr.save(tmp_path / f"{name}_{inst.L}.npz"))
        assert back.snapshots[-1].front == tr.snapshots[-1].front
        assert back.snapshots[-1].extras["effective_front"] == tr.snapshots[-1].extras["effective_front"]


def test_state_explains_pareto_but_not_effective_arms():
    """The inspector names Pareto-optimal arms beaten by a mixture (the Figure-1 situation)."""
    tr = run(preset("mol_ts_2d"), "mol_ucb", 200, seed=0, snapshots=200)
    beaten = [s for s in tr.snapshots if set(s.extras["pareto_front"]) - set(s.extras["effective_front"])]
    assert beaten, "the 2D preset should show Pareto arms off the effective front"
    s = beaten[0]
    arms = sorted(set(s.extras["pareto_front"]) - set(s.extras["effective_front"]))
    named = f"arm {arms[0]} is" if len(arms) == 1 else f"arms {', '.join(map(str, arms[:-1]))} and {arms[-1]} are"
    assert any(f"{named} Pareto optimal but beaten" in e for e in s.events)


# ---------------------------------------------------------------- presets
def test_paper_presets_match_the_settings_table():
    """MOL-TS App. F: (K, d, L) per figure; unit-norm theta; Fig. 11 is the non-contextual one."""
    assert SETTINGS[2] == (50, 5, 4, True) and SETTINGS[11] == (100, 10, 4, False)
    for fig, (K, d, L, contextual) in SETTINGS.items():
        inst = preset("mol_ts_main" if fig == 2 else f"mol_ts_fig{fig}", seed=1)
        assert (inst.K, inst.d, inst.L) == (K, d, L)
        assert inst.kind == ("contextual" if contextual else "linear")
        np.testing.assert_allclose(np.linalg.norm(inst.theta, axis=0), 1.0)
        assert inst.sigma == 1.0 and "10,000" in inst.description
    assert not np.array_equal(preset("mol_ts_main", seed=0).theta, preset("mol_ts_main", seed=1).theta)
    assert np.all(np.linalg.norm(preset("mol_ts_fig11").features, axis=1) <= 1)
    with pytest.raises(ValueError, match="seed"):
        preset("mol_ts_main", seed=-1)
    with pytest.raises(ValueError, match="round"):
        preset("mol_ts_figure1", round=4)


def test_fig11_linear_preset_runs_mol_algorithms_and_pfiwr():
    """Fig. 11 (non-contextual, the only setting where PFIwR runs, MOL-TS Sec. 4): fixed means, so the engine
    charges the instance's per-arm gaps."""
    inst = preset("mol_ts_fig11")
    for name in ("mol_ts", "mol_ucb", "pfiwr"):
        tr = run(inst, name, 20, seed=0, snapshots=2)
        np.testing.assert_allclose(tr.metrics["pareto_regret"], inst.pareto_gaps[tr.arms])
        np.testing.assert_allclose(tr.metrics["effective_regret"], inst.effective_gaps[tr.arms])
