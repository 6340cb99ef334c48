"""Speed of banditviz.pareto at K = 1000 arms, L = 2 and 3, against the pure-LP references.

    python benchmarks/pareto.py [--K 1000] [--repeat 3] [--lp-subset 40] [--seed 0]

Instances (all objectives maximised):
* ``box``: uniform in [0, 1]^L (small Pareto front);
* ``concave``: |N(0, I)| rows normalised onto the unit sphere: every arm Pareto optimal and effective;
* ``convex``: 1 - concave: every arm Pareto optimal, only a few effective (the LP-heavy case).

The pure-LP references (one LP per Pareto arm for the mask, one LP per arm for the gap, 002 §2.4-2.5)
take seconds to minutes at K = 1000, so they are timed on a random subset of ``--lp-subset`` arms and
extrapolated linearly to all arms (the printout says so); the subset's answers are also checked
against the fast path.  Then the per-round cost of contextual runs (K = 50, L = 4 and K = 100, L = 8) is measured, and
finally moocore (``pareto_mask``, ``hypervolume``) against the numpy code it replaced, as ratios.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from banditviz import pareto as pp  # noqa: E402
from banditviz.pareto import kernels, simplex, weight_region  # noqa: E402
from banditviz.pareto.hypervolume import _hv2d  # noqa: E402


def best_of(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` runs (seconds)."""
    return best_of_both(fn, repeat)[0]


def best_of_both(fn, repeat: int) -> tuple[float, float]:
    """Best wall time and best process CPU time of ``repeat`` runs (seconds)."""
    wall = cpu = np.inf
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu


def instances(K: int, L: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    S = np.abs(rng.normal(size=(K, L)))
    S /= np.linalg.norm(S, axis=1, keepdims=True)
    return {"box": rng.random((K, L)), "concave": S, "convex": 1.0 - S}


def lp_reference_times(mu: np.ndarray, n_sub: int, rng: np.random.Generator, fast_mask, fast_gap):
    """Extrapolated time of the pure-LP mask and gap references, from a random subset of arms."""
    P = np.flatnonzero(pp.pareto_mask(mu))
    support = mu[P]
    tol_abs = 1e-9 * max(1.0, float(np.abs(mu).max()))
    sub = rng.choice(P, size=min(n_sub, P.size), replace=False)
    t0 = time.perf_counter()
    in_c = np.array([pp.effective._slack_lp(support, mu[a]) <= tol_abs for a in sub])
    t_mask = (time.perf_counter() - t0) / sub.size * P.size
    t_pareto = best_of(lambda: pp.pareto_mask(mu), 1)
    sub_g = rng.choice(mu.shape[0], size=min(n_sub, mu.shape[0]), replace=False)
    t0 = time.perf_counter()
    gaps = np.array([pp.effective._gap_lp(mu, mu[a]) for a in sub_g])
    t_gap = (time.perf_counter() - t0) / sub_g.size * mu.shape[0]
    agree_mask = bool((in_c == fast_mask[sub]).all())
    err_gap = float(np.abs(gaps - fast_gap[sub_g]).max())
    return t_mask + t_pareto, t_gap, agree_mask, err_gap, sub.size, P.size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--K", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--lp-subset", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    K = args.K
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"banditviz.pareto benchmark: K = {K}, best of {args.repeat} runs, times in ms "
          f"(wall / process CPU; load average {load:.1f} on {os.cpu_count()} CPUs)\n")
    for L in (2, 3):
        for name, mu in instances(K, L, rng).items():
            P = pp.pareto_mask(mu)
            C = pp.effective_pareto_mask(mu)
            ref = mu.min(axis=0) - 0.1
            fns = {
                "dominated_by": lambda mu=mu: pp.dominated_by(mu),
                "pareto_mask": lambda mu=mu: pp.pareto_mask(mu),
                "pareto_gap": lambda mu=mu: pp.pareto_gap(mu),
                "effective_pareto_mask": lambda mu=mu: pp.effective_pareto_mask(mu),
                "effective_gap": lambda mu=mu: pp.effective_gap(mu),
                "effective_gap_of (1 arm)": lambda mu=mu: pp.effective_gap_of(mu, K // 2),
                "psi_gaps": lambda mu=mu: pp.psi_gaps(mu),
                "hypervolume": lambda mu=mu, ref=ref: pp.hypervolume(mu, ref),
                "lex_order": lambda mu=mu: pp.lex_order(mu),
                "lex_optimal": lambda mu=mu: pp.lex_optimal(mu),
            }
            if L == 2:
                fns["upper_hull_2d"] = lambda mu=mu: pp.upper_hull_2d(mu)
                fns["pareto_staircase_2d"] = lambda mu=mu: pp.pareto_staircase_2d(mu)
            else:
                fns["efficient_facets_3d"] = lambda mu=mu: pp.efficient_facets_3d(mu)
            print(f"L = {L}, {name}: |P| = {int(P.sum())}, |C| = {int(C.sum())}")
            times = {}
            for k, f in fns.items():
                times[k], cpu = best_of_both(f, args.repeat)
                print(f"  {k:<26s}{1e3 * times[k]:9.2f} / {1e3 * cpu:.2f}")
            gap = pp.effective_gap(mu)
            t_mask, t_gap, ok, err, n_sub, n_p = lp_reference_times(mu, args.lp_subset, rng, C, gap)
            how = "all Pareto arms" if n_sub == n_p else f"extrapolated from {n_sub} of {n_p} Pareto arms"
            print(f"  LP reference mask {1e3 * t_mask:11.1f}  -> fast exact mask is "
                  f"{t_mask / times['effective_pareto_mask']:7.1f}x faster ({how}; subset agrees: {ok})")
            print(f"  LP reference gap  {1e3 * t_gap:11.1f}  -> fast exact gap is "
                  f"{t_gap / times['effective_gap']:7.1f}x faster (extrapolated from "
                  f"{min(args.lp_subset, K)} of {K} arms; max |gap - LP| on them = {err:.1e})\n")

    # contextual per-round costs: 002 §6's preset (K = 50, d = 5, L = 4) and Fig. 10's (K = 100, d = 10, L = 8), whose
    # estimates' effective front a Watch run draws at each snapshot
    contextual_rounds(rng, 50, 5, 4, 300)
    contextual_rounds(rng, 100, 10, 8, 60)
    moocore_ratios(rng, args.repeat)
    small_front_ratios(rng)
    weight_region_ratios(rng)


def contextual_rounds(rng: np.random.Generator, Kc: int, d: int, L: int, T: int) -> None:
    """Per-call costs on T rounds of fresh contexts in the unit ball (unit-norm theta columns), against one pure LP
    per arm or per Pareto arm."""
    theta = rng.normal(size=(d, L))
    theta /= np.linalg.norm(theta, axis=0)
    rounds = []
    for _ in range(T):
        x = rng.normal(size=(Kc, d))
        x *= (rng.random((Kc, 1)) ** (1 / d)) / np.linalg.norm(x, axis=1, keepdims=True)
        mu = x @ theta
        in_c = np.flatnonzero(pp.effective_pareto_mask(mu))
        rounds.append((mu, int(rng.integers(Kc)), int(rng.choice(in_c))))

    def per_call(fn) -> tuple[float, float, float]:
        ts, cs = [], []
        for mu, a, c in rounds:
            t0, c0 = time.perf_counter(), time.process_time()
            fn(mu, a, c)
            ts.append(time.perf_counter() - t0)
            cs.append(time.process_time() - c0)
        return 1e3 * float(np.mean(ts)), 1e3 * float(np.median(ts)), 1e3 * float(np.mean(cs))

    print(f"contextual rounds: K = {Kc}, d = {d}, L = {L}, {T} rounds "
          "(ms per call: wall mean / wall median / CPU mean)")
    for label, fn in [
        ("effective_gap_of, random arm", lambda mu, a, c: pp.effective_gap_of(mu, a)),
        ("effective_gap_of, arm in C", lambda mu, a, c: pp.effective_gap_of(mu, c)),
        ("  one pure LP over all arms", lambda mu, a, c: pp.effective._gap_lp(mu, mu[a])),
        ("effective_pareto_mask", lambda mu, a, c: pp.effective_pareto_mask(mu)),
        ("  pure-LP reference mask", lambda mu, a, c: pp.effective._effective_mask_lp(mu)),
        ("effective_gap (all arms)", lambda mu, a, c: pp.effective_gap(mu)),
    ]:
        mean, med, cpu = per_call(fn)
        print(f"  {label:<32s}{mean:8.2f} / {med:.2f} / {cpu:.2f}")


# ---------------------------------------------------------------------- moocore against the code it replaced
def numpy_pareto_mask(mu: np.ndarray, block: int = 1024) -> np.ndarray:
    """The previous pareto_mask: blockwise (K x block) numpy comparisons."""
    K, L = mu.shape
    out = np.ones(K, dtype=bool)
    for s in range(0, K, block):
        blk = mu[s:s + block]
        ge = np.ones((blk.shape[0], K), dtype=bool)
        gt = np.zeros((blk.shape[0], K), dtype=bool)
        for l in range(L):
            ge &= mu[None, :, l] >= blk[:, l, None]
            gt |= mu[None, :, l] > blk[:, l, None]
        out[s:s + block] = ~(ge & gt).any(axis=1)
    return out


def slab_hypervolume_3d(P: np.ndarray, r: np.ndarray) -> float:
    """The previous 3-D hypervolume: slabs between consecutive objective-3 levels, each a 2-D sweep."""
    P = P[(P > r[None, :]).all(axis=1)]
    P = np.unique(P, axis=0)
    P = P[numpy_pareto_mask(P)]
    P = P[np.argsort(-P[:, 2], kind="stable")]
    z = P[:, 2]
    levels = np.concatenate([np.flatnonzero(np.diff(z) != 0), [z.size - 1]])
    total = 0.0
    for k, last in enumerate(levels):
        below = z[levels[k + 1]] if k + 1 < levels.size else r[2]
        total += _hv2d(P[:last + 1, 0], P[:last + 1, 1], r[0], r[1]) * (z[last] - below)
    return total


def moocore_ratios(rng: np.random.Generator, repeat: int) -> None:
    print("\nmoocore against the numpy code it replaced (same answers checked; ratio = old time / new time; "
          "the 2-D hypervolume keeps its sweep, as fast as moocore there)")
    for K in (8, 32, 259, 1000):
        for L in (2, 3):
            for name, mu in instances(K, L, rng).items():
                if name == "convex":
                    continue
                assert np.array_equal(pp.pareto_mask(mu), numpy_pareto_mask(mu))
                mask = best_of(lambda mu=mu: numpy_pareto_mask(mu), repeat) / best_of(
                    lambda mu=mu: pp.pareto_mask(mu), repeat)
                line = f"  K = {K:4d}, L = {L}, {name:<8s} pareto_mask x{mask:6.1f}"
                if L == 3:
                    ref = mu.min(axis=0) - 0.1
                    assert abs(pp.hypervolume(mu, ref) - slab_hypervolume_3d(mu, ref)) <= 1e-12
                    hv = best_of(lambda mu=mu, r=ref: slab_hypervolume_3d(mu, r), repeat) / best_of(
                        lambda mu=mu, r=ref: pp.hypervolume(mu, r), repeat)
                    line += f"   hypervolume x{hv:6.1f}"
                print(line)


@numba.njit(cache=True)
def pairwise_nondominated(mu: np.ndarray) -> np.ndarray:
    """The reference: every row against every other row until one dominates it (the compiled loop before the
    archive of `kernels.nondominated`)."""
    K, L = mu.shape
    out = np.ones(K, dtype=np.bool_)
    for a in range(K):
        for b in range(K):
            ge, gt = True, False
            for j in range(L):
                if mu[b, j] < mu[a, j]:
                    ge = False
                    break
                if mu[b, j] > mu[a, j]:
                    gt = True
            if ge and gt:
                out[a] = False
                break
    return out


def per_call_us(f, *args, n: int = 2000) -> float:
    f(*args)
    start = time.perf_counter()
    for _ in range(n):
        f(*args)
    return (time.perf_counter() - start) / n * 1e6


@numba.njit(cache=True)
def sorted_front(mu: np.ndarray, order: np.ndarray, sums: np.ndarray) -> np.ndarray:
    """What the MOL learners' loop does each round: keep ``order`` sorted by sum, then the mask in that order."""
    kernels.sort_by_sum(mu, order, sums)
    return kernels.nondominated_in(mu, order, sums)


def small_front_ratios(rng: np.random.Generator) -> None:
    """The per-round Pareto mask of the compiled loops (K <= 128) against the pairwise reference, in us a call."""
    from banditviz import instances as presets

    print("\ncompiled Pareto mask, archive (kernels.nondominated) against comparing every pair, and the archive\n"
          "visiting rows by decreasing sum (nondominated_in after sort_by_sum of an already sorted order, as between\n"
          "two rounds of the MOL learners' loop), us a call:")
    cases = {"default (K = 10, L = 2)": presets.preset("default").means,
             "uniform box K = 20, L = 2": presets.uniform_box(20, 2, seed=0).means,
             "mol_ts_fig11 (K = 100, L = 4)": presets.preset("mol_ts_fig11").means}
    cases["mol_ts_fig11 + N(0, 0.05) noise"] = cases["mol_ts_fig11 (K = 100, L = 4)"] + rng.normal(0, 0.05, (100, 4))
    for label, mu in cases.items():
        assert np.array_equal(kernels.nondominated(mu), pairwise_nondominated(mu))
        times = [per_call_us(f, mu, n=20_000) for f in (pairwise_nondominated, kernels.nondominated)]
        order, sums = np.arange(mu.shape[0]), np.empty(mu.shape[0])
        kernels.sort_by_sum(mu, order, sums)
        assert np.array_equal(kernels.nondominated_in(mu, order, sums), pairwise_nondominated(mu))
        times.append(per_call_us(sorted_front, mu, order, sums, n=20_000))
        print(f"  {label:<32s} pairs {times[0]:5.2f}  archive {times[1]:5.2f}  by sum {times[2]:5.2f}  "
              f"ratios x{times[0] / times[1]:4.2f} x{times[0] / times[2]:4.2f}")


@numba.njit(cache=True)
def simplex_rows(U: np.ndarray, tol_abs: float) -> np.ndarray:
    """The reference the L = 3 weight region replaces: the compiled simplex's slack LP for every row (1 in, 0 out)."""
    out = np.empty(U.shape[0], np.int8)
    for a in range(U.shape[0]):
        out[a] = simplex.slack_value(U, U[a]) <= tol_abs
    return out


def weight_region_ratios(rng: np.random.Generator) -> None:
    """L = 3 membership of every distinct Pareto row: the weight region (`pareto.weight_region`) against the slack LP
    by the compiled simplex and by HiGHS, in us an arm (best of 5, same process); the region's decisions checked against
    HiGHS."""
    print("\nL = 3 effective-front membership, every Pareto row: weight region vs the slack LP (us an arm)")
    masks = []
    for label, K in (("linear model K = 50", 50), ("linear model K = 200", 200), ("convex sphere K = 100", 100),
                     ("concave sphere K = 100", 100), ("uniform box K = 1000", 1000)):
        if label.startswith("linear"):
            mu = rng.normal(size=(K, 5)) @ rng.normal(size=(5, 3))
        elif label.startswith("uniform"):
            mu = rng.random((K, 3))
        else:
            S = np.abs(rng.normal(size=(K, 3)))
            S /= np.linalg.norm(S, axis=1, keepdims=True)
            mu = 1.0 - S if label.startswith("convex") else S
        U = pp.unique_rows(mu[pp.pareto_mask(mu)])[0]
        scale = max(1.0, float(np.abs(mu).max()))
        tol_abs, err, rows = 1e-9 * scale, pp.margin(3, scale), np.arange(U.shape[0])
        region = weight_region.effective_rows(U, rows, tol_abs, err)
        highs = np.array([pp.effective._slack_lp(U, U[a]) <= tol_abs for a in rows])
        decided = region >= 0
        assert (region[decided] == highs[decided]).all()
        n = max(1, 4_000 // U.shape[0])

        def best_us(f, *args, n=n):
            return min(per_call_us(f, *args, n=n) for _ in range(5)) / U.shape[0]  # noqa: B023 (called at once)

        t_region = best_us(weight_region.effective_rows, U, rows, tol_abs, err)
        t_simplex = best_us(simplex_rows, U, tol_abs)
        t_highs = best_us(lambda U=U: [pp.effective._slack_lp(U, u) for u in U], n=2)
        print(f"  {label:<24s} |P| = {U.shape[0]:4d} ({int(highs.sum())} in, {int((~decided).sum())} undecided)  "
              f"region {t_region:7.2f}  simplex {t_simplex:7.2f} (x{t_simplex / t_region:5.1f})  "
              f"HiGHS {t_highs:7.1f} (x{t_highs / t_region:6.1f})")
        masks.append((label, mu))
    print("effective_pareto_mask, L = 3, us a call (CPU, best of 5): the region right after the bank (up to "
          f"{pp.effective._REGION_FRONT} Pareto rows) against Qhull's certificates first, then the region")
    threshold = pp.effective._REGION_FRONT
    for label, mu in masks:
        t = []
        for front in (10**9, 0):
            pp.effective._REGION_FRONT = front
            t.append(min(best_of_both(lambda mu=mu: pp.effective_pareto_mask(mu), 5)[1] for _ in range(3)))
        pp.effective._REGION_FRONT = threshold
        print(f"  {label:<24s} region first {1e6 * t[0]:9.1f}  Qhull first {1e6 * t[1]:9.1f} (x{t[1] / t[0]:5.1f})")


if __name__ == "__main__":
    main()
