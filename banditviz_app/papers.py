"""The Papers page's catalogue: per paper, its public reference, setting, figures (each drawn from shipped results by
a builder of `banditviz.figures.papers`), its rate figures and the scaled-down live rerun.

The figures and verdicts come from `banditviz.reproduce` (shipped Parquet results with their provenance) and
`banditviz.claims` (the claims, their tolerances, the sensitivity tables and the rate fits); nothing here holds a
number from a run.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from banditviz.claims import lexmoslb, linpsi, molts, pfiwr, ramgape
from banditviz.claims.stats import local_slope
from banditviz.figures import papers as figs
from banditviz.pareto import mean_variance as risk
from banditviz.presets.ramgape import table3
from banditviz.reproduce import Result


@dataclass(frozen=True)
class Figure:
    """One figure of a paper: the shipped result it reads and how to draw it from a table of that result's layout
    (so that the live rerun draws its own table the same way)."""

    title: str
    result: str
    draw: Callable[[pd.DataFrame, Result], go.Figure]


@dataclass(frozen=True)
class Chart:
    """A figure drawn from several shipped results at once (a rate, a summary over settings)."""

    title: str
    results: tuple[str, ...]
    draw: Callable[[Mapping[str, Result]], go.Figure]


@dataclass(frozen=True)
class Paper:
    key: str  # the paper's name in the package: "pfiwr", "linpsi", "molts", "lexmoslb", "ramgape"
    tab: str  # its tab on the Papers page
    title: str
    reference: str  # authors, venue
    setting: str
    figures: tuple[Figure, ...]
    live: str  # the shipped result whose experiment the page reruns live
    live_seeds: int  # default seeds of the live rerun
    live_horizon: int | None = None  # shorter horizon for the live rerun (None: the shipped one)
    live_instances: int | None = None  # only the first instances of the config
    charts: tuple[Chart, ...] = ()  # rates and other figures over several results


def _curves(metrics: list[str], title: str, stat: str = "mean") -> Callable[[pd.DataFrame, Result], go.Figure]:
    return lambda table, _: figs.curves(table, metrics, title, stat)


def _estimation(instance: str, paper_ratio: float) -> Callable[[pd.DataFrame, Result], go.Figure]:
    """PFIwR Fig. 1a / 1b: the l2 error of both estimators on one instance, with the paper's ratio in the title."""
    return lambda table, _: figs.curves(table[table["instance"] == instance], ["estimation_error"],
                                        f"{instance}: paper's ratio at n = 2000 is {paper_ratio}")


def _fronts(title: str, eps: float | None = None) -> Callable[[pd.DataFrame, Result], go.Figure]:
    """PFIwR Figs. 2 (a) and 3 (a): the fronts the runs identified (per p, or of both algorithms at ``eps``)."""
    def draw(table: pd.DataFrame, result: Result) -> go.Figure:
        inst = next(iter(result.config.instances.values()))
        if eps is not None:
            table = table[table["params"].map(lambda p: json.loads(p)["eps"]) == eps]
        return figs.identified_fronts(table, inst.means, title, tuple(inst.objective_names))
    return draw


def _llvm_regret(table: pd.DataFrame, _: Result) -> go.Figure:
    """PFIwR Fig. 3 (b): cumulative Pareto regret of both algorithms at eps = 0.01 (one PFIMulti pull = one round)."""
    eps = table["params"].map(lambda p: json.loads(p)["eps"])
    return figs.curves(table[eps == 0.01], ["cum_pareto_regret"], "LLVM-like stand-in (not the paper's data), "
                       "eps = 0.01")


def _pareto_pulls(table: pd.DataFrame, result: Result) -> go.Figure:
    inst = next(iter(result.config.instances.values()))
    return figs.pull_allocation(table, f"Pulls per arm at the end of the budget, K = {inst.K}",
                                tuple(risk.pareto_set(inst)))


def _pfiwr_rates(results: Mapping[str, Result]) -> go.Figure:
    """PFIwR Theorem 4.3: the stopping time against Delta_eps, d and the factor 1/p^2 + 1/(1 - p)."""
    panels = []
    for key, name, x_title in (("eps", pfiwr.RATE_EPS, "Delta_eps = eps"), ("d", pfiwr.RATE_D, "d = K"),
                               ("p", pfiwr.RATE_P, "1/p^2 + 1/(1 - p)")):
        fit, theory, _ = pfiwr.rate_fit(results[name], key)
        panels.append(figs.RatePanel(f"against {x_title}", [(f"{x_title.split(' ')[0]}", fit)], theory, x_title,
                                     "mean stopping time", "the theorem's slope (log factor included)"))
    return figs.rates(panels, "PFIwR Theorem 4.3: stopping time (c_beta = 0.02, 20 runs per point)")


def _pfiwr_regret(results: Mapping[str, Result]) -> go.Figure:
    fit, theory = pfiwr.regret_fit(results[pfiwr.SENS_CB])
    return figs.rates([figs.RatePanel("Fig. 2's instance, p = 0.5, c_beta = 0.02", [("PFIwR", fit)], theory,
                                      "round t", "mean cumulative Pareto regret", "the bound's slope")],
                      "PFIwR Theorem 4.4: cumulative Pareto regret against t")


def _linpsi_rates(results: Mapping[str, Result]) -> go.Figure:
    r = results[linpsi.RATE_T]
    fits = [(f"{name}, {k}", linpsi.exponent_fit(r, alg, k)) for alg, name in (("gege_fb", "GEGE"),
                                                                               ("ege_sh", "EGE-SH"))
            for k in ("K=8", "K=128")]
    delta, theory = linpsi.delta_fit(results[linpsi.RATE_DELTA])
    return figs.rates([figs.RatePanel("Theorem 1: error against the budget (semi-log)", fits, -linpsi.GUARANTEED,
                                      "budget T", "misidentification rate", "Theorem 1's guaranteed exponent"),
                       figs.RatePanel("Theorem 3: samples against log(1/delta)", [("GEGE", delta)], theory,
                                      "log(1/delta)", "mean samples", "Theorem 3's bound")],
                      "LinPSI: GEGE's error exponent and its samples in log(1/delta)")


def _molts_rates(results: Mapping[str, Result]) -> go.Figure:
    r = results[molts.MAIN]
    fit, theory = molts.time_fit(r)
    dim, dim_theory = molts.dimension_fit(results[molts.RATE_D])
    return figs.rates([figs.RatePanel("against t (molts_main)", [
        ("MOL-TS, EPR", fit), ("MOL-TS, PR", molts.time_fit(r, column="cum_pareto_regret")[0]),
        ("eps-greedy, EPR", molts.time_fit(r, "mol_eps_greedy")[0])], theory, "round t", "mean cumulative regret",
        "Theorem 2's bound"), figs.RatePanel("against d (T = 10,000)", [
            ("MOL-TS, EPR at T", dim), ("radius growing as d^3.5", molts.dimension_fit(results[molts.RATE_D],
                                                                                    scaled=True)[0])],
            dim_theory, "d", "mean EPR", "Theorem 2's bound")],
                      "MOL-TS Theorem 2: effective Pareto regret against t and d")


def _lex_rates(results: Mapping[str, Result]) -> go.Figure:
    runs = tuple(results[n] for n in lexmoslb.RATE_T)
    Ts = [r.config.horizon for r in runs]
    panels = []
    for alg, columns, bound, name in (
            ("ste2lo", ("cum_priority_regret_1", "cum_priority_regret_2"), lexmoslb.theorem1, "STE2LO (Theorem 1)"),
            ("mte2lo", ("cum_lex_regret_1", "cum_lex_regret_5"), lambda T: lexmoslb.theorem2(T, 1),
             "MTE2LO (Theorem 2)")):
        fits = [(c.removeprefix("cum_").replace("_", " "), lexmoslb.horizon_fit(runs, alg, c)) for c in columns]
        panels.append(figs.RatePanel(name, fits, local_slope(Ts, [bound(T) for T in Ts]), "horizon T",
                                     "mean regret at T", "the bound's slope"))
    return figs.rates(panels, "LexMOSLB: regret against the horizon (lambda = 0.1, 20 runs per T)")


def _ramgape_rate(results: Mapping[str, Result]) -> go.Figure:
    fit = ramgape.rate_fit(results[ramgape.RATE])
    return figs.rates([figs.RatePanel("eps = 0.1 ... 0.5, K = 10", [("RAMGapEc", fit)], 1.0,
                                      "K / eps^2 log(K log2^2(1/eps) / delta)", "mean stopping time",
                                      "the bound's slope")],
                      "RAMGapE Theorem B.9: stopping time against the bound's complexity")


def _exp2_widths(results: Mapping[str, Result]) -> go.Figure:
    """RAMGapE Exp. 2: each arm's pulls at stopping against its gap, per algorithm and pattern (seed 1)."""
    rows = []
    table = results[ramgape.EXP2].table
    for _, row in table[table["seed"] == 1].iterrows():
        inst = table3(int(str(row["instance"]).split()[-1]))
        gap = risk.gaps(*risk.truth(inst))
        for k, n in enumerate(map(int, str(row["pulls"]).split(","))):
            rows.append({"algorithm": ramgape.NAMES[row["algorithm"]], "pattern": row["instance"], "gap": gap[k],
                         "pulls": n})
    return figs.points_against(pd.DataFrame(rows), "gap", "pulls", "algorithm", "pattern",
                               "Exp. 2 (eps = 0): pulls per arm at stopping against the arm's gap (0: Pareto arms)",
                               "gap Delta_i", "pulls at stopping", log_y=True)


def _appendix_f(results: Mapping[str, Result]) -> go.Figure:
    """MOL-TS App. F: each algorithm's final regrets per setting (mean over the 10 instances, PFIwR extended)."""
    rows = []
    for name in (molts.APPF, molts.APPF_LIN):
        for fig in molts.APPF_FIGURES:
            instances = molts.figure_instances(results[name], fig)
            for alg, part in (molts.totals(results[name], instances).items() if instances else ()):
                rows += [{"figure": f"Fig. {fig}", "algorithm": molts.NAMES[alg], **row}
                         for row in part[["cum_effective_regret", "cum_pareto_regret"]].to_dict("records")]
    return figs.totals_against(pd.DataFrame(rows), "figure", [("cum_effective_regret", "effective Pareto regret"),
                                                             ("cum_pareto_regret", "Pareto regret")], "algorithm",
                               "App. F: regrets at T = 10,000 per setting (mean ± s.e. over 10 instances)")


LEX_REGRET = ["cum_lex_regret_1", "cum_lex_regret_5"]
LEX_REWARD = [f"cum_reward_{i}" for i in range(1, 6)]

PAPERS: tuple[Paper, ...] = (
    Paper(
        key="pfiwr", tab="PFIwR",
        title="Pareto Front Identification with Regret Minimization",
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
                 Figure("Fig. 2 (a): identified Pareto fronts for p = 0.1, 0.5, 0.9", "pfiwr_sensitivity",
                        _fronts("Identified Pareto fronts")),
                 Figure("Fig. 2 (b): cumulative Pareto regret for p = 0.1, 0.5, 0.9", "pfiwr_sensitivity",
                        _curves(["cum_pareto_regret"], "PFIwR, sensitivity to p")),
                 Figure("Fig. 3 (a), on the LLVM-like stand-in (not the paper's data): identified fronts, eps = 0.01",
                        "pfiwr_llvm_like", _fronts("Identified fronts, eps = 0.01", 0.01)),
                 Figure("Fig. 3 (b), on the LLVM-like stand-in (not the paper's data): cumulative Pareto regret, "
                        "eps = 0.01", "pfiwr_llvm_like", _llvm_regret)),
        charts=(Chart("Theorem 4.3: stopping time against Delta_eps, d and p",
                      (pfiwr.RATE_EPS, pfiwr.RATE_D, pfiwr.RATE_P), _pfiwr_rates),
                Chart("Theorem 4.4: cumulative Pareto regret against t", (pfiwr.SENS_CB,), _pfiwr_regret)),
        live="pfiwr_estimation", live_seeds=3,
    ),
    Paper(
        key="linpsi", tab="Linear PSI",
        title="Bandit Pareto Set Identification in a Multi-Output Linear Model",
        reference="Kone, Kaufmann & Richert, AISTATS 2025",
        setting="Linear model, h features, 2 objectives: find the Pareto set with a fixed budget T (GEGE against "
                "EGE-SH, EGE-SR, uniform allocation) or a fixed confidence delta (GEGE against APE and PAL). "
                "Synthetic nested family (h = 8, K = 8 ... 128) and NoC (K = 259, h = 4); 500 runs per point.",
        figures=(Figure("Fig. 1: misidentification rate against K, fixed budget T = 1111",
                        "linpsi_synthetic_fixed_budget",
                        lambda t, _: figs.rate_against(t, "arms", "Fixed budget, synthetic family")),
                 Figure("Fig. 3: misidentification rate against the budget on NoC", "linpsi_noc_fixed_budget",
                        lambda t, _: figs.rate_against(t, "budget", "Fixed budget, NoC")),
                 Figure("Fig. 2: samples to stop against K, delta = 0.01", "linpsi_synthetic_fixed_confidence",
                        lambda t, _: figs.mean_against(t, "stopping_time", "Fixed confidence, synthetic family",
                                                       "arms K")),
                 Figure("Fig. 4: samples to stop on NoC, delta = 0.01", "linpsi_noc_fixed_confidence",
                        lambda t, _: figs.spread(t, "stopping_time", "Fixed confidence, NoC: samples per run"))),
        charts=(Chart("Theorems 1 and 3: error against T, samples against log(1/delta)",
                      (linpsi.RATE_T, linpsi.RATE_DELTA), _linpsi_rates),),
        live="linpsi_synthetic_fixed_budget", live_seeds=20, live_instances=3,
    ),
    Paper(
        key="molts", tab="MOL-TS",
        title="Thompson Sampling for Multi-Objective Linear Contextual Bandit",
        reference="Park, Ann & Oh (Seoul National University), NeurIPS 2025",
        setting="Contextual linear bandit, K = 50 arms, d = 5, L = 4 objectives, fresh contexts every round, "
                "sigma = 1, 10 instances (one run each): MOL-TS (M = O(log L) and M = 1), MOL-UCB and "
                "MOL-eps-greedy; Pareto regret, effective Pareto regret and cumulative reward per objective. "
                "Appendix F: the same in ten other settings of K, d and L, two of them linear (with PFIwR).",
        figures=(Figure("Fig. 2, column 1: cumulative Pareto and effective Pareto regret", "molts_main",
                        _curves(["cum_pareto_regret", "cum_effective_regret"], "MOL-TS and baselines")),
                 Figure("Fig. 2, columns 2-3: cumulative reward per objective", "molts_main",
                        _curves([f"cum_reward_{i}" for i in range(1, 5)], "Cumulative expected reward"))),
        charts=(Chart("App. F: regrets per setting", (molts.APPF, molts.APPF_LIN), _appendix_f),
                Chart("Theorem 2: regret against t and d", (molts.MAIN, molts.RATE_D), _molts_rates)),
        live="molts_main", live_seeds=1, live_horizon=300, live_instances=2,
    ),
    Paper(
        key="lexmoslb", tab="Lexicographic",
        title="Multiobjective Stochastic Linear Bandits under Lexicographic Ordering",
        reference="anonymous authors (double-blind submission)",
        setting="Linear bandit with m = 5 ranked objectives, 10 one-hot arms (Table 1), N(0, 1) noise, "
                "delta = 0.01, 10 runs: STE2LO and MTE2LO against PF-LEX and OFUL; general regret per objective "
                "and cumulative reward per objective, lambda = 0.1 and lambda = 10.",
        figures=(Figure("Fig. 2a (lambda = 0.1): general regret on objectives 1 and 5", "lexmoslb_lambda_0.1",
                        _curves(LEX_REGRET, "lambda = 0.1")),
                 Figure("lambda = 0.1: cumulative reward per objective", "lexmoslb_lambda_0.1",
                        _curves(LEX_REWARD, "lambda = 0.1")),
                 Figure("Fig. 2b (lambda = 10): general regret on objectives 1 and 5", "lexmoslb_lambda_10",
                        _curves(LEX_REGRET, "lambda = 10")),
                 Figure("lambda = 10: cumulative reward per objective", "lexmoslb_lambda_10",
                        _curves(LEX_REWARD, "lambda = 10"))),
        charts=(Chart("Theorems 1 and 2: regret against T", lexmoslb.RATE_T, _lex_rates),),
        live="lexmoslb_lambda_0.1", live_seeds=2, live_horizon=3000,
    ),
    Paper(
        key="ramgape", tab="Risk-averse",
        title="Risk-Averse Best Arm Set Identification with Fixed Budget and Fixed Confidence",
        reference="Nonaga, Tabata, Mizuno & Komatsuzaki (Hokkaido University), preprint",
        setting="K arms with rewards in [0, 1]; objectives: the mean (maximise) and the mean-variance risk "
                "xi = (sigma^2 - rho mu) / (3 + rho) (minimise), rho = 0.01. Exp. 1: 50 patterns, fixed confidence "
                "(delta, eps) = (0.05, 0.1); Exp. 2: eps = 0 on patterns 10 and 46; Exp. 3: Table 1 (K = 10 Beta "
                "arms), budget 10,000, eps = 0.1, 50 runs; Exp. 4: the same on Table 2 (K = 100).",
        figures=(Figure("Exp. 3: per-round 25%-trimmed mean simple regret", "ramgape_exp3",
                        _curves(["simple_regret"], "Fixed budget, K = 10", stat="trimmed")),
                 Figure("Exp. 3: pull allocation per arm", "ramgape_exp3", _pareto_pulls),
                 Figure("Exp. 4 (K = 100): per-round 25%-trimmed mean simple regret", "ramgape_exp4",
                        _curves(["simple_regret"], "Fixed budget, K = 100", stat="trimmed")),
                 Figure("Exp. 4: pull allocation per arm", "ramgape_exp4", _pareto_pulls),
                 Figure("Exp. 1: stopping time per pattern", "ramgape_exp1",
                        lambda t, _: figs.mean_against(t, "stopping_time", "Fixed confidence, eps = 0.1",
                                                       "pattern"))),
        charts=(Chart("Exp. 2: pulls per arm at stopping against the arm's gap", (ramgape.EXP2,), _exp2_widths),
                Chart("Theorem B.9: stopping time against K / eps^2 log(K log2^2(1/eps) / delta)", (ramgape.RATE,),
                      _ramgape_rate)),
        live="ramgape_exp3", live_seeds=5, live_horizon=3000,
    ),
)
