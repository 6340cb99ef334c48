"""Speed of the identification algorithms of the PFIwR and LinPSI papers through `banditviz.run`.

* GEGE fixed confidence on NoC (delta = 0.01, authors_code budget): wall time per run and pulls/s, against a
  naive GEGE run in the same process (plain Frank-Wolfe without away steps or rank-one updates, design not
  memoised, estimate refitted by least squares on the stacked samples).
* EGE-SR, EGE-SH and GEGE fixed budget on NoC (T = 3,995): the engine's batch-wise loop against its
  round-by-round loop (``compiled=False``); EGE-SR also against its previous per-phase decision (numpy: moocore
  mask, gaps, argmax), run in the same process.
* GEGE fixed confidence at the size of the paper's Table 2 row [K, h, d] = [500, 8, 8] (delta = 0.1), which
  reports about 1 s per run (001 §4.5): random unit-norm features, Theta ~ N(0, 1).
* APE (fixed confidence, delta = 0.01) on the LinPSI Fig. 2 family at K = 32 and 128: the compiled step
  (`banditviz.algorithms.linpsi._ape`) against the numpy step it replaced (tests/unit/test_identify.py's
  reference, the same pulls to the bit), algorithm and rewards only.
* The per-arm noise streams of a NoC run (K = 259): compiled PCG64 states (`banditviz._noise.seed` of
  `banditviz.seeding.words`) and their `Generator`s (`seeding.generators`), against numpy's
  ``[default_rng(s) for s in seq.spawn(K)]``, the same streams; and the NoC fixed-budget runs with their Gaussian
  noise drawn by those numpy generators (one call an arm per refill, `GeneratorNoise`) instead of `_noise`
  (the same rewards), interleaved.
* PFIwR on the 000 §4.2 setting (p = 0.5, practical width, 10^4 rounds) against a naive PFIwR that
  rebuilds the Gram matrix from the whole history every round; PFIwR on fixed means (preset "default", the
  Compare page's setting, and the theory width that never stops within 20,000 rounds): the compiled loop
  against the Python class (``compiled=False``).

Usage: ``.venv/bin/python benchmarks/identify.py [path/to/noc_CM_log.csv]`` (default: banditviz.datasets).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import banditviz as bv
from banditviz import _noise, seeding
from banditviz import simulate as engine
from banditviz.algorithms.identification import empirical_gaps
from banditviz.algorithms.linpsi import optimal_design
from banditviz.algorithms.linpsi.baselines import EGESuccessiveRejects
from banditviz.algorithms.linpsi.gege import GEGEFixedConfidence
from banditviz.algorithms.pfiwr.learners import PFIwR
from banditviz.environment import Environment
from banditviz.instances import Instance
from banditviz.simulate import drive

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the numpy APE step, the tests' reference
from tests.unit.test_identify import NumpyAPE  # noqa: E402


def naive_design(Xt: np.ndarray, tol: float = 1e-3, max_iter: int = 100_000) -> tuple[np.ndarray, float]:
    """Textbook Frank-Wolfe on log det: full inverse every iteration, no away steps."""
    n, m = Xt.shape
    w = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        g = np.einsum("ij,jk,ik->i", Xt, np.linalg.inv(Xt.T @ (w[:, None] * Xt)), Xt)
        k = int(np.argmax(g))
        if g[k] <= (1 + tol) * m:
            break
        a = (g[k] / m - 1) / (g[k] - 1)
        w *= 1 - a
        w[k] += a
    return w, float(g.max() / m)


class NaiveGEGE(GEGEFixedConfidence):
    """GEGE-FC with the naive design and a least-squares refit on the stacked samples of the round."""

    def plan_round(self, n_pulls: float, rule: str) -> None:
        saved = optimal_design.cached_design
        optimal_design.cached_design = lambda Xt, tol: naive_design(Xt, tol)
        try:
            super().plan_round(n_pulls, rule)
        finally:
            optimal_design.cached_design = saved
        self.rows, self.ys = [], []

    def absorb(self, arms: np.ndarray, rewards: np.ndarray) -> None:
        super().absorb(arms, rewards)
        self.rows, self.ys = self.X[arms], rewards

    def estimate(self, box_delta: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        out = super().estimate(box_delta)
        theta = np.linalg.lstsq(self.rows @ self.basis, self.ys, rcond=None)[0]
        mu = self.X[self.active] @ self.basis @ theta
        assert np.allclose(mu, out[0], atol=1e-8), "naive and fast estimates differ"
        return out


class NaivePFIwR(PFIwR):
    """PFIwR whose Gram matrix and moment vector are rebuilt from the whole history every round."""

    def _kept_sums(self, t: int, n_drop: int) -> tuple[np.ndarray, np.ndarray]:
        X = self.X[self.hist_arm[:t]]
        return X.T @ X, X.T @ self.hist_y[:t]


class NumpyEGESR(EGESuccessiveRejects):
    """EGE-SR with its previous per-phase decision: sample means, moocore mask, PSI gaps and argmax in numpy."""

    def _decide(self) -> None:
        A = self.active
        mu = self.sample_means()[A]
        gaps, S = empirical_gaps(mu)
        i1 = np.flatnonzero(S)[np.argmax(gaps[S])] if S.any() else None
        i2 = np.flatnonzero(~S)[np.argmax(gaps[~S])] if (~S).any() else None
        out = i2 if i1 is None or (i2 is not None and gaps[i2] >= gaps[i1]) else i1
        if out == i1:
            self.accepted.append(int(A[i1]))
        self.classify([A[i1]] if out == i1 else [], [] if out == i1 else [A[i2]], {int(A[out]): "largest gap"})
        self.active = np.delete(A, out)
        if self.phase >= self.K - 1:
            self.finish(set(self.accepted) | set(self.active.tolist()), f"all {self.K - 1} phases are done")
        else:
            self.recommendation = tuple(sorted(set(self.accepted) | set(A[S].tolist())))


def table2_instance() -> Instance:
    """K = 500 unit-norm features in R^8, 8 correlated objectives Theta = 3 (v 1^T + 0.2 N(0, 1)).

    The paper does not give its instance; independent objectives would make most of the 500 arms
    Pareto optimal with gaps ~0.01 (GEGE-FC is not scale-invariant, 001 §6 item 9), so the objectives
    share a direction v and the means are scaled so that GEGE needs three rounds (smallest gap ~0.08).
    """
    rng = np.random.default_rng(2)
    X = rng.random((500, 8))
    v = rng.normal(size=8)
    theta = 3 * (v[:, None] + 0.2 * rng.normal(size=(8, 8)))
    return Instance.from_linear(X / np.linalg.norm(X, axis=1, keepdims=True), theta, sigma=0.5)


class GeneratorNoise(Environment):
    """The previous Gaussian noise: the same streams as numpy `Generator`s, refilled by one numpy call an arm."""

    def __init__(self, instance: Instance, seed: int) -> None:
        super().__init__(instance, seed)
        self.normal_streams = None
        self.generators = seeding.generators(seeding.words(np.random.SeedSequence(seed).spawn(3)[0], instance.K))

    def fill(self, arm: int, out: np.ndarray) -> None:
        self.generators[arm].standard_normal(out=out)
        out *= self.instance.sigma
        out += self.means[arm]


def with_noise(environment: type, fn):
    """``fn`` run by the engine with ``environment`` for its environments."""
    def call(*args):
        engine.Environment = environment
        try:
            return fn(*args)
        finally:
            engine.Environment = Environment
    return call


def timed(fn, seeds: range) -> tuple[float, float, float]:
    """(CPU seconds per run, wall seconds per run, pulls per CPU second) over the seeds.

    CPU time (this process) is the figure to compare: the machine may be shared, which inflates wall time.
    """
    wall, cpu, pulls = time.perf_counter(), time.process_time(), 0
    for s in seeds:
        pulls += fn(s)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / len(seeds), wall / len(seeds), pulls / cpu


def timeit(fn, n: int = 20) -> float:
    """CPU seconds per call of ``fn`` over n calls."""
    cpu = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - cpu) / n


def report(label: str, fast: tuple[float, float, float], naive: tuple[float, float, float] | None = None) -> None:
    line = f"  {label:<34} {fast[0]:7.3f} s/run CPU ({fast[1]:7.3f} wall) {fast[2]:10,.0f} pulls/s"
    if naive is not None:
        line += f" | naive {naive[0]:7.3f} s/run CPU, speed-up x{naive[0] / fast[0]:.1f}"
    print(line)


def main() -> None:
    try:
        noc = bv.preset("noc", csv_path=sys.argv[1] if len(sys.argv) > 1 else None)
    except ValueError as exc:
        print(f"GEGE on NoC skipped: {exc}")
    else:
        spec = bv.get_algorithm("gege_fc")
        print(f"GEGE fixed confidence on NoC (K={noc.K}, h=4, delta=0.01, authors_code)")
        fast = timed(lambda s: bv.run(noc, "gege_fc", 400_000, seed=s, snapshots=0, delta=0.01).rounds, range(5))
        naive = timed(lambda s: drive(NaiveGEGE(**spec.validate({"delta": 0.01})), noc, 400_000, s), range(5))
        report("GEGE-FC, engine", fast, naive)
        fb = bv.preset("noc", csv_path=sys.argv[1] if len(sys.argv) > 1 else None, sigma=0.25)
        print("NoC fixed budget (T = 3,995, sigma = 0.25): batch-wise engine loop vs the round-by-round loop "
              "(the authors' C++ takes 20-22 ms for EGE-SR, 1-3 ms for EGE-SH: benchmarks/peers_psi.py)")
        for name in ("ege_sr", "ege_sh", "gege_fb"):
            fast = timed(lambda s, n=name: bv.run(fb, n, 3995, seed=s, snapshots=0).rounds, range(5))
            slow = timed(lambda s, n=name: bv.run(fb, n, 3995, seed=s, snapshots=0, compiled=False).rounds, range(5))
            print(f"  {name:<8} {1e3 * fast[0]:7.1f} ms/run CPU, round by round {1e3 * slow[0]:7.1f} ms "
                  f"(x{slow[0] / fast[0]:.1f})")
        print("  the same runs, Gaussian noise from numpy generators (previous) vs compiled streams (medians of 5):")
        for name in ("ege_sr", "ege_sh", "gege_fb"):
            times: dict[type, list[float]] = {GeneratorNoise: [], Environment: []}
            for _ in range(5):
                for environment in times:
                    one = with_noise(environment, lambda s, n=name: bv.run(fb, n, 3995, seed=s, snapshots=0).rounds)
                    times[environment].append(timed(one, range(10))[0])
            before, now = (float(np.median(times[e])) for e in (GeneratorNoise, Environment))
            print(f"  {name:<8} {1e3 * now:7.2f} ms/run CPU, previous noise {1e3 * before:7.2f} ms "
                  f"(x{before / now:.2f})")
        spec = bv.get_algorithm("ege_sr")
        before = timed(lambda s: drive(NumpyEGESR(**spec.validate({})), fb, 3995, s), range(5))
        now = timed(lambda s: drive(spec.make(), fb, 3995, s), range(5))
        print(f"  ege_sr, algorithm + rewards only: {1e3 * now[0]:.1f} ms/run CPU, with the previous numpy decision "
              f"{1e3 * before[0]:.1f} ms (x{before[0] / now[0]:.1f})")

    print("APE on the LinPSI Fig. 2 family (delta = 0.01, sigma = 0.5), algorithm + rewards only:")
    spec = bv.get_algorithm("ape")
    for K in (32, 128):
        fam = bv.preset("psi_synthetic", K=K, sigma=0.5)
        fast = timed(lambda s, f=fam: drive(spec.make(delta=0.01), f, 200_000, s), range(3))
        naive = timed(lambda s, f=fam: drive(NumpyAPE(**spec.validate({"delta": 0.01})), f, 200_000, s), range(3))
        report(f"APE K = {K}, compiled step", fast, naive)
    parent = np.random.SeedSequence(7).spawn(3)[0]
    streams = min(timeit(lambda: _noise.seed(seeding.words(parent, 259))) for _ in range(5))
    ours = min(timeit(lambda: seeding.generators(seeding.words(parent, 259))) for _ in range(5))
    numpy_ = min(timeit(lambda: [np.random.default_rng(s) for s in np.random.SeedSequence(7).spawn(3)[0].spawn(259)])
                 for _ in range(5))
    print(f"Per-arm noise streams of a NoC run (K = 259): compiled states {1e3 * streams:.2f} ms, generators "
          f"{1e3 * ours:.2f} ms, numpy's spawn loop {1e3 * numpy_:.2f} ms "
          f"(x{numpy_ / streams:.1f}, x{numpy_ / ours:.1f})")

    big = table2_instance()
    print(f"GEGE fixed confidence, [K, h, d] = [500, 8, 8], delta = 0.1 (paper Table 2: 1013 ms); "
          f"|S*| = {len(big.pareto_set)}, smallest gap {big.psi_gaps.min():.3f}")
    fast = timed(lambda s: bv.run(big, "gege_fc", 2_000_000, seed=s, snapshots=0, delta=0.1).rounds, range(3))
    report("GEGE-FC, engine (all metrics)", fast)
    spec = bv.get_algorithm("gege_fc")
    alone = timed(lambda s: drive(spec.make(delta=0.1), big, 2_000_000, s), range(3))
    report("GEGE-FC, algorithm + rewards only", alone)
    print(f"  ratio to the paper's 1.013 s: x{alone[0] / 1.013:.3f} (the engine's share is its end-of-run "
          "regret metrics: the effective Pareto gap of 8 objectives by linear programs)")

    inst = bv.preset("pfi_sensitivity")
    S = float(np.linalg.norm(inst.theta, axis=0).max())
    spec = bv.get_algorithm("pfiwr")
    print("PFIwR on the 000 §4.2 setting (K = d = 10, L = 2, p = 0.5, practical width, 10^4 rounds)")
    fast = timed(lambda s: bv.run(inst, "pfiwr", 10_000, seed=s, snapshots=0, S=S).rounds, range(3))
    naive = timed(lambda s: drive(NaivePFIwR(**spec.validate({"S": S})), inst, 10_000, s), range(3))
    report("PFIwR, engine", fast, naive)
    inst = bv.preset("default")
    for label, params in (("practical width (stops after ~200 rounds)", {}), ("theory width", {"width": "theory"})):
        fast = timed(lambda s, p=params: bv.run(inst, "pfiwr", 20_000, seed=s, snapshots=0, **p).rounds, range(20))
        slow = timed(lambda s, p=params: bv.run(inst, "pfiwr", 20_000, seed=s, snapshots=0, compiled=False,
                                                **p).rounds, range(20 if not params else 2))
        print(f"  PFIwR on 'default', {label}: compiled {1e3 * fast[0]:6.2f} ms/run CPU "
              f"({fast[2]:,.0f} rounds/s), Python class {1e3 * slow[0]:7.2f} ms (x{slow[0] / fast[0]:.1f})")


if __name__ == "__main__":
    main()
