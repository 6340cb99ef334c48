"""The Papers page's catalogue: per paper, its public reference, setting, figures (each drawn from a shipped
result by a builder of `banditviz.figures.papers`) and the scaled-down live rerun.

The figures and verdicts come from `banditviz.reproduce` (shipped Parquet results with their provenance) and
`banditviz.verdicts` (the claims and their tolerances); nothing here holds a number from a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from banditviz.figures import papers as figs
from banditviz.pareto import mean_variance as risk
from banditviz.reproduce import Result


@dataclass(frozen=True)
class Figure:
    """One figure of a paper: the shipped result it reads and how to draw it."""

    title: str
    result: str
    draw: Callable[[pd.DataFrame, Result], go.Figure]


@dataclass(frozen=True)
class Paper:
    key: str  # "000" ... "004": PFIwR, LinPSI, MOL-TS, LexMOSLB, RAMGapE
    title: str
    reference: str  # authors, venue
    setting: str
    figures: tuple[Figure, ...]
    live: str  # the shipped result whose experiment the page reruns live
    live_seeds: int  # default seeds of the live rerun
    live_horizon: int | None = None  # shorter horizon for the live rerun (None: the shipped one)
    live_instances: int | None = None  # only the first instances of the config


def _curves(metrics: list[str], title: str, stat: str = "mean") -> Callable[[pd.DataFrame, Result], go.Figure]:
    return lambda table, _: figs.curves(table, metrics, title, stat)


def _estimation(instance: str, paper_ratio: float) -> Callable[[pd.DataFrame, Result], go.Figure]:
    """PFIwR Fig. 1a / 1b: the l2 error of both estimators on one instance, with the paper's ratio in the title."""
    return lambda table, _: figs.curves(table[table["instance"] == instance], ["estimation_error"],
                                        f"{instance}: paper's ratio at n = 2000 is {paper_ratio}")


def _fronts(table: pd.DataFrame, result: Result) -> go.Figure:
    """PFIwR Fig. 2 (a): the fronts the runs identified, per p, on the instance's true means."""
    inst = next(iter(result.config.instances.values()))
    return figs.identified_fronts(table, inst.means, "Identified Pareto fronts", tuple(inst.objective_names))


def _llvm_regret(table: pd.DataFrame, _: Result) -> go.Figure:
    """PFIwR Fig. 3 (b): cumulative Pareto regret of both algorithms at eps = 0.01 (one PFIMulti pull = one round)."""
    eps = table["params"].map(lambda p: json.loads(p)["eps"])
    return figs.curves(table[eps == 0.01], ["cum_pareto_regret"], "LLVM-like stand-in (not the paper's data), "
                       "eps = 0.01")


def _pareto_pulls(table: pd.DataFrame, result: Result) -> go.Figure:
    inst = next(iter(result.config.instances.values()))
    return figs.pull_allocation(table, f"Pulls per arm at the end of the budget, K = {inst.K}",
                                tuple(risk.pareto_set(inst)))


LEX_REGRET = ["cum_lex_regret_1", "cum_lex_regret_5"]
LEX_REWARD = [f"cum_reward_{i}" for i in range(1, 6)]

PAPERS: tuple[Paper, ...] = (
    Paper(
        key="000", title="Pareto Front Identification with Regret Minimization",
        reference="Kim, Iyengar & Zeevi (Columbia University), preprint",
        setting="Linear bandit with L objectives and per-round contexts X = x_k + r U (mean x_k): identify the "
                "(epsilon-)Pareto front with confidence 1 - delta while keeping the Pareto regret low (PFIwR), "
                "against PFIMulti (Auer, Chiang, Ortner & Drugan, AISTATS 2016). Fig. 2: K = d = 10, L = 2, "
                "rho = 0.5, r = 0.3, delta = eps = 0.1, p in {0.1, 0.5, 0.9}, 10 runs, 50,000-round cap. "
                "Fig. 1: K = d = 10, L = 1, uniformly random arms, 2,000 rounds, 10 runs. Table 1 / Fig. 3: the "
                "paper uses the SW-LLVM compiler data (Zuluaga et al.), not available here; we run both algorithms on "
                "a synthetic LLVM-like stand-in (16 arms, d = 12, 2 standardised objectives), so only the relations "
                "between the two algorithms can be compared, not the numbers.",
        figures=(Figure("Fig. 1a (rho = 0, diverse contexts): l2 error of estimator (10) and of ridge",
                        "pfiwr_estimation", _estimation("rho = 0", 0.73)),
                 Figure("Fig. 1b (rho = 0.9, correlated contexts): l2 error of estimator (10) and of ridge",
                        "pfiwr_estimation", _estimation("rho = 0.9", 0.99)),
                 Figure("Fig. 2 (a): identified Pareto fronts for p = 0.1, 0.5, 0.9", "pfiwr_sensitivity", _fronts),
                 Figure("Fig. 2 (b): cumulative Pareto regret for p = 0.1, 0.5, 0.9", "pfiwr_sensitivity",
                        _curves(["cum_pareto_regret"], "PFIwR, sensitivity to p")),
                 Figure("Fig. 3 (b), on the LLVM-like stand-in (not the paper's data): cumulative Pareto regret, "
                        "eps = 0.01", "pfiwr_llvm_like", _llvm_regret)),
        live="pfiwr_estimation", live_seeds=3,
    ),
    Paper(
        key="001", title="Bandit Pareto Set Identification in a Multi-Output Linear Model",
        reference="Kone, Kaufmann & Richert, AISTATS 2025",
        setting="Linear model, h features, 2 objectives: find the Pareto set with a fixed budget T (GEGE against "
                "EGE-SH, EGE-SR, uniform allocation) or a fixed confidence delta (GEGE against APE and PAL). "
                "Synthetic nested family (h = 8, K = 8 ... 128) and NoC (K = 259, h = 4); 500 runs per point.",
        figures=(Figure("Fig. 1: misidentification rate against K, fixed budget T = 1111",
                        "psi_synthetic_fixed_budget",
                        lambda t, _: figs.rate_against(t, "arms", "Fixed budget, synthetic family")),
                 Figure("Fig. 3: misidentification rate against the budget on NoC", "psi_noc_fixed_budget",
                        lambda t, _: figs.rate_against(t, "budget", "Fixed budget, NoC")),
                 Figure("Fig. 2: samples to stop against K, delta = 0.01", "psi_synthetic_fixed_confidence",
                        lambda t, _: figs.mean_against(t, "stopping_time", "Fixed confidence, synthetic family",
                                                       "arms K")),
                 Figure("Fig. 4: samples to stop on NoC, delta = 0.01", "psi_noc_fixed_confidence",
                        lambda t, _: figs.spread(t, "stopping_time", "Fixed confidence, NoC: samples per run"))),
        live="psi_synthetic_fixed_budget", live_seeds=20, live_instances=3,
    ),
    Paper(
        key="002", title="Thompson Sampling for Multi-Objective Linear Contextual Bandit",
        reference="Park, Ann & Oh (Seoul National University), NeurIPS 2025",
        setting="Contextual linear bandit, K = 50 arms, d = 5, L = 4 objectives, fresh contexts every round, "
                "sigma = 1, 10 instances (one run each): MOL-TS (M = O(log L) and M = 1), MOL-UCB and "
                "MOL-eps-greedy; Pareto regret, effective Pareto regret and cumulative reward per objective.",
        figures=(Figure("Fig. 2, column 1: cumulative Pareto and effective Pareto regret", "mol_ts_main",
                        _curves(["cum_pareto_regret", "cum_effective_regret"], "MOL-TS and baselines")),
                 Figure("Fig. 2, columns 2-3: cumulative reward per objective", "mol_ts_main",
                        _curves([f"cum_reward_{i}" for i in range(1, 5)], "Cumulative expected reward"))),
        live="mol_ts_main", live_seeds=1, live_horizon=300, live_instances=2,
    ),
    Paper(
        key="003", title="Multiobjective Stochastic Linear Bandits under Lexicographic Ordering",
        reference="anonymous authors (double-blind submission)",
        setting="Linear bandit with m = 5 ranked objectives, 10 one-hot arms (Table 1), N(0, 1) noise, "
                "delta = 0.01, 10 runs: STE2LO and MTE2LO against PF-LEX and OFUL; general regret per objective "
                "and cumulative reward per objective, lambda = 0.1 and lambda = 10.",
        figures=(Figure("Fig. 2a (lambda = 0.1): general regret on objectives 1 and 5", "lexicographic_lambda_0.1",
                        _curves(LEX_REGRET, "lambda = 0.1")),
                 Figure("lambda = 0.1: cumulative reward per objective", "lexicographic_lambda_0.1",
                        _curves(LEX_REWARD, "lambda = 0.1")),
                 Figure("Fig. 2b (lambda = 10): general regret on objectives 1 and 5", "lexicographic_lambda_10",
                        _curves(LEX_REGRET, "lambda = 10")),
                 Figure("lambda = 10: cumulative reward per objective", "lexicographic_lambda_10",
                        _curves(LEX_REWARD, "lambda = 10"))),
        live="lexicographic_lambda_0.1", live_seeds=2, live_horizon=3000,
    ),
    Paper(
        key="004", title="Risk-Averse Best Arm Set Identification with Fixed Budget and Fixed Confidence",
        reference="Nonaga, Tabata, Mizuno & Komatsuzaki (Hokkaido University), preprint",
        setting="K arms with rewards in [0, 1]; objectives: the mean (maximise) and the mean-variance risk "
                "xi = (sigma^2 - rho mu) / (3 + rho) (minimise), rho = 0.01. Exp. 1: 50 patterns, fixed confidence "
                "(delta, eps) = (0.05, 0.1); Exp. 3: Table 1 (K = 10 Beta arms), budget 10,000, eps = 0.1, 50 runs; "
                "Exp. 4: the same on Table 2 (K = 100).",
        figures=(Figure("Exp. 3: per-round 25%-trimmed mean simple regret", "risk_averse_exp3",
                        _curves(["simple_regret"], "Fixed budget, K = 10", stat="trimmed")),
                 Figure("Exp. 3: pull allocation per arm", "risk_averse_exp3", _pareto_pulls),
                 Figure("Exp. 4 (K = 100): per-round 25%-trimmed mean simple regret", "risk_averse_exp4",
                        _curves(["simple_regret"], "Fixed budget, K = 100", stat="trimmed")),
                 Figure("Exp. 4: pull allocation per arm", "risk_averse_exp4", _pareto_pulls),
                 Figure("Exp. 1: stopping time per pattern", "risk_averse_exp1",
                        lambda t, _: figs.mean_against(t, "stopping_time", "Fixed confidence, eps = 0.1",
                                                       "pattern"))),
        live="risk_averse_exp3", live_seeds=5, live_horizon=3000,
    ),
)
