"""Filters, confidence radii, constants and theory bounds of the lexicographic bandits (LexMOSLB).

Pure functions shared by STE2LO, MTE2LO, PF-LEX and OFUL (`banditviz.algorithms.lexmoslb.learners`):

* `tied_argmax`: lowest index among the values within 1e-12 (1 + |max|) of the maximum (pitfall P6/P7).
* `chain_filter`: the chain relation C_i of LexMOSLB Sec. 3.1, used by STE2LO (eq. 15) and PF-LEX (eq. 11).
* `loaf`: the Lexicographically Ordered Arm Filter, Alg. 2, eqs. (17)-(18), used by MTE2LO (Alg. 3).
* `gamma_radius` (eq. 13), `pf_lex_beta` (LexMOSLB Sec. 2.2), `oful_alpha` (Sec. 2.1): unscaled confidence radii.
* `branch_name`: the branch of a round (the psi sets of LexMOSLB Sec. 3) as the rounds-by-branch tally names it.
* `ste2lo_epsilon`, `pf_lex_epsilon` (Sec. 4), `loaf_coefficients` (LexMOSLB Alg. 2),
  `theorem1_bound`, `theorem2_bound`, `lemma2_bound`, `proposition1_gap` (LexMOSLB Sec. 3).

The filters run on Python lists (one list of K floats per objective): with K of order 10 this is several
times faster than numpy calls on tiny arrays, and the stage loop of MTE2LO calls LOAF a few times per round.
Candidate lists are kept in ascending arm order, so "lowest index wins ties" is "first in the list".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TIE_RTOL = 1e-12


def tied_argmax(values: list[float], candidates: list[int]) -> int:
    """Lowest index of ``candidates`` whose value is >= max - 1e-12 (1 + |max|) (P6); +inf ties only +inf."""
    if len(candidates) == 1:
        return candidates[0]
    top = max(map(values.__getitem__, candidates))
    floor = top - TIE_RTOL * (1.0 + abs(top)) if math.isfinite(top) else top
    for k in candidates:
        if values[k] >= floor:
            return k
    raise ValueError("values: NaN among the candidates' values")


@dataclass(frozen=True)
class Cascade:
    """One objective-by-objective filter run: D^0 -> D^1 -> ... -> D^m.

    ``sets[i]`` are the arms surviving objective i + 1 (ascending), ``x_hat[i]`` the arm with the highest
    UCB on objective i + 1 among ``sets[i - 1]``; ``bounds[i]`` is the LOAF cut level u^i(x_hat^i) - c_i W
    (as ``(cut, inf)``) or the union interval [L, U] of the chained component.
    """

    kind: str  # "loaf" or "chain"
    start: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]
    x_hat: tuple[int, ...]
    bounds: tuple[tuple[float, float], ...]
    W: float = math.nan

    @property
    def survivors(self) -> tuple[int, ...]:
        return self.sets[-1]


def loaf(upper: list[list[float]], candidates: list[int], coefficients: list[float], W: float) -> Cascade:
    """Alg. 2 (LOAF): per objective i keep x with u^i(x) >= u^i(x_hat^i) - c_i W, eqs. (17)-(18).

    ``upper[i][k]`` is the UCB of arm k on objective i + 1; the inequality is non-strict, so x_hat^i
    always survives and no set is empty.
    """
    start = tuple(candidates)
    sets, hats, bounds = [], [], []
    for u, coef in zip(upper, coefficients, strict=True):
        best = tied_argmax(u, candidates)
        cut = u[best] - coef * W
        if len(candidates) > 1:
            candidates = [k for k in candidates if u[k] >= cut]
        sets.append(tuple(candidates))
        hats.append(best)
        bounds.append((cut, math.inf))
    return Cascade("loaf", start, tuple(sets), tuple(hats), tuple(bounds), W)


def chain_component(start: int, pool: list[int], lower: list[float],
                    upper: list[float]) -> tuple[set[int], float, float]:
    """Arms of ``pool`` chained to ``start`` through overlapping closed intervals (LexMOSLB Sec. 3.1), and their
    union [L, U].

    Fixed point: the union of a connected set of intervals is one interval, so an arm joins iff its
    interval meets the current union.
    """
    comp, lo, hi = {start}, lower[start], upper[start]
    changed = True
    while changed:
        changed = False
        for k in pool:
            if k not in comp and lower[k] <= hi and upper[k] >= lo:
                comp.add(k)
                lo, hi = min(lo, lower[k]), max(hi, upper[k])
                changed = True
    return comp, lo, hi


def chain_filter(lower: list[list[float]], upper: list[list[float]], candidates: list[int],
                 pool: str = "full") -> Cascade:
    """Chain filter of STE2LO (eq. 15) and PF-LEX (eq. 11): D^i = {x in D^{i-1} : x C_i x_hat^i}.

    ``pool="full"`` lets every arm of D_t be a chain intermediate (the literal definition);
    ``pool="candidates"`` only the arms of D^{i-1} (P8).
    """
    everyone = list(range(len(upper[0])))
    start = tuple(candidates)
    sets, hats, bounds = [], [], []
    for lo, up in zip(lower, upper, strict=True):
        best = tied_argmax(up, candidates)
        comp, L, U = chain_component(best, everyone if pool == "full" else candidates, lo, up)
        candidates = [k for k in candidates if k in comp]
        sets.append(tuple(candidates))
        hats.append(best)
        bounds.append((L, U))
    return Cascade("chain", start, tuple(sets), tuple(hats), tuple(bounds))


# ---------------------------------------------------------------------------------------------- radii
def branch_name(explored: bool, stage: int | None) -> str:
    """Exploration / exploitation; for MTE2LO (``stage`` s) explore@s (Alg. 3 l. 10) or final (l. 8)."""
    if stage is None:
        return "exploration" if explored else "exploitation"
    return f"explore@{stage}" if explored else "final"


def gamma_radius(t: int, d: int, m: int, delta: float, R: float) -> float:
    """gamma_t = R sqrt(d ln(m (1 + t) / delta)) + 1 (eq. 13), before the width scale c."""
    return R * math.sqrt(d * math.log(m * (1 + t) / delta)) + 1.0


def pf_lex_beta(t: int, K: int, m: int, delta: float, R: float) -> float:
    """beta_t = R sqrt(1 + 2 ln(K m sqrt(1 + t) / delta)) (LexMOSLB Sec. 2.2 [DECISION], P15), before the scale c."""
    return R * math.sqrt(1.0 + 2.0 * math.log(K * m * math.sqrt(1.0 + t) / delta))


def oful_alpha(logdet_V: float, delta: float, R: float, S: float = 1.0) -> float:
    """alpha_t = R sqrt(2 ln(det(V)^{1/2} / delta)) + S (LexMOSLB Sec. 2.1, Abbasi-Yadkori Thm 2, ridge 1)."""
    return R * math.sqrt(2.0 * (0.5 * logdet_V - math.log(delta))) + S


# ---------------------------------------------------------------------------------------------- constants
def ste2lo_epsilon(d: int, K: int, T: int) -> float:
    """epsilon = d^{2/3} (K T)^{-1/3} (LexMOSLB Sec. 4)."""
    return d ** (2 / 3) * (K * T) ** (-1 / 3)


def pf_lex_epsilon(K: int, T: int) -> float:
    """epsilon = (K T)^{-1/3} (LexMOSLB Sec. 4)."""
    return (K * T) ** (-1 / 3)


def analysis_stages(T: int) -> int:
    """S = floor(ln T) of Alg. 3 line 1 (analysis only, P9)."""
    return math.floor(math.log(T))


def loaf_coefficients(lam: float, m: int) -> list[float]:
    """c_i = 2 + 4 (lam + lam^2 + ... + lam^{i-1}) for i = 1..m (eq. 18)."""
    return [2.0 + 4.0 * sum(lam**k for k in range(1, i)) for i in range(1, m + 1)]


def geometric_sum(lam: float, i: int) -> float:
    """G_i = 1 + lam + ... + lam^{i-1}."""
    return sum(lam**k for k in range(i))


def theorem1_bound(epsilon: float, d: int, K: int, T: int, m: int, delta: float, R: float = 1.0) -> float:
    """Thm 1: 100 eps^-2 d ln T (R^2 d ln(m (1 + T) / delta) + 1) + 2 K T eps."""
    return 100 * epsilon**-2 * d * math.log(T) * (R**2 * d * math.log(m * (1 + T) / delta) + 1) + 2 * K * T * epsilon


def lemma2_bound(epsilon: float, d: int, T: int, m: int, delta: float, R: float = 1.0) -> float:
    """Lemma 2, eq. (27): exploration rounds |psi(T, eps)| <= 25 eps^-2 gamma_T^2 d ln T."""
    return 25 * epsilon**-2 * gamma_radius(T, d, m, delta, R) ** 2 * d * math.log(T)


def theorem2_bound(i: int, lam: float, d: int, T: int, m: int, delta: float, R: float = 1.0) -> float:
    """Thm 2: 8 G_i (sqrt T + 5 d ln T (R sqrt(ln(m (1 + T) / delta)) + 1) sqrt T), objective i (1-based)."""
    root = math.sqrt(T)
    radius = R * math.sqrt(math.log(m * (1 + T) / delta)) + 1
    return 8 * geometric_sum(lam, i) * (root + 5 * d * math.log(T) * radius * root)


def proposition1_gap(i: int, lam: float, W: float) -> float:
    """Prop. 1: every LOAF survivor x has <theta^i, x* - x> <= 4 G_i W (objective i, 1-based)."""
    return 4 * geometric_sum(lam, i) * W
