"""Unit tests of the risk-averse task (RAMGapE): ground truth, widths, gap index, algorithms, fast path."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from banditviz import Instance, preset, run
from banditviz.algorithms import ALGORITHMS
from banditviz.algorithms.base import ACCEPTED, ACTIVE, CANDIDATE, REJECTED
from banditviz.algorithms.ramgape import core as ramgape_core
from banditviz.algorithms.ramgape._loop import _gap_index
from banditviz.algorithms.ramgape.learners import empirical_gaps, gap_index
from banditviz.environment import Environment
from banditviz.experiments.ramgape import experiment2_trace, fast_run, geometric_checkpoints, state_from_stats
from banditviz.metrics import RECOMMENDATION_METRICS
from banditviz.pareto import mean_variance, psi_gaps
from banditviz.presets import ramgape as ra
from banditviz.simulate import make_problem
from banditviz.trace import Trace

RISK_ALGS = sorted(name for name, spec in ALGORITHMS.items() if spec.task == "risk-averse")
FB_ONLY = {"ramgape_b", "lie_round_robin", "xi_lcb", "hvi_pareto", "egp"}


def dists(*pairs: tuple[float, float]) -> Instance:
    return Instance.from_distributions([{"family": "beta", "a": a, "b": b} for a, b in pairs])


# ---------------------------------------------------------------------- ground truth (mean_variance.py)
def test_strict_dominance_and_ties() -> None:
    mu = np.array([0.5, 0.5, 0.4, 0.6])
    xi = np.array([0.01, 0.02, 0.03, 0.02])
    D = mean_variance.strict_dominance(mu, xi)
    assert not D[0, 1] and not D[1, 0]  # equal means: no strict dominance (weak dominance would say 0 > 1)
    assert D[0, 2] and D[3, 2] and not D[3, 1]  # equal risk: 3 does not strictly dominate 1
    assert mean_variance.pareto_mask(mu, xi).tolist() == [True, True, False, True]


def brute_dominated_shift(mu: np.ndarray, xi: np.ndarray, i: int) -> float:
    """Smallest s on a fine grid such that (mu_i + s, xi_i - s) is strictly dominated by no arm."""
    grid = np.linspace(0, 0.2, 200_001)
    dominated = ((mu[None, :] > mu[i] + grid[:, None]) & (xi[None, :] < xi[i] - grid[:, None])).any(axis=1)
    return float(grid[np.argmax(~dominated)])


def test_gaps_of_dominated_arms_are_the_minimal_shift() -> None:
    rng = np.random.default_rng(5)
    for _ in range(5):
        mu, xi = rng.uniform(0.4, 0.6, 8), rng.uniform(0.0, 0.06, 8)
        P, g = mean_variance.pareto_mask(mu, xi), mean_variance.gaps(mu, xi)
        for i in np.flatnonzero(~P):
            assert abs(g[i] - brute_dominated_shift(mu, xi, i)) <= 1.1e-6


def test_gaps_hand_worked() -> None:
    """Three arms: 0 = (0.6, 0.05), 1 = (0.5, 0.01) Pareto; 2 = (0.45, 0.03) dominated by 1 only."""
    mu, xi = np.array([0.6, 0.5, 0.45]), np.array([0.05, 0.01, 0.03])
    g = mean_variance.gaps(mu, xi)
    assert g[2] == pytest.approx(min(0.05, 0.02))  # m(2, 1) = min(0.5 - 0.45, 0.03 - 0.01)
    # Pareto arm 0: min( min(M(0,1), M(1,0)) = min(0.1, 0.04), M(2,0)+ + Delta_2 = max(-0.15, 0.02) + 0.02 )
    assert g[0] == pytest.approx(min(0.04, 0.04))
    # Pareto arm 1: min( 0.04, M(2,1)+ + Delta_2 = max(-0.05, -0.02)+ + 0.02 = 0.02 )
    assert g[1] == pytest.approx(0.02)
    # empty first term (single Pareto arm): Delta_0 = M(1,0)+ + Delta_1 = 0 + min(0.1, 0.01)
    assert mean_variance.gaps(np.array([0.6, 0.5]), np.array([0.01, 0.02])).tolist() == pytest.approx([0.01, 0.01])
    # empty second term (every arm Pareto): min(M(0,1), M(1,0)) = min(0.1, 0.04)
    assert mean_variance.gaps(np.array([0.6, 0.5]), np.array([0.05, 0.01])).tolist() == pytest.approx([0.04, 0.04])


@pytest.mark.parametrize("name,kw", [("risk_averse_table1", {}), ("risk_averse_table2", {}),
                                     ("risk_averse_random", {"K": 30, "seed": 4})]
                         + [("risk_averse_table3", {"pattern": p}) for p in (1, 10, 46, 50)])
def test_gaps_equal_psi_gaps_without_ties(name: str, kw: dict) -> None:
    """Eq. 1 with strict dominance is `pareto.psi_gaps` of (mu, -xi) when no coordinate ties (reuse check)."""
    inst = preset(name, **kw)
    mu, xi = mean_variance.objectives(inst)
    assert len(np.unique(mu)) == inst.K and len(np.unique(xi)) == inst.K
    np.testing.assert_allclose(mean_variance.gaps(mu, xi), psi_gaps(inst.means), rtol=0, atol=1e-15)
    assert mean_variance.pareto_set(inst) == inst.pareto_set


def test_simple_regret_cases_and_registration() -> None:
    inst = preset("risk_averse_table1")
    P, g = mean_variance.truth(inst)
    metric = RECOMMENDATION_METRICS["risk-averse"]
    assert metric is mean_variance.simple_regret
    assert metric(inst, (0, 1, 3, 8)) == {"simple_regret": 0.0}
    assert metric(inst, (0, 1, 3, 8, 7))["simple_regret"] == pytest.approx(g[7])
    assert metric(inst, (0, 1, 8, 2, 9))["simple_regret"] == pytest.approx(max(g[3], g[2], g[9]))
    assert metric(inst, None)["simple_regret"] == pytest.approx(g[P].max())


def test_eps_pareto_checks() -> None:
    inst = preset("risk_averse_table3", pattern=46)
    mu, xi = mean_variance.objectives(inst)
    D = mean_variance.pareto_set(inst)
    assert mean_variance.is_eps_pareto(D, mu, xi, 0.0) and mean_variance.is_eps_pareto(D, mu, xi, 0.0, strict=False)
    assert not mean_variance.is_eps_pareto(D[:1], mu, xi, 0.0)  # a Pareto arm left out is not dominated
    assert not mean_variance.is_eps_pareto(D + (3,), mu, xi, 0.0)  # arm 3 is dominated by arm 1
    everyone = tuple(range(inst.K))
    assert mean_variance.is_eps_pareto(everyone, mu, xi, 1.0)  # nothing is 1-dominated
    assert not mean_variance.is_eps_pareto(D, mu, xi, 1.0)  # ... so strict l.71-72 needs every arm in S
    assert mean_variance.is_eps_pareto((0,), mu, xi, 1.0, strict=False)  # B.11's relaxed condition holds trivially


def test_precision_recall_f1() -> None:
    assert mean_variance.precision_recall_f1((0, 1, 2), (0, 1)) == pytest.approx((2 / 3, 1.0, 0.8))
    assert mean_variance.precision_recall_f1((), (0,)) == (0.0, 0.0, 0.0)


def test_front_hypervolume_union_of_rectangles() -> None:
    """Two arms: rectangles mu x (R - xi) to the reference (0, R); their union by inclusion-exclusion."""
    R = mean_variance.hvi_reference(0.01)[1]
    mu, xi = np.array([0.6, 0.5, 0.3]), np.array([0.05, 0.01, 0.06])
    union = 0.6 * (R - 0.05) + 0.5 * (R - 0.01) - 0.5 * (R - 0.05)
    assert mean_variance.front_hypervolume(mu, xi, (0, 1), 0.01) == pytest.approx(union, abs=1e-15)
    assert mean_variance.front_hypervolume(mu, xi, (0, 1, 2), 0.01) == pytest.approx(union, abs=1e-15)  # 2 is dominated
    assert mean_variance.front_hypervolume(mu, xi, (), 0.01) == 0.0


def test_objectives_reject_other_kinds() -> None:
    with pytest.raises(ValueError, match="distributions"):
        mean_variance.objectives(preset("default"))


# ---------------------------------------------------------------------- widths and constants
@pytest.mark.parametrize("T,b10,b100", [(2, 3.8413, 4.4001), (100, 0.6683, 0.7340), (1000, 0.2189, 0.2390),
                                        (10000, 0.07086, 0.07708)])
def test_beta_fc_reference_values(T: int, b10: float, b100: float) -> None:
    assert ramgape_core.beta_fc(T, 10, 0.05) == pytest.approx(b10, abs=6e-5)
    assert ramgape_core.beta_fc(T, 100, 0.05) == pytest.approx(b100, abs=6e-5)


def test_beta_fb_a_and_constants() -> None:
    assert ramgape_core.default_a(10_000, 10, 0.1) == pytest.approx(0.62375, abs=1e-12)
    assert ramgape_core.default_a(10_000, 100, 0.1) == pytest.approx(0.06125, abs=1e-12)
    assert ramgape_core.beta_fb(2, 0.62375) == pytest.approx(0.5585, abs=5e-5)
    assert ramgape_core.beta_fb(100, 0.06125) == pytest.approx(0.02475, abs=5e-6)
    assert ramgape_core.beta_fc(2, 10, 0.05) == pytest.approx(3.841291, abs=1e-6)
    assert ramgape_core.beta_fc(10_000, 10, 0.05) == pytest.approx(0.0708560, abs=1e-7)
    T = ramgape_core.t_star(10, 0.1, 0.05)
    assert T == 20_319 and ramgape_core.beta_fc(T, 10, 0.05) >= 0.05 > ramgape_core.beta_fc(T + 1, 10, 0.05)
    assert ramgape_core.t_star(100, 0.1, 0.05) == 24_057
    assert mean_variance.hvi_reference(0.01) == (0.0, pytest.approx(0.0830565, abs=1e-7))
    betas = np.array([ramgape_core.beta_fc(t, 10, 0.05) for t in range(2, 20_000)])
    assert (np.diff(betas) < 0).all()
    with pytest.raises(ValueError, match="T"):
        ramgape_core.beta_fc(1, 10, 0.05)
    with pytest.raises(ValueError, match="horizon"):
        ramgape_core.default_a(20, 10, 0.1)


# ---------------------------------------------------------------------- presets
@pytest.mark.parametrize("pairs", [ra._pairs(ra.TABLE1), ra._pairs(ra.TABLE2)]
                         + [ra.table3_pairs(p) for p in range(1, 51)])
def test_table_moments_follow_the_generator(pairs: list) -> None:
    """Means linspace(0.6, 0.4, K) (2.5e-4), variances a permutation of linspace(0.01, 0.2, K) (3e-5), and the
    pairs are exactly the RAMGapE App. C generator generator applied to that permutation."""
    K = len(pairs)
    a, b = np.array(pairs).T
    mean, var = a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))
    grid_mu, grid_var = np.linspace(0.6, 0.4, K), np.linspace(0.01, 0.2, K)
    assert np.abs(mean - grid_mu).max() < 2.5e-4
    rank = np.abs(var[:, None] - grid_var[None, :]).argmin(axis=1)
    assert sorted(rank) == list(range(K)) and np.abs(var - grid_var[rank]).max() < 3e-5
    assert ra.pairs_from_moments(grid_mu, grid_var[rank]) == [tuple(p) for p in pairs]


def test_table1_is_pattern8_and_presets_build() -> None:
    assert ra._pairs(ra.TABLE1) == ra.table3_pairs(8)
    assert preset("risk_averse_table2").K == 100
    assert preset("risk_averse_easy").K == 4
    assert preset("risk_averse_random", K=12, seed=3) == preset("risk_averse_random", K=12, seed=3)
    with pytest.raises(ValueError, match="pattern"):
        preset("risk_averse_table3", pattern=51)


# ---------------------------------------------------------------------- gap index
def loop_gap_index(mu: np.ndarray, xi: np.ndarray, b: np.ndarray) -> tuple[list[float], list[int], list[bool]]:
    """Eq. 4 / 7 with plain loops (independent of the vectorised version)."""
    K = len(mu)
    dom = [[mu[j] > mu[i] and xi[j] < xi[i] for i in range(K)] for j in range(K)]
    Dh = [not any(dom[j][i] for j in range(K)) for i in range(K)]
    V, arg = [], []
    for i in range(K):
        if Dh[i]:
            vals = {j: min(mu[j] + b[j] - (mu[i] - b[i]), xi[i] + b[i] - (xi[j] - b[j])) for j in range(K) if j != i}
            j = max(vals, key=lambda k: (vals[k], -k))
        else:
            vals = {j: max(mu[i] + b[i] - (mu[j] - b[j]), xi[j] + b[j] - (xi[i] - b[i]))
                    for j in range(K) if Dh[j] and dom[j][i]}
            j = min(vals, key=lambda k: (vals[k], k))
        V.append(vals[j])
        arg.append(j)
    return V, arg, Dh


@pytest.mark.parametrize("seed", range(6))
def test_gap_index_matches_loops_and_kernel(seed: int) -> None:
    rng = np.random.default_rng(seed)
    K = int(rng.integers(2, 15))
    mu, xi = rng.uniform(0.4, 0.6, K), rng.uniform(0, 0.07, K)
    if seed % 2:  # ties on a coordinate and equal widths
        mu[1] = mu[0]
        xi[-1] = xi[0]
    b = rng.choice([0.01, 0.02, 0.05], K)
    V, arg, Dh = gap_index(mu, xi, b)
    lV, larg, lDh = loop_gap_index(mu, xi, b)
    np.testing.assert_allclose(V, lV, rtol=0, atol=1e-15)
    assert arg.tolist() == larg and Dh.tolist() == lDh
    kV, karg, kDh = np.zeros(K), np.zeros(K, dtype=np.int64), np.zeros(K, dtype=np.bool_)
    _gap_index(mu, xi, b, K, kV, karg, kDh, np.zeros(K, dtype=np.int64), np.ones(K, dtype=np.bool_))
    assert np.array_equal(kV, V) and np.array_equal(karg, arg) and np.array_equal(kDh, Dh)


def test_empirical_gaps_verbatim() -> None:
    mu, xi = np.array([0.6, 0.5, 0.45]), np.array([0.05, 0.01, 0.03])
    Dh = np.array([True, True, False])
    v = empirical_gaps(mu, xi, Dh)
    assert v[0] == pytest.approx(max(min(0.1, -0.04), min(0.15, -0.02)))
    assert v[1] == pytest.approx(max(min(-0.1, 0.04), min(0.05, 0.02)))
    assert v[2] == pytest.approx(min(max(0.15, -0.02), max(0.05, 0.02)))


# ---------------------------------------------------------------------- algorithms on the engine
def test_registry_entries() -> None:
    for name in RISK_ALGS:
        spec = ALGORITHMS[name]
        assert spec.task == "risk-averse" and spec.kinds == ("distributions",) and spec.recommends_every_round
        assert "Nonaga" in spec.paper
    assert ALGORITHMS["ramgape_c"].defaults() == {"epsilon": 0.1, "delta": 0.05, "init_pulls": 2}
    assert ALGORITHMS["ramgape_b"].defaults() == {"epsilon": 0.1, "a": None, "init_pulls": 2}


def drive(name: str, inst: Instance, horizon: int, seed: int = 0, **params):
    """Play the algorithm by hand, yielding (t, algorithm, arm, its V/arg/beta/D_hat before the pull) each round."""
    alg = ALGORITHMS[name].make(**params)
    env = Environment(inst, seed)
    alg.reset(make_problem(inst, horizon, None), env.policy_rng)
    for t in range(1, horizon + 1):
        snapshot = SimpleNamespace(V=alg.V.copy(), arg=alg.arg.copy(), beta=alg.beta.copy(), Dh=alg.Dh.copy())
        arm = alg.select(t)
        yield t, alg, arm, snapshot
        alg.update(arm, env.pull(arm))
        if alg.done:
            return


@pytest.mark.parametrize("name", ["ramgape_c", "ramgape_b", "ra_lucb"])
def test_ramgape_rule_and_lemma_b3(name: str) -> None:
    """Init order, Lemma B.3 (V <= beta_m + beta_p), pull = argmax beta in {m_t, p_t}, D_hat invariants."""
    inst = preset("risk_averse_table3", pattern=10)
    K, prev, arms = inst.K, None, []
    for t, alg, arm, pre in drive(name, inst, 4000):
        arms.append(arm)
        if t <= 2 * K:
            assert arm == (t - 1) % K
            continue
        assert pre.Dh.any()
        dom = (alg.mu[:, None] > alg.mu[None, :]) & (alg.xi[:, None] < alg.xi[None, :])
        assert (dom[pre.Dh][:, ~pre.Dh]).any(axis=0).all()  # every empirically dominated arm has a dominator in D_hat
        m = int(np.argmax(pre.V))
        p = int(pre.arg[m])
        assert pre.V.max() <= pre.beta[m] + pre.beta[p] + 1e-12
        if name == "ra_lucb":
            if prev is None:
                assert arm == m
                prev = p
            else:
                assert arm == prev
                prev = None
        else:
            assert arm == (m if pre.beta[m] >= pre.beta[p] else p)
    assert len(arms) == 4000


def test_lemma_b1_when_boxes_cover_the_truth() -> None:
    """our checks: at rounds where every true (mu, xi) is in its FC box, V(t) >= r(D_hat_t)."""
    inst = preset("risk_averse_table3", pattern=8)
    mu, xi = mean_variance.objectives(inst)
    P, g = mean_variance.truth(inst)
    checked = 0
    for t, alg, _, _ in drive("ramgape_c", inst, 6000, seed=2):
        if t <= 2 * inst.K or t % 10:
            continue
        if (np.abs(alg.mu - mu) < alg.beta).all() and (np.abs(alg.xi - xi) < alg.beta).all():
            assert alg.V.max() >= mean_variance.regret_of_mask(alg.Dh, P, g) - 1e-12
            checked += 1
    assert checked > 100


def test_de_and_lie_skip_rules() -> None:
    inst = preset("risk_averse_table3", pattern=46)
    seen_skip = {"de_round_robin": 0, "lie_round_robin": 0}
    for name, params in (("de_round_robin", {"epsilon": 0.8}), ("lie_round_robin", {})):
        for t, alg, arm, pre in drive(name, inst, 3000, **params):
            if t <= 2 * inst.K:
                continue
            for k in alg.skipped:
                if name == "de_round_robin":
                    assert not pre.Dh[k] and pre.V[k] <= 0.8
                else:
                    assert k == int(np.argmin(pre.V))
            seen_skip[name] += len(alg.skipped)
            assert arm not in alg.skipped
    assert min(seen_skip.values()) > 0


def test_xi_lcb_hvi_egp_choices() -> None:
    inst = preset("risk_averse_table1")
    for name in ("xi_lcb", "hvi_pareto", "egp"):
        pending = None
        for t, alg, arm, pre in drive(name, inst, 600):
            if t <= 2 * inst.K:
                continue
            if name == "xi_lcb":
                assert arm == int(np.argmin(alg.xi - pre.beta))
            elif name == "egp":
                assert arm == int(np.argmax(pre.beta - empirical_gaps(alg.mu, alg.xi, pre.Dh)))
            elif pending is not None:
                assert arm == pending
                pending = None
            else:
                h = alg.mu * (mean_variance.hvi_reference(inst.rho)[1] - alg.xi)
                assert pre.Dh[arm] and h[arm] == h[pre.Dh].min()
                pending = alg.queue[0] if alg.queue else None
                if pending is not None:
                    assert not pre.Dh[pending] and h[pending] == h[~pre.Dh].max()


def test_hvi_pulls_one_arm_when_every_arm_is_pareto() -> None:
    inst = dists((0.48, 0.12), (12.0, 12.0))  # mean 0.8 / var 0.1 and mean 0.5 / var 0.01: both Pareto
    rounds = 0
    for t, alg, _, pre in drive("hvi_pareto", inst, 200):
        if t > 4 and pre.Dh.all():
            assert not alg.queue  # no d'_t: only d_t is pulled
            rounds += 1
    assert rounds > 50


@pytest.mark.parametrize("name", RISK_ALGS)
def test_round_state_contract(name: str) -> None:
    inst = preset("risk_averse_table1")
    tr = run(inst, name, 300, seed=1, snapshots=300)
    assert tr.rounds == 300 and len(tr.snapshots) == 300
    assert "simple_regret" in tr.metrics and len(tr.metrics["simple_regret"]) == 300
    P, g = mean_variance.truth(inst)
    for s in tr.snapshots[2 * inst.K:]:
        x = s.extras
        assert {"V", "V_max", "m_t", "p_t", "pulled_which", "beta"} <= set(x)
        assert s.estimates.shape == s.lower.shape == (inst.K, 2)
        half = (s.upper - s.lower) / 2
        np.testing.assert_allclose(half[:, 0], x["beta"], rtol=1e-12)
        np.testing.assert_allclose(half[:, 1], x["beta"], rtol=1e-12)  # square boxes
        assert (s.lower <= s.estimates).all() and (s.estimates <= s.upper).all()
        front = np.zeros(inst.K, dtype=bool)
        front[list(s.front)] = True
        small = x["V"] < x["epsilon"]
        expect = np.where(front, np.where(small, ACCEPTED, CANDIDATE), np.where(small, REJECTED, ACTIVE))
        assert np.array_equal(s.status, expect)
        assert s.events
    last = tr.snapshots[-1]
    assert last.front == tr.recommendation
    assert tr.metrics["simple_regret"][-1] == mean_variance.regret_of_mask(front, P, g)
    assert last.counts.sum() == 300
    for k in range(inst.K):  # orientation: (mu_hat, -xi_hat) with the plug-in variance
        x = tr.rewards[tr.arms == k, 0]
        xi_hat = (x.var() - inst.rho * x.mean()) / (3 + inst.rho)
        assert last.estimates[k] == pytest.approx([x.mean(), -xi_hat], abs=1e-12)


def test_fixed_budget_runs_exactly_n_and_fc_stops() -> None:
    inst = preset("risk_averse_easy")
    assert run(inst, "ramgape_b", 500, seed=0, snapshots=0).rounds == 500
    tr = run(inst, "ramgape_c", 50_000, seed=0, snapshots=5, epsilon=0.3)
    assert tr.stopped_at is not None and tr.stopped_at < 50_000
    assert tr.snapshots[-1].extras["V_max"] < 0.3 and "stop" in tr.snapshots[-1].events[-1]


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="distributions"):
        run(preset("default"), "ramgape_c", 100)
    with pytest.raises(ValueError, match="horizon"):
        run(preset("risk_averse_table1"), "ramgape_b", 15)
    with pytest.raises(ValueError, match="epsilon"):
        run(preset("risk_averse_table1"), "ramgape_c", 100, epsilon=-0.1)
    with pytest.raises(ValueError, match="regime"):
        run(preset("risk_averse_table1"), "ra_lucb", 100, regime="both")
    with pytest.raises(ValueError, match="init_pulls"):
        run(preset("risk_averse_table1"), "ramgape_c", 100, init_pulls=1)


# ---------------------------------------------------------------------- fast path
CASES = [(name, {}) for name in RISK_ALGS] + [("ra_round_robin", {"regime": "budget"}),
                                               ("ra_lucb", {"regime": "budget"}), ("ramgape_b", {"a": 0.1})]


@pytest.mark.parametrize("name,params", CASES)
def test_fast_run_agrees_pull_for_pull(name: str, params: dict) -> None:
    """Same seed: the engine and the compiled kernel pull the same arms and recommend the same sets each round."""
    inst = preset("risk_averse_table3", pattern=20)
    N = 1200
    tr = run(inst, name, N, seed=7, snapshots=0, **params)
    fr = fast_run(inst, name, N, seed=7, checkpoints=np.arange(1, N + 1), **params)
    arms = np.diff(np.vstack([np.zeros(inst.K, dtype=np.int64), fr.cp_counts]), axis=0).argmax(axis=1)
    assert np.array_equal(arms, tr.arms)
    assert np.array_equal(fr.simple_regret(), tr.metrics["simple_regret"])
    assert fr.recommendation == tr.recommendation and fr.samples == N


@pytest.mark.parametrize("name", ["ramgape_c", "ra_lucb", "de_round_robin", "ra_round_robin"])
def test_fast_run_stops_where_the_engine_stops(name: str) -> None:
    inst = preset("risk_averse_easy")
    tr = run(inst, name, 100_000, seed=3, snapshots=0, epsilon=0.3)
    fr = fast_run(inst, name, 100_000, seed=3, checkpoints=[10, 100_000], epsilon=0.3)
    assert tr.stopped_at is not None and fr.stopped and fr.samples == tr.stopped_at
    assert fr.checkpoints.tolist() == [10, tr.stopped_at]  # the stopping time replaces the unreached checkpoint
    assert fr.recommendation == tr.recommendation
    assert np.array_equal(fr.counts, np.bincount(tr.arms, minlength=inst.K))


def test_state_from_stats_matches_engine_state() -> None:
    inst = preset("risk_averse_table1")
    tr = run(inst, "ramgape_b", 700, seed=2, snapshots=300)
    fr = fast_run(inst, "ramgape_b", 700, seed=2, checkpoints=[700])
    s = state_from_stats(inst, "ramgape_b", 700, fr.cp_counts[0], fr.cp_sums[0], fr.cp_sumsq[0], horizon=700)
    e = tr.snapshots[-1]
    for key in ("estimates", "lower", "upper", "status", "counts"):
        np.testing.assert_allclose(getattr(s, key), getattr(e, key), rtol=1e-13)
    np.testing.assert_allclose(s.extras["V"], e.extras["V"], rtol=1e-12)
    assert s.front == e.front


def test_fast_run_rejects_bad_input() -> None:
    inst = preset("risk_averse_table1")
    with pytest.raises(ValueError, match="checkpoints"):
        fast_run(inst, "ramgape_c", 100, checkpoints=[0])
    with pytest.raises(ValueError, match="distributions"):
        fast_run(inst, "uniform", 100)


def test_experiment2_trace_is_cached(tmp_path, monkeypatch) -> None:
    """Small cap (the run does not stop): snapshots, saved to the cache and reloaded identically."""
    monkeypatch.setenv("BANDITVIZ_CACHE", str(tmp_path))
    tr = experiment2_trace(46, "ramgape_c", seed=1, snapshots=12, cap=20_000)
    assert tr.stopped_at is None and tr.info["samples"] == 20_000
    assert len(tr.snapshots) == len(geometric_checkpoints(20, 20_000, 11))
    assert [s.t for s in tr.snapshots] == sorted(s.t for s in tr.snapshots)
    assert tr.params["epsilon"] == 0.0
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1
    again = experiment2_trace(46, "ramgape_c", seed=1, snapshots=12, cap=20_000)
    assert isinstance(again, Trace) and again.snapshots[-1].front == tr.snapshots[-1].front
    np.testing.assert_array_equal(again.info["snapshot_simple_regret"], tr.info["snapshot_simple_regret"])
    with pytest.raises(ValueError, match="pattern"):
        experiment2_trace(8)


@pytest.mark.parametrize("pattern,stop,k", [(46, 9_609_599, 2), (10, 28_225_441, 6)])
def test_shipped_experiment2_traces(pattern: int, stop: int, k: int, tmp_path, monkeypatch) -> None:
    """The committed RAMGapEc traces load without computing, end at D+ with the k narrowest boxes (~0.0035) on
    the k arms of smallest gap, and agree with a fresh fast run at an early snapshot (current code and seeds)."""
    monkeypatch.setenv("BANDITVIZ_CACHE", str(tmp_path))  # empty cache: must come from the package
    tr = experiment2_trace(pattern, "ramgape_c")
    assert not list(tmp_path.iterdir())
    assert tr.stopped_at == stop and tr.snapshots[-1].t == stop
    assert set(tr.recommendation) == set(mean_variance.pareto_set(tr.instance))
    assert tr.info["snapshot_simple_regret"][-1] == 0
    beta = tr.snapshots[-1].extras["beta"]
    narrow = np.argsort(beta)[:k]
    assert set(narrow) == set(np.argsort(mean_variance.truth(tr.instance)[1])[:k]) and beta[narrow].max() < 0.0036
    early = next(s for s in tr.snapshots if s.t >= 50_000)
    fresh = fast_run(tr.instance, "ramgape_c", early.t, seed=1, epsilon=0.0)
    assert np.array_equal(fresh.counts, early.counts)


@pytest.mark.parametrize(("name", "params", "field"), [
    ("ramgape_b", {"epsilon": 0}, "epsilon"), ("ramgape_b", {"a": 0}, "a"), ("egp", {"a": 0.0}, "a"),
    ("ra_lucb", {"regime": "budget", "epsilon": 0}, "epsilon"),
    ("ra_round_robin", {"regime": "budget", "epsilon": 0.0}, "epsilon")])
def test_fixed_budget_refuses_a_zero_width(name, params, field) -> None:
    """eps = 0 (so a = 0) or a = 0 makes beta = sqrt(a / T) = 0: the fixed budget would silently be greedy."""
    with pytest.raises(ValueError, match=f"'{field}'.*> 0"):
        run(preset("risk_averse_table1"), name, 100, **params)


def test_fixed_confidence_accepts_epsilon_zero() -> None:
    """Experiment 2 runs the fixed-confidence algorithms with eps = 0 (exact identification)."""
    tr = run(preset("risk_averse_easy"), "ramgape_c", 200, epsilon=0.0)
    assert tr.rounds == 200
