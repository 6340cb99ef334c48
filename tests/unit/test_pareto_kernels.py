"""The compiled Pareto primitives equal their numpy formulations (ties, duplicates, infinities), so every
caller (algorithms, metrics, figures) gets the numbers it got before; a zero gap is always +0.0."""

import numpy as np
import pytest

from banditviz import pareto


def numpy_pareto_mask(mu):
    """Dense numpy formulation: a dominated if some b is >= everywhere and > somewhere."""
    ge = (mu[None, :, :] >= mu[:, None, :]).all(axis=2)
    gt = (mu[None, :, :] > mu[:, None, :]).any(axis=2)
    return ~(ge & gt).any(axis=1)


def numpy_psi_gaps(mu):
    """LinPSI Sec. 2.1 gaps vectorised (the formulation `pareto.psi_gaps` used before it was compiled)."""
    K = mu.shape[0]
    Mm = mu[:, None, 0] - mu[None, :, 0]
    for l in range(1, mu.shape[1]):
        np.maximum(Mm, mu[:, None, l] - mu[None, :, l], out=Mm)
    dstar = np.maximum(0.0, (-Mm).max(axis=1))
    term = np.minimum(Mm, np.maximum(Mm.T, 0.0) + dstar[None, :])
    np.fill_diagonal(term, np.inf)
    delta = term.min(axis=1) if K > 1 else np.full(1, np.inf)
    return np.where(numpy_pareto_mask(mu), delta, dstar)


def cases(seed, allow_inf):
    rng = np.random.default_rng(seed)
    for K in (1, 2, 7, 40, 300):
        for L in (1, 2, 3, 4):
            yield rng.normal(size=(K, L))
            grid = rng.integers(0, 3, size=(K, L)).astype(float)  # ties and duplicates
            if allow_inf and K > 3:
                grid[::3, 0] = -np.inf
                grid[1::4, -1] = np.inf
            yield grid


@pytest.mark.parametrize("seed", [0, 1])
def test_pareto_mask_equals_the_dense_formulation(seed):
    for mu in cases(seed, allow_inf=True):
        assert np.array_equal(pareto.pareto_mask(mu), numpy_pareto_mask(mu))


@pytest.mark.parametrize("seed", [0, 1])
def test_psi_gaps_equal_the_numpy_formulation(seed):
    """Equal values (numpy's SIMD maxima may return -0.0 for a zero gap; the kernel always gives +0.0)."""
    for mu in cases(seed, allow_inf=False):
        got, want = pareto.psi_gaps(mu), numpy_psi_gaps(mu)
        assert np.array_equal(got, want) and not np.signbit(got).any()


def test_a_hand_worked_psi_example():
    """(1, 0), (0, 1), (0.4, 0.4) Pareto; (0.2, 0.1) dominated by the third, Delta*_3 = min(0.2, 0.3) = 0.2.
    Arm 0: j = 3 gives min(M(0,3) = 0.8, M(3,0)_+ + 0.2 = 0.3); arm 1: j = 2 gives min(0.6, 0.4); arm 2:
    j = 3 gives min(M(2,3) = 0.3, 0 + 0.2)."""
    mu = np.array([[1.0, 0.0], [0.0, 1.0], [0.4, 0.4], [0.2, 0.1]])
    np.testing.assert_allclose(pareto.psi_gaps(mu), [0.3, 0.4, 0.2, 0.2])


def numpy_successive_reject(mu, reject_on_ties=True):
    """EGE-SR's decision as the class made it before it was compiled (numpy argmax: first position on ties);
    ``reject_on_ties=False`` is a broken variant."""
    gaps, S = pareto.psi_gaps(mu, pareto.pareto_mask(mu)), pareto.pareto_mask(mu)
    i1 = np.flatnonzero(S)[np.argmax(gaps[S])] if S.any() else None
    i2 = np.flatnonzero(~S)[np.argmax(gaps[~S])] if (~S).any() else None
    if i1 is None or (i2 is not None and (gaps[i2] >= gaps[i1] if reject_on_ties else gaps[i2] > gaps[i1])):
        return i2, False
    return i1, True


@pytest.mark.parametrize("seed", [0, 1])
def test_the_successive_reject_decision_equals_the_numpy_formulation(seed):
    """The arm EGE-SR classifies, from its gaps and mask (ties included); the tie-heavy grids include decisions
    that a variant accepting on ties gets wrong."""
    from banditviz.pareto.kernels import successive_reject

    caught = 0
    for mu in cases(seed, allow_inf=False):
        gaps, S = pareto.psi_gaps(mu), pareto.pareto_mask(mu)
        assert successive_reject(gaps, S) == numpy_successive_reject(mu)
        caught += successive_reject(gaps, S) != numpy_successive_reject(mu, reject_on_ties=False)
    assert caught > 0
