"""Independent checks of confidence widths, schedules and selection rules that no other test recomputes.

Each quantity is recomputed here from the raw rewards the algorithm saw (its own statistics are not used) with
the paper's formula, and a hand-worked value pins the formula itself. Broken versions of the same rules are
rejected in test_mutations.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from banditviz import Instance, run
from banditviz.algorithms import ALGORITHMS
from banditviz.algorithms.base import ACCEPTED, REJECTED
from banditviz.environment import Environment
from banditviz.pareto import pareto_mask
from banditviz.simulate import make_problem

BOX = Instance.from_means([[0.9, 0.1], [0.1, 0.9], [0.6, 0.6], [0.5, 0.5], [0.3, 0.2], [0.2, 0.3]], sigma=0.3)


def play(instance: Instance, name: str, horizon: int, seed: int = 0, **params):
    """Drive ``name`` on ``instance``; yield (t, algorithm, arm, counts, sums) after each choice, where counts and
    sums are this function's own tallies of the rewards seen before round t."""
    alg = ALGORITHMS[name].make(**params)
    env = Environment(instance, seed)
    alg.reset(make_problem(instance, horizon, env.context), env.policy_rng)
    counts, sums = np.zeros(instance.K), np.zeros((instance.K, instance.L))
    for t in range(1, horizon + 1):
        arm = int(alg.select(t))
        yield t, alg, arm, counts.copy(), sums.copy()
        reward = env.pull(arm)
        alg.update(arm, reward)
        counts[arm] += 1
        sums[arm] += reward
        if getattr(alg, "done", False):
            return


# ---------------------------------------------------------------------------------------------- classic
def test_pareto_ucb1_index_hand_worked_and_recomputed():
    """Drugan & Nowe (2013), Alg. 2: index mu_hat_i + sqrt(2 ln(t (L K)^{1/4}) / n_i) (K stands in for |A*|).
    Hand-worked: t = 100, L = 2, K = 10, n_i = 7: ln(100 * 20^{1/4}) = 4.605170 + 0.748933 = 5.354104, x 2 / 7
    = 1.529744, sqrt = 1.236828. Every pull after the initial round robin is on the Pareto front of the index
    vectors recomputed from the raw rewards, chosen uniformly among them, and the displayed box is the index's
    radius."""
    alg = ALGORITHMS["pareto_ucb1"].make()
    alg.reset(make_problem(Instance.from_means(np.zeros((10, 2))), 200, None), np.random.default_rng(0))
    alg.t, alg.stats.counts[:] = 100, 7
    assert alg.radius() == pytest.approx(np.full(10, 1.236828), abs=1e-6)
    K, L = BOX.K, BOX.L
    first, expected, variance = 0, 0.0, 0.0
    for t, alg, arm, n, s in play(BOX, "pareto_ucb1", 600):
        if t <= K:
            assert arm == t - 1
            continue
        radius = np.sqrt(2 * np.log(t * (L * K) ** 0.25) / n)
        front = np.flatnonzero(pareto_mask(s / n[:, None] + radius[:, None]))
        assert arm in front, t
        first += arm == front[0]
        expected, variance = expected + 1 / len(front), variance + (1 - 1 / len(front)) / len(front)
        if t % 97 == 0:
            st = alg.state()
            np.testing.assert_allclose(st.upper - st.estimates, np.repeat(radius[:, None], L, axis=1), atol=1e-12)
    # uniform over the front: the lowest-index front arm is played sum 1/|front| times (measured: 141 vs 158.0,
    # sd 10.6; always the first front arm: 594, every adaptive round)
    assert abs(first - expected) < 4 * math.sqrt(variance), (first, expected, math.sqrt(variance))


def test_pareto_ts_posterior_hand_worked_and_recomputed():
    """Yahyaa & Manderick (2015), Gaussian rewards: posterior N(S / (n + 1), sigma^2 / (n + 1)). The samples,
    standardised with the mean and sd recomputed from the raw rewards, have mean 0 and variance 1 (20,000 values:
    sd of the mean 0.007, of the variance 0.01; bounds 0.05 and 0.1); the pull is on the samples' Pareto front.
    Hand-worked: n = 3, sigma 0.3: sd 0.3 / 2 = 0.15."""
    z = []
    for t, alg, arm, n, s in play(BOX, "pareto_ts", 2000):
        if t <= BOX.K:
            continue
        if t == BOX.K + 1:
            assert alg._posterior_sd()[0] == pytest.approx(BOX.sigma / math.sqrt(n[0] + 1))
        mean, sd = s / (n[:, None] + 1), BOX.sigma / np.sqrt(n + 1)
        z.append(((alg.samples - mean) / sd[:, None]).ravel())
        assert pareto_mask(alg.samples)[arm], t
    z = np.concatenate(z)
    assert abs(z.mean()) < 0.05 and abs(z.var() - 1) < 0.1, (z.mean(), z.var())
    alg.stats.counts[:] = 3
    assert alg._posterior_sd() == pytest.approx(np.full(BOX.K, 0.15))


# ---------------------------------------------------------------------------------------------- identification
def test_pal_boxes_hand_worked_and_recomputed():
    """PAL, linear kernel, as in LinPSI's code: at racing round r, beta_r = ln(K L r^2 pi^2 / (6 delta)) / 5 and
    the box of an active arm is mu_hat_i +- sqrt(beta_r x_i^T (V + 1e-6 I)^-1 x_i); with one-hot features the
    least-squares estimate is the sample mean and the half-width sqrt(beta_r / (n_i + 1e-6)). Hand-worked: K = 8,
    L = 2, r = 3, delta = 0.01: ln(16 * 9 * 9.869604 / 0.06) / 5 = ln(23,687.05) / 5 = 2.014537."""
    inst = Instance.from_means(np.array([[1, 0], [0, 1], [0.6, 0.6], [0.55, 0.55], [0.1, 0.1], [0.3, 0], [0, 0.3],
                                         [0.2, 0.2]]) * 4, sigma=0.8)
    alg = ALGORITHMS["pal_linear"].make()
    alg.reset(make_problem(inst, 100, None), np.random.default_rng(0))
    assert alg.confidence_beta(3) == pytest.approx(2.014537, abs=1e-6)
    checked, last_batch = 0, 1
    for _, alg, _, n, s in play(inst, "pal_linear", 4000):
        if alg.batch != last_batch:  # racing round alg.batch - 1 ended before this pull
            r, (A, mu, c) = alg.batch - 1, alg.box
            beta = math.log(inst.K * inst.L * r * r * math.pi**2 / (6 * 0.01)) / 5
            np.testing.assert_allclose(mu, s[A] / n[A, None], rtol=1e-9, atol=1e-12)
            np.testing.assert_allclose(c, np.sqrt(beta / (n[A] + 1e-6)), rtol=1e-9)
            assert alg.extras["beta_t"] == pytest.approx(beta, rel=1e-12)
            checked, last_batch = checked + 1, alg.batch
    assert checked > 50


@pytest.mark.parametrize("name, T, expected", [
    # EGE-SH, K = 8, T = 2000: ceil(log2 8) = 3 rounds of floor(2000 / (|A_r| 3)) = 83, 166, 333 pulls per arm;
    # 4 arms leave after round 1 (83), 2 after round 2 (83 + 166 = 249), 2 stay (249 + 333 = 582)
    ("ege_sh", 2000, [83] * 4 + [249] * 2 + [582] * 2),
    # EGE-SR, K = 4, T = 100: lbar = 1/2 + 1/2 + 1/3 + 1/4 = 19/12; n_k = ceil(96 / (lbar (5 - k))) = 16, 21, 31;
    # one arm decided after each phase
    ("ege_sr", 100, [16, 21, 31, 31]),
])
def test_fixed_budget_schedules_hand_worked(name, T, expected):
    """Kone et al. (2024), as run in LinPSI Sec. 5: the pulls per arm of EGE-SH's halving rounds and EGE-SR's
    phases, on separated instances (the schedule does not depend on which arms are kept)."""
    inst = Instance.from_means(np.array([[4, 0], [0, 4], [2.4, 2.4], [2.2, 2.2], [0.4, 0.4], [1.2, 0], [0, 1.2],
                                         [0.8, 0.8]])[:len(expected)], sigma=0.8)
    tr = run(inst, name, T, seed=0, snapshots=1)
    assert sorted(tr.snapshots[-1].counts.tolist()) == expected
    assert tr.rounds == sum(expected) and tr.recommendation == inst.pareto_set


def racing_decisions(mu: np.ndarray, n: np.ndarray, A: list[int], sigma: float, delta: float):
    """Auer et al. (2016) racing step by loops (as run in LinPSI Sec. 5): (rejected, accepted) among the active
    arms A. beta_ij = sigma sqrt(2 (2 C + ln(1 + ln n_i) + ln(1 + ln n_j)) (1/n_i + 1/n_j)) with C = ln(1/delta)/2
    + max(ln(ln(1/delta)/2), 0); i is rejected when some active j beats it by more than beta_ij in every objective;
    a survivor i is accepted when it beats every other survivor j by more than beta_ij in some objective and
    every survivor k not in that set beats i by more than beta_ki in some objective."""
    C = math.log(1 / delta) / 2 + max(math.log(math.log(1 / delta) / 2), 0.0)

    def beta(i: int, j: int) -> float:
        return sigma * math.sqrt(2 * (2 * C + math.log1p(math.log(n[i])) + math.log1p(math.log(n[j])))
                                 * (1 / n[i] + 1 / n[j]))

    rejected = [i for i in A if any(min(mu[j] - mu[i]) > beta(i, j) for j in A if j != i)]
    alive = [i for i in A if i not in rejected]
    p1 = [i for i in alive if all(max(mu[i] - mu[j]) > beta(i, j) for j in alive if j != i)]
    rest = [k for k in alive if k not in p1]
    accepted = [i for i in p1 if all(max(mu[k] - mu[i]) > beta(k, i) for k in rest)]
    return rejected, accepted


def test_racing_classification_equals_the_loops():
    """Every racing round of a run on a twin-pair instance: the arms Racing rejects and accepts are those of the
    loops above, computed from the raw rewards (the run rejects and accepts arms over several rounds)."""
    inst = Instance.from_means(np.array([[1, 0], [0, 1], [0.6, 0.6], [0.55, 0.55], [0.1, 0.1], [0.3, 0], [0, 0.3],
                                         [0.2, 0.2]]) * 4, sigma=0.8)
    rounds, decided, active, last_batch = 0, 0, list(range(inst.K)), 1
    for _, alg, _, n, s in play(inst, "racing", 20_000):
        if alg.batch != last_batch:
            rejected, accepted = racing_decisions(s / n[:, None], n, active, inst.sigma, 0.01)
            now = alg.active.tolist()
            assert now == [i for i in active if i not in rejected + accepted]
            assert sorted(a for a in active if alg.status[a] == REJECTED) == sorted(rejected)
            assert sorted(a for a in active if alg.status[a] == ACCEPTED) == sorted(accepted)
            rounds, decided, active, last_batch = rounds + 1, decided + len(rejected + accepted), now, alg.batch
    assert alg.done and rounds > 100 and decided == inst.K - len(active) >= 4
