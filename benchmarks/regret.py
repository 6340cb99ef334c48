"""Speed of the regret minimisers at K = 50, d = 5, L = 4 (the MOL-TS main preset, instance 0).

For each algorithm in `BENCHMARKED` it prints, at T = 2,000 and T = 8,000:

* the algorithm's own cost (``select`` + ``update`` only, in CPU time of the thread, contexts and rewards
  from the engine's environment), as rounds/s over the whole run and over its first and last 1,000 rounds
  (equal numbers mean a round costs the same late as early, i.e. the updates are rank-one);
* the same for a naive reference that refits the ridge estimate from the whole history every round
  (`NaiveRidge` swapped in for `SharedRidge`), and the ratio fast / naive, which grows with T;
* the full engine run (`banditviz.run`, no snapshots) with the per-round Pareto and effective Pareto
  regrets, whose exact effective gap (an LP when no certificate settles it) costs more than MOL-UCB itself;
  with ``--lp-only``, that run against the previous code in the same process (`previous_code`: by default
  the Pareto front and its distinct rows found step by step (no `kernels.front_rows`) and the LPs solved
  with presolve first;
  with ``--previous "session 3"`` also the effective front's certificates, the effective gap's bounds and the
  row order in numpy; with ``--previous "session 2"`` also moocore's Pareto masks, the numpy ridge step, no
  perceptron weight in MOL-TS's front sampler; with ``--previous "session 1"`` also every LP through
  ``scipy.optimize.linprog``, `banditviz.pareto.lp`'s reference, and ``np.unique`` for `pareto.unique_rows`),
  interleaved, medians of CPU time, with the ratio.

Target: >= 5,000 rounds/s for MOL-UCB's own cost, constant in T.  Usage:
``python benchmarks/regret.py [--horizons 2000 8000] [--algorithms mol_ts mol_ucb]``.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from contextlib import contextmanager

import numpy as np

import banditviz
from banditviz import preset
from banditviz.algorithms.base import AlgorithmSpec, get_algorithm
from banditviz.algorithms.estimators import SharedRidge
from banditviz.environment import Environment
from banditviz.pareto import dominance, effective, kernels, lp
from banditviz.simulate import make_problem

# Adding an algorithm is one line: its registry name (its module must build its ridge with `SharedRidge`).
BENCHMARKED = [
    "mol_ts",
    "mol_ucb",
    "mte2lo",  # lexicographic (003), contextual D_t; default lam = 0.1
]
INSTANCE = preset("mol_ts_main", seed=0)
WINDOW = 1000


class NaiveRidge(SharedRidge):
    """Reference: the same estimate, refitted from the whole history every round (O(t d^2) per round)."""

    def __init__(self, d: int, L: int, lam: float = 1.0, features: np.ndarray | None = None) -> None:
        if features is not None:
            raise ValueError("features: the naive reference recomputes from the contexts (contextual instances)")
        super().__init__(d, L, lam)
        self.xs: list[np.ndarray] = []
        self.ys: list[np.ndarray] = []

    def update(self, x: np.ndarray, reward: np.ndarray) -> None:
        self.xs.append(np.array(x, dtype=float))
        self.ys.append(np.array(reward, dtype=float))
        X, Y = np.array(self.xs), np.array(self.ys)
        self.V_inv = np.linalg.inv(self.lam * np.eye(X.shape[1]) + X.T @ X)
        self.Z = X.T @ Y
        self.theta = self.V_inv @ self.Z
        self.n += 1


class NumpyRidge(SharedRidge):
    """Reference: the previous code's rank-one step, in numpy (BLAS products, einsum widths, nothing kept)."""

    def __init__(self, d: int, L: int, lam: float = 1.0, features: np.ndarray | None = None) -> None:
        if features is not None:
            raise ValueError("features: the numpy reference recomputes from the contexts (contextual instances)")
        super().__init__(d, L, lam)

    def update(self, x: np.ndarray, reward: np.ndarray) -> float:
        Vx = self.V_inv @ x
        denom = 1.0 + x @ Vx
        self.V_inv -= np.outer(Vx, Vx) / denom
        self.Z += np.outer(x, reward)
        self.theta += np.outer(Vx, reward - x @ self.theta) / denom
        self.n += 1
        return float(denom - 1.0)

    def widths(self, X: np.ndarray | None = None) -> np.ndarray:
        return np.sqrt(np.maximum(np.einsum("kd,de,ke->k", X, self.V_inv, X), 0.0))

    def predict(self, X: np.ndarray | None = None) -> np.ndarray:
        return X @ self.theta


@contextmanager
def swapped_ridge(spec: AlgorithmSpec, ridge: type[SharedRidge]):
    """Swap ``ridge`` in for `SharedRidge` in the algorithm's module for the duration of the block."""
    module = sys.modules[spec.cls.__module__]
    if getattr(module, "SharedRidge", None) is not SharedRidge:
        raise ValueError(f"algorithm: {spec.name}'s module does not build its estimate with SharedRidge")
    module.SharedRidge = ridge
    try:
        yield
    finally:
        module.SharedRidge = SharedRidge


def own_cost(spec: AlgorithmSpec, horizon: int, seed: int = 0) -> np.ndarray:
    """Seconds spent in ``select`` + ``update`` at each round (the environment's work is not counted)."""
    env = Environment(INSTANCE, seed)
    alg = spec.make()
    problem = make_problem(INSTANCE, horizon, env.context)
    alg.reset(problem, env.policy_rng)
    out = np.empty(horizon)
    clock = time.thread_time  # CPU time: on a shared machine, wall-clock also counts waiting for a core
    for t in range(1, horizon + 1):
        env.next_round()
        problem.context = env.context
        start = clock()
        arm = alg.select(t)
        chosen = clock()
        reward = env.pull(arm)
        resumed = clock()
        alg.update(arm, reward)
        out[t - 1] = (chosen - start) + (clock() - resumed)
    return out


def rates(seconds: np.ndarray) -> str:
    w = min(WINDOW, len(seconds))
    return (f"{len(seconds) / seconds.sum():9,.0f} rounds/s (first {w}: {w / seconds[:w].sum():8,.0f}, "
            f"last {w}: {w / seconds[-w:].sum():8,.0f})")


def engine_rate(spec: AlgorithmSpec, horizon: int) -> tuple[float, float]:
    """Rounds per CPU second and per wall-clock second of a full engine run (no snapshots)."""
    cpu, wall = time.process_time(), time.perf_counter()
    banditviz.run(INSTANCE, spec, horizon, seed=0, snapshots=0)
    return horizon / (time.process_time() - cpu), horizon / (time.perf_counter() - wall)


def np_unique_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    u, inv = np.unique(x, axis=0, return_inverse=True)
    return u, np.asarray(inv).reshape(-1)


def np_bank_certifies(U: np.ndarray, a: int, W: np.ndarray, tol_abs: float, err: float) -> bool:
    scores = U @ W.T
    return bool(((scores.max(axis=0) - scores[a] + err) <= tol_abs * W.min(axis=1)).any())


def np_pair_mixture_dominates(U: np.ndarray, a: int, tol_abs: float, err: float) -> bool:
    u = U[a]
    diff = U[:, None, :] - U[None, :, :]
    need = u[None, None, :] - U[None, :, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = need / diff
    lo = np.maximum(np.where(diff > 0, ratio, -np.inf).max(axis=2), 0.0)
    hi = np.minimum(np.where(diff < 0, ratio, np.inf).min(axis=2), 1.0)
    ok = (lo < hi) & ~((diff == 0) & (need > 0)).any(axis=2)
    if not ok.any():
        return False
    beta = ((lo + hi) / 2)[ok][:, None]
    b, c = np.nonzero(ok)
    slack = beta * U[b] + (1 - beta) * U[c] - u
    return bool(((slack.min(axis=1) > err) & (slack.sum(axis=1) > tol_abs + U.shape[1] * err)).any())


def np_settled_gap(U: np.ndarray, target: np.ndarray, W: np.ndarray, err: float) -> tuple[float, float]:
    lb = max(0.0, float((U - target).min(axis=1).max()))
    ub = float(((U @ W.T).max(axis=0) - W @ target).min())
    return lb, 0.0 if ub <= err else lb if ub <= lb + err else np.nan


def np_distinct_row_order(x: np.ndarray) -> np.ndarray:
    order = np.lexsort(x.T[::-1])
    sx = x[order]
    return order if (sx[1:] != sx[:-1]).any(axis=1).all() else np.empty(0, dtype=np.int64)


NUMPY_KERNELS = {"bank_certifies": np_bank_certifies, "pair_mixture_dominates": np_pair_mixture_dominates,
                 "settled_gap": np_settled_gap, "distinct_row_order": np_distinct_row_order}


@contextmanager
def previous_code(spec: AlgorithmSpec, generation: str):
    """The code before a change: "session 4" finds the Pareto front and its distinct rows step by step (no
    `kernels.front_rows`) and solves every LP with presolve first; "session 3" also has the effective front's
    certificates, the effective gap's bounds and the order of distinct rows in numpy (`NUMPY_KERNELS`);
    "session 2" also moocore's Pareto masks, the numpy ridge step (`NumpyRidge`) and no perceptron weight in the
    front sampler (`kernels.cone_weight`); "session 1" also solves every LP of the effective front and gap
    through ``linprog`` and finds distinct rows by ``np.unique``."""
    fused, solve = kernels.front_rows, lp._solve_core
    kernels.front_rows = lambda mu: (None, mu[:0], None, None)  # "tied rows": the step-by-step path
    lp._solve_core = lambda c, A, lhs, rhs, lb, ub, presolve: solve(c, A, lhs, rhs, lb, ub, not presolve)
    compiled = {name: getattr(kernels, name) for name in NUMPY_KERNELS} if generation != "session 4" else {}
    for name in compiled:
        setattr(kernels, name, NUMPY_KERNELS[name])
    direct, unique, small, cone = lp.minimise, effective.unique_rows, dominance.SMALL_FRONT, kernels.cone_weight
    if generation in ("session 1", "session 2"):
        dominance.SMALL_FRONT = effective.SMALL_FRONT = 0
        kernels.cone_weight = lambda U, a, steps=64: np.zeros(U.shape[1])  # certifies nothing: the LP decides
    if generation == "session 1":
        lp.minimise = lambda *args, **kw: direct(*args, fast=False)
        effective.unique_rows = np_unique_rows
    try:
        with swapped_ridge(spec, NumpyRidge) if generation in ("session 1", "session 2") else contextlib.nullcontext():
            yield
    finally:
        lp.minimise, effective.unique_rows, kernels.cone_weight = direct, unique, cone
        dominance.SMALL_FRONT = effective.SMALL_FRONT = small
        kernels.front_rows, lp._solve_core = fused, solve
        for name, kernel in compiled.items():
            setattr(kernels, name, kernel)


def lp_ratio(spec: AlgorithmSpec, horizon: int, generation: str, repeats: int = 3) -> tuple[float, float]:
    """Median rounds per CPU second of the engine run, current and previous code (`previous_code`)."""
    fast, ref = [], []
    for _ in range(repeats):
        fast.append(engine_rate(spec, horizon)[0])
        with previous_code(spec, generation):
            ref.append(engine_rate(spec, horizon)[0])
    return float(np.median(fast)), float(np.median(ref))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--horizons", type=int, nargs="+", default=[2000, 8000])
    parser.add_argument("--algorithms", nargs="+", default=BENCHMARKED)
    parser.add_argument("--lp-only", action="store_true",
                        help="only the engine run, current vs previous code (medians of 3)")
    parser.add_argument("--previous", choices=("session 1", "session 2", "session 3", "session 4"),
                        default="session 4",
                        help="which previous code --lp-only compares with (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.lp_only:
        for name in args.algorithms:
            for horizon in args.horizons:
                fast, ref = lp_ratio(get_algorithm(name), horizon, args.previous)
                print(f"{name:>8} T={horizon:>6,}  engine run, both regrets: {fast:7,.0f} rounds per CPU second "
                      f"(previous code, {args.previous}: {ref:7,.0f}; ratio {fast / ref:4.2f})", flush=True)
        return
    print(f"instance: {INSTANCE.name}, K={INSTANCE.K}, d={INSTANCE.d}, L={INSTANCE.L}")
    for name in args.algorithms:
        spec = get_algorithm(name)
        for horizon in args.horizons:
            fast = own_cost(spec, horizon)
            with swapped_ridge(spec, NaiveRidge):
                naive = own_cost(spec, horizon)
            print(f"{name:>8} T={horizon:>6,}  own cost   {rates(fast)}")
            print(f"{'':>8} {'':>8}  naive refit {rates(naive)}")
            w = min(WINDOW, horizon)
            print(f"{'':>8} {'':>8}  ratio fast/naive: {naive.sum() / fast.sum():5.2f} (whole run), "
                  f"{naive[-w:].sum() / fast[-w:].sum():5.2f} (last {w} rounds)")
            cpu, wall = engine_rate(spec, horizon)
            print(f"{'':>8} {'':>8}  engine run with Pareto + effective regret: {cpu:9,.0f} rounds per CPU second "
                  f"({wall:,.0f} per wall-clock second)", flush=True)


if __name__ == "__main__":
    main()
