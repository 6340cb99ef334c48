"""Where a run's guarantee does not hold: one plain sentence per reason, "no guarantee here: <why>".

`warnings_for` is pure (instance, algorithm, parameters in; sentences out). `banditviz.simulate.run` records
them in ``trace.info["warnings"]``; the app shows them on Watch, Compare and Papers, the CLI on stderr. Each
check states the paper's condition that the instance or the parameters break; the calibration table in
README.md (``benchmarks/calibration.py``) is where the measured consequences are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .algorithms.base import AlgorithmSpec, get_algorithm
from .algorithms.lexicographic import CONTEXTUAL_LAMBDA
from .algorithms.lexicographic_core import lambda_min
from .algorithms.pfiwr import WIDTH_PRESETS
from .instances import Instance
from .presets.lexicographic import suggested_lambda

PREFIX = "no guarantee here: "


def _mte2lo(instance: Instance, params: dict[str, Any]) -> list[str]:
    """Proposition 1 (LexMOSLB): LOAF keeps the lexicographically optimal arm only if lambda >= lambda_min."""
    lam = params["lam"]
    if instance.means is None:
        return [f"lambda = {CONTEXTUAL_LAMBDA if lam is None else lam:g} is not checked against claim (5): on a "
                "contextual instance the smallest valid lambda depends on the contexts drawn each round, so "
                "Proposition 1 may not keep the optimal arm in the LOAF filter"]
    smallest = lambda_min(instance.means)[0]
    lam = suggested_lambda(instance.means) if lam is None else lam
    if lam < smallest:
        return [f"lambda = {lam:g} is below this instance's smallest valid lambda (lambda_min = {smallest:.4g}, "
                "claim (5)), so Proposition 1 no longer guarantees that the optimal arm survives the LOAF filter"]
    return []


def _theta_norm(instance: Instance) -> float:
    """max_l ||theta_l||_2 of the linear model PFIwR fits: theta itself, or the means for one-hot contexts."""
    theta = instance.theta if instance.kind == "linear" else instance.means
    return float(np.sqrt((np.asarray(theta) ** 2).sum(axis=0)).max())


def _pfiwr(instance: Instance, params: dict[str, Any]) -> list[str]:
    """Theorem 4.2 (PFIwR): the delta guarantee needs the width beta_t itself (c_beta = 1) and S >= ||theta_l||."""
    out = []
    c_beta = params["c_beta"] or WIDTH_PRESETS[params["width"]]
    if c_beta < 1:
        out.append(f"c_beta = {c_beta:g} shrinks the width beta_t of Theorem 4.2 {1 / c_beta:g}-fold (the paper's "
                   "practical tightening for its own experiments), so the delta = "
                   f"{params['delta']:g} guarantee does not hold; measured on the presets, most runs stop with a "
                   "wrong front (README, calibration)")
    norm = _theta_norm(instance)
    if params["S"] < norm:
        kind = "theta" if instance.kind == "linear" else "the means (one-hot contexts)"
        out.append(f"S = {params['S']:g} is below max_l ||theta_l||_2 = {norm:.3g} of {kind}, so beta_t does not "
                   "bound the ridge estimate's error (Theorem 4.2 needs S >= ||theta_l||_2)")
    return out


def _pfimulti(instance: Instance, params: dict[str, Any]) -> list[str]:
    """Auer et al. (2016): the delta guarantee holds for their width (c_beta = 1), not a tightened one."""
    if params["c_beta"] < 1:
        return [f"c_beta = {params['c_beta']:g} < 1 tightens Auer et al.'s width, so the delta = "
                f"{params['delta']:g} guarantee does not hold"]
    return []


def _gege_fc(instance: Instance, params: dict[str, Any]) -> list[str]:
    """LinPSI Alg. 3: delta holds with round budgets t_r = 32 (1 + 3 eps_r) sigma^2 h_r / eps_r^2 log(2 L K / delta_r);
    the authors' code allots h_r log(1 / delta_r) / eps_r^2, without sigma^2: fewer pulls when the noise is large.
    Compared in round 1 (h_1 = rank of the features, one-hot for fixed means)."""
    if params["budget_rule"] != "authors_code":
        return []
    X = instance.features if instance.kind == "linear" else np.eye(instance.K)
    h, eps, delta = np.linalg.matrix_rank(X), params["eps_1"], 6 * params["delta"] / math.pi**2
    authors = h * math.log(1 / delta) / eps**2
    theorem = 32 * (1 + 3 * eps) * instance.sigma**2 * h / eps**2 * math.log(2 * instance.L * instance.K / delta)
    if authors >= theorem:
        return []
    return [f"budget_rule 'authors_code' gives round 1 {authors:,.0f} pulls where LinPSI's analysis needs "
            f"{theorem:,.0f} at noise sigma = {instance.sigma:g}, so the delta = {params['delta']:g} guarantee does "
            "not hold (measured on pfi_sensitivity: 6 of 40 runs stopped within 8,000 pulls, all six wrong); "
            "budget_rule 'theory' keeps it"]


PAL_SIGMA_MAX = 1 / math.sqrt(10)  # the noise scale up to which the authors' PAL width covers PAL's own width


def _pal_linear(instance: Instance, params: dict[str, Any]) -> list[str]:
    """PAL (Zuluaga, Sergent, Krause & Pueschel 2013, Thm. 1; epsilon-PAL, Zuluaga, Krause & Pueschel 2016, Thm. 1):
    the boxes mu_hat(x) +- beta_t^(1/2) sigma_t(x), beta_t = 2 ln(L K pi^2 t^2 / (6 delta)), hold for every arm,
    objective and round with probability 1 - delta, sigma_t(x) being the posterior standard deviation. With a linear
    kernel and N(0, sigma^2) noise, sigma_t(x)^2 = sigma^2 x^T (sigma^2 I + V)^-1 x, about sigma^2 x^T V^-1 x.
    LinPSI (Kone, Kaufmann & Richert, App. I.1) runs PAL "with the same confidence bonus used in Zuluaga et al.
    (2016) (which are tuned empirically)": its code's half-width is sqrt(beta_t / 10 x^T V^-1 x), beta_t / 10 =
    ln(K L t^2 pi^2 / (6 delta)) / 5, with no sigma. Its ratio to PAL's width is 1 / (sigma sqrt(10)) whatever t, K,
    L and delta, so the decision: warn when sigma > 1 / sqrt(10) = 0.316 (a sub-Gaussian constant for Bernoulli or
    Beta noise). Measured (README, calibration): at sigma = 1, pfi_sensitivity 4 of 60 runs wrong at delta = 0.01
    (p = 0.003), pfi_mab 4 of 200 (2%, above delta; p = 0.14); at sigma <= 0.25 (psi_synthetic, psi_gap_example,
    pfi_toy, mol_ts_figure1) 0 of 20 each. At sigma = 0.5 (default, default_3d: width 0.63 of PAL's) 0 of 20 were
    wrong: the warning states the theorem's condition, not a measured failure (as GEGE-FC's does)."""
    sigma = instance.sigma
    if sigma <= PAL_SIGMA_MAX:
        return []
    return [f"the box half-width sqrt(beta_t x^T V^-1 x), beta_t = ln(K L t^2 pi^2 / (6 delta)) / 5 (the authors' "
            f"empirical tuning), ignores the noise: at sigma = {sigma:g} it is {1 / (sigma * math.sqrt(10)):.2g} times "
            "the width for which PAL's boxes hold (Zuluaga et al., beta_t = 2 ln(K L t^2 pi^2 / (6 delta)) times "
            f"sigma^2 x^T V^-1 x), so the delta = {params['delta']:g} guarantee does not hold (measured on "
            "pfi_sensitivity, sigma = 1: 4 of 60 runs wrong at delta = 0.01); APE and Racing scale their bonuses "
            "with sigma"]


CHECKS: dict[str, Callable[[Instance, dict[str, Any]], list[str]]] = {
    "mte2lo": _mte2lo, "pfiwr": _pfiwr, "pfimulti": _pfimulti, "gege_fc": _gege_fc, "pal_linear": _pal_linear,
}


def warnings_for(instance: Instance, algorithm: str | AlgorithmSpec, params: dict[str, Any] | None = None
                 ) -> tuple[str, ...]:
    """Every reason why ``algorithm`` with ``params`` (defaults filled in) has no guarantee on ``instance``."""
    spec = algorithm if isinstance(algorithm, AlgorithmSpec) else get_algorithm(algorithm)
    check = CHECKS.get(spec.name)
    if check is None:
        return ()
    return tuple(PREFIX + why for why in check(instance, spec.validate(dict(params or {}))))


def lambda_note(instance: Instance) -> str | None:
    """The caption line of a fixed-means instance under a lexicographic algorithm (LexMOSLB, claim (5)): lambda_min and
    the lambda MTE2LO takes when none is set; None for a contextual instance."""
    if instance.means is None:
        return None
    smallest = lambda_min(instance.means)[0]
    return (f"λ_min = {smallest:.4g}: the smallest trade-off λ satisfying claim (5) on this instance (MTE²LO "
            f"keeps the optimal arm only with λ ≥ λ_min); MTE²LO's default here is λ = "
            f"{suggested_lambda(instance.means):.4g}.")
