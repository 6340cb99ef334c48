"""The direct HiGHS path of `banditviz.pareto.lp` against ``linprog`` (the reference), on the two LPs of the
effective Pareto front and gap (MOL-TS Def. 5, Def. 6): same optimum to the bit, many random instances
including ties, duplicated arms and a target on the front; a broken variant is rejected."""

from __future__ import annotations

import numpy as np
import pytest

from banditviz import pareto
from banditviz.pareto import effective, lp


def _instances(n_cases: int = 100):
    """Random (points, target) pairs; every third on a coarse grid (ties, duplicates, collinear points)."""
    rng = np.random.default_rng(17)
    for i in range(n_cases):
        n, L = int(rng.integers(1, 25)), int(rng.integers(2, 6))
        U = rng.random((n, L))
        if i % 3 == 0:
            U = np.round(U * 4) / 4
        kind = i % 4
        target = U[rng.integers(n)] - (0.0 if kind < 2 else 0.1 * rng.random(L))
        yield U, target


def _gap_lp(U, target):
    n, L = U.shape
    c = np.append(np.zeros(n), -1.0)
    A = np.vstack([np.hstack([-U.T, np.ones((L, 1))]), np.append(np.ones(n), 0.0)])
    return (c, A, np.append(np.full(L, -np.inf), 1.0), np.append(-target, 1.0),
            np.append(np.zeros(n), -np.inf), np.full(n + 1, np.inf))


def _slack_lp(U, target):
    n, L = U.shape
    A = np.zeros((L + 1, n + L))
    A[:L, :n], A[:L, n:], A[L, :n] = U.T, -np.eye(L), 1.0
    b = np.append(target, 1.0)
    return np.append(np.zeros(n), -np.ones(L)), A, b, b, np.zeros(n + L), np.full(n + L, np.inf)


def _mismatches(solve) -> int:
    """How many of the gap and slack LPs ``solve`` answers differently from ``linprog`` (exact comparison)."""
    bad = 0
    for U, target in _instances():
        for problem in (_gap_lp(U, target), _slack_lp(U, target)):
            bad += solve(*problem) != lp.minimise(*problem, fast=False)
    return bad


def test_direct_highs_equals_linprog_to_the_bit():
    assert lp._core is not None, "scipy's HiGHS bindings are expected here (scipy >= 1.15)"
    assert _mismatches(lp.minimise) == 0


def test_broken_variant_is_rejected():
    def nudged(c, A, lhs, rhs, lb, ub):  # first objective's bound one ulp off, as a sloppy copy would be
        lhs, rhs = lhs.copy(), rhs.copy()
        lhs[0], rhs[0] = np.nextafter(lhs[0], np.inf), np.nextafter(rhs[0], np.inf)
        return lp.minimise(c, A, lhs, rhs, lb, ub)

    assert _mismatches(nudged) > 20


def test_without_scipys_bindings_linprog_is_used(monkeypatch):
    U, target = next(_instances())
    expected = lp.minimise(*_gap_lp(U, target))
    monkeypatch.setattr(lp, "_core", None)
    assert lp.minimise(*_gap_lp(U, target)) == expected


def test_effective_gap_of_and_sampler_lp_match_the_linprog_reference(monkeypatch):
    """The metric (`effective_gap_of`) and the slack LP (`effective._slack_lp`: MOL-TS's membership LP when the
    compiled simplex fails, the effective front's last LPs) give the same values on both paths."""
    rng = np.random.default_rng(5)
    cases = [np.round(rng.random((int(rng.integers(3, 40)), 4)) * (3 if i % 2 else 50)) / 10 for i in range(40)]
    fast = [[pareto.effective_gap_of(mu, a) for a in range(mu.shape[0])] for mu in cases]
    slack = [effective._slack_lp(mu, mu[0]) for mu in cases]
    reference = lp.minimise
    monkeypatch.setattr(lp, "minimise", lambda *a, **k: reference(*a, fast=False))
    assert fast == [[pareto.effective_gap_of(mu, a) for a in range(mu.shape[0])] for mu in cases]
    assert slack == [effective._slack_lp(mu, mu[0]) for mu in cases]
    np.testing.assert_allclose(np.concatenate(fast), np.concatenate([effective._effective_gap_lp(mu) for mu in cases]),
                               atol=1e-9)


def test_infeasible_lp_raises():
    c, A, lhs, rhs, lb, ub = _slack_lp(np.zeros((2, 2)), np.ones(2))
    lb[:] = 1.0  # beta >= 1 with sum(beta) = 1 over two arms: infeasible
    with pytest.raises(RuntimeError, match="HiGHS found no optimum"):
        lp.minimise(c, A, lhs, rhs, lb, ub)
