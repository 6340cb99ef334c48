"""Instance presets of the Pareto set identification papers (PFIwR, LinPSI).

* ``psi_synthetic``: the nested synthetic family of LinPSI Sec. 5.1 (h = 8, d = 2 objectives, K >= 8 arms).
* ``psi_gap_example``: the 8 base arms of that family as fixed means (our decision for LinPSI).
* ``noc``: the Network-on-Chip instance of LinPSI Sec. 5.1, from the public CSV
  (`banditviz.datasets`, fetched on first use).
* ``pfi_toy``: our six-arm toy example for PFIwR.
* ``pfi_sensitivity``: the linear setting of PFIwR Sec. 5.2, Fig. 2: d = K = 10, L = 2.
* ``pfi_mab``: a well-separated Gaussian bandit for PFIMulti (PFIwR Sec. 5; our means).
* ``pfi_llvm_like``: a synthetic stand-in for the SW-LLVM instance of PFIwR Sec. 5.3 (Table 1, Fig. 3), which
  is not available here; not the paper's data.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import datasets
from ..instances import Instance, linear_means, register_preset
from ..pareto import pareto_mask, psi_gaps

PSI = "Kone, Kaufmann & Richert (AISTATS 2025)"
PFI = "Kim, Iyengar & Zeevi (Pareto front identification with regret minimization)"

SYNTH_THETA = np.array([[1.00, 0.00], [0.80, 0.50], [0.50, 0.80], [0.00, 1.00],
                        [0.72, 0.45], [0.42, 0.74], [0.90, -0.10], [-0.10, 0.92]])
NOC_COLUMNS = ("width", "complexity", "fifo", "multiplier", "energy", "inv_runtime")
PFI_TOY = ((1.0, 0.0), (0.0, 1.0), (0.6, 0.6), (0.5, 0.5), (0.55, 0.3), (0.2, 0.2))
PFI_MAB = ((2.0, 0.0), (0.0, 2.0), (1.3, 1.3), (0.3, 0.3), (1.0, -0.5))


@lru_cache(maxsize=4)
def synthetic_features(K: int) -> np.ndarray:
    """Features of the nested family (LinPSI Sec. 5.1 generator, seed 0): e_1..e_8 then accepted random arms.

    A candidate x = s u / ||u||_1 (u ~ U[0,1]^8, s ~ U(0,1)) is kept iff the base arms' gaps stay the
    same (atol 1e-12), its own gap is >= max(base gaps) + 1e-9 and S* stays {0, 1, 2, 3}.
    """
    if isinstance(K, bool) or not isinstance(K, (int, np.integer)) or not 8 <= K <= 512:
        raise ValueError(f"K: must be an integer in [8, 512], got {K!r}")
    h = SYNTH_THETA.shape[0]
    X = list(np.eye(h))
    base = psi_gaps(SYNTH_THETA)
    rng = np.random.default_rng(0)
    while len(X) < K:
        u = rng.random(h)
        x = rng.random() * u / u.sum()
        cand = np.array(X + [x])
        mu = linear_means(cand, SYNTH_THETA)
        gaps = psi_gaps(mu)
        front = np.flatnonzero(pareto_mask(mu))
        if (np.allclose(gaps[:h], base, rtol=0, atol=1e-12) and gaps[-1] >= base.max() + 1e-9
                and front.tolist() == [0, 1, 2, 3]):
            X.append(x)
    return np.array(X)


@register_preset("psi_synthetic", paper=PSI, dims=2,
                 description="Nested synthetic family of LinPSI Sec. 5.1: h = 8 features, 2 objectives, K >= 8 arms "
                             "whose 8 smallest gaps (and so H1,lin, H2,lin) do not depend on K. Parameters: "
                             "K (default 32), sigma (0.25 for fixed budget, 0.5 for fixed confidence).")
def psi_synthetic(K: int = 32, sigma: float = 0.25) -> Instance:
    X = synthetic_features(K)
    return Instance.from_linear(X, SYNTH_THETA, sigma=sigma, objective_names=("objective 1", "objective 2"),
                                name=f"PSI synthetic K={K}", description=f"LinPSI Sec. 5.1 synthetic family, K = {K}")


@register_preset("psi_gap_example", paper=PSI, dims=2,
                 description="The 8 base arms of the synthetic family as fixed means: S* = {0,1,2,3}, gaps "
                             "(0.10, 0.05, 0.06, 0.08, 0.05, 0.06, 0.10, 0.08) (our decision for LinPSI); sigma 0.25.")
def psi_gap_example(sigma: float = 0.25) -> Instance:
    return Instance.from_means(SYNTH_THETA, sigma=sigma, name="PSI gap example",
                               description="LinPSI base arms, hand-checkable gaps")


def noc_arrays(csv_path: str | Path | None = None, csv_text: str | bytes | None = None) -> tuple[np.ndarray, ...]:
    """(X, Theta, raw) of the NoC construction (LinPSI Sec. 5.1): rows of X normalised to unit L2 norm,
    Theta the least-squares fit of (energy, inv_runtime) on X; the means of the instance are -X Theta.

    The CSV is ``csv_path`` or ``csv_text`` if given, else the public file `banditviz.datasets.fetch` finds
    (DatasetUnavailable, a ValueError, when it is neither local nor downloadable)."""
    if csv_path is not None and csv_text is not None:
        raise ValueError("csv_path: give the path of noc_CM_log.csv or csv_text with its content, not both")
    if csv_path is None and csv_text is None:
        csv_path = datasets.fetch("noc")
    if csv_text is None:
        path = Path(csv_path)  # type: ignore[arg-type]
        if not path.is_file():
            raise ValueError(f"csv_path: no file at {str(path)!r}")
        csv_text = path.read_text()
    if isinstance(csv_text, bytes):
        csv_text = csv_text.decode("utf-8", errors="replace")
    lines = csv_text.strip().splitlines()
    header = tuple(c.strip() for c in lines[0].split(";")) if lines else ()
    if header != NOC_COLUMNS:
        raise ValueError(f"csv_path: expected the ';'-separated header {';'.join(NOC_COLUMNS)}, got {header}")
    try:
        raw = np.loadtxt(io.StringIO("\n".join(lines[1:])), delimiter=";", ndmin=2)
    except ValueError as exc:
        raise ValueError(f"csv_path: rows must be 6 numbers separated by ';' ({exc})") from None
    if raw.shape[1] != 6 or not 2 <= raw.shape[0] <= 1000 or not np.all(np.isfinite(raw)):
        raise ValueError(f"csv_path: need 2 to 1000 rows of 6 finite numbers, got shape {raw.shape}")
    X = raw[:, :4] / np.linalg.norm(raw[:, :4], axis=1, keepdims=True)
    return X, least_squares(X, raw[:, 4:]), raw


def least_squares(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """argmin_theta ||X theta - Y||^2 through the normal equations, solved by a Cholesky factor written out
    in correctly rounded scalar steps: the same bits on every machine (LAPACK and BLAS kernels differ per
    CPU). X must have full column rank (NoC: 4 columns)."""
    d = X.shape[1]
    G = [[float(np.sum(X[:, i] * X[:, j])) for j in range(d)] for i in range(d)]
    b = [[float(np.sum(X[:, i] * Y[:, l])) for l in range(Y.shape[1])] for i in range(d)]
    C = [[0.0] * d for _ in range(d)]  # G = C C^T, C lower triangular
    for i in range(d):
        for j in range(i + 1):
            s = G[i][j] - sum(C[i][k] * C[j][k] for k in range(j))
            C[i][j] = math.sqrt(s) if i == j else s / C[j][j]
    theta = np.zeros((d, Y.shape[1]))
    for col in range(Y.shape[1]):
        z = [0.0] * d
        for i in range(d):
            z[i] = (b[i][col] - sum(C[i][k] * z[k] for k in range(i))) / C[i][i]
        for i in reversed(range(d)):
            theta[i, col] = (z[i] - sum(C[k][i] * theta[k, col] for k in range(i + 1, d))) / C[i][i]
    return theta


@register_preset("noc", paper=PSI, dims=2,
                 description="Network-on-Chip (Almer et al. 2011), linearised as in LinPSI Sec. 5.1: K = 259 arms, "
                             "h = 4 features, 2 objectives (energy, inv_runtime) both minimised, Gaussian noise "
                             "sigma = 0.5. The data is fetched from its public origin on first use and cached "
                             "(or read from csv_path, csv_text or the BANDITVIZ_DATA folder).")
def noc(csv_path: str | Path | None = None, csv_text: str | bytes | None = None, sigma: float = 0.5) -> Instance:
    X, theta, _ = noc_arrays(csv_path, csv_text)
    return Instance.from_linear(X, -theta, sigma=sigma, objective_names=("energy", "inv_runtime"),
                                directions=("min", "min"), name="NoC",
                                description="NoC, linearised (LinPSI Sec. 5.1); the authors minimise both columns")


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
