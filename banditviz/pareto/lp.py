"""Small dense linear programmes solved by HiGHS with little Python around the solve.

``scipy.optimize.linprog(method="highs")`` spends most of a small LP (a few dozen variables, <= 10 rows) in
its Python wrapper: input parsing, one option check per option, sparse conversions, result assembly.  The
effective Pareto front and gap (MOL-TS Def. 5, Def. 6) solve such an LP on many rounds of a contextual run,
so `minimise` hands the same model with the same options straight to the HiGHS object that scipy ships
(``scipy.optimize._highspy._core``, scipy >= 1.15).  It is the same solver on the same input (rows,
non-zeros in column order, bounds and options as ``linprog`` passes them), so the optimum is the same to
the bit (tested against ``linprog``); with an older scipy it calls ``linprog`` itself.

Both paths ask HiGHS for primal and dual feasibility within `FEASIBILITY` = 1e-9 instead of its default 1e-7 (an
absolute tolerance: the callers pass data scaled to magnitude ~1).  At 1e-7 it used an arm 1e-7 short of a constraint
and called "out" of the effective front an arm that a weight of ~1e-7 supports, where the compiled simplex and a hand
computation say "in".
"""

from __future__ import annotations

import threading

import numpy as np
from scipy.optimize import linprog

try:  # scipy's bundled HiGHS bindings (private module): the fast path
    from scipy.optimize._highspy import _core
except ImportError:  # pragma: no cover - scipy < 1.15
    _core = None

__all__ = ["minimise"]

FEASIBILITY = 1e-9  # HiGHS's primal and dual feasibility tolerances, on data of magnitude ~1


def _options(presolve: bool):
    """The options ``linprog(method="highs")`` sets (silent, dual simplex strategy, no debug)."""
    opts = _core.HighsOptions()
    opts.output_flag = False
    opts.log_to_console = False
    opts.highs_debug_level = _core.HighsDebugLevel.kHighsDebugLevelNone
    opts.simplex_strategy = _core.simplex_constants.SimplexStrategy.kSimplexStrategyDual
    opts.presolve = "on" if presolve else "off"
    opts.primal_feasibility_tolerance = opts.dual_feasibility_tolerance = FEASIBILITY
    return opts


if _core is not None:
    _COLWISE, _MINIMISE = int(_core.MatrixFormat.kColwise), int(_core.ObjSense.kMinimize)
_local = threading.local()  # one HiGHS object per thread (a HiGHS object is not thread-safe)


def _highs(presolve: bool):
    """This thread's HiGHS object with the options set; passing a model clears the previous model,
    its solution and basis, so every solve starts cold, as a fresh ``linprog`` call does."""
    solvers = getattr(_local, "solvers", None)
    if solvers is None:
        solvers = _local.solvers = {}
    if presolve not in solvers:
        solvers[presolve] = _core._Highs()
        solvers[presolve].passOptions(_options(presolve))
    return solvers[presolve]


def _solve_core(c, A, lhs, rhs, lb, ub, presolve: bool) -> float | None:
    n = c.size
    cols, rows = np.nonzero(A.T)  # column-major order of the non-zeros, as scipy's CSC conversion gives
    highs = _highs(presolve)
    status = highs.passModel(n, A.shape[0], rows.size, _COLWISE, _MINIMISE, 0.0, c, lb, ub, lhs, rhs,
                             np.searchsorted(cols, np.arange(n + 1)).astype(np.int32), rows.astype(np.int32),
                             A[rows, cols], np.zeros(n, dtype=np.int32))  # the model's arrays in one call
    if status == _core.HighsStatus.kError or highs.run() == _core.HighsStatus.kError:
        return None
    if highs.getModelStatus() != _core.HighsModelStatus.kOptimal:
        return None
    return float(highs.getObjectiveValue())


def _solve_linprog(c, A, lhs, rhs, lb, ub, presolve: bool) -> float | None:
    eq = lhs == rhs
    bounds = np.column_stack([lb, ub])
    res = linprog(c, A_ub=A[~eq] if (~eq).any() else None, b_ub=rhs[~eq] if (~eq).any() else None,
                  A_eq=A[eq] if eq.any() else None, b_eq=rhs[eq] if eq.any() else None,
                  bounds=bounds, method="highs", options={"presolve": presolve,
                                                          "primal_feasibility_tolerance": FEASIBILITY,
                                                          "dual_feasibility_tolerance": FEASIBILITY})
    return float(res.fun) if res.status == 0 else None


def minimise(c: np.ndarray, A: np.ndarray, lhs: np.ndarray, rhs: np.ndarray, lb: np.ndarray,
             ub: np.ndarray, *, fast: bool = True) -> float:
    """Optimal value of ``min c.x s.t. lhs <= A x <= rhs, lb <= x <= ub`` (dense A; rows with lhs = rhs
    are equalities, -inf / inf are absent bounds); solved without presolve (these LPs have a few rows: presolve
    took a third of the time), retried with it if HiGHS trips.

    Every caller's LP is feasible and bounded by construction, so a non-optimal status is numerical and
    raises RuntimeError.  ``fast=False`` goes through ``linprog`` (the reference the tests compare with).
    """
    arrays = [np.ascontiguousarray(x, dtype=float) for x in (c, A, lhs, rhs, lb, ub)]
    solve = _solve_core if fast and _core is not None else _solve_linprog
    for presolve in (False, True):
        value = solve(*arrays, presolve)
        if value is not None:
            return value
    raise RuntimeError("LP of the effective front failed: HiGHS found no optimum")
