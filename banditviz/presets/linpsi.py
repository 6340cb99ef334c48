"""Instance presets of LinPSI (Kone, Kaufmann & Richert, "Bandit Pareto Set Identification in a Multi-Output
Linear Model").

* ``psi_synthetic``: the nested synthetic family of LinPSI Sec. 5.1 (h = 8, d = 2 objectives, K >= 8 arms).
* ``psi_gap_example``: the 8 base arms of that family as fixed means (our decision for LinPSI).
* ``noc``: the Network-on-Chip instance of LinPSI Sec. 5.1, from the public CSV
  (`banditviz.datasets`, fetched on first use).
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

SYNTH_THETA = np.array([[1.00, 0.00], [0.80, 0.50], [0.50, 0.80], [0.00, 1.00],
                        [0.72, 0.45], [0.42, 0.74], [0.90, -0.10], [-0.10, 0.92]])
NOC_COLUMNS = ("width", "complexity", "fifo", "multiplier", "energy", "inv_runtime")


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


