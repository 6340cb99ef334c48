"""Table 1 instances of the lexicographic paper (LexMOSLB Sec. 4, Table 1).

Ten arms, five objectives ranked by index (objective 1 matters most). The paper's arm vectors are not
given, only their expected rewards; by the spec's decision the arms are one-hot, x_k = e_k (d = K = 10),
and theta^i is column i of the table, so the linear learners see exactly the table's means. Noise is
N(0, 1) per objective (LexMOSLB Sec. 4). Arms keep the package's 0-based names: "arm 0" is the paper's Arm 1, the
lexicographic optimum of both tables. The designed tie chain is arms (1,2) on objective 1, (2,3) on 2,
(3,4) on 3, (4,5) on 4 and (5,6) on 5 (paper numbering); the literals tie exactly.
"""

from __future__ import annotations

import numpy as np

from ..instances import PRESETS, Instance, register_preset
from ..pareto import lambda_min

PAPER = "Multiobjective Stochastic Linear Bandits under Lexicographic Ordering (LexMOSLB)"

TABLE1_LAMBDA_01 = (
    (0.42, -0.11, 0.06, -0.27, 0.41),
    (0.42, -0.24, -0.22, -0.48, 0.00),
    (0.17, -0.24, -0.40, -0.38, 0.34),
    (-0.37, -0.07, -0.40, -0.27, -0.02),
    (-0.14, -0.12, -0.09, -0.27, 0.13),
    (0.22, -0.38, -0.26, -0.50, 0.13),
    (0.30, -0.18, -0.52, -0.75, 0.08),
    (-0.06, -0.33, -0.56, -0.42, 0.10),
    (-0.23, -0.30, -0.66, -0.33, 0.35),
    (0.40, -0.40, -0.14, -0.38, 0.07),
)

TABLE1_LAMBDA_10 = (
    (0.33, 0.50, 0.20, -0.23, -0.03),
    (0.33, 0.34, -0.18, 0.24, -0.13),
    (-0.06, 0.34, 0.20, -0.21, 0.31),
    (0.28, 0.15, 0.20, -0.46, 0.18),
    (0.24, 0.29, -0.18, -0.46, 0.03),
    (0.00, -0.29, -0.26, 0.43, 0.03),
    (-0.16, 0.45, 0.40, -0.22, 0.20),
    (-0.22, -0.30, 0.03, -0.16, -0.15),
    (0.19, -0.16, -0.18, -0.06, -0.14),
    (-0.35, -0.10, 0.40, 0.02, -0.08),
)

SUGGESTED_LAMBDA = {"lexicographic_lambda_0.1": 0.1, "lexicographic_lambda_10": 10.0}  # MTE2LO input (LexMOSLB Sec. 4)
PAPER_LAMBDA = ((TABLE1_LAMBDA_01, 0.1), (TABLE1_LAMBDA_10, 10.0))
OBJECTIVES = tuple(f"objective {i} (priority {i})" for i in range(1, 6))


def table1_instance(table: tuple[tuple[float, ...], ...], lam: str, description: str) -> Instance:
    """The one-hot linear instance of one Table 1 column: features I_10, theta = the table (10 x 5)."""
    theta = np.array(table)
    return Instance.from_linear(np.eye(len(table)), theta, sigma=1.0, objective_names=OBJECTIVES,
                                name=f"lexicographic Table 1, lambda = {lam}", description=description)


@register_preset("lexicographic_lambda_0.1", paper=PAPER,
                 description="Table 1, 'lambda = 0.1' instance: 10 one-hot arms, 5 ranked objectives, N(0, 1) "
                             "noise. Arm 0 is lexicographically optimal (ties arm 1 on objective 1); the smallest "
                             "valid lambda is 0.0506. Run MTE2LO with lam = 0.1.")
def lambda_01_instance() -> Instance:
    return table1_instance(TABLE1_LAMBDA_01, "0.1", description=_description("lexicographic_lambda_0.1"))


@register_preset("lexicographic_lambda_10", paper=PAPER,
                 description="Table 1, 'lambda = 10' instance: 10 one-hot arms, 5 ranked objectives, N(0, 1) "
                             "noise. Arm 0 is lexicographically optimal (ties arm 1 on objective 1); the smallest "
                             "valid lambda is 1.2368, and most arms beat arm 0 on objective 5, so its general "
                             "regret can be negative. Run MTE2LO with lam = 10.")
def lambda_10_instance() -> Instance:
    return table1_instance(TABLE1_LAMBDA_10, "10", description=_description("lexicographic_lambda_10"))


def _description(name: str) -> str:
    return PRESETS[name].description


def suggested_lambda(means: np.ndarray) -> float:
    """MTE2LO's trade-off lambda for fixed means, the prior knowledge its Algorithm 3 takes as input.

    LexMOSLB runs each Table 1 instance with the lambda it is named after (0.1 and 10, Sec. 5); for those means
    (to 1e-9, so a rotated copy counts too) that value, otherwise the smallest lambda satisfying claim (5)
    (lambda_min, our computation): the tightest LOAF filter under which Proposition 1 still keeps the optimal arm.
    """
    m = np.asarray(means, dtype=float)
    for table, lam in PAPER_LAMBDA:
        if m.shape == np.shape(table) and np.allclose(m, table, rtol=0, atol=1e-9):
            return lam
    return lambda_min(m)[0]
