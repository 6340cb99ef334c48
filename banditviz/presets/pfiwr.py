"""Instance presets of PFIwR (Kim, Iyengar & Zeevi, "Pareto Front Identification with Regret Minimization").

* ``pfi_toy``: our six-arm toy example for PFIwR.
* ``pfi_sensitivity``: the linear setting of PFIwR Sec. 5.2, Fig. 2: d = K = 10, L = 2.
* ``pfi_mab``: a well-separated Gaussian bandit for PFIMulti (PFIwR Sec. 5; our means).
* ``pfi_llvm_like``: a synthetic stand-in for the SW-LLVM instance of PFIwR Sec. 5.3 (Table 1, Fig. 3), which
  is not available here; not the paper's data.
* `pfi_estimation`: the estimation instances of PFIwR Fig. 1 (a generator, not a preset).
"""

from __future__ import annotations

import math

import numpy as np

from ..instances import Instance, register_preset

PFI = "Kim, Iyengar & Zeevi (Pareto front identification with regret minimization)"
PFI_TOY = ((1.0, 0.0), (0.0, 1.0), (0.6, 0.6), (0.5, 0.5), (0.55, 0.3), (0.2, 0.2))
PFI_MAB = ((2.0, 0.0), (0.0, 2.0), (1.3, 1.3), (0.3, 0.3), (1.0, -0.5))


@register_preset("pfi_toy", paper=PFI, dims=2,
                 description="Six arms (our PFIwR toy example): Pareto front {0, 1, 2}, "
                             "Delta* = (0, 0, 0, 0.1, 0.05, 0.4); "
                             "Gaussian noise sigma = 0.1 (our choice). PFIwR sees one-hot contexts here, so its "
                             "ridge shrinkage (p lambda_t) biases rarely pulled arms toward 0 and a tightened width "
                             "can eliminate Pareto arms (our decision for PFIwR); PFIMulti has no such bias.")
def pfi_toy(sigma: float = 0.1) -> Instance:
    return Instance.from_means(PFI_TOY, sigma=sigma, name="PFI toy", description="our PFIwR toy example")


def equicorrelated_normal(rng: np.random.Generator, K: int, n: int, rho: float) -> np.ndarray:
    """n draws (rows) of N(0, (1 - rho) I_K + rho 11^T) as sqrt(1 - rho) z + sqrt(rho) w 1 (z ~ N(0, I_K),
    w ~ N(0, 1)): an explicit factor of the covariance, so the draw is the same on every machine (an SVD
    or eigen factor splits the repeated eigenvalue 1 - rho differently with each LAPACK build)."""
    g = rng.normal(size=(n, K + 1))
    return np.sqrt(1 - rho) * g[:, :K] + np.sqrt(rho) * g[:, K:]


@register_preset("pfi_sensitivity", paper=PFI, dims=2,
                 description="PFIwR Sec. 5.2, Fig. 2: K = d = 10 linear arms, L = 2, theta entries U[-1, 1], "
                             "context means from N(0, (1-rho) I + rho 11^T) per coordinate (rho = 0.5) scaled to "
                             "max norm 0.7; sigma = 1. context_noise r (default 0: fixed contexts; 0.3: the "
                             "paper's per-round contexts x_k + r U, PFIwR Sec. 2) keeps ||X|| <= 1.")
def pfi_sensitivity(seed: int = 0, K: int = 10, d: int = 10, rho: float = 0.5, sigma: float = 1.0,
                    context_noise: float = 0.0) -> Instance:
    if not 0 <= rho < 1:
        raise ValueError(f"rho: the correlation of the context means must be in [0, 1), got {rho!r}")
    rng = np.random.default_rng(seed)
    X = equicorrelated_normal(rng, K, d, rho).T  # column j: coordinate j of every arm
    X *= 0.7 / np.linalg.norm(X, axis=1).max()
    theta = rng.uniform(-1, 1, size=(d, 2))
    return Instance.from_linear(X, theta, sigma=sigma, context_noise=context_noise,
                                name=f"PFI sensitivity seed={seed}",
                                description="PFIwR Sec. 5.2, Fig. 2 setting; S (oracle) = max_l ||theta_l||_2 = "
                                            f"{np.linalg.norm(theta, axis=0).max():.4f}")


def pfi_estimation(rho: float, seed: int = 0, K: int = 10, d: int = 10, context_noise: float = 0.3) -> Instance:
    """PFIwR Sec. 5.1, Fig. 1: K = d = 10 arms, L = 1, theta = 1_d / sqrt(d), context means drawn per coordinate
    from N(0, (1-rho) I_K + rho 11^T) (rho = 0: diverse arms, 0.9: correlated) and scaled to max norm
    1 - context_noise, so the per-round contexts x_k + r U (U uniform in the unit ball) keep ||X|| <= 1 and
    E[X] = x_k exactly (our decision: the paper states neither the scaling nor the context law); sigma = 1.
    A sweep generator (not an app preset: one objective)."""
    if not 0 <= rho < 1:
        raise ValueError(f"rho: the correlation of the context means must be in [0, 1), got {rho!r}")
    if not 0 < context_noise < 1:
        raise ValueError(f"context_noise: must be in (0, 1), got {context_noise!r}")
    X = equicorrelated_normal(np.random.default_rng(seed), K, d, rho).T
    X *= (1 - context_noise) / np.linalg.norm(X, axis=1).max()
    theta = np.full((d, 1), 1 / np.sqrt(d))
    return Instance.from_linear(X, theta, context_noise=context_noise, name=f"PFI estimation rho={rho}",
                                description="PFIwR Sec. 5.1, Fig. 1 setting")


@register_preset("pfi_mab", paper=PFI, dims=2,
                 description="Five well-separated Gaussian arms (sigma = 1) for PFIMulti with its literal width "
                             "(PFIwR Sec. 5): Pareto front {0, 1, 2}.")
def pfi_mab(sigma: float = 1.0) -> Instance:
    return Instance.from_means(PFI_MAB, sigma=sigma, name="PFI MAB", description="PFIwR Sec. 5 (our means)")


LLVM_FREE_BITS, LLVM_GROUP_BITS = 7, 4  # SW-LLVM: 11 binary features; arms = value-combinations of the last 4


def llvm_like_arrays(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(X, theta) of the LLVM-like stand-in (see `pfi_llvm_like`): X is 16 x 12, theta 12 x 2.

    Row k of X is [1, 0.5 (x 7), b_k] / sqrt(12), b_k the 4 bits of k (most significant first): the mean
    feature vector of the 2^7 configurations of group k when the 7 free bits are uniform. theta has a zero
    intercept and entries U[-1, 1] (as PFIwR Sec. 5.2 draws its parameters), each column divided by the
    standard deviation of its objective over all 2^11 configurations, sqrt(sum_j theta_j^2 / 48), computed
    in one correctly rounded sum (`math.fsum`): the objectives are standardised, as the SW-LLVM
    construction does, with the same bits on every machine."""
    rng = np.random.default_rng(seed)
    theta = rng.uniform(-1, 1, size=(1 + LLVM_FREE_BITS + LLVM_GROUP_BITS, 2))
    theta[0] = 0.0
    for col in range(2):
        theta[:, col] = theta[:, col] / math.sqrt(math.fsum(float(v) ** 2 for v in theta[1:, col]) * 0.25 / 12)
    groups = 1 << LLVM_GROUP_BITS
    bits = np.array([[(k >> (LLVM_GROUP_BITS - 1 - j)) & 1 for j in range(LLVM_GROUP_BITS)] for k in range(groups)],
                    dtype=float)
    X = np.hstack([np.ones((groups, 1)), np.full((groups, LLVM_FREE_BITS), 0.5), bits]) / math.sqrt(12)
    return X, theta


@register_preset("pfi_llvm_like", paper=PFI, dims=2,
                 description="A synthetic stand-in for SW-LLVM (PFIwR Sec. 5.3, Table 1 / Fig. 3), not the paper's "
                             "data: 16 arms = groups of configurations of 11 binary features (the last 4 fixed per "
                             "group), d = 12 (intercept + features) / sqrt(12), 2 standardised linear objectives; "
                             "per-round contexts x_k + 0.25 U, Gaussian noise sigma = 1.")
def pfi_llvm_like(seed: int = 1, sigma: float = 1.0, context_noise: float = 0.25) -> Instance:
    """LLVM-like stand-in for the SW-LLVM instance of PFIwR Sec. 5.3 (Table 1, Fig. 3): **not the paper's data**.

    The paper runs PFIwR and PFIMulti on SW-LLVM (Zuluaga et al. 2016: 1023 compiler configurations, 11 binary
    features, 2 objectives) "with the modification of Auer et al. (2016), Sec. 8"; the data are not public
    here. PFIMulti's first round pulls every arm and its mean total at eps = 1 is 952, so the paper's arms are
    not the 1023 configurations: 16 arms (groups fixed by the last 4 binary features, a pull returning a random
    configuration of the group) fit its Table 1 (952 / 16 = 59.5 rounds). This stand-in keeps that shape and
    replaces the measured objectives by a linear model (our decision):

    * arm k = the configurations whose last 4 features are the bits of k; PFIwR's context is
      [1, features] / sqrt(12) (d = 12, ||X|| <= 1), its mean x_k as in `llvm_like_arrays`;
    * objectives y = X^T theta, theta drawn from ``seed`` and standardised over all 2^11 configurations;
    * the within-group spread of the real data becomes per-round contexts x_k + r U (U uniform in the unit
      ball, r = ``context_noise``, PFIwR Sec. 2) plus Gaussian noise ``sigma`` (1: the standardised scale);
    * ``seed`` 1 by default: the first seed whose front has at least 3 arms (seed 0's front is one arm, which
      makes the Fig. 3 comparison trivial), chosen before any algorithm was run.

    The linear model is well specified here, unlike on the real data, so S = max_l ||theta_l||_2 (the
    least-squares fit on the full data, our decision for the real data) is exact: sqrt(48) = 6.93.
    Numbers on it are not comparable with the paper's Table 1; only the relations between the two algorithms
    are."""
    X, theta = llvm_like_arrays(seed)
    return Instance.from_linear(X, theta, sigma=sigma, context_noise=context_noise,
                                objective_names=("objective 1", "objective 2"),
                                name=f"LLVM-like stand-in seed={seed}",
                                description="synthetic stand-in for SW-LLVM (PFIwR Sec. 5.3), not the paper's data")
