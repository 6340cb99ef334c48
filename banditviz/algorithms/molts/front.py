"""An exact uniform draw from the effective Pareto front, without computing the whole front (MOL-TS Alg. 1, D9, D10).

MOL-TS needs one arm drawn uniformly from C~_t (Eq. 3), not the set itself.  The first member of C~_t in a
uniformly random order of the Pareto front P~_t is uniform over C~_t (C ⊆ P, and by symmetry every member is
equally likely to come first), so it suffices to test the arms of P~_t in random order until one is in C~_t:
about |P|/|C| ~ 2 tests a round instead of |P| ~ 20 (K = 50, L = 4).  Each test is exact, i.e. agrees with
the additive-DEA slack LP of MOL-TS Def. 5 with the tolerance of `pareto.effective_pareto_mask`
(total slack <= 1e-9 max(1, max|v|)), because every decision carries a certificate, tried in this order (the
cheapest first: the pair test costs |P|^2 L, the bank 256 |P| L):

* out: an explicit mixture of two Pareto arms y = beta u_b + (1 - beta) u_c with y - u_a > err in every
  objective and total slack > tol + L err is a feasible LP point beyond the tolerance;
* in: a strictly positive weight w (rows sum to 1) with (max_b w.u_b - w.u_a + err) / min(w) <= tol
  bounds the LP's total slack by tol (the weighted-sum theorem, MOL-TS Def. 5);
* in, second try: the same certificate with a weight searched by perceptron steps (`kernels.cone_weight`,
  kept >= 1e-4): it catches the arms supported only by weights near the simplex's edge (the best arm of a few
  objectives), which the bank misses (178 -> 29 LPs in 1,000 rounds of the main preset, same draws);
* for L = 3, the region of supporting weights on the weight triangle (`pareto.weight_region`), which proposes an in
  or an out certificate of the same kinds and leaves only a rounding band undecided;
* otherwise the LP itself, solved by the compiled simplex of `pareto.simplex` (HiGHS if it fails:
  `pareto.effective.slack_value`).

Reuse between rounds: the contexts and the samples are fresh every round, so no front carries over; only the
fixed weight bank (256 Dirichlet(1) weights) is reused.  Adding the dual weights of earlier rounds' LPs to the
bank was tried and saved under 5% of the LPs (0.24 -> 0.23 a round on the main preset), so it was dropped.
``err`` is the floating-point margin on a weighted sum of L numbers, `pareto.margin`: 8 L eps max(1, max|v|).

`draw_effective` is the same draw compiled (numba), for the compiled loop of contextual runs: the same kernels in
the same order (the rows of a front with two equal vectors, and HiGHS if the simplex fails, through object mode), so
it draws the same arm from the same generator state (tested).
"""

from __future__ import annotations

import numba
import numpy as np

from ... import pareto
from ...pareto import kernels, weight_region
from ...pareto.effective import slack_value

TOL = 1e-9
BANK = 256


class EffectiveFrontSampler:
    """Draws an arm uniformly from the effective Pareto front of a K x L array of vectors (L >= 3 worth it)."""

    def __init__(self, L: int) -> None:
        self.bank = np.random.default_rng(20_251_122 + L).dirichlet(np.ones(L), size=BANK)
        self.tests = self.lps = 0

    def is_effective(self, U: np.ndarray, a: int, tol_abs: float, err: float) -> bool:
        """Exact membership of u_a (a row of the distinct Pareto vectors U) in the effective front."""
        self.tests += 1
        if kernels.pair_mixture_dominates(U, a, tol_abs, err):
            return False
        if kernels.bank_certifies(U, a, self.bank, tol_abs, err):
            return True
        if kernels.bank_certifies(U, a, kernels.cone_weight(U, a)[None, :], tol_abs, err):
            return True
        if U.shape[1] == 3:
            verdict = weight_region.effective_by_region(U, a, tol_abs, err)
            if verdict >= 0:
                return bool(verdict)
        self.lps += 1
        return slack_value(U, U[a]) <= tol_abs

    def draw(self, vectors: np.ndarray, rng: np.random.Generator) -> int:
        """An arm uniform over the effective front: the first effective arm of a random order of the Pareto front.

        Consumes one permutation of the Pareto arms from ``rng``.
        """
        front, U, row, scale = pareto.front_rows(vectors)
        tol_abs, err = TOL * scale, pareto.margin(vectors.shape[1], scale)
        decided: dict[int, bool] = {}
        for k in rng.permutation(front.size):
            r = int(row[k])
            if r not in decided:
                decided[r] = self.is_effective(U, r, tol_abs, err)
            if decided[r]:
                return int(front[k])
        raise RuntimeError("effective front: no effective arm found, which MOL-TS Lemma 6 rules out")


_margin = numba.njit(cache=True)(pareto.margin)


@numba.njit(cache=True)
def _is_effective(U, a, bank, tol_abs, err):
    """`EffectiveFrontSampler.is_effective`, compiled."""
    if kernels.pair_mixture_dominates(U, a, tol_abs, err):
        return False
    if kernels.bank_certifies(U, a, bank, tol_abs, err):
        return True
    if kernels.bank_certifies(U, a, kernels.cone_weight(U, a).reshape(1, -1), tol_abs, err):
        return True
    if U.shape[1] == 3:
        verdict = weight_region.effective_by_region(U, a, tol_abs, err)
        if verdict >= 0:
            return verdict == 1
    return slack_value(U, U[a]) <= tol_abs


@numba.njit(cache=True)
def draw_effective(vectors, rng, bank):
    """`EffectiveFrontSampler.draw` with the weight bank ``bank``, compiled: -1 if no arm is effective."""
    front, U, row, scale = kernels.front_rows(vectors)
    if U.shape[0] == 0:  # two equal Pareto vectors: `pareto.front_rows` (np.unique) decides
        with numba.objmode(front="int64[:]", U="float64[:, :]", row="int64[:]", scale="float64"):
            front, U, row, scale = pareto.front_rows(vectors)
    tol_abs, err = TOL * scale, _margin(vectors.shape[1], scale)
    decided = np.full(U.shape[0], -1, dtype=np.int8)
    for k in rng.permutation(front.size):
        r = row[k]
        if decided[r] < 0:
            decided[r] = _is_effective(U, r, bank, tol_abs, err)
        if decided[r]:
            return front[k]
    return -1
