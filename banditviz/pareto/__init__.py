"""Pareto geometry for multi-objective bandits: the truth the engine scores runs against and the figures draw.

Every objective is **maximised**; ``means`` is a float array of shape (K, L) (K arms, L objectives). Citations use
the keys of the `banditviz` package docstring. One module per topic, every public name also importable from here:

* `means`: validating means arrays, rounding margins;
* `dominance`: Pareto dominance, the Pareto front and gap (MOL-TS Def. 1-3);
* `effective`: the effective Pareto front and gap (MOL-TS Def. 5, 6), exactly; `hulls`, their shared geometry;
  `weight_region`, the L = 3 membership test without an LP; `simplex`, their small LPs compiled;
* `drawing`: fronts as polylines and facets to draw;
* `psi`: the gaps and complexities of Pareto set identification (LinPSI Sec. 2.1);
* `hypervolume`;
* `lexicographic`: lexicographic order and lambda_min (LexMOSLB Sec. 1);
* `mean_variance`: the (mean, mean-variance risk) plane of risk-averse identification (RAMGapE Sec. 2);
* `kernels` (compiled, also called from the learners' compiled loops) and `lp` (small LPs solved by HiGHS).
"""

from .dominance import SMALL_FRONT, dominated_by, pareto_gap, pareto_mask, unique_rows
from .drawing import efficient_facets_3d, pareto_staircase_2d, upper_hull_2d
from .effective import (
    effective_gap,
    effective_gap_of,
    effective_pareto_mask,
    front_rows,
    gap_weights,
    gaps_of,
    gaps_of_compiled,
)
from .hypervolume import hypervolume
from .lexicographic import lambda_min, lex_dominates, lex_optimal, lex_order
from .means import as_means, margin
from .psi import psi_complexity, psi_gaps

__all__ = [
    "SMALL_FRONT",
    "as_means",
    "dominated_by",
    "effective_gap",
    "effective_gap_of",
    "effective_pareto_mask",
    "efficient_facets_3d",
    "front_rows",
    "gap_weights",
    "gaps_of",
    "gaps_of_compiled",
    "hypervolume",
    "lambda_min",
    "lex_dominates",
    "lex_optimal",
    "lex_order",
    "margin",
    "pareto_gap",
    "pareto_mask",
    "pareto_staircase_2d",
    "psi_complexity",
    "psi_gaps",
    "unique_rows",
    "upper_hull_2d",
]
