"""Tests of banditviz.pareto against independent brute-force / LP references and hand-worked cases.

Papers (keys of the `banditviz` docstring): MOL-TS Sec. 3.3-3.4 and Fig. 1 (fronts, gaps, Figure-1 fixture),
LinPSI Sec. 2.1 (PSI gaps and complexities), LexMOSLB Sec. 1 (lexicographic order), RAMGapE Sec. 2.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import banditviz.pareto as pp
from banditviz.pareto import effective, kernels
from banditviz.pareto.means import round_err

FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LPSET = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------------------------------
# strategies


@st.composite
def means_st(draw, min_k: int = 1, max_k: int = 12, min_l: int = 1, max_l: int = 4) -> np.ndarray:
    """Random K x L means: tie-heavy grids, rounded values, continuous values, with duplicated rows."""
    K = draw(st.integers(min_k, max_k))
    L = draw(st.integers(min_l, max_l))
    kind = draw(st.sampled_from(["grid", "rounded", "continuous", "simplex"]))
    if kind == "grid":
        vals = st.integers(0, 4).map(lambda v: v / 4)
    elif kind == "rounded":
        vals = st.floats(-1, 1, allow_nan=False).map(lambda v: round(v, 1))
    else:  # 6 decimals: keeps entries away from the LP solver's small-value cut-off (1e-9) and from
        # sub-tolerance near-ties, where the LP reference itself is not reliable
        vals = st.floats(-1, 1, allow_nan=False).map(lambda v: round(v, 6))
    rows = draw(st.lists(st.lists(vals, min_size=L, max_size=L), min_size=K, max_size=K))
    mu = np.array(rows, dtype=float).reshape(K, L)
    if kind == "simplex":  # many arms on one efficient face: non-vertex face points
        w = np.abs(mu) + 1e-3
        mu = np.round(w / w.sum(axis=1, keepdims=True) * 6) / 6
    n_dup = draw(st.integers(0, min(3, K)))
    if n_dup:
        mu = np.vstack([mu, mu[:n_dup]])
    return mu


# --------------------------------------------------------------------------------------------------
# independent references


def brute_dominates(v: np.ndarray, u: np.ndarray) -> bool:
    """v Pareto-dominates u (MOL-TS Def. 1)."""
    return all(a <= b for a, b in zip(u, v, strict=True)) and any(a < b for a, b in zip(u, v, strict=True))


def brute_pareto(mu: np.ndarray) -> np.ndarray:
    K = len(mu)
    return np.array([not any(brute_dominates(mu[j], mu[i]) for j in range(K) if j != i) for i in range(K)])


def brute_pr_gap(mu: np.ndarray) -> np.ndarray:
    return np.array([max(0.0, max(min(b - a for a, b in zip(mu[i], mu[j], strict=True))
                                  for j in range(len(mu)))) for i in range(len(mu))])


def dual_member(mu: np.ndarray, a: int) -> bool:
    """Dual test of MOL-TS Def. 5: feasibility of {w >= 1, z : w.mu_b <= z for all b, w.mu_a >= z}."""
    K, L = mu.shape
    A = np.hstack([mu, -np.ones((K, 1))])
    A = np.vstack([A, np.concatenate([-mu[a], [1.0]])])
    res = linprog(np.zeros(L + 1), A_ub=A, b_ub=np.zeros(K + 1), bounds=[(1, None)] * L + [(None, None)],
                  method="highs")
    assert res.status in (0, 2)
    return res.status == 0


def dual_gap(mu: np.ndarray, a: int) -> float:
    """Dual of MOL-TS Def. 6: min over w in the simplex, t of t - w.mu_a s.t. w.mu_b <= t."""
    K, L = mu.shape
    c = np.concatenate([-mu[a], [1.0]])
    A = np.hstack([mu, -np.ones((K, 1))])
    res = linprog(c, A_ub=A, b_ub=np.zeros(K), A_eq=np.concatenate([np.ones(L), [0.0]])[None, :], b_eq=[1.0],
                  bounds=[(0, None)] * L + [(None, None)], method="highs")
    assert res.status == 0
    return max(0.0, float(res.fun))


def is_generic(mu: np.ndarray) -> bool:
    """No two arms share a value in any objective (ties have probability 0 under continuous inputs)."""
    return all(len(np.unique(mu[:, l])) == len(mu) for l in range(mu.shape[1]))


def hv_grid(points: np.ndarray, ref: np.ndarray) -> float:
    """Exact hypervolume by the grid of all coordinates: sum of the grid cells dominated by some point."""
    P = np.maximum(np.asarray(points, float).reshape(-1, len(ref)), ref)
    axes = [np.unique(np.concatenate([[ref[l]], P[:, l]])) for l in range(len(ref))]
    total = 0.0
    for cell in itertools.product(*[range(len(a) - 1) for a in axes]):
        hi = np.array([axes[l][c + 1] for l, c in enumerate(cell)])
        lo = np.array([axes[l][c] for l, c in enumerate(cell)])
        if len(P) and (P >= hi).all(axis=1).any():
            total += float(np.prod(hi - lo))
    return total


def hv_inclusion_exclusion(points: np.ndarray, ref: np.ndarray) -> float:
    P = [p for p in np.asarray(points, float) if (p > ref).all()]
    total = 0.0
    for r in range(1, len(P) + 1):
        for S in itertools.combinations(P, r):
            total += (-1) ** (r + 1) * float(np.prod(np.min(S, axis=0) - ref))
    return total


def psi_loop(mu: np.ndarray) -> np.ndarray:
    """LinPSI Sec. 2.1, eq. (1) written as loops: Delta*_i, delta*_i, then the case split on S*."""
    K, d = mu.shape

    def M(i, j):
        return max(mu[i][c] - mu[j][c] for c in range(d))

    def m(i, j):
        return min(mu[j][c] - mu[i][c] for c in range(d))

    S = brute_pareto(mu)
    dstar = [max(m(i, j) for j in range(K)) for i in range(K)]
    out = []
    for i in range(K):
        if not S[i]:
            out.append(dstar[i])
            continue
        best = np.inf
        for j in range(K):
            if j != i:
                best = min(best, min(M(i, j), max(M(j, i), 0.0) + max(dstar[j], 0.0)))
        out.append(best)
    return np.array(out)


def psi_split(mu: np.ndarray) -> np.ndarray:
    """Kone et al. split (LinPSI Sec. 2.1, eq. (1)): Delta_i = min(delta+_i, delta-_i) for Pareto arms."""
    K, d = mu.shape
    S = brute_pareto(mu)
    Mf = lambda i, j: max(mu[i] - mu[j])  # noqa: E731
    dstar = [max(min(mu[j] - mu[i]) for j in range(K)) for i in range(K)]
    out = []
    for i in range(K):
        if not S[i]:
            out.append(dstar[i])
            continue
        plus = min([min(Mf(i, j), Mf(j, i)) for j in range(K) if S[j] and j != i], default=np.inf)
        minus = min([max(Mf(j, i), 0.0) + dstar[j] for j in range(K) if not S[j]], default=np.inf)
        out.append(min(plus, minus))
    return np.array(out)


# --------------------------------------------------------------------------------------------------
# validation


@pytest.mark.parametrize("bad", [[1.0, 2.0], [[[1.0]]], np.empty((0, 2)), np.empty((2, 0)),
                                 [[1.0, np.nan]], [[1.0, np.inf]], [[1.0, 2.0], [3.0]], "abc"])
def test_as_means_rejects(bad):
    with pytest.raises(ValueError, match="^means: "):
        pp.as_means(bad)


def test_as_means_accepts_lists_and_ints():
    out = pp.as_means([[1, 2], [3, 4]])
    assert out.dtype == np.float64 and out.shape == (2, 2)
    assert np.isinf(pp.as_means([[-np.inf, 1.0]], allow_inf=True)).any()


def test_every_function_validates_means():
    for fn in (pp.pareto_mask, pp.dominated_by, pp.pareto_gap, pp.effective_pareto_mask, pp.effective_gap,
               pp.psi_gaps, pp.lex_order, pp.lex_optimal, pp.upper_hull_2d, pp.efficient_facets_3d,
               pp.pareto_staircase_2d):
        with pytest.raises(ValueError, match="^means: "):
            fn([[np.nan, 1.0]])
    with pytest.raises(ValueError, match="^means: "):
        pp.upper_hull_2d(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="^means: "):
        pp.efficient_facets_3d(np.zeros((5, 2)))
    with pytest.raises(ValueError, match="^means: "):
        pp.pareto_staircase_2d(np.zeros((3, 1)))
    with pytest.raises(ValueError, match="^arm: "):
        pp.effective_gap_of(np.zeros((3, 2)), 3)
    with pytest.raises(ValueError, match="^arm: "):
        pp.effective_gap_of(np.zeros((3, 2)), 1.0)
    with pytest.raises(ValueError, match="^tol: "):
        pp.effective_pareto_mask(np.zeros((3, 2)), tol=-1)


def test_pareto_mask_allows_minus_inf_for_unseen_arms():
    mu = np.array([[0.5, 0.5], [-np.inf, -np.inf], [0.9, 0.1]])
    assert pp.pareto_mask(mu).tolist() == [True, False, True]
    # -inf in one column only: row 1 is dominated by row 0 (moocore alone keeps it)
    mu = np.array([[-np.inf, 3, 3, 0], [-np.inf, 2, 3, 0], [1, 2, 0, 2]])
    assert pp.pareto_mask(mu).tolist() == [True, False, True]


@FAST
@given(means_st(max_k=14, max_l=4), st.data())
def test_pareto_mask_with_infinite_entries_matches_brute_force(mu, data):
    which = data.draw(st.lists(st.sampled_from([0, 0, 0, -1, 1]), min_size=mu.size, max_size=mu.size))
    mu = mu.copy()
    mu.flat[np.array(which) == -1] = -np.inf
    mu.flat[np.array(which) == 1] = np.inf
    np.testing.assert_array_equal(pp.pareto_mask(mu), brute_pareto(mu))


def test_compiled_mask_of_few_arms_equals_moocores():
    """`pareto_mask` compares pairs up to SMALL_FRONT arms and calls moocore beyond: the same mask (ties, duplicates,
    infinities), checked on arrays just above the switch, where moocore answers."""
    from banditviz.pareto.kernels import nondominated

    rng = np.random.default_rng(5)
    for K, L in [(pp.SMALL_FRONT + 1, 2), (200, 3), (300, 4)]:
        mu = rng.integers(0, 6, (K, L)).astype(float)
        mu[rng.integers(K, size=5), 0], mu[rng.integers(K, size=3), L - 1] = -np.inf, np.inf
        mu[1] = mu[0]
        np.testing.assert_array_equal(nondominated(mu), pp.pareto_mask(mu))
        np.testing.assert_array_equal(nondominated(mu[:40]), pp.pareto_mask(mu[:40]))


def test_compiled_mask_is_the_same_in_any_visiting_order():
    """`nondominated_in` keeps an archive, so the order of the rows must not matter (ties, duplicates, infinities);
    `sort_by_sum` sorts by decreasing sum whatever order it starts from. The broken variant, an archive that never
    evicts, keeps rows that a later row dominates."""
    from banditviz.pareto.kernels import nondominated_in, row_sums, sort_by_sum

    rng = np.random.default_rng(8)
    for _ in range(200):
        K, L = int(rng.integers(1, 60)), int(rng.integers(1, 5))
        mu = rng.integers(0, 4, (K, L)).astype(float)
        mu[rng.random((K, L)) < 0.05] = -np.inf
        order, sums = rng.permutation(K), np.empty(K)
        row_sums(mu, sums)
        np.testing.assert_array_equal(nondominated_in(mu, order, sums), brute_pareto(mu))
        sort_by_sum(mu, order, sums)
        total = mu.sum(axis=1)[order]
        assert sorted(order) == list(range(K)) and (total[:-1] >= total[1:]).all()
        np.testing.assert_array_equal(nondominated_in(mu, order, sums), brute_pareto(mu))

    def no_eviction(mu, order):
        kept = []
        for a in order:
            if not any((mu[b] >= mu[a]).all() and (mu[b] > mu[a]).any() for b in kept):
                kept.append(a)
        return np.isin(np.arange(len(mu)), kept)

    mu = np.array([[0.0, 0.0], [1.0, 1.0]])
    assert not np.array_equal(no_eviction(mu, [0, 1]), brute_pareto(mu))
    np.testing.assert_array_equal(nondominated_in(mu, np.array([0, 1]), mu.sum(axis=1)), brute_pareto(mu))


def test_compiled_mask_compares_rows_of_equal_sum():
    """A row is compared for eviction only with members whose sum is not above its own; rows of equal floating-point
    sum can still dominate one another (1e16 + 1 and 1e16 + 0.5 both round to 1e16). The broken variant, comparing
    only rows of strictly larger sum, keeps the dominated row."""
    from banditviz.pareto.kernels import nondominated, nondominated_in, row_sums

    mu = np.array([[1e16, 0.5], [1e16, 1.0], [0.0, 0.0]])
    sums = np.empty(3)
    row_sums(mu, sums)
    assert sums[0] == sums[1]

    def strict_pruning(mu, order, sums):
        kept = []
        for a in order:
            if not any(sums[b] >= sums[a] and (mu[b] >= mu[a]).all() and (mu[b] > mu[a]).any() for b in kept):
                kept = [b for b in kept if not (sums[a] > sums[b] and (mu[a] >= mu[b]).all())] + [a]
        return np.isin(np.arange(len(mu)), kept)

    assert not np.array_equal(strict_pruning(mu, [0, 1, 2], sums), brute_pareto(mu))
    for order in ([0, 1, 2], [1, 0, 2], [2, 0, 1]):
        np.testing.assert_array_equal(nondominated_in(mu, np.array(order), sums), brute_pareto(mu))
    np.testing.assert_array_equal(nondominated(mu), brute_pareto(mu))


# --------------------------------------------------------------------------------------------------
# dominance, Pareto front, Pareto gap


@FAST
@given(means_st(max_k=14, max_l=5))
def test_dominance_front_and_pr_gap_match_brute_force(mu):
    K = len(mu)
    D = pp.dominated_by(mu)
    assert D.shape == (K, K) and D.dtype == bool
    for i, j in itertools.product(range(K), repeat=2):
        assert D[i, j] == brute_dominates(mu[j], mu[i])
    P = pp.pareto_mask(mu)
    np.testing.assert_array_equal(P, brute_pareto(mu))
    gap = pp.pareto_gap(mu)
    np.testing.assert_allclose(gap, brute_pr_gap(mu), atol=1e-12)
    assert (gap[P] == 0).all()  # a in P  =>  Delta^PR = 0 (MOL-TS Sec. 3.3)


def test_identical_vectors_never_dominate_and_are_both_kept():
    mu = np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
    assert not pp.dominated_by(mu)[0, 1] and not pp.dominated_by(mu)[1, 0]
    assert pp.pareto_mask(mu).tolist() == [True, True, False]
    assert pp.effective_pareto_mask(mu).tolist() == [True, True, False]


def test_pareto_gap_weak_tie_pitfall():
    """MOL-TS Def. 3: (1, .5) is dominated by (1, .7) yet its PR gap is 0."""
    mu = np.array([[1.0, 0.5], [1.0, 0.7]])
    assert pp.pareto_mask(mu).tolist() == [False, True]
    np.testing.assert_array_equal(pp.pareto_gap(mu), [0.0, 0.0])


def test_pareto_gap_hand_2d():
    mu = np.array([[1.0, 1.0], [0.5, 0.2], [0.0, 2.0], [-1.0, -1.0]])
    np.testing.assert_allclose(pp.pareto_gap(mu), [0.0, 0.5, 0.0, 2.0])


# --------------------------------------------------------------------------------------------------
# effective Pareto front and gap (MOL-TS Def. 5)


@LPSET
@given(means_st(max_k=12, max_l=5))
def test_effective_mask_matches_lp_references(mu):
    fast = pp.effective_pareto_mask(mu)
    ref = effective._effective_mask_lp(mu)
    np.testing.assert_array_equal(fast, ref)
    P = pp.pareto_mask(mu)
    assert not (fast & ~P).any()  # C subset of P
    if mu.shape[1] >= 2 and len(mu) <= 8:  # the dual feasibility form, on the Pareto arms
        for k, a in enumerate(np.flatnonzero(P)):
            assert dual_member(mu[P], k) == fast[a]


@LPSET
@given(means_st(max_k=10, max_l=5))
def test_effective_gap_matches_lp_references(mu):
    gap = pp.effective_gap(mu)
    ref = effective._effective_gap_lp(mu)
    np.testing.assert_allclose(gap, ref, atol=1e-8)
    one = np.array([pp.effective_gap_of(mu, a) for a in range(len(mu))])
    np.testing.assert_allclose(one, ref, atol=1e-8)
    for a in range(min(len(mu), 3)):
        assert abs(dual_gap(mu, a) - gap[a]) <= 1e-8
    C = pp.effective_pareto_mask(mu)
    pr = pp.pareto_gap(mu)
    assert (gap[C] <= 1e-8).all()  # a in C  =>  Delta^EPR = 0
    assert (pr <= gap + 1e-9).all()  # PR <= EPR (MOL-TS Sec. 3)


def test_compiled_2d_mask_is_the_lp_references_on_degenerate_fronts():
    """`effective_mask_2d` (MOL-TS's compiled loop takes it every round at L = 2) equals the LP reference on collinear
    fronts, points within the tolerance of an edge or just below it, ties in one objective, -0.0 against 0.0 and
    grids full of ties; it defers (empty) exactly when two Pareto rows are equal, where `effective_pareto_mask` still
    equals the reference. A chain that pops collinear points (MOL-TS Def. 5 keeps them) is rejected."""
    hand = [
        [[0.0, 1.0], [0.5, 0.5], [1.0, 0.0]],  # collinear: all three efficient
        [[0.0, 1.0], [0.5, 0.5 - 1e-12], [1.0, 0.0]],  # within the tolerance of the edge: kept
        [[0.0, 1.0], [0.5, 0.4], [1.0, 0.0]],  # below the edge: out
        [[0.0, 1.0], [0.0, 0.5], [1.0, 0.0], [0.25, 0.75], [0.75, 0.25]],  # a tie in objective 1; four collinear
        [[-0.0, 1.0], [0.0, 1.0], [1.0, 0.0]],  # equal by value: deferred
        [[0.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.2, 0.2]],  # duplicated Pareto rows: deferred
    ]
    rng = np.random.default_rng(7)
    grids = [np.round(rng.uniform(0, 4, size=(int(rng.integers(1, 30)), 2))) / 4 for _ in range(300)]
    popping = 0
    for mu in [np.array(m) for m in hand] + grids:
        ref = effective._effective_mask_lp(mu)
        got = effective.effective_mask_2d(mu, 1e-9)
        P = pp.pareto_mask(mu)
        equal_rows = len(np.unique(mu[P] + 0.0, axis=0)) < P.sum()
        assert got.size == (0 if equal_rows else len(mu)), mu
        if got.size:
            np.testing.assert_array_equal(got, ref, err_msg=str(mu))
        np.testing.assert_array_equal(pp.effective_pareto_mask(mu), ref, err_msg=str(mu))
        front, U, row, top = kernels.front_rows(mu)
        if U.shape[0] >= 3:  # the broken variant: collinear middle points popped (>= instead of >)
            strict = np.zeros(len(U), bool)
            strict[_chain_popping_collinear(U)] = True
            popping += not np.array_equal(strict[row], ref[front])
    assert popping


def _chain_popping_collinear(U: np.ndarray) -> list[int]:
    """A broken upper chain for the test above: pops the middle point of collinear triples."""
    stack: list[int] = []
    for i, (cx, cy) in enumerate(U):
        while len(stack) >= 2:
            (ax, ay), (bx, by) = U[stack[-2]], U[stack[-1]]
            if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= 0:
                stack.pop()
            else:
                break
        stack.append(i)
    return stack


def _random_instances(seed: int, n: int):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        K, L = int(rng.integers(2, 41)), int(rng.integers(2, 7))
        yield rng.normal(size=(K, L)) * rng.uniform(0.1, 10)


def test_random_instances_invariants_and_converses():
    """MOL-TS Sec. 3.3 on seeded continuous instances (K in [2, 60], L in [2, 6])."""
    for mu in _random_instances(0, 12):
        C, P = pp.effective_pareto_mask(mu), pp.pareto_mask(mu)
        gap, pr = pp.effective_gap(mu), pp.pareto_gap(mu)
        np.testing.assert_array_equal(C, effective._effective_mask_lp(mu))
        assert not (C & ~P).any() and (pr <= gap + 1e-9).all()
        # converses hold on tie-free inputs
        np.testing.assert_array_equal(P, pr == 0)
        np.testing.assert_array_equal(C, gap <= 1e-8)
    for mu in _random_instances(1, 4):
        np.testing.assert_allclose(pp.effective_gap(mu), effective._effective_gap_lp(mu), atol=1e-8)


def _sphere(K: int, L: int, seed: int) -> np.ndarray:
    S = np.abs(np.random.default_rng(seed).normal(size=(K, L)))
    return S / np.linalg.norm(S, axis=1, keepdims=True)


@pytest.mark.parametrize("L", [2, 3, 4])
@pytest.mark.parametrize("shape", ["concave", "convex", "box", "face"])
def test_structured_fronts_match_lp(shape, L):
    S = _sphere(50, L, seed=L)
    face = np.array([c for c in itertools.product(range(6), repeat=L) if sum(c) == 5], float) / 5
    mu = {"concave": S, "convex": 1 - S, "box": np.random.default_rng(L).random((60, L)), "face": face}[shape]
    C = pp.effective_pareto_mask(mu)
    np.testing.assert_array_equal(C, effective._effective_mask_lp(mu))
    np.testing.assert_allclose(pp.effective_gap(mu), effective._effective_gap_lp(mu), atol=1e-8)
    if shape in ("concave", "face"):
        assert C.all()  # strictly concave front / points on the simplex face: every arm is effective


def test_fast_path_avoids_lps_on_large_fronts(monkeypatch):
    """K = 1000, L = 3: the certificates decide (almost) every arm without an LP."""
    calls = []
    real = effective._slack_lp
    monkeypatch.setattr(effective, "_slack_lp", lambda P, a: calls.append(1) or real(P, a))
    S = _sphere(1000, 3, seed=0)
    assert pp.effective_pareto_mask(S).all()
    assert len(calls) == 0
    C = pp.effective_pareto_mask(1 - S)
    assert 0 < C.sum() < 50 and len(calls) <= 50


def test_worked_example_2_5():
    """MOL-TS Def. 6: (2,0), (0,2), (1,.9): third arm in P, not in C, PR 0 and EPR 0.05."""
    mu = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 0.9]])
    assert pp.pareto_mask(mu).tolist() == [True, True, True]
    assert pp.effective_pareto_mask(mu).tolist() == [True, True, False]
    np.testing.assert_allclose(pp.pareto_gap(mu), [0, 0, 0], atol=1e-12)
    np.testing.assert_allclose(pp.effective_gap(mu), [0, 0, 0.05], atol=1e-12)
    assert pp.effective_gap_of(mu, 2) == pytest.approx(0.05, abs=1e-12)
    assert effective._effective_gap_lp(mu)[2] == pytest.approx(0.05, abs=1e-9)
    np.testing.assert_array_equal(pp.upper_hull_2d(mu), [1, 0])


def _best_pair_slack(b: np.ndarray, c: np.ndarray, x: np.ndarray) -> float:
    """max over lambda in [0, 1] of sum(lambda b + (1 - lambda) c - x) with every term >= 0 (linprog); -inf if none."""
    res = linprog([-(b - c).sum()], A_ub=-(b - c)[:, None], b_ub=c - x, bounds=[(0.0, 1.0)], method="highs")
    return -res.fun + (c - x).sum() if res.status == 0 else -np.inf


def test_pair_certificates_are_the_best_two_arm_mixtures():
    """`kernels.pairs_certify_out` certifies a row out of C* iff the best mixture of some two arms beats it by more
    than tol + L err in total (a one-variable LP per pair, linprog), and every row it certifies has an LP slack over
    all arms above the tolerance (MOL-TS Def. 5); a kernel that stops at the first arm b of a row fails it. Hand
    case: (0.5, 0.5, 0.4) against (1, 0, 1) and (0, 1, 1), whose only dominating mixture (lambda = 1/2) ties it in two
    objectives and beats it by 0.6 in the third (a kernel asking more than err in every objective fails it)."""
    U = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.5, 0.5, 0.4]])
    assert kernels.pairs_certify_out(U, np.array([2]), U[:2], 1e-9, round_err(U)).tolist() == [True]
    rng = np.random.default_rng(7)
    certified = 0
    for _ in range(30):
        U = rng.normal(size=(int(rng.integers(4, 9)), int(rng.integers(3, 9))))
        tol, err = 1e-9 * max(1.0, np.abs(U).max()), round_err(U)
        idx = np.arange(len(U))
        got = kernels.pairs_certify_out(U, idx, U, tol, err)
        want = [any(_best_pair_slack(U[b], U[c], U[a]) > tol + U.shape[1] * err
                    for b in range(len(U)) for c in range(len(U))) for a in idx]
        assert got.tolist() == want
        for a in np.flatnonzero(got):
            assert effective._slack_lp(U, U[a]) > tol
        certified += int(got.sum())
    assert certified > 30  # the check is not vacuous (41 rows certified here)


def test_midpoint_face_point_is_effective():
    """MOL-TS Def. 5: a non-vertex point of an efficient face is in C*."""
    mu = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
    assert pp.effective_pareto_mask(mu).all() and effective._effective_mask_lp(mu).all()
    np.testing.assert_array_equal(pp.effective_gap(mu), [0, 0, 0])
    np.testing.assert_array_equal(pp.upper_hull_2d(mu), [0, 2, 1])
    face3 = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [1 / 3, 1 / 3, 1 / 3], [0.5, 0.5, 0.0]])
    assert pp.effective_pareto_mask(face3).all()


def test_weak_tie_case_2d():
    """MOL-TS Sec. 3.4: {(1,.5), (1,.7), (0,1)}: arm 0 in neither P nor C, yet PR = EPR = 0."""
    mu = np.array([[1.0, 0.5], [1.0, 0.7], [0.0, 1.0]])
    assert pp.pareto_mask(mu).tolist() == [False, True, True]
    assert pp.effective_pareto_mask(mu).tolist() == [False, True, True]
    np.testing.assert_array_equal(pp.pareto_gap(mu), [0, 0, 0])
    np.testing.assert_allclose(pp.effective_gap(mu), [0, 0, 0], atol=1e-12)


def test_weakly_efficient_pareto_arm_in_3d_is_not_effective():
    """MOL-TS Def. 5: c = (.5,.5,.9) is Pareto optimal and maximises w = (.5,.5,0), but the mixture
    (.5,.5,1) of a and b dominates it, so it is not in C*; its gaps are PR = EPR = 0 (weak tie)."""
    mu = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.5, 0.5, 0.9]])
    assert pp.pareto_mask(mu).all()
    assert pp.effective_pareto_mask(mu).tolist() == [True, True, False]
    assert effective._effective_mask_lp(mu).tolist() == [True, True, False]
    assert effective._slack_lp(mu, mu[2]) == pytest.approx(0.1)
    np.testing.assert_allclose(pp.effective_gap(mu), [0, 0, 0], atol=1e-12)
    w = np.array([0.5, 0.5, 0.0])
    assert np.isclose(mu[2] @ w, (mu @ w).max())  # zero-weight argmax is no membership certificate
    # lift c slightly off the weak face: now a strictly positive weight makes it a maximiser
    lifted = mu.copy()
    lifted[2] = [0.5, 0.5, 0.9] + np.array([0.01, 0.01, 0.0])
    assert pp.effective_pareto_mask(lifted).all()


def test_l1_reduction():
    """MOL-TS Sec. 3.4: with one objective C = P = the argmax set."""
    mu = np.array([[0.3], [0.9], [0.9], [0.1]])
    assert pp.pareto_mask(mu).tolist() == [False, True, True, False]
    assert pp.effective_pareto_mask(mu).tolist() == [False, True, True, False]
    np.testing.assert_allclose(pp.effective_gap(mu), [0.6, 0, 0, 0.8])
    assert pp.effective_gap_of(mu, 3) == pytest.approx(0.8)


def test_single_arm():
    mu = np.array([[0.2, 0.4, 0.1]])
    assert pp.pareto_mask(mu).tolist() == [True]
    assert pp.effective_pareto_mask(mu).tolist() == [True]
    assert pp.effective_gap(mu).tolist() == [0.0] and pp.effective_gap_of(mu, 0) == 0.0
    assert pp.psi_gaps(mu).tolist() == [np.inf]


FIGURE1 = [
    np.array([[0.2, 1.0], [0.4, 0.4], [1.0, 0.2], [0.1, 0.1]]),
    np.array([[0.8, 0.1], [0.1, 0.8], [0.2, 0.2], [0.5, 0.5]]),
    np.array([[0.2, 0.9], [0.9, 0.2], [0.4, 0.4], [0.1, 0.1]]),
]


def test_figure1_fixture():
    """MOL-TS Fig. 1: P, C, EPR and PR gaps per round; agents' totals and regrets."""
    P = [[0, 1, 2], [0, 1, 3], [0, 1, 2]]
    C = [[0, 2], [0, 1, 3], [0, 1]]
    epr = [[0, 0.2, 0, 0.5], [0, 0, 0.3, 0], [0, 0, 0.15, 0.45]]
    pr = [[0, 0, 0, 0.3], [0, 0, 0.3, 0], [0, 0, 0, 0.3]]
    for t, mu in enumerate(FIGURE1):
        assert np.flatnonzero(pp.pareto_mask(mu)).tolist() == P[t]
        assert np.flatnonzero(pp.effective_pareto_mask(mu)).tolist() == C[t]
        assert np.flatnonzero(effective._effective_mask_lp(mu)).tolist() == C[t]
        np.testing.assert_allclose(pp.effective_gap(mu), epr[t], atol=1e-9)
        np.testing.assert_allclose(effective._effective_gap_lp(mu), epr[t], atol=1e-9)
        np.testing.assert_allclose(pp.pareto_gap(mu), pr[t], atol=1e-12)
    agents = {"agent1": [1, 3, 2], "agent2": [0, 3, 1]}
    totals = {k: sum(FIGURE1[t][a] for t, a in enumerate(v)) for k, v in agents.items()}
    np.testing.assert_allclose(totals["agent1"], [1.3, 1.3], atol=1e-12)
    np.testing.assert_allclose(totals["agent2"], [1.6, 1.7], atol=1e-12)
    for name, arms, want in (("agent1", agents["agent1"], 0.35), ("agent2", agents["agent2"], 0.0)):
        EPR = sum(pp.effective_gap_of(FIGURE1[t], a) for t, a in enumerate(arms))
        PR = sum(pp.pareto_gap(FIGURE1[t])[a] for t, a in enumerate(arms))
        assert EPR == pytest.approx(want, abs=1e-9), name
        assert PR == 0.0


# --------------------------------------------------------------------------------------------------
# drawing helpers


@FAST
@given(means_st(max_k=20, min_l=2, max_l=2))
def test_upper_hull_2d_is_the_effective_front_in_order(mu):
    idx = pp.upper_hull_2d(mu)
    C = pp.effective_pareto_mask(mu)
    assert sorted(idx.tolist()) == np.flatnonzero(C).tolist()
    x, y = mu[idx, 0], mu[idx, 1]
    assert (np.diff(x) >= 0).all() and (np.diff(y) <= 0).all()
    # the polyline is concave: every arm lies on or below it (within float noise)
    ux, first = np.unique(x, return_index=True)
    for p in mu:
        if ux.size >= 2 and ux[0] <= p[0] <= ux[-1]:
            assert p[1] <= np.interp(p[0], ux, y[first]) + 1e-9


def test_upper_hull_2d_keeps_collinear_and_duplicates():
    mu = np.array([[0.0, 3.0], [1.0, 2.0], [2.0, 1.0], [3.0, 0.0], [1.0, 2.0], [1.0, 1.0]])
    np.testing.assert_array_equal(pp.upper_hull_2d(mu), [0, 1, 4, 2, 3])


@FAST
@given(means_st(min_k=1, max_k=15, min_l=3, max_l=3))
def test_efficient_facets_3d_are_supporting_positive_facets(mu):
    F = pp.efficient_facets_3d(mu)
    assert F.ndim == 2 and F.shape[1] == 3 and F.dtype.kind == "i"
    C = pp.effective_pareto_mask(mu)
    for tri in F:
        assert C[tri].all()  # every facet vertex is effective
        a, b, c = mu[tri]
        n = np.cross(b - a, c - a)
        n = n if n.sum() > 0 else -n
        n = n / np.linalg.norm(n)
        assert (n > 0).all()
        assert (mu @ n <= a @ n + 1e-9).all()  # supporting plane of the whole point set


def test_efficient_facets_3d_hand_and_degenerate():
    simplex = np.vstack([np.eye(3), [[0.0, 0.0, 0.0]]])
    F = pp.efficient_facets_3d(simplex)
    assert sorted(F[0].tolist()) == [0, 1, 2] and len(F) == 1
    empty_cases = [np.eye(3), np.zeros((5, 3)), np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0.0]]),
                   np.array([[1.0, 1, 1]] * 6), np.array([[i, 2 * i, 3 * i] for i in range(5)], float)]
    for mu in empty_cases:
        out = pp.efficient_facets_3d(mu)
        assert out.shape == (0, 3)
    # a cube: the only facets with a strictly positive normal... none (its faces are axis-aligned)
    cube = np.array(list(itertools.product([0.0, 1.0], repeat=3)))
    assert pp.efficient_facets_3d(cube).shape == (0, 3)
    # a concave cap: many triangles, all vertices in C
    S = _sphere(200, 3, seed=3)
    F = pp.efficient_facets_3d(S)
    assert len(F) > 100 and pp.effective_pareto_mask(S)[F].all()


def test_pareto_staircase_2d():
    mu = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5], [0.2, 0.2], [0.5, 0.5]])
    x, y = pp.pareto_staircase_2d(mu)
    np.testing.assert_array_equal(x, [0.0, 0.0, 0.5, 0.5, 1.0])
    np.testing.assert_array_equal(y, [1.0, 0.5, 0.5, 0.0, 0.0])
    x, y = pp.pareto_staircase_2d(np.array([[0.3, 0.4]]))
    assert x.tolist() == [0.3] and y.tolist() == [0.4]


@FAST
@given(means_st(max_k=20, min_l=2, max_l=2))
def test_pareto_staircase_2d_properties(mu):
    x, y = pp.pareto_staircase_2d(mu)
    front = np.unique(mu[pp.pareto_mask(mu)], axis=0)
    assert len(x) == len(y) == 2 * len(front) - 1
    assert (np.diff(x) >= 0).all() and (np.diff(y) <= 0).all()
    corners = {(float(a), float(b)) for a, b in zip(x[::2], y[::2], strict=True)}
    assert corners == {(float(a), float(b)) for a, b in front}


# --------------------------------------------------------------------------------------------------
# PSI gaps and complexities (LinPSI Sec. 2.1, RAMGapE Sec. 2)


@FAST
@given(means_st(max_k=10, max_l=4))
def test_psi_gaps_match_loop_and_split(mu):
    g = pp.psi_gaps(mu)
    np.testing.assert_allclose(g, psi_loop(mu), atol=1e-12)
    np.testing.assert_allclose(g, psi_split(mu), atol=1e-12)


def test_psi_gaps_sanity_examples_001():
    """LinPSI Sec. 2.1, eq. (1) on hand-worked examples."""
    mu = np.array([[1, 0], [0.8, 0.5], [0.5, 0.8], [0, 1], [0.72, 0.45], [0.42, 0.74], [0.9, -0.1],
                   [-0.1, 0.92]])
    g = pp.psi_gaps(mu)
    np.testing.assert_allclose(g, [0.10, 0.05, 0.06, 0.08, 0.05, 0.06, 0.10, 0.08], atol=1e-12)
    cx = pp.psi_complexity(g, h=8)
    assert cx["H1"] == pytest.approx(1868.0556, abs=1e-3)
    assert cx["H1_lin"] == pytest.approx(1868.0556, abs=1e-3)
    assert cx["H2"] == pytest.approx(4 / 0.06**2) and cx["H2_lin"] == pytest.approx(1111.111, abs=1e-3)
    np.testing.assert_allclose(pp.psi_gaps(np.array([[1, 0], [0, 1]])), [1, 1])
    np.testing.assert_allclose(pp.psi_gaps(np.array([[1, 0], [0, 1], [0.9, -0.05]])), [0.05, 0.95, 0.05],
                               atol=1e-12)


def test_psi_gaps_degenerate_ties():
    """LinPSI Sec. 2.1, eq. (1): weakly dominated arm and duplicated Pareto arms get gap 0."""
    np.testing.assert_array_equal(pp.psi_gaps(np.array([[1.0, 0.5], [1.0, 0.7]])), [0.0, 0.0])
    np.testing.assert_array_equal(pp.psi_gaps(np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))[:2], [0, 0])


def _risk_averse_gaps(mu: np.ndarray, xi: np.ndarray) -> np.ndarray:
    """RAMGapE Sec. 2 rules literally (strict dominance, maximise mu and minimise xi), as loops."""
    K = len(mu)
    dom = lambda j, i: mu[j] > mu[i] and xi[j] < xi[i]  # noqa: E731
    m = lambda i, j: min(mu[j] - mu[i], xi[i] - xi[j])  # noqa: E731
    M = lambda i, j: max(mu[i] - mu[j], xi[j] - xi[i])  # noqa: E731
    D = [not any(dom(j, i) for j in range(K)) for i in range(K)]
    gap = [0.0] * K
    for i in range(K):
        if not D[i]:
            gap[i] = max(m(i, j) for j in range(K) if D[j] and dom(j, i))
    for i in range(K):
        if D[i]:
            a = min([min(M(i, j), M(j, i)) for j in range(K) if D[j] and j != i], default=np.inf)
            b = min([max(M(j, i), 0.0) + gap[j] for j in range(K) if not D[j]], default=np.inf)
            gap[i] = min(a, b)
    return np.array(gap)


def test_psi_gaps_equal_risk_averse_gaps_on_tie_free_2d():
    rng = np.random.default_rng(4)
    for _ in range(30):
        K = int(rng.integers(2, 15))
        mu, xi = rng.random(K), rng.random(K)
        np.testing.assert_allclose(pp.psi_gaps(np.column_stack([mu, -xi])), _risk_averse_gaps(mu, xi),
                                   atol=1e-12)


def test_psi_complexity_definition_and_validation():
    g = np.array([0.5, 0.1, 0.2, np.inf])
    cx = pp.psi_complexity(g)
    assert set(cx) == {"H1", "H2"}
    assert cx["H1"] == pytest.approx(100 + 25 + 4)
    assert cx["H2"] == pytest.approx(max(1 * 100, 2 * 25, 3 * 4))
    cx = pp.psi_complexity(g, h=2)
    assert cx["H1_lin"] == pytest.approx(125) and cx["H2_lin"] == pytest.approx(100)
    assert pp.psi_complexity([0.0, 1.0])["H1"] == np.inf
    for bad in ([], [[0.1]], [np.nan], [-0.1]):
        with pytest.raises(ValueError, match="^gaps: "):
            pp.psi_complexity(bad)
    for h in (0, 5, 1.5):
        with pytest.raises(ValueError, match="^h: "):
            pp.psi_complexity(g, h=h)


# --------------------------------------------------------------------------------------------------
# hypervolume


@st.composite
def hv_case(draw):
    L = draw(st.sampled_from([2, 3]))
    n = draw(st.integers(0, 7))
    vals = st.one_of(st.integers(-1, 4).map(lambda v: v / 4), st.floats(-0.5, 1, allow_subnormal=False))
    pts = np.array(draw(st.lists(st.lists(vals, min_size=L, max_size=L), min_size=n, max_size=n)),
                   dtype=float).reshape(n, L)
    ref = np.array(draw(st.lists(st.sampled_from([0.0, -0.25, 0.1]), min_size=L, max_size=L)))
    return pts, ref


@FAST
@given(hv_case())
def test_hypervolume_matches_grid_and_inclusion_exclusion(case):
    pts, ref = case
    hv = pp.hypervolume(pts, ref)
    assert hv == pytest.approx(hv_grid(pts, ref), abs=1e-12)
    assert hv == pytest.approx(hv_inclusion_exclusion(pts, ref), abs=1e-9)


def test_hypervolume_hand_cases_and_errors():
    assert pp.hypervolume([[1, 2], [2, 1]], [0, 0]) == pytest.approx(3.0)
    assert pp.hypervolume([[2, 1, 1], [1, 2, 1]], [0, 0, 0]) == pytest.approx(3.0)
    assert pp.hypervolume([[1, 1, 1], [1, 1, 1], [0.5, 0.5, 0.5]], [0, 0, 0]) == pytest.approx(1.0)
    assert pp.hypervolume([[1, 0], [2, -1]], [0, 0]) == 0.0  # not strictly better than ref: ignored
    assert pp.hypervolume(np.empty((0, 3)), [0, 0, 0]) == 0.0
    S = _sphere(4000, 2, seed=1)
    assert pp.hypervolume(S, [0, 0]) == pytest.approx(np.pi / 4, abs=2e-3)
    with pytest.raises(ValueError, match="^points: "):
        pp.hypervolume(np.ones((3, 4)), np.zeros(4))
    with pytest.raises(ValueError, match="^points: "):
        pp.hypervolume([1.0, 2.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="^points: "):
        pp.hypervolume([[np.nan, 1.0]], [0.0, 0.0])
    with pytest.raises(ValueError, match="^ref: "):
        pp.hypervolume([[1.0, 2.0]], [0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="^ref: "):
        pp.hypervolume([[1.0, 2.0]], [np.inf, 0.0])


# --------------------------------------------------------------------------------------------------
# lexicographic order (LexMOSLB Sec. 1)


def test_lex_dominates():
    assert pp.lex_dominates([1, 0], [0, 5])
    assert not pp.lex_dominates([0, 5], [1, 0])
    assert pp.lex_dominates([1, 2, 0], [1, 1, 9])
    assert not pp.lex_dominates([1, 2], [1, 2])
    assert not pp.lex_dominates([1 + 1e-13, 0], [1, 5])  # tie within atol, then worse
    assert pp.lex_dominates([1 + 1e-13, 0], [1, 5], atol=0)
    with pytest.raises(ValueError, match="^v: "):
        pp.lex_dominates([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="^u: "):
        pp.lex_dominates([[1, 2]], [1, 2])


@FAST
@given(means_st(max_k=15, max_l=4))
def test_lex_order_and_optimal_match_tuple_sort(mu):
    K = len(mu)
    want = sorted(range(K), key=lambda i: (tuple(-mu[i]), i))
    near = any(0 < np.diff(np.unique(mu[:, l])).min(initial=1.0) <= 1e-12 for l in range(mu.shape[1]))
    for atol in (0.0,) if near else (0.0, 1e-12):  # without near-ties atol = 1e-12 changes nothing
        order = pp.lex_order(mu, atol=atol)
        assert order.tolist() == want
        best = pp.lex_optimal(mu, atol=atol)
        assert best.tolist() == sorted(i for i in range(K) if (mu[i] == mu[want[0]]).all())
        for i, j in zip(order[:-1], order[1:], strict=True):
            assert not pp.lex_dominates(mu[j], mu[i], atol=atol)
    # a lex-optimal arm is Pareto optimal and a supported (effective) point (LexMOSLB Sec. 1)
    if mu.shape[1] >= 2:
        assert pp.effective_pareto_mask(mu)[pp.lex_optimal(mu)].all()


def test_lex_with_tolerance_table1_like():
    mu = np.array([[0.9, 0.5], [0.9 + 1e-13, 0.4], [0.8, 1.0], [0.9, 0.5]])
    assert pp.lex_optimal(mu).tolist() == [0, 3]
    assert pp.lex_order(mu).tolist() == [0, 3, 1, 2]
    assert pp.lex_optimal(mu, atol=0).tolist() == [1]
    assert pp.lex_order(mu, atol=0).tolist() == [1, 0, 3, 2]


def _unique_rows_mismatches(unique) -> int:
    """Random arrays (distinct rows, grids with ties, signed zeros) where ``unique`` differs from np.unique."""
    rng = np.random.default_rng(23)
    bad = 0
    for i in range(400):
        x = rng.random((int(rng.integers(1, 30)), int(rng.integers(1, 5))))
        if i % 3 == 0:
            x = np.round(x * 3) / 3 - 0.5
        if i % 5 == 0:
            x[rng.random(x.shape) < 0.3] = -0.0
        u, inv = unique(x)
        ref_u, ref_inv = np.unique(x, axis=0, return_inverse=True)
        bad += not (u.tobytes() == ref_u.tobytes() and u.shape == ref_u.shape
                    and np.array_equal(inv, np.asarray(ref_inv).reshape(-1)))
    return bad


def test_unique_rows_is_np_unique_to_the_bit():
    assert _unique_rows_mismatches(pp.unique_rows) == 0

    def last_column_first(x):  # broken: sorts by the last objective first
        order = np.lexsort(x.T)
        inv = np.empty(x.shape[0], dtype=np.intp)
        inv[order] = np.arange(x.shape[0])
        return x[order], inv

    assert _unique_rows_mismatches(last_column_first) > 50


@pytest.mark.parametrize("L", [3, 4, 5])
def test_gaps_of_one_compiled_call_equals_the_step_by_step_formulas(L):
    """`gaps_of` (front, row order, bounds and margin in one compiled call) gives, to the bit, the Pareto gap of the
    whole table and the effective gap from the front's distinct rows; tied rows (a grid) take numpy's path."""
    rng = np.random.default_rng(L)
    for i in range(60):
        mu = rng.normal(size=(int(rng.integers(2, 60)), L))
        if i % 3 == 0:
            mu = np.round(mu * 2) / 2
        for a in range(0, len(mu), 7):
            pareto_gap = float(np.maximum(0.0, (mu - mu[a]).min(axis=1).max()))
            U = pp.unique_rows(mu[pp.pareto_mask(mu)])[0]
            assert pp.gaps_of(mu, a) == (pareto_gap, float(effective._gap_one(U, mu[a], round_err(mu))[1])), (i, a)
    with pytest.raises(ValueError, match="arm"):
        pp.gaps_of(np.zeros((3, 3)), 3)


def _full_scan_settled_gap(U, target, W, err, bound_of=lambda lb, err: lb + err):
    """`kernels.settled_gap` by its definition: every weight's upper bound over every row (numpy; the scores summed in
    objective order from 0.0 as the kernel sums them, not by BLAS, whose order depends on the machine)."""
    lb = max(0.0, float((U - target).min(axis=1).max()))
    scores, own = np.zeros((len(U), len(W))), np.zeros(len(W))
    for j in range(U.shape[1]):
        scores, own = scores + U[:, j, None] * W[None, :, j], own + target[j] * W[:, j]
    ub = float((scores.max(axis=0) - own).min())
    return lb, 0.0 if ub <= err else lb if ub <= bound_of(lb, err) else np.nan


def _settled_gap_mismatches(settled) -> int:
    """Arms (every one of random tables, grids with ties, near-ties within the margin) where ``settled`` over every
    arm's row, or over the distinct Pareto rows, differs from the full scan over the Pareto rows."""
    rng = np.random.default_rng(41)
    bad = 0
    for i in range(150):
        L = 3 + i % 3
        mu = rng.normal(size=(int(rng.integers(2, 50)), L))
        if i % 3 == 0:
            mu = np.round(mu * 2) / 2
        if i % 3 == 1:  # near-ties: a copy of a row nudged within the rounding margin
            mu[-1] = mu[0] + rng.choice([-1.0, 1.0], L) * 2e-15
        W, err = pp.gap_weights(L), round_err(mu)
        U = pp.unique_rows(mu[pp.pareto_mask(mu)])[0]
        for a in range(len(mu)):
            ref = np.array(_full_scan_settled_gap(U, mu[a], W, err))
            for rows in (mu, U):
                bad += not np.array_equal(np.array(settled(rows, mu[a], W, err)), ref, equal_nan=True)
    return bad


def test_settled_gap_stops_early_with_the_full_scans_value_over_every_arm_or_the_front():
    """The early stops (a weight dropped at its first row over the bound, the weights taken until the value is known)
    and the bounds taken over every arm instead of the Pareto rows give the full scan's value to the bit, so
    `gaps_of` settles the gap before finding the front. A scan that asks every weight for the margin alone (forgetting
    the lower bound) leaves the gaps of dominated arms unsettled."""
    assert _settled_gap_mismatches(kernels.settled_gap) == 0
    assert _settled_gap_mismatches(lambda U, t, W, err: _full_scan_settled_gap(U, t, W, err, lambda lb, e: e)) > 100


def test_front_rows_in_one_call_equal_the_step_by_step_ones():
    """Pareto arms, distinct rows in lexicographic order, each arm's row, scale: the compiled call's values are the
    mask's, `unique_rows`' and max(1, max |mu|); tied front rows (a grid) take the step-by-step path."""
    rng = np.random.default_rng(3)
    for i in range(80):
        mu = rng.normal(size=(int(rng.integers(1, 40)), int(rng.integers(2, 6)))) * (1 + 4 * (i % 2))
        if i % 3 == 0:
            mu = np.round(mu)
        front, U, row, scale = pp.front_rows(mu)
        ref_front = np.flatnonzero(pp.pareto_mask(mu))
        ref_U, ref_row = pp.unique_rows(mu[ref_front])
        assert np.array_equal(front, ref_front) and np.array_equal(U, ref_U) and np.array_equal(row, ref_row)
        assert scale == max(1.0, float(np.abs(mu).max())) and np.array_equal(U[row], mu[front])
